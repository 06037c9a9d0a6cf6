//! Event times against closed forms, and the contact residual at every collision.

use pool_event::EventEngine;
use pool_physics::{BallParams, BallState, EventKind, Model, MotionState, Table, Vec3};
use pool_sim::{Agents, Ball, Engine, Setup};
use proptest::prelude::*;

const R: f64 = 0.028575;

fn setup(
    physics: Model,
    table: Table,
    balls: Vec<(f64, f64, Vec3, Vec3)>,
    t_end: Option<f64>,
) -> Setup {
    let s = Setup {
        name: "test".into(),
        physics,
        table: table.into(),
        balls: balls
            .into_iter()
            .enumerate()
            .map(|(i, (x, y, v, w))| Ball {
                id: i.to_string(),
                state: BallState::new(Vec3::new(x, y, R), v, w, R),
            })
            .collect(),
        t_end,
        strike: None,
    };
    s.validate().unwrap();
    s
}

fn rolling(v: Vec3) -> Vec3 {
    Vec3::new(-v.y / R, v.x / R, 0.0)
}

/// The time a ball rolling straight at `v0` (m/s) covers `d` (m), decelerated by mu_r g.
fn rolling_time(params: BallParams, v0: f64, d: f64) -> f64 {
    let decel = params.mu_r * params.g;
    2.0 * d / (v0 + (v0 * v0 - 2.0 * decel * d).sqrt())
}

#[test]
fn a_ball_is_pocketed_when_its_center_crosses_a_capture_line() {
    // The `fastfiz` table's pockets capture on FastFiz's lines (Pocket::capture_line): the
    // side mouth's at y = R between its ends, the corner's on x + y = 0.11 / sqrt 2 + R.
    let params = BallParams::pool();
    let table = Table::fastfiz();
    let (l, v0) = (table.length, 1.2);
    let run = |x: f64, y: f64, v: Vec3| {
        let s = setup(
            Model::pool(params),
            table.clone(),
            vec![(x, y, v, rolling(v))],
            None,
        );
        EventEngine::default().run(&s).events
    };
    // Into the side mouth, 3 cm off its middle.
    let down = Vec3::new(0.0, -v0, 0.0);
    let events = run(l / 2.0 + 0.03, 0.4, down);
    let pocket = events
        .iter()
        .find(|e| e.kind == EventKind::BallPocket)
        .unwrap();
    assert_eq!(pocket.agents, Agents::BallPocket { ball: 0, pocket: 1 });
    let want = rolling_time(params, v0, 0.4 - R);
    assert!(
        (pocket.time - want).abs() < 1e-12,
        "{} vs {want}",
        pocket.time
    );
    // Beside the mouth (its end is 6 cm from the middle), the rail, not the pocket.
    let events = run(l / 2.0 + 0.07, 0.4, down);
    assert_eq!(
        events
            .iter()
            .find(|e| e.kind != EventKind::SlidingRolling)
            .map(|e| e.kind),
        Some(EventKind::BallLinearCushion)
    );
    let first = events
        .iter()
        .find(|e| e.kind == EventKind::BallLinearCushion)
        .unwrap();
    assert!((first.time - want).abs() < 1e-12);
    // Along the diagonal into the bottom-left corner.
    let c = 0.11 / std::f64::consts::SQRT_2 + R;
    let u = v0 / std::f64::consts::SQRT_2;
    let events = run(0.3, 0.3, Vec3::new(-u, -u, 0.0));
    let pocket = events
        .iter()
        .find(|e| e.kind == EventKind::BallPocket)
        .unwrap();
    assert_eq!(pocket.agents, Agents::BallPocket { ball: 0, pocket: 0 });
    let want = rolling_time(params, v0, (0.6 - c) / std::f64::consts::SQRT_2);
    assert!(
        (pocket.time - want).abs() < 1e-12,
        "{} vs {want}",
        pocket.time
    );
}

