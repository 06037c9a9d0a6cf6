//! Drill-down replays of the outcome study: a shot whose outcome an engine changed, remade
//! exactly as the study made it ([`StudySetups::of`]: the same family shot, floor shot and
//! perturbation, with the same seeds) and played again by the reference, the floor and the
//! engines that disagreed, this time with snapshots, so that a page can draw every ball's track
//! (`outcomes/replays.json`, read by `report.html`; the contract is `docs/report-html.md`'s).
//!
//! Tracks come from the run's own snapshots ([`pool_harness::advance_state`], the engines' physics, between
//! them, as [`pool_harness::Frames`] shows a run): fine samples every millisecond while a ball moves
//! and at the ticks next to every snapshot, simplified (Douglas–Peucker over time) to the
//! fewest that, linear in time, stay within [`TRACK_TOLERANCE_M`] of every fine sample, and
//! written as integers (ticks of [`TIME_QUANTUM_S`], units of [`POSITION_QUANTUM_M`]),
//! delta-coded; a ball at rest adds no sample. A replay is a check, not trust: each run says
//! whether its outcome is its row's in `outcomes/shots.csv` (`reproduced`).

use pool_physics::{MotionState, Physics};
use pool_sim::{Agents, Engine, Outcome, Setup};
use rayon::prelude::*;
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::game::agreement::{Agreement, Field};
use crate::game::family::FamilyKind;
use crate::game::outcome::GameOutcome;
use crate::game::ruleset::rules::Racks;
use crate::plan::shot::{StudyError, StudyRules, StudySetups};
use crate::tally::rows::{OutcomeShotRow, FLOOR, REFERENCE};
use pool_harness::advance_state;

/// The version of `replays.json`'s schema: 2, tracks simplified and integer, delta-coded.
pub const REPLAY_VERSION: u32 = 2;
/// Times (s) in a replay are rounded to this, a tenth of a millisecond; a track's times are
/// integers of it ([`Units::t_s`]).
pub const TIME_QUANTUM_S: f64 = 1e-4;
/// Positions (m) in a replay are rounded to this, a hundredth of a millimetre; a track's
/// positions are integers of it ([`Units::xy_m`]).
pub const POSITION_QUANTUM_M: f64 = 1e-5;
/// How far (m) a track interpolated linearly in time may be from any of the fine samples it
/// was simplified from ([`Units::tolerance_m`]): half a millimetre.
pub const TRACK_TOLERANCE_M: f64 = 5e-4;
/// The spacing (ticks of [`TIME_QUANTUM_S`]) of a moving ball's fine samples between two
/// snapshots: a millisecond, at which the chord of the path between two samples is within a
/// micrometre of it (sliding friction decelerates a ball by about 2 m/s^2: a h^2 / 8).
pub const FINE_STEP_TICKS: i64 = 10;
/// The snapshot interval (s) of a replay's fixed-step engine: one frame at 60 frames per
/// second (see [`replay_options`]).
pub const SNAPSHOT_INTERVAL_S: f64 = 1.0 / 60.0;

/// `replays.json`'s `units`: what a track's integers count.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Units {
    /// Seconds per unit of a track's time: [`TIME_QUANTUM_S`].
    pub t_s: f64,
    /// Metres per unit of a track's x and y: [`POSITION_QUANTUM_M`].
    pub xy_m: f64,
    /// [`TRACK_TOLERANCE_M`] (m).
    pub tolerance_m: f64,
}

impl Units {
    /// The units of [`REPLAY_VERSION`].
    pub const V2: Units = Units {
        t_s: TIME_QUANTUM_S,
        xy_m: POSITION_QUANTUM_M,
        tolerance_m: TRACK_TOLERANCE_M,
    };
}

/// `x` rounded to a multiple of `1 / per` (`per` a power of ten: 1e4 for
/// [`TIME_QUANTUM_S`], 1e5 for [`POSITION_QUANTUM_M`]), without a negative zero. Dividing the
/// rounded integer by `per` gives the double nearest the decimal, which JSON writes shortest.
fn quantise(x: f64, per: f64) -> f64 {
    (x * per).round() / per + 0.0
}

/// A time (s) rounded to [`TIME_QUANTUM_S`].
pub fn quantise_time(t: f64) -> f64 {
    quantise(t, 1e4)
}

