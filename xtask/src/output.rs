//! Writing a run's files without losing or half-writing anything.
//!
//! Everything goes to a hidden staging directory next to the destination; only when all files
//! are written (and the directory is checked to be still this run's) is it renamed into place.
//! A destination that already exists is never touched. A live run holds a lock (`flock` on
//! `.lock` in its staging directory) that a run in any process, PID namespace or container
//! sharing the file system sees: only unlocked staging directories are stale, and the next
//! run in the same place removes them.

use std::fs;
use std::path::{Path, PathBuf};

use crate::console::errln;
use crate::CliError;

/// A staging directory that becomes the run directory `<root>/<name>` on [`Staging::commit`]
/// and is removed if dropped uncommitted (e.g. on an error).
pub struct Staging {
    /// `<root>/.<name>.partial-<pid>-<nonce>`.
    dir: PathBuf,
    /// The open, locked `.lock` file of `dir`: the lock lasts as long as it is open.
    lock: fs::File,
    root: PathBuf,
    name: String,
    /// Whether the name is the default one, which gains a suffix (`-2`, `-3`, ...) instead of
    /// failing when another run took it first.
    default_name: bool,
    committed: bool,
}

/// The marker in the names of staging directories: `.<name>.partial-<pid>-<nonce>`
/// (`.<name>.partial-<pid>` in older versions).
const PARTIAL: &str = "partial";

/// The lock file inside a staging directory.
const LOCK: &str = ".lock";

/// A staging directory without a lock file (one being made) is left alone for this long after
/// its last change (s).
const YOUNG_S: u64 = 60;

/// A number no other staging directory of this process uses (with the process id, unique).
fn nonce() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    u64::from(nanos) ^ (COUNT.fetch_add(1, Ordering::Relaxed) << 32)
}

/// Takes the exclusive lock of `f` without waiting: `false` when another process holds it.
fn try_lock(f: &fs::File) -> std::io::Result<bool> {
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on our own open descriptor.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok(true);
        }
        let e = std::io::Error::last_os_error();
        if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
            return Ok(false);
        }
        Err(e)
    }
    #[cfg(not(unix))]
    {
        let _ = f;
        Ok(true)
    }
}

/// Opens the lock file `path` (never through a link, never waiting on a FIFO; created when
/// `create`).
fn open_lock(path: &Path, create: bool) -> std::io::Result<fs::File> {
    let mut options = fs::OpenOptions::new();
    options.read(true).write(true).create_new(create);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let f = options.open(path)?;
    if f.metadata()?.is_file() {
        Ok(f)
    } else {
        Err(std::io::Error::other("not a regular file"))
    }
}

/// The directory `dir` open and locked (`flock`, waiting for another run choosing a name
/// there); `None` where it cannot be (a file system without locks: the name is then chosen
/// unlocked, and [`Staging::commit`] still never overwrites a run).
fn lock_dir(dir: &Path) -> Option<fs::File> {
    let f = fs::File::open(dir).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::io::AsRawFd;
        // SAFETY: flock on our own open descriptor.
        if unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX) } != 0 {
            return None;
        }
    }
    Some(f)
}

/// The first of `base`, `base-2`, `base-3`, ... that neither names an entry of `root` nor is
/// being made there (a staging directory `.<name>.partial-...`).
fn free_name(root: &Path, base: &str) -> String {
    let needle = format!(".{PARTIAL}-");
    let staged: std::collections::HashSet<String> = fs::read_dir(root)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    let (name, _) = n.strip_prefix('.')?.rsplit_once(&needle)?;
                    Some(name.to_string())
                })
                .collect()
        })
        .unwrap_or_default();
    (1u32..)
        .map(|k| match k {
            1 => base.to_string(),
            _ => format!("{base}-{k}"),
        })
        .find(|n| !staged.contains(n) && !pool_report::files::exists(&root.join(n)))
        .unwrap_or_else(|| unreachable!("the names are endless"))
}

/// Whether `a` and `b` are the same file (device and inode).
fn same_file(a: &fs::Metadata, b: &fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        a.dev() == b.dev() && a.ino() == b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (a, b);
        true
    }
}

