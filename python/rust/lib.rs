//! `billiards_harness._core`: the harness's shots and engines as a Python extension module.
//!
//! The Python package (`python/src/billiards_harness/`) wraps this module; its docstrings and
//! type stubs are the user-facing documentation. Everything here is a thin layer over the
//! workspace crates: a shot is parsed and validated by `pool-shots`, an engine is built from its
//! spec by `pool-engines`, and states between events come from `pool-harness`'s `Frames`. So a
//! run from Python is the CLI's run, bit for bit.
//!
//! Arrays use pooltool's layout: a ball's state is `rvw`, shape (3, 3): rows position r (m),
//! velocity v (m/s), angular velocity w (rad/s), columns x, y, z in the table frame. Motion
//! states are pooltool's codes: 0 stationary, 1 spinning, 2 sliding, 3 rolling, 4 pocketed.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use numpy::ndarray::{Array1, Array2, Array3, Array4, ArrayView3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3, PyArray4, PyReadonlyArray1};
use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{agents_label, Frames};
use pool_outcome::{compare_independent, summarize_games, Agreement, DistributionTally, Field, GameOutcome, MarginName, Margins, OutcomeShotRow, RunLabel, SummaryStat};
use pool_physics::resolve::{Cue, CueSpecs, LawSpec, Param};
use pool_physics::{BallState, MotionState, Physics, Vec3};
use pool_sim::{Outcome, Setup, Strike, Termination};
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

create_exception!(
    _core,
    ShotError,
    PyValueError,
    "A shot, its states or its options cannot be simulated: the message names the file or \
     argument, the field and the value, as the command line does."
);
create_exception!(
    _core,
    RunError,
    PyRuntimeError,
    "A run ended without a physical end (event budget, non-finite state); the message says which."
);

/// pooltool's motion-state code of a state.
fn motion_code(m: MotionState) -> u8 {
    match m {
        MotionState::Stationary => 0,
        MotionState::Spinning => 1,
        MotionState::Sliding => 2,
        MotionState::Rolling => 3,
        MotionState::Pocketed => 4,
    }
}

/// A shot: the physics, the table, the balls and their states at t = 0 (a validated set-up).
#[pyclass(module = "billiards_harness._core", frozen)]
pub struct Shot {
    setup: Arc<Setup>,
    description: String,
}

fn shot_error(e: impl std::fmt::Display) -> PyErr {
    ShotError::new_err(e.to_string())
}

/// The `description` key of a shot file's text, or an empty string.
fn description_of(text: &str) -> String {
    text.parse::<toml::Table>()
        .ok()
        .and_then(|t| {
            t.get("description")
                .and_then(|d| d.as_str().map(String::from))
        })
        .unwrap_or_default()
}

impl Shot {
    fn from_text(text: &str, name: &str, file: &Path) -> PyResult<Self> {
        let setup = pool_shots::parse(text, name, file).map_err(shot_error)?;
        Ok(Shot {
            setup: Arc::new(setup),
            description: description_of(text),
        })
    }

    fn load_path(path: &Path) -> PyResult<Self> {
        let setup = pool_shots::load(path).map_err(shot_error)?;
        // `load` has read and checked the file; read it again only for its description.
        let text = std::fs::read_to_string(path).unwrap_or_default();
        Ok(Shot {
            setup: Arc::new(setup),
            description: description_of(&text),
        })
    }

    /// This shot's set-up with `cue` striking ball `ball` at t = 0, validated; `what` names
    /// the strike in errors.
    fn struck(&self, ball: &str, cue: Cue, what: &str) -> PyResult<Setup> {
        let index = self
            .setup
            .balls
            .iter()
            .position(|x| x.id == ball)
            .ok_or_else(|| {
                ShotError::new_err(format!(
                    "ball = {ball:?}: no such ball in shot {:?}",
                    self.setup.name
                ))
            })?;
        let state = &self.setup.balls[index].state;
        if state.v != Vec3::zeros() || state.w != Vec3::zeros() {
            return Err(ShotError::new_err(format!(
                "ball = {ball:?}: the struck ball must be at rest (its v and w come from the \
                 strike), as a shot file's [cue] requires"
            )));
        }
        let mut setup = (*self.setup).clone();
        setup.strike = Some(Strike { ball: index, cue });
        setup
            .validate()
            .map_err(|e| ShotError::new_err(format!("{what}: {e}")))?;
        Ok(setup)
    }

    /// This shot's set-up with ball states from `rvw` (n, 3, 3), validated; `what` names the
    /// array in errors (e.g. `states[12]`).
    fn with_rvw(&self, rvw: ArrayView3<'_, f64>, what: &str) -> Result<Setup, String> {
        let n = self.setup.balls.len();
        if rvw.shape() != [n, 3, 3] {
            return Err(format!(
                "{what}: shape {:?}, expected ({n}, 3, 3) for this shot's {n} balls",
                rvw.shape()
            ));
        }
        let mut setup = (*self.setup).clone();
        for (i, ball) in setup.balls.iter_mut().enumerate() {
            let row = |k: usize| Vec3::new(rvw[[i, k, 0]], rvw[[i, k, 1]], rvw[[i, k, 2]]);
            let (r, v, w) = (row(0), row(1), row(2));
            // The ball's own radius (a ball may have parameters of its own).
            let radius = self.setup.physics.radius(&ball.state);
            if r.z != radius {
                return Err(format!(
                    "{what}[{i}, 0, 2] (ball {:?}) = {}: z must equal the ball radius R = {radius} m",
                    ball.id, r.z
                ));
            }
            if v.z != 0.0 {
                return Err(format!(
                    "{what}[{i}, 1, 2] (ball {:?}) = {}: vz must be 0 (balls stay on the cloth)",
                    ball.id, v.z
                ));
            }
            let set = ball.state.set;
            let mut state = BallState::new(r, v, w, radius).with_set(set);
            state.motion = setup.physics.infer_motion(&state);
            ball.state = state;
        }
        setup
            .validate()
            .map_err(|e| format!("{what}: {} (shot {:?})", e, self.setup.name))?;
        Ok(setup)
    }
}

