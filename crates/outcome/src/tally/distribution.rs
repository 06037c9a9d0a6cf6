//! Does an engine change the game? Per family and run, the distribution of what the shots
//! decided (balls pocketed, scratches, break success, which pockets receive a ball, the first
//! ball the cue ball touches, where the cue ball ends up) against the reference's on the same
//! shots, each as a paired difference held to an equivalence margin; with the shot-by-shot
//! comparison with the chaos floor ([`crate::stats::shot_by_shot`]), one [`Verdict`] per family and
//! run. The chaos floor is held to the same statistics: a floor shown to play another game (a
//! statistic beyond its margin, as a lattice rack perturbed by the size of its gaps does) is
//! not neutral, and the family's shot-by-shot claims say so instead of using it.
//!
//! The statistics are one table per game ([`crate::game::ruleset::Game::statistics`]: name, how a
//! run's value is read, which margin, how far one shot can move it); the paired comparison
//! ([`DistributionTally`]) and the comparison of independent samples ([`compare_independent`])
//! both judge every entry of it with the same rule.
//!
//! **The claims** (docs/outcomes.md, "Error rate"). Each part (the shot-by-shot rate, each
//! statistic, each category of a categorical statistic) is a bounded mean tested by betting
//! ([`crate::stats::betting`]): anytime-valid, checked at the end of every look at no cost to the
//! level. A cell at level `alpha` ([`Levels`]):
//! - **keeps the game** when every part is shown within its margin, each at `alpha` (an
//!   intersection-union test: no split among them);
//! - **changes the game** when some part is shown beyond its margin; the parts share `alpha`
//!   (weighted Bonferroni: half to the shot-by-shot rate, half in equal shares to the game's
//!   statistics, a categorical statistic's share split among its possible categories, and
//!   each share split between the two sides).
//!
//! Exactly one of the two is true of any engine, so a cell errs at most `alpha` whichever it
//! claims. A difference that only excludes 0 is a description, never a claim; the energy test
//! of the cue ball's final position is a description too.
//!
//! Fed one shot's rows at a time ([`DistributionTally::add_shot`]) and batch by batch
//! ([`DistributionTally::close_batch`] at the end of a look), so the same rows in the same
//! looks (chunks, shards read back) give the same tables; its size is bounded by families x
//! runs x (statistics' categories x looks x distinct values), the cue positions' values kept
//! in bins ([`Levels::position_bin_m`]), plus [`ENERGY_PAIRS`] points per run.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::game::family::FamilyKind;
use crate::game::ruleset::pool::STATISTICS as POOL_STATISTICS;
use crate::game::statistic::Bounds;
use crate::game::statistic::Reading;
use crate::game::statistic::ShotStats;
use crate::game::statistic::Statistic;
use crate::stats::betting::{Sequence, Side};
use crate::stats::energy::{energy_test, energy_test_paired};
use crate::stats::levels::Levels;
use crate::stats::levels::Margins;
use crate::stats::levels::Scale;
use crate::stats::levels::SHOT_BY_SHOT_SHARE;
use crate::stats::levels::STUDY_ALPHA;
use crate::stats::shot_by_shot::{self, BatchedCounts};
use crate::stats::verdict::{Decision, FloorVerdict, Verdict};
use crate::tally::rows::{OutcomeShotRow, Run, FLOOR};

/// Shots (pairs of final cue positions) the energy test reads: the first this many on which
/// both runs leave the cue ball on the table. Its cost grows as the square of this.
pub const ENERGY_PAIRS: usize = 300;
/// Permutations of the energy test (a description: its p-value is read at 5 %).
pub const ENERGY_PERMUTATIONS: u32 = 499;
/// The level at which the energy test's p-value is called "differs" (a description).
pub const ENERGY_ALPHA: f64 = 0.05;

impl ShotStats {
    /// What the statistics read off `row`.
    pub(crate) fn of(row: &OutcomeShotRow) -> Self {
        let objects = row.objects_pocketed;
        let pockets: Vec<String> = row
            .object_pockets
            .split(';')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        let scratch = row.scratch == 1;
        ShotStats {
            objects,
            scratch,
            success: objects > 0 && !scratch,
            pockets,
            first_contact: if row.first_contact.is_empty() {
                "none".into()
            } else {
                row.first_contact.clone()
            },
            cue: row.cue_x_m.zip(row.cue_y_m).map(|(x, y)| [x, y]),
            disagree: row.d_outcome == 1,
            score: row
                .score
                .split(';')
                .filter_map(|e| e.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }
}

/// The statistics of the family named `family` on table `table`
/// ([`crate::game::ruleset::Game::statistics`]); for a name that is no family (a Python batch's
/// `batch`), those of the game whose own table it is, else pool's.
pub(crate) fn statistics_of(family: &str, table: &str) -> &'static [Statistic] {
    FamilyKind::from_name(family)
        .map(FamilyKind::game)
        .or_else(|| crate::game::ruleset::home_game(table))
        .map_or(&POOL_STATISTICS[..], |g| g.statistics())
}

/// A game's statistics, compared by address: a pair's sequences follow its list.
#[derive(Clone, Copy)]
struct Statistics(&'static [Statistic]);

impl std::fmt::Debug for Statistics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.0.iter().map(|s| s.name))
            .finish()
    }
}

