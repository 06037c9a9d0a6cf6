//! Shot by shot against the chaos floor: does an engine change shots' outcomes more often than
//! physical uncertainty does? On the same shots, the engine's disagreement with the reference
//! is compared with the floor's (the reference on the perturbed shot).
//!
//! The margin is relative to the floor's rate, with a small absolute part:
//!
//! ```text
//! within  <=>  rate - floor_rate <= absolute + relative x floor_rate
//! ```
//!
//! (defaults 0.5 points and 20 %, [`super::Margins`]; docs/outcomes.md says why). On breaks,
//! where the floor is the chaos plateau (40-55 % of breaks change when racked again), the
//! relative part dominates (8-11 points); on cut and bank shots, where the floor is 0-0.5 %, the
//! absolute part does, so an engine that changes a few times the floor's shots is never
//! within.
//!
//! Within is claimed when, with probability at least `1 - alpha`, the difference is below the
//! margin: Tango's interval of the paired difference (its upper end, one tail of `alpha / 2`)
//! below `absolute + relative x` the Wilson lower end of the floor's rate (the other
//! `alpha / 2`): a union bound, so the claim errs at most `alpha`. Above is claimed when the
//! same interval's lower end is above 0. The two claims cannot both be false for one true
//! difference, so each may spend the whole `alpha`. And an engine whose rate is shown to be
//! at least [`RATIO_GUARD`] times the floor's (the Wilson lower end of its rate above that
//! multiple of the floor's upper end) is never within, however large the absolute part.

use super::interval::{tango_paired, wilson};
use super::verdict::FloorVerdict;
use super::Margins;

/// An engine shown to change at least this many times the floor's shots is never within.
pub const RATIO_GUARD: f64 = 3.0;

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

/// The shot-by-shot judgement of one engine and field at one look.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShotByShot {
    /// Lower end of Tango's interval of rate - floor rate (level `1 - alpha`).
    pub diff_low: f64,
    /// Its upper end.
    pub diff_high: f64,
    /// The margin the upper end is held to: `absolute + relative x` the floor rate's lower
    /// bound (a probability).
    pub margin: f64,
    /// Whether the engine's rate is shown to be at least [`RATIO_GUARD`] times the floor's.
    pub several_times: bool,
    /// The verdict.
    pub verdict: FloorVerdict,
}

/// Judges `counts` at two-sided level `alpha` against `margins`' floor margin (see the module
/// docs). Undecided when no shot was played or a count is inconsistent.
pub fn judge(counts: &ShotCounts, alpha: f64, margins: &Margins) -> ShotByShot {
    let (diff_low, diff_high) = tango_paired(counts.only_run, counts.only_floor, counts.n, alpha);
    let (floor_low, floor_high) = wilson(counts.floor, counts.n, alpha);
    let (run_low, _) = wilson(counts.run, counts.n, alpha);
    let margin = margins.floor + margins.floor_relative * floor_low;
    let several_times = run_low > RATIO_GUARD * floor_high;
    let verdict = if diff_low.is_nan() || diff_high.is_nan() || margin.is_nan() {
        FloorVerdict::Undecided
    } else if diff_high <= margin && !several_times {
        FloorVerdict::Within
    } else if diff_low > 0.0 {
        FloorVerdict::Above
    } else {
        FloorVerdict::Undecided
    };
    ShotByShot {
        diff_low,
        diff_high,
        margin,
        several_times,
        verdict,
    }
}

/// About how many shots would decide an undecided judgement of `counts` at level `alpha`: the
/// interval's half-width modelled as `z sigma / sqrt(n) + z^2 / n` (`sigma^2` the share of
/// discordant shots: the score interval's width, which an interval with nothing discordant
/// shows as its `z^2 / n`), until its upper end fits under `margin` or, when the estimate is
/// above the margin, its lower end clears 0. `None` when the estimate sits on the margin's
/// edge or nothing was played. A planning hint: the estimate is taken to stay put.
pub fn shots_to_decide(counts: &ShotCounts, margin: f64, alpha: f64) -> Option<u64> {
    let n = counts.n;
    if n == 0 {
        return None;
    }
    let d = (counts.only_run as f64 - counts.only_floor as f64) / n as f64;
    let sigma = ((counts.only_run + counts.only_floor) as f64 / n as f64).sqrt();
    let z = super::interval::z_two_sided(alpha);
    let room = if d < margin { margin - d } else { d };
    let need = super::sequential::rate_shots_to_decide(sigma, z, room)?;
    Some(need.max(n + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(n: u64, only_run: u64, only_floor: u64, both: u64) -> ShotCounts {
        ShotCounts {
            n,
            run: only_run + both,
            floor: only_floor + both,
            only_run,
            only_floor,
        }
    }

    #[test]
    fn the_issue_cases_are_never_within() {
        let m = Margins::default();
        let alpha = 1e-3;
        // 3.1 % of cut shots changed against the floor's 0.09 % (99 of 3200 against 3).
        let j = judge(&counts(3200, 97, 1, 2), alpha, &m);
        assert_eq!(j.verdict, FloorVerdict::Above, "{j:?}");
        // 0.72 % against 0.12 % (23 of 3200 against 4).
        let j = judge(&counts(3200, 21, 2, 2), alpha, &m);
        assert_ne!(j.verdict, FloorVerdict::Within, "{j:?}");
        // An engine that never disagrees on a family whose floor never does: within once the
        // interval's z^2/n fits under half a point.
        assert_eq!(
            judge(&counts(3200, 0, 0, 0), alpha, &m).verdict,
            FloorVerdict::Within
        );
        assert_eq!(
            judge(&counts(800, 0, 0, 0), alpha, &m).verdict,
            FloorVerdict::Undecided
        );
    }

    #[test]
    fn breaks_are_judged_relative_to_the_plateau() {
        let m = Margins::default();
        let alpha = 1e-3;
        // 44 % floor, the engine at 45 %: decorrelated both ways (as a re-racked floor is).
        let j = judge(&counts(3200, 800, 768, 640), alpha, &m);
        assert!((j.margin - (0.005 + 0.2 * 0.41)).abs() < 0.01, "{j:?}");
        assert_eq!(j.verdict, FloorVerdict::Within, "{j:?}");
        // The engine at 58 % against 44 %: above.
        let j = judge(&counts(800, 250, 138, 214), alpha, &m);
        assert_eq!(j.verdict, FloorVerdict::Above, "{j:?}");
    }

    #[test]
    fn several_times_the_floor_is_never_within_whatever_the_absolute_part() {
        // A wide absolute part (10 points) and an engine at 5 x a 0.5 % floor on many shots.
        let m = Margins {
            floor: 0.1,
            ..Margins::default()
        };
        let c = counts(100_000, 2000, 0, 500);
        let j = judge(&c, 1e-3, &m);
        assert!(j.diff_high < m.floor, "{j:?}");
        assert!(j.several_times, "{j:?}");
        assert_eq!(j.verdict, FloorVerdict::Above, "{j:?}");
    }

    #[test]
    fn nothing_played_is_undecided_and_estimates_shots() {
        let m = Margins::default();
        let j = judge(&ShotCounts::default(), 1e-3, &m);
        assert_eq!(j.verdict, FloorVerdict::Undecided);
        let c = counts(800, 0, 0, 0);
        let j = judge(&c, 1e-3, &m);
        let need = shots_to_decide(&c, j.margin, 1e-3).unwrap();
        assert!((1500..=3200).contains(&need), "{need}");
        assert!(judge(&counts(need, 0, 0, 0), 1e-3, &m).verdict == FloorVerdict::Within);
    }
}
