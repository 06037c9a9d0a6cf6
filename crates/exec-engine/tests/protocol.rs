//! The protocol against programs that keep it and programs that break it: every way a program
//! can fail gives one clear error naming the shot and what was wrong (with its stderr), never a
//! hang or a panic. The programs are `sh` one-liners (the example engine in Python is tested
//! against the event engine in `pool-harness`' tests).

use std::path::Path;
use std::time::{Duration, Instant};

use pool_exec::{parse_answer, request, ExecEngine, PROTOCOL};
use pool_physics::{EventKind, MotionState};
use pool_sim::{Agents, Engine, Setup, Termination};

fn shot(name: &str) -> Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/shots")
        .join(format!("{name}.toml"));
    pool_shots::load(&path).expect("default shot loads")
}

/// A valid answer for the straight shot (`cue` and `1`, both at rest at the end).
const ANSWER: &str = r#"{"events": [{"time": 0.5, "kind": "ball_ball", "agents": ["cue", "1"]},
 {"time": 1.1, "kind": "ball_linear_cushion", "agents": ["1", "rail_r"]},
 {"time": 2.0, "kind": "rolling_stationary", "agents": ["1"]}],
 "final_states": [{"id": "1", "r": [1.5, 0.49], "v": [0, 0], "w": [0, 0, 0], "state": "stationary"},
 {"id": "cue", "r": [1.0, 0.49, 0.028575], "v": [0, 0, 0], "w": [0, 0, 0], "state": "stationary"}],
 "end_time": 2.5, "termination": "at_rest", "ops": {"predictions": 12}}"#;

/// `sh` that answers every request line with `answer` (one line).
fn echo_engine(answer: &str) -> ExecEngine {
    let one_line = answer.replace('\n', " ");
    let cmd = format!("while read -r line; do printf '%s\\n' '{one_line}'; done");
    ExecEngine::new(&cmd, 10.0).unwrap()
}

#[test]
fn a_valid_answer_becomes_the_outcome() {
    let setup = shot("straight");
    let o = echo_engine(ANSWER).try_run(&setup).unwrap();
    assert_eq!(o.events.len(), 3);
    assert_eq!(o.events[0].kind, EventKind::BallBall);
    assert_eq!(o.events[0].agents, Agents::pair(0, 1));
    assert_eq!(
        o.events[1].agents,
        Agents::BallCushion {
            ball: 1,
            cushion: setup
                .table
                .cushions
                .iter()
                .position(|c| c.id == "rail_r")
                .unwrap()
        }
    );
    // Final states in set-up order whatever the answer's order; z = R when left out.
    assert_eq!(o.final_states[0].r.x, 1.0);
    assert_eq!(o.final_states[1].r.z, 0.028575);
    assert_eq!(o.final_states[1].motion, MotionState::Stationary);
    assert_eq!((o.end_time, o.termination), (2.5, Termination::AtRest));
    assert_eq!(o.ops.get("predictions"), 12);
}

#[test]
fn one_process_answers_a_batch_in_order() {
    let setups = vec![shot("straight"); 5];
    let out = echo_engine(ANSWER).try_run_all(&setups);
    assert_eq!(out.len(), 5);
    assert!(out.iter().all(Result::is_ok));
}

#[test]
fn the_request_carries_the_shot_the_model_and_the_table() {
    let setup = shot("cut");
    let r = request(&setup, Some(1));
    assert_eq!(r["protocol"], PROTOCOL);
    assert_eq!(r["shot"], "cut");
    assert_eq!(r["model"]["preset"], "pool");
    assert_eq!(r["model"]["motion"], "cloth");
    assert_eq!(
        r["model"]["laws"]["ball_linear_cushion"]["model"],
        "han_2005"
    );
    assert_eq!(r["model"]["params"]["mu_s"], 0.2);
    assert_eq!(r["table"]["cushions"].as_array().unwrap().len(), 18);
    assert_eq!(r["table"]["pockets"].as_array().unwrap().len(), 6);
    assert!(!r["table"]["end_points"].as_array().unwrap().is_empty());
    assert_eq!(r["balls"][0]["id"], "cue");
    assert_eq!(r["balls"][0]["state"], "rolling");
    assert_eq!(r["max_events"], 1);
    assert!(r["t_end"].is_null());
    // Numbers round-trip exactly (shortest representation).
    let x = setup.balls[0].state.r.x;
    assert_eq!(r["balls"][0]["r"][0].as_f64(), Some(x));
}

