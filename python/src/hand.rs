//! `gin_referee.Hand`'s methods: a hand held in-process for bots and
//! self-play (its state is [`crate::held`]). OpenSpiel's numbering is in
//! [`crate::hand_ids`], the seeds in [`crate::hand_seed`].

use gin_contract::json::from_slice;
use gin_contract::problem::{ErrorCode, Problem as ContractProblem};
use gin_contract::wire::live::LegalEntry;
use gin_contract::wire::transcript::{TranscriptAction, replay_problem};
use gin_rules::Seat;
use gin_rules::selfplay::{ACTION_IDS, PLANES};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use serde_json::json;

use crate::hand_bot;
use crate::hand_ids;
use crate::hand_seed;
use crate::held::{Hand, json_text, loads, seat_of};
use crate::problem::raise;

/// What `__reduce__` gives pickle: the function that restores a hand, and
/// its arguments (the record as JSON bytes, the pending knock).
type Reduced<'py> = (Bound<'py, PyAny>, (Vec<u8>, bool));

#[pymethods]
impl Hand {
    #[new]
    #[pyo3(signature = (profile = None, deal = None, seed = None))]
    pub(crate) fn new(
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
        let answer = gin_contract::answers::state::held_answer(self.live(), seat, openspiel);
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
        let order = hand_seed::shuffled(py, seed, self.live().profile().jokers())?;
        let live = self
            .live()
            .resample(seat, &order)
            .map_err(|error| raise(py, replay_problem(error)))?;
        Ok(self.with_live(live))
    }

    /// Pickling: the record, replayed when unpickled.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let restore = py.import("gin_referee._native")?.getattr("_restore_hand")?;
        let record = serde_json::to_vec(&self.record_json())
            .map_err(|error| pyo3::exceptions::PyValueError::new_err(error.to_string()))?;
        Ok((restore, (record, self.play.knocking())))
    }

    /// The OpenSpiel id the bot `name` (`random`, `simple`, `strong`) with
    /// `seed` plays now for the seat to act, seeing only that seat's view
    /// (joker-free profiles; see `crate::hand_bot`).
    #[pyo3(signature = (name = "simple", seed = 0))]
    fn bot_id(&mut self, py: Python<'_>, name: &str, seed: u64) -> PyResult<u32> {
        let spec = hand_bot::spec(py, name, seed)?;
        hand_bot::bot_id(py, self, &spec)
    }

    /// OpenSpiel's ids listed now, ascending (joker-free profiles).
    fn legal_ids(&mut self, py: Python<'_>) -> PyResult<Vec<u32>> {
        hand_ids::check_natural(py, self)?;
        Ok(self.play.legal_ids())
    }

    /// Applies one of OpenSpiel's ids; one not listed raises and changes
    /// nothing.
    fn apply_id(&mut self, py: Python<'_>, id: i64) -> PyResult<()> {
        hand_ids::apply_id(py, self, id)
    }

    /// The listed ids as a numpy bool array of 56.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<bool>>> {
        hand_ids::check_natural(py, self)?;
        let mut mask = vec![false; ACTION_IDS];
        self.play.write_mask(&mut mask);
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
        let mut planes = vec![0; PLANES];
        self.play.write_planes(seat, &mut planes);
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
        self.play
            .outcome()
            .map(|(winner, points)| (winner.map(Seat::name), points))
    }

    fn __repr__(&self) -> String {
        format!(
            "Hand(profile={}, actions={})",
            self.profile,
            self.live().actions().len()
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
