//! The report's cost columns read a program's `engine_s` where it gives one: `summary.csv`'s
//! `engine_time_s`, the engines table's *engine time per shot* and *with adapter*,
//! `outcomes/wall.csv`'s `engine_s` and the answer table's cells; engines that give none keep
//! their wall time there.

mod common;

use std::path::Path;

use common::{shots, temp_dir, texts, xtask};

/// A program that answers every shot with its balls where they started, at rest, and says it
/// spent `engine_s` seconds in its engine.
fn still_program(dir: &Path, engine_s: f64) -> String {
    let script = dir.join("still.py");
    std::fs::write(
        &script,
        format!(
            "import json, sys\n\
             for line in sys.stdin:\n\
             \x20   if not line.strip():\n\
             \x20       continue\n\
             \x20   q = json.loads(line)\n\
             \x20   fin = [{{'id': b['id'], 'r': b['r'], 'v': [0, 0], 'w': [0, 0, 0],\n\
             \x20           'state': 'pocketed' if b['state'] == 'pocketed' else 'stationary'}}\n\
             \x20          for b in q['balls']]\n\
             \x20   print(json.dumps({{'events': [], 'final_states': fin, 'engine_s': {engine_s}}}), flush=True)\n"
        ),
    )
    .unwrap();
    format!("exec:python3 {}", script.display())
}

/// Runs `xtask <args> --out <dir> --run-name run`, which must succeed; the run's directory.
fn run_into(dir: &Path, args: &[&str]) -> std::path::PathBuf {
    let out = xtask()
        .args(args)
        .args(["--out", &dir.display().to_string(), "--run-name", "run"])
        .output()
        .unwrap();
    let (_, stderr) = texts(&out);
    assert!(out.status.success(), "{stderr}");
    dir.join("run")
}

fn column(header: &str, name: &str) -> usize {
    header
        .split(',')
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in {header}"))
}

#[test]
fn compare_reports_a_program_s_engine_time_beside_its_wall_time() {
    let dir = temp_dir("engine-time-compare");
    let program = still_program(&dir, 0.00123);
    let shot = shots().join("straight.toml").display().to_string();
    let run = run_into(
        &dir,
        &[
            "compare",
            &shot,
            "--dt",
            "1e-2",
            "--schemes",
            "exact",
            "--no-scaling",
            "--physics",
            "none",
            "--no-outcomes",
            "--no-one-step",
            "--engines",
            &program,
        ],
    );
    let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
    let header = summary.lines().next().unwrap();
    let (engine, time, wall) = (
        column(header, "engine"),
        column(header, "engine_time_s"),
        column(header, "wall_time_s"),
    );
    let mut programs = 0;
    for line in summary.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[engine] == "exec" {
            programs += 1;
            assert_eq!(f[time], "0.00123", "{line}");
            let w: f64 = f[wall].parse().unwrap();
            assert!(w > 0.00123, "the wall time holds the whole program: {line}");
        } else {
            assert_eq!(
                f[time], "",
                "an engine in this process reports none: {line}"
            );
        }
    }
    assert_eq!(programs, 1, "{summary}");
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(
        report.contains("| engine time per shot | with adapter |"),
        "no engine time columns"
    );
    let row = report
        .lines()
        .find(|l| l.starts_with("| exec `"))
        .unwrap_or_else(|| panic!("no exec row in the engines table:\n{report}"));
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    // ... | whole shot | engine time per shot | with adapter |
    let n = cells.len();
    assert_eq!(cells[n - 3], "1.23 ms", "{row}");
    assert_ne!(cells[n - 2], "–", "{row}");
    let event = report
        .lines()
        .find(|l| l.starts_with("| event `"))
        .unwrap_or_else(|| panic!("no event row:\n{report}"));
    let cells: Vec<&str> = event.split('|').map(str::trim).collect();
    assert_eq!(
        cells[cells.len() - 2],
        "–",
        "no adapter in this process: {event}"
    );
}

#[test]
fn the_outcome_answer_costs_a_program_by_its_engine_time() {
    let dir = temp_dir("engine-time-outcomes");
    let program = still_program(&dir, 0.0015);
    let run = run_into(
        &dir,
        &[
            "outcomes",
            "--outcome-shots",
            "3",
            "--outcome-families",
            "cut",
            "--outcome-dt",
            "1e-2",
            "--schemes",
            "exact",
            "--outcome-budget",
            "none",
            "--engines",
            &program,
        ],
    );
    let wall = std::fs::read_to_string(run.join("outcomes/wall.csv")).unwrap();
    let header = wall.lines().next().unwrap();
    let (run_col, shots_col, engine_col) = (
        column(header, "run"),
        column(header, "shots"),
        column(header, "engine_s"),
    );
    let mut seen = 0;
    for line in wall.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[run_col].starts_with("exec:") {
            seen += 1;
            let shots: f64 = f[shots_col].parse().unwrap();
            let engine: f64 = f[engine_col].parse().unwrap();
            assert!((engine - 0.0015 * shots).abs() < 1e-12, "{line}");
        } else {
            assert_eq!(f[engine_col], "", "{line}");
        }
    }
    // One row per table the family is played on.
    assert!(seen >= 1, "{wall}");
    // A program that counts no operations has none: an empty cell, not 0.
    let answers = std::fs::read_to_string(run.join("outcome_answer.csv")).unwrap();
    let header = answers.lines().next().unwrap();
    let (engine_col, ops_col) = (column(header, "engine"), column(header, "ops_per_shot"));
    for line in answers.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f[engine_col] == "exec" {
            assert_eq!(f[ops_col], "", "{line}");
        } else {
            assert!(f[ops_col].parse::<f64>().unwrap() > 0.0, "{line}");
        }
    }
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    let row = report
        .lines()
        .find(|l| l.starts_with("| `exec:"))
        .unwrap_or_else(|| panic!("no exec row in the answer table:\n{report}"));
    assert!(
        row.contains("1.50 ms ("),
        "engine time and its ratio: {row}"
    );
    assert!(row.contains(", with adapter "), "{row}");
    let discrete = report
        .lines()
        .find(|l| l.starts_with("| `end_of_step` |"))
        .unwrap_or_else(|| panic!("no exact row:\n{report}"));
    assert!(!discrete.contains("with adapter"), "{discrete}");
}