#[pymethods]
impl Shot {
    /// Reads a shot file (TOML); the shot's name is the file's stem.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Self> {
        Self::load_path(&path)
    }

    /// Parses the text of a shot file; `name` names the shot in logs and errors.
    #[staticmethod]
    #[pyo3(signature = (text, name = "shot"))]
    fn from_toml(text: &str, name: &str) -> PyResult<Self> {
        Self::from_text(text, name, &PathBuf::from(format!("<{name}>")))
    }

    /// The shot as shot-file text; `from_toml(shot.to_toml())` gives the same shot, bit for bit.
    fn to_toml(&self) -> String {
        pool_shots::to_toml(&self.setup, &self.description)
    }

    /// The shot with new ball states `rvw`, shape (n_balls, 3, 3), validated like a shot file
    /// (motion states inferred from v and w).
    fn with_states(&self, rvw: &Bound<'_, PyAny>) -> PyResult<Self> {
        let rvw = f64_array::<numpy::Ix3>(rvw, "states")?;
        let setup = self
            .with_rvw(rvw.as_array(), "states")
            .map_err(ShotError::new_err)?;
        Ok(Shot {
            setup: Arc::new(setup),
            description: self.description.clone(),
        })
    }

    /// The shot with a cue strike at t = 0 (a shot file's `[cue]`): stick speed `V0` (m/s),
    /// aim `phi` and elevation `theta` (degrees), tip offsets `a`, `b` (ball radii), on ball
    /// `ball`, which must be at rest; pooltool's default cue unless `cue_mass` / `end_mass`
    /// (kg) are given.
    #[pyo3(signature = (V0, phi, theta = 0.0, a = 0.0, b = 0.0, *, ball = "cue", cue_mass = None, end_mass = None))]
    #[allow(non_snake_case, clippy::too_many_arguments)]
    fn with_strike(
        &self,
        V0: f64,
        phi: f64,
        theta: f64,
        a: f64,
        b: f64,
        ball: &str,
        cue_mass: Option<f64>,
        end_mass: Option<f64>,
    ) -> PyResult<Self> {
        let cue = Cue {
            v0: V0,
            phi,
            theta,
            a,
            b,
            specs: cue_specs(cue_mass, end_mass),
        };
        Ok(Shot {
            setup: Arc::new(self.struck(ball, cue, "strike")?),
            description: self.description.clone(),
        })
    }

    /// The shot's name.
    #[getter]
    fn name(&self) -> &str {
        &self.setup.name
    }

    /// What the shot tests (its `description`).
    #[getter]
    fn description(&self) -> &str {
        &self.description
    }

    /// Ball ids, in the shot's order (the order of every array's ball axis).
    #[getter]
    fn ball_ids(&self) -> Vec<String> {
        self.setup.balls.iter().map(|b| b.id.clone()).collect()
    }

    /// Ball states at t = 0, shape (n_balls, 3, 3): r (m), v (m/s), w (rad/s) per ball.
    #[getter]
    fn states<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<f64>> {
        rvw_array(self.setup.balls.iter().map(|b| &b.state)).into_pyarray(py)
    }

    /// Motion states at t = 0 as pooltool's codes, shape (n_balls,).
    #[getter]
    fn motion_states<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        Array1::from_iter(self.setup.balls.iter().map(|b| motion_code(b.state.motion)))
            .into_pyarray(py)
    }

    /// The table's name.
    #[getter]
    fn table(&self) -> &str {
        &self.setup.table.name
    }

    /// The physics preset the shot's model is, or None for a custom set of laws.
    #[getter]
    fn physics(&self) -> Option<&'static str> {
        self.setup.physics.preset_name()
    }

    /// Every event type's law as {event type: {"model": name, parameter: value, ...}}.
    fn laws<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for (event_type, spec) in self.setup.physics.resolver().specs() {
            out.set_item(event_type, law_dict(py, &spec)?)?;
        }
        Ok(out)
    }

    /// The shot's ball radius R (m): every ball's but those with a radius of their own
    /// (`radii`).
    #[getter]
    fn radius(&self) -> f64 {
        self.setup.physics.params().radius
    }

    /// Each ball's radius R (m), in the shot's order.
    #[getter]
    fn radii(&self) -> Vec<f64> {
        (self.setup.balls.iter())
            .map(|b| self.setup.physics.radius(&b.state))
            .collect()
    }

    /// Time limit (s), or None.
    #[getter]
    fn t_end(&self) -> Option<f64> {
        self.setup.t_end
    }

    fn __repr__(&self) -> String {
        format!(
            "Shot(name={:?}, table={:?}, physics={:?}, balls={})",
            self.setup.name,
            self.setup.table.name,
            self.setup.physics.preset_name().unwrap_or("custom"),
            self.setup.balls.len()
        )
    }

    fn __eq__(&self, other: &Self) -> bool {
        self.setup == other.setup && self.description == other.description
    }
}

/// A law spec as {"model": name, parameter: value, ...}; nested laws (pooltool's friction
/// models) as nested dicts.
fn law_dict<'py>(py: Python<'py>, spec: &LawSpec) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("model", spec.model.as_str())?;
    for (name, value) in &spec.params {
        match value {
            Param::Bool(x) => d.set_item(name.as_str(), *x)?,
            Param::Number(x) => d.set_item(name.as_str(), *x)?,
            Param::Text(x) => d.set_item(name.as_str(), x.as_str())?,
            Param::Law(inner) => d.set_item(name.as_str(), law_dict(py, inner)?)?,
        }
    }
    Ok(d)
}

/// States as an (n, 3, 3) rvw array.
fn rvw_array<'s>(states: impl ExactSizeIterator<Item = &'s BallState>) -> Array3<f64> {
    let n = states.len();
    let mut out = Array3::<f64>::zeros((n, 3, 3));
    for (i, s) in states.enumerate() {
        for (k, x) in [s.r, s.v, s.w].iter().enumerate() {
            for c in 0..3 {
                out[[i, k, c]] = x[c];
            }
        }
    }
    out
}

