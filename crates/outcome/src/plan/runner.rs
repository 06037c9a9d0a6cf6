//! Playing the study's shots: the reference and the floor on each shot, then every engine a
//! look asks for on it, tallied and handed to a sink row by row. One look of the whole plan
//! ([`crate::plan::study::StudyPlan::run`]) and the sequential looks ([`crate::plan::looks`]) both play through a
//! [`Runner`], which builds every engine once, so that a program's session and an engine's
//! start-up serve every look.

use std::collections::BTreeMap;
use std::time::Instant;

use pool_engines::{EngineSpec, RunOptions};
use pool_sim::{Engine, Outcome, Setup};
use rayon::prelude::*;

use crate::game::agreement::{Agreement, Field};
use crate::game::outcome::GameOutcome;
use crate::game::perturb::Perturbation;
use crate::plan::shot::{StudyError, StudyRules, StudyShot};
use crate::plan::study::{ChaosRow, Decline, StudyPlan, StudyResult, CHAOS_SIZES};
use crate::tally::rows::{OutcomeShotRow, Run, WallRow};

/// A run's result and its wall time (s).
type TimedRun = (Result<Outcome, pool_sim::EngineError>, f64);

/// Shots played at a time: each chunk's rows are handed to the sink before the next starts.
pub(crate) const CHUNK: u64 = 512;

/// The engines of a study, built once, and what its runs have produced so far. Engine `e` is
/// `specs[e]`: the plan's engines first, then those a search added.
pub(crate) struct Runner<'a> {
    pub(crate) plan: &'a StudyPlan,
    pool: &'a rayon::ThreadPool,
    progress: &'a (dyn Fn(u64) + Sync),
    options: RunOptions,
    reference: Box<dyn Engine>,
    pub(crate) specs: Vec<EngineSpec>,
    engines: Vec<Box<dyn Engine>>,
    /// Per (family, run: 0 the reference, 1 the floor, 2 + e engine e).
    wall: BTreeMap<(usize, usize), WallSum>,
    pub(crate) result: StudyResult,
}

impl<'a> Runner<'a> {
    /// The plan's engines, built (a program's sessions kept open between batches).
    ///
    /// # Errors
    /// [`StudyError::Input`] for an engine that cannot be built.
    pub(crate) fn new(
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
        let mut runner = Runner {
            plan,
            pool,
            progress,
            options,
            reference: build(&plan.reference, &options)?,
            specs: Vec::new(),
            engines: Vec::new(),
            wall: BTreeMap::new(),
            result: StudyResult {
                tally: crate::tally::changes::OutcomeTally::new(plan.levels()),
                ..StudyResult::default()
            },
        };
        for spec in &plan.engines {
            runner.add_engine(spec.clone())?;
        }
        Ok(runner)
    }

    /// Engine `spec`'s index, building it when it is new.
    ///
    /// # Errors
    /// [`StudyError::Input`] when it cannot be built.
    pub(crate) fn add_engine(&mut self, spec: EngineSpec) -> Result<usize, StudyError> {
        if let Some(e) = self.specs.iter().position(|s| *s == spec) {
            return Ok(e);
        }
        self.engines.push(build(&spec, &self.options)?);
        self.specs.push(spec);
        Ok(self.specs.len() - 1)
    }

    /// Builds the engines of `specs` beyond those built (a state's engines: the plan's, then
    /// those a search added, in order).
    ///
    /// # Errors
    /// [`StudyError::Input`] for an engine that cannot be built, or engines built that are not
    /// the first of `specs`.
    pub(crate) fn build(&mut self, specs: &[EngineSpec]) -> Result<(), StudyError> {
        if specs.len() < self.specs.len() || specs[..self.specs.len()] != self.specs[..] {
            return Err(StudyError::Input(
                "a study state whose engines are not the study's".into(),
            ));
        }
        for spec in &specs[self.specs.len()..] {
            self.add_engine(spec.clone())?;
        }
        Ok(())
    }

    /// Engine `e`'s wall time per shot (s) on family `f` so far, if it has played there.
    pub(crate) fn cost_per_shot(&self, f: usize, e: usize) -> Option<f64> {
        self.wall
            .get(&(f, 2 + e))
            .filter(|w| w.shots > 0)
            .map(|w| w.wall_s / w.shots as f64)
    }

    /// Plays shots `ks` of family `f` (in order): the reference and the floor on each, and
    /// engine `e` on shot `k` where `plays(e, k)`. Shots below `played` were played by the
    /// reference and the floor before: their rows are not handed to `sink` again, nor counted
    /// again, but pair the engines' new rows. Rows go to `sink` shot by shot, in shot order:
    /// the reference's and the floor's (new shots), then the engines' in engine order.
    ///
    /// # Errors
    /// As [`StudyPlan::run`].
    pub(crate) fn play(
        &mut self,
        f: usize,
        ks: &[u64],
        plays: &dyn Fn(usize, u64) -> bool,
        played: u64,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
    ) -> Result<(), StudyError> {
        for chunk in ks.chunks(CHUNK as usize) {
            self.play_chunk(f, chunk, plays, played, sink)?;
        }
        Ok(())
    }

