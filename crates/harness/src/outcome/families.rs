//! Families of random shots for the outcome study, seeded and reproducible: every family's
//! name and game ([`FamilyKind`]), and the shots its game makes ([`family_shot`],
//! [`floor_shot`]; each game's own in [`super::games`]).

use pool_sim::{RackModel, Setup};

use super::games::{self, Game, Racks};

/// What kind of shot a family holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FamilyKind {
    /// A cue ball struck at its center straight through an object ball into a pocket: no cut,
    /// no spin. Every algorithm should call these the same (the study's known answer).
    Straight,
    /// A cut shot at a pocket, aimed by the ghost ball, over cut angle (0-75 degrees), speed
    /// and spin.
    Cut,
    /// The thin half of the cut shots: cut angles 45-75 degrees, where a contact placed a
    /// little off sends the object ball furthest off.
    ThinCut,
    /// A bank shot: the object ball sent off a long rail into a pocket on the other side,
    /// aimed at the pocket's mirror image, over cut angle, speed and spin.
    Bank,
    /// A 9-ball break ([`crate::random_break`] of the 9-ball rack).
    Break9,
    /// A 15-ball break ([`crate::random_break`] of the 15-ball rack).
    Break15,
    /// A snooker break: the cue ball from the D into the 15 reds (`games/snooker.rs`).
    SnookerBreak,
    /// A snooker pot: a red cut at a pocket among the colours on their spots.
    SnookerPot,
    /// Three-cushion from the start position: the cue ball at the red (`games/three_cushion.rs`).
    ThreeCushion,
    /// Three-cushion from a random layout of the three balls.
    ThreeCushionRandom,
}

impl FamilyKind {
    /// Every kind.
    pub const ALL: [FamilyKind; 10] = [
        FamilyKind::Straight,
        FamilyKind::Cut,
        FamilyKind::ThinCut,
        FamilyKind::Bank,
        FamilyKind::Break9,
        FamilyKind::Break15,
        FamilyKind::SnookerBreak,
        FamilyKind::SnookerPot,
        FamilyKind::ThreeCushion,
        FamilyKind::ThreeCushionRandom,
    ];

    /// The kinds `compare` and `outcomes` run by default (straight shots are the tests' known
    /// answer, not a question).
    pub const DEFAULT: [FamilyKind; 4] = [
        FamilyKind::Cut,
        FamilyKind::Bank,
        FamilyKind::Break9,
        FamilyKind::Break15,
    ];

    /// Name in files and options: `straight`, `cut`, `thin_cut`, `bank`, `break9`, `break15`,
    /// `snooker_break`, `snooker_pot`, `three_cushion`, `three_cushion_random`.
    pub fn name(self) -> &'static str {
        match self {
            FamilyKind::Straight => "straight",
            FamilyKind::Cut => "cut",
            FamilyKind::ThinCut => "thin_cut",
            FamilyKind::Bank => "bank",
            FamilyKind::Break9 => "break9",
            FamilyKind::Break15 => "break15",
            FamilyKind::SnookerBreak => "snooker_break",
            FamilyKind::SnookerPot => "snooker_pot",
            FamilyKind::ThreeCushion => "three_cushion",
            FamilyKind::ThreeCushionRandom => "three_cushion_random",
        }
    }

    /// The game this kind of shot belongs to.
    pub(crate) fn game(self) -> &'static dyn Game {
        match self {
            FamilyKind::Straight
            | FamilyKind::Cut
            | FamilyKind::ThinCut
            | FamilyKind::Bank
            | FamilyKind::Break9
            | FamilyKind::Break15 => &games::pool::Pool,
            FamilyKind::SnookerBreak | FamilyKind::SnookerPot => &games::snooker::Snooker,
            FamilyKind::ThreeCushion | FamilyKind::ThreeCushionRandom => {
                &games::three_cushion::ThreeCushion
            }
        }
    }

    /// The name of the game this kind of shot belongs to (`pool`, ...).
    pub fn game_name(self) -> &'static str {
        self.game().name()
    }

    /// The kind of a name, `None` for another.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The seed of shot `k` of this kind on table `table` in a study seeded `seed`: every
    /// shot's seed depends on nothing else, so any piece of a study (a shard) makes the same
    /// shots.
    pub fn shot_seed(self, table: &str, seed: u64, k: u64) -> u64 {
        // FNV-1a of the table's name and the kind's, then splitmix64's finaliser of the lot.
        let mut h: u64 = 0xCBF2_9CE4_8422_2325;
        for byte in table.bytes().chain([b'/']).chain(self.name().bytes()) {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01B3);
        }
        let mut z =
            h ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ k.wrapping_mul(0xD1B5_4A32_D192_ED03);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The chaos floor's shot before its perturbation: for a break whose rack model draws
/// (`jittered`), the same strike on another draw of the rack (a rack is never racked twice
/// alike: its own jitter is the physical uncertainty of a break); otherwise the shot itself
/// ([`family_shot`]). Each game says which of its families are breaks.
///
/// # Errors
/// As [`family_shot`].
pub fn floor_shot(
    kind: FamilyKind,
    racks: &Racks,
    rack: &RackModel,
    seed: u64,
) -> Result<Setup, String> {
    kind.game().floor_shot(kind, racks, rack, seed)
}

/// Shot `seed` of kind `kind` made by its game from `racks` (on the family's table), the
/// breaks' racks placed by `rack` (seeded by `seed`). Named `<kind>_<seed>`. Deterministic in
/// `seed`; every set-up returned passes [`Setup::validate`].
///
/// # Errors
/// The table has no rack or no pocket the kind needs, or no placement fitted in 10 000 draws.
pub fn family_shot(
    kind: FamilyKind,
    racks: &Racks,
    rack: &RackModel,
    seed: u64,
) -> Result<Setup, String> {
    let mut s = kind.game().shot(kind, racks, rack, seed)?;
    s.name = format!("{}_{seed}", kind.name());
    s.validate().map_err(|e| format!("{}: {e}", s.name))?;
    Ok(s)
}