/// One event of a run.
#[pyclass(module = "billiards_harness._core", frozen, get_all)]
#[derive(Clone)]
pub struct Event {
    /// Event kind: ball_ball, ball_linear_cushion, ball_pocket, sliding_rolling, stick_ball, ...
    kind: &'static str,
    /// Ids of what took part: one ball, or a ball and a ball, cushion or pocket. An id names
    /// one thing: no ball shares one with a cushion or pocket (such a shot is refused), and
    /// pooltool's cushions `1`..`18` are `c1`..`c18` here.
    agents: Vec<String>,
    /// Time (s).
    time: f64,
}

#[pymethods]
impl Event {
    fn __repr__(&self) -> String {
        format!(
            "Event(kind={:?}, agents={:?}, time={:?})",
            self.kind, self.agents, self.time
        )
    }
}

/// A finished run of one shot by one engine.
#[pyclass(module = "billiards_harness._core", frozen)]
pub struct Run {
    setup: Arc<Setup>,
    outcome: Outcome,
    engine: String,
    /// Why the engine could not run the shot (termination `failed`), else None.
    error: Option<String>,
}

/// Why a termination is not a physical end, or None for at_rest / time_limit.
fn unphysical(t: Termination) -> Option<&'static str> {
    match t {
        Termination::AtRest | Termination::TimeLimit => None,
        Termination::Budget => Some("the engine's event budget ran out before the balls stopped"),
        Termination::NumericalError => Some("a state became non-finite (NaN or infinite)"),
        Termination::Failed => Some("the engine could not run the shot"),
    }
}

fn engine_spec(engine: &str) -> PyResult<EngineSpec> {
    engine
        .parse::<EngineSpec>()
        .map_err(|e| ShotError::new_err(format!("engine = {e}")))
}

/// Runs `setup` with the engine of `spec`: its outcome, and when the engine could not run it
/// (the outcome's termination is then `failed`), why (an exec program's error line).
fn run_one(
    setup: &Setup,
    spec: &EngineSpec,
    options: &RunOptions,
) -> Result<(Outcome, Option<String>), String> {
    let engine = spec
        .build_with(options)
        .map_err(|e| format!("engine = {e}"))?;
    Ok(match engine.try_run(setup) {
        Ok(o) => (o, None),
        Err(e) => (Outcome::failed(setup), Some(e.message)),
    })
}

/// `max_events` checked as the command line's `--max-events`: 1 to
/// [`xtask::MAX_EVENTS_OPTION`].
fn check_max_events(max_events: Option<usize>) -> PyResult<Option<usize>> {
    match max_events {
        Some(n) if n == 0 || n > xtask::MAX_EVENTS_OPTION => Err(ShotError::new_err(format!(
            "max_events = {n}: must be in [1, {}] (or None)",
            xtask::MAX_EVENTS_OPTION
        ))),
        m => Ok(m),
    }
}

/// A float64 numpy array of `ndim` dimensions from `obj`, or an error naming the argument and
/// what it got (another dtype, another number of dimensions, not an array).
fn f64_array<'py, D: numpy::ndarray::Dimension>(
    obj: &Bound<'py, PyAny>,
    name: &str,
) -> PyResult<numpy::PyReadonlyArray<'py, f64, D>> {
    obj.extract::<numpy::PyReadonlyArray<'py, f64, D>>()
        .map_err(|_| {
            let attr = |a: &str| {
                obj.getattr(a)
                    .and_then(|v| v.str().map(|s| s.to_string()))
                    .ok()
            };
            let want = D::NDIM.map_or("an array".to_string(), |n| format!("a {n}-d array"));
            ShotError::new_err(match (attr("dtype"), attr("ndim")) {
                (Some(dtype), _) if dtype != "float64" => format!(
                    "{name}: dtype {dtype}, expected float64 (convert with {name}.astype(numpy.float64))"
                ),
                (Some(_), Some(ndim)) => {
                    format!("{name}: {ndim} dimensions, expected {want} of float64")
                }
                _ => format!(
                    "{name}: a {}, expected {want} of float64 (numpy.asarray({name}, dtype=numpy.float64))",
                    obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                ),
            })
        })
}

#[pymethods]
impl Run {
    /// The events in the order the engine resolved them.
    #[getter]
    fn events(&self) -> Vec<Event> {
        self.outcome
            .events
            .iter()
            .map(|ev| Event {
                kind: ev.kind.name(),
                agents: agents_label(&self.setup, &ev.agents)
                    .split('|')
                    .map(String::from)
                    .collect(),
                time: ev.time,
            })
            .collect()
    }

