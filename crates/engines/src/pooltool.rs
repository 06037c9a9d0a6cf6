//! pooltool 0.6.0 as an engine: a Python that imports it, and the protocol adapter
//! `benches/peers/pooltool_engine.py` (docs/engine-protocol.md).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace root (this crate is `crates/engines`).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .nth(2)
        .map_or_else(|| here.join("../.."), Path::to_path_buf)
}

/// The adapter script.
pub fn adapter() -> PathBuf {
    workspace_root().join("benches/peers/pooltool_engine.py")
}

/// Seconds pooltool may take per shot: its first run in a fresh numba cache compiles for
/// about 30 s on these machines.
pub const TIMEOUT_S: f64 = 600.0;

/// The one line a command prints when pooltool is not there.
pub const HOW_TO_INSTALL: &str = "pooltool 0.6.0 not found (set $POOLTOOL_PYTHON to a Python \
    that imports it, or install it into .venv-pooltool/ as benches/peers/README.md shows)";

/// Whether `python` runs and imports pooltool 0.6.0.
pub fn imports_pooltool(python: &Path) -> bool {
    check_python(python).is_ok()
}

/// Whether `python` runs and imports pooltool 0.6.0: `Err` says why not (it cannot be run, it
/// cannot import pooltool: the import's last line, or its pooltool is another version).
///
/// # Errors
/// The reason, one line.
pub fn check_python(python: &Path) -> Result<(), String> {
    let out = Command::new(python)
        .args([
            "-c",
            "import pooltool, sys; sys.exit(0 if pooltool.__version__ == '0.6.0' else 3)",
        ])
        .output()
        .map_err(|e| format!("cannot run it: {e}"))?;
    match out.status.code() {
        Some(0) => Ok(()),
        Some(3) => Err("its pooltool is not version 0.6.0".into()),
        _ => Err(format!(
            "it cannot import pooltool ({})",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("no message")
        )),
    }
}

/// The first of `explicit` (alone, when given), `$POOLTOOL_PYTHON` and
/// `<workspace>/.venv-pooltool/bin/python` that imports pooltool 0.6.0.
pub fn find_python(explicit: Option<&Path>) -> Option<PathBuf> {
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
    candidates.into_iter().find(|p| imports_pooltool(p))
}

/// The command that runs the adapter with the Python [`find_python`] finds (looked up once
/// per process), or [`HOW_TO_INSTALL`].
///
/// # Errors
/// No Python with pooltool 0.6.0.
pub fn command() -> Result<String, String> {
    static FOUND: OnceLock<Option<PathBuf>> = OnceLock::new();
    let python = FOUND
        .get_or_init(|| find_python(None))
        .as_ref()
        .ok_or_else(|| HOW_TO_INSTALL.to_string())?;
    Ok(format!(
        "{} {}",
        quote(&python.display().to_string()),
        quote(&adapter().display().to_string())
    ))
}

/// `s` quoted for `sh -c` when it needs it.
pub(crate) fn quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
