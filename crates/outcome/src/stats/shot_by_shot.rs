//! Shot by shot against the chaos floor: does an engine change shots' outcomes more often than
//! physical uncertainty does? On the same shots, the engine's disagreement with the reference
//! is compared with the floor's (the reference on the perturbed shot).
//!
//! The floor margin is relative to the floor's rate, with a small absolute part:
//!
//! ```text
//! within  <=>  rate - floor_rate <= a + r floor_rate  <=>  E[d_run - (1 + r) d_floor] <= a
//! ```
//!
//! (defaults a = 0.5 points and r = 20 %, [`crate::stats::levels::Margins`]; docs/outcomes.md says why), where
//! `d_run` and `d_floor` say whether the engine and the floor changed a shot's outcome. So the
//! margin is one bounded mean of per-shot values `z = d_run - (1 + r) d_floor` in
//! `[-(1 + r), 1]`, tested by betting ([`crate::stats::betting`]): **within** when the mean of `z` is
//! shown below `a` (one test at the cell's level, no union with an estimate of the floor's
//! rate), **beyond** when it is shown above `a`. The two cannot both be true, so each spends
//! what the cell gives it. The reports show the plain difference `rate - floor_rate` with its
//! confidence sequence at the cell's level, beside the margin at the floor's observed rate.

use crate::stats::betting::{Sequence, Side};
use crate::stats::levels::Margins;
use crate::stats::verdict::FloorVerdict;

/// Counts of one field on `n` shots played by the engine and the floor.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ShotCounts {
    /// Shots both played.
    pub n: u64,
    /// Shots where the engine disagrees with the reference.
    pub run: u64,
    /// Shots where the floor disagrees with the reference.
    pub floor: u64,
    /// Shots where the engine disagrees and the floor does not.
    pub only_run: u64,
    /// Shots where the floor disagrees and the engine does not.
    pub only_floor: u64,
}

impl ShotCounts {
    /// Adds one shot: whether the engine and the floor disagree with the reference.
    pub fn add(&mut self, run: bool, floor: bool) {
        self.n += 1;
        self.run += u64::from(run);
        self.floor += u64::from(floor);
        self.only_run += u64::from(run && !floor);
        self.only_floor += u64::from(floor && !run);
    }

    /// Adds `other`'s shots.
    pub fn absorb(&mut self, other: &ShotCounts) {
        self.n += other.n;
        self.run += other.run;
        self.floor += other.floor;
        self.only_run += other.only_run;
        self.only_floor += other.only_floor;
    }

    /// Shots where both disagree.
    pub fn both(&self) -> u64 {
        self.run - self.only_run
    }

    /// The engine's rate (NaN at n = 0).
    pub fn rate(&self) -> f64 {
        fraction(self.run, self.n)
    }

    /// The floor's rate on the same shots (NaN at n = 0).
    pub fn floor_rate(&self) -> f64 {
        fraction(self.floor, self.n)
    }
}

fn fraction(k: u64, n: u64) -> f64 {
    if n == 0 {
        f64::NAN
    } else {
        k as f64 / n as f64
    }
}

/// [`ShotCounts`] batch by batch, the last batch open until [`BatchedCounts::close`]: what
/// the betting tests read. A batch ends at the end of a look and whenever the shots reach a
/// power of two from [`FIRST_SPLIT`] on ([`splits_at`]), so that the bets follow the data
/// within a long look too.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BatchedCounts {
    batches: Vec<ShotCounts>,
    open: bool,
    n: u64,
}

/// The fewest shots after which a batch ends by itself ([`splits_at`]).
pub const FIRST_SPLIT: u64 = 16;

/// Whether a batch ends by itself after the `n`-th shot: at 16, 32, 64, ... shots (the bets
/// of [`crate::stats::betting`] are made again from everything before, as WSR's predictable bets are
/// after every observation; at powers of two the histograms stay few).
pub fn splits_at(n: u64) -> bool {
    n >= FIRST_SPLIT && n.is_power_of_two()
}

