//! Does the algorithm change the game? The outcome study: what a run decided
//! ([`GameOutcome`]: first contact, first cushion, every ball's fate, final positions), whether
//! two runs decided the same ([`Agreement`], field by field), the chaos floor (the reference
//! on a shot perturbed by the physical uncertainty of its set-up, [`perturb`]), families of
//! random shots ([`family_shot`]), the rates with their intervals and tests
//! ([`OutcomeTally`], [`answers`]), and drill-down replays of shots whose outcome an engine
//! changed ([`replay_shot`], `outcomes/replays.json`).

mod agreement;
mod answer;
pub mod betting;
pub mod calibration;
mod distribution;
pub mod energy;
mod families;
mod game;
mod games;
pub mod interval;
mod looks;
mod perturb;
mod replay;
mod replay_pick;
mod row_check;
mod runner;
pub mod search;
mod shot;
pub mod shot_by_shot;
mod stats;
mod study;
mod tally;
mod verdict;

pub use agreement::{Agreement, Field};
pub use answer::{answers, cell_state, fmt_dt, AnswerClaim, AnswerRow};
pub use distribution::{
    compare_independent, summarize_games, DistributionRow, DistributionTally, DistributionVerdict,
    Levels, MarginError, MarginName, Margins, Scale, SummaryStat, ENERGY_ALPHA, ENERGY_PAIRS,
    ENERGY_PERMUTATIONS, SHOT_BY_SHOT_SHARE, STUDY_ALPHA,
};
pub use families::{family_shot, floor_shot, FamilyKind};
pub use game::{cue_ball, CueContact, CushionHit, CushionRef, Fate, GameOutcome, MAX_CUE_CONTACTS};
pub use games::pool::pool_racks;
pub use games::three_cushion::cushions_before_second;
pub use games::{Racks, ScoreEntry};
pub use looks::{FamilyLooks, Look, LookCell, ShotRowsTally, StudyState, Wants};
pub use perturb::{perturb, Perturbation, PERTURB_TRIES, SEPARATION_GAP_M};
pub use replay::{
    decode_track, geometry, quantise_position, quantise_time, replay_options, replay_run,
    replay_shot, Geometry, Replay, ReplayBall, ReplayEngine, ReplayEvent, ReplayFile,
    ReplayOutcome, ReplayRun, ShotReplay, Units, FINE_STEP_TICKS, POSITION_QUANTUM_M,
    REPLAY_VERSION, SNAPSHOT_INTERVAL_S, TIME_QUANTUM_S, TRACK_TOLERANCE_M,
};
pub use replay_pick::{fit_within, pick_replays, ShotRows};
pub use row_check::{check_wall, ShotCheck};
pub use search::{Ladder, SearchEnd, SearchOptions};
pub use shot::{StudyError, StudyRules, StudySetups, StudyShot};
pub use stats::{mcnemar_one_sided, wilson_interval, ALPHA, Z_95};
pub use study::{
    merge_chaos, tally_shot_rows, Budget, ChaosRow, Decline, OptionError, StudyOption,
    StudyOptions, StudyPlan, StudyResult, CHAOS_SIZES, DEFAULT_DTS, DEFAULT_SHOTS, MAX_DTS,
    MAX_SHOTS, MAX_STUDY_BALL_STEPS, QUICK_DTS, QUICK_SHOTS,
};
pub use tally::{
    Failure, OutcomeRow, OutcomeShotRow, OutcomeTally, RunLabel, WallRow, DECLINED, FLOOR,
    REFERENCE,
};
pub use verdict::{Claim, Decision, FloorVerdict, Verdict};
