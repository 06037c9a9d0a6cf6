//! Sessions with the program: started once for a list of shots, fed one request line per
//! shot, read one answer line per shot, each within the timeout; killed (with everything it
//! started) on a timeout, and waited for at the end. A program that stops answering is
//! started again for the shots after the one it stopped on.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use pool_sim::{EngineError, Outcome, Setup};

use crate::{parse_answer, request, ExecEngine};

/// Longest answer line read (bytes): a 16-ball break logs ~100 kB; beyond this the program
/// is misbehaving, and memory stays bounded.
const MAX_LINE: u64 = 64 << 20;

/// Bytes of the program's stderr kept (its end) for error messages.
const STDERR_KEEP: usize = 4096;

/// How long a program that has answered everything may take to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// What [`wait_for`] says of a program it had to kill.
const STILL_RUNNING: &str = "still running; killed";

/// Every set-up's outcome, or why not, in order: one session for all of them, and when a
/// program stops answering (it hung past the timeout, exited, or sent a line too long to
/// read), a new session for the set-ups after the one it stopped on, so that one bad shot
/// costs the batch that shot only.
pub fn sessions(engine: &ExecEngine, setups: &[Setup]) -> Vec<Result<Outcome, EngineError>> {
    let mut out: Vec<Result<Outcome, EngineError>> = Vec::with_capacity(setups.len());
    while out.len() < setups.len() {
        let got = session(engine, &setups[out.len()..]);
        if got.is_empty() {
            // Not reached (a session answers or fails at least its first set-up); a guard
            // against looping forever all the same.
            let why = "the program answered nothing".to_string();
            out.extend(
                setups[out.len()..]
                    .iter()
                    .map(|_| Err(EngineError::failed(why.clone()))),
            );
        }
        out.extend(got);
    }
    out
}

/// Runs one session: the outcome of every set-up up to and including the one the program
/// stopped answering on (all of them when it did not stop).
fn session(engine: &ExecEngine, setups: &[Setup]) -> Vec<Result<Outcome, EngineError>> {
    let fail_all = |message: String| {
        setups
            .iter()
            .map(|_| Err(EngineError::failed(message.clone())))
            .collect()
    };
    let mut child = match spawn(&engine.command) {
        Ok(c) => c,
        Err(e) => return fail_all(format!("cannot start `{}`: {e}", engine.command)),
    };
    let (Some(stdin), Some(stdout), Some(stderr)) =
        (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        kill(&mut child);
        return fail_all("the program's pipes could not be opened".into());
    };
    // The requests are written from a thread, so that a program that answers as it reads
    // never waits on us, and one that does not read cannot block us past the timeout.
    let lines: Vec<String> = setups
        .iter()
        .map(|s| request(s, engine.max_events).to_string())
        .collect();
    let writer = thread::spawn(move || write_all(stdin, &lines));
    let (tx, answers) = mpsc::channel();
    let reader = thread::spawn(move || read_lines(stdout, &tx));
    let tail = Arc::new(Mutex::new(Vec::new()));
    let collector = {
        let tail = Arc::clone(&tail);
        thread::spawn(move || keep_tail(stderr, &tail))
    };
    let stderr_tail = |tail: &Arc<Mutex<Vec<u8>>>| {
        let t = tail.lock().unwrap_or_else(|p| p.into_inner());
        let text = String::from_utf8_lossy(&t);
        let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let last = &lines[lines.len().saturating_sub(12)..];
        if last.is_empty() {
            String::new()
        } else {
            format!("\n  stderr: {}", last.join("\n  stderr: "))
        }
    };

    let mut out: Vec<Result<Outcome, EngineError>> = Vec::with_capacity(setups.len());
    let mut stopped: Option<String> = None;
    for setup in setups {
        if stopped.is_some() {
            break;
        }
        match answers.recv_timeout(engine.timeout) {
            Ok(Ok(line)) => out.push(parse_answer(&line, setup).map_err(|e| EngineError {
                message: format!("shot {:?}: {}", setup.name, e.message),
                unsupported: e.unsupported,
            })),
            Ok(Err(why)) => {
                kill(&mut child);
                stopped = Some(why);
                out.push(Err(EngineError::failed(format!(
                    "shot {:?}: {}",
                    setup.name,
                    stopped.clone().unwrap_or_default()
                ))));
            }
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut child);
                let why = format!(
                    "no answer within the timeout of {} s (shot {:?}); the program was killed",
                    engine.timeout.as_secs_f64(),
                    setup.name
                );
                out.push(Err(EngineError::failed(why.clone())));
                stopped = Some(why);
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = wait_for(&mut child);
                let why = format!(
                    "the program exited ({status}) without answering shot {:?}",
                    setup.name
                );
                out.push(Err(EngineError::failed(why.clone())));
                stopped = Some(why);
            }
        }
    }
    if stopped.is_none() {
        // Every shot answered: stdin is closed by the writer; the program should exit. One
        // that lingers past the grace is killed (its answers are complete); one that exits
        // with an error status has failed.
        let status = wait_for(&mut child);
        let fine = status.starts_with("exit status: 0") || status == STILL_RUNNING;
        if !fine {
            let why = format!("the program answered every shot but then exited ({status})");
            if out.iter().all(Result::is_ok) {
                // Answers are kept: they were complete and checked. The exit is reported as
                // the run's failure, on the last shot.
                if let Some(last) = out.last_mut() {
                    *last = Err(EngineError::failed(why));
                }
            }
        }
    }
    kill(&mut child);
    let _ = writer.join();
    let _ = reader.join();
    let _ = collector.join();
    let tail = stderr_tail(&tail);
    let prefix = format!("exec `{}`: ", engine.command);
    out.into_iter()
        .map(|r| {
            r.map_err(|e| EngineError {
                message: if e.unsupported {
                    e.message
                } else {
                    format!("{prefix}{}{tail}", e.message)
                },
                unsupported: e.unsupported,
            })
        })
        .collect()
}

