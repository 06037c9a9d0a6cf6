//! The whole outcome study as one plan ("does it change the game?"): which families of shots on
//! which tables, which engines, the chaos floor's perturbation; checked once ([`StudyPlan::new`])
//! and run over any range of its jobs ([`StudyPlan::run`]) on a thread pool. The command line
//! (`compare`, `outcomes`) and Python call the same functions; they only parse options and write
//! files.

use std::collections::BTreeMap;
use std::time::Instant;

use pool_discrete::Scheme;
use pool_engines::{EngineSpec, RunOptions};
use pool_sim::{Engine, Outcome, RackModel, Setup};
use rayon::prelude::*;

use super::agreement::{Agreement, Field};
use super::distribution::Margins;
use super::families::{family_shot, FamilyKind};
use super::game::GameOutcome;
use super::perturb::Perturbation;
use super::shot::{StudyError, StudyRules, StudyShot};
use super::tally::{OutcomeShotRow, OutcomeTally, WallRow, FLOOR, REFERENCE};

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
/// Jobs (shots) run at a time: each chunk's rows are handed to the sink before the next starts.
const CHUNK: u64 = 512;

/// What a study is asked for, as plain values (the command line's options, or Python's
/// arguments); [`StudyPlan::new`] checks them.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    /// Family kinds by name ([`FamilyKind::name`]), in run order.
    pub families: Vec<String>,
    /// Built-in tables the families are played on, in run order.
    pub tables: Vec<String>,
    /// Shots per family, 1 to [`MAX_SHOTS`].
    pub shots: u64,
    /// Seed of the shots.
    pub seed: u64,
    /// Time steps (s) of the fixed-step schemes, each in [1e-7, 1], at most [`MAX_DTS`].
    pub dts: Vec<f64>,
    /// The fixed-step schemes played at every dt.
    pub schemes: Vec<Scheme>,
    /// More engines, after the schemes.
    pub engines: Vec<EngineSpec>,
    /// The chaos floor's perturbation.
    pub perturbation: Perturbation,
    /// Final positions within this distance (m) agree, in (0, 1].
    pub position_tol_m: f64,
    /// Event budget of every run.
    pub max_events: usize,
    /// Equivalence margins of the verdicts.
    pub margins: Margins,
    /// Shots per family whose reference is also played perturbed at every size of
    /// [`CHAOS_SIZES`] (the chaos curve), at most `shots`; 0 for none.
    pub chaos_shots: u64,
    /// How the breaks' racks are placed ([`pool_sim::DEFAULT_RACK`] for real racks).
    pub rack: RackModel,
}

/// The perturbation sizes (m) of the chaos curve: 1e-12 to 1e-3 m, a decade apart.
pub const CHAOS_SIZES: [f64; 10] = [
    1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
];

/// One point of the chaos curve (`chaos.csv`): how often the reference's outcome changes when
/// every ball of the shot is moved by `perturbation_m` (the cue's speed untouched).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChaosRow {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Distance every ball is moved (m), in a random direction.
    pub perturbation_m: f64,
    /// Shots.
    pub n: u64,
    /// Shots whose outcome (first contact, pocketed balls and pockets, scratch, end) changed.
    pub changed: u64,
    /// changed / n.
    pub rate: f64,
    /// Wilson 95 % interval of the rate.
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
}

/// Sums chaos rows of the same family, table and size (a study's pieces) and recomputes their
/// rates, in first-seen order.
pub fn merge_chaos(rows: impl IntoIterator<Item = ChaosRow>) -> Vec<ChaosRow> {
    let mut out: Vec<ChaosRow> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|o| {
            (
                o.family.as_str(),
                o.table.as_str(),
                o.perturbation_m.to_bits(),
            ) == (
                r.family.as_str(),
                r.table.as_str(),
                r.perturbation_m.to_bits(),
            )
        }) {
            Some(o) => {
                o.n += r.n;
                o.changed += r.changed;
            }
            None => out.push(r),
        }
    }
    for o in &mut out {
        o.rate = if o.n == 0 {
            f64::NAN
        } else {
            o.changed as f64 / o.n as f64
        };
        (o.ci_low, o.ci_high) = super::stats::wilson_interval(o.changed, o.n);
    }
    out
}

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
    /// Equivalence margins of the verdicts.
    pub margins: Margins,
    /// Shots per family of the chaos curve (at most `shots`).
    pub chaos_shots: u64,
    /// How the breaks' racks are placed.
    pub rack: RackModel,
}

