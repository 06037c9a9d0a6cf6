//! `sweep`, `--shard K/N` and `merge`: N shards merged are the unsharded run, byte for byte.

mod common;

use std::path::{Path, PathBuf};

use common::{root, temp_dir, texts, tree, xtask};

/// Runs `xtask <args> --out <out> --run-name <name>`; its exit code and texts.
fn run(args: &[&str], out: &Path, name: &str) -> (i32, String, String) {
    let o = xtask()
        .args(args)
        .arg("--out")
        .arg(out)
        .args(["--run-name", name])
        .output()
        .unwrap();
    let (so, se) = texts(&o);
    (o.status.code().unwrap(), so, se)
}

/// Runs `xtask merge <shards> --out <out> --run-name merged`; its exit code and stderr.
fn merge(shards: &[PathBuf], out: &Path) -> (i32, String) {
    let o = xtask()
        .arg("merge")
        .args(shards)
        .arg("--out")
        .arg(out)
        .args(["--run-name", "merged"])
        .output()
        .unwrap();
    (o.status.code().unwrap(), texts(&o).1)
}

fn cue_shot() -> String {
    root()
        .join("data/sweeps/break_9ball_cue.toml")
        .display()
        .to_string()
}

/// The run `args` whole and in `n` shards (given to merge in reverse order) merge the same.
fn shards_merge_to_the_whole(args: &[&str], n: usize, dir: &Path, expect: i32) {
    let (code, _, err) = run(args, dir, "whole");
    assert_eq!(code, expect, "{args:?}: {err}");
    let mut shard_dirs = Vec::new();
    for k in 1..=n {
        let mut a = args.to_vec();
        let shard = format!("{k}/{n}");
        a.extend(["--shard", &shard]);
        let name = format!("shard{k}");
        let (code, _, err) = run(&a, dir, &name);
        assert!(code == 0 || code == expect, "{a:?}: {err}");
        shard_dirs.push(dir.join(name));
    }
    shard_dirs.reverse();
    let (code, err) = merge(&shard_dirs, dir);
    assert_eq!(code, expect, "{err}");
    assert_eq!(
        tree(&dir.join("whole")),
        tree(&dir.join("merged")),
        "{args:?}"
    );
}

#[test]
fn stress_shards_merge_into_the_unsharded_run_byte_for_byte() {
    let dir = temp_dir("shards-stress");
    shards_merge_to_the_whole(&["stress", "--shots", "140", "--seed", "3"], 3, &dir, 0);
    // Failing shots (the discrete integrator's own errors at dt = 1e-2): rows, failure files
    // and the summary's counts all merge.
    let dir = temp_dir("shards-stress-failing");
    let args = [
        "stress",
        "--shots",
        "200",
        "--seed",
        "5",
        "--engine",
        "discrete:1e-2",
    ];
    shards_merge_to_the_whole(&args, 2, &dir, 1);
    assert!(
        std::fs::read_dir(dir.join("merged/stress/failures"))
            .unwrap()
            .count()
            > 0
    );
    // A shard of breaks only starts at its first job's seed.
    let dir = temp_dir("shards-breaks");
    let args = [
        "stress", "--kinds", "break9", "--shots", "30", "--seed", "8",
    ];
    shards_merge_to_the_whole(&args, 4, &dir, 0);
    // Jittered racks: each break's rack depends on its seed only.
    let dir = temp_dir("shards-jittered");
    let args = [
        "stress",
        "--kinds",
        "break9,break15",
        "--shots",
        "20",
        "--rack",
        "jittered:1.27e-4",
    ];
    shards_merge_to_the_whole(&args, 3, &dir, 0);
}

