//! `cargo xtask bench-peers`: our event engine and pooltool 0.6.0 on the same shots, timed in
//! one run, as a ratio table (CSV + Markdown).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use pool_engines::EngineSpec;
use serde::Serialize;

use crate::output::{csv_bytes, Staging};
use crate::workspace::workspace_root;
use crate::CliError;

/// Options of `cargo xtask bench-peers`.
#[derive(clap::Args, Debug, Clone)]
pub struct PeersArgs {
    /// Shot files to time [default: data/shots/{break_9ball,break_15ball,bank}.toml]
    pub shots: Vec<PathBuf>,
    /// Timed runs per shot for our engine (median reported)
    #[arg(long, default_value_t = 200)]
    pub runs: usize,
    /// Timed warm runs per shot for pooltool (median reported)
    #[arg(long, default_value_t = 20)]
    pub peer_runs: usize,
    /// Python with pooltool-billiards 0.6.0 [default: $POOLTOOL_PYTHON, else
    /// <workspace>/.venv-pooltool/bin/python]; see benches/peers/README.md to set one up
    #[arg(long)]
    pub python: Option<PathBuf>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
}

/// One row of `peers.csv`.
#[derive(Debug, Serialize)]
struct PeerRow {
    shot: String,
    ours_runs: usize,
    ours_median_s: f64,
    ours_events: usize,
    pooltool_runs: Option<usize>,
    pooltool_median_s: Option<f64>,
    pooltool_events: Option<usize>,
    /// pooltool median / ours median.
    ratio: Option<f64>,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// (median s, events) per shot name from the script's CSV output.
fn run_pooltool(
    python: &Path,
    shots: &[PathBuf],
    runs: usize,
) -> Result<Vec<(String, usize, f64, usize)>, CliError> {
    let script = workspace_root().join("benches/peers/pooltool_bench.py");
    eprintln!(
        "bench-peers: running pooltool ({}; numba compiles on a first run, about 30 s)",
        python.display()
    );
    let out = Command::new(python)
        .arg(&script)
        .arg("--runs")
        .arg(runs.to_string())
        .args(shots)
        .output()
        .map_err(|e| CliError::Run(format!("{}: {e}", python.display())))?;
    if !out.status.success() {
        return Err(CliError::Run(format!(
            "{} failed:\n{}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        )));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut rows = Vec::new();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let parse = || -> Option<(String, usize, f64, usize)> {
            Some((
                f.first()?.to_string(),
                f.get(1)?.parse().ok()?,
                f.get(2)?.parse().ok()?,
                f.get(4)?.parse().ok()?,
            ))
        };
        rows.push(parse().ok_or_else(|| {
            CliError::Run(format!(
                "unexpected line from {}: {line:?}",
                script.display()
            ))
        })?);
    }
    Ok(rows)
}

const SETUP_HINT: &str =
    "pooltool not found: no $POOLTOOL_PYTHON and no .venv-pooltool/bin/python \
with pooltool-billiards 0.6.0. To set it up (a plain `pip install pooltool-billiards` gets the old \
0.3.3), follow benches/peers/README.md, then re-run `cargo xtask bench-peers`.";

/// Runs `cargo xtask bench-peers`.
pub fn run(args: PeersArgs) -> Result<(), CliError> {
    if args.runs == 0 || args.peer_runs == 0 {
        return Err(CliError::Input(
            "--runs and --peer-runs must be at least 1".into(),
        ));
    }
    let shots = if args.shots.is_empty() {
        ["break_9ball", "break_15ball", "bank"]
            .iter()
            .map(|s| workspace_root().join(format!("data/shots/{s}.toml")))
            .collect()
    } else {
        args.shots.clone()
    };
    let mut rows = Vec::new();
    for path in &shots {
        let setup = pool_shots::load(path)?;
        let engine = EngineSpec::reference()
            .build()
            .map_err(|e| CliError::Run(e.to_string()))?;
        let events = engine.run(&setup).events.len();
        let times: Vec<f64> = (0..args.runs)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(engine.run(&setup));
                t.elapsed().as_secs_f64()
            })
            .collect();
        rows.push(PeerRow {
            shot: setup.name.clone(),
            ours_runs: args.runs,
            ours_median_s: median(times),
            ours_events: events,
            pooltool_runs: None,
            pooltool_median_s: None,
            pooltool_events: None,
            ratio: None,
        });
    }
    let python = pool_engines::pooltool::find_python(args.python.as_deref());
    match &python {
        Some(py) => {
            for (name, runs, med, events) in run_pooltool(py, &shots, args.peer_runs)? {
                if let Some(r) = rows.iter_mut().find(|r| r.shot == name) {
                    r.pooltool_runs = Some(runs);
                    r.pooltool_median_s = Some(med);
                    r.pooltool_events = Some(events);
                    r.ratio = Some(med / r.ours_median_s);
                }
            }
        }
        None => eprintln!("{SETUP_HINT}"),
    }
    let md = markdown(&rows, python.is_some());
    println!("{md}");
    let (root, name) = args.run.location("peers")?;
    let staging = Staging::new(&root.join(&name))?;
    staging.write("peers.csv", &csv_bytes(&rows)?)?;
    staging.write("peers.md", md.as_bytes())?;
    let dir = staging.commit()?;
    println!("written: {}", dir.display());
    Ok(())
}

fn markdown(rows: &[PeerRow], with_peer: bool) -> String {
    use std::fmt::Write;
    let mut md = String::from("# Event engine vs pooltool 0.6.0, same shots, one run\n\n");
    md.push_str(
        "Median wall time per whole shot (ours: `cargo xtask bench-peers --runs`; pooltool: warm \
         runs of `pt.simulate`, FrictionlessElastic ball-ball, Han 2005 cushions, states set \
         directly). Event counts differ: pooltool rounds pocket jaws and parks colliding pairs \
         2R + 1e-6 m apart. Ratio = pooltool / ours.\n\n",
    );
    md.push_str("| shot | ours (ms) | our events | pooltool (ms) | pooltool events | ratio |\n");
    md.push_str("| --- | --- | --- | --- | --- | --- |\n");
    let f = |x: Option<f64>, k: f64| x.map_or("n/a".into(), |v| format!("{:.3}", v * k));
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {:.3} | {} | {} | {} | {} |",
            r.shot,
            r.ours_median_s * 1e3,
            r.ours_events,
            f(r.pooltool_median_s, 1e3),
            r.pooltool_events.map_or("n/a".into(), |e| e.to_string()),
            r.ratio.map_or("n/a".into(), |x| format!("{x:.0}x")),
        );
    }
    if !with_peer {
        let _ = writeln!(md, "\n{SETUP_HINT}");
    }
    md
}
