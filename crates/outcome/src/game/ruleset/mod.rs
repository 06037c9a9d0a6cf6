//! The games the outcome study plays, one module each, as pooltool's `ruleset/` has one file
//! per game: a game holds its racks (shot files built into the binary, registered by name),
//! the tables it plays on, its families of random shots, the fields its rules read off a run
//! ([`ScoreEntry`]: a snooker foul, a three-cushion point) and the statistics its distributions
//! are judged by.
//!
//! Everything else of the study (the floor, the engines, the tallies, the verdicts, the
//! report) is the same for every game. Adding a game: a module here implementing [`Game`],
//! its family kinds in [`crate::game::family::FamilyKind`] (name and game), and its entry in [`GAMES`];
//! see ARCHITECTURE.md, "How to add a game".

use pool_sim::Setup;

use self::rules::{Game, Racks};

use crate::game::family::FamilyKind;
use crate::game::outcome::GameOutcome;
use pool_sim::Outcome;

pub(crate) mod pool;
pub(crate) mod rules;
pub(crate) mod snooker;
pub(crate) mod three_cushion;

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

/// The error for a table name that is not a built-in table: `"name": unknown table (did you
/// mean "x"?); valid: ...`, one line.
pub fn unknown_table(name: &str) -> String {
    format!(
        "{name:?}: unknown table{}; valid: {} (rectangle_LxW for any L x W in m)",
        pool_engines::suggestion(name, &pool_physics::Table::BUILT_IN),
        pool_physics::Table::BUILT_IN.join(", ")
    )
}

impl Racks {
    /// Every game's racks on the built-in table named `table`.
    ///
    /// # Errors
    /// An unknown table name.
    pub fn on_table(table: &str) -> Result<Racks, String> {
        if pool_physics::Table::by_name(table).is_none() {
            return Err(unknown_table(table));
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

impl FamilyKind {
    /// The game this kind of shot belongs to.
    pub(crate) fn game(self) -> &'static dyn Game {
        match self {
            FamilyKind::Straight
            | FamilyKind::Cut
            | FamilyKind::ThinCut
            | FamilyKind::Bank
            | FamilyKind::Break9
            | FamilyKind::Break15 => &pool::Pool,
            FamilyKind::SnookerBreak | FamilyKind::SnookerPot => &snooker::Snooker,
            FamilyKind::ThreeCushion | FamilyKind::ThreeCushionRandom => {
                &three_cushion::ThreeCushion
            }
        }
    }

    /// The name of the game this kind of shot belongs to (`pool`, ...).
    pub fn game_name(self) -> &'static str {
        self.game().name()
    }
}

impl GameOutcome {
    /// This outcome (of a run of `setup`, a shot of family `kind`) with its game's score
    /// ([`crate::game::ruleset::Game::score`]).
    pub fn scored(mut self, kind: FamilyKind, setup: &Setup) -> Self {
        self.score = kind.game().score(&self, setup);
        self
    }

    /// This outcome (of a run of `setup`, a shot of no family: a Python batch's) scored by the
    /// game whose own table `setup` is on (snooker's, three-cushion's); unchanged on pool's
    /// tables.
    pub fn scored_on_table(mut self, setup: &Setup) -> Self {
        if let Some(game) = home_game(&setup.table.name) {
            self.score = game.score(&self, setup);
        }
        self
    }

    /// The run of `outcome` of `setup`, a shot of family `kind`, scored by its game.
    pub fn of_family(kind: FamilyKind, setup: &Setup, outcome: &Outcome) -> Self {
        Self::of(setup, outcome).scored(kind, setup)
    }
}
