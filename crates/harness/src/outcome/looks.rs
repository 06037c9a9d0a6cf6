//! The sequential study: looks until every cell is decided or the budget is spent. Every engine
//! (in this process, a program, a peer) plays each family's first look; after it, a cell whose
//! verdict is undecided plays twice its shots again, and an engine with a time step is searched
//! ([`super::search`]): the search names the dt that must be decided next, or a new dt to play.
//! Looks go round the families, so a time budget is shared; a look whose estimated time would
//! overrun the budget's seconds is not started (the cell says it was stopped by the time).
//! Each cell's looks are counted on their own and spend its error rate as
//! [`super::sequential`] says, so every claim holds whenever the study stops.

use std::time::Instant;

use pool_engines::EngineSpec;

use super::answer::cell_state;
use super::distribution::DistributionVerdict;
use super::runner::{in_process, Runner};
use super::search::{next_step, CellState, Step};
use super::shot::StudyError;
use super::study::{Budget, StudyPlan, StudyResult};
use super::tally::{OutcomeShotRow, FLOOR};

/// One engine in one family: shots played, looks taken, whether the time budget stopped it.
#[derive(Clone, Copy, Debug, Default)]
struct Cell {
    /// Whether the engine is played on this family (a search adds engines per family).
    member: bool,
    shots: u64,
    looks: u32,
}

/// What one family has played.
struct Family {
    /// Shots the reference and the floor have played.
    played: u64,
    /// Looks the floor has taken (one per look that added shots).
    floor_looks: u32,
    /// Indexed by engine.
    cells: Vec<Cell>,
    /// The verdicts of its last look.
    verdicts: Vec<DistributionVerdict>,
}

/// What a family plays in one look: engine `e` from its shots to `target`.
type Wants = Vec<(usize, u64)>;

impl StudyPlan {
    /// The whole study, sequentially: each family's first `shots` with every engine, then,
    /// while a cell needs shots and `budget` allows, looks of twice its shots, and the dt
    /// search's candidates (see the module docs). Rows go to `sink` look by look, each look's
    /// in shot order: the reference's and the floor's rows of new shots, then the engines'.
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
        let engines = runner.specs.len();
        let mut families: Vec<Family> = (0..self.families.len())
            .map(|_| Family {
                played: 0,
                floor_looks: 0,
                cells: vec![
                    Cell {
                        member: true,
                        ..Cell::default()
                    };
                    engines
                ],
                verdicts: Vec::new(),
            })
            .collect();
        let threads = pool.current_num_threads() as f64;
        loop {
            let mut any = false;
            for f in 0..self.families.len() {
                let mut wants = self.wants(&mut runner, &mut families[f], f, max)?;
                // A look that cannot end within the budget's seconds is not started (every
                // family's first look is).
                if let Some(limit) = budget.seconds {
                    let left = limit - start.elapsed().as_secs_f64();
                    wants.retain(|&(e, target)| {
                        let cell = families[f].cells[e];
                        if cell.shots == 0 && cell.looks == 0 && families[f].played == 0 {
                            return true;
                        }
                        let cost = runner
                            .cost_per_shot(f, e)
                            .or_else(|| estimate_cost(&runner, f, e))
                            .unwrap_or(0.0);
                        let parallel = if in_process(&runner.specs[e]) {
                            threads
                        } else {
                            threads.min(2.0)
                        };
                        cost * (target - cell.shots) as f64 / parallel <= left
                    });
                }
                if wants.is_empty() {
                    continue;
                }
                any = true;
                self.play_look(&mut runner, &mut families[f], f, &wants, sink)?;
            }
            if !any {
                break;
            }
        }
        Ok(runner.finish())
    }

    /// What family `f` plays next: its first look (every member), or the cells that need
    /// shots and the dt search's next candidates; engines a search adds are built here.
    fn wants(
        &self,
        runner: &mut Runner<'_>,
        family: &mut Family,
        f: usize,
        max: u64,
    ) -> Result<Wants, StudyError> {
        let grow = |shots: u64| {
            if shots == 0 {
                self.shots
            } else {
                (shots * 2).min(max)
            }
        };
        if family.played == 0 {
            return Ok((0..family.cells.len())
                .filter(|&e| family.cells[e].member)
                .map(|e| (e, self.shots))
                .collect());
        }
        let verdict_of = |e: usize, specs: &[EngineSpec], verdicts: &[DistributionVerdict]| {
            let spec = &specs[e];
            verdicts
                .iter()
                .find(|v| {
                    v.engine == spec.family() && v.scheme == spec.variant() && v.dt_s == spec.dt()
                })
                .cloned()
        };
        let mut wants = Wants::new();
        // Engines without a time step: sample while undecided.
        for e in 0..family.cells.len() {
            let cell = family.cells[e];
            if !cell.member || runner.specs[e].dt().is_some() || cell.shots >= max {
                continue;
            }
            if verdict_of(e, &runner.specs, &family.verdicts)
                .is_some_and(|v| v.needs_shots() && worth_sampling(&v, max))
            {
                wants.push((e, grow(cell.shots)));
            }
        }
        // Engines with one: each series (family and variant) is searched.
        let mut series: Vec<(String, String)> = Vec::new();
        for e in 0..family.cells.len() {
            let spec = &runner.specs[e];
            let key = (spec.family().to_string(), spec.variant());
            if family.cells[e].member && spec.dt().is_some() && !series.contains(&key) {
                series.push(key);
            }
        }
        for (engine, variant) in series {
            let members: Vec<usize> = (0..family.cells.len())
                .filter(|&e| {
                    let s = &runner.specs[e];
                    family.cells[e].member && s.family() == engine && s.variant() == variant
                })
                .collect();
            let states: Vec<(f64, CellState)> = members
                .iter()
                .filter_map(|&e| {
                    let v = verdict_of(e, &runner.specs, &family.verdicts)?;
                    let open = family.cells[e].shots < max && worth_sampling(&v, max);
                    Some((runner.specs[e].dt()?, cell_state(&v, open)))
                })
                .collect();
            match next_step(&states, &self.search) {
                Step::Sample(dt) => {
                    if let Some(&e) = members.iter().find(|&&e| runner.specs[e].dt() == Some(dt)) {
                        wants.push((e, grow(family.cells[e].shots)));
                    }
                }
                Step::Probe(dt) => {
                    let Some(spec) = runner.specs[members[0]].with_dt(dt) else {
                        continue;
                    };
                    // A candidate dearer than the search allows is not played: the series'
                    // answer stays where it is, naming the dt it would have tried.
                    if series_cost(runner, f, &members, dt)
                        .is_some_and(|c| c > self.search.max_shot_s)
                    {
                        continue;
                    }
                    let e = runner.add_engine(spec)?;
                    if family.cells.len() <= e {
                        family.cells.resize(e + 1, Cell::default());
                    }
                    family.cells[e].member = true;
                    wants.push((e, grow(family.cells[e].shots)));
                }
                Step::Done(_) => {}
            }
        }
        Ok(wants)
    }

    /// Plays one look of family `f`: every engine of `wants` up to its target, the reference
    /// and the floor on the shots beyond what they have played; then records the looks and
    /// judges the family again.
    fn play_look(
        &self,
        runner: &mut Runner<'_>,
        family: &mut Family,
        f: usize,
        wants: &Wants,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
    ) -> Result<(), StudyError> {
        let from = wants
            .iter()
            .map(|&(e, _)| family.cells.get(e).map_or(0, |c| c.shots))
            .min()
            .unwrap_or(0);
        let to = wants.iter().map(|w| w.1).max().unwrap_or(0);
        let range: Vec<(usize, u64, u64)> = wants
            .iter()
            .map(|&(e, target)| (e, family.cells[e].shots, target))
            .collect();
        let plays = |e: usize, k: u64| range.iter().any(|&(x, lo, hi)| x == e && k >= lo && k < hi);
        let ks: Vec<u64> = (from..to).collect();
        runner.play(f, &ks, &plays, family.played, sink)?;
        let (kind, table) = &self.families[f];
        let tally = runner.result.tally.distribution_mut();
        if to > family.played {
            family.played = to;
            family.floor_looks += 1;
            tally.set_looks(kind.name(), table, FLOOR, family.floor_looks);
        }
        for &(e, target) in wants {
            let cell = &mut family.cells[e];
            cell.shots = target;
            cell.looks += 1;
            tally.set_looks(kind.name(), table, &runner.specs[e].to_string(), cell.looks);
        }
        family.verdicts = runner
            .result
            .tally
            .distribution()
            .evaluate_family(kind.name(), table, &self.margins, false, self.seed)
            .1;
        Ok(())
    }
}

