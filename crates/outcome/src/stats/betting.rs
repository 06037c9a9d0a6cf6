//! Anytime-valid tests and confidence sequences for the mean of bounded observations, by
//! betting (I. Waudby-Smith and A. Ramdas, "Estimating means of bounded random variables by
//! betting", J. R. Stat. Soc. B 86(1):1-27, 2024; arXiv:2010.09686, "WSR" below).
//!
//! Observations `x_1, x_2, ...` lie in a known range `[lo, hi]` and share a mean `mu`. For a
//! candidate mean `m`, a gambler who bets `l_i >= 0` on each observation, fixed before it is
//! seen, grows the capital
//!
//! ```text
//! K+_t(m) = prod_i (1 + l_i (x_i - m)),   l_i <= c / (m - lo)     (a bet that mu > m)
//! K-_t(m) = prod_i (1 - l_i (x_i - m)),   l_i <= c / (hi - m)     (a bet that mu < m)
//! ```
//!
//! (WSR eq. (3) and its one-sided halves, Section 4's hedged capital with the bets split by
//! side). The caps keep every factor at least `1 - c > 0`. When `mu <= m`, `K+(m)` is a
//! nonnegative supermartingale starting at 1, so by Ville's inequality the chance that it ever
//! reaches `1 / alpha` is at most `alpha`: reaching it shows `mu > m` with error at most
//! `alpha`, at whatever time the data are looked at and however the looks were chosen. The same
//! holds for `K-(m)` when `mu >= m`. The values of `m` never reached are a confidence sequence
//! (the lower end from `K+`, the upper from `K-`, each end at `alpha`).
//!
//! **Batches.** The observations arrive in batches (a study's looks). A batch's bet is one
//! number, fixed from the earlier batches only (so it is predictable, as Ville's inequality
//! needs), and the capital is checked at the end of every batch: a claim, once shown, is kept.
//! The bet is WSR's predictable plug-in (their `lambda^PrPl`) aimed at the batch's end `N`
//! instead of `t log(1 + t)`, and scaled by [`BET_SCALE`]:
//!
//! ```text
//! b = s sqrt(2 ln(1 / alpha) / (sigma^2 N)),   sigma^2 = ((hi - lo)^2 / 4 + sum (x_i - mu^)^2) / (1 + n)
//! ```
//!
//! over the `n` earlier observations, with WSR's prior (one pseudo-observation of variance
//! `(hi - lo)^2 / 4`), then capped per candidate as above with `c` = [`BET_CAP`]. Each batch's
//! bet costs about `s^2 ln(1 / alpha)` of log-capital in variance, so with a dozen batches the
//! full plug-in bet (`s = 1`) wastes what a half bet keeps: simulated on the study's cases
//! (breaks at the floor margin, cut shots near 0), `s = 1/2` decides in about half the shots. As the raw bet
//! `b` does not depend on `m`, both capitals are monotone in `m` (a cap only ever binds where it
//! raises the factor less), so each end of the sequence is found by bisection.
//!
//! **Storage.** A batch keeps each distinct value with its count (differences of rates and
//! counts take a handful of values); continuous values are kept in bins of a fixed width, each
//! observation entering `K+` at its bin's low edge and `K-` at its high edge, which can only
//! lower either capital: the claims stay valid and lose at most a bin's width.

/// The cap `c` of every bet, as a fraction of the largest bet that keeps the capital
/// nonnegative (WSR use 1/2 or 3/4): one observation at the far end of the range costs at most
/// `ln(1 / (1 - c))` = 1.4 nats.
pub const BET_CAP: f64 = 0.75;

/// The scale `s` of every raw bet, against WSR's plug-in bet (see the module docs).
pub const BET_SCALE: f64 = 0.5;

/// Bisection steps for a confidence sequence's end: the range halved this often is far below
/// any printed digit.
const BISECTION_STEPS: u32 = 64;

/// Which way a test bets: that the mean is above its null value, or below it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Evidence that the mean exceeds the null value (`K+`).
    Above,
    /// Evidence that the mean falls short of the null value (`K-`).
    Below,
}

/// One batch of observations: how many, their sum and sum of squares (for the next batch's
/// bet), and each distinct value (or bin's low edge) with its count, in increasing order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    /// Observations in the batch.
    pub n: u64,
    /// Their sum.
    pub sum: f64,
    /// The sum of their squares.
    pub sum_sq: f64,
    /// (value or bin low edge, count), by increasing value.
    pub values: Vec<(f64, u64)>,
}

