//! The outcome study ("does it change the game?"), shared by `compare` (a section of its
//! report) and `outcomes` (the study alone, shardable): families of random shots, each run by
//! the reference, by the reference on the shot perturbed at the scale of physical uncertainty
//! (the chaos floor) and by every engine; one row per shot and run, tallied into disagreement
//! rates with their intervals and the largest dt within the chaos floor.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use indicatif::ProgressBar;
use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{
    family_shot, FamilyKind, OutcomeTally, Perturbation, StudyError, StudyRules, StudyShot,
    WallRow, FLOOR, REFERENCE,
};
use pool_report::compare::{outcome_section, Decline, OutcomeStudy};
use pool_sim::Setup;
use rayon::prelude::*;

use crate::output::{csv_bytes, Staging};
use crate::CliError;

/// The study's options, as `compare` and `outcomes` both take them.
#[derive(clap::Args, Debug, Clone)]
pub struct OutcomeArgs {
    /// Shots per family, 1 to 1000000 [default: 100; compare --quick: 12]. The rates' 95 %
    /// intervals narrow as 1/sqrt(N): about +-10 points at 100 shots for a rate near 50 %
    #[arg(long, value_name = "N")]
    pub outcome_shots: Option<u64>,
    /// Families of shots, comma-separated: cut (ghost-ball cut shots at a pocket over cut
    /// angle 0-75 degrees, speed and spin), thin_cut (the same at 45-75 degrees), bank
    /// (one-rail banks into a pocket across the table), break9, break15 (random breaks),
    /// straight (center-ball straight shots at a pocket: the known answer)
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "KIND,...",
        default_value = "cut,bank,break9,break15"
    )]
    pub outcome_families: Vec<String>,
    /// Tables the families are played on, comma-separated built-in names (the tables need
    /// pockets on both long rails)
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME,...",
        default_value = "seven_foot,pooltool_pocket"
    )]
    pub outcome_tables: Vec<String>,
    /// Time steps of the fixed-step schemes in the study (s), comma-separated, each in
    /// [1e-7, 1], at most 20 [default: 1e-2,5e-3,2e-3,1e-3,5e-4,2e-4,1e-4; compare --quick:
    /// 1e-2,1e-3]
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        value_name = "DT,..."
    )]
    pub outcome_dt: Vec<f64>,
    /// Seed of the study's shots (shot k of a family depends only on it, the family, the
    /// table and k)
    #[arg(long, default_value_t = 1)]
    pub outcome_seed: u64,
    /// The chaos floor: distance (m) every ball is moved, in a random direction, in [0, 0.1]
    #[arg(
        long,
        default_value_t = 1e-6,
        allow_negative_numbers = true,
        value_name = "M"
    )]
    pub perturb_position: f64,
    /// The chaos floor: relative change of the cue's speed (uniform in +-this), in [0, 0.5]
    #[arg(
        long,
        default_value_t = 1e-4,
        allow_negative_numbers = true,
        value_name = "REL"
    )]
    pub perturb_speed: f64,
    /// Final positions within this distance (m) agree (fields cue_position and positions),
    /// in (0, 1]
    #[arg(
        long,
        default_value_t = 1e-2,
        allow_negative_numbers = true,
        value_name = "M"
    )]
    pub position_tol: f64,
}

/// The full study's time steps (s): a 1-2-5 sequence over the steps games and robots use.
pub const DEFAULT_DTS: [f64; 7] = [1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4];
/// `compare --quick`'s.
pub const QUICK_DTS: [f64; 2] = [1e-2, 1e-3];
/// Shots per family by default.
pub const DEFAULT_SHOTS: u64 = 100;
/// `compare --quick`'s.
pub const QUICK_SHOTS: u64 = 12;
/// Most shots per family.
pub const MAX_SHOTS: u64 = 1_000_000;
/// Most time steps in a study.
pub const MAX_DTS: usize = 20;
/// Most ball-steps one study may plan (estimated before any run, as compare's sweep).
pub const MAX_STUDY_BALL_STEPS: f64 = 1e12;
/// A generous bound on how long a family's shot lasts (s), for that estimate only: random
/// breaks at 12 m/s roll for 10-20 s.
const SHOT_SECONDS: f64 = 15.0;

