//! Every default shot through the event engine: contact residuals below 1e-9 m at every
//! collision, no ball overlapping another or a cushion, none off the table, energy never rising,
//! times non-decreasing, and every pool shot ending at rest.

use std::path::Path;

use pool_harness::{check_outcome, run_reference};
use pool_sim::Termination;

#[test]
fn default_shots_keep_every_event_engine_invariant() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let files = pool_shots::list_shots(&dir).unwrap();
    assert!(
        files.len() >= 10,
        "expected the default shots in {}",
        dir.display()
    );
    for f in files {
        let setup = pool_shots::load(&f).unwrap();
        let r = run_reference(&setup, &pool_engines::EngineSpec::reference()).unwrap();
        let o = &r.outcome;
        let rep = check_outcome(&setup, o, 20);
        let name = &setup.name;
        assert!(rep.max_ball_ball_residual_m < 1e-9, "{name}: {rep:?}");
        assert!(rep.max_cushion_residual_m < 1e-9, "{name}: {rep:?}");
        assert!(rep.max_overlap_m < 1e-9, "{name}: {rep:?}");
        assert!(rep.max_cushion_penetration_m < 1e-9, "{name}: {rep:?}");
        assert!(rep.off_table.is_empty(), "{name}: {rep:?}");
        if setup.physics.preset_name() == Some("fastfiz") {
            // FastFiz's ball-ball law can add energy (its friction impulse scales with the
            // shooter's own speed along the line of centers, not the approach speed, and a
            // moving target makes both balls roll; docs/fastfiz.md). Under FastFiz's motion,
            // rails and strike with an elastic ball-ball law, no energy rises: the rises are
            // that law's.
            let mut corrected = setup.clone();
            let mut resolver = corrected.physics.resolver().clone();
            let spec = pool_physics::resolve::LawSpec::named("frictionless_elastic");
            resolver.set("ball_ball", &spec).unwrap();
            corrected.physics =
                pool_physics::Model::new(*setup.physics.params(), setup.physics.motion(), resolver);
            let run = run_reference(&corrected, &pool_engines::EngineSpec::reference()).unwrap();
            let fixed = check_outcome(&corrected, &run.outcome, 20);
            eprintln!(
                "{name}: {} energy rises under FastFiz's ball-ball law, {} with frictionless_elastic",
                rep.energy_rises, fixed.energy_rises
            );
            assert_eq!(fixed.energy_rises, 0, "{name} corrected: {fixed:?}");
        } else {
            assert_eq!(rep.energy_rises, 0, "{name}: {rep:?}");
        }
        assert_eq!(rep.time_reversals, 0, "{name}");
        let expected = if setup.t_end.is_some() {
            Termination::TimeLimit
        } else {
            Termination::AtRest
        };
        assert!(
            o.termination == expected || o.termination == Termination::AtRest,
            "{name}: ended {:?}",
            o.termination
        );
        assert!(!o.events.is_empty(), "{name}: no events");
    }
}
