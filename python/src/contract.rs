//! The referee's operations for Python: `_answer(operation_id, body) -> bytes`
//! and `_signing_key(pem)`, the native side of `gin_referee._operations`.
//!
//! The answers are `gin_contract::referee::Referee::answer`'s: the service's
//! own reading of the body, operations and problems, so an answer here is
//! byte for byte the service's.

use std::sync::{Arc, PoisonError, RwLock};

use gin_contract::referee::{Operation, Referee};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::problem::raise_document;

/// The referee every call answers with: default limits, and the signing key
/// once `signing_key` sets one. Replaced whole, never mutated, so a call in
/// flight keeps the referee it started with.
static REFEREE: RwLock<Option<Arc<Referee>>> = RwLock::new(None);

fn referee() -> Arc<Referee> {
    if let Some(referee) = REFEREE
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
    {
        return Arc::clone(referee);
    }
    let mut slot = REFEREE.write().unwrap_or_else(PoisonError::into_inner);
    Arc::clone(slot.get_or_insert_with(|| Arc::new(Referee::new())))
}

/// The 200 answer of an operation to a JSON body, as bytes; a refusal raises
/// `gin_referee.Problem` with the service's problem document. Runs without
/// the GIL (a long match audit does not stop other threads).
#[pyfunction]
fn _answer<'py>(py: Python<'py>, operation_id: &str, body: &[u8]) -> PyResult<Bound<'py, PyBytes>> {
    let Some(operation) = Operation::from_operation_id(operation_id) else {
        // A bug of the Python half, not of the request.
        return Err(PyValueError::new_err(format!(
            "no operation has the id {operation_id:?}"
        )));
    };
    let referee = referee();
    // `body` borrows an immutable `bytes`: safe to read without the GIL.
    match py.detach(|| referee.answer(operation, body)) {
        Ok(answer) => Ok(PyBytes::new(py, &answer)),
        Err(problem) => Err(raise_document(
            py,
            PyBytes::new(py, &problem.body()).into_any(),
        )),
    }
}

/// Sets the key that signs receipts (PKCS#8 PEM), or removes it (`None`).
#[pyfunction]
#[pyo3(signature = (pem))]
fn _signing_key(pem: Option<&str>) -> PyResult<()> {
    let referee = match pem {
        None => Referee::new(),
        Some(pem) => Referee::new()
            .with_signing_key_pem(pem)
            // A key that does not read is the caller's argument, not a
            // request: a plain ValueError that says why.
            .map_err(|error| PyValueError::new_err(error.to_string()))?,
    };
    *REFEREE.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(referee));
    Ok(())
}

/// Adds `_answer` and `_signing_key` to the native module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(_answer, module)?)?;
    module.add_function(wrap_pyfunction!(_signing_key, module)?)?;
    Ok(())
}
