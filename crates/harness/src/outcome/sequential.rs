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

/// Outcome of a two-sided comparison of a difference against an equivalence
/// margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Decision {
    /// The whole interval lies inside `[-margin, margin]`: the difference is
    /// practically zero.
    Same,
    /// The interval excludes zero (and is not inside the margin).
    Differs,
    /// Neither: more data needed.
    Undecided,
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

/// Outcome of the one-sided comparison of an engine with the chaos floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FloorVerdict {
    /// The engine's disagreement exceeds the floor's by at most `margin`.
    Within,
    /// The engine disagrees more often than the floor does.
    Above,
    /// Neither: more data needed.
    Undecided,
}

/// Classifies an interval `[lo, hi]` for `d = (engine's shot-by-shot
/// disagreement rate) - (the chaos floor's)`, estimated on the same shots
/// (paired, e.g. with `tango_paired`), against a tolerance `margin` (a rate
/// difference).
///
/// [`FloorVerdict::Within`] when `hi <= margin`; otherwise
/// [`FloorVerdict::Above`] when `lo > 0`; otherwise
/// [`FloorVerdict::Undecided`]. Edge cases: NaN in any argument, or
/// `lo > hi`, gives `Undecided`.
pub fn floor_verdict(lo: f64, hi: f64, margin: f64) -> FloorVerdict {
    if lo.is_nan() || hi.is_nan() || margin.is_nan() || lo > hi {
        return FloorVerdict::Undecided;
    }
    if hi <= margin {
        FloorVerdict::Within
    } else if lo > 0.0 {
        FloorVerdict::Above
    } else {
        FloorVerdict::Undecided
    }
}

/// Rough total number of shots at which an interval centred at `centre` would
/// fit inside `[-margin, margin]`, given that its half-width is `half_width`
/// after `n` shots and scales as `1 / sqrt(n)`:
/// `ceil(n * (half_width / (margin - |centre|))^2)`, at least 1.
///
/// It assumes the point estimate stays put and ignores the smaller level of
/// later looks (which widens intervals by a few per cent per look), so treat
/// it as a planning hint, not a guarantee. The value may be below `n` when the
/// interval already fits. For the one-sided [`floor_verdict`] it is
/// conservative (it asks for the two-sided fit).
///
/// Edge cases: `None` when `|centre| >= margin` (the point estimate itself is
/// outside the margin), when `n = 0`, when `half_width` is negative, or when
/// any argument is NaN or infinite. Saturates at `u64::MAX`.
pub fn shots_to_decide(half_width: f64, n: u64, margin: f64, centre: f64) -> Option<u64> {
    if n == 0 || !half_width.is_finite() || !margin.is_finite() || !centre.is_finite() {
        return None;
    }
    if half_width < 0.0 {
        return None;
    }
    let room = margin - centre.abs();
    if room <= 0.0 {
        return None;
    }
    let needed = (n as f64 * (half_width / room).powi(2)).ceil();
    // Float-to-int `as` saturates, so huge values become u64::MAX.
    Some((needed as u64).max(1))
}

#[cfg(test)]
mod tests {
    use super::super::interval::{mean_interval, tango_paired};
    use super::*;