impl Batch {
    fn add(&mut self, x: f64, key: f64, count: u64) {
        self.n += count;
        self.sum += x * count as f64;
        self.sum_sq += x * x * count as f64;
        match self.values.binary_search_by(|v| v.0.total_cmp(&key)) {
            Ok(at) => self.values[at].1 += count,
            Err(at) => self.values.insert(at, (key, count)),
        }
    }
}

/// The observations of one bounded quantity, batch by batch: the last batch is open until
/// [`Sequence::close`].
#[derive(Clone, Debug, PartialEq)]
pub struct Sequence {
    lo: f64,
    hi: f64,
    /// Bin width of continuous values (0: every value kept exactly).
    bin: f64,
    batches: Vec<Batch>,
    open: bool,
}

impl Sequence {
    /// A quantity in `[lo, hi]` whose values are kept exactly (few distinct values).
    ///
    /// # Panics
    /// Never on finite `lo < hi`; an empty or non-finite range gives tests that never claim.
    pub fn exact(lo: f64, hi: f64) -> Self {
        Sequence {
            lo,
            hi,
            bin: 0.0,
            batches: Vec::new(),
            open: false,
        }
    }

    /// A quantity in `[lo, hi]` kept in bins of width `bin` (> 0).
    pub fn binned(lo: f64, hi: f64, bin: f64) -> Self {
        Sequence {
            bin: if bin > 0.0 && bin.is_finite() {
                bin
            } else {
                0.0
            },
            ..Sequence::exact(lo, hi)
        }
    }

    /// The range `[lo, hi]`.
    pub fn range(&self) -> (f64, f64) {
        (self.lo, self.hi)
    }

    /// The batches, the open one last.
    pub fn batches(&self) -> &[Batch] {
        &self.batches
    }

    /// Adds `count` observations of value `x` to the open batch (opening one if none is):
    /// `x` is clamped into the range (a value outside it is a caller's bug, and clamping keeps
    /// the capital nonnegative); a NaN is ignored.
    pub fn push_many(&mut self, x: f64, count: u64) {
        if x.is_nan() || count == 0 {
            return;
        }
        let x = x.clamp(self.lo, self.hi);
        if !self.open {
            self.batches.push(Batch::default());
            self.open = true;
        }
        let key = if self.bin > 0.0 {
            (x / self.bin).floor() * self.bin
        } else {
            x
        };
        self.batches
            .last_mut()
            .expect("a batch is open")
            .add(x, key, count);
    }

    /// Adds one observation (see [`Sequence::push_many`]).
    pub fn push(&mut self, x: f64) {
        self.push_many(x, 1);
    }

    /// Ends the open batch (nothing when none is open): the next observation starts a new
    /// batch, with a bet made from every batch before it.
    pub fn close(&mut self) {
        self.open = false;
    }

    /// Whether a batch is open.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Observations in all batches.
    pub fn n(&self) -> u64 {
        self.batches.iter().map(|b| b.n).sum()
    }

    /// Their mean (NaN with none).
    pub fn mean(&self) -> f64 {
        let n = self.n();
        if n == 0 {
            return f64::NAN;
        }
        self.batches.iter().map(|b| b.sum).sum::<f64>() / n as f64
    }

    /// Their standard deviation (divisor n; NaN with none).
    pub fn std_dev(&self) -> f64 {
        let n = self.n() as f64;
        let mean = self.mean();
        let sq: f64 = self.batches.iter().map(|b| b.sum_sq).sum();
        (sq / n - mean * mean).max(0.0).sqrt()
    }

    /// The raw bets of every batch at level `alpha` (see the module docs).
    fn bets(&self, alpha: f64) -> Vec<f64> {
        let width = self.hi - self.lo;
        let prior = width * width / 4.0;
        let log = (1.0 / alpha).ln();
        let (mut n, mut sum, mut sum_sq) = (0u64, 0.0f64, 0.0f64);
        self.batches
            .iter()
            .map(|b| {
                // sum over earlier x of (x - mu)^2, mu the prior-weighted mean.
                let mu = ((self.lo + self.hi) / 2.0 + sum) / (1.0 + n as f64);
                let ss = (sum_sq - 2.0 * mu * sum + n as f64 * mu * mu).max(0.0);
                let var = ((prior + ss) / (1.0 + n as f64)).max(prior * 1e-12);
                n += b.n;
                sum += b.sum;
                sum_sq += b.sum_sq;
                BET_SCALE * (2.0 * log / (var * n as f64)).sqrt()
            })
            .collect()
    }

