//! `cargo xtask stress`: many random, realistic shots (`pool_harness::stress_shot`: breaks,
//! scatters, rail, corner, frozen and grazing shots) or the shot files of a directory
//! (`--replay`), with the invariants checked after every event; failing shots are written as
//! shot files that reproduce them, and every shot gets a row in `stress/shots.csv`.

use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{
    check_outcome, energy_rises, snapshot_interval, stress_shot, violations, EndCheck, RackModel,
    ScenarioKind, StressTally, SNAPSHOT_STATES,
};
use pool_sim::{Outcome, Setup};
use rayon::prelude::*;
use serde::Serialize;

use crate::console::{errln, outln};
use crate::output::Staging;
use crate::shard::{Manifest, Shard, MANIFEST};
use crate::CliError;

/// Options of `cargo xtask stress`.
#[derive(clap::Args, Debug, Clone)]
pub struct StressArgs {
    /// Number of random shots (any number: shots stream through, the run's memory does not
    /// grow with it; the seeds must not pass 2^64 - 1)
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
    /// Rack model of the breaks (break9, break15; the other kinds place balls of their own):
    /// lattice:<gap> (the racks' lattice scaled about its apex, closest neighbours 2R + gap
    /// apart; gap in m, 0 to 0.05), frozen (every neighbour touching) or jittered:<scale> (the
    /// lattice at gap = scale, each ball then moved at random within scale/2 of its place,
    /// seeded by the shot's seed: gaps 0 to 2 scale, mean about scale; scale in m, above 0, at
    /// most 0.05; the studies' default rack is jittered:0.000127, the balls' diameter
    /// tolerance). The default is the rack files' own lattice, bit for bit
    #[arg(
        long,
        value_name = "MODEL",
        default_value = "lattice:1e-6",
        conflicts_with = "replay"
    )]
    pub rack: String,
    /// Evolution algorithm under test: an engine spec, event[:<solver>] (solver isolator, ferrari, alg1010, companion), discrete:<dt>[:<scheme>]
    /// (scheme end_of_step, euler, located, substep<k>), rapier:<dt>, pooltool, mujoco:<dt>[:<integrator>]
    /// (integrator euler, implicitfast, rk4), pybullet:<dt>, pymunk:<dt>, box2d:<dt>, billiards,
    /// exec:<command>, or a registered engine; or plain discrete with
    /// --dt
    #[arg(long, default_value = "event")]
    pub engine: String,
    /// Time step of plain `--engine discrete` (s) [default: 1e-4]
    #[arg(long, allow_negative_numbers = true)]
    pub dt: Option<f64>,
    /// Event budget per shot (event engine; 1 to 1000000): a shot needing more fails as
    /// "no end"
    #[arg(long, default_value_t = 100_000)]
    pub max_events: usize,
    /// Failing shots tolerated before the command fails (a ratchet for CI: lower it as fixes
    /// land; 0 is the goal)
    #[arg(long, default_value_t = 0)]
    pub allow_failures: usize,
    /// Run every shot under this physics preset instead of its own (pool, seed,
    /// pooltool_default, corrected, mathavan): same table, balls and ball parameters, other laws
    #[arg(long, value_name = "PRESET")]
    pub physics: Option<String>,
    /// Run only the K-th (1-based) of N deterministic pieces of the run (for a cluster or a job
    /// array); `cargo xtask merge` joins the N run directories into the unsharded run's files,
    /// byte for byte
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Shots run at a time: the rows of one chunk are written before the next starts, so a run of
/// any length holds at most this many shots (and one event-count histogram) in memory.
const CHUNK: usize = 4096;

/// One shot of the run: a seed of the random mix, or a shot file.
enum Job {
    Seed(u64),
    File(PathBuf),
}