/// A position coordinate (m) rounded to [`POSITION_QUANTUM_M`].
pub fn quantise_position(x: f64) -> f64 {
    quantise(x, 1e5)
}

/// `outcomes/replays.json`: the replays of a run and what was capped.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayFile {
    /// [`REPLAY_VERSION`].
    pub version: u32,
    /// What a track's integers count ([`Units::V2`]).
    pub units: Units,
    /// The cap: at most this many shots replayed (`--replays N`).
    pub max_shots: u64,
    /// (shot, engine run) pairs of `outcomes/shots.csv` whose outcome differs from the
    /// reference's (`d_outcome` 1; the floor not counted).
    pub disagreeing: u64,
    /// Shots written (`replays.len()`).
    pub written: u64,
    /// One line saying what was written and what was capped.
    pub note: String,
    /// The replays, in the study's shot order.
    pub replays: Vec<Replay>,
}

/// One shot replayed: where it comes from, the table, the balls and its runs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    /// `family/table/index`: the shot's id in `outcomes/shots.csv`.
    pub key: String,
    /// The family's kind (`cut`, `break9`, ...).
    pub family: String,
    /// The family's table.
    pub table: String,
    /// The shot's index in its family.
    pub index: u64,
    /// The shot's seed ([`FamilyKind::shot_seed`]; above 2^53 for most shots, so a JavaScript
    /// number holds it only approximately: `shot` names it exactly).
    pub seed: u64,
    /// The shot's name (`<kind>_<seed>`, `outcomes/shots.csv`'s `shot`).
    pub shot: String,
    /// The table's outline.
    pub geometry: Geometry,
    /// The balls, in set-up order: `tracks`, `pocketed_at` and `final` index them the same way.
    pub balls: Vec<ReplayBall>,
    /// The reference's run, the floor's, then the engines' that disagreed.
    pub runs: Vec<ReplayRun>,
}

/// A table as a page draws it (m).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Geometry {
    /// The playing area's box `[xmin, ymin, xmax, ymax]` (m): `[0, 0, length, width]`
    /// (pocket circles and jaws may reach beyond it).
    pub bounds: [f64; 4],
    /// Straight cushions `[x0, y0, x1, y1]` (m), in the table's order.
    pub segments: Vec<[f64; 4]>,
    /// Circular cushions (rounded jaws) `[cx, cy, r]` (m).
    pub arcs: Vec<[f64; 3]>,
    /// Pocket capture circles `[cx, cy, r, id]` (m).
    pub pockets: Vec<(f64, f64, f64, String)>,
}

/// A ball of a replay.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayBall {
    /// Its id (`cue`, `1`, ...).
    pub id: String,
    /// Its radius (m).
    pub radius: f64,
}

/// One run of a replayed shot.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayRun {
    /// `reference`, `floor`, or the engine's spec as `outcomes/shots.csv`'s `run` names it.
    pub run: String,
    /// Whether this replay's outcome (first contact, pocketed balls and pockets, scratch) is
    /// its row's in `outcomes/shots.csv` (false when the row is missing).
    pub reproduced: bool,
    /// When the run stopped (s, rounded to [`TIME_QUANTUM_S`]).
    pub end_time: f64,
    /// Per ball, its track as a flat array of integers `[t0, x0, y0, dt1, dx1, dy1, ...]`:
    /// times in units of [`TIME_QUANTUM_S`], positions in units of [`POSITION_QUANTUM_M`]
    /// (rounded), the first triple absolute and each later one the difference from the sample
    /// before (times strictly increasing). Linear in time between samples, the track is within
    /// [`TRACK_TOLERANCE_M`] of every fine sample it was simplified from (the ball as
    /// [`pool_harness::Frames`] shows it every millisecond while it moves and at the ticks next to
    /// each snapshot); the first and last samples, the one before the ball starts moving, the
    /// first at rest and where a pocket captured it are always kept. Before its first sample
    /// and after its last the ball stays there, or is gone from `pocketed_at` on. Empty for a
    /// ball that starts pocketed; `None` for a run without snapshots (a program's): `final`
    /// only.
    pub tracks: Option<Vec<Vec<i64>>>,
    /// Per ball, when it was pocketed (s, rounded): its last `ball_pocket` event, else the
    /// first snapshot showing it pocketed, else the end of the run (0 for a ball that started
    /// pocketed); `None` when it was not.
    pub pocketed_at: Vec<Option<f64>>,
    /// Per ball, its final position `[x, y]` (m, rounded); `None` when it is pocketed (or lost:
    /// a non-finite state).
    #[serde(rename = "final")]
    pub final_positions: Vec<Option<[f64; 2]>>,
    /// The run's event log.
    pub events: Vec<ReplayEvent>,
    /// What it decided.
    pub outcome: ReplayOutcome,
}

