//! Sessions with the program: started once for a list of shots, fed one request line per
//! shot, read one answer line per shot, each within the timeout. The program runs in a process
//! group of its own; whatever happens (a timeout, an early exit, junk, a normal end) the session
//! ends by killing that whole group and reaping it, so nothing the program started outlives the
//! session and no reader is left waiting on a pipe a leftover child holds. A program that stops
//! answering is started again for the shots after the one it stopped on.
//!
//! A session lasts one batch, or, for an engine that keeps its sessions, as long as the engine:
//! a batch that got every answer leaves its session idle in the engine's [`SessionPool`] (stdin
//! open), the next batch takes it, and the pool ends its sessions when it is dropped.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use pool_sim::{EngineError, Outcome, Setup};
use serde_json::Value;

use crate::response::{answer_value, escape_bytes, parse_value};
use crate::{request_line, ExecEngine};

/// Longest answer line read (bytes): a 16-ball break logs ~100 kB; beyond this the program
/// is misbehaving, and memory stays bounded.
pub const MAX_LINE: u64 = 64 << 20;

/// Most blank lines read in a row: more is a program printing nothing useful forever.
pub const MAX_BLANK_LINES: usize = 1024;

/// Bytes of the program's stderr kept (its end) for error messages.
const STDERR_KEEP: usize = 4096;

/// How long a program that has answered everything may take to exit before it is killed.
const EXIT_GRACE: Duration = Duration::from_secs(5);

/// How long the session waits for its pipe threads once the program's group is dead: they end
/// at once unless a process that left the group (`setsid`) holds a pipe; they are then left
/// behind rather than waited for.
const THREAD_GRACE: Duration = Duration::from_secs(1);

/// What the reader thread hands over: a non-blank line, or why reading stopped.
enum Line {
    Text(Vec<u8>),
    Stop(String),
}