impl PartialEq for Statistics {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

/// One statistic's paired differences (run - reference), look by look, with the sums of the
/// run's and the reference's values (for the rows' means).
#[derive(Clone, Debug, PartialEq)]
struct Diffs {
    seq: Sequence,
    run: f64,
    reference: f64,
}

impl Diffs {
    fn new(seq: Sequence) -> Self {
        Diffs {
            seq,
            run: 0.0,
            reference: 0.0,
        }
    }

    fn push(&mut self, run: f64, reference: f64) {
        self.seq.push(run - reference);
        self.run += run;
        self.reference += reference;
    }

    /// The run's and the reference's means (NaN with no shot).
    fn means(&self) -> (f64, f64) {
        let n = self.seq.n() as f64;
        if n == 0.0 {
            (f64::NAN, f64::NAN)
        } else {
            (self.run / n, self.reference / n)
        }
    }
}

/// One statistic's differences: one mean, or one per category.
#[derive(Clone, Debug, PartialEq)]
enum Paired {
    One(Diffs),
    Categories(BTreeMap<String, Diffs>),
}

/// One family and run against the reference on the same shots.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pair {
    engine: String,
    scheme: String,
    dt_s: Option<f64>,
    /// Shots paired (the run played them).
    n: u64,
    /// Shots of each batch (a look, or a power of two of shots), the last open while `open`.
    sizes: Vec<u64>,
    open: bool,
    /// Looks ended ([`DistributionTally::close_batch`]).
    looks: u32,
    /// Whether a shot came since the last look ended.
    in_look: bool,
    /// The family's game's statistics.
    statistics: Statistics,
    bounds: Bounds,
    /// One per entry of `statistics`.
    paired: Vec<Paired>,
    /// (run, reference) final cue positions of the first [`ENERGY_PAIRS`] shots with both on
    /// the cloth.
    points: Vec<([f64; 2], [f64; 2])>,
    /// Shot by shot on `outcome` against the floor (floor rows: unused).
    versus_floor: BatchedCounts,
    /// The cell's level ([`Levels::cell`]).
    alpha: f64,
    /// Two independent samples paired by index ([`compare_independent`]): no shot-by-shot
    /// comparison, the statistics take the whole level.
    independent: bool,
    /// The energy test (statistic, p-value) once its [`ENERGY_PAIRS`] points are in: they
    /// never change after, so it is taken once.
    energy: std::sync::OnceLock<(f64, f64)>,
}

impl Pair {
    /// The pair of run `engine` / `scheme` / `dt_s` on `family` and `table`, at level `alpha`.
    pub(crate) fn new(
        (family, table): (&str, &str),
        (engine, scheme, dt_s): (String, String, Option<f64>),
        alpha: f64,
        levels: &Levels,
    ) -> Self {
        let statistics = statistics_of(family, table);
        let bounds = Bounds::of(family, table);
        let paired = statistics
            .iter()
            .map(|s| {
                let b = (s.bound)(&bounds);
                let seq = match s.reading {
                    Reading::Value(_) if s.scale == Scale::Position => {
                        Sequence::binned(-b, b, levels.position_bin_m)
                    }
                    Reading::Value(_) => Sequence::exact(-b, b),
                    Reading::Flag(_) => Sequence::exact(-1.0, 1.0),
                    Reading::Categories(_) => return Paired::Categories(BTreeMap::new()),
                };
                Paired::One(Diffs::new(seq))
            })
            .collect();
        Pair {
            engine,
            scheme,
            dt_s,
            n: 0,
            sizes: Vec::new(),
            open: false,
            looks: 0,
            in_look: false,
            statistics: Statistics(statistics),
            bounds,
            paired,
            points: Vec::new(),
            versus_floor: BatchedCounts::default(),
            alpha,
            independent: false,
            energy: std::sync::OnceLock::new(),
        }
    }

    pub(crate) fn add(&mut self, run: &ShotStats, reference: &ShotStats, floor: &ShotStats) {
        self.n += 1;
        self.in_look = true;
        if !self.open {
            self.sizes.push(0);
            self.open = true;
        }
        *self.sizes.last_mut().expect("a batch is open") += 1;
        let flag = |b: bool| f64::from(u8::from(b));
        for (stat, p) in self.statistics.0.iter().zip(&mut self.paired) {
            match (p, stat.reading) {
                (Paired::One(d), Reading::Value(f)) => {
                    if let (Some(a), Some(b)) = (f(run), f(reference)) {
                        d.push(a, b);
                    }
                }
                (Paired::One(d), Reading::Flag(f)) => d.push(flag(f(run)), flag(f(reference))),
                (Paired::Categories(map), Reading::Categories(f)) => {
                    let (mine, theirs) = (f(run), f(reference));
                    for k in mine.iter().chain(&theirs) {
                        if !map.contains_key(k) {
                            map.insert(k.clone(), Diffs::new(zeros_before(&self.sizes)));
                        }
                    }
                    for (k, d) in map.iter_mut() {
                        d.push(flag(mine.contains(k)), flag(theirs.contains(k)));
                    }
                }
                _ => {}
            }
        }
        if let (Some(a), Some(b)) = (run.cue, reference.cue) {
            if self.points.len() < ENERGY_PAIRS {
                self.points.push((a, b));
            }
        }
        self.versus_floor.add(run.disagree, floor.disagree);
        if shot_by_shot::splits_at(self.n) {
            self.close();
        }
    }

