//! Closed-form backends from other crates, behind [`RootSolver`].

use crate::{RootList, RootSolver};

/// The `roots` crate's `find_roots_quartic` (Ferrari's closed form, with its own cubic and
/// quadratic fall-backs). Fast; docs/physics.md records it returning a wrong earliest root in
/// 1-3% of ordinary quartics.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ferrari;

impl RootSolver for Ferrari {
    fn name(&self) -> &'static str {
        "ferrari"
    }

    fn roots_in(&self, c: &[f64; 5], horizon: f64, out: &mut RootList) {
        let found = roots::find_roots_quartic(c[4], c[3], c[2], c[1], c[0]);
        push_sorted(found.as_ref(), horizon, out);
    }
}

/// Algorithm 1010 (Orellana & De Michele, ACM TOMS 46(2), 2020) as implemented by
/// `kurbo::common::solve_quartic`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Alg1010;

impl RootSolver for Alg1010 {
    fn name(&self) -> &'static str {
        "alg1010"
    }

    fn roots_in(&self, c: &[f64; 5], horizon: f64, out: &mut RootList) {
        let found = kurbo::common::solve_quartic(c[0], c[1], c[2], c[3], c[4]);
        push_sorted(&found, horizon, out);
    }
}

/// Eigenvalues of the companion matrix (nalgebra's real Schur decomposition, at most 500
/// iterations), real ones kept: the textbook general-purpose method (numpy's `roots`).
/// Imaginary parts below 1e-7 (1 + |re|) count as real, since a double root splits into a pair
/// of size sqrt(eps).
#[derive(Clone, Copy, Debug, Default)]
pub struct Companion;

impl RootSolver for Companion {
    fn name(&self) -> &'static str {
        "companion"
    }

    fn roots_in(&self, c: &[f64; 5], horizon: f64, out: &mut RootList) {
        let n = crate::degree(c);
        if n == 0 {
            return;
        }
        let lead = c[n];
        let m = nalgebra::DMatrix::from_fn(n, n, |i, j| {
            if j == n - 1 {
                -c[i] / lead
            } else if i == j + 1 {
                1.0
            } else {
                0.0
            }
        });
        // nalgebra's unbounded `complex_eigenvalues` can iterate forever on some companion
        // matrices (seen on a rolling-ball contact quartic); a bounded Schur decomposition that
        // fails to converge is this backend's "no root".
        let Some(schur) = nalgebra::linalg::Schur::try_new(m, f64::EPSILON, 500) else {
            return;
        };
        let found: Vec<f64> = schur
            .complex_eigenvalues()
            .iter()
            .filter(|z| z.im.abs() <= 1e-7 * (1.0 + z.re.abs()))
            .map(|z| z.re)
            .collect();
        push_sorted(&found, horizon, out);
    }
}

fn push_sorted(found: &[f64], horizon: f64, out: &mut RootList) {
    let start = out.len();
    out.extend(
        found
            .iter()
            .copied()
            .filter(|t| t.is_finite() && *t >= 0.0 && *t <= horizon),
    );
    out[start..].sort_by(f64::total_cmp);
}
