//! The circular cushion (pooltool's rounded jaw): the event engine's contact time against closed
//! forms and against an independent search over the path, grazing paths, and balls resting
//! against an arc. (Whole runs: `pool-harness`'s `tests/circular_cushions.rs`.)

use pool_event::{EventOps, Predictor};
use pool_physics::{
    BallParams, BallState, CircularSegment, Model, MotionState, Physics, Trajectory, Vec2, Vec3,
};
use pool_roots::Isolator;
use proptest::prelude::*;

const R: f64 = 0.028575;

fn pool() -> Model {
    Model::pool(BallParams::pool())
}

/// An arc like pooltool's corner jaw tips (radius 0.02095 m) at the origin.
fn arc() -> CircularSegment {
    CircularSegment {
        center: Vec2::zeros(),
        radius: 0.02095,
        height: 0.036576,
        bbox: pool_physics::Aabb::of(&[Vec2::zeros()]).grown(0.02095),
    }
}

fn predict(p: &Model, s: &BallState, a: &CircularSegment) -> Option<f64> {
    let solver = Isolator::default();
    let mut pr = Predictor::new(p, &solver);
    pr.ball_circular_cushion(s, a, &mut EventOps::default())
        .unwrap()
}

/// Distance (m) from the circle's center to the ball's center t seconds along `tr`.
fn distance(tr: &Trajectory, a: &CircularSegment, t: f64) -> f64 {
    (tr.position(t).xy() - a.center).norm()
}

/// The smallest distance from the circle's center to the ball's center over [t0, t1]: a grid of
/// 4000 points, each local minimum refined by golden-section search (an independent check: no
/// polynomial, no root finder).
fn min_distance(tr: &Trajectory, a: &CircularSegment, t0: f64, t1: f64) -> (f64, f64) {
    let n = 4000;
    let at = |k: usize| t0 + (t1 - t0) * k as f64 / n as f64;
    let d: Vec<f64> = (0..=n).map(|k| distance(tr, a, at(k))).collect();
    let mut best = (d[0], t0);
    for k in 0..=n {
        let left = if k == 0 { f64::INFINITY } else { d[k - 1] };
        let right = if k == n { f64::INFINITY } else { d[k + 1] };
        if d[k] <= left && d[k] <= right {
            let (mut lo, mut hi) = (at(k.saturating_sub(1)), at((k + 1).min(n)));
            for _ in 0..100 {
                let m1 = lo + (hi - lo) * 0.381_966;
                let m2 = hi - (hi - lo) * 0.381_966;
                if distance(tr, a, m1) < distance(tr, a, m2) {
                    hi = m2;
                } else {
                    lo = m1;
                }
            }
            let t = 0.5 * (lo + hi);
            let m = distance(tr, a, t).min(d[k]);
            if m < best.0 {
                best = (m, t);
            }
        }
    }
    best
}

#[test]
fn a_frictionless_ball_meets_the_arc_at_seed_002s_quadratic_time() {
    // |m + v t| = R + r with m the ball's center relative to the arc's: t = (-b - sqrt(b^2 -
    // |v|^2 (|m|^2 - (R + r)^2))) / |v|^2, b = m.v.
    let p = Model::ideal(R, 0.170097);
    let a = arc();
    for (m, v) in [
        (Vec2::new(0.5, 0.03), Vec2::new(-2.0, 0.0)),
        (Vec2::new(-0.3, 0.4), Vec2::new(0.9, -1.1)),
        (Vec2::new(0.0, 1.0), Vec2::new(0.01, -0.5)),
    ] {
        let s = BallState::new(
            Vec3::new(m.x, m.y, R),
            Vec3::new(v.x, v.y, 0.0),
            Vec3::zeros(),
            R,
        );
        let reach = R + a.radius;
        let (vv, b) = (v.norm_squared(), m.dot(&v));
        let expected = (-b - (b * b - vv * (m.norm_squared() - reach * reach)).sqrt()) / vv;
        let t = predict(&p, &s, &a).expect("it hits");
        assert!(
            (t - expected).abs() <= 1e-12 * expected,
            "{t} vs {expected}"
        );
    }
}

#[test]
fn a_rolling_ball_aimed_at_the_arcs_center_meets_it_at_the_kinematic_time() {
    // Straight in, decelerating at mu_r g: s = v0 t - mu_r g t^2 / 2 with s = |m| - (R + r).
    let p = pool();
    let a = arc();
    let (v0, d0) = (1.7, 0.6);
    let dir = Vec2::new(-0.6, 0.8);
    let r0 = -dir * d0;
    let v = dir * v0;
    let s = BallState::settled(
        Vec3::new(r0.x, r0.y, R),
        Vec3::new(v.x, v.y, 0.0),
        Vec3::new(-v.y / R, v.x / R, 0.0),
        R,
    );
    assert_eq!(s.motion, MotionState::Rolling);
    let gap = d0 - R - a.radius;
    let decel = 0.01 * 9.81;
    let expected = 2.0 * gap / (v0 + (v0 * v0 - 2.0 * decel * gap).sqrt());
    let t = predict(&p, &s, &a).expect("it hits");
    assert!((t - expected).abs() < 1e-12, "{t} vs {expected}");
}

