//! What every game of the outcome study is ([`Game`]) and what each builds from ([`Racks`]: its
//! racks, parsed from the shot files built into the binary), shared by the games' modules.

use std::path::Path;

use pool_sim::{RackModel, Setup};

use crate::game::family::FamilyKind;
use crate::game::outcome::{GameOutcome, ScoreEntry};
use crate::game::statistic::Statistic;

/// What a floor's redraw of a rack (another racking of the reds, another spotting of the
/// balls) is seeded by: the shot's seed xor this, so the floor never draws the shot's own
/// rack.
pub(crate) const REDRAW_SEED: u64 = 0x0F10_0A2E_4AC4_0000;

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
    /// named and checked ([`crate::game::families::family_shot`] does both).
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

    /// The chaos floor's shot of `kind` before its perturbation ([`crate::game::families::floor_shot`]).
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
    pub(crate) table: String,
    pub(crate) racks: Vec<(&'static str, Result<Setup, String>)>,
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
