//! The sequential study: looks until every cell is decided or the budget is spent. Every engine
//! (in this process, a program, a peer) plays each family's first look; after it, a cell whose
//! verdict is undecided plays twice its shots again, and an engine with a time step is searched
//! ([`crate::plan::search`]): the search names the dt that must be decided next, or a new dt to play.
//! Looks go round the families, so a time budget is shared; a look whose estimated time would
//! overrun the budget's seconds is not started (the cell says it was stopped by the time).
//! Each cell's looks are counted on their own and spend its error rate as
//! [`super::sequential`] says, so every claim holds whenever the study stops.
//!
//! A round of the loop (look K of every family, in family order) is what a study played in
//! shards calls look K: [`StudyPlan::look_wants`] computes it from a [`StudyState`] (what every
//! family and cell has played, and the last verdicts), for the loop here and for a shard that
//! resumes from a state written after look K - 1 alike; [`StudyPlan::play_units`] plays a
//! shard's share of it, and [`StudyPlan::record_look`] moves the state on after it.

use std::collections::HashMap;
use std::time::Instant;

use pool_engines::EngineSpec;
use serde::{Deserialize, Serialize};

use crate::plan::answer::cell_state;
use crate::plan::runner::{in_process, Runner};
use crate::plan::search::{next_step, CellState, Step};
use crate::plan::shot::StudyError;
use crate::plan::study::{Budget, StudyPlan, StudyResult};
use crate::stats::verdict::Verdict;
use crate::tally::changes::OutcomeTally;
use crate::tally::distribution::DistributionVerdict;
use crate::tally::rows::{OutcomeShotRow, Run, FLOOR, REFERENCE};

/// One engine in one family: whether it plays there, shots played, looks taken, and its wall
/// time per shot there so far (s; what the dt search's `max_shot_s` reads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LookCell {
    /// Whether the engine is played on this family (a search adds engines per family).
    pub member: bool,
    /// Shots played.
    pub shots: u64,
    /// Looks taken.
    pub looks: u32,
    /// Wall time per shot (s) so far, if it has played here.
    pub cost_s: Option<f64>,
}

/// What one family has played.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FamilyLooks {
    /// Shots the reference and the floor have played.
    pub played: u64,
    /// Looks the floor has taken (one per look that added shots).
    pub floor_looks: u32,
    /// Indexed by engine ([`StudyState::engines`]).
    pub cells: Vec<LookCell>,
    /// The verdicts of its last look.
    pub verdicts: Vec<DistributionVerdict>,
}

/// Where a sequential study stands between two looks: everything the next look's wants are
/// computed from ([`StudyPlan::look_wants`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyState {
    /// Looks (rounds over the families) taken.
    pub looks: u32,
    /// Most shots per cell: the budget's, at least the first look's.
    pub max_shots: u64,
    /// Every engine by index: the plan's, then those the dt search added, as specs.
    #[serde(with = "spec_strings")]
    pub engines: Vec<EngineSpec>,
    /// Indexed as the plan's families.
    pub families: Vec<FamilyLooks>,
}

/// What a family plays in one look: engine `e` from its shots to `target`.
pub type Wants = Vec<(usize, u64)>;

/// What every family plays in one look, indexed by family (empty: the family plays nothing).
pub type Look = Vec<Wants>;

