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
//! - [`end_all`], called as the process exits, does the same killing and reaping;
//! - SIGKILL ends none of that: the program (its group's leader) gets its parent-death signal,
//!   but what it started (`sleep 600 &` in a script) does not inherit one. So a command-line
//!   program starts a guardian first ([`start_guardian`]): a process forked from it before it
//!   has any thread, which learns each program's group through a pipe and, when the pipe's
//!   last writer (this process) is gone, however it ended, kills every group still recorded.
//!
//! Why this design: the kernel kills a process, never its group, on its parent's death, so
//! something that outlives this process has to do it. A supervisor per program (a process
//! between this one and the program, or the group's leader waiting on it) would be another
//! copy of this process's memory per session, or a hidden command of a binary the Python
//! module does not have; a shell wrapper (`trap ... EXIT`) can be fooled by the program, and
//! sees no SIGKILL. One guardian per process, forked while the process is still one thread
//! (so it may run ordinary code), costs one small process and a 5-byte message per program;
//! the end of file on its pipe cannot be missed, and a program never holds the pipe (it is
//! close-on-exec). A group's id is recorded by the program itself before it runs (no window
//! where it could start a child unrecorded) and forgotten once killed and before its leader is
//! reaped (so the guardian never kills an id the system has given to someone else).
//! Not covered: a process that left its program's group (`setsid`), which only this process's
//! subreaper ([`crate::adopt_orphans`]) and [`end_all`] reach.
//!
//! A library embedded in someone else's process (the Python module) calls none of these: only
//! the parent-death signal and the group kill at a session's end apply there.

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, Command};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
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

/// The write end of the guardian's pipe ([`start_guardian`]); -1 without a guardian.
static GUARDIAN: AtomicI32 = AtomicI32::new(-1);

/// A message to the guardian: `+` (a group to kill if this process dies) or `-` (a group
/// killed and about to be reaped), then the group's id; one `write` of 5 bytes, atomic on a
/// pipe. Async-signal-safe (it runs in a forked child before `exec`).
fn tell_guardian(op: u8, pgid: i32) {
    #[cfg(target_os = "linux")]
    {
        let fd = GUARDIAN.load(Ordering::Relaxed);
        if fd >= 0 {
            let b = pgid.to_ne_bytes();
            let msg = [op, b[0], b[1], b[2], b[3]];
            // SAFETY: write(2) of a local buffer to our own pipe, SIGPIPE ignored meanwhile
            // (a forked child about to `exec` has it at its default): a guardian that is gone
            // (EPIPE) changes nothing here.
            unsafe {
                let old = libc::signal(libc::SIGPIPE, libc::SIG_IGN);
                libc::write(fd, msg.as_ptr().cast(), msg.len());
                libc::signal(libc::SIGPIPE, old);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (op, pgid);
}

/// Starts the guardian (Linux; elsewhere a no-op): a process that, once this one has ended
/// however it ended (SIGKILL included), kills the whole group of every program still running,
/// what the programs started with it. Called once, first thing in `main`, while the process
/// has one thread: the guardian is a fork that runs on without `exec`. Pair it with
/// [`end_all`], which ends the guardian too.
pub fn start_guardian() {
    #[cfg(target_os = "linux")]
    {
        let mut fds = [0i32; 2];
        // SAFETY: pipe2 fills the array; the ends are close-on-exec, so no program holds them.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return;
        }
        let [read, write] = fds;
        // SAFETY: fork while the process has one thread (the caller's promise): the child may
        // run any code. It never returns from `guard`.
        match unsafe { libc::fork() } {
            0 => {
                // SAFETY: our own descriptor.
                unsafe { libc::close(write) };
                guard(read)
            }
            pid if pid > 0 => {
                // SAFETY: our own descriptor.
                unsafe { libc::close(read) };
                GUARDIAN.store(write, Ordering::Relaxed);
            }
            _ => {
                // SAFETY: our own descriptors.
                unsafe {
                    libc::close(read);
                    libc::close(write);
                }
            }
        }
    }
}

/// The guardian's life: reads the groups to kill from `read` until end of file (the process
/// that started it is gone), then kills each one still recorded and exits.
#[cfg(target_os = "linux")]
fn guard(read: i32) -> ! {
    // SAFETY: signal dispositions and descriptors of this process alone. A terminal's Ctrl-C
    // or a job's SIGTERM reaches this process too (it is in the harness's group): it stays,
    // and does its work when the harness has ended.
    unsafe {
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
            libc::signal(sig, libc::SIG_IGN);
        }
        // Holding none of the harness's standard streams: a reader of its output sees the
        // end of it when the harness ends.
        let null = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
        if null >= 0 {
            for fd in 0..3 {
                libc::dup2(null, fd);
            }
            if null > 2 {
                libc::close(null);
            }
        }
    }
    let mut groups = BTreeSet::new();
    let mut pending: Vec<u8> = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        // SAFETY: read(2) into a local buffer.
        let n = unsafe { libc::read(read, buf.as_mut_ptr().cast(), buf.len()) };
        if n == 0 {
            break;
        }
        if n < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            break;
        }
        pending.extend_from_slice(&buf[..n as usize]);
        let whole = pending.len() - pending.len() % 5;
        for msg in pending[..whole].chunks_exact(5) {
            let pgid = i32::from_ne_bytes([msg[1], msg[2], msg[3], msg[4]]);
            if msg[0] == b'+' {
                groups.insert(pgid);
            } else {
                groups.remove(&pgid);
            }
        }
        pending.drain(..whole);
    }
    for g in groups {
        if g > 1 {
            // SAFETY: kill(2) of a group a program of the harness leads (never reaped yet by
            // the harness: it would have said `-` first).
            unsafe {
                libc::kill(-g, libc::SIGKILL);
            }
        }
    }
    // SAFETY: ends this process without running the harness's exit handlers.
    unsafe { libc::_exit(0) }
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
                // This process leads the program's group (`process_group(0)`, applied before
                // this runs): the guardian records it before the program can start anything.
                // (Should the `exec` then fail, the id stays recorded: the guardian would kill
                // it only if the system gave it to another group before this process died.)
                tell_guardian(b'+', libc::getpid());
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
    tell_guardian(b'-', pgid);
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
