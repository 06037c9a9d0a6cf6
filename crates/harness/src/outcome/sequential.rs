//! Group-sequential decision rule: look at the data repeatedly while adding
//! shots, and keep the overall false-alarm rate at most `alpha`.
//!
//! Looks happen at `n_k = first * 2^(k - 1)` shots, `k = 1, 2, ...`, capped at
//! a budget ([`look_sizes`]). Look `k` spends
//!
//! ```text
//! alpha_k = alpha * 6 / (pi^2 k^2),      sum_{k >= 1} alpha_k = alpha
//! ```
//!
//! (the Basel sum `sum 1/k^2 = pi^2 / 6`), and within a look the `S`
//! statistics share `alpha_k` equally, `alpha_k / S` each ([`look_alpha`]).
//! Each statistic's interval at look `k` is a two-sided `1 - alpha_k / S`
//! interval. By the union (Bonferroni) bound over all looks and statistics,
//! the probability that any interval at any look misses its true value is at
//! most `sum_k S * alpha_k / S = alpha`, whatever the data-dependent stopping
//! time and without fixing the number of looks in advance ("alpha spending by
//! a convergent series"; cf. the alpha-spending framework of K. K. G. Lan and
//! D. L. DeMets, Biometrika 70:659-663, 1983, here with a spending sequence
//! that needs no maximum sample size). The bound is conservative.
//! Anytime-valid confidence sequences (S. R. Howard, A. Ramdas, J. McAuliffe
//! and J. Sekhon, "Time-uniform, nonparametric, nonasymptotic confidence
//! sequences", Ann. Stat. 49(2):1055-1080, 2021) are a sharper alternative and
//! are not used here.
//!
//! A "false alarm" is a [`Decision::Differs`] or [`FloorVerdict::Above`] for a
//! statistic whose true difference is zero; it needs an interval that excludes
//! the true value, so its probability over the whole study is at most `alpha`
//! (asymptotically, for the approximate intervals of the `interval` module).
//! Intervals come from the sibling `interval` module (e.g. `tango_paired`,
//! `mean_interval`) called with `alpha = look_alpha(alpha, k, S)`.

use std::f64::consts::PI;

pub use super::verdict::{Decision, FloorVerdict};

/// Two-sided level for one statistic at look `look` (1-based) when
/// `statistics` statistics share each look:
/// `alpha * 6 / (pi^2 look^2) / statistics`.
///
/// Summed over all looks and statistics this is `alpha` (union bound, see the
/// module docs). Edge cases: `look = 0` or `statistics = 0` give `0` (no
/// level to spend); NaN `alpha` gives NaN. `alpha` is otherwise used as given
/// (callers normally pass a value in `(0, 1)`).
pub fn look_alpha(alpha: f64, look: u32, statistics: u32) -> f64 {
    if look == 0 || statistics == 0 {
        return 0.0;
    }
    let k = f64::from(look);
    alpha * 6.0 / (PI * PI * k * k) / f64::from(statistics)
}

/// Cumulative sample sizes (shots) at which to look:
/// `first, 2 first, 4 first, ...` while below `max`, then `max` itself.
///
/// The result is strictly increasing and ends at `max`: when `max` is a
/// power-of-two multiple of `first` the last look is that multiple (e.g.
/// `(100, 3200)` gives `[100, 200, 400, 800, 1600, 3200]`); otherwise the
/// doubling stops at the last multiple below `max` and `max` is appended
/// (`(100, 3000)` gives `[100, 200, 400, 800, 1600, 3000]`).
///
/// Edge cases: `max = 0` gives an empty vector; `first = 0` or `first >= max`
/// gives `[max]`; doubling never overflows (it stops at `max`).
pub fn look_sizes(first: u64, max: u64) -> Vec<u64> {
    if max == 0 {
        return Vec::new();
    }
    if first == 0 || first >= max {
        return vec![max];
    }
    let mut sizes = Vec::new();
    let mut n = first;
    while n < max {
        sizes.push(n);
        match n.checked_mul(2) {
            Some(next) => n = next,
            None => break,
        }
    }
    sizes.push(max);
    sizes
}

