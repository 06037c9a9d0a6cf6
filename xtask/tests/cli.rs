//! The command line as a user meets it: exit codes, error messages, outputs.

mod common;

use std::path::{Path, PathBuf};

use common::{shots, temp_dir, xtask};

const GOOD: &str = r#"description = "two balls"
model = "pool"
table = "seven_foot"

[[balls]]
id = "cue"
r = [0.5, 0.5]
v = [1.0, 0.0]

[[balls]]
id = "1"
r = [1.0, 0.5]
"#;

#[test]
fn bad_shot_files_exit_2_naming_file_and_field() {
    let dir = temp_dir("bad");
    let reports = dir.join("reports");
    let cases = [
        (
            "syntax",
            GOOD.replace("r = [0.5, 0.5]", "r = [0.5, 0.5"),
            "syntax",
        ),
        (
            "missing",
            GOOD.replace("table = \"seven_foot\"\n", ""),
            "table",
        ),
        (
            "nan",
            GOOD.replace("v = [1.0, 0.0]", "v = [nan, 0.0]"),
            "balls[0].v",
        ),
        (
            "overlap",
            GOOD.replace("r = [1.0, 0.5]", "r = [0.52, 0.5]"),
            "balls[1].r",
        ),
        (
            "off_table",
            GOOD.replace("r = [1.0, 0.5]", "r = [2.5, 0.5]"),
            "balls[1].r",
        ),
        (
            "ball_radius",
            GOOD.replace("r = [1.0, 0.5]", "R = 0.0\nr = [1.0, 0.5]"),
            "balls[1].R",
        ),
        (
            "ball_mass_nan",
            GOOD.replace("r = [1.0, 0.5]", "m = nan\nr = [1.0, 0.5]"),
            "balls[1].m",
        ),
        (
            "ball_unknown_key",
            GOOD.replace("r = [1.0, 0.5]", "radius = 0.03\nr = [1.0, 0.5]"),
            "balls[1].radius",
        ),
        (
            "ball_overlap_own_radius",
            GOOD.replace("r = [1.0, 0.5]", "R = 0.04\nr = [0.56, 0.5]"),
            "balls[1].r",
        ),
    ];
    for (name, text, field) in cases {
        let f = dir.join(format!("{name}.toml"));
        std::fs::write(&f, text).unwrap();
        let runs = [
            vec!["simulate".to_string(), f.display().to_string()],
            vec![
                "compare".into(),
                f.display().to_string(),
                "--quick".into(),
                "--out".into(),
                reports.display().to_string(),
            ],
        ];
        for args in runs {
            let out = xtask().args(&args).output().unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {err}");
            assert!(err.contains(&format!("{name}.toml")), "{name}: {err}");
            assert!(
                err.contains(field),
                "{name}: expected field {field} in {err}"
            );
            assert!(!err.contains("panicked"), "{name}: {err}");
            assert_eq!(
                err.trim().lines().count(),
                1,
                "one-line error expected: {err}"
            );
        }
    }
    // The failed compare runs wrote nothing.
    let written = std::fs::read_dir(&reports).map_or(0, |d| d.count());
    assert_eq!(written, 0);
}

