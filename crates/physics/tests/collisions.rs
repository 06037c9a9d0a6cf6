//! Collision laws: closed forms and invariants (seed 004, Sections II and III).

use pool_physics::{BallParams, BallState, Model, MotionState, Physics, Vec2, Vec3};
use proptest::prelude::*;

const R: f64 = 0.028575;

fn ball(x: f64, y: f64, v: Vec3, w: Vec3) -> BallState {
    BallState::new(Vec3::new(x, y, R), v, w, R)
}

#[test]
fn head_on_ball_ball_exchanges_velocities() {
    let p = Model::pool(BallParams::pool());
    let a = ball(
        0.5,
        0.5,
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(0.0, 2.0 / R, 0.0),
    );
    let b = ball(0.5 + 2.0 * R, 0.5, Vec3::zeros(), Vec3::zeros());
    let (a2, b2) = p.resolve_ball_ball(&a, &b);
    assert_eq!(a2.v, Vec3::zeros());
    assert_eq!(b2.v, Vec3::new(2.0, 0.0, 0.0));
    // The cue ball keeps its topspin: it is now sliding on the spot (follow).
    assert_eq!(a2.w, a.w);
    assert_eq!(a2.motion, MotionState::Sliding);
    assert_eq!(b2.motion, MotionState::Sliding);
}

#[test]
fn thirty_degree_cut_splits_velocity_at_right_angles() {
    let p = Model::ideal(R, 0.17);
    let angle = 30f64.to_radians();
    let a = ball(0.5, 0.5, Vec3::new(1.0, 0.0, 0.0), Vec3::zeros());
    let b = ball(
        0.5 + 2.0 * R * angle.cos(),
        0.5 + 2.0 * R * angle.sin(),
        Vec3::zeros(),
        Vec3::zeros(),
    );
    let (a2, b2) = p.resolve_ball_ball(&a, &b);
    assert!((b2.v.norm() - angle.cos()).abs() < 1e-15);
    assert!((a2.v.norm() - angle.sin()).abs() < 1e-15);
    assert!(a2.v.dot(&b2.v).abs() < 1e-15);
}

#[test]
fn mirror_cushion_reverses_the_normal_component() {
    let p = Model::ideal(R, 0.17);
    let s = ball(0.5, R, Vec3::new(1.0, -2.0, 0.0), Vec3::zeros());
    let out = p.resolve_ball_cushion(&s, Vec2::new(0.0, -1.0), 0.0366);
    assert_eq!(out.v, Vec3::new(1.0, 2.0, 0.0));
}

#[test]
fn han_head_on_without_spin_has_closed_form_rebound() {
    // v = (v0, 0, 0) into a cushion at +x, no spin. Slip s = (v0 sin t, 0); it sticks when
    // 2/7 v0 sin t <= f_c (1 + e) v0 cos t, true for pool defaults (0.080 <= 0.355), and the
    // x-impulse per unit mass is -(1 + e) v0 cos^2 t - 2/7 v0 sin^2 t.
    let params = BallParams::pool();
    let p = Model::pool(params);
    let h = 0.64 * 2.0 * R;
    let v0 = 2.0;
    let s = ball(1.0, 0.5, Vec3::new(v0, 0.0, 0.0), Vec3::zeros());
    let out = p.resolve_ball_cushion(&s, Vec2::new(1.0, 0.0), h);
    let sin_t = h / R - 1.0;
    let cos_t = (1.0 - sin_t * sin_t).sqrt();
    let pn = (1.0 + params.e_c) * v0 * cos_t; // per unit mass
    assert!(2.0 / 7.0 * v0 * sin_t <= params.f_c * pn);
    let expected_vx = v0 - pn * cos_t - 2.0 / 7.0 * v0 * sin_t * sin_t;
    assert!(
        (out.v.x - expected_vx).abs() < 1e-12,
        "{} vs {expected_vx}",
        out.v.x
    );
    assert!(out.v.x < 0.0, "ball must come off the cushion");
    assert_eq!(out.v.y, 0.0);
    assert_eq!(out.v.z, 0.0);
    // The impulse acts above the center: it puts backspin-like rotation about y.
    assert!(out.w.y != 0.0);
}

fn planar(max: f64) -> impl Strategy<Value = Vec3> {
    (-max..max, -max..max).prop_map(|(x, y)| Vec3::new(x, y, 0.0))
}

fn spin() -> impl Strategy<Value = Vec3> {
    (-150.0f64..150.0, -150.0f64..150.0, -100.0f64..100.0).prop_map(|(x, y, z)| Vec3::new(x, y, z))
}

proptest! {
    /// Momentum and kinetic energy are conserved; the pair separates afterwards.
    #[test]
    fn ball_ball_conserves_momentum_and_energy(
        va in planar(10.0), vb in planar(10.0), wa in spin(), wb in spin(), phi in 0.0f64..std::f64::consts::TAU,
    ) {
        let p = Model::pool(BallParams::pool());
        let a = ball(0.8, 0.5, va, wa);
        let b = ball(0.8 + 2.0 * R * phi.cos(), 0.5 + 2.0 * R * phi.sin(), vb, wb);
        let d = b.r - a.r;
        prop_assume!(d.dot(&(b.v - a.v)) < 0.0); // approaching
        let (a2, b2) = p.resolve_ball_ball(&a, &b);
        let scale = 1.0 + va.norm() + vb.norm();
        prop_assert!(((a2.v + b2.v) - (a.v + b.v)).norm() < 1e-12 * scale);
        let e0 = p.kinetic_energy(&a) + p.kinetic_energy(&b);
        let e1 = p.kinetic_energy(&a2) + p.kinetic_energy(&b2);
        prop_assert!((e1 - e0).abs() <= 1e-12 * e0.max(1e-12));
        prop_assert!(d.dot(&(b2.v - a2.v)) >= -1e-12 * scale);
    }

    /// Han (2005): energy never rises, and the ball leaves the cushion (or at least stops
    /// approaching it), for realistic incoming states.
    #[test]
    fn han_cushion_never_adds_energy_and_rebounds(
        v in planar(8.0), w in spin(), phi in 0.0f64..std::f64::consts::TAU,
    ) {
        let p = Model::pool(BallParams::pool());
        let normal = Vec2::new(phi.cos(), phi.sin());
        prop_assume!(v.xy().dot(&normal) > 1e-3); // approaching the cushion
        let s = ball(1.0, 0.5, v, w);
        let out = p.resolve_ball_cushion(&s, normal, 0.64 * 2.0 * R);
        prop_assert!(p.kinetic_energy(&out) <= p.kinetic_energy(&s) * (1.0 + 1e-12));
        prop_assert!(out.v.xy().dot(&normal) < 0.0);
        prop_assert_eq!(out.v.z, 0.0);
    }
}

