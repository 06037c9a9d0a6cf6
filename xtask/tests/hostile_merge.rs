//! `merge` checks what it merges (issue 41): a shard's failure files are those of its failing
//! shots and regular files (a link to /etc/hostname was copied into the merged run, a FIFO
//! hung it), and its timings are finite, non-negative seconds (-1e300 was printed as a
//! 300-digit wall time).

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};

use common::{run_within, shards, temp_dir, texts, xtask};

/// `xtask merge <dirs> --out <out> --run-name <name>`: exit code and stderr, within 20 s.
fn merge(dirs: &[PathBuf], out: &Path, name: &str) -> (Option<i32>, String) {
    let (code, err) = run_within(
        xtask()
            .arg("merge")
            .args(dirs)
            .arg("--out")
            .arg(out)
            .args(["--run-name", name]),
        std::time::Duration::from_secs(20),
    );
    assert!(!err.contains("panicked"), "{err}");
    (code, err)
}

#[test]
fn failure_files_are_a_failing_shots_and_regular() {
    let dir = temp_dir("merge-failures");
    let parts = shards(&["stress", "--shots", "20", "--jobs", "1"], 2, &dir, "s");
    let failures = parts[0].join("stress/failures");
    std::fs::create_dir_all(&failures).unwrap();
    let leak = failures.join("leak.toml");
    std::os::unix::fs::symlink("/etc/hostname", &leak).unwrap();
    let (code, err) = merge(&parts, &dir, "m1");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("leak.toml") && err.contains("not the file of a failing shot"),
        "{err}"
    );
    assert!(!dir.join("m1").exists());
    // A FIFO there: refused, not waited on.
    std::fs::remove_file(&leak).unwrap();
    let c = std::ffi::CString::new(leak.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let (code, err) = merge(&parts, &dir, "m2");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("leak.toml"), "{err}");
    // Without it, the shards merge.
    std::fs::remove_file(&leak).unwrap();
    let (code, err) = merge(&parts, &dir, "m3");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn timings_are_finite_non_negative_seconds() {
    let dir = temp_dir("merge-wall");
    let args = [
        "outcomes",
        "--outcome-families",
        "cut",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "6",
        "--outcome-dt",
        "1e-2",
        "--schemes",
        "end_of_step",
        "--outcome-budget",
        "none",
        "--chaos-shots",
        "0",
        "--replays",
        "0",
    ];
    let parts = shards(&args, 2, &dir, "o");
    let wall = parts[1].join("outcomes/wall.csv");
    let text = std::fs::read_to_string(&wall).unwrap();
    let edit = |row: &str| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines[1] = row.to_string();
        std::fs::write(&wall, lines.join("\n") + "\n").unwrap();
    };
    for (k, (row, field)) in [
        ("cut,seven_foot,reference,3,-1e300,", "wall_s = -1e300"),
        ("cut,seven_foot,reference,3,0.1,NaN", "engine_s = NaN"),
        ("cut,seven_foot,reference,3,inf,", "wall_s = inf"),
    ]
    .into_iter()
    .enumerate()
    {
        edit(row);
        let (code, err) = merge(&parts, &dir, &format!("m{k}"));
        assert_eq!(code, Some(2), "{row}: {err}");
        assert!(
            err.contains("wall.csv") && err.contains(field),
            "{row}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    std::fs::write(&wall, &text).unwrap();
    let (code, err) = merge(&parts, &dir, "ok");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn shards_of_other_input_files_or_another_build_are_refused() {
    let dir = temp_dir("merge-inputs");
    let base = common::root().join("data/sweeps/break_9ball_cue.toml");
    let text = std::fs::read_to_string(&base).unwrap();
    // The same shot file's name, one of them edited (a comment: the same rows, another file).
    let (a, b) = (dir.join("a"), dir.join("b"));
    for (d, extra) in [(&a, ""), (&b, "\n# edited\n")] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(d.join("cue.toml"), format!("{text}{extra}")).unwrap();
    }
    let sweep = |shot: &Path, k: u32, name: &str| -> PathBuf {
        let o = xtask()
            .arg("sweep")
            .arg(shot)
            .args(["--param", "V0=2:6:3", "--shard", &format!("{k}/2")])
            .args(["--run-name", name])
            .arg("--out")
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(0), "{}", texts(&o).1);
        dir.join(name)
    };
    let one = sweep(&a.join("cue.toml"), 1, "one");
    let two = sweep(&b.join("cue.toml"), 2, "two");
    let (code, err) = merge(&[one.clone(), two], &dir, "m1");
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("read other input files") && err.contains("cue.toml"),
        "{err}"
    );
    // The same file elsewhere is the same input.
    let c = dir.join("c");
    std::fs::create_dir_all(&c).unwrap();
    std::fs::copy(a.join("cue.toml"), c.join("cue.toml")).unwrap();
    let three = sweep(&c.join("cue.toml"), 2, "three");
    let (code, err) = merge(&[one.clone(), three.clone()], &dir, "m2");
    assert_eq!(code, Some(0), "{err}");
    // A manifest of another build.
    let manifest = three.join("sweep/shard.json");
    let mut m: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
    assert!(
        m["version"].as_str().is_some_and(|v| v.contains("commit")),
        "{m}"
    );
    m["version"] = "0.0.9 (commit 0123)".into();
    std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    let (code, err) = merge(&[one, three], &dir, "m3");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("one build") && err.contains("0.0.9"), "{err}");
}

