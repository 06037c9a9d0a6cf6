//! Snooker on pooltool's snooker table (`pooltool_snooker`, 12 ft, narrow pockets), scored
//! as pooltool's `ruleset/snooker` scores a shot with reds on (`core.py`, `is_legal`): a foul
//! when the cue ball ("white") is potted, when it touches no ball or a colour first, or when a
//! colour is potted (WPBSA Rules, Section 3.12).
//!
//! Two families: the break (the cue ball anywhere in the D into the 15 reds racked behind the
//! pink, pooltool's `get_rack` of `GameType.SNOOKER`, `data/shots/games/snooker_rack.toml`:
//! 22 balls, the densest cluster of any game) and the pot (a red cut at a pocket among the
//! six colours on their spots).

use std::f64::consts::PI;

use pool_physics::resolve::{Cue, CueSpecs};
use pool_physics::Vec2;
use pool_sim::{RackModel, Setup, Strike};

use super::pool::aimed_among;
use super::rules::{home_rack, Game, Racks};
use crate::game::family::FamilyKind;
use crate::game::outcome::ScoreEntry;
use crate::game::outcome::{Fate, GameOutcome};
use crate::game::statistic::{unit, Reading, Statistic, CUE_X, CUE_Y};
use crate::stats::levels::Scale;
use pool_harness::placement::clear;
use pool_sim::SplitMix;

/// The start of a frame, as a shot file: the rack named `snooker`.
const RACK: (&str, &str, &str) = (
    "snooker",
    "games/snooker_rack",
    include_str!("../../../../../data/shots/games/snooker_rack.toml"),
);

/// The table snooker is played on.
pub const TABLE: &str = "pooltool_snooker";

/// The cue ball's id (pooltool's rules find it by this name).
pub const CUE: &str = "white";

/// Snooker.
pub(crate) struct Snooker;

/// Whether ball id `id` is a red (`red_01` ... `red_15`).
fn is_red(id: &str) -> bool {
    id.starts_with("red")
}

/// Snooker's statistics, in table order.
const STATISTICS: [Statistic; 7] = [
    Statistic {
        name: "reds_potted",
        reading: Reading::Value(|s| s.score_number("reds")),
        scale: Scale::Balls,
        // The reds on the table: 15 on a break, 1 on a pot (the family's objects less the
        // six colours).
        bound: |b| (b.objects - 6.0).max(1.0),
    },
    Statistic {
        name: "colours_potted",
        reading: Reading::Value(|s| s.score_number("colours")),
        scale: Scale::Balls,
        bound: |_| 6.0,
    },
    Statistic {
        name: "foul",
        reading: Reading::Flag(|s| s.score("foul") == Some("1")),
        scale: Scale::Rate,
        bound: unit,
    },
    // A red potted without a foul: the break (or the pot) succeeded.
    Statistic {
        name: "success",
        reading: Reading::Flag(|s| {
            s.score_number("reds").is_some_and(|r| r > 0.0) && s.score("foul") == Some("0")
        }),
        scale: Scale::Rate,
        bound: unit,
    },
    // The first ball the cue ball touches: `red` (any of them), a colour's name, or `none`.
    Statistic {
        name: "first_contact",
        reading: Reading::Categories(|s| {
            vec![if is_red(&s.first_contact) {
                "red".to_string()
            } else {
                s.first_contact.clone()
            }]
        }),
        scale: Scale::Rate,
        // Any red, six colours, none.
        bound: |_| 8.0,
    },
    CUE_X,
    CUE_Y,
];

/// The index of ball `id` in `setup`.
fn index(setup: &Setup, id: &str) -> Result<usize, String> {
    setup
        .balls
        .iter()
        .position(|b| b.id == id)
        .ok_or_else(|| format!("the snooker rack has no ball {id:?}"))
}