    /// Ends the open batch (a look, or a power of two of shots).
    pub(crate) fn close(&mut self) {
        self.open = false;
        for p in &mut self.paired {
            match p {
                Paired::One(d) => d.seq.close(),
                Paired::Categories(map) => map.values_mut().for_each(|d| d.seq.close()),
            }
        }
        self.versus_floor.close();
    }

    fn is_floor(&self) -> bool {
        self.engine == FLOOR
    }

    /// Looks ended, counting an open one (a study of one look never ends its look).
    fn looks(&self) -> u32 {
        self.looks + u32::from(self.in_look)
    }
}

/// A category first named at the current shot: zeros (neither run named it) for every shot
/// before, in the pair's batches.
fn zeros_before(sizes: &[u64]) -> Sequence {
    let mut s = Sequence::exact(-1.0, 1.0);
    if let Some((open, closed)) = sizes.split_last() {
        for &n in closed {
            s.push_many(0.0, n);
            s.close();
        }
        s.push_many(0.0, open - 1);
    }
    s
}

/// The game's statistics of a study, per family and run, fed shot by shot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistributionTally {
    levels: Levels,
    /// (family, table, run) in the order first seen.
    order: Vec<(String, String, String)>,
    pairs: BTreeMap<(String, String, String), Pair>,
}

/// One row of `distributions.csv`: a family, a run (the floor, or an engine at one dt) and one
/// part of its claims (a statistic, a category, the energy test, the shot-by-shot rate),
/// against the reference on the same shots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DistributionRow {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Engine family (`floor` for the chaos floor).
    pub engine: String,
    /// Scheme or variant.
    pub scheme: String,
    /// Time step (s), empty for engines without one.
    pub dt_s: Option<f64>,
    /// `balls_pocketed` (mean object balls per shot), `scratch`, `success` (at least one
    /// object ball and no scratch), `pocket:<id>` (a pocket receives an object ball),
    /// `first_contact:<id>` (the first ball the cue ball touches; `none`), `cue_x`, `cue_y`
    /// (mean final cue-ball coordinates, m), `cue_position` (the 2-D energy test), or
    /// `shot_by_shot` (the `outcome` disagreement rate, the run's against the floor's).
    pub statistic: String,
    /// Shots paired.
    pub n: u64,
    /// The run's value (a rate, a mean; the energy statistic for `cue_position`).
    pub value: f64,
    /// The reference's on the same shots (the floor's for `shot_by_shot`; empty for
    /// `cue_position`).
    pub reference: Option<f64>,
    /// value - reference.
    pub diff: Option<f64>,
    /// The lower end of the difference's confidence sequence at level `alpha` (each end).
    pub diff_low: Option<f64>,
    /// Its upper end.
    pub diff_high: Option<f64>,
    /// The equivalence margin of the statistic (for `shot_by_shot`, the floor margin at the
    /// floor's observed rate: the absolute part plus the relative part times that rate).
    pub margin: Option<f64>,
    /// The cell's level: each end of the interval, and each "within" test, at this level.
    pub alpha: f64,
    /// The energy test's permutation p-value (`cue_position` only).
    pub p_value: Option<f64>,
    /// `within`, `beyond` or `undecided` (for the floor: within or beyond its margin of the
    /// reference); `differs` or `undecided` for `cue_position` (a description), `pending`
    /// before its shots are in.
    pub decision: Decision,
    /// Looks (batches) taken.
    pub looks: u32,
}

/// One row of `distribution_answer.csv`: the verdict of a family and run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DistributionVerdict {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Engine family (`floor` for the floor's neutrality).
    pub engine: String,
    /// Scheme or variant.
    pub scheme: String,
    /// Time step (s).
    pub dt_s: Option<f64>,
    /// Shots paired.
    pub n: u64,
    /// Looks taken.
    pub looks: u32,
    /// The cell's level ([`Levels::cell`]).
    pub alpha: f64,
    /// Shot by shot against the floor (engines; empty for the floor's row).
    pub shot_by_shot: Option<FloorVerdict>,
    /// Every statistic shown within its margin (`within`), one beyond it (`beyond`), or
    /// neither (`undecided`).
    pub statistics: Decision,
    /// The cell's verdict (the floor's row: `neutral`, `not_neutral` or `undecided`).
    pub verdict: Verdict,
    /// Why: the part beyond its margin and by how much, or what is undecided.
    pub detail: String,
    /// About how many shots in all would decide the cell's main claim (a planning hint: the
    /// mean and spread seen so far taken to hold); empty when decided or no estimate exists.
    pub shots_to_decide: Option<u64>,
}

impl DistributionVerdict {
    /// Whether sampling more shots could decide this cell's main claim (keeps or changes).
    pub fn needs_shots(&self) -> bool {
        self.n > 0 && self.verdict.claim().is_none() && self.verdict != Verdict::NotPlayed
    }

