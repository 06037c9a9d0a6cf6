//! The root finder's evidence (`roots/`): the acceptance targets of the default backend, the
//! rows of its CSV files, the error CDF and `roots/report.md`.
//!
//! `cargo xtask roots` writes all of it; `cargo xtask compare` writes the case-level part (no
//! engine evidence) next to its run.

use std::fmt::Write;
use std::path::Path;

use pool_harness::{root_families, Answer, RootCase, RootStats, RootVerdict};
use pool_roots::Solver;
use serde::Serialize;

use crate::plots::{self, PlotError};

/// The default backend's name (issue: "Event times you can trust").
pub const DEFAULT_BACKEND: &str = Solver::Isolator.name();
/// Target: the default backend's median relative error over well-posed cases is at most this.
pub const MAX_MEDIAN_REL_ERROR: f64 = 1e-14;
/// Target: the default backend is at most this many times slower per query than the fastest
/// backend with zero wrong roots.
pub const MAX_SLOWDOWN: f64 = 1.5;

/// Everything `roots/` shows: the cases, every backend's answers and summary rows, and the
/// engine-level evidence when it was run.
#[derive(Clone, Copy, Debug)]
pub struct Evidence<'a> {
    /// The cases with their references (`data/roots/cases.csv`).
    pub cases: &'a [RootCase],
    /// One row per backend and family (`roots/summary.csv`), as
    /// [`pool_harness::evaluate_root_cases`] returns them.
    pub stats: &'a [RootStats],
    /// Each backend's name and its answers to every case, in case order.
    pub answers: &'a [(String, Vec<Answer>)],
    /// Engine-level evidence, one row per backend (`roots/engine.csv`), when it was run.
    pub engine: Option<&'a [EngineRow]>,
    /// Random breaks per backend behind `engine` (for the report's text).
    pub breaks: usize,
}

impl Evidence<'_> {
    /// Every answer that is not right, backend by backend in case order (`roots/wrong.csv`).
    pub fn wrong_rows(&self) -> Vec<WrongRow<'_>> {
        self.answers
            .iter()
            .flat_map(|(name, ans)| {
                self.cases
                    .iter()
                    .zip(ans)
                    .filter(|(_, a)| a.verdict != RootVerdict::Right)
                    .map(move |(k, a)| WrongRow {
                        backend: name,
                        family: &k.family,
                        id: k.id,
                        well_posed: k.well_posed,
                        verdict: a.verdict,
                        reference_s: k.entry,
                        got_s: a.got,
                        rel_error: a.rel_error,
                    })
            })
            .collect()
    }

    /// Draws the CDF of each backend's relative error to `<stem>.png` and `<stem>.svg`.
    ///
    /// # Errors
    /// A file that cannot be written (see [`plots::error_cdf`]).
    pub fn error_cdf(&self, stem: &Path) -> Result<(), PlotError> {
        // CDF over well-posed cases that have a reference entry: a missing answer counts as an
        // infinite error (the curve then ends below 1).
        let series: Vec<(String, Vec<f64>)> = self
            .answers
            .iter()
            .map(|(name, ans)| {
                let errs = self
                    .cases
                    .iter()
                    .zip(ans)
                    .filter(|(k, _)| k.well_posed && k.entry.is_some())
                    .map(|(_, a)| a.rel_error.unwrap_or(f64::INFINITY))
                    .collect();
                (name.clone(), errs)
            })
            .collect();
        plots::error_cdf(&series, stem)
    }

    /// `roots/report.md`: the verdict, the CDF, the per-family table and, when it was run, the
    /// engine-level table.
    pub fn markdown(&self) -> String {
        let (cases, stats, breaks) = (self.cases, self.stats, self.breaks);
        let mut md = String::new();
        let _ = writeln!(md, "# Earliest-root finders: evidence\n");
        let _ = writeln!(
            md,
            "The event engine asks one question of a root finder: the earliest time in [0, horizon] \
             where a polynomial of degree <= 4 (ball-ball, ball-pocket, cushion end point) or <= 2 \
             (cushion face) falls through zero. A missing or late answer is a collision that never \
             happens. {} cases in {} families from `data/roots/cases.csv`, each with the exact answer \
             for its f64 coefficients (mpmath, 60 digits) and a flag saying whether that answer \
             survives a 16-ulp perturbation of the coefficients (*well-posed*). A *wrong* answer \
             is missing, late or early by more than 1e-9 relative.\n",
            cases.len(),
            root_families(cases).len()
        );
        let _ = writeln!(md, "**{}**\n", verdict_line(stats));
        let _ = writeln!(md, "![relative error CDF](error_cdf.png)\n");
        let _ = writeln!(
            md,
            "| backend | family | cases | well-posed | wrong (well-posed) | rate | missing | late | early | median rel. error | max rel. error | ns/query |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
        );
        for r in stats {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.0} |",
                r.backend,
                r.family,
                r.cases,
                r.well_posed,
                r.wrong_well_posed,
                if r.wrong_rate_well_posed.is_finite() {
                    format!("{:.2}%", 100.0 * r.wrong_rate_well_posed)
                } else {
                    "–".into()
                },
                r.missing,
                r.late,
                r.early,
                sci(r.median_rel_error),
                sci(r.max_rel_error),
                r.ns_per_query
            );
        }
        let _ = writeln!(
            md,
            "\n*missing*, *late* and *early* count all cases, ill-posed ones included (an ill-posed \
             case has no answer that f64 arithmetic can be held to). `wrong.csv` lists every wrong \
             answer with its reference.\n"
        );
        if let Some(rows) = self.engine {
            engine_section(&mut md, rows, breaks);
        }
        md
    }
}

