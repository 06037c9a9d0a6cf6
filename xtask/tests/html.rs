//! `report.html` as data: what an outcomes run's page carries agrees with the run's own files
//! (every answer and rate the CSVs hold, every shot of shots.csv, each rate cell's count of
//! changed shots equal to the shots it lists), the page cannot be broken out of its script
//! elements, and `cargo xtask html` on bad input is one line and exit 2. The page in a real
//! browser: tests/browser.rs.

mod common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{temp_dir, texts, xtask};
use pool_report::compare::legend as legend_entries;

/// The ideal-model example program (docs/engine-protocol.md), which declines pool shots.
const IDEAL: &str = "exec:python3 benches/peers/ideal_engine.py";

/// The JSON inside `<script type="application/json" id="ID">` of `html`.
fn script_json(html: &str, id: &str) -> serde_json::Value {
    let open = format!("<script type=\"application/json\" id=\"{id}\">");
    let start = html.find(&open).unwrap_or_else(|| panic!("no {id}")) + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end]).unwrap()
}

/// Whether `name` holds a version number (`0.6.0`, `rapier2d-f64 0.36`): a digit, a dot, a
/// digit.
fn has_version(name: &str) -> bool {
    let b = name.as_bytes();
    b.windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
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
            // The ideal-model example program declines every pool shot.
            "--engines",
            IDEAL,
            // A margin of this run's own: the page's reading guide must state it.
            "--margin-balls",
            "0.07",
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

    // The reading guide before the answer: report.md's words, with this run's margin.
    let guide = data["guide"].as_str().unwrap();
    assert!(guide.contains("**How to read it.**"), "{guide}");
    assert!(guide.contains("balls pocketed ±0.07 per shot"), "{guide}");
    assert!(
        md.contains(guide),
        "the page's reading guide is not report.md's"
    );
    assert!(md.contains(data["answer_heading"].as_str().unwrap()));

    // The answer as a picture: a cell per answer, each band coloured by its claim as
    // answer_grid.png, each colour a legend entry's.
    let legend: Vec<(String, String)> = data["grid"]["legend"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                l["key"].as_str().unwrap().to_string(),
                l["colour"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let hex = |(r, g, b): (u8, u8, u8)| format!("#{r:02x}{g:02x}{b:02x}");
    assert_eq!(legend.len(), legend_entries().len());
    for ((key, colour), (k, _, c)) in legend.iter().zip(legend_entries()) {
        assert_eq!(key, k);
        assert_eq!(colour, &hex(c), "{key}");
    }
    let grid_cells: Vec<&serde_json::Value> = data["grid"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["cells"].as_array().unwrap())
        .filter(|c| !c.is_null())
        .collect();
    assert_eq!(grid_cells.len(), answers.len());
    for c in &grid_cells {
        for band in c["parts"].as_array().unwrap() {
            let key = band["legend"].as_str().unwrap();
            let (_, colour) = legend.iter().find(|(k, _)| k == key).unwrap();
            assert_eq!(&band["colour"], colour.as_str(), "{c}");
        }
        assert_eq!(c["colour"], c["parts"][0]["colour"], "{c}");
        assert!(md.contains(c["text"].as_str().unwrap()), "{c}");
    }
    // The answer's columns carry their family (the family filter narrows them).
    let cols = data["answer"]["col_family"].as_array().unwrap();
    assert_eq!(
        cols.len(),
        data["answer"]["columns"].as_array().unwrap().len()
    );
    assert_eq!(cols[1], "cut");

    // The program declined every shot: counted, with its reason and what to do next; its
    // answer is "not played"; the filters name it without a version.
    let ideal_row = rows
        .iter()
        .find(|r| r["attrs"]["engine"] == "exec")
        .expect("the program's answer row");
    for c in ideal_row["cells"].as_array().unwrap().iter().skip(1) {
        assert!(
            c["t"].as_str().unwrap().starts_with("**not played**"),
            "{c}"
        );
    }
    assert_eq!(
        ideal_row["attrs"]["name"],
        "exec:python3 benches/peers/ideal_engine.py"
    );
    let declined = data["declined"].as_array().unwrap();
    assert_eq!(declined.len(), 1, "{declined:?}");
    let d = &declined[0];
    assert_eq!(d["engine"], "exec");
    assert_eq!(d["declined"], 16, "{d}");
    assert_eq!(d["declined_shots"], 16, "{d}");
    assert_eq!(d["runs"], 16, "{d}");
    assert_eq!(d["failed"], 0, "{d}");
    assert!(d["reason"].as_str().unwrap().contains("ideal model"), "{d}");
    assert!(d["next"].as_str().unwrap().contains("`unsupported`"), "{d}");
    for t in [&data["answer"], &data["glance"]] {
        for r in t["rows"].as_array().into_iter().flatten() {
            if let Some(name) = r["attrs"]["name"].as_str() {
                assert!(!has_version(name), "a filter name with a version: {name}");
            }
        }
    }

    // Rebuilt from the files alone, the page carries the same data.
    let o = xtask().arg("html").arg(&run).output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{}", texts(&o).1);
    let again = script_json(
        &std::fs::read_to_string(run.join("report.html")).unwrap(),
        "report-data",
    );
    for k in [
        "guide",
        "answer_heading",
        "grid",
        "answer",
        "undecided",
        "declined",
        "rates",
    ] {
        assert_eq!(
            again[k], data[k],
            "{k} differs when the page is rebuilt from files"
        );
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
    // 2 families x (floor + 2 schemes x 2 dt); the program played no shot (no rate cell).
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