    /// Whether this cell keeps the game.
    pub fn keeps(&self) -> bool {
        self.verdict == Verdict::Keeps
    }

    /// Whether this cell is shown to change the game.
    pub fn changes(&self) -> bool {
        self.verdict.claim() == Some(crate::stats::verdict::Claim::Changes)
    }
}

impl DistributionTally {
    /// An empty tally whose cells are held to `levels`.
    pub fn new(levels: Levels) -> Self {
        DistributionTally {
            levels,
            ..DistributionTally::default()
        }
    }

    /// The levels its cells are held to.
    pub fn levels(&self) -> &Levels {
        &self.levels
    }

    /// Adds one shot: its rows in any order (the reference's, the floor's, the engines').
    /// A shot without a reference and a floor row is ignored; a run that failed the shot is
    /// not paired on it.
    pub fn add_shot(&mut self, rows: &[OutcomeShotRow]) {
        self.add_shot_counting(rows, true);
    }

    /// [`DistributionTally::add_shot`] where `count_floor` false pairs the engines' rows with
    /// the shot's floor row without counting that row again (a shot played before by the
    /// floor, now by an engine that joined the study later).
    pub fn add_shot_counting(&mut self, rows: &[OutcomeShotRow], count_floor: bool) {
        let (Some(reference), Some(floor)) = (
            rows.iter().find(|r| r.run == Run::Reference),
            rows.iter().find(|r| r.run == Run::Floor),
        ) else {
            return;
        };
        let (ref_stats, floor_stats) = (ShotStats::of(reference), ShotStats::of(floor));
        for row in rows
            .iter()
            .filter(|r| r.run != Run::Reference && (count_floor || r.run != Run::Floor))
        {
            let key = (row.family.clone(), row.table.clone(), row.run.to_string());
            if !self.pairs.contains_key(&key) {
                let engine = row.engine_label();
                let alpha = if engine == FLOOR {
                    self.levels.alpha
                } else {
                    self.levels.cell(&engine, &row.scheme, row.dt_s)
                };
                let run = (engine, row.scheme.clone(), row.dt_s);
                let pair = Pair::new((&row.family, &row.table), run, alpha, &self.levels);
                self.order.push(key.clone());
                self.pairs.insert(key.clone(), pair);
            }
            let pair = self.pairs.get_mut(&key).expect("inserted above");
            if row.failure.is_none() {
                pair.add(&ShotStats::of(row), &ref_stats, &floor_stats);
            }
        }
    }

    /// Ends the look of (`family`, `table`, `run`): its next shots start a new batch, whose
    /// bets are made from this one and those before ([`crate::stats::betting`]).
    pub fn close_batch(&mut self, family: &str, table: &str, run: &str) {
        if let Some(p) =
            self.pairs
                .get_mut(&(family.to_string(), table.to_string(), run.to_string()))
        {
            p.close();
            // A look ended twice (its rows read back, then recorded) counts once.
            p.looks += u32::from(std::mem::take(&mut p.in_look));
        }
    }

    /// The looks (`family`, `table`, `run`) has taken (0 for a pair never seen; 1 for a pair
    /// whose shots came in one piece).
    pub fn looks(&self, family: &str, table: &str, run: &str) -> u32 {
        self.pairs
            .get(&(family.to_string(), table.to_string(), run.to_string()))
            .map_or(0, Pair::looks)
    }

    /// The level of (`family`, `table`, `run`)'s cell (NaN for a pair never seen).
    pub fn cell_alpha(&self, family: &str, table: &str, run: &str) -> f64 {
        self.pairs
            .get(&(family.to_string(), table.to_string(), run.to_string()))
            .map_or(f64::NAN, |p| p.alpha)
    }

    /// The rows of `distributions.csv` and the verdicts, in the order first seen (`last`:
    /// whether this is the study's last look, when a pending energy test is taken on the
    /// shots there are; `seed`: the permutations' seed).
    pub fn evaluate(
        &self,
        margins: &Margins,
        last: bool,
        seed: u64,
    ) -> (Vec<DistributionRow>, Vec<DistributionVerdict>) {
        self.evaluate_where(margins, last, seed, true, |_| true)
    }

    /// The verdicts of one family (`family` on `table`) only, without the rows' intervals:
    /// what a look's plan reads.
    pub fn verdicts_of_family(
        &self,
        family: &str,
        table: &str,
        margins: &Margins,
        seed: u64,
    ) -> Vec<DistributionVerdict> {
        self.evaluate_where(margins, false, seed, false, |k| {
            k.0 == family && k.1 == table
        })
        .1
    }

    fn evaluate_where(
        &self,
        margins: &Margins,
        last: bool,
        seed: u64,
        rows_too: bool,
        keep: impl Fn(&(String, String, String)) -> bool,
    ) -> (Vec<DistributionRow>, Vec<DistributionVerdict>) {
        let mut rows = Vec::new();
        let mut verdicts = Vec::new();
        // The floor's neutrality first, per family: the engines' verdicts read it.
        let mut not_neutral: BTreeMap<(String, String), String> = BTreeMap::new();
        for floor_pass in [true, false] {
            for key in self.order.iter().filter(|k| keep(k)) {
                let pair = &self.pairs[key];
                if pair.is_floor() != floor_pass {
                    continue;
                }
                let family = (key.0.clone(), key.1.clone());
                let judged = Judge {
                    margins,
                    last,
                    seed,
                    rows_too,
                };
                let (r, v) = judged.pair(key, pair, not_neutral.get(&family));
                if v.verdict == Verdict::NotNeutral {
                    not_neutral.insert(family, v.detail.clone());
                }
                rows.extend(r);
                verdicts.push(v);
            }
        }
        (rows, verdicts)
    }
}