impl Job {
    /// The shot's label in `shots.csv` (seed or file name), its kind and its set-up (a seed's
    /// breaks racked by `rack`).
    fn setup(
        &self,
        racks: &[Setup],
        rack: &RackModel,
    ) -> Result<(String, &'static str, Setup), CliError> {
        Ok(match self {
            Job::Seed(seed) => {
                let (kind, s) = stress_shot(racks, rack, *seed)
                    .map_err(|e| CliError::Input(format!("--rack {rack}: seed {seed}: {e}")))?;
                (seed.to_string(), kind.name(), s)
            }
            Job::File(f) => {
                let s = pool_shots::load(f)?;
                let kind = ScenarioKind::from_shot_name(&s.name).map_or("other", |k| k.name());
                let label = f.file_name().map_or_else(
                    || f.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                (label, kind, s)
            }
        })
    }

    /// Where the shot came from, for its failure file's description.
    fn origin(&self) -> String {
        match self {
            Job::Seed(seed) => format!("seed {seed}"),
            Job::File(f) => format!("replay of {}", f.display()),
        }
    }
}

/// The shots of a run, made one at a time: `count` seeds from `first` (only those of `kinds`
/// when given), or the files of `--replay`.
enum Source {
    Seeds {
        first: u64,
        count: u64,
        kinds: Vec<ScenarioKind>,
    },
    Files(Vec<PathBuf>),
}

impl Source {
    /// The jobs `[lo, hi)` of this source, as a source of their own.
    fn range(self, lo: u64, hi: u64) -> Source {
        match self {
            Source::Seeds {
                first,
                count,
                kinds,
            } => Source::Seeds {
                // The seed of job `lo` (checked in `source`: the last job's seed fits).
                first: if lo < count {
                    last_seed(first, lo + 1, &kinds).unwrap_or(u64::MAX)
                } else {
                    first
                },
                count: hi - lo,
                kinds,
            },
            Source::Files(files) => Source::Files(files[lo as usize..hi as usize].to_vec()),
        }
    }

    fn len(&self) -> u64 {
        match self {
            Source::Seeds { count, .. } => *count,
            Source::Files(f) => f.len() as u64,
        }
    }

    /// The jobs, lazily (a billion seeds take no memory).
    fn jobs(&self) -> Box<dyn Iterator<Item = Job> + '_> {
        match self {
            Source::Seeds {
                first,
                count,
                kinds,
            } => Box::new(
                // The range is checked in `source`: no seed wraps around.
                (0..=u64::MAX)
                    .map_while(move |k| first.checked_add(k))
                    .filter(move |&s| kinds.is_empty() || kinds.contains(&ScenarioKind::of_seed(s)))
                    .take(usize::try_from(*count).unwrap_or(usize::MAX))
                    .map(Job::Seed),
            ),
            Source::Files(files) => Box::new(files.iter().cloned().map(Job::File)),
        }
    }
}

/// The last seed of `count` (>= 1) seeds from `first` of `kinds` (every kind when empty), or
/// `None` when it would be past `u64::MAX`.
fn last_seed(first: u64, count: u64, kinds: &[ScenarioKind]) -> Option<u64> {
    let cycle = ScenarioKind::ALL.len() as u128;
    let offsets: Vec<u128> = (0..cycle)
        .filter(|&o| {
            let kind = ScenarioKind::ALL[((u128::from(first) + o) % cycle) as usize];
            kinds.is_empty() || kinds.contains(&kind)
        })
        .collect();
    let m = offsets.len() as u128;
    let k = u128::from(count) - 1;
    let last = u128::from(first) + cycle * (k / m) + offsets[(k % m) as usize];
    u64::try_from(last).ok()
}

/// The rack model of `--rack`.
///
/// # Errors
/// One line naming `--rack` and the value (exit 2).
fn rack_model(text: &str) -> Result<RackModel, CliError> {
    text.parse()
        .map_err(|e| CliError::Input(format!("--rack {e}")))
}

