//! Records the commit the harness is built from (`XTASK_COMMIT`: `git rev-parse HEAD`, or
//! `unknown` outside a git checkout), which a shard's manifest carries so that `merge` refuses
//! shards of different builds. Runs again when the checkout's HEAD moves.

use std::path::Path;
use std::process::Command;

/// The trimmed standard output of `git <args>`, when git runs and succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=XTASK_COMMIT={commit}");
    println!("cargo:rerun-if-changed=build.rs");
    // HEAD, the branch it names and the packed refs: a commit or a checkout changes one.
    let mut watched = vec![git(&["rev-parse", "--git-path", "HEAD"])];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(git(&["rev-parse", "--git-path", &branch]));
    }
    watched.push(git(&["rev-parse", "--git-path", "packed-refs"]));
    for path in watched.into_iter().flatten() {
        if Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    }
}
