//! Where the workspace's data and reports live (found from the current directory, else the
//! harness's own), and which
//! shot files a command runs.

use std::path::{Path, PathBuf};

use crate::CliError;

/// The workspace this command works in: the current directory or its nearest ancestor holding
/// both `Cargo.toml` and `data/shots/`, as cargo and git find theirs; else the workspace this
/// binary was built from (a user's own program in its own repository runs the default shots
/// and families of the installed harness). Its `data/` (default shots, baselines, root cases)
/// are the ones used; `cargo xtask` runs it from where it was typed.
///
/// # Errors
/// No such directory at or above the current one, and the harness's own is gone (exit 2).
pub fn workspace_root() -> Result<PathBuf, CliError> {
    let cwd = current_dir()?;
    if let Some(d) = enclosing(&cwd) {
        return Ok(d);
    }
    installed().ok_or_else(|| {
        CliError::Input(format!(
            "no harness workspace at or above {} (a directory with Cargo.toml and \
             data/shots/), and the one this binary was built from ({}) is gone: run the command \
             inside one, or name every file and --out",
            cwd.display(),
            built_from().display()
        ))
    })
}

/// Where runs go by default: `reports/` of the workspace at or above the current directory,
/// else `reports/` of the current directory (a user's own repository, where their program
/// lives).
///
/// # Errors
/// The current directory cannot be read (exit 1).
pub fn reports_dir() -> Result<PathBuf, CliError> {
    let cwd = current_dir()?;
    Ok(enclosing(&cwd).unwrap_or(cwd).join("reports"))
}

/// How a printed command runs this binary: `cargo xtask` inside a harness workspace, else
/// the binary's own path (a user in their own repository runs it by path).
pub fn invocation() -> String {
    let inside = std::env::current_dir()
        .ok()
        .and_then(|d| enclosing(&d))
        .is_some();
    match std::env::current_exe() {
        Ok(exe) if !inside => {
            // Linux names a binary rebuilt while it runs "<path> (deleted)": the path is the
            // new build's.
            let path = exe.display().to_string();
            let path = path.strip_suffix(" (deleted)").unwrap_or(&path);
            pool_engines::shell_word(path)
        }
        _ => "cargo xtask".into(),
    }
}

fn current_dir() -> Result<PathBuf, CliError> {
    std::env::current_dir()
        .map_err(|e| CliError::Run(format!("cannot read the current directory: {e}")))
}

/// The nearest directory at or above `dir` that is a harness workspace.
fn enclosing(dir: &Path) -> Option<PathBuf> {
    dir.ancestors()
        .find(|d| is_workspace(d))
        .map(Path::to_path_buf)
}

fn is_workspace(d: &Path) -> bool {
    d.join("Cargo.toml").is_file() && d.join("data/shots").is_dir()
}

/// The workspace this binary was built from (xtask's parent).
fn built_from() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// [`built_from`], when it still is a workspace.
fn installed() -> Option<PathBuf> {
    Some(built_from()).filter(|d| is_workspace(d))
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
