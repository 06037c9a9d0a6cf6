//! Rows of the report's CSV files and the data behind its plots.

use pool_physics::Table;
use serde::{Deserialize, Serialize};

/// One row of `summary.csv`: one shot x engine x scheme x dt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// Shot name (file stem).
    pub shot: String,
    /// `event` or `discrete`.
    pub engine: String,
    /// Root solver (event engine) or integration scheme (`end_of_step`, `euler`).
    pub scheme: String,
    /// Time step (s); `None` (empty cell) for the event engine.
    pub dt_s: Option<f64>,
    /// Number of balls in the shot.
    pub n_balls: usize,
    /// Events in the reference (event engine) log.
    pub n_reference_events: usize,
    /// Events this run produced.
    pub n_events: usize,
    /// Reference events matched by an event of the same kind and agents, in order.
    pub n_matched: usize,
    /// Reference events with no match.
    pub n_missed: usize,
    /// Events of this run with no reference match.
    pub n_spurious: usize,
    /// Median |t_engine - t_reference| over matched collisions (s); NaN when none matched.
    pub collision_time_error_median_s: f64,
    /// Max |t_engine - t_reference| over matched collisions (s); NaN when none matched.
    pub collision_time_error_max_s: f64,
    /// Max over balls of |r_engine - r_reference| at the end (m).
    pub final_position_error_max_m: f64,
    /// Sum of all operation counters.
    pub ops_total: u64,
    /// Leckie & Greenspan's cost estimate for this run (seed 003): (645 n - 19 n^2) / 2 per
    /// event for the event engine, N (61 n - n^2) / 2 for N steps of the discrete method.
    pub lg_estimate_ops: f64,
    /// Wall-clock time of the run (s), median of repeats when repeated: for a program (an
    /// `exec:` engine, pooltool, a peer) its whole share of the session, adapter, JSON and
    /// pipes included.
    pub wall_time_s: f64,
    /// Seconds inside the engine's own calls, as a program reported them (`engine_s`,
    /// docs/engine-protocol.md); empty for an engine in this process (its wall time is its
    /// engine time) and for a program that does not report it. Absent from runs made before
    /// it existed (read back as empty).
    #[serde(default)]
    pub engine_time_s: Option<f64>,
    /// Simulated time when the run stopped (s).
    pub end_time_s: f64,
    /// Why the run stopped: `at_rest`, `time_limit` (both physical ends), `budget` or
    /// `numerical_error` (see `pool_sim::Termination`).
    pub termination: String,
    /// Balls ending off the table (not pocketed): the method's own error, flagged
    /// (see [`crate::EndCheck`]).
    pub final_off_table: usize,
    /// Largest overlap between two balls at the end (m), 0 if none: the method's own error,
    /// flagged when above [`crate::CONTACT_TOL_M`].
    pub final_overlap_max_m: f64,
}

impl SummaryRow {
    /// The row with its end's flags (`final_off_table`, `final_overlap_max_m`) from `end`.
    pub fn with_end(mut self, end: &crate::EndCheck) -> Self {
        self.final_off_table = end.off_table.len();
        self.final_overlap_max_m = end.max_overlap_m;
        self
    }

    /// The run's engine time (s): what the program reported as spent inside its engine's own
    /// calls when it did ([`SummaryRow::engine_time_s`]), else the wall time (an engine in
    /// this process, where nothing stands between the caller and the engine). Costs compared
    /// between engines use this.
    pub fn engine_cost_s(&self) -> f64 {
        self.engine_time_s.unwrap_or(self.wall_time_s)
    }

    /// True when the run ended physically and its end shows no flagged method error.
    pub fn clean_end(&self) -> bool {
        matches!(self.termination.as_str(), "at_rest" | "time_limit")
            && self.final_off_table == 0
            && self.final_overlap_max_m <= crate::CONTACT_TOL_M
    }
}

/// One row of `errors.csv`: one matched event.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ErrorRow {
    /// Shot name.
    pub shot: String,
    /// `event` or `discrete`.
    pub engine: String,
    /// Scheme (see [`SummaryRow::scheme`]).
    pub scheme: String,
    /// Time step (s), empty for the event engine.
    pub dt_s: Option<f64>,
    /// Index of the event in the reference log.
    pub reference_index: usize,
    /// Event kind (`ball_ball`, ...).
    pub kind: String,
    /// Agent ids, e.g. `cue|1` or `cue|rail_b1`.
    pub agents: String,
    /// Reference time (s).
    pub t_reference_s: f64,
    /// This run's time (s).
    pub t_engine_s: f64,
    /// t_engine - t_reference (s): positive when this run noticed the event late.
    pub error_s: f64,
}

/// One row of `ops.csv`: one counter of one run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpsRow {
    /// Shot name.
    pub shot: String,
    /// `event` or `discrete`.
    pub engine: String,
    /// Scheme.
    pub scheme: String,
    /// Time step (s), empty for the event engine.
    pub dt_s: Option<f64>,
    /// Counter name (see `pool_sim::Op::name`).
    pub op: String,
    /// Count.
    pub count: u64,
}

/// A ball's center path on the cloth, as (x, y) points in metres.
#[derive(Clone, Debug, PartialEq)]
pub struct BallPath {
    /// Ball id.
    pub id: String,
    /// Points in time order (m).
    pub points: Vec<(f64, f64)>,
    /// True if the ball ended in a pocket.
    pub pocketed: bool,
    /// The ball's radius (m).
    pub radius: f64,
}

/// Everything needed to draw one shot top-down with both engines' paths overlaid.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotPaths {
    /// Shot name.
    pub shot: String,
    /// Table geometry (cushion segments and pockets).
    pub table: Table,
    /// The largest ball radius (m): the margin around the paths the view keeps, the size of
    /// the labels; each ball is drawn with its own ([`BallPath::radius`]).
    pub radius: f64,
    /// Event engine paths, one per ball.
    pub reference: Vec<BallPath>,
    /// Discrete integrator paths, one per ball.
    pub discrete: Vec<BallPath>,
    /// Legend label for the discrete paths, e.g. `discrete exact dt=1e-2 s`.
    pub discrete_label: String,
}
