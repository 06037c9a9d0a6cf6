//! Balls of their own radius and mass (per-ball parameters): the event engine predicts their
//! contact where they touch, at the pair's contact distance, and resolves it with each ball's
//! own mass; each ball rolls and meets the cushions with its own R and friction.

use pool_event::EventEngine;
use pool_physics::{contact_distance, BallParams, BallState, EventKind, Model, Table, Vec3};
use pool_sim::{Agents, Ball, Engine, Setup};

/// A snooker-size ball (R 26.25 mm, 142 g), to meet pool balls (28.575 mm, 170.097 g).
fn snooker() -> BallParams {
    BallParams {
        m: 0.142,
        radius: 0.02625,
        ..BallParams::pool()
    }
}

/// A set-up of `physics` on `table` whose balls are (x, y, v, w, own parameters or the shot's).
fn setup(
    mut physics: Model,
    table: Table,
    balls: &[(f64, f64, Vec3, Vec3, Option<BallParams>)],
    t_end: Option<f64>,
) -> Setup {
    let balls = balls
        .iter()
        .enumerate()
        .map(|(i, &(x, y, v, w, own))| {
            let set = own.map_or(0, |p| physics.add_ball_params(&p).unwrap());
            let r = own.map_or(physics.params().radius, |p| p.radius);
            Ball {
                id: i.to_string(),
                state: BallState::new(Vec3::new(x, y, r), v, w, r).with_set(set),
            }
        })
        .collect();
    let s = Setup {
        name: "unequal".into(),
        physics,
        table: table.into(),
        balls,
        t_end,
        strike: None,
    };
    s.validate().unwrap();
    s
}

#[test]
fn constant_velocity_balls_of_unequal_radii_meet_at_their_contact_distance() {
    // Seed 002's quadratic with D = 2 sqrt(R_a R_b) (R_a + R_b in space, the centers at their
    // own heights) for 2R: |dr + dv t| = D at t = (-b - sqrt(b^2 - a c)) / a, a = dv.dv,
    // b = dr.dv, c = dr.dr - D^2.
    let (pool, snooker) = (BallParams::pool(), snooker());
    let ideal = Model::ideal(pool.radius, pool.m);
    let (va, vb) = (Vec3::new(0.7, 0.21, 0.0), Vec3::new(-0.4, 0.05, 0.0));
    let s = setup(
        ideal,
        Table::rectangle("r", 2.0, 1.0, 0.0366),
        &[
            (0.4, 0.45, va, Vec3::zeros(), Some(snooker)),
            (1.2, 0.55, vb, Vec3::zeros(), None),
        ],
        Some(5.0),
    );
    let out = EventEngine::default().run(&s);
    let d = contact_distance(snooker.radius, pool.radius);
    let (dr, dv) = (Vec3::new(0.8, 0.1, 0.0), vb - va);
    let (a, b, c) = (dv.dot(&dv), dr.dot(&dv), dr.dot(&dr) - d * d);
    let expected = (-b - (b * b - a * c).sqrt()) / a;
    let first = out.events[0];
    assert_eq!(first.kind, EventKind::BallBall);
    assert!(
        (first.time - expected).abs() < 1e-13,
        "{} vs {expected}",
        first.time
    );
    // R_a + R_b on the cloth would be 4.9e-5 m further: (4.9e-5 m) / |dv| ~ 4e-5 s earlier.
    let (c2, b2) = (
        dr.dot(&dr) - (snooker.radius + pool.radius).powi(2),
        dr.dot(&dv),
    );
    let naive = (-b2 - (b2 * b2 - a * c2).sqrt()) / a;
    assert!(expected - naive > 1e-5, "{expected} vs {naive}");
}

#[test]
fn a_light_ball_head_on_into_a_heavy_one_bounces_back_by_the_mass_ratio() {
    // Frictionless, elastic: v_a' = (m_a - m_b)/(m_a + m_b) v, v_b' = 2 m_a/(m_a + m_b) v,
    // after a first contact at t = (gap - D) / v.
    let (pool, snooker) = (BallParams::pool(), snooker());
    let (v, gap) = (1.2, 0.6);
    let s = setup(
        Model::ideal(pool.radius, pool.m),
        Table::rectangle("r", 2.0, 1.0, 0.0366),
        &[
            (
                0.5,
                0.5,
                Vec3::new(v, 0.0, 0.0),
                Vec3::zeros(),
                Some(snooker),
            ),
            (0.5 + gap, 0.5, Vec3::zeros(), Vec3::zeros(), None),
        ],
        Some(0.5),
    );
    let out = EventEngine::default().run(&s);
    let first = out.events[0];
    assert_eq!(first.kind, EventKind::BallBall);
    let expected = (gap - contact_distance(snooker.radius, pool.radius)) / v;
    assert!(
        (first.time - expected).abs() < 1e-14,
        "{} vs {expected}",
        first.time
    );
    let (ma, mb) = (snooker.m, pool.m);
    assert_eq!(out.events.len(), 1, "{:?}", out.events);
    let f = &out.final_states;
    assert!(
        (f[0].v.x - (ma - mb) / (ma + mb) * v).abs() < 1e-14,
        "{:?}",
        f[0].v
    );
    assert!(
        (f[1].v.x - 2.0 * ma / (ma + mb) * v).abs() < 1e-14,
        "{:?}",
        f[1].v
    );
    assert!(f[0].v.x < 0.0, "the lighter ball comes back");
    // Each keeps its set.
    assert_eq!((f[0].set, f[1].set), (s.balls[0].state.set, 0));
}

#[test]
fn a_ball_rolls_with_its_own_friction_and_meets_the_rail_at_its_own_radius() {
    // Two balls rolling side by side at the right rail (face at x = L): each reaches it when
    // its center is its own R from the face, after the rolling kinematics of its own mu_r:
    // L - R - x0 = v0 t - mu_r g t^2 / 2.
    let pool = BallParams::pool();
    let big = BallParams {
        m: 0.21,
        radius: 0.03075,
        mu_r: 0.02,
        ..pool
    };
    let table = Table::carom();
    let (v0, x0, l) = (2.0, 1.0, table.length);
    let v = Vec3::new(v0, 0.0, 0.0);
    let rolling = |r: f64| Vec3::new(0.0, v0 / r, 0.0);
    let s = setup(
        Model::pool(pool),
        table,
        &[
            (x0, 0.4, v, rolling(pool.radius), None),
            (x0, 1.0, v, rolling(big.radius), Some(big)),
        ],
        None,
    );
    let out = EventEngine::default().run(&s);
    let cushion_time = |ball: usize| {
        out.events
            .iter()
            .find(|e| {
                e.kind == EventKind::BallLinearCushion
                    && matches!(e.agents, Agents::BallCushion { ball: b, .. } if b == ball)
            })
            .map(|e| e.time)
            .unwrap()
    };
    for (ball, p) in [(0, pool), (1, big)] {
        let d = l - p.radius - x0;
        let decel = p.mu_r * p.g;
        let expected = 2.0 * d / (v0 + (v0 * v0 - 2.0 * decel * d).sqrt());
        let t = cushion_time(ball);
        assert!(
            (t - expected).abs() < 1e-12,
            "ball {ball}: {t} vs {expected}"
        );
    }
}
