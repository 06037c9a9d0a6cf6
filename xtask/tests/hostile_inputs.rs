//! Nothing a shard, a committed run or an input file says is taken on trust (issue 33): a
//! merge checks that every shard's rows are exactly its range, a study refuses an engine
//! given twice, `figures` never panics nor writes a number that is not one, a sweep says its
//! size and refuses one past the cap, `import-pooltool` reads a big file in bounded memory and
//! names what is wrong with a bad one, and a shot's table is checked in near-linear time.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use common::{root, temp_dir, texts, xtask};

/// Asserts an exit code, no panic, and stderr containing each of `names`.
fn assert_exit(out: &Output, code: i32, names: &[&str], what: &str) {
    let (stdout, stderr) = texts(out);
    assert_eq!(
        out.status.code(),
        Some(code),
        "{what}: stderr {stderr}, stdout {}",
        stdout.chars().take(400).collect::<String>()
    );
    assert!(!stderr.contains("panicked"), "{what}: {stderr}");
    for n in names {
        assert!(stderr.contains(n), "{what}: expected {n:?} in {stderr}");
    }
}

/// A copy of the directory tree `from` at `to`.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

/// Runs `args` with `--shard k/2` for k = 1, 2 into `dir/s1`, `dir/s2`.
fn two_shards(args: &[&str], dir: &Path) -> [PathBuf; 2] {
    [1, 2].map(|k| {
        let out = xtask()
            .args(args)
            .args(["--shard", &format!("{k}/2"), "--out"])
            .arg(dir)
            .args(["--run-name", &format!("s{k}")])
            .output()
            .unwrap();
        assert_exit(&out, 0, &[], &format!("{args:?} shard {k}/2"));
        dir.join(format!("s{k}"))
    })
}

/// `xtask merge a b --out dir --run-name name`.
fn merge(shards: &[&Path], dir: &Path, name: &str) -> Output {
    xtask()
        .arg("merge")
        .args(shards)
        .arg("--out")
        .arg(dir)
        .args(["--run-name", name])
        .output()
        .unwrap()
}

/// The shards of `args` merge as they are; each tampered copy of shard 1's `table` (a row
/// deleted, a row given twice, shard 2's rows instead, the header alone) is refused with exit
/// 2 naming the file and the first bad row, and nothing is merged.
fn tampered_shards_are_refused(args: &[&str], table: &str, dir: &Path, what: &str) {
    let [s1, s2] = two_shards(args, dir);
    assert_exit(&merge(&[&s1, &s2], dir, "good"), 0, &[], what);
    let text = std::fs::read_to_string(s1.join(table)).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 4, "{what}: {text}");
    let without = |k: usize| {
        let mut l = lines.clone();
        l.remove(k);
        l.join("\n") + "\n"
    };
    let twice = |k: usize| {
        let mut l = lines.clone();
        l.insert(k, lines[k]);
        l.join("\n") + "\n"
    };
    let cases = [
        ("a row deleted", without(2), "row 2 is"),
        (
            "the last row deleted",
            without(lines.len() - 1),
            "is missing",
        ),
        ("a row given twice", twice(2), "row 3 is"),
        (
            "shard 2's rows",
            std::fs::read_to_string(s2.join(table)).unwrap(),
            "row 1 is",
        ),
        (
            "the header alone",
            format!("{}\n", lines[0]),
            "no rows (a header only)",
        ),
    ];
    for (k, (case, body, says)) in cases.into_iter().enumerate() {
        let bad = dir.join(format!("bad{k}"));
        copy_tree(&s1, &bad);
        std::fs::write(bad.join(table), body).unwrap();
        let started = Instant::now();
        let out = merge(&[&bad, &s2], dir, &format!("merged{k}"));
        let file = bad.join(table).display().to_string();
        assert_exit(
            &out,
            2,
            &[&file, says, "its rows must be exactly its range"],
            &format!("{what}, {case}"),
        );
        assert_eq!(texts(&out).1.trim().lines().count(), 1, "{what}, {case}");
        assert!(!dir.join(format!("merged{k}")).exists(), "{what}, {case}");
        eprintln!(
            "{what}, {case}: exit 2 in {:.2} s: {}",
            started.elapsed().as_secs_f64(),
            texts(&out).1.trim()
        );
    }
}

