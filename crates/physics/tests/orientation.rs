//! Ball orientation over a motion segment: closed forms (rolling, spinning), composition, the
//! Magnus integrator's convergence, and invariants (unit quaternion, splitting a segment).

use nalgebra::{Unit, UnitQuaternion};
use pool_physics::{
    magnus4, segment_rotation, substeps, BallParams, BallState, Model, MotionState, Physics,
    SpinProfile, Vec3, ROTATION_TOL,
};
use proptest::prelude::*;

fn pool() -> Model {
    Model::pool(BallParams::pool())
}

const R: f64 = 0.028575;

/// Angle (rad) of the rotation taking `a` to `b`.
fn angle_between(a: &UnitQuaternion<f64>, b: &UnitQuaternion<f64>) -> f64 {
    (a.inverse() * b).angle()
}

fn rolling(v: Vec3, wz: f64) -> BallState {
    BallState::new(
        Vec3::new(0.5, 0.5, R),
        v,
        Vec3::new(-v.y / R, v.x / R, wz),
        R,
    )
}

fn sliding(v: Vec3, w: Vec3) -> BallState {
    let s = BallState::new(Vec3::new(0.5, 0.5, R), v, w, R);
    assert_eq!(s.motion, MotionState::Sliding);
    s
}

/// A fast, heavily spun sliding ball: the hardest case for the integrator here (a break-speed
/// massé: v = 8 m/s, w = 400 rad/s, sliding for about a second).
fn hard_sliding() -> BallState {
    sliding(Vec3::new(8.0, 1.0, 0.0), Vec3::new(150.0, -300.0, 200.0))
}

/// Reference solution by classical RK4 on the quaternion ODE dq/dt = 1/2 (0, w) q, renormalised
/// each step: independent of the Magnus code.
fn rk4(profile: &SpinProfile, t: f64, n: usize) -> UnitQuaternion<f64> {
    let h = t / n as f64;
    let f = |tau: f64, q: &nalgebra::Quaternion<f64>| {
        let w = profile.w(tau);
        nalgebra::Quaternion::from_parts(0.0, w) * *q * 0.5
    };
    let mut q = nalgebra::Quaternion::identity();
    for i in 0..n {
        let t0 = h * i as f64;
        let k1 = f(t0, &q);
        let k2 = f(t0 + h / 2.0, &(q + k1 * (h / 2.0)));
        let k3 = f(t0 + h / 2.0, &(q + k2 * (h / 2.0)));
        let k4 = f(t0 + h, &(q + k3 * h));
        q += (k1 + k2 * 2.0 + k3 * 2.0 + k4) * (h / 6.0);
        q = q.normalize();
    }
    UnitQuaternion::new_normalize(q)
}

#[test]
fn rolling_ball_turns_distance_over_r_about_k_cross_v_hat() {
    let p = pool();
    for v in [
        Vec3::new(1.5, 0.0, 0.0),
        Vec3::new(-0.3, 0.9, 0.0),
        Vec3::new(2.0, -2.0, 0.0),
    ] {
        let s = rolling(v, 0.0);
        let stop = p.next_transition(&s).unwrap().dt;
        for frac in [0.1, 0.5, 1.0] {
            let t = stop * frac;
            let dist = (p.evolve(&s, t).r - s.r).norm();
            let axis = Unit::new_normalize(Vec3::z().cross(&v));
            let expected = UnitQuaternion::from_axis_angle(&axis, dist / R);
            let got = segment_rotation(&p, &s, t);
            assert!(
                angle_between(&got, &expected) < 1e-12,
                "v = {v:?}, t = {t}: off by {}",
                angle_between(&got, &expected)
            );
        }
    }
}

