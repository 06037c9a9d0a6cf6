//! `cargo xtask stress`: many random, realistic shots (`pool_harness::stress_shot`: breaks,
//! scatters, rail, corner, frozen and grazing shots) or the shot files of a directory
//! (`--replay`), with the invariants checked after every event; failing shots are written as
//! shot files that reproduce them, and every shot gets a row in `stress/shots.csv`.

use std::collections::BTreeMap;
use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{check_outcome, energy_rises, stress_shot, violations, ScenarioKind};
use pool_sim::{Outcome, Setup};
use rayon::prelude::*;
use serde::Serialize;

use crate::output::{csv_bytes, Staging};
use crate::CliError;

/// Options of `cargo xtask stress`.
#[derive(clap::Args, Debug, Clone)]
pub struct StressArgs {
    /// Number of random shots
    #[arg(long, default_value_t = 1000)]
    pub shots: u64,
    /// Seed of the first shot (shot k uses seed + k; its kind is the (seed + k) mod 7-th of
    /// break9, break15, scatter, rail, corner, frozen, graze)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Run the shot files (*.toml) in DIR instead of random shots, e.g. an earlier run's
    /// stress/failures directory; each shot's kind is read from its name
    #[arg(long, value_name = "DIR", conflicts_with_all = ["shots", "seed"])]
    pub replay: Option<PathBuf>,
    /// Run only shots of these kinds (comma-separated: break9, break15, scatter, rail, corner,
    /// frozen, graze), e.g. `--kinds break9,break15` for random breaks. The seeds of other kinds
    /// are skipped, so shot seed s is the same shot with or without this option
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "KIND,...",
        conflicts_with = "replay"
    )]
    pub kinds: Vec<String>,
    /// Table of the generated shots: a built-in name (seven_foot, carom, rectangle_LxW,
    /// pooltool_pocket, pooltool_snooker, pooltool_billiard). The racks keep their places
    /// relative to the foot spot (the same places on a table of the 7-foot size) [default:
    /// the racks' own, seven_foot]
    #[arg(long, value_name = "NAME", conflicts_with = "replay")]
    pub table: Option<String>,
    /// Evolution algorithm under test: an engine spec (event, event:<solver>, discrete:<dt>,
    /// discrete:<dt>:<scheme>, or a registered engine), or plain discrete with --dt
    #[arg(long, default_value = "event")]
    pub engine: String,
    /// Time step of plain `--engine discrete` (s) [default: 1e-4]
    #[arg(long, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// Event budget per shot (event engine): a shot needing more fails as "no end"
    #[arg(long, default_value_t = 100_000)]
    pub max_events: usize,
    /// Failing shots tolerated before the command fails (a ratchet for CI: lower it as fixes
    /// land; 0 is the goal)
    #[arg(long, default_value_t = 0)]
    pub allow_failures: usize,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// One shot of the run: a seed of the random mix, or a loaded shot file.
enum Job {
    Seed(u64),
    File(PathBuf, Box<Setup>),
}