/// Every set-up's outcome, or why not, in order: one session for all of them, and when a
/// program stops answering (it hung past the timeout, exited, or sent a line too long to
/// read), a new session for the set-ups after the one it stopped on, so that one bad shot
/// costs the batch that shot only. Request ids count on within a session, from its first
/// set-up's index in `setups`: without kept sessions, they are the set-ups' indices.
pub fn sessions(engine: &ExecEngine, setups: &[Setup]) -> Vec<Result<Outcome, EngineError>> {
    let mut out: Vec<Result<Outcome, EngineError>> = Vec::with_capacity(setups.len());
    while out.len() < setups.len() {
        let got = session(engine, setups, out.len());
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

/// Whether the program starts and speaks: a session of its own (never a kept one), one request
/// (`setup`, id 0), stdin closed, and the first line awaited up to the timeout. `Err` (one line:
/// why, then the end of its stderr joined by " | ") only when it could not be spawned or its
/// output ended without a line (it exited: not found, not executable, its interpreter missing,
/// an import that failed); a line of any kind, or none within the timeout from a program still
/// running, is a program that started. The session ends as every session does.
pub fn first_answer(engine: &ExecEngine, setup: &Setup) -> Result<(), String> {
    let mut live = LiveSession::start(&engine.command, 0)?;
    live.send(vec![request_line(setup, engine.max_events, engine.dt, 0)]);
    live.close_stdin();
    let got = match live.rx.recv_timeout(engine.timeout) {
        Ok(_) | Err(RecvTimeoutError::Timeout) => Ok(()),
        Err(RecvTimeoutError::Disconnected) => {
            let status = wait_exit(&mut live.program.child, EXIT_GRACE)
                .unwrap_or_else(|| "its output closed; still running, killed".into());
            Err(format!(
                "the program exited ({status}) before answering its first request"
            ))
        }
    };
    let tail = live.end();
    got.map_err(|why| format!("{why}{}", tail.replace("\n  ", " | ")))
}

/// One session's answers to a batch: slot `k` is set-up `first + k`'s, whose request's id is
/// `id0 + k`.
struct Answers<'a> {
    setups: &'a [Setup],
    first: usize,
    /// The id of set-up `first`'s request.
    id0: usize,
    /// Whether the session is kept: an id not awaited may then be an earlier batch's.
    kept: bool,
    out: Vec<Option<Result<Outcome, EngineError>>>,
    /// The next set-up (index into `out`) an answer is awaited for.
    next: usize,
    /// Answers taken by their order because they carry no `id`.
    unnumbered: usize,
    /// The time step every request asked for: each answer echoes it.
    dt: Option<f64>,
}

impl Answers<'_> {
    fn name(&self, k: usize) -> &str {
        &self.setups[self.first + k].name
    }

    /// Fails set-up `k` (an earlier failure of it stands: it is the first thing that went wrong).
    fn fail(&mut self, k: usize, why: String) {
        if matches!(self.out[k], Some(Err(_))) {
            return;
        }
        self.out[k] = Some(Err(EngineError::failed(format!(
            "shot {:?}: {why}",
            self.name(k)
        ))));
    }

    /// Takes one answer line while set-up `next` is awaited: the awaited set-up's answer (or its
    /// failure), a later one's (the ones skipped fail), or a second answer to an earlier one
    /// (which then fails). Returns whether the awaited set-up was settled.
    fn take(&mut self, bytes: &[u8]) -> bool {
        let k = self.next;
        let answer = match answer_value(bytes) {
            Ok(v) => v,
            Err(why) => {
                self.fail(k, why);
                self.next += 1;
                return true;
            }
        };
        let target = match answer.get("id") {
            None | Some(Value::Null) => {
                self.unnumbered += 1;
                k
            }
            Some(id) => match id.as_u64().and_then(|i| usize::try_from(i).ok()) {
                Some(i) if i >= self.id0 && i - self.id0 < self.out.len() => i - self.id0,
                _ => {
                    let of = if self.kept {
                        "this batch"
                    } else {
                        "this session"
                    };
                    self.fail(
                        k,
                        format!(
                            "id = {}: not the id of a request of {of} (expected {})",
                            crate::response::shown(id),
                            self.id0 + k
                        ),
                    );
                    self.next += 1;
                    return true;
                }
            },
        };
        if target < k {
            self.fail(
                target,
                format!(
                    "id = {}: a second answer line for this request (one line per request)",
                    self.id0 + target
                ),
            );
            return false;
        }
        for skipped in k..target {
            self.fail(
                skipped,
                format!(
                    "id = {}: no answer line for this request (the line awaited for it answers \
                     request {})",
                    self.id0 + skipped,
                    self.id0 + target
                ),
            );
        }
        let setup = &self.setups[self.first + target];
        if let (Some(dt), None) = (self.dt, answer.get("unsupported").or(answer.get("error"))) {
            // A program asked for a time step says it took it: the rungs of a dt ladder are
            // the program's, not a number it ignored.
            let echoed = answer.get("dt").and_then(Value::as_f64);
            if echoed.map(f64::to_bits) != Some(dt.to_bits()) {
                let said = answer.get("dt").map_or("missing".into(), |v| {
                    format!("= {}", crate::response::shown(v))
                });
                self.fail(
                    target,
                    format!(
                        "dt {said}: the request asked for a time step of {dt:e} s, and a \
                         program that takes it echoes it (\"dt\": {dt:e})"
                    ),
                );
                self.next = target + 1;
                return true;
            }
        }
        self.out[target] = Some(parse_value(answer, setup).map_err(|e| EngineError {
            message: format!("shot {:?}: {}", setup.name, e.message),
            unsupported: e.unsupported,
        }));
        self.next = target + 1;
        true
    }

    /// A line after the last answer: a second answer to a numbered request fails that request;
    /// anything else fails the last one (and, when the answers carry no id, every answer taken
    /// by its order, since which line belongs to which request is then unknown).
    fn extra(&mut self, bytes: &[u8]) {
        let id = answer_value(bytes)
            .ok()
            .and_then(|v| v.get("id").and_then(Value::as_u64))
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i >= self.id0 && i - self.id0 < self.out.len());
        if let Some(i) = id {
            self.fail(
                i - self.id0,
                format!("id = {i}: a second answer line for this request (one line per request)"),
            );
            return;
        }
        let line = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let line = escape_bytes(&line[..line.len().min(200)]);
        if self.unnumbered > 0 {
            for k in 0..self.out.len() {
                self.fail(
                    k,
                    format!(
                        "the program wrote more lines than requests (\"{line}\" after the last \
                         answer) and its answers carry no `id`: which answer is which shot's is \
                         unknown"
                    ),
                );
            }
        } else {
            let last = self.out.len() - 1;
            self.fail(last, format!("output after the last answer: \"{line}\""));
        }
    }
}