impl BatchedCounts {
    /// Adds one shot to the open batch (opening one if none is).
    pub fn add(&mut self, run: bool, floor: bool) {
        if !self.open {
            self.batches.push(ShotCounts::default());
            self.open = true;
        }
        self.batches
            .last_mut()
            .expect("a batch is open")
            .add(run, floor);
        self.n += 1;
        if splits_at(self.n) {
            self.open = false;
        }
    }

    /// Ends the open batch (nothing when none is open).
    pub fn close(&mut self) {
        self.open = false;
    }

    /// Every batch's counts, the open one last.
    pub fn batches(&self) -> &[ShotCounts] {
        &self.batches
    }

    /// The counts over every batch.
    pub fn total(&self) -> ShotCounts {
        let mut t = ShotCounts::default();
        for b in &self.batches {
            t.absorb(b);
        }
        t
    }

    /// The per-shot values `value(d_run, d_floor)` in `[lo, hi]`, batch by batch.
    fn sequence(&self, (lo, hi): (f64, f64), value: impl Fn(bool, bool) -> f64) -> Sequence {
        let mut s = Sequence::exact(lo, hi);
        for b in &self.batches {
            let both = b.both();
            let neither = b.n - b.only_run - b.only_floor - both;
            s.push_many(value(true, false), b.only_run);
            s.push_many(value(false, true), b.only_floor);
            s.push_many(value(true, true), both);
            s.push_many(value(false, false), neither);
            s.close();
        }
        s
    }
}

/// The shot-by-shot judgement of one engine and field at one look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShotByShot {
    /// `rate - floor_rate`.
    pub diff: f64,
    /// The lower end of the confidence sequence of `rate - floor_rate` at the cell's level.
    pub diff_low: f64,
    /// Its upper end.
    pub diff_high: f64,
    /// The margin at the floor's observed rate: `a + r floor_rate` (the test itself holds
    /// `rate - (1 + r) floor_rate` to `a`, see the module docs).
    pub margin: f64,
    /// The verdict.
    pub verdict: FloorVerdict,
    /// Whether the per-shot mean lies beyond the margin (where more shots would show it).
    pub leans_beyond: bool,
    /// About how many shots in all would decide it, when undecided (a planning hint).
    pub shots_to_decide: Option<u64>,
}

