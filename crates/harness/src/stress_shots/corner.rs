//! Corner shots: a ball sent at a pocket or a jaw point.

use std::f64::consts::TAU;

use pool_physics::{Vec2, Vec3};
use pool_sim::Setup;

use super::{ball, clear, random_spin, stress_scatter, with_balls};
use crate::SplitMix;

/// Largest lateral offset of a corner shot's line from a jaw point, in ball radii.
pub const CORNER_JAW_OFFSET_R: f64 = 2.0;

/// `corner_pocket_<seed>` or `corner_jaw_<seed>`: a ball sent at a pocket, at a cushion end
/// point a ball can touch ([`pool_physics::Table::exposed_points`]: the jaw tips and the jaws'
/// far ends) or at a circular cushion (a rounded jaw tip).
///
/// Half the shots aim at a pocket center, with the line of the ball's center offset sideways
/// by up to the pocket radius + R; half at an end point or a circular cushion's center, offset
/// by up to [`CORNER_JAW_OFFSET_R`] R, plus the circle's radius (within R, or R + r, the ball
/// hits the point or the circle itself). The ball starts
/// 0.05-1.2 m before the target, from any direction that puts it on the table at least 1 µm
/// clear of everything; speed log-uniform in 0.2-12 m/s, random spin. In a third of the shots
/// the ball on that line is an object ball at rest and the cue ball, 1 mm-0.3 m behind it on
/// the same line, is the one moving (a straight shot into the corner).
pub fn corner_shot(base: &Setup, seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed ^ 0x636F_726E_6572_5F6A);
    let radius = base.physics.params().radius;
    let table = &base.table;
    let reach = CORNER_JAW_OFFSET_R * radius;
    let jaws: Vec<(Vec2, f64)> = (table.exposed_points().into_iter())
        .map(|(p, _)| (p, reach))
        .chain((table.circular_cushions.iter()).map(|a| (a.center_vec(), a.radius + reach)))
        .collect();
    for _ in 0..10_000 {
        let at_pocket = jaws.is_empty() || (!table.pockets.is_empty() && rng.unit() < 0.5);
        let (target, max_offset, what) = if at_pocket {
            if table.pockets.is_empty() {
                break;
            }
            let k = &table.pockets[rng.index(table.pockets.len())];
            (k.center_vec(), k.radius + radius, "pocket")
        } else {
            let (p, offset) = jaws[rng.index(jaws.len())];
            (p, offset, "jaw")
        };
        let phi = rng.range(0.0, TAU);
        let u = Vec2::new(phi.cos(), phi.sin());
        let side = Vec2::new(-u.y, u.x);
        let offset = rng.range(-max_offset, max_offset);
        let d = rng.range(0.05, 1.2);
        let start = target - u * d + side * offset;
        if !clear(table, &[], start, radius, 1e-6) {
            continue;
        }
        let speed = rng.log_uniform(0.2, 12.0);
        let w = random_spin(&mut rng, speed, radius);
        let balls = if rng.unit() < 1.0 / 3.0 {
            let behind = start - u * (2.0 * radius + rng.range(1e-3, 0.3));
            let object = ball("1", start, Vec2::zeros(), Vec3::zeros(), radius);
            if !clear(table, std::slice::from_ref(&object), behind, radius, 1e-6) {
                continue;
            }
            vec![ball("cue", behind, u * speed, w, radius), object]
        } else {
            vec![ball("cue", start, u * speed, w, radius)]
        };
        return with_balls(base, format!("corner_{what}_{seed}"), balls);
    }
    stress_scatter(base, seed)
}