/// The rack with its reds placed by `model` (seeded by `seed`; the colours stay on their
/// spots). The model sees the cue ball and the reds only, so its apex is the red nearest the
/// cue ball and its spacing the reds'. The pink is then kept clear of the apex red: moved
/// back along the table's axis to 1 µm from it when the apex's draw would touch it (the
/// spotted pink is 2R(1 + 1e-3) from the apex, closer than a jitter's reach).
fn racked(rack: &Setup, model: &RackModel, seed: u64) -> Result<Setup, String> {
    let reds: Vec<usize> = (0..rack.balls.len())
        .filter(|&i| is_red(&rack.balls[i].id))
        .collect();
    let mut sub = rack.clone();
    sub.balls = std::iter::once(rack.balls[0].clone())
        .chain(reds.iter().map(|&i| rack.balls[i].clone()))
        .collect();
    let placed = model.apply(&sub, seed)?;
    let mut s = rack.clone();
    for (k, &i) in reds.iter().enumerate() {
        s.balls[i] = placed.balls[k + 1].clone();
    }
    let pink = index(&s, "pink")?;
    let radius = s.physics.params().radius;
    for &i in &reds {
        let (p, r) = (s.balls[pink].state.r.xy(), s.balls[i].state.r.xy());
        let least = 2.0 * radius + 1e-6;
        if (p - r).norm() < least {
            // Back along x (toward the baulk) until the pair is `least` apart.
            let dy = p.y - r.y;
            s.balls[pink].state.r.x = r.x - (least * least - dy * dy).sqrt();
        }
    }
    s.validate()
        .map_err(|e| format!("rack {model}: the snooker rack: {e}"))?;
    Ok(s)
}

/// Whether the segment from `a` to `b` passes at least `gap` from `p`.
fn passes_clear(a: Vec2, b: Vec2, p: Vec2, gap: f64) -> bool {
    let d = b - a;
    let t = ((p - a).dot(&d) / d.norm_squared()).clamp(0.0, 1.0);
    (a + d * t - p).norm() >= gap
}

/// A break: the cue ball placed uniformly in the D (the half disc behind the baulk line
/// centred on the brown spot, through the yellow and green spots), 1 mm clear of the baulk
/// colours, struck at a red drawn uniformly among the 15, aimed up to 2R either side of its
/// centre (full to thin), stick speed V0 uniform in [3, 7] m/s, tip offsets a in [-0.5, 0.5]
/// R and b in [-0.3, 0.3] R. A draw whose line of aim passes within 2R + 1 mm of a colour
/// is drawn again (a player does not break through the blue or the pink), so the cue ball
/// meets a red first unless the reds send it on.
fn break_shot(racked: &Setup, rng: &mut SplitMix) -> Result<Setup, String> {
    let brown = racked.balls[index(racked, "brown")?].state.r.xy();
    let yellow = racked.balls[index(racked, "yellow")?].state.r.xy();
    let radius = racked.physics.params().radius;
    let d_radius = (yellow - brown).norm();
    let others: Vec<_> = racked.balls[1..].to_vec();
    let colours: Vec<Vec2> = racked
        .balls
        .iter()
        .filter(|b| b.id != CUE && !is_red(&b.id))
        .map(|b| b.state.r.xy())
        .collect();
    let reds: Vec<usize> = (0..racked.balls.len())
        .filter(|&i| is_red(&racked.balls[i].id))
        .collect();
    let (cue, aim) = (0..1000)
        .find_map(|_| {
            let r = d_radius * rng.unit().sqrt();
            let angle = PI / 2.0 + PI * rng.unit();
            let cue = brown + Vec2::new(angle.cos(), angle.sin()) * r;
            let target = racked.balls[reds[rng.index(reds.len())]].state.r.xy();
            let u = (target - cue).normalize();
            let aim = target + Vec2::new(-u.y, u.x) * (rng.range(-1.0, 1.0) * 2.0 * radius);
            let open = colours
                .iter()
                .all(|&c| passes_clear(cue, aim, c, 2.0 * radius + 1e-3));
            (open && clear(&racked.table, &others, cue, radius, 1e-3)).then_some((cue, aim))
        })
        .ok_or("snooker_break: no open stroke from the D in 1000 draws")?;
    let aim = aim - cue;
    let mut s = racked.clone();
    s.balls[0].state.r.x = cue.x;
    s.balls[0].state.r.y = cue.y;
    s.strike = Some(Strike {
        ball: 0,
        cue: Cue {
            v0: rng.range(3.0, 7.0),
            phi: aim.y.atan2(aim.x) * 180.0 / PI,
            theta: 0.0,
            a: rng.range(-0.5, 0.5),
            b: rng.range(-0.3, 0.3),
            specs: CueSpecs::default(),
        },
    });
    Ok(s)
}

