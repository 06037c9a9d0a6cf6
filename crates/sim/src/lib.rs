//! What both evolution algorithms share without sharing physics: the simulation set-up they are
//! given ([`Setup`]), the event log and final states they return ([`Outcome`]), the operation
//! counters they increment ([`OpCounts`]), and the [`Engine`] trait the harness drives; and
//! what makes set-ups from set-ups: the rack models ([`RackModel`], which the shot format and
//! the harness share) and their seeded generator ([`SplitMix`]).
//!
//! Nothing here evolves a ball; the physics is in `pool-physics`, the algorithms in `pool-event`
//! and `pool-discrete`.
#![warn(missing_docs)]

mod ops;
mod outcome;
mod rack;
mod rng;
mod setup;

pub use ops::OpCounts;
pub use outcome::{Agents, Event, Outcome, Snapshot, Termination};
pub use rack::{RackModel, DEFAULT_RACK};
pub use rng::SplitMix;
pub use setup::{
    id_ranks, max_t_end, max_table_diagonal, Ball, Setup, SetupError, Strike, MAX_SPEED,
    OVERLAP_TOL, POSITION_PRECISION,
};

/// An evolution algorithm: turns a set-up into an event log and final states. How an engine
/// is named, configured and built is `pool-engines`' `EngineSpec`.
pub trait Engine: Send + Sync {
    /// Evolves the shot until every ball is stationary or pocketed, the set-up's `t_end`, or the
    /// engine's budget is reached (see [`Termination`]). An engine that can fail without a
    /// physical reason (an external program) returns [`Termination::Failed`] here and says
    /// why in [`Engine::try_run`].
    fn run(&self, setup: &Setup) -> Outcome;

    /// [`Engine::run`], or why the engine could not run the shot at all (a program that
    /// crashed, timed out or answered nonsense). The default never fails.
    ///
    /// # Errors
    /// The engine's own account of the failure.
    fn try_run(&self, setup: &Setup) -> Result<Outcome, EngineError> {
        Ok(self.run(setup))
    }

    /// [`Engine::try_run`] on several set-ups, in order: an engine with a start-up cost (an
    /// external program) pays it once. The default runs them one by one.
    fn try_run_all(&self, setups: &[Setup]) -> Vec<Result<Outcome, EngineError>> {
        setups.iter().map(|s| self.try_run(s)).collect()
    }
}

/// Whether a fixed-step loop stops before its next step for want of time or budget: after
/// `step` of its `max_steps` steps, or once its log holds `max_events` events. `TimeLimit` when
/// the set-up's `t_end` ran out, `Budget` otherwise (the engine's own time budget or the event
/// limit); `None` to go on.
#[inline]
pub fn out_of_steps(
    setup: &Setup,
    step: u64,
    max_steps: u64,
    events: usize,
    max_events: Option<usize>,
) -> Option<Termination> {
    let timed_out = step >= max_steps;
    if !timed_out && max_events.is_none_or(|m| events < m) {
        return None;
    }
    Some(if setup.t_end.is_some() && timed_out {
        Termination::TimeLimit
    } else {
        Termination::Budget
    })
}

/// Why an engine could not run a shot: one line (an external program's stderr follows it,
/// indented, when there is any).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError {
    /// What went wrong.
    pub message: String,
    /// Whether the engine declined the shot as outside what it models (e.g. frictionless
    /// motion for pooltool) rather than failing on it: a skipped row, not a defect.
    pub unsupported: bool,
}

impl EngineError {
    /// A failure.
    pub fn failed(message: impl Into<String>) -> Self {
        EngineError {
            message: message.into(),
            unsupported: false,
        }
    }

    /// A shot the engine does not model.
    pub fn unsupported(message: impl Into<String>) -> Self {
        EngineError {
            message: message.into(),
            unsupported: true,
        }
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.unsupported {
            write!(f, "unsupported: {}", self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for EngineError {}
