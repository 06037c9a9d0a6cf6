//! Where the workspace's data and reports live (found from the current directory), and which
//! shot files a command runs.

use std::path::{Path, PathBuf};

use crate::CliError;

/// The workspace this command works in: the current directory or its nearest ancestor holding
/// both `Cargo.toml` and `data/shots/`, as cargo and git find theirs. Its `data/` (default
/// shots, baselines, root cases) and `reports/` are the ones used, whatever directory the
/// binary was built in; `cargo xtask` runs it from where it was typed, anywhere in the
/// workspace.
///
/// # Errors
/// No such directory at or above the current one (exit 2).
pub fn workspace_root() -> Result<PathBuf, CliError> {
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::Run(format!("cannot read the current directory: {e}")))?;
    cwd.ancestors()
        .find(|d| d.join("Cargo.toml").is_file() && d.join("data/shots").is_dir())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            CliError::Input(format!(
                "no harness workspace at or above {} (a directory with Cargo.toml and \
                 data/shots/): run the command inside one, or name every file and --out",
                cwd.display()
            ))
        })
}

/// The default shots' directory, `data/shots` of the workspace.
pub fn shots_dir() -> Result<PathBuf, CliError> {
    Ok(workspace_root()?.join("data/shots"))
}

/// Shot files named on the command line, or every shot in `data/shots`. The same file given
/// twice is run once; two files with the same stem (shot name) from different directories are
/// refused, since baselines, plots and report rows are named by it.
///
/// # Errors
/// A missing file or directory, no shot at all, or two shots of one name (exit 2).
pub fn resolve_shots(args: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let inputs = if args.is_empty() {
        vec![shots_dir()?]
    } else {
        args.to_vec()
    };
    let mut files: Vec<PathBuf> = Vec::new();
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
    let mut seen: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut unique = Vec::new();
    for f in files {
        let real = f.canonicalize().unwrap_or_else(|_| f.clone());
        let stem = PathBuf::from(f.file_stem().unwrap_or_default());
        if seen.iter().any(|(r, _)| *r == real) {
            continue;
        }
        if let Some((_, first)) = seen
            .iter()
            .find(|(_, g)| g.file_stem() == Some(stem.as_os_str()))
        {
            return Err(CliError::Input(format!(
                "{}: shot name {:?} is also {}'s; baselines, plots and report rows are named by \
                 the file's stem, so rename one",
                f.display(),
                stem.display().to_string(),
                first.display()
            )));
        }
        seen.push((real, f.clone()));
        unique.push(f);
    }
    Ok(unique)
}

/// The shot file: the path as given, or `data/shots/<name>.toml` for a bare default shot name.
pub fn resolve_shot(shot: &Path) -> Result<PathBuf, CliError> {
    if shot.is_file() {
        return Ok(shot.to_path_buf());
    }
    let no_such = || {
        CliError::Input(format!(
            "shot = {:?}: no such shot file",
            shot.display().to_string()
        ))
    };
    let dir = shots_dir().map_err(|_| no_such())?;
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