/// The error of `engine` on the straight shot, checked to be one failure naming the command.
fn failure(engine: &ExecEngine) -> String {
    let start = Instant::now();
    let e = engine.try_run(&shot("straight")).unwrap_err();
    assert!(start.elapsed() < Duration::from_secs(20), "took too long");
    assert!(!e.unsupported, "{e}");
    assert!(e.message.starts_with("exec `"), "{e}");
    // The outcome `run` gives instead says so.
    e.message
}

#[test]
fn broken_programs_give_clear_errors() {
    let cases: [(&str, &[&str]); 8] = [
        (
            "while read -r l; do echo 'not json'; done",
            &["answer is not JSON", "not json", "straight"],
        ),
        ("exit 3", &["exited", "exit status: 3"]),
        (
            "echo 'Traceback: boom' >&2; exit 1",
            &["exited", "stderr: Traceback: boom"],
        ),
        (
            "this-program-does-not-exist-xyz",
            &["exited", "stderr:", "not found"],
        ),
        (
            "while read -r l; do echo '{\"events\": [{\"time\": 0.1, \"kind\": \"ball_ball\", \"agents\": [\"cue\", \"7\"]}], \"final_states\": []}'; done",
            &["events[0]", "no ball \\\"7\\\""],
        ),
        (
            "while read -r l; do echo '{\"events\": [{\"time\": 0.1, \"kind\": \"ball_ball\", \"agents\": [\"cue\"]}], \"final_states\": []}'; done",
            &["events[0]", "names two ball ids"],
        ),
        (
            "while read -r l; do echo '{\"events\": [], \"final_states\": []}'; done",
            &["final_states: ball \\\"cue\\\" is missing"],
        ),
        (
            "while read -r l; do echo '{\"error\": \"my solver diverged\"}'; done",
            &["the program reports an error: my solver diverged"],
        ),
    ];
    for (cmd, says) in cases {
        let m = failure(&ExecEngine::new(cmd, 10.0).unwrap());
        for s in says {
            assert!(
                m.contains(&s.replace("\\\"", "\"")),
                "`{cmd}`: {m:?} lacks {s:?}"
            );
        }
    }
}

#[test]
fn a_program_that_hangs_is_killed_at_the_timeout() {
    let start = Instant::now();
    let m = failure(&ExecEngine::new("sleep 30", 0.5).unwrap());
    assert!(m.contains("no answer within the timeout of 0.5 s"), "{m}");
    assert!(start.elapsed() < Duration::from_secs(5));
    // What it started is killed with it: a child sleeping in the background too.
    let m = failure(&ExecEngine::new("sleep 30 & sleep 30", 0.5).unwrap());
    assert!(m.contains("timeout"), "{m}");
}