/// Runs one session on `setups[first..]` (an idle kept session when the engine keeps them and
/// has one, else a new one): the outcome of every set-up up to and including the one the
/// program stopped answering on (all of them when it did not stop).
fn session(
    engine: &ExecEngine,
    setups: &[Setup],
    first: usize,
) -> Vec<Result<Outcome, EngineError>> {
    let mine = &setups[first..];
    let prefix = format!("exec `{}`: ", engine.command);
    let fail_all = |message: String| {
        mine.iter()
            .map(|_| Err(EngineError::failed(format!("{prefix}{message}"))))
            .collect()
    };
    let kept = engine.keep_sessions;
    let idle = kept
        .then(|| engine.sessions.take(&engine.command))
        .flatten();
    let mut live = match idle {
        Some(live) => live,
        None => match LiveSession::start(&engine.command, first) {
            Ok(live) => live,
            Err(message) => return fail_all(message),
        },
    };
    let id0 = live.next_id;
    let lines: Vec<String> = mine
        .iter()
        .enumerate()
        .map(|(k, s)| request_line(s, engine.max_events, engine.dt, id0 + k))
        .collect();
    live.next_id += mine.len();
    live.send(lines);
    if !kept {
        // One batch per session: stdin closes once its requests are written.
        live.close_stdin();
    }

    let mut answers = Answers {
        setups,
        first,
        id0,
        kept,
        out: (0..mine.len()).map(|_| None).collect(),
        next: 0,
        unnumbered: 0,
        dt: engine.dt,
    };
    let stopped = await_answers(engine, &mut live.program, &live.rx, &mut answers);
    let tail = if kept && !stopped && exited(&mut live.program.child).is_none() {
        // Every shot answered and the program runs on: idle until the next batch (what it has
        // written to stderr so far is the tail; stdin stays open, a line it writes meanwhile
        // meets the next batch's first request).
        let tail = stderr_tail(&live.tail);
        engine.sessions.put(live);
        tail
    } else {
        // Without kept sessions, every shot answered: stdin is closed, the program should exit.
        // A kept program that exited after its last answer is not waited for: its answers
        // stand, and the next batch starts a new one.
        let status =
            (!stopped && !kept).then(|| drain_and_wait(&mut live.program, &live.rx, &mut answers));
        let tail = live.end();
        // Every shot answered: the program then had to exit with status 0 (one that lingers
        // past the grace was killed: its answers are complete).
        if let Some(Some(status)) = status {
            let all_ok = answers.out.iter().all(|r| matches!(r, Some(Ok(_))));
            if status != "exit status: 0" && all_ok {
                let last = answers.out.len() - 1;
                answers.out[last] = Some(Err(EngineError::failed(format!(
                    "the program answered every shot but then exited ({status})"
                ))));
            }
        }
        tail
    };
    answers
        .out
        .into_iter()
        .take_while(Option::is_some)
        .flatten()
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

/// A running program with its pipes' threads: the writer (fed batches of request lines), the
/// reader (one line at a time) and stderr's collector.
pub(crate) struct LiveSession {
    /// The command it runs: a pool hands a session only to an engine of the same command.
    command: String,
    program: Program,
    /// Batches of request lines for the writer; `None` once stdin is to close (the writer
    /// closes it when it has written what it was given).
    requests: Option<Sender<Vec<String>>>,
    rx: Receiver<Line>,
    tail: Arc<Mutex<Vec<u8>>>,
    writer: JoinHandle<()>,
    reader: JoinHandle<()>,
    collector: JoinHandle<()>,
    /// The id of the next request: ids are unique within the session.
    next_id: usize,
}

impl LiveSession {
    /// Starts `command` with its threads; its first request will have id `first_id`.
    ///
    /// # Errors
    /// Why it could not start (after the prefix `exec `<command>`: `).
    fn start(command: &str, first_id: usize) -> Result<Self, String> {
        let mut child = spawn(command).map_err(|e| format!("cannot start: {e}"))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            Program {
                child,
                ended: false,
            }
            .end();
            return Err("the program's pipes could not be opened".into());
        };
        let program = Program {
            child,
            ended: false,
        };
        // The requests are written from a thread, so that a program that answers as it reads
        // never waits on us, and one that does not read cannot block us past the timeout.
        let (requests, batches) = mpsc::channel::<Vec<String>>();
        let writer = thread::spawn(move || write_batches(stdin, &batches));
        // A rendezvous channel: the reader holds at most one line we have not taken, so a
        // program that writes faster than it answers waits on its pipe instead of filling our
        // memory.
        let (tx, rx) = mpsc::sync_channel(0);
        let reader = thread::spawn(move || read_lines(stdout, &tx));
        let tail = Arc::new(Mutex::new(Vec::new()));
        let collector = {
            let tail = Arc::clone(&tail);
            thread::spawn(move || keep_tail(stderr, &tail))
        };
        Ok(LiveSession {
            command: command.to_string(),
            program,
            requests: Some(requests),
            rx,
            tail,
            writer,
            reader,
            collector,
            next_id: first_id,
        })
    }

    /// Hands request lines to the writer (a program that has exited no longer takes them: the
    /// reader reports it).
    fn send(&self, lines: Vec<String>) {
        if let Some(requests) = &self.requests {
            let _ = requests.send(lines);
        }
    }

    /// Closes stdin once what was sent is written.
    fn close_stdin(&mut self) {
        self.requests = None;
    }

    /// Ends the session: kills the program's group and reaps it, closes the pipes and waits a
    /// little for their threads. Returns the end of stderr ([`stderr_tail`]).
    fn end(self) -> String {
        let LiveSession {
            mut program,
            requests,
            rx,
            tail,
            writer,
            reader,
            collector,
            ..
        } = self;
        program.end();
        drop(requests);
        drop(rx);
        join_within(writer, THREAD_GRACE);
        join_within(reader, THREAD_GRACE);
        join_within(collector, THREAD_GRACE);
        stderr_tail(&tail)
    }
}

