//! The outcome study's rows and tallies: one row per shot and run (`outcomes/shots.csv`),
//! tallied into disagreement rates per family, engine and field (`outcomes.csv`) and the
//! answer a user came for: the largest dt whose outcomes do not differ from the chaos floor's
//! (`outcome_answer.csv`). The same rows, tallied in any number of pieces (a run's chunks, or
//! shards read back from their `shots.csv`), give the same tables, byte for byte.

use serde::{Deserialize, Serialize};

use crate::game::agreement::{Agreement, Field};
use crate::game::outcome::{CushionRef, Fate, GameOutcome};
use pool_sim::Setup;

/// Most shots per family.
pub const MAX_SHOTS: u64 = 1_000_000;

/// What a row of `outcomes/shots.csv` is a run of.
pub const REFERENCE: &str = "reference";
/// The run of the perturbed shot by the reference engine: the chaos floor.
pub const FLOOR: &str = "floor";
/// How the `failure` of a run an engine declined (outside its model) starts.
pub const DECLINED: &str = "declined: ";

/// Why a run has no outcome, read from `outcomes/shots.csv`'s `failure` column: the one place
/// that knows how the column spells a decline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure<'a> {
    /// Declined as outside its model (an engine's `unsupported` answer): its reason.
    Declined(&'a str),
    /// Could not run the shot: the message's first line.
    Failed(&'a str),
}

impl<'a> Failure<'a> {
    /// The failure a `failure` column holds (`None`: the run played).
    pub fn of(text: &'a str) -> Option<Self> {
        if text.is_empty() {
            return None;
        }
        Some(match text.strip_prefix(DECLINED) {
            Some(reason) => Failure::Declined(reason),
            None => Failure::Failed(text),
        })
    }
}

/// One run of one shot of the study: the reference, the floor (the reference on the perturbed
/// shot), or an engine; with its outcome and, for the floor and engines, where it disagrees
/// with the reference (`d_<field>`: 1 disagrees, 0 agrees).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeShotRow {
    /// The family's kind (`cut`, `bank`, `break9`, ...).
    pub family: String,
    /// The family's table.
    pub table: String,
    /// The shot's index in its family (0-based).
    pub index: u64,
    /// The shot's name (`<kind>_<seed>`).
    pub shot: String,
    /// `reference`, `floor`, or the engine's spec.
    pub run: String,
    /// Engine family (`event`, `discrete`, `rapier`, ...).
    pub engine: String,
    /// Scheme or variant (`end_of_step`, `located`, a solver, ...).
    pub scheme: String,
    /// Time step (s) of a fixed-step engine, empty otherwise.
    pub dt_s: Option<f64>,
    /// How the run ended (`at_rest`, `budget`, `failed`, ...).
    pub termination: String,
    /// Events in its log.
    pub events: usize,
    /// Operations it counted (0 for engines that count none).
    pub ops: u64,
    /// The first ball the cue ball touched (id), empty for none.
    pub first_contact: String,
    /// When (s), empty for none.
    pub first_contact_t_s: Option<f64>,
    /// The first ball-cushion contact as `ball|cushion` ids, empty for none.
    pub first_cushion: String,
    /// Pocketed balls as `ball:pocket` ids, `;`-separated.
    pub pocketed: String,
    /// 1 when the cue ball was pocketed.
    pub scratch: u8,
    /// Object balls pocketed (every pocketed ball but the cue ball).
    pub objects_pocketed: u32,
    /// The pockets that received an object ball, `;`-separated in the table's pocket order.
    pub object_pockets: String,
    /// The fields the family's game reads off the run as `name=value`, `;`-separated
    /// (three-cushion: `point=1;cushions=3`; snooker: `reds=1;colours=0;foul=0`; empty for
    /// pool; a file written before this column reads as empty).
    #[serde(default)]
    pub score: String,
    /// The cue ball's final position on the cloth (m, x), empty when it is not on the table.
    pub cue_x_m: Option<f64>,
    /// ... (m, y).
    pub cue_y_m: Option<f64>,
    /// Disagreement with the reference on [`Field::Outcome`].
    pub d_outcome: u8,
    /// ... on [`Field::FirstContact`].
    pub d_first_contact: u8,
    /// ... on [`Field::FirstCushion`].
    pub d_first_cushion: u8,
    /// ... on [`Field::Pocketed`].
    pub d_pocketed: u8,
    /// ... on [`Field::Scratch`].
    pub d_scratch: u8,
    /// ... on [`Field::End`].
    pub d_end: u8,
    /// ... on [`Field::CuePosition`].
    pub d_cue_position: u8,
    /// ... on [`Field::Positions`].
    pub d_positions: u8,
    /// Distance between the cue ball's final positions and the reference's (m), empty when it
    /// is not on the table in both.
    pub cue_position_error_m: Option<f64>,
    /// Largest distance between a ball's final positions and the reference's (m), over the
    /// balls on the table in both; empty when none is.
    pub position_error_max_m: Option<f64>,
    /// Why the engine could not run the shot (then it counts in no rate), else empty.
    pub failure: String,
}