/// How far over the budget a cell's estimate of the shots that would decide it may be and the
/// cell still be sampled. The estimate extrapolates the interval's width from the shots played
/// so far (from 100 shots, a first look), so a cell estimated just over the budget may well
/// decide within it: stopped at once, the cheap cells of a dt search (estimated at 3472 shots
/// against 3200) were frozen at 100 shots while the search spent the seconds on a dt a hundred
/// times dearer. Sampling a cell on costs at most the budget's shots.
const FUTILITY_SLACK: u64 = 2;

/// Whether more shots may decide a cell within `max` shots: its estimate of the shots that
/// would decide it is within [`FUTILITY_SLACK`] times the budget (a cell without an estimate is
/// given the benefit of the doubt). A cell that cannot is left undecided with its estimate, and
/// stops costing time: stopping early never spends more error rate.
fn worth_sampling(v: &DistributionVerdict, max: u64) -> bool {
    v.shots_to_decide
        .is_none_or(|n| n <= max.saturating_mul(FUTILITY_SLACK))
}

/// A first estimate of engine `e`'s time per shot on family `f` before it has played there: a
/// fixed-step engine's cost grows as 1/dt, so the nearest dt of its series that has played,
/// scaled.
fn estimate_cost(runner: &Runner<'_>, f: usize, e: usize) -> Option<f64> {
    let spec = &runner.specs[e];
    let members: Vec<usize> = (0..runner.specs.len())
        .filter(|&x| {
            let s = &runner.specs[x];
            x != e && s.family() == spec.family() && s.variant() == spec.variant()
        })
        .collect();
    series_cost(runner, f, &members, spec.dt()?)
}

/// The time per shot (s) of a dt of the series `members` on family `f`, from its nearest dt
/// that has played there, scaled as 1/dt.
fn series_cost(runner: &Runner<'_>, f: usize, members: &[usize], dt: f64) -> Option<f64> {
    members
        .iter()
        .filter_map(|&x| {
            let cost = runner.cost_per_shot(f, x)?;
            let other = runner.specs[x].dt()?;
            Some(((other / dt).ln().abs(), cost * other / dt))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, cost)| cost)
}
