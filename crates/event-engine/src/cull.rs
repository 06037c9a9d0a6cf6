//! Conservative culling: cheap tests that prove a prediction has no entry, so that its root solve
//! can be skipped without changing the answer.
//!
//! Every test here answers "certainly clear" or "don't know". "Certainly clear" must imply that
//! the default root finder (`pool_roots::Isolator`), given the polynomial the predictor would
//! have built, returns no entry: the isolator reports an entry only after it has *evaluated* the
//! polynomial below zero at some t in [0, horizon] (its `first_entry`), and `earliest_entry`
//! reports contact-now only when the constant coefficient is <= 0. So it is enough to show that
//! the computed polynomial stays positive on [0, horizon] with a margin larger than any rounding
//! in building or evaluating it. Two arguments are used:
//!
//! 1. **Signs** ([`quartic_positive`]): c0 > 0 and c1..c4 >= 0. Horner's rule on non-negative
//!    terms at t >= 0 never subtracts, so every evaluation is >= c0 > 0 bit for bit; this holds
//!    on any horizon, infinite included (a frictionless pair moving apart).
//! 2. **Convex hull** ([`path_clear`], [`scalar_clear`]): a quadratic path d(t) = a t^2 + b t + c
//!    on [0, h] is the quadratic Bezier curve with control points P0 = c, P1 = c + b h / 2,
//!    P2 = c + b h + a h^2, and lies in their triangle (a Bezier curve lies in the convex hull of
//!    its control points; de Casteljau halves give tighter triangles). If the triangle stays
//!    farther than `dist` from the origin, |d(t)| > dist on all of [0, h]. With
//!    S = |c| + |b| h + |a| h^2 (a bound on every magnitude involved), the computed control points
//!    and distances are off by at most a few ulps of S, and the quartic's coefficients and
//!    Horner evaluations by a few ulps of S^2 (each term is bounded by S^2): the test demands a
//!    clearance of [`MARGIN`] * S^2 in squared distance, about 4000 times that rounding.
//!
//! The predictor calls the hull tests only where it would otherwise call the root finder on the
//! plain "apart" polynomial (never in the touching branches of `contact_entry`), and the sign
//! test on the very coefficients it would hand the root finder, so a culled prediction returns
//! exactly what the unculled one returns (proptest `culled_equals_unculled` in
//! `tests/culling.rs`), except that a `_within` prediction may drop an entry later than its
//! caller's limit.
//! Other root backends may report spurious entries of a positive polynomial that culling then
//! hides: `EventEngine::with_culling(false)` turns culling off to judge a backend on its own.

pub use pool_physics::Aabb;
use pool_physics::Vec2;

/// Relative clearance demanded by the hull tests, in units of S^2 (see the module docs):
/// 1e-12, about 4000 times the worst rounding of a quartic's construction and evaluation.
pub const MARGIN: f64 = 1e-12;

/// How many times [`path_clear`] halves the curve (de Casteljau) before giving up: up to 2^3
/// triangles, each tighter than its parent (deeper halving culls no more on the default shots).
const MAX_DEPTH: u32 = 2;

/// Cross products (m^2) within this many S^2 of zero count as zero in the point-in-triangle test:
/// their rounding is a few ulps of S^2, so a sign beyond it is the true sign.
const SIGN_TOL: f64 = 1e-13;

/// True if every coefficient of `c` is >= 0 and c0 > 0: then Horner's rule gives p(t) >= c0 > 0
/// for every t >= 0, exactly, so no root finder that evaluates p can see an entry.
#[inline]
pub fn quartic_positive(c: &[f64; 5]) -> bool {
    c[0] > 0.0 && c[1] >= 0.0 && c[2] >= 0.0 && c[3] >= 0.0 && c[4] >= 0.0
}