/// An event of a replay, written `[t, kind, agent, ...]`: time (s, rounded to
/// [`TIME_QUANTUM_S`]), the kind as pooltool names it ([`EventKind::name`]: `ball_ball`,
/// `ball_linear_cushion`, ...), then the ids of the balls, cushions and pockets in it.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplayEvent {
    /// Time (s), rounded.
    pub t: f64,
    /// Kind ([`EventKind::name`]).
    pub kind: String,
    /// Ids of the ball(s), then the cushion or pocket.
    pub agents: Vec<String>,
}

impl Serialize for ReplayEvent {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(2 + self.agents.len()))?;
        seq.serialize_element(&self.t)?;
        seq.serialize_element(&self.kind)?;
        for a in &self.agents {
            seq.serialize_element(a)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for ReplayEvent {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Seq;
        impl<'de> Visitor<'de> for Seq {
            type Value = ReplayEvent;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("[t, kind, agent, ...]")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ReplayEvent, A::Error> {
                let t = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(0, &self))?;
                let kind = seq
                    .next_element()?
                    .ok_or_else(|| de::Error::invalid_length(1, &self))?;
                let mut agents = Vec::new();
                while let Some(a) = seq.next_element()? {
                    agents.push(a);
                }
                Ok(ReplayEvent { t, kind, agents })
            }
        }
        d.deserialize_seq(Seq)
    }
}

/// What a run decided, as `outcomes/shots.csv` says it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReplayOutcome {
    /// The first ball the cue ball touched (id), `None` for none.
    pub first_contact: Option<String>,
    /// Pocketed balls as `ball:pocket`, `|`-separated in ball order (`shots.csv` separates
    /// them with `;`); empty when none.
    pub pocketed: String,
    /// Whether the cue ball was pocketed.
    pub scratch: bool,
    /// The fields ([`Field::name`], `outcome` itself left out, then its game's deciding
    /// fields, e.g. `point`) on which this run disagrees with the reference's replay; empty for
    /// the reference.
    pub differs: Vec<String>,
    /// The fields its game's rules read (`shots.csv`'s `score`: `point=1;cushions=3`), left
    /// out of the file for pool, whose rules read the fields above.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub score: String,
}

/// An engine run to replay besides the reference and the floor.
pub struct ReplayEngine<'a> {
    /// The run's name in `outcomes/shots.csv` (the engine's spec).
    pub run: String,
    /// The engine, built to record snapshots when it can ([`replay_options`]).
    pub engine: &'a dyn Engine,
}

/// A shot replayed, and the engine runs that could not be (each `run: why`).
#[derive(Clone, Debug)]
pub struct ShotReplay {
    /// The replay.
    pub replay: Replay,
    /// Engine runs that failed this time (left out of `replay.runs`), one line each.
    pub failed: Vec<String>,
}

/// The run options of a replay's engine `spec`: a snapshot at every event (the event engine)
/// and, for a fixed-step engine of step dt, every n dt with n dt the longest multiple of dt
/// within [`SNAPSHOT_INTERVAL_S`] (dt itself when it is longer), so that a track holds the
/// engine's own state at least every frame; and the study's event budget `max_events`, so that every
/// run is the study's.
pub fn replay_options(
    spec: &pool_engines::EngineSpec,
    max_events: usize,
) -> pool_engines::RunOptions {
    let interval = match spec.dt() {
        Some(dt) if dt > 0.0 => dt * (SNAPSHOT_INTERVAL_S / dt * (1.0 + 1e-9)).floor().max(1.0),
        _ => SNAPSHOT_INTERVAL_S,
    };
    pool_engines::RunOptions {
        snapshots: Some(interval),
        max_events: Some(max_events),
        ..pool_engines::RunOptions::default()
    }
}