/// How one part was judged: its decision and, when undecided, about how many shots would
/// decide it.
struct Part {
    name: String,
    decision: Decision,
    /// Whether its mean lies beyond its margin (where more shots would show it, if anywhere).
    leans_beyond: bool,
    /// |diff| / margin, for naming the part furthest beyond.
    size: f64,
    describe: String,
    shots: Option<u64>,
}

/// One statistic's (or category's) judgement: within at `keeps` (both sides), beyond at
/// `changes` (split between the sides).
fn judge_part(seq: &Sequence, margin: f64, keeps: f64, changes: f64) -> (Decision, Option<u64>) {
    if seq.n() == 0 {
        return (Decision::Undecided, None);
    }
    let within = seq.shows(Side::Below, margin, keeps) && seq.shows(Side::Above, -margin, keeps);
    let side = changes / 2.0;
    let beyond = seq.shows(Side::Above, margin, side) || seq.shows(Side::Below, -margin, side);
    let decision = if within {
        Decision::Within
    } else if beyond {
        Decision::Beyond
    } else {
        Decision::Undecided
    };
    let shots = (decision == Decision::Undecided)
        .then(|| {
            let mean = seq.mean();
            if mean.abs() < margin {
                let up = seq.shots_to_show(Side::Below, margin, keeps)?;
                let down = seq.shots_to_show(Side::Above, -margin, keeps)?;
                Some(up.max(down))
            } else if mean > 0.0 {
                seq.shots_to_show(Side::Above, margin, side)
            } else {
                seq.shots_to_show(Side::Below, -margin, side)
            }
        })
        .flatten();
    (decision, shots)
}

/// The judging of one evaluation: margins, whether it is the last look, the energy test's
/// seed, and whether the rows (with their intervals) are wanted besides the verdicts.
pub(crate) struct Judge<'a> {
    pub(crate) margins: &'a Margins,
    pub(crate) last: bool,
    pub(crate) seed: u64,
    pub(crate) rows_too: bool,
}