/// Classifies an interval `[lo, hi]` for a difference against an equivalence
/// `margin` (same units as the interval).
///
/// [`Decision::Same`] when `-margin <= lo` and `hi <= margin`; otherwise
/// [`Decision::Differs`] when the interval excludes 0 (`lo > 0` or `hi < 0`);
/// otherwise [`Decision::Undecided`]. An interval inside the margin is `Same`
/// even if it excludes 0. Edge cases: NaN in `lo`, `hi` or `margin`, or
/// `lo > hi`, gives `Undecided`; a negative margin never yields `Same`.
pub fn decide(lo: f64, hi: f64, margin: f64) -> Decision {
    if lo.is_nan() || hi.is_nan() || margin.is_nan() || lo > hi {
        return Decision::Undecided;
    }
    if -margin <= lo && hi <= margin {
        Decision::Same
    } else if lo > 0.0 || hi < 0.0 {
        Decision::Differs
    } else {
        Decision::Undecided
    }
}

/// Rough total number of shots that would decide an interval centred at `centre`
/// either way, given that its half-width is `half_width` after `n` shots and
/// scales as `1 / sqrt(n)`: when `|centre| < margin`, until it fits inside
/// `[-margin, margin]` (`ceil(n * (half_width / (margin - |centre|))^2)`);
/// otherwise until it clears 0 (`ceil(n * (half_width / |centre|)^2)`); at
/// least 1.
///
/// It assumes the point estimate stays put and ignores the smaller level of
/// later looks (which widens intervals by a few per cent per look), so treat
/// it as a planning hint, not a guarantee. The value may be below `n` when the
/// interval already fits.
///
/// Edge cases: `None` when `n = 0`, when `half_width` is negative, when the
/// margin is not positive, or when any argument is NaN or infinite. Saturates
/// at `u64::MAX`.
pub fn shots_to_decide(half_width: f64, n: u64, margin: f64, centre: f64) -> Option<u64> {
    if n == 0 || !half_width.is_finite() || !margin.is_finite() || !centre.is_finite() {
        return None;
    }
    if half_width < 0.0 || margin <= 0.0 {
        return None;
    }
    let room = if centre.abs() < margin {
        margin - centre.abs()
    } else {
        centre.abs()
    };
    let needed = (n as f64 * (half_width / room).powi(2)).ceil();
    // Float-to-int `as` saturates, so huge values become u64::MAX.
    Some((needed as u64).max(1))
}

