//! The state of `gin_referee.Hand` (its methods are in [`crate::hand`]): the
//! rules crate's [`LiveHand`], the referee's own turn machine held between
//! calls, with the profile and deal as the record writes them, the listing
//! now (computed once per action), and a knock awaiting its card (OpenSpiel's
//! 55). The record, state and listing are written by the contract's own
//! types (the `/v1/hands/state` answer), so `hand.state()` is exactly the
//! dict `hand_state` answers for `hand.record()`; the profile and the deal
//! are read as a `/v1/hands/state` body reads them (one document, so every
//! fault points where it would there: `/profile`, `/deal/dealer/3`), a move
//! as an action of its `actions`.

use gin_contract::answers::state::StateRequest;
use gin_contract::json::from_slice;
use gin_contract::problem::{ErrorCode, Problem as ContractProblem};
use gin_contract::wire::live::move_json;
use gin_contract::wire::profile_spec::resolve_profile;
use gin_contract::wire::transcript::{Replay, TranscriptAction, deal_problem, replay_problem};
use gin_rules::selfplay::{IdHand, Listing};
use gin_rules::{Action, LiveHand, Refusal, Seat};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{Value, json};

use crate::problem::{illegal, raise};

/// A hand in progress held by the module: the referee's own turn machine
/// kept between calls, so one action costs one action (no replay).
///
/// Hand(profile="standard", deal=None, seed=None): profile a preset name or
/// an object as /v1/hands/audit takes it; deal as it takes it (the cards, or
/// seeds with their commitment); or seed, an int from 0 to 2**64 - 1 (the
/// provably fair deal of server seed SHA-256("gin-referee/Hand/seed:<seed>"),
/// client seed "gin-referee/Hand", nonce 0). See docs/PYTHON.md, "Self-play".
#[pyclass(module = "gin_referee._native", name = "Hand")]
#[derive(Clone)]
pub struct Hand {
    /// The hand, played by moves or by OpenSpiel's ids (a knock by id
    /// awaiting its card, the listing now).
    pub(crate) play: IdHand,
    /// The profile as given (a preset name or an object), for the record.
    pub(crate) profile: Value,
    /// The deal as the record writes it: as given, or the seeds it came from.
    deal: Value,
}

/// JSON text of a Python value (a `str` is taken as it is written: JSON).
pub(crate) fn json_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let json = value.py().import("json")?;
    json.call_method1("dumps", (value,))?.extract()
}

/// A Python object of JSON bytes.
pub(crate) fn loads<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    json.call_method1("loads", (PyBytes::new(py, bytes),))
}

impl Hand {
    /// A hand from a `/v1/hands/state` body's `profile` and `deal` (JSON).
    pub(crate) fn read(py: Python<'_>, profile: Value, deal: Value) -> PyResult<Hand> {
        let body = json!({"profile": profile, "deal": deal, "actions": []});
        let bytes = serde_json::to_vec(&body)
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        let problem = |problem| raise(py, problem);
        let request: StateRequest = from_slice(&bytes).map_err(problem)?;
        let rules = resolve_profile(request.profile.as_ref()).map_err(problem)?;
        let replay = Replay::read(request.deal, Vec::new(), rules.jokers()).map_err(problem)?;
        let cards = replay.deal.clone();
        // Judged before any action, as the audit judges it: no hand to play.
        if let Some(violation) = replay.mismatch() {
            return Err(illegal(py, &violation));
        }
        let live = LiveHand::new(rules, cards)
            .map_err(|error| raise(py, deal_problem(&error, "/deal")))?;
        Ok(Hand {
            play: IdHand::new(live),
            profile,
            deal,
        })
    }

    /// A hand from an already held one (a resampled copy), its deal as cards.
    pub(crate) fn with_live(&self, live: LiveHand) -> Hand {
        let cards = |list: &[gin_rules::HandCard]| -> Vec<String> {
            list.iter().map(ToString::to_string).collect()
        };
        let dealt = live.deal();
        let deal = json!({
            "dealer": cards(&dealt.dealer),
            "non_dealer": cards(&dealt.non_dealer),
            "upcard": dealt.upcard.to_string(),
            "stock": cards(&dealt.stock),
        });
        let mut play = IdHand::new(live);
        play.set_knocking(self.play.knocking());
        Hand {
            play,
            profile: self.profile.clone(),
            deal,
        }
    }

    /// The held hand.
    pub(crate) fn live(&self) -> &LiveHand {
        self.play.live()
    }

    /// The phase, who acts and the listing now (cached until the next action).
    pub(crate) fn listing(&mut self) -> &Listing {
        self.play.listing()
    }

    /// Applies an action; an illegal one raises and changes nothing.
    pub(crate) fn step(&mut self, py: Python<'_>, action: Action) -> PyResult<()> {
        self.play
            .apply(action)
            .map_err(|refusal| refusal_error(py, refusal))
    }

    /// The record as `/v1/hands/audit` (and `/v1/hands/state`) take it.
    pub(crate) fn record_json(&self) -> Value {
        let actions: Vec<Value> = self.live().actions().iter().map(move_json).collect();
        json!({"profile": self.profile, "deal": self.deal, "actions": actions})
    }

    /// A hand replayed from its record (pickling).
    pub(crate) fn replayed(py: Python<'_>, record: &[u8], knocking: bool) -> PyResult<Hand> {
        let record: Value = serde_json::from_slice(record)
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        let part = |key: &str| record.get(key).cloned().unwrap_or_default();
        let mut hand = Hand::read(py, part("profile"), part("deal"))?;
        let actions = part("actions").as_array().cloned().unwrap_or_default();
        for action in actions {
            let bytes = serde_json::to_vec(&action)
                .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
            let action: TranscriptAction =
                from_slice(&bytes).map_err(|problem| raise(py, problem))?;
            hand.step(py, action.into())?;
        }
        hand.play.set_knocking(knocking);
        Ok(hand)
    }
}

/// The problem of an action the hand refused.
pub(crate) fn refusal_error(py: Python<'_>, refusal: Refusal) -> PyErr {
    match refusal {
        Refusal::Illegal(violation) => illegal(py, &violation),
        Refusal::Record(error) => raise(py, replay_problem(error)),
    }
}

/// A seat by its name, or the problem `invalid_body` at `/seat`.
pub(crate) fn seat_of(py: Python<'_>, seat: Option<&str>) -> PyResult<Option<Seat>> {
    match seat {
        None => Ok(None),
        Some("dealer") => Ok(Some(Seat::Dealer)),
        Some("non_dealer") => Ok(Some(Seat::NonDealer)),
        Some(other) => {
            let detail = format!("unknown seat {other:?}: the seats are dealer and non_dealer");
            Err(raise(
                py,
                ContractProblem::new(ErrorCode::InvalidBody, &detail).with_error(
                    "/seat",
                    ErrorCode::UnknownVariant,
                    detail,
                ),
            ))
        }
    }
}
