//! Does an engine change the game's statistics? Per family and run, the distribution of what
//! the shots decided (balls pocketed, scratches, break success, which pockets receive a ball,
//! the first ball the cue ball touches, where the cue ball ends up) against the reference's on
//! the same shots, each as a paired difference with its interval and an equivalence margin;
//! with the shot-by-shot comparison with the chaos floor ([`super::shot_by_shot`]), one
//! [`Verdict`] per family and engine. The chaos floor is held to the same statistics: a floor
//! whose distribution differs from the reference's is not neutral (it played another game, as a
//! lattice rack perturbed by the size of its gaps does), and the family's verdicts say so
//! instead of using it.
//!
//! The statistics are one table per game ([`super::games::Game::statistics`]: name, how a
//! run's value is read, which margin);
//! the paired comparison ([`DistributionTally`]) and the comparison of independent samples
//! ([`compare_independent`]) both estimate every entry of it and judge the estimates with the
//! same rule.
//!
//! Fed one shot's rows at a time ([`DistributionTally::add_shot`]), so the same rows in any
//! pieces (chunks, shards read back) give the same tables; its size is bounded by families x
//! runs x categories, plus [`ENERGY_PAIRS`] points per run.
//!
//! Error control ([`super::sequential`]): three quarters of [`STUDY_ALPHA`] is spread over a
//! cell's looks as 6/(pi^2 k^2); at each look half of it goes to the shot-by-shot comparison
//! and half is shared equally by the statistics (Bonferroni); the last quarter is the
//! cue-position energy test's, taken once, on the first [`ENERGY_PAIRS`] shots. So the chance
//! that any claim of a cell (every "differs", "same", "within", "above", at any look) is wrong
//! is at most 5 % (`sequential.rs` simulates it).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::energy::{energy_test, energy_test_paired};
use super::families::FamilyKind;
use super::games::pool::STATISTICS as POOL_STATISTICS;
use super::interval::z_two_sided;
use super::interval::{mean_interval_moments, newcombe_independent, tango_paired, welch_moments};
use super::sequential::{decide, look_alpha, rate_shots_to_decide, shots_to_decide};
use super::shot_by_shot::{self, ShotCounts};
use super::tally::{OutcomeShotRow, FLOOR, REFERENCE};
use super::verdict::{Decision, FloorVerdict, Verdict};

/// The study's overall error rate: the chance of any false claim for one cell (an engine at
/// one dt on one family, or the floor) over a whole sequential study.
pub const STUDY_ALPHA: f64 = 0.05;
/// The share of [`STUDY_ALPHA`] spent on the intervals (over looks and statistics); the rest is
/// the energy test's.
pub const INTERVAL_SHARE: f64 = 0.75;
/// The share of a look's interval level that the shot-by-shot comparison with the floor takes
/// (an engine's; the floor has none): the question the study exists for, and the one whose
/// equivalence claims need the most shots.
pub const SHOT_BY_SHOT_SHARE: f64 = 0.5;
/// Shots (pairs of final cue positions) the energy test reads: the first this many on which
/// both runs leave the cue ball on the table. Its cost grows as the square of this.
pub const ENERGY_PAIRS: usize = 300;
/// Permutations of the energy test (its smallest p-value is 1/(1 + this), well under its
/// level (1 - [`INTERVAL_SHARE`]) x [`STUDY_ALPHA`]).
pub const ENERGY_PERMUTATIONS: u32 = 499;

/// Equivalence margins: a difference whose whole interval lies within +-margin is "the same".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Margins {
    /// Rates (scratch, success, each pocket's, each first contact's), as a difference of
    /// probabilities: 0.02 (2 percentage points) by default.
    pub rate: f64,
    /// Mean object balls pocketed per shot: 0.05 balls by default.
    pub balls: f64,
    /// Mean final cue-ball coordinates (m): 0.05 m by default (a tenth of a diamond's spacing
    /// on a 7-foot table is 3 cm; a cue ball 5 cm off is another position for play).
    pub position_m: f64,
    /// The shot-by-shot margin's absolute part: an engine is within the floor when its rate of
    /// changed outcomes exceeds the floor's by at most `floor + floor_relative x` the floor's
    /// rate; 0.005 (half a point) by default.
    pub floor: f64,
    /// The shot-by-shot margin's part relative to the floor's rate: 0.2 by default.
    #[serde(default = "default_floor_relative")]
    pub floor_relative: f64,
}

fn default_floor_relative() -> f64 {
    Margins::default().floor_relative
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
            rate: 0.02,
            balls: 0.05,
            position_m: 0.05,
            floor: 0.005,
            floor_relative: 0.2,
        }
    }
}

/// A margin of [`Margins`], for error messages that name it as the caller spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarginName {
    /// [`Margins::rate`].
    Rate,
    /// [`Margins::balls`].
    Balls,
    /// [`Margins::position_m`].
    Position,
    /// [`Margins::floor`].
    Floor,
    /// [`Margins::floor_relative`].
    FloorRelative,
}

/// A margin out of its range.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginError {
    /// Which margin.
    pub margin: MarginName,
    /// Its value.
    pub value: f64,
    /// Its range, as text (`(0, 1)`).
    pub range: &'static str,
}

