//! Drill-down replays (`outcomes/replays.json`, version 2): a study writes them for the shots
//! whose outcome an engine changed, at most `--replays` and one line saying what was capped;
//! its `run.json` records the study's options, from which `cargo xtask replays` remakes the
//! same file byte for byte and rewrites the run's `report.html`; every run of a replay
//! reproduces its row; tracks are integer triples, delta-coded, from t = 0; the file's size is
//! measured; bad input is exit 2 naming the file, field and value.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{temp_dir, texts, xtask};

/// A small study: cut and 9-ball break shots on the 7-foot table, the end-of-step and Euler
/// schemes at 1e-2 s (which change outcomes often), one look.
const STUDY: [&str; 15] = [
    "outcomes",
    "--outcome-families",
    "cut,break9",
    "--outcome-tables",
    "seven_foot",
    "--outcome-shots",
    "8",
    "--outcome-dt",
    "1e-2",
    "--schemes",
    "exact,euler",
    "--outcome-budget",
    "none",
    "--outcome-seed",
    "3",
];

/// Runs the study with `extra` options into `out/<name>`; its exit code, stdout, stderr.
fn study(out: &Path, name: &str, extra: &[&str]) -> (i32, String, String) {
    let o = xtask()
        .args(STUDY)
        .args(extra)
        .arg("--out")
        .arg(out)
        .args(["--run-name", name, "--chaos-shots", "0"])
        .output()
        .unwrap();
    let (so, se) = texts(&o);
    (o.status.code().unwrap(), so, se)
}