/// An engine's runs declined as outside its model (not a defect: the study's shots are pool
/// shots, and an engine of the ideal model declines them all).
#[derive(Debug, Clone, PartialEq)]
pub struct Decline {
    /// The engine's spec, as the study names its run.
    pub engine: String,
    /// Runs it declined.
    pub runs: u64,
    /// The first declined run's reason, without the shot's name.
    pub reason: String,
}

impl Decline {
    /// Counts one declined run of `engine` in `list`, keeping the first `reason` (its first
    /// line, after a leading `shot "<name>": `).
    pub fn note(list: &mut Vec<Decline>, engine: &str, reason: &str) {
        if let Some(d) = list.iter_mut().find(|d| d.engine == engine) {
            d.runs += 1;
            return;
        }
        let line = reason.lines().next().unwrap_or("").trim();
        let line = match line.strip_prefix("shot \"") {
            Some(rest) => rest.split_once("\": ").map_or(line, |(_, r)| r),
            None => line,
        };
        list.push(Decline {
            engine: engine.to_string(),
            runs: 1,
            reason: line.to_string(),
        });
    }

    /// One line: `` `exec:prog` declined 800 run(s): only the ideal model ``.
    pub fn line(&self) -> String {
        format!(
            "`{}` declined {} run(s) as outside its model: {}",
            self.engine, self.runs, self.reason
        )
    }
}

/// What a study (or a piece of one) produced.
#[derive(Debug, Default)]
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
    /// The chaos curve's counts over the jobs run ([`merge_chaos`] joins pieces).
    pub chaos: Vec<ChaosRow>,
}

