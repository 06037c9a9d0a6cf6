//! `cargo xtask bench-peers`: our event engine beside pooltool 0.6.0 and FastFiz on the same
//! shots, timed in one run, as a ratio table (CSV + Markdown). pooltool plays the shots under
//! seed 004's laws, FastFiz those under the `fastfiz` preset (docs/fastfiz.md); each is skipped
//! with one line when it is not installed.

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
    /// Shot files to time [default: data/shots/{break_9ball,break_15ball,bank}.toml for
    /// pooltool, data/shots/{break_9ball,break_15ball,bank,cut}_fastfiz.toml for FastFiz]
    pub shots: Vec<PathBuf>,
    /// Timed runs per shot for our engine (median reported), 1 to 100000
    #[arg(long, default_value_t = 200)]
    pub runs: usize,
    /// Timed warm runs per shot for pooltool (median reported), 1 to 1000; FastFiz gets
    /// `--runs` calls
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
    /// FastFiz's `executeShot` calls timed (shots under the `fastfiz` preset).
    fastfiz_runs: Option<usize>,
    /// Median time of one `executeShot` (s).
    fastfiz_median_s: Option<f64>,
    /// Events in FastFiz's list, its cue strike included.
    fastfiz_events: Option<usize>,
    /// Median time of an empty shot (the same call with V = 0) (s): the binding's share.
    fastfiz_empty_s: Option<f64>,
    /// FastFiz median / ours median.
    fastfiz_ratio: Option<f64>,
    /// (FastFiz per event) / (ours per event).
    fastfiz_event_ratio: Option<f64>,
}

/// The FastFiz shots of the default set.
const FASTFIZ_SHOTS: [&str; 4] = [
    "break_9ball_fastfiz",
    "break_15ball_fastfiz",
    "bank_fastfiz",
    "cut_fastfiz",
];

/// Whether `setup` is played by FastFiz (the `fastfiz` preset on its table) rather than pooltool.
fn is_fastfiz(setup: &pool_sim::Setup) -> bool {
    setup.physics.preset_name() == Some("fastfiz") && setup.table.table().name == "fastfiz"
}

