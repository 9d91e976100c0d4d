//! The seeds of `gin_referee.Hand`: a deal drawn from an int through the
//! provably fair deal, the same in every version, and the shuffled deck a
//! resample deals the unknown cards in.
//!
//! `Hand(seed=n)` deals as `POST /v1/deals` deals from the seeds
//! server seed = SHA-256 of the UTF-8 text `gin-referee/Hand/seed:<n>` (n
//! in decimal), client seed `gin-referee/Hand`, nonce 0; its record gives
//! those seeds with their commitment, so any referee can check the deal.
//! `resample(seat, n)` ranks the unknown cards by their place in the deal
//! of server seed SHA-256 of `gin-referee/Hand/resample:<n>` (same client
//! seed and nonce), read dealer's cards, non-dealer's, upcard, stock.

use gin_contract::problem::{ErrorCode, Problem as ContractProblem};
use gin_rules::HandCard;
use gin_rules::fair_deal::ServerSeed;
use gin_rules::selfplay::{CLIENT_SEED, deal_server_seed, resample_order};
use pyo3::prelude::*;
use serde_json::{Value, json};

use crate::problem::raise;

/// An int from 0 to 2**64 - 1, or the problem `invalid_body` at `/seed`.
pub fn seed_of(py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<u64> {
    seed.extract::<u64>().map_err(|_| {
        let detail = "a seed is an int from 0 to 2**64 - 1";
        raise(
            py,
            ContractProblem::new(ErrorCode::InvalidBody, detail).with_error(
                "/seed",
                ErrorCode::InvalidValue,
                detail,
            ),
        )
    })
}

/// The deal of `Hand(seed=n)`, as its record writes it: seeds and commitment.
pub fn seeded(py: Python<'_>, seed: &Bound<'_, PyAny>) -> PyResult<Value> {
    let server = deal_server_seed(seed_of(py, seed)?);
    let commitment = ServerSeed::from_hex(&server)
        .map(|seed| seed.commitment())
        .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
    Ok(json!({
        "seeds": {"server_seed": server, "client_seed": CLIENT_SEED, "nonce": 0},
        "commitment": commitment,
    }))
}

/// The deck (with the profile's `jokers`) in the order a resample from
/// `seed` ranks the unknown cards.
pub fn shuffled(py: Python<'_>, seed: &Bound<'_, PyAny>, jokers: u8) -> PyResult<Vec<HandCard>> {
    resample_order(seed_of(py, seed)?, jokers)
        .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))
}