impl Margins {
    /// Checks every margin: rates in (0, 1), balls in (0, 15], positions in (0, 1] m, the
    /// floor's absolute part in (0, 1), its relative part in [0, 10].
    ///
    /// # Errors
    /// The first bad margin, its value and range.
    pub fn validate(&self) -> Result<(), MarginError> {
        let open = |v: f64| v.is_finite() && v > 0.0 && v < 1.0;
        for (margin, value, ok, range) in [
            (MarginName::Rate, self.rate, open(self.rate), "(0, 1)"),
            (
                MarginName::Balls,
                self.balls,
                self.balls > 0.0 && self.balls <= 15.0,
                "(0, 15]",
            ),
            (
                MarginName::Position,
                self.position_m,
                self.position_m > 0.0 && self.position_m <= 1.0,
                "(0, 1]",
            ),
            (MarginName::Floor, self.floor, open(self.floor), "(0, 1)"),
            (
                MarginName::FloorRelative,
                self.floor_relative,
                (0.0..=10.0).contains(&self.floor_relative),
                "[0, 10]",
            ),
        ] {
            if !ok {
                return Err(MarginError {
                    margin,
                    value,
                    range,
                });
            }
        }
        Ok(())
    }
}

/// What the game's statistics read off one run of one shot (one row).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ShotStats {
    /// Object balls pocketed (every pocketed ball but the cue ball).
    pub(crate) objects: u32,
    pub(crate) scratch: bool,
    /// At least one object ball pocketed and no scratch.
    pub(crate) success: bool,
    /// Pockets that received an object ball.
    pub(crate) pockets: Vec<String>,
    /// The first ball the cue ball touched, `none` for none.
    pub(crate) first_contact: String,
    /// The cue ball's final position, when it ends on the cloth.
    pub(crate) cue: Option<[f64; 2]>,
    /// Whether it disagrees with the reference on `outcome`.
    pub(crate) disagree: bool,
    /// The game's own fields (`shots.csv`'s `score`), by name.
    pub(crate) score: Vec<(String, String)>,
}

impl ShotStats {
    /// The game's field `name` (its text; empty when it does not apply), `None` when the
    /// row has no such field.
    pub(crate) fn score(&self, name: &str) -> Option<&str> {
        self.score
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's field `name` as a number, `None` when it is absent, empty or not a number.
    pub(crate) fn score_number(&self, name: &str) -> Option<f64> {
        self.score(name).and_then(|v| v.parse().ok())
    }

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

/// Which margin a statistic is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A rate: [`Margins::rate`].
    Rate,
    /// Balls per shot: [`Margins::balls`].
    Balls,
    /// A coordinate (m): [`Margins::position_m`].
    Position,
}

impl Scale {
    /// The margin of this scale in `m`.
    pub fn margin(self, m: &Margins) -> f64 {
        match self {
            Scale::Rate => m.rate,
            Scale::Balls => m.balls,
            Scale::Position => m.position_m,
        }
    }
}

/// How a statistic is read off one run.
#[derive(Clone, Copy)]
pub(crate) enum Reading {
    /// A number (its mean is compared); `None` leaves the shot out of this statistic.
    Value(fn(&ShotStats) -> Option<f64>),
    /// Yes or no (its rate is compared).
    Flag(fn(&ShotStats) -> bool),
    /// One statistic per category a run names (each category's rate): `<name>:<category>`.
    Categories(fn(&ShotStats) -> Vec<String>),
}

/// One statistic of the game: its name, how it is read, its margin.
pub(crate) struct Statistic {
    pub(crate) name: &'static str,
    pub(crate) reading: Reading,
    pub(crate) scale: Scale,
}

/// The cue ball's mean final x (m), over the shots that leave it on the cloth: every game's.
pub(crate) const CUE_X: Statistic = Statistic {
    name: "cue_x",
    reading: Reading::Value(|s| s.cue.map(|c| c[0])),
    scale: Scale::Position,
};

/// The cue ball's mean final y (m).
pub(crate) const CUE_Y: Statistic = Statistic {
    name: "cue_y",
    reading: Reading::Value(|s| s.cue.map(|c| c[1])),
    scale: Scale::Position,
};

/// The first ball the cue ball touches, by id (`none` for none).
pub(crate) const FIRST_CONTACT: Statistic = Statistic {
    name: "first_contact",
    reading: Reading::Categories(|s| vec![s.first_contact.clone()]),
    scale: Scale::Rate,
};

/// The statistics of the family named `family` on table `table`
/// ([`super::games::Game::statistics`]); for a name that is no family (a Python batch's
/// `batch`), those of the game whose own table it is, else pool's.
pub(crate) fn statistics_of(family: &str, table: &str) -> &'static [Statistic] {
    FamilyKind::from_name(family)
        .map(FamilyKind::game)
        .or_else(|| super::games::home_game(table))
        .map_or(&POOL_STATISTICS[..], |g| g.statistics())
}

/// A game's statistics, compared by address: a pair's accumulators follow its list.
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

/// Paired counts of a yes/no statistic: the run's and the reference's on the same shots.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Binary {
    /// Run yes, reference no.
    b: u64,
    /// Run no, reference yes.
    c: u64,
    /// Run yes.
    run: u64,
    /// Reference yes.
    reference: u64,
}

impl Binary {
    fn add(&mut self, run: bool, reference: bool) {
        self.b += u64::from(run && !reference);
        self.c += u64::from(!run && reference);
        self.run += u64::from(run);
        self.reference += u64::from(reference);
    }
}

/// Running moments (Welford) of a paired numeric statistic.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Moments {
    n: u64,
    run_sum: f64,
    reference_sum: f64,
    /// Mean of the differences run - reference.
    mean: f64,
    /// Sum of squared deviations of the differences.
    m2: f64,
}

impl Moments {
    fn add(&mut self, run: f64, reference: f64) {
        self.n += 1;
        self.run_sum += run;
        self.reference_sum += reference;
        let d = run - reference;
        let delta = d - self.mean;
        self.mean += delta / self.n as f64;
        self.m2 += delta * (d - self.mean);
    }

    fn variance(&self) -> f64 {
        if self.n < 2 {
            f64::NAN
        } else {
            self.m2 / (self.n - 1) as f64
        }
    }
}

