//! The comparison harness: runs identical set-ups through the event-based engine (the reference)
//! and the discrete-time integrator over a dt sweep, matches their events, and measures
//! collision-time error, final-position error and cost.
//!
//! The xtask binary drives it (parallelism, progress, files); everything here is a pure function
//! of a [`pool_sim::Setup`], so it is tested directly.
#![warn(missing_docs)]

mod baseline;
mod check;
mod cost;
mod end;
mod frames;
mod marks;
mod matching;
mod one_step;
mod paths;
mod rack;
mod roots_eval;
mod rows;
mod run;
pub mod run_files;
mod scaling;
mod scenarios;
mod stress_shots;
mod stress_tally;
mod sweep;
mod throw;
mod variant;

pub use baseline::{
    diff_discrete, diff_shot, is_event_kind, shot_baseline, Difference, DiscreteLine, EventLine,
    FinalLine, ShotBaseline, Tolerances, BASELINE_DTS,
};
pub use check::{
    check_outcome, energy_rises, violations, InvariantReport, CONTACT_TOL_M, SPACER_OVERLAPS,
};
pub use cost::{lg_discrete_ops, lg_event_ops, loglog_slope};
pub use end::{num, EndCheck};
pub use frames::{advance, advance_state, latest_event, BallFrame, Frames};
pub use marks::{event_marks, EventMark};
pub use matching::match_events;
pub use one_step::{one_step, OneStepRow, OneStepStats, ONE_STEP_TIME_TOL_S, TIE_S};
/// Placing balls on a table: a ball at a point, whether a point is clear of the table's edges,
/// pockets and other balls, a set-up with other balls (what the stress shots and the outcome
/// study's games build their shots with).
pub mod placement {
    pub use crate::stress_shots::{ball, clear, with_balls};
}
pub use paths::ball_paths;
pub use rack::{RackModel, DEFAULT_RACK};
pub use roots_eval::{
    answer_all, evaluate_root_cases, judge, ns_per_query, parse_root_cases, root_families,
    summarize, Answer, RootCase, RootStats, RootVerdict, ABS_FLOOR_S, WRONG_REL,
};
pub use rows::{BallPath, ErrorRow, OpsRow, ShotPaths, SummaryRow};
pub use run::{
    agents_label, log_dt_sweep, match_window, reference_rows, run_engine, run_reference,
    snapshot_budget_note, snapshot_event_budget, snapshot_interval, EngineRun, Reference,
    FLOOR_MIN_APPROACH, SNAPSHOT_STATES,
};
pub use scaling::{
    medians_by_n, scaling_run, scaling_setup, scaling_slopes, ScalingPlan, ScalingRow,
    ScalingSlope, SCALING_ENGINES, SCALING_TABLE_M,
};
pub use scenarios::{random_break, scatter, ScatterSpec, SplitMix};
pub use stress_shots::{
    corner_shot, frozen_shot, graze_shot, rack_on_table, rail_shot, stress_scatter, stress_shot,
    ScenarioKind, CORNER_JAW_OFFSET_R, FROZEN_GAP_M, GRAZE_EPS, RAIL_MAX_ANGLE, RAIL_MAX_GAP,
};
pub use stress_tally::StressTally;
pub use sweep::{
    sweep_header, sweep_row, sweep_setup, Axis, SweepParam, SweepPlan, SweepTally, CUE_PARAMS,
    MAX_POINTS,
};
pub use throw::{throw_curve, tp_a14_throw, ThrowRow, THROW_SPEEDS};
pub use variant::with_physics;
