//! Every process ends with xtask (issue 41): a program runs in a process group of its own, so a
//! signal to xtask never reached it. Now SIGINT (a terminal's Ctrl-C, sent to the whole
//! foreground group), SIGTERM and SIGHUP kill and reap every program's group, and each program
//! has a parent-death signal. Each case counts the processes of its programs (marked by a
//! unique `sleep` argument) before and after the signal, for `simulate`, `compare` and
//! `outcomes`, with programs that start children (`sleep <marker> &`, then a program).

#![cfg(target_os = "linux")]

mod common;

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use common::{temp_dir, xtask};

/// The live processes (zombies excluded: killed and not yet reaped does not count) whose
/// command line holds `marker`, this test's own process excluded: `pid ppid pgid args`.
fn processes(marker: &str) -> Vec<String> {
    let me = std::process::id().to_string();
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.bytes().all(|b| b.is_ascii_digit()) || name == me {
            continue;
        }
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let args = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if !args.contains(marker) {
            continue;
        }
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, r)| r.split_whitespace().collect());
        if fields.first() == Some(&"Z") || fields.is_empty() {
            continue;
        }
        out.push(format!(
            "{name} {} {} {}",
            fields[1],
            fields[2],
            args.trim_end()
        ));
    }
    out
}

/// The `sleep <marker>...` processes among them (the programs' children).
fn sleeps(marker: &str) -> usize {
    processes(marker)
        .iter()
        .filter(|l| l.split(' ').nth(3) == Some("sleep"))
        .count()
}

/// Waits up to `secs` for `ok`.
fn wait_for(secs: u64, mut ok: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(secs);
    loop {
        if ok() {
            return true;
        }
        if Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(25));
    }
}

/// A program that starts a child (`sleep <marker>1`), then answers every request slowly
/// (0.3 s, "unsupported", its arguments holding `<marker>3`), so that a study keeps its
/// sessions between batches.
fn slow_program(dir: &Path, marker: &str) -> String {
    let path = dir.join(format!("prog-{marker}.sh"));
    std::fs::write(
        &path,
        format!(
            "sleep {marker}1 &\nexec python3 -u -c '\nimport json, sys, time\nfor line in \
             sys.stdin:\n    time.sleep(0.3)\n    r = json.loads(line)\n    print(json.dumps(\
             {{\"id\": r.get(\"id\"), \"unsupported\": \"slow test program\"}}), flush=True)\n' \
             {marker}3\n"
        ),
    )
    .unwrap();
    format!("exec:sh {}", path.display())
}

/// Starts `xtask <command>` in a process group of its own (as a shell runs a foreground
/// job), its program marked by `marker`.
fn start(command: &str, marker: &str, dir: &Path) -> Child {
    let out = dir.join(format!("out-{marker}"));
    let hang = format!("exec:timeout=60:sleep {marker}1 & exec sleep {marker}2");
    let mut c = xtask();
    match command {
        "simulate" => c.args(["simulate", "data/shots/cut.toml", "--engine", &hang]),
        "compare" => c
            .args(["compare", "data/shots/cut.toml", "--quick", "--no-scaling"])
            .args(["--physics", "none", "--no-outcomes", "--dt", "1e-2"])
            .args(["--schemes", "end_of_step", "--engines", &hang])
            .arg("--out")
            .arg(&out),
        _ => c
            .args(["outcomes", "--schemes", "none", "--engines"])
            .arg(slow_program(dir, marker))
            .args([
                "--outcome-families",
                "cut",
                "--outcome-tables",
                "seven_foot",
            ])
            .args(["--outcome-shots", "40", "--outcome-budget", "none"])
            .args(["--chaos-shots", "0", "--jobs", "2", "--replays", "0"])
            .arg("--out")
            .arg(&out),
    };
    // As a terminal starts a foreground job: these signals at their default. A test run from
    // a script's background job inherits SIGINT ignored, and xtask rightly keeps an ignored
    // signal ignored (`nohup`), so the case would test nothing.
    // SAFETY: signal(2) between fork and exec, async-signal-safe.
    unsafe {
        c.pre_exec(|| {
            for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
                libc::signal(sig, libc::SIG_DFL);
            }
            Ok(())
        });
    }
    c.stdout(Stdio::null())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .unwrap()
}

