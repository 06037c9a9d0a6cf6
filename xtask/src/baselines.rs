//! Baseline files under `data/baselines/`: `<shot>.events.csv`, `<shot>.final.csv` and
//! `discrete.csv`. Each file is written whole to a temporary name and renamed into place.

use std::fs;
use std::path::{Path, PathBuf};

use pool_harness::{is_event_kind, DiscreteLine, EventLine, FinalLine, ShotBaseline};

use crate::output::csv_bytes;
use crate::CliError;

/// The default baseline directory, `<workspace>/data/baselines`.
pub fn default_dir() -> PathBuf {
    crate::workspace::workspace_root().join("data/baselines")
}

fn read_csv<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<Vec<T>>, CliError> {
    if !path.exists() {
        return Ok(None);
    }
    let mut r = csv::Reader::from_path(path)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    let rows = r
        .deserialize()
        .enumerate()
        .map(|(i, row)| {
            row.map_err(|e| CliError::Input(format!("{}: row {}: {e}", path.display(), i + 2)))
        })
        .collect::<Result<Vec<T>, _>>()?;
    Ok(Some(rows))
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| CliError::Run(format!("{}: {e}", dir.display())))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name()
            .map_or("baseline".into(), |n| n.to_string_lossy()),
        std::process::id()
    ));
    fs::write(&tmp, bytes).map_err(|e| CliError::Run(format!("{}: {e}", tmp.display())))?;
    fs::rename(&tmp, path).map_err(|e| CliError::Run(format!("{}: {e}", path.display())))
}

/// Reads a shot's baseline; `None` when it has none yet.
pub fn read_shot(dir: &Path, shot: &str) -> Result<Option<ShotBaseline>, CliError> {
    let events_path = dir.join(format!("{shot}.events.csv"));
    let final_path = dir.join(format!("{shot}.final.csv"));
    let (Some(events), Some(finals)) = (
        read_csv::<EventLine>(&events_path)?,
        read_csv::<FinalLine>(&final_path)?,
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

/// Writes a shot's baseline.
pub fn write_shot(dir: &Path, b: &ShotBaseline) -> Result<(), CliError> {
    write_atomically(
        &dir.join(format!("{}.events.csv", b.shot)),
        &csv_bytes(&b.events)?,
    )?;
    write_atomically(
        &dir.join(format!("{}.final.csv", b.shot)),
        &csv_bytes(&b.finals)?,
    )
}

/// Reads `discrete.csv` (empty when absent).
pub fn read_discrete(dir: &Path) -> Result<Vec<DiscreteLine>, CliError> {
    Ok(read_csv(&dir.join("discrete.csv"))?.unwrap_or_default())
}

/// Rewrites `discrete.csv`: the rows of `shots` are replaced by `lines`, other shots' rows kept;
/// sorted by shot, scheme, then decreasing dt.
pub fn write_discrete(
    dir: &Path,
    shots: &[String],
    lines: &[DiscreteLine],
) -> Result<(), CliError> {
    let mut all: Vec<DiscreteLine> = read_discrete(dir)?
        .into_iter()
        .filter(|l| !shots.contains(&l.shot))
        .chain(lines.iter().cloned())
        .collect();
    all.sort_by(|a, b| {
        (a.shot.as_str(), a.scheme.as_str())
            .cmp(&(b.shot.as_str(), b.scheme.as_str()))
            .then(b.dt_s.total_cmp(&a.dt_s))
    });
    write_atomically(&dir.join("discrete.csv"), &csv_bytes(&all)?)
}