/// One statistic accumulated over paired shots.
#[derive(Clone, Debug, PartialEq)]
enum PairedAcc {
    Moments(Moments),
    Binary(Binary),
    Categories(BTreeMap<String, Binary>),
}

impl PairedAcc {
    fn new(reading: Reading) -> Self {
        match reading {
            Reading::Value(_) => PairedAcc::Moments(Moments::default()),
            Reading::Flag(_) => PairedAcc::Binary(Binary::default()),
            Reading::Categories(_) => PairedAcc::Categories(BTreeMap::new()),
        }
    }

    fn add(&mut self, reading: Reading, run: &ShotStats, reference: &ShotStats) {
        match (self, reading) {
            (PairedAcc::Moments(m), Reading::Value(f)) => {
                if let (Some(a), Some(b)) = (f(run), f(reference)) {
                    m.add(a, b);
                }
            }
            (PairedAcc::Binary(c), Reading::Flag(f)) => c.add(f(run), f(reference)),
            (PairedAcc::Categories(map), Reading::Categories(f)) => {
                let (mine, theirs) = (f(run), f(reference));
                for k in mine.iter().chain(&theirs) {
                    map.entry(k.clone()).or_default();
                }
                for (k, c) in map.iter_mut() {
                    c.add(mine.contains(k), theirs.contains(k));
                }
            }
            _ => {}
        }
    }
}

/// One statistic's estimate: the run's value, the reference's, and the interval of the
/// difference (run - reference) at the level it was asked for.
#[derive(Clone, Debug, PartialEq)]
struct Estimate {
    name: String,
    scale: Scale,
    n: u64,
    value: f64,
    reference: f64,
    low: f64,
    high: f64,
    /// The two-sided level of the interval.
    alpha: f64,
    /// A rate's per-shot standard deviation of the difference (for the shots-to-decide hint);
    /// `None` for a mean, whose interval's width scales as 1/sqrt(n).
    sigma: Option<f64>,
}

fn fraction(k: u64, n: u64) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        k as f64 / n as f64
    }
}

/// Paired estimates of every statistic, in table order: each entry of `statistics` at level
/// `1 - alpha`, a categorical entry's share split among its categories.
fn paired_estimates(
    statistics: &[Statistic],
    accs: &[PairedAcc],
    n: u64,
    alpha: f64,
) -> Vec<Estimate> {
    let mut out = Vec::new();
    let rate = |name: String, c: &Binary, alpha: f64| {
        let (low, high) = tango_paired(c.b, c.c, n, alpha);
        Estimate {
            name,
            scale: Scale::Rate,
            n,
            value: fraction(c.run, n),
            reference: fraction(c.reference, n),
            low,
            high,
            alpha,
            sigma: Some(fraction(c.b + c.c, n).sqrt()),
        }
    };
    for (stat, acc) in statistics.iter().zip(accs) {
        match acc {
            PairedAcc::Moments(m) => {
                let mean = |s: f64| if m.n == 0 { f64::NAN } else { s / m.n as f64 };
                let (low, high) = mean_interval_moments(m.n, m.mean, m.variance(), alpha)
                    .map_or((f64::NAN, f64::NAN), |(_, lo, hi)| (lo, hi));
                out.push(Estimate {
                    name: stat.name.into(),
                    scale: stat.scale,
                    n: m.n,
                    value: mean(m.run_sum),
                    reference: mean(m.reference_sum),
                    low,
                    high,
                    alpha,
                    sigma: None,
                });
            }
            PairedAcc::Binary(c) => out.push(rate(stat.name.into(), c, alpha)),
            PairedAcc::Categories(map) => {
                let each = alpha / map.len().max(1) as f64;
                out.extend(
                    map.iter()
                        .map(|(k, c)| rate(format!("{}:{k}", stat.name), c, each)),
                );
            }
        }
    }
    out
}

/// One family and run against the reference on the same shots.
#[derive(Clone, Debug, PartialEq)]
struct Pair {
    engine: String,
    scheme: String,
    dt_s: Option<f64>,
    /// Shots paired (the run played them).
    n: u64,
    /// The family's game's statistics.
    statistics: Statistics,
    /// One accumulator per entry of `statistics`.
    accs: Vec<PairedAcc>,
    /// (run, reference) final cue positions of the first [`ENERGY_PAIRS`] shots with both on
    /// the cloth.
    points: Vec<([f64; 2], [f64; 2])>,
    /// Shot by shot on `outcome` against the floor (floor rows: unused).
    versus_floor: ShotCounts,
    /// Sequential looks taken so far (1 for a study of a fixed size).
    looks: u32,
    /// The share of the cell's error rate this run may spend: 1, or for the k-th dt of a
    /// series (an engine with a time step on one family) [`series_share`] of k.
    share: f64,
    /// The energy test (statistic, p-value) once its [`ENERGY_PAIRS`] points are in: they
    /// never change after, so it is taken once.
    energy: std::sync::OnceLock<(f64, f64)>,
}

impl Pair {
    fn new(row: &OutcomeShotRow) -> Self {
        let statistics = statistics_of(&row.family, &row.table);
        Pair {
            engine: row.engine_label(),
            scheme: row.scheme.clone(),
            dt_s: row.dt_s,
            n: 0,
            statistics: Statistics(statistics),
            accs: statistics
                .iter()
                .map(|s| PairedAcc::new(s.reading))
                .collect(),
            points: Vec::new(),
            versus_floor: ShotCounts::default(),
            looks: 1,
            share: 1.0,
            energy: std::sync::OnceLock::new(),
        }
    }