#[test]
fn merge_refuses_a_stress_shard_whose_rows_are_not_its_range() {
    let dir = temp_dir("hostile-merge-stress");
    let args = ["stress", "--shots", "40", "--seed", "1"];
    tampered_shards_are_refused(&args, "stress/shots.csv", &dir, "stress");
}

#[test]
fn merge_refuses_a_sweep_shard_whose_rows_are_not_its_range() {
    let dir = temp_dir("hostile-merge-sweep");
    let shot = root().join("data/sweeps/break_9ball_cue.toml");
    let shot = shot.to_str().unwrap();
    let args = [
        "sweep",
        shot,
        "--param",
        "V0=2:6:5",
        "--param",
        "b=-0.2,0.2",
    ];
    tampered_shards_are_refused(&args, "sweep/rows.csv", &dir, "sweep");
}

#[test]
fn merge_refuses_an_outcome_shard_whose_rows_are_not_its_range() {
    let dir = temp_dir("hostile-merge-outcomes");
    let args = [
        "outcomes",
        "--outcome-families",
        "cut,bank",
        "--outcome-tables",
        "seven_foot",
        "--outcome-shots",
        "3",
        "--outcome-dt",
        "1e-2",
        "--schemes",
        "exact",
        "--outcome-budget",
        "none",
        "--chaos-shots",
        "0",
    ];
    tampered_shards_are_refused(&args, "outcomes/shots.csv", &dir, "outcomes");
}

#[test]
fn an_engine_given_twice_is_refused_before_a_study_runs() {
    let dir = temp_dir("hostile-duplicate-engines");
    let out_dir = dir.to_str().unwrap();
    let started = Instant::now();
    let outcomes = xtask()
        .args([
            "outcomes",
            "--schemes",
            "located",
            "--outcome-dt",
            "1e-2",
            "--engines",
            "discrete:1e-2:located",
            "--outcome-shots",
            "2",
            "--out",
            out_dir,
        ])
        .output()
        .unwrap();
    assert_exit(
        &outcomes,
        2,
        &["--engines discrete:1e-2:located", "already in the study"],
        "outcomes",
    );
    let cut = root().join("data/shots/cut.toml");
    let compare = xtask()
        .arg("compare")
        .arg(&cut)
        .args([
            "--quick",
            "--schemes",
            "located",
            "--outcome-dt",
            "1e-2",
            "--outcome-engines",
            "discrete:1e-2:located",
            "--out",
            out_dir,
        ])
        .output()
        .unwrap();
    assert_exit(&compare, 2, &["already in the study"], "compare");
    // Refused before anything ran: nothing written, in well under a study's time.
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

/// A scratch committed run (`<dir>/reports/example`, with its siblings) and a document of one
/// figure tag `key` reading `text`.
fn figure_case(dir: &Path, files: &[(&str, &str)], key: &str) -> (PathBuf, PathBuf) {
    let _ = std::fs::remove_dir_all(dir);
    let run = dir.join("reports/example");
    std::fs::create_dir_all(&run).unwrap();
    for (name, body) in files {
        let path = dir.join("reports").join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, body).unwrap();
    }
    let doc = dir.join("doc.md");
    std::fs::write(&doc, format!("A figure: <!--fig:{key}-->x<!--/fig-->.\n")).unwrap();
    (run, doc)
}

fn figures(run: &Path, doc: &Path, write: bool) -> Output {
    let mut c = xtask();
    c.arg("figures").arg(doc).arg("--run").arg(run);
    if write {
        c.arg("--write");
    }
    c.output().unwrap()
}

