//! Every program ends with this process (issue 41).
//!
//! A program runs in a process group of its own (so that a session's end kills what it
//! started), which also means a signal sent to this process never reaches it. So:
//!
//! - every program's group is recorded while it runs ([`spawn`], [`forget`]);
//! - on Linux each program gets a parent-death signal (`PR_SET_PDEATHSIG`, SIGKILL), set before
//!   it runs. The kernel sends it when the *thread* that started the program ends, so programs
//!   are started from one thread that lives as long as the process ([`on_spawner`]);
//! - a command-line program calls [`end_on_signals`] at its start: SIGINT, SIGTERM and SIGHUP
//!   (through `signal-hook`) kill and reap every program's group and every orphan this process
//!   adopted, then end the process by the same signal;
//! - [`end_all`], called as the process exits, does the same killing and reaping.
//!
//! A library embedded in someone else's process (the Python module) calls neither: only the
//! parent-death signal and the group kill at a session's end apply there.

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard, OnceLock};
use std::time::{Duration, Instant};

/// The process groups of the programs running now, and whether the process is ending (no
/// program is started then).
struct Registry {
    groups: BTreeSet<i32>,
    closing: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    groups: BTreeSet::new(),
    closing: false,
});

/// Set when SIGINT, SIGTERM or SIGHUP is ending the process.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|p| p.into_inner())
}

/// Whether SIGINT, SIGTERM or SIGHUP is ending the process (after [`end_on_signals`]): what a
/// command meets meanwhile (a program killed under it) is not its answer.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Starts `cmd` (which puts itself in a process group of its own) from the spawning thread,
/// with the parent-death signal set (Linux), and records its group; refused once the process
/// is ending.
///
/// # Errors
/// The spawn's, or "this process is ending".
pub(crate) fn spawn(mut cmd: Command) -> io::Result<Child> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: getpid cannot fail.
        let parent = unsafe { libc::getpid() };
        // SAFETY: the closure makes only async-signal-safe calls (prctl, getppid) on a value
        // computed before the fork.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(io::Error::last_os_error());
                }
                if libc::getppid() != parent {
                    // This process died before the signal was set: nothing to run for.
                    return Err(io::Error::other(
                        "the harness ended before the program started",
                    ));
                }
                Ok(())
            });
        }
    }
    on_spawner(move || {
        let mut r = registry();
        if r.closing {
            return Err(io::Error::other(
                "this process is ending: no program is started",
            ));
        }
        let child = cmd.spawn()?;
        if let Ok(pgid) = i32::try_from(child.id()) {
            r.groups.insert(pgid);
        }
        Ok(child)
    })
}

/// Group `pgid` has been killed and is about to be reaped: it is no longer recorded.
pub(crate) fn forget(pgid: i32) {
    registry().groups.remove(&pgid);
}

type Job = Box<dyn FnOnce() + Send>;

/// Runs `f` on the spawning thread, which lives as long as the process (so that a program's
/// parent-death signal fires when the process dies, not when the worker thread that asked for
/// it ends), and returns its result.
fn on_spawner<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    static SPAWNER: OnceLock<Mutex<Option<mpsc::Sender<Job>>>> = OnceLock::new();
    let sender = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let started = std::thread::Builder::new()
            .name("exec-spawner".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            })
            .is_ok();
        Mutex::new(started.then_some(tx))
    });
    let (done, result) = mpsc::sync_channel::<T>(1);
    let job: Job = Box::new(move || {
        let _ = done.send(f());
    });
    let left = match sender.lock().unwrap_or_else(|p| p.into_inner()).as_ref() {
        Some(tx) => tx.send(job).err().map(|e| e.0),
        None => Some(job),
    };
    // No spawning thread (it could not be started): here, then.
    if let Some(job) = left {
        job();
    }
    result
        .recv()
        .unwrap_or_else(|_| unreachable!("the spawning thread runs every job to its end"))
}

