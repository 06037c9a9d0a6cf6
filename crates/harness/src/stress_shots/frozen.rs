//! Frozen shots: balls touching at 2R or a hair more, one of them struck.

use std::f64::consts::{PI, TAU};

use pool_physics::{Vec2, Vec3};
use pool_sim::Setup;

use super::{ball, clear_of, random_spin, random_spot, stress_scatter, with_balls};
use crate::SplitMix;

/// How far apart (beyond 2R) a frozen shot's touching balls are, from the name's middle word:
/// `exact` 0, `ulp` 1-8 ulps of 1.0 (2.2e-16..1.8e-15 m, the rounding of a coordinate),
/// `gap` log-uniform in [`FROZEN_GAP_M`].
pub const FROZEN_GAP_M: (f64, f64) = (1e-12, 1e-9);

/// `frozen_<layout>_<gap>_<seed>`: touching balls, one of them struck.
///
/// Layouts: `pair` (two balls, the first anywhere at least 3R clear of the cushions), `cluster`
/// (3-7 balls from such a first one, each new one touching a random earlier one at a random
/// angle; touching a cushion is allowed), `rail` (a ball frozen
/// to a rail, its center exactly R from the face, and a ball touching it, along the rail in
/// half the shots, at a random angle on the playing side otherwise). Every touching pair is
/// 2R + delta apart, delta from the gap word ([`FROZEN_GAP_M`]); the touching balls are placed
/// in turn, so the ball last placed is 2R + delta from the one it was placed against, to the
/// rounding of its coordinates. The struck ball (`cue`, first in the list; the rail-frozen ball
/// in a third of the `rail` shots) moves at log-uniform 0.1-12 m/s, straight at a ball it
/// touches in half the shots and in a random direction otherwise, with a random spin.
pub fn frozen_shot(base: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed ^ 0x6672_6F7A_656E_5F62);
    let radius = base.physics.params().radius;
    let table = &base.table;
    let (gap_word, delta) = match rng.index(3) {
        0 => ("exact", 0.0),
        1 => ("ulp", (1 + rng.index(8)) as f64 * f64::EPSILON),
        _ => ("gap", rng.log_uniform(FROZEN_GAP_M.0, FROZEN_GAP_M.1)),
    };
    let layout = match rng.index(3) {
        0 => "pair",
        1 => "cluster",
        _ => "rail",
    };
    let d = 2.0 * radius + delta;
    for _ in 0..1000 {
        // Positions: `pts[0]` is struck unless said otherwise; `partner` is a ball it touches.
        let mut pts: Vec<Vec2> = Vec::new();
        let (mut struck, mut partner) = (0usize, 1usize);
        match layout {
            "pair" | "cluster" => {
                let Some(a) = random_spot(&mut rng, table, radius, 3.0 * radius) else {
                    continue;
                };
                pts.push(a);
                let n = if layout == "pair" {
                    2
                } else {
                    3 + rng.index(5)
                };
                let mut tries = 0;
                while pts.len() < n && tries < 500 {
                    tries += 1;
                    let parent = pts[rng.index(pts.len())];
                    let phi = rng.range(0.0, TAU);
                    let q = parent + Vec2::new(phi.cos(), phi.sin()) * d;
                    if clear_of(table, &pts, q, radius) {
                        pts.push(q);
                    }
                }
                if pts.len() < n {
                    continue;
                }
                // The struck ball: the last one placed, touching its parent.
                let last = pts.len() - 1;
                pts.swap(0, last);
                struck = 0;
                partner = (1..pts.len())
                    .find(|&k| (pts[k] - pts[0]).norm() <= d + 1e-12)
                    .unwrap_or(1);
            }
            _ => {
                let rails: Vec<usize> = (0..table.cushions.len())
                    .filter(|&k| table.cushions[k].length() >= 0.3)
                    .collect();
                if rails.is_empty() {
                    break;
                }
                let c = &table.cushions[rails[rng.index(rails.len())]];
                let t = (c.end() - c.start()) / c.length();
                let normal = c.inward_normal();
                let a = c.start() + t * (rng.range(0.15, 0.85) * c.length()) + normal * radius;
                let b = if rng.unit() < 0.5 {
                    let sign = if rng.unit() < 0.5 { 1.0 } else { -1.0 };
                    a + t * (sign * d)
                } else {
                    let alpha = rng.range(0.0, PI);
                    a + (t * alpha.cos() + normal * alpha.sin()) * d
                };
                if !clear_of(table, &[], a, radius) || !clear_of(table, &[a], b, radius) {
                    continue;
                }
                pts = vec![b, a];
                if rng.unit() < 1.0 / 3.0 {
                    (struck, partner) = (1, 0);
                }
            }
        }
        let speed = rng.log_uniform(0.1, 12.0);
        let dir = if rng.unit() < 0.5 {
            (pts[partner] - pts[struck]).normalize()
        } else {
            let phi = rng.range(0.0, TAU);
            Vec2::new(phi.cos(), phi.sin())
        };
        let w = random_spin(&mut rng, speed, radius);
        let mut balls = vec![ball("cue", pts[struck], dir * speed, w, radius)];
        for (k, p) in pts.iter().enumerate() {
            if k != struck {
                let id = balls.len().to_string();
                balls.push(ball(&id, *p, Vec2::zeros(), Vec3::zeros(), radius));
            }
        }
        return with_balls(base, format!("frozen_{layout}_{gap_word}_{seed}"), balls);
    }
    stress_scatter(base, seed)
}
