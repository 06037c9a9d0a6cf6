//! The third hostile probe (issue 52): bounded work, strict options, and nothing from elsewhere
//! trusted. Each test is a variant of one of the probe's thirteen findings, not its reproducer:
//! a table too large or too intricate to check, budgets with a part twice, shard and look files
//! edited so that what they say no longer follows from their rows, files that must be shared,
//! untrusted text in report.md, requests a server must refuse, the protocol's key order,
//! contradictory options, replays of rows that disagree, one plan for every printed command, a
//! huge answer, and the small ones.

#![cfg(unix)]

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::{run_within, shards, temp_dir, texts, xtask};

/// Asserts exit code 2, one line on stderr, naming every one of `names`.
fn refused(out: &std::process::Output, names: &[&str], what: &str) {
    let (_, err) = texts(out);
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{what}: one line: {err}");
    assert!(!err.contains("panicked"), "{what}: {err}");
    for n in names {
        assert!(err.contains(n), "{what}: expected {n:?} in {err}");
    }
}

/// A closed table of `corners` corners (a regular polygon of radius 2 m about (2.5, 2.5), each
/// edge cut into `pieces` segments) with `balls` resting balls on a grid inside it.
fn polygon_shot(corners: usize, pieces: usize, balls: usize) -> String {
    let mut s = String::from(
        "description = \"a polygon of many segments\"\nmodel = \"pool\"\n[table]\nname = \
         \"polygon\"\nlength = 5.0\nwidth = 5.0\n",
    );
    let at = |i: usize| {
        let a = std::f64::consts::TAU * (i % corners) as f64 / corners as f64;
        (2.5 + 2.0 * a.cos(), 2.5 + 2.0 * a.sin())
    };
    let mut k = 0;
    for i in 0..corners {
        let ((x0, y0), (x1, y1)) = (at(i), at(i + 1));
        for j in 0..pieces {
            let (u, v) = (j as f64 / pieces as f64, (j + 1) as f64 / pieces as f64);
            s.push_str(&format!(
                "[[table.cushions]]\nid = \"s{k}\"\np1 = [{:?}, {:?}]\np2 = [{:?}, {:?}]\nheight = \
                 0.036576\n",
                x0 + (x1 - x0) * u,
                y0 + (y1 - y0) * u,
                x0 + (x1 - x0) * v,
                y0 + (y1 - y0) * v
            ));
            k += 1;
        }
    }
    let side = (balls as f64).sqrt().ceil() as usize;
    for n in 0..balls {
        let (i, j) = (n % side, n / side);
        let x = 1.3 + 2.4 * (i as f64 + 0.5) / side as f64;
        let y = 1.3 + 2.4 * (j as f64 + 0.5) / side as f64;
        s.push_str(&format!("[[balls]]\nid = \"b{n}\"\nr = [{x:?}, {y:?}]\n"));
    }
    s
}

#[test]
fn a_table_at_the_limits_is_checked_at_once_and_past_them_refused() {
    let dir = temp_dir("bounds-table");
    // 9,996 segments under 1,600 balls: the check is near-linear, the run ends at once.
    let at_limit = dir.join("at_limit.toml");
    std::fs::write(&at_limit, polygon_shot(12, 833, 1600)).unwrap();
    let (code, err) = run_within(
        xtask().arg("simulate").arg(&at_limit),
        Duration::from_secs(120),
    );
    assert_eq!(code, Some(0), "{err}");
    // One element more than a table may have: circular cushions count.
    let mut over = polygon_shot(12, 833, 1);
    for k in 0..5 {
        over.push_str(&format!(
            "[[table.circular_cushions]]\nid = \"a{k}\"\ncenter = [0.1, {:?}]\nradius = 0.01\n\
             height = 0.036576\n",
            0.1 + 0.05 * k as f64
        ));
    }
    let over_file = dir.join("over.toml");
    std::fs::write(&over_file, over).unwrap();
    let out = xtask().arg("simulate").arg(&over_file).output().unwrap();
    refused(
        &out,
        &["over.toml", "table.cushions", "at most 10000 elements"],
        "over",
    );
}