    fn play_chunk(
        &mut self,
        f: usize,
        ks: &[u64],
        plays: &dyn Fn(usize, u64) -> bool,
        played: u64,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
    ) -> Result<(), StudyError> {
        let plan = self.plan;
        let (pool, progress) = (self.pool, self.progress);
        let (kind, table) = &plan.families[f];
        let rules = StudyRules {
            seed: plan.seed,
            perturbation: plan.perturbation,
            position_tol_m: plan.position_tol_m,
            rack: plan.rack,
            reference: (self.reference.as_ref(), &plan.reference),
        };
        let mut shots = pool.install(|| {
            ks.par_iter()
                .map(|&k| {
                    let shot = StudyShot::play(*kind, table, &plan.racks[f], k, &rules);
                    progress(u64::from(k >= played) * 2);
                    shot
                })
                .collect::<Result<Vec<_>, StudyError>>()
        })?;
        let reference = self.reference.as_ref();
        let chaos: Vec<Vec<bool>> = pool.install(|| {
            shots
                .par_iter()
                .filter(|s| s.index >= played && s.index < plan.chaos_shots)
                .map(|s| {
                    let changed = chaos_of(plan, s, reference);
                    progress(CHAOS_SIZES.len() as u64);
                    changed
                })
                .collect::<Result<Vec<_>, StudyError>>()
        })?;
        for changed in chaos {
            for (k, &c) in changed.iter().enumerate() {
                add_chaos(
                    &mut self.result.chaos,
                    kind.name(),
                    table,
                    CHAOS_SIZES[k],
                    c,
                );
            }
        }
        // Which shot positions each engine plays.
        let wanted: Vec<Vec<usize>> = (0..self.specs.len())
            .map(|e| {
                (0..shots.len())
                    .filter(|&i| plays(e, shots[i].index))
                    .collect()
            })
            .collect();
        let setups: Vec<Setup> = shots.iter().map(|s| s.setup.clone()).collect();
        let mut by_engine =
            play_engines(&self.specs, &self.engines, &wanted, &setups, pool, progress);
        let mut rows_of: Vec<Vec<OutcomeShotRow>> = shots.iter().map(|_| Vec::new()).collect();
        for (e, spec) in self.specs.iter().enumerate() {
            let runs = std::mem::take(&mut by_engine[e]);
            for (&i, (run, secs)) in wanted[e].iter().zip(runs) {
                let shot = &mut shots[i];
                match &run {
                    Ok(o) => add_wall(&mut self.wall, (f, 2 + e), secs, o.engine_s),
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
                                one_line(&err.message)
                            ));
                        }
                    }
                }
                shot.add(spec, &run);
                rows_of[i].push(shot.rows.pop().expect("just added"));
            }
        }
        for (shot, engine_rows) in shots.iter().zip(rows_of) {
            let new = shot.index >= played;
            if new {
                add_wall(&mut self.wall, (f, 0), shot.wall_s[0], None);
                add_wall(&mut self.wall, (f, 1), shot.wall_s[1], None);
            }
            let mut rows = shot.rows.clone();
            rows.extend(engine_rows);
            self.result.tally.add_shot_counting(&rows, new);
            for r in rows
                .iter()
                .filter(|r| new || (r.run != Run::Reference && r.run != Run::Floor))
            {
                sink(r).map_err(StudyError::Output)?;
            }
        }
        Ok(())
    }

    /// The result, its chaos rows merged and its timings as rows.
    pub(crate) fn finish(mut self) -> StudyResult {
        let plan = self.plan;
        self.result.chaos = crate::plan::study::merge_chaos(std::mem::take(&mut self.result.chaos));
        let specs = &self.specs;
        self.result.wall = std::mem::take(&mut self.wall)
            .into_iter()
            .map(|((f, r), w)| WallRow {
                family: plan.families[f].0.name().into(),
                table: plan.families[f].1.clone(),
                run: match r {
                    0 => Run::Reference,
                    1 => Run::Floor,
                    e => Run::engine(&specs[e - 2]),
                },
                shots: w.shots,
                wall_s: w.wall_s,
                engine_s: (w.engine_shots == w.shots).then_some(w.engine_s),
            })
            .collect();
        self.result
    }
}

fn build(spec: &EngineSpec, options: &RunOptions) -> Result<Box<dyn Engine>, StudyError> {
    spec.build_with(options)
        .map_err(|e| StudyError::Input(format!("engine {e}")))
}

/// One engine's runs of a chunk's shots, in shot order, each with its wall time (s).
type Runs = Vec<(Result<Outcome, pool_sim::EngineError>, f64)>;

