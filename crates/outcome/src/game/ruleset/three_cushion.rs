//! Three-cushion billiards on pooltool's billiard table (`pooltool_billiard`, no pockets):
//! a point is scored when the cue ball contacts both object balls, with at least three
//! cushions before its first contact with the second (UMB rules; pooltool's
//! `ruleset/three_cushion.py`, `is_point`).
//!
//! Two families: shots from the start position (pooltool's `get_rack` of
//! `GameType.THREECUSHION`, `data/shots/games/three_cushion_rack.toml`) and shots from random
//! layouts, each a random stroke at an object ball ([`stroke`]). The order of cushion contacts
//! over long paths is what they test: where a fixed-step scheme's errors accumulate, and where
//! a cushion law's error shows.

use std::f64::consts::PI;

use pool_physics::resolve::{Cue, CueSpecs};
use pool_physics::{Vec2, Vec3};
use pool_sim::{RackModel, Setup, Strike};

use super::rules::{home_rack, Game, Racks};
use crate::game::family::FamilyKind;
use crate::game::outcome::ScoreEntry;
use crate::game::outcome::{CueContact, GameOutcome};
use crate::game::statistic::{unit, Reading, Statistic, CUE_X, CUE_Y, FIRST_CONTACT};
use crate::stats::levels::Scale;
use pool_harness::placement::{ball, clear};
use pool_sim::SplitMix;

/// The start position, as a shot file: the rack named `three_cushion`.
const RACK: (&str, &str, &str) = (
    "three_cushion",
    "games/three_cushion_rack",
    include_str!("../../../../../data/shots/games/three_cushion_rack.toml"),
);

/// The table three-cushion is played on.
pub const TABLE: &str = "pooltool_billiard";

/// Cushions the cue ball must touch before its first contact with the second object ball.
pub const CUSHIONS_FOR_A_POINT: usize = 3;

/// Three-cushion.
pub(crate) struct ThreeCushion;

/// The cue ball's cushions before its first contact with the second object ball, `None` when
/// it never touches a second object ball (pooltool's `is_point` counts every cushion event
/// of the cue ball before that contact, the first object ball's included).
pub fn cushions_before_second(contacts: &[CueContact]) -> Option<usize> {
    let mut first = None;
    let mut cushions = 0;
    for c in contacts {
        match *c {
            CueContact::Cushion => cushions += 1,
            CueContact::Ball(b) => match first {
                None => first = Some(b),
                Some(f) if f != b => return Some(cushions),
                Some(_) => {}
            },
        }
    }
    None
}

/// Three-cushion's statistics, in table order.
const STATISTICS: [Statistic; 5] = [
    Statistic {
        name: "point",
        reading: Reading::Flag(|s| s.score("point") == Some("1")),
        scale: Scale::Rate,
        bound: unit,
    },
    FIRST_CONTACT,
    // The distribution of cushions before the second contact (`none`: no second contact;
    // 5 or more as `5+`).
    Statistic {
        name: "cushions",
        reading: Reading::Categories(|s| {
            vec![match s.score_number("cushions") {
                None => "none".to_string(),
                Some(c) if c >= 5.0 => "5+".to_string(),
                Some(c) => format!("{c}"),
            }]
        }),
        scale: Scale::Rate,
        // 0 to 4, 5+, none.
        bound: |_| 7.0,
    },
    CUE_X,
    CUE_Y,
];

/// The start position with its balls spotted: under a drawing rack model (`jittered`), each
/// ball moved uniformly within half its scale (a ball is never spotted twice alike); under
/// the others as it is.
fn spotted(rack: &Setup, model: &RackModel, seed: u64) -> Result<Setup, String> {
    let mut s = rack.clone();
    if let RackModel::Jittered { scale_m } = *model {
        let mut rng = SplitMix::new(seed ^ 0x3C05_410A_0000_0003);
        for b in &mut s.balls {
            let d = RackModel::jitter_draw(&mut rng, scale_m);
            b.state.r.x += d.x;
            b.state.r.y += d.y;
        }
    }
    s.validate()
        .map_err(|e| format!("rack {model}: the three_cushion rack: {e}"))?;
    Ok(s)
}

/// A random stroke of the cue ball (ball 0) at object ball `target`, with running side: aimed
/// at a point a fraction f uniform in [-0.7, 0.7] of 2R to the side of the object ball's
/// center (full to three-quarter thin, either side), side offset a of the opposite sign with
/// |a| uniform in [0.1, 0.6] R (the spin that carries the cue ball around the table off the
/// first ball), vertical offset b uniform in [-0.2, 0.4] R, stick speed V0 uniform in [5, 9]
/// m/s. From the start position the reference scores with about 15 % of these strokes
/// (docs/outcomes.md); uniform f and a of either sign at V0 2-5.5 m/s scored 3 %.
pub fn stroke(setup: &Setup, target: usize, rng: &mut SplitMix) -> Strike {
    let cue = setup.balls[0].state.r.xy();
    let object = setup.balls[target].state.r.xy();
    let radius = setup.physics.params().radius;
    let u = (object - cue).normalize();
    let side = Vec2::new(-u.y, u.x);
    let f = rng.range(-0.7, 0.7);
    let aim = object + side * (f * 2.0 * radius) - cue;
    let a = -rng.range(0.1, 0.6).copysign(f);
    Strike {
        ball: 0,
        cue: Cue {
            v0: rng.range(5.0, 9.0),
            phi: aim.y.atan2(aim.x) * 180.0 / PI,
            theta: 0.0,
            a,
            b: rng.range(-0.2, 0.4),
            specs: CueSpecs::default(),
        },
    }
}

