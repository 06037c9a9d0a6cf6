//! Confidence intervals for proportions, differences of proportions and
//! differences of means.
//!
//! Every function takes a two-sided level `alpha` (e.g. `0.05` for a 95 %
//! interval). `alpha` must lie strictly inside `(0, 1)`; any other value
//! (including NaN) yields `(NaN, NaN)` for the proportion intervals and `None`
//! for the mean intervals. No function panics on any input.
//!
//! | function | parameter | method |
//! | --- | --- | --- |
//! | [`wilson`] | one proportion `k / n` | Wilson (1927) score interval |
//! | [`tango_paired`] | `p1 - p2`, paired binary data | Tango (1998) score interval |
//! | [`newcombe_independent`] | `p1 - p2`, independent samples | Newcombe (1998) method 10 |
//! | [`mean_interval`] | mean of paired differences | Student t, `n - 1` df |
//! | [`welch_interval`] | `mean(a) - mean(b)` | Welch (1947) / Satterthwaite (1946) df |
//!
//! References:
//! - E. B. Wilson, "Probable inference, the law of succession, and statistical
//!   inference", J. Am. Stat. Assoc. 22:209-212, 1927.
//! - T. Tango, "Equivalence test and confidence interval for the difference in
//!   proportions for the paired-sample design", Stat. Med. 17:891-908, 1998.
//! - R. G. Newcombe, "Interval estimation for the difference between
//!   independent proportions: comparison of eleven methods", Stat. Med.
//!   17:873-890, 1998.
//! - B. L. Welch, "The generalization of 'Student's' problem when several
//!   different population variances are involved", Biometrika 34:28-35, 1947;
//!   F. E. Satterthwaite, Biometrics Bulletin 2:110-114, 1946.
//!
//! Quantiles come from `statrs` (normal: inverse error function; Student t:
//! inverse regularised incomplete beta).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Degrees of freedom above which the Student t quantile is replaced by the
/// normal quantile (the difference is below 1e-7 there).
const T_NORMAL_DF: f64 = 1e7;

/// Bisection tolerance on `delta` for [`tango_paired`].
const TANGO_TOL: f64 = 1e-12;

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

