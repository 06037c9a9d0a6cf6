//! Does an engine change the game's statistics? Per family and run, the distribution of what
//! the shots decided (balls pocketed, scratches, break success, which pockets receive a ball,
//! the first ball the cue ball touches, where the cue ball ends up) against the reference's on
//! the same shots, each as a paired difference with its interval and an equivalence margin;
//! then one verdict per family and engine: same shot by shot, same in distribution, differs,
//! or undecided. The chaos floor is held to the same statistics: a floor whose distribution
//! differs from the reference's is "not neutral" (it played another game, as a lattice rack
//! perturbed by the size of its gaps does), and the family's verdicts say so instead of using
//! it.
//!
//! Fed one shot's rows at a time ([`DistributionTally::add_shot`]), so the same rows in any
//! pieces (chunks, shards read back) give the same tables; its size is bounded by families x
//! runs x categories, plus [`ENERGY_PAIRS`] points per run.
//!
//! Error control: every interval of a look is taken at the level the group-sequential rule
//! gives it ([`super::sequential`]): three quarters of [`STUDY_ALPHA`] spread over looks as
//! 6/(pi^2 k^2) and over the look's statistics equally (Bonferroni); the remaining quarter is
//! the cue-position energy test's, which is taken once, on the first [`ENERGY_PAIRS`] shots.
//! So the chance that a study calls anything "differs" or "above" for an engine equal to the
//! floor is at most 5 % (`tests/calibration.rs` simulates it).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::energy::energy_test_paired;
use super::interval::{mean_interval_moments, tango_paired};
use super::sequential::{decide, floor_verdict, look_alpha, Decision, FloorVerdict};
use super::tally::{OutcomeShotRow, FLOOR, REFERENCE};

/// The study's overall error rate: the chance of any false "differs", "above" or "not
/// neutral" for one engine (or the floor) over a whole sequential study.
pub const STUDY_ALPHA: f64 = 0.05;
/// The share of [`STUDY_ALPHA`] spent on the interval statistics (over looks and statistics).
pub const INTERVAL_SHARE: f64 = 0.75;
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
    /// The shot-by-shot disagreement rate over the chaos floor's (`outcome` field): an engine
    /// is within the floor when its rate is at most this above the floor's: 0.05 by default.
    pub floor: f64,
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
            rate: 0.02,
            balls: 0.05,
            position_m: 0.05,
            floor: 0.05,
        }
    }
}

impl Margins {
    /// Checks every margin: rates in (0, 1), balls in (0, 15], positions in (0, 1] m.
    ///
    /// # Errors
    /// The first bad margin: its option name (`--margin-rate`, ...), its value and range.
    pub fn validate(&self) -> Result<(), String> {
        for (name, v, max) in [
            ("--margin-rate", self.rate, 1.0),
            ("--margin-balls", self.balls, 15.0),
            ("--margin-position", self.position_m, 1.0),
            ("--margin-floor", self.floor, 1.0),
        ] {
            if !(v.is_finite() && v > 0.0 && v <= max) || (max == 1.0 && v >= 1.0) {
                return Err(format!(
                    "{name} = {v:?}: must be a number in (0, {max}){}",
                    if max == 1.0 { "" } else { "]" }
                ));
            }
        }
        Ok(())
    }
}

/// What the game's statistics read off one run of one shot (one row).
#[derive(Clone, Debug, PartialEq)]
struct ShotStats {
    /// Object balls pocketed (every pocketed ball but the cue ball).
    objects: u32,
    scratch: bool,
    /// At least one object ball pocketed and no scratch.
    success: bool,
    /// Pockets that received an object ball.
    pockets: Vec<String>,
    /// The first ball the cue ball touched, `none` for none.
    first_contact: String,
    /// The cue ball's final position, when it ends on the cloth.
    cue: Option<[f64; 2]>,
    /// Whether it disagrees with the reference on `outcome`.
    disagree: bool,
}