/// A checked study: which shots, which runs.
#[derive(Clone, Debug)]
pub struct StudyPlan {
    /// (kind, table) of each family, in run order.
    pub families: Vec<(FamilyKind, String)>,
    /// Each family's two racks (9-ball, 15-ball) on its table.
    pub racks: Vec<[Setup; 2]>,
    /// Shots per family.
    pub shots: u64,
    /// Seed of the shots.
    pub seed: u64,
    /// The reference engine (the event engine).
    pub reference: EngineSpec,
    /// Every engine judged against it, in column order.
    pub engines: Vec<EngineSpec>,
    /// The chaos floor's perturbation.
    pub perturbation: Perturbation,
    /// Position tolerance (m).
    pub position_tol_m: f64,
    /// Event budget of every run.
    pub max_events: usize,
}

impl OutcomeArgs {
    /// The checked plan: `schemes` at the study's time steps, then `extra` engines.
    ///
    /// # Errors
    /// Any option out of range or unknown, naming it (exit 2).
    pub fn plan(
        &self,
        quick: bool,
        schemes: &[pool_discrete::Scheme],
        extra: &[EngineSpec],
        max_events: usize,
    ) -> Result<StudyPlan, CliError> {
        let shots = self
            .outcome_shots
            .unwrap_or(if quick { QUICK_SHOTS } else { DEFAULT_SHOTS });
        crate::args::in_range("--outcome-shots", shots, 1, MAX_SHOTS)?;
        let perturbation = Perturbation {
            position_m: self.perturb_position,
            speed_rel: self.perturb_speed,
        };
        perturbation.validate().map_err(|(which, v, max)| {
            CliError::Input(format!(
                "--perturb-{which} = {v:?}: must be a number in [0, {max}]"
            ))
        })?;
        if !(self.position_tol > 0.0 && self.position_tol <= 1.0) {
            return Err(CliError::Input(format!(
                "--position-tol = {:?}: must be a number in (0, 1] m",
                self.position_tol
            )));
        }
        let dts: Vec<f64> = if !self.outcome_dt.is_empty() {
            self.outcome_dt.clone()
        } else if quick {
            QUICK_DTS.to_vec()
        } else {
            DEFAULT_DTS.to_vec()
        };
        if dts.len() > MAX_DTS {
            return Err(CliError::Input(format!(
                "--outcome-dt: {} time steps, more than the {MAX_DTS} a study may have",
                dts.len()
            )));
        }
        let mut engines = Vec::new();
        for &scheme in schemes {
            for (k, &dt) in dts.iter().enumerate() {
                if dts[..k].contains(&dt) {
                    return Err(CliError::Input(format!(
                        "--outcome-dt = {dt:?}: given twice"
                    )));
                }
                engines.push(
                    EngineSpec::discrete(dt, scheme)
                        .map_err(|e| CliError::Input(format!("--outcome-dt = {e}")))?,
                );
            }
        }
        engines.extend(extra.iter().cloned());
        let mut kinds = Vec::new();
        for name in &self.outcome_families {
            let kind = FamilyKind::from_name(name.trim()).ok_or_else(|| {
                CliError::Input(format!(
                    "--outcome-families: unknown family {name:?} (expected some of {})",
                    FamilyKind::ALL.map(|k| k.name()).join(", ")
                ))
            })?;
            if kinds.contains(&kind) {
                return Err(CliError::Input(format!(
                    "--outcome-families: {name:?} given twice"
                )));
            }
            kinds.push(kind);
        }
        let mut families = Vec::new();
        let mut racks = Vec::new();
        for (k, table) in self.outcome_tables.iter().enumerate() {
            let table = table.trim();
            if self.outcome_tables[..k].iter().any(|t| t.trim() == table) {
                return Err(CliError::Input(format!(
                    "--outcome-tables: {table:?} given twice"
                )));
            }
            let on_table = crate::racks::racks("--outcome-tables", Some(table))?;
            for &kind in &kinds {
                // One shot of each family now: a table it cannot be played on is bad input.
                family_shot(kind, &on_table, kind.shot_seed(table, self.outcome_seed, 0))
                    .map_err(|e| CliError::Input(format!("--outcome-tables {table}: {e}")))?;
                families.push((kind, table.to_string()));
                racks.push(on_table.clone());
            }
        }
        if families.is_empty() {
            return Err(CliError::Input(
                "--outcome-families / --outcome-tables: no family to play".into(),
            ));
        }
        let plan = StudyPlan {
            families,
            racks,
            shots,
            seed: self.outcome_seed,
            reference: EngineSpec::reference(),
            engines,
            perturbation,
            position_tol_m: self.position_tol,
            max_events,
        };
        plan.check_work()?;
        Ok(plan)
    }
}

