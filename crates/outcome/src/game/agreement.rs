//! Whether two runs of one shot decided the same game: field by field ([`Field`]), and how far
//! apart their balls stopped.

use crate::game::outcome::{Fate, GameOutcome};

/// One thing a game or a reward reads off a shot, in the order of `outcomes.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Field {
    /// The game's result: first contact, pocketed balls with their pockets, scratch, a
    /// physical end and the game's deciding fields (a three-cushion point) all the same.
    /// What a rule or a reward is decided by.
    Outcome,
    /// The first ball the cue ball touched (which ball, or none).
    FirstContact,
    /// The first ball-cushion contact: which ball and which cushion.
    FirstCushion,
    /// The pocketed balls, each with its pocket.
    Pocketed,
    /// Whether the cue ball was pocketed.
    Scratch,
    /// Whether the run ended physically (every ball at rest or pocketed, none lost).
    End,
    /// The cue ball's final position, within the position tolerance (or the same fate).
    CuePosition,
    /// Every ball's final position, within the position tolerance (and the same fates).
    Positions,
}

impl Field {
    /// Every field, in column order (the declaration order: `field as usize` indexes it).
    pub const ALL: [Field; 8] = [
        Field::Outcome,
        Field::FirstContact,
        Field::FirstCushion,
        Field::Pocketed,
        Field::Scratch,
        Field::End,
        Field::CuePosition,
        Field::Positions,
    ];

    /// snake_case name (`outcomes.csv`'s `field`).
    pub fn name(self) -> &'static str {
        match self {
            Field::FirstContact => "first_contact",
            Field::FirstCushion => "first_cushion",
            Field::Pocketed => "pocketed",
            Field::Scratch => "scratch",
            Field::End => "end",
            Field::CuePosition => "cue_position",
            Field::Positions => "positions",
            Field::Outcome => "outcome",
        }
    }

    /// The field of a name, `None` for another.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// How a run's outcome compares with another's (the reference's) on the same shot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Agreement {
    /// Disagreement per field, indexed like [`Field::ALL`].
    pub disagree: [bool; Field::ALL.len()],
    /// Distance between the cue ball's final positions (m) when it is on the table in both,
    /// NaN otherwise.
    pub cue_position_error_m: f64,
    /// Largest distance between a ball's final positions (m) over the balls on the table in
    /// both, NaN when there is none.
    pub position_error_max_m: f64,
}

impl Agreement {
    /// Compares `other` with `reference` (two runs of one set-up), positions within
    /// `position_tol_m` (m).
    pub fn between(reference: &GameOutcome, other: &GameOutcome, position_tol_m: f64) -> Self {
        let n = reference.fates.len().min(other.fates.len());
        let distance = |i: usize| {
            let (a, b) = (reference.final_positions[i], other.final_positions[i]);
            (a[0] - b[0]).hypot(a[1] - b[1])
        };
        let on_both =
            |i: usize| reference.fates[i] == Fate::OnTable && other.fates[i] == Fate::OnTable;
        // A ball whose fate differs in kind (on the table, pocketed, lost) has no position error
        // to compare: it disagrees on positions outright.
        let same_kind = |i: usize| {
            std::mem::discriminant(&reference.fates[i]) == std::mem::discriminant(&other.fates[i])
        };
        let mut position_error_max_m = f64::NAN;
        let mut positions_differ = reference.fates.len() != other.fates.len();
        for i in 0..n {
            if on_both(i) {
                let d = distance(i);
                position_error_max_m = if position_error_max_m.is_nan() {
                    d
                } else {
                    position_error_max_m.max(d)
                };
                positions_differ |= d > position_tol_m || d.is_nan();
            } else {
                positions_differ |= !same_kind(i);
            }
        }
        let cue_position_error_m = match reference.cue {
            Some(c) if c < n && on_both(c) => distance(c),
            _ => f64::NAN,
        };
        let cue_position_differs = match reference.cue {
            Some(c) if c < n => {
                if on_both(c) {
                    cue_position_error_m.is_nan() || cue_position_error_m > position_tol_m
                } else {
                    !same_kind(c)
                }
            }
            _ => false,
        };
        let first_contact =
            reference.first_contact.map(|c| c.0) != other.first_contact.map(|c| c.0);
        let first_cushion = reference.first_cushion.map(|c| (c.ball, c.cushion))
            != other.first_cushion.map(|c| (c.ball, c.cushion));
        let pocketed = reference.fates.len() != other.fates.len()
            || (0..n).any(|i| {
                let pocket = |g: &GameOutcome| match g.fates[i] {
                    Fate::Pocketed(p) => Some(p),
                    _ => None,
                };
                pocket(reference) != pocket(other)
            });
        let scratch = reference.scratch() != other.scratch();
        let end = reference.ended != other.ended;
        // A game's deciding fields (a three-cushion point) are part of its result.
        let score = decided(reference).ne(decided(other));
        let disagree = Field::ALL.map(|f| match f {
            Field::FirstContact => first_contact,
            Field::FirstCushion => first_cushion,
            Field::Pocketed => pocketed,
            Field::Scratch => scratch,
            Field::End => end,
            Field::CuePosition => cue_position_differs,
            Field::Positions => positions_differ,
            Field::Outcome => first_contact || pocketed || scratch || end || score,
        });
        Agreement {
            disagree,
            cue_position_error_m,
            position_error_max_m,
        }
    }

    /// Whether the two runs disagree on `field`.
    pub fn disagrees(&self, field: Field) -> bool {
        self.disagree[field as usize]
    }
}

/// A run's deciding score fields (name, value), in its game's order.
fn decided(g: &GameOutcome) -> impl Iterator<Item = (&'static str, &str)> {
    (g.score.iter())
        .filter(|e| e.decides)
        .map(|e| (e.name, e.value.as_str()))
}
