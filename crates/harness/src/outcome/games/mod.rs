//! The games the outcome study plays, one module each, as pooltool's `ruleset/` has one file
//! per game: a game holds its racks (shot files built into the binary, registered by name),
//! the tables it plays on, its families of random shots, the fields its rules read off a run
//! ([`ScoreEntry`]: a snooker foul, a three-cushion point) and the statistics its distributions
//! are judged by.
//!
//! Everything else of the study (the floor, the engines, the tallies, the verdicts, the
//! report) is the same for every game. Adding a game: a module here implementing [`Game`],
//! its family kinds in [`super::FamilyKind`] (name and game), and its entry in [`GAMES`];
//! see ARCHITECTURE.md, "How to add a game".

use std::path::Path;

use pool_sim::{RackModel, Setup};

use super::distribution::Statistic;
use super::families::FamilyKind;
use super::game::GameOutcome;

pub(crate) mod pool;
pub(crate) mod snooker;
pub(crate) mod three_cushion;

/// What a floor's redraw of a rack (another racking of the reds, another spotting of the
/// balls) is seeded by: the shot's seed xor this, so the floor never draws the shot's own
/// rack.
pub(crate) const REDRAW_SEED: u64 = 0x0F10_0A2E_4AC4_0000;

/// Every game, in the order the help and the report list them.
pub(crate) const GAMES: [&dyn Game; 3] =
    [&pool::Pool, &snooker::Snooker, &three_cushion::ThreeCushion];

/// The game whose own table is `table` (snooker's `pooltool_snooker`, three-cushion's
/// `pooltool_billiard`); `None` for pool's tables.
pub(crate) fn home_game(table: &str) -> Option<&'static dyn Game> {
    GAMES
        .iter()
        .copied()
        .find(|g| g.home_table() == Some(table))
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

/// A game of the outcome study (see the module's documentation).
pub(crate) trait Game: Sync {
    /// The game's name in files and the report (`pool`, `snooker`, `three_cushion`).
    fn name(&self) -> &'static str;

    /// The racks of this game on the built-in table `table`, by name (empty when the game
    /// has none there). A rack that cannot be placed on the table is listed with the reason,
    /// so that only a family that needs it fails, naming it.
    fn racks(&self, table: &str) -> Vec<(&'static str, Result<Setup, String>)>;

    /// Whether the game's families are played on the table named `table` when the study
    /// lists it: a game with its own table plays there only; pool plays on any table the
    /// study lists (one without pockets, or without room for a family's shot, is refused by
    /// the family itself, naming it).
    fn plays_on(&self, table: &str) -> bool {
        self.home_table().is_none_or(|home| home == table)
    }

    /// The table the game's families are played on when the study lists none it plays on.
    fn home_table(&self) -> Option<&'static str>;

    /// Shot `seed` of family `kind` (one of this game's) made from `racks`, before it is
    /// named and checked ([`super::family_shot`] does both).
    ///
    /// # Errors
    /// The family cannot be made from these racks (one line, for the user).
    fn shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String>;

    /// The chaos floor's shot of `kind` before its perturbation ([`super::floor_shot`]).
    ///
    /// # Errors
    /// As [`Game::shot`].
    fn floor_shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String>;

    /// The balls of a shot of `kind`, for the study's work estimate.
    fn balls(&self, kind: FamilyKind) -> f64;

    /// The fields this game's rules read off `game`, a run of `setup`, in column order
    /// (empty for a game whose rules need nothing beyond the common fields).
    fn score(&self, game: &GameOutcome, setup: &Setup) -> Vec<ScoreEntry>;

    /// The statistics of the game's distributions, in table order.
    fn statistics(&self) -> &'static [Statistic];
}

/// The racks of one table, by name: what the families of every game make their shots from.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Racks {
    table: String,
    racks: Vec<(&'static str, Result<Setup, String>)>,
}

impl Racks {
    /// Every game's racks on the built-in table named `table`.
    ///
    /// # Errors
    /// An unknown table name.
    pub fn on_table(table: &str) -> Result<Racks, String> {
        if pool_physics::Table::by_name(table).is_none() {
            return Err(format!(
                "{table:?}: unknown table{}; valid: {} (rectangle_LxW for any L x W in m)",
                super::study::suggest(
                    table,
                    &pool_physics::Table::BUILT_IN
                        .iter()
                        .map(|t| t.to_string())
                        .collect::<Vec<_>>()
                ),
                pool_physics::Table::BUILT_IN.join(", ")
            ));
        }
        Ok(Racks {
            table: table.to_string(),
            racks: GAMES.iter().flat_map(|g| g.racks(table)).collect(),
        })
    }

    /// The racks named in `racks`, on the table named `table` (tests and callers that make
    /// their own racks).
    pub fn of(table: &str, racks: Vec<(&'static str, Setup)>) -> Racks {
        Racks {
            table: table.to_string(),
            racks: racks.into_iter().map(|(n, s)| (n, Ok(s))).collect(),
        }
    }

    /// The table's name.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// The first rack that could be placed on this table (a set-up of the table, the
    /// balls at rest), `None` when none could.
    pub fn first(&self) -> Option<&Setup> {
        self.racks.iter().find_map(|(_, r)| r.as_ref().ok())
    }

    /// The rack named `name`.
    ///
    /// # Errors
    /// No such rack on this table, or why it could not be placed there (one line).
    pub fn get(&self, name: &str) -> Result<&Setup, String> {
        match self.racks.iter().find(|(n, _)| *n == name) {
            Some((_, Ok(s))) => Ok(s),
            Some((_, Err(e))) => Err(format!("the {name} rack: {e}")),
            None => Err(format!("no {name} rack on table {}", self.table)),
        }
    }
}

/// A game's one rack (name in [`Racks`], file, text) on its own table `home`: parsed when
/// `table` is that table, else none.
pub(crate) fn home_rack(
    table: &str,
    home: &str,
    (name, file, text): (&'static str, &str, &str),
) -> Vec<(&'static str, Result<Setup, String>)> {
    if table == home {
        vec![(name, parse_rack(file, text))]
    } else {
        Vec::new()
    }
}

/// A rack shot file built into the binary (`data/shots/<file>.toml`), parsed.
///
/// # Errors
/// The file does not parse (a defect of the build: the files are checked by the tests).
pub(crate) fn parse_rack(file: &str, text: &str) -> Result<Setup, String> {
    pool_shots::parse(text, file, Path::new(&format!("data/shots/{file}.toml")))
        .map_err(|e| e.to_string())
}