#[test]
fn straight_shot_collision_time_matches_rolling_kinematics() {
    let params = BallParams::pool();
    let (v0, gap) = (1.5, 0.8);
    let v = Vec3::new(v0, 0.0, 0.0);
    let s = setup(
        Model::pool(params),
        Table::seven_foot(),
        vec![
            (0.5, 0.4953, v, rolling(v)),
            (0.5 + gap, 0.4953, Vec3::zeros(), Vec3::zeros()),
        ],
        None,
    );
    let out = EventEngine::default().run(&s);
    let first = out.events[0];
    assert_eq!(first.kind, EventKind::BallBall);
    let d = gap - 2.0 * R;
    let decel = params.mu_r * params.g;
    let expected = 2.0 * d / (v0 + (v0 * v0 - 2.0 * decel * d).sqrt());
    assert!(
        (first.time - expected).abs() < 1e-12,
        "{} vs {expected}",
        first.time
    );
    // The object ball leaves with the cue ball's speed at impact, sliding, then rolls at 5/7.
    let after: Vec<_> = out
        .events
        .iter()
        .filter(|e| e.agents == Agents::Ball { ball: 1 })
        .collect();
    assert_eq!(after[0].kind, EventKind::SlidingRolling);
    assert_eq!(out.termination, pool_sim::Termination::AtRest);
    assert!(out
        .final_states
        .iter()
        .all(|b| b.motion == MotionState::Stationary));
}

#[test]
fn constant_velocity_ball_ball_time_is_seed_002s_quadratic() {
    // Seed 002: |dr + dv t| = 2R at t = (-b - sqrt(b^2 - a c)) / a with a = dv.dv, b = dr.dv,
    // c = dr.dr - (2R)^2.
    let ideal = Model::ideal(R, 0.17);
    let (va, vb) = (Vec3::new(0.7, 0.21, 0.0), Vec3::new(-0.4, 0.05, 0.0));
    let s = setup(
        ideal,
        Table::rectangle("r", 2.0, 1.0, 0.0366),
        vec![
            (0.4, 0.45, va, Vec3::zeros()),
            (1.2, 0.55, vb, Vec3::zeros()),
        ],
        Some(5.0),
    );
    let out = EventEngine::default().run(&s);
    let (dr, dv) = (Vec3::new(0.8, 0.1, 0.0), vb - va);
    let (a, b, c) = (dv.dot(&dv), dr.dot(&dv), dr.dot(&dr) - 4.0 * R * R);
    let expected = (-b - (b * b - a * c).sqrt()) / a;
    assert_eq!(out.events[0].kind, EventKind::BallBall);
    assert!(
        (out.events[0].time - expected).abs() < 1e-13,
        "{} vs {expected}",
        out.events[0].time
    );
    assert_eq!(out.termination, pool_sim::Termination::TimeLimit);
    assert!((out.end_time - 5.0).abs() < 1e-12);
}

