//! Kept sessions (`ExecEngine::with_kept_sessions`): one program process answers many batches,
//! answers stay matched to their own requests (across batches and across threads), a session
//! that stops is replaced within the batch, and nothing the program started outlives the engine.
//! The programs are small Python 3 scripts (skipped, with a note, where there is no `python3`).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use pool_exec::ExecEngine;
use pool_sim::{Engine, EngineError, Outcome, Setup};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn have_python() -> bool {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("python3 not found: kept sessions are not tested here");
    }
    ok
}

/// A fresh directory of this test's own.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("kept-sessions-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `data/shots/ideal_many.toml` (16 ideal balls, t_end 5 s) as `name`, its velocities scaled
/// by `scale` and its run cut at `t_end`: shots that differ by their name and outcome.
fn ideal(name: &str, scale: f64, t_end: f64) -> Setup {
    let mut s = pool_shots::load(&root().join("data/shots/ideal_many.toml")).unwrap();
    s.name = name.into();
    s.t_end = Some(t_end);
    for b in &mut s.balls {
        b.state.v *= scale;
    }
    s.validate().unwrap();
    s
}

/// Process ids written to `file`, one a line (a program's start each).
fn pids_in(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim().parse().unwrap())
        .collect()
}

/// Whether process `pid` is running (a zombie, killed and not yet reaped, is not).
fn alive(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state follows the command name's closing parenthesis.
    let state = stat.rsplit_once(')').map(|(_, rest)| rest.trim_start());
    !matches!(state.and_then(|s| s.chars().next()), Some('Z' | 'X') | None)
}

