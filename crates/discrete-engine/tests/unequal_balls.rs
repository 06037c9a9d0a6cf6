//! Balls of their own radius and mass (per-ball parameters) in the discrete integrator: a
//! contact is detected at the first step end where the centers are closer than the pair's
//! contact distance (not twice the largest radius), or located inside the step where that gap
//! changes sign, and resolved with each ball's own mass.

use pool_discrete::{BroadPhase, DiscreteEngine, Scheme};
use pool_physics::{contact_distance, BallParams, BallState, EventKind, Model, Table, Vec3};
use pool_sim::{Ball, Engine, Outcome, Setup};

/// A snooker-size ball (R 26.25 mm, 142 g) rolling frictionlessly at `V` m/s straight at a
/// pool ball `GAP` m ahead (centers), and the time they touch, t* = (GAP - D) / V with
/// D = 2 sqrt(R_a R_b): twice the pool radius would be 2.3 mm (23 steps of 1e-4 s) earlier,
/// R_a + R_b 0.05 mm (half a step).
fn snooker_on_pool() -> (Setup, f64) {
    let pool = BallParams::pool();
    let snooker = BallParams {
        m: 0.142,
        radius: 0.02625,
        ..pool
    };
    let mut physics = Model::ideal(pool.radius, pool.m);
    let set = physics.add_ball_params(&snooker).unwrap();
    let at = |x: f64, r: f64| Vec3::new(x, 0.5, r);
    let still = Vec3::zeros();
    let moving = BallState::new(
        at(0.5, snooker.radius),
        Vec3::new(V, 0.0, 0.0),
        still,
        snooker.radius,
    );
    let s = Setup {
        name: "unequal".into(),
        physics,
        table: Table::rectangle("r", 2.0, 1.0, 0.0366).into(),
        balls: vec![
            Ball {
                id: "snooker".into(),
                state: moving.with_set(set),
            },
            Ball {
                id: "pool".into(),
                state: BallState::new(at(0.5 + GAP, pool.radius), still, still, pool.radius),
            },
        ],
        t_end: Some(0.7),
        strike: None,
    };
    s.validate().unwrap();
    (s, (GAP - contact_distance(snooker.radius, pool.radius)) / V)
}

const V: f64 = 1.0;
const GAP: f64 = 0.6;

/// The first ball-ball event's time, after checking the velocities after it against the
/// one-dimensional elastic collision of masses m_a, m_b (frictionless, head-on).
fn checked_hit(s: &Setup, out: &Outcome) -> f64 {
    let hit = (out.events.iter())
        .find(|e| e.kind == EventKind::BallBall)
        .expect("a ball-ball event");
    let (ma, mb) = (
        s.physics.params_of(&s.balls[0].state).m,
        s.physics.params().m,
    );
    let f = &out.final_states;
    assert!(
        (f[0].v.x - (ma - mb) / (ma + mb) * V).abs() < 1e-14,
        "{:?}",
        f[0].v
    );
    assert!(
        (f[1].v.x - 2.0 * ma / (ma + mb) * V).abs() < 1e-14,
        "{:?}",
        f[1].v
    );
    assert_eq!((f[0].set, f[1].set), (s.balls[0].state.set, 0));
    hit.time
}

#[test]
fn a_snooker_ball_meets_a_pool_ball_at_their_contact_distance_within_a_step() {
    let (s, t_star) = snooker_on_pool();
    for broad in [BroadPhase::Exhaustive, BroadPhase::Culled] {
        for dt in [1e-4, 1e-3] {
            let e = DiscreteEngine::new(dt, Scheme::EndOfStep)
                .unwrap()
                .with_broad_phase(broad);
            let t = checked_hit(&s, &e.run(&s));
            assert!(
                t > t_star && t <= t_star + dt * (1.0 + 1e-9),
                "{broad:?} dt {dt}: {t} vs t* {t_star}"
            );
        }
    }
}

#[test]
fn the_located_scheme_places_an_unequal_contact_at_the_pairs_distance() {
    // The located scheme times the contact inside its step (to LOCATE_TOL = 1e-12 s) where the
    // gap |d| - 2 sqrt(R_a R_b) changes sign; substep<k> notices it within dt / k after it.
    let (s, t_star) = snooker_on_pool();
    for (scheme, late) in [(Scheme::Located, 1e-11), (Scheme::Substep(10), 1e-3 / 10.0)] {
        let t = checked_hit(&s, &DiscreteEngine::new(1e-3, scheme).unwrap().run(&s));
        assert!(
            t >= t_star - 1e-11 && t <= t_star + late * (1.0 + 1e-9),
            "{scheme:?}: {t} vs t* {t_star}"
        );
    }
}
