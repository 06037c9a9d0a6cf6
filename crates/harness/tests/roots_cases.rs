//! The default root finder against the committed reference cases (`data/roots/cases.csv`,
//! exact answers computed with mpmath): zero wrong earliest roots on well-posed cases, and a
//! median relative error at the level of f64 rounding.

use std::path::Path;

use pool_harness::{answer_all, judge, parse_root_cases, RootVerdict};
use pool_roots::{Alg1010, Companion, Ferrari, Isolator, RootSolver};

fn cases() -> Vec<pool_harness::RootCase> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/roots/cases.csv");
    parse_root_cases(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn default_backend_has_no_wrong_earliest_root_on_well_posed_cases() {
    let cases = cases();
    assert!(cases.len() >= 2000, "{} cases", cases.len());
    let answers = answer_all(&Isolator::default(), &cases);
    let wrong: Vec<String> = cases
        .iter()
        .zip(&answers)
        .filter(|(k, a)| k.well_posed && a.verdict != RootVerdict::Right)
        .map(|(k, a)| {
            format!(
                "{} #{}: reference {:?}, got {:?}",
                k.family, k.id, k.entry, a.got
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    let mut errs: Vec<f64> = cases
        .iter()
        .zip(&answers)
        .filter(|(k, _)| k.well_posed)
        .filter_map(|(_, a)| a.rel_error)
        .collect();
    errs.sort_by(f64::total_cmp);
    let median = errs[errs.len() / 2];
    assert!(median <= 1e-14, "median relative error {median:e}");
}

#[test]
fn the_evidence_discriminates_between_backends() {
    // If every backend were perfect, the cases would prove nothing: the closed forms and the
    // companion matrix must stumble somewhere (tiny leading coefficients, near-double roots).
    let cases = cases();
    for s in [&Ferrari as &dyn RootSolver, &Alg1010, &Companion] {
        let wrong = answer_all(s, &cases)
            .iter()
            .filter(|a| a.verdict != RootVerdict::Right)
            .count();
        println!("{}: {wrong} wrong of {}", s.name(), cases.len());
    }
    let ferrari_wrong = answer_all(&Ferrari, &cases)
        .iter()
        .zip(&cases)
        .filter(|(a, k)| k.well_posed && a.verdict != RootVerdict::Right)
        .count();
    assert!(ferrari_wrong > 0);
}

#[test]
fn verdicts() {
    assert_eq!(
        judge(Some(1.0), Some(1.0 + 1e-10)).verdict,
        RootVerdict::Right
    );
    assert_eq!(
        judge(Some(1.0), Some(1.0 + 1e-8)).verdict,
        RootVerdict::Late
    );
    assert_eq!(judge(Some(1.0), Some(0.5)).verdict, RootVerdict::Early);
    assert_eq!(judge(Some(1.0), None).verdict, RootVerdict::Missing);
    assert_eq!(judge(None, Some(2.0)).verdict, RootVerdict::Early);
    assert_eq!(judge(None, None).verdict, RootVerdict::Right);
    assert_eq!(judge(Some(0.0), Some(0.0)).verdict, RootVerdict::Right);
}
