//! `gin_referee.vector`'s engine: the rules crate's
//! [`HandBatch`](gin_rules::selfplay::HandBatch) (many held hands played
//! by OpenSpiel's ids, the same [`IdHand`](gin_rules::selfplay::IdHand)
//! as `gin_referee.Hand`) over NumPy arrays allocated once, stepped without
//! the GIL. The Python class `gin_referee.vector.GinVectorEnv` wraps it.

use gin_rules::bots::{BotName, BotSpec};
use gin_rules::selfplay::{ACTION_IDS, BatchError, HandBatch, Opponent, Rows, random_ids};
use numpy::{PyArray1, PyArray2, PyArray3, PyArrayDyn, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::hand_ids::{check_natural, jokers_problem};
use crate::hand_seed::seed_of;
use crate::held::Hand;
use crate::problem::{Code, Problem};

/// The arrays a step writes, one row per hand, allocated once.
struct Arrays {
    observation: Py<PyArray3<i8>>,
    reward: Py<PyArrayDyn<f32>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
    action_mask: Py<PyArray2<bool>>,
    current_player: Py<PyArray1<i8>>,
}

/// Many hands held in Rust and stepped together (see `gin_referee.vector`).
#[pyclass(module = "gin_referee._native", name = "_HandBatch")]
pub struct Batch {
    core: HandBatch,
    seed: u64,
    threads: usize,
    arrays: Arrays,
    /// The ids of the step being applied, copied from the caller's array
    /// while the GIL is held (Python code may write to that array once it
    /// is released).
    actions: Vec<i64>,
}

/// `invalid_body` with one error at `pointer` (field code `invalid_value`).
fn invalid(py: Python<'_>, pointer: &str, detail: String) -> PyErr {
    Problem::at(
        Code::InvalidBody,
        pointer.into(),
        Code::InvalidValue,
        detail,
    )
    .into_pyerr(py)
}

fn batch_error(py: Python<'_>, error: BatchError) -> PyErr {
    match error {
        BatchError::Jokers(_) => jokers_problem(py, error.to_string()),
        BatchError::Shape { what, .. } => invalid(py, &format!("/{what}"), error.to_string()),
        BatchError::Deal(_) | BatchError::Bot(_) | BatchError::Thread => {
            PyRuntimeError::new_err(error.to_string())
        }
    }
}

impl Batch {
    /// Runs `work` on the core and the arrays' memory, without the GIL.
    fn write(
        &mut self,
        py: Python<'_>,
        work: impl FnOnce(&mut HandBatch, &[i64], Rows<'_>, usize) -> Result<(), BatchError> + Send,
    ) -> PyResult<()> {
        let Batch {
            core,
            threads,
            arrays,
            actions,
            ..
        } = self;
        let mut observation = arrays.observation.bind(py).readwrite();
        let mut reward = arrays.reward.bind(py).readwrite();
        let mut terminated = arrays.terminated.bind(py).readwrite();
        let mut truncated = arrays.truncated.bind(py).readwrite();
        let mut action_mask = arrays.action_mask.bind(py).readwrite();
        let mut current_player = arrays.current_player.bind(py).readwrite();
        let rows = Rows {
            observation: observation.as_slice_mut()?,
            reward: reward.as_slice_mut()?,
            terminated: terminated.as_slice_mut()?,
            truncated: truncated.as_slice_mut()?,
            mask: action_mask.as_slice_mut()?,
            current_player: current_player.as_slice_mut()?,
        };
        let threads = *threads;
        let actions = actions.as_slice();
        py.detach(move || work(core, actions, rows, threads))
            .map_err(|error| batch_error(py, error))
    }
}

#[pymethods]
impl Batch {
    #[new]
    #[pyo3(signature = (num_envs, profile = None, seed = None, threads = None, opponent = None, seat = None))]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        profile: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
        threads: Option<usize>,
        opponent: Option<&str>,
        seat: Option<&str>,
    ) -> PyResult<Batch> {
        if num_envs == 0 {
            return Err(invalid(py, "/num_envs", "num_envs is at least 1".into()));
        }
        let seed = match seed {
            Some(seed) => seed_of(py, seed)?,
            None => 0,
        };
        let threads = match threads {
            Some(0) => return Err(invalid(py, "/threads", "threads is at least 1".into())),
            Some(threads) => threads,
            None => std::thread::available_parallelism().map_or(1, usize::from),
        };
        // The profile read as `Hand` reads it: the same faults, the same
        // refusal of jokers.
        let probe = Hand::new(py, profile, None, Some(&0u64.into_pyobject(py)?.into_any()))?;
        check_natural(py, &probe)?;
        let opponent = opponent_of(py, opponent, seat)?;
        let core = HandBatch::against(probe.live().profile().clone(), num_envs, seed, opponent)
            .map_err(|error| batch_error(py, error))?;
        let reward: &[usize] = match core.reward_columns() {
            1 => &[num_envs],
            _ => &[num_envs, 2],
        };
        let arrays = Arrays {
            observation: PyArray3::zeros(py, [num_envs, 5, 52], false).unbind(),
            reward: PyArrayDyn::zeros(py, reward, false).unbind(),
            terminated: PyArray1::zeros(py, num_envs, false).unbind(),
            truncated: PyArray1::zeros(py, num_envs, false).unbind(),
            action_mask: PyArray2::zeros(py, [num_envs, ACTION_IDS], false).unbind(),
            current_player: PyArray1::zeros(py, num_envs, false).unbind(),
        };
        let mut batch = Batch {
            core,
            seed,
            threads,
            arrays,
            actions: vec![0; num_envs],
        };
        batch.write(py, move |core, _, rows, threads| {
            core.reset(seed, rows, threads)
        })?;
        Ok(batch)
    }

    /// Deals every hand again: from `seed`, or the constructor's.
    #[pyo3(signature = (seed = None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let seed = match seed {
            Some(seed) => seed_of(py, seed)?,
            None => self.seed,
        };
        self.write(py, move |core, _, rows, threads| {
            core.reset(seed, rows, threads)
        })
    }

    /// Applies one id per hand (a 1-D int64 array).
    fn step(&mut self, py: Python<'_>, actions: PyReadonlyArray1<'_, i64>) -> PyResult<()> {
        let given = actions.as_array();
        if given.len() != self.actions.len() {
            let detail = format!(
                "actions holds {} ids; one per hand ({}) is expected",
                given.len(),
                self.actions.len()
            );
            return Err(invalid(py, "/actions", detail));
        }
        for (slot, &id) in self.actions.iter_mut().zip(given.iter()) {
            *slot = id;
        }
        self.write(py, |core, actions, rows, threads| {
            core.step(actions, rows, threads)
        })
    }

    /// The benchmarks' Rust-alone loop: `steps` steps, each id drawn at
    /// random among the listed ones in Rust (`random_ids`), without the GIL.
    fn _random_steps(&mut self, py: Python<'_>, steps: usize, seed: u64) -> PyResult<()> {
        let mut state = seed | 1;
        self.write(py, move |core, _, mut rows, threads| {
            let mut actions = vec![0i64; core.len()];
            for _ in 0..steps {
                random_ids(rows.mask, &mut actions, &mut state);
                core.step(&actions, rows.reborrow(), threads)?;
            }
            Ok(())
        })
    }

    #[getter]
    fn num_envs(&self) -> usize {
        self.core.len()
    }

    #[getter]
    fn threads(&self) -> usize {
        self.threads
    }

    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    #[getter]
    fn observation(&self, py: Python<'_>) -> Py<PyArray3<i8>> {
        self.arrays.observation.clone_ref(py)
    }

    #[getter]
    fn reward(&self, py: Python<'_>) -> Py<PyArrayDyn<f32>> {
        self.arrays.reward.clone_ref(py)
    }

    #[getter]
    fn terminated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.terminated.clone_ref(py)
    }

    #[getter]
    fn truncated(&self, py: Python<'_>) -> Py<PyArray1<bool>> {
        self.arrays.truncated.clone_ref(py)
    }

    #[getter]
    fn action_mask(&self, py: Python<'_>) -> Py<PyArray2<bool>> {
        self.arrays.action_mask.clone_ref(py)
    }

    #[getter]
    fn current_player(&self, py: Python<'_>) -> Py<PyArray1<i8>> {
        self.arrays.current_player.clone_ref(py)
    }
}

/// The bot and the learner's seat of `make`, or none.
fn opponent_of(
    py: Python<'_>,
    opponent: Option<&str>,
    seat: Option<&str>,
) -> PyResult<Option<Opponent>> {
    let Some(name) = opponent else {
        return Ok(None);
    };
    let bot: BotName = name
        .parse()
        .map_err(|error: gin_rules::bots::BotError| invalid(py, "/opponent", error.to_string()))?;
    let learner = crate::held::seat_of(py, seat)?;
    Ok(Some(Opponent {
        bot: BotSpec::new(bot, 0),
        learner,
    }))
}

/// Adds the batch to the native module.
pub fn register(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_class::<Batch>()
}