    fn add(&mut self, run: &ShotStats, reference: &ShotStats, floor: &ShotStats) {
        self.n += 1;
        for (stat, acc) in self.statistics.0.iter().zip(&mut self.accs) {
            acc.add(stat.reading, run, reference);
        }
        if let (Some(a), Some(b)) = (run.cue, reference.cue) {
            if self.points.len() < ENERGY_PAIRS {
                self.points.push((a, b));
            }
        }
        self.versus_floor.add(run.disagree, floor.disagree);
    }

    fn is_floor(&self) -> bool {
        self.engine == FLOOR
    }

    /// The two-sided levels of this pair's intervals at its look: (each statistic's, the
    /// shot-by-shot comparison's).
    fn levels(&self) -> (f64, f64) {
        cell_levels(
            self.looks,
            !self.is_floor(),
            self.share,
            self.statistics.0.len(),
        )
    }
}

/// The share of a series' error rate its `k`-th dt (1-based) spends: 1 / (k (k + 1)), so that
/// the shares of every dt the series ever plays sum to at most 1 (the sum telescopes to
/// 1 - 1 / (k + 1)) however many the dt search adds. With the grid's dt first, the search's
/// answer, which rests on the claims at two or more of its dt, is wrong with probability at most
/// the cell's rate (union bound), not that rate once per dt tried. The grid's dt come first,
/// smallest first, then the search's candidates in the order played. 1 for `k` = 0 (an engine
/// without a time step).
pub fn series_share(k: u32) -> f64 {
    if k == 0 {
        return 1.0;
    }
    let k = f64::from(k);
    1.0 / (k * (k + 1.0))
}

/// The two-sided levels of a cell's intervals at look `looks`, the cell spending `share` of
/// the study's rate ([`series_share`]; 1 for a cell of its own), its game having `statistics`
/// statistics (pool: 7): (each statistic's, split further among a categorical entry's
/// categories; the shot-by-shot comparison's). The floor (`shot_by_shot` false) gives the
/// statistics the whole look (weighted Bonferroni: the shares sum to the look's level,
/// whatever the number of categories).
pub fn cell_levels(looks: u32, shot_by_shot: bool, share: f64, statistics: usize) -> (f64, f64) {
    let intervals = STUDY_ALPHA * INTERVAL_SHARE * share;
    let entries = statistics as u32;
    if shot_by_shot {
        (
            look_alpha(intervals * (1.0 - SHOT_BY_SHOT_SHARE), looks, entries),
            look_alpha(intervals * SHOT_BY_SHOT_SHARE, looks, 1),
        )
    } else {
        (look_alpha(intervals, looks, entries), f64::NAN)
    }
}

/// The game's statistics of a study, per family and run, fed shot by shot.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistributionTally {
    /// (family, table, run) in the order first seen.
    order: Vec<(String, String, String)>,
    pairs: BTreeMap<(String, String, String), Pair>,
}

/// One row of `distributions.csv`: a family, a run (the floor, or an engine at one dt) and one
/// statistic of the game, against the reference on the same shots.
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
    /// The interval of the difference at level `1 - alpha`.
    pub diff_low: Option<f64>,
    /// Its upper end.
    pub diff_high: Option<f64>,
    /// The equivalence margin of the statistic (for `shot_by_shot`, the margin the upper end
    /// is held to: the absolute part plus the relative part times the floor rate's lower
    /// bound).
    pub margin: Option<f64>,
    /// The two-sided level the interval or test is taken at (after the sequential rule and
    /// Bonferroni).
    pub alpha: f64,
    /// The energy test's permutation p-value (`cue_position` only).
    pub p_value: Option<f64>,
    /// `same`, `differs`, `undecided` (engines; `within`, `above`, `undecided` for
    /// `shot_by_shot`; `pending` for an energy test not yet taken), or for the floor `neutral` /
    /// `not_neutral`.
    pub decision: Decision,
    /// Sequential looks taken.
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
    /// Sequential looks taken.
    pub looks: u32,
    /// Shot by shot against the floor (engines; empty for the floor's row).
    pub shot_by_shot: Option<FloorVerdict>,
    /// The cell's verdict (the floor's row: `neutral` or `not_neutral`).
    pub verdict: Verdict,
    /// Why: the statistic that differs and by how much, or what is undecided.
    pub detail: String,
    /// About how many shots would decide what is undecided (a planning hint: the intervals'
    /// widths scaled as 1/sqrt(n)); empty when nothing is undecided or no estimate exists.
    pub shots_to_decide: Option<u64>,
}

impl DistributionVerdict {
    /// Whether sampling more shots could decide more of this cell: its verdict is undecided,
    /// or the statistics are decided the same and the shot-by-shot comparison is not yet.
    pub fn needs_shots(&self) -> bool {
        match self.verdict {
            Verdict::Undecided => true,
            Verdict::SameInDistribution => self.shot_by_shot == Some(FloorVerdict::Undecided),
            _ => false,
        }
    }

    /// Whether this cell keeps the game shot by shot (same shot by shot).
    pub fn keeps(&self) -> bool {
        self.verdict == Verdict::SameShotByShot
    }

    /// Whether this cell is shown to change the game: a statistic differs, or it changes
    /// shots more often than the floor.
    pub fn changes(&self) -> bool {
        self.verdict == Verdict::Differs
            || (self.shot_by_shot == Some(FloorVerdict::Above)
                && self.verdict != Verdict::FloorNotNeutral)
    }
}

