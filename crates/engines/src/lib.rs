//! Every evolution algorithm by name: an [`EngineSpec`] is what a user writes to choose one
//! (`event`, `event:ferrari`, `discrete:1e-4`, `discrete:1e-3:located`, `exec:<command>`,
//! `pooltool`, `rapier:<dt>`, the peers `mujoco:<dt>[:<integrator>]`, `pybullet:<dt>`,
//! `pymunk:<dt>`, `box2d:<dt>`, `billiards`, or an engine registered at run time), parsed and validated in one place, and [`EngineSpec::build`] makes the
//! [`pool_sim::Engine`]. The harness, the command line, the benches and the examples all go
//! through it, so an engine added here is available everywhere.
#![warn(missing_docs)]

pub mod peers;
pub mod pooltool;
mod registry;
mod spec;

pub use registry::{register, registered, Builder};

/// The event-based engine's family name (`EngineSpec::family`, the `engine` column of reports).
pub const EVENT: &str = "event";
/// The discrete-time integrator's family name.
pub const DISCRETE: &str = "discrete";
/// The family name of programs run through the protocol.
pub const EXEC: &str = "exec";
/// pooltool's family name.
pub const POOLTOOL: &str = "pooltool";
/// The rapier engine's family name.
pub const RAPIER: &str = "rapier";
pub use peers::{Integrator, Peer};
pub use spec::{
    did_you_mean, shell_word, spec_heads, split_list, suggestion, EngineSpec, RunOptions, SpecError,
};