#[test]
fn unknown_options_and_bad_values_exit_2() {
    let straight = shots().join("straight.toml");
    let s = straight.to_str().unwrap();
    let cases: [&[&str]; 5] = [
        &["simulate", s, "--engine", "magic"],
        &["simulate", s, "--engine", "discrete", "--dt", "-1"],
        &["simulate", s, "--solver", "nope"],
        &[
            "compare",
            s,
            "--dt",
            "0",
            "--out",
            "/nonexistent-never-created",
        ],
        &["compare", "--no-such-flag"],
    ];
    for args in cases {
        let out = xtask().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn simulate_prints_the_event_log_and_final_states() {
    let straight = shots().join("straight.toml");
    let s = straight.to_str().unwrap();
    let out = xtask()
        .args(["simulate", s, "--format", "json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let first = &v["events"][0];
    assert_eq!(first["kind"], "ball_ball");
    assert_eq!(first["agents"], serde_json::json!(["cue", "1"]));
    assert_eq!(v["final_states"].as_array().unwrap().len(), 2);
    assert_eq!(v["termination"], "at_rest");

    let args = [
        "simulate", s, "--engine", "discrete", "--dt", "1e-3", "--format", "csv",
    ];
    let out = xtask().args(args).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("record,time_s,kind,agent_1,agent_2"));
    assert!(text
        .lines()
        .any(|l| l.starts_with("event,") && l.contains("ball_ball,cue,1")));
    assert_eq!(text.lines().filter(|l| l.starts_with("ball,")).count(), 2);
}

#[test]
fn compare_writes_a_complete_run_and_never_overwrites_it() {
    let dir = temp_dir("compare");
    let out_dir = dir.join("reports");
    let args = |name: &str| {
        vec![
            "compare".to_string(),
            shots().join("straight.toml").display().to_string(),
            shots().join("cut.toml").display().to_string(),
            "--dt".into(),
            "1e-2,1e-3".into(),
            "--outcome-shots".into(),
            "3".into(),
            "--outcome-dt".into(),
            "1e-2".into(),
            // One look of the grid: the files, not the search.
            "--outcome-budget".into(),
            "none".into(),
            "--out".into(),
            out_dir.display().to_string(),
            "--run-name".into(),
            name.into(),
        ]
    };
    let out = xtask().args(args("r1")).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = out_dir.join("r1");
    for f in [
        "summary.csv",
        "errors.csv",
        "ops.csv",
        "report.md",
        "error_vs_dt.svg",
        "error_vs_dt.png",
        "ops_vs_dt.png",
        "error_vs_cost.png",
        "error_vs_wall.png",
        "one_step.csv",
        "paths_cut.png",
        "paths_cut@pooltool_default.png",
        "error_vs_dt_pooltool_default.png",
        "throw.png",
        "throw.csv",
        "outcomes.csv",
        "outcome_answer.csv",
        "outcome_vs_dt.png",
        "outcomes/shots.csv",
        "outcomes/wall.csv",
    ] {
        assert!(run.join(f).is_file(), "missing {f}");
    }
    // The outcome study: 8 families x 4 schemes at dt 1e-2, and the floor, x 8 fields.
    let outcomes = std::fs::read_to_string(run.join("outcomes.csv")).unwrap();
    assert!(outcomes.starts_with(
        "family,table,engine,scheme,dt_s,field,n,disagree,rate,ci_low,ci_high,floor_disagree,\
         floor_rate"
    ));
    assert_eq!(outcomes.lines().count(), 1 + 8 * 5 * 8);
    let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
    let header = summary.lines().next().unwrap();
    for col in [
        "shot",
        "engine",
        "scheme",
        "dt_s",
        "n_reference_events",
        "n_matched",
        "n_missed",
        "n_spurious",
        "collision_time_error_median_s",
        "collision_time_error_max_s",
        "final_position_error_max_m",
        "ops_total",
        "wall_time_s",
    ] {
        assert!(
            header.split(',').any(|c| c == col),
            "summary.csv lacks {col}"
        );
    }
    // 2 shots, each also under pooltool_default, x (1 event row + 4 schemes x 2 dt).
    assert_eq!(summary.lines().count(), 1 + 2 * 2 * (1 + 8));
    // One-step rows: every engine (the reference too) on each of the reference's events.
    let col = |name: &str| header.split(',').position(|c| c == name).unwrap();
    let (engine, n_ref) = (col("engine"), col("n_reference_events"));
    let reference_events: usize = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[engine] == "event")
        .map(|f| f[n_ref].parse::<usize>().unwrap())
        .sum();
    assert!(reference_events >= 19, "{summary}");
    let one_step = std::fs::read_to_string(run.join("one_step.csv")).unwrap();
    assert_eq!(one_step.lines().count(), 1 + 9 * reference_events);
    let report = std::fs::read_to_string(run.join("report.md")).unwrap();
    assert!(report.contains("error under `pooltool_default` physics"));
    assert!(report.contains("| cut | 1.00e-2 |"));
    assert!(report.contains("frictional_inelastic` against TP A-14"));
    assert!(report.contains("## Does it change the game?"));
    assert!(report.contains("![outcome disagreement vs dt](outcome_vs_dt.png)"));
    // --physics none runs the shots' own physics only.
    let mut own = args("r2");
    own.extend(["--physics".into(), "none".into()]);
    assert!(xtask().args(&own).output().unwrap().status.success());
    let summary = std::fs::read_to_string(out_dir.join("r2/summary.csv")).unwrap();
    assert_eq!(summary.lines().count(), 1 + 2 * (1 + 8));
    let mut bad = args("r3");
    bad.extend(["--physics".into(), "rubber".into()]);
    let out = xtask().args(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--physics = \"rubber\""));
    let before = std::fs::read(run.join("summary.csv")).unwrap();
    let again = xtask().args(args("r1")).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(std::fs::read(run.join("summary.csv")).unwrap(), before);
    let leftovers = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with('.'))
        .count();
    assert_eq!(leftovers, 0, "staging directories left behind");
}

