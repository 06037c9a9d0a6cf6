//! Helpers the command-line tests share.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The xtask binary, run from the workspace root (as `cargo xtask` is).
pub fn xtask() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_xtask"));
    c.current_dir(root());
    c
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// The default shots' directory.
pub fn shots() -> PathBuf {
    root().join("data/shots")
}

/// A fresh scratch directory for one test.
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("xtask-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Stdout and stderr of a finished command, as text.
pub fn texts(out: &std::process::Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The hidden entries (staging directories, temporary files) of a directory.
pub fn hidden_entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with('.'))
                .collect()
        })
        .unwrap_or_default()
}

/// Asserts the exit code, no panic, and that stderr names `names`.
pub fn assert_names(out: &std::process::Output, code: i32, names: &[&str], what: &str) {
    let (stdout, stderr) = texts(out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: stderr {stderr}, stdout {}",
        stdout.chars().take(300).collect::<String>()
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    for n in names {
        assert!(stderr.contains(n), "{what}: expected {n:?} in {stderr}");
    }
}

/// Runs `cmd` with stdout discarded, killing it after `limit`: its exit code (`None` when it
/// was killed, or ended by a signal) and its stderr. For a command that might wait forever (a
/// FIFO among its inputs): the test fails instead of hanging.
pub fn run_within(cmd: &mut Command, limit: std::time::Duration) -> (Option<i32>, String) {
    let mut child = cmd
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + limit;
    let code = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s.code();
        }
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    (code, err)
}

/// Every file under `dir`, by relative path, with its bytes.
pub fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    fn walk(base: &Path, d: &Path, out: &mut Vec<(PathBuf, Vec<u8>)>) {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(base, &p, out);
            } else {
                out.push((
                    p.strip_prefix(base).unwrap().into(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

/// `xtask <args> --shard k/n --out <out> --run-name <name>k` for each k (each must exit 0): the
/// shards' directories.
pub fn shards(args: &[&str], n: u32, out: &Path, name: &str) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let run = format!("{name}{k}");
            let o = xtask()
                .args(args)
                .args(["--shard", &format!("{k}/{n}"), "--run-name", &run])
                .arg("--out")
                .arg(out)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(0), "{}", texts(&o).1);
            out.join(run)
        })
        .collect()
}
