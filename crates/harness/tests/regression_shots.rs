//! Shots that once broke an event-engine invariant (found by `cargo xtask stress`), kept in
//! `data/shots/regressions/`: each must now keep every invariant and end at rest within
//! [`MAX_EVENTS`], far below the engine's 100 000-event budget that several of them used to
//! exhaust in contact chatter.

use std::path::Path;

use pool_harness::{check_outcome, run_reference, violations};
use pool_sim::Termination;

/// The most events any regression shot may take: the worst of them takes about 27 000 (a
/// 15-ball rack pressed for a second; every press of a slop, about 1e-4 s, is an event).
const MAX_EVENTS: usize = 30_000;

#[test]
fn former_stress_failures_keep_every_invariant() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots/regressions");
    let files = pool_shots::list_shots(&dir).unwrap();
    assert!(
        files.len() >= 3,
        "expected regression shots in {}",
        dir.display()
    );
    for f in files {
        let setup = pool_shots::load(&f).unwrap();
        let r = run_reference(&setup, &pool_engines::EngineSpec::reference()).unwrap();
        let o = &r.outcome;
        let rep = check_outcome(&setup, o, 4);
        let broken = violations(o, Some(&rep));
        assert!(broken.is_empty(), "{}: {broken:?} ({rep:?})", f.display());
        assert_eq!(o.termination, Termination::AtRest, "{}", f.display());
        assert!(
            o.events.len() <= MAX_EVENTS,
            "{}: {} events",
            f.display(),
            o.events.len()
        );
    }
}