/// What a study (or a piece of one) produced.
pub struct StudyResult {
    /// Per shot and run, in job order.
    pub tally: OutcomeTally,
    /// Wall times per family and run.
    pub wall: Vec<WallRow>,
    /// Engine runs that failed (not declined).
    pub failed: u64,
    /// The first few failures, one line each.
    pub failures: Vec<String>,
    /// Engines that declined runs as outside their model.
    pub declined: Vec<Decline>,
}

/// Jobs (shots) run at a time: each chunk's rows are written before the next starts.
const CHUNK: u64 = 512;

impl StudyPlan {
    /// Jobs of the whole study: every family's shots, family by family.
    pub fn total(&self) -> u64 {
        self.families.len() as u64 * self.shots
    }

    /// Runs per job (the reference, the floor, every engine), for progress bars.
    pub fn runs_per_job(&self) -> u64 {
        2 + self.engines.len() as u64
    }

    /// Refuses a study whose fixed-step runs would take more than [`MAX_STUDY_BALL_STEPS`],
    /// estimated at [`SHOT_SECONDS`] per shot.
    fn check_work(&self) -> Result<(), CliError> {
        let per_shot: f64 = self
            .engines
            .iter()
            .filter_map(EngineSpec::dt)
            .map(|dt| SHOT_SECONDS / dt)
            .sum();
        let balls: f64 = self
            .families
            .iter()
            .map(|(kind, _)| match kind {
                FamilyKind::Break9 => 10.0,
                FamilyKind::Break15 => 16.0,
                _ => 2.0,
            })
            .sum();
        let work = per_shot * balls * self.shots as f64;
        if work > MAX_STUDY_BALL_STEPS {
            return Err(CliError::Input(format!(
                "--outcome-shots = {}: the study would take about {work:.1e} ball-steps (shots x \
                 balls x {SHOT_SECONDS} s / dt), more than the {MAX_STUDY_BALL_STEPS:.0e} one run \
                 may; fewer shots, fewer families or larger --outcome-dt",
                self.shots
            )));
        }
        Ok(())
    }

    /// The options that decide the rows, for a shard's manifest (in a fixed order).
    pub fn manifest_options(&self) -> Vec<(String, String)> {
        let join = |v: Vec<String>| v.join(",");
        vec![
            (
                "--outcome-families".into(),
                join(
                    self.families
                        .iter()
                        .map(|f| f.0.name().to_string())
                        .collect(),
                ),
            ),
            (
                "--outcome-tables".into(),
                join(self.families.iter().map(|f| f.1.clone()).collect()),
            ),
            ("--outcome-shots".into(), self.shots.to_string()),
            ("--outcome-seed".into(), self.seed.to_string()),
            (
                "--engines".into(),
                join(self.engines.iter().map(ToString::to_string).collect()),
            ),
            (
                "--perturb-position".into(),
                format!("{:?}", self.perturbation.position_m),
            ),
            (
                "--perturb-speed".into(),
                format!("{:?}", self.perturbation.speed_rel),
            ),
            (
                "--position-tol".into(),
                format!("{:?}", self.position_tol_m),
            ),
            ("--max-events".into(), self.max_events.to_string()),
        ]
    }

