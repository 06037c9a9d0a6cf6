//! The statistics a game's distributions are judged by ([`Statistic`]: its name, how it is
//! read off a run, its margin and its bound) and what they read off one run ([`ShotStats`]).

use crate::game::family::FamilyKind;
use crate::stats::levels::Scale;

/// What the game's statistics read off one run of one shot (one row).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ShotStats {
    /// Object balls pocketed (every pocketed ball but the cue ball).
    pub(crate) objects: u32,
    pub(crate) scratch: bool,
    /// At least one object ball pocketed and no scratch.
    pub(crate) success: bool,
    /// Pockets that received an object ball.
    pub(crate) pockets: Vec<String>,
    /// The first ball the cue ball touched, `none` for none.
    pub(crate) first_contact: String,
    /// The cue ball's final position, when it ends on the cloth.
    pub(crate) cue: Option<[f64; 2]>,
    /// Whether it disagrees with the reference on `outcome`.
    pub(crate) disagree: bool,
    /// The game's own fields (`shots.csv`'s `score`), by name.
    pub(crate) score: Vec<(String, String)>,
}

impl ShotStats {
    /// The game's field `name` (its text; empty when it does not apply), `None` when the
    /// row has no such field.
    pub(crate) fn score(&self, name: &str) -> Option<&str> {
        self.score
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The game's field `name` as a number, `None` when it is absent, empty or not a number.
    pub(crate) fn score_number(&self, name: &str) -> Option<f64> {
        self.score(name).and_then(|v| v.parse().ok())
    }
}
/// How a statistic is read off one run.
#[derive(Clone, Copy)]
pub(crate) enum Reading {
    /// A number (its mean is compared); `None` leaves the shot out of this statistic.
    Value(fn(&ShotStats) -> Option<f64>),
    /// Yes or no (its rate is compared).
    Flag(fn(&ShotStats) -> bool),
    /// One statistic per category a run names (each category's rate): `<name>:<category>`.
    Categories(fn(&ShotStats) -> Vec<String>),
}

/// What is known of a family before any shot: how far one shot can move each statistic. The
/// bets of [`crate::stats::betting`] need a range fixed in advance, and the narrower it is, the fewer
/// shots a claim needs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Bounds {
    /// Object balls a shot can pocket (the family's rack; 15 when the family is unknown).
    pub(crate) objects: f64,
    /// The table's playing area (m): length and width.
    pub(crate) length_m: f64,
    pub(crate) width_m: f64,
    /// Its pockets.
    pub(crate) pockets: f64,
}

impl Bounds {
    /// The bounds of `family` on `table`: from the family's rack and the built-in table, or
    /// the largest of the study's (15 object balls, a snooker table) when either is unknown (a
    /// Python batch).
    pub(crate) fn of(family: &str, table: &str) -> Self {
        let objects = match FamilyKind::from_name(family) {
            Some(FamilyKind::Break9) => 9.0,
            Some(FamilyKind::Break15) => 15.0,
            Some(FamilyKind::SnookerBreak) => 21.0,
            Some(FamilyKind::SnookerPot) => 7.0,
            Some(FamilyKind::ThreeCushion | FamilyKind::ThreeCushionRandom) => 2.0,
            Some(
                FamilyKind::Straight | FamilyKind::Cut | FamilyKind::ThinCut | FamilyKind::Bank,
            ) => 1.0,
            None => 15.0,
        };
        let t = pool_physics::Table::by_name(table);
        Bounds {
            objects,
            length_m: t.as_ref().map_or(3.6, |t| t.length),
            width_m: t.as_ref().map_or(1.8, |t| t.width),
            pockets: t.as_ref().map_or(6.0, |t| t.pockets.len().max(1) as f64),
        }
    }
}

/// One statistic of the game: its name, how it is read, its margin, and its bound: how far one
/// shot can move a value's difference (`[-bound, bound]`), or how many categories a
/// categorical statistic can have (its changes share is split among them in advance).
pub(crate) struct Statistic {
    pub(crate) name: &'static str,
    pub(crate) reading: Reading,
    pub(crate) scale: Scale,
    pub(crate) bound: fn(&Bounds) -> f64,
}

/// A rate's bound (its differences are in [-1, 1]).
pub(crate) fn unit(_: &Bounds) -> f64 {
    1.0
}

/// The cue ball's mean final x (m), over the shots that leave it on the cloth: every game's.
pub(crate) const CUE_X: Statistic = Statistic {
    name: "cue_x",
    reading: Reading::Value(|s| s.cue.map(|c| c[0])),
    scale: Scale::Position,
    bound: |b| b.length_m,
};

/// The cue ball's mean final y (m).
pub(crate) const CUE_Y: Statistic = Statistic {
    name: "cue_y",
    reading: Reading::Value(|s| s.cue.map(|c| c[1])),
    scale: Scale::Position,
    bound: |b| b.width_m,
};

/// The first ball the cue ball touches, by id (`none` for none): the object balls and none.
pub(crate) const FIRST_CONTACT: Statistic = Statistic {
    name: "first_contact",
    reading: Reading::Categories(|s| vec![s.first_contact.clone()]),
    scale: Scale::Rate,
    bound: |b| b.objects + 1.0,
};