/// Where a row came from: family, table, shot, run, and the run's spec split for columns.
#[derive(Clone, Debug)]
pub struct RunLabel<'a> {
    /// Family kind name.
    pub family: &'a str,
    /// Table name.
    pub table: &'a str,
    /// Index of the shot in its family.
    pub index: u64,
    /// `reference`, `floor` or the engine's spec.
    pub run: String,
    /// Engine family.
    pub engine: String,
    /// Scheme or variant.
    pub scheme: String,
    /// Time step (s), if any.
    pub dt_s: Option<f64>,
}

impl OutcomeShotRow {
    /// The row of a run of `setup` whose game outcome is `game` (with `ops` operations),
    /// compared with the reference's `reference` (`None` for the reference's own row).
    pub fn new(
        label: RunLabel<'_>,
        setup: &Setup,
        game: &GameOutcome,
        ops: u64,
        vs: Option<&Agreement>,
    ) -> Self {
        let id = |i: usize| setup.balls[i].id.clone();
        let d = |f: Field| u8::from(vs.is_some_and(|a| a.disagrees(f)));
        let finite = |x: f64| (!x.is_nan()).then_some(x);
        let objects: Vec<Option<usize>> = game
            .fates
            .iter()
            .enumerate()
            .filter(|&(i, _)| Some(i) != game.cue)
            .filter_map(|(_, f)| match f {
                Fate::Pocketed(p) => Some(*p),
                _ => None,
            })
            .collect();
        let cue_xy = game
            .cue
            .filter(|&c| matches!(game.fates.get(c), Some(Fate::OnTable)))
            .and_then(|c| game.final_positions.get(c).copied());
        OutcomeShotRow {
            family: label.family.to_string(),
            table: label.table.to_string(),
            index: label.index,
            shot: setup.name.clone(),
            run: label.run,
            engine: label.engine,
            scheme: label.scheme,
            dt_s: label.dt_s,
            termination: game.termination.name().to_string(),
            events: game.events,
            ops,
            first_contact: game.first_contact.map_or(String::new(), |c| id(c.0)),
            first_contact_t_s: game.first_contact.map(|c| c.1),
            first_cushion: game.first_cushion.map_or(String::new(), |c| {
                let cushion = match c.cushion {
                    CushionRef::Linear(k) => &setup.table.cushions[k].id,
                    CushionRef::Circular(k) => &setup.table.circular_cushions[k].id,
                };
                format!("{}|{cushion}", id(c.ball))
            }),
            pocketed: game.pocketed_label(setup),
            scratch: u8::from(game.scratch()),
            objects_pocketed: objects.len() as u32,
            object_pockets: object_pockets(setup, &objects),
            score: game.score_label(),
            cue_x_m: cue_xy.map(|p| p[0]),
            cue_y_m: cue_xy.map(|p| p[1]),
            d_outcome: d(Field::Outcome),
            d_first_contact: d(Field::FirstContact),
            d_first_cushion: d(Field::FirstCushion),
            d_pocketed: d(Field::Pocketed),
            d_scratch: d(Field::Scratch),
            d_end: d(Field::End),
            d_cue_position: d(Field::CuePosition),
            d_positions: d(Field::Positions),
            cue_position_error_m: vs.and_then(|a| finite(a.cue_position_error_m)),
            position_error_max_m: vs.and_then(|a| finite(a.position_error_max_m)),
            failure: String::new(),
        }
    }