    /// Runs jobs `[lo, hi)` on `pool`, streaming `outcomes/shots.csv` into `staging`, and
    /// returns the tallies.
    ///
    /// # Errors
    /// A reference run that did not end physically (a defect of the event engine: the shot
    /// is named), a shot the perturbation cannot keep playable (exit 2), or a file that
    /// cannot be written.
    pub fn run(
        &self,
        lo: u64,
        hi: u64,
        pool: &rayon::ThreadPool,
        staging: &Staging,
        bar: &ProgressBar,
    ) -> Result<StudyResult, CliError> {
        let csv_io = |e: csv::Error| CliError::Run(format!("writing outcomes/shots.csv: {e}"));
        let mut csv = csv::Writer::from_writer(staging.create("outcomes/shots.csv")?);
        let mut result = StudyResult {
            tally: OutcomeTally::default(),
            wall: Vec::new(),
            failed: 0,
            failures: Vec::new(),
            declined: Vec::new(),
        };
        let options = RunOptions {
            snapshots: None,
            max_events: Some(self.max_events),
        };
        let build = |spec: &EngineSpec| {
            spec.build_with(&options)
                .map_err(|e| CliError::Input(format!("--engines = {e}")))
        };
        let reference = build(&self.reference)?;
        let engines = self
            .engines
            .iter()
            .map(build)
            .collect::<Result<Vec<_>, _>>()?;
        let rules = StudyRules {
            seed: self.seed,
            perturbation: self.perturbation,
            position_tol_m: self.position_tol_m,
            reference: (reference.as_ref(), &self.reference),
        };
        let mut wall: BTreeMap<(usize, usize), (u64, f64)> = BTreeMap::new();
        let mut at = lo;
        while at < hi {
            let end = hi.min(at + CHUNK);
            let mut shots = pool.install(|| {
                (at..end)
                    .into_par_iter()
                    .map(|j| {
                        let f = (j / self.shots) as usize;
                        let (kind, table) = &self.families[f];
                        let shot =
                            StudyShot::play(*kind, table, &self.racks[f], j % self.shots, &rules)
                                .map_err(|e| match e {
                                    StudyError::Perturbation(m) => CliError::Input(format!(
                                        "--perturb-position / --perturb-speed: {m}"
                                    )),
                                    StudyError::Run(m) => {
                                        CliError::Run(format!("outcome study, {m}"))
                                    }
                                });
                        bar.inc(2);
                        shot.map(|s| (f, s))
                    })
                    .collect::<Result<Vec<_>, CliError>>()
            })?;
            let setups: Vec<Setup> = shots.iter().map(|s| s.1.setup.clone()).collect();
            let families: Vec<usize> = shots.iter().map(|s| s.0).collect();
            let mut by_engine = self.play_engines(&engines, &setups, &families, pool, bar);
            for (e, spec) in self.engines.iter().enumerate() {
                let runs = std::mem::take(&mut by_engine[e]);
                for ((f, shot), (run, secs)) in shots.iter_mut().zip(runs) {
                    match &run {
                        Ok(_) => add_wall(&mut wall, (*f, 2 + e), secs),
                        Err(err) if err.unsupported => {
                            Decline::note(&mut result.declined, &spec.to_string(), &err.message)
                        }
                        Err(err) => {
                            result.failed += 1;
                            if result.failures.len() < 10 {
                                result.failures.push(format!(
                                    "{spec} on {} ({} on {}): {}",
                                    shot.setup.name,
                                    shot.kind.name(),
                                    shot.table,
                                    err.message.lines().next().unwrap_or("failed")
                                ));
                            }
                        }
                    }
                    shot.add(spec, &run);
                }
            }
            for (f, shot) in &shots {
                add_wall(&mut wall, (*f, 0), shot.wall_s[0]);
                add_wall(&mut wall, (*f, 1), shot.wall_s[1]);
                result.tally.add_shot(&shot.rows);
                for r in &shot.rows {
                    csv.serialize(r).map_err(csv_io)?;
                }
            }
            at = end;
        }
        csv.into_inner()
            .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {}", e.error())))?
            .flush()
            .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {e}")))?;
        result.wall = wall
            .into_iter()
            .map(|((f, r), (shots, wall_s))| WallRow {
                family: self.families[f].0.name().into(),
                table: self.families[f].1.clone(),
                run: match r {
                    0 => REFERENCE.into(),
                    1 => FLOOR.into(),
                    e => self.engines[e - 2].to_string(),
                },
                shots,
                wall_s,
            })
            .collect();
        Ok(result)
    }
}