    /// Event times (s), shape (n_events,).
    #[getter]
    fn event_times<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        Array1::from_iter(self.outcome.events.iter().map(|e| e.time)).into_pyarray(py)
    }

    /// Ball states when the run stopped, shape (n_balls, 3, 3).
    #[getter]
    fn final_states<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray3<f64>> {
        rvw_array(self.outcome.final_states.iter()).into_pyarray(py)
    }

    /// Motion states when the run stopped (pooltool's codes), shape (n_balls,).
    #[getter]
    fn final_motion_states<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        Array1::from_iter(
            self.outcome
                .final_states
                .iter()
                .map(|s| motion_code(s.motion)),
        )
        .into_pyarray(py)
    }

    /// Ball ids, the order of every ball axis.
    #[getter]
    fn ball_ids(&self) -> Vec<String> {
        self.setup.balls.iter().map(|b| b.id.clone()).collect()
    }

    /// Why the run stopped: at_rest, time_limit, budget, numerical_error, or failed (the
    /// engine could not run the shot: see `error`).
    #[getter]
    fn termination(&self) -> &'static str {
        self.outcome.termination.name()
    }

    /// Why the engine could not run the shot (an exec program's error line: what it wrote, its
    /// stderr), None when it ran.
    #[getter]
    fn error(&self) -> Option<String> {
        self.error.clone()
    }

    /// Time (s) when the run stopped.
    #[getter]
    fn end_time(&self) -> f64 {
        self.outcome.end_time
    }

    /// The engine spec that ran the shot (e.g. `event:isolator`, `discrete:0.0001:exact`).
    #[getter]
    fn engine(&self) -> &str {
        &self.engine
    }

    /// The engine's work by counter name.
    #[getter]
    fn ops(&self) -> Vec<(&'static str, u64)> {
        self.outcome.ops.iter().collect()
    }

    /// Ball states at time(s) `t` (s, within [0, end_time]): shape (n_balls, 3, 3) for a number,
    /// (len(t), n_balls, 3, 3) for a 1-d array. Between events each ball follows the physics'
    /// own equations of motion from the latest recorded state.
    fn states_at<'py>(&self, py: Python<'py>, t: &Bound<'py, PyAny>) -> PyResult<Py<PyAny>> {
        let frames = Frames::new(&self.setup, &self.outcome).map_err(RunError::new_err)?;
        let end = self.outcome.end_time;
        let one = |t: f64| -> PyResult<Array3<f64>> {
            if !(0.0..=end).contains(&t) {
                return Err(PyValueError::new_err(format!(
                    "t = {t}: outside the run's time span [0, {end}] s"
                )));
            }
            let states: Vec<BallState> = frames.at(t).into_iter().map(|f| f.state).collect();
            Ok(rvw_array(states.iter()))
        };
        if let Ok(t) = t.extract::<f64>() {
            return Ok(one(t)?.into_pyarray(py).into_any().unbind());
        }
        let ts: PyReadonlyArray1<'py, f64> = t.extract().map_err(|_| {
            PyValueError::new_err("t: expected a number or a 1-d float64 array of times (s)")
        })?;
        let ts = ts.as_array();
        let n = self.setup.balls.len();
        let mut out = Array4::<f64>::zeros((ts.len(), n, 3, 3));
        for (k, &t) in ts.iter().enumerate() {
            out.index_axis_mut(numpy::ndarray::Axis(0), k)
                .assign(&one(t)?);
        }
        Ok(out.into_pyarray(py).into_any().unbind())
    }

    fn __repr__(&self) -> String {
        format!(
            "Run(shot={:?}, engine={:?}, events={}, termination={:?}, end_time={})",
            self.setup.name,
            self.engine,
            self.outcome.events.len(),
            self.outcome.termination.name(),
            self.outcome.end_time
        )
    }
}

/// Runs one shot. `check`: raise RunError when the run did not end physically.
#[pyfunction]
#[pyo3(signature = (shot, engine = "event", *, max_events = None, check = true))]
fn simulate(
    py: Python<'_>,
    shot: &Shot,
    engine: &str,
    max_events: Option<usize>,
    check: bool,
) -> PyResult<Run> {
    let spec = engine_spec(engine)?;
    let options = RunOptions {
        snapshots: Some(f64::INFINITY),
        max_events: check_max_events(max_events)?,
        ..RunOptions::default()
    };
    let setup = Arc::clone(&shot.setup);
    let (outcome, error) = py
        .detach(|| run_one(&setup, &spec, &options))
        .map_err(ShotError::new_err)?;
    if check {
        if let Some(why) = unphysical(outcome.termination) {
            let cause = error.as_deref().map_or(String::new(), |e| format!(": {e}"));
            return Err(RunError::new_err(format!(
                "shot {:?}, engine {spec}: run ended at t = {} s with termination {}: {why}{cause}",
                setup.name,
                outcome.end_time,
                outcome.termination.name()
            )));
        }
    }
    Ok(Run {
        setup,
        outcome,
        engine: spec.to_string(),
        error,
    })
}

/// A cue: pooltool's default unless the masses are given.
fn cue_specs(cue_mass: Option<f64>, end_mass: Option<f64>) -> CueSpecs {
    let defaults = CueSpecs::default();
    CueSpecs {
        mass: cue_mass.unwrap_or(defaults.mass),
        end_mass: end_mass.unwrap_or(defaults.end_mass),
    }
}

/// The outcome of a batch, one row per shot.
#[pyclass(module = "billiards_harness._core", frozen)]
pub struct Batch {
    /// Ball states when each run stopped, shape (n_shots, n_balls, 3, 3).
    #[pyo3(get)]
    final_states: Py<PyArray4<f64>>,
    /// Motion states when each run stopped (pooltool's codes), shape (n_shots, n_balls).
    #[pyo3(get)]
    final_motion_states: Py<PyArray2<u8>>,
    /// Number of events of each run (the cue strike included), shape (n_shots,).
    #[pyo3(get)]
    n_events: Py<PyArray1<u64>>,
    /// Time (s) of each run's first event other than the cue strike, NaN if none, shape (n_shots,).
    #[pyo3(get)]
    first_event_time: Py<PyArray1<f64>>,
    /// Time (s) each run stopped, shape (n_shots,).
    #[pyo3(get)]
    end_time: Py<PyArray1<f64>>,
    /// Why each run stopped: at_rest, time_limit, budget or numerical_error, one per shot.
    #[pyo3(get)]
    termination: Vec<&'static str>,
    /// The engine spec that ran the batch.
    #[pyo3(get)]
    engine: String,
    /// Index of the cue ball (the struck ball, else the ball with id `cue`, else 0).
    #[pyo3(get)]
    cue: usize,
    /// Index of the first ball the cue ball touched in each run, -1 for none, shape (n_shots,).
    #[pyo3(get)]
    first_contact: Py<PyArray1<i64>>,
    /// When (s) the cue ball first touched a ball, NaN for never, shape (n_shots,).
    #[pyo3(get)]
    first_contact_time: Py<PyArray1<f64>>,
    /// Each ball's pocket (an index into `pocket_ids`), -1 for none, shape (n_shots, n_balls).
    #[pyo3(get)]
    pocket: Py<PyArray2<i64>>,
    /// The table's pocket ids (`pocket` indexes them).
    #[pyo3(get)]
    pocket_ids: Vec<String>,
    /// Whether the cue ball was pocketed in each run, shape (n_shots,).
    #[pyo3(get)]
    scratch: Py<PyArray1<bool>>,
    /// Whether each run ended physically (every ball at rest or pocketed, none lost off the
    /// table, no budget or non-finite state), shape (n_shots,).
    #[pyo3(get)]
    ended: Py<PyArray1<bool>>,
    /// The template's ball ids (the order of the ball axis).
    #[pyo3(get)]
    ball_ids: Vec<String>,
    /// Why each run the engine could not run failed (its termination is `failed`; an exec
    /// program's error line), None for the others; a list of length n_shots.
    #[pyo3(get)]
    errors: Vec<Option<String>>,
    /// On a game's own table (`pooltool_snooker`, `pooltool_billiard`), the fields its rules
    /// read off each run, by name (snooker: `reds`, `colours`, `foul`; three-cushion: `point`,
    /// `cushions`, empty when the cue ball never touched the second ball); empty dicts on
    /// pool's tables; a list of length n_shots. docs/outcomes.md, "The games".
    #[pyo3(get)]
    score: Vec<std::collections::BTreeMap<String, String>>,
    /// Each run as a game sees it, for `outcome_agreement`.
    games: Vec<GameOutcome>,
    /// Each run as a row of the outcome study, for `outcome_distribution` and
    /// `compare_distributions`.
    rows: Vec<OutcomeShotRow>,
}