/// Engine specs as their strings (which parse back to the same specs).
mod spec_strings {
    use pool_engines::EngineSpec;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(specs: &[EngineSpec], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(specs.iter().map(ToString::to_string))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<EngineSpec>, D::Error> {
        Vec::<String>::deserialize(d)?
            .iter()
            .map(|t| t.parse::<EngineSpec>().map_err(serde::de::Error::custom))
            .collect()
    }
}

impl StudyState {
    /// Checks a state read back against `plan`: its families, its engines (the plan's first),
    /// its cells and shots within range.
    ///
    /// # Errors
    /// What does not fit, as a phrase naming the field.
    pub fn check(&self, plan: &StudyPlan) -> Result<(), String> {
        if self.families.len() != plan.families.len() {
            return Err(format!(
                "families: {} in the state, {} in the study",
                self.families.len(),
                plan.families.len()
            ));
        }
        if self.engines.len() < plan.engines.len()
            || self.engines[..plan.engines.len()] != plan.engines[..]
        {
            return Err("engines: not the study's engines first".into());
        }
        // The rest are what a dt search adds: a laddered series at one of the ladder's rungs.
        for (e, spec) in self.engines.iter().enumerate().skip(plan.engines.len()) {
            let series = (spec.family().to_string(), spec.variant());
            let on_ladder = spec
                .dt()
                .is_some_and(|dt| plan.ladder.rungs().contains(&dt));
            if !on_ladder || !plan.laddered.contains(&series) || self.engines[..e].contains(spec) {
                return Err(format!(
                    "engines[{e}] = {spec}: not a rung of a laddered series the search could add"
                ));
            }
        }
        if self.max_shots < plan.shots || self.max_shots > crate::tally::rows::MAX_SHOTS {
            return Err(format!("max_shots = {}: out of range", self.max_shots));
        }
        for (f, family) in self.families.iter().enumerate() {
            if family.cells.len() > self.engines.len() || family.played > self.max_shots {
                return Err(format!(
                    "families[{f}]: more cells or shots than the study has"
                ));
            }
            if let Some(e) = family.cells.iter().position(|c| c.shots > family.played) {
                return Err(format!(
                    "families[{f}].cells[{e}]: more shots than the family's reference played"
                ));
            }
        }
        Ok(())
    }
}

impl StudyState {
    /// Checks that this state (a merged look's `looks.json`, read back) is what the looks'
    /// rows and wall times give: `tally` is those rows tallied look by look, `rows` the rows
    /// themselves, `wall` the merged wall times. Every family's reference shots and floor
    /// looks, every cell's shots, looks and cost, and every family's verdicts are derived again
    /// and compared; an engine that played must be a member.
    ///
    /// # Errors
    /// The first field that disagrees, as a phrase naming it.
    pub fn check_against_rows(
        &self,
        plan: &StudyPlan,
        tally: &OutcomeTally,
        rows: &[OutcomeShotRow],
        segments: &[(usize, u64)],
        wall: &[crate::tally::rows::WallRow],
    ) -> Result<(), String> {
        for (f, family) in self.families.iter().enumerate() {
            let (kind, table) = &plan.families[f];
            let of_family = |r: &&OutcomeShotRow| r.family == kind.name() && r.table == *table;
            let mine: Vec<&OutcomeShotRow> = rows.iter().filter(of_family).collect();
            let played = mine.iter().filter(|r| r.run == Run::Reference).count() as u64;
            let looks_of = |run: &Run| {
                let mut at = 0usize;
                let mut looks = 0u32;
                for &(g, n) in segments {
                    let part = &rows[at..at + n as usize];
                    at += n as usize;
                    if g == f && part.iter().any(|r| r.run == *run) {
                        looks += 1;
                    }
                }
                looks
            };
            if family.played != played || family.floor_looks != looks_of(&Run::Floor) {
                return Err(format!(
                    "families[{f}]: played = {}, floor_looks = {}, but its rows give {played} \
                     and {}",
                    family.played,
                    family.floor_looks,
                    looks_of(&Run::Floor)
                ));
            }
            for (e, cell) in family.cells.iter().enumerate() {
                let run = Run::engine(&self.engines[e]);
                let shots = mine.iter().filter(|r| r.run == run).count() as u64;
                let cost = (wall.iter())
                    .find(|w| w.family == kind.name() && w.table == *table && w.run == run)
                    .filter(|w| w.shots > 0)
                    .map(|w| w.wall_s / w.shots as f64);
                if cell.shots != shots
                    || cell.looks != looks_of(&run)
                    || (shots > 0 && !cell.member)
                    || cell.cost_s.map(f64::to_bits) != cost.map(f64::to_bits)
                {
                    return Err(format!(
                        "families[{f}].cells[{e}] ({run}): shots = {}, looks = {}, cost_s = \
                         {:?}, but its rows give {shots}, {} and {cost:?}",
                        cell.shots,
                        cell.looks,
                        cell.cost_s,
                        looks_of(&run)
                    ));
                }
            }
            let verdicts = (tally.distribution()).verdicts_of_family(
                kind.name(),
                table,
                &plan.margins,
                plan.seed,
            );
            if family.verdicts != verdicts {
                return Err(format!(
                    "families[{f}].verdicts: not what its rows give (a verdict edited?)"
                ));
            }
        }
        if let Some(r) = rows
            .iter()
            .find(|r| r.run.is_engine() && !self.engines.iter().any(|s| Run::engine(s) == r.run))
        {
            return Err(format!(
                "engines: {} played, but is not in the state",
                r.run
            ));
        }
        Ok(())
    }
}

impl StudyPlan {
    /// The state before the first look: every engine of the plan a member of every family.
    pub fn first_state(&self, budget: &Budget) -> StudyState {
        let member = LookCell {
            member: true,
            ..LookCell::default()
        };
        StudyState {
            looks: 0,
            max_shots: budget.shots.max(self.shots),
            engines: self.engines.clone(),
            families: (0..self.families.len())
                .map(|_| FamilyLooks {
                    played: 0,
                    floor_looks: 0,
                    cells: vec![member; self.engines.len()],
                    verdicts: Vec::new(),
                })
                .collect(),
        }
    }