impl Job {
    /// The shot's label in `shots.csv` (seed or file name), its kind and its set-up.
    fn setup(&self, racks: &[Setup]) -> (String, &'static str, Setup) {
        match self {
            Job::Seed(seed) => {
                let (kind, s) = stress_shot(racks, *seed);
                (seed.to_string(), kind.name(), s)
            }
            Job::File(f, s) => {
                let kind = ScenarioKind::from_shot_name(&s.name).map_or("other", |k| k.name());
                let label = f.file_name().map_or_else(
                    || f.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                (label, kind, (**s).clone())
            }
        }
    }
}

/// The racks every generated shot starts from (none needed for `--replay`), and the shots to
/// run: one per seed, or the files of `--replay` (a bad file is bad input, reported before
/// anything runs).
fn jobs(args: &StressArgs) -> Result<(Vec<Setup>, Vec<Job>), CliError> {
    if let Some(dir) = &args.replay {
        let files = pool_shots::list_shots(dir)?;
        if files.is_empty() {
            return Err(CliError::Input(format!(
                "--replay {}: no *.toml shot files there",
                dir.display()
            )));
        }
        let jobs = files
            .into_iter()
            .map(|f| {
                let s = pool_shots::load(&f)?;
                Ok(Job::File(f, Box::new(s)))
            })
            .collect::<Result<_, CliError>>()?;
        return Ok((Vec::new(), jobs));
    }
    let mut racks: Vec<Setup> = ["break_9ball", "break_15ball"]
        .iter()
        .map(|n| {
            let f = crate::workspace::workspace_root().join(format!("data/shots/{n}.toml"));
            pool_shots::load(&f)
        })
        .collect::<Result<_, _>>()?;
    if let Some(name) = &args.table {
        let table = pool_physics::Table::by_name(name).ok_or_else(|| {
            CliError::Input(format!(
                "--table {name:?}: unknown table; valid: {} (rectangle_LxW for any L x W in m)",
                pool_physics::Table::BUILT_IN.join(", ")
            ))
        })?;
        for rack in &mut racks {
            *rack = pool_harness::rack_on_table(rack, &table).map_err(|e| {
                CliError::Input(format!("--table {name}: the {} rack: {e}", rack.name))
            })?;
        }
    }
    let kinds = args
        .kinds
        .iter()
        .map(|name| {
            ScenarioKind::ALL
                .into_iter()
                .find(|k| k.name() == name.trim())
                .ok_or_else(|| {
                    CliError::Input(format!(
                        "--kinds: unknown kind {name:?} (expected some of {})",
                        ScenarioKind::ALL.map(|k| k.name()).join(", ")
                    ))
                })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let jobs = (0..)
        .map(|k| args.seed.wrapping_add(k))
        .filter(|&s| kinds.is_empty() || kinds.contains(&ScenarioKind::of_seed(s)))
        .take(usize::try_from(args.shots).unwrap_or(usize::MAX))
        .map(Job::Seed)
        .collect();
    Ok((racks, jobs))
}

/// One row of `stress/shots.csv`.
#[derive(Serialize)]
struct ShotRow {
    /// Seed of a generated shot, or the replayed file's name.
    shot: String,
    /// Shot name (the failure file is `failures/<name>.toml`).
    name: String,
    /// Scenario kind (`ScenarioKind::name`, `other` for a replayed file of no known kind).
    kind: &'static str,
    /// Number of balls.
    balls: usize,
    /// Events in the log (0 when the set-up was invalid).
    events: usize,
    /// Simulated time at the end of the run (s).
    end_time_s: f64,
    /// Invariants broken, `;`-separated (empty when none).
    failures: String,
}

/// The invariants one shot broke (empty when it kept them all). The event engine's outcome
/// has snapshots at every event, so it gets the full check; the discrete integrator's overlaps
/// are its own error, so only its energy is checked between samples.
fn broken(setup: &Setup, o: &Outcome, event_based: bool) -> Vec<&'static str> {
    if event_based {
        return violations(o, Some(&check_outcome(setup, o, 4)));
    }
    let mut out = violations(o, None);
    if energy_rises(&setup.physics, &o.snapshots) > 0 {
        out.push("energy_rise");
    }
    out
}

/// Runs `cargo xtask stress`.
pub fn run(args: StressArgs) -> Result<(), CliError> {
    let spec = crate::args::engine_spec("--engine", &args.engine, args.dt, None, None)?;
    let options = RunOptions {
        snapshots: Some(0.01),
        max_events: Some(args.max_events),
    };
    let engine = spec
        .build_with(&options)
        .map_err(|e| CliError::Input(format!("--engine = {e}")))?;
    let (racks, jobs) = jobs(&args)?;
    let (out_root, run_name) = args.run.location("stress")?;
    let staging = Staging::new(&out_root.join(&run_name))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Run(format!("thread pool: {e}")))?;
    let bar = crate::progress::bar(jobs.len() as u64, "shots {per_sec}");
    let start = std::time::Instant::now();
    let event_based = matches!(spec, EngineSpec::Event { .. });
    let engine_name = spec.family();
    let rows: Vec<ShotRow> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let (shot, kind, s) = job.setup(&racks);
                let (events, end_time, bad) = match s.validate() {
                    Err(_) => (0, 0.0, vec!["invalid_setup"]),
                    Ok(()) => {
                        let o = engine.run(&s);
                        (o.events.len(), o.end_time, broken(&s, &o, event_based))
                    }
                };
                if !bad.is_empty() {
                    let origin = match job {
                        Job::Seed(seed) => format!("seed {seed}"),
                        Job::File(f, _) => format!("replay of {}", f.display()),
                    };
                    let text = pool_shots::to_toml(
                        &s,
                        &format!(
                            "stress failure ({origin}, {engine_name} engine): {}",
                            bad.join(", ")
                        ),
                    );
                    staging
                        .write(&format!("stress/failures/{}.toml", s.name), text.as_bytes())
                        .ok();
                }
                bar.inc(1);
                ShotRow {
                    shot,
                    name: s.name.clone(),
                    kind,
                    balls: s.balls.len(),
                    events,
                    end_time_s: end_time,
                    failures: bad.join(";"),
                }
            })
            .collect()
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut events: Vec<usize> = rows.iter().map(|r| r.events).collect();
    events.sort_unstable();
    let mut by_invariant: BTreeMap<&str, usize> = BTreeMap::new();
    for r in &rows {
        for b in r.failures.split(';').filter(|b| !b.is_empty()) {
            *by_invariant.entry(b).or_default() += 1;
        }
    }
    // (failing, shots) per kind, in the mix's order, then any other names.
    let mut by_kind: Vec<(&str, usize, usize)> = ScenarioKind::ALL
        .iter()
        .map(|k| (k.name(), 0, 0))
        .chain(std::iter::once(("other", 0, 0)))
        .collect();
    for r in &rows {
        if let Some(e) = by_kind.iter_mut().find(|e| e.0 == r.kind) {
            e.1 += usize::from(!r.failures.is_empty());
            e.2 += 1;
        }
    }
    let failures = rows.iter().filter(|r| !r.failures.is_empty()).count();
    let summary = format!(
        "stress: {} shots ({engine_name} engine), {} events, {failures} failing shots{}; by kind \
         (failing/shots): {}; events per shot median {} max {}; {} shots/s ({secs:.1} s)",
        rows.len(),
        events.iter().sum::<usize>(),
        if by_invariant.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                by_invariant
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        by_kind
            .iter()
            .filter(|e| e.2 > 0)
            .map(|(k, f, n)| format!("{k} {f}/{n}"))
            .collect::<Vec<_>>()
            .join(", "),
        events.get(events.len() / 2).copied().unwrap_or(0),
        events.last().copied().unwrap_or(0),
        {
            // Whole numbers, but a slow replay of a few shots still shows a rate.
            let rate = rows.len() as f64 / secs;
            if rate < 10.0 {
                format!("{rate:.2}")
            } else {
                format!("{rate:.0}")
            }
        },
    );
    staging.write("stress/shots.csv", &csv_bytes(&rows)?)?;
    staging.write("stress/summary.txt", format!("{summary}\n").as_bytes())?;
    let dir = staging.commit()?;
    println!("{summary}");
    if failures > args.allow_failures {
        return Err(CliError::Run(format!(
            "{failures} failing shots (more than the {} allowed) written to {} (reproduce one \
             with `cargo xtask simulate FILE`)",
            args.allow_failures,
            dir.join("stress/failures").display()
        )));
    }
    if failures > 0 {
        eprintln!(
            "warning: {failures} failing shots (at most {} allowed) written to {}",
            args.allow_failures,
            dir.join("stress/failures").display()
        );
    }
    Ok(())
}