    /// The largest log-capital the test of `side` at null `m` reached at the end of any batch,
    /// with bets made for level `alpha`.
    fn peak_log_capital(&self, side: Side, m: f64, bets: &[f64]) -> f64 {
        let (lo, hi, bin) = (self.lo, self.hi, self.bin);
        let cap = match side {
            Side::Above => BET_CAP / (m - lo),
            Side::Below => BET_CAP / (hi - m),
        };
        let (mut log, mut peak) = (0.0f64, 0.0f64);
        for (b, &raw) in self.batches.iter().zip(bets) {
            let l = if cap > 0.0 { raw.min(cap) } else { raw };
            for &(key, count) in &b.values {
                let term = match side {
                    Side::Above => (l * (key - m)).ln_1p(),
                    Side::Below => (-l * ((key + bin).min(hi) - m)).ln_1p(),
                };
                log += count as f64 * term;
            }
            peak = peak.max(log);
        }
        peak
    }

    /// Whether the mean is shown above (`Side::Above`) or below (`Side::Below`) `m` at level
    /// `alpha`: the capital of that bet reached `1 / alpha` at the end of some batch. A null
    /// outside the range is decided by the range alone (the mean cannot be below `lo` or above
    /// `hi`); no batch, or an `alpha` outside (0, 1), never claims.
    pub fn shows(&self, side: Side, m: f64, alpha: f64) -> bool {
        if !(alpha > 0.0 && alpha < 1.0) || m.is_nan() || self.n() == 0 {
            return false;
        }
        match side {
            Side::Above if m < self.lo => return true,
            Side::Below if m > self.hi => return true,
            Side::Above if m >= self.hi => return false,
            Side::Below if m <= self.lo => return false,
            _ => {}
        }
        self.peak_log_capital(side, m, &self.bets(alpha)) >= (1.0 / alpha).ln()
    }

    /// One end of the confidence sequence at level `alpha` (that end alone errs at most
    /// `alpha`): the lower end for `Side::Above` (the largest `m` the data show the mean above,
    /// `lo` when none), the upper end for `Side::Below`. NaN with no observation or an invalid
    /// `alpha`. Never a point: with every observation equal, the ends stay apart by the
    /// evidence a bounded range allows.
    pub fn bound(&self, side: Side, alpha: f64) -> f64 {
        if !(alpha > 0.0 && alpha < 1.0) || self.n() == 0 {
            return f64::NAN;
        }
        let bets = self.bets(alpha);
        let target = (1.0 / alpha).ln();
        let shown = |m: f64| self.peak_log_capital(side, m, &bets) >= target;
        // Shown is monotone in m: true below the lower end (Above), above the upper end (Below).
        match side {
            Side::Above if !shown(self.lo) => self.lo,
            Side::Above => edge(self.lo, self.hi, |m| !shown(m)).0,
            Side::Below if !shown(self.hi) => self.hi,
            Side::Below => edge(self.lo, self.hi, shown).1,
        }
    }

    /// Both ends at level `alpha` each: `(lower, upper)`.
    pub fn interval(&self, alpha: f64) -> (f64, f64) {
        (
            self.bound(Side::Above, alpha),
            self.bound(Side::Below, alpha),
        )
    }

