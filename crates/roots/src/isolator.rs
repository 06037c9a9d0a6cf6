//! Root isolation by derivative recursion, refined by safeguarded Newton.

use crate::poly::{degree, eval};
use crate::{RootList, RootSolver};

/// Real-root isolation on a bounded interval.
///
/// For p of degree n, the real roots of p' (found recursively on the same interval) split it into
/// pieces where p is monotone; each piece holds at most one root, present exactly when p changes
/// sign over it, and a bracketing Newton iteration refines it to a few ulps. Nothing divides by
/// the leading coefficient, so a tiny t^4 coefficient (nearly equal accelerations) is no special
/// case, and a root is missed only if f64 evaluation of p cannot see the sign change (a double
/// root within rounding of zero: a graze, which is not a collision).
///
/// An infinite horizon is replaced by a bound on the roots' magnitude (Cauchy's), capped at
/// [`Isolator::max_horizon`].
#[derive(Clone, Copy, Debug)]
pub struct Isolator {
    /// Longest interval (s) searched when the caller's horizon is infinite.
    pub max_horizon: f64,
}

impl Default for Isolator {
    fn default() -> Self {
        Isolator { max_horizon: 1e9 }
    }
}

impl RootSolver for Isolator {
    fn name(&self) -> &'static str {
        "isolator"
    }

    fn roots_in(&self, c: &[f64; 5], horizon: f64, out: &mut RootList) {
        let n = degree(c);
        if n == 0 {
            return;
        }
        let hi = horizon.min(cauchy_bound(&c[..=n])).min(self.max_horizon);
        if hi < 0.0 {
            return;
        }
        let mut found = [0.0; 4];
        let k = roots_on(&c[..=n], 0.0, hi, &mut found);
        out.extend_from_slice(&found[..k]);
    }
}

/// 1 + max |c_i / c_n|: every root's magnitude is below it. Infinite when c_n underflows the
/// ratio, which the caller's cap handles.
fn cauchy_bound(c: &[f64]) -> f64 {
    let n = c.len() - 1;
    let lead = c[n].abs();
    1.0 + c[..n].iter().fold(0.0f64, |m, &x| m.max(x.abs() / lead))
}

/// Roots of the polynomial with ascending coefficients `c` (exact degree c.len() - 1 >= 1) in
/// [lo, hi], written ascending into `out`; returns how many.
fn roots_on(c: &[f64], lo: f64, hi: f64, out: &mut [f64; 4]) -> usize {
    let n = c.len() - 1;
    if n == 1 {
        let t = -c[0] / c[1];
        if t >= lo && t <= hi {
            out[0] = t;
            return 1;
        }
        return 0;
    }
    // Critical points: roots of p' in (lo, hi).
    let mut d = [0.0; 4];
    for k in 1..=n {
        d[k - 1] = k as f64 * c[k];
    }
    let mut crit = [0.0; 4];
    let m = roots_on(&d[..n], lo, hi, &mut crit);

    let mut count = 0;
    let mut x0 = lo;
    let mut f0 = eval(c, lo);
    if f0 == 0.0 {
        out[count] = lo;
        count += 1;
    }
    for &x1 in crit[..m].iter().chain(std::iter::once(&hi)) {
        if x1 <= x0 {
            continue;
        }
        let f1 = eval(c, x1);
        if f1 == 0.0 {
            if count < 4 && (count == 0 || out[count - 1] < x1) {
                out[count] = x1;
                count += 1;
            }
        } else if f0 != 0.0 && (f0 < 0.0) != (f1 < 0.0) && count < 4 {
            out[count] = refine(c, x0, x1, f0);
            count += 1;
        }
        x0 = x1;
        f0 = f1;
    }
    count
}

/// The root of a polynomial that is monotone on [a, b] and changes sign there (`fa` = p(a)),
/// by Newton steps kept inside a shrinking bracket (bisection when a step leaves it or stalls).
fn refine(c: &[f64], mut a: f64, mut b: f64, fa: f64) -> f64 {
    let a_negative = fa < 0.0;
    let mut x = 0.5 * (a + b);
    for _ in 0..200 {
        let fx = eval(c, x);
        if fx == 0.0 {
            return x;
        }
        if (fx < 0.0) == a_negative {
            a = x;
        } else {
            b = x;
        }
        let dfx = crate::poly::derivative_at(c, x);
        let newton = x - fx / dfx;
        let next = if newton > a && newton < b {
            newton
        } else {
            0.5 * (a + b)
        };
        if next == x || b - a <= 2.0 * f64::EPSILON * a.abs().max(b.abs()) {
            return next;
        }
        // Newton converging slowly (or cycling) inside the bracket: bisect instead when the
        // step would not halve the bracket.
        x = if (next - x).abs() > 0.5 * (b - a) {
            0.5 * (a + b)
        } else {
            next
        };
    }
    x
}