#[test]
fn sweep_grids_and_samples_shard_and_merge_byte_for_byte() {
    let shot = cue_shot();
    let dir = temp_dir("shards-grid");
    let grid = [
        "sweep",
        &shot,
        "--param",
        "V0=2:6:3",
        "--param",
        "b=-0.3,0,0.3",
    ];
    shards_merge_to_the_whole(&grid, 2, &dir, 0);
    let rows = std::fs::read_to_string(dir.join("whole/sweep/rows.csv")).unwrap();
    let mut lines = rows.lines();
    let header = lines.next().unwrap();
    assert!(header.starts_with("point,V0,b,events,end_time_s,termination,first_contact"));
    let points: Vec<(String, String)> = lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1].to_string(), f[2].to_string())
        })
        .collect();
    assert_eq!(points.len(), 9);
    assert_eq!(points[0], ("2".into(), "-0.3".into()));
    assert_eq!(points[1], ("2".into(), "0".into()));
    assert_eq!(points[8], ("6".into(), "0.3".into()));
    let dir = temp_dir("shards-sample");
    let sample = [
        "sweep",
        &shot,
        "--param",
        "phi=-4:-2",
        "--param",
        "mu_s=0.15:0.25",
        "--samples",
        "40",
        "--seed",
        "7",
    ];
    shards_merge_to_the_whole(&sample, 3, &dir, 0);
}

#[test]
fn bad_sweeps_shards_and_merges_are_refused_in_one_line() {
    let shot = cue_shot();
    let dir = temp_dir("shards-bad");
    let cut = root().join("data/shots/cut.toml").display().to_string();
    for (args, what) in [
        (
            vec!["sweep", cut.as_str(), "--param", "V0=1:2:2"],
            "has no [cue]",
        ),
        (
            vec!["sweep", &shot, "--param", "V0=1:2000:3"],
            "at most 1000 m/s",
        ),
        (
            vec!["sweep", &shot, "--param", "e_b=0.9:0.95:2"],
            "does not read",
        ),
        (
            vec!["sweep", &shot, "--param", "V0=1:2"],
            "needs a random sample",
        ),
        (
            vec!["sweep", &shot, "--param", "spin=1:2:2"],
            "unknown parameter",
        ),
        (vec!["stress", "--shard", "0/3"], "expected K/N"),
        (vec!["stress", "--shard", "4/3"], "expected K/N"),
        (
            vec!["stress", "--rack", "tight"],
            "--rack \"tight\": unknown rack model",
        ),
        (
            vec!["stress", "--rack", "jittered:-1e-4"],
            "--rack \"jittered:-1e-4\": scale",
        ),
        (
            vec![
                "stress",
                "--table",
                "rectangle_2.0x0.3",
                "--rack",
                "lattice:0.05",
            ],
            "--rack \"lattice:0.05\": the break_15ball rack",
        ),
        (
            vec![
                "sweep",
                &shot,
                "--param",
                "V0=1:2:2",
                "--rack",
                "lattice:nan",
            ],
            "--rack \"lattice:nan\": gap NaN",
        ),
    ] {
        let (code, _, err) = run(&args, &dir, "x");
        assert_eq!(code, 2, "{args:?}: {err}");
        // One line says it all (clap adds its "--help" hint below a usage error).
        let first = err.lines().next().unwrap_or_default();
        assert!(
            first.starts_with("error: ") && first.contains(what),
            "{args:?}: {err}"
        );
    }
    // Merges: a shard missing, given twice, or of another run.
    let a = ["stress", "--shots", "20", "--seed", "1"];
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let mut args = a.to_vec();
        args.extend(["--shard", &shard]);
        assert_eq!(run(&args, &dir, &format!("s{k}")).0, 0);
    }
    let mut other = a.to_vec();
    other[4] = "2";
    other.extend(["--shard", "3/3"]);
    assert_eq!(run(&other, &dir, "other3").0, 0);
    let mut racked = a.to_vec();
    racked.extend(["--rack", "jittered:1e-4", "--shard", "3/3"]);
    assert_eq!(run(&racked, &dir, "racked3").0, 0);
    for (shards, what) in [
        (vec!["s1", "s2"], "shard 3/3 is missing"),
        (vec!["s1", "s2", "s2", "s3"], "shard 2/3 is given twice"),
        (vec!["s1", "s2", "other3"], "not of the same run"),
        (vec!["s1", "s2", "racked3"], "--rack jittered:0.0001"),
        (vec!["s1", "nowhere"], "not a shard's run directory"),
    ] {
        let mut m = xtask();
        m.arg("merge");
        for s in &shards {
            m.arg(dir.join(s));
        }
        let o = m.arg("--out").arg(&dir).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{shards:?}");
        assert!(texts(&o).1.contains(what), "{shards:?}: {}", texts(&o).1);
    }
}