/// `sh -c command` (`cmd /C` on Windows) with piped stdio, in a process group of its own so
/// that a timeout kills what it started too.
fn spawn(command: &str) -> std::io::Result<Child> {
    #[cfg(unix)]
    let mut cmd = {
        use std::os::unix::process::CommandExt;
        let mut c = Command::new("sh");
        c.arg("-c").arg(command).process_group(0);
        c
    };
    #[cfg(not(unix))]
    let mut cmd = {
        let mut c = Command::new("cmd");
        c.arg("/C").arg(command);
        c
    };
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
}

fn write_all(mut stdin: ChildStdin, lines: &[String]) {
    for line in lines {
        // A program that exits early closes the pipe: the reader reports it.
        if stdin.write_all(line.as_bytes()).is_err() || stdin.write_all(b"\n").is_err() {
            return;
        }
    }
    let _ = stdin.flush();
}

/// Sends each stdout line (or why reading stopped) until end of file.
fn read_lines(stdout: impl Read, tx: &mpsc::Sender<Result<String, String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut buf = Vec::new();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(n) if n as u64 == MAX_LINE && !buf.ends_with(b"\n") => {
                let _ = tx.send(Err(format!(
                    "an answer line is longer than {} MiB",
                    MAX_LINE >> 20
                )));
                return;
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&buf).into_owned();
                if line.trim().is_empty() {
                    continue;
                }
                if tx.send(Ok(line)).is_err() {
                    return;
                }
            }
            Err(e) => {
                let _ = tx.send(Err(format!("reading the program's output: {e}")));
                return;
            }
        }
    }
}

/// Keeps the last [`STDERR_KEEP`] bytes of stderr.
fn keep_tail(mut stderr: impl Read, tail: &Mutex<Vec<u8>>) {
    let mut buf = [0u8; 4096];
    while let Ok(n) = stderr.read(&mut buf) {
        if n == 0 {
            return;
        }
        let mut t = tail.lock().unwrap_or_else(|p| p.into_inner());
        t.extend_from_slice(&buf[..n]);
        let excess = t.len().saturating_sub(STDERR_KEEP);
        t.drain(..excess);
    }
}

/// Waits up to [`EXIT_GRACE`] for the program to exit, then kills it; its exit status as text.
fn wait_for(child: &mut Child) -> String {
    let deadline = std::time::Instant::now() + EXIT_GRACE;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.to_string(),
            Ok(None) if std::time::Instant::now() < deadline => {
                thread::sleep(Duration::from_millis(5));
            }
            Ok(None) => {
                kill(child);
                return STILL_RUNNING.into();
            }
            Err(e) => return format!("status unknown: {e}"),
        }
    }
}

/// Kills the program and its process group (on Unix), and reaps it.
fn kill(child: &mut Child) {
    if let Ok(Some(_)) = child.try_wait() {
        return;
    }
    #[cfg(unix)]
    {
        // The group the program leads (see `spawn`): what it started goes too.
        let _ = Command::new("kill")
            .arg("-KILL")
            .arg("--")
            .arg(format!("-{}", child.id()))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
    let _ = child.kill();
    let _ = child.wait();
}
