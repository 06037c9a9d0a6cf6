//! Drill-down replays of the outcome study: a shot whose outcome an engine changed, remade
//! exactly as the study made it ([`StudySetups::of`]: the same family shot, floor shot and
//! perturbation, with the same seeds) and played again by the reference, the floor and the
//! engines that disagreed, this time with snapshots, so that a page can draw every ball's track
//! (`outcomes/replays.json`, read by `report.html`; the contract is
//! `report-html-contract.md`'s).
//!
//! Tracks are sampled from the run's own snapshots ([`crate::advance`], the engines' physics,
//! between them): a sample at every snapshot where a ball moves, starts or stops, and samples at
//! most [`MAX_SAMPLE_GAP_S`] apart while it moves; times are rounded to [`TIME_QUANTUM_S`] and
//! positions to [`POSITION_QUANTUM_M`], and a ball at rest adds no sample. A replay is a check,
//! not trust: each run says whether its outcome is its row's in `outcomes/shots.csv`
//! (`reproduced`).

use pool_physics::{MotionState, Physics};
use pool_sim::{Agents, Engine, Outcome, Setup};
use rayon::prelude::*;
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::agreement::{Agreement, Field};
use super::families::FamilyKind;
use super::game::GameOutcome;
use super::shot::{StudyError, StudyRules, StudySetups};
use super::tally::{OutcomeShotRow, FLOOR, REFERENCE};
use crate::frames::advance;

