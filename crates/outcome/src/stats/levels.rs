//! The levels and margins every claim of the outcome study is held to: the level of one
//! answer ([`STUDY_ALPHA`]) and how a cell's share of it is found ([`Levels`]), the equivalence
//! margins ([`Margins`]) and which of them a statistic uses ([`Scale`]).

use serde::{Deserialize, Serialize};

/// The level of one answer: the chance of a false claim about one engine on one family (its
/// one cell, or every rung of its dt ladder together), and of the floor's neutrality.
pub const STUDY_ALPHA: f64 = 0.05;
/// The share of a cell's level that its "changes" claim gives to the shot-by-shot rate; the
/// rest is shared by the game's statistics.
pub const SHOT_BY_SHOT_SHARE: f64 = 0.5;
/// Equivalence margins: a difference whose whole interval lies within +-margin is "the same".
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Margins {
    /// Rates (scratch, success, each pocket's, each first contact's), as a difference of
    /// probabilities: 0.02 (2 percentage points) by default.
    pub rate: f64,
    /// Mean object balls pocketed per shot: 0.05 balls by default.
    pub balls: f64,
    /// Mean final cue-ball coordinates (m): 0.05 m by default (a tenth of a diamond's spacing
    /// on a 7-foot table is 3 cm; a cue ball 5 cm off is another position for play).
    pub position_m: f64,
    /// The shot-by-shot margin's absolute part: an engine is within the floor when its rate of
    /// changed outcomes exceeds the floor's by at most `floor + floor_relative x` the floor's
    /// rate; 0.005 (half a point) by default.
    pub floor: f64,
    /// The shot-by-shot margin's part relative to the floor's rate: 0.2 by default.
    #[serde(default = "default_floor_relative")]
    pub floor_relative: f64,
}

fn default_floor_relative() -> f64 {
    Margins::default().floor_relative
}

impl Default for Margins {
    fn default() -> Self {
        Margins {
            rate: 0.02,
            balls: 0.05,
            position_m: 0.05,
            floor: 0.005,
            floor_relative: 0.2,
        }
    }
}

/// A margin of [`Margins`], for error messages that name it as the caller spells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarginName {
    /// [`Margins::rate`].
    Rate,
    /// [`Margins::balls`].
    Balls,
    /// [`Margins::position_m`].
    Position,
    /// [`Margins::floor`].
    Floor,
    /// [`Margins::floor_relative`].
    FloorRelative,
}

/// A margin out of its range.
#[derive(Clone, Debug, PartialEq)]
pub struct MarginError {
    /// Which margin.
    pub margin: MarginName,
    /// Its value.
    pub value: f64,
    /// Its range, as text (`(0, 1)`).
    pub range: &'static str,
}

impl Margins {
    /// Checks every margin: rates in (0, 1), balls in (0, 15], positions in (0, 1] m, the
    /// floor's absolute part in (0, 1), its relative part in [0, 10].
    ///
    /// # Errors
    /// The first bad margin, its value and range.
    pub fn validate(&self) -> Result<(), MarginError> {
        let open = |v: f64| v.is_finite() && v > 0.0 && v < 1.0;
        for (margin, value, ok, range) in [
            (MarginName::Rate, self.rate, open(self.rate), "(0, 1)"),
            (
                MarginName::Balls,
                self.balls,
                self.balls > 0.0 && self.balls <= 15.0,
                "(0, 15]",
            ),
            (
                MarginName::Position,
                self.position_m,
                self.position_m > 0.0 && self.position_m <= 1.0,
                "(0, 1]",
            ),
            (MarginName::Floor, self.floor, open(self.floor), "(0, 1)"),
            (
                MarginName::FloorRelative,
                self.floor_relative,
                (0.0..=10.0).contains(&self.floor_relative),
                "[0, 10]",
            ),
        ] {
            if !ok {
                return Err(MarginError {
                    margin,
                    value,
                    range,
                });
            }
        }
        Ok(())
    }
}
/// Which margin a statistic is held to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// A rate: [`Margins::rate`].
    Rate,
    /// Balls per shot: [`Margins::balls`].
    Balls,
    /// A coordinate (m): [`Margins::position_m`].
    Position,
}

impl Scale {
    /// The margin of this scale in `m`.
    pub fn margin(self, m: &Margins) -> f64 {
        match self {
            Scale::Rate => m.rate,
            Scale::Balls => m.balls,
            Scale::Position => m.position_m,
        }
    }
}

/// The level each cell's claims are held to, and how the tally keeps continuous values.
#[derive(Clone, Debug, PartialEq)]
pub struct Levels {
    /// The level of one answer ([`STUDY_ALPHA`]).
    pub alpha: f64,
    /// The rungs of the dt ladder (at least 1): a laddered series' cells each get
    /// `alpha / rungs`, so that every claim of its answer together errs at most `alpha`.
    pub rungs: usize,
    /// The series searched on the ladder: (engine family, scheme or variant). A run with a dt
    /// in one of them is a rung; every other run is a cell of its own at `alpha`.
    pub laddered: Vec<(String, String)>,
    /// The bin (m) in which final cue positions' differences are kept (a claim loses at most
    /// this much of its margin).
    pub position_bin_m: f64,
}

impl Default for Levels {
    fn default() -> Self {
        Levels {
            alpha: STUDY_ALPHA,
            rungs: 1,
            laddered: Vec::new(),
            position_bin_m: Margins::default().position_m / 50.0,
        }
    }
}

impl Levels {
    /// The level of the cell of `engine` / `scheme` at `dt_s`.
    pub fn cell(&self, engine: &str, scheme: &str, dt_s: Option<f64>) -> f64 {
        let rung = dt_s.is_some()
            && self
                .laddered
                .iter()
                .any(|(e, s)| e == engine && s == scheme);
        if rung {
            self.alpha / self.rungs.max(1) as f64
        } else {
            self.alpha
        }
    }
}
