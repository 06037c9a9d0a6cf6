//! Writing a run's files without losing or half-writing anything.
//!
//! Everything goes to a hidden staging directory next to the destination; only when all files
//! are written is it renamed into place. A destination that already exists is never touched.

use std::fs;
use std::path::{Path, PathBuf};

use crate::CliError;

/// A staging directory that becomes `final_dir` on [`Staging::commit`] and is removed if dropped
/// uncommitted (e.g. on an error).
pub struct Staging {
    dir: PathBuf,
    final_dir: PathBuf,
    committed: bool,
}

impl Staging {
    /// Creates `<parent>/.<name>.partial-<pid>`; fails if `final_dir` exists already.
    pub fn new(final_dir: &Path) -> Result<Self, CliError> {
        if final_dir.exists() {
            return Err(CliError::Input(format!(
                "{} already exists: choose another --run-name (runs are never overwritten)",
                final_dir.display()
            )));
        }
        let parent = final_dir.parent().unwrap_or(Path::new("."));
        let name = final_dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "run".into());
        fs::create_dir_all(parent)
            .map_err(|e| CliError::Run(format!("cannot create {}: {e}", parent.display())))?;
        let dir = parent.join(format!(".{name}.partial-{}", std::process::id()));
        if dir.exists() {
            fs::remove_dir_all(&dir).ok();
        }
        fs::create_dir_all(&dir)
            .map_err(|e| CliError::Run(format!("cannot create {}: {e}", dir.display())))?;
        Ok(Staging {
            dir,
            final_dir: final_dir.to_path_buf(),
            committed: false,
        })
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

    /// Moves the staging directory to its final name (atomic on one filesystem).
    pub fn commit(mut self) -> Result<PathBuf, CliError> {
        fs::rename(&self.dir, &self.final_dir).map_err(|e| {
            CliError::Run(format!(
                "cannot move {} to {}: {e}",
                self.dir.display(),
                self.final_dir.display()
            ))
        })?;
        self.committed = true;
        Ok(self.final_dir.clone())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.committed {
            fs::remove_dir_all(&self.dir).ok();
        }
    }
}

/// Where a command writes its run: the options every writing command shares.
#[derive(clap::Args, Debug, Clone)]
pub struct RunArgs {
    /// Directory that receives the run directory [default: <workspace>/reports]
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Name of the run directory [default: <command>-<UTC timestamp>]; never overwritten
    #[arg(long)]
    pub run_name: Option<String>,
}

impl RunArgs {
    /// The run's parent directory and name (`<prefix>-<UTC timestamp>` by default).
    ///
    /// # Errors
    /// A run name that is not a plain directory name.
    pub fn location(&self, prefix: &str) -> Result<(PathBuf, String), CliError> {
        run_location(&self.out, &self.run_name, prefix)
    }
}

/// Where a run goes: `--out` (default `<workspace>/reports`) and `--run-name` (default
/// `<prefix>-<UTC timestamp>`), which must be a plain directory name.
fn run_location(
    out: &Option<PathBuf>,
    run_name: &Option<String>,
    prefix: &str,
) -> Result<(PathBuf, String), CliError> {
    let root = out
        .clone()
        .unwrap_or_else(|| crate::workspace::workspace_root().join("reports"));
    let name = run_name
        .clone()
        .unwrap_or_else(|| format!("{prefix}-{}", timestamp()));
    if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
        return Err(CliError::Input(format!(
            "--run-name = {name:?}: must be a plain directory name"
        )));
    }
    Ok((root, name))
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
