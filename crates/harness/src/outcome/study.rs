//! The whole outcome study as one plan ("does it change the game?"): which families of shots on
//! which tables, which engines, the chaos floor's perturbation; checked once ([`StudyPlan::new`])
//! and run over any range of its jobs ([`StudyPlan::run`]) on a thread pool. The command line
//! (`compare`, `outcomes`) and Python call the same functions; they only parse options and write
//! files.

use std::collections::BTreeMap;
use std::time::Instant;

use pool_discrete::Scheme;
use pool_engines::{EngineSpec, RunOptions};
use pool_sim::{Engine, Outcome, Setup};
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
    /// size out of range, an unknown or repeated family, table or dt, a table a family cannot
    /// be played on, a study too large to run.
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
        engines.extend(options.engines.iter().cloned());
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
                family_shot(kind, &on_table, kind.shot_seed(table, options.seed, 0))
                    .map_err(|e| format!("--outcome-tables {table}: {e}"))?;
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
        ]
    }

    /// Runs jobs `[lo, hi)` (job j is shot `j % shots` of family `j / shots`) on `pool`,
    /// handing every row to `sink` in job order (chunk by chunk, so memory stays bounded for
    /// any range) and calling `progress` with each batch of finished runs; returns the tallies.
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
        let mut result = StudyResult::default();
        let options = RunOptions {
            snapshots: None,
            max_events: Some(self.max_events),
        };
        let build = |spec: &EngineSpec| {
            spec.build_with(&options)
                .map_err(|e| StudyError::Input(format!("--engines = {e}")))
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
                            StudyShot::play(*kind, table, &self.racks[f], j % self.shots, &rules);
                        progress(2);
                        shot.map(|s| (f, s))
                    })
                    .collect::<Result<Vec<_>, StudyError>>()
            })?;
            let chaos: Vec<(usize, Vec<bool>)> = pool.install(|| {
                shots
                    .par_iter()
                    .filter(|(_, s)| s.index < self.chaos_shots)
                    .map(|(f, s)| self.chaos_of(s, reference.as_ref()).map(|c| (*f, c)))
                    .collect::<Result<Vec<_>, StudyError>>()
            })?;
            for (f, changed) in chaos {
                for (k, &c) in changed.iter().enumerate() {
                    let (kind, table) = &self.families[f];
                    add_chaos(&mut result.chaos, kind.name(), table, CHAOS_SIZES[k], c);
                }
            }
            let setups: Vec<Setup> = shots.iter().map(|s| s.1.setup.clone()).collect();
            let families: Vec<usize> = shots.iter().map(|s| s.0).collect();
            let mut by_engine = self.play_engines(&engines, &setups, &families, pool, progress);
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
                    sink(r).map_err(StudyError::Output)?;
                }
            }
            at = end;
        }
        result.chaos = merge_chaos(std::mem::take(&mut result.chaos));
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

    /// Every engine on every shot of a chunk (`families`: each shot's family), in engine order.
    /// In-process engines run one shot per task; programs run in a few batches per family each
    /// (one process per batch, which pays its start-up once), the batches of every program at
    /// once, so that a program waiting on a slow or hung shot holds one worker, not the study.
    fn play_engines(
        &self,
        engines: &[Box<dyn Engine>],
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
            if in_process(spec) {
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

/// One engine's runs of a chunk's shots, in shot order, each with its wall time (s).
type Runs = Vec<(Result<Outcome, pool_sim::EngineError>, f64)>;

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
