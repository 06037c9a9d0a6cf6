//! Baseline files under `data/baselines/`: `<shot>.events.csv`, `<shot>.final.csv` and
//! `discrete.csv`.
//!
//! `--bless` rewrites them all or not at all: a [`BlessStage`] copies the whole directory to a
//! hidden sibling, `.<dir>.bless-<pid>`, writes the new files there, and swaps it with the
//! directory in one step (Linux's `renameat2(RENAME_EXCHANGE)`; elsewhere, two renames, and the
//! old directory is put back by the next run if one was killed between them).

use std::fs;
use std::path::{Path, PathBuf};

use pool_harness::{is_event_kind, DiscreteLine, EventLine, FinalLine, ShotBaseline};

use crate::console::errln;
use crate::output::{clean_stale, csv_bytes};
use crate::CliError;

/// The default baseline directory, `data/baselines` of the workspace.
pub fn default_dir() -> Result<PathBuf, CliError> {
    Ok(crate::workspace::workspace_root()?.join("data/baselines"))
}

/// Columns of `<shot>.events.csv` ([`EventLine`]'s fields, in order).
pub const EVENT_COLUMNS: [&str; 5] = ["index", "time_s", "kind", "agent_1", "agent_2"];
/// Columns of `<shot>.final.csv` ([`FinalLine`]'s fields, in order).
pub const FINAL_COLUMNS: [&str; 9] = ["id", "state", "x", "y", "vx", "vy", "wx", "wy", "wz"];
/// Columns of `discrete.csv` ([`DiscreteLine`]'s fields, in order).
pub const DISCRETE_COLUMNS: [&str; 11] = [
    "shot",
    "scheme",
    "dt_s",
    "n_events",
    "n_matched",
    "n_missed",
    "n_spurious",
    "collision_time_error_median_s",
    "collision_time_error_max_s",
    "final_position_error_max_m",
    "ops_total",
];

/// Most bytes of a baseline table (the committed ones are a few kB).
const MAX_BASELINE_BYTES: u64 = 64 << 20;

/// Reads a baseline table whose header must be `columns` (a file of any other shape, garbage
/// included, is an error, never an empty log); `None` when nothing is at `path`. Only a
/// regular file is read: a FIFO would block `--check` forever, a link would read (and a bless
/// would drop) a file elsewhere.
fn read_csv<T: serde::de::DeserializeOwned>(
    path: &Path,
    columns: &[&str],
) -> Result<Option<Vec<T>>, CliError> {
    if !pool_report::files::exists(path) {
        return Ok(None);
    }
    let bad = |what: String| CliError::Input(format!("{}: {what}", path.display()));
    let bytes = pool_report::files::read_capped(path, MAX_BASELINE_BYTES).map_err(bad)?;
    let mut r = csv::Reader::from_reader(bytes.as_slice());
    let header = r.headers().map_err(|e| bad(e.to_string()))?;
    // An empty file is an empty table (a table of no rows is written without a header).
    if header.is_empty() && bytes.is_empty() {
        return Ok(Some(Vec::new()));
    }
    if header.iter().ne(columns.iter().copied()) {
        let shown: String = header
            .iter()
            .collect::<Vec<_>>()
            .join(",")
            .chars()
            .take(80)
            .collect();
        return Err(bad(format!(
            "header = {shown:?}: not a baseline table (expected {})",
            columns.join(",")
        )));
    }
    let rows = r
        .deserialize()
        .enumerate()
        .map(|(i, row)| row.map_err(|e| bad(format!("row {}: {e}", i + 2))))
        .collect::<Result<Vec<T>, _>>()?;
    Ok(Some(rows))
}

/// The baseline directory `dir`, a symbolic link at its last component followed once, here: a
/// bless then swaps the directory the link names (its stage beside that directory), and the
/// link keeps naming it. Swapping at the link's own place would replace the link with a
/// directory and leave the real files as they were.
///
/// # Errors
/// A link that leads nowhere (exit 2).
pub fn resolve(dir: &Path) -> Result<PathBuf, CliError> {
    match fs::symlink_metadata(dir) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(dir).map_err(|e| {
            CliError::Input(format!(
                "{}: a symbolic link that leads nowhere: {e}",
                dir.display()
            ))
        }),
        _ => Ok(dir.to_path_buf()),
    }
}

