//! `cargo xtask bench-peers`: our event engine and pooltool 0.6.0 on the same shots, timed in
//! one run, as a ratio table (CSV + Markdown).

use std::path::{Path, PathBuf};
use std::time::Instant;

use pool_engines::EngineSpec;
use serde::Serialize;

use pool_harness::EndCheck;

use crate::console::{errln, outln};
use crate::output::csv_bytes;
use crate::python::SETUP_HINT;
use crate::workspace::workspace_root;
use crate::CliError;

/// Options of `cargo xtask bench-peers`.
#[derive(clap::Args, Debug, Clone)]
pub struct PeersArgs {
    /// Shot files to time [default: data/shots/{break_9ball,break_15ball,bank}.toml]
    pub shots: Vec<PathBuf>,
    /// Timed runs per shot for our engine (median reported), 1 to 100000
    #[arg(long, default_value_t = 200)]
    pub runs: usize,
    /// Timed warm runs per shot for pooltool (median reported), 1 to 1000
    #[arg(long, default_value_t = 20)]
    pub peer_runs: usize,
    /// Python with pooltool-billiards 0.6.0 [default: $POOLTOOL_PYTHON, else
    /// <workspace>/.venv-pooltool/bin/python]; see benches/peers/README.md to set one up. One
    /// given here must work (exit 2 otherwise); the defaults are skipped when they do not
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
    errln!(
        "bench-peers: running pooltool ({}; numba compiles on a first run, about 30 s)",
        python.display()
    );
    let mut args: Vec<std::ffi::OsString> = vec!["--runs".into(), runs.to_string().into()];
    args.extend(shots.iter().map(|s| s.as_os_str().to_owned()));
    let text = crate::python::run_script(python, "pooltool_bench.py", &args)?;
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
            CliError::Run(format!("unexpected line from pooltool_bench.py: {line:?}"))
        })?);
    }
    Ok(rows)
}

/// Most timed runs per shot of `--runs` (ours, about 0.1 ms each) and `--peer-runs`
/// (pooltool, about 0.1 s each).
const MAX_RUNS: usize = 100_000;
/// See [`MAX_RUNS`].
const MAX_PEER_RUNS: usize = 1_000;

/// Runs `cargo xtask bench-peers`.
pub fn run(args: PeersArgs) -> Result<(), CliError> {
    crate::args::in_range("--runs", args.runs, 1, MAX_RUNS)?;
    crate::args::in_range("--peer-runs", args.peer_runs, 1, MAX_PEER_RUNS)?;
    let shots = if args.shots.is_empty() {
        let root = workspace_root()?;
        ["break_9ball", "break_15ball", "bank"]
            .iter()
            .map(|s| root.join(format!("data/shots/{s}.toml")))
            .collect()
    } else {
        args.shots.clone()
    };
    let python = crate::python::find_pooltool(args.python.as_deref())?;
    let staging = args.run.stage("peers")?;
    let mut rows = Vec::new();
    for path in &shots {
        let setup = pool_shots::load(path)?;
        let engine = EngineSpec::reference()
            .build()
            .map_err(|e| CliError::Run(e.to_string()))?;
        let outcome = engine.run(&setup);
        let failures = EndCheck::of(&setup, &outcome).failures(&setup);
        if !failures.is_empty() {
            return Err(CliError::Run(format!(
                "{}: the run did not end physically, so its time means nothing: {}",
                path.display(),
                failures.join("; ")
            )));
        }
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
            ours_events: outcome.events.len(),
            pooltool_runs: None,
            pooltool_median_s: None,
            pooltool_events: None,
            ratio: None,
        });
    }
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
        None => errln!("{SETUP_HINT} Then re-run `cargo xtask bench-peers`."),
    }
    let md = markdown(&rows, python.is_some());
    staging.write("peers.csv", &csv_bytes(&rows)?)?;
    staging.write("peers.md", md.as_bytes())?;
    let dir = staging.commit()?;
    outln!("{md}")?;
    outln!("written: {}", dir.display())?;
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
