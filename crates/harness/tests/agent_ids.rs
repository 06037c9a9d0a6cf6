//! No log names two things by one id: an event's agents are its balls' ids, then the cushion's
//! or pocket's, and in no log does a ball share an id with a cushion, a circular cushion or a
//! pocket. Checked on every default and regression shot under every cloth preset, on random
//! 9-ball breaks on every built-in pocket table, and on a set-up that tries to name a ball as
//! pooltool names its cushions (refused).

use std::collections::HashSet;
use std::path::Path;

use pool_harness::{agents_label, rack_on_table, random_break};
use pool_physics::Table;
use pool_sim::{Agents, Setup};

/// The log of `setup` under the event engine: the ids its balls and its table elements go by
/// are disjoint sets. Returns the number of events.
fn check(setup: &Setup) -> usize {
    let out = pool_harness::run_reference(setup, &pool_engines::EngineSpec::reference())
        .unwrap()
        .outcome;
    let (mut balls, mut elements) = (HashSet::new(), HashSet::new());
    for e in &out.events {
        let label = agents_label(setup, &e.agents);
        let ids: Vec<&str> = label.split('|').collect();
        let n_balls = match e.agents {
            Agents::Ball { .. } => 1,
            Agents::BallBall { .. } => 2,
            _ => 1,
        };
        assert!(ids.len() >= n_balls, "{}: {label}", setup.name);
        balls.extend(ids[..n_balls].iter().map(|s| s.to_string()));
        elements.extend(ids[n_balls..].iter().map(|s| s.to_string()));
    }
    let shared: Vec<&String> = balls.intersection(&elements).collect();
    assert!(
        shared.is_empty(),
        "{}: ids both a ball's and a table element's: {shared:?}",
        setup.name
    );
    out.events.len()
}

#[test]
fn no_log_names_a_ball_and_a_cushion_or_pocket_alike() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let mut shots = pool_shots::list_shots(&root).unwrap();
    shots.extend(pool_shots::list_shots(&root.join("regressions")).unwrap());
    let (mut runs, mut events) = (0, 0);
    for f in &shots {
        let setup = pool_shots::load(f).unwrap();
        let cloth = setup.physics.motion().has_friction();
        let presets: &[&str] = if cloth {
            &["pool", "pooltool_default", "corrected", "mathavan"]
        } else {
            &["ideal"]
        };
        for preset in presets {
            let s = pool_harness::with_physics(&setup, preset).unwrap();
            events += check(&s);
            runs += 1;
        }
    }
    // Random breaks on every built-in pocket table: pooltool's name cushions "1".."18".
    let rack = pool_shots::load(&root.join("break_9ball.toml")).unwrap();
    for name in Table::BUILT_IN {
        let table = Table::by_name(name).unwrap();
        if table.pockets.is_empty() {
            continue;
        }
        let Ok(on) = rack_on_table(&rack, &table) else {
            continue;
        };
        for seed in 1..=20 {
            events += check(&random_break(&on, seed));
            runs += 1;
        }
    }
    eprintln!("{runs} runs, {events} events");
    assert!(runs > 100, "{runs} runs");
}

#[test]
fn a_ball_cannot_take_a_cushions_or_a_pockets_id() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let setup = pool_shots::load(&root.join("break_9ball_pooltool.toml")).unwrap();
    assert!(setup.balls.iter().any(|b| b.id == "9"));
    assert!(setup.table.cushions.iter().any(|c| c.id == "c9"));
    for taken in ["c9", "c5t", "lb"] {
        let mut s = setup.clone();
        s.balls[1].id = taken.into();
        let e = s.validate().unwrap_err();
        assert_eq!(e.field, "balls[1].id", "{e}");
        assert!(e.why.contains("has the same id"), "{e}");
    }
}
