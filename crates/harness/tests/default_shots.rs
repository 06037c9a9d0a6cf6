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
        assert_eq!(rep.energy_rises, 0, "{name}: {rep:?}");
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
