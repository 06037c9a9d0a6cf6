//! `report.html` as data: what an outcomes run's page carries agrees with the run's own files
//! (every answer and rate the CSVs hold, every shot of shots.csv, each rate cell's count of
//! changed shots equal to the shots it lists), the page cannot be broken out of its script
//! elements, and `cargo xtask html` on bad input is one line and exit 2. The page in a real
//! browser: tests/browser.rs.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{temp_dir, texts, xtask};

/// The JSON inside `<script type="application/json" id="ID">` of `html`.
fn script_json(html: &str, id: &str) -> serde_json::Value {
    let open = format!("<script type=\"application/json\" id=\"{id}\">");
    let start = html.find(&open).unwrap_or_else(|| panic!("no {id}")) + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

fn csv_rows(path: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.records().map(Result::unwrap).collect()
}

fn header_index(path: &Path, name: &str) -> usize {
    let mut r = csv::Reader::from_path(path).unwrap();
    r.headers().unwrap().iter().position(|h| h == name).unwrap()
}

#[test]
fn an_outcome_runs_page_carries_its_files_rows_and_shots() {
    let dir = temp_dir("html-outcomes");
    let o = xtask()
        .args([
            "outcomes",
            "--outcome-families",
            "cut,break9",
            "--outcome-tables",
            "seven_foot",
            "--outcome-shots",
            "8",
            "--outcome-dt",
            "1e-2,1e-3",
            "--schemes",
            "exact,located",
            "--outcome-budget",
            "none",
            "--out",
        ])
        .arg(&dir)
        .args(["--run-name", "run"])
        .output()
        .unwrap();
    let (out, err) = texts(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    let run = dir.join("run");
    assert!(out.contains("report.html"), "{out}");
    let html = std::fs::read_to_string(run.join("report.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
    // Nothing fetched: no src/href to anything but the run's own files and anchors.
    assert!(!html.contains("http://") || !html.contains("src=\"http"));
    let data = script_json(&html, "report-data");

    // The answer: a row per engine of outcome_answer.csv, and the reference's.
    let answers = csv_rows(&run.join("outcome_answer.csv"));
    let engines: BTreeSet<(String, String)> = answers
        .iter()
        .map(|r| (r[2].to_string(), r[3].to_string()))
        .collect();
    let rows = data["answer"]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), engines.len() + 1);
    assert_eq!(rows.last().unwrap()["attrs"]["engine"], "event");
    // A column per family, each cell the report.md's text.
    let md = std::fs::read_to_string(run.join("report.md")).unwrap();
    for r in rows {
        for c in r["cells"].as_array().unwrap().iter().skip(1) {
            let t = c["t"].as_str().unwrap();
            assert!(md.contains(t), "answer cell {t:?} is not report.md's");
        }
    }

    // Every shot of shots.csv, once.
    let shots_csv = run.join("outcomes/shots.csv");
    let shot_rows = csv_rows(&shots_csv);
    let (fi, ii) = (
        header_index(&shots_csv, "family"),
        header_index(&shots_csv, "index"),
    );
    let distinct: BTreeSet<(String, String)> = shot_rows
        .iter()
        .map(|r| (r[fi].to_string(), r[ii].to_string()))
        .collect();
    let shots = &data["shots"];
    let list = shots["list"].as_array().unwrap();
    assert_eq!(list.len(), distinct.len());
    assert_eq!(list.len(), 16);

    // Each rate cell's count of changed shots is the number of shots it lists as changed
    // (outcomes.csv and shots.csv agree through the page).
    let runs = shots["runs"].as_array().unwrap();
    let families = shots["families"].as_array().unwrap();
    let mut cells = 0;
    for t in data["rates"].as_array().unwrap() {
        for r in t["rows"].as_array().unwrap() {
            for c in r["cells"].as_array().unwrap() {
                let Some(d) = c.get("drill") else { continue };
                cells += 1;
                let f = families
                    .iter()
                    .position(|x| x[0] == d["family"] && x[1] == d["table"])
                    .unwrap();
                let ri = runs
                    .iter()
                    .position(|x| {
                        if d["engine"] == "floor" {
                            x["run"] == "floor"
                        } else {
                            x["run"] != "floor"
                                && x["engine"] == d["engine"]
                                && x["scheme"] == d["scheme"]
                                && x["dt"] == d["dt"]
                        }
                    })
                    .unwrap_or_else(|| panic!("no run for {d}"));
                let changed = list
                    .iter()
                    .filter(|s| s[0] == f)
                    .filter(|s| {
                        s[4].as_array()
                            .unwrap()
                            .iter()
                            .any(|x| x[0] == ri && x[1].as_u64().unwrap() & 1 == 1)
                    })
                    .count() as u64;
                assert_eq!(changed, d["changed"].as_u64().unwrap(), "{d}");
                assert_eq!(
                    list.iter().filter(|s| s[0] == f).count() as u64,
                    d["n"].as_u64().unwrap(),
                    "{d}"
                );
            }
        }
    }
    // 2 families x (floor + 2 schemes x 2 dt).
    assert_eq!(cells, 2 * 5);
    // The page is written whole: no temporary file left.
    assert!(!run.join(".report.html.tmp").exists());
}

#[test]
fn the_html_command_refuses_what_is_not_a_run_in_one_line() {
    let dir = temp_dir("html-bad");
    let o = xtask()
        .arg("html")
        .arg(dir.join("missing"))
        .output()
        .unwrap();
    let err = texts(&o).1;
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("missing"), "{err}");

    // A directory with no run's files.
    let o = xtask().arg("html").arg(&dir).output().unwrap();
    let err = texts(&o).1;
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("no summary.csv and no outcomes.csv"), "{err}");

    // A malformed row: the file and the row named.
    std::fs::write(
        dir.join("outcomes.csv"),
        "family,table,engine,scheme,dt_s,field,n\ncut,seven_foot,discrete,exact,abc,outcome,3\n",
    )
    .unwrap();
    let o = xtask().arg("html").arg(&dir).output().unwrap();
    let err = texts(&o).1;
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("outcomes.csv") && err.contains("row 2"),
        "{err}"
    );
    assert!(!dir.join("report.html").exists());
}