/// A slow ball (as in a pressed contact): rolling (w consistent with v) or sliding.
fn slow_ball(x: f64, y: f64) -> impl Strategy<Value = BallState> {
    (planar(0.05), spin(), any::<bool>()).prop_map(move |(v, w, rolls)| {
        let w = if rolls {
            Vec3::new(-v.y / R, v.x / R, w.z * 1e-3)
        } else {
            w * 1e-2
        };
        ball(x, y, v, w)
    })
}

proptest! {
    /// Sustained contact: the pair stops closing, contacts never pull, energy never rises, in
    /// both models.
    #[test]
    fn sustained_ball_ball_stops_closing_without_adding_energy(
        a in slow_ball(0.8, 0.5), b in slow_ball(0.0, 0.0), phi in 0.0f64..std::f64::consts::TAU,
        ideal in any::<bool>(),
    ) {
        let b = BallState { r: Vec3::new(0.8 + 2.0 * R * phi.cos(), 0.5 + 2.0 * R * phi.sin(), R), ..b };
        let p: Box<dyn Physics> = if ideal {
            Box::new(Model::ideal(R, 0.170097))
        } else {
            Box::new(Model::pool(BallParams::pool()))
        };
        let n = (b.r - a.r).xy().normalize();
        let closing = |a: &BallState, b: &BallState| (a.v - b.v).xy().dot(&n);
        let (a2, b2) = p.resolve_sustained_ball_ball(&a, &b);
        let e0 = p.kinetic_energy(&a) + p.kinetic_energy(&b);
        let e1 = p.kinetic_energy(&a2) + p.kinetic_energy(&b2);
        prop_assert!(e1 <= e0 * (1.0 + 1e-12) + 1e-18, "energy rose: {e0} -> {e1}");
        prop_assert!(closing(&a2, &b2) <= 1e-12 * (a.v.norm() + b.v.norm()) + 1e-18);
        if closing(&a, &b) <= 0.0 {
            prop_assert_eq!((a2.v, b2.v), (a.v, b.v), "a separating pair was pulled");
        } else {
            // The impulse pushes the two apart: a slows along n, b speeds up along n.
            prop_assert!(a2.v.xy().dot(&n) <= a.v.xy().dot(&n) + 1e-18);
            prop_assert!(b2.v.xy().dot(&n) >= b.v.xy().dot(&n) - 1e-18);
        }
    }

    /// Sustained cushion contact: the ball no longer moves into the cushion, and loses energy.
    #[test]
    fn sustained_cushion_stops_the_push_without_adding_energy(
        s in slow_ball(1.0, 0.5), phi in 0.0f64..std::f64::consts::TAU,
    ) {
        let p = Model::pool(BallParams::pool());
        let normal = Vec2::new(phi.cos(), phi.sin());
        let out = p.resolve_sustained_cushion(&s, normal, 0.036576);
        prop_assert!(out.v.xy().dot(&normal) <= 1e-12 * s.v.norm() + 1e-18);
        prop_assert!(p.kinetic_energy(&out) <= p.kinetic_energy(&s) * (1.0 + 1e-12) + 1e-18);
        // A ball the cushion holds (not moving away) is no longer driven into it by friction:
        // its slip does not point away from the cushion.
        if out.v.xy().dot(&normal) >= 0.0 {
            let slip = out.contact_velocity(R);
            prop_assert!(slip.xy().dot(&normal) >= -1e-12 * (1.0 + s.v.norm() + R * s.w.norm()));
        }
    }
}

#[test]
fn a_ball_spinning_against_a_cushion_burns_the_spin_that_drives_it_in() {
    // Stopped against a cushion in +x with follow spin: the slip u = v + R k x w = (-R w_y,
    // R w_x, 0) points to -x, so cloth friction drives the ball into the cushion (+x).
    let p = Model::pool(BallParams::pool());
    let s = ball(1.0, 0.5, Vec3::zeros(), Vec3::new(0.0, 20.0, 3.0));
    assert_eq!(s.motion, MotionState::Sliding);
    let out = p.resolve_sustained_cushion(&s, Vec2::new(1.0, 0.0), 0.036576);
    assert_eq!(out.w.y, 0.0, "the pressing spin is burnt");
    assert_eq!(out.w.z, 3.0, "side spin is untouched");
    assert_eq!(out.motion, MotionState::Spinning);
    // Spin that pulls the ball away from the cushion is left alone.
    let away = ball(1.0, 0.5, Vec3::zeros(), Vec3::new(0.0, -20.0, 0.0));
    assert_eq!(
        p.resolve_sustained_cushion(&away, Vec2::new(1.0, 0.0), 0.036576)
            .w,
        away.w
    );
}