#[test]
fn figures_of_a_run_lacking_a_column_or_a_number_exit_1_naming_it() {
    let dir = temp_dir("hostile-figures");
    // Each case: the run's files, the key, the file and column the message must name. Every
    // one of them panicked (exit 101) before.
    // (files, key, file, column).
    type Case<'a> = (Vec<(&'a str, &'a str)>, &'a str, &'a str, &'a str);
    let cases: Vec<Case> = vec![
        (
            vec![("example-python/batch.csv", "what,shots\nloop,3\n")],
            "py_rate:loop",
            "example-python/batch.csv",
            "shots_per_s",
        ),
        (
            vec![(
                "example-pooltool/compare.csv",
                "spacer_m,end,pooltools_own,shared_prefix\n1e-6,,,3\n",
            )],
            "pooltool_breaks:1e-6:whole",
            "example-pooltool/compare.csv",
            "pooltool_events",
        ),
        (
            vec![(
                "example-pooltool/compare.csv",
                "spacer_m,end,pooltool_events,pooltools_own\n1e-6,,4,\n",
            )],
            "pooltool_breaks:1e-6:prefix",
            "example-pooltool/compare.csv",
            "shared_prefix",
        ),
        (
            vec![(
                "example/outcomes.csv",
                "family,table,engine,scheme,dt_s,field\ncut,seven_foot,discrete,exact,0.01,outcome\n",
            )],
            "rate:cut:seven_foot:discrete:exact:1e-2:outcome",
            "outcomes.csv",
            "rate",
        ),
        (
            vec![(
                "example/outcomes.csv",
                "family,table,engine,scheme,dt_s,field\ncut,seven_foot,floor,floor,,outcome\n",
            )],
            "floor:cut:seven_foot",
            "outcomes.csv",
            "rate",
        ),
        (
            vec![("example/slopes.csv", "shot,scheme,slope,engine\ncut,exact,1.0,discrete\n")],
            "median_slope:exact",
            "slopes.csv",
            "points",
        ),
        (
            vec![("example/summary.csv", "shot,engine,dt_s,collision_time_error_median_s\ncut,discrete,0.01,1e-9\n")],
            "median_error:exact:1e-2",
            "summary.csv",
            "scheme",
        ),
        (
            vec![("example/one_step.csv", "shot,engine,scheme,dt_s\ncut,discrete,exact,0.01\n")],
            "one_step:discrete:exact:1e-2",
            "one_step.csv",
            "agree",
        ),
        (
            vec![("example/summary.csv", "shot,engine,scheme\ncut,event,isolator\n")],
            "event_wall:cut",
            "summary.csv",
            "wall_time_s",
        ),
        // Numbers that are not: a rate NaN, a wall time infinite, a wall time not a number.
        (
            vec![(
                "example/outcomes.csv",
                "family,table,engine,scheme,dt_s,field,rate\ncut,seven_foot,floor,floor,,outcome,NaN\n",
            )],
            "floor:cut:seven_foot",
            "outcomes.csv",
            "rate = \"NaN\": not a finite number",
        ),
        (
            vec![("example/summary.csv", "shot,engine,scheme,wall_time_s\ncut,event,isolator,inf\n")],
            "event_wall:cut",
            "summary.csv",
            "wall_time_s = \"inf\": not a finite number",
        ),
        (
            vec![("example/run.json", "{\"wall_time_s\": \"soon\"}")],
            "wall_s",
            "run.json",
            "wall_time_s",
        ),
    ];
    for (k, (files, key, file, column)) in cases.iter().enumerate() {
        let (run, doc) = figure_case(&dir.join(format!("case{k}")), files, key);
        for write in [false, true] {
            let started = Instant::now();
            let out = figures(&run, &doc, write);
            let fig = format!("fig:{key}");
            assert_exit(
                &out,
                1,
                &[file, column, &fig],
                &format!("{key} (write {write})"),
            );
            assert_eq!(texts(&out).1.trim().lines().count(), 1, "{key}");
            if k == 0 || k == 9 {
                eprintln!(
                    "figures{}: {key}: exit 1 in {:.2} s: {}",
                    if write { " --write" } else { "" },
                    started.elapsed().as_secs_f64(),
                    texts(&out).1.trim()
                );
            }
        }
        // Nothing written: the document reads as before.
        assert!(
            std::fs::read_to_string(&doc).unwrap().contains("-->x<!--"),
            "{key}"
        );
    }
}

