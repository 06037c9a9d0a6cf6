//! `frictionless_elastic`: instantaneous, frictionless, perfectly elastic collision of two
//! balls (seed 004, Section II, for equal masses; pooltool's `FrictionlessElastic`).

use super::{BallBallLaw, Velocities};
use crate::resolve::law::spacer_only_law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// Seed 004, Section II: in the frame of ball B, A's velocity splits into its component along
/// the line of centers and the perpendicular part, which stays with A. For equal masses all of
/// the first goes to B; for masses m_a, m_b (seed 004 assumes equal ones) it is the
/// one-dimensional elastic collision along the line of centers (momentum and kinetic energy
/// conserved, e.g. Stronge, *Impact Mechanics*, §2.2 with e = 1): A loses 2 m_b / (m_a + m_b)
/// of the normal relative velocity and B gains 2 m_a / (m_a + m_b) of it, both exactly 1 for
/// equal masses. Spins are unchanged. Reads each ball's `m`.
///
/// Parameter `spacer` (m, default 0; [`BallBallLaw::spacer`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FrictionlessElastic {
    /// pooltool's gap (m) between the balls when the law runs ([`BallBallLaw::spacer`]).
    pub spacer: f64,
}

spacer_only_law!(FrictionlessElastic, "frictionless_elastic");

impl BallBallLaw for FrictionlessElastic {
    fn resolve(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2] {
        let (va, vb) = elastic_ball_ball(a, pa.m, b, pb.m);
        [(va, a.w), (vb, b.w)]
    }

    fn spacer(&self) -> f64 {
        self.spacer
    }
}

/// The velocities of [`FrictionlessElastic`] for balls `a` and `b` of masses `ma`, `mb` (kg):
/// the components along the line of centers exchanged as an elastic collision of those masses,
/// the perpendicular ones kept. Returns the new (v_a, v_b).
pub fn elastic_ball_ball(a: &BallState, ma: f64, b: &BallState, mb: f64) -> (Vec3, Vec3) {
    let d = Vec2::new(b.r.x - a.r.x, b.r.y - a.r.y);
    let n = d / d.norm();
    let n3 = Vec3::new(n.x, n.y, 0.0);
    let transfer = (a.v - b.v).dot(&n3);
    let total = ma + mb;
    (
        a.v - n3 * (transfer * (2.0 * mb / total)),
        b.v + n3 * (transfer * (2.0 * ma / total)),
    )
}