/// A pot: the cue ball and `red_01` placed and struck as pool's cut shots are (the ghost
/// ball, cut angle 0-75 degrees, [`FamilyKind::Cut`]'s ranges), on the snooker table with
/// the six colours on their spots (both balls 1 mm clear of them).
fn pot_shot(rack: &Setup, rng: &mut SplitMix) -> Result<Setup, String> {
    let colours: Vec<_> = rack
        .balls
        .iter()
        .filter(|b| b.id != CUE && !is_red(&b.id))
        .cloned()
        .collect();
    let shot = (0..10_000)
        .find_map(|_| aimed_among(FamilyKind::Cut, rack, rng, &colours, [CUE, "red_01"]))
        .ok_or("snooker_pot: no placement fitted in 10000 draws")?;
    let mut s = rack.clone();
    s.balls = shot.balls.into_iter().chain(colours).collect();
    s.strike = Some(Strike {
        ball: 0,
        cue: shot.cue,
    });
    Ok(s)
}

impl Game for Snooker {
    fn name(&self) -> &'static str {
        "snooker"
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
        let start = racks.get("snooker")?;
        let mut rng = SplitMix::new(seed ^ 0x5A00_CE40_0000_0001);
        match kind {
            FamilyKind::SnookerBreak => break_shot(&racked(start, rack, seed)?, &mut rng),
            _ => pot_shot(start, &mut rng),
        }
    }

    /// A break under a drawing rack model: the same stroke into another draw of the reds
    /// (no two racks alike); otherwise the shot itself.
    fn floor_shot(
        &self,
        kind: FamilyKind,
        racks: &Racks,
        rack: &RackModel,
        seed: u64,
    ) -> Result<Setup, String> {
        let mut s = crate::game::families::family_shot(kind, racks, rack, seed)?;
        if let (FamilyKind::SnookerBreak, RackModel::Jittered { .. }) = (kind, rack) {
            let again = racked(
                racks.get("snooker")?,
                rack,
                seed ^ super::rules::REDRAW_SEED,
            )?;
            // The cue ball stays where the shot put it.
            s.balls = std::iter::once(s.balls[0].clone())
                .chain(again.balls.into_iter().skip(1))
                .collect();
            s.name = format!("{}_floor", s.name);
        }
        Ok(s)
    }

    fn balls(&self, kind: FamilyKind) -> f64 {
        match kind {
            FamilyKind::SnookerBreak => 22.0,
            _ => 8.0,
        }
    }

    fn score(&self, game: &GameOutcome, setup: &Setup) -> Vec<ScoreEntry> {
        let potted = |red: bool| {
            game.fates
                .iter()
                .enumerate()
                .filter(|&(i, f)| {
                    let id = &setup.balls[i].id;
                    matches!(f, Fate::Pocketed(_)) && id != CUE && is_red(id) == red
                })
                .count()
        };
        let (reds, colours) = (potted(true), potted(false));
        let first_red = game
            .first_contact
            .is_some_and(|(b, _)| is_red(&setup.balls[b].id));
        // pooltool's is_legal with reds on: cue ball potted, no ball hit, a colour hit
        // first, a colour potted (core.py, in that order; any of them is a foul).
        let foul = game.scratch() || !first_red || colours > 0;
        let entry = |name, value: usize| ScoreEntry {
            name,
            value: value.to_string(),
            decides: true,
        };
        vec![
            entry("reds", reds),
            entry("colours", colours),
            entry("foul", usize::from(foul)),
        ]
    }

    fn statistics(&self) -> &'static [Statistic] {
        &STATISTICS
    }
}