/// The version of `replays.json`'s schema.
pub const REPLAY_VERSION: u32 = 1;
/// Times (s) in a replay are rounded to this: a tenth of a millisecond.
pub const TIME_QUANTUM_S: f64 = 1e-4;
/// Positions (m) in a replay are rounded to this: a hundredth of a millimetre.
pub const POSITION_QUANTUM_M: f64 = 1e-5;
/// The longest time (s) between two samples of a moving ball's track, after rounding: one
/// frame at 60 frames per second.
pub const MAX_SAMPLE_GAP_S: f64 = 1.0 / 60.0;

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
    /// Per ball, its track as flat `[t0, x0, y0, t1, x1, y1, ...]` (s, m, m; rounded to
    /// [`TIME_QUANTUM_S`] and [`POSITION_QUANTUM_M`]; times strictly increasing): a sample at
    /// t = 0, at every snapshot where the ball moves, starts or stops, and samples at most
    /// [`MAX_SAMPLE_GAP_S`] apart while it moves; linear between samples; after its last
    /// sample the ball stays there, or is gone from `pocketed_at` on. `None` for a run without
    /// snapshots (a program's): `final` only.
    pub tracks: Option<Vec<Vec<f64>>>,
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
    /// The fields ([`Field::name`], `outcome` itself left out) on which this run disagrees
    /// with the reference's replay; empty for the reference.
    pub differs: Vec<String>,
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
/// within [`MAX_SAMPLE_GAP_S`] (dt itself when it is longer), so that a track holds the engine's
/// own state at least every frame; and the study's event budget `max_events`, so that every
/// run is the study's.
pub fn replay_options(
    spec: &pool_engines::EngineSpec,
    max_events: usize,
) -> pool_engines::RunOptions {
    let interval = match spec.dt() {
        Some(dt) if dt > 0.0 => dt * (MAX_SAMPLE_GAP_S / dt * (1.0 + 1e-9)).floor().max(1.0),
        _ => MAX_SAMPLE_GAP_S,
    };
    pool_engines::RunOptions {
        snapshots: Some(interval),
        max_events: Some(max_events),
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
/// under `rules` exactly as [`super::StudyShot::play`] makes it, then played by
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
    racks: &[Setup; 2],
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
    let ref_game = GameOutcome::of(&setup, &reference);
    let tol = rules.position_tol_m;
    let row = |run: &str| rows.iter().find(|r| r.run == run);
    let mut runs = vec![
        replay_run(REFERENCE, &setup, &reference, None, row(REFERENCE)),
        replay_run(
            FLOOR,
            &perturbed,
            &floor,
            Some((&ref_game, tol)),
            row(FLOOR),
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
/// `row`: its row in `outcomes/shots.csv`.
pub fn replay_run(
    run: &str,
    setup: &Setup,
    outcome: &Outcome,
    vs: Option<(&GameOutcome, f64)>,
    row: Option<&OutcomeShotRow>,
) -> ReplayRun {
    let game = GameOutcome::of(setup, outcome);
    let id = |i: usize| setup.balls[i].id.clone();
    let first_contact = game.first_contact.map(|c| id(c.0));
    let label = game.pocketed_label(setup);
    let reproduced = row.is_some_and(|r| {
        r.first_contact == first_contact.clone().unwrap_or_default()
            && r.pocketed == label
            && (r.scratch == 1) == game.scratch()
    });
    let differs = match vs {
        Some((reference, tol)) => {
            let a = Agreement::between(reference, &game, tol);
            Field::ALL
                .into_iter()
                .filter(|&f| f != Field::Outcome && a.disagrees(f))
                .map(|f| f.name().to_string())
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

/// A track being written: samples rounded, a sample at or before the rounded time of the last
/// one replacing its position (times stay strictly increasing; the later state wins), a
/// non-finite one left out.
struct Track(Vec<f64>);

impl Track {
    fn push(&mut self, t: f64, x: f64, y: f64) {
        // A state the method lost (non-finite) has no place to draw.
        if !(t.is_finite() && x.is_finite() && y.is_finite()) {
            return;
        }
        let (t, x, y) = (quantise_time(t), quantise_position(x), quantise_position(y));
        let n = self.0.len();
        if n >= 3 && self.0[n - 3] >= t {
            self.0[n - 2] = x;
            self.0[n - 1] = y;
        } else {
            self.0.extend([t, x, y]);
        }
    }
}

/// Ball `i`'s track in `outcome` (a run of `setup` with snapshots): see [`ReplayRun::tracks`].
/// Between snapshots a moving ball is evolved from the earlier one with the set-up's physics
/// ([`advance`]), as [`crate::Frames`] shows it; its last sample before a pocket is where it was
/// when captured.
fn track(setup: &Setup, outcome: &Outcome, i: usize) -> Vec<f64> {
    // Rounding moves a time by up to half a quantum each side: samples this far apart stay
    // within MAX_SAMPLE_GAP_S once rounded.
    let step = MAX_SAMPLE_GAP_S - TIME_QUANTUM_S;
    let physics = &setup.physics;
    let snaps = &outcome.snapshots;
    let end = snaps
        .last()
        .map_or(outcome.end_time, |s| outcome.end_time.max(s.time));
    let mut out = Track(Vec::new());
    let mut was_moving = false;
    for (k, snap) in snaps.iter().enumerate() {
        let s = snap.states[i];
        if s.motion == MotionState::Pocketed {
            break;
        }
        let moving = s.motion.is_translating();
        // A ball set moving rests where it was until a quantum before: its sample at this time
        // may be replaced by a later state within the quantum, and a fixed-step engine moves it
        // within the step that sets it moving.
        if k > 0 && moving && !was_moving {
            let r = snaps[k - 1].states[i].r;
            out.push(snap.time - TIME_QUANTUM_S, r.x, r.y);
        }
        if k == 0 || moving || was_moving {
            out.push(snap.time, s.r.x, s.r.y);
        }
        was_moving = moving;
        if !moving {
            continue;
        }
        let next = snaps.get(k + 1);
        let t_next = next.map_or(end, |n| n.time);
        let span = t_next - snap.time;
        if span.is_nan() || span <= 0.0 {
            continue;
        }
        let pieces = (span / step).ceil().clamp(1.0, 1e6) as u64;
        for p in 1..pieces {
            let dt = span * p as f64 / pieces as f64;
            let r = advance(physics, &s, dt).0.r;
            out.push(snap.time + dt, r.x, r.y);
        }
        // Where the next snapshot has no position of the ball's: the end of the run, or its
        // capture by a pocket.
        if next.is_none_or(|n| n.states[i].motion == MotionState::Pocketed) {
            let r = advance(physics, &s, span).0.r;
            out.push(t_next, r.x, r.y);
        }
    }
    out.0
}
