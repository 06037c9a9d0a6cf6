//! What both evolution algorithms share without sharing physics: the simulation set-up they are
//! given ([`Setup`]), the event log and final states they return ([`Outcome`]), the operation
//! counters they increment ([`OpCounts`]), and the [`Engine`] trait the harness drives.
//!
//! Nothing here evolves a ball; the physics is in `pool-physics`, the algorithms in `pool-event`
//! and `pool-discrete`.
#![warn(missing_docs)]

mod ops;
mod outcome;
mod setup;

pub use ops::OpCounts;
pub use outcome::{Agents, Event, Outcome, Snapshot, Termination};
pub use setup::{
    id_ranks, max_t_end, max_table_diagonal, Ball, Setup, SetupError, Strike, MAX_SPEED,
    OVERLAP_TOL, POSITION_PRECISION,
};

/// An evolution algorithm: turns a set-up into an event log and final states. How an engine
/// is named, configured and built is `pool-engines`' `EngineSpec`.
pub trait Engine: Send + Sync {
    /// Evolves the shot until every ball is stationary or pocketed, the set-up's `t_end`, or the
    /// engine's budget is reached (see [`Termination`]).
    fn run(&self, setup: &Setup) -> Outcome;
}
