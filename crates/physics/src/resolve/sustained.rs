//! Sustained contacts under cloth friction: the limits of the damped rebounds of a pair (or a
//! ball and a cushion) that friction presses together. The default sustained partner of every
//! law when the equations of motion have friction ([`crate::Motion::has_friction`]).

use super::ball_ball::Velocities;
use crate::motion::cloth::k_cross;
use crate::{BallParams, BallState, MotionState, Vec2, Vec3};

/// A pressed pair in contact: [`sustained_ball_ball`] with the effective masses of balls that
/// stay rolling (7/5 m: a ball without slip stays rolling through the damped rebounds, each
/// short sliding phase ending in rolling, so it answers a push at its center with 7/5 of its
/// mass) or sliding (m: its friction is saturated). A rolling ball keeps rolling on its new
/// velocity; a sliding one burns the slip that presses it in ([`burn_pressing_slip`]). Each
/// ball with its own parameters (`pa` for `a`, `pb` for `b`).
pub fn pressed_pair(
    pa: &BallParams,
    a: &BallState,
    pb: &BallParams,
    b: &BallState,
) -> [Velocities; 2] {
    let gap = b.r.xy() - a.r.xy();
    let n = gap / gap.norm();
    let rolls = |s: &BallState| s.motion != MotionState::Sliding;
    let weight = |s: &BallState| if rolls(s) { 1.4 } else { 1.0 };
    // Effective masses in units of b's mass (a's in units of its own times m_a / m_b: exactly
    // the weights for equal masses).
    let (va, vb) = sustained_ball_ball(a, b, weight(a) * (pa.m / pb.m), weight(b));
    let spin = |s: &BallState, v: Vec3, into: Vec2, r: f64| {
        if rolls(s) {
            let w_xy = k_cross(&v) / r;
            Vec3::new(w_xy.x, w_xy.y, s.w.z)
        } else {
            burn_pressing_slip(&v, &s.w, into, r)
        }
    };
    [
        (va, spin(a, va, n, pa.radius)),
        (vb, spin(b, vb, -n, pb.radius)),
    ]
}

/// A ball pressed against a wall whose unit normal on the cloth (from the ball toward the
/// contact) is `normal`: [`sustained_cushion`], then [`burn_pressing_slip`].
pub fn pressed_wall(p: &BallParams, s: &BallState, normal: Vec2) -> Velocities {
    let v = sustained_cushion(&s.v, normal);
    let w = burn_pressing_slip(&v, &s.w, normal, p.radius);
    (v, w)
}

/// Sustained ball-ball contact: the limit of the Zeno sequence of collisions that a pair in
/// contact and pressed together goes through when every rebound is damped (an elastic exchange
/// followed by the sliding phase it starts keeps 5/7 of the approach speed, so the rebounds
/// shrink geometrically and their times sum to a finite time). In the limit the relative normal
/// velocity is zero: both balls take the common velocity along the line of centers that
/// conserves `m_a v_a + m_b v_b` there (a perfectly inelastic normal impulse), with effective
/// masses `m_a`, `m_b` in any one unit (the ball's mass for a free or sliding ball, 7/5 of it
/// for a ball that stays rolling); tangential components are kept. Kinetic energy never rises.
///
/// Returns the new (v_a, v_b); spins are for the caller.
pub fn sustained_ball_ball(a: &BallState, b: &BallState, m_a: f64, m_b: f64) -> (Vec3, Vec3) {
    let d = Vec2::new(b.r.x - a.r.x, b.r.y - a.r.y);
    let n = d / d.norm();
    let n3 = Vec3::new(n.x, n.y, 0.0);
    // Only a closing contact takes an impulse: contacts push, they never pull.
    let closing = (a.v - b.v).dot(&n3).max(0.0);
    let total = m_a + m_b;
    (
        a.v - n3 * (closing * m_b / total),
        b.v + n3 * (closing * m_a / total),
    )
}

/// The spin a sliding ball keeps when it is pressed against an obstacle in direction `into`
/// (unit, on the cloth) that does not give way: the slip component that drives it into the
/// obstacle, u_n = u . into with u = v + R k x w, is burnt by cloth friction while the obstacle's
/// reaction holds the center, which is what a sustained push converges to (seed 004's sliding
/// friction, integrated over the push). Only w changes (along k x into), only when the slip
/// pushes into the obstacle, and only if it lowers the kinetic energy; otherwise w is returned.
pub fn burn_pressing_slip(v: &Vec3, w: &Vec3, into: Vec2, radius: f64) -> Vec3 {
    let k_into = Vec3::new(-into.y, into.x, 0.0);
    let slip_n = v.x * into.x + v.y * into.y - radius * w.dot(&k_into);
    // Friction opposes the slip: it pushes into the obstacle when the slip points away from it.
    if slip_n >= 0.0 {
        return *w;
    }
    let burnt = w + k_into * (slip_n / radius);
    if burnt.norm_squared() < w.norm_squared() {
        burnt
    } else {
        *w
    }
}

/// Sustained ball-cushion contact: the limit of the damped rebounds of a ball pressed against a
/// cushion (restitution e_c < 1): the velocity component into the cushion is removed, the rest
/// kept. `normal` is the unit vector on the cloth from the ball's center toward the contact.
/// Kinetic energy never rises.
pub fn sustained_cushion(v: &Vec3, normal: Vec2) -> Vec3 {
    let n = Vec3::new(normal.x, normal.y, 0.0);
    v - n * v.dot(&n).max(0.0)
}
