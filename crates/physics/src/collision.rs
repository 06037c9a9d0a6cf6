//! Collision laws shared by the models (seed 004, Sections II and III).

use crate::hypot::hypot;
use crate::{BallParams, BallState, MotionState, Pocket, Vec2, Vec3};

/// Elastic, instantaneous, frictionless collision of two equal-mass balls (seed 004, Section II):
/// the velocity components along the line of centers are exchanged, the perpendicular components
/// and all spins are kept. Momentum and kinetic energy are conserved exactly (up to rounding).
///
/// Returns the new (v_a, v_b); motion states are for the caller to infer.
pub fn elastic_ball_ball(a: &BallState, b: &BallState) -> (Vec3, Vec3) {
    let d = Vec2::new(b.r.x - a.r.x, b.r.y - a.r.y);
    let n = d / d.norm();
    let n3 = Vec3::new(n.x, n.y, 0.0);
    let transfer = (a.v - b.v).dot(&n3);
    (a.v - n3 * transfer, b.v + n3 * transfer)
}

/// Sustained ball-ball contact: the limit of the Zeno sequence of collisions that a pair in
/// contact and pressed together goes through when every rebound is damped (an elastic exchange
/// followed by the sliding phase it starts keeps 5/7 of the approach speed, so the rebounds
/// shrink geometrically and their times sum to a finite time). In the limit the relative normal
/// velocity is zero: both balls take the common velocity along the line of centers that
/// conserves `m_a v_a + m_b v_b` there (a perfectly inelastic normal impulse), with effective
/// masses `m_a`, `m_b` in units of the ball mass (1 for a free or sliding ball, 7/5 for a
/// ball that stays rolling); tangential components are kept. Kinetic energy never rises.
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

/// Han (2005) ball-cushion collision as given in seed 004, Section III (with the physics-notes'
/// corrections: the stick test includes f_c, the second angular line is w_y).
///
/// `normal` is the unit vector on the cloth from the ball's center toward the cushion, `height`
/// the contact height h (m), so theta = asin(h/R - 1). Returns the new (v, w). The z-impulse
/// changes w but does not lift the ball (v_z stays 0: table-bound model).
///
/// Derivation of signs: the contact point is R (cos theta, 0, sin theta) from the center in the
/// frame where `normal` is +x. The slip velocity there, projected on the tangent axes
/// e1 = (sin theta, 0, -cos theta) and e2 = -y, is (s_x, s_y) of the seed; the impulse on the
/// ball is J = -P_n n_c - P_1 e1 - P_2 e2, with P_n = (1 + e_c) m c and (P_1, P_2) = 2m/7 s when
/// sticking, f_c P_n s/|s| when sliding; dw = R n_c x J / I.
pub fn han2005_cushion(s: &BallState, normal: Vec2, height: f64, p: &BallParams) -> (Vec3, Vec3) {
    let (m, r) = (p.m, p.radius);
    // Rotate into the cushion frame: x along `normal`, y = k x normal.
    let (cx, sx_) = (normal.x, normal.y);
    let to_local = |u: &Vec3| Vec3::new(cx * u.x + sx_ * u.y, -sx_ * u.x + cx * u.y, u.z);
    let to_table = |u: &Vec3| Vec3::new(cx * u.x - sx_ * u.y, sx_ * u.x + cx * u.y, u.z);
    let v = to_local(&s.v);
    let w = to_local(&s.w);

    let sin_t = (height / r - 1.0).clamp(-1.0, 1.0);
    let cos_t = (1.0 - sin_t * sin_t).sqrt();
    let slip_x = v.x * sin_t - v.z * cos_t + r * w.y;
    let slip_y = -v.y - r * w.z * cos_t + r * w.x * sin_t;
    let c = v.x * cos_t;
    let p_normal = (1.0 + p.e_c) * m * c;
    let slip = hypot(slip_x, slip_y);
    let p_stick = 2.0 * m / 7.0 * slip;
    let (p1, p2) = if p_stick <= p.f_c * p_normal {
        (2.0 * m / 7.0 * slip_x, 2.0 * m / 7.0 * slip_y)
    } else {
        (
            p.f_c * p_normal * slip_x / slip,
            p.f_c * p_normal * slip_y / slip,
        )
    };
    let jx = -p_normal * cos_t - p1 * sin_t;
    let jy = p2;
    let jz = -p_normal * sin_t + p1 * cos_t;

    let inertia = p.inertia();
    let v_new = Vec3::new(v.x + jx / m, v.y + jy / m, v.z);
    let w_new = Vec3::new(
        w.x - r / inertia * sin_t * jy,
        w.y + r / inertia * (sin_t * jx - cos_t * jz),
        w.z + r / inertia * cos_t * jy,
    );
    (to_table(&v_new), to_table(&w_new))
}

/// Mirror reflection off a frictionless cushion (seed 002): the normal velocity component is
/// reversed, everything else kept. `normal` is a unit vector on the cloth.
pub fn mirror_cushion(v: &Vec3, normal: Vec2) -> Vec3 {
    let n = Vec3::new(normal.x, normal.y, 0.0);
    v - n * (2.0 * v.dot(&n))
}

/// Pocket capture: the ball is out of play, at rest at the pocket's center (pooltool's
/// convention, so that final positions of pocketed balls compare exactly).
pub fn pocket_capture(s: &BallState, pocket: &Pocket, radius: f64) -> BallState {
    let _ = s;
    BallState {
        r: Vec3::new(pocket.center[0], pocket.center[1], radius),
        v: Vec3::zeros(),
        w: Vec3::zeros(),
        motion: MotionState::Pocketed,
    }
}