/// Three balls anywhere on the cloth, at least 0.1 m from the cushions and 0.15 m apart, with
/// the start position's ids and physics.
fn random_layout(rack: &Setup, rng: &mut SplitMix) -> Option<Setup> {
    let table = &rack.table;
    let radius = rack.physics.params().radius;
    let mut balls = Vec::new();
    for b in &rack.balls {
        let p = (0..1000).find_map(|_| {
            let p = Vec2::new(
                rng.range(0.1 + radius, table.length - 0.1 - radius),
                rng.range(0.1 + radius, table.width - 0.1 - radius),
            );
            clear(table, &balls, p, radius, 0.15 - 2.0 * radius).then_some(p)
        })?;
        balls.push(ball(&b.id, p, Vec2::zeros(), Vec3::zeros(), radius));
    }
    let mut s = rack.clone();
    s.balls = balls;
    Some(s)
}

impl Game for ThreeCushion {
    fn name(&self) -> &'static str {
        "three_cushion"
    }

    fn racks(&self, table: &str) -> Vec<(&'static str, Result<Setup, String>)> {
        home_rack(table, TABLE, RACK)
    }

    fn home_table(&self) -> Option<&'static str> {
        Some(TABLE)
    }

    fn shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String> {
        let start = racks.get("three_cushion")?;
        let mut rng = SplitMix::new(seed ^ 0x3C05_410A_0000_0001);
        let mut s = match kind {
            FamilyKind::ThreeCushion => spotted(start, rack, seed)?,
            _ => random_layout(start, &mut rng)
                .ok_or_else(|| format!("{}: no layout fitted in 1000 draws", kind.name()))?,
        };
        // From the start position the cue ball plays the red (UMB: the opening shot); from
        // a random layout either object ball.
        let target = match kind {
            FamilyKind::ThreeCushion => 2,
            _ => 1 + rng.index(2),
        };
        s.strike = Some(stroke(&s, target, &mut rng));
        Ok(s)
    }

    /// From the start position under a drawing rack model, the same stroke on another
    /// spotting of the balls; otherwise the shot itself.
    fn floor_shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String> {
        let mut s = crate::game::families::family_shot(kind, racks, rack, seed)?;
        if let (FamilyKind::ThreeCushion, RackModel::Jittered { .. }) = (kind, rack) {
            let again = spotted(
                racks.get("three_cushion")?,
                rack,
                seed ^ super::rules::REDRAW_SEED,
            )?;
            s.balls = again.balls;
            s.name = format!("{}_floor", s.name);
        }
        Ok(s)
    }

    fn balls(&self, _kind: FamilyKind) -> f64 {
        3.0
    }

    fn score(&self, game: &GameOutcome, _setup: &Setup) -> Vec<ScoreEntry> {
        let cushions = cushions_before_second(&game.cue_contacts);
        vec![
            ScoreEntry {
                name: "point",
                value: u8::from(cushions.is_some_and(|c| c >= CUSHIONS_FOR_A_POINT)).to_string(),
                decides: true,
            },
            ScoreEntry {
                name: "cushions",
                value: cushions.map_or_else(String::new, |c| c.to_string()),
                decides: false,
            },
        ]
    }

    fn statistics(&self) -> &'static [Statistic] {
        &STATISTICS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CueContact::{Ball, Cushion};

    #[test]
    fn cushions_are_counted_before_the_first_contact_with_the_second_ball() {
        // Three rails, the first object ball, then the second: 3 (a point).
        let c = [Cushion, Cushion, Cushion, Ball(1), Ball(2)];
        assert_eq!(cushions_before_second(&c), Some(3));
        // The first object ball first, then three rails, a second touch of it, the second.
        let c = [
            Ball(2),
            Cushion,
            Cushion,
            Ball(2),
            Cushion,
            Ball(1),
            Cushion,
        ];
        assert_eq!(cushions_before_second(&c), Some(3));
        // Two rails only.
        assert_eq!(
            cushions_before_second(&[Ball(1), Cushion, Cushion, Ball(2)]),
            Some(2)
        );
        // Never the second ball: no count, no point.
        assert_eq!(cushions_before_second(&[Ball(1), Cushion, Ball(1)]), None);
        assert_eq!(cushions_before_second(&[]), None);
    }
}