/// Copies the committed baselines to a scratch directory.
fn scratch_baselines(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/baselines");
    let dst = temp_dir(name).join("baselines");
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
    }
    dst
}

#[test]
fn check_passes_on_the_committed_baselines_and_bites_on_a_changed_one() {
    let base = scratch_baselines("check");
    let out_dir = base.parent().unwrap().join("reports");
    let run = |name: &str| {
        xtask()
            .args(["compare", shots().join("straight.toml").to_str().unwrap()])
            .args(["--quick", "--check", "--no-outcomes"])
            .args(["--baselines", base.to_str().unwrap()])
            .args(["--out", out_dir.to_str().unwrap(), "--run-name", name])
            .output()
            .unwrap()
    };
    let ok = run("pass");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // Move the first collision 1 ms later in the baseline: the check must name it.
    let f = base.join("straight.events.csv");
    let text = std::fs::read_to_string(&f).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let mut cols: Vec<String> = lines[1].split(',').map(String::from).collect();
    let t: f64 = cols[1].parse().unwrap();
    cols[1] = format!("{:?}", t + 1e-3);
    lines[1] = cols.join(",");
    std::fs::write(&f, lines.join("\n") + "\n").unwrap();
    let bad = run("fail");
    let err = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(bad.status.code(), Some(1), "{err}");
    assert!(err.contains("straight: event 0"), "{err}");
    assert!(err.contains("time_s"), "{err}");
    assert!(err.contains("differs by 1.000e-3"), "{err}");
    let report = std::fs::read_to_string(out_dir.join("fail/report.md")).unwrap();
    assert!(report.contains("## Regression check"));
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let dir = temp_dir("threads");
    let summary = |jobs: &str| {
        let out = xtask()
            .args(["compare", shots().join("cut.toml").to_str().unwrap()])
            .args([
                shots().join("break_9ball.toml").to_str().unwrap(),
                "--quick",
            ])
            .args([
                "--jobs",
                jobs,
                "--out",
                dir.to_str().unwrap(),
                "--run-name",
                jobs,
            ])
            .output()
            .unwrap();
        assert!(out.status.success());
        let text = std::fs::read_to_string(dir.join(jobs).join("summary.csv")).unwrap();
        let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
        let wall = header.iter().position(|c| *c == "wall_time_s").unwrap();
        text.lines()
            .map(|l| {
                let mut c: Vec<&str> = l.split(',').collect();
                c.remove(wall);
                c.join(",")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(summary("1"), summary("2"));
    // The outcome study too (its rows hold no timing).
    let outcomes = |jobs: &str| std::fs::read(dir.join(jobs).join("outcomes.csv")).unwrap();
    assert!(outcomes("1") == outcomes("2"));
}

#[test]
fn stress_runs_seeded_shots_and_reports_them() {
    let dir = temp_dir("stress");
    let out = xtask()
        .args([
            "stress",
            "--shots",
            "7",
            "--seed",
            "1",
            "--out",
            dir.to_str().unwrap(),
        ])
        .args(["--run-name", "s"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("stress: 7 shots (event engine)"),
        "{stdout}"
    );
    let summary = std::fs::read_to_string(dir.join("s/stress/summary.txt")).unwrap();
    // The printed line is the summary and the run's rate; the file holds no timing (a run and
    // its merged shards write the same summary).
    let line = stdout.lines().next().unwrap().trim();
    let rate = line
        .strip_prefix(summary.trim())
        .unwrap_or_else(|| panic!("{line}"));
    assert!(
        rate.starts_with("; ") && rate.contains(" shots/s ("),
        "{line}"
    );
    assert!(!summary.contains("shots/s"), "{summary}");
    // Seven consecutive seeds: one shot of each kind, counted in the summary and the CSV.
    let kinds = [
        "break9", "break15", "scatter", "rail", "corner", "frozen", "graze",
    ];
    for k in kinds {
        assert!(
            summary.contains(&format!("{k} 0/1")) || summary.contains(&format!("{k} 1/1")),
            "{k} missing from {summary}"
        );
    }
    let csv = std::fs::read_to_string(dir.join("s/stress/shots.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "shot,name,kind,balls,events,end_time_s,failures");
    assert_eq!(lines.len(), 8);
    for (seed, line) in (1..=7).zip(&lines[1..]) {
        let c: Vec<&str> = line.split(',').collect();
        assert_eq!(c[0], seed.to_string());
        assert!(c[1].ends_with(&format!("_{seed}")), "{line}");
        assert_eq!(c[2], kinds[seed % 7], "{line}");
        assert!(c[4].parse::<usize>().unwrap() > 0, "{line}");
    }
    // Every failure, if any, is a shot file that loads again.
    if let Ok(entries) = std::fs::read_dir(dir.join("s/stress/failures")) {
        for e in entries {
            pool_shots_load_ok(&e.unwrap().path());
        }
    }
    assert_eq!(
        out.status.code(),
        Some(if summary.contains(" 0 failing") { 0 } else { 1 })
    );
}

/// `cargo xtask stress ARGS --out DIR`.
fn stress_into(dir: &Path, args: &[&str]) -> std::process::Output {
    xtask()
        .arg("stress")
        .args(args)
        .args(["--out", dir.to_str().unwrap()])
        .output()
        .unwrap()
}

#[test]
fn stress_replays_the_shot_files_of_a_directory() {
    let dir = temp_dir("stress-replay");
    let shots_dir = dir.join("shots");
    std::fs::create_dir_all(&shots_dir).unwrap();
    std::fs::copy(shots().join("cut.toml"), shots_dir.join("cut.toml")).unwrap();
    std::fs::write(shots_dir.join("graze_miss_e-5_9.toml"), GOOD).unwrap();
    let run = |args: &[&str]| stress_into(&dir, args);
    let out = run(&["--replay", shots_dir.to_str().unwrap(), "--run-name", "r"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("stress: 2 shots (event engine)"),
        "{stdout}"
    );
    assert!(stdout.contains("graze 0/1, other 0/1"), "{stdout}");
    let csv = std::fs::read_to_string(dir.join("r/stress/shots.csv")).unwrap();
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][..3], ["cut.toml", "cut", "other"]);
    assert_eq!(
        rows[1][..3],
        ["graze_miss_e-5_9.toml", "graze_miss_e-5_9", "graze"]
    );
    // Nothing to replay, a bad file, or --replay with --shots: bad input.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let out = run(&["--replay", empty.to_str().unwrap(), "--run-name", "e"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--replay"));
    std::fs::write(
        shots_dir.join("nan.toml"),
        GOOD.replace("1.0, 0.0", "nan, 0.0"),
    )
    .unwrap();
    let out = run(&["--replay", shots_dir.to_str().unwrap(), "--run-name", "n"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nan.toml"));
    let out = run(&["--replay", empty.to_str().unwrap(), "--shots", "3"]);
    assert_eq!(out.status.code(), Some(2));
}

fn pool_shots_load_ok(path: &Path) {
    let out = xtask()
        .args(["simulate", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn render_rejects_bad_input_with_one_line_naming_the_option() {
    let dir = temp_dir("render-bad");
    let out_dir = dir.to_str().unwrap();
    let cases: [(&[&str], &str); 9] = [
        (
            &["render", "no_such_shot", "--out", out_dir],
            "no_such_shot",
        ),
        (
            &["render", "cut", "--engines", "magic", "--out", out_dir],
            "--engines",
        ),
        (
            &[
                "render",
                "cut",
                "--engines",
                "discrete:abc",
                "--out",
                out_dir,
            ],
            "--engines",
        ),
        (
            &[
                "render",
                "cut",
                "--engines",
                "discrete:-1",
                "--out",
                out_dir,
            ],
            "--engines",
        ),
        (
            &[
                "render",
                "cut",
                "--engines",
                "event,event,event",
                "--out",
                out_dir,
            ],
            "--engines",
        ),
        (
            &["render", "cut", "--fps", "0", "--out", out_dir],
            "--fps = 0",
        ),
        (
            &["render", "cut", "--fps", "-3", "--out", out_dir],
            "--fps = -3",
        ),
        (
            &["render", "cut", "--fps", "NaN", "--out", out_dir],
            "--fps = NaN",
        ),
        (
            &["render", "cut", "--format", "avi", "--out", out_dir],
            "avi",
        ),
    ];
    for (args, names) in cases {
        let out = xtask().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(err.contains(names), "{args:?}: {err}");
    }
    // Nothing was written for a rejected run.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn render_writes_numbered_frames_and_a_gif_and_never_overwrites() {
    let dir = temp_dir("render");
    let out_dir = dir.to_str().unwrap();
    let frames = [
        "render",
        "straight",
        "--format",
        "png-frames",
        "--fps",
        "10",
        "--max-seconds",
        "1",
        "--width",
        "400",
        "--engines",
        "event,discrete:1e-3",
        "--out",
        out_dir,
        "--run-name",
        "f",
    ];
    let out = xtask().args(frames).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 0, 0.1, ..., 1.0 s: 11 frames.
    let listed: Vec<_> = std::fs::read_dir(dir.join("f/frames")).unwrap().collect();
    assert_eq!(listed.len(), 11);
    assert!(dir.join("f/frames/frame_00010.png").is_file());
    assert!(dir.join("f/render.txt").is_file());
    let again = xtask().args(frames).output().unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));

    let gif = [
        "render",
        "cut",
        "--fps",
        "10",
        "--max-seconds",
        "0.5",
        "--width",
        "320",
        "--layout",
        "ghosts",
        "--engines",
        "event,discrete:1e-2",
        "--out",
        out_dir,
        "--run-name",
        "g",
    ];
    let out = xtask().args(gif).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bytes = std::fs::read(dir.join("g/cut.gif")).unwrap();
    assert_eq!(&bytes[..6], b"GIF89a");
    // Only the finished run is there: no staging directory left behind.
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

#[test]
fn stress_kinds_selects_the_seeds_of_those_kinds_only() {
    let dir = temp_dir("stress-kinds");
    let run = |args: &[&str]| stress_into(&dir, args);
    let out = run(&[
        "--kinds",
        "break9,graze",
        "--shots",
        "4",
        "--seed",
        "1",
        "--run-name",
        "k",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("break9 0/2"), "{stdout}");
    assert!(stdout.contains("graze 0/2"), "{stdout}");
    // Seeds 1..=14 hold break9 at 7 and 14 and graze at 6 and 13 (kind = seed mod 7): the
    // same shots with or without --kinds.
    let csv = std::fs::read_to_string(dir.join("k/stress/shots.csv")).unwrap();
    let seeds: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').next().unwrap())
        .collect();
    assert_eq!(seeds, ["6", "7", "13", "14"]);
    let out = run(&["--kinds", "break9,bogus", "--run-name", "b"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--kinds") && stderr.contains("bogus"),
        "{stderr}"
    );
}

#[test]
fn stress_runs_shots_under_another_physics_and_refuses_an_unknown_one() {
    let dir = temp_dir("stress-physics");
    let out = stress_into(
        &dir,
        &[
            "--shots",
            "7",
            "--seed",
            "1",
            "--physics",
            "mathavan",
            "--run-name",
            "m",
        ],
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("stress: 7 shots (event engine, mathavan physics)"),
        "{stdout}"
    );
    let own = stress_into(&dir, &["--shots", "7", "--seed", "1", "--run-name", "o"]);
    let csv =
        |name: &str| std::fs::read_to_string(dir.join(name).join("stress/shots.csv")).unwrap();
    assert!(own.status.success());
    assert_ne!(csv("m"), csv("o"), "the laws changed nothing");
    let bad = stress_into(
        &dir,
        &["--shots", "1", "--physics", "ideal", "--run-name", "b"],
    );
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--physics = \"ideal\""));
}

#[test]
fn a_broken_program_is_reported_and_every_other_result_is_written() {
    let dir = temp_dir("broken");
    let out_dir = dir.join("reports");
    // A program naming a ball the shot does not have (a script: --engines splits on commas).
    let ghost = dir.join("ghost.sh");
    std::fs::write(
        &ghost,
        "while read -r l; do echo '{\"events\": [{\"time\": 0.1, \"kind\": \"ball_ball\", \
         \"agents\": [\"cue\", \"ghost\"]}], \"final_states\": []}'; done\n",
    )
    .unwrap();
    let ghost = format!("exec:sh {}", ghost.display());
    // A program that cannot start at all stops the run before any shot, in one line.
    let out = xtask()
        .args([
            "compare",
            "--no-outcomes",
            "--quick",
            "--engines",
            "exec:exit 3",
            "--out",
        ])
        .arg(&out_dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("cannot start") && stderr.contains("exit status: 3"),
        "{stderr}"
    );
    for (k, (program, says)) in [
        (
            "exec:timeout=0.5:sleep 20",
            "no answer within the timeout of 0.5 s",
        ),
        (
            "exec:while read -r l; do echo not-json; done",
            "answer is not JSON",
        ),
        (ghost.as_str(), "no ball \"ghost\""),
    ]
    .into_iter()
    .enumerate()
    {
        let name = format!("run{k}");
        let out = xtask()
            .args([
                "compare",
                &shots().join("straight.toml").display().to_string(),
                "--dt",
                "1e-2",
                "--schemes",
                "exact",
                "--no-scaling",
                "--physics",
                "none",
                "--no-outcomes",
                "--engines",
                program,
                "--out",
                &out_dir.display().to_string(),
                "--run-name",
                &name,
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{program}: {stderr}");
        assert!(stderr.contains(says), "{program}: {stderr}");
        assert!(stderr.contains("engine run(s) failed"), "{stderr}");
        let run = out_dir.join(&name);
        let report = std::fs::read_to_string(run.join("report.md")).unwrap();
        assert!(report.contains("## Engines that failed"), "{program}");
        assert!(report.contains(says), "{program}");
        // The reference and the discrete run are there.
        let summary = std::fs::read_to_string(run.join("summary.csv")).unwrap();
        assert_eq!(summary.lines().count(), 1 + 2, "{program}");
    }
}

/// The glance table's order of an engine that matches fewer than half the events at its finest
/// dt says over what share of the events it is; of one that matches more, it does not.
#[test]
fn an_order_over_few_matched_events_says_so() {
    let dir = temp_dir("order-share");
    let o = xtask()
        .args(["compare"])
        .args([shots().join("straight.toml"), shots().join("cut.toml")])
        .args([
            "--engines",
            "rapier:1e-2,rapier:1e-3",
            "--no-outcomes",
            "--no-scaling",
        ])
        .args(["--physics", "none", "--schemes", "exact", "--out"])
        .arg(&dir)
        .args(["--run-name", "r"])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let summary = std::fs::read_to_string(dir.join("r/summary.csv")).unwrap();
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (engine, dt, matched, of) = (
        col("engine"),
        col("dt_s"),
        col("n_matched"),
        col("n_reference_events"),
    );
    for (family, scheme) in [
        ("rapier", "rapier `rapier2d-f64"),
        ("discrete", "discrete `end_of_step`"),
    ] {
        // Over the followed shots (both are: the discrete scheme matches them at 1e-5 s).
        let rows: Vec<Vec<&str>> = lines
            .clone()
            .map(|l| l.split(',').collect::<Vec<_>>())
            .filter(|r| r[engine] == family)
            .collect();
        let finest = rows
            .iter()
            .map(|r| r[dt].parse::<f64>().unwrap())
            .fold(f64::INFINITY, f64::min);
        let (m, n) = rows
            .iter()
            .filter(|r| r[dt].parse::<f64>().unwrap() == finest)
            .fold((0, 0), |(m, n), r| {
                (
                    m + r[matched].parse::<usize>().unwrap(),
                    n + r[of].parse::<usize>().unwrap(),
                )
            });
        let report = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
        let row = report
            .lines()
            .find(|l| l.starts_with(&format!("| {scheme}")))
            .unwrap_or_else(|| panic!("no glance row for {scheme}"));
        let order = row.split(" | ").nth(1).unwrap();
        if 2 * m < n {
            let share = format!("; {:.0} % of their events)", 100.0 * m as f64 / n as f64);
            assert!(order.ends_with(&share), "{family}: {m}/{n}: {order}");
        } else {
            assert!(
                order.ends_with(" shots)") && !order.contains('%'),
                "{family}: {order}"
            );
        }
    }
}

#[test]
fn a_study_of_a_missing_program_says_why_it_failed() {
    // A new user's first `outcomes` with a mistyped program: it stops before any shot is
    // played, with the program's own stderr, not only its exit status.
    let dir = temp_dir("missing-program");
    let out_dir = dir.join("reports");
    let program = format!("exec:python3 {}", dir.join("no_such_engine.py").display());
    let out = xtask()
        .args([
            "outcomes",
            "--schemes",
            "none",
            "--engines",
            &program,
            "--outcome-families",
            "cut",
            "--outcome-tables",
            "seven_foot",
            "--outcome-shots",
            "4",
            "--outcome-budget",
            "4",
            "--chaos-shots",
            "4",
            "--out",
            &out_dir.display().to_string(),
            "--run-name",
            "study",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(
        stderr.lines().filter(|l| l.starts_with("error:")).count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("cannot start"), "{stderr}");
    assert!(stderr.contains("no_such_engine.py"), "{stderr}");
    assert!(stderr.contains("stderr: "), "{stderr}");
    assert!(!out_dir.join("study").exists(), "nothing written");
}

/// A fixed-step program on the dt ladder (docs/engine-protocol.md, "A time step"): every request
/// carries the rung's dt, the answer for it is a search along the ladder, and a program that
/// does not echo the dt fails its shots saying so.
#[test]
fn a_stepped_program_is_played_on_the_dt_ladder() {
    let dir = temp_dir("stepped");
    let run = |engine: &str, name: &str| {
        xtask()
            .args([
                "outcomes",
                "--schemes",
                "none",
                "--engines",
                engine,
                "--outcome-families",
                "cut",
                "--outcome-tables",
                "seven_foot",
                "--outcome-shots",
                "12",
                "--outcome-budget",
                "24",
                "--chaos-shots",
                "4",
                "--search-limit",
                "1e-3",
                "--replays",
                "0",
                "--out",
            ])
            .arg(&dir)
            .args(["--run-name", name])
            .output()
            .unwrap()
    };
    let out = run(
        "exec:dt=1e-2:name=euler:python3 benches/peers/euler_engine.py",
        "ladder",
    );
    let (so, se) = common::texts(&out);
    assert_eq!(out.status.code(), Some(0), "{so}{se}");
    assert!(se.contains("euler* at dt 1e-2 s"), "{se}");
    // Its rows at more than one rung, each the dt its requests carried (the program echoed it).
    let shots = std::fs::read_to_string(dir.join("ladder/outcomes/shots.csv")).unwrap();
    let mut header = shots.lines().next().unwrap().split(',');
    let run_col = header.position(|c| c == "run").unwrap();
    let dts: std::collections::BTreeSet<String> = shots
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f[run_col].starts_with("exec:dt="))
        .map(|f| f[run_col].split(':').nth(1).unwrap().to_string())
        .collect();
    assert!(dts.len() >= 2, "rungs played: {dts:?}");
    let answer = std::fs::read_to_string(dir.join("ladder/outcome_answer.csv")).unwrap();
    let row = answer
        .lines()
        .find(|l| l.starts_with("cut,seven_foot,exec,euler,"))
        .unwrap_or_else(|| panic!("{answer}"));
    let search = row.split(',').nth(4).unwrap();
    assert!(
        [
            "converged",
            "keeps_at_top",
            "below_limit",
            "partial",
            "undecided"
        ]
        .contains(&search),
        "a search along the ladder: {row}"
    );
    assert!(so.contains("exec:euler"), "{so}");

    // The same program with the dt taken out of its answers.
    let out = run(
        // sed -u: a pipe's stage that buffers would hold the answer back.
        "exec:timeout=10:dt=1e-2:name=noecho:python3 benches/peers/euler_engine.py \
         | sed -u 's/\"dt\": [^,]*, //'",
        "noecho",
    );
    let (so, se) = common::texts(&out);
    assert_eq!(out.status.code(), Some(1), "{so}{se}");
    assert!(se.contains("dt missing"), "{so}{se}");
}
