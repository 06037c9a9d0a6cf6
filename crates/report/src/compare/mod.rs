//! What a compare run produced, as the report reads it, and the report itself
//! ([`markdown`], [`console_summary`]).

mod engines;
mod markdown;
mod outcomes;

use std::path::PathBuf;

use pool_harness::{loglog_slope, InvariantReport, OneStepRow, Reference, SummaryRow};
use pool_sim::Setup;
use serde::Serialize;

pub use engines::{
    engine_summaries, engine_summaries_of, followed_shots, nearest_dt, own_physics, EngineSummary,
    BUDGET_FACTOR, TARGET_ERROR_S,
};
pub(crate) use markdown::glance_cells;
pub use markdown::{console_summary, markdown};
pub use outcomes::{
    answer_cell, answer_grid, answer_heading, answer_parts, answer_wall, claim_rgb, complete,
    console_lines, cost_cell, decide_command, duration, engine_name, excess_text, filter_name,
    legend, legend_key, outcome_section, reading_guide, reference_wall_s, undecided,
    undecided_intro, Decline, OutcomeStudy, Undecided, DECLINED_HINT,
};
pub(crate) use outcomes::{answer_lines, cell_name, rate_cell, rate_grid, shot_by_shot_cell};

/// Everything a compare run produced that its report shows.
pub struct Results {
    /// Root solver of the reference event engine (`--solver`, e.g. `isolator`).
    pub solver: String,
    /// True for a `--quick` run (the report's reproduce line repeats it).
    pub quick: bool,
    /// dt values swept (s).
    pub dts: Vec<f64>,
    /// Names of the discrete schemes swept (`end_of_step`, `euler`), in sweep order; the first is the
    /// one drawn in the shot diagrams and used for ops per step.
    pub schemes: Vec<String>,
    /// One row per shot and engine run (`summary.csv`): the reference, then every dt and
    /// extra engine.
    pub summary: Vec<SummaryRow>,
    /// The event engine's invariants, one row per shot in shot order (`residuals.csv`).
    pub residuals: Vec<ResidualRow>,
    /// Fitted convergence slopes (`slopes.csv`), from [`slopes`].
    pub slopes: Vec<SlopeRow>,
    /// Names of the shots with a shot diagram (`paths_<shot>.png`).
    pub shots: Vec<String>,
    /// Wall time of the whole run (s).
    pub wall_time_s: f64,
    /// Worker threads the run used.
    pub threads: usize,
    /// dt (s) of the discrete run drawn in the shot diagrams (the largest of the sweep).
    pub path_dt: f64,
    /// Regression check or bless, when asked for.
    pub regression: Option<Regression>,
    /// The root finder's one-line verdict, when `data/roots/cases.csv` was evaluated.
    pub roots_verdict: Option<String>,
    /// The scaling study's rows, slopes and wall time (s), unless `--no-scaling`.
    pub scaling: Option<Scaling>,
    /// One-step agreement rows (`one_step.csv`): every engine, the reference too, restarted
    /// before every reference event; empty with `--no-one-step`.
    pub one_step: Vec<OneStepRow>,
    /// Engines that could not run a shot, or declined it.
    pub failures: Vec<EngineFailure>,
    /// Every engine measured against the reference (the sweep's, then `--engines`), as specs.
    pub engines: Vec<String>,
    /// Physics presets every shot with cloth motion also ran under (`--physics`); those runs'
    /// shots are named `<shot>@<preset>` ([`variant_name`]).
    pub physics: Vec<String>,
    /// TP A-14's throw curve of `frictional_inelastic` (`throw.csv`, `throw.png`), if drawn.
    pub throw: Vec<pool_harness::ThrowRow>,
    /// The outcome study ("Does it change the game?"), unless `--no-outcomes`.
    pub outcomes: Option<OutcomeStudy>,
}

/// An engine that could not run a shot (a program that crashed, timed out or answered
/// nonsense), or declined it as outside its model.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct EngineFailure {
    /// Shot name.
    pub shot: String,
    /// The engine's spec.
    pub engine: String,
    /// `whole shot` or `one-step`.
    pub task: String,
    /// Why (the first line), then the program's stderr, if any.
    pub message: String,
    /// Declined (a model it does not have), not failed.
    pub unsupported: bool,
}

impl std::fmt::Display for EngineFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let what = if self.unsupported {
            "declined"
        } else {
            "failed on"
        };
        write!(
            f,
            "{} {what} {} ({}): {}",
            self.engine, self.shot, self.task, self.message
        )
    }
}

/// The name of shot `shot` run under physics preset `preset` (`compare --physics`).
pub fn variant_name(shot: &str, preset: &str) -> String {
    format!("{shot}@{preset}")
}

/// True for the name of a shot run under another physics preset ([`variant_name`]).
pub fn is_variant(shot: &str) -> bool {
    shot.contains('@')
}