#[test]
fn a_budget_has_one_count_and_one_duration() {
    for (budget, part) in [("800,30s,40s", "\"40s\""), ("5s,100,200", "\"200\"")] {
        let out = xtask()
            .args([
                "outcomes",
                "--outcome-budget",
                budget,
                "--outcome-shots",
                "2",
            ])
            .output()
            .unwrap();
        refused(&out, &["--outcome-budget", part], budget);
    }
}

/// `file`'s CSV with `edit` applied to its rows (header first), written back.
fn edit_csv(file: &Path, edit: impl FnOnce(&mut Vec<Vec<String>>)) {
    let text = std::fs::read_to_string(file).unwrap();
    let mut rows: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    edit(&mut rows);
    let out: Vec<String> = rows.iter().map(|r| r.join(",")).collect();
    std::fs::write(file, out.join("\n") + "\n").unwrap();
}

/// The column of `name` in a header row.
fn col(rows: &[Vec<String>], name: &str) -> usize {
    rows[0].iter().position(|c| c == name).unwrap()
}

/// A copy of the run directory `from` at `to`.
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let q = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_dir(&p, &q);
        } else {
            std::fs::copy(&p, &q).unwrap();
        }
    }
}

fn merge(dirs: &[PathBuf], out: &Path, name: &str) -> std::process::Output {
    xtask()
        .arg("merge")
        .args(dirs)
        .arg("--out")
        .arg(out)
        .args(["--run-name", name])
        .output()
        .unwrap()
}

#[test]
fn merge_derives_again_what_the_rows_and_times_derive_from() {
    let dir = temp_dir("bounds-merge");
    let study = [
        "outcomes",
        "--outcome-families",
        "cut,break9",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "12",
        "--outcome-budget",
        "none",
        "--schemes",
        "end_of_step",
        "--outcome-dt",
        "1e-2",
    ];
    let parts = shards(&study, 2, &dir, "s");
    let ok = merge(&parts, &dir, "ok");
    assert_eq!(ok.status.code(), Some(0), "{}", texts(&ok).1);
    let variant = |name: &str, file: &str, edit: &dyn Fn(&mut Vec<Vec<String>>)| {
        let copy = dir.join(name);
        copy_dir(&parts[1], &copy);
        edit_csv(&copy.join(file), |r| edit(r));
        merge(&[parts[0].clone(), copy], &dir, &format!("m-{name}"))
    };
    // A scratch flag that its pocketed balls contradict.
    let out = variant("scratch", "outcomes/shots.csv", &|rows| {
        let (s, p) = (col(rows, "scratch"), col(rows, "pocketed"));
        let r = rows
            .iter()
            .position(|r| r[p].is_empty() && r[s] == "0")
            .unwrap();
        rows[r][s] = "1".into();
    });
    refused(
        &out,
        &["shots.csv", "scratch = 1", "says 0", "nothing merged"],
        "scratch",
    );
    // A first contact's time that is not a time.
    let out = variant("time", "outcomes/shots.csv", &|rows| {
        let t = col(rows, "first_contact_t_s");
        let r = rows.iter().skip(1).position(|r| !r[t].is_empty()).unwrap() + 1;
        rows[r][t] = "-inf".into();
    });
    refused(&out, &["first_contact_t_s"], "time");
    // An engine timed over no shot.
    let out = variant("wall", "outcomes/wall.csv", &|rows| {
        let s = col(rows, "shots");
        let last = rows.len() - 1;
        rows[last][s] = "0".into();
    });
    refused(&out, &["wall.csv", "shots = 0", "nothing merged"], "wall");
    // Stress: a frozen shot relabelled a break.
    let parts = shards(&["stress", "--shots", "28", "--jobs", "1"], 2, &dir, "st");
    let copy = dir.join("kind");
    copy_dir(&parts[1], &copy);
    edit_csv(&copy.join("stress/shots.csv"), |rows| {
        let k = col(rows, "kind");
        let r = rows.iter().position(|r| r[k] == "frozen").unwrap();
        rows[r][k] = "break9".into();
    });
    let out = merge(&[parts[0].clone(), copy], &dir, "m-kind");
    refused(
        &out,
        &["field kind = \"break9\"", "its seed makes it frozen"],
        "kind",
    );
}