    /// The row of an engine that could not run the shot (`failure`: the first line of its
    /// message, after [`DECLINED`] when it declined the shot as outside its model); it counts
    /// in no rate.
    pub fn failed(label: RunLabel<'_>, setup: &Setup, error: &pool_sim::EngineError) -> Self {
        let empty = GameOutcome::of(setup, &pool_sim::Outcome::failed(setup));
        let mut row = Self::new(label, setup, &empty, 0, None);
        let first = error.message.lines().next().unwrap_or("failed");
        row.failure = if error.unsupported {
            format!("{DECLINED}{first}")
        } else {
            first.to_string()
        };
        row
    }

    /// The engine column of the tables this row is tallied into: [`FLOOR`] for the floor's
    /// run (whose `engine` is the reference's), else the run's engine family.
    pub fn engine_label(&self) -> String {
        if self.run == FLOOR {
            FLOOR.into()
        } else {
            self.engine.clone()
        }
    }

    /// Whether this is an engine's run whose outcome changed (`d_outcome` 1, not the floor's,
    /// not a failure).
    pub fn changed_outcome(&self) -> bool {
        self.run != REFERENCE && self.run != FLOOR && self.d_outcome == 1 && self.failure.is_empty()
    }

    /// The disagreement flag of `field`.
    pub fn disagrees(&self, field: Field) -> bool {
        1 == match field {
            Field::Outcome => self.d_outcome,
            Field::FirstContact => self.d_first_contact,
            Field::FirstCushion => self.d_first_cushion,
            Field::Pocketed => self.d_pocketed,
            Field::Scratch => self.d_scratch,
            Field::End => self.d_end,
            Field::CuePosition => self.d_cue_position,
            Field::Positions => self.d_positions,
        }
    }
}

/// The pockets (ids, `;`-separated, each once, in the table's order) among `pockets` (`None`:
/// a ball that started pocketed, in no pocket the log names).
fn object_pockets(setup: &Setup, pockets: &[Option<usize>]) -> String {
    setup
        .table
        .pockets
        .iter()
        .enumerate()
        .filter(|(k, _)| pockets.contains(&Some(*k)))
        .map(|(_, p)| p.id.as_str())
        .collect::<Vec<_>>()
        .join(";")
}

/// One family's runs' wall time (s), summed over its shots (`outcomes/wall.csv`). Timing
/// varies from run to run, so it is kept apart from the rows that merge byte for byte; `merge`
/// sums the shards' times.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WallRow {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// `reference`, `floor` or the engine's spec.
    pub run: String,
    /// Shots timed.
    pub shots: u64,
    /// Their wall time (s), summed (an external program's start-up shared out over its batch).
    pub wall_s: f64,
    /// Their engine time (s), summed: the seconds a program reported inside its engine's own
    /// calls (`engine_s`, docs/engine-protocol.md). Empty when some shot was not reported
    /// (an engine in this process: its wall time is its engine time), and in files written
    /// before the column existed.
    #[serde(default)]
    pub engine_s: Option<f64>,
}

impl WallRow {
    /// Adds `other`'s shots and times (the same family, table and run, timed elsewhere: a
    /// shard); the engine time stays only when both give it.
    pub fn absorb(&mut self, other: &WallRow) {
        self.shots += other.shots;
        self.wall_s += other.wall_s;
        self.engine_s = self.engine_s.zip(other.engine_s).map(|(a, b)| a + b);
    }

    /// Wall time per shot (s).
    pub fn wall_per_shot_s(&self) -> f64 {
        self.wall_s / self.shots.max(1) as f64
    }

    /// Engine time per shot (s): the reported engine time when given, else the wall time.
    pub fn engine_per_shot_s(&self) -> f64 {
        self.engine_s.unwrap_or(self.wall_s) / self.shots.max(1) as f64
    }
}