#[test]
fn figures_write_never_writes_nan_and_finds_tags_in_linear_time() {
    let dir = temp_dir("hostile-figures-write");
    // A NaN in the run: --write refuses (exit 1) and leaves the document as it was.
    let (run, doc) = figure_case(
        &dir.join("nan"),
        &[(
            "example/outcomes.csv",
            "family,table,engine,scheme,dt_s,field,rate\ncut,seven_foot,discrete,exact,0.01,outcome,NaN\n",
        )],
        "rate:cut:seven_foot:discrete:exact:1e-2:outcome",
    );
    let before = std::fs::read_to_string(&doc).unwrap();
    let out = figures(&run, &doc, true);
    assert_exit(&out, 1, &["not a finite number"], "--write NaN");
    assert_eq!(std::fs::read_to_string(&doc).unwrap(), before);
    assert!(!before.contains("NaN %"));
    // 100,000 tags on 100,000 lines (3.4 MB): finding them was quadratic in the text.
    let (run, doc) = figure_case(
        &dir.join("many"),
        &[("example/run.json", "{\"shots\": 13}")],
        "shots",
    );
    let mut text = String::new();
    for _ in 0..100_000 {
        text.push_str("Shots: <!--fig:shots-->13<!--/fig-->\n");
    }
    std::fs::write(&doc, &text).unwrap();
    let started = Instant::now();
    let out = figures(&run, &doc, false);
    let secs = started.elapsed().as_secs_f64();
    assert_exit(&out, 0, &[], "100,000 tags");
    assert!(
        texts(&out).0.contains("100000 figures match"),
        "{}",
        texts(&out).0
    );
    eprintln!("figures: 100,000 tags in {secs:.2} s");
    assert!(secs < 20.0, "{secs} s");
}

#[test]
fn a_sweep_says_its_size_and_refuses_one_past_the_cap() {
    let dir = temp_dir("hostile-sweep-size");
    let shot = root().join("data/sweeps/break_9ball_cue.toml");
    let started = Instant::now();
    let out = xtask()
        .arg("sweep")
        .arg(&shot)
        .args(["--param", "V0=1:2", "--samples", "1000000000", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    let secs = started.elapsed().as_secs_f64();
    assert_exit(
        &out,
        2,
        &[
            "sweep: 1000000000 points",
            "GiB",
            "more than the 64.0 GiB",
            "--shard K/N",
        ],
        "1e9 samples",
    );
    eprintln!(
        "sweep --samples 1000000000: exit 2 in {secs:.2} s: {}",
        texts(&out).1.trim()
    );
    assert!(secs < 10.0);
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    // A small sweep says its size too, and runs.
    let out = xtask()
        .arg("sweep")
        .arg(&shot)
        .args(["--param", "V0=2:4:2", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_exit(
        &out,
        0,
        &["sweep: 2 points of", "sweep/rows.csv of about"],
        "2 points",
    );
}

/// Runs the command to its end; its output and peak resident memory (bytes).
#[cfg(target_os = "linux")]
fn peak_memory(mut c: std::process::Command) -> (Output, u64) {
    use std::process::Stdio;
    let child = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id() as libc::pid_t;
    // Read the pipes on threads while the child runs, then reap it with its own usage.
    let mut child = child;
    let mut so = child.stdout.take().unwrap();
    let mut se = child.stderr.take().unwrap();
    let t_out = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut so, &mut b).unwrap();
        b
    });
    let t_err = std::thread::spawn(move || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut se, &mut b).unwrap();
        b
    });
    let mut status = 0;
    // SAFETY: a zeroed rusage is a valid value, and wait4 writes into it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid);
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    let out = Output {
        status: std::os::unix::process::ExitStatusExt::from_raw(if code >= 0 {
            code << 8
        } else {
            status
        }),
        stdout: t_out.join().unwrap(),
        stderr: t_err.join().unwrap(),
    };
    (out, usage.ru_maxrss as u64 * 1024)
}