impl DistributionTally {
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
            rows.iter().find(|r| r.run == REFERENCE),
            rows.iter().find(|r| r.run == FLOOR),
        ) else {
            return;
        };
        let (ref_stats, floor_stats) = (ShotStats::of(reference), ShotStats::of(floor));
        let runs = || {
            rows.iter()
                .filter(|r| r.run != REFERENCE && (count_floor || r.run != FLOOR))
        };
        // The dt of a series take their place in it when first seen, those first seen on the
        // same shot (a grid) smallest first, whatever the rows' order: a small dt is where an
        // engine keeps the game, a claim of equivalence that needs the most shots, and a large
        // one where it changes the game by far, which few shots show at any level.
        let mut new: Vec<&OutcomeShotRow> = runs()
            .filter(|r| {
                let key = (r.family.clone(), r.table.clone(), r.run.clone());
                !self.pairs.contains_key(&key)
            })
            .collect();
        new.sort_by(|a, b| {
            let dt = |r: &OutcomeShotRow| r.dt_s.unwrap_or(f64::INFINITY);
            dt(a).total_cmp(&dt(b))
        });
        let mut pending = Vec::new();
        for row in new {
            let key = (row.family.clone(), row.table.clone(), row.run.clone());
            if self.pairs.contains_key(&key) {
                continue;
            }
            pending.push(key.clone());
            let mut pair = Pair::new(row);
            if pair.dt_s.is_some() && !pair.is_floor() {
                let k = (self.pairs.iter())
                    .filter(|((f, t, _), p)| {
                        (f, t) == (&key.0, &key.1)
                            && p.dt_s.is_some()
                            && (&p.engine, &p.scheme) == (&pair.engine, &pair.scheme)
                    })
                    .count();
                pair.share = series_share(k as u32 + 1);
            }
            self.pairs.insert(key.clone(), pair);
        }
        for row in runs() {
            let key = (row.family.clone(), row.table.clone(), row.run.clone());
            if let Some(at) = pending.iter().position(|k| k == &key) {
                self.order.push(pending.swap_remove(at));
            }
            let pair = self
                .pairs
                .get_mut(&key)
                .expect("every run's pair is made above");
            if row.failure.is_empty() {
                pair.add(&ShotStats::of(row), &ref_stats, &floor_stats);
            }
        }
    }

    /// The two-sided level of the shot-by-shot interval of (`family`, `table`, `run`) at its
    /// look, as [`DistributionTally::evaluate`] takes it (NaN for a pair never seen, and for
    /// the floor).
    pub fn shot_alpha(&self, family: &str, table: &str, run: &str) -> f64 {
        self.pairs
            .get(&(family.to_string(), table.to_string(), run.to_string()))
            .map_or(f64::NAN, |p| p.levels().1)
    }

    /// Records that (`family`, `table`, `run`) has taken `looks` sequential looks.
    pub fn set_looks(&mut self, family: &str, table: &str, run: &str, looks: u32) {
        if let Some(p) =
            self.pairs
                .get_mut(&(family.to_string(), table.to_string(), run.to_string()))
        {
            p.looks = looks;
        }
    }

    /// The looks (`family`, `table`, `run`) has taken (0 for a pair never seen).
    pub fn looks(&self, family: &str, table: &str, run: &str) -> u32 {
        self.pairs
            .get(&(family.to_string(), table.to_string(), run.to_string()))
            .map_or(0, |p| p.looks)
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
        self.evaluate_where(margins, last, seed, |_| true)
    }

    /// [`DistributionTally::evaluate`] of one family (`family` on `table`) only: its verdicts
    /// read nothing of the other families'.
    pub fn evaluate_family(
        &self,
        family: &str,
        table: &str,
        margins: &Margins,
        last: bool,
        seed: u64,
    ) -> (Vec<DistributionRow>, Vec<DistributionVerdict>) {
        self.evaluate_where(margins, last, seed, |k| k.0 == family && k.1 == table)
    }

    fn evaluate_where(
        &self,
        margins: &Margins,
        last: bool,
        seed: u64,
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
                let (r, v) = judge_pair(key, pair, margins, last, seed, not_neutral.get(&family));
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

/// What the judged estimates say: the differing statistics (with their size in margins, for
/// ordering) and the undecided ones (with the shots that would decide them).
#[derive(Default)]
struct Findings {
    differs: Vec<(f64, String)>,
    undecided: Vec<(Option<u64>, String)>,
}

/// Judges `estimates` (engines against their margins; the floor against 0), adding a row per
/// estimate from `template` and what they say to `found`.
fn judge_estimates(
    estimates: Vec<Estimate>,
    margins: &Margins,
    floor: bool,
    template: &DistributionRow,
    rows: &mut Vec<DistributionRow>,
    found: &mut Findings,
) {
    for e in estimates {
        let margin = e.scale.margin(margins);
        let diff = e.value - e.reference;
        let decision = if floor {
            if e.low > 0.0 || e.high < 0.0 {
                Decision::NotNeutral
            } else {
                Decision::Neutral
            }
        } else {
            decide(e.low, e.high, margin)
        };
        match decision {
            Decision::Differs | Decision::NotNeutral => found
                .differs
                .push((diff.abs() / margin, describe(&e.name, diff, e.low, e.high))),
            Decision::Undecided => {
                let need = match e.sigma {
                    Some(sigma) => {
                        let room = if diff.abs() < margin {
                            margin - diff.abs()
                        } else {
                            diff.abs()
                        };
                        rate_shots_to_decide(sigma, z_two_sided(e.alpha), room)
                    }
                    None => shots_to_decide((e.high - e.low) / 2.0, e.n, margin, diff),
                };
                found.undecided.push((need, e.name.clone()));
            }
            _ => {}
        }
        rows.push(DistributionRow {
            statistic: e.name,
            n: e.n,
            value: e.value,
            reference: Some(e.reference),
            diff: Some(diff),
            diff_low: Some(e.low),
            diff_high: Some(e.high),
            margin: Some(margin),
            alpha: e.alpha,
            decision,
            ..template.clone()
        });
    }
}

/// The rows and the verdict of one family and run (the floor: its neutrality); `not_neutral`:
/// why the family's floor is not neutral, if it is not.
fn judge_pair(
    key: &(String, String, String),
    pair: &Pair,
    margins: &Margins,
    last: bool,
    seed: u64,
    not_neutral: Option<&String>,
) -> (Vec<DistributionRow>, DistributionVerdict) {
    let floor = pair.is_floor();
    let (alpha, shot_alpha) = pair.levels();
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
        looks: pair.looks,
    };
    let mut rows = Vec::new();
    let mut found = Findings::default();
    judge_estimates(
        paired_estimates(pair.statistics.0, &pair.accs, pair.n, alpha),
        margins,
        floor,
        &template,
        &mut rows,
        &mut found,
    );
    // The cue ball's final position as a 2-D distribution: taken once, on the first
    // ENERGY_PAIRS shots (or at the last look on fewer).
    let points = &pair.points;
    let ready = points.len() >= ENERGY_PAIRS || (last && points.len() >= 2);
    let energy = ready.then(|| {
        let test = || {
            let (x, y): (Vec<[f64; 2]>, Vec<[f64; 2]>) = points.iter().copied().unzip();
            let t = energy_test_paired(&x, &y, ENERGY_PERMUTATIONS, seed);
            (t.statistic, t.p_value)
        };
        if points.len() >= ENERGY_PAIRS {
            *pair.energy.get_or_init(test)
        } else {
            test()
        }
    });
    rows.push(energy_row(
        &template,
        points.len(),
        energy,
        (floor, pair.share),
        &mut found,
    ));
    // Shot by shot against the floor (engines only).
    let shot_by_shot = (!floor).then(|| {
        let c = pair.versus_floor;
        let j = shot_by_shot::judge(&c, shot_alpha, margins);
        if j.verdict == FloorVerdict::Undecided {
            found.undecided.push((
                shot_by_shot::shots_to_decide(&c, j.margin, shot_alpha),
                "shot_by_shot".into(),
            ));
        }
        rows.push(DistributionRow {
            statistic: "shot_by_shot".into(),
            value: c.rate(),
            reference: Some(c.floor_rate()),
            diff: Some(c.rate() - c.floor_rate()),
            diff_low: Some(j.diff_low),
            diff_high: Some(j.diff_high),
            margin: Some(j.margin),
            alpha: shot_alpha,
            decision: j.verdict.into(),
            ..template.clone()
        });
        j.verdict
    });
    let (verdict, detail, shots) = verdict_of(pair.n, floor, not_neutral, shot_by_shot, found);
    let v = DistributionVerdict {
        family: key.0.clone(),
        table: key.1.clone(),
        engine: pair.engine.clone(),
        scheme: pair.scheme.clone(),
        dt_s: pair.dt_s,
        n: pair.n,
        looks: pair.looks,
        shot_by_shot,
        verdict,
        detail,
        shots_to_decide: shots,
    };
    (rows, v)
}