impl ShotStats {
    fn of(row: &OutcomeShotRow) -> Self {
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
        }
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

/// One family and run against the reference on the same shots.
#[derive(Clone, Debug, PartialEq)]
struct Pair {
    engine: String,
    scheme: String,
    dt_s: Option<f64>,
    /// Shots paired (the run played them).
    n: u64,
    scratch: Binary,
    success: Binary,
    pockets: BTreeMap<String, Binary>,
    first_contact: BTreeMap<String, Binary>,
    balls: Moments,
    cue_x: Moments,
    cue_y: Moments,
    /// (run, reference) final cue positions of the first [`ENERGY_PAIRS`] shots with both on
    /// the cloth.
    points: Vec<([f64; 2], [f64; 2])>,
    /// Shot by shot on `outcome`: b = the run disagrees with the reference and the floor does
    /// not, c = the other way round (floor rows: unused).
    versus_floor: Binary,
    /// Sequential looks taken so far (1 for a study of a fixed size).
    looks: u32,
    /// The energy test (statistic, p-value) once its [`ENERGY_PAIRS`] points are in: they
    /// never change after, so it is taken once.
    energy: std::sync::OnceLock<(f64, f64)>,
}

impl Pair {
    fn new(row: &OutcomeShotRow) -> Self {
        Pair {
            engine: row.engine_label(),
            scheme: row.scheme.clone(),
            dt_s: row.dt_s,
            n: 0,
            scratch: Binary::default(),
            success: Binary::default(),
            pockets: BTreeMap::new(),
            first_contact: BTreeMap::new(),
            balls: Moments::default(),
            cue_x: Moments::default(),
            cue_y: Moments::default(),
            points: Vec::new(),
            versus_floor: Binary::default(),
            looks: 1,
            energy: std::sync::OnceLock::new(),
        }
    }

    fn add(&mut self, run: &ShotStats, reference: &ShotStats, floor: &ShotStats) {
        self.n += 1;
        self.scratch.add(run.scratch, reference.scratch);
        self.success.add(run.success, reference.success);
        for p in run.pockets.iter().chain(&reference.pockets) {
            self.pockets.entry(p.clone()).or_default();
        }
        for (p, counts) in self.pockets.iter_mut() {
            counts.add(run.pockets.contains(p), reference.pockets.contains(p));
        }
        for id in [&run.first_contact, &reference.first_contact] {
            self.first_contact.entry(id.clone()).or_default();
        }
        for (id, counts) in self.first_contact.iter_mut() {
            counts.add(run.first_contact == *id, reference.first_contact == *id);
        }
        self.balls
            .add(f64::from(run.objects), f64::from(reference.objects));
        if let (Some(a), Some(b)) = (run.cue, reference.cue) {
            self.cue_x.add(a[0], b[0]);
            self.cue_y.add(a[1], b[1]);
            if self.points.len() < ENERGY_PAIRS {
                self.points.push((a, b));
            }
        }
        self.versus_floor.add(run.disagree, floor.disagree);
    }