impl Staging {
    /// Creates `<root>/.<name>.partial-<pid>-<nonce>`, first removing the staging directories
    /// that killed runs left in `root`. A `name` given by the user must not exist yet; a default
    /// one is made unique here (`-2`, `-3`, ...: [`free_name`]).
    ///
    /// # Errors
    /// A given name that exists (exit 2), or a directory that cannot be created (exit 1).
    pub fn new(root: &Path, name: &str, default_name: bool) -> Result<Self, CliError> {
        let taken = root.join(name);
        if taken.exists() && !default_name {
            return Err(CliError::Input(format!(
                "{} already exists: choose another --run-name (runs are never overwritten)",
                taken.display()
            )));
        }
        fs::create_dir_all(root)
            .map_err(|e| CliError::Run(format!("cannot create {}: {e}", root.display())))?;
        clean_stale(root, PARTIAL);
        // A default name is chosen, and its staging directory made, while `root` is locked:
        // runs started in one second each take a name of their own from the start, so that
        // their pages and lines name their own directories.
        let _choosing = default_name.then(|| lock_dir(root)).flatten();
        let name = if default_name {
            free_name(root, name)
        } else {
            name.to_string()
        };
        // A name of its own (never another run's, whatever its PID namespace), then locked.
        let dir = loop {
            let dir = root.join(format!(
                ".{name}.{PARTIAL}-{}-{:x}",
                std::process::id(),
                nonce()
            ));
            match fs::create_dir(&dir) {
                Ok(()) => break dir,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
                Err(e) => {
                    return Err(CliError::Run(format!(
                        "cannot create {}: {e}",
                        dir.display()
                    )))
                }
            }
        };
        let lock = open_lock(&dir.join(LOCK), true)
            .and_then(|f| match try_lock(&f)? {
                true => Ok(f),
                false => Err(std::io::Error::other("locked by another process")),
            })
            .map_err(|e| {
                fs::remove_dir_all(&dir).ok();
                CliError::Run(format!("cannot lock {}: {e}", dir.join(LOCK).display()))
            })?;
        Ok(Staging {
            dir,
            lock,
            root: root.to_path_buf(),
            name,
            default_name,
            committed: false,
        })
    }

    /// Where the run is going: `<root>/<name>` (a default name may still gain a suffix).
    pub fn destination(&self) -> PathBuf {
        self.root.join(&self.name)
    }

    /// Path of a file inside the staging directory.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Writes a whole file into the staging directory.
    pub fn write(&self, name: &str, contents: &[u8]) -> Result<(), CliError> {
        let p = self.path(name);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| CliError::Run(format!("{}: {e}", parent.display())))?;
        }
        fs::write(&p, contents)
            .map_err(|e| CliError::Run(format!("cannot write {}: {e}", p.display())))
    }

    /// Creates a file inside the staging directory to be written piece by piece (a table that
    /// grows with the run, streamed instead of held in memory).
    pub fn create(&self, name: &str) -> Result<std::io::BufWriter<fs::File>, CliError> {
        let p = self.path(name);
        if let Some(parent) = p.parent() {
            fs::create_dir_all(parent)
                .map_err(|e| CliError::Run(format!("{}: {e}", parent.display())))?;
        }
        fs::File::create(&p)
            .map(std::io::BufWriter::new)
            .map_err(|e| CliError::Run(format!("cannot write {}: {e}", p.display())))
    }

    /// Moves the staging directory to its final name (atomic on one filesystem) and returns
    /// it. A default name another run took meanwhile becomes `<name>-2`, `<name>-3`, ...
    ///
    /// # Errors
    /// A given name another run took meanwhile, or a rename the filesystem refuses.
    pub fn commit(mut self) -> Result<PathBuf, CliError> {
        // Still this run's directory: another process (an older version, or one that did not
        // see the lock) may have removed it, or put another in its place.
        let ours = self.lock.metadata().ok();
        let there = fs::symlink_metadata(self.dir.join(LOCK)).ok();
        if !matches!((&ours, &there), (Some(a), Some(b)) if same_file(a, b)) {
            return Err(CliError::Run(format!(
                "{}: this run's staging directory was removed or replaced by another process \
                 while it ran; nothing committed",
                self.dir.display()
            )));
        }
        for k in 1u32.. {
            let dest = match k {
                1 => self.destination(),
                _ if self.default_name => self.root.join(format!("{}-{k}", self.name)),
                _ => {
                    return Err(CliError::Run(format!(
                        "{} was created by another run while this one worked; nothing written",
                        self.destination().display()
                    )))
                }
            };
            // A rename onto an empty directory would replace it: look first.
            if dest.exists() {
                continue;
            }
            match fs::rename(&self.dir, &dest) {
                Ok(()) => {
                    self.committed = true;
                    fs::remove_file(dest.join(LOCK)).ok();
                    return Ok(dest);
                }
                Err(_) if dest.exists() => continue,
                Err(e) => {
                    return Err(CliError::Run(format!(
                        "cannot move {} to {}: {e}",
                        self.dir.display(),
                        dest.display()
                    )))
                }
            }
        }
        unreachable!("the loop returns")
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            fs::remove_dir_all(&self.dir).ok();
        }
    }
}

