//! Pool (eight ball, nine ball): straight shots and cut shots aimed at a pocket by the ghost
//! ball, bank shots off a long rail, and 9-ball and 15-ball breaks ([`pool_harness::random_break`]),
//! on any table with pockets; scored by the balls pocketed, their pockets, a scratch and the
//! first ball the cue ball touched.

use std::f64::consts::PI;

use pool_physics::resolve::{Cue, CueSpecs};
use pool_physics::{Table, Vec2, Vec3};
use pool_sim::{RackModel, Setup, Strike};

use super::rules::{parse_rack, Game, Racks};
use crate::game::family::FamilyKind;
use crate::game::outcome::GameOutcome;
use crate::game::outcome::ScoreEntry;
use crate::game::statistic::{unit, Reading, Statistic, CUE_X, CUE_Y, FIRST_CONTACT};
use crate::stats::levels::Scale;
use pool_harness::placement::{ball, clear, with_balls};
use pool_harness::random_break;
use pool_sim::SplitMix;

/// The 9-ball and 15-ball racks, as shot files (name in [`Racks`], file, text).
const RACKS: [(&str, &str, &str); 2] = [
    (
        "9ball",
        "break_9ball",
        include_str!("../../../../../data/shots/break_9ball.toml"),
    ),
    (
        "15ball",
        "break_15ball",
        include_str!("../../../../../data/shots/break_15ball.toml"),
    ),
];

/// The 9-ball and 15-ball racks under FastFiz's physics on its table: the `fastfiz` table's
/// racks (the table comes with its model).
const FASTFIZ_RACKS: [(&str, &str, &str); 2] = [
    (
        "9ball",
        "break_9ball_fastfiz",
        include_str!("../../../../../data/shots/break_9ball_fastfiz.toml"),
    ),
    (
        "15ball",
        "break_15ball_fastfiz",
        include_str!("../../../../../data/shots/break_15ball_fastfiz.toml"),
    ),
];

/// The 9-ball and the 15-ball rack on the built-in table `table`: on their own table
/// (`seven_foot`) or moved onto another ([`pool_harness::rack_on_table`]: the racks keep their places
/// relative to the foot spot); on the `fastfiz` table FastFiz's racks, under its physics
/// (`data/shots/break_*_fastfiz.toml`). `None` for an unknown table.
///
/// # Errors
/// Per rack: it does not fit the table (one line).
pub fn pool_racks(table: &str) -> Option<[(&'static str, Result<Setup, String>); 2]> {
    let t = Table::by_name(table)?;
    let files = if table == "fastfiz" {
        FASTFIZ_RACKS
    } else {
        RACKS
    };
    Some(files.map(|(name, file, text)| {
        let placed = parse_rack(file, text)
            .and_then(|r| pool_harness::rack_on_table(&r, &t).map_err(|e| format!("{file}: {e}")));
        (name, placed)
    }))
}

/// Pool: every table with pockets.
pub(crate) struct Pool;

/// Pool's statistics, in table order. A new statistic is one entry.
pub(crate) const STATISTICS: [Statistic; 7] = [
    Statistic {
        name: "balls_pocketed",
        reading: Reading::Value(|s| Some(f64::from(s.objects))),
        scale: Scale::Balls,
        bound: |b| b.objects,
    },
    Statistic {
        name: "scratch",
        reading: Reading::Flag(|s| s.scratch),
        scale: Scale::Rate,
        bound: unit,
    },
    Statistic {
        name: "success",
        reading: Reading::Flag(|s| s.success),
        scale: Scale::Rate,
        bound: unit,
    },
    Statistic {
        name: "pocket",
        reading: Reading::Categories(|s| s.pockets.clone()),
        scale: Scale::Rate,
        bound: |b| b.pockets,
    },
    FIRST_CONTACT,
    CUE_X,
    CUE_Y,
];

impl Game for Pool {
    fn name(&self) -> &'static str {
        "pool"
    }

    fn racks(&self, table: &str) -> Vec<(&'static str, Result<Setup, String>)> {
        pool_racks(table).map_or_else(Vec::new, Vec::from)
    }

    fn home_table(&self) -> Option<&'static str> {
        None
    }

    fn shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String> {
        match kind {
            FamilyKind::Break9 => Ok(random_break(&rack.apply(racks.get("9ball")?, seed)?, seed)),
            FamilyKind::Break15 => Ok(random_break(&rack.apply(racks.get("15ball")?, seed)?, seed)),
            _ => {
                let base = racks.get("9ball")?;
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
                Ok(s)
            }
        }
    }

    /// For a break whose rack model draws (`jittered`), the same strike on another draw of
    /// the rack (a rack is never racked twice alike: its own jitter is the physical
    /// uncertainty of a break); otherwise the shot itself.
    fn floor_shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String> {
        let rerack = |r: &Setup| -> Result<Setup, String> {
            let mut s = random_break(&rack.apply(r, seed ^ super::rules::REDRAW_SEED)?, seed);
            s.name = format!("{}_floor", s.name);
            Ok(s)
        };
        match (kind, rack) {
            (FamilyKind::Break9, RackModel::Jittered { .. }) => rerack(racks.get("9ball")?),
            (FamilyKind::Break15, RackModel::Jittered { .. }) => rerack(racks.get("15ball")?),
            _ => crate::game::families::family_shot(kind, racks, rack, seed),
        }
    }

    fn balls(&self, kind: FamilyKind) -> f64 {
        match kind {
            FamilyKind::Break9 => 10.0,
            FamilyKind::Break15 => 16.0,
            _ => 2.0,
        }
    }

    fn score(&self, _game: &GameOutcome, _setup: &Setup) -> Vec<ScoreEntry> {
        // Pool's rules read the common fields only (first contact, pocketed, scratch).
        Vec::new()
    }

    fn statistics(&self) -> &'static [Statistic] {
        &STATISTICS
    }
}

