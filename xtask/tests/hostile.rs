//! No silent wrong answer (issue 18): every command meets extreme inputs, runs that do not end
//! physically, the engines' own errors, option bombs, closed pipes and full disks, killed
//! blesses, leftovers and name collisions, and says so with the right exit code: 0 only for a
//! right answer, 1 for a run that failed (one line, or nothing on a closed pipe), 2 for bad
//! input (one line naming the option or field and the value), never 101.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::{hidden_entries, root, shots, temp_dir, texts, xtask};

/// Runs the command line `args` from the workspace root.
fn run(args: &[&str]) -> Output {
    xtask().args(args).output().unwrap()
}

/// Asserts an exit code, no panic, and (for errors) one line on stderr containing `names`.
fn assert_exit(out: &Output, code: i32, names: &[&str], what: &str) {
    let (stdout, stderr) = texts(out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: stderr {stderr}, stdout {}",
        stdout.chars().take(400).collect::<String>()
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    for n in names {
        assert!(stderr.contains(n), "{what}: expected {n:?} in {stderr}");
    }
    if code == 2 {
        assert_eq!(
            stderr.trim().lines().count(),
            1,
            "{what}: one line: {stderr}"
        );
    }
}

/// `key = value` replaced in a default shot's text, written to `dir/name.toml`.
fn edited_shot(dir: &Path, from: &str, name: &str, edits: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(shots().join(format!("{from}.toml"))).unwrap();
    for (old, new) in edits {
        assert!(text.contains(old), "{from}: {old}");
        text = text.replace(old, new);
    }
    let f = dir.join(format!("{name}.toml"));
    std::fs::write(&f, text).unwrap();
    f
}

/// A frictionless shot on the pocketless carom table that needs more than the event engine's
/// 100 000 events before its `t_end` (a ball bouncing between the rails for 4e5 s).
const ENDLESS: &str = r#"description = "a frictionless ball bouncing for 4e5 s"
model = "ideal"
table = "carom"
t_end = 4e5
[[balls]]
id = "cue"
r = [1.5, 0.7]
v = [1.0, 0.3]
"#;

/// The 15-ball break at 100 m/s (12.5 times the default shot's speed).
fn fast_break(dir: &Path) -> PathBuf {
    edited_shot(
        dir,
        "break_15ball",
        "break_15ball_100ms",
        &[(
            "v = [8.0, -0.4037956793862305]",
            "v = [100.0, -5.047445992327881]",
        )],
    )
}

/// `stress --engine ENGINE --replay DIR/replay` over copies of `files`, into `DIR/reports/s`.
fn stress_replay(engine: &str, dir: &Path, files: &[&Path]) -> Output {
    let replay = dir.join("replay");
    std::fs::create_dir_all(&replay).unwrap();
    for f in files {
        std::fs::copy(f, replay.join(f.file_name().unwrap())).unwrap();
    }
    xtask()
        .args(["stress", "--engine", engine, "--replay"])
        .arg(&replay)
        .arg("--out")
        .arg(dir.join("reports"))
        .args(["--run-name", "s"])
        .output()
        .unwrap()
}

/// `compare SHOT --dt 1e-2 --schemes exact --no-scaling --physics none --no-outcomes` into
/// `reports/NAME`.
fn compare_at_1e2(shot: &Path, name: &str, reports: &Path) -> Output {
    xtask()
        .arg("compare")
        .arg(shot)
        .args([
            "--dt",
            "1e-2",
            "--schemes",
            "exact",
            "--no-scaling",
            "--physics",
            "none",
            "--no-outcomes",
            "--run-name",
            name,
        ])
        .arg("--out")
        .arg(reports)
        .output()
        .unwrap()
}

#[test]
fn the_rejected_shots_of_issue_18_are_refused_by_every_command() {
    let dir = temp_dir("rejected");
    let files = std::fs::read_dir(shots().join("rejected"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect::<Vec<_>>();
    assert_eq!(files.len(), 3, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let field = text
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{}: no `# expect:` line", f.display()));
        let path = f.to_str().unwrap();
        let name = f.file_name().unwrap().to_str().unwrap();
        let out_dir = dir.to_str().unwrap();
        let runs: [&[&str]; 4] = [
            &["simulate", path],
            &["simulate", path, "--engine", "discrete:1e-3"],
            &["compare", path, "--quick", "--no-scaling", "--out", out_dir],
            &["render", path, "--out", out_dir],
        ];
        for args in runs {
            let out = xtask().args(args).output().unwrap();
            assert_exit(&out, 2, &[name, field], &format!("{args:?}"));
        }
    }
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
}

#[test]
fn a_run_that_does_not_end_physically_says_so_and_exits_1() {
    let dir = temp_dir("no-end");
    let endless = dir.join("endless.toml");
    std::fs::write(&endless, ENDLESS).unwrap();
    let f = endless.to_str().unwrap();
    // simulate: the log (it stopped on the budget), then one line on stderr, exit 1.
    let out = run(&["simulate", f]);
    assert_exit(
        &out,
        1,
        &["did not end physically", "budget", "100000 events"],
        "simulate",
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["termination"], "budget");
    // compare: its reference did not end; nothing runs after it and nothing is written.
    let reports = dir.join("reports");
    let out = xtask()
        .args(["compare", f, "--quick", "--no-scaling", "--out"])
        .arg(&reports)
        .output()
        .unwrap();
    assert_exit(
        &out,
        1,
        &["reference run", "did not end physically"],
        "compare",
    );
    assert!(std::fs::read_dir(&reports).unwrap().next().is_none());
    // render: nothing drawn.
    let out = xtask()
        .args(["render", f, "--out"])
        .arg(&reports)
        .output()
        .unwrap();
    assert_exit(&out, 1, &["did not end physically"], "render");
    // stress --replay: a failing shot (no_end), exit 1.
    let out = stress_replay("event", &dir, &[&endless]);
    assert_exit(&out, 1, &["1 failing shots"], "stress");
    assert!(texts(&out).0.contains("no_end: 1"));
}

#[test]
fn the_discrete_integrators_own_errors_are_flagged_everywhere() {
    let dir = temp_dir("discrete-flags");
    let fast = fast_break(&dir);
    let frozen = shots().join("frozen.toml");
    // Balls off the table: simulate prints the log and exits 1 naming the ball.
    let out = run(&[
        "simulate",
        fast.to_str().unwrap(),
        "--engine",
        "discrete:1e-2",
    ]);
    assert_exit(
        &out,
        1,
        &["did not end physically", "off the", "table"],
        "fast break",
    );
    // Final overlaps: the method's error, measured: exit 0 with a warning.
    let out = run(&[
        "simulate",
        frozen.to_str().unwrap(),
        "--engine",
        "discrete:1e-2",
    ]);
    assert_exit(&out, 0, &["warning", "overlapping by 0.0189 m"], "frozen");
    // compare: the columns, the report's sentence and table, one line on stderr; exit 0 for
    // overlaps.
    let reports = dir.join("reports");
    let out = compare_at_1e2(&frozen, "frozen", &reports);
    assert_exit(
        &out,
        0,
        &["1 run(s) of 1 shot(s) (frozen) end with balls overlapping, up to 1.9e-2 m"],
        "compare frozen",
    );
    let summary = std::fs::read_to_string(reports.join("frozen/summary.csv")).unwrap();
    let header: Vec<&str> = summary.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    let (off, overlap) = (col("final_off_table"), col("final_overlap_max_m"));
    let rows: Vec<Vec<&str>> = summary
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    let discrete = rows.iter().find(|r| r[1] == "discrete").unwrap();
    assert_eq!(discrete[off], "0");
    assert!((discrete[overlap].parse::<f64>().unwrap() - 0.01892).abs() < 1e-4);
    let event = rows.iter().find(|r| r[1] == "event").unwrap();
    assert!(event[overlap].parse::<f64>().unwrap() < 1e-9);
    let report = std::fs::read_to_string(reports.join("frozen/report.md")).unwrap();
    assert!(report.contains("## Runs flagged at their end"), "{report}");
    assert!(report.contains("1 of 2 runs are flagged"), "{report}");
    // compare on the fast break: the whole report is written, then exit 1.
    let out = compare_at_1e2(&fast, "fast", &reports);
    assert_exit(
        &out,
        1,
        &["ball(s) off the table", "did not end physically"],
        "compare fast",
    );
    let report = std::fs::read_to_string(reports.join("fast/report.md")).unwrap();
    assert!(report.contains("| budget (120.00 s) | 2 |"), "{report}");
    // stress --engine discrete counts both as failures of that engine.
    let out = stress_replay("discrete:1e-2", &dir, &[&fast, &frozen]);
    assert_exit(&out, 1, &["2 failing shots"], "stress discrete");
    let line = texts(&out).0;
    assert!(
        line.contains("overlap: 1") && line.contains("off_table: 1"),
        "{line}"
    );
}

#[test]
fn other_root_solvers_overlaps_are_flagged() {
    let dir = temp_dir("solvers");
    let brk = shots().join("break_15ball.toml");
    let out = run(&["simulate", brk.to_str().unwrap(), "--solver", "ferrari"]);
    assert_exit(
        &out,
        0,
        &["warning", "(event:ferrari)", "overlapping"],
        "ferrari",
    );
    let out = run(&["simulate", brk.to_str().unwrap()]);
    assert_exit(&out, 0, &[], "isolator");
    assert!(
        texts(&out).1.is_empty(),
        "the default solver keeps its invariants"
    );
    let out = stress_replay("event:alg1010", &dir, &[&brk]);
    assert_exit(&out, 1, &["1 failing shots"], "stress alg1010");
    assert!(texts(&out).0.contains("overlap: 1"));
}

#[test]
fn every_count_size_and_duration_has_a_stated_limit() {
    let dir = temp_dir("limits");
    let out_dir = dir.to_str().unwrap();
    let endless = dir.join("endless.toml");
    std::fs::write(&endless, ENDLESS).unwrap();
    let tall = dir.join("tall.toml");
    std::fs::write(
        &tall,
        "description = \"a 100 m long channel\"\ntable = \"rectangle_0.2x100\"\n[[balls]]\n\
         id = \"cue\"\nr = [0.1, 50.0]\nv = [0.0, 1.0]\n",
    )
    .unwrap();
    let shot = shots().join("straight.toml");
    let s = shot.to_str().unwrap();
    let many_dts = vec!["1e-3"; 101].join(",");
    let many_engines = (1..=17)
        .map(|k| format!("discrete:{k}e-3"))
        .collect::<Vec<_>>()
        .join(",");
    let cases: Vec<(Vec<&str>, &[&str])> = vec![
        (
            vec!["compare", s, "--per-decade", "18446744073709551615"],
            &["--per-decade", "1 to 100"],
        ),
        (
            vec!["compare", s, "--per-decade", "1000000"],
            &["--per-decade"],
        ),
        (
            vec!["compare", s, "--per-decade", "60"],
            &["--per-decade = 60", "181 time steps"],
        ),
        (
            vec!["compare", s, "--per-decade", "0"],
            &["--per-decade = 0"],
        ),
        (
            vec!["compare", s, "--dt-max", "1e-5", "--dt-min", "1e-2"],
            &["--dt-min", "above --dt-max"],
        ),
        (
            vec!["compare", s, "--dt-min", "1e-12"],
            &["--dt-min = 1e-12"],
        ),
        (
            vec!["compare", s, "--dt", &many_dts],
            &["--dt", "101 time steps"],
        ),
        (
            vec!["compare", s, "--dt", "1e-3,1e-3"],
            &["--dt = 0.001", "given twice"],
        ),
        (
            vec!["compare", s, "--schemes", "exact,exact"],
            &["--schemes = \"exact\"", "given twice"],
        ),
        (
            vec!["compare", s, "--engines", "event:ferrari,event:ferrari"],
            &["--engines = event:ferrari", "already in the run"],
        ),
        (
            vec!["compare", s, "--engines", &many_engines],
            &["--engines: 17 engines"],
        ),
        (
            vec!["compare", s, "--jobs", "10000"],
            &["--jobs = 10000", "1 to 256"],
        ),
        (vec!["compare", s, "--jobs", "0"], &["--jobs = 0"]),
        (
            vec!["roots", "--breaks", "18446744073709551615"],
            &["--breaks", "0 to 10000"],
        ),
        (vec!["roots", "--breaks", "100000000"], &["--breaks"]),
        (vec!["roots", "--repeats", "0"], &["--repeats = 0"]),
        (vec!["stress", "--shots", "0"], &["--shots = 0"]),
        (vec!["stress", "--max-events", "0"], &["--max-events = 0"]),
        (
            vec!["stress", "--max-events", "1000000000"],
            &["--max-events"],
        ),
        (vec!["stress", "--jobs", "10000"], &["--jobs"]),
        (
            vec!["render", "cut", "--speed", "1e-18"],
            &["--speed = 1e-18", "frames"],
        ),
        (
            vec!["render", tall.to_str().unwrap()],
            &["--width = 800", "px tall"],
        ),
        (
            vec![
                "render",
                "break_15ball",
                "--width",
                "3840",
                "--fps",
                "240",
                "--max-seconds",
                "40",
            ],
            &["--width = 3840", "pixels"],
        ),
        (
            vec![
                "simulate",
                endless.to_str().unwrap(),
                "--engine",
                "discrete:1e-7",
            ],
            &["--engine = discrete:1e-7", "ball-steps", "t_end = 400000 s"],
        ),
        (
            vec!["outcomes", "--outcome-shots", "0"],
            &["--outcome-shots = 0", "1 to 1000000"],
        ),
        (
            vec!["outcomes", "--outcome-shots", "18446744073709551615"],
            &["--outcome-shots", "1 to 1000000"],
        ),
        (
            vec!["compare", s, "--outcome-shots", "0"],
            &["--outcome-shots = 0"],
        ),
        (
            vec!["outcomes", "--outcome-shots", "1000000"],
            &["--outcome-shots = 1000000", "ball-steps"],
        ),
        (
            vec!["outcomes", "--perturb-position", "NaN"],
            &["--perturb-position = NaN"],
        ),
        (
            vec!["outcomes", "--perturb-position=-1e-6"],
            &["--perturb-position = -1e-6"],
        ),
        (
            vec!["compare", s, "--perturb-speed", "inf"],
            &["--perturb-speed = inf"],
        ),
        (
            vec!["outcomes", "--position-tol", "0"],
            &["--position-tol = 0.0"],
        ),
        (
            vec!["outcomes", "--outcome-dt", "0"],
            &["--outcome-dt", "0"],
        ),
        (
            vec!["outcomes", "--outcome-dt", "1e-3,1e-3"],
            &["--outcome-dt = 0.001", "given twice"],
        ),
        (
            vec!["outcomes", "--outcome-families", "cut,massé"],
            &["--outcome-families", "unknown family \"massé\""],
        ),
        (
            vec!["outcomes", "--outcome-tables", "carom"],
            &["--outcome-tables carom", "no placement"],
        ),
        (
            vec!["outcomes", "--outcome-tables", "snooker"],
            &["--outcome-tables \"snooker\"", "unknown table"],
        ),
        (
            vec!["outcomes", "--schemes", "rk4"],
            &["--schemes = \"rk4\"", "unknown scheme"],
        ),
        (vec!["outcomes", "--max-events", "0"], &["--max-events = 0"]),
        (
            vec!["outcomes", "--rack", "jittered:-1e-4"],
            &["--rack", "jittered:-1e-4"],
        ),
        (
            vec!["outcomes", "--rack", "jittered:NaN"],
            &["--rack", "NaN"],
        ),
        (
            vec!["outcomes", "--rack", "lattice:1"],
            &["--rack", "lattice:1"],
        ),
        (
            vec!["outcomes", "--rack", "pyramid"],
            &["--rack", "pyramid"],
        ),
        (
            vec!["outcomes", "--margin-rate", "0"],
            &["--margin-rate = 0.0", "(0, 1)"],
        ),
        (
            vec!["compare", s, "--margin-floor", "1.5"],
            &["--margin-floor = 1.5"],
        ),
        (
            vec!["outcomes", "--margin-balls", "NaN"],
            &["--margin-balls = NaN"],
        ),
        (
            vec!["outcomes", "--outcome-budget", "0"],
            &["--outcome-budget \"0\"", "shots must be 1 to"],
        ),
        (
            vec!["outcomes", "--outcome-budget", "0s"],
            &["--outcome-budget \"0s\"", "seconds"],
        ),
        (
            vec!["outcomes", "--outcome-budget", "lots"],
            &["--outcome-budget \"lots\""],
        ),
        (
            vec!["outcomes", "--shard", "1/2", "--outcome-budget", "400"],
            &["--outcome-budget \"400\" with --shard"],
        ),
        (
            vec!["outcomes", "--replays", "10001"],
            &["--replays = 10001", "0 to 10000"],
        ),
        (
            vec!["compare", s, "--replays", "18446744073709551615"],
            &["--replays = 18446744073709551615"],
        ),
        (vec!["bench-peers", "--runs", "0"], &["--runs = 0"]),
        (
            vec!["bench-peers", "--peer-runs", "100000"],
            &["--peer-runs"],
        ),
    ];
    for (args, names) in cases {
        let out = xtask().args(&args).args(["--out", out_dir]).output();
        // simulate has no --out.
        let out = if args[0] == "simulate" {
            xtask().args(&args).output()
        } else {
            out
        }
        .unwrap();
        assert_exit(&out, 2, names, &format!("{args:?}"));
    }
    assert!(std::fs::read_dir(&dir).unwrap().all(|e| {
        let n = e.unwrap().file_name();
        n == "endless.toml" || n == "tall.toml"
    }));
}

/// Runs `args` with standard output into `/dev/full`.
fn to_dev_full(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    xtask().args(args).stdout(full).output().unwrap()
}

/// Runs `args` with standard output into a pipe whose reader is gone, as `| head -c10`
/// leaves it once it has read its ten bytes (closed before the command starts: a reader closing
/// after it would race with the write).
#[cfg(unix)]
fn to_closed_pipe(args: &[&str]) -> Output {
    use std::os::fd::FromRawFd;
    let mut fds = [0; 2];
    // SAFETY: a fresh pipe; the read end is closed at once, the write end owned by the File.
    let write_end = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        std::fs::File::from_raw_fd(fds[1])
    };
    xtask().args(args).stdout(write_end).output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_or_a_full_disk_ends_every_command_with_exit_1() {
    if !Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full");
        return;
    }
    let dir = temp_dir("full");
    let out_dir = dir.to_str().unwrap();
    let straight = shots().join("straight.toml");
    let s = straight.to_str().unwrap();
    let commands: Vec<Vec<&str>> = vec![
        vec!["simulate", s],
        vec!["simulate", s, "--format", "csv"],
        vec!["compare", s, "--quick", "--no-scaling", "--out", out_dir],
        vec!["stress", "--shots", "3", "--out", out_dir],
        vec!["roots", "--breaks", "0", "--repeats", "1", "--out", out_dir],
        vec![
            "render", "straight", "--fps", "5", "--width", "320", "--out", out_dir,
        ],
        vec!["--help"],
    ];
    for args in &commands {
        let out = to_dev_full(args);
        assert_exit(
            &out,
            1,
            &["standard output", "No space left"],
            &format!("{args:?} > /dev/full"),
        );
        let (_, stderr) = texts(&out);
        assert_eq!(
            stderr.lines().filter(|l| l.contains("error")).count(),
            1,
            "{args:?}: {stderr}"
        );
        // A closed pipe: exit 1, quietly.
        let out = to_closed_pipe(args);
        let (_, stderr) = texts(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?} | head: {stderr}");
        assert!(
            !stderr.contains("error") && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
    // Standard error full: the exit code still says what happened.
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let out = xtask()
        .args(["simulate", "no_such.toml"])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = xtask()
        .args(["compare", "--bogus"])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = xtask()
        .args(["simulate", s])
        .stderr(full())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

/// Copies the committed baselines into `dir/baselines`.
fn scratch_baselines(dir: &Path) -> PathBuf {
    let dst = dir.join("baselines");
    std::fs::create_dir_all(&dst).unwrap();
    for e in std::fs::read_dir(root().join("data/baselines")).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dst.join(e.file_name())).unwrap();
    }
    dst
}

/// `compare straight --quick --check` against the baselines in `base`, writing into `dir/r`.
fn check_straight(base: &Path, dir: &Path) -> Output {
    xtask()
        .args(["compare", shots().join("straight.toml").to_str().unwrap()])
        .args([
            "--quick",
            "--no-scaling",
            "--physics",
            "none",
            "--check",
            "--baselines",
        ])
        .arg(base)
        .arg("--out")
        .arg(dir.join("r"))
        .output()
        .unwrap()
}

/// Every file of a directory, by name.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn bless_is_all_or_nothing_and_leaves_nothing_behind() {
    let dir = temp_dir("bless");
    let base = scratch_baselines(&dir);
    // Make every file the bless writes differ from what it will write.
    let touched = [
        "straight.events.csv",
        "straight.final.csv",
        "cut.events.csv",
        "cut.final.csv",
        "discrete.csv",
    ];
    for f in &touched[..4] {
        let p = base.join(f);
        let text = std::fs::read_to_string(&p)
            .unwrap()
            .replacen(",0.", ",1.", 1);
        std::fs::write(&p, text).unwrap();
    }
    let lines = std::fs::read_to_string(base.join("discrete.csv")).unwrap();
    std::fs::write(
        base.join("discrete.csv"),
        lines.replacen("straight,", "straight,x", 1),
    )
    .unwrap();
    let old = contents(&base);
    let bless = |name: &str| {
        let mut c = xtask();
        c.args(["compare", shots().join("straight.toml").to_str().unwrap()])
            .args([shots().join("cut.toml").to_str().unwrap()])
            .args([
                "--quick",
                "--no-scaling",
                "--physics",
                "none",
                "--bless",
                "--baselines",
            ])
            .arg(&base)
            .args([
                "--out",
                dir.join("reports").to_str().unwrap(),
                "--run-name",
                name,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        c
    };
    // Killed at any moment, the directory is all old (or, once swapped, all new).
    let mut new: Option<Vec<(String, Vec<u8>)>> = None;
    for (k, delay_ms) in [5u64, 40, 120, 250, 400, 600, 900].into_iter().enumerate() {
        let mut child = bless(&format!("k{k}")).spawn().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = child.kill();
        child.wait().unwrap();
        let now = contents(&base);
        if now != old {
            let reference = new.get_or_insert_with(|| now.clone());
            assert_eq!(
                &now, reference,
                "killed after {delay_ms} ms: a mix of old and new"
            );
            assert_eq!(now.len(), old.len());
            for ((n, a), (_, b)) in now.iter().zip(&old) {
                assert_eq!(
                    a != b,
                    touched.contains(&n.as_str()),
                    "killed after {delay_ms} ms: {n}"
                );
            }
        }
    }
    // A finished bless: all new, no stray file, and a later bless is a no-op.
    let out = bless("done").stderr(Stdio::piped()).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let blessed = contents(&base);
    assert_ne!(blessed, old);
    if let Some(n) = new {
        assert_eq!(blessed, n);
    }
    assert!(
        hidden_entries(&dir).is_empty(),
        "{:?}",
        hidden_entries(&dir)
    );
    assert!(hidden_entries(&base).is_empty());
    let out = bless("again").stderr(Stdio::piped()).output().unwrap();
    assert!(
        texts(&out).1.contains("2 shots match the baselines"),
        "{}",
        texts(&out).1
    );
    assert_eq!(contents(&base), blessed);
}

#[test]
fn a_bless_killed_mid_swap_is_put_back_and_its_staging_names_are_git_ignored() {
    let dir = temp_dir("bless-recover");
    let base = scratch_baselines(&dir);
    let old = contents(&base);
    // The old directory under its mid-swap name, and a killed bless's stage, of a dead process.
    let dead = dead_pid();
    std::fs::rename(&base, dir.join(format!(".baselines.replaced-{dead}"))).unwrap();
    std::fs::create_dir_all(dir.join(format!(".baselines.bless-{dead}"))).unwrap();
    let out = check_straight(&base, &dir);
    assert_exit(
        &out,
        0,
        &["restored", "1 shots match"],
        "check after a killed bless",
    );
    assert_eq!(contents(&base), old);
    assert!(
        hidden_entries(&dir).is_empty(),
        "{:?}",
        hidden_entries(&dir)
    );
    // Whatever the staging directories are called, git does not see them.
    for name in [
        format!("data/.baselines.bless-{dead}/x.csv"),
        format!("data/.baselines.replaced-{dead}/x.csv"),
        format!("reports/.compare-x.partial-{dead}/report.md"),
        format!("elsewhere/.run.partial-{dead}/x"),
        format!("data/roots/.captured.csv.partial-{dead}"),
    ] {
        let ignored = Command::new("git")
            .args(["check-ignore", "-q", "--no-index", &name])
            .current_dir(root())
            .status();
        if let Ok(status) = ignored {
            assert!(status.success(), "{name} is not git-ignored");
        }
    }
}

#[test]
fn a_garbage_baseline_file_is_bad_input_not_an_empty_log() {
    let dir = temp_dir("garbage");
    let base = scratch_baselines(&dir);
    std::fs::write(
        base.join("straight.events.csv"),
        "\u{0}\u{1}garbage\nmore garbage\n",
    )
    .unwrap();
    let out = check_straight(&base, &dir);
    assert_exit(
        &out,
        2,
        &["straight.events.csv", "not a baseline table"],
        "garbage",
    );
}

#[cfg(unix)]
#[test]
fn a_baseline_file_that_is_not_a_regular_file_is_refused_not_waited_on() {
    let dir = temp_dir("baseline-fifo");
    let base = scratch_baselines(&dir);
    let events = base.join("straight.events.csv");
    std::fs::remove_file(&events).unwrap();
    let c = std::ffi::CString::new(events.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let mut check = xtask();
    check
        .args(["compare", shots().join("straight.toml").to_str().unwrap()])
        .args(["--quick", "--no-scaling", "--physics", "none", "--check"])
        .arg("--baselines")
        .arg(&base)
        .arg("--out")
        .arg(dir.join("r"));
    let t = std::time::Instant::now();
    let (code, err) = common::run_within(&mut check, std::time::Duration::from_secs(20));
    assert_eq!(code, Some(2), "after {:?}: {err}", t.elapsed());
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(
        err.contains("straight.events.csv") && err.contains("a FIFO"),
        "{err}"
    );
    // A link to a file elsewhere is not read either.
    std::fs::remove_file(&events).unwrap();
    std::fs::copy(
        root().join("data/baselines/straight.events.csv"),
        dir.join("elsewhere.csv"),
    )
    .unwrap();
    std::os::unix::fs::symlink(dir.join("elsewhere.csv"), &events).unwrap();
    let (code, err) = common::run_within(&mut check, std::time::Duration::from_secs(20));
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("straight.events.csv") && err.contains("a symbolic link"),
        "{err}"
    );
}

#[cfg(unix)]
#[test]
fn bless_through_a_linked_baselines_directory_writes_the_real_one() {
    let dir = temp_dir("bless-link");
    let real = scratch_baselines(&dir);
    let events = real.join("straight.events.csv");
    let blessed = std::fs::read(&events).unwrap();
    std::fs::write(&events, "index,time_s,kind,agent_1,agent_2\n").unwrap();
    let link = dir.join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = xtask()
        .args(["compare", shots().join("straight.toml").to_str().unwrap()])
        .args(["--quick", "--no-scaling", "--physics", "none", "--bless"])
        .arg("--baselines")
        .arg(&link)
        .arg("--out")
        .arg(dir.join("r"))
        .output()
        .unwrap();
    assert_exit(&out, 0, &[], "bless through a link");
    let meta = std::fs::symlink_metadata(&link).unwrap();
    assert!(
        meta.file_type().is_symlink(),
        "the link was replaced: {meta:?}"
    );
    assert_eq!(
        std::fs::read(&events).unwrap(),
        blessed,
        "the real file unchanged"
    );
    assert_eq!(
        std::fs::read(link.join("straight.events.csv")).unwrap(),
        blessed
    );
    assert!(
        hidden_entries(&dir).is_empty(),
        "{:?}",
        hidden_entries(&dir)
    );
}

/// A process id no process has: a child that has exited and been reaped.
fn dead_pid() -> u32 {
    let mut c = Command::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

#[test]
fn killed_runs_leftovers_are_cleaned_and_live_ones_kept() {
    let dir = temp_dir("leftovers");
    let stale = dir.join(format!(".compare-old.partial-{}", dead_pid()));
    let live = dir.join(format!(".compare-live.partial-{}", std::process::id()));
    for d in [&stale, &live] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(d.join("summary.csv"), "x").unwrap();
    }
    let out = run(&[
        "stress",
        "--shots",
        "2",
        "--out",
        dir.to_str().unwrap(),
        "--run-name",
        "s",
    ]);
    assert_exit(&out, 0, &["removed 1 staging directory"], "stress");
    assert!(!stale.exists() && live.exists());
}

#[test]
fn two_shots_of_one_name_are_refused_and_one_file_twice_runs_once() {
    let dir = temp_dir("stems");
    let (a, b) = (dir.join("a"), dir.join("b"));
    for d in [&a, &b] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::copy(shots().join("cut.toml"), d.join("cut.toml")).unwrap();
    }
    let reports = dir.join("reports");
    let out = xtask()
        .args([
            "compare",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--quick",
            "--out",
        ])
        .arg(&reports)
        .output()
        .unwrap();
    assert_exit(
        &out,
        2,
        &["cut.toml", "shot name \"cut\" is also"],
        "same stem",
    );
    let cut = a.join("cut.toml");
    let out = xtask()
        .args([
            "compare",
            cut.to_str().unwrap(),
            cut.to_str().unwrap(),
            "--quick",
        ])
        .args(["--no-scaling", "--run-name", "twice", "--out"])
        .arg(&reports)
        .output()
        .unwrap();
    assert_exit(&out, 0, &[], "one file twice");
    let summary = std::fs::read_to_string(reports.join("twice/summary.csv")).unwrap();
    assert_eq!(
        summary
            .lines()
            .filter(|l| l.starts_with("cut,event"))
            .count(),
        1
    );
}

#[test]
fn parallel_runs_with_default_names_all_land() {
    let dir = temp_dir("parallel");
    let children: Vec<_> = (0..3)
        .map(|_| {
            xtask()
                .args(["stress", "--shots", "2", "--out", dir.to_str().unwrap()])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        let out = c.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    }
    let runs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(runs.len(), 3, "{runs:?}");
    assert!(runs.iter().all(|r| r.starts_with("stress-")), "{runs:?}");
}

#[test]
fn small_ones() {
    let dir = temp_dir("small");
    let out_dir = dir.to_str().unwrap();
    // stress --seed u64::MAX does not wrap to 0.
    let out = run(&[
        "stress",
        "--seed",
        "18446744073709551615",
        "--shots",
        "2",
        "--out",
        out_dir,
    ]);
    assert_exit(&out, 2, &["--seed", "never wrap"], "seed");
    let out = xtask()
        .args([
            "stress",
            "--seed",
            "18446744073709551615",
            "--shots",
            "1",
            "--out",
            out_dir,
        ])
        .args(["--run-name", "last"])
        .output()
        .unwrap();
    assert_exit(&out, 0, &[], "the last seed");
    let csv = std::fs::read_to_string(dir.join("last/stress/shots.csv")).unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .starts_with("18446744073709551615,"),
        "{csv}"
    );
    // bench-peers with a --python that does not work.
    let out = run(&["bench-peers", "--python", "/nonexistent", "--out", out_dir]);
    assert_exit(&out, 2, &["--python = /nonexistent"], "python");
    // roots: NaN coefficients, an empty cases file.
    let cases = std::fs::read_to_string(root().join("data/roots/cases.csv")).unwrap();
    let header = cases.lines().next().unwrap();
    let first = cases.lines().nth(1).unwrap();
    let c0 = header.split(',').position(|c| c == "c0").unwrap();
    let mut fields: Vec<&str> = first.split(',').collect();
    fields[c0] = "nan";
    let nan = dir.join("nan.csv");
    std::fs::write(&nan, format!("{header}\n{}\n", fields.join(","))).unwrap();
    let empty = dir.join("empty.csv");
    std::fs::write(&empty, format!("{header}\n")).unwrap();
    for (f, says) in [(&nan, "c0 = \"nan\""), (&empty, "no cases")] {
        let out = run(&["roots", "--cases", f.to_str().unwrap(), "--out", out_dir]);
        assert_exit(&out, 2, &[says], "roots cases");
    }
    // Run names with a newline, a separator or a leading dot.
    for name in ["a\nb", "a/b", ".hidden", ""] {
        let out = run(&[
            "stress",
            "--shots",
            "1",
            "--out",
            out_dir,
            "--run-name",
            name,
        ]);
        assert_exit(&out, 2, &["--run-name"], &format!("{name:?}"));
    }
    // Numbers in messages are short.
    let huge = dir.join("huge.toml");
    std::fs::write(
        &huge,
        "description = \"x\"\ntable = \"seven_foot\"\n[params]\nmu_r = 1e300\n[[balls]]\n\
         id = \"cue\"\nr = [1.5, 0.4953]\nv = [1.0, 0.0]\n",
    )
    .unwrap();
    let out = run(&["simulate", huge.to_str().unwrap()]);
    assert_exit(&out, 2, &["params.mu_r = 1e300", "got 1e300"], "huge");
    assert!(texts(&out).1.len() < 250, "{}", texts(&out).1);
    let out = run(&[
        "simulate", "x.toml", "--engine", "discrete", "--dt", "1e-300",
    ]);
    assert_exit(&out, 2, &["--dt = 1e-300"], "dt");
    assert!(texts(&out).1.len() < 200, "{}", texts(&out).1);
}

#[test]
fn data_and_reports_come_from_the_workspace_of_the_current_directory() {
    // A workspace of one shot: Cargo.toml and data/shots/.
    let ws = temp_dir("workspace");
    std::fs::create_dir_all(ws.join("data/shots")).unwrap();
    std::fs::write(ws.join("Cargo.toml"), "[workspace]\n").unwrap();
    std::fs::copy(shots().join("bank.toml"), ws.join("data/shots/bank.toml")).unwrap();
    std::fs::create_dir_all(ws.join("deeper/still")).unwrap();
    let run = |cwd: &Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xtask"))
            .args(args)
            .current_dir(cwd)
            .output()
            .unwrap()
    };
    // From a subdirectory: that workspace's default shots and reports/.
    let out = run(
        &ws.join("deeper/still"),
        &[
            "compare",
            "--quick",
            "--no-scaling",
            "--physics",
            "none",
            "--run-name",
            "here",
        ],
    );
    assert_exit(&out, 0, &[], "compare in a workspace");
    let summary = std::fs::read_to_string(ws.join("reports/here/summary.csv")).unwrap();
    assert!(
        summary.lines().skip(1).all(|l| l.starts_with("bank,")),
        "{summary}"
    );
    let out = run(
        &ws,
        &[
            "render",
            "bank",
            "--fps",
            "5",
            "--width",
            "320",
            "--run-name",
            "b",
        ],
    );
    assert_exit(&out, 0, &[], "render a default shot by name");
    assert!(ws.join("reports/b/bank.gif").is_file());
    // Outside any workspace (a user's own repository): the installed harness's default shots,
    // and reports/ where the user stands.
    let outside = temp_dir("outside");
    let out = run(
        &outside,
        &["simulate", shots().join("cut.toml").to_str().unwrap()],
    );
    assert_exit(&out, 0, &[], "simulate outside");
    let out = run(
        &outside,
        &[
            "compare",
            "--quick",
            "--no-scaling",
            "--no-outcomes",
            "--physics",
            "none",
            "--run-name",
            "o",
        ],
    );
    assert_exit(&out, 0, &[], "compare outside");
    let summary = std::fs::read_to_string(outside.join("reports/o/summary.csv")).unwrap();
    assert!(
        summary.lines().any(|l| l.starts_with("break_9ball,")),
        "{summary}"
    );
    let out = run(&outside, &["render", "nope"]);
    assert_exit(&out, 2, &["no such shot file"], "render outside");
}