/// The outline of `setup`'s table.
pub fn geometry(setup: &Setup) -> Geometry {
    let table = setup.table.table();
    Geometry {
        bounds: [0.0, 0.0, table.length, table.width],
        segments: table
            .cushions
            .iter()
            .map(|c| [c.p1[0], c.p1[1], c.p2[0], c.p2[1]])
            .collect(),
        arcs: table
            .circular_cushions
            .iter()
            .map(|c| [c.center[0], c.center[1], c.radius])
            .collect(),
        pockets: table
            .pockets
            .iter()
            .map(|p| (p.center[0], p.center[1], p.radius, p.id.clone()))
            .collect(),
    }
}

/// Shot `index` of family (`kind`, `table`) replayed: remade from `racks` (on that table)
/// under `rules` exactly as [`crate::plan::shot::StudyShot::play`] makes it, then played by
/// `rules.reference` (on the shot, and on the floor's perturbed shot) and by every one of
/// `engines`, in parallel; each run is checked against its row among `rows` (the shot's rows of
/// `outcomes/shots.csv`). Engines should be built with [`replay_options`] (and
/// `rules.reference` too): a run without snapshots gets `tracks: None`.
///
/// # Errors
/// As [`StudySetups::of`]: the shot cannot be made (its family, or the perturbation).
pub fn replay_shot(
    kind: FamilyKind,
    table: &str,
    racks: &Racks,
    index: u64,
    rules: &StudyRules<'_>,
    engines: &[ReplayEngine<'_>],
    rows: &[OutcomeShotRow],
) -> Result<ShotReplay, StudyError> {
    let StudySetups {
        seed,
        setup,
        perturbed,
    } = StudySetups::of(kind, table, racks, index, rules)?;
    let reference_engine = rules.reference.0;
    let (reference, floor) = rayon::join(
        || reference_engine.run(&setup),
        || reference_engine.run(&perturbed),
    );
    let ref_game = GameOutcome::of_family(kind, &setup, &reference);
    let tol = rules.position_tol_m;
    let row = |run: &str| rows.iter().find(|r| r.run.as_str() == run);
    let mut runs = vec![
        replay_run(
            REFERENCE,
            &setup,
            &reference,
            None,
            row(REFERENCE),
            Some(kind),
        ),
        replay_run(
            FLOOR,
            &perturbed,
            &floor,
            Some((&ref_game, tol)),
            row(FLOOR),
            Some(kind),
        ),
    ];
    drop((reference, floor));
    let played: Vec<Result<ReplayRun, String>> = engines
        .par_iter()
        .with_max_len(1)
        .map(|e| match e.engine.try_run(&setup) {
            Ok(o) => Ok(replay_run(
                &e.run,
                &setup,
                &o,
                Some((&ref_game, tol)),
                row(&e.run),
                Some(kind),
            )),
            Err(err) => Err(format!(
                "{}: {}",
                e.run,
                err.message.lines().next().unwrap_or("failed")
            )),
        })
        .collect();
    let mut failed = Vec::new();
    for p in played {
        match p {
            Ok(r) => runs.push(r),
            Err(why) => failed.push(why),
        }
    }
    let physics = &setup.physics;
    Ok(ShotReplay {
        replay: Replay {
            key: format!("{}/{table}/{index}", kind.name()),
            family: kind.name().to_string(),
            table: table.to_string(),
            index,
            seed,
            shot: setup.name.clone(),
            geometry: geometry(&setup),
            balls: setup
                .balls
                .iter()
                .map(|b| ReplayBall {
                    id: b.id.clone(),
                    radius: physics.radius(&b.state),
                })
                .collect(),
            runs,
        },
        failed,
    })
}

/// The replay of `outcome`, a run of `setup` named `run`; `vs`: the reference's outcome and
/// the position tolerance (m) to say where it differs (`None` for the reference itself);
/// `row`: its row in `outcomes/shots.csv`; `kind`: the shot's family, whose game scores it
/// (`None`: a shot of no family, unscored).
pub fn replay_run(
    run: &str,
    setup: &Setup,
    outcome: &Outcome,
    vs: Option<(&GameOutcome, f64)>,
    row: Option<&OutcomeShotRow>,
    kind: Option<FamilyKind>,
) -> ReplayRun {
    let mut game = GameOutcome::of(setup, outcome);
    if let Some(kind) = kind {
        game = game.scored(kind, setup);
    }
    let id = |i: usize| setup.balls[i].id.clone();
    let first_contact = game.first_contact.map(|c| id(c.0));
    let label = game.pocketed_label(setup);
    let reproduced = row.is_some_and(|r| {
        r.first_contact == first_contact.clone().unwrap_or_default()
            && r.pocketed == label
            && (r.scratch == 1) == game.scratch()
            && r.score == game.score_label()
    });
    let differs = match vs {
        Some((reference, tol)) => {
            let a = Agreement::between(reference, &game, tol);
            // The common fields, then the game's deciding ones (a three-cushion point).
            let scores = game.score.iter().filter(|e| {
                e.decides
                    && reference
                        .score
                        .iter()
                        .any(|r| r.name == e.name && r.value != e.value)
            });
            Field::ALL
                .into_iter()
                .filter(|&f| f != Field::Outcome && a.disagrees(f))
                .map(|f| f.name().to_string())
                .chain(scores.map(|e| e.name.to_string()))
                .collect()
        }
        None => Vec::new(),
    };
    let n = setup.balls.len();
    let pocketed_at: Vec<Option<f64>> = (0..n)
        .map(|i| {
            if outcome.final_states[i].motion != MotionState::Pocketed {
                return None;
            }
            let logged = outcome.events.iter().rev().find_map(|e| match e.agents {
                Agents::BallPocket { ball, .. } if ball == i => Some(e.time),
                _ => None,
            });
            let snapped = || {
                outcome
                    .snapshots
                    .iter()
                    .find(|s| s.states[i].motion == MotionState::Pocketed)
                    .map(|s| s.time)
            };
            let started = setup.balls[i].state.motion == MotionState::Pocketed;
            let when = if started {
                0.0
            } else {
                logged.or_else(snapped).unwrap_or(outcome.end_time)
            };
            Some(quantise_time(when))
        })
        .collect();
    let final_positions = outcome
        .final_states
        .iter()
        .map(|s| {
            (s.motion != MotionState::Pocketed && s.r.x.is_finite() && s.r.y.is_finite())
                .then(|| [quantise_position(s.r.x), quantise_position(s.r.y)])
        })
        .collect();
    let tracks = (!outcome.snapshots.is_empty()
        && outcome.snapshots.iter().all(|s| s.states.len() == n))
    .then(|| (0..n).map(|i| track(setup, outcome, i)).collect());
    ReplayRun {
        run: run.to_string(),
        reproduced,
        end_time: quantise_time(outcome.end_time),
        tracks,
        pocketed_at,
        final_positions,
        events: outcome
            .events
            .iter()
            .map(|e| ReplayEvent {
                t: quantise_time(e.time),
                kind: e.kind.name().to_string(),
                agents: agent_ids(setup, &e.agents),
            })
            .collect(),
        outcome: ReplayOutcome {
            first_contact,
            pocketed: label.split(';').collect::<Vec<_>>().join("|"),
            scratch: game.scratch(),
            differs,
            score: game.score_label(),
        },
    }
}

/// The ids of an event's agents: the ball(s), then the cushion or pocket.
fn agent_ids(setup: &Setup, agents: &Agents) -> Vec<String> {
    let ball = |i: usize| setup.balls[i].id.clone();
    let table = setup.table.table();
    match *agents {
        Agents::Ball { ball: i } => vec![ball(i)],
        Agents::BallBall { a, b } => vec![ball(a), ball(b)],
        Agents::BallCushion { ball: i, cushion } => {
            vec![ball(i), table.cushions[cushion].id.clone()]
        }
        Agents::BallCircularCushion { ball: i, cushion } => {
            vec![ball(i), table.circular_cushions[cushion].id.clone()]
        }
        Agents::BallPocket { ball: i, pocket } => vec![ball(i), table.pockets[pocket].id.clone()],
    }
}

/// A fine sample of a track: time (ticks of [`TIME_QUANTUM_S`]), position (units of
/// [`POSITION_QUANTUM_M`]), and whether the simplified track must keep it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Fine {
    tick: i64,
    x: i64,
    y: i64,
    keep: bool,
}

