//! "Model or dt": a study judged against a stepped engine at a fine dt (`StudyOptions::reference`)
//! judges every run against that engine, its floor included, and nothing else changes: the
//! changed-outcome count of the euler scheme at 1e-2 s equals the count of shots where, played
//! apart, it differs from the same scheme at 1e-3 s; the event engine joins the engines (the
//! model's share); the dt ladder stops above the reference's dt; a stepped reference not finer than
//! its own series is refused.

use pool_engines::EngineSpec;
use pool_outcome::{
    family_shot, Agreement, FamilyKind, Field, GameOutcome, Margins, OutcomeShotRow, Perturbation,
    Racks, SearchOptions, StudyOption, StudyOptions, StudyPlan,
};
use pool_sim::DEFAULT_RACK;

fn racks(table: &str) -> Result<Racks, String> {
    Racks::on_table(table)
}

fn options(reference: &str, shots: u64) -> StudyOptions {
    StudyOptions {
        families: vec!["cut".into()],
        tables: vec!["seven_foot".into()],
        shots,
        seed: 7,
        dts: vec![1e-2],
        schemes: vec![pool_discrete::Scheme::Euler],
        engines: Vec::new(),
        reference: reference.parse().unwrap(),
        perturbation: Perturbation::default(),
        position_tol_m: 1e-2,
        max_events: 1_000_000,
        margins: Margins::default(),
        chaos_shots: 0,
        rack: DEFAULT_RACK,
        search: SearchOptions::default(),
        search_engines: true,
    }
}

#[test]
fn every_run_is_judged_against_the_stepped_reference_and_only_that_changes() {
    let shots = 24;
    let plan = StudyPlan::new(&options("discrete:1e-3:euler", shots), &racks).unwrap();
    let coarse = EngineSpec::discrete(1e-2, pool_discrete::Scheme::Euler).unwrap();
    assert_eq!(plan.engines, vec![coarse.clone(), EngineSpec::reference()]);
    // Rungs 1e-2 .. 2e-3: none at or below the reference's 1e-3 s.
    assert_eq!(plan.ladder.rungs(), &[1e-2, 5e-3, 2e-3]);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    let mut rows: Vec<OutcomeShotRow> = Vec::new();
    let mut sink = |r: &OutcomeShotRow| {
        rows.push(r.clone());
        Ok(())
    };
    plan.run(0, plan.total(), &pool, &mut sink, &|_| {})
        .unwrap();
    let reference_rows: Vec<&OutcomeShotRow> = rows
        .iter()
        .filter(|r| r.run == pool_outcome::Run::Reference)
        .collect();
    assert_eq!(reference_rows.len() as u64, shots);
    for r in rows
        .iter()
        .filter(|r| r.run == pool_outcome::Run::Reference || r.run == pool_outcome::Run::Floor)
    {
        assert_eq!(
            (r.engine.as_str(), r.scheme.as_str(), r.dt_s),
            ("discrete", "euler", Some(1e-3)),
            "{r:?}"
        );
    }
    // Played apart: the euler scheme at 1e-2 s against itself at 1e-3 s, shot by shot.
    let on_table = racks("seven_foot").unwrap();
    let fine = EngineSpec::discrete(1e-3, pool_discrete::Scheme::Euler)
        .unwrap()
        .build()
        .unwrap();
    let coarse_engine = coarse.build().unwrap();
    let event = EngineSpec::reference().build().unwrap();
    let (mut dt_changed, mut model_changed) = (0, 0);
    for k in 0..shots {
        let kind = FamilyKind::Cut;
        let setup = family_shot(
            kind,
            &on_table,
            &DEFAULT_RACK,
            kind.shot_seed("seven_foot", 7, k),
        )
        .unwrap();
        let game = |e: &dyn pool_sim::Engine| GameOutcome::of_family(kind, &setup, &e.run(&setup));
        let reference = game(fine.as_ref());
        let differs =
            |g: &GameOutcome| Agreement::between(&reference, g, 1e-2).disagrees(Field::Outcome);
        dt_changed += u64::from(differs(&game(coarse_engine.as_ref())));
        model_changed += u64::from(differs(&game(event.as_ref())));
    }
    let count = |spec: &EngineSpec| {
        rows.iter()
            .filter(|r| r.run == pool_outcome::Run::engine(spec) && r.index < shots)
            .filter(|r| r.changed_outcome())
            .count() as u64
    };
    assert_eq!(count(&coarse), dt_changed);
    assert_eq!(count(&EngineSpec::reference()), model_changed);
    // The negative control of the comparison above: the same shots judged against the event
    // engine give other counts (else the test could not tell the references apart).
    let against_event = StudyPlan::new(&options("event", shots), &racks).unwrap();
    let mut event_rows: Vec<OutcomeShotRow> = Vec::new();
    let mut sink = |r: &OutcomeShotRow| {
        event_rows.push(r.clone());
        Ok(())
    };
    against_event
        .run(0, against_event.total(), &pool, &mut sink, &|_| {})
        .unwrap();
    let event_count = event_rows
        .iter()
        .filter(|r| r.run == pool_outcome::Run::engine(&coarse) && r.changed_outcome())
        .count() as u64;
    // Both shares are seen on these shots (9 and 2 of 24), so the counts above are no 0 = 0.
    assert!(
        dt_changed > 0 && model_changed > 0,
        "{dt_changed} {model_changed}"
    );
    assert_ne!(event_count, dt_changed, "the two references judged alike");
}

#[test]
fn a_stepped_reference_not_finer_than_its_series_is_refused() {
    for (reference, why) in [
        ("discrete:1e-2:euler", "is not finer than"),
        ("discrete:2e-2:euler", "is not finer than"),
    ] {
        let e = StudyPlan::new(&options(reference, 4), &racks).unwrap_err();
        assert_eq!(e.option, StudyOption::Reference, "{reference}");
        assert!(e.message.contains(why), "{reference}: {}", e.message);
    }
    // Another scheme at a coarse dt is no series of the reference's: allowed.
    let mut o = options("discrete:2e-2:end_of_step", 4);
    o.dts = vec![1e-2];
    assert!(StudyPlan::new(&o, &racks).is_ok());
}
