//! The culled broad phase against the exhaustive one (the test oracle: every pair, every
//! cushion, every pocket): same events, times, final states and termination bit for bit, with
//! no more tests of any kind.

use std::path::Path;

use pool_discrete::DiscreteOp;
use pool_discrete::{BroadPhase, DiscreteEngine, Scheme};
use pool_harness::{ScatterSpec, SplitMix};
use pool_physics::{BallParams, BallState, Model, Table, Vec2};
use pool_sim::{Engine, Outcome, Setup};
use proptest::prelude::*;

const R: f64 = 0.028575;

/// Bit-level equality of two outcomes' results (not their work counts).
fn assert_same_results(a: &Outcome, b: &Outcome, what: &str) {
    assert_eq!(a.termination, b.termination, "{what}: termination");
    assert_eq!(
        a.end_time.to_bits(),
        b.end_time.to_bits(),
        "{what}: end time"
    );
    assert_eq!(a.events.len(), b.events.len(), "{what}: number of events");
    for (k, (x, y)) in a.events.iter().zip(&b.events).enumerate() {
        assert!(
            x.time.to_bits() == y.time.to_bits() && x.kind == y.kind && x.agents == y.agents,
            "{what}: event {k} differs: {x:?} vs {y:?}"
        );
    }
    let bits = |s: &BallState| {
        let mut v: Vec<u64> =
            s.r.iter()
                .chain(&s.v)
                .chain(&s.w)
                .map(|x| x.to_bits())
                .collect();
        v.push(s.motion as u64);
        v
    };
    for (k, (x, y)) in a.final_states.iter().zip(&b.final_states).enumerate() {
        assert_eq!(bits(x), bits(y), "{what}: final state of ball {k}");
    }
    // Work: the same steps, evolutions and resolutions; no more pair/cushion/pocket tests.
    for op in [
        DiscreteOp::Step,
        DiscreteOp::Evolve,
        DiscreteOp::TransitionTest,
        DiscreteOp::Resolve,
    ] {
        assert_eq!(a.ops.get(op.name()), b.ops.get(op.name()), "{what}: {op:?}");
    }
    for op in [
        DiscreteOp::PairTest,
        DiscreteOp::CushionTest,
        DiscreteOp::PocketTest,
    ] {
        assert!(
            a.ops.get(op.name()) <= b.ops.get(op.name()),
            "{what}: more {op:?} when culled"
        );
    }
}

fn both(setup: &Setup, dt: f64, scheme: Scheme) -> (Outcome, Outcome) {
    let e = DiscreteEngine::new(dt, scheme).unwrap();
    (
        e.clone().with_broad_phase(BroadPhase::Culled).run(setup),
        e.with_broad_phase(BroadPhase::Exhaustive).run(setup),
    )
}

/// Side (m) of a region that holds `n` balls with room to spare, about a third of it covered.
fn packing(n: usize) -> f64 {
    0.2 + 0.12 * (n as f64).sqrt()
}

/// A scatter of `n` balls on the 7-foot table (pockets and jaws included), clear of one another
/// and of the cushions by 1 µm ([`pool_harness::scatter`]); `cluster` packs them into a region
/// of about `cluster` m so that many collide. Velocities up to 6 m/s in random directions,
/// random spins; a third of the balls at rest, so that stationary pairs are skipped too.
fn scatter(n: usize, seed: u64, cluster: Option<f64>, t_end: f64) -> Setup {
    let mut rng = SplitMix::new(seed);
    let table = Table::seven_foot();
    let region = match cluster {
        Some(size) => {
            let (x0, y0) = (0.3 + rng.unit(), 0.1 + rng.range(0.0, 0.4));
            (Vec2::new(x0, y0), Vec2::new(x0 + size, y0 + size / 2.0))
        }
        None => (
            Vec2::new(R, R),
            Vec2::new(table.length - R, table.width - R),
        ),
    };
    let spec = ScatterSpec {
        n,
        region,
        min_gap: 1e-6,
        speed: (0.0, 6.0),
        rest_fraction: 0.33,
        max_tries: 200_000,
    };
    let mut balls = pool_harness::scatter(&table, R, &spec, &mut rng);
    for (k, b) in balls.iter_mut().enumerate() {
        // Ids in an order unrelated to the list order.
        b.id = format!("b{:03}", (k * 37) % 101);
    }
    let s = Setup {
        name: format!("scatter_{n}_{seed}"),
        physics: Model::pool(BallParams::pool()),
        table: table.into(),
        balls,
        t_end: Some(t_end),
        strike: None,
    };
    s.validate().expect("scatter is a valid set-up");
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Random scatters of 2-64 balls, spread or packed, every scheme, dt from 1e-2 to 1e-3 s.
    #[test]
    fn culled_equals_exhaustive_on_random_scatters(
        n in 2usize..=64, seed in any::<u64>(), packed in any::<bool>(),
        scheme in 0usize..4, dt_exp in 2.0f64..3.0,
    ) {
        let dt = 10f64.powf(-dt_exp);
        let scheme = [Scheme::EndOfStep, Scheme::Euler, Scheme::Located, Scheme::Substep(4)][scheme];
        let s = scatter(n, seed, packed.then_some(packing(n)), 1.5);
        prop_assert_eq!(s.balls.len(), n);
        let (culled, exhaustive) = both(&s, dt, scheme);
        assert_same_results(&culled, &exhaustive, &s.name);
    }
}

/// The oracle comparison is not vacuous: packed scatters collide, and culling saves tests.
#[test]
fn scatters_collide_and_culling_saves_work() {
    let s = scatter(48, 7, Some(packing(48)), 1.5);
    assert_eq!(s.balls.len(), 48);
    let (culled, exhaustive) = both(&s, 1e-3, Scheme::EndOfStep);
    assert_same_results(&culled, &exhaustive, &s.name);
    let collisions = culled
        .events
        .iter()
        .filter(|e| e.kind == pool_physics::EventKind::BallBall)
        .count();
    assert!(collisions >= 10, "only {collisions} ball-ball collisions");
    assert!(
        culled.ops.get(DiscreteOp::PairTest.name()) * 10
            < exhaustive.ops.get(DiscreteOp::PairTest.name())
    );
    assert!(
        culled.ops.get(DiscreteOp::CushionTest.name()) * 2
            < exhaustive.ops.get(DiscreteOp::CushionTest.name())
    );
}

/// Every default shot at the compare sweep's coarse and fine steps, every scheme.
#[test]
fn culled_equals_exhaustive_on_the_default_shots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let shots = pool_shots::list_shots(&dir).expect("default shots listed");
    assert!(shots.len() >= 10);
    for path in shots {
        let setup = pool_shots::load(&path).expect("default shot loads");
        for dt in [1e-2, 1e-3, 1e-4] {
            for scheme in [
                Scheme::EndOfStep,
                Scheme::Euler,
                Scheme::Located,
                Scheme::Substep(4),
            ] {
                let (culled, exhaustive) = both(&setup, dt, scheme);
                let what = format!("{} dt={dt:e} {}", setup.name, scheme.name());
                assert_same_results(&culled, &exhaustive, &what);
            }
        }
    }
}