/// The arguments of a small outcomes study (seed 2), sharded by `shards`.
const STUDY: [&str; 19] = [
    "outcomes",
    "--outcome-families",
    "cut",
    "--outcome-tables",
    "seven_foot",
    "--outcome-shots",
    "6",
    "--outcome-dt",
    "1e-2",
    "--schemes",
    "end_of_step",
    "--outcome-budget",
    "none",
    "--chaos-shots",
    "0",
    "--replays",
    "0",
    "--outcome-seed",
    "2",
];

/// `xtask merge <dirs> --verify <k> --out <out> --run-name <name>`: exit code and stderr.
fn merge_verified(dirs: &[PathBuf], k: &str, out: &Path, name: &str) -> (Option<i32>, String) {
    let (code, err) = run_within(
        xtask()
            .arg("merge")
            .args(dirs)
            .args(["--verify", k, "--run-name", name])
            .arg("--out")
            .arg(out),
        std::time::Duration::from_secs(20),
    );
    assert!(!err.contains("panicked"), "{err}");
    (code, err)
}

#[test]
fn verify_plays_shots_again_and_refuses_rows_they_do_not_give() {
    let dir = temp_dir("merge-verify");
    let parts = shards(&STUDY, 2, &dir, "v");
    let (code, err) = merge_verified(&parts, "3", &dir, "ok");
    assert_eq!(code, Some(0), "{err}");
    // Three engine rows of shard 2 with their outcome flipped: what their other fields and
    // the reference's row decide, refused with or without --verify.
    let edit = |column: &str, change: &dyn Fn(&str) -> String| {
        let file = parts[1].join("outcomes/shots.csv");
        let text = std::fs::read_to_string(&file).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let at = lines[0].split(',').position(|c| c == column).unwrap();
        for line in lines
            .iter_mut()
            .skip(1)
            .filter(|l| !l.contains(",reference,") && !l.contains(",floor,"))
            .take(3)
        {
            let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
            f[at] = change(&f[at]);
            *line = f.join(",");
        }
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        text
    };
    let flip = |v: &str| if v == "0" { "1".into() } else { "0".into() };
    let original = edit("d_outcome", &flip);
    for verify in ["3", "0"] {
        let (code, err) = merge_verified(&parts, verify, &dir, &format!("flipped{verify}"));
        assert_eq!(code, Some(2), "{err}");
        assert_eq!(err.trim().lines().count(), 1, "{err}");
        for n in ["shots.csv", "d_outcome", "nothing merged"] {
            assert!(err.contains(n), "{n:?} not in {err}");
        }
    }
    std::fs::write(parts[1].join("outcomes/shots.csv"), original).unwrap();
    // What only playing again shows (an engine's event count): --verify's.
    edit("events", &|v: &str| {
        (v.parse::<u64>().unwrap() + 1).to_string()
    });
    let (code, err) = merge_verified(&parts, "3", &dir, "edited");
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for n in ["shots.csv", "shard 2/2", "shot cut_", "field events"] {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
    assert!(!dir.join("edited").exists());
    // Without --verify such rows are taken as they are (the replay is the option's).
    let (code, err) = merge(&parts, &dir, "unverified");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn a_manifest_whose_seed_is_not_its_shots_is_refused() {
    let dir = temp_dir("merge-seed");
    let parts = shards(&STUDY, 2, &dir, "s");
    for p in &parts {
        let manifest = p.join("outcomes/shard.json");
        let mut m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&manifest).unwrap()).unwrap();
        for o in m["options"].as_array_mut().unwrap() {
            if o[0] == "--outcome-seed" {
                assert_eq!(o[1], "2");
                o[1] = "1".into();
            }
        }
        std::fs::write(&manifest, serde_json::to_vec_pretty(&m).unwrap()).unwrap();
    }
    let (code, err) = merge(&parts, &dir, "m");
    assert_eq!(code, Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    for n in ["shots.csv", "field shot", "--outcome-seed 1"] {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
    assert!(!dir.join("m").exists());
}

/// `merge --verify` plays a shard's reference again: a program named only by the manifests'
/// `--reference` is not started without `--allow-exec`.
#[test]
fn verify_starts_a_reference_program_only_when_the_user_allows_it() {
    let dir = temp_dir("merge-reference");
    let study = [
        "outcomes",
        "--outcome-families",
        "cut",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "4",
        "--outcome-dt",
        "1e-2",
        "--schemes",
        "euler",
        "--reference",
        "discrete:1e-3:euler",
        "--outcome-budget",
        "none",
        "--replays",
        "0",
    ];
    let parts = shards(&study, 2, &dir, "s");
    let pwned = dir.join("PWNED");
    let program = format!("exec:dt=1e-3:touch {}", pwned.display());
    for p in &parts {
        let file = p.join("outcomes/shard.json");
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(text.contains("\"discrete:1e-3:euler\""), "{text}");
        std::fs::write(
            &file,
            text.replace("\"discrete:1e-3:euler\"", &format!("{program:?}")),
        )
        .unwrap();
    }
    let mut args: Vec<PathBuf> = parts.clone();
    args.push("--verify".into());
    args.push("2".into());
    let (code, err) = merge(&args, &dir, "m");
    assert_eq!(code, Some(2), "{err}");
    assert!(!pwned.exists(), "the program ran: {err}");
    assert!(
        err.contains("the reference") && err.contains("--allow-exec"),
        "{err}"
    );
    assert!(!dir.join("m").exists());
}
