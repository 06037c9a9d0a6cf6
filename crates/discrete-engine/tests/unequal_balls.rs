//! Balls of their own radius and mass (per-ball parameters) in the discrete integrator: a
//! contact is detected at the first step end where the centers are closer than the pair's
//! contact distance (not twice the largest radius), and resolved with each ball's own mass.

use pool_discrete::{BroadPhase, DiscreteEngine, Scheme};
use pool_physics::{contact_distance, BallParams, BallState, EventKind, Model, Table, Vec3};
use pool_sim::{Ball, Engine, Setup};

#[test]
fn a_snooker_ball_meets_a_pool_ball_at_their_contact_distance_within_a_step() {
    let pool = BallParams::pool();
    let snooker = BallParams {
        m: 0.142,
        radius: 0.02625,
        ..pool
    };
    let mut physics = Model::ideal(pool.radius, pool.m);
    let set = physics.add_ball_params(&snooker).unwrap();
    let (v, gap) = (1.0, 0.6);
    let at = |x: f64, r: f64| Vec3::new(x, 0.5, r);
    let s = Setup {
        name: "unequal".into(),
        physics,
        table: Table::rectangle("r", 2.0, 1.0, 0.0366).into(),
        balls: vec![
            Ball {
                id: "snooker".into(),
                state: BallState::new(
                    at(0.5, snooker.radius),
                    Vec3::new(v, 0.0, 0.0),
                    Vec3::zeros(),
                    snooker.radius,
                )
                .with_set(set),
            },
            Ball {
                id: "pool".into(),
                state: BallState::new(
                    at(0.5 + gap, pool.radius),
                    Vec3::zeros(),
                    Vec3::zeros(),
                    pool.radius,
                ),
            },
        ],
        t_end: Some(0.7),
        strike: None,
    };
    s.validate().unwrap();
    // First contact at t* = (gap - D) / v; twice the pool radius would be 2.3 mm (23 steps)
    // earlier, R_a + R_b 0.05 mm (half a step).
    let t_star = (gap - contact_distance(snooker.radius, pool.radius)) / v;
    let (ma, mb) = (snooker.m, pool.m);
    for broad in [BroadPhase::Exhaustive, BroadPhase::Culled] {
        for dt in [1e-4, 1e-3] {
            let e = DiscreteEngine::new(dt, Scheme::Exact)
                .unwrap()
                .with_broad_phase(broad);
            let out = e.run(&s);
            let hit = out
                .events
                .iter()
                .find(|e| e.kind == EventKind::BallBall)
                .expect("a ball-ball event");
            assert!(
                hit.time > t_star && hit.time <= t_star + dt * (1.0 + 1e-9),
                "{broad:?} dt {dt}: {} vs t* {t_star}",
                hit.time
            );
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
        }
    }
}

#[test]
fn the_located_scheme_places_an_unequal_contact_at_the_pairs_distance() {
    // The located scheme times the contact inside its step (to LOCATE_TOL = 1e-12 s) where the
    // gap |d| - 2 sqrt(R_a R_b) changes sign; substep<k> notices it within dt / k after it.
    let pool = BallParams::pool();
    let snooker = BallParams {
        m: 0.142,
        radius: 0.02625,
        ..pool
    };
    let mut physics = Model::ideal(pool.radius, pool.m);
    let set = physics.add_ball_params(&snooker).unwrap();
    let (v, gap) = (1.0, 0.6);
    let at = |x: f64, r: f64| Vec3::new(x, 0.5, r);
    let still = Vec3::zeros();
    let s = Setup {
        name: "unequal".into(),
        physics,
        table: Table::rectangle("r", 2.0, 1.0, 0.0366).into(),
        balls: vec![
            Ball {
                id: "snooker".into(),
                state: BallState::new(
                    at(0.5, snooker.radius),
                    Vec3::new(v, 0.0, 0.0),
                    still,
                    0.02625,
                )
                .with_set(set),
            },
            Ball {
                id: "pool".into(),
                state: BallState::new(at(0.5 + gap, pool.radius), still, still, pool.radius),
            },
        ],
        t_end: Some(0.7),
        strike: None,
    };
    s.validate().unwrap();
    let t_star = (gap - contact_distance(snooker.radius, pool.radius)) / v;
    let (ma, mb) = (snooker.m, pool.m);
    for (scheme, late) in [(Scheme::Located, 1e-11), (Scheme::Substep(10), 1e-3 / 10.0)] {
        let out = DiscreteEngine::new(1e-3, scheme).unwrap().run(&s);
        let hit = (out.events.iter())
            .find(|e| e.kind == EventKind::BallBall)
            .expect("a ball-ball event");
        assert!(
            hit.time >= t_star - 1e-11 && hit.time <= t_star + late * (1.0 + 1e-9),
            "{scheme:?}: {} vs t* {t_star}",
            hit.time
        );
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
        assert_eq!((f[0].set, f[1].set), (set, 0));
    }
}