/// One engine's runs of a chunk's shots, in shot order, each with its wall time (s).
type Runs = Vec<(Result<pool_sim::Outcome, pool_sim::EngineError>, f64)>;

impl StudyPlan {
    /// Every engine on every shot of a chunk (`families`: each shot's family), in engine order.
    /// In-process engines run one shot per task; programs run in a few batches per family each
    /// (one process per batch, which pays its start-up once), the batches of every program at
    /// once, so that a program waiting on a slow or hung shot holds one worker, not the study.
    fn play_engines(
        &self,
        engines: &[Box<dyn pool_sim::Engine>],
        setups: &[Setup],
        families: &[usize],
        pool: &rayon::ThreadPool,
        bar: &ProgressBar,
    ) -> Vec<Runs> {
        // Batches never mix families, so that a batch's wall time, shared out over its shots,
        // is the time of that family's shots.
        let threads = pool.current_num_threads();
        let mut runs: Vec<(usize, usize)> = Vec::new();
        for (k, &f) in families.iter().enumerate() {
            match runs.last_mut() {
                Some((start, end)) if families[*start] == f && *end == k => *end = k + 1,
                _ => runs.push((k, k + 1)),
            }
        }
        let mut slices: Vec<(usize, usize)> = Vec::new();
        for (start, end) in runs {
            let size = (end - start).div_ceil(threads).max(1);
            slices.extend(
                (start..end)
                    .step_by(size)
                    .map(|at| (at, end.min(at + size))),
            );
        }
        let batches: Vec<(usize, (usize, usize))> = (0..self.engines.len())
            .filter(|&e| !in_process(&self.engines[e]))
            .flat_map(|e| slices.iter().map(move |&slice| (e, slice)))
            .collect();
        let mut programs: Vec<(usize, usize, Runs)> = pool.install(|| {
            batches
                .par_iter()
                .with_max_len(1)
                .map(|&(e, (at, end))| {
                    let batch = &setups[at..end];
                    let t = Instant::now();
                    let outs = engines[e].try_run_all(batch);
                    let each = t.elapsed().as_secs_f64() / batch.len() as f64;
                    bar.inc(batch.len() as u64);
                    (e, at, outs.into_iter().map(|o| (o, each)).collect())
                })
                .collect()
        });
        programs.sort_by_key(|p| (p.0, p.1));
        let mut out: Vec<Runs> = (0..self.engines.len()).map(|_| Vec::new()).collect();
        for (e, _, runs) in programs {
            out[e].extend(runs);
        }
        for (e, spec) in self.engines.iter().enumerate() {
            if in_process(spec) {
                out[e] = pool.install(|| {
                    setups
                        .par_iter()
                        .map(|s| {
                            let t = Instant::now();
                            let o = engines[e].try_run(s);
                            bar.inc(1);
                            (o, t.elapsed().as_secs_f64())
                        })
                        .collect()
                });
            }
        }
        out
    }
}

