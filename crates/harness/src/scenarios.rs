//! Seeded random variations of a shot, for evidence that needs many realistic runs.

use pool_physics::{BallState, MotionState, Physics, Vec3};
use pool_sim::Setup;

/// A small deterministic generator (splitmix64): the same seed gives the same shots everywhere.
#[derive(Clone, Debug)]
pub struct SplitMix(u64);

impl SplitMix {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        SplitMix(seed)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// A random break from a racked shot: the first ball (the cue ball) is struck at 0.5-12 m/s
/// toward the nearest other ball, off by up to +-0.15 rad, with random spin up to one rolling
/// spin (|v| / R) on each axis. Other balls keep their places. Deterministic in `seed`.
pub fn random_break(rack: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed ^ 0xB4EA_4B4E_A4B4_EA4B);
    let mut s = rack.clone();
    s.name = format!("{}_random_{seed}", rack.name);
    let radius = s.physics.radius();
    let Some(cue) = s.balls.first().map(|b| b.state) else {
        return s;
    };
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
    s.balls[0].state = BallState::new(cue.r, v, w, radius);
    s
}
