//! `canonical`: the four natural transitions' effect on a ball (pooltool's
//! `CanonicalTransition`, seed 004 Section I).

use super::TransitionLaw;
use crate::motion::cloth::k_cross;
use crate::resolve::law::parameterless_law;
use crate::{BallParams, BallState, EventKind, MotionState, Vec3, SPEED_EPS};

/// Sets the new motion state and makes velocities agree with it exactly (u = 0 when rolling
/// starts, v = 0 when a ball stops, w = 0 when spinning stops). No parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Canonical;

parameterless_law!(Canonical, "canonical");

impl TransitionLaw for Canonical {
    /// The ball after transition `kind` (collision kinds leave it alone).
    fn apply(&self, p: &BallParams, s: &BallState, kind: EventKind) -> BallState {
        let r = p.radius;
        let mut out = *s;
        out.v.z = 0.0;
        match kind {
            EventKind::SlidingRolling => {
                // Cloth friction acts at the contact point, so it conserves the angular momentum
                // about that point, L = I w + m R k x v; the rolling state with the same L has
                // k x v = (2/7) R w_xy + (5/7) k x v. At the exact transition time (u = 0) this
                // is v itself; a fixed-step integrator that overshot u = 0 gets the exact rolling
                // velocity back, and never more energy than it had (rolling is the least-energy
                // state with that L).
                let q = (out.w.xy() * r) * (2.0 / 7.0) + k_cross(&out.v).xy() * (5.0 / 7.0);
                out.v = Vec3::new(q.y, -q.x, 0.0);
                let w_xy = k_cross(&out.v) / r;
                out.w.x = w_xy.x;
                out.w.y = w_xy.y;
                out.motion = BallState::infer_motion(&out.v, &out.w, r);
            }
            EventKind::RollingStationary | EventKind::RollingSpinning => {
                out.v = Vec3::zeros();
                out.w.x = 0.0;
                out.w.y = 0.0;
                if (out.w.z * r).abs() < SPEED_EPS {
                    out.w.z = 0.0;
                }
                out.motion = BallState::infer_motion(&out.v, &out.w, r);
            }
            EventKind::SpinningStationary => {
                out.v = Vec3::zeros();
                out.w = Vec3::zeros();
                out.motion = MotionState::Stationary;
            }
            // Collisions are not transitions: leave the state alone.
            EventKind::BallBall
            | EventKind::BallLinearCushion
            | EventKind::BallCircularCushion
            | EventKind::BallPocket
            | EventKind::StickBall => {}
        }
        out
    }
}