    /// The whole study, sequentially: each family's first `shots` with every engine, then,
    /// while a cell needs shots and `budget` allows, looks of twice its shots, and the dt
    /// search's candidates (see the module docs). Rows go to `sink` look by look, each look's
    /// in shot order: the reference's and the floor's rows of new shots, then the engines'.
    /// `progress` hears of runs as they end, `on_look` of each look before it plays (its
    /// number from 1 and its runs), for a progress display.
    ///
    /// # Errors
    /// As [`StudyPlan::run`].
    pub fn run_sequential(
        &self,
        budget: &Budget,
        pool: &rayon::ThreadPool,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
        progress: &(dyn Fn(u64) + Sync),
        on_look: &dyn Fn(u32, u64),
    ) -> Result<StudyResult, StudyError> {
        // The budget's seconds start after the first look: every family's first look plays.
        let mut clock: Option<Instant> = None;
        let mut runner = Runner::new(self, pool, progress)?;
        let mut state = self.first_state(budget);
        let threads = pool.current_num_threads() as f64;
        loop {
            for (f, family) in state.families.iter_mut().enumerate() {
                for (e, cell) in family.cells.iter_mut().enumerate() {
                    cell.cost_s = runner.cost_per_shot(f, e);
                }
            }
            let seconds_left = budget
                .seconds
                .zip(clock)
                .map(|(limit, c)| limit - c.elapsed().as_secs_f64());
            let mut look = self.look_wants_within(&mut state, seconds_left.map(|s| (s, threads)));
            runner.build(&state.engines)?;
            // After the first look, the budget's seconds go first to the cells cheapest to
            // decide (their estimate of the shots that would decide them, at their cost per
            // shot), each reserving its later looks; a look whose estimated time would overrun
            // what is left is not started.
            if let Some(left) = seconds_left {
                let mut costed: Vec<(f64, f64, usize, usize)> = Vec::new();
                for (f, wants) in look.iter().enumerate() {
                    let family = &state.families[f];
                    for &(e, target) in wants {
                        let cell = family.cells[e];
                        let cost = runner
                            .cost_per_shot(f, e)
                            .or_else(|| estimate_cost(&state.engines, family, e))
                            .unwrap_or(0.0);
                        let parallel = if in_process(&state.engines[e]) {
                            threads
                        } else {
                            threads.min(2.0)
                        };
                        let per_shot = cost / parallel;
                        let next = per_shot * (target - cell.shots) as f64;
                        let need = verdict_for(&state.engines, e, &family.verdicts)
                            .and_then(|v| v.shots_to_decide)
                            .map_or(next, |n| per_shot * n.saturating_sub(cell.shots) as f64);
                        costed.push((need.max(next), next, f, e));
                    }
                }
                costed.sort_by(|a, b| a.0.total_cmp(&b.0));
                let (mut spent, mut reserved) = (0.0, 0.0);
                let mut keep: Vec<(usize, usize)> = Vec::new();
                for (to_decide, next, f, e) in costed {
                    if spent + reserved + next <= left {
                        spent += next;
                        reserved += to_decide - next;
                        keep.push((f, e));
                    }
                }
                for (f, wants) in look.iter_mut().enumerate() {
                    wants.retain(|&(e, _)| keep.contains(&(f, e)));
                }
            }
            let runs: usize = (self.look_units(&state, &look).into_iter())
                .map(|u| self.unit_runs(&state, &look, u).len())
                .sum();
            // The first look plays the chaos curve too.
            let chaos = if state.looks == 0 {
                self.chaos_runs_in(0, self.total())
            } else {
                0
            };
            if runs > 0 {
                on_look(state.looks + 1, runs as u64 + chaos);
            }
            let mut any = false;
            for (f, wants) in look.into_iter().enumerate() {
                if wants.is_empty() {
                    continue;
                }
                any = true;
                self.play_look(&mut runner, &mut state, f, &wants, sink)?;
            }
            if !any {
                break;
            }
            state.looks += 1;
            clock.get_or_insert_with(Instant::now);
        }
        Ok(runner.finish())
    }

