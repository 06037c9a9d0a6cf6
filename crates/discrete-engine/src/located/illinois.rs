//! Bracketed root refinement: the Illinois method (regula falsi whose retained end has its
//! value halved when it is kept twice in a row; M. Dowell and P. Jarratt, "A modified regula
//! falsi method for computing the root of an equation", BIT 11:168, 1971), safeguarded by
//! bisection so that the bracket at least halves every three evaluations.

/// Where a function that is positive at `lo` and zero or negative at `hi` changes sign: the
/// bracket left when it is at most the tolerance wide, or `lo == hi` at a point where the
/// function was exactly zero.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bracket {
    /// The last point found with g > 0 (before the event).
    pub lo: f64,
    /// The first point found with g <= 0 (at or after the event).
    pub hi: f64,
}

/// Most evaluations of one refinement: the bisection safeguard halves the bracket at least
/// every third evaluation, so a 1 s bracket reaches 1e-15 s in about 150.
const MAX_EVALUATIONS: u32 = 200;

/// Refines a bracket of the first sign change of `g` on [a, b], given g(a) = `ga` > 0 and
/// g(b) = `gb` <= 0, until it is at most `tol` wide (same units as a and b) or lands on an
/// exact zero (a zero `gb` is taken as a sign change, not as the root). Each call of `g`
/// adds one to `evaluations`. A NaN value counts as "not positive" (the bracket closes on it
/// and the caller sees the state it came from).
///
/// Illinois converges with order about 1.44 on a simple root; on a function linear in its
/// argument (a transition's margin) the first secant step lands on the root. Steps are kept at
/// least tol / 2 inside the bracket, so that a secant stuck at one end still closes it, and a
/// bisection is taken whenever two steps have not halved it.
pub(crate) fn illinois(
    mut g: impl FnMut(f64) -> f64,
    (a, ga): (f64, f64),
    (b, gb): (f64, f64),
    tol: f64,
    evaluations: &mut u64,
) -> Bracket {
    let (mut lo, mut glo, mut hi, mut ghi) = (a, ga, b, gb);
    // Which end the last step replaced: +1 lo, -1 hi, 0 none yet.
    let mut replaced = 0i8;
    // The width two steps ago, for the bisection safeguard.
    let mut widths = [hi - lo; 2];
    for k in 0..MAX_EVALUATIONS {
        let width = hi - lo;
        if width <= tol {
            break;
        }
        // ghi <= 0 < glo: the weight is in [0, 1) and the secant in (lo, hi] (NaN when a
        // value was).
        let secant = hi - width * (ghi / (ghi - glo));
        let x = if (k >= 2 && width > 0.5 * widths[0]) || !secant.is_finite() {
            0.5 * (lo + hi)
        } else {
            secant.clamp(lo + 0.5 * tol, hi - 0.5 * tol)
        };
        widths = [widths[1], width];
        *evaluations += 1;
        let gx = g(x);
        if gx == 0.0 {
            return Bracket { lo: x, hi: x };
        }
        if gx > 0.0 {
            (lo, glo) = (x, gx);
            if replaced == 1 {
                ghi *= 0.5;
            }
            replaced = 1;
        } else {
            (hi, ghi) = (x, gx);
            if replaced == -1 {
                glo *= 0.5;
            }
            replaced = -1;
        }
    }
    Bracket { lo, hi }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn closes_on_known_roots_within_the_tolerance_in_few_evaluations() {
        // (g, bracket, root, most evaluations)
        type Case = (fn(f64) -> f64, f64, f64, f64, u64);
        let cases: [Case; 5] = [
            // Linear: the first secant step is the root (then one more closes the bracket).
            (|t| 0.3 - 2.0 * t, 0.0, 1.0, 0.15, 3),
            // A ball-ball gap: |d(t)| - 2R for balls closing at 2 m/s from 1 cm apart.
            (
                |t| ((0.0672 - 2.0 * t).powi(2) + 0.01f64.powi(2)).sqrt() - 0.05715,
                0.0,
                0.01,
                0.005_465_845_934_167_487,
                12,
            ),
            // Quadratic decay (a sliding ball's path): r(t) = 0.01 - t + 5 t^2.
            (
                |t| 0.01 - t + 5.0 * t * t,
                0.0,
                0.05,
                0.010_557_280_900_008_414,
                12,
            ),
            // Tangent-like: root where g is nearly flat on one side.
            (|t| 1e-6 - t.powi(3), 0.0, 0.02, 0.01, 40),
            // Steep step near the end of the bracket.
            (|t| (0.999e-3 - t).tanh(), 0.0, 1e-3, 0.999e-3, 40),
        ];
        for (g, a, b, root, most) in cases {
            let mut n = 0;
            let br = illinois(g, (a, g(a)), (b, g(b)), 1e-13, &mut n);
            assert!(br.hi - br.lo <= 1e-13 || g(br.hi) == 0.0, "{br:?}");
            assert!(
                br.lo <= root + 1e-15 && root <= br.hi + 1e-15,
                "{br:?} vs {root}"
            );
            assert!((g(br.lo) > 0.0 || br.lo == br.hi) && g(br.hi) <= 0.0);
            assert!(n <= most, "{n} evaluations for root {root}");
        }
    }

    #[test]
    fn an_exact_zero_is_the_root_on_both_sides() {
        // The secant lands on 0.25 exactly: g is linear with an exactly representable root.
        let mut n = 0;
        let br = illinois(|t| 1.0 - 4.0 * t, (0.0, 1.0), (1.0, -3.0), 1e-12, &mut n);
        assert_eq!(br, Bracket { lo: 0.25, hi: 0.25 });
        assert_eq!(n, 1);
    }

    #[test]
    fn a_nan_closes_the_bracket_instead_of_looping() {
        let mut n = 0;
        let br = illinois(
            |t| if t > 0.5 { f64::NAN } else { 0.5 - t },
            (0.0, 0.5),
            (1.0, f64::NAN),
            1e-12,
            &mut n,
        );
        assert!(
            br.hi - br.lo <= 1e-12 && n < MAX_EVALUATIONS as u64,
            "{br:?} {n}"
        );
    }
}