impl StudyPlan {
    /// The checked plan of `options`; `racks(table)` gives the 9- and 15-ball racks on a
    /// built-in table (or why there are none).
    ///
    /// # Errors
    /// One line naming the option (as the command line spells it) and its value: a count or a
    /// size out of range, an unknown or repeated family, table, dt or engine (an `engines` spec
    /// that is one of `schemes` at a dt, or given twice), a table a family cannot be played on,
    /// a study too large to run.
    pub fn new(
        options: &StudyOptions,
        racks: &dyn Fn(&str) -> Result<[Setup; 2], String>,
    ) -> Result<StudyPlan, String> {
        let shots = options.shots;
        if !(1..=MAX_SHOTS).contains(&shots) {
            return Err(format!(
                "--outcome-shots = {shots}: must be 1 to {MAX_SHOTS}"
            ));
        }
        let perturbation = options.perturbation;
        perturbation.validate().map_err(|(which, v, max)| {
            format!("--perturb-{which} = {v:?}: must be a number in [0, {max}]")
        })?;
        options.margins.validate()?;
        options
            .rack
            .validate()
            .map_err(|e| format!("--rack {}: {e}", options.rack))?;
        if !(options.position_tol_m > 0.0 && options.position_tol_m <= 1.0) {
            return Err(format!(
                "--position-tol = {:?}: must be a number in (0, 1] m",
                options.position_tol_m
            ));
        }
        let dts = &options.dts;
        if dts.len() > MAX_DTS {
            return Err(format!(
                "--outcome-dt: {} time steps, more than the {MAX_DTS} a study may have",
                dts.len()
            ));
        }
        let mut engines = Vec::new();
        for &scheme in &options.schemes {
            for (k, &dt) in dts.iter().enumerate() {
                if dts[..k].contains(&dt) {
                    return Err(format!("--outcome-dt = {dt:?}: given twice"));
                }
                engines.push(
                    EngineSpec::discrete(dt, scheme).map_err(|e| format!("--outcome-dt = {e}"))?,
                );
            }
        }
        for spec in &options.engines {
            // A run twice would count its shots twice: n doubled, an interval too narrow.
            let name = spec.to_string();
            if engines.iter().any(|e| e.to_string() == name) {
                return Err(format!(
                    "--engines {name}: already in the study (given twice, or one of --schemes at \
                     an --outcome-dt); each engine is played once"
                ));
            }
            engines.push(spec.clone());
        }
        let mut kinds = Vec::new();
        for name in &options.families {
            let kind = FamilyKind::from_name(name.trim()).ok_or_else(|| {
                format!(
                    "--outcome-families: unknown family {name:?} (expected some of {})",
                    FamilyKind::ALL.map(|k| k.name()).join(", ")
                )
            })?;
            if kinds.contains(&kind) {
                return Err(format!("--outcome-families: {name:?} given twice"));
            }
            kinds.push(kind);
        }
        let mut families = Vec::new();
        let mut on_tables = Vec::new();
        for (k, table) in options.tables.iter().enumerate() {
            let table = table.trim();
            if options.tables[..k].iter().any(|t| t.trim() == table) {
                return Err(format!("--outcome-tables: {table:?} given twice"));
            }
            let on_table = racks(table)?;
            for &kind in &kinds {
                // One shot of each family now: a table it cannot be played on is bad input.
                family_shot(
                    kind,
                    &on_table,
                    &options.rack,
                    kind.shot_seed(table, options.seed, 0),
                )
                .map_err(|e| format!("--outcome-tables {table} / --rack {}: {e}", options.rack))?;
                families.push((kind, table.to_string()));
                on_tables.push(on_table.clone());
            }
        }
        if families.is_empty() {
            return Err("--outcome-families / --outcome-tables: no family to play".into());
        }
        let plan = StudyPlan {
            families,
            racks: on_tables,
            shots,
            seed: options.seed,
            reference: EngineSpec::reference(),
            engines,
            perturbation,
            position_tol_m: options.position_tol_m,
            max_events: options.max_events,
            margins: options.margins,
            chaos_shots: options.chaos_shots.min(shots),
            rack: options.rack,
        };
        plan.check_work()?;
        Ok(plan)
    }

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
    fn check_work(&self) -> Result<(), String> {
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
            return Err(format!(
                "--outcome-shots = {}: the study would take about {work:.1e} ball-steps (shots x \
                 balls x {SHOT_SECONDS} s / dt), more than the {MAX_STUDY_BALL_STEPS:.0e} one run \
                 may; fewer shots, fewer families or larger --outcome-dt",
                self.shots
            ));
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
            ("--margin-rate".into(), format!("{:?}", self.margins.rate)),
            ("--margin-balls".into(), format!("{:?}", self.margins.balls)),
            (
                "--margin-position".into(),
                format!("{:?}", self.margins.position_m),
            ),
            ("--margin-floor".into(), format!("{:?}", self.margins.floor)),
            ("--chaos-shots".into(), self.chaos_shots.to_string()),
            ("--rack".into(), self.rack.to_string()),
        ]
    }

    /// The study's set-up, one sentence each, for its report.
    pub fn describe(&self) -> Vec<String> {
        let mut families: Vec<String> = Vec::new();
        for (kind, table) in &self.families {
            let f = format!("{} on {table}", kind.name());
            if !families.contains(&f) {
                families.push(f);
            }
        }
        vec![
            format!(
                "Families: {} ({} shots each, seed {}; `--outcome-shots`, `--outcome-seed`).",
                families.join(", "),
                self.shots,
                self.seed
            ),
            format!(
                "Engines: {} (the event engine is the reference).",
                self.engines
                    .iter()
                    .map(|e| format!("`{e}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "Chaos floor: every ball moved {} m in a random direction, the cue's speed changed \
                 by up to {} relative (`--perturb-position`, `--perturb-speed`); balls the move \
                 left overlapping pushed apart to touching.",
                self.perturbation.position_m, self.perturbation.speed_rel
            ),
            format!(
                "Final positions agree within {} m (`--position-tol`).",
                self.position_tol_m
            ),
            format!(
                "Breaks racked by `{}` (`--rack`: lattice:<gap>, frozen or jittered:<scale>).",
                self.rack
            ),
        ]
    }

    /// Runs jobs `[lo, hi)` (job j is shot `j % shots` of family `j / shots`) on `pool`,
    /// handing every row to `sink` in job order (chunk by chunk, so memory stays bounded for
    /// any range) and calling `progress` with each batch of finished runs; returns the tallies.
    /// Every engine plays every shot: one look ([`StudyPlan::run_sequential`] adds shots where
    /// verdicts are undecided).
    ///
    /// # Errors
    /// [`StudyError::Input`] for an engine that cannot be built, [`StudyError::Perturbation`]
    /// for a shot the perturbation cannot keep playable, [`StudyError::Run`] for a reference
    /// run that did not end physically (a defect of the event engine: the shot is named),
    /// [`StudyError::Output`] for what `sink` refused.
    pub fn run(
        &self,
        lo: u64,
        hi: u64,
        pool: &rayon::ThreadPool,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<StudyResult, StudyError> {
        let mut runner = Runner::new(self, pool, progress)?;
        let all = vec![true; self.engines.len()];
        let mut at = lo;
        while at < hi {
            let end = hi.min(at + CHUNK);
            let jobs: Vec<(usize, u64)> = (at..end)
                .map(|j| ((j / self.shots) as usize, j % self.shots))
                .collect();
            runner.play(&jobs, &all, sink)?;
            at = end;
        }
        Ok(runner.finish())
    }

    /// The whole study, sequentially: each family plays its first `shots` shots with every
    /// engine, then, while an in-process engine's verdict ([`super::DistributionTally::evaluate`]) is
    /// undecided and `budget` allows, doubles its shots for those engines (and the reference
    /// and the floor); programs play the first look only. Looks are spent as
    /// [`super::sequential`] says, so the error rate holds whenever the study stops. Looks go
    /// round the families (every family's first look, then every undecided family's second,
    /// ...), so a time budget is shared; rows go to `sink` look by look, each look's in shot
    /// order: the rows a one-look run of the same shots would give, less the runs of engines
    /// that had already decided.
    ///
    /// # Errors
    /// As [`StudyPlan::run`].
    pub fn run_sequential(
        &self,
        budget: &Budget,
        pool: &rayon::ThreadPool,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<StudyResult, StudyError> {
        let start = Instant::now();
        let mut runner = Runner::new(self, pool, progress)?;
        let max = budget.shots.max(self.shots);
        // Per family: which engines still sample, and the shots played. Looks go round the
        // families, so a time budget is shared among them rather than spent on the first.
        let mut active = vec![vec![true; self.engines.len()]; self.families.len()];
        let mut done = vec![0u64; self.families.len()];
        let mut look = 0u32;
        loop {
            look += 1;
            let mut any = false;
            for (f, (kind, table)) in self.families.iter().enumerate() {
                let out_of_time = budget
                    .seconds
                    .is_some_and(|s| start.elapsed().as_secs_f64() >= s);
                if look > 1 && (!active[f].contains(&true) || done[f] >= max || out_of_time) {
                    continue;
                }
                let next = if look == 1 {
                    self.shots
                } else {
                    (done[f] * 2).min(max)
                };
                for at in (done[f]..next).step_by(CHUNK as usize) {
                    let jobs: Vec<(usize, u64)> =
                        (at..next.min(at + CHUNK)).map(|k| (f, k)).collect();
                    runner.play(&jobs, &active[f], sink)?;
                }
                done[f] = next;
                let tally = runner.result.tally.distribution_mut();
                tally.set_looks(kind.name(), table, FLOOR, look);
                for (e, spec) in self.engines.iter().enumerate() {
                    if active[f][e] {
                        tally.set_looks(kind.name(), table, &spec.to_string(), look);
                    }
                }
                let (_, verdicts) = runner.result.tally.distribution().evaluate_family(
                    kind.name(),
                    table,
                    &self.margins,
                    false,
                    self.seed,
                );
                for (e, spec) in self.engines.iter().enumerate() {
                    let undecided = verdicts.iter().any(|v| {
                        v.engine == spec.family()
                            && v.scheme == spec.variant()
                            && v.dt_s == spec.dt()
                            && v.undecided()
                    });
                    active[f][e] = active[f][e] && !is_program(spec) && undecided;
                }
                any |= active[f].contains(&true) && done[f] < max;
            }
            let out_of_time = budget
                .seconds
                .is_some_and(|s| start.elapsed().as_secs_f64() >= s);
            if !any || out_of_time {
                break;
            }
        }
        Ok(runner.finish())
    }

    /// Every engine on every shot of a chunk (`families`: each shot's family), in engine order.
    /// In-process engines run one shot per task; programs run in a few batches per family each
    /// (on processes kept from batch to batch, [`RunOptions::keep_sessions`]: the start-up is
    /// paid once per worker, not per batch), the batches of every program at once, so that a
    /// program waiting on a slow or hung shot holds one worker, not the study.
    fn play_engines(
        &self,
        engines: &[Box<dyn Engine>],
        active: &[bool],
        setups: &[Setup],
        families: &[usize],
        pool: &rayon::ThreadPool,
        progress: &(dyn Fn(u64) + Sync),
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
            .filter(|&e| active[e] && !in_process(&self.engines[e]))
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
                    progress(batch.len() as u64);
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
            if active[e] && in_process(spec) {
                out[e] = pool.install(|| {
                    setups
                        .par_iter()
                        .map(|s| {
                            let t = Instant::now();
                            let o = engines[e].try_run(s);
                            progress(1);
                            (o, t.elapsed().as_secs_f64())
                        })
                        .collect()
                });
            }
        }
        out
    }
}

impl StudyPlan {
    /// Whether the reference's outcome of `shot` changes when its balls are moved by each of
    /// [`CHAOS_SIZES`] (seeded by the shot, the cue's speed untouched).
    fn chaos_of(&self, shot: &StudyShot, reference: &dyn Engine) -> Result<Vec<bool>, StudyError> {
        let seed = shot.kind.shot_seed(&shot.table, self.seed, shot.index);
        CHAOS_SIZES
            .iter()
            .map(|&size| {
                let p = Perturbation {
                    position_m: size,
                    speed_rel: 0.0,
                };
                let moved = super::perturb::perturb(&shot.setup, &p, seed ^ 0xC4A0_5C0B)
                    .map_err(|e| StudyError::Run(format!("chaos curve at {size:e} m: {e}")))?;
                let game = GameOutcome::of(&moved, &reference.run(&moved));
                Ok(
                    Agreement::between(&shot.reference, &game, self.position_tol_m)
                        .disagrees(Field::Outcome),
                )
            })
            .collect()
    }
}

fn add_chaos(rows: &mut Vec<ChaosRow>, family: &str, table: &str, size: f64, changed: bool) {
    let row = match rows.iter_mut().find(|r| {
        r.family == family && r.table == table && r.perturbation_m.to_bits() == size.to_bits()
    }) {
        Some(r) => r,
        None => {
            rows.push(ChaosRow {
                family: family.into(),
                table: table.into(),
                perturbation_m: size,
                n: 0,
                changed: 0,
                rate: f64::NAN,
                ci_low: f64::NAN,
                ci_high: f64::NAN,
            });
            rows.last_mut().expect("just pushed")
        }
    };
    row.n += 1;
    row.changed += u64::from(changed);
}

/// How far a sequential study may go: shots per family and wall seconds (no look starts
/// after them; every family plays its first look).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Most shots per family.
    pub shots: u64,
    /// Most wall seconds of the whole study, if any.
    pub seconds: Option<f64>,
}

impl std::str::FromStr for Budget {
    type Err = String;

    /// `<shots>`, `<seconds>s`, or `<shots>,<seconds>s` (shots 1 to [`MAX_SHOTS`], seconds in
    /// (0, 1e6]); a budget of seconds alone allows [`MAX_SHOTS`] shots.
    fn from_str(text: &str) -> Result<Self, String> {
        let mut budget = Budget {
            shots: MAX_SHOTS,
            seconds: None,
        };
        let mut any = false;
        for part in text.split(',').map(str::trim) {
            any = true;
            if let Some(secs) = part.strip_suffix('s') {
                let v: f64 = secs
                    .parse()
                    .map_err(|_| format!("{part:?} is not a number of seconds"))?;
                if !(v > 0.0 && v <= 1e6) {
                    return Err(format!("{part:?}: seconds must be in (0, 1e6]"));
                }
                budget.seconds = Some(v);
            } else {
                let v: u64 = part
                    .parse()
                    .map_err(|_| format!("{part:?} is not a count of shots or <N>s"))?;
                if !(1..=MAX_SHOTS).contains(&v) {
                    return Err(format!("{part:?}: shots must be 1 to {MAX_SHOTS}"));
                }
                budget.shots = v;
            }
        }
        if !any || text.trim().is_empty() {
            return Err("empty budget".into());
        }
        Ok(budget)
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seconds {
            Some(s) => write!(f, "{},{s}s", self.shots),
            None => write!(f, "{}", self.shots),
        }
    }
}

/// The engines of a study, built once, and what its runs have produced so far.
struct Runner<'a> {
    plan: &'a StudyPlan,
    pool: &'a rayon::ThreadPool,
    progress: &'a (dyn Fn(u64) + Sync),
    reference: Box<dyn Engine>,
    engines: Vec<Box<dyn Engine>>,
    wall: BTreeMap<(usize, usize), WallSum>,
    result: StudyResult,
}