    /// The next look of every family from `state` (one round of [`StudyPlan::run_sequential`]):
    /// a family's first look (every member), or the cells that need shots and the dt search's
    /// next candidates. Engines a search adds join `state.engines` (and their family). Every
    /// family's wants read only its own state, so a round's wants may be computed before any
    /// of it is played.
    pub fn look_wants(&self, state: &mut StudyState) -> Look {
        self.look_wants_within(state, None)
    }

    /// [`StudyPlan::look_wants`] with `seconds`: the budget's seconds left and the threads
    /// playing, when it has a clock (a cell whose estimate of the shots that would decide it is
    /// more than twice what those seconds can play stops).
    pub fn look_wants_within(&self, state: &mut StudyState, seconds: Option<(f64, f64)>) -> Look {
        (0..self.families.len())
            .map(|f| self.family_wants(state, f, seconds))
            .collect()
    }

    /// The (family, shot index) pairs `look` plays, family by family in shot order: the
    /// units a sharded look splits.
    pub fn look_units(&self, state: &StudyState, look: &Look) -> Vec<(usize, u64)> {
        let mut units = Vec::new();
        for (f, wants) in look.iter().enumerate() {
            let (from, to, _) = span(&state.families[f], wants);
            units.extend((from..to).map(|k| (f, k)));
        }
        units
    }

    /// Plays `units` of `look` (a contiguous part of [`StudyPlan::look_units`]) from `state`,
    /// as [`StudyPlan::run_sequential`] plays them: the same rows, in the same order, to `sink`.
    /// `state` is the one `look` was computed from (its engines include the search's new ones).
    ///
    /// # Errors
    /// As [`StudyPlan::run`].
    pub fn play_units(
        &self,
        state: &StudyState,
        look: &Look,
        units: &[(usize, u64)],
        pool: &rayon::ThreadPool,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
        progress: &(dyn Fn(u64) + Sync),
    ) -> Result<StudyResult, StudyError> {
        let mut runner = Runner::new(self, pool, progress)?;
        runner.build(&state.engines)?;
        for part in units.chunk_by(|a, b| a.0 == b.0) {
            let f = part[0].0;
            let family = &state.families[f];
            let (_, _, range) = span(family, &look[f]);
            let plays =
                |e: usize, k: u64| range.iter().any(|&(x, lo, hi)| x == e && k >= lo && k < hi);
            let ks: Vec<u64> = part.iter().map(|u| u.1).collect();
            runner.play(f, &ks, &plays, family.played, sink)?;
        }
        Ok(runner.finish())
    }

