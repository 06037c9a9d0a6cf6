//! Root-solver evidence: each backend's earliest entries against independent references.
//!
//! The cases (`data/roots/cases.csv`) carry polynomials, horizons and the exact earliest entry of
//! each f64 polynomial, computed at 60 digits with mpmath (`data/roots/make_cases.py`), plus
//! whether the answer is well-posed in f64 (survives a 16 ulp perturbation of the coefficients).

use std::time::Instant;

use pool_roots::{earliest_entry, RootSolver};
use serde::Serialize;

/// A wrong earliest entry is one that differs from the reference by more than this, relative
/// (absolute for references below [`ABS_FLOOR_S`]).
pub const WRONG_REL: f64 = 1e-9;

/// Below this reference time (s), errors are measured absolutely.
pub const ABS_FLOOR_S: f64 = 1e-12;

/// One test case.
#[derive(Clone, Debug, PartialEq)]
pub struct RootCase {
    /// Family label, e.g. `well_separated`, `captured_ball_ball`.
    pub family: String,
    /// Index within the family.
    pub id: usize,
    /// Ascending coefficients.
    pub c: [f64; 5],
    /// Horizon (s).
    pub horizon: f64,
    /// Reference earliest entry (s), `None` when there is none.
    pub entry: Option<f64>,
    /// True when the answer survives rounding of the coefficients.
    pub well_posed: bool,
}

/// Parses `cases.csv` (columns `family,id,c0,c1,c2,c3,c4,horizon,entry,well_posed,...`).
///
/// # Errors
/// The line number and field of the first malformed value (not a finite number, a horizon not
/// positive), or a file of no cases.
pub fn parse_root_cases(text: &str) -> Result<Vec<RootCase>, String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().ok_or("empty file")?.split(',').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .ok_or(format!("missing column {name}"))
    };
    let (fam, id, horizon, entry, wp) = (
        col("family")?,
        col("id")?,
        col("horizon")?,
        col("entry")?,
        col("well_posed")?,
    );
    let cs = [col("c0")?, col("c1")?, col("c2")?, col("c3")?, col("c4")?];
    let mut cases = Vec::new();
    for (k, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        let at = |i: usize, name: &str| -> Result<&str, String> {
            f.get(i)
                .copied()
                .ok_or(format!("line {}: no {name} field", k + 2))
        };
        let num = |i: usize, name: &str| -> Result<f64, String> {
            let s = at(i, name)?;
            s.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| format!("line {}: {name} = {s:?}: not a finite number", k + 2))
        };
        let mut c = [0.0; 5];
        for (j, &ci) in cs.iter().enumerate() {
            c[j] = num(ci, &format!("c{j}"))?;
        }
        let e = at(entry, "entry")?;
        let h = num(horizon, "horizon")?;
        if h <= 0.0 {
            return Err(format!("line {}: horizon = {h:?}: must be positive", k + 2));
        }
        cases.push(RootCase {
            family: at(fam, "family")?.to_string(),
            id: at(id, "id")?
                .parse()
                .map_err(|_| format!("line {}: bad id", k + 2))?,
            c,
            horizon: h,
            entry: if e.is_empty() {
                None
            } else {
                Some(num(entry, "entry")?)
            },
            well_posed: at(wp, "well_posed")? == "true",
        });
    }
    if cases.is_empty() {
        return Err("no cases (a header and no rows)".into());
    }
    Ok(cases)
}

/// How a backend's answer compares with the reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RootVerdict {
    /// Within [`WRONG_REL`] (or both say "no entry").
    Right,
    /// The reference has an entry, the backend none: a collision that never happens.
    Missing,
    /// The backend's entry is later than the reference's: balls interpenetrate first.
    Late,
    /// The backend's entry is earlier than the reference's, or it has one where there is none.
    Early,
}

/// A backend's answer to one case.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Answer {
    /// The earliest entry it returned.
    pub got: Option<f64>,
    /// Its verdict.
    pub verdict: RootVerdict,
    /// |got - entry| / entry (absolute below [`ABS_FLOOR_S`]); `None` unless both exist.
    pub rel_error: Option<f64>,
}

/// Judges a backend's answer against the reference.
pub fn judge(reference: Option<f64>, got: Option<f64>) -> Answer {
    match (reference, got) {
        (None, None) => Answer {
            got,
            verdict: RootVerdict::Right,
            rel_error: None,
        },
        (Some(_), None) => Answer {
            got,
            verdict: RootVerdict::Missing,
            rel_error: None,
        },
        (None, Some(_)) => Answer {
            got,
            verdict: RootVerdict::Early,
            rel_error: None,
        },
        (Some(r), Some(g)) => {
            let rel = (g - r).abs() / r.abs().max(ABS_FLOOR_S);
            let verdict = if rel <= WRONG_REL {
                RootVerdict::Right
            } else if g > r {
                RootVerdict::Late
            } else {
                RootVerdict::Early
            };
            Answer {
                got,
                verdict,
                rel_error: Some(rel),
            }
        }
    }
}

