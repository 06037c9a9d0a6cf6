//! pooltool 0.6.0 as an engine: a Python that imports it, and the protocol adapter
//! `benches/peers/pooltool_engine.py` (docs/engine-protocol.md).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The workspace root (this crate is `crates/engines`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
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
    Command::new(python)
        .args([
            "-c",
            "import pooltool, sys; sys.exit(pooltool.__version__ != '0.6.0')",
        ])
        .output()
        .is_ok_and(|o| o.status.success())
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
fn quote(s: &str) -> String {
    if s.chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+=:@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