/// A batch's rows, computed without the GIL.
struct Rows {
    setups: Vec<Setup>,
    outcomes: Vec<Outcome>,
    errors: Vec<Option<String>>,
}

impl Rows {
    fn into_batch(self, py: Python<'_>, n_balls: usize, engine: String) -> Batch {
        let n = self.outcomes.len();
        let mut fin = Array4::<f64>::zeros((n, n_balls, 3, 3));
        let mut motion = Array2::<u8>::zeros((n, n_balls));
        let mut pocket = Array2::<i64>::from_elem((n, n_balls), -1);
        let games: Vec<GameOutcome> = self
            .setups
            .iter()
            .zip(&self.outcomes)
            .map(|(s, o)| GameOutcome::of(s, o).scored_on_table(s))
            .collect();
        let rows: Vec<OutcomeShotRow> = self
            .setups
            .iter()
            .zip(&self.outcomes)
            .zip(&games)
            .enumerate()
            .map(|(k, ((s, o), g))| {
                let label = RunLabel {
                    family: "batch",
                    table: &s.table.name,
                    index: k as u64,
                    run: pool_outcome::Run::Engine(engine.clone()),
                    engine: engine.clone(),
                    scheme: String::new(),
                    dt_s: None,
                };
                OutcomeShotRow::new(label, s, g, o.ops.total(), None)
            })
            .collect();
        for (k, o) in self.outcomes.iter().enumerate() {
            fin.index_axis_mut(numpy::ndarray::Axis(0), k)
                .assign(&rvw_array(o.final_states.iter()));
            for (i, s) in o.final_states.iter().enumerate() {
                motion[[k, i]] = motion_code(s.motion);
                if let Some(p) = games[k].pocket_of(i) {
                    pocket[[k, i]] = p as i64;
                }
            }
        }
        let first = |o: &Outcome| {
            o.events
                .iter()
                .find(|e| e.kind != pool_physics::EventKind::StickBall)
                .map_or(f64::NAN, |e| e.time)
        };
        Batch {
            final_states: fin.into_pyarray(py).unbind(),
            final_motion_states: motion.into_pyarray(py).unbind(),
            n_events: Array1::from_iter(self.outcomes.iter().map(|o| o.events.len() as u64))
                .into_pyarray(py)
                .unbind(),
            first_event_time: Array1::from_iter(self.outcomes.iter().map(first))
                .into_pyarray(py)
                .unbind(),
            end_time: Array1::from_iter(self.outcomes.iter().map(|o| o.end_time))
                .into_pyarray(py)
                .unbind(),
            termination: self.outcomes.iter().map(|o| o.termination.name()).collect(),
            engine,
            cue: games.first().and_then(|g| g.cue).unwrap_or(0),
            first_contact: per_item(&games, |g| g.first_contact.map_or(-1, |c| c.0 as i64))
                .into_pyarray(py)
                .unbind(),
            first_contact_time: per_item(&games, |g| g.first_contact.map_or(f64::NAN, |c| c.1))
                .into_pyarray(py)
                .unbind(),
            pocket: pocket.into_pyarray(py).unbind(),
            pocket_ids: self.setups.first().map_or(Vec::new(), |s| {
                s.table.pockets.iter().map(|p| p.id.clone()).collect()
            }),
            scratch: per_item(&games, GameOutcome::scratch)
                .into_pyarray(py)
                .unbind(),
            ended: per_item(&games, |g| g.ended).into_pyarray(py).unbind(),
            ball_ids: self.setups.first().map_or(Vec::new(), |s| {
                s.balls.iter().map(|b| b.id.clone()).collect()
            }),
            errors: self.errors,
            score: games
                .iter()
                .map(|g| {
                    (g.score.iter())
                        .map(|e| (e.name.to_string(), e.value.clone()))
                        .collect()
                })
                .collect(),
            games,
            rows,
        }
    }
}

#[pymethods]
impl Batch {
    fn __len__(&self) -> usize {
        self.termination.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Batch(shots={}, engine={:?})",
            self.termination.len(),
            self.engine
        )
    }
}

/// `f` of each of `items`, as a numpy-ready array of shape (len,).
fn per_item<T, U>(items: &[T], f: impl Fn(&T) -> U) -> Array1<U> {
    items.iter().map(f).collect()
}