impl Judge<'_> {
    /// The rows and the verdict of one family and run (the floor: its neutrality);
    /// `not_neutral`: why the family's floor is not neutral, if it is shown not to be.
    pub(crate) fn pair(
        &self,
        key: &(String, String, String),
        pair: &Pair,
        not_neutral: Option<&String>,
    ) -> (Vec<DistributionRow>, DistributionVerdict) {
        let floor = pair.is_floor();
        let alone = floor || pair.independent;
        let alpha = pair.alpha;
        let template = DistributionRow {
            family: key.0.clone(),
            table: key.1.clone(),
            engine: pair.engine.clone(),
            scheme: pair.scheme.clone(),
            dt_s: pair.dt_s,
            statistic: String::new(),
            n: pair.n,
            value: f64::NAN,
            reference: None,
            diff: None,
            diff_low: None,
            diff_high: None,
            margin: None,
            alpha,
            p_value: None,
            decision: Decision::Undecided,
            looks: pair.looks(),
        };
        let mut rows = Vec::new();
        let mut parts = Vec::new();
        // The statistics' share of the "changes" level: the floor's whole level, an engine's
        // half (the other half is the shot-by-shot rate's).
        let share = if alone {
            alpha
        } else {
            alpha * (1.0 - SHOT_BY_SHOT_SHARE)
        };
        let each = share / pair.statistics.0.len().max(1) as f64;
        for (stat, p) in pair.statistics.0.iter().zip(&pair.paired) {
            let margin = stat.scale.margin(self.margins);
            let mut judge = |name: String, seq: &Sequence, changes: f64, value: (f64, f64)| {
                let (decision, shots) = judge_part(seq, margin, alpha, changes);
                let diff = seq.mean();
                let (low, high) = if self.rows_too || decision == Decision::Beyond {
                    seq.interval(alpha)
                } else {
                    (f64::NAN, f64::NAN)
                };
                parts.push(Part {
                    name: name.clone(),
                    decision,
                    leans_beyond: diff.abs() > margin,
                    size: diff.abs() / margin,
                    describe: describe(&name, diff, low, high),
                    shots,
                });
                if self.rows_too {
                    rows.push(DistributionRow {
                        statistic: name,
                        n: seq.n(),
                        value: value.0,
                        reference: Some(value.1),
                        diff: Some(diff),
                        diff_low: Some(low),
                        diff_high: Some(high),
                        margin: Some(margin),
                        decision,
                        ..template.clone()
                    });
                }
            };
            match p {
                Paired::One(d) => judge(stat.name.to_string(), &d.seq, each, d.means()),
                Paired::Categories(map) => {
                    // Shares fixed before the data: the most categories the statistic can
                    // have on this family and table (never fewer than seen).
                    let k = (stat.bound)(&pair.bounds).max(map.len() as f64).max(1.0);
                    for (c, d) in map {
                        judge(format!("{}:{c}", stat.name), &d.seq, each / k, d.means());
                    }
                }
            }
        }
        let statistics = if parts.iter().all(|p| p.decision == Decision::Within) {
            Decision::Within
        } else if parts.iter().any(|p| p.decision == Decision::Beyond) {
            Decision::Beyond
        } else {
            Decision::Undecided
        };
        rows.push(self.energy_row(&template, pair));
        // Shot by shot against the floor (engines only).
        let shot_by_shot = (!alone).then(|| {
            let j = shot_by_shot::judge(
                &pair.versus_floor,
                alpha,
                alpha * SHOT_BY_SHOT_SHARE,
                self.margins,
            );
            let c = pair.versus_floor.total();
            rows.push(DistributionRow {
                statistic: "shot_by_shot".into(),
                value: c.rate(),
                reference: Some(c.floor_rate()),
                diff: Some(c.rate() - c.floor_rate()),
                diff_low: Some(j.diff_low),
                diff_high: Some(j.diff_high),
                margin: Some(j.margin),
                decision: j.verdict.into(),
                ..template.clone()
            });
            j
        });
        let (verdict, detail, shots) = if pair.independent {
            independent_verdict(pair.n, statistics, &parts)
        } else {
            verdict_of(
                pair.n,
                floor,
                not_neutral,
                shot_by_shot.as_ref(),
                statistics,
                &parts,
            )
        };
        let v = DistributionVerdict {
            family: key.0.clone(),
            table: key.1.clone(),
            engine: pair.engine.clone(),
            scheme: pair.scheme.clone(),
            dt_s: pair.dt_s,
            n: pair.n,
            looks: pair.looks(),
            alpha,
            shot_by_shot: shot_by_shot.map(|j| j.verdict),
            statistics,
            verdict,
            detail,
            shots_to_decide: shots,
        };
        if !self.rows_too {
            rows.clear();
        }
        (rows, v)
    }

    /// The energy test's row: taken once on the first [`ENERGY_PAIRS`] shots (or at the last
    /// look on fewer); a description at [`ENERGY_ALPHA`], never a claim.
    fn energy_row(&self, template: &DistributionRow, pair: &Pair) -> DistributionRow {
        let points = &pair.points;
        let mut r = DistributionRow {
            statistic: "cue_position".into(),
            n: points.len() as u64,
            alpha: ENERGY_ALPHA,
            decision: Decision::Pending,
            ..template.clone()
        };
        if !self.rows_too {
            return r;
        }
        let ready = points.len() >= ENERGY_PAIRS || (self.last && points.len() >= 2);
        if ready {
            let test = || {
                let (x, y): (Vec<[f64; 2]>, Vec<[f64; 2]>) = points.iter().copied().unzip();
                let t = energy_test_paired(&x, &y, ENERGY_PERMUTATIONS, self.seed);
                (t.statistic, t.p_value)
            };
            let (statistic, p_value) = if points.len() >= ENERGY_PAIRS {
                *pair.energy.get_or_init(test)
            } else {
                test()
            };
            r.value = statistic;
            r.p_value = Some(p_value);
            r.decision = if p_value < ENERGY_ALPHA {
                Decision::Differs
            } else {
                Decision::Undecided
            };
        }
        r
    }
}

/// What the parts say, for a cell's verdict, detail and shots to decide.
fn verdict_of(
    n: u64,
    floor: bool,
    not_neutral: Option<&String>,
    shot_by_shot: Option<&shot_by_shot::ShotByShot>,
    statistics: Decision,
    parts: &[Part],
) -> (Verdict, String, Option<u64>) {
    if n == 0 {
        return (Verdict::NotPlayed, "no shot played".into(), None);
    }
    let beyond = parts
        .iter()
        .filter(|p| p.decision == Decision::Beyond)
        .max_by(|a, b| a.size.total_cmp(&b.size));
    let undecided: Vec<&Part> = parts
        .iter()
        .filter(|p| p.decision == Decision::Undecided)
        .collect();
    let sbs = shot_by_shot.filter(|_| not_neutral.is_none());
    let need = shots_to_decide(&undecided, sbs);
    if floor {
        return match (statistics, beyond) {
            (Decision::Within, _) => (
                Verdict::Neutral,
                "every statistic within its margin of the reference's".into(),
                None,
            ),
            (_, Some(b)) => (Verdict::NotNeutral, b.describe.clone(), None),
            _ => (Verdict::Undecided, undecided_detail(&undecided, need), need),
        };
    }
    let sbs_text = |j: &shot_by_shot::ShotByShot| {
        format!(
            "{} shot by shot ({} [{}, {}] pt against a margin of {} pt)",
            j.verdict.label(),
            points(j.diff, true),
            points(j.diff_low, true),
            points(j.diff_high, true),
            points(j.margin, false)
        )
    };
    let stats_text = match statistics {
        Decision::Within => "every statistic within its margin".to_string(),
        _ => undecided_detail(&undecided, None),
    };
    if let Some(b) = beyond {
        let mut detail = b.describe.clone();
        if let Some(j) = sbs.filter(|j| j.verdict == FloorVerdict::Beyond) {
            detail = format!("{detail}; {}", sbs_text(j));
        }
        return (Verdict::ChangesStatistics, detail, None);
    }
    if let Some(why) = not_neutral {
        return (
            Verdict::FloorNotNeutral,
            format!("the floor is not neutral here ({why})"),
            None,
        );
    }
    let j = sbs.expect("an engine's cell has a shot-by-shot comparison");
    let text = |more: &str| format!("{}; {}{more}", sbs_text(j), stats_text);
    let about = need.map_or(String::new(), |n| format!("; about {n} shots would decide"));
    match (j.verdict, statistics) {
        (FloorVerdict::Within, Decision::Within) => (Verdict::Keeps, text(""), None),
        (FloorVerdict::Beyond, Decision::Within) => {
            (Verdict::ChangesShotsSameInDistribution, text(""), None)
        }
        (FloorVerdict::Beyond, _) => (Verdict::ChangesShots, text(""), None),
        (FloorVerdict::Within, _) => (Verdict::WithinFloor, text(&about), need),
        (FloorVerdict::Undecided, Decision::Within) => {
            (Verdict::SameInDistribution, text(&about), need)
        }
        (FloorVerdict::Undecided, _) => (Verdict::Undecided, text(&about), need),
    }
}