#[test]
fn every_file_of_a_run_has_the_mode_of_any_other() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("bounds-mode");
    let out = xtask()
        .args([
            "compare",
            "data/shots/straight.toml",
            "--quick",
            "--no-outcomes",
        ])
        .args(["--run-name", "r", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    let expected = mode(&dir.join("r/report.md"));
    for f in ["r/report.html", "r/summary.csv", "LATEST"] {
        assert_eq!(mode(&dir.join(f)), expected, "{f}");
    }
}

#[test]
fn a_shot_and_a_programs_words_reach_report_md_as_text() {
    let dir = temp_dir("bounds-md");
    // A shot whose name is a tag, and a program whose stderr is one.
    let shot = dir.join("<svg onload=alert(3)>.toml");
    std::fs::copy(common::shots().join("straight.toml"), &shot).unwrap();
    let program = dir.join("fails.sh");
    std::fs::write(
        &program,
        // It answers (so it starts), with an error of its own, then stops.
        "#!/bin/sh\nread l\necho '<iframe src=javascript:alert(4)>' >&2\n\
         echo '{\"error\": \"<img src=x onerror=alert(5)>\"}'\nexit 3\n",
    )
    .unwrap();
    std::fs::set_permissions(
        &program,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let out = xtask()
        .arg("compare")
        .arg(&shot)
        .args([
            "--quick",
            "--no-outcomes",
            "--no-scaling",
            "--physics",
            "none",
        ])
        .arg("--engines")
        .arg(format!("exec:{}", program.display()))
        .args(["--run-name", "r", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", texts(&out).1);
    let md = std::fs::read_to_string(dir.join("r/report.md")).unwrap();
    // Outside code spans no tag opens: the report is what md::no_html leaves as it is, and the
    // table names the shot as text.
    assert_eq!(pool_report::md::no_html(&md), md);
    assert!(md.contains("| &lt;svg onload=alert(3)&gt; |"), "{md}");
    assert!(
        md.contains("iframe src=javascript"),
        "the program's words are kept"
    );
    assert!(
        md.contains("img src=x"),
        "the program's error is kept: {md}"
    );
}

/// The straight shot's request line, as a program receives it.
fn request_line(dir: &Path) -> String {
    let program = dir.join("record.sh");
    let keep = dir.join("request.json");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\nread l\nprintf '%s\\n' \"$l\" > {}\nexit 3\n",
            keep.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(
        &program,
        std::os::unix::fs::PermissionsExt::from_mode(0o755),
    )
    .unwrap();
    let out = xtask()
        .args(["simulate", "data/shots/bank.toml", "--engine"])
        .arg(format!("exec:{}", program.display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", texts(&out).1);
    std::fs::read_to_string(keep).unwrap()
}

#[test]
fn requests_are_sorted_and_a_server_refuses_what_it_cannot_answer() {
    let dir = temp_dir("bounds-serve");
    let line = request_line(&dir);
    // Every object's keys in order: each key found after the one before it, in the text.
    let keys = [
        "\"balls\"",
        "\"id\"",
        "\"max_events\"",
        "\"model\"",
        "\"protocol\"",
        "\"shot\"",
    ];
    let at: Vec<usize> = keys.iter().map(|k| line.find(k).unwrap()).collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "{at:?}: {}",
        &line[..200]
    );
    let laws = line.find("\"laws\"").unwrap();
    assert!(laws < line.find("\"motion\"").unwrap() && laws < line.find("\"params\"").unwrap());
    let serve = |request: String| {
        let mut child = xtask()
            .args(["simulate", "--serve"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), (request + "\n").as_bytes())
            .unwrap();
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap()
    };
    for (from, to, says) in [
        ("\"e_b\":0.95", "\"e_b\":2.0", "model.params.e_b"),
        ("\"g\":9.81,", "", "model.params.g: missing"),
    ] {
        assert!(line.contains(from), "{from}");
        let answer = serve(line.replacen(from, to, 1));
        assert!(
            answer.starts_with("{\"error\"") && answer.contains(says),
            "{from}: {answer}"
        );
    }
}

#[test]
fn options_that_contradict_each_other_are_refused() {
    for (args, names) in [
        (
            &["compare", "--physics", "mathavan,none", "--quick"][..],
            &["--physics", "none"][..],
        ),
        (
            &[
                "compare",
                "--no-outcomes",
                "--margin-floor",
                "0.1",
                "--quick",
            ],
            &["--no-outcomes", "--margin-floor"],
        ),
        (
            &["outcomes", "--outcome-shots", "20", "--chaos-shots", "50"],
            &["--chaos-shots 50", "--outcome-shots 20"],
        ),
    ] {
        let out = xtask().args(args).output().unwrap();
        refused(&out, names, &args.join(" "));
    }
}

#[test]
fn a_looks_state_that_its_rows_do_not_give_is_refused() {
    let dir = temp_dir("bounds-looks");
    let study = [
        "outcomes",
        "--outcome-families",
        "cut",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "10",
        "--outcome-budget",
        "40",
        "--schemes",
        "end_of_step",
        "--outcome-dt",
        "1e-2",
    ];
    let look1 = shards(&[&study[..], &["--look", "1"]].concat(), 1, &dir, "l");
    let out = xtask()
        .args(["merge", "--look", "1"])
        .args(&look1)
        .arg("--out")
        .arg(&dir)
        .args(["--run-name", "m1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    // The cell's cost per shot (what the dt search's --search-max-shot reads) made dear.
    let state = dir.join("m1/outcomes/looks.json");
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state).unwrap()).unwrap();
    let cell = &mut file["state"]["families"][0]["cells"][0]["cost_s"];
    assert!(cell.as_f64().is_some_and(|c| c < 1.0), "{cell}");
    *cell = 10.0.into();
    std::fs::write(&state, file.to_string()).unwrap();
    let out = xtask()
        .args(study)
        .args([
            "--look",
            "2",
            "--shard",
            "1/1",
            "--run-name",
            "l2",
            "--resume",
        ])
        .arg(dir.join("m1"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    refused(&out, &["looks.json", "not the one its rows give"], "looks");
}

#[test]
fn replays_refuse_a_reference_row_named_for_another_shot() {
    let dir = temp_dir("bounds-replays");
    let out = xtask()
        .args([
            "outcomes",
            "--outcome-families",
            "cut",
            "--outcome-tables",
            "seven_foot",
        ])
        .args([
            "--outcome-shots",
            "10",
            "--outcome-budget",
            "none",
            "--schemes",
        ])
        .args([
            "end_of_step",
            "--outcome-dt",
            "1e-2",
            "--run-name",
            "r",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    edit_csv(&dir.join("r/outcomes/shots.csv"), |rows| {
        let (run, shot) = (col(rows, "run"), col(rows, "shot"));
        let refs: Vec<usize> = (1..rows.len())
            .filter(|&r| rows[r][run] == "reference")
            .collect();
        rows[refs[2]][shot] = rows[refs[1]][shot].clone();
    });
    let out = xtask().arg("replays").arg(dir.join("r")).output().unwrap();
    let (_, err) = texts(&out);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("field shot") && err.contains("nothing replayed"),
        "{err}"
    );
}

#[test]
fn a_merged_study_prints_the_one_process_runs_commands() {
    let dir = temp_dir("bounds-plan");
    let study = [
        "outcomes",
        "--outcome-families",
        "bank",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "7",
        "--outcome-seed",
        "5",
        "--outcome-budget",
        "none",
        "--schemes",
        "euler",
        "--outcome-dt",
        "1e-2",
    ];
    let out = xtask()
        .args(study)
        .args(["--run-name", "one", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let parts = shards(&study, 3, &dir, "s");
    let out = merge(&parts, &dir, "m");
    assert_eq!(out.status.code(), Some(0), "{}", texts(&out).1);
    let commands = |run: &str| -> Vec<String> {
        let md = std::fs::read_to_string(dir.join(run).join("report.md")).unwrap();
        md.lines()
            .filter_map(|l| l.split("`cargo xtask outcomes").nth(1))
            .filter(|c| c.contains("--outcome-budget"))
            .map(String::from)
            .collect()
    };
    let (one, merged) = (commands("one"), commands("m"));
    assert!(!one.is_empty());
    assert_eq!(one, merged);
    // The commands carry the study's own options, so that they play the same study.
    assert!(one
        .iter()
        .all(|c| c.contains("--outcome-shots 7") && c.contains("--outcome-seed 5")));
}

#[test]
fn an_answer_of_many_events_is_read_whole() {
    let dir = temp_dir("bounds-answer");
    let program = dir.join("many.py");
    std::fs::write(
        &program,
        "import json, sys\nfor line in sys.stdin:\n    r = json.loads(line)\n    e = ','.join(\
         '{\"time\":0,\"kind\":\"spinning_stationary\",\"agents\":[\"cue\"]}' for _ in \
         range(200000))\n    f = ','.join('{\"id\":\"%s\",\"r\":%s,\"v\":[0,0],\"w\":[0,0,0],\
         \"state\":\"stationary\"}' % (b['id'], json.dumps(b['r'][:2])) for b in r['balls'])\n    \
         print('{\"id\":%d,\"events\":[%s],\"final_states\":[%s]}' % (r['id'], e, f), \
         flush=True)\n",
    )
    .unwrap();
    let shot = dir.join("rest.toml");
    std::fs::write(
        &shot,
        "description = \"at rest\"\nmodel = \"pool\"\ntable = \"seven_foot\"\n[[balls]]\nid = \
         \"cue\"\nr = [0.5, 0.5]\n[[balls]]\nid = \"1\"\nr = [1.0, 0.5]\n",
    )
    .unwrap();
    let out = xtask()
        .arg("simulate")
        .arg(&shot)
        .args(["--format", "csv", "--engine"])
        .arg(format!("exec:python3 {}", program.display()))
        .output()
        .unwrap();
    let (stdout, err) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    let events = stdout.lines().filter(|l| l.starts_with("event,")).count();
    assert_eq!(events, 200_000);
}

#[test]
fn the_small_ones() {
    let dir = temp_dir("bounds-small");
    let shot = |name: &str, text: &str| {
        let f = dir.join(name);
        std::fs::write(&f, text).unwrap();
        f
    };
    let phi = shot(
        "phi.toml",
        "description = \"x\"\nmodel = \"pool\"\ntable = \"seven_foot\"\n[cue]\nball = \"cue\"\n\
         V0 = 2.0\nphi = -400.0\n[[balls]]\nid = \"cue\"\nr = [0.5, 0.5]\n",
    );
    let out = xtask().arg("simulate").arg(&phi).output().unwrap();
    refused(&out, &["cue.phi = -400.0", "[-360, 360]"], "phi");
    // A cushion id with a line break in it.
    let mut table = std::fs::read_to_string(common::shots().join("straight.toml")).unwrap();
    table = table.replace(
        "table = \"seven_foot\"",
        "[table]\nname = \"box\"\nlength = 2.0\nwidth = 1.0\n[[table.cushions]]\nid = \"a\\nb\"\n\
         p1 = [0.0, 0.0]\np2 = [2.0, 0.0]\nheight = 0.036576",
    );
    let nl = shot("newline.toml", &table);
    let out = xtask().arg("simulate").arg(&nl).output().unwrap();
    refused(&out, &["table.cushions[0].id", "U+000A"], "newline id");
    let out = xtask()
        .args([
            "compare",
            "data/shots/straight.toml",
            "--quick",
            "--no-outcomes",
            "--bless",
        ])
        .arg("--baselines")
        .arg(dir.join("none-here"))
        .arg("--out")
        .arg(&dir)
        .output()
        .unwrap();
    refused(&out, &["--baselines", "no such directory"], "baselines");
    let out = xtask()
        .args([
            "compare",
            "data/shots/straight.toml",
            "--quick",
            "--no-outcomes",
        ])
        .args([
            "--physics",
            "none",
            "--schemes",
            "substep8",
            "--run-name",
            "s",
            "--out",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let (stdout, err) = texts(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        !stdout.contains("NaN") && !stdout.contains("min inf"),
        "{stdout}"
    );
}
