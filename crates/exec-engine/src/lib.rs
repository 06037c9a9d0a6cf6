//! Any program as an engine: the harness starts the program, writes each shot as one line of
//! JSON on its stdin, and reads one line of JSON per shot from its stdout: the event log (kind,
//! agents by id, time) and every ball's final state. The protocol is
//! `docs/engine-protocol.md`; `benches/peers/ideal_engine.py` is a complete example in under
//! 100 lines, `benches/peers/pooltool_engine.py` the adapter that runs pooltool 0.6.0.
//!
//! A program that cannot be started, crashes, prints something that is not an answer, answers
//! a request twice or not at all (answers are matched to requests by their `id`), names an agent
//! the shot does not have, contradicts itself (a pocketed ball mid-table, a ball at rest that
//! moves, an event after `t_end`), or does not answer within the timeout gives an
//! [`EngineError`] whose message names the shot and the field, followed by the end of the
//! program's stderr (control and non-UTF-8 bytes escaped). The program runs in a process group
//! of its own, killed as a whole when its session ends, however it ends, and with this process
//! ([`end_on_signals`], [`end_all`]; a parent-death signal on Linux).
//!
//! A session lasts one batch ([`Engine::try_run_all`]) unless the engine keeps its sessions
//! ([`ExecEngine::with_kept_sessions`]): the program then stays running between batches, idle
//! in a pool its clones share, and is ended (stdin closed, then its group killed) when the last
//! clone is dropped.
#![warn(missing_docs)]

mod process;
mod request;
mod response;
mod serve;
mod supervise;

use std::sync::Arc;
use std::time::Duration;

use pool_sim::{Engine, EngineError, Outcome, Setup};

pub use process::{MAX_BLANK_LINES, MAX_LINE};
pub use request::{request, request_line};
pub use response::{escape_bytes, parse_answer, REST_SPEED, T_END_SLACK};
pub use serve::{answer_of, max_events_of_request, setup_of_request};
pub use supervise::{end_all, end_on_signals, interrupted, start_guardian};

/// The protocol's name and version, sent in every request's `protocol` field.
pub const PROTOCOL: &str = "pool-harness-engine/1";

/// Seconds a program may take to answer one shot unless told otherwise.
pub const DEFAULT_TIMEOUT_S: f64 = 60.0;

/// Longest timeout accepted (s): a day.
pub const MAX_TIMEOUT_S: f64 = 86_400.0;

/// Makes this process adopt the orphans of the processes it starts (Linux: it becomes a "child
/// subreaper", `prctl(PR_SET_CHILD_SUBREAPER)`), so that a session's end reaps what a program
/// left running as well as killing it: without it, killed orphans go to PID 1, which in some
/// containers never reaps them (they stay as zombies). For a command-line program, called once
/// at its start; a library embedded in someone else's process (the Python module) should not.
/// A no-op elsewhere.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_CHILD_SUBREAPER only sets a flag of this process.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    }
}

/// A program run as an engine. Clones share the idle sessions of a kept-sessions engine
/// ([`ExecEngine::with_kept_sessions`]); equality compares the settings only.
#[derive(Clone, Debug)]
pub struct ExecEngine {
    /// The command line, run by `sh -c` (`cmd /C` on Windows) in the current directory.
    pub command: String,
    /// How long the program may take to answer each shot.
    pub timeout: Duration,
    /// Sent as the request's `max_events` (the program should stop after that many events).
    pub max_events: Option<usize>,
    /// Keep the program running between batches ([`ExecEngine::with_kept_sessions`]).
    pub keep_sessions: bool,
    /// Sent as every request's `dt` (s), for a program that takes a time step; each answer
    /// must echo it ([`ExecEngine::with_dt`]).
    pub dt: Option<f64>,
    /// The idle sessions (kept sessions only), shared by the clones; ended when the last clone
    /// is dropped.
    sessions: Arc<process::SessionPool>,
}

impl PartialEq for ExecEngine {
    /// The same command, timeout, event limit and keep flag (the running sessions aside).
    fn eq(&self, other: &Self) -> bool {
        self.command == other.command
            && self.timeout == other.timeout
            && self.max_events == other.max_events
            && self.keep_sessions == other.keep_sessions
            && self.dt.map(f64::to_bits) == other.dt.map(f64::to_bits)
    }
}

impl ExecEngine {
    /// The program `command` with a timeout of `timeout_s` seconds per shot.
    ///
    /// # Errors
    /// An empty command, or a timeout not in (0, [`MAX_TIMEOUT_S`]] s.
    pub fn new(command: &str, timeout_s: f64) -> Result<Self, String> {
        if command.trim().is_empty() {
            return Err("the command is empty".into());
        }
        if !(timeout_s > 0.0 && timeout_s <= MAX_TIMEOUT_S) {
            return Err(format!(
                "timeout = {timeout_s} s: must be in (0, {MAX_TIMEOUT_S}] s"
            ));
        }
        Ok(ExecEngine {
            command: command.to_string(),
            timeout: Duration::from_secs_f64(timeout_s),
            max_events: None,
            keep_sessions: false,
            dt: None,
            sessions: Arc::default(),
        })
    }