/// The energy test's row: `energy` is its (statistic, p-value) when taken; `(floor, share)`:
/// whether the run is the floor, and its share of the cell's rate ([`series_share`]).
fn energy_row(
    template: &DistributionRow,
    points: usize,
    energy: Option<(f64, f64)>,
    (floor, share): (bool, f64),
    found: &mut Findings,
) -> DistributionRow {
    let energy_alpha = STUDY_ALPHA * (1.0 - INTERVAL_SHARE) * share;
    let mut r = DistributionRow {
        statistic: "cue_position".into(),
        n: points as u64,
        alpha: energy_alpha,
        ..template.clone()
    };
    match energy {
        Some((statistic, p_value)) => {
            r.value = statistic;
            r.p_value = Some(p_value);
            let rejects = p_value < energy_alpha;
            if rejects {
                found.differs.push((
                    f64::INFINITY,
                    format!("cue_position (energy test p = {p_value:.3})"),
                ));
            }
            r.decision = match (floor, rejects) {
                (true, true) => Decision::NotNeutral,
                (true, false) => Decision::Neutral,
                (false, true) => Decision::Differs,
                (false, false) => Decision::Same,
            };
        }
        None => {
            r.decision = if floor {
                Decision::Neutral
            } else {
                Decision::Pending
            };
            if !floor {
                found
                    .undecided
                    .push((Some(ENERGY_PAIRS as u64), "cue_position".into()));
            }
        }
    }
    r
}

/// A cell's verdict, its detail and the shots that would decide it, from what its statistics
/// and its shot-by-shot comparison say.
fn verdict_of(
    n: u64,
    floor: bool,
    not_neutral: Option<&String>,
    shot_by_shot: Option<FloorVerdict>,
    mut found: Findings,
) -> (Verdict, String, Option<u64>) {
    found.differs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let need = found
        .undecided
        .iter()
        .map(|u| u.0)
        .collect::<Option<Vec<u64>>>()
        .and_then(|v| v.into_iter().max())
        .filter(|&n| n <= super::study::MAX_SHOTS);
    if n == 0 {
        return (Verdict::NotPlayed, "no shot played".into(), None);
    }
    if floor {
        return match found.differs.first() {
            None => (
                Verdict::Neutral,
                "every interval contains 0 and the energy test does not reject".into(),
                None,
            ),
            Some(d) => (Verdict::NotNeutral, d.1.clone(), None),
        };
    }
    if let Some(why) = not_neutral {
        return (
            Verdict::FloorNotNeutral,
            format!("the floor is not neutral here ({why})"),
            None,
        );
    }
    if let Some(d) = found.differs.first() {
        return (Verdict::Differs, d.1.clone(), None);
    }
    let statistics_same = found.undecided.iter().all(|u| u.1 == "shot_by_shot");
    match (shot_by_shot, statistics_same) {
        (Some(FloorVerdict::Within), true) => (
            Verdict::SameShotByShot,
            "within the floor shot by shot; every statistic within its margin".into(),
            None,
        ),
        (Some(FloorVerdict::Above), true) => (
            Verdict::SameInDistribution,
            "every statistic within its margin; above the floor shot by shot".into(),
            None,
        ),
        (_, true) => (
            Verdict::SameInDistribution,
            format!(
                "every statistic within its margin; shot by shot undecided{}",
                need.map_or(String::new(), |n| format!(
                    " (about {n} shots would decide)"
                ))
            ),
            need,
        ),
        (Some(FloorVerdict::Above), false) => (
            Verdict::ChangesShots,
            format!(
                "above the floor shot by shot; {}",
                undecided_detail(&found.undecided)
            ),
            need,
        ),
        (_, false) => (Verdict::Undecided, undecided_detail(&found.undecided), need),
    }
}

