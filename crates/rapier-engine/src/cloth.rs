//! Cloth friction on rapier's discs: the shared physics' accelerations as a force per step, the
//! spin rapier does not have kept beside it, and the motion state settled after each step.

use pool_physics::{BallState, EventKind, Physics, Vec3};

/// What one ball's cloth friction does over a step, planned from its state at the start.
pub(crate) struct Planned {
    /// The force to apply to the body (N): m dv/dt of [`Physics::accelerations`].
    pub force: Vec3,
    /// The spin at the end of the step (rad/s): w + dw/dt dt, a spin decay that stops at zero
    /// kept from crossing it.
    pub w: Vec3,
    /// The velocity friction alone would give at the end of the step (m/s).
    pub v: Vec3,
}

/// The plan of every ball (a ball at rest or pocketed: no force, spin and velocity kept).
pub(crate) fn forces<P: Physics + ?Sized>(p: &P, states: &[BallState], dt: f64) -> Vec<Planned> {
    states
        .iter()
        .map(|s| {
            if !s.motion.is_moving() {
                return Planned {
                    force: Vec3::zeros(),
                    w: s.w,
                    v: s.v,
                };
            }
            let (dv, dw) = p.accelerations(s);
            let mut w = s.w + dw * dt;
            if p.spin_decay_stops(s) && w.z * s.w.z < 0.0 {
                w.z = 0.0;
            }
            Planned {
                force: dv * p.mass(s),
                w,
                v: s.v + dv * dt,
            }
        })
        .collect()
}

/// The ball after a step: `moved` (rapier's position and velocity, the planned spin) settled.
/// A velocity that is not the one friction alone gives (`by_friction`) was changed by a contact:
/// the motion state is then read from the velocities. Otherwise a transition whose condition
/// changed sign since `before` is applied (and returned), and a rolling ball's spin is made to
/// roll on its new velocity exactly.
pub(crate) fn settle<P: Physics + ?Sized>(
    p: &P,
    before: &BallState,
    moved: &BallState,
    by_friction: Vec3,
    radius: f64,
) -> (BallState, Option<EventKind>) {
    let scale = 1.0 + by_friction.norm();
    if (moved.v - by_friction).norm() > 1e-9 * scale {
        let motion = p.infer_motion(moved);
        return (BallState { motion, ..*moved }, None);
    }
    if let Some(kind) = p.transition_crossed(before, moved) {
        return (p.apply_transition(moved, kind), Some(kind));
    }
    let mut s = *moved;
    if s.motion == pool_physics::MotionState::Rolling {
        s.w.x = -s.v.y / radius;
        s.w.y = s.v.x / radius;
    }
    (s, None)
}
