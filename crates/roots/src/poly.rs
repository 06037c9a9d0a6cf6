//! Small polynomial helpers (ascending coefficients).

/// p(t) by Horner's rule, for ascending coefficients `c`.
#[inline]
pub fn eval(c: &[f64], t: f64) -> f64 {
    c.iter().rev().fold(0.0, |acc, &x| acc * t + x)
}

/// p'(t) for ascending coefficients `c`.
#[inline]
pub fn derivative_at(c: &[f64], t: f64) -> f64 {
    let mut acc = 0.0;
    for (k, &x) in c.iter().enumerate().skip(1).rev() {
        acc = acc * t + k as f64 * x;
    }
    acc
}

/// Degree of the polynomial: index of the highest non-zero coefficient (0 for constants and for
/// the zero polynomial).
pub fn degree(c: &[f64]) -> usize {
    c.iter().rposition(|&x| x != 0.0).unwrap_or(0)
}