#[test]
fn a_point_of_a_rolling_ball_touching_the_cloth_is_at_rest() {
    // No slip: the material point at the contact (-z) at time t moves with the ball's centre,
    // so after a full turn distance = 2 pi R the start's contact point is at the bottom again.
    let p = pool();
    let s = rolling(Vec3::new(1.0, 0.0, 0.0), 0.0);
    let speed = 1.0_f64;
    let a = p.params().mu_r * p.params().g;
    let dist = std::f64::consts::TAU * R;
    let t = (speed - (speed * speed - 2.0 * a * dist).sqrt()) / a;
    let q = segment_rotation(&p, &s, t);
    let bottom = -Vec3::z();
    assert!((q * bottom - bottom).norm() < 1e-12, "{:?}", q * bottom);
    // Half a turn later the start's contact point is on top.
    let dist = std::f64::consts::PI * R;
    let t = (speed - (speed * speed - 2.0 * a * dist).sqrt()) / a;
    assert!((segment_rotation(&p, &s, t) * bottom - Vec3::z()).norm() < 1e-12);
}

#[test]
fn spinning_ball_turns_about_z_by_the_integral_of_w_z() {
    let p = pool();
    let wz0 = 35.0;
    let s = BallState::new(
        Vec3::new(0.5, 0.5, R),
        Vec3::zeros(),
        Vec3::new(0.0, 0.0, wz0),
        R,
    );
    assert_eq!(s.motion, MotionState::Spinning);
    let decel = 5.0 * p.params().mu_sp * p.params().g / (2.0 * R);
    let stop = p.next_transition(&s).unwrap().dt;
    for t in [0.0, 0.3 * stop, stop] {
        let angle = wz0 * t - 0.5 * decel * t * t;
        let expected = UnitQuaternion::from_axis_angle(&Vec3::z_axis(), angle);
        let got = segment_rotation(&p, &s, t);
        assert!(angle_between(&got, &expected) < 1e-12, "t = {t}");
    }
    // Over the whole spin-down: w_z0^2 / (2 decel).
    let total = wz0 * wz0 / (2.0 * decel);
    let got = segment_rotation(&p, &s, stop);
    let expected = UnitQuaternion::from_axis_angle(&Vec3::z_axis(), total);
    assert!(angle_between(&got, &expected) < 1e-12);
}

#[test]
fn rolling_with_side_spin_stops_turning_about_z_when_spin_friction_stops_it() {
    // Rolling along x with a little side spin: w_z reaches 0 long before the ball stops; after
    // that only the rolling rotation (about y) is left.
    let p = pool();
    let s = rolling(Vec3::new(1.0, 0.0, 0.0), 2.0);
    let prof = SpinProfile::of(&p, &s);
    assert!(prof.t_spin_stop.is_finite());
    let stop = p.next_transition(&s).unwrap().dt;
    assert!(prof.t_spin_stop < stop);
    for tau in [
        0.0,
        0.5 * prof.t_spin_stop,
        prof.t_spin_stop,
        0.5 * stop,
        stop,
    ] {
        assert!(
            (prof.w(tau) - p.evolve(&s, tau).w).norm() < 1e-12,
            "tau = {tau}"
        );
    }
    // Composition: after the spin stops, the increment is the closed rolling form.
    let t1 = prof.t_spin_stop + 0.1;
    let t2 = stop;
    let inc = segment_rotation(&p, &s, t2) * segment_rotation(&p, &s, t1).inverse();
    let dist = (p.evolve(&s, t2).r - p.evolve(&s, t1).r).norm();
    let expected = UnitQuaternion::from_axis_angle(&Vec3::y_axis(), dist / R);
    assert!(angle_between(&inc, &expected) < 1e-11);
}

#[test]
fn rotations_compose_over_segments_in_time_order() {
    // Roll 2 pi R / 4 along x, then 2 pi R / 4 along y: a quarter turn about y, then about -x.
    // The top point goes to +x, then stays at +x (the second axis is x).
    let p = Model::ideal(R, 0.17);
    let quarter = std::f64::consts::FRAC_PI_2;
    let a = BallState {
        r: Vec3::new(0.5, 0.5, R),
        v: Vec3::new(1.0, 0.0, 0.0),
        w: Vec3::new(0.0, 1.0 / R, 0.0),
        motion: MotionState::Sliding,
        set: 0,
    };
    let t = quarter * R;
    let b = BallState {
        v: Vec3::new(0.0, 1.0, 0.0),
        w: Vec3::new(-1.0 / R, 0.0, 0.0),
        ..p.evolve(&a, t)
    };
    let q = segment_rotation(&p, &b, t) * segment_rotation(&p, &a, t);
    assert!((q * Vec3::z() - Vec3::x()).norm() < 1e-12);
    // The other order (roll along y first) is a different rotation: the top goes to +y, and
    // the roll along x (about y) leaves it there.
    let wrong = segment_rotation(&p, &a, t) * segment_rotation(&p, &b, t);
    assert!((wrong * Vec3::z() - Vec3::y()).norm() < 1e-12);
}