/// True if the planar path d(t) = a t^2 + b t + c certainly stays farther than `dist` from the
/// origin for all t in [0, h], with a clearance of [`MARGIN`] S^2 in squared distance
/// (S = |c| + |b| h + |a| h^2, in the 1-norm, an upper bound). `false` means "don't know":
/// infinite or NaN inputs, a path that comes close, or an origin inside a hull.
///
/// Proof: the curve on [0, h] is the quadratic Bezier curve with control points P0, P1, P2
/// (module docs) and lies in their triangle; each de Casteljau half lies in its own triangle.
/// The squared distance from the origin to a triangle is the minimum over its edges unless the
/// origin is inside (then 0). If every leaf triangle is clear by the margin, so is the curve.
pub fn path_clear(a: Vec2, b: Vec2, c: Vec2, h: f64, dist: f64) -> bool {
    // NaN fails every check below.
    if !(0.0..f64::INFINITY).contains(&h) {
        return false;
    }
    let s = l1(c) + l1(b) * h + l1(a) * (h * h);
    if !s.is_finite() {
        return false;
    }
    let need = dist * dist + MARGIN * s * s;
    let p0 = c;
    let p1 = c + b * (0.5 * h);
    let p2 = c + b * h + a * (h * h);
    clear(p0, p1, p2, need, SIGN_TOL * s * s, MAX_DEPTH)
}

/// True if the scalar quadratic f(t) = a t^2 + b t + c certainly stays above `level` for all t in
/// [0, h], by [`MARGIN`] * S (S = |c| + |b| h + |a| h^2): the minimum of f on [0, h] is at an end
/// or at the vertex -b / (2a), and each of these values is computed within a few ulps of S.
/// Used for a cushion face (signed distance against the radius). An infinite horizon is clear
/// when b >= 0 and a >= 0 (Horner on non-negative terms, module docs).
pub fn scalar_clear(a: f64, b: f64, c: f64, h: f64, level: f64) -> bool {
    if h.is_nan() || h < 0.0 {
        return false;
    }
    if h == f64::INFINITY {
        return c - level > 0.0 && b >= 0.0 && a >= 0.0;
    }
    let s = c.abs() + b.abs() * h + a.abs() * (h * h);
    if !s.is_finite() {
        return false;
    }
    let end = c + b * h + a * (h * h);
    let mut low = c.min(end);
    if a > 0.0 {
        let vertex = -b / (2.0 * a);
        if vertex > 0.0 && vertex < h {
            low = low.min(c - b * b / (4.0 * a));
        }
    }
    low - level > MARGIN * s
}

/// True if every point of the path's control polygon, taken along `axis` (`u`), lies below `lo`
/// or every one above `hi`: the path's projection never enters [lo, hi] on [0, h]. Used for a
/// cushion face: a contact point outside the segment is no contact. The margin (1e-9 of the
/// segment-parameter range) covers rounding of positions, a few ulps of metres.
pub fn outside_band(a: Vec2, b: Vec2, c: Vec2, h: f64, u: Vec2, lo: f64, hi: f64) -> bool {
    if !(0.0..f64::INFINITY).contains(&h) {
        return false;
    }
    let q0 = u.dot(&c);
    let q1 = u.dot(&(c + b * (0.5 * h)));
    let q2 = u.dot(&(c + b * h + a * (h * h)));
    let pad = 1e-9 * (hi - lo).abs().max(1e-300);
    let (min, max) = (q0.min(q1).min(q2), q0.max(q1).max(q2));
    max < lo - pad || min > hi + pad
}

/// A time (s) widened by a relative 1e-9 and 1 ns: far beyond the rounding of the subtraction
/// or shift that produced it, so a test over the widened horizon covers an entry at the time
/// itself.
#[inline]
pub fn widened(t: f64) -> f64 {
    t * (1.0 + 1e-9) + 1e-9
}

/// The horizon (s) a culling test covers: the trajectories' own `horizon`, or the caller's
/// `limit` [`widened`], whichever is earlier, so that an entry at the limit itself is never
/// culled.
#[inline]
pub fn horizon(horizon: f64, limit: f64) -> f64 {
    horizon.min(widened(limit))
}

#[inline]
fn l1(v: Vec2) -> f64 {
    v.x.abs() + v.y.abs()
}

