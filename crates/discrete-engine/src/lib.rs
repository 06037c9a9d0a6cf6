//! The reference discrete-time integrator (seed 000, "discrete simulation"; seed 003): advance
//! every ball by a fixed step dt through the shared physics, then detect what happened during the
//! step (overlap, a ball past a cushion line, a center inside a pocket, a transition's sign
//! change) and resolve it with the same laws. An event's reported time is the end of the step in
//! which it was noticed, as the seeds describe: this is the algorithm's error, which the harness
//! measures.
#![warn(missing_docs)]

mod broad;
mod cells;
mod engine;
mod located;
mod ops;
mod scheme;

pub use broad::BroadPhase;
pub use engine::{DiscreteEngine, InvalidDt, DT_MAX, DT_MIN, MAX_TIME};
pub use located::{LocatedOp, LocatedOps, LOCATE_TOL, ZENO_LIMIT};
pub use ops::{DiscreteOp, DiscreteOps};
pub use scheme::Scheme;