/// The verdict of two independent samples: their statistics alone.
fn independent_verdict(
    n: u64,
    statistics: Decision,
    parts: &[Part],
) -> (Verdict, String, Option<u64>) {
    if n == 0 {
        return (Verdict::NotPlayed, "no shot paired".into(), None);
    }
    let undecided: Vec<&Part> = parts
        .iter()
        .filter(|p| p.decision == Decision::Undecided)
        .collect();
    match statistics {
        Decision::Within => (
            Verdict::SameInDistribution,
            "every statistic within its margin".into(),
            None,
        ),
        Decision::Beyond => {
            let b = parts
                .iter()
                .filter(|p| p.decision == Decision::Beyond)
                .max_by(|a, b| a.size.total_cmp(&b.size))
                .expect("a part is beyond");
            (Verdict::ChangesStatistics, b.describe.clone(), None)
        }
        _ => {
            let need = shots_to_decide(&undecided, None);
            (Verdict::Undecided, undecided_detail(&undecided, need), need)
        }
    }
}

/// About how many shots in all would decide the cell's main claim: when some undecided part
/// leans beyond its margin, the fewest of theirs (one such part decides "changes"); else the
/// most of all (every part must be within to decide "keeps"). `None` when some part has no
/// estimate (a difference on its margin) or it exceeds [`crate::tally::rows::MAX_SHOTS`].
fn shots_to_decide(
    undecided: &[&Part],
    shot_by_shot: Option<&shot_by_shot::ShotByShot>,
) -> Option<u64> {
    let mut beyond: Vec<Option<u64>> = Vec::new();
    let mut within: Vec<Option<u64>> = Vec::new();
    for p in undecided {
        if p.leans_beyond {
            beyond.push(p.shots);
        } else {
            within.push(p.shots);
        }
    }
    if let Some(j) = shot_by_shot.filter(|j| j.verdict == FloorVerdict::Undecided) {
        if j.leans_beyond {
            beyond.push(j.shots_to_decide);
        } else {
            within.push(j.shots_to_decide);
        }
    }
    let need = if beyond.is_empty() {
        within
            .into_iter()
            .collect::<Option<Vec<u64>>>()?
            .into_iter()
            .max()
    } else {
        beyond.into_iter().flatten().min()
    };
    need.filter(|&n| n <= crate::tally::rows::MAX_SHOTS)
}

/// What is undecided: how many parts (the first three named) and about how many shots would
/// decide them.
fn undecided_detail(undecided: &[&Part], need: Option<u64>) -> String {
    let names: Vec<&str> = undecided.iter().map(|u| u.name.as_str()).take(3).collect();
    let head = format!(
        "{} {} undecided ({}{})",
        undecided.len(),
        if undecided.len() == 1 {
            "statistic"
        } else {
            "statistics"
        },
        names.join(", "),
        if undecided.len() > 3 { ", ..." } else { "" }
    );
    match need {
        Some(n) => format!("{head}; about {n} shots would decide"),
        None => head,
    }
}

/// A rate as points: `+1.3` (signed) or `0.5`.
fn points(p: f64, signed: bool) -> String {
    let v = 100.0 * p;
    let digits = if v.abs() >= 10.0 { 0 } else { 1 };
    if signed {
        format!("{v:+.digits$}")
    } else {
        format!("{v:.digits$}")
    }
}

/// `balls_pocketed +0.21 [+0.12, +0.30]`.
fn describe(name: &str, d: f64, lo: f64, hi: f64) -> String {
    if lo.is_nan() {
        return format!("{name} {d:+.3}");
    }
    format!("{name} {d:+.3} [{lo:+.3}, {hi:+.3}]")
}