    /// The interval statistics, in table order: (name, kind, value).
    fn statistics(&self) -> Vec<(String, Stat)> {
        let mut out = vec![
            ("balls_pocketed".to_string(), Stat::Mean(self.balls)),
            ("scratch".to_string(), Stat::Rate(self.scratch)),
            ("success".to_string(), Stat::Rate(self.success)),
        ];
        out.extend(
            self.pockets
                .iter()
                .map(|(p, c)| (format!("pocket:{p}"), Stat::Rate(*c))),
        );
        out.extend(
            self.first_contact
                .iter()
                .map(|(id, c)| (format!("first_contact:{id}"), Stat::Rate(*c))),
        );
        out.push(("cue_x".into(), Stat::Position(self.cue_x)));
        out.push(("cue_y".into(), Stat::Position(self.cue_y)));
        out
    }
}

#[derive(Clone, Copy, Debug)]
enum Stat {
    Rate(Binary),
    Mean(Moments),
    Position(Moments),
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
    /// The equivalence margin of the statistic.
    pub margin: Option<f64>,
    /// The two-sided level the interval or test is taken at (after the sequential rule and
    /// Bonferroni).
    pub alpha: f64,
    /// The energy test's permutation p-value (`cue_position` only).
    pub p_value: Option<f64>,
    /// `same`, `differs`, `undecided` (engines; `within`, `above`, `undecided` for
    /// `shot_by_shot`; `pending` for an energy test not yet taken), or for the floor `neutral` /
    /// `not neutral`.
    pub decision: String,
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
    /// Shot by shot against the floor: `within the floor`, `above the floor`, `undecided`.
    pub shot_by_shot: String,
    /// `same shot by shot`, `same in distribution`, `differs`, `undecided`, or `floor not
    /// neutral`; for the floor's own row `neutral` / `not neutral`.
    pub verdict: String,
    /// Why: the statistic that differs and by how much, or how many shots would decide.
    pub detail: String,
}

impl DistributionVerdict {
    /// Whether sampling more shots could change this verdict (undecided, and not stopped by
    /// a floor that is not neutral).
    pub fn undecided(&self) -> bool {
        self.verdict == "undecided"
    }
}

impl DistributionTally {
    /// Adds one shot: its rows in any order (the reference's, the floor's, the engines').
    /// A shot without a reference and a floor row is ignored; a run that failed the shot is
    /// not paired on it.
    pub fn add_shot(&mut self, rows: &[OutcomeShotRow]) {
        let (Some(reference), Some(floor)) = (
            rows.iter().find(|r| r.run == REFERENCE),
            rows.iter().find(|r| r.run == FLOOR),
        ) else {
            return;
        };
        let (ref_stats, floor_stats) = (ShotStats::of(reference), ShotStats::of(floor));
        for row in rows.iter().filter(|r| r.run != REFERENCE) {
            let key = (row.family.clone(), row.table.clone(), row.run.clone());
            let pair = self.pairs.entry(key.clone()).or_insert_with(|| {
                self.order.push(key.clone());
                Pair::new(row)
            });
            if row.failure.is_empty() {
                pair.add(&ShotStats::of(row), &ref_stats, &floor_stats);
            }
        }
    }