    /// SplitMix64 (Steele, Lea & Flood 2014): reproducible, dependency-free.
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
        fn bernoulli(&mut self, p: f64) -> bool {
            self.uniform() < p
        }
        fn binomial(&mut self, n: u32, p: f64) -> f64 {
            (0..n).filter(|_| self.bernoulli(p)).count() as f64
        }
        fn normal(&mut self) -> f64 {
            let u1 = ((self.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
            let u2 = self.uniform();
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        }
    }

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
    fn floor_verdict_cases() {
        assert_eq!(floor_verdict(-0.1, 0.03, 0.05), FloorVerdict::Within);
        assert_eq!(floor_verdict(0.01, 0.04, 0.05), FloorVerdict::Within);
        assert_eq!(floor_verdict(0.01, 0.2, 0.05), FloorVerdict::Above);
        assert_eq!(floor_verdict(-0.01, 0.2, 0.05), FloorVerdict::Undecided);
        assert_eq!(floor_verdict(0.0, 0.2, 0.05), FloorVerdict::Undecided);
        assert_eq!(floor_verdict(f64::NAN, 0.0, 0.05), FloorVerdict::Undecided);
        assert_eq!(floor_verdict(0.1, 0.0, 0.05), FloorVerdict::Undecided);
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
        assert_eq!(shots_to_decide(0.1, 100, 0.05, 0.05), None);
        assert_eq!(shots_to_decide(0.1, 100, 0.05, 0.3), None);
        assert_eq!(shots_to_decide(0.1, 0, 0.05, 0.0), None);
        assert_eq!(shots_to_decide(f64::NAN, 100, 0.05, 0.0), None);
        assert_eq!(shots_to_decide(0.1, 100, f64::NAN, 0.0), None);
        assert_eq!(shots_to_decide(-0.1, 100, 0.05, 0.0), None);
        assert_eq!(
            shots_to_decide(1e300, u64::MAX, 1e-300, 0.0),
            Some(u64::MAX)
        );
    }

    // ---- calibration simulation -------------------------------------------

    /// Number of statistics per look in the simulated study.
    const S: u32 = 10;
    /// Equivalence margins: rate differences and mean differences.
    const RATE_MARGIN: f64 = 0.08;
    const MEAN_MARGIN: f64 = 0.12;
    /// Floor-disagreement base rates (4 paired-rate statistics vs the floor).
    const FLOOR_Q: [f64; 4] = [0.4, 0.3, 0.2, 0.1];
    /// Engine-vs-reference event rates (3 paired-rate statistics).
    const EVENT_P: [f64; 3] = [0.5, 0.3, 0.1];
    /// Probability that the engine reproduces the reference exactly.
    const RHO: f64 = 0.8;

    /// What differs between engine and the truth in a simulated world.
    #[derive(Clone, Copy)]
    struct World {
        /// Engine disagreement rate for floor statistic 0 (floor's is 0.4).
        engine_q0: f64,
        /// Shift of the engine's continuous statistic (sd 1).
        mean_shift: f64,
    }

    const NULL: World = World {
        engine_q0: 0.4,
        mean_shift: 0.0,
    };

    /// Cumulative data of one study.
    #[derive(Default)]
    struct Data {
        n: u64,
        /// (b, c) per floor statistic: b = engine disagrees & floor agrees.
        floor: [(u64, u64); 4],
        /// (b, c) per event: b = engine yes & reference no.
        event: [(u64, u64); 3],
        /// Per-shot paired differences engine - reference, 3 statistics.
        diffs: [Vec<f64>; 3],
    }

    /// Adds one shot. A per-shot difficulty `h` (0.5 or 1.5, mean 1) scales
    /// every disagreement rate, so the statistics are correlated; floor and
    /// engine disagree with the reference independently given `h`, hence are
    /// exchangeable when their rates match. The engine copies the reference's
    /// events and counts with probability RHO, otherwise draws afresh from the
    /// same distribution, so its marginals equal the reference's.
    fn add_shot(rng: &mut Rng, w: World, d: &mut Data) {
        d.n += 1;
        let h = if rng.bernoulli(0.5) { 0.5 } else { 1.5 };
        for (j, q) in FLOOR_Q.iter().enumerate() {
            let qe = if j == 0 { w.engine_q0 } else { *q };
            let floor_dis = rng.bernoulli(q * h);
            let engine_dis = rng.bernoulli(qe * h);
            match (engine_dis, floor_dis) {
                (true, false) => d.floor[j].0 += 1,
                (false, true) => d.floor[j].1 += 1,
                _ => {}
            }
        }
        for (k, p) in EVENT_P.iter().enumerate() {
            let r = rng.bernoulli(*p);
            let e = if rng.bernoulli(RHO) {
                r
            } else {
                rng.bernoulli(*p)
            };
            match (e, r) {
                (true, false) => d.event[k].0 += 1,
                (false, true) => d.event[k].1 += 1,
                _ => {}
            }
        }
        // Balls pocketed ~ Bin(4, 0.25); cushion contacts ~ Bin(6, 0.5);
        // standardised cue-ball travel ~ N(0, 1) (engine: N(shift, 1)).
        let r0 = rng.binomial(4, 0.25);
        let e0 = if rng.bernoulli(RHO) {
            r0
        } else {
            rng.binomial(4, 0.25)
        };
        let r1 = rng.binomial(6, 0.5);
        let e1 = if rng.bernoulli(RHO) {
            r1
        } else {
            rng.binomial(6, 0.5)
        };
        let r2 = rng.normal();
        let e2 = RHO * r2 + (1.0 - RHO * RHO).sqrt() * rng.normal() + w.mean_shift;
        d.diffs[0].push(e0 - r0);
        d.diffs[1].push(e1 - r1);
        d.diffs[2].push(e2 - r2);
    }

    /// Verdicts of the S statistics at one look, as (decided, false-alarm-ish
    /// flag "Differs/Above") pairs; index 0 is floor statistic 0 and index 9
    /// the continuous mean.
    fn verdicts(d: &Data, a: f64) -> [(bool, bool); S as usize] {
        let mut out = [(false, false); S as usize];
        for (j, &(b, c)) in d.floor.iter().enumerate() {
            let (lo, hi) = tango_paired(b, c, d.n, a);
            let v = floor_verdict(lo, hi, RATE_MARGIN);
            out[j] = (v != FloorVerdict::Undecided, v == FloorVerdict::Above);
        }
        for (k, &(b, c)) in d.event.iter().enumerate() {
            let (lo, hi) = tango_paired(b, c, d.n, a);
            let v = decide(lo, hi, RATE_MARGIN);
            out[4 + k] = (v != Decision::Undecided, v == Decision::Differs);
        }
        for (k, x) in d.diffs.iter().enumerate() {
            let v = match mean_interval(x, a) {
                Some((_, lo, hi)) => decide(lo, hi, MEAN_MARGIN),
                None => Decision::Undecided,
            };
            out[7 + k] = (v != Decision::Undecided, v == Decision::Differs);
        }
        out
    }

    /// Runs one study; returns, per statistic, whether it was ever called
    /// Differs/Above at any look before the study stopped, and the shots used.
    fn run_study(rng: &mut Rng, w: World) -> ([bool; S as usize], u64) {
        let mut d = Data::default();
        let mut flagged = [false; S as usize];
        for (k, &n_k) in look_sizes(100, 3200).iter().enumerate() {
            while d.n < n_k {
                add_shot(rng, w, &mut d);
            }
            let a = look_alpha(0.05, k as u32 + 1, S);
            let v = verdicts(&d, a);
            for (f, (_, alarm)) in flagged.iter_mut().zip(v.iter()) {
                *f |= *alarm;
            }
            if v.iter().all(|(decided, _)| *decided) {
                break;
            }
        }
        (flagged, d.n)
    }

    #[test]
    fn sequential_calibration_under_null() {
        // 1000 studies where the engine equals the floor and the reference in
        // distribution; a study errs if any statistic is ever called
        // Differs/Above at any look. The design bounds this by alpha = 0.05.
        let mut rng = Rng(0x5E0_0001);
        let studies = 1000;
        let mut errs = 0;
        let mut shots = 0u64;
        let sizes = look_sizes(100, 3200);
        let mut stopped_at = vec![0u32; sizes.len()];
        for _ in 0..studies {
            let (flagged, n) = run_study(&mut rng, NULL);
            if flagged.iter().any(|&f| f) {
                errs += 1;
            }
            shots += n;
            if let Some(i) = sizes.iter().position(|&s| s == n) {
                stopped_at[i] += 1;
            }
        }
        let rate = errs as f64 / studies as f64;
        println!(
            "sequential null: false Differs/Above in {errs}/{studies} studies = {rate:.3}; \
             mean shots {:.0}; studies ending at looks {sizes:?}: {stopped_at:?}",
            shots as f64 / studies as f64
        );
        // The simulation must exercise optional stopping, not only the budget.
        assert!(stopped_at[..sizes.len() - 1].iter().sum::<u32>() >= 300);
        assert!(rate <= 0.05, "familywise false-alarm rate {rate}");
    }

    #[test]
    fn sequential_power_under_real_shifts() {
        // (a) engine disagreement 0.5 vs floor 0.4 on floor statistic 0 -> Above;
        // (b) engine's continuous statistic shifted by 0.2 sd -> Differs.
        let cases = [
            (
                "disagreement 0.5 vs floor 0.4",
                World {
                    engine_q0: 0.5,
                    mean_shift: 0.0,
                },
                0usize,
            ),
            (
                "mean shift 0.2 sd",
                World {
                    engine_q0: 0.4,
                    mean_shift: 0.2,
                },
                9usize,
            ),
        ];
        for (seed, (label, world, index)) in cases.iter().enumerate() {
            let mut rng = Rng(0x5E0_0100 + seed as u64);
            let studies = 1000;
            let mut hits = 0;
            for _ in 0..studies {
                let (flagged, _) = run_study(&mut rng, *world);
                if flagged[*index] {
                    hits += 1;
                }
            }
            let power = hits as f64 / studies as f64;
            println!("sequential power, {label}: {power:.3}");
            assert!(power >= 0.8, "{label}: power {power}");
        }
    }
}