#[test]
fn ideal_ball_keeps_its_constant_spin() {
    let p = Model::ideal(R, 0.17);
    let w = Vec3::new(3.0, -4.0, 12.0);
    let s = BallState {
        r: Vec3::new(0.5, 0.5, R),
        v: Vec3::new(1.0, 0.0, 0.0),
        w,
        motion: MotionState::Sliding,
        set: 0,
    };
    let t = 0.7;
    let expected = UnitQuaternion::from_scaled_axis(w * t);
    assert!(angle_between(&segment_rotation(&p, &s, t), &expected) < 1e-12);
}

#[test]
fn magnus_matches_an_independent_rk4_solution() {
    let p = pool();
    let s = sliding(Vec3::new(2.0, 0.5, 0.0), Vec3::new(10.0, -20.0, 30.0));
    let prof = SpinProfile::of(&p, &s);
    let t = 0.25;
    let reference = rk4(&prof, t, 400_000);
    let got = prof.rotation(t);
    assert!(
        angle_between(&got, &reference) < 1e-10,
        "{}",
        angle_between(&got, &reference)
    );
    // The commutator term matters here: dropping it (the midpoint rule) is visibly worse.
    let midpoint_only = (0..64).fold(UnitQuaternion::identity(), |q, i| {
        let h = t / 64.0;
        UnitQuaternion::from_scaled_axis(prof.w((i as f64 + 0.5) * h) * h) * q
    });
    assert!(angle_between(&midpoint_only, &reference) > 1e-6);
}

/// Error of the automatic choice and of fixed substep counts against a much finer Magnus
/// integration, for the hardest state. Prints the table quoted in the README.
#[test]
fn magnus_converges_at_fourth_order_and_the_automatic_choice_meets_the_tolerance() {
    let p = pool();
    let cases = [
        ("hard sliding (8 m/s, 400 rad/s)", hard_sliding()),
        (
            "draw shot (3 m/s, back spin 150 rad/s)",
            sliding(Vec3::new(3.0, 0.0, 0.0), Vec3::new(0.0, -150.0, 40.0)),
        ),
        (
            "rolling with side spin",
            rolling(Vec3::new(2.0, 1.0, 0.0), 60.0),
        ),
        (
            "stun with side spin (2 m/s, 7 rad/s)",
            sliding(Vec3::new(0.0, 2.0, 0.0), Vec3::new(0.0, 0.0, -7.0)),
        ),
    ];
    for (name, s) in cases {
        let prof = SpinProfile::of(&p, &s);
        // The whole segment up to the transition, but within the first affine piece.
        let t = p.next_transition(&s).unwrap().dt.min(prof.t_spin_stop);
        let fine = magnus4(prof.w0, prof.alpha, t, 400_000);
        let n_auto = substeps(prof.w0, prof.alpha, t);
        let err_auto = angle_between(&prof.rotation(t), &fine);
        println!("{name}: t = {t:.3} s, automatic n = {n_auto}, error {err_auto:.1e} rad");
        let mut last = f64::NAN;
        for n in [250usize, 500, 1000, 2000, 4000, 8000, 16000, 32000, 64000] {
            let err = angle_between(&magnus4(prof.w0, prof.alpha, t, n), &fine);
            let h = t / n as f64;
            let wm = prof.w0.norm().max((prof.w0 + prof.alpha * t).norm());
            let a = prof.alpha.norm();
            let cross = prof.w0.cross(&prof.alpha).norm();
            let est1 = t * h.powi(4) * cross * wm * wm;
            let est2 = t * h.powi(4) * cross * a;
            println!(
                "  n = {n:>6}: error {err:.2e} rad, ratio {:.1} c1 {:.2e} c2 {:.2e}",
                last / err,
                err / est1,
                err / est2
            );
            if (1e-11..1e-3).contains(&err) && (1e-11..1e-3).contains(&last) {
                // Halving h divides the error by 2^4 = 16 (asymptotically).
                let ratio = last / err;
                assert!(
                    (14.0..18.5).contains(&ratio),
                    "{name}: n = {n}, ratio {ratio}"
                );
            }
            last = err;
        }
        assert!(
            err_auto < ROTATION_TOL,
            "{name}: error {err_auto} with n = {n_auto}"
        );
    }
}