/// The engine-level part of `roots/report.md`: `rows` from `breaks` random breaks per backend.
fn engine_section(md: &mut String, rows: &[EngineRow], breaks: usize) {
    let _ = writeln!(md, "## In the engine\n");
    let _ = writeln!(
        md,
        "Each backend drives the event engine on the default shots and on {breaks} random \
         breaks (9-ball rack, cue ball at 0.5-12 m/s, +-0.15 rad, random spin). A *failing* \
         run has an overlap or cushion penetration above 1e-9 m, a ball off the table, \
         energy rising, or no end; *differing* breaks have an event sequence other than the \
         default backend's.\n"
    );
    let _ = writeln!(
        md,
        "| backend | default shots: max ball-ball residual (m) | max cushion residual (m) | failing shots | breaks | events | failing breaks | breaks differing from {DEFAULT_BACKEND} |\n|---|---:|---:|---:|---:|---:|---:|---:|"
    );
    for r in rows {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {} | {} |",
            r.backend,
            sci(r.default_shots_max_ball_ball_residual_m),
            sci(r.default_shots_max_cushion_residual_m),
            r.default_shots_failing,
            r.breaks,
            r.break_events,
            r.breaks_failing,
            r.breaks_differing_from_default
        );
    }
}

/// One wrong answer (`roots/wrong.csv`): a backend's earliest entry that is missing, late or
/// early against the case's reference.
#[derive(Serialize, Clone, Debug)]
pub struct WrongRow<'a> {
    /// Backend name.
    pub backend: &'a str,
    /// Case family.
    pub family: &'a str,
    /// Case id within the cases file.
    pub id: usize,
    /// Whether the case's answer survives a 16-ulp perturbation of its coefficients.
    pub well_posed: bool,
    /// How the answer is wrong.
    pub verdict: RootVerdict,
    /// The reference earliest entry (s), if the polynomial has one.
    pub reference_s: Option<f64>,
    /// The backend's earliest entry (s), if it found one.
    pub got_s: Option<f64>,
    /// |got - reference| / reference, where both exist.
    pub rel_error: Option<f64>,
}

/// Engine-level evidence for one backend.
#[derive(Serialize, Clone, Debug)]
pub struct EngineRow {
    /// Backend.
    pub backend: String,
    /// Max | |d| - 2R | over ball-ball collisions of the default shots (m).
    pub default_shots_max_ball_ball_residual_m: f64,
    /// Max |distance - R| over cushion collisions of the default shots (m).
    pub default_shots_max_cushion_residual_m: f64,
    /// Default shots with an invariant failure (overlap or penetration > 1e-9 m, off table,
    /// energy rising, not ending).
    pub default_shots_failing: usize,
    /// Random breaks run.
    pub breaks: usize,
    /// Their events in total.
    pub break_events: usize,
    /// Breaks with an invariant failure.
    pub breaks_failing: usize,
    /// Breaks whose event log (kind and agents) differs from the default backend's.
    pub breaks_differing_from_default: usize,
}

/// One line: does the default backend meet its targets ([`MAX_MEDIAN_REL_ERROR`],
/// [`MAX_SLOWDOWN`], no wrong root on a well-posed case)?
pub fn verdict_line(stats: &[RootStats]) -> String {
    let (wrong, median, ns) = totals(stats, DEFAULT_BACKEND);
    let fastest_clean = Solver::names()
        .into_iter()
        .map(|b| (b, totals(stats, b)))
        .filter(|(_, t)| t.0 == 0)
        .min_by(|a, b| a.1 .2.total_cmp(&b.1 .2));
    let ratio = fastest_clean.map_or(f64::NAN, |(_, t)| ns / t.2);
    format!(
        "default backend {DEFAULT_BACKEND}: {wrong} wrong earliest roots on well-posed cases; \
         median relative error {} (target <= {MAX_MEDIAN_REL_ERROR:.0e}); {ns:.0} ns/query, {ratio:.2}x \
         the fastest backend with zero wrong roots ({}; target <= {MAX_SLOWDOWN})",
        sci(median),
        fastest_clean.map_or("none", |(b, _)| b)
    )
}

/// Per backend: (wrong on well-posed, median error over all well-posed, mean ns per query).
fn totals(stats: &[RootStats], backend: &str) -> (usize, f64, f64) {
    let rows: Vec<&RootStats> = stats.iter().filter(|r| r.backend == backend).collect();
    let wrong = rows.iter().map(|r| r.wrong_well_posed).sum();
    let mut medians: Vec<f64> = rows
        .iter()
        .map(|r| r.median_rel_error)
        .filter(|x| x.is_finite())
        .collect();
    medians.sort_by(f64::total_cmp);
    let median = medians.get(medians.len() / 2).copied().unwrap_or(f64::NAN);
    let weighted: f64 = rows.iter().map(|r| r.ns_per_query * r.cases as f64).sum();
    let n: usize = rows.iter().map(|r| r.cases).sum();
    (wrong, median, weighted / n.max(1) as f64)
}

fn sci(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1e}")
    } else {
        "–".into()
    }
}
