//! Roots of any continuous function on a bracket: Brent's method (R. P. Brent, *Algorithms for
//! Minimization without Derivatives*, 1973, ch. 4: inverse quadratic interpolation and secant
//! steps, safeguarded by bisection), for the laws whose stick/slip transitions are roots of
//! transcendental functions.

/// Why a bracketed solve cannot be answered.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum BracketError {
    /// f(a) and f(b) have the same strict sign: no sign change to find.
    #[error("no sign change on [{a}, {b}]: f = {fa} and {fb}")]
    NoSignChange {
        /// Left end.
        a: f64,
        /// Right end.
        b: f64,
        /// f(a).
        fa: f64,
        /// f(b).
        fb: f64,
    },
    /// f returned NaN, or an end is not finite.
    #[error("not finite: f({x}) = {fx}")]
    NotFinite {
        /// Where.
        x: f64,
        /// What f gave.
        fx: f64,
    },
}

/// A root of `f` in [a, b] where f(a) and f(b) differ in sign (or one is zero), to within
/// `xtol` + 4 ulps of the root (absolute, in the units of x). At most 200 iterations; Brent's
/// method halves the bracket at least every few steps, so the tolerance is reached well before.
///
/// # Errors
/// No sign change, or a non-finite end or value.
pub fn brent(
    mut f: impl FnMut(f64) -> f64,
    a: f64,
    b: f64,
    xtol: f64,
) -> Result<f64, BracketError> {
    let (mut a, mut b) = (a, b);
    let (mut fa, mut fb) = (f(a), f(b));
    for (x, fx) in [(a, fa), (b, fb)] {
        if !x.is_finite() || fx.is_nan() {
            return Err(BracketError::NotFinite { x, fx });
        }
    }
    if fa == 0.0 {
        return Ok(a);
    }
    if fb == 0.0 {
        return Ok(b);
    }
    if fa.signum() == fb.signum() {
        return Err(BracketError::NoSignChange { a, b, fa, fb });
    }
    // b is the best estimate, a the previous one, c the other end of the bracket [b, c].
    let (mut c, mut fc) = (a, fa);
    let (mut d, mut e) = (b - a, b - a);
    for _ in 0..200 {
        if fb.signum() == fc.signum() {
            (c, fc) = (a, fa);
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            (a, fa) = (b, fb);
            (b, fb) = (c, fc);
            (c, fc) = (a, fa);
        }
        let tol = 2.0 * f64::EPSILON * b.abs() + 0.5 * xtol;
        let half = 0.5 * (c - b);
        if half.abs() <= tol || fb == 0.0 {
            return Ok(b);
        }
        if e.abs() >= tol && fa.abs() > fb.abs() {
            // Interpolate: secant with two points, inverse quadratic with three.
            let s = fb / fa;
            let (mut p, mut q) = if a == c {
                (2.0 * half * s, 1.0 - s)
            } else {
                let (q0, r) = (fa / fc, fb / fc);
                (
                    s * (2.0 * half * q0 * (q0 - r) - (b - a) * (r - 1.0)),
                    (q0 - 1.0) * (r - 1.0) * (s - 1.0),
                )
            };
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            // Accept the interpolation only if it falls well inside the bracket and shrinks
            // faster than the step before last.
            if 2.0 * p < (3.0 * half * q - (tol * q).abs()).min((e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                d = half;
                e = d;
            }
        } else {
            d = half;
            e = d;
        }
        (a, fa) = (b, fb);
        b += if d.abs() > tol { d } else { tol.copysign(half) };
        fb = f(b);
        if fb.is_nan() {
            return Err(BracketError::NotFinite { x: b, fx: fb });
        }
    }
    Ok(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brent_finds_known_roots_to_the_tolerance_in_few_evaluations() {
        // (f, bracket, root, most evaluations): superlinear on simple roots; a triple root
        // (f flat to the 15th digit over 1e-5 around it) falls back on bisection.
        type Case = (fn(f64) -> f64, f64, f64, f64, usize);
        let cases: [Case; 4] = [
            (|x| x * x - 2.0, 0.0, 2.0, std::f64::consts::SQRT_2, 15),
            (|x| x.cos() - x, 0.0, 1.0, 0.739_085_133_215_160_6, 15),
            (|x| (x - 0.3).powi(3), 0.0, 1.0, 0.3, 160),
            (|x| x.exp() - 10.0, 0.0, 5.0, 10f64.ln(), 15),
        ];
        for (f, a, b, want, most) in cases {
            let mut calls = 0;
            let x = brent(
                |x| {
                    calls += 1;
                    f(x)
                },
                a,
                b,
                1e-14,
            )
            .unwrap();
            assert!((x - want).abs() <= 1e-13, "{x} vs {want}");
            assert!(calls <= most, "{calls} evaluations for the root {want}");
        }
    }

    #[test]
    fn brent_refuses_a_bracket_without_sign_change_or_with_nan() {
        assert!(matches!(
            brent(|x| x * x + 1.0, -1.0, 1.0, 1e-12),
            Err(BracketError::NoSignChange { .. })
        ));
        assert!(matches!(
            brent(|_| f64::NAN, 0.0, 1.0, 1e-12),
            Err(BracketError::NotFinite { .. })
        ));
        assert_eq!(brent(|x| x - 1.0, 1.0, 2.0, 1e-12), Ok(1.0));
    }
}
