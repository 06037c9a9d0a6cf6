//! The statistics of the outcome study: a rate's 95 % interval, and whether two rates measured
//! on the same shots differ.

/// The standard normal quantile of 97.5 %: a two-sided 95 % interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The significance level below which two rates are said to differ.
pub const ALPHA: f64 = 0.05;

/// The Wilson score interval (95 %) of a rate of `k` in `n` (E. B. Wilson, "Probable inference,
/// the law of succession, and statistical inference", JASA 22:209, 1927): `(low, high)`, both
/// in [0, 1]. Unlike the normal approximation it stays inside [0, 1] and is not empty at
/// k = 0 or k = n. `(NaN, NaN)` when `n` is 0.
pub fn wilson_interval(k: u64, n: u64) -> (f64, f64) {
    crate::stats::interval::wilson(k.min(n), n, ALPHA)
}

/// P(X <= k) for X ~ Binomial(n, 1/2), summed in logarithms: exact to rounding for any n (no
/// 2^-n underflow).
fn binomial_half_cdf(k: u64, n: u64) -> f64 {
    if k >= n {
        return 1.0;
    }
    // ln C(n, j) for j = 0..=k.
    let mut ln_c = 0.0f64;
    let mut terms = Vec::with_capacity(k as usize + 1);
    for j in 0..=k {
        if j > 0 {
            ln_c += ((n - j + 1) as f64 / j as f64).ln();
        }
        terms.push(ln_c);
    }
    let top = terms.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let sum: f64 = terms.iter().map(|t| (t - top).exp()).sum();
    (top + sum.ln() - n as f64 * std::f64::consts::LN_2)
        .exp()
        .min(1.0)
}

/// The exact one-sided McNemar test of paired binary outcomes (Q. McNemar, Psychometrika
/// 12:153, 1947, in its exact binomial form): on the same shots, `b` disagree under the first
/// condition only (the engine) and `c` under the second only (the floor). Under the hypothesis
/// that the first rate is no higher than the second, b ~ Binomial(b + c, 1/2) at most; returns
/// the p-value P(X >= b) = P(X <= c), 1 when b = c = 0. Small when the engine disagrees with
/// the reference on more shots than the floor does, beyond chance; an engine that agrees
/// *more* often than the floor (reproducing the reference more closely than a micrometre
/// does) gets p >= 1/2.
pub fn mcnemar_one_sided(b: u64, c: u64) -> f64 {
    binomial_half_cdf(c, b + c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_its_closed_form_and_published_values() {
        // Newcombe (Stat. Med. 17:857, 1998), Table I, method 3 (Wilson score): 81/263 ->
        // 0.2553 to 0.3662; 15/148 -> 0.0624 to 0.1605; 0/20 -> 0 to 0.1611; 1/29 -> 0.0061
        // to 0.1718.
        for (k, n, lo, hi) in [
            (81, 263, 0.2553, 0.3662),
            (15, 148, 0.0624, 0.1605),
            (0, 20, 0.0, 0.1611),
            (1, 29, 0.0061, 0.1718),
        ] {
            let (l, h) = wilson_interval(k, n);
            assert!(
                (l - lo).abs() < 5e-5 && (h - hi).abs() < 5e-5,
                "{k}/{n}: {l} {h}"
            );
        }
        let (l, h) = wilson_interval(20, 20);
        assert_eq!(h, 1.0);
        assert!((l - (1.0 - 0.1611)).abs() < 5e-5);
        assert!(wilson_interval(0, 0).0.is_nan());
    }

    #[test]
    fn mcnemar_is_the_binomial_tail() {
        // b = 5, c = 0: 1 / 2^5 = 0.03125, significant at 5 %; b = 4: 0.0625, not.
        assert!((mcnemar_one_sided(5, 0) - 1.0 / 32.0).abs() < 1e-15);
        assert!((mcnemar_one_sided(4, 0) - 1.0 / 16.0).abs() < 1e-15);
        // b = 10, c = 3: (1 + 13 + 78 + 286) / 8192.
        assert!((mcnemar_one_sided(10, 3) - 378.0 / 8192.0).abs() < 1e-14);
        // The engine agreeing more often than the floor is never significant.
        assert!((mcnemar_one_sided(3, 10) - (1.0 - 92.0 / 8192.0)).abs() < 1e-14);
        assert_eq!(mcnemar_one_sided(0, 6), 1.0);
        assert_eq!(mcnemar_one_sided(0, 0), 1.0);
        assert!((mcnemar_one_sided(7, 7) - 0.5 - 3432.0 / 32768.0).abs() < 1e-14);
        // Large counts: no underflow; equal counts just above 1/2, a 10 % excess far below
        // 1e-6, a 10 % deficit at 1.
        assert!((0.5..0.51).contains(&mcnemar_one_sided(50_000, 50_000)));
        let p = mcnemar_one_sided(55_000, 50_000);
        assert!(p > 0.0 && p < 1e-6, "{p}");
        assert!(mcnemar_one_sided(50_000, 55_000) > 1.0 - 1e-6);
        // Against a direct sum for small n.
        for n in 0..30u64 {
            for c in 0..=n {
                let direct: f64 = (0..=c).map(|k| choose(n, k)).sum::<f64>() / 2f64.powi(n as i32);
                let p = mcnemar_one_sided(n - c, c);
                assert!((p - direct).abs() < 1e-13, "n {n} c {c}: {p} vs {direct}");
            }
        }
    }

    fn choose(n: u64, k: u64) -> f64 {
        (0..k).fold(1.0, |acc, j| acc * (n - j) as f64 / (j + 1) as f64)
    }
}
