//! A run directory is data, never code (issue 41): a run read back (a colleague's, a
//! cluster's, a tarball) cannot make `replays` run a command, nor make `html` write a page that
//! runs a script, fetches from the network or writes through a link.

mod common;

use std::path::{Path, PathBuf};

use common::{run_within, temp_dir, texts, xtask};

/// A small study (cut shots, the end-of-step and Euler schemes at 1e-2 s, which change
/// outcomes often) into `out/<name>`: the run's directory.
fn study(out: &Path, name: &str) -> PathBuf {
    let o = xtask()
        .args(["outcomes", "--outcome-families", "cut", "--outcome-tables"])
        .args(["seven_foot", "--outcome-shots", "8", "--outcome-dt", "1e-2"])
        .args(["--schemes", "end_of_step,euler", "--outcome-budget", "none"])
        .args(["--chaos-shots", "0", "--replays", "0", "--run-name", name])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    let (_, err) = texts(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    out.join(name)
}

/// `xtask <args> <dir>`: exit code and stderr.
fn run(args: &[&str], dir: &Path) -> (i32, String) {
    let o = xtask().args(args).arg(dir).output().unwrap();
    let (_, err) = texts(&o);
    assert!(!err.contains("panicked"), "{err}");
    (o.status.code().unwrap(), err)
}

/// A copy of the run's `run.json` and `outcomes/shots.csv` at `to`.
fn copy_run(from: &Path, to: &Path) {
    std::fs::create_dir_all(to.join("outcomes")).unwrap();
    for f in ["run.json", "outcomes/shots.csv"] {
        std::fs::copy(from.join(f), to.join(f)).unwrap();
    }
}

#[test]
fn replays_runs_no_command_a_shots_file_names() {
    let dir = temp_dir("runs-replays");
    let run_dir = study(&dir, "run");
    let pwned = dir.join("PWNED");
    let evil = format!(
        ",exec:touch {}; exec python3 benches/peers/ideal_engine.py,",
        pwned.display()
    );
    let tampered = |name: &str, keep_engines: bool| -> PathBuf {
        let d = dir.join(name);
        copy_run(&run_dir, &d);
        let p = d.join("outcomes/shots.csv");
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.contains(",discrete:1e-2:euler,"), "{text}");
        std::fs::write(&p, text.replace(",discrete:1e-2:euler,", &evil)).unwrap();
        if !keep_engines {
            // A run.json of a version that recorded no engines.
            let p = d.join("run.json");
            let mut v: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
            let o = v["outcome_options"].as_object_mut().unwrap();
            assert!(o.remove("engines").is_some(), "{o:?}");
            std::fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
        }
        d
    };
    for (name, keep) in [("recorded", true), ("unrecorded", false)] {
        let d = tampered(name, keep);
        let (code, err) = run(&["replays", "--replays", "3"], &d);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(!pwned.exists(), "{name}: the command ran: {err}");
        let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
        for n in [
            "shots.csv",
            "field run",
            "exec:touch",
            "not an engine of this run",
        ] {
            assert!(line.contains(n), "{name}: {n:?} not in {line}");
        }
        assert!(
            !d.join("outcomes/replays.json").exists(),
            "{name}: replays written"
        );
    }
    // The untouched run replays as before, and rewrites its page through no planted link.
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, run_dir.join(".report.html.tmp")).unwrap();
    let (code, err) = run(&["replays", "--replays", "3"], &run_dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    // A FIFO as the shots file is one line, not a wait.
    let fifo = dir.join("fifo");
    copy_run(&run_dir, &fifo);
    let shots = fifo.join("outcomes/shots.csv");
    std::fs::remove_file(&shots).unwrap();
    let c = std::ffi::CString::new(shots.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let (code, err) = within(&["replays"], &fifo);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("shots.csv") && err.contains("a FIFO"), "{err}");
}

