//! Finding a Python with pooltool 0.6.0, the optional peer (`bench-peers`,
//! `compare-pooltool`).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::workspace::workspace_root;

/// What to print when no pooltool is found (one line).
pub const SETUP_HINT: &str =
    "pooltool not found: no $POOLTOOL_PYTHON and no .venv-pooltool/bin/python \
with pooltool-billiards 0.6.0. To set it up (a plain `pip install pooltool-billiards` gets the old \
0.3.3), follow benches/peers/README.md.";

/// A Python that imports pooltool 0.6.0: `explicit` only, when given; else $POOLTOOL_PYTHON,
/// then `<workspace>/.venv-pooltool/bin/python`.
pub fn find_pooltool(explicit: Option<&Path>) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match explicit {
        Some(p) => vec![p.to_path_buf()],
        None => std::env::var_os("POOLTOOL_PYTHON")
            .map(PathBuf::from)
            .into_iter()
            .chain(std::iter::once(
                workspace_root().join(".venv-pooltool/bin/python"),
            ))
            .collect(),
    };
    candidates.into_iter().find(|p| {
        Command::new(p)
            .args([
                "-c",
                "import pooltool, sys; sys.exit(pooltool.__version__ != '0.6.0')",
            ])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    })
}

/// Runs `benches/peers/<script>` with `python` and `args`; its standard output.
///
/// # Errors
/// Python cannot be started, or the script exits with an error (its stderr in the message).
pub fn run_script(
    python: &Path,
    script: &str,
    args: &[std::ffi::OsString],
) -> Result<String, crate::CliError> {
    let script = workspace_root().join("benches/peers").join(script);
    let out = Command::new(python)
        .arg(&script)
        .args(args)
        .output()
        .map_err(|e| crate::CliError::Run(format!("{}: {e}", python.display())))?;
    if !out.status.success() {
        return Err(crate::CliError::Run(format!(
            "{} failed:\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
