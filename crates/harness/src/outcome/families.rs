//! Families of random shots for the outcome study, seeded and reproducible: straight shots
//! and cut shots aimed at a pocket by the ghost ball, bank shots off a long rail, and 9-ball
//! and 15-ball breaks ([`crate::random_break`]), on any table with pockets.

use std::f64::consts::PI;

use pool_physics::resolve::{Cue, CueSpecs};
use pool_physics::{Table, Vec2, Vec3};
use pool_sim::{RackModel, Setup, Strike};

use crate::stress_shots::{ball, clear, with_balls};
use crate::{random_break, SplitMix};

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
}

impl FamilyKind {
    /// Every kind.
    pub const ALL: [FamilyKind; 6] = [
        FamilyKind::Straight,
        FamilyKind::Cut,
        FamilyKind::ThinCut,
        FamilyKind::Bank,
        FamilyKind::Break9,
        FamilyKind::Break15,
    ];

    /// The kinds `compare` and `outcomes` run by default (straight shots are the tests' known
    /// answer, not a question).
    pub const DEFAULT: [FamilyKind; 4] = [
        FamilyKind::Cut,
        FamilyKind::Bank,
        FamilyKind::Break9,
        FamilyKind::Break15,
    ];

    /// Name in files and options: `straight`, `cut`, `thin_cut`, `bank`, `break9`, `break15`.
    pub fn name(self) -> &'static str {
        match self {
            FamilyKind::Straight => "straight",
            FamilyKind::Cut => "cut",
            FamilyKind::ThinCut => "thin_cut",
            FamilyKind::Bank => "bank",
            FamilyKind::Break9 => "break9",
            FamilyKind::Break15 => "break15",
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

/// The chaos floor's shot before its perturbation: for a break whose rack model draws
/// (`jittered`), the same strike on another draw of the rack (a rack is never racked twice
/// alike: its own jitter is the physical uncertainty of a break); otherwise the shot itself
/// ([`family_shot`]).
///
/// # Errors
/// As [`family_shot`].
pub fn floor_shot(
    kind: FamilyKind,
    racks: &[Setup; 2],
    rack: &RackModel,
    seed: u64,
) -> Result<Setup, String> {
    let rerack = |r: &Setup| -> Result<Setup, String> {
        let mut s = random_break(&rack.apply(r, seed ^ 0x0F10_0A2E_4AC4_0000)?, seed);
        s.name = format!("{}_floor", s.name);
        Ok(s)
    };
    match (kind, rack) {
        (FamilyKind::Break9, RackModel::Jittered { .. }) => rerack(&racks[0]),
        (FamilyKind::Break15, RackModel::Jittered { .. }) => rerack(&racks[1]),
        _ => family_shot(kind, racks, rack, seed),
    }
}

/// Shot `seed` of kind `kind` made from `racks` (the 9-ball rack, then the 15-ball rack, on the
/// family's table; the two-ball kinds take the 9-ball rack's table and physics), the breaks'
/// racks placed by `rack` (seeded by `seed`). Named
/// `<kind>_<seed>`. Deterministic in `seed`; every set-up returned passes
/// [`Setup::validate`].
///
/// # Errors
/// The table has no pocket the kind can aim at, or no placement fitted in 10 000 draws.
pub fn family_shot(
    kind: FamilyKind,
    racks: &[Setup; 2],
    rack: &RackModel,
    seed: u64,
) -> Result<Setup, String> {
    let base = &racks[0];
    let s = match kind {
        FamilyKind::Break9 => random_break(&rack.apply(base, seed)?, seed),
        FamilyKind::Break15 => random_break(&rack.apply(&racks[1], seed)?, seed),
        _ => {
            let mut rng = SplitMix::new(seed ^ 0x6F75_7463_6F6D_6573);
            let shot = (0..10_000)
                .find_map(|_| aimed_shot(kind, base, &mut rng))
                .ok_or_else(|| {
                    format!(
                        "{} shots on table {:?}: no placement fitted in 10000 draws (a table \
                         with pockets on its long rails is needed)",
                        kind.name(),
                        base.table.name
                    )
                })?;
            let mut s = with_balls(base, String::new(), shot.balls);
            s.strike = Some(Strike {
                ball: 0,
                cue: shot.cue,
            });
            s
        }
    };
    let mut s = s;
    s.name = format!("{}_{seed}", kind.name());
    s.validate().map_err(|e| format!("{}: {e}", s.name))?;
    Ok(s)
}

/// A drawn two-ball shot: the cue ball (first) and the object ball, and the stroke.
struct Aimed {
    balls: Vec<pool_sim::Ball>,
    cue: Cue,
}

/// The unit vector `u` turned by `angle` (rad) counter-clockwise.
fn turn(u: Vec2, angle: f64) -> Vec2 {
    let (s, c) = angle.sin_cos();
    Vec2::new(c * u.x - s * u.y, s * u.x + c * u.y)
}

/// The direction from a pocket into the table along its axis: the diagonal for a corner
/// pocket, across the table for a side pocket (by where its center is on the rectangle).
fn pocket_axis(table: &Table, center: Vec2) -> Vec2 {
    let x = if center.x < table.length / 4.0 {
        1.0
    } else if center.x > 0.75 * table.length {
        -1.0
    } else {
        0.0
    };
    let y = if center.y < table.width / 2.0 {
        1.0
    } else {
        -1.0
    };
    Vec2::new(x, y).normalize()
}

/// What a two-ball family draws, each uniformly in its range.
struct Ranges {
    /// Object ball's direction from the pocket, off the pocket's axis (deg, +-); unused for
    /// banks, whose object ball is anywhere the bank fits.
    spread_deg: f64,
    /// Object ball's distance from the pocket's center (m).
    object: (f64, f64),
    /// Cut angle (deg), on either side.
    cut_deg: (f64, f64),
    /// Cue ball's distance behind the ghost ball (m).
    cue: (f64, f64),
    /// Stick speed V0 (m/s).
    v0: (f64, f64),
    /// Largest side (a) and vertical (b) tip offset, in ball radii.
    offset: (f64, f64),
}

impl FamilyKind {
    /// The ranges of a two-ball kind (`None` for breaks).
    fn ranges(self) -> Option<Ranges> {
        let cut = Ranges {
            spread_deg: 35.0,
            object: (0.15, 1.0),
            cut_deg: (0.0, 75.0),
            cue: (0.15, 0.9),
            v0: (1.0, 3.0),
            offset: (0.4, 0.5),
        };
        match self {
            // Center ball, the cue ball 5-15 cm behind: it is still sliding at impact, so
            // it follows a few centimetres at most and never near the pocket 0.3 m away.
            FamilyKind::Straight => Some(Ranges {
                spread_deg: 10.0,
                object: (0.3, 0.6),
                cut_deg: (0.0, 0.0),
                cue: (0.05, 0.15),
                v0: (1.0, 1.6),
                offset: (0.0, 0.0),
            }),
            FamilyKind::Cut => Some(cut),
            FamilyKind::ThinCut => Some(Ranges {
                cut_deg: (45.0, 75.0),
                ..cut
            }),
            FamilyKind::Bank => Some(Ranges {
                spread_deg: 0.0,
                object: (0.0, 0.0),
                cut_deg: (0.0, 35.0),
                cue: (0.15, 0.8),
                v0: (1.5, 4.0),
                offset: (0.3, 0.3),
            }),
            FamilyKind::Break9 | FamilyKind::Break15 => None,
        }
    }
}

/// One draw of a two-ball shot of `kind` on `base`'s table; `None` when it does not fit
/// (a ball off the cloth, in a cushion or a pocket, or the bank's rail point near a pocket).
fn aimed_shot(kind: FamilyKind, base: &Setup, rng: &mut SplitMix) -> Option<Aimed> {
    let table: &Table = &base.table;
    let radius = base.physics.params().radius;
    let g = kind.ranges()?;
    if table.pockets.is_empty() {
        return None;
    }
    let deg = PI / 180.0;
    let pocket = table.pockets[rng.index(table.pockets.len())].aim();
    // The object ball, and the point its center is sent at (the pocket, or its mirror image).
    let (object, target) = if kind != FamilyKind::Bank {
        let dir = turn(
            pocket_axis(table, pocket),
            rng.range(-g.spread_deg, g.spread_deg) * deg,
        );
        (pocket + dir * rng.range(g.object.0, g.object.1), pocket)
    } else {
        // Off the long rail across the table from the pocket: the ball's center meets the
        // rail's contact line at R from it, so the pocket's image in that line is aimed at.
        let line = if pocket.y > table.width / 2.0 {
            radius
        } else {
            table.width - radius
        };
        let object = Vec2::new(
            rng.range(radius, table.length - radius),
            rng.range(radius, table.width - radius),
        );
        let image = Vec2::new(pocket.x, 2.0 * line - pocket.y);
        let t = (object.y - line) / (object.y - image.y);
        let at_rail = object + (image - object) * t;
        // At most 60 degrees off the rail's normal.
        let steep = (image - object).normalize().y.abs() >= (60.0 * deg).cos();
        let clear_of_pockets = table
            .pockets
            .iter()
            .all(|k| (k.aim() - at_rail).norm() >= 0.15);
        let on_rail = at_rail.x > 0.0 && at_rail.x < table.length;
        if !((object.y - line).abs() >= 0.1 && steep && clear_of_pockets && on_rail) {
            return None;
        }
        (object, image)
    };
    let u = (target - object).normalize();
    let ghost = object - u * (2.0 * radius);
    let cut = rng.range(g.cut_deg.0, g.cut_deg.1);
    let sign = if rng.unit() < 0.5 { -1.0 } else { 1.0 };
    let aim = turn(u, sign * cut * deg);
    let cue_at = ghost - aim * rng.range(g.cue.0, g.cue.1);
    let v0 = rng.range(g.v0.0, g.v0.1);
    let a = rng.range(-g.offset.0, g.offset.0);
    let b = rng.range(-g.offset.1, g.offset.1);
    let object_ball = ball("1", object, Vec2::zeros(), Vec3::zeros(), radius);
    if !clear(table, &[], object, radius, 1e-3)
        || !clear(
            table,
            std::slice::from_ref(&object_ball),
            cue_at,
            radius,
            1e-3,
        )
    {
        return None;
    }
    Some(Aimed {
        balls: vec![
            ball("cue", cue_at, Vec2::zeros(), Vec3::zeros(), radius),
            object_ball,
        ],
        cue: Cue {
            v0,
            phi: aim.y.atan2(aim.x) / deg,
            theta: 0.0,
            a,
            b,
            specs: CueSpecs::default(),
        },
    })
}
