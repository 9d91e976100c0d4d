//! `gin_referee._native`: the compiled half of the Python module `gin_referee`.
//!
//! The public names live in the Python package (`python/gin_referee`), which
//! documents them and re-exports these functions. Every fault of the input is
//! a `gin_referee.Problem` (a `ValueError` carrying the service's problem+json
//! document), never a panic: the workspace lints deny unwrap, expect, panic
//! and indexing here as in the service.

mod contract;
mod hand;
mod hand_bot;
mod hand_ids;
mod hand_seed;
mod held;
mod masks;
mod problem;
mod vector;

use std::str::FromStr;

use gin_rules::{Card, HandCard, Preset, Profile};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyString;

use masks::MaskFault;
use problem::{Code, Problem};

/// The profile of a preset name, or the service's `unknown_profile`.
fn preset_profile(name: &str) -> Result<Profile, Problem> {
    Preset::from_str(name)
        .map(Preset::profile)
        .map_err(|error| {
            let detail = error.to_string();
            Problem::at(
                problem::profile_code(&error),
                "/profile".into(),
                Code::UnknownProfile,
                detail,
            )
        })
}

/// One card of the notation at `pointer`: what the service answers for it
/// where a hand is read (`invalid_body` for text that is no card,
/// `joker_not_in_deck` for a joker, which no mask can hold).
fn parse_card(text: &str, pointer: String) -> Result<Card, Problem> {
    match HandCard::from_str(text) {
        Ok(HandCard::Natural(card)) => Ok(card),
        Ok(HandCard::Joker(joker)) => {
            let detail = format!(
                "{joker} is a joker: an OpenSpiel card mask holds the 52 natural cards only"
            );
            Err(Problem::at(
                Code::JokerNotInDeck,
                pointer,
                Code::JokerNotInDeck,
                detail,
            ))
        }
        Err(error) => {
            let detail = format!("the card at {pointer} cannot be read: {error}");
            Err(Problem::at(
                Code::InvalidBody,
                pointer,
                Code::InvalidValue,
                detail,
            ))
        }
    }
}

/// Adds a card to a mask; a card already there is the service's `duplicate_card`.
fn add_card(mask: &mut u64, card: Card, pointer: String) -> Result<(), Problem> {
    let bit = 1u64 << card.openspiel_id();
    if *mask & bit != 0 {
        let detail = format!("the card {card} appears more than once");
        return Err(Problem::at(
            Code::DuplicateCard,
            pointer,
            Code::DuplicateCard,
            detail,
        ));
    }
    *mask |= bit;
    Ok(())
}

/// The OpenSpiel mask of a list of cards, or of a string of cards separated by
/// whitespace.
#[pyfunction]
fn card_mask(py: Python<'_>, cards: &Bound<'_, PyAny>) -> PyResult<u64> {
    card_mask_of(cards).map_err(|problem| problem.into_pyerr(py))
}

fn card_mask_of(cards: &Bound<'_, PyAny>) -> Result<u64, Problem> {
    let mut mask = 0u64;
    if let Ok(text) = cards.cast::<PyString>() {
        let text = text
            .to_cow()
            .map_err(|_| not_text("", "the cards are not valid text"))?;
        for (index, word) in text.as_ref().split_whitespace().enumerate() {
            add_card(
                &mut mask,
                parse_card(word, format!("/{index}"))?,
                format!("/{index}"),
            )?;
        }
        return Ok(mask);
    }
    let items = cards
        .try_iter()
        .map_err(|_| not_text("", "the cards must be a list of strings, or one string"))?;
    for (index, item) in items.enumerate() {
        let pointer = format!("/{index}");
        let item = item.map_err(|_| not_text("", "the cards could not be iterated"))?;
        let Ok(text) = item.cast::<PyString>() else {
            return Err(not_text(
                &pointer,
                &format!("the item at {pointer} is not a string"),
            ));
        };
        let text = text.to_cow().map_err(|_| {
            not_text(
                &pointer,
                &format!("the item at {pointer} is not valid text"),
            )
        })?;
        add_card(&mut mask, parse_card(&text, pointer.clone())?, pointer)?;
    }
    Ok(mask)
}

/// `invalid_body` with the field code `invalid_type`.
fn not_text(pointer: &str, detail: &str) -> Problem {
    Problem::at(
        Code::InvalidBody,
        pointer.to_owned(),
        Code::InvalidType,
        detail.to_owned(),
    )
}

