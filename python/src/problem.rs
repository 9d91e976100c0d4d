//! `gin_referee.Problem` from the native side: the contract's problem
//! (`crates/gin-contract`, the service's one error table and document shape),
//! raised as the Python exception class `gin_referee._problem.Problem` with
//! the very problem+json bytes the service would send.

use gin_contract::error_codes::ErrorCode;
use gin_contract::problem::Problem;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// A problem whose one `errors[]` entry points at `pointer` (into the
/// argument: `/3` is its item 3) with the field code `field`; the message is
/// the detail.
pub fn at(
    code: ErrorCode,
    pointer: impl Into<String>,
    field: ErrorCode,
    detail: String,
) -> Problem {
    Problem::new(code, &detail).with_error(pointer, field, detail)
}

/// The Python exception for a problem document (problem+json bytes, or a
/// dict): an instance of `gin_referee.Problem`.
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

/// The `gin_referee.Problem` exception of a problem.
pub fn into_pyerr(py: Python<'_>, problem: &Problem) -> PyErr {
    raise_document(py, PyBytes::new(py, &problem.body()).into_any())
}
