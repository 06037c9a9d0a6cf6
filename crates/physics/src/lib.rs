//! Shared physics of pool and billiards: ball state, table geometry, and the [`Physics`] trait
//! through which *both* evolution algorithms (the event-based engine and the discrete-time
//! integrator) see the world.
//!
//! This crate knows nothing about evolution algorithms: it answers "where is this ball after
//! t seconds of its current motion", "when does its motion state change", "what happens at this
//! contact", and never "what happens next on the table".
//!
//! A [`Model`] is equations of motion ([`Motion`], in `motion/`) plus one law per event type
//! ([`resolve::Resolver`], in `resolve/<event type>/<law>.rs`, pooltool's names), with
//! ball parameters. Two presets:
//! - `pool` ([`Model::pool`]): seed 004 (Kiefl, "The physics of pool"): stationary, spinning,
//!   sliding, rolling and pocketed balls on cloth, four natural transitions,
//!   `frictionless_elastic` ball-ball collisions, `han_2005` ball-cushion collisions and
//!   `canonical` pocket capture.
//! - `ideal` ([`Model::ideal`]): seeds 002/001: frictionless constant-velocity balls, elastic
//!   ball-ball collisions and mirror cushions (`unrealistic`).
//!
//! Tables: [`Table`] is the description; [`PreparedTable`] adds every element's geometry,
//! computed once, for the engines, the checks and the plots.
//!
//! Units are SI throughout (m, s, kg, rad). The table frame has x along the long rail, y across,
//! z up, with the origin at a corner of the playing area.
#![warn(missing_docs)]

mod aabb;
mod ball;
mod event;
mod hypot;
mod model;
mod motion;
mod orientation;
pub mod resolve;
mod table;
mod trajectory;

pub use aabb::Aabb;
pub use ball::{contact_distance, BallParams, BallState, MotionState};
pub use event::EventKind;
pub use hypot::hypot;
pub use model::{Model, Physics, Transition};
pub use motion::Motion;
pub use orientation::{
    magnus4, segment_rotation, substeps, SpinProfile, MAX_SUBSTEPS, ROTATION_TOL,
};
pub use resolve::ball_ball::elastic_ball_ball;
pub use resolve::ball_cushion::{han2005_cushion, mirror_cushion};
pub use resolve::ball_pocket::pocket_capture;
pub use resolve::sustained::{burn_pressing_slip, sustained_ball_ball, sustained_cushion};
pub use table::{
    cushion_id_from_pooltool, id_problem, pocket_id_from_pooltool, CircularCushion,
    CircularSegment, Cushion, Enclosure, EndPoint, Escape, LinearSegment, Pocket, PocketTableSpecs,
    PocketZone, PreparedTable, Table, TableError, MAX_ESCAPE_TESTS, MAX_TABLE_ELEMENTS,
    POOLTOOL_TABLES,
};
pub use trajectory::Trajectory;

/// A 3-vector in the table frame (m, m/s or rad/s depending on use).
pub type Vec3 = nalgebra::Vector3<f64>;
/// A 2-vector on the cloth plane (m).
pub type Vec2 = nalgebra::Vector2<f64>;
/// A rotation of a ball (body frame to table frame), see [`SpinProfile`].
pub type Rotation = nalgebra::UnitQuaternion<f64>;

/// Speeds (m/s) below this are treated as zero when inferring a motion state.
///
/// Just above f64 rounding of speeds of order 10 m/s (about 2e-15), and far below anything a
/// ball does on cloth for a measurable time: a ball at 1e-13 m/s stops within 1e-10 s.
pub const SPEED_EPS: f64 = 1e-13;