/// A ball's fine samples being written: positions rounded, a sample at or before the tick of
/// the last one replacing its position (ticks stay strictly increasing; the later state wins),
/// a sample after the run's rounded end at its end, a non-finite one left out.
struct FineTrack {
    samples: Vec<Fine>,
    end_tick: i64,
}

impl FineTrack {
    fn push(&mut self, tick: i64, r: pool_physics::Vec3, keep: bool) {
        // A state the method lost (non-finite) has no place to draw.
        if !(r.x.is_finite() && r.y.is_finite()) {
            return;
        }
        let tick = tick.min(self.end_tick);
        let (x, y) = (units(r.x, 1e5), units(r.y, 1e5));
        match self.samples.last_mut() {
            Some(last) if last.tick >= tick => {
                last.x = x;
                last.y = y;
                last.keep |= keep;
            }
            _ => self.samples.push(Fine { tick, x, y, keep }),
        }
    }
}

/// `v * per` rounded to an integer (saturating; a non-finite `v` is 0).
fn units(v: f64, per: f64) -> i64 {
    let u = (v * per).round();
    if u.is_finite() {
        u as i64
    } else {
        0
    }
}

/// The time (s) of `tick` ticks of [`TIME_QUANTUM_S`].
fn tick_time(tick: i64) -> f64 {
    tick as f64 / 1e4
}

