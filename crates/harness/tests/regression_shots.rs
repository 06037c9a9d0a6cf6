//! Shots that once broke an event-engine invariant (found by `cargo xtask stress`), kept in
//! `data/shots/regressions/`: each must now keep every invariant and end at rest within the
//! event budget.

use std::path::Path;

use pool_harness::{check_outcome, run_reference, violations};
use pool_sim::Termination;

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
        let r = run_reference(&setup, "isolator").unwrap();
        let o = &r.outcome;
        let rep = check_outcome(&setup, o, 4);
        let broken = violations(o, Some(&rep));
        assert!(broken.is_empty(), "{}: {broken:?} ({rep:?})", f.display());
        assert_eq!(o.termination, Termination::AtRest, "{}", f.display());
    }
}
