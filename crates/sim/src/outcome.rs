//! Event logs and final states.

use pool_physics::{BallState, EventKind};
use serde::Serialize;

use crate::OpCounts;

/// Who took part in an event, as indices into [`crate::Setup`]'s balls, cushions (straight or
/// circular) and pockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub enum Agents {
    /// A motion transition of one ball.
    Ball {
        /// Ball index.
        ball: usize,
    },
    /// A ball-ball collision; `a < b` always.
    BallBall {
        /// Lower ball index.
        a: usize,
        /// Higher ball index.
        b: usize,
    },
    /// A ball-cushion collision.
    BallCushion {
        /// Ball index.
        ball: usize,
        /// Cushion segment index.
        cushion: usize,
    },
    /// A ball-pocket capture.
    BallPocket {
        /// Ball index.
        ball: usize,
        /// Pocket index.
        pocket: usize,
    },
    /// A ball-circular-cushion collision.
    BallCircularCushion {
        /// Ball index.
        ball: usize,
        /// Circular cushion index (into the table's `circular_cushions`).
        cushion: usize,
    },
}

impl Agents {
    /// A ball-ball pair in canonical order: the ball earlier in the set-up first (the order the
    /// ball-ball law takes them in, `BallBallLaw`'s contract).
    pub fn pair(i: usize, j: usize) -> Self {
        Agents::BallBall {
            a: i.min(j),
            b: i.max(j),
        }
    }

    /// The balls involved (one or two).
    pub fn balls(&self) -> (usize, Option<usize>) {
        match *self {
            Agents::Ball { ball } => (ball, None),
            Agents::BallBall { a, b } => (a, Some(b)),
            Agents::BallCushion { ball, .. }
            | Agents::BallPocket { ball, .. }
            | Agents::BallCircularCushion { ball, .. } => (ball, None),
        }
    }
}

/// One event in a log.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Event {
    /// Simulation time (s). For the discrete integrator: the end of the step where it was noticed.
    pub time: f64,
    /// What happened.
    pub kind: EventKind,
    /// Who took part.
    pub agents: Agents,
}

/// Positions of every ball at one time, for drawing paths.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Snapshot {
    /// Simulation time (s).
    pub time: f64,
    /// Every ball's state at that time, in set-up order.
    pub states: Vec<BallState>,
}

/// Why a run stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// Every ball is stationary or pocketed.
    AtRest,
    /// The set-up's `t_end` was reached with balls still moving.
    TimeLimit,
    /// The engine's event or step budget ran out: a defect to investigate.
    Budget,
    /// A state became non-finite (NaN or infinite): a defect to investigate.
    NumericalError,
    /// The engine could not run the shot (an external program failed; see
    /// [`crate::Engine::try_run`] for why).
    Failed,
}

impl Termination {
    /// snake_case name for reports.
    pub fn name(self) -> &'static str {
        match self {
            Termination::AtRest => "at_rest",
            Termination::TimeLimit => "time_limit",
            Termination::Budget => "budget",
            Termination::NumericalError => "numerical_error",
            Termination::Failed => "failed",
        }
    }
}

/// What a run returns.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Outcome {
    /// Events in the order they were resolved (times non-decreasing).
    pub events: Vec<Event>,
    /// Every ball's state when the run stopped, in set-up order.
    pub final_states: Vec<BallState>,
    /// Time (s) when the run stopped.
    pub end_time: f64,
    /// Why it stopped.
    pub termination: Termination,
    /// Work done, by category.
    #[serde(skip)]
    pub ops: OpCounts,
    /// States at every event (event engine) or at a sampling interval (discrete), when asked for.
    #[serde(skip)]
    pub snapshots: Vec<Snapshot>,
    /// Seconds spent inside the engine's own calls, as the engine measured them, when it
    /// runs outside this process and reports them (an exec program's `engine_s`,
    /// docs/engine-protocol.md); `None` for an engine in this process, whose run is its
    /// caller's wall time.
    #[serde(skip)]
    pub engine_s: Option<f64>,
}

impl Outcome {
    /// The outcome of a run that could not be made ([`Termination::Failed`]): no events, the
    /// set-up's initial states, time 0. The reason is the engine's `try_run`'s.
    pub fn failed(setup: &crate::Setup) -> Self {
        let (states, _) = setup.initial_states();
        Outcome {
            events: Vec::new(),
            final_states: states,
            end_time: 0.0,
            termination: Termination::Failed,
            ops: Default::default(),
            snapshots: Vec::new(),
            engine_s: None,
        }
    }
}