/// The scaling study of a run (`scaling.csv`, `scaling.png`).
pub struct Scaling {
    /// What was run: sizes, seeds, simulated time, dt.
    pub plan: pool_harness::ScalingPlan,
    /// One row per (engine, n, seed).
    pub rows: Vec<pool_harness::ScalingRow>,
    /// Fitted log-log slopes against n.
    pub slopes: Vec<pool_harness::ScalingSlope>,
    /// Wall time of the study (s).
    pub wall_time_s: f64,
}

/// Event-engine invariants of one shot, for `residuals.csv` and the report.
#[derive(Serialize, Clone, Debug)]
pub struct ResidualRow {
    /// Shot name.
    pub shot: String,
    /// Events in the event engine's log.
    pub n_events: usize,
    /// Collisions (ball-ball and ball-cushion) examined.
    pub n_collisions: usize,
    /// Max | |d| - 2R | at ball-ball collisions (m).
    pub max_ball_ball_residual_m: f64,
    /// Max |distance - R| at cushion collisions (m).
    pub max_cushion_residual_m: f64,
    /// Largest ball-ball overlap at any sample (m).
    pub max_overlap_m: f64,
    /// Largest cushion penetration at any sample (m).
    pub max_cushion_penetration_m: f64,
    /// Samples with a ball off the table.
    pub off_table_samples: usize,
    /// Events across which energy rose.
    pub energy_rises: usize,
    /// Events earlier than their predecessor.
    pub time_reversals: usize,
    /// Why the event engine stopped.
    pub termination: String,
    /// Simulated duration (s).
    pub end_time_s: f64,
}

impl ResidualRow {
    /// The row of one shot from its reference run and that run's invariant report.
    pub fn new(setup: &Setup, r: &Reference, rep: &InvariantReport) -> Self {
        ResidualRow {
            shot: setup.name.clone(),
            n_events: r.outcome.events.len(),
            n_collisions: rep.n_collisions,
            max_ball_ball_residual_m: rep.max_ball_ball_residual_m,
            max_cushion_residual_m: rep.max_cushion_residual_m,
            max_overlap_m: rep.max_overlap_m,
            max_cushion_penetration_m: rep.max_cushion_penetration_m,
            off_table_samples: rep.off_table.len(),
            energy_rises: rep.energy_rises,
            time_reversals: rep.time_reversals,
            termination: r.outcome.termination.name().into(),
            end_time_s: r.outcome.end_time,
        }
    }
}

/// Fitted log-log slope of median collision-time error against dt, per shot and fixed-step
/// engine (each discrete scheme, rapier).
#[derive(Serialize, serde::Deserialize, Clone, Debug)]
pub struct SlopeRow {
    /// Shot name.
    pub shot: String,
    /// Scheme (or the engine's variant).
    pub scheme: String,
    /// Least-squares slope of log10(median error) vs log10(dt).
    pub slope: f64,
    /// Points used (dt values with a finite, positive median error).
    pub points: usize,
    /// Engine family (`discrete`, `rapier`).
    pub engine: String,
}

/// Slopes for every (shot, engine, scheme) of the rows with a time step, sorted by shot, engine
/// and scheme. The points are the rows' (dt, median collision-time error) where that error is
/// finite and positive; with fewer than two of them the slope is NaN.
pub fn slopes(rows: &[SummaryRow]) -> Vec<SlopeRow> {
    let mut keys: Vec<(String, String, String)> = rows
        .iter()
        .filter(|r| r.dt_s.is_some())
        .map(|r| (r.shot.clone(), r.engine.clone(), r.scheme.clone()))
        .collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .map(|(shot, engine, scheme)| {
            let pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| r.engine == engine && r.shot == shot && r.scheme == scheme)
                .filter_map(|r| Some((r.dt_s?, r.collision_time_error_median_s)))
                .filter(|&(_, e)| e.is_finite() && e > 0.0)
                .collect();
            SlopeRow {
                shot,
                scheme,
                slope: loglog_slope(&pts),
                points: pts.len(),
                engine,
            }
        })
        .collect()
}

/// What `--check` or `--bless` found.
pub struct Regression {
    /// True for `--check`, false for `--bless`.
    pub checked: bool,
    /// Shots compared.
    pub shots: usize,
    /// Differences from the (old) baselines.
    pub differences: Vec<pool_harness::Difference>,
    /// Baseline directory compared with (or rewritten).
    pub dir: PathBuf,
}

impl Regression {
    /// Number of distinct shots with a difference.
    pub fn shots_changed(&self) -> usize {
        let mut shots: Vec<&str> = self.differences.iter().map(|d| d.shot.as_str()).collect();
        shots.sort();
        shots.dedup();
        shots.len()
    }
}
