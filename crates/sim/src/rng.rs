//! [`SplitMix`]: the seeded generator every generated set-up draws from (std only).

/// A small deterministic generator (splitmix64): the same seed gives the same shots everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// The next 64 bits (SplitMix64: G. L. Steele, D. Lea and C. H. Flood, "Fast splittable
    /// pseudorandom number generators", OOPSLA 2014).
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits of [`SplitMix::next_u64`].
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform integer in `0..bound` (`bound >= 1`), unbiased (Lemire's multiply-and-reject
    /// method, ACM TOMACS 2019).
    pub fn below(&mut self, bound: u64) -> u64 {
        let threshold = bound.wrapping_neg() % bound;
        loop {
            let prod = u128::from(self.next_u64()) * u128::from(bound);
            if (prod as u64) >= threshold {
                return (prod >> 64) as u64;
            }
        }
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform over the integers 0..n (0 when n is 0).
    pub fn index(&mut self, n: usize) -> usize {
        ((self.unit() * n as f64) as usize).min(n.saturating_sub(1))
    }

    /// Log-uniform in [lo, hi] (both positive): every decade equally likely.
    pub fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + (hi.ln() - lo.ln()) * self.unit())
            .exp()
            .clamp(lo, hi)
    }
}
