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
/// input otherwise), else the one the `pooltool` engine finds
/// ([`pool_engines::pooltool::find_python`]: `$POOLTOOL_PYTHON`, then the harness's
/// `.venv-pooltool/bin/python`), else none.
///
/// # Errors
/// An explicit Python that cannot run or import pooltool 0.6.0 (exit 2, naming `--python`).
pub fn find_pooltool(explicit: Option<&Path>) -> Result<Option<PathBuf>, CliError> {
    if let Some(p) = explicit {
        return pool_engines::pooltool::check_python(p)
            .map(|()| Some(p.to_path_buf()))
            .map_err(|why| CliError::Input(format!("--python = {}: {why}", p.display())));
    }
    Ok(pool_engines::pooltool::find_python(None))
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
    Ok(run_script_with_input(python, script, args, b"")?.0)
}

/// Runs `benches/peers/<script>` with `python` and `args`, `input` on its standard input
/// (written from a thread of its own, so that a script answering as it reads cannot block on
/// a full pipe); its standard output and standard error.
///
/// # Errors
/// As [`run_script`].
pub fn run_script_with_input(
    python: &Path,
    script: &str,
    args: &[std::ffi::OsString],
    input: &[u8],
) -> Result<(String, String), CliError> {
    use std::io::Write;
    use std::process::Stdio;
    let script = workspace_root()?.join("benches/peers").join(script);
    let mut child = Command::new(python)
        .arg(&script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| CliError::Run(format!("{}: {e}", python.display())))?;
    let mut stdin = child.stdin.take();
    let input = input.to_vec();
    // A script that exits without reading closes the pipe: that write error is not ours.
    let writer = std::thread::spawn(move || {
        if let Some(stdin) = stdin.as_mut() {
            let _ = stdin.write_all(&input);
        }
    });
    let out = child
        .wait_with_output()
        .map_err(|e| CliError::Run(format!("{}: {e}", script.display())))?;
    let _ = writer.join();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if !out.status.success() {
        return Err(CliError::Run(format!(
            "{} failed:\n{stderr}",
            script.display()
        )));
    }
    Ok((String::from_utf8_lossy(&out.stdout).into_owned(), stderr))
}
