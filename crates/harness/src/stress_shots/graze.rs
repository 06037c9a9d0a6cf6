//! Grazes: a ball passing another at a center distance of 2R(1 +- eps).

use std::f64::consts::TAU;

use pool_physics::{Vec2, Vec3};
use pool_sim::Setup;

use super::{ball, clear, random_spot, stress_scatter, with_balls};
use crate::SplitMix;

/// Range of a graze shot's relative miss distance eps (log-uniform).
pub const GRAZE_EPS: (f64, f64) = (1e-12, 1e-3);

/// `graze_<hit|miss>_e<k>_<seed>`: a ball whose straight path passes a ball at rest at a
/// center distance of 2R(1 - eps) (`hit`: a contact barely overlapping) or 2R(1 + eps)
/// (`miss`: no contact), eps log-uniform in [`GRAZE_EPS`] and 10^k <= eps < 10^(k+1).
///
/// The object ball stands at least 0.1 m clear of the cushions; the moving ball starts
/// 0.1-0.8 m before the point of closest approach, passing on either side, at 1-8 m/s with
/// spin that keeps its path straight: top or back spin about the axis perpendicular to its
/// velocity (from a stun to a natural roll) and any side spin.
pub fn graze_shot(base: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed ^ 0x6772_617A_655F_6E65);
    let radius = base.physics.params().radius;
    let table = &base.table;
    let eps = rng.log_uniform(GRAZE_EPS.0, GRAZE_EPS.1);
    let hit = rng.unit() < 0.5;
    let sign = if hit { -1.0 } else { 1.0 };
    let miss = 2.0 * radius * (1.0 + sign * eps);
    for _ in 0..1000 {
        let Some(a) = random_spot(&mut rng, table, radius, 0.1) else {
            continue;
        };
        let phi = rng.range(0.0, TAU);
        let u = Vec2::new(phi.cos(), phi.sin());
        let side = if rng.unit() < 0.5 { 1.0 } else { -1.0 };
        let perp = Vec2::new(-u.y, u.x) * side;
        let start = a - u * rng.range(0.1, 0.8) + perp * miss;
        let object = ball("1", a, Vec2::zeros(), Vec3::zeros(), radius);
        if !clear(table, std::slice::from_ref(&object), start, radius, 1e-6) {
            continue;
        }
        let speed = rng.range(1.0, 8.0);
        let v = u * speed;
        // w_h along z x u makes the contact velocity parallel to v: friction keeps the line.
        let roll = rng.range(0.0, 1.0) * speed / radius;
        let w = Vec3::new(
            -u.y * roll,
            u.x * roll,
            rng.range(-1.0, 1.0) * speed / radius,
        );
        let decade = eps.log10().floor() as i32;
        let word = if hit { "hit" } else { "miss" };
        return with_balls(
            base,
            format!("graze_{word}_e{decade}_{seed}"),
            vec![ball("cue", start, v, w, radius), object],
        );
    }
    stress_scatter(base, seed)
}
