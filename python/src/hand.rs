//! `gin_referee.Hand`: a hand held in-process for bots and self-play (the
//! rules crate's [`LiveHand`], the referee's own turn machine kept between
//! calls). Its record, state and listing are written by the contract's own
//! types (the `/v1/hands/state` answer), so `hand.state()` is exactly the
//! dict `hand_state` answers for `hand.record()`.
//!
//! The profile and the deal are read as a `/v1/hands/state` body reads them
//! (one document, so every fault points where it would there: `/profile`,
//! `/deal/dealer/3`); a move as an action of its `actions`. OpenSpiel's
//! numbering is in [`crate::hand_ids`], the seeds in [`crate::hand_seed`].

use gin_contract::answers::state::StateRequest;
use gin_contract::json::from_slice;
use gin_contract::problem::{ErrorCode, Problem as ContractProblem};
use gin_contract::wire::live::{LegalEntry, StateResponse, move_json};
use gin_contract::wire::profile_spec::resolve_profile;
use gin_contract::wire::transcript::{Replay, TranscriptAction, deal_problem, replay_problem};
use gin_rules::{Action, LegalAction, LiveHand, Refusal, Seat, StatePhase, Violation};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};
use serde_json::{Value, json};

use crate::hand_ids;
use crate::hand_seed;
use crate::problem::Problem;

/// What `__reduce__` gives pickle: the function that restores a hand, and
/// its arguments (the record as JSON bytes, the pending knock).
type Reduced<'py> = (Bound<'py, PyAny>, (Vec<u8>, bool));

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
    pub(crate) live: LiveHand,
    /// The profile as given (a preset name or an object), for the record.
    profile: Value,
    /// The deal as the record writes it: as given, or the seeds it came from.
    deal: Value,
    /// OpenSpiel's 55 was applied: the knock's discard is awaited.
    pub(crate) knocking: bool,
    /// The listing now, computed once per action.
    listing: Option<(StatePhase, Option<Seat>, Vec<LegalAction>)>,
}

/// A problem of the input, as a Python exception.
pub(crate) fn raise(py: Python<'_>, problem: ContractProblem) -> PyErr {
    Problem(problem).into_pyerr(py)
}

/// JSON text of a Python value (a `str` is taken as it is written: JSON).
fn json_text(value: &Bound<'_, PyAny>) -> PyResult<String> {
    let json = value.py().import("json")?;
    json.call_method1("dumps", (value,))?.extract()
}

/// A Python object of JSON bytes.
pub(crate) fn loads<'py>(py: Python<'py>, bytes: &[u8]) -> PyResult<Bound<'py, PyAny>> {
    let json = py.import("json")?;
    json.call_method1("loads", (PyBytes::new(py, bytes),))
}