    /// About how many observations in all would show the mean beyond `m` on `side` at level
    /// `alpha`, if the mean and spread seen so far hold: the `n` at which the interval's
    /// half-width, modelled as `s sqrt(2 L / n) + L w / (c n)` (`L = ln(1 / alpha)`, `w` the
    /// range beyond `m` on the far side, `hi - m` or `m - lo`: the second term is what a run of
    /// identical values needs when one far observation may cost the bet), fits between the
    /// mean and `m`. `None` when the mean is not on that side of `m` or nothing was seen. A
    /// planning hint.
    pub fn shots_to_show(&self, side: Side, m: f64, alpha: f64) -> Option<u64> {
        let mean = self.mean();
        let room = match side {
            Side::Above => mean - m,
            Side::Below => m - mean,
        };
        if !(room > 0.0 && alpha > 0.0 && alpha < 1.0) {
            return None;
        }
        let log = (1.0 / alpha).ln();
        let s = self.std_dev();
        let width = match side {
            Side::Above => m - self.lo,
            Side::Below => self.hi - m,
        };
        // room = s sqrt(2 L) x + (L width / c) x^2, x = 1 / sqrt(n).
        let (qa, qb) = (log * width / BET_CAP, s * (2.0 * log).sqrt());
        let x = (-qb + (qb * qb + 4.0 * qa * room).sqrt()) / (2.0 * qa);
        let n = (1.0 / (x * x)).ceil();
        (n.is_finite()).then(|| (n as u64).max(1))
    }
}