    /// The rows unit (`f`, `k`) of `look` writes, by run, in order: the reference's and the
    /// floor's on a shot they have not played, then each engine's that plays it, in engine
    /// order.
    pub fn unit_runs(&self, state: &StudyState, look: &Look, (f, k): (usize, u64)) -> Vec<String> {
        let family = &state.families[f];
        let (_, _, range) = span(family, &look[f]);
        let mut runs = Vec::new();
        if k >= family.played {
            runs.extend([REFERENCE.to_string(), FLOOR.to_string()]);
        }
        for (e, spec) in state.engines.iter().enumerate() {
            if range.iter().any(|&(x, lo, hi)| x == e && k >= lo && k < hi) {
                runs.push(spec.to_string());
            }
        }
        runs
    }

    /// After family `f` has played `wants` (its rows in `tally`): its shots, its looks (in
    /// `tally` too) and its verdicts.
    pub fn record_look(
        &self,
        tally: &mut OutcomeTally,
        state: &mut StudyState,
        f: usize,
        wants: &Wants,
    ) {
        let to = wants.iter().map(|w| w.1).max().unwrap_or(0);
        let (kind, table) = &self.families[f];
        let family = &mut state.families[f];
        if to > family.played {
            family.played = to;
            family.floor_looks += 1;
            tally.close_batch(kind.name(), table, FLOOR);
        }
        for &(e, target) in wants {
            let cell = &mut family.cells[e];
            cell.shots = target;
            cell.looks += 1;
            tally.close_batch(kind.name(), table, &state.engines[e].to_string());
        }
        family.verdicts =
            tally
                .distribution()
                .verdicts_of_family(kind.name(), table, &self.margins, self.seed);
    }

    /// What family `f` plays next (see [`StudyPlan::look_wants_within`]).
    fn family_wants(&self, state: &mut StudyState, f: usize, seconds: Option<(f64, f64)>) -> Wants {
        let max = state.max_shots;
        let grow = |shots: u64| {
            if shots == 0 {
                self.shots
            } else {
                (shots * 2).min(max)
            }
        };
        let StudyState {
            engines, families, ..
        } = state;
        let family = &mut families[f];
        if family.played == 0 {
            return (0..family.cells.len())
                .filter(|&e| family.cells[e].member)
                .map(|e| (e, self.shots))
                .collect();
        }
        let verdict_of = |e: usize, specs: &[EngineSpec], verdicts: &[DistributionVerdict]| {
            verdict_for(specs, e, verdicts).cloned()
        };
        // Whether more shots may decide cell `e`: within the budget's shots, and its estimate
        // of the shots that would decide it within twice what is left.
        let open = |e: usize, v: &DistributionVerdict, cells: &[LookCell]| {
            let cell = cells[e];
            cell.shots < max && worth_sampling(v, cell, max, seconds)
        };
        let laddered = |spec: &EngineSpec| self.is_laddered(spec);
        let mut wants = Wants::new();
        // Cells of their own (no dt, or a dt not on the ladder): sample while undecided.
        for e in 0..family.cells.len() {
            if !family.cells[e].member || laddered(&engines[e]) {
                continue;
            }
            if verdict_of(e, engines, &family.verdicts)
                .is_some_and(|v| v.needs_shots() && open(e, &v, &family.cells))
            {
                wants.push((e, grow(family.cells[e].shots)));
            }
        }
        // Series on the ladder: each is searched.
        let mut series: Vec<(String, String)> = Vec::new();
        for (cell, spec) in family.cells.iter().zip(engines.iter()) {
            let key = (spec.family().to_string(), spec.variant());
            if cell.member && laddered(spec) && !series.contains(&key) {
                series.push(key);
            }
        }
        for (engine, variant) in series {
            let members: Vec<usize> = (0..family.cells.len())
                .filter(|&e| {
                    let s = &engines[e];
                    family.cells[e].member && s.family() == engine && s.variant() == variant
                })
                .collect();
            let states: Vec<(f64, CellState)> = members
                .iter()
                .filter_map(|&e| {
                    let v = verdict_of(e, engines, &family.verdicts)?;
                    Some((engines[e].dt()?, cell_state(&v, open(e, &v, &family.cells))))
                })
                .collect();
            // A rung dearer than the search allows is not played: the answer says where it
            // stopped.
            let dear = |dt: f64| {
                series_cost(engines, family, &members, dt)
                    .is_some_and(|c| c > self.search.max_shot_s)
            };
            match next_step(&self.ladder, &states, &dear) {
                Step::Sample(dts) => {
                    for dt in dts {
                        if let Some(&e) = members.iter().find(|&&e| engines[e].dt() == Some(dt)) {
                            wants.push((e, grow(family.cells[e].shots)));
                        }
                    }
                }
                Step::Probe(dt) => {
                    let Some(spec) = engines[members[0]].with_dt(dt) else {
                        continue;
                    };
                    let e = match engines.iter().position(|s| *s == spec) {
                        Some(e) => e,
                        None => {
                            engines.push(spec);
                            engines.len() - 1
                        }
                    };
                    if family.cells.len() <= e {
                        family.cells.resize(e + 1, LookCell::default());
                    }
                    family.cells[e].member = true;
                    wants.push((e, grow(family.cells[e].shots)));
                }
                Step::Done(_) => {}
            }
        }
        wants
    }