/// Rough total number of shots at which a rate difference's score interval would fit: its
/// half-width modelled as `z sigma / sqrt(n) + z^2 / n` (`sigma`: the per-shot standard
/// deviation of the difference, e.g. the square root of the share of discordant pairs; the
/// `z^2 / n` term is what an interval with nothing discordant shows, which a `1/sqrt(n)`
/// scaling would overestimate many times), until it is within `room` of the estimate
/// (`margin - |estimate|` to fit inside the margin, `|estimate|` to clear 0). A planning hint,
/// as [`shots_to_decide`]. `None` when `room` is not positive or an argument is not finite.
pub fn rate_shots_to_decide(sigma: f64, z: f64, room: f64) -> Option<u64> {
    if !(room > 0.0 && sigma >= 0.0 && z > 0.0 && sigma.is_finite() && z.is_finite()) {
        return None;
    }
    // z^2 x^2 + z sigma x = room, x = 1 / sqrt(n).
    let x = (-z * sigma + (z * z * sigma * sigma + 4.0 * z * z * room).sqrt()) / (2.0 * z * z);
    let need = (1.0 / (x * x)).ceil();
    Some((need as u64).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alpha_spends_at_most_alpha() {
        assert!((look_alpha(0.05, 1, 1) - 0.05 * 6.0 / (PI * PI)).abs() < 1e-15);
        assert!((look_alpha(0.05, 3, 10) - 0.05 * 6.0 / (PI * PI * 9.0) / 10.0).abs() < 1e-15);
        let spent: f64 = (1..=100_000u32)
            .map(|k| 10.0 * look_alpha(0.05, k, 10))
            .sum();
        assert!(spent < 0.05 && spent > 0.05 * (1.0 - 1e-4), "spent {spent}");
        assert_eq!(look_alpha(0.05, 0, 10), 0.0);
        assert_eq!(look_alpha(0.05, 1, 0), 0.0);
        assert!(look_alpha(f64::NAN, 1, 1).is_nan());
    }

    #[test]
    fn look_sizes_schedule() {
        assert_eq!(look_sizes(100, 3200), vec![100, 200, 400, 800, 1600, 3200]);
        assert_eq!(look_sizes(100, 3000), vec![100, 200, 400, 800, 1600, 3000]);
        assert_eq!(look_sizes(100, 100), vec![100]);
        assert_eq!(look_sizes(500, 100), vec![100]);
        assert_eq!(look_sizes(0, 100), vec![100]);
        assert_eq!(look_sizes(7, 0), Vec::<u64>::new());
        let big = look_sizes(3, u64::MAX);
        assert_eq!(big.last(), Some(&u64::MAX));
        assert!(big.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(big.len(), 64);
    }

    #[test]
    fn decide_cases() {
        assert_eq!(decide(-0.01, 0.02, 0.05), Decision::Same);
        assert_eq!(decide(0.01, 0.04, 0.05), Decision::Same); // inside margin wins
        assert_eq!(decide(-0.05, 0.05, 0.05), Decision::Same); // closed at the margin
        assert_eq!(decide(0.01, 0.09, 0.05), Decision::Differs);
        assert_eq!(decide(-0.2, -0.1, 0.05), Decision::Differs);
        assert_eq!(decide(-0.02, 0.09, 0.05), Decision::Undecided);
        assert_eq!(decide(f64::NAN, 0.01, 0.05), Decision::Undecided);
        assert_eq!(decide(0.0, f64::NAN, 0.05), Decision::Undecided);
        assert_eq!(decide(-0.01, 0.01, f64::NAN), Decision::Undecided);
        assert_eq!(decide(0.02, 0.01, 0.05), Decision::Undecided);
        assert_eq!(decide(-0.01, 0.01, -0.05), Decision::Undecided);
        assert_eq!(
            decide(f64::NEG_INFINITY, f64::INFINITY, 0.05),
            Decision::Undecided
        );
    }

    #[test]
    fn rate_shots_to_decide_follows_the_score_interval() {
        // Nothing discordant: z^2 / room, the n at which z^2 / n fits.
        assert_eq!(rate_shots_to_decide(0.0, 3.0, 0.02), Some(450));
        // Half the shots discordant: the z sigma / sqrt(n) term dominates.
        let n = rate_shots_to_decide(0.5_f64.sqrt(), 3.0, 0.05).unwrap();
        assert!((2000..2300).contains(&n), "{n}");
        assert_eq!(rate_shots_to_decide(0.1, 3.0, 0.0), None);
        assert_eq!(rate_shots_to_decide(f64::NAN, 3.0, 0.1), None);
    }

    #[test]
    fn shots_to_decide_cases() {
        // Half-width 0.1 at n = 100 and room 0.05: (0.1 / 0.05)^2 * 100 = 400.
        assert_eq!(shots_to_decide(0.1, 100, 0.05, 0.0), Some(400));
        // Centre 0.02 leaves room 0.03: 100 * (0.1 / 0.03)^2 = 1111.1 -> 1112.
        assert_eq!(shots_to_decide(0.1, 100, 0.05, 0.02), Some(1112));
        assert_eq!(shots_to_decide(0.1, 100, 0.05, -0.02), Some(1112));
        assert_eq!(shots_to_decide(0.01, 100, 0.05, 0.0), Some(4)); // already fits
        assert_eq!(shots_to_decide(0.0, 100, 0.05, 0.0), Some(1));
        // At or beyond the margin: until the interval clears 0.
        assert_eq!(shots_to_decide(0.1, 100, 0.05, 0.05), Some(400));
        assert_eq!(shots_to_decide(0.1, 100, 0.05, -0.2), Some(25));
        assert_eq!(shots_to_decide(0.1, 100, 0.0, 0.0), None);
        assert_eq!(shots_to_decide(0.1, 0, 0.05, 0.0), None);
        assert_eq!(shots_to_decide(f64::NAN, 100, 0.05, 0.0), None);
        assert_eq!(shots_to_decide(0.1, 100, f64::NAN, 0.0), None);
        assert_eq!(shots_to_decide(-0.1, 100, 0.05, 0.0), None);
        assert_eq!(
            shots_to_decide(1e300, u64::MAX, 1e-300, 0.0),
            Some(u64::MAX)
        );
    }
}
