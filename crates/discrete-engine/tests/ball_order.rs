//! The ball-order contract (`pool_physics::resolve::BallBallLaw`): every engine passes the ball
//! that comes earlier in the set-up to the ball-ball law first. Under FastFiz's law, which is
//! asymmetric when both balls move, a file's order is part of its physics, and the event engine,
//! `located` and `end_of_step` must all play the same one; under a symmetric law the order is
//! not physics, and a permuted file gives the same run up to relabelling.

use std::path::Path;

use pool_discrete::{DiscreteEngine, Scheme};
use pool_physics::EventKind;
use pool_sim::{Engine, Outcome, Setup};

/// Two balls both moving, meeting off-centre at about 2.5 m/s (0.03 m of offset: a 58° cut).
fn two_moving(model: &str) -> Setup {
    let text = format!(
        r#"
description = "two balls both moving, meeting off-centre"
model = "{model}"
table = "seven_foot"
[[balls]]
id = "cue"
r = [0.6, 0.5]
v = [1.5, 0.0]
[[balls]]
id = "1"
r = [1.0, 0.53]
v = [-1.0, 0.0]
"#
    );
    pool_shots::parse(&text, "two_moving", Path::new("two_moving.toml")).expect("shot parses")
}

/// The same set-up with its balls in the reverse order (the strike's ball renumbered).
fn reversed(setup: &Setup) -> Setup {
    let mut out = setup.clone();
    out.balls.reverse();
    let n = out.balls.len();
    if let Some(s) = out.strike.as_mut() {
        s.ball = n - 1 - s.ball;
    }
    out
}

fn reference(setup: &Setup) -> Outcome {
    pool_engines::EngineSpec::reference()
        .build()
        .expect("reference builds")
        .run(setup)
}

fn discrete(setup: &Setup, dt: f64, scheme: Scheme) -> Outcome {
    DiscreteEngine::new(dt, scheme).unwrap().run(setup)
}

/// The largest distance (m) between the final positions of `a` and `b`, ball `i` of `a` being
/// ball `map(i)` of `b`.
fn final_gap(a: &Outcome, b: &Outcome, map: impl Fn(usize) -> usize) -> f64 {
    (0..a.final_states.len())
        .map(|i| (a.final_states[i].r - b.final_states[map(i)].r).norm())
        .fold(0.0, f64::max)
}

fn ball_ball_times(o: &Outcome) -> Vec<f64> {
    (o.events.iter())
        .filter(|e| e.kind == EventKind::BallBall)
        .map(|e| e.time)
        .collect()
}

#[test]
fn fastfiz_order_is_physics_and_every_engine_plays_the_files_order() {
    let ab = two_moving("fastfiz");
    let ba = reversed(&ab);
    let flip = |i: usize| 1 - i;
    let (ref_ab, ref_ba) = (reference(&ab), reference(&ba));
    assert_eq!(ball_ball_times(&ref_ab).len(), 1, "the balls meet once");
    // The law is asymmetric: the two files are two shots (else this test proves nothing).
    let order_effect = final_gap(&ref_ab, &ref_ba, flip);
    assert!(
        order_effect > 1e-3,
        "under fastfiz the file order moves the balls {order_effect:e} m"
    );
    for (name, setup, refo) in [("cue first", &ab, &ref_ab), ("1 first", &ba, &ref_ba)] {
        // `located` puts the events where the event engine does: the same physics, to 1e-9 s
        // and 1e-6 m at any dt.
        for dt in [1e-2, 1e-3, 1e-4] {
            let o = discrete(setup, dt, Scheme::Located);
            let what = format!("{name}, located at {dt:e} s");
            assert_eq!(o.events.len(), refo.events.len(), "{what}");
            for (a, b) in o.events.iter().zip(&refo.events) {
                assert_eq!((a.kind, a.agents), (b.kind, b.agents), "{what}");
                assert!(
                    (a.time - b.time).abs() < 1e-9,
                    "{what}: {a:?} against {b:?}"
                );
            }
            let gap = final_gap(&o, refo, |i| i);
            assert!(gap < 1e-6, "{what}: ends {gap:e} m from the event engine");
        }
        // `end_of_step` resolves the collision from an overlap, a first-order error in dt: at
        // 1e-5 s it ends within a tenth of the order's effect of the event engine's run of
        // the same file (the other order's physics would put it `order_effect` away).
        let o = discrete(setup, 1e-5, Scheme::EndOfStep);
        let gap = final_gap(&o, refo, |i| i);
        assert!(
            gap < order_effect / 10.0,
            "{name}, end_of_step at 1e-5 s: ends {gap:e} m from the event engine, the order \
             moves the balls {order_effect:e} m"
        );
    }
}

#[test]
fn under_a_symmetric_law_a_permuted_file_is_the_same_run_relabelled() {
    for model in ["pool", "pooltool_default"] {
        let ab = two_moving(model);
        let ba = reversed(&ab);
        let flip = |i: usize| 1 - i;
        type Run = (&'static str, fn(&Setup) -> Outcome);
        let runs: [Run; 3] = [
            ("event", reference),
            ("located", |s| discrete(s, 1e-3, Scheme::Located)),
            ("end_of_step", |s| discrete(s, 1e-4, Scheme::EndOfStep)),
        ];
        for (engine, run) in runs {
            let (x, y) = (run(&ab), run(&ba));
            let what = format!("{model}, {engine}");
            assert_eq!(x.events.len(), y.events.len(), "{what}");
            for (a, b) in x.events.iter().zip(&y.events) {
                let (ia, ja) = a.agents.balls();
                let (ib, jb) = b.agents.balls();
                let relabelled = match (ja, jb) {
                    (Some(ja), Some(jb)) => {
                        (ia.min(ja), ia.max(ja)) == (flip(ib).min(flip(jb)), flip(ib).max(flip(jb)))
                    }
                    (None, None) => ia == flip(ib),
                    _ => false,
                };
                assert!(
                    a.kind == b.kind && relabelled,
                    "{what}: {a:?} against {b:?}"
                );
                assert!(
                    (a.time - b.time).abs() < 1e-12,
                    "{what}: {a:?} against {b:?}"
                );
            }
            let gap = final_gap(&x, &y, flip);
            assert!(gap < 1e-9, "{what}: the permuted file ends {gap:e} m away");
        }
    }
}
