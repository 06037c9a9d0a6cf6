//! pooltool's files and tables on the command line: `import-pooltool`, `simulate --format
//! pooltool`, `stress --table`, `compare-pooltool` without pooltool.

use std::path::{Path, PathBuf};
use std::process::Command;

fn xtask() -> Command {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
}

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data")
        .join(rel)
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xtask-pt-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn import_pooltool_writes_a_shot_that_simulates_and_refuses_bad_files() {
    let dir = temp_dir("import");
    let shot = dir.join("example.toml");
    let out = xtask()
        .arg("import-pooltool")
        .arg(data("peers/pooltool/example_simulated.msgpack"))
        .arg("--out")
        .arg(&shot)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&shot).unwrap();
    assert!(written.contains("table = \"pooltool_pocket\"") && written.contains("[cue]"));
    // It simulates, starting with pooltool's strike.
    let sim = xtask().arg("simulate").arg(&shot).output().unwrap();
    assert!(sim.status.success(), "{}", text(&sim.stderr));
    assert!(text(&sim.stdout).contains("\"stick_ball\""));
    // Never over an existing file.
    let again = xtask()
        .arg("import-pooltool")
        .arg(data("peers/pooltool/example.json"))
        .arg("--out")
        .arg(&shot)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(text(&again.stderr).contains("exists already"));
    // Not a pooltool file: one line naming the file, exit 2.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"balls\": {}}").unwrap();
    let bad = xtask().arg("import-pooltool").arg(&junk).output().unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(err.contains("junk.json: table = (missing)"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn simulate_format_pooltool_writes_pooltools_system_with_our_events() {
    let out = xtask()
        .arg("simulate")
        .arg(data("shots/break_9ball.toml"))
        .args(["--format", "pooltool"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let events = v["events"].as_array().unwrap();
    assert_eq!(events[0]["event_type"], "none");
    assert_eq!(events[1]["event_type"], "ball_ball");
    // Our break's first collision, cue ball into ball 1, in pooltool's agent structure.
    let ids: Vec<&str> = (events[1]["agents"].as_array().unwrap().iter())
        .map(|a| a["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["cue", "1"]);
    // The same log as --format json.
    let json = xtask()
        .arg("simulate")
        .arg(data("shots/break_9ball.toml"))
        .output()
        .unwrap();
    let j: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let ours = j["events"].as_array().unwrap();
    assert_eq!(events.len(), ours.len() + 2);
    for (a, b) in events[1..].iter().zip(ours) {
        assert_eq!(a["time"], b["time_s"]);
        assert_eq!(a["event_type"], b["kind"]);
    }
}

#[test]
fn stress_table_runs_on_pooltools_table_and_names_an_unknown_one() {
    let dir = temp_dir("stress");
    let out = xtask()
        .args([
            "stress",
            "--shots",
            "40",
            "--seed",
            "1",
            "--table",
            "pooltool_pocket",
        ])
        .arg("--out")
        .arg(&dir)
        .args(["--run-name", "pt"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("40 shots"),
        "{}",
        text(&out.stdout)
    );
    let bad = xtask()
        .args(["stress", "--shots", "1", "--table", "pool_table"])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("--table \"pool_table\": unknown table"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn compare_pooltool_without_pooltool_is_skipped_with_one_line() {
    // A workspace without .venv-pooltool and a $POOLTOOL_PYTHON that cannot run: no pooltool.
    let ws = std::env::temp_dir().join(format!("xtask-no-pooltool-{}", std::process::id()));
    std::fs::create_dir_all(ws.join("data/shots")).unwrap();
    std::fs::write(ws.join("Cargo.toml"), "[workspace]\n").unwrap();
    let out = xtask()
        .current_dir(&ws)
        .env("POOLTOOL_PYTHON", "/nonexistent/python")
        .args(["compare-pooltool"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.starts_with("compare-pooltool: skipped: pooltool not found"),
        "{said}"
    );
    assert_eq!(said.trim().lines().count(), 1);
    // A --python given explicitly must work: one that cannot is bad input.
    let out = xtask()
        .args(["compare-pooltool", "--python", "/nonexistent/python"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("--python = /nonexistent/python: cannot run it"));
    // --physics: a preset pooltool has the laws of, checked before pooltool is looked for.
    for (physics, says) in [
        ("corrected", "pooltool 0.6.0 has no such law (ball_ball: frictional_inelastic friction_impulse = \"coulomb\""),
        ("mathavan", "frictional_mathavan cloth_slip = \"opposed\""),
        ("ideal", "frictionless motion"),
        ("nope", "unknown preset"),
    ] {
        let out = xtask()
            .current_dir(&ws)
            .env("POOLTOOL_PYTHON", "/nonexistent/python")
            .args(["compare-pooltool", "--physics", physics])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{physics}: {}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(err.contains(says), "{physics}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
    }
    std::fs::remove_dir_all(&ws).ok();
}

#[test]
fn pooltool_answers_every_one_step_restart_of_a_break() {
    let Some(python) = pool_engines::pooltool::find_python(None) else {
        eprintln!("skipped: {}", pool_engines::pooltool::HOW_TO_INSTALL);
        return;
    };
    // The 9-ball break under its own laws and pooltool's: one restart of the latter (before its
    // event 45) has a one-event budget whose event pockets a ball, which pooltool's own
    // max_events would answer with every ball stopped, the pocketed one included.
    let dir = temp_dir("one-step");
    let out = xtask()
        .env("POOLTOOL_PYTHON", &python)
        .arg("compare")
        .arg(data("shots/break_9ball.toml"))
        .args([
            "--engines",
            "pooltool",
            "--schemes",
            "none",
            "--no-outcomes",
        ])
        .args([
            "--no-scaling",
            "--physics",
            "pooltool_default",
            "--run-name",
            "run",
        ])
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut restarts = std::collections::BTreeMap::<(String, String), usize>::new();
    let mut rows = csv::Reader::from_path(dir.join("run/one_step.csv")).unwrap();
    let head = rows.headers().unwrap().clone();
    let col = |name: &str| head.iter().position(|h| h == name).unwrap();
    let (shot, engine) = (col("shot"), col("engine"));
    for row in rows.records() {
        let row = row.unwrap();
        *restarts
            .entry((row[shot].to_string(), row[engine].to_string()))
            .or_default() += 1;
    }
    for name in ["break_9ball", "break_9ball@pooltool_default"] {
        let ours = restarts[&(name.to_string(), "event".to_string())];
        let theirs = restarts
            .get(&(name.to_string(), "pooltool".to_string()))
            .copied()
            .unwrap_or(0);
        assert!(ours > 50, "{name}: {ours} reference events");
        assert_eq!(
            theirs, ours,
            "{name}: pooltool answered {theirs} of {ours} restarts"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}
