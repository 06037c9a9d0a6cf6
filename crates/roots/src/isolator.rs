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

impl Isolator {
    /// The search interval's upper end: the horizon, or a bound on the roots if smaller.
    fn upper(&self, c: &[f64], horizon: f64) -> f64 {
        horizon.min(cauchy_bound(c)).min(self.max_horizon)
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
        let hi = self.upper(&c[..=n], horizon);
        if hi < 0.0 {
            return;
        }
        let mut found = [0.0; 4];
        let k = roots_on(&c[..=n], 0.0, hi, &mut found, ROOT_TOL);
        out.extend_from_slice(&found[..k]);
    }

    /// Stops at the first monotone piece where p falls through zero: only that root is refined.
    fn first_entry(&self, c: &[f64; 5], horizon: f64, _scratch: &mut RootList) -> Option<f64> {
        let n = degree(c);
        if n == 0 {
            return None;
        }
        let c = &c[..=n];
        let hi = self.upper(c, horizon);
        if hi <= 0.0 {
            return None;
        }
        let mut crit = [0.0; 4];
        let m = if n == 1 {
            0
        } else {
            let mut d = [0.0; 4];
            for k in 1..=n {
                d[k - 1] = k as f64 * c[k];
            }
            critical_points(&d[..n], 0.0, hi, &mut crit)
        };
        let (mut x0, mut f0) = (0.0, eval(c, 0.0));
        for &x1 in crit[..m].iter().chain(std::iter::once(&hi)) {
            if x1 <= x0 {
                continue;
            }
            let f1 = eval(c, x1);
            if f0 >= 0.0 && f1 < 0.0 {
                if f0 > 0.0 {
                    return Some(refine(c, x0, x1, f0, f1, ROOT_TOL));
                }
                // p touches zero at an interior critical point and goes on down: an entry there.
                // (Falling from p(0) = 0 is the caller's "contact now" case, decided before.)
                if x0 > 0.0 {
                    return Some(x0);
                }
            }
            x0 = x1;
            f0 = f1;
        }
        None
    }
}

/// 1 + max |c_i / c_n|: every root's magnitude is below it. Infinite when c_n underflows the
/// ratio, which the caller's cap handles.
fn cauchy_bound(c: &[f64]) -> f64 {
    let n = c.len() - 1;
    let lead = c[n].abs();
    1.0 + c[..n].iter().fold(0.0f64, |m, &x| m.max(x.abs() / lead))
}

/// Roots of a derivative (critical points of its antiderivative) in [lo, hi], ascending. They
/// only cut [lo, hi] into monotone pieces, so a quadratic's are taken in closed form (the
/// numerically stable one); higher degrees recurse.
fn critical_points(c: &[f64], lo: f64, hi: f64, out: &mut [f64; 4]) -> usize {
    if c.len() != 3 {
        return roots_on(c, lo, hi, out, CRITICAL_TOL);
    }
    let (c0, b, a) = (c[0], c[1], c[2]);
    let mut found = [0.0; 2];
    let mut k = 0;
    if a == 0.0 {
        if b != 0.0 {
            found[0] = -c0 / b;
            k = 1;
        }
    } else {
        let disc = b * b - 4.0 * a * c0;
        if disc >= 0.0 {
            let q = -0.5 * (b + disc.sqrt().copysign(b));
            if q == 0.0 {
                found[0] = 0.0;
                k = 1;
            } else {
                found = [q / a, c0 / q];
                if found[0] > found[1] {
                    found.swap(0, 1);
                }
                k = 2;
            }
        }
    }
    let mut m = 0;
    for &t in &found[..k] {
        if t > lo && t < hi {
            out[m] = t;
            m += 1;
        }
    }
    m
}

/// Roots of the polynomial with ascending coefficients `c` (exact degree c.len() - 1 >= 1) in
/// [lo, hi], to relative precision `tol`, written ascending into `out`; returns how many.
fn roots_on(c: &[f64], lo: f64, hi: f64, out: &mut [f64; 4], tol: f64) -> usize {
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
    let m = critical_points(&d[..n], lo, hi, &mut crit);

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
            out[count] = refine(c, x0, x1, f0, f1, tol);
            count += 1;
        }
        x0 = x1;
        f0 = f1;
    }
    count
}

/// Relative precision of critical points: they only bound monotone pieces, so they need not be
/// exact (an error of d moves the piece's end value by O(d^2)).
const CRITICAL_TOL: f64 = 1e-12;

/// Relative precision of the roots returned: the last few ulps.
const ROOT_TOL: f64 = 2.0 * f64::EPSILON;

/// The root of a polynomial that is monotone on [a, b] and changes sign there (`fa` = p(a),
/// `fb` = p(b)), by Newton steps kept inside a shrinking bracket (bisection when a step leaves
/// it or would not halve it), starting from the secant point; done when a step is below `tol`
/// relative.
fn refine(c: &[f64], mut a: f64, mut b: f64, fa: f64, fb: f64, tol: f64) -> f64 {
    let a_negative = fa < 0.0;
    let secant = a - fa * (b - a) / (fb - fa);
    let mut x = if secant > a && secant < b {
        secant
    } else {
        0.5 * (a + b)
    };
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
        let step = fx / crate::poly::derivative_at(c, x);
        let newton = x - step;
        if step.abs() <= tol * x.abs() && newton >= a && newton <= b {
            return newton;
        }
        let next = if newton > a && newton < b && step.abs() <= 0.5 * (b - a) {
            newton
        } else {
            0.5 * (a + b)
        };
        if next == x || b - a <= ROOT_TOL * a.abs().max(b.abs()) {
            return next;
        }
        x = next;
    }
    x
}