    /// The two-sided level of the shot-by-shot interval of (`family`, `table`, `run`) at its
    /// look, as [`DistributionTally::evaluate`] takes it (NaN for a pair never seen).
    pub fn shot_alpha(&self, family: &str, table: &str, run: &str) -> f64 {
        self.pairs
            .get(&(family.to_string(), table.to_string(), run.to_string()))
            .map_or(f64::NAN, |p| {
                look_alpha(
                    STUDY_ALPHA * INTERVAL_SHARE,
                    p.looks,
                    p.statistics().len() as u32 + 1,
                )
            })
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
        let mut neutral: BTreeMap<(String, String), Option<String>> = BTreeMap::new();
        for key in self.order.iter().filter(|k| keep(k)) {
            let pair = &self.pairs[key];
            if pair.engine != FLOOR {
                continue;
            }
            let (r, v) = judge(key, pair, margins, last, seed, true);
            neutral.insert(
                (key.0.clone(), key.1.clone()),
                (v.verdict == "not neutral").then(|| v.detail.clone()),
            );
            rows.extend(r);
            verdicts.push(v);
        }
        for key in self.order.iter().filter(|k| keep(k)) {
            let pair = &self.pairs[key];
            if pair.engine == FLOOR {
                continue;
            }
            let (r, mut v) = judge(key, pair, margins, last, seed, false);
            if let Some(Some(why)) = neutral.get(&(key.0.clone(), key.1.clone())) {
                v.detail = format!("the floor is not neutral here ({why}); {}", v.detail);
                v.verdict = "floor not neutral".into();
            }
            rows.extend(r);
            verdicts.push(v);
        }
        (rows, verdicts)
    }
}

/// The rows and the verdict of one family and run (`floor`: judge the floor's neutrality).
fn judge(
    key: &(String, String, String),
    pair: &Pair,
    margins: &Margins,
    last: bool,
    seed: u64,
    floor: bool,
) -> (Vec<DistributionRow>, DistributionVerdict) {
    let stats = pair.statistics();
    // The shot-by-shot comparison with the floor is one more statistic for an engine.
    let s = stats.len() as u32 + u32::from(!floor);
    let alpha = look_alpha(STUDY_ALPHA * INTERVAL_SHARE, pair.looks, s);
    let row = |statistic: String| DistributionRow {
        family: key.0.clone(),
        table: key.1.clone(),
        engine: pair.engine.clone(),
        scheme: pair.scheme.clone(),
        dt_s: pair.dt_s,
        statistic,
        n: pair.n,
        value: f64::NAN,
        reference: None,
        diff: None,
        diff_low: None,
        diff_high: None,
        margin: None,
        alpha,
        p_value: None,
        decision: String::new(),
        looks: pair.looks,
    };
    let mut rows = Vec::new();
    let mut differs: Vec<(f64, String)> = Vec::new();
    let mut undecided: Vec<(Option<u64>, String)> = Vec::new();
    for (name, stat) in stats {
        let mut r = row(name.clone());
        let (value, reference, (lo, hi), margin, n) = match stat {
            Stat::Rate(c) => {
                let n = pair.n;
                let (lo, hi) = tango_paired(c.b, c.c, n, alpha);
                let frac = |k: u64| {
                    if n == 0 {
                        f64::NAN
                    } else {
                        k as f64 / n as f64
                    }
                };
                (frac(c.run), frac(c.reference), (lo, hi), margins.rate, n)
            }
            Stat::Mean(m) | Stat::Position(m) => {
                let margin = if matches!(stat, Stat::Mean(_)) {
                    margins.balls
                } else {
                    margins.position_m
                };
                let mean = |s: f64| if m.n == 0 { f64::NAN } else { s / m.n as f64 };
                let (lo, hi) = mean_interval_moments(m.n, m.mean, m.variance(), alpha)
                    .map_or((f64::NAN, f64::NAN), |(_, lo, hi)| (lo, hi));
                (
                    mean(m.run_sum),
                    mean(m.reference_sum),
                    (lo, hi),
                    margin,
                    m.n,
                )
            }
        };
        r.n = n;
        r.value = value;
        r.reference = Some(reference);
        r.diff = Some(value - reference);
        r.diff_low = Some(lo);
        r.diff_high = Some(hi);
        r.margin = Some(margin);
        let decision = decide(lo, hi, margin);
        r.decision = if floor {
            // The floor is neutral unless an interval clears 0.
            if lo > 0.0 || hi < 0.0 {
                differs.push((
                    (value - reference).abs() / margin,
                    describe(&name, value - reference, lo, hi),
                ));
                "not neutral".into()
            } else {
                "neutral".into()
            }
        } else {
            match decision {
                Decision::Same => "same".into(),
                Decision::Differs => {
                    differs.push((
                        (value - reference).abs() / margin,
                        describe(&name, value - reference, lo, hi),
                    ));
                    "differs".into()
                }
                Decision::Undecided => {
                    let half = (hi - lo) / 2.0;
                    let need =
                        super::sequential::shots_to_decide(half, n, margin, value - reference);
                    undecided.push((need, name.clone()));
                    "undecided".into()
                }
            }
        };
        rows.push(r);
    }
    // The cue ball's final position as a 2-D distribution: taken once, on the first
    // ENERGY_PAIRS shots (or at the last look on fewer).
    let energy_alpha = STUDY_ALPHA * (1.0 - INTERVAL_SHARE);
    let mut r = row("cue_position".into());
    r.alpha = energy_alpha;
    r.n = pair.points.len() as u64;
    if pair.points.len() >= ENERGY_PAIRS || (last && pair.points.len() >= 2) {
        let test = || {
            let (x, y): (Vec<[f64; 2]>, Vec<[f64; 2]>) = pair.points.iter().copied().unzip();
            let t = energy_test_paired(&x, &y, ENERGY_PERMUTATIONS, seed);
            (t.statistic, t.p_value)
        };
        let (statistic, p_value) = if pair.points.len() >= ENERGY_PAIRS {
            *pair.energy.get_or_init(test)
        } else {
            test()
        };
        r.value = statistic;
        r.p_value = Some(p_value);
        let rejects = p_value < energy_alpha;
        if rejects {
            differs.push((
                f64::INFINITY,
                format!("cue_position (energy test p = {p_value:.3})"),
            ));
        }
        r.decision = match (floor, rejects) {
            (true, true) => "not neutral",
            (true, false) => "neutral",
            (false, true) => "differs",
            (false, false) => "same",
        }
        .into();
    } else {
        r.decision = if floor { "neutral" } else { "pending" }.into();
        if !floor {
            undecided.push((Some(ENERGY_PAIRS as u64), "cue_position".into()));
        }
    }
    rows.push(r);
    // Shot by shot against the floor (engines only).
    let mut shot_by_shot = String::new();
    if !floor {
        let c = pair.versus_floor;
        let n = pair.n;
        let (lo, hi) = tango_paired(c.b, c.c, n, alpha);
        let frac = |k: u64| {
            if n == 0 {
                f64::NAN
            } else {
                k as f64 / n as f64
            }
        };
        let mut r = row("shot_by_shot".into());
        r.value = frac(c.run);
        r.reference = Some(frac(c.reference));
        r.diff = Some(frac(c.run) - frac(c.reference));
        r.diff_low = Some(lo);
        r.diff_high = Some(hi);
        r.margin = Some(margins.floor);
        let v = floor_verdict(lo, hi, margins.floor);
        shot_by_shot = match v {
            FloorVerdict::Within => "within the floor",
            FloorVerdict::Above => "above the floor",
            FloorVerdict::Undecided => "undecided",
        }
        .into();
        r.decision = match v {
            FloorVerdict::Within => "within",
            FloorVerdict::Above => "above",
            FloorVerdict::Undecided => "undecided",
        }
        .into();
        rows.push(r);
    }
    differs.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (verdict, detail) = if pair.n == 0 {
        ("undecided".to_string(), "no shot played".to_string())
    } else if floor {
        if differs.is_empty() {
            (
                "neutral".into(),
                "every interval contains 0 and the energy test does not reject".into(),
            )
        } else {
            ("not neutral".into(), differs[0].1.clone())
        }
    } else if !differs.is_empty() {
        ("differs".into(), differs[0].1.clone())
    } else if undecided.is_empty() {
        if shot_by_shot == "within the floor" {
            (
                "same shot by shot".into(),
                "within the floor shot by shot; every statistic within its margin".into(),
            )
        } else {
            (
                "same in distribution".into(),
                "every statistic within its margin".into(),
            )
        }
    } else {
        ("undecided".into(), undecided_detail(&undecided))
    };
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
    };
    (rows, v)
}

