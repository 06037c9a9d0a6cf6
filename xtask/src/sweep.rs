//! `cargo xtask sweep`: one shot per point of a grid or random sample over a base shot's cue
//! strike and ball parameters (`pool_harness::SweepPlan`), one outcome row each, streamed to
//! `sweep/rows.csv`; `--shard K/N` runs one deterministic piece of it (see `shard.rs`).

use std::io::Write;
use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{
    sweep_header, sweep_row, sweep_setup, RackModel, SweepParam, SweepPlan, SweepTally,
};
use pool_sim::Setup;
use rayon::prelude::*;

use crate::console::outln;
use crate::shard::{Manifest, Shard, MANIFEST};
use crate::CliError;

/// Options of `cargo xtask sweep`.
#[derive(clap::Args, Debug, Clone)]
pub struct SweepArgs {
    /// Base shot: a shot file, or the name of a default shot. Cue parameters need its [cue]
    pub shot: PathBuf,
    /// A swept parameter (repeat for more): NAME=LO:HI:N (N values from LO to HI), NAME=V1,V2,...
    /// or, with --samples, NAME=LO:HI (uniform). NAME: a cue parameter (V0, phi, theta, a, b)
    /// or a ball parameter (m, R, mu_s, mu_r, mu_sp, mu_b, e_b, e_c, f_c, g) the physics reads
    #[arg(long = "param", value_name = "NAME=SPEC", required = true)]
    pub params: Vec<String>,
    /// A random sample of this many points instead of a grid (each point drawn from its own
    /// generator, seeded by --seed and the point's index)
    #[arg(long)]
    pub samples: Option<u64>,
    /// Seed of a random sample
    #[arg(long, default_value_t = 1, requires = "samples")]
    pub seed: u64,
    /// Evolution algorithm: an engine spec, event[:<solver>] (solver isolator, ferrari, alg1010, companion), discrete:<dt>[:<scheme>]
    /// (scheme end_of_step, euler, located, substep<k>), rapier:<dt>, pooltool, mujoco:<dt>[:<integrator>]
    /// (integrator euler, implicitfast, rk4), pybullet:<dt>, pymunk:<dt>, box2d:<dt>, billiards,
    /// exec:<command>, or a registered engine
    #[arg(long, default_value = "event")]
    pub engine: String,
    /// Event budget per shot (event engine; 1 to 1000000): a run stopped by it has
    /// termination `budget` in its row, and the command exits 1
    #[arg(long, default_value_t = 100_000)]
    pub max_events: usize,
    /// Rack model placing the base shot's balls after the first (the cue ball), once, before
    /// any point: lattice:<gap> (their lattice scaled about its apex, closest neighbours 2R +
    /// gap apart; gap in m, 0 to 0.05), frozen (every neighbour touching) or jittered:<scale>
    /// (the lattice at gap = scale, each ball then moved at random within scale/2 of its place,
    /// seed 0 as a shot file's `rack` without `rack_seed`; scale in m, above 0, at most 0.05;
    /// the studies' default rack is jittered:0.000127). Default: the balls where the shot
    /// places them (for a shipped break, that is lattice:1e-6, bit for bit)
    #[arg(long, value_name = "MODEL")]
    pub rack: Option<String>,
    /// Run only the K-th (1-based) of N deterministic pieces; `cargo xtask merge` joins them
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Points run at a time; each chunk's rows are written before the next starts.
const CHUNK: u64 = 4096;

/// The most `sweep/rows.csv` one run (or one shard) may be estimated to write: 64 GiB. A
/// larger sweep is refused before it starts (exit 2); `--shard K/N` splits it into runs that
/// each write their share.
pub const MAX_ROWS_BYTES: u64 = 64 << 30;

/// Bytes a row's cell takes at most, about: a number as Rust writes an f64 (up to 24
/// characters, `-1.2345678901234567e-300`) and its comma.
const CELL_BYTES: u64 = 25;

/// The estimated size (bytes) of `points` rows of `columns` cells.
fn rows_bytes(points: u64, columns: usize) -> u64 {
    points.saturating_mul(CELL_BYTES.saturating_mul(columns as u64))
}

/// The options that decide the rows, for the manifest (in a fixed order).
fn manifest_options(
    args: &SweepArgs,
    base: &Setup,
    spec: &EngineSpec,
    rack: Option<&RackModel>,
) -> Vec<(String, String)> {
    let mut out = vec![
        ("shot".to_string(), base.name.clone()),
        ("--engine".to_string(), spec.to_string()),
        ("--max-events".to_string(), args.max_events.to_string()),
    ];
    if let Some(rack) = rack {
        out.push(("--rack".into(), rack.to_string()));
    }
    for p in &args.params {
        out.push(("--param".into(), p.clone()));
    }
    if let Some(n) = args.samples {
        out.push(("--samples".into(), n.to_string()));
        out.push(("--seed".into(), args.seed.to_string()));
    }
    out
}

/// Runs `cargo xtask sweep`.
pub fn run(args: SweepArgs) -> Result<(), CliError> {
    let spec = crate::args::batch_engine(&args.engine, None, args.max_events)?;
    let path = crate::workspace::resolve_shot(&args.shot)?;
    let base = pool_shots::load(&path)?;
    let rack = args
        .rack
        .as_deref()
        .map(|m| m.parse::<RackModel>())
        .transpose()
        .map_err(|e| CliError::Input(format!("--rack {e}")))?;
    let base = match &rack {
        Some(model) => model
            .apply(&base, 0)
            .map_err(|e| CliError::Input(format!("--rack {model}: {}: {e}", path.display())))?,
        None => base,
    };
    let params = args
        .params
        .iter()
        .map(|p| SweepParam::parse(p).map_err(|e| CliError::Input(format!("--param {e}"))))
        .collect::<Result<Vec<_>, _>>()?;
    let sample = args.samples.map(|n| (n, args.seed));
    let plan =
        SweepPlan::new(params, sample).map_err(|e| CliError::Input(format!("sweep: {e}")))?;
    let names: Vec<String> = plan.params.iter().map(|p| p.name.clone()).collect();
    // Bounds on one parameter are crossed first at the box's corners: check them before any
    // work (another point that cannot be played still stops the run, exit 2, nothing written).
    for corner in plan.corners() {
        let s = sweep_setup(&base, &names, &corner)
            .map_err(|e| CliError::Input(format!("sweep of {}: {e}", path.display())))?;
        crate::args::check_work("--engine", &spec, &s)?;
    }
    let total = plan.len().unwrap_or(0);
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let (lo, hi) = shard.range(total);
    let header = sweep_header(&base, &names);
    let bytes = rows_bytes(hi - lo, header.len());
    if bytes > MAX_ROWS_BYTES {
        return Err(CliError::Input(format!(
            "sweep: {} points would write about {} to sweep/rows.csv, more than the {} one run \
             may ({CELL_BYTES} bytes a cell at most, {} cells a row): fewer points, or \
             --shard K/N with N at least {} (each shard writes its share)",
            hi - lo,
            human_bytes(bytes),
            human_bytes(MAX_ROWS_BYTES),
            header.len(),
            bytes.div_ceil(MAX_ROWS_BYTES) * shard.n
        )));
    }
    let pool = crate::args::thread_pool(args.jobs)?;
    crate::console::errln!(
        "sweep: {} points of {} columns: sweep/rows.csv of about {}",
        hi - lo,
        header.len(),
        human_bytes(bytes)
    );
    let staging = args.run.stage("sweep")?;
    let csv_io = |e: csv::Error| CliError::Run(format!("writing sweep/rows.csv: {e}"));
    let mut csv = csv::Writer::from_writer(staging.create("sweep/rows.csv")?);
    csv.write_record(header).map_err(csv_io)?;
    let bar = crate::progress::bar(hi - lo, "points {per_sec}");
    let options = RunOptions {
        snapshots: None,
        max_events: Some(args.max_events),
        ..RunOptions::default()
    };
    let mut tally = SweepTally::default();
    let mut at = lo;
    while at < hi {
        let end = hi.min(at + CHUNK);
        let rows = pool.install(|| {
            (at..end)
                .into_par_iter()
                .map(|k| {
                    let values = plan.point(k);
                    let s = sweep_setup(&base, &names, &values).map_err(|e| {
                        CliError::Input(format!("sweep of {}, point {k}: {e}", path.display()))
                    })?;
                    let o = spec
                        .build_with(&options)
                        .map_err(|e| CliError::Input(format!("--engine = {e}")))?
                        .run(&s);
                    bar.inc(1);
                    Ok((
                        o.events.len() as u64,
                        o.termination.name(),
                        sweep_row(k, &values, &s, &o),
                    ))
                })
                .collect::<Result<Vec<_>, CliError>>()
        })?;
        for (events, termination, row) in rows {
            tally.add(events, termination);
            csv.write_record(&row).map_err(csv_io)?;
        }
        at = end;
    }
    bar.finish_and_clear();
    let mut file = csv
        .into_inner()
        .map_err(|e| CliError::Run(format!("writing sweep/rows.csv: {}", e.error())))?;
    file.flush()
        .map_err(|e| CliError::Run(format!("writing sweep/rows.csv: {e}")))?;
    let engine = format!("{} engine", spec.family());
    let summary = tally.summary(&engine);
    staging.write("sweep/summary.txt", format!("{summary}\n").as_bytes())?;
    if args.shard.is_some() {
        let manifest = Manifest {
            version: crate::shard::version(),
            command: "sweep".into(),
            options: manifest_options(&args, &base, &spec, rack.as_ref()),
            engine,
            k: shard.k,
            n: shard.n,
            total,
            lo,
            hi,
            inputs: vec![crate::shard::Input::of(&path)?],
            look: None,
            state_sha256: None,
            args: Vec::new(),
        };
        staging.write(&format!("sweep/{MANIFEST}"), manifest.to_json().as_bytes())?;
    }
    let dir = staging.commit()?;
    outln!("{summary} -> {}", dir.display())?;
    let bad = tally.unphysical();
    if bad > 0 {
        return Err(CliError::Run(format!(
            "{bad} points did not end physically (termination budget or numerical_error in \
             {})",
            dir.join("sweep/rows.csv").display()
        )));
    }
    Ok(())
}

/// A byte count in binary units (`1.5 GiB`).
fn human_bytes(b: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut v = b as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < units.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{b} bytes")
    } else {
        format!("{v:.1} {}", units[u])
    }
}
