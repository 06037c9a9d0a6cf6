//! The event-based engine (Leckie & Greenspan 2006, seed 000, as built by pooltool): predict the
//! time of every possible next event from the analytic equations of motion, jump to the earliest,
//! resolve it, repeat until nothing moves.
//!
//! Candidate times are cached in absolute time and recomputed only for the balls the last event
//! changed: a ball whose state an event did not touch keeps the same trajectory, so its cached
//! predictions stay exact. Ball states are always evolved from the state each ball had when it
//! last changed (never step on step), so rounding does not accumulate between events.
//!
//! The next event comes from a priority queue with lazy invalidation (`queue.rs`), and most root
//! solves are skipped by conservative tests ([`cull`]) or because their entry would come after
//! one of the balls' own candidates; neither changes the event log.
#![warn(missing_docs)]

mod cluster;
pub mod cull;
mod engine;
mod ops;
mod predict;
mod queue;

pub use engine::{sustained_speed, EventEngine, MAX_EVENTS, SUSTAINED_SPEED};
pub use ops::{EventOp, EventOps};
pub use predict::{
    approach_tolerance, distance_quartic, Contact, Predictor, APPROACH_EPS, CONTACT_SLOP,
    SPEED_FLOOR, TOUCH_TOL,
};