/// Why a verdict is undecided: how many statistics (the first three named) and about how many
/// shots would decide them all, or that one's difference sits near its margin.
fn undecided_detail(undecided: &[(Option<u64>, String)]) -> String {
    let names: Vec<&str> = undecided.iter().map(|u| u.1.as_str()).take(3).collect();
    let head = format!("{} undecided ({})", undecided.len(), names.join(", "));
    match undecided.iter().map(|u| u.0).collect::<Option<Vec<u64>>>() {
        Some(need) => format!(
            "{head}; about {} shots would decide",
            need.into_iter().max().unwrap_or(0)
        ),
        None => format!("{head}; a difference near its margin: more shots may not decide"),
    }
}

/// `balls_pocketed +0.21 [+0.12, +0.30]`.
fn describe(name: &str, d: f64, lo: f64, hi: f64) -> String {
    format!("{name} {d:+.3} [{lo:+.3}, {hi:+.3}]")
}

/// Independent samples of one statistic: counts for a yes/no statistic, values for a numeric
/// one.
#[derive(Clone, Debug, Default)]
struct Sample {
    n: u64,
    objects: Vec<f64>,
    scratch: u64,
    success: u64,
    pockets: BTreeMap<String, u64>,
    first_contact: BTreeMap<String, u64>,
    cue: Vec<[f64; 2]>,
}

impl Sample {
    fn of(rows: &[&OutcomeShotRow]) -> Self {
        let mut s = Sample::default();
        for row in rows.iter().filter(|r| r.failure.is_empty()) {
            let st = ShotStats::of(row);
            s.n += 1;
            s.objects.push(f64::from(st.objects));
            s.scratch += u64::from(st.scratch);
            s.success += u64::from(st.success);
            for p in st.pockets {
                *s.pockets.entry(p).or_default() += 1;
            }
            *s.first_contact.entry(st.first_contact).or_default() += 1;
            if let Some(c) = st.cue {
                s.cue.push(c);
            }
        }
        s
    }
}

/// Every category either sample has, in name order, as `<prefix>:<category>` with both
/// samples' counts (0 where a sample has none).
fn paired_counts(
    prefix: &str,
    a: &BTreeMap<String, u64>,
    b: &BTreeMap<String, u64>,
) -> Vec<(String, Option<(u64, u64)>)> {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|k| {
            let count = |m: &BTreeMap<String, u64>| m.get(k).copied().unwrap_or(0);
            (format!("{prefix}:{k}"), Some((count(a), count(b))))
        })
        .collect()
}

