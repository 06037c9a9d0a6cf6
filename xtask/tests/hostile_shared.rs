//! Output directories shared across machines, containers and PID namespaces (issue 41): a live
//! run's staging directory is locked (`flock`), so a run that cannot see its process (another
//! PID namespace) leaves it alone; a run whose staging directory another process removed or
//! replaced never exits 0.

#![cfg(unix)]

mod common;

use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{temp_dir, texts, xtask};

/// The id of a process that has exited (here; in another namespace it may be live).
fn dead_pid() -> u32 {
    let mut c = Command::new("true").spawn().unwrap();
    let pid = c.id();
    c.wait().unwrap();
    pid
}

/// `xtask stress --shots <shots> --jobs 1 --out <out> --run-name <name>`.
fn stress(out: &Path, name: &str, shots: &str) -> Command {
    let mut c = xtask();
    c.args([
        "stress",
        "--shots",
        shots,
        "--jobs",
        "1",
        "--run-name",
        name,
    ])
    .arg("--out")
    .arg(out);
    c
}

#[test]
fn a_locked_staging_directory_is_a_live_run_whatever_its_pid() {
    let dir = temp_dir("shared-locked");
    // A live run of another PID namespace: its process id is none here, its lock is held.
    let live = dir.join(format!(".a.partial-{}", dead_pid()));
    std::fs::create_dir(&live).unwrap();
    std::fs::write(live.join("x"), "a live run's file").unwrap();
    let lock = std::fs::File::create(live.join(".lock")).unwrap();
    // SAFETY: flock on our own open descriptor.
    assert_eq!(
        unsafe { libc::flock(lock.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) },
        0
    );
    // A killed run of an older version: no lock, its process gone.
    let killed = dir.join(format!(".b.partial-{}", dead_pid()));
    std::fs::create_dir(&killed).unwrap();
    let o = stress(&dir, "r1", "10").output().unwrap();
    let (_, err) = texts(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        live.join("x").is_file(),
        "a live run's staging removed: {err}"
    );
    assert!(!killed.exists(), "{err}");
    assert!(
        !dir.join("r1/.lock").exists(),
        "the run carries its lock file"
    );
    // Once its run has ended (the lock released), it is stale.
    drop(lock);
    let o = stress(&dir, "r2", "10").output().unwrap();
    let (_, err) = texts(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(!live.exists(), "{err}");
    assert!(err.contains("removed 1 staging directory"), "{err}");
}

/// The staging directory of run `name` in `out`, once it exists.
fn staging_of(out: &Path, name: &str) -> Option<PathBuf> {
    let prefix = format!(".{name}.partial-");
    std::fs::read_dir(out)
        .ok()?
        .flatten()
        .find(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
}

#[test]
fn a_run_whose_staging_directory_was_replaced_never_exits_0() {
    let dir = temp_dir("shared-replaced");
    let mut child = stress(&dir, "r", "12000")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let staging = loop {
        if let Some(s) = staging_of(&dir, "r") {
            break s;
        }
        assert!(Instant::now() < deadline, "no staging directory");
        std::thread::sleep(Duration::from_millis(5));
    };
    std::thread::sleep(Duration::from_millis(300));
    // What a run that took it for a killed one's did: removed it, and made its own there.
    std::fs::remove_dir_all(&staging).unwrap();
    std::fs::create_dir(&staging).unwrap();
    let status = child.wait().unwrap();
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("removed or replaced by another process"),
        "{err}"
    );
    assert!(!dir.join("r").exists(), "{err}");
}

/// The `<title>` of a run's page.
fn title(run: &Path) -> String {
    let page = std::fs::read_to_string(run.join("report.html")).unwrap();
    let start = page.find("<title>").unwrap() + "<title>".len();
    page[start..].split(" · ").next().unwrap().to_string()
}

#[test]
fn default_named_runs_of_one_second_each_get_a_name_of_their_own() {
    let dir = temp_dir("shared-names");
    // Three runs started together usually share their second; try again when they did not.
    for attempt in 0..5 {
        let out = dir.join(format!("a{attempt}"));
        let children: Vec<_> = (0..3)
            .map(|_| {
                xtask()
                    .args(["compare", "data/shots/straight.toml", "--quick"])
                    .args(["--no-scaling", "--physics", "none", "--no-outcomes"])
                    .args(["--no-one-step", "--jobs", "1"])
                    .arg("--out")
                    .arg(&out)
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let mut announced = Vec::new();
        for c in children {
            let o = c.wait_with_output().unwrap();
            let (_, err) = texts(&o);
            assert_eq!(o.status.code(), Some(0), "{err}");
            // `compare: ... -> <run directory>`, printed as the run starts.
            let line = err.lines().find(|l| l.contains(" -> ")).unwrap();
            announced.push(PathBuf::from(line.rsplit_once(" -> ").unwrap().1));
        }
        let mut runs: Vec<PathBuf> = std::fs::read_dir(&out)
            .unwrap()
            .flatten()
            .filter(|e| e.file_type().unwrap().is_dir())
            .map(|e| e.path())
            .collect();
        runs.sort();
        assert_eq!(runs.len(), 3, "{runs:?}");
        let second = |p: &PathBuf| p.file_name().unwrap().to_string_lossy()[..23].to_string();
        if runs.iter().any(|r| second(r) != second(&runs[0])) {
            continue;
        }
        // Each run's page and first line name its own directory.
        announced.sort();
        assert_eq!(announced, runs, "the runs announced other directories");
        for r in &runs {
            assert_eq!(title(r), r.file_name().unwrap().to_string_lossy(), "{r:?}");
        }
        return;
    }
    panic!("five tries, and never three runs in one second");
}