fn add_wall(wall: &mut BTreeMap<(usize, usize), (u64, f64)>, key: (usize, usize), secs: f64) {
    let w = wall.entry(key).or_insert((0, 0.0));
    w.0 += 1;
    w.1 += secs;
}

/// Whether an engine runs in this process (one shot per task) rather than as a program (a
/// batch per process, which pays its start-up once).
fn in_process(spec: &EngineSpec) -> bool {
    matches!(
        spec,
        EngineSpec::Event { .. } | EngineSpec::Discrete { .. } | EngineSpec::Rapier { .. }
    )
}

/// The study's files besides the streamed `outcomes/shots.csv`: `outcomes.csv`,
/// `outcome_answer.csv`, `outcomes/wall.csv` and the plot.
pub fn write_study(
    staging: &Staging,
    study: &OutcomeStudy,
    wall: &[pool_harness::WallRow],
) -> Result<(), CliError> {
    staging.write("outcomes.csv", &csv_bytes(&study.rows)?)?;
    staging.write("outcome_answer.csv", &csv_bytes(&study.answers)?)?;
    staging.write("outcomes/wall.csv", &csv_bytes(wall)?)?;
    pool_report::plots::outcome_vs_dt(&study.rows, "outcome", &staging.path("outcome_vs_dt"))?;
    Ok(())
}

/// The report of a study run alone (`outcomes`, or `merge` of its shards).
pub fn study_report(study: &OutcomeStudy, wall: &str) -> String {
    let mut md = String::from("# Does the algorithm change the game?\n\n");
    md.push_str(&format!(
        "The outcome study alone (`cargo xtask outcomes`); wall time {wall}.\n\n"
    ));
    outcome_section(&mut md, study);
    md
}

/// The study's set-up, one sentence each, for its report.
pub fn describe(plan: &StudyPlan) -> Vec<String> {
    let mut families: Vec<String> = Vec::new();
    for (kind, table) in &plan.families {
        let f = format!("{} on {table}", kind.name());
        if !families.contains(&f) {
            families.push(f);
        }
    }
    vec![
        format!(
            "Families: {} ({} shots each, seed {}; `--outcome-shots`, `--outcome-seed`).",
            families.join(", "),
            plan.shots,
            plan.seed
        ),
        format!(
            "Engines: {} (the event engine is the reference).",
            plan.engines
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "Chaos floor: every ball moved {} m in a random direction, the cue's speed changed by \
             up to {} relative (`--perturb-position`, `--perturb-speed`); balls the move left \
             overlapping pushed apart to touching.",
            plan.perturbation.position_m, plan.perturbation.speed_rel
        ),
        format!(
            "Final positions agree within {} m (`--position-tol`).",
            plan.position_tol_m
        ),
    ]
}

/// Tallies a study's `outcomes/shots.csv` rows read back (a shard's), shot by shot, and
/// returns the rows of engines that could not run their shot.
///
/// # Errors
/// A row that does not parse, naming the file.
pub fn tally_rows(
    tally: &mut OutcomeTally,
    text: &[u8],
    file: &std::path::Path,
) -> Result<Vec<pool_harness::OutcomeShotRow>, CliError> {
    let mut failed = Vec::new();
    let mut reader = csv::Reader::from_reader(text);
    let mut shot: Vec<pool_harness::OutcomeShotRow> = Vec::new();
    for row in reader.deserialize::<pool_harness::OutcomeShotRow>() {
        let row = row.map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        let same = shot.first().is_some_and(|s| {
            (s.family.as_str(), s.table.as_str(), s.index)
                == (row.family.as_str(), row.table.as_str(), row.index)
        });
        if !same && !shot.is_empty() {
            tally.add_shot(&shot);
            shot.clear();
        }
        if !row.failure.is_empty() {
            failed.push(row.clone());
        }
        shot.push(row);
    }
    tally.add_shot(&shot);
    Ok(failed)
}
