//! What a run decided, as a game or a reward sees it: which ball the cue ball hit first, which
//! cushion was hit first, where every ball ended (pocket, cloth, or lost), and where the balls
//! stopped. Computed from an [`Outcome`] alone, so every engine (ours, rapier, a program,
//! pooltool) gets the same struct.

use pool_physics::{EventKind, MotionState};
use pool_sim::{Agents, Outcome, Setup, Termination};

use pool_harness::EndCheck;

/// The most cue-ball contacts a [`GameOutcome`] keeps (its memory stays bounded on any run);
/// the games' rules read the first few.
pub const MAX_CUE_CONTACTS: usize = 256;

/// A contact of the cue ball, in the order of the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CueContact {
    /// A `ball_ball` event with this ball (index into the set-up's balls).
    Ball(usize),
    /// A ball-cushion event (`ball_linear_cushion` or `ball_circular_cushion`).
    Cushion,
}

/// A cushion of the table: a straight segment or a circular one (a rounded jaw), by index
/// into the table's `cushions` or `circular_cushions`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CushionRef {
    /// A straight cushion segment (`ball_linear_cushion`).
    Linear(usize),
    /// A circular cushion (`ball_circular_cushion`).
    Circular(usize),
}

/// Where a ball ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fate {
    /// On the cloth (at rest when the run ended physically).
    OnTable,
    /// In a pocket, by index into the table's pockets (`None`: it started pocketed, so no
    /// `ball_pocket` event names one).
    Pocketed(Option<usize>),
    /// Off the table or with a non-finite state: the method lost it (never a physical end).
    Lost,
}

/// The first ball-cushion contact of a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CushionHit {
    /// The ball (index into the set-up's balls).
    pub ball: usize,
    /// The cushion.
    pub cushion: CushionRef,
    /// When (s; for a fixed-step engine, the end of the step that noticed it).
    pub time: f64,
}

/// The outcome of one run as a game sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameOutcome {
    /// The cue ball (index): the struck ball of the set-up's strike, else the ball with id
    /// `cue`, else the first ball; `None` for a set-up without balls.
    pub cue: Option<usize>,
    /// The first ball the cue ball touched, and when (s): the first `ball_ball` event with
    /// the cue ball in it. `None` when it touched none.
    pub first_contact: Option<(usize, f64)>,
    /// The first ball-cushion event of any ball (straight or circular), if any.
    pub first_cushion: Option<CushionHit>,
    /// The cue ball's contacts with balls and cushions in the order of the log, the first
    /// [`MAX_CUE_CONTACTS`].
    pub cue_contacts: Vec<CueContact>,
    /// Every ball's fate, in set-up order.
    pub fates: Vec<Fate>,
    /// Every ball's final position on the cloth (m), in set-up order (meaningful for balls
    /// [`Fate::OnTable`]).
    pub final_positions: Vec<[f64; 2]>,
    /// Events in the log.
    pub events: usize,
    /// Why the run stopped.
    pub termination: Termination,
    /// Whether it ended physically ([`EndCheck::ended_physically`]): every ball at rest or
    /// pocketed (or `t_end`), every state finite, every ball on the table.
    pub ended: bool,
    /// The fields that game's rules read off the run (empty for pool, and before it is
    /// scored).
    pub score: Vec<ScoreEntry>,
}

/// The cue ball of `setup`: the struck ball, else the ball with id `cue`, else ball 0.
pub fn cue_ball(setup: &Setup) -> Option<usize> {
    if let Some(s) = &setup.strike {
        return Some(s.ball);
    }
    setup
        .balls
        .iter()
        .position(|b| b.id == "cue")
        .or((!setup.balls.is_empty()).then_some(0))
}