/// SIGINT, SIGTERM and SIGHUP end every program (its whole group, and every orphan this
/// process adopted), print one line, and end the process by the same signal (so that a shell
/// sees it was interrupted). For a command-line program, called once at the start of `main`;
/// pair it with [`end_all`] as `main` returns. A no-op outside Unix.
pub fn end_on_signals() {
    #[cfg(unix)]
    {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        // A signal this process was started ignoring (`nohup`, a background job of a script)
        // stays ignored.
        let caught: Vec<i32> = [SIGINT, SIGTERM, SIGHUP]
            .into_iter()
            .filter(|s| !ignored(*s))
            .collect();
        let Ok(mut signals) = signal_hook::iterator::Signals::new(caught) else {
            return;
        };
        let _ = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    ending(sig);
                }
            });
    }
}

/// Whether `sig`'s disposition is "ignore".
#[cfg(unix)]
fn ignored(sig: i32) -> bool {
    // SAFETY: a zeroed sigaction is a valid buffer; a null new action only reads the current.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(sig, std::ptr::null(), &mut old) == 0 && old.sa_sigaction == libc::SIG_IGN
    }
}

/// On a signal: every program ended, one line, then the process ends by the signal.
#[cfg(unix)]
fn ending(sig: i32) {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let name = match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    };
    let programs = end_programs();
    {
        use std::io::Write;
        let _ = writeln!(
            io::stderr(),
            "interrupted by {name}: {programs} running program(s) ended, with everything they \
             started"
        );
    }
    let _ = signal_hook::low_level::emulate_default_handler(sig);
    std::process::exit(128 + sig);
}

/// Ends every program still running: kills every recorded group and every orphan this process
/// adopted, reaps them (up to a second), and starts no program after. Called as the process
/// exits. When a signal is ending the process ([`interrupted`]) it leaves the work to the
/// signal's thread and waits to be ended by it (never returns).
pub fn end_all() {
    if interrupted() {
        loop {
            std::thread::sleep(Duration::from_secs(1));
        }
    }
    end_programs();
}

/// [`end_all`]'s work: the number of program groups it killed.
fn end_programs() -> usize {
    let groups: Vec<i32> = {
        let mut r = registry();
        r.closing = true;
        std::mem::take(&mut r.groups).into_iter().collect()
    };
    #[cfg(unix)]
    {
        for g in &groups {
            // SAFETY: plain kill(2) of a group we started (its leader is not reaped yet: a
            // session forgets its group before it reaps).
            unsafe {
                libc::kill(-g, libc::SIGKILL);
            }
        }
        end_orphans();
    }
    groups.len()
}

/// Kills the children of this process and the groups they lead, until none is left or a
/// second has passed, reaping them: the programs, and the orphans a subreaper adopted
/// ([`crate::adopt_orphans`]) that left their program's group (`setsid`).
#[cfg(unix)]
fn end_orphans() {
    let deadline = Instant::now() + Duration::from_secs(1);
    loop {
        let kids = children();
        for (pid, pgid) in &kids {
            // SAFETY: kill(2) of our own children (and the groups they lead).
            unsafe {
                if pgid == pid {
                    libc::kill(-pid, libc::SIGKILL);
                }
                libc::kill(*pid, libc::SIGKILL);
            }
        }
        loop {
            let mut status = 0;
            // SAFETY: waitpid reaps only our own children.
            if unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) } <= 0 {
                break;
            }
        }
        if kids.is_empty() || Instant::now() >= deadline {
            return;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The children of this process not yet reaped, with their process groups (from `/proc`; none
/// where it cannot be read).
#[cfg(unix)]
fn children() -> Vec<(i32, i32)> {
    let me = std::process::id().to_string();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`: comm may hold spaces and parentheses.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut f = rest.split_whitespace().skip(1);
        if f.next() == Some(me.as_str()) {
            out.push((pid, f.next().and_then(|g| g.parse().ok()).unwrap_or(0)));
        }
    }
    out
}
