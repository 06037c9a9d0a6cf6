//! The answer's optional `engine_s` (seconds inside the engine's own calls): carried into the
//! outcome when given, absent when not, and one clear error when it is not a time.

use std::path::Path;

use pool_exec::{parse_answer, ExecEngine};
use pool_sim::{Engine, Setup};

fn shot(name: &str) -> Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/shots")
        .join(format!("{name}.toml"));
    pool_shots::load(&path).expect("default shot loads")
}

/// A valid answer for the straight shot with `extra` fields appended (`, "engine_s": ...`).
fn answer(extra: &str) -> String {
    format!(
        r#"{{"events": [{{"time": 0.5, "kind": "ball_ball", "agents": ["cue", "1"]}}],
 "final_states": [{{"id": "1", "r": [1.5, 0.49], "v": [0, 0], "w": [0, 0, 0], "state": "stationary"}},
 {{"id": "cue", "r": [1.0, 0.49], "v": [0, 0], "w": [0, 0, 0], "state": "stationary"}}]{extra}}}"#
    )
}

#[test]
fn engine_time_is_carried_when_given_and_absent_otherwise() {
    let setup = shot("straight");
    let with = parse_answer(&answer(r#", "engine_s": 0.0125"#), &setup).unwrap();
    assert_eq!(with.engine_s, Some(0.0125));
    let zero = parse_answer(&answer(r#", "engine_s": 0"#), &setup).unwrap();
    assert_eq!(zero.engine_s, Some(0.0));
    for extra in ["", r#", "engine_s": null"#] {
        let without = parse_answer(&answer(extra), &setup).unwrap();
        assert_eq!(without.engine_s, None, "{extra:?}");
    }
}

#[test]
fn an_engine_time_that_is_not_a_time_names_the_field() {
    let setup = shot("straight");
    for bad in ["-1", "\"fast\"", "[0.1]", "true"] {
        let e = parse_answer(&answer(&format!(r#", "engine_s": {bad}"#)), &setup).unwrap_err();
        assert!(e.message.starts_with("engine_s = "), "{bad}: {e}");
        assert!(!e.unsupported && !e.message.contains('\n'), "{e}");
    }
}

#[test]
fn a_program_s_engine_time_reaches_the_outcome_per_shot() {
    // One session, two shots: each answer's own engine_s, in order.
    let one = answer(r#", "engine_s": 0.25"#).replace('\n', " ");
    let two = answer(r#", "engine_s": 0.5"#).replace('\n', " ");
    let cmd = format!("read -r a; printf '%s\\n' '{one}'; read -r b; printf '%s\\n' '{two}'");
    let engine = ExecEngine::new(&cmd, 10.0).unwrap();
    let setup = shot("straight");
    let got: Vec<Option<f64>> = engine
        .try_run_all(&[setup.clone(), setup])
        .into_iter()
        .map(|r| r.unwrap().engine_s)
        .collect();
    assert_eq!(got, [Some(0.25), Some(0.5)]);
}