/// The idle sessions of an engine that keeps them, shared by its clones. Dropped with the last
/// clone: every idle program then has its stdin closed and up to [`EXIT_GRACE`] to exit (what
/// it writes meanwhile is read and dropped), and is ended as any session is (its group killed
/// and reaped), so that no program outlives its engine.
#[derive(Default)]
pub(crate) struct SessionPool {
    idle: Mutex<Vec<LiveSession>>,
}

impl SessionPool {
    /// An idle session of `command`, the most recently used.
    fn take(&self, command: &str) -> Option<LiveSession> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        let k = idle.iter().rposition(|s| s.command == command)?;
        Some(idle.remove(k))
    }

    /// Leaves `session` idle until a batch takes it.
    fn put(&self, session: LiveSession) {
        self.idle
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(session);
    }

    /// How many sessions are idle.
    pub(crate) fn idle(&self) -> usize {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl std::fmt::Debug for SessionPool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("SessionPool");
        match self.idle.try_lock() {
            Ok(idle) => d.field("idle", &idle.len()),
            Err(_) => d.field("idle", &"(in use)"),
        }
        .finish()
    }
}

impl Drop for SessionPool {
    fn drop(&mut self) {
        let mut sessions = std::mem::take(self.idle.get_mut().unwrap_or_else(|p| p.into_inner()));
        if sessions.is_empty() {
            return;
        }
        // All at once: stdin closed for every program, one grace shared by them all.
        for s in &mut sessions {
            s.close_stdin();
        }
        let deadline = Instant::now() + EXIT_GRACE;
        loop {
            for s in &sessions {
                while Instant::now() < deadline && s.rx.try_recv().is_ok() {}
            }
            let all_exited = sessions
                .iter_mut()
                .all(|s| exited(&mut s.program.child).is_some());
            if all_exited || Instant::now() >= deadline {
                break;
            }
            thread::sleep(Duration::from_millis(2));
        }
        for s in sessions {
            s.end();
        }
    }
}