/// A backend's answer to every case, in order. NaN input is impossible here (the file is
/// parsed), so an error from the query counts as "no entry".
pub fn answer_all(solver: &dyn RootSolver, cases: &[RootCase]) -> Vec<Answer> {
    let mut scratch = Vec::new();
    cases
        .iter()
        .map(|k| {
            let got = earliest_entry(solver, &k.c, k.horizon, &mut scratch).unwrap_or(None);
            judge(k.entry, got)
        })
        .collect()
}

/// Nanoseconds per earliest-entry query over `cases`: the fastest of `repeats` passes (each pass
/// answers every case once), so that a busy machine inflates it as little as possible.
pub fn ns_per_query(solver: &dyn RootSolver, cases: &[RootCase], repeats: usize) -> f64 {
    if cases.is_empty() {
        return f64::NAN;
    }
    let mut scratch = Vec::new();
    let mut best = f64::INFINITY;
    for _ in 0..repeats.max(1) {
        let start = Instant::now();
        for k in cases {
            std::hint::black_box(earliest_entry(
                solver,
                std::hint::black_box(&k.c),
                k.horizon,
                &mut scratch,
            ))
            .ok();
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    best * 1e9 / cases.len() as f64
}

/// One row of the roots summary: one backend on one family.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RootStats {
    /// Backend name.
    pub backend: String,
    /// Family.
    pub family: String,
    /// Cases.
    pub cases: usize,
    /// Cases whose answer is well-posed in f64.
    pub well_posed: usize,
    /// Wrong answers over all cases.
    pub wrong: usize,
    /// Wrong answers over well-posed cases only.
    pub wrong_well_posed: usize,
    /// `wrong_well_posed / well_posed`.
    pub wrong_rate_well_posed: f64,
    /// Missing entries (all cases).
    pub missing: usize,
    /// Late entries (all cases).
    pub late: usize,
    /// Early or spurious entries (all cases).
    pub early: usize,
    /// Median relative error where both have an entry (well-posed cases).
    pub median_rel_error: f64,
    /// Max relative error where both have an entry (well-posed cases).
    pub max_rel_error: f64,
    /// Nanoseconds per query (fastest pass).
    pub ns_per_query: f64,
}

/// Summarizes one backend's answers on the cases of one family.
pub fn summarize(
    backend: &str,
    family: &str,
    cases: &[&RootCase],
    answers: &[&Answer],
    ns: f64,
) -> RootStats {
    let wrong = |a: &Answer| a.verdict != RootVerdict::Right;
    let count = |v: RootVerdict| answers.iter().filter(|a| a.verdict == v).count();
    let mut errs: Vec<f64> = cases
        .iter()
        .zip(answers)
        .filter(|(k, _)| k.well_posed)
        .filter_map(|(_, a)| a.rel_error)
        .collect();
    errs.sort_by(f64::total_cmp);
    let well_posed = cases.iter().filter(|k| k.well_posed).count();
    let wrong_well_posed = cases
        .iter()
        .zip(answers)
        .filter(|(k, a)| k.well_posed && wrong(a))
        .count();
    RootStats {
        backend: backend.to_string(),
        family: family.to_string(),
        cases: cases.len(),
        well_posed,
        wrong: answers.iter().filter(|a| wrong(a)).count(),
        wrong_well_posed,
        wrong_rate_well_posed: if well_posed == 0 {
            f64::NAN
        } else {
            wrong_well_posed as f64 / well_posed as f64
        },
        missing: count(RootVerdict::Missing),
        late: count(RootVerdict::Late),
        early: count(RootVerdict::Early),
        median_rel_error: errs.get(errs.len() / 2).copied().unwrap_or(f64::NAN),
        max_rel_error: errs.last().copied().unwrap_or(f64::NAN),
        ns_per_query: ns,
    }
}

/// The families of `cases`, in order of first appearance.
pub fn root_families(cases: &[RootCase]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for k in cases {
        if !out.contains(&k.family) {
            out.push(k.family.clone());
        }
    }
    out
}

/// Every backend of [`pool_roots::Solver::ALL`] on `cases`: one [`RootStats`] row per backend
/// and family (backends in that list's order, families as [`root_families`] gives them), and
/// each backend's answers to every case in order. Timings are the fastest of `repeats` passes
/// ([`ns_per_query`]).
pub fn evaluate_root_cases(
    cases: &[RootCase],
    repeats: usize,
) -> (Vec<RootStats>, Vec<(String, Vec<Answer>)>) {
    let mut stats = Vec::new();
    let mut all = Vec::new();
    for kind in pool_roots::Solver::ALL {
        let (name, solver) = (kind.name(), kind.backend());
        let answers = answer_all(solver.as_ref(), cases);
        for fam in root_families(cases) {
            let idx: Vec<usize> = (0..cases.len())
                .filter(|&i| cases[i].family == fam)
                .collect();
            let ks: Vec<&RootCase> = idx.iter().map(|&i| &cases[i]).collect();
            let owned: Vec<RootCase> = ks.iter().map(|k| (*k).clone()).collect();
            let ans: Vec<&Answer> = idx.iter().map(|&i| &answers[i]).collect();
            let ns = ns_per_query(solver.as_ref(), &owned, repeats);
            stats.push(summarize(name, &fam, &ks, &ans, ns));
        }
        all.push((name.to_string(), answers));
    }
    (stats, all)
}