impl<'a> Runner<'a> {
    fn new(
        plan: &'a StudyPlan,
        pool: &'a rayon::ThreadPool,
        progress: &'a (dyn Fn(u64) + Sync),
    ) -> Result<Self, StudyError> {
        // Programs run many batches here (chunks, families, looks): each keeps its processes
        // (one per worker at most) until the runner is dropped, paying its start-up once.
        let options = RunOptions {
            snapshots: None,
            max_events: Some(plan.max_events),
            keep_sessions: true,
        };
        let build = |spec: &EngineSpec| {
            spec.build_with(&options)
                .map_err(|e| StudyError::Input(format!("--engines = {e}")))
        };
        Ok(Runner {
            plan,
            pool,
            progress,
            reference: build(&plan.reference)?,
            engines: plan
                .engines
                .iter()
                .map(build)
                .collect::<Result<Vec<_>, _>>()?,
            wall: BTreeMap::new(),
            result: StudyResult::default(),
        })
    }

    /// Plays `jobs` ((family, shot index), in order) with the reference, the floor and the
    /// engines `active` says, tallies them and hands their rows to `sink`.
    fn play(
        &mut self,
        jobs: &[(usize, u64)],
        active: &[bool],
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
    ) -> Result<(), StudyError> {
        let plan = self.plan;
        let (pool, progress) = (self.pool, self.progress);
        let rules = StudyRules {
            seed: plan.seed,
            perturbation: plan.perturbation,
            position_tol_m: plan.position_tol_m,
            rack: plan.rack,
            reference: (self.reference.as_ref(), &plan.reference),
        };
        let mut shots = pool.install(|| {
            jobs.par_iter()
                .map(|&(f, k)| {
                    let (kind, table) = &plan.families[f];
                    let shot = StudyShot::play(*kind, table, &plan.racks[f], k, &rules);
                    progress(2);
                    shot.map(|s| (f, s))
                })
                .collect::<Result<Vec<_>, StudyError>>()
        })?;
        let reference = self.reference.as_ref();
        let chaos: Vec<(usize, Vec<bool>)> = pool.install(|| {
            shots
                .par_iter()
                .filter(|(_, s)| s.index < plan.chaos_shots)
                .map(|(f, s)| plan.chaos_of(s, reference).map(|c| (*f, c)))
                .collect::<Result<Vec<_>, StudyError>>()
        })?;
        for (f, changed) in chaos {
            for (k, &c) in changed.iter().enumerate() {
                let (kind, table) = &plan.families[f];
                add_chaos(
                    &mut self.result.chaos,
                    kind.name(),
                    table,
                    CHAOS_SIZES[k],
                    c,
                );
            }
        }
        let setups: Vec<Setup> = shots.iter().map(|s| s.1.setup.clone()).collect();
        let families: Vec<usize> = shots.iter().map(|s| s.0).collect();
        let mut by_engine =
            plan.play_engines(&self.engines, active, &setups, &families, pool, progress);
        for (e, spec) in plan.engines.iter().enumerate() {
            if !active[e] {
                continue;
            }
            let runs = std::mem::take(&mut by_engine[e]);
            for ((f, shot), (run, secs)) in shots.iter_mut().zip(runs) {
                match &run {
                    Ok(o) => add_wall(&mut self.wall, (*f, 2 + e), secs, o.engine_s),
                    Err(err) if err.unsupported => {
                        Decline::note(&mut self.result.declined, &spec.to_string(), &err.message)
                    }
                    Err(err) => {
                        self.result.failed += 1;
                        if self.result.failures.len() < 10 {
                            self.result.failures.push(format!(
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
            add_wall(&mut self.wall, (*f, 0), shot.wall_s[0], None);
            add_wall(&mut self.wall, (*f, 1), shot.wall_s[1], None);
            self.result.tally.add_shot(&shot.rows);
            for r in &shot.rows {
                sink(r).map_err(StudyError::Output)?;
            }
        }
        Ok(())
    }

    fn finish(mut self) -> StudyResult {
        let plan = self.plan;
        self.result.chaos = merge_chaos(std::mem::take(&mut self.result.chaos));
        self.result.wall = std::mem::take(&mut self.wall)
            .into_iter()
            .map(|((f, r), w)| WallRow {
                family: plan.families[f].0.name().into(),
                table: plan.families[f].1.clone(),
                run: match r {
                    0 => REFERENCE.into(),
                    1 => FLOOR.into(),
                    e => plan.engines[e - 2].to_string(),
                },
                shots: w.shots,
                wall_s: w.wall_s,
                engine_s: (w.engine_shots == w.shots).then_some(w.engine_s),
            })
            .collect();
        self.result
    }
}

/// One engine's runs of a chunk's shots, in shot order, each with its wall time (s).
type Runs = Vec<(Result<Outcome, pool_sim::EngineError>, f64)>;

/// One run's timing on one family so far: shots, their wall time (s), and the engine time
/// (s) of those that reported one.
#[derive(Default)]
struct WallSum {
    shots: u64,
    wall_s: f64,
    engine_shots: u64,
    engine_s: f64,
}

fn add_wall(
    wall: &mut BTreeMap<(usize, usize), WallSum>,
    key: (usize, usize),
    secs: f64,
    engine_s: Option<f64>,
) {
    let w = wall.entry(key).or_default();
    w.shots += 1;
    w.wall_s += secs;
    if let Some(e) = engine_s {
        w.engine_shots += 1;
        w.engine_s += e;
    }
}

/// Whether an engine is a program or a peer (a process of its own, slow per shot): it plays a
/// sequential study's first look only.
fn is_program(spec: &EngineSpec) -> bool {
    matches!(
        spec,
        EngineSpec::Exec { .. } | EngineSpec::Pooltool | EngineSpec::Peer { .. }
    )
}

/// Whether an engine runs in this process (one shot per task) rather than as a program (in
/// batches, on processes kept between them).
fn in_process(spec: &EngineSpec) -> bool {
    matches!(
        spec,
        EngineSpec::Event { .. } | EngineSpec::Discrete { .. } | EngineSpec::Rapier { .. }
    )
}

/// Tallies a study's `outcomes/shots.csv` rows read back (a shard's), shot by shot, and
/// returns the rows of engines that could not run their shot.
///
/// # Errors
/// A row that does not parse (the CSV reader's message).
pub fn tally_shot_rows(
    tally: &mut OutcomeTally,
    rows: impl IntoIterator<Item = Result<OutcomeShotRow, String>>,
) -> Result<Vec<OutcomeShotRow>, String> {
    let mut failed = Vec::new();
    let mut shot: Vec<OutcomeShotRow> = Vec::new();
    for row in rows {
        let row = row?;
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
