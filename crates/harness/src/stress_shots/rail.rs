//! Rail shots: a ball running along a rail, sometimes toward balls frozen to it.

use std::f64::consts::PI;

use pool_physics::{Vec2, Vec3};
use pool_sim::Setup;

use super::{ball, clear, random_spin, stress_scatter, with_balls};
use crate::SplitMix;

/// Largest angle (rad) between a rail shot's velocity and its rail: 5 degrees.
pub const RAIL_MAX_ANGLE: f64 = 5.0 * PI / 180.0;

/// Largest gap (m) between a rail shot's moving ball and the cushion face: 3 mm.
pub const RAIL_MAX_GAP: f64 = 3e-3;

/// `rail_<k>ahead_<seed>`: a ball running along a straight cushion of at least 0.3 m (a rail).
///
/// The ball starts 10-45% of the rail's length from the end it leaves, its center R + gap from
/// the face, the gap 0 (frozen to the rail) in a third of the shots, else log-uniform in
/// 1e-9 m..[`RAIL_MAX_GAP`]. It moves at 0.5-12 m/s along the rail, angled into it by 0 (a
/// quarter of the shots) or up to [`RAIL_MAX_ANGLE`], with a random spin (each component up to
/// one rolling spin). k = 0, 1 or 2 balls ahead of it on the same rail are frozen to it (center
/// exactly R from the face): the first 4R-0.35 m ahead, the second touching the first (2R
/// apart) or up to 0.2 m beyond it.
pub fn rail_shot(base: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed ^ 0x7261_696C_5F73_686F);
    let radius = base.physics.params().radius;
    let table = &base.table;
    let mut rails: Vec<usize> = (0..table.cushions.len())
        .filter(|&k| table.cushions[k].length() >= 0.3)
        .collect();
    if rails.is_empty() {
        rails = (0..table.cushions.len()).collect();
    }
    for _ in 0..1000 {
        let c = &table.cushions[rails[rng.index(rails.len())]];
        let len = c.length();
        let normal = c.inward_normal();
        let forward = rng.unit() < 0.5;
        let (origin, dir) = if forward {
            (c.start(), (c.end() - c.start()) / len)
        } else {
            (c.end(), (c.start() - c.end()) / len)
        };
        let a0 = rng.range(0.1, 0.45) * len;
        let gap = if rng.unit() < 1.0 / 3.0 {
            0.0
        } else {
            rng.log_uniform(1e-9, RAIL_MAX_GAP)
        };
        let theta = if rng.unit() < 0.25 {
            0.0
        } else {
            rng.range(0.0, RAIL_MAX_ANGLE)
        };
        let speed = rng.range(0.5, 12.0);
        let p = origin + dir * a0 + normal * (radius + gap);
        let heading = dir * theta.cos() - normal * theta.sin();
        let w = random_spin(&mut rng, speed, radius);
        let mut balls = vec![ball("cue", p, heading * speed, w, radius)];
        let ahead = rng.index(3);
        let mut a = a0;
        for k in 0..ahead {
            a += if k == 0 {
                rng.range(4.0 * radius, 0.35)
            } else if rng.unit() < 0.5 {
                2.0 * radius
            } else {
                rng.range(2.0 * radius + 1e-3, 0.2)
            };
            let q = origin + dir * a + normal * radius;
            if !clear(table, &balls, q, radius, 0.0) {
                break;
            }
            balls.push(ball(
                &(k + 1).to_string(),
                q,
                Vec2::zeros(),
                Vec3::zeros(),
                radius,
            ));
        }
        if !clear(table, &balls[1..], p, radius, 0.0) {
            continue;
        }
        let n = balls.len() - 1;
        return with_balls(base, format!("rail_{n}ahead_{seed}"), balls);
    }
    stress_scatter(base, seed)
}