/// Whether batch `other` decided the same games as batch `reference`, shot by shot (two runs
/// of the same set-ups, e.g. two engines): a dict of numpy arrays of shape (n_shots,): for
/// each field (`outcome`, `first_contact`, `first_cushion`, `pocketed`, `scratch`, `end`,
/// `cue_position`, `positions`) True where the two agree, and `cue_position_error_m`,
/// `position_error_max_m` (m, NaN where not both on the table). The same judgement as `cargo
/// xtask outcomes` (`outcome` = first contact, pocketed balls with their pockets, scratch and
/// a physical end all the same); final positions agree within `position_tol` (m).
#[pyfunction]
#[pyo3(signature = (reference, other, *, position_tol = 0.01))]
fn outcome_agreement<'py>(
    py: Python<'py>,
    reference: &Batch,
    other: &Batch,
    position_tol: f64,
) -> PyResult<Bound<'py, PyDict>> {
    if reference.games.len() != other.games.len() {
        return Err(ShotError::new_err(format!(
            "other: {} shots, expected {} (the reference's)",
            other.games.len(),
            reference.games.len()
        )));
    }
    if reference.ball_ids != other.ball_ids || reference.pocket_ids != other.pocket_ids {
        return Err(ShotError::new_err(format!(
            "other: balls {:?} on a table with pockets {:?}, expected the reference's balls {:?} \
             and pockets {:?} (two runs of the same set-ups)",
            other.ball_ids, other.pocket_ids, reference.ball_ids, reference.pocket_ids
        )));
    }
    if !(position_tol > 0.0 && position_tol.is_finite()) {
        return Err(ShotError::new_err(format!(
            "position_tol = {position_tol}: must be a positive distance (m)"
        )));
    }
    let agreements: Vec<Agreement> = reference
        .games
        .iter()
        .zip(&other.games)
        .map(|(a, b)| Agreement::between(a, b, position_tol))
        .collect();
    let out = PyDict::new(py);
    for field in Field::ALL {
        let agree = per_item(&agreements, |a| !a.disagrees(field));
        out.set_item(field.name(), agree.into_pyarray(py))?;
    }
    out.set_item(
        "cue_position_error_m",
        per_item(&agreements, |a| a.cue_position_error_m).into_pyarray(py),
    )?;
    out.set_item(
        "position_error_max_m",
        per_item(&agreements, |a| a.position_error_max_m).into_pyarray(py),
    )?;
    Ok(out)
}

/// A statistic as a dict: `n`, `value` and its 95 % interval `low`, `high`.
fn stat_dict<'py>(py: Python<'py>, s: &SummaryStat) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("n", s.n)?;
    d.set_item("value", s.value)?;
    d.set_item("low", s.low)?;
    d.set_item("high", s.high)?;
    Ok(d)
}

/// The game's statistics of a batch, as `cargo xtask outcomes` tallies them: a dict from
/// statistic name to a dict of `n`, `value` and its 95 % interval `low`, `high`:
/// `balls_pocketed` (mean object balls pocketed per shot, its betting confidence sequence
/// bounded by the rack's object balls), `scratch`,
/// `success` (at least one object ball and no scratch), `pocket:<id>` (a pocket receives an
/// object ball), `first_contact:<id>` (the first ball the cue ball touches, `none` for none;
/// Wilson intervals), `cue_x`, `cue_y` (mean final cue-ball coordinates, m, over the shots
/// that leave it on the cloth). `cue_final_xy` is the (n_shots, 2) array of final cue-ball
/// positions, NaN where it is not on the cloth.
#[pyfunction]
fn outcome_distribution<'py>(py: Python<'py>, batch: &Batch) -> PyResult<Bound<'py, PyDict>> {
    let rows: Vec<&OutcomeShotRow> = batch.rows.iter().collect();
    let out = PyDict::new(py);
    for s in summarize_games(&rows) {
        out.set_item(s.statistic.clone(), stat_dict(py, &s)?)?;
    }
    let mut xy = Array2::<f64>::from_elem((rows.len(), 2), f64::NAN);
    for (k, r) in rows.iter().enumerate() {
        if let (Some(x), Some(y)) = (r.cue_x_m, r.cue_y_m) {
            xy[[k, 0]] = x;
            xy[[k, 1]] = y;
        }
    }
    out.set_item("cue_final_xy", xy.into_pyarray(py))?;
    Ok(out)
}

/// Whether batch `b` changes the game against batch `a`, with the claims of `cargo xtask
/// outcomes` at 5 %: a dict with `verdict` (`keeps the game`, `changes shots`, `changes shots;
/// same in distribution`, `changes its statistics`, `same in distribution`, `within the floor
/// shot by shot`, `undecided`), `detail` (the part beyond its margin and by how much, or what
/// is undecided and about how many shots would decide), `shot_by_shot` (paired only: `within
/// the floor margin` when b's games differ from a's on at most `margin_floor +
/// margin_floor_relative x 0` of the shots: there is no chaos floor here, so its rate is 0;
/// `beyond the floor margin`, `undecided`; empty unpaired) and `rows` (one dict per statistic:
/// value, reference, diff, diff_low, diff_high (its confidence sequence), margin, alpha,
/// p_value, decision: `within`, `beyond`, `undecided`; `differs` or `undecided` for
/// `cue_position`, a description; `pending`). `paired=True`: the batches ran the same shots in
/// the same order (paired differences, the paired energy test); `paired=False`: different
/// shots (b's shot i paired with a's shot i, which the bounded means' tests allow, and the
/// two-sample energy test). Margins as `--margin-*`; `seed` seeds the energy test's
/// permutations.
#[pyfunction]
#[pyo3(signature = (a, b, *, paired = true, margin_rate = 0.02, margin_balls = 0.05,
    margin_position = 0.05, margin_floor = 0.005, margin_floor_relative = 0.2,
    position_tol = 0.01, seed = 1))]
