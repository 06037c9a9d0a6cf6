//! The event engine on the stress command's near-grazes (`pool_harness::graze_shot`): a ball
//! whose straight path passes another at 2R(1 + eps) never touches it on that pass, and one
//! passing at 2R(1 - eps) does, at least when the overlap it would otherwise reach, 2R eps, is
//! beyond the contact tolerance.

use std::path::Path;

use pool_event::EventEngine;
use pool_harness::{graze_shot, CONTACT_TOL_M};
use pool_physics::EventKind;
use pool_sim::Engine;

#[test]
fn grazes_collide_exactly_when_the_path_passes_closer_than_two_radii() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let base = pool_shots::load(&dir.join("break_9ball.toml")).expect("rack loads");
    let (mut hits, mut misses) = (0, 0);
    for seed in 0..400 {
        let s = graze_shot(&base, seed);
        let o = EventEngine::default().run(&s);
        // The first pass: events before the first cushion or pocket.
        let first_pass = o.events.iter().take_while(|e| {
            !matches!(e.kind, EventKind::BallLinearCushion | EventKind::BallPocket)
        });
        let touched = first_pass.clone().any(|e| e.kind == EventKind::BallBall);
        let eps: f64 = {
            let k: i32 = s.name.split('_').nth(2).unwrap()[1..].parse().unwrap();
            10f64.powi(k)
        };
        if s.name.starts_with("graze_miss_") {
            misses += 1;
            assert!(!touched, "{}: a miss collided", s.name);
        } else if 2.0 * 0.028575 * eps > CONTACT_TOL_M {
            hits += 1;
            assert!(touched, "{}: a hit went through", s.name);
        }
    }
    assert!(
        hits > 80 && misses > 150,
        "{hits} hits, {misses} misses checked"
    );
}