/// Judges `counts`: within the floor margin at level `keeps_alpha`, beyond it at level
/// `changes_alpha` (see the module docs). Undecided when nothing was played.
pub fn judge(
    counts: &BatchedCounts,
    keeps_alpha: f64,
    changes_alpha: f64,
    margins: &Margins,
) -> ShotByShot {
    let (a, r) = (margins.floor, margins.floor_relative);
    let total = counts.total();
    let z = counts.sequence((-(1.0 + r), 1.0), |run, floor| {
        f64::from(u8::from(run)) - (1.0 + r) * f64::from(u8::from(floor))
    });
    let d = counts.sequence((-1.0, 1.0), |run, floor| {
        f64::from(u8::from(run)) - f64::from(u8::from(floor))
    });
    let verdict = if total.n == 0 {
        FloorVerdict::Undecided
    } else if z.shows(Side::Below, a, keeps_alpha) {
        FloorVerdict::Within
    } else if z.shows(Side::Above, a, changes_alpha) {
        FloorVerdict::Beyond
    } else {
        FloorVerdict::Undecided
    };
    let shots_to_decide = (verdict == FloorVerdict::Undecided && total.n > 0)
        .then(|| {
            z.shots_to_show(Side::Below, a, keeps_alpha)
                .or_else(|| z.shots_to_show(Side::Above, a, changes_alpha))
                .map(|need| need.max(total.n + 1))
        })
        .flatten();
    let (diff_low, diff_high) = d.interval(keeps_alpha);
    ShotByShot {
        diff: total.rate() - total.floor_rate(),
        diff_low,
        diff_high,
        margin: a + r * total.floor_rate(),
        verdict,
        leans_beyond: z.mean() > a,
        shots_to_decide,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One look of `n` shots: `only_run`, `only_floor`, `both` as given, in a shuffled order.
    fn counts(n: u64, only_run: u64, only_floor: u64, both: u64) -> BatchedCounts {
        let mut order: Vec<u64> = (0..n).collect();
        let mut rng = pool_sim::SplitMix::new(n ^ only_run ^ (only_floor << 20));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.index(i + 1));
        }
        let mut c = BatchedCounts::default();
        for k in order {
            let (run, floor) = if k < only_run {
                (true, false)
            } else if k < only_run + only_floor {
                (false, true)
            } else if k < only_run + only_floor + both {
                (true, true)
            } else {
                (false, false)
            };
            c.add(run, floor);
        }
        c
    }

    fn judge_at(c: &BatchedCounts, alpha: f64) -> ShotByShot {
        judge(c, alpha, alpha / 2.0, &Margins::default())
    }

    #[test]
    fn cut_shots_far_beyond_or_clearly_within() {
        let alpha = 0.05 / 13.0;
        // 3.1 % of cut shots changed against the floor's 0.09 %: beyond.
        let j = judge_at(&counts(3200, 97, 1, 2), alpha);
        assert_eq!(j.verdict, FloorVerdict::Beyond, "{j:?}");
        // 0.72 % against 0.12 %: +0.6 points, just beyond the 0.52-point margin: not within.
        let j = judge_at(&counts(3200, 21, 2, 2), alpha);
        assert_ne!(j.verdict, FloorVerdict::Within, "{j:?}");
        // Nothing changed on a family the floor never changes: within by 1600 shots, not 800
        // (a bounded mean needs about ln(1/alpha) (1 - a) / (c a) shots of zeros to clear half a
        // point).
        assert_eq!(
            judge_at(&counts(800, 0, 0, 0), alpha).verdict,
            FloorVerdict::Undecided
        );
        assert_eq!(
            judge_at(&counts(1600, 0, 0, 0), alpha).verdict,
            FloorVerdict::Within
        );
    }

    #[test]
    fn breaks_are_judged_relative_to_the_plateau() {
        let alpha = 0.05 / 13.0;
        // 44 % floor, the engine at 45 %, decorrelated: within at 3200.
        let j = judge_at(&counts(3200, 800, 768, 640), alpha);
        assert!((j.margin - (0.005 + 0.2 * 0.44)).abs() < 0.005, "{j:?}");
        assert_eq!(j.verdict, FloorVerdict::Within, "{j:?}");
        // The engine at 75 % against 44 %: beyond.
        let j = judge_at(&counts(800, 310, 62, 290), alpha);
        assert_eq!(j.verdict, FloorVerdict::Beyond, "{j:?}");
        // Its difference's interval holds the observed difference.
        let d = 0.75 - 0.44;
        assert!(j.diff_low < d && d < j.diff_high, "{j:?}");
    }

    #[test]
    fn nothing_played_is_undecided_and_estimates_shots() {
        let m = Margins::default();
        let j = judge(&BatchedCounts::default(), 1e-3, 5e-4, &m);
        assert_eq!(j.verdict, FloorVerdict::Undecided);
        assert_eq!(j.shots_to_decide, None);
        let mut c = counts(200, 0, 0, 0);
        c.close();
        let j = judge(&c, 1e-3, 5e-4, &m);
        let need = j.shots_to_decide.unwrap();
        assert!((1000..=3000).contains(&need), "{need}");
        // A planning hint: the early batches' bets are the prior's, so twice it decides.
        for _ in 200..2 * need {
            c.add(false, false);
        }
        assert_eq!(judge(&c, 1e-3, 5e-4, &m).verdict, FloorVerdict::Within);
    }
}
