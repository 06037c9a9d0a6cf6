//! The outcome study's rows: one per shot and run (`outcomes/shots.csv`), what a row is a run
//! of (the reference, the floor, an engine), why a run has no outcome, and where a row came from.
//! The tallies of them are in `changes.rs` and `distribution.rs`.

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
/// Which run of a shot a row is: `outcomes/shots.csv`'s and `wall.csv`'s `run` column, written
/// as [`REFERENCE`], [`FLOOR`] or the engine's spec. Runs order as their text does, so that a
/// table sorted by run reads as it did when runs were text; two runs are equal when their text
/// is.
#[derive(Clone, Debug)]
pub enum Run {
    /// The reference engine on the shot.
    Reference,
    /// The reference engine on the perturbed shot: the chaos floor.
    Floor,
    /// An engine under study: its spec as [`pool_engines::EngineSpec`]'s `Display` writes it
    /// (kept as text: a registered engine's or a program's spec parses only where it runs).
    Engine(String),
}

impl Run {
    /// The run a `run` column names.
    pub fn of(text: &str) -> Run {
        match text {
            REFERENCE => Run::Reference,
            FLOOR => Run::Floor,
            spec => Run::Engine(spec.to_string()),
        }
    }

    /// The run of engine `spec`.
    pub fn engine(spec: &pool_engines::EngineSpec) -> Run {
        Run::Engine(spec.to_string())
    }

    /// As the `run` column writes it.
    pub fn as_str(&self) -> &str {
        match self {
            Run::Reference => REFERENCE,
            Run::Floor => FLOOR,
            Run::Engine(spec) => spec,
        }
    }

    /// The engine's spec, `None` for the reference and the floor.
    pub fn spec(&self) -> Option<&str> {
        match self {
            Run::Engine(spec) => Some(spec),
            Run::Reference | Run::Floor => None,
        }
    }

    /// Whether this is an engine under study (not the reference, not the floor).
    pub fn is_engine(&self) -> bool {
        matches!(self, Run::Engine(_))
    }
}

impl PartialEq for Run {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Run {}

impl std::hash::Hash for Run {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_str().hash(h);
    }
}

impl Ord for Run {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl PartialOrd for Run {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Run {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Run {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Run {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Run::of(&String::deserialize(d)?))
    }
}

/// How the `failure` column spells a run an engine declined (outside its model): this, then
/// the reason.
pub const DECLINED: &str = "declined: ";

/// Why a run has no outcome: `outcomes/shots.csv`'s `failure` column, which is empty when the
/// run played ([`failure_column`] reads and writes it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// Declined as outside its model (an engine's `unsupported` answer): its reason, written
    /// after [`DECLINED`].
    Declined(String),
    /// Could not run the shot: the message's first line.
    Failed(String),
}

impl Failure {
    /// The failure a `failure` column holds (`None`: the run played).
    pub fn of(text: &str) -> Option<Self> {
        if text.is_empty() {
            return None;
        }
        Some(match text.strip_prefix(DECLINED) {
            Some(reason) => Failure::Declined(reason.to_string()),
            None => Failure::Failed(text.to_string()),
        })
    }

    /// The failure of an engine's error: the first line of its message, declined when the
    /// engine answered that the shot is outside its model.
    pub fn of_error(error: &pool_sim::EngineError) -> Self {
        // An empty first line would read back as "played".
        let first = (error.message.lines().next())
            .filter(|l| !l.is_empty())
            .unwrap_or("failed")
            .to_string();
        if error.unsupported {
            Failure::Declined(first)
        } else {
            Failure::Failed(first)
        }
    }

    /// The reason or the message, without [`DECLINED`].
    pub fn message(&self) -> &str {
        match self {
            Failure::Declined(m) | Failure::Failed(m) => m,
        }
    }
}

/// As the `failure` column writes it: [`DECLINED`] and the reason, or the message.
impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Declined(reason) => write!(f, "{DECLINED}{reason}"),
            Failure::Failed(message) => f.write_str(message),
        }
    }
}

/// The `failure` column as serde reads and writes it (`#[serde(with = ...)]` on an
/// `Option<Failure>`): empty for a run that played, else the failure's text.
pub mod failure_column {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Failure;

    /// Writes `failure` as its column text (empty for `None`).
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(failure: &Option<Failure>, s: S) -> Result<S::Ok, S::Error> {
        match failure {
            None => s.serialize_str(""),
            Some(f) => s.collect_str(f),
        }
    }

    /// Reads a column's text (empty or absent: `None`).
    ///
    /// # Errors
    /// The deserializer's: the field is not text.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Failure>, D::Error> {
        let text = Option::<String>::deserialize(d)?;
        Ok(text.as_deref().and_then(Failure::of))
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
    /// The reference, the floor, or an engine.
    pub run: Run,
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
    /// Why the engine could not run the shot (then it counts in no rate), `None` (an empty
    /// column) when it played.
    #[serde(with = "failure_column")]
    pub failure: Option<Failure>,
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
    /// The reference, the floor, or an engine.
    pub run: Run,
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
            failure: None,
        }
    }

    /// The row of an engine that could not run the shot (`failure`: the first line of its
    /// message, after [`DECLINED`] when it declined the shot as outside its model); it counts
    /// in no rate.
    pub fn failed(label: RunLabel<'_>, setup: &Setup, error: &pool_sim::EngineError) -> Self {
        let empty = GameOutcome::of(setup, &pool_sim::Outcome::failed(setup));
        let mut row = Self::new(label, setup, &empty, 0, None);
        row.failure = Some(Failure::of_error(error));
        row
    }

    /// The engine column of the tables this row is tallied into: [`FLOOR`] for the floor's
    /// run (whose `engine` is the reference's), else the run's engine family.
    pub fn engine_label(&self) -> String {
        if self.run == Run::Floor {
            FLOOR.into()
        } else {
            self.engine.clone()
        }
    }

    /// Whether this is an engine's run whose outcome changed (`d_outcome` 1, not the floor's,
    /// not a failure).
    pub fn changed_outcome(&self) -> bool {
        self.run.is_engine() && self.d_outcome == 1 && self.failure.is_none()
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
    /// The reference, the floor, or an engine.
    pub run: Run,
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