/// The first tick at or after `t` (s).
fn tick_at_or_after(t: f64) -> i64 {
    let mut k = units(t.max(0.0), 1e4);
    while tick_time(k) < t {
        k += 1;
    }
    while k > 0 && tick_time(k - 1) >= t {
        k -= 1;
    }
    k
}

/// Ball `i`'s fine samples in `outcome` (a run of `setup` with snapshots): its positions as
/// [`pool_harness::Frames`] shows them (the latest snapshot at or before the time, evolved with the
/// set-up's physics by [`advance_state`]) at ticks of [`TIME_QUANTUM_S`]: the first snapshot's; while
/// it moves, every [`FINE_STEP_TICKS`] ticks and the first and last tick between each two
/// snapshots (so that no sample but at a tick next to a snapshot spans an event); the last tick
/// before it starts moving, the first one at rest, where it was captured by a pocket (at the
/// capture's rounded time), where it is at the end of the run (the run's rounded end time) and
/// its final state where that is elsewhere, those marked to keep; none after the run's rounded
/// end.
fn fine_track(setup: &Setup, outcome: &Outcome, i: usize) -> Vec<Fine> {
    let physics = &setup.physics;
    let snaps = &outcome.snapshots;
    let end = snaps
        .last()
        .map_or(outcome.end_time, |s| outcome.end_time.max(s.time));
    let mut out = FineTrack {
        samples: Vec::new(),
        end_tick: units(end, 1e4),
    };
    let mut was_moving = false;
    for (k, snap) in snaps.iter().enumerate() {
        let s = snap.states[i];
        if s.motion == MotionState::Pocketed {
            break;
        }
        let first = tick_at_or_after(snap.time);
        if k == 0 {
            out.push(first, s.r, true);
        }
        let moving = s.motion.is_translating();
        if !moving {
            if was_moving {
                // It stopped at this snapshot.
                out.push(first, s.r, true);
            }
            was_moving = false;
            continue;
        }
        if k > 0 && first > 0 && !was_moving {
            // It starts moving: where it rested at the tick before.
            let prev = &snaps[k - 1];
            let r = advance_state(physics, &prev.states[i], tick_time(first - 1) - prev.time).r;
            out.push(first - 1, r, true);
        }
        let next = snaps.get(k + 1);
        let t_next = next.map_or(end, |n| n.time);
        // Ticks in [snap.time, t_next): the first, every FINE_STEP_TICKS, the last.
        let mut tick = first;
        let mut stopped = false;
        while tick_time(tick) < t_next {
            let st = advance_state(physics, &s, tick_time(tick) - snap.time);
            if !st.motion.is_translating() {
                out.push(tick, st.r, true);
                stopped = true;
                break;
            }
            out.push(tick, st.r, false);
            let step = (tick / FINE_STEP_TICKS + 1) * FINE_STEP_TICKS;
            tick = if tick_time(step) < t_next {
                step
            } else if tick_time(tick + 1) < t_next {
                // The last tick before the next snapshot.
                let mut last = tick_at_or_after(t_next) - 1;
                while tick_time(last) >= t_next {
                    last -= 1;
                }
                last.max(tick + 1)
            } else {
                break;
            };
        }
        was_moving = !stopped;
        if stopped {
            continue;
        }
        // Where the next snapshot has no position of the ball's: the end of the run, or its
        // capture by a pocket.
        if next.is_none_or(|n| n.states[i].motion == MotionState::Pocketed) {
            let r = advance_state(physics, &s, t_next - snap.time).r;
            out.push(units(t_next, 1e4), r, true);
        }
    }
    // The run's final state where the last sample is elsewhere (a fixed-step engine's end is
    // its own, not the physics' evolution of its last snapshot): after its last sample a ball
    // stays there.
    let f = outcome.final_states[i];
    if f.motion != MotionState::Pocketed && out.samples.last().is_some() {
        let last = out.samples[out.samples.len() - 1];
        if (last.x, last.y) != (units(f.r.x, 1e5), units(f.r.y, 1e5)) {
            out.push(out.end_tick, f.r, true);
        }
    }
    out.samples
}

