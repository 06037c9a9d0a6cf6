//! The stress command's shots: seeded random set-ups of seven kinds ([`ScenarioKind`]), each
//! aimed at a case that breaks engines: racks, scatters, balls running along a rail, balls sent
//! into the pocket jaws, frozen (touching) balls and near-grazes.
//!
//! Every generator is a pure function of a template set-up (whose physics and table it keeps)
//! and a seed, and every set-up it returns passes [`Setup::validate`]. Shot names start with
//! the kind ([`ScenarioKind::from_shot_name`] reads it back), so a failing shot's file name says
//! what it was.

use pool_physics::{BallState, Table, Vec2, Vec3};
use pool_sim::{Ball, Setup};

use crate::{random_break, scatter, RackModel, ScatterSpec, SplitMix};

mod corner;
mod frozen;
mod graze;
mod rail;
#[cfg(test)]
mod tests;

pub use corner::{corner_shot, CORNER_JAW_OFFSET_R};
pub use frozen::{frozen_shot, FROZEN_GAP_M};
pub use graze::{graze_shot, GRAZE_EPS};
pub use rail::{rail_shot, RAIL_MAX_ANGLE, RAIL_MAX_GAP};

/// What a stress shot is: which generator made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScenarioKind {
    /// A 9-ball rack broken by a random cue strike ([`random_break`]).
    Break9,
    /// A 15-ball rack broken by a random cue strike ([`random_break`]).
    Break15,
    /// 2-16 balls scattered with random velocities and spins ([`stress_scatter`]).
    Scatter,
    /// A ball running along a cushion, maybe toward balls frozen to it ([`rail_shot`]).
    Rail,
    /// A ball sent at a pocket or a cushion end point (jaw tip) ([`corner_shot`]).
    Corner,
    /// Touching balls, one of them struck ([`frozen_shot`]).
    Frozen,
    /// A ball passing another at a center distance of 2R(1 +- eps) ([`graze_shot`]).
    Graze,
}

impl ScenarioKind {
    /// Every kind, in the order of the stress mix: shot seed `s` is of kind `ALL[s % 7]`.
    pub const ALL: [ScenarioKind; 7] = [
        ScenarioKind::Break9,
        ScenarioKind::Break15,
        ScenarioKind::Scatter,
        ScenarioKind::Rail,
        ScenarioKind::Corner,
        ScenarioKind::Frozen,
        ScenarioKind::Graze,
    ];

    /// Short name used in summaries and CSV: `break9`, `break15`, `scatter`, `rail`, `corner`,
    /// `frozen`, `graze`.
    pub fn name(self) -> &'static str {
        match self {
            ScenarioKind::Break9 => "break9",
            ScenarioKind::Break15 => "break15",
            ScenarioKind::Scatter => "scatter",
            ScenarioKind::Rail => "rail",
            ScenarioKind::Corner => "corner",
            ScenarioKind::Frozen => "frozen",
            ScenarioKind::Graze => "graze",
        }
    }

    /// The kind of the stress shot with this seed (an equal share of each, in turn).
    pub fn of_seed(seed: u64) -> Self {
        Self::ALL[(seed % Self::ALL.len() as u64) as usize]
    }

    /// The kind a stress shot's name starts with (`break_9ball`, `break_15ball`, `scatter`,
    /// `rail`, `corner`, `frozen`, `graze`), `None` for any other name.
    pub fn from_shot_name(name: &str) -> Option<Self> {
        let prefixes = [
            ("break_9ball", ScenarioKind::Break9),
            ("break_15ball", ScenarioKind::Break15),
            ("scatter", ScenarioKind::Scatter),
            ("rail", ScenarioKind::Rail),
            ("corner", ScenarioKind::Corner),
            ("frozen", ScenarioKind::Frozen),
            ("graze", ScenarioKind::Graze),
        ];
        prefixes
            .iter()
            .find(|(p, _)| name.starts_with(p))
            .map(|&(_, k)| k)
    }
}

/// Stress shot number `seed`: its kind is [`ScenarioKind::of_seed`], generated from
/// `racks[0]` (the 9-ball rack, whose table and physics every other kind uses) or `racks[1]`
/// (the 15-ball rack). The breaks are made from the rack placed by `rack` with this seed
/// (`random_break(&rack.apply(..., seed)?, seed)`; [`RackModel::LEGACY`] keeps the racks as
/// they are, bit for bit); the other kinds place balls of their own and read only the 9-ball
/// rack's table and physics, so `rack` does not change them. Deterministic in `seed`.
///
/// # Errors
/// The rack model cannot place the rack ([`RackModel::apply`]: a rack pushed off the table),
/// as its one line.
///
/// # Panics
/// If `racks` is empty.
pub fn stress_shot(
    racks: &[Setup],
    rack: &RackModel,
    seed: u64,
) -> Result<(ScenarioKind, Setup), String> {
    let kind = ScenarioKind::of_seed(seed);
    let base = &racks[0];
    let s = match kind {
        ScenarioKind::Break9 => random_break(&rack.apply(base, seed)?, seed),
        ScenarioKind::Break15 => random_break(&rack.apply(&racks[1 % racks.len()], seed)?, seed),
        ScenarioKind::Scatter => stress_scatter(base, seed),
        ScenarioKind::Rail => rail_shot(base, seed),
        ScenarioKind::Corner => corner_shot(base, seed),
        ScenarioKind::Frozen => frozen_shot(base, seed),
        ScenarioKind::Graze => graze_shot(base, seed),
    };
    Ok((kind, s))
}