    /// Plays one look of family `f`: every engine of `wants` up to its target, the reference
    /// and the floor on the shots beyond what they have played; then records it
    /// ([`StudyPlan::record_look`]).
    fn play_look(
        &self,
        runner: &mut Runner<'_>,
        state: &mut StudyState,
        f: usize,
        wants: &Wants,
        sink: &mut dyn FnMut(&OutcomeShotRow) -> Result<(), String>,
    ) -> Result<(), StudyError> {
        let family = &state.families[f];
        let (from, to, range) = span(family, wants);
        let plays = |e: usize, k: u64| range.iter().any(|&(x, lo, hi)| x == e && k >= lo && k < hi);
        let ks: Vec<u64> = (from..to).collect();
        runner.play(f, &ks, &plays, family.played, sink)?;
        self.record_look(&mut runner.result.tally, state, f, wants);
        Ok(())
    }
}

/// The shots a family's look plays, `[from, to)`, and each wanted engine's own range
/// (engine, from, to).
fn span(family: &FamilyLooks, wants: &Wants) -> (u64, u64, Vec<(usize, u64, u64)>) {
    let from = wants
        .iter()
        .map(|&(e, _)| family.cells.get(e).map_or(0, |c| c.shots))
        .min()
        .unwrap_or(0);
    let to = wants.iter().map(|w| w.1).max().unwrap_or(0);
    let range = wants
        .iter()
        .map(|&(e, target)| (e, family.cells.get(e).map_or(0, |c| c.shots), target))
        .collect();
    (from, to, range)
}

/// A study's tallies made again from its `outcomes/shots.csv` rows, look by look, as the
/// study made them while it played: a shot's rows that start with the reference's are new
/// shots; the engines' rows of a shot played before are paired with its reference's and
/// floor's rows of then, which are not counted again.
pub struct ShotRowsTally {
    /// The tallies so far.
    pub tally: OutcomeTally,
    /// The reference's and the floor's rows of every shot seen, by (family, table, index).
    firsts: HashMap<(String, String, u64), [OutcomeShotRow; 2]>,
}

impl ShotRowsTally {
    /// An empty tally of `plan`'s study.
    pub fn new(plan: &StudyPlan) -> Self {
        ShotRowsTally {
            tally: OutcomeTally::new(plan.levels()),
            firsts: HashMap::new(),
        }
    }

