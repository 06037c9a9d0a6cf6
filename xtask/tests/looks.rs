//! A sequential outcome study played look by look, each look in shards (`outcomes --look K
//! --shard i/N`, `merge --look K`): after the last look, the merged run directory is the
//! one-process `outcomes` run's, byte for byte, timings aside.
//!
//! What is compared and what is not: every file of the one-process run must be in the merged
//! directory with the same bytes, except
//! - `outcomes/wall.csv`: its `wall_s` and `engine_s` columns are times measured while the runs
//!   ran (its family, table, run and shots columns are compared);
//! - `report.md`: its lines that hold times (the wall time, each answer's time per shot and
//!   speed-up, the reference's time per shot) are masked, the rest compared;
//! - `report.html`: the page of `report.md`, the same times in it; not compared.
//!
//! The merged directory holds one file more, `outcomes/looks.json` (the study's state).

mod common;

use std::path::{Path, PathBuf};

use common::{root, temp_dir, texts, tree, xtask};

/// Runs `xtask <args>`; its exit code, stdout and stderr.
fn run(args: &[String]) -> (i32, String, String) {
    let o = xtask().args(args).output().unwrap();
    let (so, se) = texts(&o);
    (o.status.code().unwrap(), so, se)
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The study: two families, one discrete scheme at one dt (the dt search adds 1e-3 to 1e-6 s,
/// one a look), and a program of the ideal model (it declines every shot), sampled within 160
/// shots: seven looks.
fn study() -> Vec<String> {
    let engine = format!(
        "exec:python3 {}",
        root().join("benches/peers/ideal_engine.py").display()
    );
    strings(&[
        "--outcome-families",
        "cut,bank",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "20",
        "--outcome-budget",
        "160",
        "--outcome-dt",
        "1e-2",
        "--schemes",
        "exact",
        "--engines",
        &engine,
        "--chaos-shots",
        "10",
        "--replays",
        "3",
    ])
}

/// `outcomes <study> --look k --shard i/n [--resume prev]` into `dir/<name>`.
fn shard(dir: &Path, k: u32, i: u64, n: u64, prev: Option<&Path>, name: &str) -> PathBuf {
    let mut a = strings(&["outcomes"]);
    a.extend(study());
    a.extend(strings(&[
        "--look",
        &k.to_string(),
        "--shard",
        &format!("{i}/{n}"),
    ]));
    if let Some(p) = prev {
        a.extend(["--resume".to_string(), p.display().to_string()]);
    }
    a.extend(strings(&[
        "--out",
        &dir.display().to_string(),
        "--run-name",
        name,
    ]));
    let (code, _, err) = run(&a);
    assert_eq!(code, 0, "{a:?}: {err}");
    dir.join(name)
}

/// `merge --look k [--resume prev] <shards>` into `dir/<name>`: exit code, stdout, stderr.
fn merge(
    dir: &Path,
    k: u32,
    prev: Option<&Path>,
    shards: &[PathBuf],
    name: &str,
) -> (i32, String, String) {
    let mut a = strings(&["merge", "--look", &k.to_string()]);
    if let Some(p) = prev {
        a.extend(["--resume".to_string(), p.display().to_string()]);
    }
    a.extend(shards.iter().map(|s| s.display().to_string()));
    a.extend(strings(&[
        "--out",
        &dir.display().to_string(),
        "--run-name",
        name,
    ]));
    run(&a)
}

/// Plays the study look by look in `n` shards (given to merge in reverse order) until merge
/// says it is finished; returns the merged directories, look by look.
fn play_in_shards(dir: &Path, n: u64) -> Vec<PathBuf> {
    let mut merged: Vec<PathBuf> = Vec::new();
    for k in 1..=20u32 {
        let prev = merged.last().cloned();
        let mut shards: Vec<PathBuf> = (1..=n)
            .map(|i| shard(dir, k, i, n, prev.as_deref(), &format!("look{k}-{i}of{n}")))
            .collect();
        shards.reverse();
        let (code, out, err) = merge(dir, k, prev.as_deref(), &shards, &format!("look{k}"));
        assert_eq!(code, 0, "merge --look {k}: {err}");
        merged.push(dir.join(format!("look{k}")));
        if out.contains(&format!("the study is finished after look {k}")) {
            return merged;
        }
        // The next look's commands, one per shard, and the merge.
        assert!(
            out.contains(&format!("--look {} --resume", k + 1))
                && out.contains(&format!("--shard {n}/{n}"))
                && out.contains(&format!("then: cargo xtask merge --look {}", k + 1)),
            "{out}"
        );
    }
    panic!("the study did not finish in 20 looks");
}

/// `report.md` with its lines of times masked.
fn masked(report: &[u8]) -> String {
    String::from_utf8_lossy(report)
        .lines()
        .map(|l| {
            let timed = ["wall time", "µs", " ms", " s (", "x)"]
                .iter()
                .any(|t| l.contains(t));
            if timed {
                "<times>"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `wall.csv` without its times: family, table, run, shots.
fn wall_shots(wall: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(wall)
        .lines()
        .map(|l| l.split(',').take(4).collect::<Vec<_>>().join(","))
        .collect()
}

fn assert_same_study(whole: &Path, merged: &Path) {
    let whole = tree(whole);
    let merged = tree(merged);
    let names = |t: &[(PathBuf, Vec<u8>)]| t.iter().map(|f| f.0.clone()).collect::<Vec<_>>();
    let mut expected = names(&whole);
    expected.push("outcomes/looks.json".into());
    expected.sort();
    assert_eq!(names(&merged), expected);
    for (name, bytes) in &whole {
        let other = &merged.iter().find(|m| m.0 == *name).unwrap().1;
        match name.to_str().unwrap() {
            "outcomes/wall.csv" => assert_eq!(wall_shots(bytes), wall_shots(other)),
            "report.md" => assert_eq!(masked(bytes), masked(other)),
            "report.html" => {}
            _ => assert!(bytes == other, "{} differs", name.display()),
        }
    }
}

#[test]
fn a_study_played_look_by_look_in_shards_is_the_one_process_study() {
    let dir = temp_dir("looks");
    let mut a = strings(&["outcomes"]);
    a.extend(study());
    a.extend(strings(&[
        "--out",
        &dir.display().to_string(),
        "--run-name",
        "whole",
    ]));
    let (code, _, err) = run(&a);
    assert_eq!(code, 0, "{err}");
    // One shard is the one-process run's own code path; two and three cut looks apart.
    for n in [2, 3] {
        let sub = dir.join(format!("n{n}"));
        let merged = play_in_shards(&sub, n);
        assert!(merged.len() >= 3, "{} looks", merged.len());
        assert_same_study(&dir.join("whole"), merged.last().unwrap());
    }
    // The dt search added the ladder's rungs below the grid's one dt (1e-2 s) look by look,
    // decades first, and rows of shots played before (an engine's second look) follow the
    // reference's of earlier looks.
    let state =
        std::fs::read_to_string(dir.join("n2/look7/outcomes/looks.json")).unwrap_or_default();
    for rung in ["1e-3", "1e-4", "1e-5"] {
        assert!(
            state.contains(&format!("\"discrete:{rung}:end_of_step\"")),
            "{rung}: {state}"
        );
    }
}

/// A look's shards are refused, one line each, when they are not that look's, resumed from
/// that state, of those options and that build, each once; a shard played again is the same.
#[test]
fn a_looks_shards_are_checked_and_replayable() {
    let dir = temp_dir("looks-faults");
    let s1 = shard(&dir, 1, 1, 2, None, "l1-1");
    let s2 = shard(&dir, 1, 2, 2, None, "l1-2");
    let (code, _, err) = merge(&dir, 1, None, &[s1.clone(), s2.clone()], "look1");
    assert_eq!(code, 0, "{err}");
    let look1 = dir.join("look1");
    let t1 = shard(&dir, 2, 1, 2, Some(&look1), "l2-1");
    let t2 = shard(&dir, 2, 2, 2, Some(&look1), "l2-2");
    // Played again: the same rows, chaos counts and manifest; the same shots timed.
    let again = shard(&dir, 2, 1, 2, Some(&look1), "l2-1-again");
    for f in ["outcomes/shots.csv", "chaos.csv", "outcomes/shard.json"] {
        let (a, b) = (
            std::fs::read(t1.join(f)).unwrap(),
            std::fs::read(again.join(f)).unwrap(),
        );
        assert!(a == b, "{f} differs when played again");
    }
    let wall = |d: &Path| wall_shots(&std::fs::read(d.join("outcomes/wall.csv")).unwrap());
    assert_eq!(wall(&t1), wall(&again));
    // Another state: the same look merged into a state file with other bytes.
    let other = dir.join("look1-other");
    std::fs::create_dir_all(other.join("outcomes")).unwrap();
    for f in ["outcomes/shots.csv", "outcomes/wall.csv", "chaos.csv"] {
        std::fs::copy(look1.join(f), other.join(f)).unwrap();
    }
    let mut state = std::fs::read(look1.join("outcomes/looks.json")).unwrap();
    state.push(b'\n');
    std::fs::write(other.join("outcomes/looks.json"), state).unwrap();
    let foreign = shard(&dir, 2, 2, 2, Some(&other), "l2-2-other");
    // Another build: a manifest's version edited.
    let built = dir.join("l2-2-built");
    std::fs::create_dir_all(built.join("outcomes")).unwrap();
    for f in ["outcomes/shots.csv", "outcomes/wall.csv", "chaos.csv"] {
        std::fs::copy(t2.join(f), built.join(f)).unwrap();
    }
    let manifest = std::fs::read_to_string(t2.join("outcomes/shard.json")).unwrap();
    let edited = manifest.replacen("\"version\": \"", "\"version\": \"0.0.0 ", 1);
    std::fs::write(built.join("outcomes/shard.json"), edited).unwrap();
    // Rows tampered with: the last one removed.
    let cut = dir.join("l2-2-cut");
    std::fs::create_dir_all(cut.join("outcomes")).unwrap();
    for f in ["outcomes/shard.json", "outcomes/wall.csv", "chaos.csv"] {
        std::fs::copy(t2.join(f), cut.join(f)).unwrap();
    }
    let rows = std::fs::read_to_string(t2.join("outcomes/shots.csv")).unwrap();
    let kept: Vec<&str> = rows.lines().collect();
    let kept = kept[..kept.len() - 1].join("\n") + "\n";
    std::fs::write(cut.join("outcomes/shots.csv"), kept).unwrap();
    // Other options: look 1's shard 2 of another seed.
    let mut a = strings(&["outcomes"]);
    a.extend(study());
    a.extend(strings(&[
        "--outcome-seed",
        "9",
        "--look",
        "1",
        "--shard",
        "2/2",
    ]));
    a.extend(strings(&[
        "--out",
        &dir.display().to_string(),
        "--run-name",
        "l1-2-seed9",
    ]));
    assert_eq!(run(&a).0, 0);
    let seeded = dir.join("l1-2-seed9");
    for (k, prev, shards, what) in [
        (
            2,
            Some(&look1),
            vec![&t1, &foreign],
            "resumed from the state sha256",
        ),
        (2, Some(&look1), vec![&t1], "shard 2/2 is missing"),
        (
            2,
            Some(&look1),
            vec![&t1, &t1, &t2],
            "shard 1/2 is given twice",
        ),
        (2, Some(&look1), vec![&t1, &s2], "not of look 2"),
        (1, None, vec![&s1, &seeded], "not of the same run"),
        (2, Some(&look1), vec![&t1, &built], "one build"),
        (
            2,
            Some(&look1),
            vec![&t1, &cut],
            "is missing; nothing merged",
        ),
        (2, None, vec![&t1, &t2], "needs --resume"),
        (3, Some(&look1), vec![&t1, &t2], "not of look 3"),
    ] {
        let shards: Vec<PathBuf> = shards.into_iter().cloned().collect();
        let (code, _, err) = merge(&dir, k, prev.map(|p| p.as_path()), &shards, "refused");
        assert_eq!(code, 2, "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(err.contains(what), "{what}: {err}");
    }
    assert!(!dir.join("refused").exists(), "nothing half-written");
    // The right shards merge.
    let (code, _, err) = merge(&dir, 2, Some(&look1), &[t2, t1], "look2");
    assert_eq!(code, 0, "{err}");
    // Bad options of a look's shard: one line, exit 2.
    let look = |extra: &[&str]| {
        let mut a = strings(&["outcomes"]);
        let mut options = study();
        if extra.contains(&"--outcome-budget") {
            let at = options
                .iter()
                .position(|o| o == "--outcome-budget")
                .unwrap();
            options.drain(at..at + 2);
        }
        a.extend(options);
        a.extend(strings(extra));
        a.extend(strings(&[
            "--out",
            &dir.display().to_string(),
            "--run-name",
            "bad",
        ]));
        run(&a)
    };
    let l1 = look1.display().to_string();
    for (extra, what) in [
        (
            vec!["--look", "1", "--outcome-budget", "400,30s"],
            "a budget of seconds cannot be sharded",
        ),
        (
            vec!["--look", "1", "--outcome-budget", "30s"],
            "a budget of seconds cannot be sharded",
        ),
        (vec!["--look", "2", "--shard", "1/2"], "needs --resume"),
        (
            vec!["--look", "3", "--resume", &l1, "--shard", "1/2"],
            "the next is --look 2",
        ),
        (
            vec!["--look", "2", "--resume", &l1, "--outcome-seed", "9"],
            "the state's study is not this one",
        ),
        (
            vec!["--look", "1", "--resume", &l1],
            "--look 1 starts from nothing",
        ),
        (vec!["--resume", &l1], "only with --look"),
    ] {
        let (code, _, err) = look(&extra);
        assert_eq!(code, 2, "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
        assert!(err.contains(what), "{extra:?}: {err}");
    }
    assert!(!dir.join("bad").exists(), "nothing half-written");
}

/// A shard whose program cannot start on its worker (not found, not executable, its
/// interpreter missing) stops before it plays or writes anything: exit 3 and one line naming
/// the engine and the host, where its shots would otherwise be failed rows the merge takes for
/// the engine's own. A program that starts and fails its shots is still a shard of failed rows
/// (exit 1), and one process still records a missing program's shots as failed (`cli.rs`).
#[test]
fn a_shard_whose_program_cannot_start_fails_with_one_line() {
    let dir = temp_dir("looks-unstartable");
    let script = dir.join("not_executable.sh");
    std::fs::write(&script, "echo never\n").unwrap();
    let common = strings(&[
        "outcomes",
        "--outcome-families",
        "cut",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "4",
        "--schemes",
        "none",
        "--chaos-shots",
        "0",
        "--replays",
        "0",
        "--out",
        &dir.display().to_string(),
    ]);
    let unstartable = [
        ("exec:/nonexistent/program".to_string(), "not found"),
        (format!("exec:{}", script.display()), "Permission denied"),
        (
            format!("exec:python3 {}", dir.join("no_such.py").display()),
            "No such file",
        ),
    ];
    let looks = [
        strings(&["--outcome-budget", "16", "--look", "1", "--shard", "2/2"]),
        strings(&["--outcome-budget", "none", "--shard", "1/3"]),
    ];
    for (k, (engine, says)) in unstartable.iter().enumerate() {
        for (l, how) in looks.iter().enumerate() {
            let name = format!("s{k}-{l}");
            let mut a = common.clone();
            a.extend(strings(&["--engines", engine, "--run-name", &name]));
            a.extend(how.iter().cloned());
            let (code, out, err) = run(&a);
            assert_eq!(code, 3, "{engine} {how:?}: {err}");
            let lines: Vec<&str> = err.lines().collect();
            assert_eq!(lines.len(), 1, "{engine} {how:?}: {err}");
            let want = format!("error: engine {engine}: cannot start on this worker (");
            assert!(lines[0].starts_with(&want), "{engine}: {err}");
            for n in ["before answering its first request", "stderr: ", says] {
                assert!(lines[0].contains(n), "{engine}: {n:?} not in {err}");
            }
            assert!(out.is_empty(), "{engine}: {out}");
            assert!(
                !dir.join(&name).exists(),
                "{engine} {how:?}: a shard was written"
            );
            assert_eq!(common::hidden_entries(&dir), Vec::<String>::new());
        }
    }
    // A program that starts and answers junk: its shots fail, the shard is written (exit 1).
    let mut a = common.clone();
    a.extend(strings(&[
        "--engines",
        "exec:timeout=5:while read -r l; do echo nope; done",
        "--run-name",
        "junk",
        "--outcome-budget",
        "16",
        "--look",
        "1",
        "--shard",
        "1/2",
    ]));
    let (code, _, err) = run(&a);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("answer is not JSON"), "{err}");
    assert!(dir.join("junk/outcomes/shots.csv").is_file());
    let _ = std::fs::remove_dir_all(&dir);
}