/// Whether the staging directory `dir` (named `...<needle><rest>`) is a killed run's: its
/// lock file can be locked (no live run holds it, in any PID namespace); without one, a
/// `<rest>` that is a process id (older versions, `--bless`) of a process gone here, or a
/// directory unchanged for [`YOUNG_S`] (one killed while being made).
fn stale(dir: &Path, rest: &str) -> bool {
    match open_lock(&dir.join(LOCK), false) {
        Ok(f) => return try_lock(&f).unwrap_or(false),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => return false,
        Err(_) => {}
    }
    if let Ok(pid) = rest.parse::<u32>() {
        return pid != std::process::id() && !process_alive(pid);
    }
    fs::symlink_metadata(dir)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .is_some_and(|age| age.as_secs() > YOUNG_S)
}

/// Removes the directories `.<name>.<marker>-...` in `dir` that no live run holds (a run killed
/// before it could clean up: [`stale`]), and says how many it removed. Those of live runs, and
/// every other entry, are left alone.
pub fn clean_stale(dir: &Path, marker: &str) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let needle = format!(".{marker}-");
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((_, rest)) = name.strip_prefix('.').and_then(|n| n.rsplit_once(&needle)) else {
            continue;
        };
        if e.file_type().is_ok_and(|t| t.is_dir())
            && stale(&e.path(), rest)
            && fs::remove_dir_all(e.path()).is_ok()
        {
            removed += 1;
        }
    }
    if removed > 0 {
        errln!(
            "note: removed {removed} staging director{} of killed runs in {}",
            if removed == 1 { "y" } else { "ies" },
            dir.display()
        );
    }
    removed
}

/// Whether process `pid` exists (on Unix; elsewhere every process is taken to be alive, so
/// nothing is removed).
fn process_alive(pid: u32) -> bool {
    #[cfg(unix)]
    {
        let Ok(pid) = libc::pid_t::try_from(pid) else {
            return true;
        };
        // SAFETY: signal 0 only checks that the process exists; nothing is sent.
        let r = unsafe { libc::kill(pid, 0) };
        r == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
    }
    #[cfg(not(unix))]
    {
        let _ = pid;
        true
    }
}

/// Writes `path` whole: to a temporary file beside it (created exclusively under a random
/// name, never through a link), then renamed over it, so that a reader sees the old file or
/// the new one, never a part, and a link at `path` is replaced, never written through.
///
/// # Errors
/// A write or rename that fails (the temporary file is removed).
pub fn write_file_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    pool_report::files::write_replacing(path, bytes)
        .map_err(|e| CliError::Run(format!("cannot write {}: {e}", path.display())))
}

/// Where a command writes its run: the options every writing command shares.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Directory that receives the run directory [default: reports/ of the workspace, or of
    /// the current directory outside one]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Name of the run directory [default: <command>-<UTC time>, with -2, -3, ... if another
    /// run has it]; a given name is never overwritten
    #[arg(long)]
    pub run_name: Option<String>,
}

impl RunArgs {
    /// The run's staging directory under `--out` (default `reports/` of the workspace), to be
    /// committed as `--run-name` (default `<prefix>-<UTC timestamp>`).
    ///
    /// # Errors
    /// A run name that is not a plain directory name, or one that exists (exit 2); no
    /// workspace for the default `--out`; a directory that cannot be created (exit 1).
    pub fn stage(&self, prefix: &str) -> Result<Staging, CliError> {
        let root = match &self.out {
            Some(out) => out.clone(),
            None => crate::workspace::reports_dir()?,
        };
        let name = match &self.run_name {
            Some(name) => {
                check_run_name(name)?;
                name.clone()
            }
            None => format!("{prefix}-{}", timestamp()),
        };
        Staging::new(&root, &name, self.run_name.is_none())
    }
}

/// A run name must be a plain directory name: not empty, no path separator, not hidden, no
/// control character (a newline in a name breaks every listing), at most 200 bytes.
fn check_run_name(name: &str) -> Result<(), CliError> {
    if name.is_empty()
        || name.len() > 200
        || name.contains(['/', '\\'])
        || name.starts_with('.')
        || name.chars().any(char::is_control)
    {
        return Err(CliError::Input(format!(
            "--run-name = {name:?}: must be a plain directory name (no path separator, no \
             leading dot, no control character, at most 200 bytes)"
        )));
    }
    Ok(())
}

/// Serializes rows to CSV bytes.
pub fn csv_bytes<T: serde::Serialize>(rows: &[T]) -> Result<Vec<u8>, CliError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in rows {
        w.serialize(r)
            .map_err(|e| CliError::Run(format!("csv: {e}")))?;
    }
    w.into_inner()
        .map_err(|e| CliError::Run(format!("csv: {e}")))
}

/// UTC timestamp `YYYYMMDD-HHMMSS` from the system clock (for default run names).
pub fn timestamp() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}{m:02}{d:02}-{:02}{:02}{:02}",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}