/// A simulated pooltool system of about `mb` MB: the three-ball fixture with each ball's first
/// history state and an event repeated, written as text (no tree of it in memory).
fn big_pooltool_json(path: &Path, mb: usize) {
    let text =
        std::fs::read_to_string(root().join("data/peers/pooltool/three_balls_simulated.json"))
            .unwrap();
    let fixture: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut skeleton = fixture.clone();
    let ids: Vec<String> = fixture["balls"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    for id in &ids {
        skeleton["balls"][id]["history"]["states"] = serde_json::json!([format!("@S{id}@")]);
    }
    skeleton["events"] = serde_json::json!(["@E@"]);
    let mut rest = skeleton.to_string();
    let half = mb * 1_000_000 / 2;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let repeat = |f: &mut std::io::BufWriter<std::fs::File>, item: &str, n: usize| {
        for k in 0..n.max(1) {
            if k > 0 {
                f.write_all(b",").unwrap();
            }
            f.write_all(item.as_bytes()).unwrap();
        }
    };
    for id in &ids {
        let state = fixture["balls"][id]["history"]["states"][0].to_string();
        let marker = format!("\"@S{id}@\"");
        let (head, tail) = rest.split_once(&marker).unwrap();
        f.write_all(head.as_bytes()).unwrap();
        repeat(&mut f, &state, half / ids.len() / (state.len() + 1));
        rest = tail.to_string();
    }
    let event = fixture["events"][1].to_string();
    let (head, tail) = rest.split_once("\"@E@\"").unwrap();
    f.write_all(head.as_bytes()).unwrap();
    repeat(&mut f, &event, half / (event.len() + 1));
    f.write_all(tail.as_bytes()).unwrap();
    f.flush().unwrap();
}

#[cfg(target_os = "linux")]
#[test]
fn a_big_pooltool_file_imports_in_memory_bounded_by_a_small_part_of_it() {
    let dir = temp_dir("hostile-import-big");
    let big = dir.join("big.json");
    big_pooltool_json(&big, 64);
    let size = std::fs::metadata(&big).unwrap().len();
    assert!(size > 50_000_000, "{size}");
    let small = root().join("data/peers/pooltool/three_balls_simulated.json");
    let mut imports = Vec::new();
    for file in [&small, &big] {
        let mut c = xtask();
        c.arg("import-pooltool").arg(file);
        let started = Instant::now();
        let (out, peak) = peak_memory(c);
        imports.push((out, peak));
        eprintln!(
            "import-pooltool of {} bytes: exit {:?} in {:.2} s, peak RSS {:.0} MB",
            std::fs::metadata(file).unwrap().len(),
            imports.last().unwrap().0.status.code(),
            started.elapsed().as_secs_f64(),
            peak as f64 / 1e6
        );
    }
    let (small_out, small_peak) = &imports[0];
    let (big_out, big_peak) = &imports[1];
    assert_exit(small_out, 0, &[], "the fixture");
    assert_exit(big_out, 0, &[], "the big file");
    // The same shot: the history is not what the import reads.
    assert_eq!(
        texts(small_out).0.replace("three_balls_simulated", "big"),
        texts(big_out).0
    );
    // Memory grows by far less than the file (a tree of the whole history took ~20 times it).
    assert!(
        *big_peak < small_peak + size / 4,
        "peak {big_peak} bytes for a file of {size} (fixture: {small_peak})"
    );
}

/// A msgpack map of string keys to msgpack-encoded values.
fn msgpack_map(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
    let mut out = vec![0x80 | entries.len() as u8];
    for (k, v) in entries {
        out.push(0xa0 | k.len() as u8);
        out.extend_from_slice(k.as_bytes());
        out.extend_from_slice(v);
    }
    out
}

fn msgpack_f64(x: f64) -> Vec<u8> {
    let mut out = vec![0xcb];
    out.extend_from_slice(&x.to_be_bytes());
    out
}

#[test]
fn import_pooltool_names_the_format_the_field_and_trailing_bytes() {
    let dir = temp_dir("hostile-import-messages");
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let blank = dir.join("blank.json");
    std::fs::write(&blank, "  \n").unwrap();
    let nan = dir.join("nan.msgpack");
    let ball = msgpack_map(&[("x", msgpack_f64(f64::NAN))]);
    let balls = msgpack_map(&[("cue", ball)]);
    std::fs::write(&nan, msgpack_map(&[("balls", balls)])).unwrap();
    let json_tail = dir.join("tail.json");
    let fixture = root().join("data/peers/pooltool/example.json");
    let mut text = std::fs::read(&fixture).unwrap();
    text.extend_from_slice(b"\n{\"more\": 1}");
    std::fs::write(&json_tail, &text).unwrap();
    let msgpack_tail = dir.join("tail.msgpack");
    let mut bytes =
        std::fs::read(root().join("data/peers/pooltool/example_simulated.msgpack")).unwrap();
    bytes.extend_from_slice(b"garbage");
    std::fs::write(&msgpack_tail, &bytes).unwrap();
    for (file, names) in [
        (&empty, &["empty.json", "not a JSON file", "EOF"][..]),
        (&blank, &["blank.json", "not a JSON file"][..]),
        (
            &nan,
            &["nan.msgpack", "balls.cue.x", "non-finite number NaN"][..],
        ),
        (
            &json_tail,
            &["tail.json", "not a JSON file", "trailing characters"][..],
        ),
        (
            &msgpack_tail,
            &["tail.msgpack", "7 bytes after the document"][..],
        ),
    ] {
        let started = Instant::now();
        let out = xtask().arg("import-pooltool").arg(file).output().unwrap();
        assert_exit(&out, 2, names, &file.display().to_string());
        assert!(!texts(&out).1.contains("msgpack") || file.extension().unwrap() == "msgpack");
        eprintln!(
            "import-pooltool {}: exit 2 in {:.2} s: {}",
            file.file_name().unwrap().to_string_lossy(),
            started.elapsed().as_secs_f64(),
            texts(&out).1.trim()
        );
    }
    // The files as they were still import.
    for good in [
        fixture,
        root().join("data/peers/pooltool/example_simulated.msgpack"),
    ] {
        let out = xtask().arg("import-pooltool").arg(&good).output().unwrap();
        assert_exit(&out, 0, &[], &good.display().to_string());
    }
}

/// A 2 m x 1 m table whose rails are `n` short cushions (counter-clockwise: the playing side on
/// their left), two balls at rest on it.
fn many_cushions_shot(path: &Path, n: usize) {
    let corners = [(0.0, 0.0), (2.0, 0.0), (2.0, 1.0), (0.0, 1.0), (0.0, 0.0)];
    let per_side = n / 4;
    let mut text = String::from(
        "description = \"many cushions\"\n[table]\nname = \"many\"\nlength = 2.0\nwidth = 1.0\n",
    );
    let mut k = 0;
    for w in corners.windows(2) {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        for i in 0..per_side {
            let at = |s: f64| (x0 + (x1 - x0) * s, y0 + (y1 - y0) * s);
            let (a, b) = (
                at(i as f64 / per_side as f64),
                at((i + 1) as f64 / per_side as f64),
            );
            text.push_str(&format!(
                "[[table.cushions]]\nid = \"c{k}\"\np1 = [{:?}, {:?}]\np2 = [{:?}, {:?}]\nheight = 0.036576\n",
                a.0, a.1, b.0, b.1
            ));
            k += 1;
        }
    }
    text.push_str(
        "[[balls]]\nid = \"cue\"\nr = [0.5, 0.5]\n[[balls]]\nid = \"1\"\nr = [1.5, 0.5]\n",
    );
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_table_of_many_cushions_is_checked_in_near_linear_time() {
    let dir = temp_dir("hostile-many-cushions");
    let mut times = Vec::new();
    for n in [2_500, 10_000] {
        let shot = dir.join(format!("cushions_{n}.toml"));
        many_cushions_shot(&shot, n);
        let size = std::fs::metadata(&shot).unwrap().len();
        assert!(size < 10 * 1024 * 1024, "{size}");
        let started = Instant::now();
        let out = xtask().arg("simulate").arg(&shot).output().unwrap();
        let secs = started.elapsed().as_secs_f64();
        assert_exit(&out, 0, &[], &format!("{n} cushions"));
        eprintln!("simulate, {n} cushions ({size} bytes): exit 0 in {secs:.2} s");
        times.push(secs);
        // A ball off the table is still found (the same exact test, asked of fewer cushions).
        let off = dir.join(format!("off_{n}.toml"));
        let text = std::fs::read_to_string(&shot)
            .unwrap()
            .replace("r = [1.5, 0.5]", "r = [2.5, 0.5]");
        std::fs::write(&off, text).unwrap();
        let out = xtask().arg("simulate").arg(&off).output().unwrap();
        assert_exit(
            &out,
            2,
            &["balls[1].r", "off the playing area"],
            &format!("{n} cushions, off"),
        );
    }
    // Quadratic checking took 15.7 s of CPU at 10,000 (release build); the speed itself is
    // the validation bench's (benches/benches/validation.rs). A table past the limit of
    // elements is refused before any check.
    assert!(times[1] < 60.0, "{times:?}");
    let shot = dir.join("cushions_10004.toml");
    many_cushions_shot(&shot, 10_004);
    let out = xtask().arg("simulate").arg(&shot).output().unwrap();
    assert_exit(
        &out,
        2,
        &["table.cushions", "at most 10000 elements"],
        "10004 cushions",
    );
}
