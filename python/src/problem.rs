//! `gin_referee.Problem` from the native side: the contract's problem (the
//! service's own, `gin_contract::problem`) and its problem+json document,
//! raised as the Python exception class `gin_referee._problem.Problem`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::json;

use gin_contract::problem::Problem as ContractProblem;
use gin_rules::Violation;

pub use gin_contract::problem::ErrorCode as Code;

/// The code of a rules-library profile error, from the one error table.
pub fn profile_code(error: &gin_rules::ProfileError) -> Code {
    use gin_contract::rule_errors::RuleError;
    error.error_code()
}

/// A problem on its way to Python.
pub struct Problem(pub gin_contract::problem::Problem);

impl Problem {
    /// A problem whose one `errors[]` entry points at `pointer`, with the
    /// field code `field`.
    pub fn at(code: Code, pointer: String, field: Code, detail: String) -> Problem {
        Problem(
            gin_contract::problem::Problem::new(code, detail.clone())
                .with_error(pointer, field, detail),
        )
    }

    /// The `gin_referee.Problem` exception of this problem.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        raise_document(py, PyBytes::new(py, &self.0.body()).into_any())
    }
}

/// The Python exception for a problem document (a dict, or problem+json
/// bytes): an instance of `gin_referee.Problem`.
pub fn raise_document(py: Python<'_>, document: Bound<'_, PyAny>) -> PyErr {
    let built = py
        .import("gin_referee._problem")
        .and_then(|module| module.getattr("Problem"))
        .and_then(|class| class.call1((document,)));
    match built {
        Ok(exception) => PyErr::from_value(exception),
        // The package is installed with its Python half, so this is a broken
        // installation: say so rather than lose the problem.
        Err(cause) => {
            let error = PyRuntimeError::new_err(
                "gin_referee._problem.Problem could not be raised (broken installation?)",
            );
            error.set_cause(py, Some(cause));
            error
        }
    }
}

/// A problem of the input, as a Python exception.
pub fn raise(py: Python<'_>, problem: ContractProblem) -> PyErr {
    Problem(problem).into_pyerr(py)
}

/// The problem of an illegal action: 422, `code` the audit's violation code
/// (the rules' docs list them), `errors[0]` at the part of the move at fault.
pub fn illegal(py: Python<'_>, violation: &Violation) -> PyErr {
    let code = violation.code.as_str();
    let pointer = violation
        .field
        .as_ref()
        .map_or(String::new(), |field| format!("/{field}"));
    let document = json!({
        "type": format!("/problems/{code}"),
        "title": "Illegal action",
        "status": 422,
        "detail": violation.message,
        "code": code,
        "errors": [{"pointer": pointer, "code": code, "message": violation.message}],
    });
    match serde_json::to_vec(&document) {
        Ok(bytes) => raise_document(py, PyBytes::new(py, &bytes).into_any()),
        Err(error) => pyo3::exceptions::PyRuntimeError::new_err(error.to_string()),
    }
}