#[test]
fn a_declined_shot_is_unsupported_not_failed() {
    let e = echo_engine(r#"{"unsupported": "no frictionless motion"}"#)
        .try_run(&shot("straight"))
        .unwrap_err();
    assert!(e.unsupported);
    assert_eq!(
        e.to_string(),
        "unsupported: shot \"straight\": no frictionless motion"
    );
}

#[test]
fn run_reports_a_failure_as_its_termination() {
    let setup = shot("straight");
    let o = ExecEngine::new("exit 1", 5.0).unwrap().run(&setup);
    assert_eq!(o.termination, Termination::Failed);
    assert!(o.events.is_empty());
    assert_eq!(o.final_states.len(), setup.balls.len());
}

#[test]
fn bad_answers_name_the_field() {
    let setup = shot("straight");
    let cases = [
        ("[1, 2]", "must be a JSON object"),
        (r#"{"final_states": []}"#, "events: missing"),
        (
            r#"{"events": [{"time": -1, "kind": "ball_ball", "agents": ["cue", "1"]}], "final_states": []}"#,
            "events[0]: time = -1",
        ),
        (
            r#"{"events": [{"time": 1, "kind": "teleport", "agents": ["cue"]}], "final_states": []}"#,
            "unknown event kind",
        ),
        (
            r#"{"events": [{"time": 2, "kind": "sliding_rolling", "agents": ["cue"]}, {"time": 1, "kind": "sliding_rolling", "agents": ["1"]}], "final_states": []}"#,
            "earlier than the event before it",
        ),
        (
            r#"{"events": [{"time": 1, "kind": "ball_ball", "agents": ["cue", "cue"]}], "final_states": []}"#,
            "cannot collide with itself",
        ),
        (
            r#"{"events": [], "final_states": [{"id": "cue", "r": [1], "v": [0, 0], "w": [0, 0, 0], "state": "rolling"}]}"#,
            "final_states[0].r",
        ),
        (
            r#"{"events": [], "final_states": [{"id": "cue", "r": [1, 1], "v": [0, 0], "w": [0, 0, 0], "state": "flying"}]}"#,
            "unknown motion state",
        ),
        (
            r#"{"events": [], "final_states": [], "termination": "done"}"#,
            "final_states",
        ),
    ];
    for (answer, says) in cases {
        let e = parse_answer(answer, &setup).unwrap_err();
        assert!(e.message.contains(says), "{answer}: {e}");
        assert!(!e.message.contains('\n'), "{e}");
    }
}

#[test]
fn a_program_that_stops_on_one_shot_is_started_again_for_the_rest() {
    // Hangs on the second request of each process: the first shot of every session is
    // answered, the second times out, and a new process takes the shots after it.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("hang_second.sh");
    std::fs::write(
        &script,
        "n=0\nwhile read -r line; do\n  n=$((n + 1))\n  if [ \"$n\" = 2 ]; then sleep 30; fi\n  \
         echo '{\"unsupported\": \"answered\"}'\ndone\n",
    )
    .unwrap();
    let engine = ExecEngine::new(&format!("sh {}", script.display()), 0.5).unwrap();
    let setups: Vec<_> = ["straight", "cut", "bank", "draw", "spin_down"]
        .iter()
        .map(|s| shot(s))
        .collect();
    let start = Instant::now();
    let out = engine.try_run_all(&setups);
    assert_eq!(out.len(), 5);
    // Answered, hung, answered (new process), hung, answered (new process).
    let answered: Vec<bool> = out
        .iter()
        .map(|r| r.as_ref().is_err_and(|e| e.unsupported))
        .collect();
    assert_eq!(answered, [true, false, true, false, true]);
    for k in [1, 3] {
        let e = out[k].as_ref().unwrap_err();
        assert!(e.message.contains("no answer within the timeout"), "{e:?}");
        assert!(
            e.message.contains(&format!("{:?}", setups[k].name)),
            "{e:?}"
        );
    }
    assert!(start.elapsed() < Duration::from_secs(10));
}

/// `v` written with every object's keys in alphabetical order, by hand (the reference the
/// request line is held to, whatever order serde_json's maps keep in this build).
fn canonical(v: &serde_json::Value) -> String {
    use serde_json::Value;
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            let inner: Vec<String> = (keys.iter())
                .map(|k| format!("{}:{}", Value::from(k.as_str()), canonical(&m[k.as_str()])))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(canonical).collect::<Vec<_>>().join(",")
        ),
        v => v.to_string(),
    }
}

#[test]
fn request_keys_are_in_alphabetical_order() {
    for name in ["straight", "break_9ball", "break_9ball_pooltool"] {
        let line = pool_exec::request_line(&shot(name), Some(1000), None, 7);
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(line, canonical(&value), "{name}");
        assert_eq!(value["id"], 7);
        // Not sorted by accident: the unsorted model has keys out of order.
        assert!(line.find("\"balls\"").unwrap() < line.find("\"model\"").unwrap());
    }
}

#[test]
fn a_served_request_with_a_bad_or_missing_parameter_is_refused_naming_it() {
    let good = request(&shot("straight"), None);
    assert!(pool_exec::setup_of_request(&good).is_ok());
    let edited = |edit: &dyn Fn(&mut serde_json::Value)| {
        let mut r = good.clone();
        edit(&mut r);
        pool_exec::setup_of_request(&r).unwrap_err()
    };
    for (r, says) in [
        (0.0, "model.params.R"),
        (-1.0, "model.params.R"),
        (0.05, "model.radius"),
    ] {
        let e = edited(&|v| v["model"]["params"]["R"] = r.into());
        assert!(e.contains(says), "R = {r}: {e}");
    }
    let e = edited(&|v| v["model"]["params"]["mu_r"] = (-5.0).into());
    assert!(
        e.contains("model.params.mu_r") && e.contains("must be in"),
        "{e}"
    );
    let e = edited(&|v| {
        v["model"]["params"].as_object_mut().unwrap().remove("mu_r");
    });
    assert!(e.contains("model.params.mu_r: missing"), "{e}");
}