/// The bracket `(a, b)` around the point where the monotone `past` turns true on `[lo, hi]`
/// (false at `lo`, true at `hi`), halved [`BISECTION_STEPS`] times or to adjacent floats.
fn edge(lo: f64, hi: f64, past: impl Fn(f64) -> bool) -> (f64, f64) {
    let (mut a, mut b) = (lo, hi);
    for _ in 0..BISECTION_STEPS {
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        if past(mid) {
            b = mid;
        } else {
            a = mid;
        }
    }
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pool_sim::SplitMix;

    fn batches_of(seq: &mut Sequence, xs: &[f64], sizes: &[usize]) {
        let mut at = 0;
        for &s in sizes {
            for &x in &xs[at..(at + s).min(xs.len())] {
                seq.push(x);
            }
            seq.close();
            at += s;
        }
    }

    #[test]
    fn one_batch_of_equal_values_solves_the_capital_equation() {
        // 400 zeros in [0, 1], one batch: the bet is the prior's, b = s sqrt(2 ln(1/alpha) /
        // (1/4 x 400)); the upper end U solves 400 ln(1 + min(b, c / (1 - U)) U) = ln(1/alpha).
        let mut s = Sequence::exact(0.0, 1.0);
        s.push_many(0.0, 400);
        let alpha = 0.01;
        let u = s.bound(Side::Below, alpha);
        let b = BET_SCALE * (2.0 * (1.0 / alpha).ln() / (0.25 * 400.0)).sqrt();
        let l = b.min(BET_CAP / (1.0 - u));
        let log = 400.0 * (l * u).ln_1p();
        assert!((log - (1.0 / alpha).ln()).abs() < 1e-9, "{u} {log}");
        // Not a point: zeros do not show the mean is 0.
        assert!(u > 0.0 && u < 0.1, "{u}");
        assert_eq!(s.bound(Side::Above, alpha), 0.0);
    }

    #[test]
    fn the_ends_narrow_as_the_data_grow_and_stay_apart() {
        let mut rng = SplitMix::new(7);
        let mut s = Sequence::exact(-1.0, 1.0);
        let mut widths = Vec::new();
        for _ in 0..6 {
            for _ in 0..1000 {
                s.push(if rng.unit() < 0.3 { 1.0 } else { 0.0 });
            }
            s.close();
            let (lo, hi) = s.interval(0.05);
            assert!(lo < s.mean() && s.mean() < hi, "{lo} {} {hi}", s.mean());
            widths.push(hi - lo);
        }
        assert!(widths.windows(2).all(|w| w[1] < w[0]), "{widths:?}");
        // About 2 x 2.4 x sqrt(0.21 / 6000) at 6000 (a fixed-n 95 % interval is 0.023).
        assert!(widths[5] < 0.05, "{widths:?}");
    }

    #[test]
    fn tests_agree_with_the_ends() {
        let mut rng = SplitMix::new(3);
        let mut s = Sequence::exact(-1.2, 1.0);
        for k in 0..3 {
            for _ in 0..(100 << k) {
                let u = rng.unit();
                s.push(if u < 0.02 {
                    1.0
                } else if u < 0.03 {
                    -1.2
                } else {
                    0.0
                });
            }
            s.close();
        }
        for alpha in [0.05, 0.004] {
            let (lo, hi) = s.interval(alpha);
            assert!(lo < s.mean() && s.mean() < hi);
            for d in [1e-9, 1e-3, 0.1] {
                assert!(s.shows(Side::Below, hi + d, alpha), "{hi} + {d}");
                assert!(!s.shows(Side::Below, hi - d, alpha), "{hi} - {d}");
                assert!(s.shows(Side::Above, lo - d, alpha), "{lo} - {d}");
                assert!(!s.shows(Side::Above, lo + d, alpha), "{lo} + {d}");
            }
        }
    }

    #[test]
    fn nothing_seen_claims_nothing_and_bad_levels_never_claim() {
        let s = Sequence::exact(0.0, 1.0);
        assert!(!s.shows(Side::Above, 0.5, 0.05));
        assert!(s.bound(Side::Below, 0.05).is_nan());
        let mut s = Sequence::exact(0.0, 1.0);
        s.push_many(1.0, 1000);
        assert!(s.shows(Side::Above, 0.5, 0.05));
        for bad in [0.0, 1.0, f64::NAN, -1.0] {
            assert!(!s.shows(Side::Above, 0.5, bad));
            assert!(s.bound(Side::Above, bad).is_nan());
        }
        // Nulls outside the range are decided by the range.
        assert!(s.shows(Side::Above, -0.1, 0.05));
        assert!(!s.shows(Side::Above, 1.0, 0.05));
        assert!(!s.shows(Side::Below, 0.0, 0.05));
    }

    /// Coverage: the mean of the data is outside the sequence at some batch's end in at most
    /// alpha of the replications (Ville), whatever the batches and the data's law.
    #[test]
    fn the_sequence_covers_the_mean_at_every_batch() {
        let alpha = 0.1;
        let reps = 400;
        let mut rng = SplitMix::new(11);
        for (name, law, mean) in [
            ("bernoulli 0.05", 0, 0.05),
            ("three points", 1, 0.0),
            ("uniform", 2, 0.5),
        ] {
            let mut misses = 0;
            for _ in 0..reps {
                let mut s = if law == 2 {
                    Sequence::binned(0.0, 1.0, 0.01)
                } else {
                    Sequence::exact(-1.0, 1.0)
                };
                let mut missed = false;
                for size in [20usize, 40, 80, 160, 320] {
                    for _ in 0..size {
                        let u = rng.unit();
                        let x = match law {
                            0 => f64::from(u8::from(u < 0.05)),
                            1 => {
                                if u < 0.1 {
                                    1.0
                                } else if u < 0.2 {
                                    -1.0
                                } else {
                                    0.0
                                }
                            }
                            _ => rng.unit(),
                        };
                        s.push(x);
                    }
                    s.close();
                    // Each end at alpha / 2: the two-sided sequence at alpha.
                    let (lo, hi) = s.interval(alpha / 2.0);
                    missed |= mean < lo || mean > hi;
                }
                misses += u32::from(missed);
            }
            let rate = f64::from(misses) / f64::from(reps);
            assert!(rate <= alpha, "{name}: {misses} of {reps}");
        }
    }

    #[test]
    fn bins_only_ever_lower_the_capital() {
        let mut rng = SplitMix::new(5);
        let xs: Vec<f64> = (0..700).map(|_| rng.unit() * 0.2 - 0.05).collect();
        let mut exact = Sequence::exact(-1.0, 1.0);
        let mut binned = Sequence::binned(-1.0, 1.0, 0.01);
        batches_of(&mut exact, &xs, &[100, 200, 400]);
        batches_of(&mut binned, &xs, &[100, 200, 400]);
        let (el, eh) = exact.interval(0.01);
        let (bl, bh) = binned.interval(0.01);
        assert!(bl <= el && bh >= eh, "{bl} {el} {eh} {bh}");
        assert!(el - bl < 0.011 && bh - eh < 0.011);
    }

    #[test]
    fn shots_to_show_follows_the_data() {
        let mut s = Sequence::exact(-1.0, 1.0);
        s.push_many(0.0, 200);
        s.close();
        let need = s.shots_to_show(Side::Below, 0.02, 0.004).unwrap();
        let mut t = Sequence::exact(-1.0, 1.0);
        t.push_many(0.0, 200);
        t.close();
        t.push_many(0.0, need);
        t.close();
        assert!(t.shows(Side::Below, 0.02, 0.004), "{need}");
        assert_eq!(s.shots_to_show(Side::Above, 0.02, 0.004), None);
    }
}