/// `rack` on `table`: the same balls, the first one (the cue ball) moved by (L' - L)/4 along
/// and (W' - W)/2 across, the others (the rack) by 3(L' - L)/4 and (W' - W)/2, so that a rack
/// on the foot spot (3L/4, W/2) with the cue ball at (L/4, ...) keeps those places on a table
/// of another size (on one of the same size, nothing moves).
///
/// # Errors
/// The moved set-up is not valid on `table` ([`Setup::validate`]): a ball off it or in a
/// cushion, a cushion height the laws cannot resolve.
pub fn rack_on_table(rack: &Setup, table: &Table) -> Result<Setup, pool_sim::SetupError> {
    let (dl, dw) = (
        table.length - rack.table.length,
        table.width - rack.table.width,
    );
    let mut s = rack.clone();
    s.table = table.clone().into();
    for (i, b) in s.balls.iter_mut().enumerate() {
        let along = if i == 0 { 0.25 } else { 0.75 };
        if dl != 0.0 || dw != 0.0 {
            b.state.r.x += along * dl;
            b.state.r.y += 0.5 * dw;
        }
    }
    s.validate()?;
    Ok(s)
}

/// `scatter_<seed>`: 2-16 balls anywhere on the template's table, at least 1 µm clear of one
/// another, the cushions and the pockets, each moving at 0-6 m/s with a random spin
/// ([`ScatterSpec::whole_table`]).
pub fn stress_scatter(base: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let radius = base.physics.params().radius;
    let n = 2 + (rng.unit() * 15.0) as usize;
    let spec = ScatterSpec::whole_table(&base.table, radius, n);
    let balls = scatter(&base.table, radius, &spec, &mut rng);
    with_balls(base, format!("scatter_{seed}"), balls)
}

/// The template with other balls and name.
pub fn with_balls(base: &Setup, name: String, balls: Vec<Ball>) -> Setup {
    Setup {
        name,
        physics: base.physics.clone(),
        table: base.table.clone(),
        balls,
        t_end: base.t_end,
        strike: None,
    }
}

/// A ball on the cloth at `p` (state inferred from v and w).
pub fn ball(id: &str, p: Vec2, v: Vec2, w: Vec3, radius: f64) -> Ball {
    Ball {
        id: id.to_string(),
        state: BallState::new(
            Vec3::new(p.x, p.y, radius),
            Vec3::new(v.x, v.y, 0.0),
            w,
            radius,
        ),
    }
}

/// Each component uniform in +-max(speed, 0.5 m/s) / R: up to one rolling spin per axis.
pub(super) fn random_spin(rng: &mut SplitMix, speed: f64, radius: f64) -> Vec3 {
    Vec3::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    ) * (speed.max(0.5) / radius)
}

/// Whether a ball centered at `p` is on the playing area, outside every pocket circle by
/// `gap`, clear of every cushion by `gap` and of every ball in `balls` by `gap` (a gap of 0
/// allows touching, to 1e-12 m for rounding).
pub fn clear(table: &Table, balls: &[Ball], p: Vec2, radius: f64, gap: f64) -> bool {
    let tol = if gap > 0.0 { -gap } else { 1e-12 };
    p.x > 0.0
        && p.y > 0.0
        && p.x < table.length
        && p.y < table.width
        && table.cushion_overlap(p, radius, tol).is_none()
        && table
            .pockets
            .iter()
            .all(|k| (p - k.center_vec()).norm() >= k.radius + gap.max(1e-6))
        && balls
            .iter()
            .all(|b| (b.state.r.xy() - p).norm() >= 2.0 * radius - tol)
}

/// [`clear`] with gap 0 against bare positions: touching allowed.
pub(super) fn clear_of(table: &Table, pts: &[Vec2], p: Vec2, radius: f64) -> bool {
    clear(table, &[], p, radius, 0.0) && pts.iter().all(|q| (q - p).norm() >= 2.0 * radius - 1e-12)
}

/// A uniformly random center at least `margin` clear of the cushions and pockets (100 tries).
pub(super) fn random_spot(
    rng: &mut SplitMix,
    table: &Table,
    radius: f64,
    margin: f64,
) -> Option<Vec2> {
    (0..100).find_map(|_| {
        let p = Vec2::new(
            rng.range(radius, table.length - radius),
            rng.range(radius, table.width - radius),
        );
        clear(table, &[], p, radius, margin).then_some(p)
    })
}