#[allow(clippy::too_many_arguments)]
fn compare_distributions<'py>(
    py: Python<'py>,
    a: &Batch,
    b: &Batch,
    paired: bool,
    margin_rate: f64,
    margin_balls: f64,
    margin_position: f64,
    margin_floor: f64,
    margin_floor_relative: f64,
    position_tol: f64,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let margins = Margins {
        rate: margin_rate,
        balls: margin_balls,
        position_m: margin_position,
        floor: margin_floor,
        floor_relative: margin_floor_relative,
    };
    margins.validate().map_err(|e| {
        let name = match e.margin {
            MarginName::Rate => "margin_rate",
            MarginName::Balls => "margin_balls",
            MarginName::Position => "margin_position",
            MarginName::Floor => "margin_floor",
            MarginName::FloorRelative => "margin_floor_relative",
        };
        ShotError::new_err(format!(
            "{name} = {:?}: must be a number in {}",
            e.value, e.range
        ))
    })?;
    if !(position_tol > 0.0 && position_tol.is_finite()) {
        return Err(ShotError::new_err(format!(
            "position_tol = {position_tol}: must be a positive distance (m)"
        )));
    }
    let (rows, verdict) = if paired {
        if a.rows.len() != b.rows.len() {
            return Err(ShotError::new_err(format!(
                "b: {} shots, expected {} (a's): paired batches run the same shots; give \
                 paired=False for different shots",
                b.rows.len(),
                a.rows.len()
            )));
        }
        if a.pocket_ids != b.pocket_ids || a.cue != b.cue {
            return Err(ShotError::new_err(
                "b: another table or cue ball than a's: paired batches run the same shots",
            ));
        }
        let mut tally = DistributionTally::default();
        for (k, (ra, rb)) in a.rows.iter().zip(&b.rows).enumerate() {
            let mut reference = ra.clone();
            reference.run = pool_outcome::Run::Reference;
            let mut floor = ra.clone();
            floor.run = pool_outcome::Run::Floor;
            floor.d_outcome = 0;
            let mut run = rb.clone();
            run.run = pool_outcome::Run::Engine("b".into());
            run.engine = "b".into();
            run.d_outcome = u8::from(
                Agreement::between(&a.games[k], &b.games[k], position_tol)
                    .disagrees(Field::Outcome),
            );
            tally.add_shot(&[reference, floor, run]);
        }
        let (rows, verdicts) = tally.evaluate(&margins, true, seed);
        let v = verdicts
            .into_iter()
            .find(|v| v.engine == "b")
            .ok_or_else(|| ShotError::new_err("a and b: no shot to compare"))?;
        (rows.into_iter().filter(|r| r.engine == "b").collect(), v)
    } else {
        let ra: Vec<&OutcomeShotRow> = a.rows.iter().collect();
        let rb: Vec<&OutcomeShotRow> = b.rows.iter().collect();
        let table = a.rows.first().map_or(String::new(), |r| r.table.clone());
        compare_independent(&ra, &rb, "batch", &table, &margins, seed)
    };
    let out = PyDict::new(py);
    out.set_item("verdict", verdict.verdict.label())?;
    out.set_item("detail", verdict.detail)?;
    out.set_item(
        "shot_by_shot",
        verdict.shot_by_shot.map_or("", |v| v.label()),
    )?;
    out.set_item("n", verdict.n)?;
    let list = pyo3::types::PyList::empty(py);
    for r in rows {
        let d = PyDict::new(py);
        d.set_item("statistic", r.statistic)?;
        d.set_item("n", r.n)?;
        d.set_item("value", r.value)?;
        d.set_item("reference", r.reference)?;
        d.set_item("diff", r.diff)?;
        d.set_item("diff_low", r.diff_low)?;
        d.set_item("diff_high", r.diff_high)?;
        d.set_item("margin", r.margin)?;
        d.set_item("alpha", r.alpha)?;
        d.set_item("p_value", r.p_value)?;
        // The serde name (`same`, `not_neutral`), as the study's files write it.
        let decision = serde_json::to_value(r.decision)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        d.set_item("decision", decision)?;
        list.append(d)?;
    }
    out.set_item("rows", list)?;
    Ok(out)
}

/// Runs `setups` on `threads` worker threads (all cores when None), in order.
fn run_rows(
    setups: Vec<Setup>,
    spec: &EngineSpec,
    options: &RunOptions,
    threads: Option<usize>,
) -> Result<Rows, String> {
    let work = || -> Result<Vec<(Outcome, Option<String>)>, String> {
        setups
            .par_iter()
            .map(|s| run_one(s, spec, options))
            .collect()
    };
    let runs = match threads {
        Some(n) if n == 0 || n > xtask::MAX_JOBS => {
            return Err(format!(
                "threads = {n}: must be in [1, {}] (the command line's --jobs cap)",
                xtask::MAX_JOBS
            ))
        }
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| format!("threads = {n}: {e}"))?
            .install(work)?,
        None => work()?,
    };
    let (outcomes, errors) = runs.into_iter().unzip();
    Ok(Rows {
        setups,
        outcomes,
        errors,
    })
}

