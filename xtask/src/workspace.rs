//! Where the workspace's data and reports live, and which shot files a command runs.

use std::path::{Path, PathBuf};

use crate::CliError;

/// The workspace root (xtask's parent directory), where `data/` and `reports/` live.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

/// The default shots' directory, `data/shots`.
pub fn shots_dir() -> PathBuf {
    workspace_root().join("data/shots")
}

/// Shot files named on the command line, or every shot in `data/shots`.
pub fn resolve_shots(args: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let inputs = if args.is_empty() {
        vec![shots_dir()]
    } else {
        args.to_vec()
    };
    let mut files = Vec::new();
    for p in inputs {
        if p.is_dir() {
            files.extend(pool_shots::list_shots(&p)?);
        } else if p.is_file() {
            files.push(p);
        } else {
            return Err(CliError::Input(format!(
                "{}: no such shot file or directory",
                p.display()
            )));
        }
    }
    if files.is_empty() {
        return Err(CliError::Input("no shot files found".into()));
    }
    Ok(files)
}

/// The shot file: the path as given, or `data/shots/<name>.toml` for a bare default shot name.
pub fn resolve_shot(shot: &Path) -> Result<PathBuf, CliError> {
    if shot.is_file() {
        return Ok(shot.to_path_buf());
    }
    let dir = shots_dir();
    let named = dir.join(shot).with_extension("toml");
    if shot.components().count() == 1 && shot.extension().is_none() && named.is_file() {
        return Ok(named);
    }
    let known: Vec<String> = pool_shots::list_shots(&dir)
        .unwrap_or_default()
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    Err(CliError::Input(format!(
        "shot = {:?}: no such shot file, nor a default shot ({})",
        shot.display().to_string(),
        known.join(", ")
    )))
}
