//! Confidence intervals for proportions: Wilson's score interval at any two-sided level.
//!
//! `alpha` is the two-sided level (e.g. `0.05` for a 95 % interval) and must lie strictly inside
//! `(0, 1)`; any other value (including NaN) yields `(NaN, NaN)`. No function panics on any
//! input. (The outcome study's claims use the confidence sequences of [`crate::stats::betting`]; a
//! rate's description keeps Wilson's interval.)
//!
//! Reference: E. B. Wilson, "Probable inference, the law of succession, and statistical
//! inference", J. Am. Stat. Assoc. 22:209-212, 1927. Quantiles come from `statrs` (normal:
//! inverse error function).

use statrs::distribution::{ContinuousCDF, Normal};

/// Two-sided standard-normal critical value `z = Phi^-1(1 - alpha / 2)`.
///
/// `alpha` is the two-sided level: `0.05` gives `1.959964`. Returns NaN when
/// `alpha` is NaN or outside the open interval `(0, 1)`.
pub fn z_two_sided(alpha: f64) -> f64 {
    if !valid_alpha(alpha) {
        return f64::NAN;
    }
    Normal::standard().inverse_cdf(1.0 - alpha / 2.0)
}

/// Wilson score interval for a binomial proportion `k / n` (Wilson 1927).
///
/// With `p = k / n` and `z = z_two_sided(alpha)`, the limits are
/// `(p + z^2 / 2n +- z sqrt(p (1 - p) / n + z^2 / 4n^2)) / (1 + z^2 / n)`.
/// Returns `(lower, upper)` as proportions in `[0, 1]`.
///
/// Edge cases: the lower limit is exactly `0` at `k = 0` and the upper limit
/// exactly `1` at `k = n`; `n = 0`, `k > n` or an invalid `alpha` give
/// `(NaN, NaN)`.
pub fn wilson(k: u64, n: u64, alpha: f64) -> (f64, f64) {
    let z = z_two_sided(alpha);
    if n == 0 || k > n || z.is_nan() {
        return (f64::NAN, f64::NAN);
    }
    let nf = n as f64;
    let p = k as f64 / nf;
    let z2 = z * z;
    let denom = 1.0 + z2 / nf;
    let centre = (p + z2 / (2.0 * nf)) / denom;
    let half = z / denom * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt();
    let lo = if k == 0 {
        0.0
    } else {
        (centre - half).clamp(0.0, 1.0)
    };
    let hi = if k == n {
        1.0
    } else {
        (centre + half).clamp(0.0, 1.0)
    };
    (lo, hi)
}

/// True when `alpha` is a usable two-sided level, i.e. in `(0, 1)`.
fn valid_alpha(alpha: f64) -> bool {
    alpha > 0.0 && alpha < 1.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn z_matches_tables() {
        assert!(close(z_two_sided(0.05), 1.959_963_984_540_054, 1e-9));
        assert!(close(z_two_sided(0.10), 1.644_853_626_951_472, 1e-9));
        assert!(close(z_two_sided(0.01), 2.575_829_303_548_901, 1e-9));
        for bad in [0.0, 1.0, -0.1, 1.5, f64::NAN, f64::INFINITY] {
            assert!(z_two_sided(bad).is_nan(), "alpha = {bad}");
        }
    }

    #[test]
    fn wilson_reference_values() {
        // Closed forms at the boundaries (upper limit at k = 0 is z^2/(n + z^2),
        // lower limit at k = n is n/(n + z^2)); 0/10 -> 0.2775 also appears in
        // Newcombe (1998), Stat. Med. 17:873-890, Table II, row (e). 5/10 is
        // hand-computed from the formula: 0.5 +- 0.2634.
        let (lo, hi) = wilson(0, 10, 0.05);
        assert_eq!(lo, 0.0);
        assert!(close(hi, 0.2775, 5e-5));
        let (lo, hi) = wilson(10, 10, 0.05);
        assert!(close(lo, 0.7225, 5e-5));
        assert_eq!(hi, 1.0);
        let (lo, hi) = wilson(5, 10, 0.05);
        assert!(close(lo, 0.2366, 5e-5) && close(hi, 0.7634, 5e-5));
        let z2 = z_two_sided(0.05).powi(2);
        assert!(close(wilson(0, 37, 0.05).1, z2 / (37.0 + z2), 1e-14));
    }

    #[test]
    fn wilson_edge_cases() {
        let (lo, hi) = wilson(0, 0, 0.05);
        assert!(lo.is_nan() && hi.is_nan());
        assert!(wilson(11, 10, 0.05).0.is_nan());
        assert!(wilson(3, 10, f64::NAN).0.is_nan());
        let (lo, hi) = wilson(u64::MAX, u64::MAX, 0.05);
        assert!(lo > 0.99 && hi == 1.0);
        for k in 0..=20 {
            let (lo, hi) = wilson(k, 20, 0.05);
            let p = k as f64 / 20.0;
            assert!(0.0 <= lo && lo <= p && p <= hi && hi <= 1.0);
        }
    }
}