    /// Adds the rows one family wrote in one look, in their order, and ends the look of every
    /// run among them (as [`StudyPlan::record_look`] did).
    ///
    /// # Errors
    /// A shot whose reference row has no floor row after it, or engines' rows of a shot
    /// never played by the reference: the phrase names the shot.
    pub fn add_look(&mut self, rows: &[OutcomeShotRow]) -> Result<(), String> {
        let key = |r: &OutcomeShotRow| (r.family.clone(), r.table.clone(), r.index);
        let mut runs: Vec<(String, String, String)> = Vec::new();
        for shot in rows.chunk_by(|a, b| key(a) == key(b)) {
            let k = key(&shot[0]);
            let name = || format!("{} on {} shot {}", k.0, k.1, k.2);
            if shot[0].run == Run::Reference {
                if shot.get(1).is_none_or(|r| r.run != Run::Floor) {
                    return Err(format!(
                        "{}: the reference's row without the floor's",
                        name()
                    ));
                }
                self.firsts
                    .insert(k.clone(), [shot[0].clone(), shot[1].clone()]);
                self.tally.add_shot_counting(shot, true);
            } else {
                let Some(first) = self.firsts.get(&k) else {
                    return Err(format!("{}: engines' rows before the reference's", name()));
                };
                let mut all = first.to_vec();
                all.extend_from_slice(shot);
                self.tally.add_shot_counting(&all, false);
            }
            for r in shot.iter().filter(|r| r.run != Run::Reference) {
                let run = (r.family.clone(), r.table.clone(), r.run.to_string());
                if !runs.contains(&run) {
                    runs.push(run);
                }
            }
        }
        for (family, table, run) in runs {
            self.tally.close_batch(&family, &table, &run);
        }
        Ok(())
    }
}

/// How far beyond what is left a cell's estimate of the shots that would decide it may be
/// and the cell still be sampled. The estimate extrapolates from the shots played so far (from
/// 100 shots, a first look), so a cell estimated just beyond may well decide within it; one
/// estimated beyond twice what is left is stopped (futility), undecided with its estimate.
const FUTILITY_SLACK: u64 = 2;

/// Whether more shots may decide `cell` (its verdict `v`): its estimate of the shots that
/// would decide it, less those played, within [`FUTILITY_SLACK`] times what is left, the
/// budget's shots (`max`) and, with `seconds` (left, threads), what they can play at the
/// cell's cost per shot. A cell without an estimate is given the benefit of the doubt;
/// stopping early never spends more of the level.
fn worth_sampling(
    v: &DistributionVerdict,
    cell: LookCell,
    max: u64,
    seconds: Option<(f64, f64)>,
) -> bool {
    if v.verdict == Verdict::NotPlayed {
        return false;
    }
    let mut left = max.saturating_sub(cell.shots) as f64;
    if let (Some((secs, threads)), Some(cost)) = (seconds, cell.cost_s) {
        if cost > 0.0 {
            left = left.min(secs.max(0.0) * threads / cost);
        }
    }
    v.shots_to_decide
        .is_none_or(|n| n.saturating_sub(cell.shots) as f64 <= FUTILITY_SLACK as f64 * left)
}

/// Engine `e`'s verdict among a family's last `verdicts`.
fn verdict_for<'a>(
    specs: &[EngineSpec],
    e: usize,
    verdicts: &'a [DistributionVerdict],
) -> Option<&'a DistributionVerdict> {
    let spec = &specs[e];
    verdicts
        .iter()
        .find(|v| v.engine == spec.family() && v.scheme == spec.variant() && v.dt_s == spec.dt())
}

/// A first estimate of engine `e`'s time per shot on `family` before it has played there: a
/// fixed-step engine's cost grows as 1/dt, so the nearest dt of its series that has played,
/// scaled.
fn estimate_cost(specs: &[EngineSpec], family: &FamilyLooks, e: usize) -> Option<f64> {
    let spec = &specs[e];
    let members: Vec<usize> = (0..specs.len())
        .filter(|&x| {
            let s = &specs[x];
            x != e && s.family() == spec.family() && s.variant() == spec.variant()
        })
        .collect();
    series_cost(specs, family, &members, spec.dt()?)
}

/// The time per shot (s) of a dt of the series `members` on `family`, from its nearest dt
/// that has played there, scaled as 1/dt.
fn series_cost(
    specs: &[EngineSpec],
    family: &FamilyLooks,
    members: &[usize],
    dt: f64,
) -> Option<f64> {
    members
        .iter()
        .filter_map(|&x| {
            let cost = family.cells.get(x)?.cost_s?;
            let other = specs[x].dt()?;
            Some(((other / dt).ln().abs(), cost * other / dt))
        })
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, cost)| cost)
}