/// Waits up to 3 s for every one of `pids` to be gone (a kill is asynchronous); returns those
/// still running.
fn survivors(pids: &[u32]) -> Vec<u32> {
    let deadline = Instant::now() + Duration::from_secs(3);
    loop {
        let left: Vec<u32> = pids.iter().copied().filter(|p| alive(*p)).collect();
        if left.is_empty() || Instant::now() > deadline {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// An outcome without the program's own timing (which differs run to run).
fn untimed(r: &Result<Outcome, EngineError>) -> Outcome {
    let mut o = r.as_ref().expect("answered").clone();
    o.engine_s = None;
    o
}

/// A program in Python that answers each request with no events and the balls as sent
/// (`termination` time_limit at `t_end`), its process id as the operation counter `pid`, and,
/// by the shot's name: `hang*` sleeps 30 s first, `slow*` 0.05 s; after the answer `chatty*`
/// writes a line `hello`, `twice*` its answer again.
const ECHO_PY: &str = r#"import json, os, sys, time
pid = os.getpid()
for line in sys.stdin:
    if not line.strip():
        continue
    q = json.loads(line)
    name = q["shot"]
    if name.startswith("hang"):
        time.sleep(30)
    if name.startswith("slow"):
        time.sleep(0.05)
    balls = [{k: b[k] for k in ("id", "r", "v", "w", "state")} for b in q["balls"]]
    out = json.dumps({"id": q["id"], "events": [], "final_states": balls,
                      "end_time": q["t_end"], "termination": "time_limit", "ops": {"pid": pid}})
    print(out, flush=True)
    if name.startswith("chatty"):
        print("hello", flush=True)
    if name.startswith("twice"):
        print(out, flush=True)
"#;

/// The echo program (`ECHO_PY`) in `dir`, each start's process id appended to `dir/pids`.
fn echo_command(dir: &Path) -> String {
    let script = dir.join("echo.py");
    std::fs::write(&script, ECHO_PY).unwrap();
    format!(
        "echo $$ >> {}; exec python3 {}",
        dir.join("pids").display(),
        script.display()
    )
}

/// The echo program's answer is right for `setup`: the balls as sent (to the last bit or two:
/// serde_json's default float parsing may be an ulp off Python's shortest form). Returns the
/// answering process's id.
fn echoed(r: &Result<Outcome, EngineError>, setup: &Setup) -> u32 {
    let o = r.as_ref().unwrap_or_else(|e| panic!("{}: {e}", setup.name));
    let sent = setup.initial_states().0;
    assert_eq!(o.final_states.len(), sent.len(), "{}", setup.name);
    for (got, want) in o.final_states.iter().zip(&sent) {
        let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * b.abs().max(1.0);
        let pairs = [(got.r, want.r), (got.v, want.v), (got.w, want.w)];
        assert!(
            pairs.iter().all(|(a, b)| (0..3).all(|i| close(a[i], b[i])))
                && got.motion == want.motion,
            "{}: {got:?} is not {want:?}",
            setup.name
        );
    }
    u32::try_from(o.ops.get("pid")).unwrap()
}

#[test]
fn one_process_answers_every_batch_with_the_outcomes_of_one_per_batch() {
    if !have_python() {
        return;
    }
    let dir = temp_dir("one");
    let program = root().join("benches/peers/ideal_engine.py");
    let command = |pids: &str| {
        format!(
            "echo $$ >> {}; exec python3 {}",
            dir.join(pids).display(),
            program.display()
        )
    };
    let batches = [
        vec![ideal("a", 1.0, 0.5), ideal("b", 0.8, 1.0)],
        vec![ideal("c", 1.1, 0.7), ideal("d", 0.9, 0.6)],
        vec![ideal("e", 1.2, 0.4), ideal("f", 0.7, 0.9)],
    ];
    let fresh = ExecEngine::new(&command("fresh"), 30.0).unwrap();
    let kept = ExecEngine::new(&command("kept"), 30.0)
        .unwrap()
        .with_kept_sessions(true);
    for batch in &batches {
        let want: Vec<Outcome> = fresh.try_run_all(batch).iter().map(untimed).collect();
        let got: Vec<Outcome> = kept.try_run_all(batch).iter().map(untimed).collect();
        assert!(want.iter().all(|o| !o.events.is_empty()));
        assert_eq!(got, want);
        assert_eq!(kept.idle_sessions(), 1);
    }
    // Three processes for three batches without kept sessions, one with.
    assert_eq!(pids_in(&dir.join("fresh")).len(), 3);
    let pids = pids_in(&dir.join("kept"));
    assert_eq!(pids.len(), 1, "{pids:?}");
    assert!(alive(pids[0]));
    drop(kept);
    assert_eq!(survivors(&pids), [0u32; 0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dropping_the_engine_ends_its_programs_and_what_they_started() {
    if !have_python() {
        return;
    }
    let dir = temp_dir("drop");
    let script = dir.join("echo.py");
    std::fs::write(&script, ECHO_PY).unwrap();
    // The backgrounded sleep holds the program's stdout and stderr.
    let engine = ExecEngine::new(
        &format!(
            "sleep 300 & echo $! >> {sleeps}; echo $$ >> {pids}; exec python3 {script}",
            sleeps = dir.join("sleeps").display(),
            pids = dir.join("pids").display(),
            script = script.display()
        ),
        10.0,
    )
    .unwrap()
    .with_kept_sessions(true);
    let setups = [ideal("one", 1.0, 1.0), ideal("two", 0.5, 1.0)];
    for _ in 0..2 {
        let out = engine.try_run_all(&setups);
        for (r, s) in out.iter().zip(&setups) {
            echoed(r, s);
        }
    }
    let pids = pids_in(&dir.join("pids"));
    let sleeps = pids_in(&dir.join("sleeps"));
    assert_eq!((pids.len(), sleeps.len()), (1, 1));
    assert!(alive(pids[0]) && alive(sleeps[0]), "idle between batches");
    // A clone shares the session: dropping one clone ends nothing.
    let clone = engine.clone();
    drop(engine);
    assert!(alive(pids[0]) && alive(sleeps[0]));
    assert_eq!(clone.idle_sessions(), 1);
    let t = Instant::now();
    drop(clone);
    // The program exits when its stdin closes (no waiting out the 5 s grace), and the sleep
    // is killed with its group.
    assert!(t.elapsed() < Duration::from_secs(4), "{:?}", t.elapsed());
    assert_eq!(
        survivors(&pids),
        [0u32; 0],
        "the program outlived its engine"
    );
    assert_eq!(
        survivors(&sleeps),
        [0u32; 0],
        "its sleep outlived the engine"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_program_that_ignores_the_end_of_stdin_is_killed_after_the_grace() {
    if !have_python() {
        return;
    }
    let dir = temp_dir("linger");
    echo_command(&dir);
    // `sh` runs the program, then sleeps when it has exited: the group outlasts stdin.
    let command = format!(
        "echo $$ >> {}; python3 {}; sleep 300",
        dir.join("pids").display(),
        dir.join("echo.py").display()
    );
    let engine = ExecEngine::new(&command, 10.0)
        .unwrap()
        .with_kept_sessions(true);
    let setups = [ideal("one", 1.0, 1.0)];
    let python = echoed(&engine.try_run_all(&setups)[0], &setups[0]);
    let t = Instant::now();
    drop(engine);
    let took = t.elapsed();
    assert!(
        (Duration::from_secs(4)..Duration::from_secs(8)).contains(&took),
        "{took:?}"
    );
    let sh = pids_in(&dir.join("pids"));
    assert_eq!(sh.len(), 1);
    assert_eq!(survivors(&[sh[0], python]), [0u32; 0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_shot_that_times_out_costs_that_shot_and_the_next_batch_goes_on() {
    if !have_python() {
        return;
    }
    let dir = temp_dir("timeout");
    let engine = ExecEngine::new(&echo_command(&dir), 1.0)
        .unwrap()
        .with_kept_sessions(true);
    let first = [
        ideal("a", 1.0, 1.0),
        ideal("hang", 0.9, 1.0),
        ideal("c", 0.8, 1.0),
        ideal("d", 0.7, 1.0),
    ];
    let out = engine.try_run_all(&first);
    assert_eq!(out.len(), 4);
    let before = echoed(&out[0], &first[0]);
    let e = out[1].as_ref().unwrap_err();
    assert!(
        e.message.contains("no answer within the timeout of 1 s"),
        "{e}"
    );
    assert!(e.message.contains("\"hang\""), "{e}");
    // A new session for the rest of the batch, kept for the next one.
    let after = echoed(&out[2], &first[2]);
    assert_eq!(echoed(&out[3], &first[3]), after);
    assert_ne!(before, after);
    assert!(!alive(before), "the hung program was killed");
    let second = [ideal("e", 1.1, 1.0), ideal("f", 1.2, 1.0)];
    let out = engine.try_run_all(&second);
    for (r, s) in out.iter().zip(&second) {
        assert_eq!(echoed(r, s), after);
    }
    assert_eq!(pids_in(&dir.join("pids")), [before, after]);
    drop(engine);
    assert_eq!(survivors(&[before, after]), [0u32; 0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clones_on_two_threads_each_get_their_own_answers() {
    if !have_python() {
        return;
    }
    let dir = temp_dir("threads");
    let engine = ExecEngine::new(&echo_command(&dir), 10.0)
        .unwrap()
        .with_kept_sessions(true);
    let answered: Vec<Vec<u32>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..2)
            .map(|t| {
                let engine = engine.clone();
                scope.spawn(move || {
                    let mut pids = Vec::new();
                    for b in 0..4 {
                        let batch: Vec<Setup> = (0..3)
                            .map(|k| {
                                let scale = 0.5 + 0.1 * f64::from(t * 12 + b * 3 + k);
                                ideal(&format!("slow_{t}_{b}_{k}"), scale, 1.0)
                            })
                            .collect();
                        let out = engine.try_run_all(&batch);
                        assert_eq!(out.len(), 3);
                        let by: Vec<u32> = (out.iter().zip(&batch))
                            .map(|(r, s)| echoed(r, s))
                            .collect();
                        // One session per batch.
                        assert!(by.iter().all(|p| *p == by[0]), "{by:?}");
                        pids.push(by[0]);
                    }
                    pids
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let started = pids_in(&dir.join("pids"));
    // At most one process per thread, each kept: 24 answers from at most 2 processes.
    assert!((1..=2).contains(&started.len()), "{started:?}");
    for pids in &answered {
        assert!(pids.iter().all(|p| started.contains(p)), "{answered:?}");
    }
    assert_eq!(engine.idle_sessions(), started.len());
    eprintln!(
        "two threads, 8 batches of 3: {} processes {started:?}",
        started.len()
    );
    drop(engine);
    assert_eq!(survivors(&started), [0u32; 0]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_line_between_batches_fails_the_next_batch_s_first_shot() {
    if !have_python() {
        return;
    }
    let dir = temp_dir("between");
    let engine = ExecEngine::new(&echo_command(&dir), 10.0)
        .unwrap()
        .with_kept_sessions(true);
    // The junk line after the last answer is not waited for: the batch is answered.
    let first = [ideal("a", 1.0, 1.0), ideal("chatty", 0.9, 1.0)];
    let out = engine.try_run_all(&first);
    let pid = echoed(&out[0], &first[0]);
    echoed(&out[1], &first[1]);
    // It is read while the next batch awaits its first request: that shot fails (its real
    // answer then comes second and is refused), the others are answered.
    let second = [ideal("b", 0.8, 1.0), ideal("twice", 0.7, 1.0)];
    let out = engine.try_run_all(&second);
    let e = out[0].as_ref().unwrap_err();
    assert!(e.message.contains("answer is not JSON"), "{e}");
    assert!(e.message.contains("hello"), "{e}");
    assert_eq!(echoed(&out[1], &second[1]), pid);
    // A second answer to the last request of a batch comes with the next batch: its id (3) is
    // an earlier batch's, not awaited (ids count on within the session: 4 and 5 now).
    let third = [ideal("c", 0.6, 1.0), ideal("d", 0.5, 1.0)];
    let out = engine.try_run_all(&third);
    let e = out[0].as_ref().unwrap_err();
    assert!(
        e.message
            .contains("id = 3: not the id of a request of this batch (expected 4)"),
        "{e}"
    );
    assert_eq!(echoed(&out[1], &third[1]), pid);
    assert_eq!(pids_in(&dir.join("pids")), [pid]);
    let _ = std::fs::remove_dir_all(&dir);
}