/// The triangle test with de Casteljau subdivision.
fn clear(p0: Vec2, p1: Vec2, p2: Vec2, need: f64, tol: f64, depth: u32) -> bool {
    // The control points' bounding box contains the triangle: a box clear of the disc is the
    // cheapest proof.
    let gap = |lo: f64, hi: f64| {
        if lo > 0.0 {
            lo
        } else if hi < 0.0 {
            -hi
        } else {
            0.0
        }
    };
    let gx = gap(p0.x.min(p1.x).min(p2.x), p0.x.max(p1.x).max(p2.x));
    let gy = gap(p0.y.min(p1.y).min(p2.y), p0.y.max(p1.y).max(p2.y));
    if gx * gx + gy * gy > need {
        return true;
    }
    if p0.norm_squared() <= need || p2.norm_squared() <= need {
        // An end of the curve inside the disc: no proof possible.
        return false;
    }
    if triangle_dist_sq(p0, p1, p2, tol) > need {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let q01 = (p0 + p1) * 0.5;
    let q12 = (p1 + p2) * 0.5;
    let m = (q01 + q12) * 0.5;
    if m.norm_squared() <= need {
        // The curve's midpoint (on the curve) is inside: no proof possible.
        return false;
    }
    clear(p0, q01, m, need, tol, depth - 1) && clear(m, q12, p2, need, tol, depth - 1)
}

/// Squared distance from the origin to the (possibly degenerate) triangle p0 p1 p2, or 0 unless
/// the origin is certainly outside it.
///
/// The origin is outside exactly when the edge cross products cross(p_k, p_k+1) (twice the
/// signed areas of the triangles origin-p_k-p_k+1) take both signs; they are trusted only beyond
/// `tol` (their rounding is a few ulps of S^2), so an origin inside is never taken for outside.
/// For an origin outside, the nearest point of the triangle is on an edge; this also covers a
/// collinear (degenerate) triangle, whose hull is its longest edge.
fn triangle_dist_sq(p0: Vec2, p1: Vec2, p2: Vec2, tol: f64) -> f64 {
    let cross = |u: Vec2, v: Vec2| u.x * v.y - u.y * v.x;
    let (d0, d1, d2) = (cross(p0, p1), cross(p1, p2), cross(p2, p0));
    let has_neg = d0 < -tol || d1 < -tol || d2 < -tol;
    let has_pos = d0 > tol || d1 > tol || d2 > tol;
    if !(has_neg && has_pos) {
        return 0.0;
    }
    seg_dist_sq(p0, p1)
        .min(seg_dist_sq(p1, p2))
        .min(seg_dist_sq(p2, p0))
}

/// Squared distance from the origin to the segment p q.
fn seg_dist_sq(p: Vec2, q: Vec2) -> f64 {
    let d = q - p;
    let len2 = d.norm_squared();
    let t = if len2 > 0.0 {
        (-p.dot(&d) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (p + d * t).norm_squared()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_through_the_origin_is_not_clear() {
        let (a, b, c) = (Vec2::zeros(), Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0));
        assert!(!path_clear(a, b, c, 2.0, 0.1));
        // Before it gets there, it is.
        assert!(path_clear(a, b, c, 0.5, 0.1));
    }

    #[test]
    fn a_wide_miss_is_clear_and_a_curving_hit_is_not() {
        let (b, c) = (Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.5));
        assert!(path_clear(Vec2::zeros(), b, c, 2.0, 0.1));
        // Curving back toward the origin: a = (0, -0.5) reaches y = 0 at t = 1, x = 0.
        assert!(!path_clear(Vec2::new(0.0, -0.5), b, c, 2.0, 0.1));
    }

    #[test]
    fn nan_and_infinity_are_not_clear() {
        let v = Vec2::new(1.0, 1.0);
        assert!(!path_clear(v, v, v, f64::NAN, 0.1));
        assert!(!path_clear(v, v, v, f64::INFINITY, 0.1));
        assert!(!path_clear(v, Vec2::new(f64::NAN, 0.0), v, 1.0, 0.1));
        assert!(!scalar_clear(0.0, f64::NAN, 1.0, 1.0, 0.1));
        assert!(!scalar_clear(0.0, 1.0, f64::NAN, 1.0, 0.1));
    }

    #[test]
    fn scalar_vertex_counts() {
        // f = (t - 1)^2 + 0.05 = t^2 - 2t + 1.05, minimum 0.05 at t = 1.
        assert!(scalar_clear(1.0, -2.0, 1.05, 2.0, 0.04));
        assert!(!scalar_clear(1.0, -2.0, 1.05, 2.0, 0.06));
        assert!(scalar_clear(1.0, -2.0, 1.05, 0.5, 0.06));
    }
}