/// Reads a shot's baseline; `None` when it has none yet.
pub fn read_shot(dir: &Path, shot: &str) -> Result<Option<ShotBaseline>, CliError> {
    let events_path = dir.join(format!("{shot}.events.csv"));
    let final_path = dir.join(format!("{shot}.final.csv"));
    let (Some(events), Some(finals)) = (
        read_csv::<EventLine>(&events_path, &EVENT_COLUMNS)?,
        read_csv::<FinalLine>(&final_path, &FINAL_COLUMNS)?,
    ) else {
        return Ok(None);
    };
    if let Some(e) = events.iter().find(|e| !is_event_kind(&e.kind)) {
        return Err(CliError::Input(format!(
            "{}: event {}: kind = {:?}: not an event kind",
            events_path.display(),
            e.index,
            e.kind
        )));
    }
    Ok(Some(ShotBaseline {
        shot: shot.to_string(),
        events,
        finals,
    }))
}

/// Reads `discrete.csv` (empty when absent).
pub fn read_discrete(dir: &Path) -> Result<Vec<DiscreteLine>, CliError> {
    Ok(read_csv(&dir.join("discrete.csv"), &DISCRETE_COLUMNS)?.unwrap_or_default())
}

/// The markers in the names of a bless's hidden directories: the stage being written, and the
/// old directory between the two renames of the portable swap.
const STAGE: &str = "bless";
const REPLACED: &str = "replaced";

/// A whole copy of a baseline directory, rewritten and then swapped in by [`BlessStage::commit`];
/// removed if dropped uncommitted.
pub struct BlessStage {
    stage: PathBuf,
    target: PathBuf,
    committed: bool,
}

/// `<parent of dir>/.<name of dir>.<marker>-<pid>`.
fn sibling(dir: &Path, marker: &str) -> PathBuf {
    let name = dir
        .file_name()
        .map_or("baselines".into(), |n| n.to_string_lossy());
    dir.with_file_name(format!(".{name}.{marker}-{}", std::process::id()))
}

/// Puts back a baseline directory that a bless killed between the two renames of the portable
/// swap left under its `.replaced-<pid>` name, and removes the stages of killed blesses.
pub fn recover(dir: &Path) -> Result<(), CliError> {
    let parent = dir.parent().unwrap_or(Path::new("."));
    if !dir.exists() {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        let prefix = format!(".{}.{REPLACED}-", name.unwrap_or_default());
        let old = fs::read_dir(parent).ok().and_then(|rd| {
            rd.flatten().map(|e| e.path()).find(|p| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
            })
        });
        if let Some(old) = old {
            fs::rename(&old, dir).map_err(|e| {
                CliError::Run(format!(
                    "cannot restore {} from {}: {e}",
                    dir.display(),
                    old.display()
                ))
            })?;
            errln!(
                "note: restored {} from {}, left by a bless killed mid-swap",
                dir.display(),
                old.display()
            );
        }
    }
    clean_stale(parent, STAGE);
    clean_stale(parent, REPLACED);
    Ok(())
}

impl BlessStage {
    /// Copies every file of `dir` (if it exists) into a fresh stage beside it.
    ///
    /// # Errors
    /// A file that cannot be copied.
    pub fn new(dir: &Path) -> Result<Self, CliError> {
        recover(dir)?;
        let stage = sibling(dir, STAGE);
        let io = |p: &Path, e: std::io::Error| CliError::Run(format!("{}: {e}", p.display()));
        if stage.exists() {
            fs::remove_dir_all(&stage).map_err(|e| io(&stage, e))?;
        }
        fs::create_dir_all(&stage).map_err(|e| io(&stage, e))?;
        let me = BlessStage {
            stage,
            target: dir.to_path_buf(),
            committed: false,
        };
        if dir.exists() {
            for e in fs::read_dir(dir).map_err(|e| io(dir, e))? {
                let e = e.map_err(|e| io(dir, e))?;
                if e.file_type().is_ok_and(|t| t.is_file()) {
                    fs::copy(e.path(), me.stage.join(e.file_name()))
                        .map_err(|err| io(&e.path(), err))?;
                }
            }
        }
        Ok(me)
    }

    fn write(&self, name: &str, bytes: &[u8]) -> Result<(), CliError> {
        let p = self.stage.join(name);
        fs::write(&p, bytes).map_err(|e| CliError::Run(format!("{}: {e}", p.display())))
    }

    /// Writes a shot's baseline into the stage.
    pub fn write_shot(&self, b: &ShotBaseline) -> Result<(), CliError> {
        self.write(&format!("{}.events.csv", b.shot), &csv_bytes(&b.events)?)?;
        self.write(&format!("{}.final.csv", b.shot), &csv_bytes(&b.finals)?)
    }

