//! pooltool 0.6.0's contact spacer: before a collision law runs, its `make_kiss` moves the
//! colliding bodies back along their velocities until they are `MIN_DIST` (1e-6 m) apart
//! instead of touching, so the law reads the contact's geometry there. That turns the line of
//! centers of two balls that meet obliquely (by about spacer x tan(cut angle) / 2R, 1.7e-5 rad
//! at 45 degrees for pool balls), and tilts or turns a cushion's normal. It is a numerical
//! device, not physics; the laws that pooltool resolves after it take it as their `spacer`
//! parameter (m), so that a run under pooltool's presets is pooltool's run.

use super::spec::{LawError, LawSpec, Param};
use crate::{BallState, MotionState, Vec2, Vec3};

/// pooltool 0.6.0's gap between two bodies when its laws read the contact's geometry
/// (`pooltool.constants.MIN_DIST`, m).
pub const POOLTOOL_SPACER: f64 = 1e-6;

/// The `spacer` parameter (m) from a law's spec, `default` when the spec does not name it.
/// Errors unless a number in [0, 1e-3].
pub(crate) fn from_spec(spec: &LawSpec, default: f64) -> Result<f64, LawError> {
    let x = spec.number_or("spacer", default)?;
    if (0.0..=1e-3).contains(&x) {
        Ok(x)
    } else {
        Err(LawError {
            param: "spacer".into(),
            value: x.to_string(),
            why: "must be in [0, 1e-3] m: how far apart the bodies are when the law reads the \
                  contact's geometry"
                .into(),
        })
    }
}

/// The `spacer` parameter as a law's spec writes it: only when it is not the law's `default`.
pub(crate) fn param(spacer: f64, default: f64) -> Option<(String, Param)> {
    (spacer != default).then(|| ("spacer".into(), Param::Number(spacer)))
}

fn translating(s: &BallState) -> bool {
    !matches!(
        s.motion,
        MotionState::Stationary | MotionState::Spinning | MotionState::Pocketed
    )
}

/// The root of smaller magnitude of alpha t^2 + beta t + gamma = 0 (alpha > 0), without
/// cancellation; `None` when both are complex (pooltool keeps only real roots).
fn smaller_root(alpha: f64, beta: f64, gamma: f64) -> Option<f64> {
    let disc = beta * beta - 4.0 * alpha * gamma;
    if alpha.is_nan() || alpha <= 0.0 || disc < 0.0 {
        return None;
    }
    let q = -0.5 * (beta + beta.signum() * disc.sqrt());
    if q == 0.0 {
        return Some((-gamma / alpha).sqrt());
    }
    let (t1, t2) = (q / alpha, gamma / q);
    Some(if t1.abs() < t2.abs() { t1 } else { t2 })
}

/// Balls `a` and `b`, touching (centers `touch` m apart on the cloth,
/// [`crate::contact_distance`]), moved as pooltool 0.6.0's `CoreBallBallCollision.make_kiss`
/// moves them before its ball–ball law runs (`physics/resolve/ball_ball/core.py`): both along
/// their velocities by the time t of smallest magnitude at which their centers are
/// `touch + spacer` apart on the cloth, |(r_b - r_a) + t (v_b - v_a)| = touch + spacer
/// (acceleration neglected, as pooltool does; pooltool measures in space, the same for its
/// equal balls, whose centers are at one height). When neither ball translates (both
/// stationary or spinning), or that move would shift the pair's midpoint by more than 5
/// spacers (balls moving almost together), they are instead pushed apart along their line of
/// centers, each by half of what is missing. The law then reads the line of centers from the
/// moved balls (turned by about spacer x tan(cut angle) / 2R at a cut), and the balls leave
/// from there. Unmoved when `spacer` is 0.
pub fn kissed_pair(a: &BallState, b: &BallState, touch: f64, spacer: f64) -> [BallState; 2] {
    if spacer == 0.0 {
        return [*a, *b];
    }
    let (dv, dr) = ((b.v - a.v).xy(), (b.r - a.r).xy());
    let target = touch + spacer;
    let along = (translating(a) || translating(b))
        .then(|| {
            let gamma = (dr.norm() - target) * (dr.norm() + target);
            smaller_root(dv.norm_squared(), 2.0 * dv.dot(&dr), gamma)
        })
        .flatten()
        .filter(|t| ((a.v + b.v) * (0.5 * t)).norm() <= 5.0 * spacer);
    let (ra, rb) = match along {
        Some(t) => (a.r + a.v * t, b.r + b.v * t),
        None => {
            let n = dr.normalize() * ((target - dr.norm()) / 2.0);
            let half = Vec3::new(n.x, n.y, 0.0);
            (a.r - half, b.r + half)
        }
    };
    [BallState { r: ra, ..*a }, BallState { r: rb, ..*b }]
}

/// Where pooltool 0.6.0's `CoreBallLCushionCollision.make_kiss` puts a ball touching a straight
/// cushion before its law runs (`physics/resolve/ball_cushion/core.py`): moved along its
/// velocity until its center is R + `spacer` from the cushion's line, t = -spacer / v_n with
/// v_n its speed into the cushion; `spacer` straight back along the normal when it does not
/// translate, does not move into the cushion, or that move would be longer than 5 spacers (a
/// grazing ball). `normal` is the unit vector on the cloth from the ball toward the contact.
/// The ball's own position when `spacer` is 0.
pub fn kissed_at_line(s: &BallState, normal: Vec2, spacer: f64) -> Vec3 {
    if spacer == 0.0 {
        return s.r;
    }
    let n = Vec3::new(normal.x, normal.y, 0.0);
    let vn = s.v.dot(&n);
    let along = (translating(s) && vn > 0.0)
        .then(|| -spacer / vn)
        .filter(|t| (s.v * *t).norm() <= 5.0 * spacer);
    match along {
        Some(t) => s.r + s.v * t,
        None => s.r - n * spacer,
    }
}

/// The time (s, negative) by which pooltool 0.6.0's `CoreBallCCushionCollision.make_kiss` moves
/// a ball touching a circular cushion back along its velocity: the root of smaller magnitude of
/// |(-`normal` x `touch`) + t v| = `touch` + `spacer` on the cloth, `touch` = R + r the center
/// distance at contact and `normal` the unit vector from the ball toward the circle's center;
/// `None` where pooltool falls back to a radial move (the ball does not translate, no real
/// root, or a move longer than 5 spacers).
pub fn circular_kiss_time(s: &BallState, normal: Vec2, touch: f64, spacer: f64) -> Option<f64> {
    if spacer == 0.0 || !translating(s) {
        return None;
    }
    let v = s.v.xy();
    let diff = -normal * touch;
    let target = touch + spacer;
    let t = smaller_root(
        v.norm_squared(),
        2.0 * diff.dot(&v),
        (touch - target) * (touch + target),
    )?;
    ((s.v * t).norm() <= 5.0 * spacer).then_some(t)
}

/// Where pooltool 0.6.0's `make_kiss` puts a ball touching a circular cushion (center distance
/// `touch` = R + r) before its law runs: moved back along its velocity by
/// [`circular_kiss_time`], or `spacer` radially away from the circle where pooltool falls back.
/// The ball's own position when `spacer` is 0.
pub fn kissed_at_circle(s: &BallState, normal: Vec2, touch: f64, spacer: f64) -> Vec3 {
    if spacer == 0.0 {
        return s.r;
    }
    match circular_kiss_time(s, normal, touch, spacer) {
        Some(t) => s.r + s.v * t,
        None => s.r - Vec3::new(normal.x, normal.y, 0.0) * spacer,
    }
}
