//! Engines outside the workspace, through the protocol: the example engine in Python
//! (benches/peers/ideal_engine.py) against the event engine, whole shots and one step at a
//! time; and the one-step agreement itself on our own engines.

use std::path::{Path, PathBuf};
use std::process::Command;

use pool_engines::EngineSpec;
use pool_harness::{one_step, run_engine, run_reference, OneStepStats};
use pool_physics::{BallParams, BallState, Model, Table, Vec3};
use pool_sim::{Ball, Setup};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shot(name: &str) -> Setup {
    pool_shots::load(&root().join("data/shots").join(format!("{name}.toml"))).unwrap()
}

/// The example engine's spec, or `None` (with a note) where there is no `python3`.
fn example() -> Option<EngineSpec> {
    if !Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("python3 not found: the example engine is not tested here");
        return None;
    }
    let script = root().join("benches/peers/ideal_engine.py");
    Some(
        format!("exec:python3 {}", script.display())
            .parse()
            .expect("exec spec"),
    )
}

/// Three ideal balls on a 2 m x 1 m rectangle: a few collisions and many mirror bounces, not
/// chaotic over 4 s.
fn ideal_trio() -> Setup {
    let (r, m) = (0.028575, 0.170097);
    let ball = |id: &str, x: f64, y: f64, vx: f64, vy: f64| Ball {
        id: id.into(),
        state: BallState::new(Vec3::new(x, y, r), Vec3::new(vx, vy, 0.0), Vec3::zeros(), r),
    };
    let s = Setup {
        name: "ideal_trio".into(),
        physics: Model::ideal(r, m),
        table: Table::by_name("rectangle_2.0x1.0").unwrap().into(),
        balls: vec![
            ball("a", 0.3, 0.5, 1.6, 0.05),
            ball("b", 1.0, 0.52, 0.0, 0.0),
            ball("c", 1.5, 0.3, -0.6, 1.1),
        ],
        t_end: Some(4.0),
        strike: None,
    };
    s.validate().unwrap();
    let _ = BallParams::pool();
    s
}

#[test]
fn the_example_engine_reproduces_the_event_engine() {
    let Some(spec) = example() else { return };
    let setup = ideal_trio();
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let run = run_engine(&setup, &reference, &spec, None).unwrap();
    let n = reference.outcome.events.len();
    assert!(n >= 8, "{n} events: the shot must do something");
    assert_eq!(run.outcome.events.len(), n);
    assert_eq!(run.summary.n_matched, n);
    for (a, b) in run.outcome.events.iter().zip(&reference.outcome.events) {
        assert_eq!((a.kind, a.agents), (b.kind, b.agents));
        assert!((a.time - b.time).abs() <= 1e-9, "{a:?} vs {b:?}");
    }
    assert!(run.summary.final_position_error_max_m <= 1e-9);
}

#[test]
fn the_example_engine_agrees_one_step_on_a_chaotic_shot() {
    let Some(spec) = example() else { return };
    // 16 balls for 5 s: whole runs diverge, one step at a time they agree.
    let setup = shot("ideal_many");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let rows = one_step(&setup, &reference, &spec).unwrap();
    let stats = OneStepStats::of(&rows);
    assert_eq!(stats.n, reference.outcome.events.len());
    assert_eq!(stats.agree, stats.n, "every next event predicted");
    assert_eq!(stats.within_tol, stats.n, "every time within 1e-9 s");
    assert!(stats.error_max_s <= 1e-12, "{}", stats.error_max_s);
}

#[test]
fn the_example_engine_declines_the_pool_model() {
    let Some(spec) = example() else { return };
    let setup = shot("straight");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let e = run_engine(&setup, &reference, &spec, None).unwrap_err();
    assert!(e.unsupported, "{e}");
}

#[test]
fn one_step_agreement_of_our_engines() {
    let setup = shot("break_9ball");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let n = reference.outcome.events.len(); // no cue strike in this shot
                                            // The reference against itself: exact restarts.
    let own = OneStepStats::of(&one_step(&setup, &reference, &EngineSpec::reference()).unwrap());
    assert_eq!((own.n, own.agree), (n, n));
    assert!(own.error_max_s <= 1e-12, "{}", own.error_max_s);
    // The located scheme: every next event, at the locator's tolerance.
    let located: EngineSpec = "discrete:1e-3:located".parse().unwrap();
    let l = OneStepStats::of(&one_step(&setup, &reference, &located).unwrap());
    assert_eq!(l.agree, n);
    assert!(l.error_max_s <= 1e-9, "{}", l.error_max_s);
    // The end-of-step scheme: its next event noticed within a step, never early.
    let exact: EngineSpec = "discrete:1e-3".parse().unwrap();
    let rows = one_step(&setup, &reference, &exact).unwrap();
    let e = OneStepStats::of(&rows);
    assert!(e.agree * 10 >= n * 7, "{} of {n}", e.agree);
    for r in rows.iter().filter(|r| r.agree) {
        assert!(r.error_s >= -1e-12 && r.error_s <= 1e-3 + 1e-12, "{r:?}");
    }
}