/// Reads answers until every set-up has one or the program stops answering (returns `true`:
/// the awaited set-up has failed and the group was killed). Each answer has the timeout from
/// the one before it (or from the start), however many lines the program writes meanwhile.
fn await_answers(
    engine: &ExecEngine,
    program: &mut Program,
    rx: &Receiver<Line>,
    answers: &mut Answers,
) -> bool {
    let mut deadline = Instant::now() + engine.timeout;
    while answers.next < answers.out.len() {
        let k = answers.next;
        match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
            Ok(Line::Text(bytes)) => {
                if answers.take(&bytes) {
                    deadline = Instant::now() + engine.timeout;
                }
            }
            Ok(Line::Stop(why)) => {
                program.end();
                answers.fail(k, why);
                return true;
            }
            Err(RecvTimeoutError::Timeout) => {
                let why = match exited(&mut program.child) {
                    Some(status) => format!(
                        "the program exited ({status}) without answering; what it started kept \
                         its output open and was killed at the timeout of {} s",
                        engine.timeout.as_secs_f64()
                    ),
                    None => format!(
                        "no answer within the timeout of {} s; the program was killed",
                        engine.timeout.as_secs_f64()
                    ),
                };
                program.end();
                answers.fail(k, why);
                return true;
            }
            Err(RecvTimeoutError::Disconnected) => {
                let status = wait_exit(&mut program.child, EXIT_GRACE);
                answers.fail(
                    k,
                    format!(
                        "the program exited ({}) without answering",
                        status.unwrap_or_else(|| "its output closed; still running, killed".into())
                    ),
                );
                program.end();
                return true;
            }
        }
    }
    false
}

/// After the last answer: stdin is closed (the writer is done), so the program should close its
/// output and exit within [`EXIT_GRACE`]. A line it writes meanwhile is one line too many (see
/// [`Answers::extra`]; the program is then killed at once). Returns the exit status, `None` when
/// the program was still running (it is killed by the caller).
fn drain_and_wait(
    program: &mut Program,
    rx: &Receiver<Line>,
    answers: &mut Answers,
) -> Option<String> {
    let deadline = Instant::now() + EXIT_GRACE;
    match rx.recv_timeout(EXIT_GRACE) {
        Ok(Line::Text(bytes)) => {
            answers.extra(&bytes);
            exited(&mut program.child)
        }
        Ok(Line::Stop(why)) => {
            let last = answers.out.len() - 1;
            answers.fail(last, format!("after the last answer: {why}"));
            exited(&mut program.child)
        }
        Err(RecvTimeoutError::Disconnected) => wait_exit(
            &mut program.child,
            deadline.saturating_duration_since(Instant::now()),
        ),
        Err(RecvTimeoutError::Timeout) => exited(&mut program.child),
    }
}

/// The end of stderr as indented lines, control and non-UTF-8 bytes escaped.
fn stderr_tail(tail: &Mutex<Vec<u8>>) -> String {
    let t = tail.lock().unwrap_or_else(|p| p.into_inner());
    let lines: Vec<String> = t
        .split(|b| *b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.iter().all(u8::is_ascii_whitespace))
        .map(escape_bytes)
        .collect();
    let last = &lines[lines.len().saturating_sub(12)..];
    if last.is_empty() {
        String::new()
    } else {
        format!("\n  stderr: {}", last.join("\n  stderr: "))
    }
}

/// Waits up to `grace` for a thread, then leaves it (it ends when its pipe does).
fn join_within(handle: JoinHandle<()>, grace: Duration) {
    let deadline = Instant::now() + grace;
    while !handle.is_finished() && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(2));
    }
    if handle.is_finished() {
        let _ = handle.join();
    }
}

/// `sh -c command` (`cmd /C` on Windows) with piped stdio, in a process group of its own so
/// that ending the session kills what it started too, and (on Linux) killed if this process
/// dies ([`crate::supervise`]).
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
        .stderr(Stdio::piped());
    // From the spawning thread, with a parent-death signal, its group recorded until it ends.
    crate::supervise::spawn(cmd)
}

/// Writes each batch of request lines as it comes, and closes stdin (drops it) when the session
/// sends no more.
fn write_batches(mut stdin: ChildStdin, batches: &Receiver<Vec<String>>) {
    for lines in batches {
        for line in &lines {
            // A program that exits early closes the pipe: the reader reports it.
            if stdin.write_all(line.as_bytes()).is_err() || stdin.write_all(b"\n").is_err() {
                return;
            }
        }
        let _ = stdin.flush();
    }
}

