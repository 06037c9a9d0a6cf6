//! Ball paths for drawing, from a run's snapshots.

use pool_physics::{MotionState, Physics};
use pool_sim::{Outcome, Setup};

use crate::BallPath;

/// Every ball's center path from an outcome's snapshots. When `densify` is true (event engine:
/// snapshots only at events), each interval between snapshots is filled with points evolved
/// from the earlier snapshot with the same physics, every `max_step_s` seconds at most, so curved
/// (sliding) segments are drawn as curves.
pub fn ball_paths(
    setup: &Setup,
    outcome: &Outcome,
    densify: bool,
    max_step_s: f64,
) -> Vec<BallPath> {
    let physics = &setup.physics;
    setup
        .balls
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut points = Vec::new();
            let snaps = &outcome.snapshots;
            for (k, snap) in snaps.iter().enumerate() {
                let s = snap.states[i];
                if s.motion == MotionState::Pocketed {
                    break;
                }
                points.push((s.r.x, s.r.y));
                if densify {
                    if let Some(next) = snaps.get(k + 1) {
                        let span = next.time - snap.time;
                        if s.motion.is_translating() && span > 0.0 {
                            let pieces = ((span / max_step_s).ceil() as usize).clamp(1, 200);
                            for p in 1..pieces {
                                let r = physics.evolve(&s, span * p as f64 / pieces as f64).r;
                                points.push((r.x, r.y));
                            }
                        }
                    }
                }
            }
            let fin = outcome.final_states[i];
            if fin.motion != MotionState::Pocketed {
                points.push((fin.r.x, fin.r.y));
            }
            BallPath {
                id: b.id.clone(),
                points,
                pocketed: fin.motion == MotionState::Pocketed,
                radius: physics.radius(&b.state),
            }
        })
        .collect()
}