/// `<dir>/whole/<f>` and `<dir>/merged/<f>` hold the same bytes.
fn assert_same_file(dir: &Path, f: &str) {
    let whole = std::fs::read(dir.join("whole").join(f)).unwrap();
    let merged = std::fs::read(dir.join("merged").join(f)).unwrap();
    assert!(whole == merged, "{f} differs");
}

#[test]
fn outcome_studies_shard_and_merge_byte_for_byte() {
    let dir = temp_dir("shards-outcomes");
    let args = [
        "outcomes",
        "--outcome-families",
        "cut,break9",
        "--outcome-tables",
        "seven_foot,pooltool_pocket",
        "--outcome-shots",
        "7",
        "--outcome-dt",
        "1e-2,1e-3",
        "--schemes",
        "exact,located",
        "--outcome-seed",
        "4",
        "--outcome-budget",
        "none",
    ];
    let (code, out, err) = run(&args, &dir, "whole");
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("does it change the game? 4 families, up to 7 shots each"),
        "{out}"
    );
    // 28 shots in 3 shards: the second starts inside the first break9 family.
    let mut shard_dirs = common::shards(&args, 3, &dir, "shard");
    shard_dirs.swap(0, 2);
    let (code, err) = merge(&shard_dirs, &dir);
    assert_eq!(code, 0, "{err}");
    // Everything but the timings: the rows, the tables, the answer and the plot.
    for f in [
        "outcomes/shots.csv",
        "outcomes.csv",
        "outcome_answer.csv",
        "outcome_vs_dt.png",
        "outcome_vs_dt.svg",
        "distributions.csv",
        "distribution_answer.csv",
        "chaos.csv",
        "chaos.png",
    ] {
        assert_same_file(&dir, f);
    }
    // 28 shots x (reference, floor, 4 engines) rows; the wall times count every shot once.
    let shots = std::fs::read_to_string(dir.join("merged/outcomes/shots.csv")).unwrap();
    assert_eq!(shots.lines().count(), 1 + 28 * 6);
    let wall = std::fs::read_to_string(dir.join("merged/outcomes/wall.csv")).unwrap();
    let counted: u64 = wall
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(3).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(counted, 28 * 6);
    let report = std::fs::read_to_string(dir.join("merged/report.md")).unwrap();
    assert!(report.contains("## Does it change the game?"));
    assert!(report.contains("Merged from 3 shards"));
}

/// An engine of the ideal model declines every pool shot of the study: one line says so, on
/// the terminal and in the report, with the count, also after a merge of shards.
#[test]
fn outcome_study_says_once_what_an_engine_declined() {
    let dir = temp_dir("outcomes-declined");
    let engine = format!(
        "exec:python3 {}",
        root().join("benches/peers/ideal_engine.py").display()
    );
    let args = [
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
        "exact",
        "--outcome-budget",
        "none",
        "--engines",
        &engine,
    ];
    let line = format!("`{engine}` declined 4 run(s) as outside its model: only the ideal model");
    let (code, _, err) = run(&args, &dir, "whole");
    assert_eq!(code, 0, "{err}");
    assert_eq!(err.matches("as outside its model").count(), 1, "{err}");
    assert!(err.contains(&line), "{err}");
    for k in 1..=2 {
        let shard = format!("{k}/2");
        let mut a = args.to_vec();
        a.extend(["--shard", &shard]);
        let (code, _, err) = run(&a, &dir, &format!("shard{k}"));
        assert_eq!(code, 0, "{err}");
    }
    let (code, err) = merge(&[dir.join("shard1"), dir.join("shard2")], &dir);
    assert_eq!(code, 0, "{err}");
    for run in ["whole", "merged"] {
        let report = std::fs::read_to_string(dir.join(run).join("report.md")).unwrap();
        // The program's words in a code span (report.md carries them as text).
        let md_line =
            format!("`{engine}` declined 4 run(s) as outside its model: `only the ideal model");
        assert!(report.contains(&md_line), "{run}: {report}");
        assert!(
            report.contains("0 engine run(s) failed and 4 were declined"),
            "{run}"
        );
    }
}

