//! The referee's operations for Python: `_answer(operation_id, body) -> bytes`
//! and `_signing_key(pem)`, the native side of `gin_referee._operations`.
//!
//! NOT COMPILED YET: it needs the actix-free contract crate
//! (`crates/gin-contract`, being extracted on main). Wiring it is three lines:
//!
//! 1. `python/Cargo.toml`, under `[dependencies]`:
//!    `gin-contract = { path = "../crates/gin-contract" }` (with a comment: the
//!    service's own request parsing, operations and problems, so an answer
//!    here is byte for byte the service's);
//! 2. `python/src/lib.rs`: `mod contract;` beside `mod masks;`;
//! 3. in `fn _native`: `contract::register(module)?;`.
//!
//! Then `python/tests/test_operations.py` runs instead of skipping (it checks
//! `gin_referee.operations_available()`, which looks for `_answer`), and the
//! Problem copy in `problem.rs` can give way to the contract's codes.
//!
//! Written against the API the contract crate is to expose
//! (`Operation::from_operation_id`, `Referee::{new, with_signing_key_pem,
//! answer}`, `Problem::to_json`). Main's work in progress has
//! `with_signing_key_pem` returning a `KeyError` rather than a `Problem`: if it
//! lands so, map it in `signing_key` below (its code, status and detail into
//! a problem document, as `problem::Problem::at` builds one).

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
            PyBytes::new(py, &problem.to_json()).into_any(),
        )),
    }
}

/// Sets the key that signs receipts (PKCS#8 PEM), or removes it (`None`).
#[pyfunction]
#[pyo3(signature = (pem))]
fn _signing_key(py: Python<'_>, pem: Option<&str>) -> PyResult<()> {
    let referee = match pem {
        None => Referee::new(),
        Some(pem) => Referee::new()
            .with_signing_key_pem(pem)
            .map_err(|problem| {
                raise_document(py, PyBytes::new(py, &problem.to_json()).into_any())
            })?,
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
