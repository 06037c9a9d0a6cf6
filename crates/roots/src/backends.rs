//! Closed-form backends from other crates, behind [`RootSolver`].

use crate::{RootList, RootSolver};

/// The `roots` crate's `find_roots_quartic` (Ferrari's closed form, with its own cubic and
/// quadratic fall-backs). Fast; physics-notes measured it returning a wrong earliest root in
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
