//! Closed-form checks of the equations of motion and transition times (seed 004, Section I;
//! seed 000, "(4)").

use pool_physics::{BallParams, BallState, EventKind, Model, MotionState, Physics, Vec3};
use proptest::prelude::*;

fn pool() -> Model {
    Model::pool(BallParams::pool())
}

fn rolling(v: Vec3, wz: f64) -> BallState {
    let r = BallParams::pool().radius;
    BallState::new(
        Vec3::new(0.5, 0.5, r),
        v,
        Vec3::new(-v.y / r, v.x / r, wz),
        r,
    )
}

#[test]
fn rolling_ball_stops_after_v0_over_mu_r_g_having_covered_v0_sq_over_2_mu_r_g() {
    let p = pool();
    let (mu_r, g) = (p.params().mu_r, p.params().g);
    let s = rolling(Vec3::new(1.2, -0.5, 0.0), 0.0);
    assert_eq!(s.motion, MotionState::Rolling);
    let v0 = 1.3;
    let tr = p.next_transition(&s).unwrap();
    assert_eq!(tr.kind, EventKind::RollingStationary);
    assert!((tr.dt - v0 / (mu_r * g)).abs() < 1e-12);
    let end = p.evolve(&s, tr.dt);
    assert!(end.v.norm() < 1e-12, "{:?}", end.v);
    let travelled = (end.r - s.r).norm();
    assert!((travelled - v0 * v0 / (2.0 * mu_r * g)).abs() < 1e-12);
    // Still rolling without slip all the way.
    let mid = p.evolve(&s, 0.5 * tr.dt);
    assert!(mid.contact_velocity(p.params().radius).norm() < 1e-12);
}

#[test]
fn rolling_ball_with_side_spin_ends_spinning_then_stops() {
    let p = pool();
    let s = rolling(Vec3::new(0.3, 0.0, 0.0), 40.0);
    let tr = p.next_transition(&s).unwrap();
    assert_eq!(tr.kind, EventKind::RollingSpinning);
    let spinning = p.apply_transition(&p.evolve(&s, tr.dt), tr.kind);
    assert_eq!(spinning.motion, MotionState::Spinning);
    let wz = spinning.w.z;
    let expected_wz =
        40.0 - 5.0 * p.params().mu_sp * p.params().g / (2.0 * p.params().radius) * tr.dt;
    assert!((wz - expected_wz).abs() < 1e-9);
    let tr2 = p.next_transition(&spinning).unwrap();
    assert_eq!(tr2.kind, EventKind::SpinningStationary);
    let t_spin = 2.0 * p.params().radius * wz / (5.0 * p.params().mu_sp * p.params().g);
    assert!((tr2.dt - t_spin).abs() < 1e-12);
    assert!(p.evolve(&spinning, tr2.dt).w.z.abs() < 1e-12);
}

#[test]
fn draw_shot_slides_back_then_rolls() {
    // Backspin on a ball moving +x: the contact slips forward, friction pulls the ball back.
    let p = pool();
    let r = p.params().radius;
    let s = BallState::new(
        Vec3::new(0.5, 0.5, r),
        Vec3::zeros(),
        Vec3::new(0.0, -100.0, 0.0),
        r,
    );
    assert_eq!(s.motion, MotionState::Sliding);
    let tr = p.next_transition(&s).unwrap();
    assert_eq!(tr.kind, EventKind::SlidingRolling);
    let u0 = 100.0 * r;
    assert!((tr.dt - 2.0 * u0 / (7.0 * p.params().mu_s * p.params().g)).abs() < 1e-12);
    let end = p.evolve(&s, tr.dt);
    // Rolling backward at 2/7 of u0 (angular momentum about the contact point is conserved).
    assert!((end.v.x + 2.0 / 7.0 * u0).abs() < 1e-12, "{:?}", end.v);
    assert!(end.contact_velocity(r).norm() < 1e-12);
}

fn sliding_state() -> impl Strategy<Value = BallState> {
    let r = BallParams::pool().radius;
    (
        -5.0f64..5.0,
        -5.0f64..5.0,
        -200.0f64..200.0,
        -200.0f64..200.0,
        -100.0f64..100.0,
    )
        .prop_map(move |(vx, vy, wx, wy, wz)| {
            BallState::new(
                Vec3::new(0.9, 0.4, r),
                Vec3::new(vx, vy, 0.0),
                Vec3::new(wx, wy, wz),
                r,
            )
        })
        .prop_filter("sliding", |s| s.motion == MotionState::Sliding)
}

