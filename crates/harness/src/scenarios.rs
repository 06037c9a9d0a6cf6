//! Seeded random variations of a shot, for evidence that needs many realistic runs: random
//! breaks ([`random_break`]) and random scatters of balls ([`scatter`], used by the stress
//! command, the scaling study and the discrete broad-phase tests).

use pool_physics::{BallState, MotionState, Physics, Table, Vec2, Vec3};
use pool_sim::{Ball, Setup};

pub use pool_sim::SplitMix;

/// A random break from a racked shot: the first ball (the cue ball) is struck at 0.5-12 m/s
/// toward the nearest other ball, off by up to +-0.15 rad, with random spin up to one rolling
/// spin (|v| / R) on each axis. Other balls keep their places. Deterministic in `seed`.
///
/// A rack that starts with a cue strike (FastFiz's, under its physics) is broken by a strike
/// instead, so that its physics' cue makes the ball's velocity and spin: the same speed and
/// aim as a stroke's V0 and phi, level, the tip's offsets a and b drawn in [-0.5, 0.5] ball
/// radii (the same draws, so the same seed aims the same way).
pub fn random_break(rack: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed ^ 0xB4EA_4B4E_A4B4_EA4B);
    let mut s = rack.clone();
    s.name = format!("{}_random_{seed}", rack.name);
    let Some(cue) = s.balls.first().map(|b| b.state) else {
        return s;
    };
    let radius = s.physics.radius(&cue);
    let target = s.balls[1..]
        .iter()
        .filter(|b| b.state.motion != MotionState::Pocketed)
        .map(|b| b.state.r)
        .min_by(|a, b| (a - cue.r).norm().total_cmp(&(b - cue.r).norm()))
        .unwrap_or(cue.r + Vec3::new(1.0, 0.0, 0.0));
    let speed = rng.range(0.5, 12.0);
    let angle = rng.range(-0.15, 0.15);
    let dir = (target - cue.r).xy().normalize();
    let (c, si) = (angle.cos(), angle.sin());
    let v = Vec3::new(c * dir.x - si * dir.y, si * dir.x + c * dir.y, 0.0) * speed;
    let spin = speed / radius;
    let w = Vec3::new(
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
        rng.range(-1.0, 1.0),
    ) * spin;
    if let Some(strike) = &mut s.strike {
        strike.cue.v0 = speed;
        strike.cue.phi = v.y.atan2(v.x).to_degrees();
        strike.cue.theta = 0.0;
        strike.cue.a = 0.5 * w.x / spin;
        strike.cue.b = 0.5 * w.y / spin;
        return s;
    }
    s.balls[0].state = BallState::new(cue.r, v, w, radius).with_set(cue.set);
    s
}

/// What [`scatter`] draws: how many balls, where, how far apart, how fast.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterSpec {
    /// Number of balls wanted (fewer if `max_tries` places run out).
    pub n: usize,
    /// Corners (low, high) of the box the centers are drawn from, uniformly; centers are then
    /// clamped to [R, length - R] x [R, width - R].
    pub region: (Vec2, Vec2),
    /// Least clearance (m) between two balls, between a ball and a cushion (face or end point),
    /// and between a center and a pocket's circle.
    pub min_gap: f64,
    /// Speeds (m/s) drawn uniformly in [low, high), in a uniformly random direction.
    pub speed: (f64, f64),
    /// Fraction of the balls left at rest without spin (0: every ball moves, and no draw is
    /// spent on the choice).
    pub rest_fraction: f64,
    /// Candidate places drawn before giving up.
    pub max_tries: usize,
}

impl ScatterSpec {
    /// `n` balls anywhere on `table` (radius `radius`), 1 µm apart at least, 0-6 m/s, all
    /// moving, 10 000 tries: the stress command's scatter.
    pub fn whole_table(table: &Table, radius: f64, n: usize) -> Self {
        ScatterSpec {
            n,
            region: (
                Vec2::new(radius, radius),
                Vec2::new(table.length - radius, table.width - radius),
            ),
            min_gap: 1e-6,
            speed: (0.0, 6.0),
            rest_fraction: 0.0,
            max_tries: 10_000,
        }
    }
}