/// FastFiz's (runs, median s, events, empty-shot median s) on `setup`, from
/// `benches/peers/fastfiz_bench.py`; `None` when FastFiz declines the shot (said on stderr).
fn run_fastfiz(
    python: &Path,
    setup: &pool_sim::Setup,
    runs: usize,
) -> Result<Option<(usize, f64, usize, f64)>, CliError> {
    let request = pool_exec::request(setup, None).to_string() + "\n";
    let args = ["--runs".into(), runs.to_string().into()];
    let (text, stderr) = crate::python::run_script_with_input(
        python,
        "fastfiz_bench.py",
        &args,
        request.as_bytes(),
    )?;
    let line = text.lines().next().unwrap_or("");
    let f: Vec<&str> = line.split(',').collect();
    if f.get(1) == Some(&"0") {
        errln!(
            "bench-peers: FastFiz declines {}: {}",
            setup.name,
            stderr.trim()
        );
        return Ok(None);
    }
    let parse = || -> Option<(usize, f64, usize, f64)> {
        Some((
            f.get(1)?.parse().ok()?,
            f.get(2)?.parse().ok()?,
            f.get(4)?.parse().ok()?,
            f.get(5)?.parse().ok()?,
        ))
    };
    parse()
        .map(Some)
        .ok_or_else(|| CliError::Run(format!("unexpected line from fastfiz_bench.py: {line:?}")))
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
    let shots: Vec<PathBuf> = if args.shots.is_empty() {
        let root = workspace_root()?;
        ["break_9ball", "break_15ball", "bank"]
            .iter()
            .chain(FASTFIZ_SHOTS.iter())
            .map(|s| root.join(format!("data/shots/{s}.toml")))
            .collect()
    } else {
        args.shots.clone()
    };
    let python = crate::python::find_pooltool(args.python.as_deref())?;
    let fastfiz = pool_engines::peers::python(pool_engines::Peer::FastFiz);
    if let Err(why) = &fastfiz {
        errln!("bench-peers: FastFiz skipped: {why}");
    }
    let staging = args.run.stage("bench-peers")?;
    let mut rows = Vec::new();
    let mut pooltool_shots = Vec::new();
    for path in &shots {
        let setup = pool_shots::load(path)?;
        if !is_fastfiz(&setup) {
            pooltool_shots.push(path.clone());
        }
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
        let time_ours = |n: usize| -> Vec<f64> {
            (0..n)
                .map(|_| {
                    let t = Instant::now();
                    std::hint::black_box(engine.run(&setup));
                    t.elapsed().as_secs_f64()
                })
                .collect()
        };
        // Beside FastFiz, alternated: half our runs before its, half after.
        let mut times = time_ours(args.runs.div_ceil(2));
        let peer = match (&fastfiz, is_fastfiz(&setup)) {
            (Ok(py), true) => run_fastfiz(py, &setup, args.runs)?,
            _ => None,
        };
        times.extend(time_ours(args.runs / 2));
        let ours = median(times);
        let events = outcome.events.len();
        let mut row = PeerRow {
            shot: setup.name.clone(),
            ours_runs: args.runs,
            ours_median_s: ours,
            ours_events: events,
            pooltool_runs: None,
            pooltool_median_s: None,
            pooltool_events: None,
            ratio: None,
            fastfiz_runs: None,
            fastfiz_median_s: None,
            fastfiz_events: None,
            fastfiz_empty_s: None,
            fastfiz_ratio: None,
            fastfiz_event_ratio: None,
        };
        if let Some((runs, med, n, empty)) = peer {
            row.fastfiz_runs = Some(runs);
            row.fastfiz_median_s = Some(med);
            row.fastfiz_events = Some(n);
            row.fastfiz_empty_s = Some(empty);
            row.fastfiz_ratio = Some(med / ours);
            row.fastfiz_event_ratio = Some((med / n as f64) / (ours / events.max(1) as f64));
        }
        rows.push(row);
    }
    match &python {
        Some(_) if pooltool_shots.is_empty() => {}
        Some(py) => {
            for (name, runs, med, events) in run_pooltool(py, &pooltool_shots, args.peer_runs)? {
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
    let mut md = markdown(&rows, python.is_some());
    md.push_str(&fastfiz_markdown(&rows));
    staging.write("peers.csv", &csv_bytes(&rows)?)?;
    staging.write("peers.md", md.as_bytes())?;
    let dir = staging.commit()?;
    outln!("{md}")?;
    outln!("written: {}", dir.display())?;
    Ok(())
}

/// The FastFiz table: per shot and per event, both event counts, the binding's share.
fn fastfiz_markdown(rows: &[PeerRow]) -> String {
    use std::fmt::Write;
    let rows: Vec<&PeerRow> = rows
        .iter()
        .filter(|r| r.fastfiz_median_s.is_some())
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut md = String::from("\n# Event engine vs FastFiz, same shots and physics, one run\n\n");
    md.push_str(
        "Median time per whole shot under the `fastfiz` preset on FastFiz's table (ours: the \
         event engine; FastFiz: `TableState.executeShot` alone, timed around the call in \
         Python, our runs alternated around its). Events as each logs them, the cue strike \
         included. The empty shot is FastFiz's call with V = 0 (one event): the binding's and \
         the call's own cost, inside FastFiz's times. Ratios are FastFiz / ours.\n\n",
    );
    md.push_str(
        "| shot | ours (µs) | our events | ours per event (µs) | FastFiz (µs) | FastFiz events | \
         FastFiz per event (µs) | empty shot (µs) | per shot | per event |\n",
    );
    md.push_str("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
    for r in rows {
        let (ff, n) = (
            r.fastfiz_median_s.unwrap_or(f64::NAN),
            r.fastfiz_events.unwrap_or(0),
        );
        let _ = writeln!(
            md,
            "| {} | {:.1} | {} | {:.2} | {:.1} | {} | {:.2} | {:.1} | {:.1}x | {:.1}x |",
            r.shot,
            r.ours_median_s * 1e6,
            r.ours_events,
            r.ours_median_s * 1e6 / r.ours_events.max(1) as f64,
            ff * 1e6,
            n,
            ff * 1e6 / n.max(1) as f64,
            r.fastfiz_empty_s.unwrap_or(f64::NAN) * 1e6,
            r.fastfiz_ratio.unwrap_or(f64::NAN),
            r.fastfiz_event_ratio.unwrap_or(f64::NAN),
        );
    }
    md
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