/// Why a verdict is undecided: how many statistics (the first three named) and about how many
/// shots would decide them all, or that one's difference sits near its margin.
fn undecided_detail(undecided: &[(Option<u64>, String)]) -> String {
    let names: Vec<&str> = undecided.iter().map(|u| u.1.as_str()).take(3).collect();
    let head = format!("{} undecided ({})", undecided.len(), names.join(", "));
    let need = undecided
        .iter()
        .map(|u| u.0)
        .collect::<Option<Vec<u64>>>()
        .and_then(|v| v.into_iter().max());
    match need {
        Some(n) if n <= super::study::MAX_SHOTS => {
            format!("{head}; about {n} shots would decide")
        }
        Some(_) => format!("{head}; more than a million shots would decide"),
        None => format!("{head}; a difference near its margin: more shots may not decide"),
    }
}

/// `balls_pocketed +0.21 [+0.12, +0.30]`.
fn describe(name: &str, d: f64, lo: f64, hi: f64) -> String {
    format!("{name} {d:+.3} [{lo:+.3}, {hi:+.3}]")
}

/// One statistic accumulated over one sample of runs.
#[derive(Clone, Debug)]
enum SampleAcc {
    /// (n, mean, m2) of the values (Welford).
    Moments(u64, f64, f64),
    Count(u64),
    Categories(BTreeMap<String, u64>),
}

impl SampleAcc {
    fn new(reading: Reading) -> Self {
        match reading {
            Reading::Value(_) => SampleAcc::Moments(0, 0.0, 0.0),
            Reading::Flag(_) => SampleAcc::Count(0),
            Reading::Categories(_) => SampleAcc::Categories(BTreeMap::new()),
        }
    }

    fn add(&mut self, reading: Reading, s: &ShotStats) {
        match (self, reading) {
            (SampleAcc::Moments(n, mean, m2), Reading::Value(f)) => {
                if let Some(x) = f(s) {
                    *n += 1;
                    let delta = x - *mean;
                    *mean += delta / *n as f64;
                    *m2 += delta * (x - *mean);
                }
            }
            (SampleAcc::Count(k), Reading::Flag(f)) => *k += u64::from(f(s)),
            (SampleAcc::Categories(map), Reading::Categories(f)) => {
                for c in f(s) {
                    *map.entry(c).or_default() += 1;
                }
            }
            _ => {}
        }
    }
}

/// One sample of runs (rows that ran): its shots, every statistic, the final cue positions.
#[derive(Clone, Debug)]
struct Sample {
    n: u64,
    accs: Vec<SampleAcc>,
    cue: Vec<[f64; 2]>,
}

impl Sample {
    /// The sample of `rows`, read by `statistics`.
    fn of(rows: &[&OutcomeShotRow], statistics: &[Statistic]) -> Self {
        let mut s = Sample {
            n: 0,
            accs: statistics
                .iter()
                .map(|st| SampleAcc::new(st.reading))
                .collect(),
            cue: Vec::new(),
        };
        for row in rows.iter().filter(|r| r.failure.is_empty()) {
            let st = ShotStats::of(row);
            s.n += 1;
            for (stat, acc) in statistics.iter().zip(&mut s.accs) {
                acc.add(stat.reading, &st);
            }
            if let Some(c) = st.cue {
                s.cue.push(c);
            }
        }
        s
    }
}

