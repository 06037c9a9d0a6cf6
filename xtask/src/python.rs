//! Finding a Python with pooltool 0.6.0, the optional peer (`bench-peers`,
//! `compare-pooltool`), and running the scripts of `benches/peers/` with it.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::workspace_root;
use crate::CliError;

/// What to print when no pooltool is found (one line).
pub const SETUP_HINT: &str =
    "pooltool not found: no $POOLTOOL_PYTHON and no .venv-pooltool/bin/python \
with pooltool-billiards 0.6.0. To set it up (a plain `pip install pooltool-billiards` gets the old \
0.3.3), follow benches/peers/README.md.";

/// The Python to run pooltool with: `explicit` (the `--python` option, which must work: bad
/// input otherwise), else the first of `$POOLTOOL_PYTHON` and the workspace's
/// `.venv-pooltool/bin/python` that does, else none.
///
/// # Errors
/// An explicit Python that cannot run or import pooltool 0.6.0 (exit 2, naming `--python`).
pub fn find_pooltool(explicit: Option<&Path>) -> Result<Option<PathBuf>, CliError> {
    if let Some(p) = explicit {
        return pool_engines::pooltool::check_python(p)
            .map(|()| Some(p.to_path_buf()))
            .map_err(|why| CliError::Input(format!("--python = {}: {why}", p.display())));
    }
    let venv = workspace_root()
        .ok()
        .map(|r| r.join(".venv-pooltool/bin/python"));
    Ok(std::env::var_os("POOLTOOL_PYTHON")
        .map(PathBuf::from)
        .into_iter()
        .chain(venv)
        .find(|p| pool_engines::pooltool::imports_pooltool(p)))
}

/// Runs `benches/peers/<script>` with `python` and `args`; its standard output.
///
/// # Errors
/// No workspace, Python cannot be started, or the script exits with an error (its stderr in
/// the message).
pub fn run_script(
    python: &Path,
    script: &str,
    args: &[std::ffi::OsString],
) -> Result<String, CliError> {
    let script = workspace_root()?.join("benches/peers").join(script);
    let out = Command::new(python)
        .arg(&script)
        .args(args)
        .output()
        .map_err(|e| CliError::Run(format!("{}: {e}", python.display())))?;
    if !out.status.success() {
        return Err(CliError::Run(format!(
            "{} failed:\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