#[test]
fn cushion_time_is_the_linear_kinematics_time() {
    // A ball rolling straight at the right rail (face at x = L).
    let params = BallParams::pool();
    let table = Table::carom();
    let v0 = 2.0;
    let v = Vec3::new(v0, 0.0, 0.0);
    let (x0, l) = (1.0, table.length);
    let s = setup(
        Model::pool(BallParams {
            radius: R,
            ..params
        }),
        table,
        vec![(x0, 0.7, v, rolling(v))],
        None,
    );
    let out = EventEngine::default().run(&s);
    let e = out.events[0];
    assert_eq!(e.kind, EventKind::BallLinearCushion);
    let d = l - R - x0;
    let decel = params.mu_r * params.g;
    let expected = 2.0 * d / (v0 + (v0 * v0 - 2.0 * decel * d).sqrt());
    assert!((e.time - expected).abs() < 1e-12);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random two-ball shots on the pocket table: every collision is at contact (residual
    /// < 1e-9 m), no ball ever overlaps another or leaves the table, energy never rises.
    #[test]
    fn random_two_ball_shots_keep_every_invariant(
        x in 0.2f64..0.6, y in 0.2f64..0.8, speed in 0.3f64..8.0, angle in -0.3f64..0.3,
        wx in -100.0f64..100.0, wy in -100.0f64..100.0, wz in -60.0f64..60.0,
    ) {
        let v = Vec3::new(speed * angle.cos(), speed * angle.sin(), 0.0);
        let s = setup(
            Model::pool(BallParams::pool()),
            Table::seven_foot(),
            vec![(x, y, v, Vec3::new(wx, wy, wz)), (1.3, 0.5, Vec3::zeros(), Vec3::zeros())],
            None,
        );
        let out = EventEngine::default().with_snapshots(true).run(&s);
        prop_assert_eq!(out.termination, pool_sim::Termination::AtRest);
        let rep = pool_harness_free_check(&s, &out);
        prop_assert!(rep.0 < 1e-9, "contact residual {}", rep.0);
        prop_assert!(rep.1 < 1e-9, "overlap {}", rep.1);
    }
}

/// Residual at ball-ball events and the largest overlap at 50 samples between events (kept
/// here so this crate's tests do not depend on the harness).
fn pool_harness_free_check(s: &Setup, out: &pool_sim::Outcome) -> (f64, f64) {
    use pool_physics::Physics;
    let mut residual: f64 = 0.0;
    let mut overlap: f64 = 0.0;
    for (k, e) in out.events.iter().enumerate() {
        if let Agents::BallBall { a, b } = e.agents {
            let st = &out.snapshots[k + 1].states;
            residual = residual.max(((st[a].r - st[b].r).norm() - 2.0 * R).abs());
        }
    }
    for w in out.snapshots.windows(2) {
        for p in 0..50 {
            let dt = (w[1].time - w[0].time) * p as f64 / 50.0;
            let a = s.physics.evolve(&w[0].states[0], dt);
            let b = s.physics.evolve(&w[0].states[1], dt);
            if a.motion != MotionState::Pocketed && b.motion != MotionState::Pocketed {
                overlap = overlap.max(2.0 * R - (a.r - b.r).norm());
            }
        }
    }
    (residual, overlap)
}

#[test]
fn pocket_time_is_when_the_center_enters_the_circle() {
    // Rolling straight at the bottom-left corner pocket (center (0, 0), radius 0.062 m) along
    // the diagonal from (0.5, 0.5): captured when the distance to the center reaches 0.062 m.
    let params = BallParams::pool();
    let speed = 2.0;
    let dir = Vec3::new(-1.0, -1.0, 0.0).normalize();
    let v = dir * speed;
    let s = setup(
        Model::pool(params),
        Table::seven_foot(),
        vec![(0.5, 0.5, v, rolling(v))],
        None,
    );
    let out = EventEngine::default().run(&s);
    let e = out
        .events
        .iter()
        .find(|e| e.kind == EventKind::BallPocket)
        .expect("pocketed");
    let d = 0.5 * std::f64::consts::SQRT_2 - 0.062;
    let decel = params.mu_r * params.g;
    let expected = 2.0 * d / (speed + (speed * speed - 2.0 * decel * d).sqrt());
    assert!(
        (e.time - expected).abs() < 1e-12,
        "{} vs {expected}",
        e.time
    );
    assert_eq!(out.final_states[0].motion, MotionState::Pocketed);
}

/// A ball in a side pocket's mouth, nearer the next rail's line than R but beside that rail,
/// moving away from the line on a curving (sliding) path that comes back to it further on
/// (stress seed 49672): the rail is hit when its center comes back to R from the line, not
/// later, and the ball never sinks into the rail before.
#[test]
fn a_ball_beside_a_rail_nearer_its_line_than_r_hits_it_at_r() {
    let table = Table::seven_foot();
    let physics = Model::pool(BallParams::pool());
    let rail = table.cushions.iter().find(|c| c.id == "rail_t2").unwrap();
    let s = BallState::new(
        Vec3::new(0.9335951969968406, 0.9644391309203264, R),
        Vec3::new(0.05027098497542659, -0.47170881393798664, 0.0),
        Vec3::new(-195.0835963668692, 247.91110442703584, 153.16414596306475),
        R,
    );
    let at = |t: f64| pool_physics::Physics::evolve(&physics, &s, t).r.xy();
    assert!(
        rail.signed_distance(s.r.xy()) < R,
        "starts nearer the line than R"
    );
    assert!(
        !(0.0..=1.0).contains(&rail.parameter(s.r.xy())),
        "beside the rail"
    );
    let solver = pool_roots::default_solver();
    let mut predictor = pool_event::Predictor::new(&physics, &solver);
    let tau = predictor
        .ball_cushion(
            &s,
            &pool_physics::LinearSegment::new(rail),
            &mut pool_event::EventOps::default(),
        )
        .unwrap()
        .expect("the ball comes back to the rail");
    assert!((rail.signed_distance(at(tau)) - R).abs() < 1e-9);
    assert!((0.0..=1.0).contains(&rail.parameter(at(tau))));
    for k in 0..1000 {
        let p = at(tau * k as f64 / 1000.0);
        if (0.0..=1.0).contains(&rail.parameter(p)) {
            assert!(
                rail.signed_distance(p) > R - 1e-9,
                "inside the rail at step {k}"
            );
        }
    }
}