/// A sliding or rolling ball with random spin (a parabolic path) anywhere within 1 m of an arc.
fn moving_ball() -> impl Strategy<Value = BallState> {
    (
        0.06f64..1.0,
        0.0f64..std::f64::consts::TAU,
        0.05f64..8.0,
        -0.6f64..0.6,
        prop::array::uniform3(-150.0f64..150.0),
        any::<bool>(),
    )
        .prop_map(|(d, phi, speed, aim, w, rolls)| {
            let r = Vec2::new(d * phi.cos(), d * phi.sin());
            // Roughly toward the arc, off by up to 0.6 rad.
            let heading = phi + std::f64::consts::PI + aim;
            let v = Vec3::new(speed * heading.cos(), speed * heading.sin(), 0.0);
            let w = if rolls {
                Vec3::new(-v.y / R, v.x / R, w[2])
            } else {
                Vec3::new(w[0], w[1], w[2])
            };
            BallState::settled(Vec3::new(r.x, r.y, R), v, w, R)
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// No missed contact, no early one: a predicted time puts the center R + r from the arc's
    /// (within 1e-9 m) while approaching, and nowhere before it is the ball inside the circle's
    /// reach; no prediction means no point of the path (until the next transition) is inside.
    #[test]
    fn the_arcs_contact_time_is_the_paths_first_entry(s in moving_ball()) {
        let p = pool();
        let a = arc();
        let tr = p.trajectory(&s);
        let reach = R + a.radius;
        let horizon = tr.valid_for.min(5.0);
        match predict(&p, &s, &a) {
            Some(t) => {
                prop_assert!(t <= tr.valid_for);
                prop_assert!((distance(&tr, &a, t) - reach).abs() <= 1e-9, "residual at {t}");
                let (before, at) = min_distance(&tr, &a, 0.0, t);
                prop_assert!(before >= reach - 1e-9, "inside by {:e} at {at} before {t}", reach - before);
                // Approaching then: the distance is still falling.
                prop_assert!(distance(&tr, &a, t * (1.0 - 1e-9) - 1e-12) >= distance(&tr, &a, t) - 1e-12);
            }
            None => {
                let (closest, at) = min_distance(&tr, &a, 0.0, horizon);
                prop_assert!(closest >= reach - 1e-9, "missed: inside by {:e} at {at}", reach - closest);
            }
        }
    }

    /// Grazing: a frictionless ball on a straight line passing the arc's center at (R + r)(1 +
    /// eps), eps log-uniform in 1e-12..1e-3 either side. Passing by more than 1e-12 m it must not
    /// touch; passing inside by more than that it must, at the line's entry into the circle.
    #[test]
    fn a_grazing_ball_touches_the_arc_exactly_when_its_path_enters(
        log_eps in -12.0f64..-3.0, inside in any::<bool>(), phi in 0.0f64..std::f64::consts::TAU,
        speed in 0.05f64..10.0, d in 0.1f64..1.0,
    ) {
        let p = Model::ideal(R, 0.170097);
        let a = arc();
        let reach = R + a.radius;
        let eps = 10f64.powf(log_eps) * if inside { -1.0 } else { 1.0 };
        let miss = reach * (1.0 + eps);
        let u = Vec2::new(phi.cos(), phi.sin());
        let side = Vec2::new(-u.y, u.x);
        // The line passes `miss` from the center; the ball starts `d` before the closest point.
        let r = side * miss - u * d;
        let s = BallState::new(Vec3::new(r.x, r.y, R), Vec3::new(u.x * speed, u.y * speed, 0.0), Vec3::zeros(), R);
        let got = predict(&p, &s, &a);
        let depth = reach - miss;
        if depth < -1e-12 {
            prop_assert_eq!(got, None, "passes {:e} m outside", -depth);
        } else if depth > 1e-12 {
            let t = got.expect("passes inside: it must touch");
            let half_chord = (reach * reach - miss * miss).sqrt();
            let expected = (d - half_chord) / speed;
            prop_assert!((t - expected).abs() <= 1e-9 * (1.0 + expected), "{t} vs {expected}");
        }
    }

    /// A ball resting against the arc (its center R + r from the arc's, to within 1e-12 m):
    /// moving into it, it collides now; moving away or along the tangent, never now.
    #[test]
    fn a_ball_touching_the_arc_collides_now_only_when_it_moves_into_it(
        phi in 0.0f64..std::f64::consts::TAU, off in -1e-12f64..1e-12, heading in -3.0f64..3.0,
        speed in 1e-3f64..5.0, rolls in any::<bool>(),
    ) {
        let p = pool();
        let a = arc();
        let n = Vec2::new(phi.cos(), phi.sin()); // outward, from the arc to the ball
        let r = n * (R + a.radius + off);
        // heading 0: straight out; +-pi/2: along the tangent; beyond: into the arc.
        let h = phi + heading;
        let v = Vec3::new(speed * h.cos(), speed * h.sin(), 0.0);
        let w = if rolls { Vec3::new(-v.y / R, v.x / R, 0.0) } else { Vec3::zeros() };
        let s = BallState::settled(Vec3::new(r.x, r.y, R), v, w, R);
        let got = predict(&p, &s, &a);
        let approach = -(v.xy()).dot(&n);
        if approach > 1e-6 * speed {
            prop_assert_eq!(got, Some(0.0), "approaching at {:e}", approach);
        } else if approach < -1e-6 * speed {
            prop_assert!(got.is_none_or(|t| t > 0.0), "separating at {:e}: {got:?}", -approach);
        }
    }
}