/// A drawn two-ball shot: the cue ball (first) and the object ball, and the stroke.
pub(super) struct Aimed {
    pub(super) balls: Vec<pool_sim::Ball>,
    pub(super) cue: Cue,
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

/// The ranges of a two-ball kind (`None` for breaks).
fn ranges(kind: FamilyKind) -> Option<Ranges> {
    let cut = Ranges {
        spread_deg: 35.0,
        object: (0.15, 1.0),
        cut_deg: (0.0, 75.0),
        cue: (0.15, 0.9),
        v0: (1.0, 3.0),
        offset: (0.4, 0.5),
    };
    match kind {
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
        _ => None,
    }
}

/// One draw of a two-ball shot of `kind` on `base`'s table; `None` when it does not fit
/// (a ball off the cloth, in a cushion or a pocket, or the bank's rail point near a pocket).
fn aimed_shot(kind: FamilyKind, base: &Setup, rng: &mut SplitMix) -> Option<Aimed> {
    aimed_among(kind, base, rng, &[], ["cue", "1"])
}

/// [`aimed_shot`] of the ranges of pool's `kind` on a table where `others` stand (the two
/// balls are placed 1 mm clear of them too), the cue ball and the object ball named `ids`.
pub(super) fn aimed_among(
    kind: FamilyKind,
    base: &Setup,
    rng: &mut SplitMix,
    others: &[pool_sim::Ball],
    ids: [&str; 2],
) -> Option<Aimed> {
    let table: &Table = &base.table;
    let radius = base.physics.params().radius;
    let g = ranges(kind)?;
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
    let object_ball = ball(ids[1], object, Vec2::zeros(), Vec3::zeros(), radius);
    if !clear(table, others, object, radius, 1e-3) {
        return None;
    }
    let mut placed = others.to_vec();
    placed.push(object_ball.clone());
    if !clear(table, &placed, cue_at, radius, 1e-3) {
        return None;
    }
    Some(Aimed {
        balls: vec![
            ball(ids[0], cue_at, Vec2::zeros(), Vec3::zeros(), radius),
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