/// Runs one shot per row of `states` (n_shots, n_balls, 3, 3) with `template`'s table, physics,
/// ball ids and time limit.
#[pyfunction]
#[pyo3(signature = (template, states, engine = "event", *, max_events = None, threads = None))]
fn simulate_many(
    py: Python<'_>,
    template: &Shot,
    states: &Bound<'_, PyAny>,
    engine: &str,
    max_events: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Batch> {
    let spec = engine_spec(engine)?;
    let states = f64_array::<numpy::Ix4>(states, "states")?;
    let arr = states.as_array();
    let n_balls = template.setup.balls.len();
    if arr.shape()[1..] != [n_balls, 3, 3] {
        return Err(ShotError::new_err(format!(
            "states: shape {:?}, expected (n_shots, {n_balls}, 3, 3) for the template's {n_balls} balls",
            arr.shape()
        )));
    }
    let setups = (0..arr.shape()[0])
        .map(|k| {
            template.with_rvw(
                arr.index_axis(numpy::ndarray::Axis(0), k),
                &format!("states[{k}]"),
            )
        })
        .collect::<Result<Vec<Setup>, String>>()
        .map_err(ShotError::new_err)?;
    let options = RunOptions {
        snapshots: None,
        max_events: check_max_events(max_events)?,
        ..RunOptions::default()
    };
    let rows = py
        .detach(|| run_rows(setups, &spec, &options, threads))
        .map_err(ShotError::new_err)?;
    Ok(rows.into_batch(py, n_balls, spec.to_string()))
}

/// Runs one cue strike per entry of the broadcast arrays V0 (m/s), phi, theta (degrees), a, b
/// (ball radii) on `template`'s balls, striking ball `ball`.
#[pyfunction]
#[pyo3(signature = (template, v0, phi, theta, a, b, *, ball = "cue", cue_mass = None, end_mass = None, engine = "event", max_events = None, threads = None))]
#[allow(clippy::too_many_arguments)]
fn strike_many(
    py: Python<'_>,
    template: &Shot,
    v0: &Bound<'_, PyAny>,
    phi: &Bound<'_, PyAny>,
    theta: &Bound<'_, PyAny>,
    a: &Bound<'_, PyAny>,
    b: &Bound<'_, PyAny>,
    ball: &str,
    cue_mass: Option<f64>,
    end_mass: Option<f64>,
    engine: &str,
    max_events: Option<usize>,
    threads: Option<usize>,
) -> PyResult<Batch> {
    let spec = engine_spec(engine)?;
    let (v0, phi, theta, a, b) = (
        f64_array::<numpy::Ix1>(v0, "v0")?,
        f64_array::<numpy::Ix1>(phi, "phi")?,
        f64_array::<numpy::Ix1>(theta, "theta")?,
        f64_array::<numpy::Ix1>(a, "a")?,
        f64_array::<numpy::Ix1>(b, "b")?,
    );
    let cols = [
        v0.as_array(),
        phi.as_array(),
        theta.as_array(),
        a.as_array(),
        b.as_array(),
    ];
    let n = cols[0].len();
    if let Some((k, c)) = cols.iter().enumerate().find(|(_, c)| c.len() != n) {
        let names = ["v0", "phi", "theta", "a", "b"];
        return Err(ShotError::new_err(format!(
            "{}: length {}, expected {n} (the length of v0)",
            names[k],
            c.len()
        )));
    }
    let specs = cue_specs(cue_mass, end_mass);
    let setups = (0..n)
        .map(|k| {
            let cue = Cue {
                v0: cols[0][k],
                phi: cols[1][k],
                theta: cols[2][k],
                a: cols[3][k],
                b: cols[4][k],
                specs,
            };
            template.struck(ball, cue, &format!("strike {k}"))
        })
        .collect::<PyResult<Vec<Setup>>>()?;
    let options = RunOptions {
        snapshots: None,
        max_events: check_max_events(max_events)?,
        ..RunOptions::default()
    };
    let n_balls = template.setup.balls.len();
    let rows = py
        .detach(|| run_rows(setups, &spec, &options, threads))
        .map_err(ShotError::new_err)?;
    Ok(rows.into_batch(py, n_balls, spec.to_string()))
}

/// Runs the harness's command line in this process: `cli(["stress", "--shots", "100"])` is
/// `cargo xtask stress --shots 100`; returns its exit code (0 right, 1 failed run, 2 bad
/// input). Output goes to this process's standard output and error. The GIL is released.
#[pyfunction]
fn cli(py: Python<'_>, args: Vec<String>) -> u8 {
    py.detach(|| xtask::run_cli(std::iter::once("cargo xtask".to_string()).chain(args)))
}

/// `cli`, but a failure's line is returned rather than printed: `(exit code, the line after
/// "error: ", or None)`. The cluster driver's shards report it with their worker.
#[pyfunction]
fn cli_result(py: Python<'_>, args: Vec<String>) -> (u8, Option<String>) {
    py.detach(|| xtask::run_cli_quiet(std::iter::once("cargo xtask".to_string()).chain(args)))
}

/// A sequential study's budget as `--outcome-budget` reads it (the harness's own parser):
/// `(shots, seconds or None)` for `<shots>`, `<seconds>s` or both (at most one of each), None
/// for `none`. Raises `ValueError` naming the part that does not parse.
#[pyfunction]
fn parse_budget(text: &str) -> PyResult<Option<(u64, Option<f64>)>> {
    if text == "none" {
        return Ok(None);
    }
    text.parse::<pool_outcome::Budget>()
        .map(|b| Some((b.shots, b.seconds)))
        .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("--outcome-budget {text:?}: {e}")))
}

/// A shot from a pooltool `System.save` file (JSON or msgpack) at `path`, named `name`, its
/// laws from the pooltool resolver file at `resolver` (YAML or JSON) when given, else the
/// file's own `resolver` entry, else pooltool's default laws (`pooltool_default`);
/// `description` is the shot's (default: the file's name). Returns the shot and what did not
/// carry over (one line each).
#[pyfunction]
#[pyo3(signature = (path, name, resolver = None, description = None))]
fn import_pooltool(
    path: PathBuf,
    name: &str,
    resolver: Option<PathBuf>,
    description: Option<String>,
) -> PyResult<(Shot, Vec<String>)> {
    let imported = pool_pooltool::import(&path, name, resolver.as_deref()).map_err(shot_error)?;
    let description = description.unwrap_or_else(|| {
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned());
        format!("Imported from pooltool ({})", file.unwrap_or_default())
    });
    Ok((
        Shot {
            setup: Arc::new(imported.setup),
            description,
        },
        imported.notes,
    ))
}

/// A run (or, for a shot, its set-up alone) as a pooltool 0.6.0 `System`, JSON text in
/// pooltool's frame, which `pooltool.System.load` reads.
#[pyfunction]
fn export_pooltool(obj: &Bound<'_, PyAny>) -> PyResult<String> {
    let value = if let Ok(run) = obj.cast::<Run>() {
        let run = run.get();
        pool_pooltool::export(&run.setup, Some(&run.outcome))
    } else if let Ok(shot) = obj.cast::<Shot>() {
        pool_pooltool::export(&shot.get().setup, None)
    } else {
        return Err(ShotError::new_err("expected a Run or a Shot"));
    };
    let value = value.map_err(RunError::new_err)?;
    serde_json::to_string(&value).map_err(|e| RunError::new_err(e.to_string()))
}

/// The extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Shot>()?;
    m.add_class::<Run>()?;
    m.add_class::<Event>()?;
    m.add_class::<Batch>()?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_many, m)?)?;
    m.add_function(wrap_pyfunction!(strike_many, m)?)?;
    m.add_function(wrap_pyfunction!(outcome_agreement, m)?)?;
    m.add_function(wrap_pyfunction!(outcome_distribution, m)?)?;
    m.add_function(wrap_pyfunction!(compare_distributions, m)?)?;
    m.add_function(wrap_pyfunction!(cli, m)?)?;
    m.add_function(wrap_pyfunction!(cli_result, m)?)?;
    m.add_function(wrap_pyfunction!(import_pooltool, m)?)?;
    m.add_function(wrap_pyfunction!(export_pooltool, m)?)?;
    m.add_function(wrap_pyfunction!(parse_budget, m)?)?;
    m.add("ShotError", py.get_type::<ShotError>())?;
    m.add("RunError", py.get_type::<RunError>())?;
    m.add("PRESETS", pool_physics::Model::PRESETS.to_vec())?;
    Ok(())
}
