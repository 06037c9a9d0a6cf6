//! Seeds 002/001's motion: frictionless balls at constant velocity, no transitions.

use crate::hypot::hypot;
use crate::{BallState, MotionState, Trajectory, Vec3, SPEED_EPS};

/// The motion state of a frictionless ball: *sliding* (frictionlessly) when it moves, else
/// stationary; spin never matters.
pub(crate) fn infer_motion(v: &Vec3) -> MotionState {
    if hypot(v.x, v.y) < SPEED_EPS {
        MotionState::Stationary
    } else {
        MotionState::Sliding
    }
}

/// r(t) = r0 + v0 t, valid for ever.
pub(crate) fn trajectory(s: &BallState) -> Trajectory {
    if s.motion.is_translating() {
        Trajectory {
            a: Vec3::zeros(),
            b: s.v,
            c: s.r,
            valid_for: f64::INFINITY,
        }
    } else {
        Trajectory::at_rest(s.r)
    }
}

/// The state after `t` seconds: the center moves on, nothing else changes.
#[inline]
pub(crate) fn evolve(s: &BallState, t: f64) -> BallState {
    let mut out = *s;
    if s.motion.is_translating() {
        out.r = s.r + s.v * t;
    }
    out
}

/// The state with velocity `v` and spin `w` at `r`, at rest exactly when below [`SPEED_EPS`].
pub(crate) fn settle(r: Vec3, v: Vec3, w: Vec3) -> BallState {
    let motion = infer_motion(&v);
    let v = if motion == MotionState::Stationary {
        Vec3::zeros()
    } else {
        v
    };
    BallState {
        r,
        v,
        w,
        motion,
        set: 0,
    }
}