/// Which of `fine` a track keeps: the first, the last and those marked, and between each two
/// of those the fewest (Douglas–Peucker over time) such that interpolating linearly in time
/// between kept samples puts every sample within `tol` (units of [`POSITION_QUANTUM_M`]) of
/// its position at its time.
fn simplify(fine: &[Fine], tol: f64) -> Vec<bool> {
    let n = fine.len();
    let mut keep: Vec<bool> = fine.iter().map(|f| f.keep).collect();
    if n == 0 {
        return keep;
    }
    keep[0] = true;
    keep[n - 1] = true;
    let anchors: Vec<usize> = (0..n).filter(|&k| keep[k]).collect();
    let mut stack: Vec<(usize, usize)> = anchors.windows(2).map(|w| (w[0], w[1])).collect();
    while let Some((a, b)) = stack.pop() {
        if b <= a + 1 {
            continue;
        }
        let (fa, fb) = (fine[a], fine[b]);
        let span = (fb.tick - fa.tick) as f64;
        let mut worst = (0.0, a);
        for (k, f) in fine.iter().enumerate().take(b).skip(a + 1) {
            let u = (f.tick - fa.tick) as f64 / span;
            let x = fa.x as f64 + u * (fb.x - fa.x) as f64;
            let y = fa.y as f64 + u * (fb.y - fa.y) as f64;
            let err = (f.x as f64 - x).hypot(f.y as f64 - y);
            if err > worst.0 {
                worst = (err, k);
            }
        }
        if worst.0 > tol {
            keep[worst.1] = true;
            stack.push((a, worst.1));
            stack.push((worst.1, b));
        }
    }
    keep
}

/// Ball `i`'s track in `outcome` (a run of `setup` with snapshots): see [`ReplayRun::tracks`].
fn track(setup: &Setup, outcome: &Outcome, i: usize) -> Vec<i64> {
    let fine = fine_track(setup, outcome, i);
    let keep = simplify(&fine, TRACK_TOLERANCE_M / POSITION_QUANTUM_M);
    let mut out = Vec::with_capacity(3 * keep.iter().filter(|&&k| k).count());
    let mut prev = Fine {
        tick: 0,
        x: 0,
        y: 0,
        keep: true,
    };
    for (f, _) in fine.iter().zip(&keep).filter(|(_, &k)| k) {
        out.extend([f.tick - prev.tick, f.x - prev.x, f.y - prev.y]);
        prev = *f;
    }
    out
}

/// A track of [`ReplayRun::tracks`] decoded: its kept samples `[t, x, y]` (s, m, m).
pub fn decode_track(track: &[i64]) -> Vec<[f64; 3]> {
    let (mut t, mut x, mut y) = (0i64, 0i64, 0i64);
    track
        .chunks_exact(3)
        .map(|d| {
            t += d[0];
            x += d[1];
            y += d[2];
            [
                t as f64 * TIME_QUANTUM_S,
                x as f64 * POSITION_QUANTUM_M,
                y as f64 * POSITION_QUANTUM_M,
            ]
        })
        .collect()
}
