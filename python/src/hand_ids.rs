//! OpenSpiel's `gin_rummy` numbering on `gin_referee.Hand`: the rules
//! crate's [`IdHand`](gin_rules::selfplay::IdHand) plays the ids (see
//! `gin_rules::selfplay` for the numbering; the vector environment steps
//! the same type), and this module turns its refusals into problems.
//!
//! An id not listed raises the audit's violation for the move it names, or
//! `invalid_value` where the audit would accept that move but OpenSpiel
//! does not number it (a second 55).

use gin_contract::problem::{ErrorCode, Problem as ContractProblem};
use gin_rules::selfplay::IdRefusal;
use gin_rules::{Action, Refusal, Seat};
use pyo3::prelude::*;

use crate::held::{Hand, refusal_error};
use crate::problem::{illegal, raise};

/// A profile with jokers has no OpenSpiel numbering.
pub fn check_natural(py: Python<'_>, hand: &Hand) -> PyResult<()> {
    let jokers = hand.live().profile().jokers();
    if jokers == 0 {
        return Ok(());
    }
    let detail = format!(
        "the profile plays with {jokers} joker(s): OpenSpiel's gin_rummy ids number the 52 \
         natural cards only; use legal_actions() and apply()"
    );
    Err(jokers_problem(py, detail))
}

/// The problem of ids asked of a profile with jokers.
pub fn jokers_problem(py: Python<'_>, detail: String) -> PyErr {
    let code = ErrorCode::InvalidProfileCombination;
    raise(
        py,
        ContractProblem::new(code, &detail).with_error("/profile/jokers", code, detail),
    )
}

/// Applies a listed id; one not listed raises and changes nothing.
pub fn apply_id(py: Python<'_>, hand: &mut Hand, id: i64) -> PyResult<()> {
    check_natural(py, hand)?;
    match hand.play.apply_id(id) {
        Ok(()) => Ok(()),
        Err(IdRefusal::Unlisted) => Err(refuse(py, hand, id)),
        Err(IdRefusal::Refused(refusal)) => Err(refusal_error(py, refusal)),
    }
}

/// The problem of an id not listed: the audit's violation of the move it
/// names, else `invalid_value`.
fn refuse(py: Python<'_>, hand: &mut Hand, id: i64) -> PyErr {
    let ids = hand.play.legal_ids();
    if let Some(play) = hand.play.id_move(id) {
        let player = hand.play.to_act().unwrap_or(Seat::NonDealer);
        let mut probe = hand.live().clone();
        if let Err(Refusal::Illegal(violation)) = probe.apply(Action { player, play }) {
            return illegal(py, &violation);
        }
    }
    let detail = format!("OpenSpiel action id {id} is not legal now; the legal ids are {ids:?}");
    invalid_id(py, detail)
}

/// The problem of an id that cannot be played or given now, said by
/// `detail`: a body that is well formed, a value that is not.
pub fn invalid_id(py: Python<'_>, detail: String) -> PyErr {
    raise(
        py,
        ContractProblem::new(ErrorCode::InvalidBody, &detail).with_error(
            "",
            ErrorCode::InvalidValue,
            detail,
        ),
    )
}