    /// Builder: ask the program to take time step `dt` (s): every request carries it as `dt`,
    /// and an answer that does not echo it fails its shot (docs/engine-protocol.md, "A time
    /// step"). `None`: a program without one (no `dt` in its requests).
    pub fn with_dt(mut self, dt: Option<f64>) -> Self {
        self.dt = dt;
        self
    }

    /// Builder: ask the program to stop after `limit` events.
    pub fn with_max_events(mut self, limit: Option<usize>) -> Self {
        self.max_events = limit;
        self
    }

    /// Builder: keep the program's process running between batches (for a caller that runs
    /// many batches with one engine, e.g. the outcome study's looks), so that its start-up is
    /// paid once, not once per batch. A batch takes an idle session (or starts one) and, when
    /// every shot was answered and the program still runs, leaves it idle for the next batch
    /// without closing its stdin; request ids then count on within the session, never reused.
    /// Lines after a batch's last answer are not waited for: a line the program writes between
    /// batches is read while the next batch awaits its first answer and counts against that
    /// request by the id rules (junk, or an earlier batch's id, fails it; docs/engine-protocol.md,
    /// "Sessions"), and an exit status after the last answer is not checked. Concurrent batches (clones on several threads) each take a session of their own. A
    /// session that stops (a timeout, a crash, a line too long) ends as without this, and a new
    /// one takes the batch's remaining shots. When the last clone of the engine is dropped,
    /// every idle program has its stdin closed, is given the exit grace (5 s) to exit, and is
    /// killed with its process group. `false` (the default): one session per batch, stdin closed
    /// after its requests.
    pub fn with_kept_sessions(mut self, keep: bool) -> Self {
        self.keep_sessions = keep;
        self
    }

    /// Whether the program starts on this machine, before any batch: it is started apart (a
    /// session of its own, not kept), sent `setup` as one request, and its first line awaited
    /// (up to the timeout). For a caller that would rather stop than record every shot as
    /// failed when the program is missing here (a shard on a worker without it).
    ///
    /// # Errors
    /// One line: the program could not be spawned, or it ended without writing a line (not
    /// found, not executable, its interpreter missing, a start-up that failed), with its exit
    /// status and the end of its stderr. A program that answers anything (an answer, a
    /// decline, junk) or is still running at the timeout has started: `Ok`.
    pub fn check_start(&self, setup: &Setup) -> Result<(), String> {
        process::first_answer(self, setup)
    }

    /// How many kept sessions are idle now (programs running between batches, waiting for one).
    pub fn idle_sessions(&self) -> usize {
        self.sessions.idle()
    }
}

impl Engine for ExecEngine {
    /// The program's outcome, or, when it failed, no events, the initial states and
    /// [`pool_sim::Termination::Failed`] (the reason is [`Engine::try_run`]'s).
    fn run(&self, setup: &Setup) -> Outcome {
        self.try_run(setup)
            .unwrap_or_else(|_| Outcome::failed(setup))
    }

    fn try_run(&self, setup: &Setup) -> Result<Outcome, EngineError> {
        self.try_run_all(std::slice::from_ref(setup))
            .pop()
            .unwrap_or_else(|| Err(EngineError::failed("no answer")))
    }

    /// One program process for all the set-ups, answered in order (started again for the rest
    /// when it stops answering on one: a hang or a crash costs that shot); with kept sessions,
    /// an idle one from an earlier batch when there is one. A set-up whose balls have
    /// parameters of their own is unsupported, not sent: the protocol gives the program one
    /// set of ball parameters (`model.params`, `model.radius`), and a program that read it
    /// would run equal balls.
    fn try_run_all(&self, setups: &[Setup]) -> Vec<Result<Outcome, EngineError>> {
        if setups.iter().all(|s| s.physics.ball_sets().is_empty()) {
            return if setups.is_empty() {
                Vec::new()
            } else {
                process::sessions(self, setups)
            };
        }
        let sent: Vec<Setup> = (setups.iter())
            .filter(|s| s.physics.ball_sets().is_empty())
            .cloned()
            .collect();
        let mut answers = if sent.is_empty() {
            Vec::new()
        } else {
            process::sessions(self, &sent)
        }
        .into_iter();
        setups
            .iter()
            .map(|s| {
                if s.physics.ball_sets().is_empty() {
                    answers
                        .next()
                        .unwrap_or_else(|| Err(EngineError::failed("no answer")))
                } else {
                    Err(unequal_balls())
                }
            })
            .collect()
    }
}

/// Why a set-up with per-ball parameters is not sent to the program.
pub fn unequal_balls() -> EngineError {
    EngineError::unsupported(
        "balls with parameters of their own (per-ball m, R or coefficients): the exec \
         protocol gives the program one set of ball parameters",
    )
}
