//! `pool_physics::hypot`: the recorded results of glibc's `hypot`, the running libm when it is
//! that one, and an exact reference (within one ulp).

use pool_physics::hypot;
use proptest::prelude::*;

/// (x, y, glibc's hypot(x, y)) from `data/hypot_glibc.csv`: 3,400 pairs over the whole double
/// range, close exponents, the physics' speeds, and around the algorithm's thresholds.
fn recorded() -> Vec<(f64, f64, f64)> {
    include_str!("data/hypot_glibc.csv")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<f64> = l
                .split(',')
                .map(|h| f64::from_bits(u64::from_str_radix(h, 16).unwrap()))
                .collect();
            (f[0], f[1], f[2])
        })
        .collect()
}

#[test]
fn reproduces_glibc_bit_for_bit_on_the_recorded_table() {
    let rows = recorded();
    assert_eq!(rows.len(), 3400);
    for (x, y, h) in rows {
        assert_eq!(hypot(x, y).to_bits(), h.to_bits(), "hypot({x:e}, {y:e})");
        assert_eq!(hypot(y, x).to_bits(), h.to_bits(), "hypot({y:e}, {x:e})");
        assert_eq!(
            hypot(-x, y).to_bits(),
            h.to_bits(),
            "hypot({:e}, {y:e})",
            -x
        );
    }
}

/// SplitMix64: a fixed stream of test inputs.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[test]
fn same_bits_as_the_running_libm_when_it_is_glibc() {
    // Only a libm that reproduces the whole recorded table is the one this replicates; on any
    // other (musl, macOS, glibc < 2.35) the recorded table above is the check.
    if !recorded()
        .iter()
        .all(|&(x, y, h)| x.hypot(y).to_bits() == h.to_bits())
    {
        eprintln!("the running libm is not glibc >= 2.35: compared with the recorded table only");
        return;
    }
    let mut rng = SplitMix(7);
    for k in 0..2_000_000u64 {
        let (x, y) = if k % 2 == 0 {
            // any finite doubles
            let (a, b) = (f64::from_bits(rng.next()), f64::from_bits(rng.next()));
            if !(a.is_finite() && b.is_finite()) {
                continue;
            }
            (a, b)
        } else {
            // a speed or spin component and another within 2^-60..2^60 of it
            let a = f64::from_bits((rng.next() >> 12) | (1000u64 << 52)) * 1e-3;
            let e = (rng.next() % 121) as i32 - 60;
            (
                a,
                a * 2f64.powi(e) * (1.0 + (rng.next() >> 11) as f64 / 2f64.powi(53)),
            )
        };
        assert_eq!(
            hypot(x, y).to_bits(),
            x.hypot(y).to_bits(),
            "hypot({x:e}, {y:e})"
        );
    }
}

/// a^2 - (s_hi + s_lo), with a^2 split exactly by a fused multiply-add; its sign is exact when
/// a is an ulp or more away from the root (the error is ~2^-104 of s, the gap ~2^-52).
fn square_minus(a: f64, s_hi: f64, s_lo: f64) -> f64 {
    let p = a * a;
    let e = a.mul_add(a, -p);
    (p - s_hi) + (e - s_lo)
}

proptest! {
    /// The next double either side of hypot(x, y) is on the wrong side of the exact root: the
    /// result is within one ulp of sqrt(x^2 + y^2) (x^2 + y^2 kept exactly as a double-double).
    #[test]
    fn within_one_ulp_of_the_exact_root(
        mx in 1.0f64..2.0, ex in -200i32..200, my in 1.0f64..2.0, ey in -200i32..200,
    ) {
        let (x, y) = (mx * 2f64.powi(ex), my * 2f64.powi(ey));
        let h = hypot(x, y);
        let (px, py) = (x * x, y * y);
        let (ex2, ey2) = (x.mul_add(x, -px), y.mul_add(y, -py));
        let s_hi = px + py;
        // Fast two-sum: s_hi + tail = px + py exactly.
        let (big, small) = if px >= py { (px, py) } else { (py, px) };
        let s_lo = (small - (s_hi - big)) + ex2 + ey2;
        let up = f64::from_bits(h.to_bits() + 1);
        let down = f64::from_bits(h.to_bits() - 1);
        prop_assert!(square_minus(up, s_hi, s_lo) > 0.0, "hypot({x:e}, {y:e}) = {h:e} is an ulp low");
        prop_assert!(square_minus(down, s_hi, s_lo) < 0.0, "hypot({x:e}, {y:e}) = {h:e} is an ulp high");
    }
}