/// Balls placed at random on `table` by rejection: each candidate center is drawn uniformly in
/// `spec.region` (then clamped onto the playing area), and kept if it is at least
/// `spec.min_gap` clear of every ball already placed, of every cushion face and end point, and
/// of every pocket's circle. Each kept ball draws, in this order, a speed in `spec.speed`, a
/// direction in [0, 2 pi), a spin with each component uniform in +-max(speed, 0.5 m/s) / R (up
/// to one rolling spin per axis), and, when `spec.rest_fraction > 0`, whether it stays at rest
/// (no velocity, no spin). Ids are `b01`, `b02`, ... in placement order. Deterministic in
/// `rng`'s state; every result passes [`Setup::validate`] (gaps are positive).
pub fn scatter(table: &Table, radius: f64, spec: &ScatterSpec, rng: &mut SplitMix) -> Vec<Ball> {
    let (lo, hi) = spec.region;
    let mut balls: Vec<Ball> = Vec::with_capacity(spec.n);
    let mut tries = 0;
    while balls.len() < spec.n && tries < spec.max_tries {
        tries += 1;
        let p = Vec2::new(
            rng.range(lo.x, hi.x).clamp(radius, table.length - radius),
            rng.range(lo.y, hi.y).clamp(radius, table.width - radius),
        );
        let clear = balls
            .iter()
            .all(|b| (b.state.r.xy() - p).norm() >= 2.0 * radius + spec.min_gap)
            && table.cushion_overlap(p, radius, -spec.min_gap).is_none()
            && table
                .pockets
                .iter()
                .all(|k| (p - k.center_vec()).norm() >= k.radius + spec.min_gap);
        if !clear {
            continue;
        }
        let speed = rng.range(spec.speed.0, spec.speed.1);
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let mut v = Vec3::new(angle.cos(), angle.sin(), 0.0) * speed;
        let spin = speed.max(0.5) / radius;
        let mut w = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ) * spin;
        if spec.rest_fraction > 0.0 && rng.unit() < spec.rest_fraction {
            v = Vec3::zeros();
            w = Vec3::zeros();
        }
        balls.push(Ball {
            id: format!("b{:02}", balls.len() + 1),
            state: BallState::new(Vec3::new(p.x, p.y, radius), v, w, radius),
        });
    }
    balls
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: f64 = 0.028575;

    #[test]
    fn scatter_keeps_its_gaps_region_and_speeds() {
        let table = Table::seven_foot();
        let spec = ScatterSpec {
            n: 30,
            region: (Vec2::new(0.2, 0.1), Vec2::new(1.0, 0.5)),
            min_gap: 1e-3,
            speed: (1.0, 2.0),
            rest_fraction: 0.5,
            max_tries: 100_000,
        };
        let mut at_rest = 0;
        for seed in 0..20 {
            let balls = scatter(&table, R, &spec, &mut SplitMix::new(seed));
            assert_eq!(balls.len(), 30);
            for (i, b) in balls.iter().enumerate() {
                let p = b.state.r.xy();
                assert!(
                    (0.2..1.0).contains(&p.x) && (0.1..0.5).contains(&p.y),
                    "{p}"
                );
                assert!(table.cushion_overlap(p, R + 1e-3, 0.0).is_none());
                for o in &balls[i + 1..] {
                    assert!((o.state.r.xy() - p).norm() >= 2.0 * R + 1e-3);
                }
                let speed = b.state.v.norm();
                if speed == 0.0 {
                    assert_eq!(b.state.w, Vec3::zeros());
                    at_rest += 1;
                } else {
                    assert!((1.0..2.0).contains(&speed), "{speed}");
                    assert!(b.state.w.iter().all(|w| w.abs() <= speed / R));
                }
            }
            let again = scatter(&table, R, &spec, &mut SplitMix::new(seed));
            assert_eq!(again, balls);
        }
        assert!((200..400).contains(&at_rest), "{at_rest} of 600 at rest");
    }

    #[test]
    fn scatter_clamps_to_the_cloth_and_stops_at_max_tries() {
        let table = Table::seven_foot();
        let mut spec = ScatterSpec::whole_table(&table, R, 500);
        spec.max_tries = 2_000;
        let balls = scatter(&table, R, &spec, &mut SplitMix::new(3));
        // 500 balls do not fit clear of one another on a 7-foot table with 2 000 tries.
        assert!(balls.len() > 50 && balls.len() < 500, "{}", balls.len());
        spec.region = (Vec2::new(-1.0, -1.0), Vec2::new(0.0, 0.0));
        spec.n = 3;
        // Every candidate clamps to (R, R), inside the corner pocket: none is kept.
        assert!(scatter(&table, R, &spec, &mut SplitMix::new(3)).is_empty());
    }

    #[test]
    fn index_and_log_uniform_cover_their_ranges_evenly() {
        let mut rng = SplitMix::new(11);
        let mut counts = [0usize; 5];
        let mut decades = [0usize; 4];
        for _ in 0..40_000 {
            counts[rng.index(5)] += 1;
            let x = rng.log_uniform(1e-12, 1e-8);
            assert!((1e-12..=1e-8).contains(&x));
            decades[((x.log10() + 12.0).floor() as usize).min(3)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (7_500..8_500).contains(&c)),
            "{counts:?}"
        );
        assert!(
            decades.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{decades:?}"
        );
        assert_eq!(rng.index(0), 0);
    }
}