/// Hands over each non-blank stdout line (or why reading stopped) until end of file, or until
/// the session no longer listens.
fn read_lines(stdout: impl Read, tx: &SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    let mut blank = 0usize;
    loop {
        let mut buf = Vec::new();
        let stop = match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(n) if n as u64 == MAX_LINE && !buf.ends_with(b"\n") => {
                format!("an answer line is longer than {} MiB", MAX_LINE >> 20)
            }
            Ok(_) if buf.iter().all(u8::is_ascii_whitespace) => {
                blank += 1;
                if blank <= MAX_BLANK_LINES {
                    continue;
                }
                format!("more than {MAX_BLANK_LINES} blank lines in a row")
            }
            Ok(_) => {
                blank = 0;
                if tx.send(Line::Text(buf)).is_err() {
                    return;
                }
                continue;
            }
            Err(e) => format!("reading the program's output: {e}"),
        };
        let _ = tx.send(Line::Stop(stop));
        return;
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

/// The program's exit status as text when it has exited, without reaping it (its process id
/// stays its group's until [`end_group`] has killed the group).
#[cfg(unix)]
fn exited(child: &mut Child) -> Option<String> {
    let pid: libc::id_t = child.id();
    // SAFETY: a zeroed siginfo_t is a valid value for waitid to fill.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    // SAFETY: waitid on our own child with WNOWAIT only reads its state.
    let r = unsafe {
        libc::waitid(
            libc::P_PID,
            pid,
            &mut info,
            libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
        )
    };
    // SAFETY: si_pid and si_status are set when waitid reports a child.
    let (who, code) = unsafe { (info.si_pid(), info.si_status()) };
    if r != 0 || who == 0 {
        return None;
    }
    Some(if info.si_code == libc::CLD_EXITED {
        format!("exit status: {code}")
    } else {
        format!("signal: {code}")
    })
}

#[cfg(not(unix))]
fn exited(child: &mut Child) -> Option<String> {
    child.try_wait().ok().flatten().map(|s| s.to_string())
}

/// Waits up to `grace` for the program to exit: its status, or `None` if it still runs.
fn wait_exit(child: &mut Child, grace: Duration) -> Option<String> {
    let deadline = Instant::now() + grace;
    loop {
        if let Some(status) = exited(child) {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(2));
    }
}

/// The running program: its `sh`, which leads the process group, until [`Program::end`].
struct Program {
    child: Child,
    ended: bool,
}

impl Program {
    /// Kills the program's whole process group (on Unix) and reaps the program, then (on Linux,
    /// when this process adopts orphans: [`crate::adopt_orphans`]) every process of the group
    /// that was reparented to us. Only the first call acts: after it, the group id may be
    /// another's.
    fn end(&mut self) {
        if std::mem::replace(&mut self.ended, true) {
            return;
        }
        #[cfg(unix)]
        if let Ok(pgid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: plain kill(2). The group's leader is our unreaped child (`exited` never
            // reaps), so its id names this group and no other.
            unsafe {
                libc::kill(-pgid, libc::SIGKILL);
            }
            // Dead (or dying) and not yet reaped: its id cannot be reused until the wait.
            crate::supervise::forget(pgid);
            let _ = self.child.wait();
            reap_group(pgid);
            return;
        }
        let _ = self.child.kill();
        if let Ok(pgid) = i32::try_from(self.child.id()) {
            crate::supervise::forget(pgid);
        }
        let _ = self.child.wait();
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        self.end();
    }
}

/// Reaps the dead members of group `pgid` that are our children (orphans we adopted), for up
/// to a second: the group was sent SIGKILL, so they die at once.
#[cfg(unix)]
fn reap_group(pgid: libc::pid_t) {
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        let mut status = 0;
        // SAFETY: waitpid on a process group reaps only our children in that group.
        let r = unsafe { libc::waitpid(-pgid, &mut status, libc::WNOHANG) };
        if r > 0 {
            continue;
        }
        if r < 0 || Instant::now() >= deadline {
            return;
        }
        thread::sleep(Duration::from_millis(1));
    }
}