/// `xtask replays <dir> <extra>`: exit code, stdout, stderr.
fn replays(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let o = xtask()
        .arg("replays")
        .arg(dir)
        .args(extra)
        .output()
        .unwrap();
    let (so, se) = texts(&o);
    (o.status.code().unwrap(), so, se)
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The rows of a run's `outcomes/shots.csv` as maps of column to value.
fn rows(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let mut r = csv::Reader::from_path(dir.join("outcomes/shots.csv")).unwrap();
    let headers = r.headers().unwrap().clone();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            headers
                .iter()
                .zip(rec.iter())
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The (family, table, index) keys and (family, table, run) cells of the engine runs whose
/// outcome changed.
fn changed(dir: &Path) -> (usize, BTreeSet<String>, BTreeSet<(String, String, String)>) {
    let mut pairs = 0;
    let mut shots = BTreeSet::new();
    let mut cells = BTreeSet::new();
    for r in rows(dir) {
        if r["run"] != "reference" && r["run"] != "floor" && r["d_outcome"] == "1" {
            pairs += 1;
            shots.insert(format!("{}/{}/{}", r["family"], r["table"], r["index"]));
            cells.insert((r["family"].clone(), r["table"].clone(), r["run"].clone()));
        }
    }
    (pairs, shots, cells)
}

/// Every replay's runs are the reference, the floor, then exactly the engine runs of its shot
/// whose outcome changed, each reproducing its row (first contact, pocketed, scratch).
fn check_replays(dir: &Path, file: &serde_json::Value) {
    let rows = rows(dir);
    for r in file["replays"].as_array().unwrap() {
        let key = r["key"].as_str().unwrap();
        let of_shot: Vec<_> = rows
            .iter()
            .filter(|x| format!("{}/{}/{}", x["family"], x["table"], x["index"]) == key)
            .collect();
        assert!(!of_shot.is_empty(), "{key} is not a shot of shots.csv");
        let mut want = vec!["reference".to_string(), "floor".to_string()];
        want.extend(
            of_shot
                .iter()
                .filter(|x| x["run"] != "reference" && x["run"] != "floor")
                .filter(|x| x["d_outcome"] == "1")
                .map(|x| x["run"].clone()),
        );
        let runs = r["runs"].as_array().unwrap();
        let got: Vec<String> = runs
            .iter()
            .map(|x| x["run"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, want, "{key}");
        assert!(
            got.len() > 2,
            "{key}: a replay shows an engine that changed the outcome"
        );
        for run in runs {
            let name = run["run"].as_str().unwrap();
            let row = of_shot.iter().find(|x| x["run"] == name).unwrap();
            assert_eq!(run["reproduced"], true, "{key} {name}");
            let o = &run["outcome"];
            assert_eq!(
                o["first_contact"].as_str().unwrap_or(""),
                row["first_contact"]
            );
            assert_eq!(
                o["pocketed"].as_str().unwrap().replace('|', ";"),
                row["pocketed"]
            );
            assert_eq!(o["scratch"].as_bool().unwrap(), row["scratch"] == "1");
            let tracks = run["tracks"].as_array().unwrap();
            assert_eq!(tracks.len(), r["balls"].as_array().unwrap().len());
            let pocketed_at = run["pocketed_at"].as_array().unwrap();
            let finals = run["final"].as_array().unwrap();
            for (i, tr) in tracks.iter().enumerate() {
                let v: Vec<i64> = tr
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|x| x.as_i64().expect("a track holds integers"))
                    .collect();
                assert_eq!(v.len() % 3, 0, "{key} {name}: triples");
                if v.is_empty() {
                    assert_eq!(
                        pocketed_at[i], 0.0,
                        "{key} {name}: only a ball pocketed at 0"
                    );
                    continue;
                }
                assert_eq!(v[0], 0, "{key} {name}: the first sample at t = 0");
                assert!(v.chunks(3).skip(1).all(|d| d[0] > 0), "{key} {name}");
                // The deltas sum back to the last sample: the final position (1e-5 m) of a
                // ball on the table.
                let sum = v
                    .chunks(3)
                    .fold([0, 0, 0], |a, d| [a[0] + d[0], a[1] + d[1], a[2] + d[2]]);
                let end = (run["end_time"].as_f64().unwrap() * 1e4).round() as i64;
                assert!(sum[0] <= end, "{key} {name}: a sample after the end");
                if let Some(f) = finals[i].as_array() {
                    let u = |x: &serde_json::Value| (x.as_f64().unwrap() * 1e5).round() as i64;
                    assert_eq!([sum[1], sum[2]], [u(&f[0]), u(&f[1])], "{key} {name}");
                }
            }
        }
    }
}

#[test]
fn a_study_writes_capped_replays_and_replays_remakes_them_byte_for_byte() {
    let dir = temp_dir("replays-study");
    let (code, out, err) = study(&dir, "run", &["--replays", "2"]);
    assert_eq!(code, 0, "{err}");
    let run = dir.join("run");
    let (pairs, shots, cells) = changed(&run);
    assert!(
        shots.len() > 2,
        "the study changed too few outcomes to cap: {shots:?}"
    );
    // One line says what was written and what was capped.
    let line = format!(
        "replays: 2 of {} shots with a changed outcome written to outcomes/replays.json \
         (--replays 2; ",
        shots.len()
    );
    assert_eq!(
        out.lines().filter(|l| l.starts_with("replays: ")).count(),
        1,
        "{out}"
    );
    assert!(out.contains(&line), "{out}");
    let file = json(&run.join("outcomes/replays.json"));
    assert_eq!(file["version"], 2);
    assert_eq!(
        file["units"],
        serde_json::json!({"t_s": 1e-4, "xy_m": 1e-5, "tolerance_m": 5e-4})
    );
    assert_eq!(file["max_shots"], 2);
    assert_eq!(file["written"], 2);
    assert_eq!(file["disagreeing"], pairs as u64);
    assert!(out.contains(file["note"].as_str().unwrap()), "{out}");
    assert_eq!(file["replays"].as_array().unwrap().len(), 2);
    check_replays(&run, &file);
    // The two shots come from two different cells (round-robin), in the study's order.
    let keys: Vec<&str> = file["replays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["key"].as_str().unwrap())
        .collect();
    assert!(shots.contains(keys[0]) && shots.contains(keys[1]));
    // run.json records the study's options.
    let options = &json(&run.join("run.json"))["outcome_options"];
    assert_eq!(options["seed"], 3);
    assert_eq!(options["shots"], 8);
    assert_eq!(options["families"], serde_json::json!(["cut", "break9"]));
    assert_eq!(options["tables"], serde_json::json!(["seven_foot"]));
    assert_eq!(options["perturb_position"], 1e-6);
    assert_eq!(options["perturb_speed"], 1e-4);
    assert_eq!(options["position_tol"], 0.01);
    assert_eq!(options["rack"], "jittered:0.000127");
    assert_eq!(options["max_events"], 1_000_000);

    // `replays` remakes the file from run.json and shots.csv: the same bytes; and the page
    // that inlines it, with one more line.
    let written = std::fs::read(run.join("outcomes/replays.json")).unwrap();
    let page = std::fs::read(run.join("report.html")).unwrap();
    std::fs::remove_file(run.join("outcomes/replays.json")).unwrap();
    std::fs::remove_file(run.join("report.html")).unwrap();
    let (code, out2, err) = replays(&run, &["--replays", "2"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out2.lines().collect();
    assert_eq!(lines[0], file["note"].as_str().unwrap());
    assert!(
        lines[1].starts_with(&format!("page: {} (", run.join("report.html").display()))
            && lines[1].contains("2 shot replay(s)"),
        "{out2}"
    );
    assert!(std::fs::read(run.join("outcomes/replays.json")).unwrap() == written);
    assert!(std::fs::read(run.join("report.html")).unwrap() == page);

    // Uncapped: every shot with a changed outcome, every cell in some replay.
    let (code, out3, err) = replays(&run, &["--replays", "1000"]);
    assert_eq!(code, 0, "{err}");
    let all = json(&run.join("outcomes/replays.json"));
    assert_eq!(all["written"], shots.len() as u64, "{out3}");
    // The size, measured: every shot with a changed outcome of this small study, well within
    // the quick run's 3 MB.
    let bytes = std::fs::metadata(run.join("outcomes/replays.json"))
        .unwrap()
        .len();
    eprintln!(
        "replays.json: {bytes} bytes for {} shots ({} per shot)",
        shots.len(),
        bytes / shots.len() as u64
    );
    assert!(bytes <= 3 << 20, "{bytes} bytes");
    check_replays(&run, &all);
    let mut seen = BTreeSet::new();
    for r in all["replays"].as_array().unwrap() {
        for x in r["runs"].as_array().unwrap().iter().skip(2) {
            seen.insert((
                r["family"].as_str().unwrap().to_string(),
                r["table"].as_str().unwrap().to_string(),
                x["run"].as_str().unwrap().to_string(),
            ));
        }
    }
    assert_eq!(seen, cells);
    // Nothing else in the directory changed, and nothing half-written is left.
    assert!(common::hidden_entries(&run.join("outcomes")).is_empty());

    // --replays 0: a file of none, and the note says so.
    let (code, out4, err) = replays(&run, &["--replays", "0"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out4.contains(&format!("replays: 0 of {} shots", shots.len())),
        "{out4}"
    );
    let none = json(&run.join("outcomes/replays.json"));
    assert_eq!(none["written"], 0);
    assert_eq!(none["replays"], serde_json::json!([]));
}

#[test]
fn every_cell_gets_a_replay_before_any_gets_two() {
    let dir = temp_dir("replays-cells");
    let (code, _, err) = study(&dir, "run", &["--replays", "0"]);
    assert_eq!(code, 0, "{err}");
    let run = dir.join("run");
    let (_, _, cells) = changed(&run);
    assert!(cells.len() >= 2, "{cells:?}");
    let n = cells.len().to_string();
    let (code, _, err) = replays(&run, &["--replays", &n]);
    assert_eq!(code, 0, "{err}");
    let file = json(&run.join("outcomes/replays.json"));
    let mut seen = BTreeSet::new();
    for r in file["replays"].as_array().unwrap() {
        for x in r["runs"].as_array().unwrap().iter().skip(2) {
            seen.insert((
                r["family"].as_str().unwrap().to_string(),
                r["table"].as_str().unwrap().to_string(),
                x["run"].as_str().unwrap().to_string(),
            ));
        }
    }
    assert_eq!(seen, cells, "as many shots as cells: every cell in one");
}

/// A copy of a finished study's run directory for a bad-input case.
fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.join("outcomes")).unwrap();
    for f in ["run.json", "outcomes/shots.csv"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
}

#[test]
fn bad_input_is_exit_2_naming_the_file_field_and_value() {
    let dir = temp_dir("replays-bad");
    let (code, _, err) = study(&dir, "run", &["--replays", "0"]);
    assert_eq!(code, 0, "{err}");
    let run = dir.join("run");
    let case = |name: &str, edit: &dyn Fn(&Path)| -> PathBuf {
        let d = dir.join(name);
        copy_run(&run, &d);
        edit(&d);
        d
    };
    let rewrite = |d: &Path, f: &str, from: &str, to: &str| {
        let p = d.join(f);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(from), "{f} has no {from:?}");
        std::fs::write(&p, text.replacen(from, to, 1)).unwrap();
    };
    // The second row's index (column 3) made a word.
    let bad_row = case("bad-row", &|d| {
        let p = d.join("outcomes/shots.csv");
        let text = std::fs::read_to_string(&p).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        let mut cols: Vec<&str> = lines[2].split(',').collect();
        cols[2] = "twelve";
        lines[2] = cols.join(",");
        std::fs::write(&p, lines.join("\n") + "\n").unwrap();
    });
    let no_csv = case("no-csv", &|d| {
        std::fs::remove_file(d.join("outcomes/shots.csv")).unwrap();
    });
    let bad_json = case("bad-json", &|d| {
        std::fs::write(d.join("run.json"), "{ not json").unwrap();
    });
    let bad_options = case("bad-options", &|d| {
        rewrite(d, "run.json", "\"seed\": 3", "\"seed\": \"three\"");
    });
    let unknown_family = case("unknown-family", &|d| {
        let p = d.join("outcomes/shots.csv");
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.replace("\ncut,", "\ncurl,")).unwrap();
    });
    let unknown_engine = case("unknown-engine", &|d| {
        let p = d.join("outcomes/shots.csv");
        let text = std::fs::read_to_string(&p).unwrap();
        std::fs::write(&p, text.replace(",discrete:1e-2:euler,", ",warp:9,")).unwrap();
    });
    let missing = dir.join("nowhere");
    let cases: Vec<(PathBuf, Vec<&str>, Vec<String>)> = vec![
        (missing.clone(), vec![], vec![missing.display().to_string()]),
        (
            no_csv.clone(),
            vec![],
            vec![no_csv.join("outcomes/shots.csv").display().to_string()],
        ),
        (
            bad_row.clone(),
            vec![],
            vec![
                bad_row.join("outcomes/shots.csv").display().to_string(),
                "row 2".into(),
                "field index".into(),
                "\"twelve\"".into(),
            ],
        ),
        (
            bad_json.clone(),
            vec![],
            vec![bad_json.join("run.json").display().to_string()],
        ),
        (
            bad_options.clone(),
            vec![],
            vec![
                bad_options.join("run.json").display().to_string(),
                "outcome_options".into(),
            ],
        ),
        (
            unknown_family.clone(),
            vec![],
            vec!["shots.csv".into(), "field family".into(), "\"curl\"".into()],
        ),
        (
            unknown_engine.clone(),
            vec![],
            vec!["shots.csv".into(), "field run".into(), "\"warp:9\"".into()],
        ),
        (
            run.clone(),
            vec!["--outcome-seed", "4"],
            vec!["--outcome-seed 4".into(), "run.json".into()],
        ),
        (
            run.clone(),
            vec!["--replays", "10001"],
            vec!["--replays".into()],
        ),
        (
            no_csv.clone(),
            vec!["--rack", "wobbly"],
            vec![no_csv.join("outcomes/shots.csv").display().to_string()],
        ),
    ];
    for (d, extra, names) in cases {
        let (code, _, err) = replays(&d, &extra);
        assert_eq!(code, 2, "{} {extra:?}: {err}", d.display());
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error:")).count(),
            1,
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        for n in names {
            assert!(
                err.contains(&n),
                "{} {extra:?}: {err} does not name {n}",
                d.display()
            );
        }
    }
    // Without run.json the flags are the options: a rack that does not parse is named.
    let flags = case("flags", &|d| {
        std::fs::remove_file(d.join("run.json")).unwrap()
    });
    let (code, _, err) = replays(&flags, &["--rack", "wobbly"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rack") && err.contains("wobbly"), "{err}");
    // ... and the defaults are the study's but the seed, which it changed: without it, the
    // rows name other shots than the seed makes, and nothing is replayed.
    let (code, out, err) = replays(&flags, &["--replays", "3", "--outcome-seed", "3"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("did not reproduce"), "{out}");
    let (code, _, err) = replays(&flags, &["--replays", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("field shot") && err.contains("seed 1; nothing replayed"),
        "{err}"
    );
}