/// One case: `command` running its programs, then `signal`; what `ps` showed before and after,
/// how xtask ended and how long it took.
fn case(command: &str, signal: i32, marker: &str, dir: &Path) -> String {
    let mut child = start(command, marker, dir);
    let pid = child.id() as i32;
    assert!(
        wait_for(30, || sleeps(marker) >= 1),
        "{command}: the program never started"
    );
    let before = processes(marker);
    let t = Instant::now();
    // SAFETY: kill(2) of the child's group (SIGINT, as a terminal sends it) or of the child.
    unsafe {
        if signal == libc::SIGINT {
            libc::kill(-pid, signal);
        } else {
            libc::kill(pid, signal);
        }
    }
    let status = child.wait().unwrap();
    let took = t.elapsed();
    let gone = wait_for(3, || processes(marker).is_empty());
    let after = processes(marker);
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(
        gone,
        "{command}, signal {signal}: still running after xtask ended: {after:#?}\nbefore: \
         {before:#?}\nstderr: {stderr}"
    );
    assert_eq!(
        status.signal(),
        Some(signal),
        "{command}: xtask should end by the signal it got: {status:?}, {stderr}"
    );
    assert!(took < Duration::from_secs(5), "{command}: took {took:?}");
    assert!(
        stderr.contains("interrupted by SIG"),
        "{command}, signal {signal}: {stderr}"
    );
    format!(
        "{command}, signal {signal}: xtask ended by it in {:.3} s; before: {} processes \
         {before:?}; after: {} {after:?}; stderr: {}",
        took.as_secs_f64(),
        before.len(),
        after.len(),
        stderr.trim().lines().last().unwrap_or("")
    )
}

#[test]
fn every_program_and_its_children_end_with_xtask_on_each_signal() {
    let dir = temp_dir("signals");
    let signals = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];
    let mut threads = Vec::new();
    for (c, command) in ["simulate", "compare", "outcomes"].into_iter().enumerate() {
        for (s, signal) in signals.into_iter().enumerate() {
            let marker = format!("4321.{}{}{}", std::process::id() % 1000, c, s);
            let dir = dir.clone();
            threads.push(std::thread::spawn(move || {
                case(command, signal, &marker, &dir)
            }));
        }
    }
    for t in threads {
        eprintln!("{}", t.join().unwrap());
    }
}

#[test]
fn a_programs_children_end_when_xtask_is_killed() {
    let dir = temp_dir("signals-kill");
    let marker = format!("4322.{}", std::process::id() % 100_000);
    // `sh -c 'sleep <marker>1 & exec sleep <marker>2'`: the program, and a child of its own.
    let mut child = start("simulate", &marker, &dir);
    assert!(
        wait_for(30, || sleeps(&marker) >= 2),
        "the program never started: {:?}",
        processes(&marker)
    );
    let before = processes(&marker);
    // SAFETY: kill(2) of our own child: SIGKILL, which nothing can catch.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGKILL);
    }
    child.wait().unwrap();
    let t = Instant::now();
    let gone = wait_for(2, || sleeps(&marker) == 0);
    let after = processes(&marker);
    for p in &after {
        let pid: i32 = p.split(' ').next().unwrap().parse().unwrap();
        // SAFETY: kill(2) of a test program's leftover, so that a failure leaves nothing.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
    assert!(
        gone,
        "still running 2 s after xtask was killed: {after:#?}\nbefore: {before:#?}"
    );
    eprintln!(
        "SIGKILL: {} processes before {before:?}; none left after {:.3} s",
        before.len(),
        t.elapsed().as_secs_f64()
    );
}