/// Tango's score statistic `Z(delta)` for paired binary data (Tango 1998,
/// eqs. for the constrained MLE and the score test).
///
/// `p21_hat` is the non-negative root of `2n p^2 + W p - c delta (1 - delta) = 0`
/// with `W = (2n - b + c) delta - (b + c)`, and
/// `Z = (b - c - n delta) / sqrt(n (2 p21_hat + delta (1 - delta)))`.
/// Where the variance vanishes, `Z` is `+inf`, `-inf` or `0` following the
/// sign of the numerator.
fn tango_z(b: f64, c: f64, n: f64, delta: f64) -> f64 {
    let a = 2.0 * n;
    let w = (2.0 * n - b + c) * delta - (b + c);
    let k = c * delta * (1.0 - delta);
    let disc = (w * w + 4.0 * a * k).max(0.0);
    let root = disc.sqrt();
    // Larger root of a p^2 + w p - k = 0, written to avoid cancellation.
    let p21 = if w >= 0.0 {
        let d = w + root;
        if d > 0.0 {
            2.0 * k / d
        } else {
            0.0
        }
    } else {
        (root - w) / (2.0 * a)
    }
    .max(0.0);
    let var = n * (2.0 * p21 + delta * (1.0 - delta));
    let num = b - c - n * delta;
    if var > 0.0 {
        num / var.sqrt()
    } else if num > 0.0 {
        f64::INFINITY
    } else if num < 0.0 {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}

/// Tango's score confidence interval for `delta = p1 - p2` from `n` pairs of
/// binary outcomes (Tango 1998, Stat. Med. 17:891-908, section 3).
///
/// Inputs: `n` pairs; `b` = #(first yes, second no); `c` = #(first no, second
/// yes). The point estimate is `(b - c) / n`. The interval is
/// `{delta in [-1, 1] : |Z(delta)| <= z}` where `Z` is the score statistic
/// built on the constrained maximum-likelihood estimate of `p21` (the
/// probability of a (no, yes) pair) given `delta`:
/// `2n p^2 + W p - c delta (1 - delta) = 0`, `W = (2n - b + c) delta - (b + c)`,
/// `Z(delta) = (b - c - n delta) / sqrt(n (2 p21_hat + delta (1 - delta)))`.
/// `Z` decreases monotonically in `delta`, so each limit is found by
/// bisection to `1e-12` (the returned limits lie inside the set).
///
/// Edge cases: `b = c = 0` gives the interval `(-z^2 / (n + z^2), z^2 / (n + z^2))`
/// that shrinks as `n` grows; the limit is exactly `-1` when `c = n` and
/// exactly `1` when `b = n`; `b + c = n` is handled by the same formula;
/// `n = 0`, `b + c > n` or an invalid `alpha` give `(NaN, NaN)`.
pub fn tango_paired(b: u64, c: u64, n: u64, alpha: f64) -> (f64, f64) {
    let z = z_two_sided(alpha);
    let discordant_ok = matches!(b.checked_add(c), Some(t) if t <= n);
    if n == 0 || z.is_nan() || !discordant_ok {
        return (f64::NAN, f64::NAN);
    }
    let (bf, cf, nf) = (b as f64, c as f64, n as f64);
    let est = (bf - cf) / nf;
    let zf = |d: f64| tango_z(bf, cf, nf, d);

    // Lower limit: smallest delta with Z(delta) <= z. Z(-1+) = +inf unless c = n.
    let lower = if c == n {
        -1.0
    } else {
        let (mut lo, mut hi) = (-1.0_f64, est);
        for _ in 0..200 {
            if hi - lo <= TANGO_TOL {
                break;
            }
            let mid = 0.5 * (lo + hi);
            if zf(mid) > z {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        hi
    };
    // Upper limit: largest delta with Z(delta) >= -z. Z(1-) = -inf unless b = n.
    let upper = if b == n {
        1.0
    } else {
        let (mut lo, mut hi) = (est, 1.0_f64);
        for _ in 0..200 {
            if hi - lo <= TANGO_TOL {
                break;
            }
            let mid = 0.5 * (lo + hi);
            if zf(mid) < -z {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        lo
    };
    (lower, upper)
}

/// Newcombe's hybrid score interval for `p1 - p2` of two independent binomial
/// samples: method 10 of Newcombe (1998), Stat. Med. 17:873-890.
///
/// With Wilson limits `(l1, u1)` for `k1 / n1` and `(l2, u2)` for `k2 / n2`
/// (see [`wilson`]) and `d = p1 - p2`:
/// `lower = d - sqrt((p1 - l1)^2 + (u2 - p2)^2)`,
/// `upper = d + sqrt((u1 - p1)^2 + (p2 - l2)^2)`.
/// The result always lies in `[-1, 1]`.
///
/// Edge cases: `n1 = 0`, `n2 = 0`, `k1 > n1`, `k2 > n2` or an invalid `alpha`
/// give `(NaN, NaN)`.
pub fn newcombe_independent(k1: u64, n1: u64, k2: u64, n2: u64, alpha: f64) -> (f64, f64) {
    let (l1, u1) = wilson(k1, n1, alpha);
    let (l2, u2) = wilson(k2, n2, alpha);
    if l1.is_nan() || l2.is_nan() {
        return (f64::NAN, f64::NAN);
    }
    let p1 = k1 as f64 / n1 as f64;
    let p2 = k2 as f64 / n2 as f64;
    let d = p1 - p2;
    let lower = d - ((p1 - l1).powi(2) + (u2 - p2).powi(2)).sqrt();
    let upper = d + ((u1 - p1).powi(2) + (p2 - l2).powi(2)).sqrt();
    (lower.max(-1.0), upper.min(1.0))
}

/// Mean of `d` and its two-sided Student-t confidence interval with `n - 1`
/// degrees of freedom: `mean +- t_{1 - alpha/2, n-1} s / sqrt(n)`, where `s` is
/// the sample standard deviation (divisor `n - 1`). Intended for paired
/// differences (one value per shot), in the units of `d`.
///
/// Returns `Some((mean, lower, upper))`. When every value is equal (`s = 0`) the
/// interval collapses to `(mean, mean, mean)`.
///
/// Edge cases: `None` when `n < 2`, when any value is NaN or infinite, or when
/// `alpha` is invalid.
pub fn mean_interval(d: &[f64], alpha: f64) -> Option<(f64, f64, f64)> {
    if !valid_alpha(alpha) {
        return None;
    }
    let (mean, var, n) = mean_var(d)?;
    if var == 0.0 {
        return Some((mean, mean, mean));
    }
    let t = t_quantile(1.0 - alpha / 2.0, n - 1.0);
    let half = t * (var / n).sqrt();
    if !half.is_finite() {
        return None;
    }
    Some((mean, mean - half, mean + half))
}

/// [`mean_interval`] from a sample's moments, for tallies that do not keep their values:
/// `n` values with mean `mean` and unbiased variance `var` (divisor `n - 1`), e.g. from
/// Welford's running update. `None` when `n < 2`, a moment is not finite or `alpha` is
/// invalid.
pub fn mean_interval_moments(n: u64, mean: f64, var: f64, alpha: f64) -> Option<(f64, f64, f64)> {
    if !valid_alpha(alpha) || n < 2 || !mean.is_finite() || !var.is_finite() || var < 0.0 {
        return None;
    }
    if var == 0.0 {
        return Some((mean, mean, mean));
    }
    let n = n as f64;
    let half = t_quantile(1.0 - alpha / 2.0, n - 1.0) * (var / n).sqrt();
    half.is_finite().then_some((mean, mean - half, mean + half))
}

/// Welch's interval for `mean(a) - mean(b)` of two independent samples, with
/// Welch-Satterthwaite degrees of freedom
/// `df = (va/na + vb/nb)^2 / ((va/na)^2 / (na - 1) + (vb/nb)^2 / (nb - 1))`
/// (Welch 1947; Satterthwaite 1946), in the units of the data.
///
/// Returns `Some((difference, lower, upper))`. When both sample variances are
/// zero the interval collapses to the point `(d, d, d)`; when only one is zero
/// the df reduce to the other sample's `n - 1`.
///
/// Edge cases: `None` when either sample has fewer than 2 values, contains NaN
/// or an infinity, or when `alpha` is invalid.
pub fn welch_interval(a: &[f64], b: &[f64], alpha: f64) -> Option<(f64, f64, f64)> {
    if !valid_alpha(alpha) {
        return None;
    }
    let (ma, va, na) = mean_var(a)?;
    let (mb, vb, nb) = mean_var(b)?;
    welch_moments((na, ma, va), (nb, mb, vb), alpha)
}

/// [`welch_interval`] from each sample's moments `(n, mean, unbiased variance)`, for tallies
/// that do not keep their values. `None` when a sample has fewer than 2 values, a moment is
/// not finite or `alpha` is invalid.
pub fn welch_moments(
    (na, ma, va): (f64, f64, f64),
    (nb, mb, vb): (f64, f64, f64),
    alpha: f64,
) -> Option<(f64, f64, f64)> {
    let finite = [ma, va, mb, vb].iter().all(|v| v.is_finite());
    if !valid_alpha(alpha) || na < 2.0 || nb < 2.0 || !finite || va < 0.0 || vb < 0.0 {
        return None;
    }
    let d = ma - mb;
    let (sa, sb) = (va / na, vb / nb);
    let se2 = sa + sb;
    if se2 == 0.0 {
        return Some((d, d, d));
    }
    let df = se2 * se2 / (sa * sa / (na - 1.0) + sb * sb / (nb - 1.0));
    let t = t_quantile(1.0 - alpha / 2.0, df);
    let half = t * se2.sqrt();
    if !half.is_finite() || !d.is_finite() {
        return None;
    }
    Some((d, d - half, d + half))
}

/// True when `alpha` is a usable two-sided level, i.e. in `(0, 1)`.
fn valid_alpha(alpha: f64) -> bool {
    alpha > 0.0 && alpha < 1.0
}

/// Mean, unbiased variance and length (as f64) of `x`; `None` when `x` has
/// fewer than two values or any non-finite value. Two-pass for accuracy.
fn mean_var(x: &[f64]) -> Option<(f64, f64, f64)> {
    if x.len() < 2 || x.iter().any(|v| !v.is_finite()) {
        return None;
    }
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    if !mean.is_finite() {
        return None;
    }
    let ss: f64 = x.iter().map(|v| (v - mean) * (v - mean)).sum();
    let var = ss / (n - 1.0);
    if !var.is_finite() {
        return None;
    }
    Some((mean, var, n))
}

/// Student-t quantile at probability `p` with `df` degrees of freedom (normal
/// quantile for very large or infinite `df`). NaN for invalid arguments.
fn t_quantile(p: f64, df: f64) -> f64 {
    if !(p > 0.0 && p < 1.0) || df.is_nan() || df <= 0.0 {
        return f64::NAN;
    }
    if df > T_NORMAL_DF {
        return Normal::standard().inverse_cdf(p);
    }
    match StudentsT::new(0.0, 1.0, df) {
        Ok(t) => t.inverse_cdf(p),
        Err(_) => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SplitMix64 (Steele, Lea & Flood 2014), used only to make the simulations
    /// reproducible without dependencies.
    struct Rng(u64);
    impl Rng {
        fn next_u64(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
        fn uniform(&mut self) -> f64 {
            (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
        }
        fn binomial(&mut self, n: u64, p: f64) -> u64 {
            (0..n).filter(|_| self.uniform() < p).count() as u64
        }
    }

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
    fn t_quantiles_match_tables() {
        // Two-sided 95 % critical values of Student's t (any statistical table).
        assert!(close(t_quantile(0.975, 1.0), 12.706_204_736, 1e-6));
        assert!(close(t_quantile(0.975, 2.0), 4.302_652_730, 1e-6));
        assert!(close(t_quantile(0.975, 10.0), 2.228_138_852, 1e-6));
        assert!(close(t_quantile(0.975, 30.0), 2.042_272_456, 1e-6));
        assert!(close(t_quantile(0.975, 1e9), 1.959_963_985, 1e-6));
        assert!(t_quantile(0.975, 0.0).is_nan());
        assert!(t_quantile(1.0, 5.0).is_nan());
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

    #[test]
    fn tango_published_examples() {
        // Tango (1998), Stat. Med. 17:891-908, section 6 worked examples, as
        // quoted by secondary sources (the paper itself was not reachable here):
        // (i) Karacan et al. sleeping-difficulties data, n = 32 pairs with
        //     discordant counts 9 and 3: 95 % score interval (-0.027, 0.390);
        let (lo, hi) = tango_paired(9, 3, 32, 0.05);
        assert!(close(lo, -0.027, 5e-4), "lo = {lo}");
        assert!(close(hi, 0.390, 5e-4), "hi = {hi}");
        // (ii) soft-contact-lens cross-over trial, n = 44 with a single
        //     discordant pair: the equivalence statistic at a margin of 0.1 is
        //     1.709 and the 90 % lower limit is -0.096. In this module's
        //     orientation (delta = p1 - p2, b = 0, c = 1) the margin test is Z(-0.1).
        assert!(close(tango_z(0.0, 1.0, 44.0, -0.1), 1.709, 5e-4));
        let (lo90, _) = tango_paired(0, 1, 44, 0.10);
        assert!(close(lo90, -0.096, 5e-4), "lo90 = {lo90}");
        // McNemar special case: Z(0) = (b - c) / sqrt(b + c).
        assert!(close(
            tango_z(9.0, 3.0, 32.0, 0.0),
            6.0 / 12f64.sqrt(),
            1e-12
        ));
    }

    #[test]
    fn tango_limits_solve_the_score_equation() {
        let z = z_two_sided(0.05);
        for &(b, c, n) in &[(9u64, 3u64, 32u64), (5, 0, 44), (40, 20, 160), (1, 7, 21)] {
            let (lo, hi) = tango_paired(b, c, n, 0.05);
            let (bf, cf, nf) = (b as f64, c as f64, n as f64);
            assert!(close(tango_z(bf, cf, nf, lo), z, 1e-6), "{b} {c} {n}");
            assert!(close(tango_z(bf, cf, nf, hi), -z, 1e-6), "{b} {c} {n}");
        }
    }

    #[test]
    fn tango_properties() {
        for n in [1u64, 2, 5, 17, 60] {
            for b in 0..=n {
                for c in 0..=(n - b) {
                    let (lo, hi) = tango_paired(b, c, n, 0.05);
                    let est = (b as f64 - c as f64) / n as f64;
                    assert!((-1.0..=1.0).contains(&lo) && (-1.0..=1.0).contains(&hi));
                    assert!(lo <= est && est <= hi, "{b} {c} {n}: {lo} {est} {hi}");
                    let (lo2, hi2) = tango_paired(c, b, n, 0.05);
                    assert!(close(lo, -hi2, 1e-11) && close(hi, -lo2, 1e-11));
                }
            }
        }
    }

    #[test]
    fn tango_edge_cases() {
        // b = c = 0: closed form +-z^2/(n + z^2), shrinking with n.
        let z2 = z_two_sided(0.05).powi(2);
        let mut prev = f64::INFINITY;
        for n in [1u64, 10, 100, 1000, 100_000] {
            let (lo, hi) = tango_paired(0, 0, n, 0.05);
            let w = z2 / (n as f64 + z2);
            assert!(close(hi, w, 1e-10) && close(lo, -w, 1e-10), "n = {n}");
            assert!(hi < prev);
            prev = hi;
        }
        // All pairs discordant one way: exact end at the boundary.
        assert_eq!(tango_paired(10, 0, 10, 0.05).1, 1.0);
        assert_eq!(tango_paired(0, 10, 10, 0.05).0, -1.0);
        // b + c = n (no concordant pairs).
        let (lo, hi) = tango_paired(6, 4, 10, 0.05);
        assert!(lo < 0.2 && 0.2 < hi && lo > -1.0 && hi < 1.0);
        // Invalid inputs.
        assert!(tango_paired(0, 0, 0, 0.05).0.is_nan());
        assert!(tango_paired(6, 5, 10, 0.05).1.is_nan());
        assert!(tango_paired(u64::MAX, 1, 10, 0.05).0.is_nan());
        assert!(tango_paired(1, 1, 10, 2.0).0.is_nan());
        let (lo, hi) = tango_paired(1 << 40, 1 << 39, 1 << 41, 0.05);
        assert!(lo < 0.25 && 0.25 < hi && hi - lo < 1e-5);
    }

    #[test]
    fn tango_coverage_simulation() {
        let mut rng = Rng(0x7A96_0001);
        for &(p12, p21, n) in &[(0.2, 0.25, 200u64), (0.1, 0.15, 50), (0.05, 0.05, 100)] {
            let draws = 2000;
            let truth = p12 - p21;
            let mut covered = 0;
            for _ in 0..draws {
                let (mut b, mut c) = (0u64, 0u64);
                for _ in 0..n {
                    let u = rng.uniform();
                    if u < p12 {
                        b += 1;
                    } else if u < p12 + p21 {
                        c += 1;
                    }
                }
                let (lo, hi) = tango_paired(b, c, n, 0.05);
                if lo <= truth && truth <= hi {
                    covered += 1;
                }
            }
            let cov = covered as f64 / draws as f64;
            println!("tango coverage p12={p12} p21={p21} n={n}: {cov:.4}");
            assert!((0.93..=0.97).contains(&cov), "coverage {cov}");
        }
    }

    #[test]
    fn newcombe_published_table() {
        // Newcombe (1998), Stat. Med. 17:873-890, Table II, method 10.
        let table: [(u64, u64, u64, u64, f64, f64); 8] = [
            (56, 70, 48, 80, 0.0524, 0.3339),
            (9, 10, 3, 10, 0.1705, 0.8090),
            (6, 7, 2, 7, 0.0582, 0.8062),
            (5, 56, 0, 29, -0.0381, 0.1926),
            (0, 10, 0, 20, -0.1611, 0.2775),
            (0, 10, 0, 10, -0.2775, 0.2775),
            (10, 10, 0, 20, 0.6791, 1.0),
            (10, 10, 0, 10, 0.6075, 1.0),
        ];
        for (k1, n1, k2, n2, elo, ehi) in table {
            let (lo, hi) = newcombe_independent(k1, n1, k2, n2, 0.05);
            assert!(close(lo, elo, 5e-5), "{k1}/{n1}-{k2}/{n2}: lo {lo}");
            assert!(close(hi, ehi, 5e-5), "{k1}/{n1}-{k2}/{n2}: hi {hi}");
        }
    }

    #[test]
    fn newcombe_edge_cases() {
        assert!(newcombe_independent(0, 0, 1, 2, 0.05).0.is_nan());
        assert!(newcombe_independent(1, 2, 0, 0, 0.05).1.is_nan());
        assert!(newcombe_independent(3, 2, 0, 2, 0.05).1.is_nan());
        let (lo, hi) = newcombe_independent(7, 20, 3, 20, 0.05);
        let (lo2, hi2) = newcombe_independent(3, 20, 7, 20, 0.05);
        assert!(close(lo, -hi2, 1e-14) && close(hi, -lo2, 1e-14));
    }

    #[test]
    fn newcombe_coverage_simulation() {
        let mut rng = Rng(0x7A96_0002);
        for &(p1, n1, p2, n2) in &[
            (0.3, 50u64, 0.2, 60u64),
            (0.6, 200, 0.55, 150),
            (0.1, 80, 0.15, 80),
        ] {
            let draws = 2000;
            let mut covered = 0;
            for _ in 0..draws {
                let k1 = rng.binomial(n1, p1);
                let k2 = rng.binomial(n2, p2);
                let (lo, hi) = newcombe_independent(k1, n1, k2, n2, 0.05);
                if lo <= p1 - p2 && p1 - p2 <= hi {
                    covered += 1;
                }
            }
            let cov = covered as f64 / draws as f64;
            println!("newcombe coverage {p1}/{n1} vs {p2}/{n2}: {cov:.4}");
            assert!((0.93..=0.97).contains(&cov), "coverage {cov}");
        }
    }

    #[test]
    fn mean_interval_closed_form() {
        // d = 1..5: mean 3, s^2 = 2.5, se = sqrt(0.5), t(0.975, 4) = 2.776445105.
        let (m, lo, hi) = mean_interval(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.05).unwrap();
        let half = 2.776_445_105 * 0.5f64.sqrt();
        assert!(close(m, 3.0, 1e-15));
        assert!(close(lo, 3.0 - half, 1e-8) && close(hi, 3.0 + half, 1e-8));
        // n = 2: d = {0, 2}: mean 1, s = sqrt 2, se = 1, t(0.975, 1) = 12.7062.
        let (_, lo, hi) = mean_interval(&[0.0, 2.0], 0.05).unwrap();
        assert!(close(hi - 1.0, 12.706_204_736, 1e-6) && close(1.0 - lo, 12.706_204_736, 1e-6));
        // Zero variance collapses to the point.
        assert_eq!(mean_interval(&[0.3; 7], 0.05), Some((0.3, 0.3, 0.3)));
    }

    #[test]
    fn mean_interval_edge_cases() {
        assert_eq!(mean_interval(&[], 0.05), None);
        assert_eq!(mean_interval(&[1.0], 0.05), None);
        assert_eq!(mean_interval(&[1.0, f64::NAN], 0.05), None);
        assert_eq!(mean_interval(&[1.0, f64::INFINITY], 0.05), None);
        assert_eq!(mean_interval(&[1.0, 2.0], 0.0), None);
        assert_eq!(mean_interval(&[f64::MAX, -f64::MAX, f64::MAX], 0.05), None);
    }

    #[test]
    fn welch_closed_form() {
        // a = {1,2,3,4,5}: mean 3, var 2.5; b = {2,4,6}: mean 4, var 4.
        // se^2 = 0.5 + 4/3 = 11/6; df = (11/6)^2 / (0.25/4 + (16/9)/2) = 3.3611/0.95139 = 3.5328.
        let (d, lo, hi) =
            welch_interval(&[1.0, 2.0, 3.0, 4.0, 5.0], &[2.0, 4.0, 6.0], 0.05).unwrap();
        let se2: f64 = 0.5 + 4.0 / 3.0;
        let df = se2 * se2 / (0.25 / 4.0 + (16.0 / 9.0) / 2.0);
        assert!(close(df, 3.532_846_715, 1e-8));
        let half = t_quantile(0.975, df) * se2.sqrt();
        assert!(
            close(d, -1.0, 1e-15) && close(lo, -1.0 - half, 1e-12) && close(hi, -1.0 + half, 1e-12)
        );
        // t(0.975, 3.5328) lies between the tabulated t(0.975, 3) = 3.182 and t(0.975, 4) = 2.776.
        let t = t_quantile(0.975, df);
        assert!(t > 2.776 && t < 3.182);
        // Equal sizes and variances: df = 2(n - 1) and the pooled t interval.
        let a = [1.0, 3.0, 5.0, 7.0];
        let b = [0.0, 2.0, 4.0, 6.0];
        let (d, lo, hi) = welch_interval(&a, &b, 0.05).unwrap();
        let half = t_quantile(0.975, 6.0) * (2.0 * (20.0 / 3.0) / 4.0f64).sqrt();
        assert!(close(d, 1.0, 1e-15) && close(hi - d, half, 1e-12) && close(d - lo, half, 1e-12));
    }

    #[test]
    fn welch_zero_variance_and_edge_cases() {
        assert_eq!(
            welch_interval(&[2.0, 2.0], &[1.0, 1.0, 1.0], 0.05),
            Some((1.0, 1.0, 1.0))
        );
        // One sample constant: df = nb - 1 and se from b alone.
        let (d, lo, hi) = welch_interval(&[5.0, 5.0, 5.0], &[0.0, 2.0], 0.05).unwrap();
        let half = 12.706_204_736 * (2.0f64 / 2.0).sqrt();
        assert!(close(d, 4.0, 1e-15) && close(hi - d, half, 1e-6) && close(d - lo, half, 1e-6));
        assert_eq!(welch_interval(&[1.0], &[1.0, 2.0], 0.05), None);
        assert_eq!(welch_interval(&[1.0, 2.0], &[], 0.05), None);
        assert_eq!(welch_interval(&[1.0, f64::NAN], &[1.0, 2.0], 0.05), None);
        assert_eq!(welch_interval(&[1.0, 2.0], &[1.0, 2.0], f64::NAN), None);
    }
}
