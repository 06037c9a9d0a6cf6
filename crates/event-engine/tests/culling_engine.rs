//! The queue and culling change nothing: random breaks (cue speed, aim and spin drawn at random,
//! the 9-ball and 15-ball racks) give the same event log and final states, bit for bit, with
//! culling on and off. Culling off still runs the queue; the queue's order is the former full
//! scan's (time, kind, agents' ids), checked against the committed baselines by
//! `cargo xtask compare --check`.

use std::path::Path;

use pool_event::EventEngine;
use pool_physics::{BallState, Vec3};
use pool_sim::{Engine, Setup};
use proptest::prelude::*;

fn rack(name: &str) -> Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../data/shots/{name}.toml"));
    pool_shots::load(&path).expect("default shot loads")
}

fn with_cue(rack: &Setup, speed: f64, angle: f64, spin: [f64; 3]) -> Setup {
    let mut s = rack.clone();
    let radius = s.physics.params().radius;
    let cue = s.balls[0].state;
    let target = s.balls[1].state.r;
    let dir = (target - cue.r).xy().normalize();
    let (c, si) = (angle.cos(), angle.sin());
    let v = Vec3::new(c * dir.x - si * dir.y, si * dir.x + c * dir.y, 0.0) * speed;
    let w = Vec3::new(spin[0], spin[1], spin[2]) * (speed / radius);
    s.balls[0].state = BallState::new(cue.r, v, w, radius);
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn culling_keeps_every_event(
        fifteen in any::<bool>(),
        speed in 0.5f64..12.0,
        angle in -0.15f64..0.15,
        spin in prop::array::uniform3(-1.0f64..1.0),
    ) {
        let setup = with_cue(&rack(if fifteen { "break_15ball" } else { "break_9ball" }), speed, angle, spin);
        let mut on = EventEngine::default();
        on.max_events = 20_000;
        let mut off = EventEngine::default().with_culling(false);
        off.max_events = 20_000;
        let (a, b) = (on.run(&setup), off.run(&setup));
        prop_assert_eq!(a.events.len(), b.events.len());
        for (x, y) in a.events.iter().zip(&b.events) {
            prop_assert_eq!((x.time.to_bits(), x.kind, x.agents), (y.time.to_bits(), y.kind, y.agents));
        }
        prop_assert_eq!(a.final_states, b.final_states);
        prop_assert_eq!(a.termination, b.termination);
    }
}