proptest! {
    /// u(t) = (u0 - 7/2 mu_s g t) u^0 while sliding; u reaches 0 exactly at the predicted time.
    #[test]
    fn sliding_contact_velocity_decays_linearly_along_its_direction(s in sliding_state(), f in 0.0f64..1.0) {
        let p = pool();
        let r = p.params().radius;
        let u0 = s.contact_velocity(r);
        let tr = p.next_transition(&s).unwrap();
        let t = f * tr.dt;
        let u = p.evolve(&s, t).contact_velocity(r);
        let expected = u0 * (1.0 - 3.5 * p.params().mu_s * p.params().g * t / u0.norm());
        prop_assert!((u - expected).norm() < 1e-9 * (1.0 + u0.norm()));
        prop_assert!(p.evolve(&s, tr.dt).contact_velocity(r).norm() < 1e-9 * (1.0 + u0.norm()));
    }

    /// Sliding -> rolling keeps the angular momentum about the contact point and never adds
    /// energy, wherever it is applied (a fixed-step integrator applies it after overshooting).
    #[test]
    fn rolling_snap_conserves_contact_angular_momentum(s in sliding_state(), f in 0.0f64..2.0) {
        let p = pool();
        let (m, r) = (p.params().m, p.params().radius);
        let i = p.params().inertia();
        let contact_l = |b: &BallState| {
            let kv = Vec3::new(-b.v.y, b.v.x, 0.0);
            (b.w * i + kv * (m * r)).xy()
        };
        let tr = p.next_transition(&s).unwrap();
        let late = p.evolve(&s, f * tr.dt); // f > 1: past the transition (extrapolated)
        let rolled = p.apply_transition(&late, EventKind::SlidingRolling);
        prop_assert!((contact_l(&rolled) - contact_l(&s)).norm() < 1e-12 * (1.0 + contact_l(&s).norm()));
        prop_assert!(p.kinetic_energy(&rolled) <= p.kinetic_energy(&late) * (1.0 + 1e-12) + 1e-15);
        let exact = p.apply_transition(&p.evolve(&s, tr.dt), EventKind::SlidingRolling);
        prop_assert!((rolled.v - exact.v).norm() < 1e-9 * (1.0 + s.v.norm()));
    }

    /// The trajectory coefficients reproduce `evolve` while valid.
    #[test]
    fn trajectory_matches_evolve(s in sliding_state(), f in 0.0f64..1.0) {
        let p = pool();
        let traj = p.trajectory(&s);
        let t = f * traj.valid_for;
        prop_assert!((traj.position(t) - p.evolve(&s, t).r).norm() < 1e-12);
    }

    /// Energy never rises along a motion state (friction only removes it), nor at a transition.
    #[test]
    fn energy_never_rises_in_motion_or_at_transitions(s in sliding_state(), f in 0.0f64..1.0) {
        let p = pool();
        let mut s = s;
        for _ in 0..4 {
            let Some(tr) = p.next_transition(&s) else { break };
            let e0 = p.kinetic_energy(&s);
            let mid = p.evolve(&s, f * tr.dt);
            prop_assert!(p.kinetic_energy(&mid) <= e0 * (1.0 + 1e-12));
            let end = p.evolve(&s, tr.dt);
            let next = p.apply_transition(&end, tr.kind);
            prop_assert!(p.kinetic_energy(&next) <= p.kinetic_energy(&end) * (1.0 + 1e-9) + 1e-15);
            prop_assert!(next.motion != s.motion);
            s = next;
        }
    }

    /// The fixed-step transition rule agrees with the analytic transition time: no crossing just
    /// before it, a crossing just after it.
    #[test]
    fn transition_crossing_brackets_the_predicted_time(s in sliding_state()) {
        let p = pool();
        let mut s = s;
        while let Some(tr) = p.next_transition(&s) {
            if tr.dt > 1e-6 {
                prop_assert_eq!(p.transition_crossed(&s, &p.evolve(&s, tr.dt * (1.0 - 1e-6))), None);
            }
            prop_assert_eq!(p.transition_crossed(&s, &p.evolve(&s, tr.dt * (1.0 + 1e-6) + 1e-12)), Some(tr.kind));
            s = p.apply_transition(&p.evolve(&s, tr.dt), tr.kind);
        }
        prop_assert!(matches!(s.motion, MotionState::Stationary));
    }

    /// The transition margin has the sign of the fixed-step rule at every time along a motion
    /// segment, and is linear in time: the secant through two points before the transition
    /// lands on the predicted time (what makes in-step event location converge at once).
    #[test]
    fn transition_margin_signs_the_crossing_and_is_linear_in_time(
        s in sliding_state(), f in 0.0f64..2.0, g in 0.0f64..0.5
    ) {
        let p = pool();
        let mut s = s;
        while let Some(tr) = p.next_transition(&s) {
            for t in [f * tr.dt, g * tr.dt, tr.dt * (1.0 + 1e-6) + 1e-12] {
                let after = p.evolve(&s, t);
                let m = p.transition_margin(&s, &after);
                prop_assert_eq!(m <= 0.0, p.transition_crossed(&s, &after).is_some(), "t = {}", t);
            }
            prop_assert!(p.transition_margin(&s, &s) > 0.0);
            if tr.dt > 1e-6 {
                let (t0, t1) = (0.1 * tr.dt, 0.6 * tr.dt);
                let m0 = p.transition_margin(&s, &p.evolve(&s, t0));
                let m1 = p.transition_margin(&s, &p.evolve(&s, t1));
                let root = t0 - m0 * (t1 - t0) / (m1 - m0);
                prop_assert!((root - tr.dt).abs() <= 1e-9 * tr.dt, "{} vs {}", root, tr.dt);
            }
            s = p.apply_transition(&p.evolve(&s, tr.dt), tr.kind);
        }
        prop_assert_eq!(p.transition_margin(&s, &s), f64::INFINITY);
    }
}