fn any_moving_state() -> impl Strategy<Value = BallState> {
    (
        -3.0..3.0f64,
        -3.0..3.0f64,
        -150.0..150.0f64,
        -150.0..150.0f64,
        -80.0..80.0f64,
        0..3u8,
    )
        .prop_map(|(vx, vy, wx, wy, wz, kind)| match kind {
            0 => BallState::new(
                Vec3::new(0.5, 0.5, R),
                Vec3::new(vx, vy, 0.0),
                Vec3::new(wx, wy, wz),
                R,
            ),
            1 => rolling(Vec3::new(vx, vy, 0.0), wz),
            _ => BallState::new(
                Vec3::new(0.5, 0.5, R),
                Vec3::zeros(),
                Vec3::new(0.0, 0.0, wz),
                R,
            ),
        })
        .prop_filter("moving", |s| s.motion.is_moving())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// w(tau) of the profile is the physics' own w(tau) (Physics::evolve) over the segment.
    #[test]
    fn profile_follows_evolve(s in any_moving_state(), frac in 0.0..1.0f64) {
        let p = pool();
        let stop = p.next_transition(&s).map_or(1.0, |t| t.dt);
        let tau = stop * frac;
        let prof = SpinProfile::of(&p, &s);
        let scale = 1.0 + s.w.norm();
        prop_assert!((prof.w(tau) - p.evolve(&s, tau).w).norm() <= 1e-12 * scale);
    }

    /// The rotation is a unit quaternion, and splitting the segment at any point (evolving the
    /// state to the split with the physics) gives the same rotation.
    #[test]
    fn unit_and_split_invariant(s in any_moving_state(), a in 0.0..1.0f64, b in 0.0..1.0f64) {
        let p = pool();
        let stop = p.next_transition(&s).map_or(1.0, |t| t.dt).min(2.0);
        let (t1, t) = (stop * a.min(b), stop * a.max(b));
        let whole = segment_rotation(&p, &s, t);
        prop_assert!((whole.quaternion().norm() - 1.0).abs() < 1e-14);
        let mid = p.evolve(&s, t1);
        let split = segment_rotation(&p, &mid, t - t1) * segment_rotation(&p, &s, t1);
        prop_assert!((split.quaternion().norm() - 1.0).abs() < 1e-14);
        let err = angle_between(&whole, &split);
        prop_assert!(err < 1e-11, "split at {} of {}: {}", t1, t, err);
    }

    /// The automatic substep count meets the tolerance against an integration with four times
    /// as many substeps (error 256 times smaller), for any state and duration (within the
    /// first affine piece, before spin friction stops w_z).
    #[test]
    fn automatic_substeps_meet_the_tolerance(s in any_moving_state(), frac in 0.0..1.0f64) {
        let p = pool();
        let prof = SpinProfile::of(&p, &s);
        let t = p.next_transition(&s).map_or(1.0, |t| t.dt).min(prof.t_spin_stop) * frac;
        // n = 0 is the closed form (w0 parallel to alpha): the integrator must agree with it.
        let n = substeps(prof.w0, prof.alpha, t);
        let finer = magnus4(prof.w0, prof.alpha, t, 4 * n.max(4));
        let err = angle_between(&prof.rotation(t), &finer);
        prop_assert!(err < ROTATION_TOL, "n = {}, t = {}: {}", n, t, err);
    }
}