impl GameOutcome {
    /// The game outcome of `outcome`, a run of `setup`.
    pub fn of(setup: &Setup, outcome: &Outcome) -> Self {
        let cue = cue_ball(setup);
        let first_contact = cue.and_then(|c| {
            outcome.events.iter().find_map(|e| match e.agents {
                Agents::BallBall { a, b }
                    if e.kind == EventKind::BallBall && (a == c || b == c) =>
                {
                    Some((if a == c { b } else { a }, e.time))
                }
                _ => None,
            })
        });
        let first_cushion = outcome.events.iter().find_map(|e| match e.agents {
            Agents::BallCushion { ball, cushion } => Some(CushionHit {
                ball,
                cushion: CushionRef::Linear(cushion),
                time: e.time,
            }),
            Agents::BallCircularCushion { ball, cushion } => Some(CushionHit {
                ball,
                cushion: CushionRef::Circular(cushion),
                time: e.time,
            }),
            _ => None,
        });
        let cue_contacts = cue.map_or_else(Vec::new, |c| {
            outcome
                .events
                .iter()
                .filter_map(|e| match e.agents {
                    Agents::BallBall { a, b } if e.kind == EventKind::BallBall && a == c => {
                        Some(CueContact::Ball(b))
                    }
                    Agents::BallBall { a, b } if e.kind == EventKind::BallBall && b == c => {
                        Some(CueContact::Ball(a))
                    }
                    Agents::BallCushion { ball, .. } | Agents::BallCircularCushion { ball, .. }
                        if ball == c =>
                    {
                        Some(CueContact::Cushion)
                    }
                    _ => None,
                })
                .take(MAX_CUE_CONTACTS)
                .collect()
        });
        let end = EndCheck::of(setup, outcome);
        let lost = |i: usize| end.non_finite.contains(&i) || end.off_table.iter().any(|o| o.0 == i);
        let fates = outcome
            .final_states
            .iter()
            .enumerate()
            .map(|(i, s)| {
                if s.motion == MotionState::Pocketed {
                    // The last capture of the ball names its pocket.
                    Fate::Pocketed(outcome.events.iter().rev().find_map(|e| match e.agents {
                        Agents::BallPocket { ball, pocket } if ball == i => Some(pocket),
                        _ => None,
                    }))
                } else if lost(i) {
                    Fate::Lost
                } else {
                    Fate::OnTable
                }
            })
            .collect();
        GameOutcome {
            cue,
            first_contact,
            first_cushion,
            cue_contacts,
            fates,
            final_positions: outcome
                .final_states
                .iter()
                .map(|s| [s.r.x, s.r.y])
                .collect(),
            events: outcome.events.len(),
            termination: outcome.termination,
            ended: end.ended_physically(),
            score: Vec::new(),
        }
    }

    /// The score as `shots.csv`'s `score` column writes it: `name=value` by `;`, in the
    /// game's order (empty for pool).
    pub fn score_label(&self) -> String {
        self.score
            .iter()
            .map(|e| format!("{}={}", e.name, e.value))
            .collect::<Vec<_>>()
            .join(";")
    }

    /// The pocket of ball `i` (index into the table's pockets), `None` when it is not
    /// pocketed (or started pocketed).
    pub fn pocket_of(&self, i: usize) -> Option<usize> {
        match self.fates.get(i) {
            Some(Fate::Pocketed(p)) => *p,
            _ => None,
        }
    }

    /// Whether the cue ball ended in a pocket.
    pub fn scratch(&self) -> bool {
        self.cue
            .is_some_and(|c| matches!(self.fates.get(c), Some(Fate::Pocketed(_))))
    }

    /// The pocketed balls with their pockets, `ball:pocket` by id, `;`-separated in ball order
    /// (e.g. `1:rt;9:lb`; a ball that started pocketed has pocket `?`); empty when none.
    pub fn pocketed_label(&self, setup: &Setup) -> String {
        self.fates
            .iter()
            .enumerate()
            .filter_map(|(i, f)| match f {
                Fate::Pocketed(p) => Some(format!(
                    "{}:{}",
                    setup.balls[i].id,
                    p.map_or("?", |k| setup.table.pockets[k].id.as_str())
                )),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join(";")
    }
}

/// One field a game's rules read off a run, beyond what every game records (first contact,
/// first cushion, fates, positions): `shots.csv`'s `game` column holds them as
/// `name=value;...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreEntry {
    /// The field's name (`point`, `foul`, ...).
    pub name: &'static str,
    /// Its value, as written (`1`, `3`, or empty for "does not apply").
    pub value: String,
    /// Whether it is part of the game's result: two runs that differ on it differ on the
    /// `outcome` field.
    pub decides: bool,
}
