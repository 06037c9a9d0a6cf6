//! The decision rule keeps its error rate: the calibration of [`pool_outcome::calibration`]
//! (the study's own cells, in worlds where the truth of every claim is known) in a reduced run.
//! `cargo xtask calibrate` runs the full one and writes its table into docs/outcomes.md.
//!
//! Each single-cell check must stay at most its level; the ladder walk must keep the whole
//! answer's 5 %; its negative control (every rung at the whole 5 %) must exceed it, so that the
//! check can fail.

use pool_outcome::calibration::{calibration_table, Calibration};

#[test]
fn every_claim_keeps_its_level_and_the_negative_control_fails() {
    let run = Calibration {
        replications: std::env::var("CALIBRATION_REPLICATIONS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(150),
        max_shots: 3200,
        walks: std::env::var("CALIBRATION_WALKS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(150),
        seed: 7,
    };
    let checks = run.run(&|| {});
    println!("{}", calibration_table(&checks, &run));
    for c in &checks {
        assert!(c.holds(), "{c:?}");
    }
}
