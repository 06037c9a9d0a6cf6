//! Earliest-root queries for event prediction.
//!
//! Every collision time in the event engine is a root of a polynomial of degree <= 4 in t: the
//! squared distance between two quadratic trajectories minus (2R)^2 (ball-ball), the squared
//! distance to a pocket center minus its radius squared (ball-pocket), or a signed distance minus
//! R (cushion face, degree <= 2). The engine asks one question: **when does the polynomial first
//! enter the contact region (go from positive to non-positive) within [0, horizon]?** A root
//! missed here is a collision that never happens: balls pass through each other.
//!
//! [`earliest_entry`] answers it on top of any [`RootSolver`] backend:
//! - [`Isolator`] (the default): isolates every real root on [0, horizon] by recursion on the
//!   derivative's roots, then refines each sign change with safeguarded Newton. It cannot miss a
//!   sign change that f64 evaluation can see, and it never divides by the leading coefficient.
//! - [`Ferrari`]: the `roots` crate's closed form (fast, misses roots in hard cases).
//! - [`Alg1010`]: Orellana & De Michele (2020), Algorithm 1010, via `kurbo::common::solve_quartic`.
//! - [`Companion`]: eigenvalues of the companion matrix (nalgebra).
#![warn(missing_docs)]

mod backends;
pub mod bracket;
mod isolator;
mod poly;

pub use backends::{Alg1010, Companion, Ferrari};
pub use isolator::Isolator;
pub use poly::{degree, derivative_at, eval};

/// Up to four real roots, ascending.
pub type RootList = Vec<f64>;

/// Why a query cannot be answered.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum RootError {
    /// A coefficient is NaN or infinite.
    #[error("coefficient c{index} is not finite ({value})")]
    NonFiniteCoefficient {
        /// Power of t the coefficient multiplies.
        index: usize,
        /// The value.
        value: f64,
    },
    /// The horizon is NaN or negative.
    #[error("horizon {0} s is not a non-negative time")]
    BadHorizon(f64),
}

/// A real-root finder for polynomials of degree <= 4.
///
/// Coefficients are ascending: `c[0] + c[1] t + c[2] t^2 + c[3] t^3 + c[4] t^4`.
pub trait RootSolver: Send + Sync {
    /// Short name for reports (`isolator`, `ferrari`, `alg1010`).
    fn name(&self) -> &'static str;

    /// Pushes the real roots in [0, horizon] onto `out` in ascending order (a double root may
    /// appear once or twice). `horizon` may be `f64::INFINITY`. Coefficients are finite.
    fn roots_in(&self, c: &[f64; 5], horizon: f64, out: &mut RootList);

    /// The smallest t in (0, horizon] where p falls through zero (p' < 0 there), or `None`.
    /// Coefficients are finite. The default scans [`RootSolver::roots_in`]; a backend may stop
    /// early.
    fn first_entry(&self, c: &[f64; 5], horizon: f64, scratch: &mut RootList) -> Option<f64> {
        scratch.clear();
        self.roots_in(c, horizon, scratch);
        scratch
            .iter()
            .copied()
            .find(|&t| t > 0.0 && t <= horizon && derivative_at(c, t) < 0.0)
    }
}

/// The earliest time t in [0, horizon] at which p(t) enters the region p <= 0 from above:
/// - t = 0 if p(0) <= 0 and p is decreasing at 0 (first non-zero derivative negative): contact
///   now and approaching;
/// - otherwise the smallest root with p' < 0 there (a crossing from + to -). Roots where p
///   leaves the region (separating contacts) and tangencies (p' = 0: grazes) are not entries.
///
/// Returns `Ok(None)` when there is no entry in [0, horizon].
///
/// # Errors
/// [`RootError`] for a NaN/infinite coefficient or a NaN/negative horizon: never a silent "no
/// root".
pub fn earliest_entry<S: RootSolver + ?Sized>(
    solver: &S,
    c: &[f64; 5],
    horizon: f64,
    scratch: &mut RootList,
) -> Result<Option<f64>, RootError> {
    if let Some((index, &value)) = c.iter().enumerate().find(|(_, x)| !x.is_finite()) {
        return Err(RootError::NonFiniteCoefficient { index, value });
    }
    if horizon.is_nan() || horizon < 0.0 {
        return Err(RootError::BadHorizon(horizon));
    }
    if c[0] <= 0.0 {
        // In contact (or overlapping) now: an entry only if the first non-zero derivative says
        // "getting deeper".
        if let Some(&d) = c[1..].iter().find(|&&d| d != 0.0) {
            if d < 0.0 {
                return Ok(Some(0.0));
            }
        }
    }
    Ok(solver.first_entry(c, horizon, scratch))
}

/// The default backend: the one shown (tests in `tests/`) not to miss earliest roots.
pub fn default_solver() -> Isolator {
    Isolator::default()
}

/// The root-solver backends by name, for the command line, engine specs and report rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Solver {
    /// [`Isolator`]: the default, the one shown (tests in `tests/`) not to miss earliest roots.
    #[default]
    Isolator,
    /// [`Ferrari`]: the `roots` crate's closed form.
    Ferrari,
    /// [`Alg1010`]: Orellana & De Michele (2020), Algorithm 1010.
    Alg1010,
    /// [`Companion`]: eigenvalues of the companion matrix.
    Companion,
}

impl Solver {
    /// Every backend, the default first.
    pub const ALL: [Solver; 4] = [
        Solver::Isolator,
        Solver::Ferrari,
        Solver::Alg1010,
        Solver::Companion,
    ];

    /// Its name (`isolator`, `ferrari`, `alg1010`, `companion`).
    pub const fn name(self) -> &'static str {
        match self {
            Solver::Isolator => "isolator",
            Solver::Ferrari => "ferrari",
            Solver::Alg1010 => "alg1010",
            Solver::Companion => "companion",
        }
    }

    /// The backend named `name`, `None` for no such name.
    pub fn from_name(name: &str) -> Option<Solver> {
        Solver::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Every backend's name, the default first.
    pub fn names() -> [&'static str; 4] {
        Solver::ALL.map(Solver::name)
    }

    /// A new backend of this kind.
    pub fn backend(self) -> Box<dyn RootSolver> {
        match self {
            Solver::Isolator => Box::new(Isolator::default()),
            Solver::Ferrari => Box::new(Ferrari),
            Solver::Alg1010 => Box::new(Alg1010),
            Solver::Companion => Box::new(Companion),
        }
    }
}

impl std::fmt::Display for Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
