//! Nothing a program says is taken on trust (issue 33): exec sessions always end with every
//! process they started, however the program behaves; its output is bounded; each answer is
//! matched to its request by id and checked for consistency before it counts; and what the
//! program wrote is escaped before it reaches an error line. Each case is a reproduction
//! command of the issue, run through the command line, or the same program through the library.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Output, Stdio};
use std::time::{Duration, Instant};

use common::{assert_names, root, shots, temp_dir, texts, xtask};
use pool_sim::Engine;

/// Live processes whose command line contains `marker`, this test's own process excluded (a
/// zombie's command line is empty: killed and not yet reaped does not count).
fn processes_with(marker: &str) -> usize {
    let me = std::process::id().to_string();
    let mut live = 0;
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == me {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline)
            .replace('\0', " ")
            .contains(marker)
        {
            live += 1;
        }
    }
    live
}

/// Waits up to 3 s for the processes with `marker` to be gone (a kill is asynchronous).
fn settle(marker: &str) -> usize {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let n = processes_with(marker);
        if n == 0 || Instant::now() > deadline {
            return n;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn run_timed(args: &[&str]) -> (Output, Duration) {
    let t = Instant::now();
    let out = xtask().args(args).output().unwrap();
    (out, t.elapsed())
}

#[test]
fn a_child_holding_the_output_ends_at_the_timeout_and_survives_nothing() {
    // The issue's command: `sh` exits at once, the backgrounded `sleep` holds stdout.
    let marker = "sleep 306.0331";
    let before = processes_with(marker);
    let engine = format!("exec:timeout=3:({marker} &); exit 0");
    let (out, took) = run_timed(&["simulate", "data/shots/cut.toml", "--engine", &engine]);
    assert_names(&out, 1, &["timeout of 3 s", "without answering"], "hang");
    assert!(took < Duration::from_secs(3 + 5), "took {took:?}");
    assert_eq!(settle(marker), before, "a sleep survived the run");
}

#[test]
fn a_child_left_running_after_valid_answers_is_killed_and_reaped() {
    let marker = "sleep 307.0331";
    let engine =
        format!("exec:timeout=20:{marker} >/dev/null 2>&1 & python3 benches/peers/ideal_engine.py");
    let before = processes_with(marker);
    let (out, _) = run_timed(&[
        "simulate",
        "data/shots/ideal_many.toml",
        "--engine",
        &engine,
    ]);
    assert_names(&out, 0, &[], "valid answers, leftover child");
    assert_eq!(settle(marker), before, "the leftover sleep survived");

    // The same through the library, a batch of sessions (one restarted after a failure): every
    // session ends with its group.
    let marker = "sleep 308.0331";
    let setup = pool_shots::load(&shots().join("ideal_many.toml")).unwrap();
    let e = pool_exec::ExecEngine::new(
        &format!(
            "{marker} >/dev/null 2>&1 & cd {} && python3 benches/peers/ideal_engine.py",
            root().display()
        ),
        20.0,
    )
    .unwrap();
    let before = processes_with(marker);
    let got = e.try_run_all(&[setup.clone(), setup.clone(), setup]);
    assert!(got.iter().all(Result::is_ok), "{:?}", got[0].as_ref().err());
    // This test process adopts no orphans: the killed sleeps go to PID 1 (running ones would be
    // counted).
    assert_eq!(settle(marker), before, "a sleep of the batch survived");
}

/// Peak resident memory (kB) of `xtask args`, with its output.
fn peak_kb(args: &[&str]) -> (Output, i64, Duration) {
    let t = Instant::now();
    // Reaped by wait4 below, which gives the peak memory std's wait does not.
    #[allow(clippy::zombie_processes)]
    let child = xtask()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The pipes are small here (one line each): reading after the exit cannot block.
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: a zeroed rusage is valid for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on our own child.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let took = t.elapsed();
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    use std::io::Read;
    let (mut o, mut e) = (child.stdout.unwrap(), child.stderr.unwrap());
    o.read_to_end(&mut stdout).unwrap();
    e.read_to_end(&mut stderr).unwrap();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    use std::os::unix::process::ExitStatusExt;
    let out = Output {
        status: std::process::ExitStatus::from_raw(code << 8),
        stdout,
        stderr,
    };
    (out, usage.ru_maxrss, took)
}

#[test]
fn junk_output_is_bounded_and_fails_its_shot() {
    // `yes` writes junk forever and never reads: the first line fails the shot at once.
    let (out, kb, took) = peak_kb(&[
        "simulate",
        "data/shots/cut.toml",
        "--engine",
        "exec:timeout=5:yes",
    ]);
    assert_names(
        &out,
        1,
        &["shot \"cut\": answer is not JSON", "): y"],
        "yes",
    );
    assert!(kb < 200_000, "peak {kb} kB");
    assert!(took < Duration::from_secs(5), "took {took:?}");
    eprintln!("exec:timeout=5:yes: peak {kb} kB, {took:?}");

    // Junk after a valid last answer is not ignored.
    let (out, kb, took) = peak_kb(&[
        "simulate",
        "data/shots/ideal_many.toml",
        "--engine",
        "exec:timeout=5:python3 benches/peers/ideal_engine.py; yes",
    ]);
    assert_names(
        &out,
        1,
        &["output after the last answer: \"y\""],
        "answer then yes",
    );
    assert!(kb < 200_000, "peak {kb} kB");
    eprintln!("answer then yes: peak {kb} kB, {took:?}");

    // Blank lines forever end the session too, before the timeout.
    let (out, _, took) = peak_kb(&[
        "simulate",
        "data/shots/cut.toml",
        "--engine",
        "exec:timeout=30:yes ''",
    ]);
    assert_names(&out, 1, &["more than 1024 blank lines in a row"], "yes ''");
    assert!(took < Duration::from_secs(30), "took {took:?}");
}

/// The example engine's answers to `batch` through `| python3 NAME`, a filter of its lines
/// whose loop is `body` (over `lines`), written to `dir`.
fn filtered(
    dir: &Path,
    name: &str,
    body: &str,
    batch: &[pool_sim::Setup],
) -> (
    PathBuf,
    Vec<Result<pool_sim::Outcome, pool_sim::EngineError>>,
) {
    let filter = dir.join(name);
    std::fs::write(
        &filter,
        format!("import json, sys\nlines = sys.stdin\n{body}\n"),
    )
    .unwrap();
    let ideal = root().join("benches/peers/ideal_engine.py");
    let command = format!("python3 {} | python3 {}", ideal.display(), filter.display());
    let got = pool_exec::ExecEngine::new(&command, 30.0)
        .unwrap()
        .try_run_all(batch);
    (filter, got)
}

/// The message of a failed answer.
fn failure(r: &Result<pool_sim::Outcome, pool_sim::EngineError>) -> String {
    r.as_ref()
        .err()
        .map(|e| e.message.clone())
        .unwrap_or_default()
}

#[test]
fn one_extra_or_missing_line_costs_its_own_shot_only() {
    let dir = temp_dir("hostile-exec-lines");
    let setup = pool_shots::load(&shots().join("ideal_many.toml")).unwrap();
    let batch: Vec<_> = (0..5).map(|_| setup.clone()).collect();
    let (_, reference) = filtered(
        &dir,
        "same.py",
        "for l in lines:\n    print(l, end='')",
        &batch,
    );
    assert!(reference.iter().all(Result::is_ok));
    let events = |r: &Result<pool_sim::Outcome, _>| r.as_ref().map(|o| o.events.clone()).ok();

    // A repeated first line: the first shot fails (answered twice), the others are right.
    let (dup, got) = filtered(
        &dir,
        "dup_first.py",
        "for k, l in enumerate(lines):\n    print(l, end='', flush=True)\n    if k == 0:\n        print(l, end='', flush=True)",
        &batch,
    );
    assert!(
        failure(&got[0]).contains("id = 0: a second answer line"),
        "{}",
        failure(&got[0])
    );
    for (g, r) in got.iter().zip(&reference).skip(1) {
        assert_eq!(events(g), events(r));
    }

    // A dropped line (the second): that shot fails, the rest are right.
    let (_, got) = filtered(
        &dir,
        "drop_second.py",
        "for k, l in enumerate(lines):\n    if k != 1:\n        print(l, end='', flush=True)",
        &batch,
    );
    assert!(got[0].is_ok());
    assert!(
        failure(&got[1]).contains("id = 1: no answer line"),
        "{}",
        failure(&got[1])
    );
    for (g, r) in got.iter().zip(&reference).skip(2) {
        assert_eq!(events(g), events(r));
    }

    // Without ids an extra line cannot be placed: every shot of the session fails.
    let (_, got) = filtered(
        &dir,
        "strip_ids.py",
        "for k, l in enumerate(lines):\n    a = json.loads(l)\n    a.pop('id')\n    print(json.dumps(a), flush=True)\n    if k == 0:\n        print(json.dumps(a), flush=True)",
        &batch,
    );
    for g in &got {
        assert!(failure(g).contains("carry no `id`"), "{}", failure(g));
    }

    // The issue's command: `compare` with the repeating filter fails the first run only and says
    // which request was answered twice.
    let engine = format!(
        "exec:python3 benches/peers/ideal_engine.py | python3 {}",
        dup.display()
    );
    let reports = dir.join("reports");
    let out = xtask()
        .args([
            "compare",
            "data/shots/ideal_many.toml",
            "--engines",
            &engine,
        ])
        .args([
            "--dt",
            "1e-2",
            "--schemes",
            "exact",
            "--no-scaling",
            "--physics",
            "none",
        ])
        .args(["--no-outcomes", "--run-name", "dup"])
        .arg("--out")
        .arg(&reports)
        .output()
        .unwrap();
    assert_names(&out, 1, &["a second answer line"], "compare | dup_first.py");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A valid answer for the straight shot (`cue` and `1`, both at rest at the end).
const ANSWER: &str = r#"{"events": [{"time": 0.5, "kind": "ball_ball", "agents": ["cue", "1"]}, {"time": 1.1, "kind": "ball_linear_cushion", "agents": ["1", "rail_r"]}, {"time": 2.0, "kind": "rolling_stationary", "agents": ["1"]}], "final_states": [{"id": "1", "r": [1.5, 0.49], "v": [0, 0], "w": [0, 0, 0], "state": "stationary"}, {"id": "cue", "r": [1.0, 0.49], "v": [0, 0, 0], "w": [0, 0, 0], "state": "stationary"}], "end_time": 2.5, "termination": "at_rest"}"#;

/// `simulate SHOT --engine` a program that answers every request with `answer`.
fn simulate_answer(dir: &Path, shot: &Path, name: &str, answer: &str) -> Output {
    let f = dir.join(format!("{name}.json"));
    std::fs::write(&f, format!("{answer}\n")).unwrap();
    let engine = format!(
        "exec:timeout=10:while read -r l; do cat '{}'; done",
        f.display()
    );
    xtask()
        .arg("simulate")
        .arg(shot)
        .args(["--engine", &engine])
        .output()
        .unwrap()
}

#[test]
fn inconsistent_answers_are_refused_naming_the_field() {
    let dir = temp_dir("hostile-exec-consistency");
    let straight = shots().join("straight.toml");
    let text = std::fs::read_to_string(&straight).unwrap();
    let timed = dir.join("straight_t1.toml");
    std::fs::write(
        &timed,
        text.replace(
            "table = \"seven_foot\"\n",
            "table = \"seven_foot\"\nt_end = 1.0\n",
        ),
    )
    .unwrap();
    let ok = simulate_answer(&dir, &straight, "valid", ANSWER);
    assert_names(&ok, 0, &[], "the valid answer");

    let one =
        r#"{"id": "1", "r": [1.5, 0.49], "v": [0, 0], "w": [0, 0, 0], "state": "stationary"}"#;
    let with_one = |new: &str| ANSWER.replace(one, new);
    let rb_pocket = r#"{"time": 2.0, "kind": "rolling_stationary", "agents": ["1"]}, {"time": 2.1, "kind": "ball_pocket", "agents": ["1", "rb"]}"#;
    let lb_pocket = rb_pocket.replace("\"rb\"", "\"lb\"");
    let last = r#"{"time": 2.0, "kind": "rolling_stationary", "agents": ["1"]}"#;
    let cases: Vec<(&str, &Path, String, &str)> = vec![
        (
            "event after t_end",
            &timed,
            ANSWER.replace("\"end_time\": 2.5", "\"end_time\": 2.4"),
            "events[1].time = 1.1: after the shot's t_end = 1 s",
        ),
        (
            "stationary at 5 m/s",
            &straight,
            with_one(&one.replace("\"v\": [0, 0]", "\"v\": [5, 0]")),
            "final_states[\"1\"].state = stationary: moving at 5 m/s",
        ),
        (
            "rolling at 5 m/s with at_rest",
            &straight,
            with_one(
                &one.replace("\"v\": [0, 0]", "\"v\": [5, 0]")
                    .replace("stationary", "rolling"),
            ),
            "final_states[\"1\"].v = 5 m/s: a moving ball with termination = at_rest",
        ),
        (
            "pocketed mid-table",
            &straight,
            with_one(&one.replace("stationary", "pocketed")),
            "final_states[\"1\"].state = pocketed: at r = (1.5, 0.49) m, on the cloth",
        ),
        (
            "pocket event, final state on the cloth",
            &straight,
            ANSWER.replace(last, rb_pocket),
            "final_states[\"1\"].state = stationary: events[3] pockets the ball in \"rb\"",
        ),
        (
            "pocket event at lb, ball in rb",
            &straight,
            ANSWER.replace(last, &lb_pocket).replace(
                one,
                r#"{"id": "1", "r": [1.9812, 0.0], "v": [0, 0], "w": [0, 0, 0], "state": "pocketed"}"#,
            ),
            "final_states[\"1\"].r = (1.9812, 0): in pocket \"rb\", but events[3] pockets the ball in \"lb\"",
        ),
    ];
    for (k, (what, shot, answer, says)) in cases.iter().enumerate() {
        assert_ne!(answer, ANSWER, "{what}: the edit applies");
        let out = simulate_answer(&dir, shot, &format!("case{k}"), answer);
        assert_names(&out, 1, &[says], what);
    }
    // The pocketed ball at its pocket passes.
    let fine = ANSWER.replace(last, rb_pocket).replace(
        one,
        r#"{"id": "1", "r": [1.9812, 0.0], "v": [0, 0], "w": [0, 0, 0], "state": "pocketed"}"#,
    );
    assert_names(
        &simulate_answer(&dir, &straight, "fine", &fine),
        0,
        &[],
        "pocketed in its pocket",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_programs_raw_bytes_are_escaped_in_error_lines() {
    let dir = temp_dir("hostile-exec-bytes");
    let script = dir.join("raw.sh");
    std::fs::write(
        &script,
        "printf 'err\\033[2J\\007\\000\\377 \\342\\200\\256end\\n' >&2\nprintf 'out\\033[2J\\007\\377\\n'\n",
    )
    .unwrap();
    let engine = format!("exec:timeout=10:sh '{}'", script.display());
    let out = xtask()
        .args(["simulate", "data/shots/straight.toml", "--engine", &engine])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    for raw in [0x1bu8, 0x07, 0x00, 0xff] {
        assert!(
            !out.stderr.contains(&raw),
            "raw byte {raw:#x} in {:?}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    assert!(
        !String::from_utf8_lossy(&out.stderr).contains('\u{202e}'),
        "a direction override is shown raw"
    );
    let (_, stderr) = texts(&out);
    for shown in [
        "out\\u{1b}[2J\\u{7}\\xff",
        "err\\u{1b}[2J\\u{7}\\u{0}\\xff \\u{202e}end",
    ] {
        assert!(stderr.contains(shown), "{shown:?} in {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_pooltool_format_with_a_program_is_refused_before_it_runs() {
    let dir = temp_dir("hostile-exec-format");
    let started = dir.join("started");
    for engine in [
        format!("exec:touch '{}'", started.display()),
        "pooltool".to_string(),
    ] {
        let t = Instant::now();
        let out = xtask()
            .args(["simulate", "data/shots/cut.toml", "--format", "pooltool"])
            .args(["--engine", &engine])
            .output()
            .unwrap();
        assert_names(&out, 2, &["--format = pooltool", "no ball states"], &engine);
        assert_eq!(texts(&out).1.trim().lines().count(), 1);
        assert!(t.elapsed() < Duration::from_secs(5));
    }
    assert!(!started.exists(), "the program was started");
    let _ = std::fs::remove_dir_all(&dir);
}