/// Every engine on the shots `wanted` says (positions into `setups`), in engine order. In-process
/// engines run one shot per task; programs run in a few batches each, on processes kept from
/// batch to batch ([`RunOptions::keep_sessions`]: the start-up is paid once per worker, not per
/// batch or look), the batches of every program at once, so that a program waiting on a slow
/// or hung shot holds one worker, not the study.
fn play_engines(
    specs: &[EngineSpec],
    engines: &[Box<dyn Engine>],
    wanted: &[Vec<usize>],
    setups: &[Setup],
    pool: &rayon::ThreadPool,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<Runs> {
    let threads = pool.current_num_threads();
    let batches: Vec<(usize, &[usize])> = (0..specs.len())
        .filter(|&e| !in_process(&specs[e]) && !wanted[e].is_empty())
        .flat_map(|e| {
            let size = wanted[e].len().div_ceil(threads).max(1);
            wanted[e].chunks(size).map(move |c| (e, c))
        })
        .collect();
    let programs: Vec<(usize, Runs)> = pool.install(|| {
        batches
            .par_iter()
            .with_max_len(1)
            .map(|&(e, at)| {
                let batch: Vec<Setup> = at.iter().map(|&i| setups[i].clone()).collect();
                let t = Instant::now();
                let outs = engines[e].try_run_all(&batch);
                let each = t.elapsed().as_secs_f64() / batch.len() as f64;
                progress(batch.len() as u64);
                (e, outs.into_iter().map(|o| (o, each)).collect())
            })
            .collect()
    });
    let mut out: Vec<Runs> = (0..specs.len()).map(|_| Vec::new()).collect();
    for (e, runs) in programs {
        out[e].extend(runs);
    }
    let local: Vec<(usize, usize)> = (0..specs.len())
        .filter(|&e| in_process(&specs[e]))
        .flat_map(|e| wanted[e].iter().map(move |&i| (e, i)))
        .collect();
    let ran: Vec<(usize, TimedRun)> = pool.install(|| {
        local
            .par_iter()
            .map(|&(e, i)| {
                let t = Instant::now();
                let o = engines[e].try_run(&setups[i]);
                progress(1);
                (e, (o, t.elapsed().as_secs_f64()))
            })
            .collect()
    });
    for (e, run) in ran {
        out[e].push(run);
    }
    out
}

/// Whether an engine runs in this process (one shot per task) rather than as a program (a
/// batch per session, which pays its start-up once).
pub(crate) fn in_process(spec: &EngineSpec) -> bool {
    matches!(
        spec,
        EngineSpec::Event { .. } | EngineSpec::Discrete { .. } | EngineSpec::Rapier { .. }
    )
}

/// Whether the reference's outcome of `shot` changes when its balls are moved by each of
/// [`CHAOS_SIZES`] (seeded by the shot, the cue's speed untouched).
fn chaos_of(
    plan: &StudyPlan,
    shot: &StudyShot,
    reference: &dyn Engine,
) -> Result<Vec<bool>, StudyError> {
    let seed = shot.kind.shot_seed(&shot.table, plan.seed, shot.index);
    CHAOS_SIZES
        .iter()
        .map(|&size| {
            let p = Perturbation {
                position_m: size,
                speed_rel: 0.0,
            };
            let moved = crate::game::perturb::perturb(&shot.setup, &p, seed ^ 0xC4A0_5C0B)
                .map_err(|e| StudyError::Run(format!("chaos curve at {size:e} m: {e}")))?;
            let game = GameOutcome::of_family(shot.kind, &moved, &reference.run(&moved));
            Ok(
                Agreement::between(&shot.reference, &game, plan.position_tol_m)
                    .disagrees(Field::Outcome),
            )
        })
        .collect()
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

/// Most characters of a failure's line in the study ([`one_line`]).
const FAILURE_CHARS: usize = 600;

/// An engine's error as one line: its lines trimmed and joined by " | " (a program's error
/// ends with the end of its stderr, which says why it failed), cut to [`FAILURE_CHARS`].
fn one_line(message: &str) -> String {
    let joined = (message.lines().map(str::trim))
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" | ");
    if joined.chars().count() <= FAILURE_CHARS {
        return if joined.is_empty() {
            "failed".into()
        } else {
            joined
        };
    }
    let cut: String = joined.chars().take(FAILURE_CHARS).collect();
    format!("{cut}...")
}

impl StudyPlan {
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
        let every = |_: usize, _: u64| true;
        for f in 0..self.families.len() {
            let first = f as u64 * self.shots;
            let (from, to) = (lo.max(first), hi.min(first + self.shots));
            if from < to {
                let ks: Vec<u64> = (from - first..to - first).collect();
                runner.play(f, &ks, &every, 0, sink)?;
            }
        }
        Ok(runner.finish())
    }
}

#[cfg(test)]
mod failure_line_tests {
    use super::one_line;

    #[test]
    fn a_programs_stderr_stays_in_its_failure_line() {
        let m = "exec `python3 e.py`: shot \"cut\": the program exited (exit status: 2) without \
                 answering\n  stderr: python3: can't open file 'e.py'";
        assert_eq!(
            one_line(m),
            "exec `python3 e.py`: shot \"cut\": the program exited (exit status: 2) without \
             answering | stderr: python3: can't open file 'e.py'"
        );
        assert_eq!(one_line(""), "failed");
        let long = "x".repeat(2000);
        assert_eq!(one_line(&long).chars().count(), 603);
    }
}