/// Two runs' game statistics on *different* shots (for example the event engine on two seeds
/// of a family, or two batches of another user's shots): every statistic of the family's game
/// as a difference `b - a`, judged as the paired comparison judges them at [`STUDY_ALPHA`]
/// (`b`'s shot `i` paired with `a`'s shot `i`, over the shorter sample's length: the pairs are
/// independent draws whose mean difference is the difference of the means, which is all the
/// tests need), with the two-sample energy test of the final cue positions as a description.
/// Rows are labelled `family`/`table` and engine `b`; the verdict is `same in distribution`,
/// `changes its statistics` or `undecided` (no shot-by-shot comparison: the shots differ).
pub fn compare_independent(
    a: &[&OutcomeShotRow],
    b: &[&OutcomeShotRow],
    family: &str,
    table: &str,
    margins: &Margins,
    seed: u64,
) -> (Vec<DistributionRow>, DistributionVerdict) {
    let a: Vec<&OutcomeShotRow> = a.iter().copied().filter(|r| r.failure.is_none()).collect();
    let b: Vec<&OutcomeShotRow> = b.iter().copied().filter(|r| r.failure.is_none()).collect();
    let levels = Levels::default();
    let run = ("b".to_string(), String::new(), None);
    let mut pair = Pair::new((family, table), run, levels.alpha, &levels);
    pair.independent = true;
    for (ra, rb) in a.iter().zip(&b) {
        let (sa, sb) = (ShotStats::of(ra), ShotStats::of(rb));
        pair.add(&sb, &sa, &sa);
    }
    let key = (family.to_string(), table.to_string(), "b".to_string());
    let judge = Judge {
        margins,
        last: true,
        seed,
        rows_too: true,
    };
    let (mut rows, verdict) = judge.pair(&key, &pair, None);
    // The final cue positions as two samples (not the pairs by index).
    let cue = |rows: &[&OutcomeShotRow]| -> Vec<[f64; 2]> {
        rows.iter()
            .filter_map(|r| r.cue_x_m.zip(r.cue_y_m).map(|(x, y)| [x, y]))
            .take(ENERGY_PAIRS)
            .collect()
    };
    let (ca, cb) = (cue(&a), cue(&b));
    if let Some(r) = rows.iter_mut().find(|r| r.statistic == "cue_position") {
        let t = energy_test(&ca, &cb, ENERGY_PERMUTATIONS, seed);
        r.n = ca.len().min(cb.len()) as u64;
        r.value = t.statistic;
        r.p_value = Some(t.p_value);
        r.decision = if t.p_value < ENERGY_ALPHA {
            Decision::Differs
        } else {
            Decision::Undecided
        };
    }
    (rows, verdict)
}

/// One statistic of one sample of runs ([`summarize_games`]): a rate with its Wilson interval,
/// or a mean with its confidence sequence on the value's bounded range (never a point).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SummaryStat {
    /// The statistic's name, as in [`DistributionRow::statistic`].
    pub statistic: String,
    /// Runs it is over.
    pub n: u64,
    /// The rate or the mean.
    pub value: f64,
    /// Its 95 % interval.
    pub low: f64,
    /// Its upper end.
    pub high: f64,
}

/// The game's statistics of one sample of runs (rows of `outcomes/shots.csv`, or a Python
/// batch's), each with its 95 % interval, in the game's order of statistics (`pocket:<id>` and
/// `first_contact:<id>` per category). Runs that failed are left out.
pub fn summarize_games(rows: &[&OutcomeShotRow]) -> Vec<SummaryStat> {
    use crate::stats::interval::wilson;
    let (family, table) = rows
        .first()
        .map_or(("", ""), |r| (r.family.as_str(), r.table.as_str()));
    let statistics = statistics_of(family, table);
    let bounds = Bounds::of(family, table);
    let stats: Vec<ShotStats> = rows
        .iter()
        .filter(|r| r.failure.is_none())
        .map(|r| ShotStats::of(r))
        .collect();
    let n = stats.len() as u64;
    let rate = |name: String, k: u64| {
        let (low, high) = wilson(k, n, STUDY_ALPHA);
        SummaryStat {
            statistic: name,
            n,
            value: if n == 0 {
                f64::NAN
            } else {
                k as f64 / n as f64
            },
            low,
            high,
        }
    };
    let mut out = Vec::new();
    for stat in statistics {
        match stat.reading {
            Reading::Value(f) => {
                let mut seq = Sequence::exact(0.0, (stat.bound)(&bounds));
                for s in &stats {
                    if let Some(x) = f(s) {
                        seq.push(x);
                    }
                }
                let (low, high) = seq.interval(STUDY_ALPHA / 2.0);
                out.push(SummaryStat {
                    statistic: stat.name.into(),
                    n: seq.n(),
                    value: seq.mean(),
                    low,
                    high,
                });
            }
            Reading::Flag(f) => {
                out.push(rate(
                    stat.name.into(),
                    stats.iter().filter(|s| f(s)).count() as u64,
                ));
            }
            Reading::Categories(f) => {
                let mut counts: BTreeMap<String, u64> = BTreeMap::new();
                for s in &stats {
                    for c in f(s) {
                        *counts.entry(c).or_default() += 1;
                    }
                }
                out.extend(
                    counts
                        .into_iter()
                        .map(|(c, k)| rate(format!("{}:{c}", stat.name), k)),
                );
            }
        }
    }
    out
}