/// `outcomes --reference`: every run judged against a stepped engine at a fine dt. The shards'
/// manifests carry the reference, so the merge is the one-process run byte for byte; the
/// report says what the reference is and what the event engine's line means; a reference not
/// finer than its own series, or not one engine, is refused in one line (exit 2).
#[test]
fn a_study_against_a_stepped_reference_shards_merges_and_says_so() {
    let dir = temp_dir("shards-reference");
    let args = [
        "outcomes",
        "--outcome-families",
        "cut",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "9",
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
    let (code, out, err) = run(&args, &dir, "whole");
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("against the reference discrete:1e-3:euler"),
        "{err}"
    );
    assert!(out.contains("Judged against discrete:1e-3:euler"), "{out}");
    let shots = std::fs::read_to_string(dir.join("whole/outcomes/shots.csv")).unwrap();
    // The reference and the floor rows are the euler scheme's at 1e-3 s; the event engine is
    // an engine.
    for run in ["reference", "floor"] {
        let rows: Vec<&str> = shots
            .lines()
            .filter(|l| l.split(',').nth(4) == Some(run))
            .collect();
        assert_eq!(rows.len(), 9, "{run}");
        assert!(
            rows.iter().all(|l| l.contains(",discrete,euler,0.001,")),
            "{run}: {rows:?}"
        );
    }
    let answer = std::fs::read_to_string(dir.join("whole/outcome_answer.csv")).unwrap();
    assert!(
        answer.contains("\ncut,seven_foot,event,isolator,"),
        "{answer}"
    );
    let report = std::fs::read_to_string(dir.join("whole/report.md")).unwrap();
    assert!(report.contains("**Model or dt.**"), "{report}");
    assert!(
        report.contains("| `discrete:1e-3:euler` (the reference) |"),
        "{report}"
    );
    // No chaos curve unless asked: ten runs of a stepped reference a shot.
    let chaos = std::fs::read_to_string(dir.join("whole/chaos.csv")).unwrap();
    assert_eq!(chaos.lines().skip(1).count(), 0, "{chaos}");
    let shard_dirs = common::shards(&args, 2, &dir, "shard");
    let manifest = std::fs::read_to_string(dir.join("shard1/outcomes/shard.json")).unwrap();
    assert!(manifest.contains("discrete:1e-3:euler"), "{manifest}");
    let (code, err) = merge(&shard_dirs, &dir);
    assert_eq!(code, 0, "{err}");
    for f in [
        "outcomes/shots.csv",
        "outcomes.csv",
        "outcome_answer.csv",
        "distribution_answer.csv",
    ] {
        assert_same_file(&dir, f);
    }
    let merged = std::fs::read_to_string(dir.join("merged/report.md")).unwrap();
    assert!(merged.contains("**Model or dt.**"), "{merged}");
    for (reference, why) in [
        (
            "discrete:1e-2:euler",
            "--reference = discrete:1e-2:euler: its dt",
        ),
        ("discrete:5e-2:euler", "is not finer than 1e-2 s"),
        (
            "discrete:1e-3:euler,event",
            "2 engines; the reference is one engine",
        ),
        ("discrete:1e-3:eulr", "--reference"),
    ] {
        let mut a = args.to_vec();
        a[12] = reference;
        let (code, _, err) = run(&a, &dir, "refused");
        assert_eq!(code, 2, "{reference}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{reference}: {err}");
        assert!(err.contains(why), "{reference}: {err}");
    }
}