#[test]
fn replays_start_a_program_a_run_names_only_when_the_user_allows_it() {
    let dir = temp_dir("runs-allow-exec");
    let run_dir = study(&dir, "run");
    let pwned = dir.join("PWNED");
    let command = format!(
        "touch {}; exec python3 benches/peers/ideal_engine.py",
        pwned.display()
    );
    // A received run that names a program in both its run.json and its shots.
    let d = dir.join("received");
    copy_run(&run_dir, &d);
    let p = d.join("run.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    let engines = v["outcome_options"]["engines"].as_array_mut().unwrap();
    let at = engines
        .iter()
        .position(|e| e == "discrete:1e-2:euler")
        .unwrap();
    engines[at] = format!("exec:{command}").into();
    std::fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let p = d.join("outcomes/shots.csv");
    let text = std::fs::read_to_string(&p).unwrap();
    std::fs::write(
        &p,
        text.replace(",discrete:1e-2:euler,", &format!(",exec:{command},")),
    )
    .unwrap();
    for allow in [
        vec![],
        vec!["--allow-exec", "touch"],
        vec!["--allow-exec", &command[1..]],
    ] {
        let mut args = vec!["replays", "--replays", "3"];
        args.extend(&allow);
        let (code, err) = run(&args, &d);
        assert_eq!(code, 2, "{allow:?}: {err}");
        assert!(!pwned.exists(), "{allow:?}: the program ran: {err}");
        let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
        for n in [
            "shots.csv",
            "exec:touch",
            "--allow-exec",
            "nothing replayed",
        ] {
            assert!(line.contains(n), "{allow:?}: {n:?} not in {line}");
        }
        assert!(!d.join("outcomes/replays.json").exists(), "{allow:?}");
    }
    // Named exactly, it runs (and answers unsupported: an ideal-physics program).
    let (code, err) = run(&["replays", "--replays", "3", "--allow-exec", &command], &d);
    assert_eq!(code, 0, "{err}");
    assert!(pwned.exists(), "{err}");
    assert!(d.join("outcomes/replays.json").is_file(), "{err}");
}

#[test]
fn replays_start_a_reference_program_a_run_names_only_when_the_user_allows_it() {
    let dir = temp_dir("runs-allow-reference");
    let run_dir = study(&dir, "run");
    let pwned = dir.join("PWNED");
    let command = format!(
        "touch {}; exec python3 benches/peers/euler_engine.py",
        pwned.display()
    );
    // A received run whose run.json says its reference was a program.
    let d = dir.join("received");
    copy_run(&run_dir, &d);
    let p = d.join("run.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&p).unwrap()).unwrap();
    v["outcome_options"]["reference"] = format!("exec:dt=1e-4:{command}").into();
    std::fs::write(&p, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let (code, err) = run(&["replays", "--replays", "3"], &d);
    assert_eq!(code, 2, "{err}");
    assert!(!pwned.exists(), "the program ran: {err}");
    let line = err.lines().find(|l| l.starts_with("error:")).unwrap();
    for n in ["the reference", "--allow-exec", "nothing replayed"] {
        assert!(line.contains(n), "{n:?} not in {line}");
    }
    assert!(!d.join("outcomes/replays.json").exists());
}

/// A copy of the whole run directory `from` at `to` (files and directories only).
fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let t = e.file_type().unwrap();
        if t.is_dir() {
            copy_dir(&e.path(), &to.join(e.file_name()));
        } else if t.is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn the_page_links_only_the_runs_own_files_and_writes_through_no_link() {
    let dir = temp_dir("runs-html");
    let run_dir = study(&dir, "run");
    // File names that would be a script, a fetch and a file the run did not write.
    for name in [
        "javascript:document.title='PWNED';a={csv:1};a.csv",
        "https:tracker.invalid.png",
        "planted.csv",
    ] {
        std::fs::write(run_dir.join(name), "x").unwrap();
    }
    // A link at the temporary name the page was written through.
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep").unwrap();
    std::os::unix::fs::symlink(&victim, run_dir.join(".report.html.tmp")).unwrap();
    let (code, err) = run(&["html"], &run_dir);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(run_dir.join("report.html")).unwrap();
    for bad in ["PWNED", "tracker.invalid", "planted.csv"] {
        assert!(!page.contains(bad), "the page names {bad:?}");
    }
    assert!(
        page.contains("outcome_answer.csv"),
        "the run's own files are linked"
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep");
    let meta = std::fs::symlink_metadata(run_dir.join("report.html")).unwrap();
    assert!(meta.file_type().is_file(), "report.html is {meta:?}");
}

/// `xtask <args> <dir>`, killed after 20 s: exit code (None when killed) and stderr.
fn within(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    run_within(
        xtask().args(args).arg(dir),
        std::time::Duration::from_secs(20),
    )
}

#[test]
fn a_runs_files_are_read_capped_and_only_when_regular() {
    let dir = temp_dir("runs-read");
    let run_dir = study(&dir, "run");
    let replays = "outcomes/replays.json";
    // 100 MB of valid replays (the page would inline them all).
    let big = dir.join("big");
    copy_dir(&run_dir, &big);
    let mut text = String::from("{\"version\": 2, \"replays\": [], \"pad\": \"");
    text.push_str(&"a".repeat(100 << 20));
    text.push_str("\"}");
    std::fs::write(big.join(replays), text).unwrap();
    // A FIFO: nobody ever writes it.
    let fifo = dir.join("fifo");
    copy_dir(&run_dir, &fifo);
    std::fs::remove_file(fifo.join(replays)).unwrap();
    let c = std::ffi::CString::new(fifo.join(replays).to_str().unwrap()).unwrap();
    // SAFETY: mkfifo on a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    // A link to a file elsewhere.
    let link = dir.join("link");
    copy_dir(&run_dir, &link);
    std::fs::rename(link.join("summary.csv"), dir.join("elsewhere.csv")).ok();
    std::fs::rename(
        link.join("outcomes.csv"),
        dir.join("outcomes-elsewhere.csv"),
    )
    .unwrap();
    std::os::unix::fs::symlink(
        dir.join("outcomes-elsewhere.csv"),
        link.join("outcomes.csv"),
    )
    .unwrap();
    for (d, names) in [
        (&big, vec!["replays.json", "more than the 13 MiB"]),
        (&fifo, vec!["replays.json", "a FIFO"]),
        (&link, vec!["outcomes.csv", "a symbolic link"]),
    ] {
        let (code, err) = within(&["html"], d);
        assert_eq!(code, Some(2), "{}: {err}", d.display());
        assert_eq!(err.lines().count(), 1, "{err}");
        for n in names {
            assert!(err.contains(n), "{}: {n:?} not in {err}", d.display());
        }
    }
}

#[test]
fn replays_whose_page_cannot_be_made_leave_the_run_as_it_was() {
    let dir = temp_dir("runs-stale");
    let run_dir = study(&dir, "run");
    // A shot without its reference row: the page cannot be made from these shots.
    let shots = run_dir.join("outcomes/shots.csv");
    let text = std::fs::read_to_string(&shots).unwrap();
    let mut seen = 0;
    let kept: Vec<&str> = text
        .lines()
        .filter(|l| {
            let reference = l.contains(",reference,");
            seen += usize::from(reference);
            !(reference && seen == 4)
        })
        .collect();
    assert_eq!(seen, 8, "{text}");
    std::fs::write(&shots, kept.join("\n") + "\n").unwrap();
    let before: Vec<Vec<u8>> = ["outcomes/replays.json", "report.html"]
        .iter()
        .map(|f| std::fs::read(run_dir.join(f)).unwrap())
        .collect();
    let (code, err) = run(&["replays", "--replays", "3"], &run_dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no reference row"), "{err}");
    for (f, old) in ["outcomes/replays.json", "report.html"].iter().zip(before) {
        assert!(
            std::fs::read(run_dir.join(f)).unwrap() == old,
            "{f} changed"
        );
    }
}