/// The problem of an illegal action: 422, `code` the audit's violation code
/// (the rules' docs list them), `errors[0]` at the part of the move at fault.
pub(crate) fn illegal(py: Python<'_>, violation: &Violation) -> PyErr {
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
        Ok(bytes) => crate::problem::raise_document(py, PyBytes::new(py, &bytes).into_any()),
        Err(error) => pyo3::exceptions::PyRuntimeError::new_err(error.to_string()),
    }
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
            live,
            profile,
            deal,
            knocking: false,
            listing: None,
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
        Hand {
            live,
            profile: self.profile.clone(),
            deal,
            knocking: self.knocking,
            listing: None,
        }
    }

    /// The phase, who acts and the listing now (cached until the next action).
    pub(crate) fn listing(&mut self) -> &(StatePhase, Option<Seat>, Vec<LegalAction>) {
        let live = &self.live;
        self.listing.get_or_insert_with(|| live.now())
    }

    /// Applies an action; an illegal one raises and changes nothing.
    pub(crate) fn step(&mut self, py: Python<'_>, action: Action) -> PyResult<()> {
        match self.live.apply(action) {
            Ok(()) => {
                self.listing = None;
                self.knocking = false;
                Ok(())
            }
            Err(Refusal::Illegal(violation)) => Err(illegal(py, &violation)),
            Err(Refusal::Record(error)) => Err(raise(py, replay_problem(error))),
        }
    }

    /// The record as `/v1/hands/audit` (and `/v1/hands/state`) take it.
    fn record_json(&self) -> Value {
        let actions: Vec<Value> = self.live.actions().iter().map(move_json).collect();
        json!({"profile": self.profile, "deal": self.deal, "actions": actions})
    }

    /// A hand replayed from its record (pickling).
    fn replayed(py: Python<'_>, record: &[u8], knocking: bool) -> PyResult<Hand> {
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
        hand.knocking = knocking;
        Ok(hand)
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

#[pymethods]
impl Hand {
    #[new]
    #[pyo3(signature = (profile = None, deal = None, seed = None))]
    fn new(
        py: Python<'_>,
        profile: Option<&Bound<'_, PyAny>>,
        deal: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Hand> {
        let profile = match profile {
            None => json!("standard"),
            Some(text) if text.is_instance_of::<PyString>() => json!(text.extract::<String>()?),
            Some(object) => serde_json::from_str(&json_text(object)?)
                .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?,
        };
        let deal = match (deal, seed) {
            (Some(deal), None) => serde_json::from_str(&json_text(deal)?)
                .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?,
            (None, Some(seed)) => hand_seed::seeded(py, seed)?,
            _ => {
                let detail = "give a deal or a seed, not both and not neither";
                return Err(raise(
                    py,
                    ContractProblem::new(ErrorCode::InvalidBody, detail).with_error(
                        "",
                        ErrorCode::InvalidValue,
                        detail,
                    ),
                ));
            }
        };
        Hand::read(py, profile, deal)
    }

    /// Applies one move: a `move` as `legal_actions()` lists it, or the whole
    /// entry.
    fn apply(&mut self, py: Python<'_>, play: &Bound<'_, PyAny>) -> PyResult<()> {
        let play = match play.cast::<PyDict>() {
            Ok(entry) => entry.get_item("move")?.unwrap_or_else(|| play.clone()),
            Err(_) => play.clone(),
        };
        let action: TranscriptAction =
            from_slice(json_text(&play)?.as_bytes()).map_err(|problem| raise(py, problem))?;
        self.step(py, action.into())
    }

    /// The `legal_actions` of `/v1/hands/state` now.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let (phase, _, listing) = self.listing();
        let entries: Vec<LegalEntry> = listing
            .iter()
            .map(|legal| LegalEntry::new(legal, *phase, false))
            .collect();
        let bytes = serde_json::to_vec(&entries)
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        loads(py, &bytes)
    }

    /// Exactly what `hand_state` answers for `record()` with `seat` and
    /// `openspiel`.
    #[pyo3(signature = (seat = None, openspiel = false))]
    fn state<'py>(
        &self,
        py: Python<'py>,
        seat: Option<&str>,
        openspiel: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let seat = seat_of(py, seat)?;
        let answer = StateResponse::new(self.live.state(seat), openspiel);
        let bytes = serde_json::to_vec(&answer)
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        loads(py, &bytes)
    }

    /// The profile, deal and actions as `/v1/hands/audit` takes them.
    fn record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let bytes = serde_json::to_vec(&self.record_json())
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        loads(py, &bytes)
    }

    /// An independent copy.
    fn copy(&self) -> Hand {
        self.clone()
    }

    fn __copy__(&self) -> Hand {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Hand {
        self.clone()
    }

    /// A copy in which every card `seat` cannot know is dealt again from `seed`.
    fn resample(&self, py: Python<'_>, seat: &str, seed: &Bound<'_, PyAny>) -> PyResult<Hand> {
        let Some(seat) = seat_of(py, Some(seat))? else {
            return Err(pyo3::exceptions::PyValueError::new_err("a seat is needed"));
        };
        let order = hand_seed::shuffled(py, seed, self.live.profile().jokers())?;
        let live = self
            .live
            .resample(seat, &order)
            .map_err(|error| raise(py, replay_problem(error)))?;
        Ok(self.with_live(live))
    }

    /// Pickling: the record, replayed when unpickled.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let restore = py.import("gin_referee._native")?.getattr("_restore_hand")?;
        let record = serde_json::to_vec(&self.record_json())
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        Ok((restore, (record, self.knocking)))
    }

    /// OpenSpiel's ids listed now, ascending (joker-free profiles).
    fn legal_ids(&mut self, py: Python<'_>) -> PyResult<Vec<u32>> {
        hand_ids::check_natural(py, self)?;
        Ok(hand_ids::legal_ids(self))
    }

    /// Applies one of OpenSpiel's ids; one not listed raises and changes
    /// nothing.
    fn apply_id(&mut self, py: Python<'_>, id: i64) -> PyResult<()> {
        hand_ids::apply_id(py, self, id)
    }

    /// The listed ids as a numpy bool array of 56.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        hand_ids::check_natural(py, self)?;
        let mut mask = vec![false; hand_ids::IDS];
        for id in hand_ids::legal_ids(self) {
            if let Some(slot) = mask.get_mut(id as usize) {
                *slot = true;
            }
        }
        Ok(PyArray1::from_vec(py, mask))
    }

    /// What `seat` may know as five planes of 52 (OpenSpiel card ids): its
    /// hand, the pile's top, the rest of the pile, the opponent's cards it
    /// saw taken, the cards it cannot see; a numpy int8 array (5, 52).
    fn observation<'py>(
        &self,
        py: Python<'py>,
        seat: &str,
    ) -> PyResult<Bound<'py, numpy::PyArray2<i8>>> {
        let seat = seat_of(py, Some(seat))?.unwrap_or(Seat::NonDealer);
        let planes: Vec<i8> = hand_ids::planes(self, seat)
            .into_iter()
            .map(|bit| i8::from(bit == 1))
            .collect();
        let array = PyArray1::from_vec(py, planes);
        array.reshape([5, 52])
    }

    /// The seat to act (`"dealer"`, `"non_dealer"`), or `None` once over.
    #[pyo3(name = "to_act")]
    fn seat_to_act(&mut self) -> Option<&'static str> {
        self.listing().1.map(Seat::name)
    }

    /// Once the hand is over: `(winner, points)`, the winner's seat name, or
    /// `(None, 0)` for a void hand; `None` while it is played.
    fn outcome(&mut self) -> Option<(Option<&'static str>, u32)> {
        hand_ids::outcome(self).map(|(winner, points)| (winner.map(Seat::name), points))
    }

    fn __repr__(&self) -> String {
        format!(
            "Hand(profile={}, actions={})",
            self.profile,
            self.live.actions().len()
        )
    }
}

/// Unpickles a `Hand`: its record replayed.
#[pyfunction]
fn _restore_hand(py: Python<'_>, record: &[u8], knocking: bool) -> PyResult<Hand> {
    Hand::replayed(py, record, knocking)
}

/// Adds `Hand` to the native module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Hand>()?;
    module.add_function(wrap_pyfunction!(_restore_hand, module)?)?;
    Ok(())
}