/// A ball in any motion state: 0 sliding, 1 rolling, 2 spinning, 3 stationary, 4 pocketed.
fn any_state() -> impl Strategy<Value = BallState> {
    let r = BallParams::pool().radius;
    (
        0u8..5,
        -5.0f64..5.0,
        -5.0f64..5.0,
        -200.0f64..200.0,
        -200.0f64..200.0,
        -100.0f64..100.0,
    )
        .prop_map(move |(kind, vx, vy, wx, wy, wz)| {
            let at = Vec3::new(0.9, 0.4, r);
            let zero = Vec3::zeros();
            match kind {
                0 => BallState::new(at, Vec3::new(vx, vy, 0.0), Vec3::new(wx, wy, wz), r),
                1 => BallState::new(
                    at,
                    Vec3::new(vx, vy, 0.0),
                    Vec3::new(-vy / r, vx / r, wz),
                    r,
                ),
                2 => BallState::new(at, zero, Vec3::new(0.0, 0.0, wz), r),
                3 => BallState::new(at, zero, zero, r),
                _ => BallState {
                    motion: MotionState::Pocketed,
                    ..BallState::new(at, zero, zero, r)
                },
            }
        })
}

/// Every component's bits, so that 0.0 and -0.0 differ.
fn bits(s: &BallState) -> ([u64; 9], MotionState) {
    let c = [s.r, s.v, s.w].map(|u| [u.x, u.y, u.z].map(f64::to_bits));
    (
        [
            c[0][0], c[0][1], c[0][2], c[1][0], c[1][1], c[1][2], c[2][0], c[2][1], c[2][2],
        ],
        s.motion,
    )
}

proptest! {
    /// `evolve_all` (which orders the pool model's arithmetic across balls) gives every moving
    /// ball exactly `evolve`'s state and leaves the others' slots alone, for both models and
    /// for more balls than one block.
    #[test]
    fn evolve_all_is_evolve_on_each_ball_bit_for_bit(
        states in prop::collection::vec(any_state(), 1..40),
        t in prop_oneof![Just(1e-4), 1e-6f64..2.0],
    ) {
        let models = [
            pool(),
            Model::ideal(BallParams::pool().radius, BallParams::pool().m),
        ];
        for p in &models {
            let sentinel = BallState {
                motion: MotionState::Pocketed,
                ..BallState::new(Vec3::new(-1.0, -1.0, -1.0), Vec3::zeros(), Vec3::zeros(), 1.0)
            };
            let mut out = vec![sentinel; states.len()];
            p.evolve_all(&states, t, &mut out);
            for (k, (s, o)) in states.iter().zip(&out).enumerate() {
                let want = if s.motion.is_moving() { p.evolve(s, t) } else { sentinel };
                prop_assert_eq!(bits(o), bits(&want), "ball {} of {}, {:?}", k, states.len(), s.motion);
            }
        }
    }
}
