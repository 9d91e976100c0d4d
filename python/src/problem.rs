//! `gin_referee.Problem` from the native side: the contract's problem (the
//! service's own, `gin_contract::problem`) and its problem+json document,
//! raised as the Python exception class `gin_referee._problem.Problem`.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

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