    /// Rewrites the stage's `discrete.csv`: the rows of `shots` replaced by `lines`, other
    /// shots' rows kept; sorted by shot, scheme, then decreasing dt.
    pub fn write_discrete(&self, shots: &[String], lines: &[DiscreteLine]) -> Result<(), CliError> {
        let mut all: Vec<DiscreteLine> = read_discrete(&self.stage)?
            .into_iter()
            .filter(|l| !shots.contains(&l.shot))
            .chain(lines.iter().cloned())
            .collect();
        all.sort_by(|a, b| {
            (a.shot.as_str(), a.scheme.as_str())
                .cmp(&(b.shot.as_str(), b.scheme.as_str()))
                .then(b.dt_s.total_cmp(&a.dt_s))
        });
        self.write("discrete.csv", &csv_bytes(&all)?)
    }

    /// Swaps the stage in for the directory: every file new, or (on an error) every file old.
    ///
    /// # Errors
    /// A rename the filesystem refuses (the old directory is then kept).
    pub fn commit(mut self) -> Result<(), CliError> {
        let fail = |e: std::io::Error| {
            CliError::Run(format!(
                "cannot swap {} in for {}: {e}",
                self.stage.display(),
                self.target.display()
            ))
        };
        if !self.target.exists() {
            fs::rename(&self.stage, &self.target).map_err(fail)?;
            self.committed = true;
            return Ok(());
        }
        if exchange(&self.stage, &self.target) {
            // The stage's name now holds the old directory.
            self.committed = true;
            fs::remove_dir_all(&self.stage).ok();
            return Ok(());
        }
        let old = sibling(&self.target, REPLACED);
        fs::rename(&self.target, &old).map_err(fail)?;
        if let Err(e) = fs::rename(&self.stage, &self.target) {
            fs::rename(&old, &self.target).ok();
            return Err(fail(e));
        }
        self.committed = true;
        fs::remove_dir_all(&old).ok();
        Ok(())
    }
}

impl Drop for BlessStage {
    fn drop(&mut self) {
        if !self.committed {
            fs::remove_dir_all(&self.stage).ok();
        }
    }
}

/// Exchanges two directories atomically (Linux `renameat2` with `RENAME_EXCHANGE`); false when
/// the system or filesystem cannot, for the caller to fall back on two renames.
fn exchange(a: &Path, b: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::ffi::CString;
        use std::os::unix::ffi::OsStrExt;
        let (Ok(ca), Ok(cb)) = (
            CString::new(a.as_os_str().as_bytes()),
            CString::new(b.as_os_str().as_bytes()),
        ) else {
            return false;
        };
        // SAFETY: two valid NUL-terminated paths relative to the current directory.
        let r = unsafe {
            libc::renameat2(
                libc::AT_FDCWD,
                ca.as_ptr(),
                libc::AT_FDCWD,
                cb.as_ptr(),
                libc::RENAME_EXCHANGE,
            )
        };
        r == 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = (a, b);
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header each table is written with is the one it is read with.
    #[test]
    fn the_column_lists_are_the_rows_fields() {
        let header = |bytes: Vec<u8>| {
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .next()
                .unwrap()
                .to_string()
        };
        let e = EventLine {
            index: 0,
            time_s: 0.0,
            kind: "ball_ball".into(),
            agent_1: "a".into(),
            agent_2: "b".into(),
        };
        assert_eq!(header(csv_bytes(&[e]).unwrap()), EVENT_COLUMNS.join(","));
        let f = FinalLine {
            id: "a".into(),
            state: "stationary".into(),
            x: 0.0,
            y: 0.0,
            vx: 0.0,
            vy: 0.0,
            wx: 0.0,
            wy: 0.0,
            wz: 0.0,
        };
        assert_eq!(header(csv_bytes(&[f]).unwrap()), FINAL_COLUMNS.join(","));
        let d = DiscreteLine {
            shot: "s".into(),
            scheme: "end_of_step".into(),
            dt_s: 1e-3,
            n_events: 0,
            n_matched: 0,
            n_missed: 0,
            n_spurious: 0,
            collision_time_error_median_s: 0.0,
            collision_time_error_max_s: 0.0,
            final_position_error_max_m: 0.0,
            ops_total: 0,
        };
        assert_eq!(header(csv_bytes(&[d]).unwrap()), DISCRETE_COLUMNS.join(","));
    }
}