/// The seeds of a seeded stress shard's rows, in order, from its manifest (`--seed`, `--shots`,
/// `--kinds`, its range); `None` for a `--replay` shard, whose labels are file names.
///
/// # Errors
/// A manifest whose options do not read (exit 2, naming the option).
pub(crate) fn shard_shots(
    m: &Manifest,
) -> Result<Option<impl Iterator<Item = u64> + use<>>, CliError> {
    let option = |name: &str| {
        m.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    if option("--replay").is_some() {
        return Ok(None);
    }
    let bad = |name: &str| {
        CliError::Input(format!(
            "stress shard {}/{}: manifest {name} = {:?}: does not read",
            m.k,
            m.n,
            option(name).unwrap_or("(none)")
        ))
    };
    let number = |name: &str| -> Result<u64, CliError> {
        option(name)
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| bad(name))
    };
    let (first, count) = (number("--seed")?, number("--shots")?);
    let kinds = option("--kinds")
        .ok_or_else(|| bad("--kinds"))?
        .split(',')
        .filter(|k| !k.is_empty())
        .map(|name| {
            ScenarioKind::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| bad("--kinds"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if count != m.total
        || m.lo > m.hi
        || m.hi > count
        || last_seed(first, count.max(1), &kinds).is_none()
    {
        return Err(bad("--shots"));
    }
    // The same seeds as `Source::jobs` of the shard's range gives the run.
    let Source::Seeds { first, kinds, .. } = (Source::Seeds {
        first,
        count,
        kinds,
    })
    .range(m.lo, m.hi) else {
        return Ok(None);
    };
    let seeds = (0..=u64::MAX)
        .map_while(move |k| first.checked_add(k))
        .filter(move |&s| kinds.is_empty() || kinds.contains(&ScenarioKind::of_seed(s)))
        .take(usize::try_from(m.hi - m.lo).unwrap_or(usize::MAX));
    Ok(Some(seeds))
}

/// The racks every generated shot starts from (none for `--replay`), and the shots to run.
/// Every option is checked (the rack model placed on both racks), and every file of
/// `--replay` loaded once, before anything runs (a bad file is bad input).
fn source(
    args: &StressArgs,
    spec: &EngineSpec,
    rack: &RackModel,
) -> Result<(Vec<Setup>, Source), CliError> {
    if let Some(dir) = &args.replay {
        let files = pool_shots::list_shots(dir)?;
        if files.is_empty() {
            return Err(CliError::Input(format!(
                "--replay {}: no *.toml shot files there",
                dir.display()
            )));
        }
        for f in &files {
            let s = pool_shots::load(f)?;
            crate::args::check_work("--engine", spec, &s)?;
        }
        return Ok((Vec::new(), Source::Files(files)));
    }
    if args.shots == 0 {
        return Err(CliError::Input("--shots = 0: must be at least 1".into()));
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
    if last_seed(args.seed, args.shots, &kinds).is_none() {
        return Err(CliError::Input(format!(
            "--seed = {} with --shots = {}: the seeds would run past {} (seeds never wrap)",
            args.seed,
            args.shots,
            u64::MAX
        )));
    }
    let racks = crate::racks::racks("--table", args.table.as_deref())?.to_vec();
    for r in &racks {
        rack.apply(r, args.seed).map_err(|e| {
            CliError::Input(format!("--rack {:?}: the {} rack: {e}", args.rack, r.name))
        })?;
    }
    Ok((
        racks,
        Source::Seeds {
            first: args.seed,
            count: args.shots,
            kinds,
        },
    ))
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
/// has snapshots at every event, so it gets the full check. Another engine's overlaps during
/// the run are its method's error, measured, not a failure; but its end counts: balls off the
/// table (`off_table`) or overlapping beyond [`pool_harness::CONTACT_TOL_M`] (`overlap`) at
/// the end, besides a run that did not end (`no_end`, `nan`) and energy rising between
/// samples.
fn broken(setup: &Setup, o: &Outcome, event_based: bool) -> Vec<&'static str> {
    if event_based {
        return violations(o, Some(&check_outcome(setup, o, 4)));
    }
    let mut out = violations(o, None);
    let end = EndCheck::of(setup, o);
    if !end.off_table.is_empty() {
        out.push("off_table");
    }
    if end.overlapping() {
        out.push("overlap");
    }
    if energy_rises(&setup.physics, &o.snapshots) > 0 {
        out.push("energy_rise");
    }
    out
}

/// Runs one shot: its row, the invariants it broke, and its failure file when it broke any.
fn run_job(
    job: &Job,
    racks: &[Setup],
    rack: &RackModel,
    spec: &EngineSpec,
    max_events: usize,
    physics: Option<&str>,
    staging: &Staging,
) -> Result<(ShotRow, Vec<&'static str>), CliError> {
    let (shot, kind, s) = job.setup(racks, rack)?;
    // Under another preset the shot keeps its table, balls and ball parameters; a shot the
    // preset cannot play (frictionless without t_end, or failing validation) is invalid.
    let s = match physics {
        Some(p) => pool_harness::with_physics(&s, p).map_err(|_| s),
        None => Ok(s),
    };
    let valid = s.as_ref().is_ok_and(|s| s.validate().is_ok());
    let s = s.unwrap_or_else(|s| s);
    let event_based = matches!(spec, EngineSpec::Event { .. });
    let (events, end_time, bad) = match valid {
        false => (0, 0.0, vec!["invalid_setup"]),
        true => {
            // Snapshots at every event (event engine) or every 10 ms, within the memory bound.
            let options = RunOptions {
                snapshots: Some(snapshot_interval(&s, 0.01)),
                max_events: Some(max_events.min(SNAPSHOT_STATES / s.balls.len().max(1))),
                ..RunOptions::default()
            };
            let o = spec
                .build_with(&options)
                .map_err(|e| CliError::Input(format!("--engine = {e}")))?
                .run(&s);
            (o.events.len(), o.end_time, broken(&s, &o, event_based))
        }
    };
    if !bad.is_empty() {
        let text = pool_shots::to_toml(
            &s,
            &format!(
                "stress failure ({}, {} engine{}): {}",
                job.origin(),
                spec.family(),
                physics.map_or(String::new(), |p| format!(", physics {p}")),
                bad.join(", ")
            ),
        );
        staging.write(&format!("stress/failures/{}.toml", s.name), text.as_bytes())?;
    }
    let row = ShotRow {
        shot,
        name: s.name.clone(),
        kind,
        balls: s.balls.len(),
        events,
        end_time_s: end_time,
        failures: bad.join(";"),
    };
    Ok((row, bad))
}

/// The options that decide a run's rows, for a shard's manifest (in a fixed order).
fn manifest_options(
    args: &StressArgs,
    spec: &EngineSpec,
    rack: &RackModel,
) -> Vec<(String, String)> {
    let mut out = vec![
        ("--engine".to_string(), spec.to_string()),
        ("--max-events".to_string(), args.max_events.to_string()),
    ];
    match &args.replay {
        Some(dir) => out.push(("--replay".into(), dir.display().to_string())),
        None => {
            out.push(("--seed".into(), args.seed.to_string()));
            out.push(("--shots".into(), args.shots.to_string()));
            out.push(("--kinds".into(), args.kinds.join(",")));
            out.push(("--rack".into(), rack.to_string()));
        }
    }
    for (option, value) in [("--physics", &args.physics), ("--table", &args.table)] {
        if let Some(v) = value {
            out.push((option.into(), v.clone()));
        }
    }
    out
}

/// Runs `cargo xtask stress`: the shots stream through in chunks, each chunk's rows written
/// to `stress/shots.csv` before the next starts.
pub fn run(args: StressArgs) -> Result<(), CliError> {
    let spec = crate::args::batch_engine(&args.engine, args.dt, args.max_events)?;
    if let Some(p) = &args.physics {
        if !pool_physics::Model::PRESETS.contains(&p.as_str()) || p == "ideal" {
            return Err(CliError::Input(format!(
                "--physics = {p:?}: unknown preset; valid: pool, seed, pooltool_default, corrected, \
                 mathavan"
            )));
        }
    }
    let rack = rack_model(&args.rack)?;
    let (racks, source) = source(&args, &spec, &rack)?;
    // A shard's input files: every shot file of --replay (all shards read the same list).
    let inputs = match (&source, args.shard.is_some()) {
        (Source::Files(files), true) => files
            .iter()
            .map(|f| crate::shard::Input::of(f))
            .collect::<Result<Vec<_>, _>>()?,
        _ => Vec::new(),
    };
    let total = source.len();
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let (lo, hi) = shard.range(total);
    let source = source.range(lo, hi);
    let pool = crate::args::thread_pool(args.jobs)?;
    let staging = args.run.stage("stress")?;
    let csv_io = |e: csv::Error| CliError::Run(format!("writing stress/shots.csv: {e}"));
    let mut csv = csv::Writer::from_writer(staging.create("stress/shots.csv")?);
    let bar = crate::progress::bar(source.len(), "shots {per_sec}");
    let start = std::time::Instant::now();
    let mut tally = StressTally::default();
    let mut jobs = source.jobs();
    loop {
        let chunk: Vec<Job> = jobs.by_ref().take(CHUNK).collect();
        if chunk.is_empty() {
            break;
        }
        let rows = pool.install(|| {
            chunk
                .par_iter()
                .map(|job| {
                    let r = run_job(
                        job,
                        &racks,
                        &rack,
                        &spec,
                        args.max_events,
                        args.physics.as_deref(),
                        &staging,
                    );
                    bar.inc(1);
                    r
                })
                .collect::<Result<Vec<_>, CliError>>()
        })?;
        for (row, bad) in &rows {
            tally.add(row.kind, row.events, bad);
            csv.serialize(row).map_err(csv_io)?;
        }
    }
    bar.finish_and_clear();
    csv.into_inner()
        .map_err(|e| CliError::Run(format!("writing stress/shots.csv: {}", e.error())))?
        .into_inner()
        .map_err(|e| CliError::Run(format!("writing stress/shots.csv: {}", e.error())))?;
    let engine = match &args.physics {
        Some(p) => format!("{} engine, {p} physics", spec.family()),
        None => format!("{} engine", spec.family()),
    };
    let summary = tally.summary(&engine);
    staging.write("stress/summary.txt", format!("{summary}\n").as_bytes())?;
    if args.shard.is_some() {
        let manifest = Manifest {
            version: crate::shard::version(),
            command: "stress".into(),
            options: manifest_options(&args, &spec, &rack),
            engine,
            k: shard.k,
            n: shard.n,
            total,
            lo,
            hi,
            inputs,
            look: None,
            state_sha256: None,
            args: Vec::new(),
        };
        staging.write(&format!("stress/{MANIFEST}"), manifest.to_json().as_bytes())?;
    }
    let dir = staging.commit()?;
    let secs = start.elapsed().as_secs_f64();
    // Whole numbers, but a slow replay of a few shots still shows a rate.
    let rate = tally.shots as f64 / secs;
    let rate = if rate < 10.0 {
        format!("{rate:.2}")
    } else {
        format!("{rate:.0}")
    };
    outln!("{summary}; {rate} shots/s ({secs:.1} s)")?;
    let failures = tally.failing;
    if failures > args.allow_failures as u64 {
        return Err(CliError::Run(format!(
            "{failures} failing shots (more than the {} allowed) written to {} (reproduce one \
             with `cargo xtask simulate FILE`)",
            args.allow_failures,
            dir.join("stress/failures").display()
        )));
    }
    if failures > 0 {
        errln!(
            "warning: {failures} failing shots (at most {} allowed) written to {}",
            args.allow_failures,
            dir.join("stress/failures").display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The last seed, counted the slow way.
    fn last_by_walking(first: u64, count: u64, kinds: &[ScenarioKind]) -> Option<u64> {
        let mut left = count;
        let mut s = first;
        loop {
            if kinds.is_empty() || kinds.contains(&ScenarioKind::of_seed(s)) {
                left -= 1;
                if left == 0 {
                    return Some(s);
                }
            }
            s = s.checked_add(1)?;
        }
    }

    #[test]
    fn the_last_seed_is_exact_and_never_wraps() {
        let breaks = [ScenarioKind::Break9, ScenarioKind::Break15];
        let graze = [ScenarioKind::Graze];
        for first in [0, 1, 5, 6, 7, 1000, u64::MAX - 20, u64::MAX - 1, u64::MAX] {
            for count in 1..=30 {
                for kinds in [&[][..], &breaks[..], &graze[..]] {
                    assert_eq!(
                        last_seed(first, count, kinds),
                        last_by_walking(first, count, kinds),
                        "first {first}, count {count}, kinds {kinds:?}"
                    );
                }
            }
        }
        assert_eq!(last_seed(u64::MAX, 1, &[]), Some(u64::MAX));
        assert_eq!(last_seed(u64::MAX, 2, &[]), None);
        assert_eq!(last_seed(1, u64::MAX, &[]), Some(u64::MAX));
        assert_eq!(last_seed(0, u64::MAX, &breaks), None);
    }

    #[test]
    fn a_billion_seeds_are_made_one_at_a_time() {
        let source = Source::Seeds {
            first: 10,
            count: 1_000_000_000,
            kinds: vec![ScenarioKind::Graze],
        };
        assert_eq!(source.len(), 1_000_000_000);
        // Lazy: the first few come at once, none of the rest is made.
        let seeds: Vec<u64> = source
            .jobs()
            .take(3)
            .map(|j| match j {
                Job::Seed(s) => s,
                Job::File(_) => unreachable!(),
            })
            .collect();
        assert_eq!(seeds, [13, 20, 27]);
    }
}