/// The cards of an OpenSpiel mask in canonical notation, by ascending card id.
#[pyfunction]
fn mask_cards(py: Python<'_>, mask: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    let bad =
        |detail: String| Problem::at(Code::InvalidBody, String::new(), Code::InvalidValue, detail);
    let value = match mask.extract::<u64>() {
        Ok(value) if value & !masks::DECK_MASK == 0 => value,
        Ok(value) => {
            let bit = (value & !masks::DECK_MASK).trailing_zeros();
            let detail = format!("the mask has bit {bit} set: OpenSpiel card ids run from 0 to 51");
            return Err(past_deck(String::new(), detail).into_pyerr(py));
        }
        Err(_) => {
            let detail = "a card mask is an integer from 0 to 2**52 - 1".to_owned();
            return Err(bad(detail).into_pyerr(py));
        }
    };
    let mut cards = Vec::with_capacity(value.count_ones() as usize);
    let mut rest = value;
    while rest != 0 {
        let id = rest.trailing_zeros();
        rest &= rest - 1;
        if let Some(card) = Card::from_openspiel_id(id) {
            cards.push(card.notation());
        }
    }
    Ok(cards)
}

/// A mask with a bit past the deck: the problem `invalid_value` (the code
/// the Python contract names for it), its one error at `pointer`.
fn past_deck(pointer: String, detail: String) -> Problem {
    Problem::at(Code::InvalidValue, pointer, Code::InvalidValue, detail)
}

/// The problem for the first bad mask.
fn mask_problem(fault: MaskFault) -> Problem {
    match fault {
        MaskFault::BitPastDeck { index, bit } => {
            let detail =
                format!("mask {index} has bit {bit} set: OpenSpiel card ids run from 0 to 51");
            past_deck(format!("/{index}"), detail)
        }
        MaskFault::CardCount { index, cards } => {
            let detail = format!(
                "mask {index} holds {cards} cards: a hand holds 10, or 11 right after the draw"
            );
            Problem::at(
                Code::WrongCardCount,
                format!("/{index}"),
                Code::WrongCardCount,
                detail,
            )
        }
    }
}

/// The least deadwood of every mask (a contiguous 1-D uint64 array), as uint16.
/// Runs without the GIL.
#[pyfunction]
#[pyo3(signature = (masks, profile = "standard"))]
fn min_deadwood_many<'py>(
    py: Python<'py>,
    masks: PyReadonlyArray1<'py, u64>,
    profile: &str,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    let rules = preset_profile(profile)
        .map_err(|problem| problem.into_pyerr(py))?
        .joker_rules();
    // A copy, taken with the GIL held: once it is released, Python code may
    // write to the caller's array, and the solver must read a stable one. It
    // costs a memcpy (under 2 ms for a million masks, `scripts/python/bench.py`).
    let input: Vec<u64> = match masks.as_slice() {
        Ok(slice) => slice.to_vec(),
        Err(_) => masks.as_array().iter().copied().collect(),
    };
    let answer = py.detach(move || match masks::first_fault(&input) {
        Some(fault) => Err(fault),
        None => Ok(masks::deadwood_many(&input, &rules)),
    });
    match answer {
        Ok(deadwood) => Ok(PyArray1::from_vec(py, deadwood)),
        Err(fault) => Err(mask_problem(fault).into_pyerr(py)),
    }
}

/// The knock limit under a preset, given the first upcard where the preset's
/// limit depends on it.
#[pyfunction]
#[pyo3(signature = (profile = "standard", upcard = None))]
fn knock_limit(py: Python<'_>, profile: &str, upcard: Option<&str>) -> PyResult<u32> {
    let limit = || -> Result<u32, Problem> {
        let profile = preset_profile(profile)?;
        let upcard = upcard
            .map(|text| parse_card(text, "/upcard".into()))
            .transpose()?;
        profile.knock_limit_for(upcard).map_err(|error| {
            let code = problem::profile_code(&error);
            Problem::at(code, "/upcard".into(), code, error.to_string())
        })
    };
    limit().map_err(|problem| problem.into_pyerr(py))
}

/// The native module.
#[pymodule]
fn _native(module: &Bound<'_, PyModule>) -> PyResult<()> {
    contract::register(module)?;
    hand::register(module)?;
    vector::register(module)?;
    module.add_function(wrap_pyfunction!(card_mask, module)?)?;
    module.add_function(wrap_pyfunction!(mask_cards, module)?)?;
    module.add_function(wrap_pyfunction!(min_deadwood_many, module)?)?;
    module.add_function(wrap_pyfunction!(knock_limit, module)?)?;
    Ok(())
}
