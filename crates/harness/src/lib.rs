//! The comparison harness: runs identical set-ups through the event-based engine (the reference)
//! and the discrete-time integrator over a dt sweep, matches their events, and measures
//! collision-time error, final-position error and cost.
#![warn(missing_docs)]

mod rows;

pub use rows::{BallPath, ErrorRow, OpsRow, ShotPaths, SummaryRow};
