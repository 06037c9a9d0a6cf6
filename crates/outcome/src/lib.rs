//! Does the algorithm change the game? The outcome study: what a run decided
//! ([`GameOutcome`]: first contact, first cushion, every ball's fate, final positions), whether
//! two runs decided the same ([`Agreement`], field by field), the chaos floor (the reference
//! on a shot perturbed by the physical uncertainty of its set-up, [`perturb`]), families of
//! random shots ([`family_shot`]), the rates with their intervals and tests
//! ([`OutcomeTally`], [`answers`]), and drill-down replays of shots whose outcome an engine
//! changed ([`replay_shot`], `outcomes/replays.json`).
//!
//! Its parts are layered, each importing only those above it in this list, so no file imports
//! another that imports it back:
//! - [`stats`]: the tests and intervals, the levels and margins, the verdicts (no study types);
//! - [`game`]: what a run decided, the games' rules and statistics, the families of shots;
//! - [`tally`]: the rows (one per shot and run) and their tallies;
//! - [`plan`]: the study's options and plan, the runner, the looks, the dt search, the answer;
//! - [`replay`]: the drill-down replays of changed shots.
//!
//! It sits on `pool-harness` (the runs, the end checks, the racked break), which knows nothing
//! of it.
#![warn(missing_docs)]

pub mod game;
pub mod plan;
pub mod replay;
pub mod stats;
pub mod tally;

pub use game::agreement::{Agreement, Field};
pub use game::families::{family_shot, floor_shot};
pub use game::family::FamilyKind;
pub use game::outcome::{
    cue_ball, CueContact, CushionHit, CushionRef, Fate, GameOutcome, ScoreEntry, MAX_CUE_CONTACTS,
};
pub use game::perturb::{perturb, Perturbation, PERTURB_TRIES, SEPARATION_GAP_M};
pub use game::ruleset::pool::pool_racks;
pub use game::ruleset::rules::Racks;
pub use game::ruleset::three_cushion::cushions_before_second;
pub use game::ruleset::unknown_table;
pub use plan::answer::{answers, cell_state, fmt_dt, AnswerClaim, AnswerRow};
pub use plan::looks::{FamilyLooks, Look, LookCell, ShotRowsTally, StudyState, Wants};
pub use plan::row_check::{check_wall, ShotCheck};
pub use plan::search::{Ladder, SearchEnd, SearchOptions};
pub use plan::shot::{StudyError, StudyRules, StudySetups, StudyShot};
pub use plan::study::{
    merge_chaos, tally_shot_rows, Budget, ChaosRow, Decline, OptionError, StudyOption,
    StudyOptions, StudyPlan, StudyResult, CHAOS_SIZES, DEFAULT_DTS, DEFAULT_SHOTS, MAX_DTS,
    MAX_STUDY_BALL_STEPS, QUICK_DTS, QUICK_SHOTS,
};
pub use plan::{calibration, search};
pub use replay::pick::{fit_within, pick_replays, ShotRows};
pub use replay::shot::{
    decode_track, geometry, quantise_position, quantise_time, replay_options, replay_run,
    replay_shot, Geometry, Replay, ReplayBall, ReplayEngine, ReplayEvent, ReplayFile,
    ReplayOutcome, ReplayRun, ShotReplay, Units, FINE_STEP_TICKS, POSITION_QUANTUM_M,
    REPLAY_VERSION, SNAPSHOT_INTERVAL_S, TIME_QUANTUM_S, TRACK_TOLERANCE_M,
};
pub use stats::levels::{
    Levels, MarginError, MarginName, Margins, Scale, SHOT_BY_SHOT_SHARE, STUDY_ALPHA,
};
pub use stats::rates::{mcnemar_one_sided, wilson_interval, ALPHA, Z_95};
pub use stats::verdict::{Claim, Decision, FloorVerdict, Verdict};
pub use stats::{betting, energy, interval, shot_by_shot};
pub use tally::changes::{OutcomeRow, OutcomeTally};
pub use tally::distribution::{
    compare_independent, summarize_games, DistributionRow, DistributionTally, DistributionVerdict,
    SummaryStat, ENERGY_ALPHA, ENERGY_PAIRS, ENERGY_PERMUTATIONS,
};
pub use tally::rows::{
    failure_column, Failure, OutcomeShotRow, Run, RunLabel, WallRow, DECLINED, FLOOR, MAX_SHOTS,
    REFERENCE,
};
