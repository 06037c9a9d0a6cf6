//! A run directory is data, never code (issue 41): a run read back (a colleague's, a
//! cluster's, a tarball) cannot make `replays` run a command, nor make `html` write a page that
//! runs a script, fetches from the network or writes through a link.

mod common;

use std::path::{Path, PathBuf};

use common::{temp_dir, texts, xtask};

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
    // The untouched run replays as before.
    let (code, err) = run(&["replays", "--replays", "3"], &run_dir);
    assert_eq!(code, 0, "{err}");
}