/// Two runs' game statistics on *different* shots (for example the event engine on two seeds
/// of a family, or two batches of another user's shots): each statistic as a difference `b -
/// a` of independent samples, with Newcombe's hybrid score interval for rates
/// ([`super::interval::newcombe_independent`]), Welch's interval for means
/// ([`super::interval::welch_interval`]) and the two-sample energy test for the final cue
/// positions ([`super::energy::energy_test`], on the first [`ENERGY_PAIRS`] of each), at the
/// levels of one look ([`STUDY_ALPHA`] shared as in [`DistributionTally::evaluate`]). Rows are
/// labelled `family`/`table` and engine `b`; the verdict is `same in distribution`, `differs`
/// or `undecided` (no shot-by-shot comparison: the shots differ).
pub fn compare_independent(
    a: &[&OutcomeShotRow],
    b: &[&OutcomeShotRow],
    family: &str,
    table: &str,
    margins: &Margins,
    seed: u64,
) -> (Vec<DistributionRow>, DistributionVerdict) {
    use super::energy::energy_test;
    use super::interval::{newcombe_independent, welch_interval};
    let (sa, sb) = (Sample::of(a), Sample::of(b));
    let mut names: Vec<(String, Option<(u64, u64)>)> = vec![
        ("balls_pocketed".into(), None),
        ("scratch".into(), Some((sa.scratch, sb.scratch))),
        ("success".into(), Some((sa.success, sb.success))),
    ];
    names.extend(paired_counts("pocket", &sa.pockets, &sb.pockets));
    names.extend(paired_counts(
        "first_contact",
        &sa.first_contact,
        &sb.first_contact,
    ));
    let s = names.len() as u32 + 2;
    let alpha = look_alpha(STUDY_ALPHA * INTERVAL_SHARE, 1, s);
    let mut rows = Vec::new();
    let mut differs: Vec<(f64, String)> = Vec::new();
    let mut undecided: Vec<(Option<u64>, String)> = Vec::new();
    let n = sa.n.min(sb.n);
    let mut judge = |name: String, va: f64, vb: f64, lo: f64, hi: f64, margin: f64| {
        let decision = decide(lo, hi, margin);
        match decision {
            Decision::Differs => {
                differs.push(((vb - va).abs() / margin, describe(&name, vb - va, lo, hi)))
            }
            Decision::Undecided => undecided.push((
                super::sequential::shots_to_decide((hi - lo) / 2.0, n, margin, vb - va),
                name.clone(),
            )),
            Decision::Same => {}
        }
        rows.push(DistributionRow {
            family: family.to_string(),
            table: table.to_string(),
            engine: "b".into(),
            scheme: String::new(),
            dt_s: None,
            statistic: name,
            n,
            value: vb,
            reference: Some(va),
            diff: Some(vb - va),
            diff_low: Some(lo),
            diff_high: Some(hi),
            margin: Some(margin),
            alpha,
            p_value: None,
            decision: match decision {
                Decision::Same => "same",
                Decision::Differs => "differs",
                Decision::Undecided => "undecided",
            }
            .into(),
            looks: 1,
        });
    };
    let frac = |k: u64, n: u64| {
        if n == 0 {
            f64::NAN
        } else {
            k as f64 / n as f64
        }
    };
    for (name, counts) in names {
        match counts {
            None => {
                let (d, lo, hi) = welch_interval(&sb.objects, &sa.objects, alpha).unwrap_or((
                    f64::NAN,
                    f64::NAN,
                    f64::NAN,
                ));
                let va = sa.objects.iter().sum::<f64>() / sa.objects.len().max(1) as f64;
                judge(name, va, va + d, lo, hi, margins.balls);
            }
            Some((ka, kb)) => {
                let (lo, hi) = newcombe_independent(kb, sb.n, ka, sa.n, alpha);
                judge(name, frac(ka, sa.n), frac(kb, sb.n), lo, hi, margins.rate);
            }
        }
    }
    for (k, name) in ["cue_x", "cue_y"].into_iter().enumerate() {
        let (xa, xb): (Vec<f64>, Vec<f64>) = (
            sa.cue.iter().map(|c| c[k]).collect(),
            sb.cue.iter().map(|c| c[k]).collect(),
        );
        let (d, lo, hi) = welch_interval(&xb, &xa, alpha).unwrap_or((f64::NAN, f64::NAN, f64::NAN));
        let va = xa.iter().sum::<f64>() / xa.len().max(1) as f64;
        judge(name.into(), va, va + d, lo, hi, margins.position_m);
    }
    let energy_alpha = STUDY_ALPHA * (1.0 - INTERVAL_SHARE);
    let (ca, cb) = (
        &sa.cue[..sa.cue.len().min(ENERGY_PAIRS)],
        &sb.cue[..sb.cue.len().min(ENERGY_PAIRS)],
    );
    let t = energy_test(ca, cb, ENERGY_PERMUTATIONS, seed);
    let rejects = t.p_value < energy_alpha;
    if rejects {
        differs.push((
            f64::INFINITY,
            format!("cue_position (energy test p = {:.3})", t.p_value),
        ));
    }
    rows.push(DistributionRow {
        family: family.to_string(),
        table: table.to_string(),
        engine: "b".into(),
        scheme: String::new(),
        dt_s: None,
        statistic: "cue_position".into(),
        n: ca.len().min(cb.len()) as u64,
        value: t.statistic,
        reference: None,
        diff: None,
        diff_low: None,
        diff_high: None,
        margin: None,
        alpha: energy_alpha,
        p_value: Some(t.p_value),
        decision: if rejects { "differs" } else { "same" }.into(),
        looks: 1,
    });
    differs.sort_by(|x, y| y.0.total_cmp(&x.0));
    let (verdict, detail) = if n == 0 {
        ("undecided".to_string(), "no shot played".to_string())
    } else if let Some(d) = differs.first() {
        ("differs".into(), d.1.clone())
    } else if undecided.is_empty() {
        (
            "same in distribution".into(),
            "every statistic within its margin".into(),
        )
    } else {
        ("undecided".into(), undecided_detail(&undecided))
    };
    let verdict = DistributionVerdict {
        family: family.to_string(),
        table: table.to_string(),
        engine: "b".into(),
        scheme: String::new(),
        dt_s: None,
        n,
        looks: 1,
        shot_by_shot: String::new(),
        verdict,
        detail,
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
/// batch's), each with its 95 % interval: `balls_pocketed`, `scratch`, `success`,
/// `pocket:<id>`, `first_contact:<id>`, `cue_x`, `cue_y`, in that order. Runs that failed are
/// left out.
pub fn summarize_games(rows: &[&OutcomeShotRow]) -> Vec<SummaryStat> {
    use super::interval::{mean_interval, wilson};
    let s = Sample::of(rows);
    let rate = |name: String, k: u64| {
        let (low, high) = wilson(k, s.n, STUDY_ALPHA);
        SummaryStat {
            statistic: name,
            n: s.n,
            value: if s.n == 0 {
                f64::NAN
            } else {
                k as f64 / s.n as f64
            },
            low,
            high,
        }
    };
    let mean = |name: &str, v: &[f64]| {
        let (value, low, high) = mean_interval(v, STUDY_ALPHA).unwrap_or((
            v.first().copied().unwrap_or(f64::NAN),
            f64::NAN,
            f64::NAN,
        ));
        SummaryStat {
            statistic: name.to_string(),
            n: v.len() as u64,
            value,
            low,
            high,
        }
    };
    let mut out = vec![
        mean("balls_pocketed", &s.objects),
        rate("scratch".into(), s.scratch),
        rate("success".into(), s.success),
    ];
    out.extend(
        s.pockets
            .iter()
            .map(|(p, &k)| rate(format!("pocket:{p}"), k)),
    );
    out.extend(
        s.first_contact
            .iter()
            .map(|(id, &k)| rate(format!("first_contact:{id}"), k)),
    );
    let xs: Vec<f64> = s.cue.iter().map(|c| c[0]).collect();
    let ys: Vec<f64> = s.cue.iter().map(|c| c[1]).collect();
    out.push(mean("cue_x", &xs));
    out.push(mean("cue_y", &ys));
    out
}
