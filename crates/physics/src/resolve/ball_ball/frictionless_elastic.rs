//! `frictionless_elastic`: instantaneous, frictionless, perfectly elastic collision of two
//! equal-mass balls (seed 004, Section II; pooltool's `FrictionlessElastic`).

use super::{BallBallLaw, Velocities};
use crate::resolve::law::parameterless_law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// Seed 004, Section II: in the frame of ball B, A's velocity splits into its component along
/// the line of centers (all of it goes to B) and the perpendicular part (stays with A). Spins
/// are unchanged; momentum and kinetic energy are conserved exactly (up to rounding). No
/// parameters; reads no ball parameter (equal masses).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrictionlessElastic;

parameterless_law!(FrictionlessElastic, "frictionless_elastic");

impl BallBallLaw for FrictionlessElastic {
    fn resolve(&self, _p: &BallParams, a: &BallState, b: &BallState) -> [Velocities; 2] {
        let (va, vb) = elastic_ball_ball(a, b);
        [(va, a.w), (vb, b.w)]
    }
}

/// The velocities of [`FrictionlessElastic`]: the components along the line of centers are
/// exchanged, the perpendicular ones kept. Returns the new (v_a, v_b).
pub fn elastic_ball_ball(a: &BallState, b: &BallState) -> (Vec3, Vec3) {
    let d = Vec2::new(b.r.x - a.r.x, b.r.y - a.r.y);
    let n = d / d.norm();
    let n3 = Vec3::new(n.x, n.y, 0.0);
    let transfer = (a.v - b.v).dot(&n3);
    (a.v - n3 * transfer, b.v + n3 * transfer)
}