/// Estimates of `b - a` of every statistic for independent samples, at level `1 - alpha`:
/// Newcombe's interval for rates, Welch's for means.
fn independent_estimates(
    statistics: &[Statistic],
    a: &Sample,
    b: &Sample,
    alpha: f64,
) -> Vec<Estimate> {
    let n = a.n.min(b.n);
    let mut out = Vec::new();
    let rate = |name: String, ka: u64, kb: u64, alpha: f64| {
        let (low, high) = newcombe_independent(kb, b.n, ka, a.n, alpha);
        Estimate {
            name,
            scale: Scale::Rate,
            n,
            value: fraction(kb, b.n),
            reference: fraction(ka, a.n),
            low,
            high,
            alpha,
            sigma: {
                let (pa, pb) = (fraction(ka, a.n), fraction(kb, b.n));
                Some((pa * (1.0 - pa) + pb * (1.0 - pb)).sqrt())
            },
        }
    };
    for (stat, (x, y)) in statistics.iter().zip(a.accs.iter().zip(&b.accs)) {
        match (x, y) {
            (&SampleAcc::Moments(na, ma, m2a), &SampleAcc::Moments(nb, mb, m2b)) => {
                let var = |n: u64, m2: f64| {
                    if n < 2 {
                        f64::NAN
                    } else {
                        m2 / (n - 1) as f64
                    }
                };
                let (low, high) = welch_moments(
                    (nb as f64, mb, var(nb, m2b)),
                    (na as f64, ma, var(na, m2a)),
                    alpha,
                )
                .map_or((f64::NAN, f64::NAN), |(_, lo, hi)| (lo, hi));
                let mean = |n: u64, m: f64| if n == 0 { f64::NAN } else { m };
                out.push(Estimate {
                    name: stat.name.into(),
                    scale: stat.scale,
                    n: na.min(nb),
                    value: mean(nb, mb),
                    reference: mean(na, ma),
                    low,
                    high,
                    alpha,
                    sigma: None,
                });
            }
            (&SampleAcc::Count(ka), &SampleAcc::Count(kb)) => {
                out.push(rate(stat.name.into(), ka, kb, alpha));
            }
            (SampleAcc::Categories(ca), SampleAcc::Categories(cb)) => {
                let keys: std::collections::BTreeSet<&String> =
                    ca.keys().chain(cb.keys()).collect();
                let each = alpha / keys.len().max(1) as f64;
                for k in keys {
                    let count = |m: &BTreeMap<String, u64>| m.get(k).copied().unwrap_or(0);
                    out.push(rate(
                        format!("{}:{k}", stat.name),
                        count(ca),
                        count(cb),
                        each,
                    ));
                }
            }
            _ => {}
        }
    }
    out
}

/// Two runs' game statistics on *different* shots (for example the event engine on two seeds
/// of a family, or two batches of another user's shots): each statistic of the family's game as
/// a difference `b - a` of independent samples, with Newcombe's hybrid score interval for rates
/// ([`super::interval::newcombe_independent`]), Welch's interval for means
/// ([`super::interval::welch_moments`]) and the two-sample energy test for the final cue
/// positions ([`super::energy::energy_test`], on the first [`ENERGY_PAIRS`] of each), at the
/// level of a floor's first look ([`cell_levels`]), judged as the paired comparison judges
/// them. Rows are labelled `family`/`table` and engine `b`; the verdict is `same in
/// distribution`, `differs` or `undecided` (no shot-by-shot comparison: the shots differ).
pub fn compare_independent(
    a: &[&OutcomeShotRow],
    b: &[&OutcomeShotRow],
    family: &str,
    table: &str,
    margins: &Margins,
    seed: u64,
) -> (Vec<DistributionRow>, DistributionVerdict) {
    let statistics = statistics_of(family, table);
    let (sa, sb) = (Sample::of(a, statistics), Sample::of(b, statistics));
    let n = sa.n.min(sb.n);
    let (alpha, _) = cell_levels(1, false, 1.0, statistics.len());
    let template = DistributionRow {
        family: family.to_string(),
        table: table.to_string(),
        engine: "b".into(),
        scheme: String::new(),
        dt_s: None,
        statistic: String::new(),
        n,
        value: f64::NAN,
        reference: None,
        diff: None,
        diff_low: None,
        diff_high: None,
        margin: None,
        alpha,
        p_value: None,
        decision: Decision::Undecided,
        looks: 1,
    };
    let mut rows = Vec::new();
    let mut found = Findings::default();
    judge_estimates(
        independent_estimates(statistics, &sa, &sb, alpha),
        margins,
        false,
        &template,
        &mut rows,
        &mut found,
    );
    let (ca, cb) = (
        &sa.cue[..sa.cue.len().min(ENERGY_PAIRS)],
        &sb.cue[..sb.cue.len().min(ENERGY_PAIRS)],
    );
    let t = energy_test(ca, cb, ENERGY_PERMUTATIONS, seed);
    rows.push(energy_row(
        &template,
        ca.len().min(cb.len()),
        Some((t.statistic, t.p_value)),
        (false, 1.0),
        &mut found,
    ));
    let (verdict, detail, shots) = verdict_of(n, false, None, None, found);
    let verdict = DistributionVerdict {
        family: family.to_string(),
        table: table.to_string(),
        engine: "b".into(),
        scheme: String::new(),
        dt_s: None,
        n,
        looks: 1,
        shot_by_shot: None,
        verdict,
        detail,
        shots_to_decide: shots,
    };
    (rows, verdict)
}

/// One statistic of one sample of runs ([`summarize_games`]): a rate with its Wilson interval, or a
/// mean with its Student-t interval.
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
    use super::interval::{mean_interval_moments, wilson};
    let statistics = rows
        .first()
        .map_or(&POOL_STATISTICS[..], |r| statistics_of(&r.family, &r.table));
    let s = Sample::of(rows, statistics);
    let rate = |name: String, k: u64| {
        let (low, high) = wilson(k, s.n, STUDY_ALPHA);
        SummaryStat {
            statistic: name,
            n: s.n,
            value: fraction(k, s.n),
            low,
            high,
        }
    };
    let mut out = Vec::new();
    for (stat, acc) in statistics.iter().zip(&s.accs) {
        match acc {
            &SampleAcc::Moments(n, mean, m2) => {
                let var = if n < 2 { f64::NAN } else { m2 / (n - 1) as f64 };
                let (low, high) = mean_interval_moments(n, mean, var, STUDY_ALPHA)
                    .map_or((f64::NAN, f64::NAN), |(_, lo, hi)| (lo, hi));
                out.push(SummaryStat {
                    statistic: stat.name.into(),
                    n,
                    value: if n == 0 { f64::NAN } else { mean },
                    low,
                    high,
                });
            }
            &SampleAcc::Count(k) => out.push(rate(stat.name.into(), k)),
            SampleAcc::Categories(map) => out.extend(
                map.iter()
                    .map(|(c, &k)| rate(format!("{}:{c}", stat.name), k)),
            ),
        }
    }
    out
}
