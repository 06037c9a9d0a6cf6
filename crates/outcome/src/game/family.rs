//! The families of random shots the outcome study plays, by name ([`FamilyKind`]), and the
//! seed of each of their shots.

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
    /// A 9-ball break ([`pool_harness::random_break`] of the 9-ball rack).
    Break9,
    /// A 15-ball break ([`pool_harness::random_break`] of the 15-ball rack).
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
