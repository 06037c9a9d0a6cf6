//! The outcome study where the answer is known: on center-ball straight shots at a pocket
//! every engine decides the same game as the reference (100 %), while the end-of-step scheme
//! at dt = 1e-2 s changes thin cuts far beyond the chaos floor; and the pieces the study is
//! built of (game outcome, agreement, perturbation, families, tallies) on cases worked by hand.

use pool_engines::{EngineSpec, RunOptions};
use pool_outcome::{
    answers, family_shot, perturb, Agreement, AnswerClaim, FamilyKind, Fate, Field, FloorVerdict,
    GameOutcome, Ladder, Levels, Margins, OutcomeShotRow, OutcomeTally, Perturbation, Racks,
    SearchEnd, SearchOptions, StudyRules, StudyShot, Verdict, DEFAULT_DTS,
};
use pool_physics::{MotionState, Physics};
use pool_sim::DEFAULT_RACK;

/// The 9-ball and 15-ball racks on `table`.
fn racks(table: &str) -> Racks {
    Racks::on_table(table).unwrap()
}

/// `n` shots of (`kind`, `table`) through the reference, the floor and every engine of
/// `specs`, tallied.
fn study(
    kind: FamilyKind,
    table: &str,
    n: u64,
    specs: &[EngineSpec],
) -> (OutcomeTally, Vec<StudyShot>) {
    study_at(kind, table, n, specs, Levels::default())
}

/// [`study`] with the cells held to `levels`.
fn study_at(
    kind: FamilyKind,
    table: &str,
    n: u64,
    specs: &[EngineSpec],
    levels: Levels,
) -> (OutcomeTally, Vec<StudyShot>) {
    let racks = racks(table);
    let reference_spec = EngineSpec::reference();
    let reference = reference_spec.build().unwrap();
    let rules = StudyRules {
        seed: 1,
        perturbation: Perturbation::default(),
        position_tol_m: 1e-2,
        rack: DEFAULT_RACK,
        reference: (reference.as_ref(), &reference_spec),
    };
    let engines: Vec<_> = specs
        .iter()
        .map(|s| {
            s.build_with(&RunOptions {
                snapshots: None,
                max_events: Some(1_000_000),
                ..RunOptions::default()
            })
            .unwrap()
        })
        .collect();
    let mut tally = OutcomeTally::new(levels);
    let mut shots = Vec::new();
    for k in 0..n {
        let mut shot = StudyShot::play(kind, table, &racks, k, &rules).unwrap();
        for (spec, engine) in specs.iter().zip(&engines) {
            shot.add(spec, &engine.try_run(&shot.setup));
        }
        tally.add_shot(&shot.rows);
        shots.push(shot);
    }
    (tally, shots)
}

fn discrete(dt: f64, scheme: &str) -> EngineSpec {
    EngineSpec::discrete(dt, pool_discrete::Scheme::from_name(scheme).unwrap()).unwrap()
}

#[test]
fn every_engine_decides_straight_shots_as_the_reference_does() {
    let mut specs = Vec::new();
    for scheme in ["exact", "euler", "located", "substep8"] {
        for dt in [1e-2, 5e-3, 1e-3, 1e-4] {
            specs.push(discrete(dt, scheme));
        }
    }
    specs.push("rapier:1e-2".parse().unwrap());
    specs.push("rapier:1e-3".parse().unwrap());
    for table in ["seven_foot", "pooltool_pocket"] {
        let (tally, shots) = study(FamilyKind::Straight, table, 150, &specs);
        // The known answer: the object ball falls in the pocket it was aimed at, every time,
        // and the cue ball stays on the table.
        for s in &shots {
            let pocket = s.reference.pocket_of(1).expect("object ball pocketed");
            let aimed = s.setup.table.pockets[pocket].center_vec();
            let (o, c) = (s.setup.balls[1].state.r.xy(), s.setup.balls[0].state.r.xy());
            // The cue ball, the object ball and the pocket in line (to the 10-degree spread).
            let (to_ball, to_pocket) = ((o - c).normalize(), (aimed - o).normalize());
            assert!(
                to_ball.dot(&to_pocket) > 0.999,
                "{}: {to_ball} {to_pocket}",
                s.setup.name
            );
            assert!(!s.reference.scratch(), "{}", s.setup.name);
        }
        for row in tally.rows(&Margins::default()) {
            if row.field == Field::Outcome.name() {
                assert_eq!(row.n, 150);
                assert_eq!(
                    row.disagree, 0,
                    "{table}: {} {} dt {:?} changed a straight shot",
                    row.engine, row.scheme, row.dt_s
                );
            }
        }
    }
}

#[test]
fn end_of_step_at_1e_2_changes_thin_cuts_beyond_the_floor_and_located_does_not() {
    let specs = [discrete(1e-2, "exact"), discrete(1e-2, "located")];
    // Both schemes on the dt ladder, each rung at 5 % / 13. 2000 shots: enough for an engine
    // that never disagrees to be shown within the floor's half-point margin (a bounded mean
    // needs about ln(1 / alpha) / (c a) = 1500 shots of zeros).
    let ladder = Ladder::new(&DEFAULT_DTS, SearchOptions::default().limit_s);
    let levels = Levels {
        rungs: ladder.len(),
        laddered: vec![
            ("discrete".into(), "end_of_step".into()),
            ("discrete".into(), "located".into()),
        ],
        ..Levels::default()
    };
    let (tally, _) = study_at(
        FamilyKind::ThinCut,
        "seven_foot",
        2000,
        &specs,
        levels.clone(),
    );
    let margins = Margins::default();
    let rows = tally.rows(&margins);
    let outcome = |engine: &str, dt: Option<f64>| {
        rows.iter()
            .find(|r| r.field == "outcome" && r.scheme == engine && r.dt_s == dt)
            .unwrap()
            .clone()
    };
    let floor = rows
        .iter()
        .find(|r| r.field == "outcome" && r.engine == pool_outcome::FLOOR)
        .unwrap();
    let exact = outcome("end_of_step", Some(1e-2));
    // Measurably beyond the floor: the intervals do not overlap and the test says so.
    assert!(exact.ci_low > floor.ci_high, "{exact:?} vs {floor:?}");
    assert!(exact.p_value < 1e-6, "{exact:?}");
    assert_eq!(exact.floor_verdict, Some(FloorVerdict::Beyond), "{exact:?}");
    assert!(exact.diff_low > exact.margin, "{exact:?}");
    // The located scheme at the same step is within the floor.
    let located = outcome("located", Some(1e-2));
    assert_eq!(
        located.floor_verdict,
        Some(FloorVerdict::Within),
        "{located:?}"
    );
    assert!(located.diff_high <= located.margin, "{located:?}");
    assert!(located.rate <= floor.rate + 0.005, "{located:?}");
    // The answer: end_of_step changes the game at 1e-2 s, its keeps half not played (one look:
    // no search); located keeps it at 1e-2 s, the ladder's top rung.
    let verdicts = tally.distribution().evaluate(&margins, true, 1).1;
    let ans = answers(&rows, &verdicts, &ladder, &levels);
    let of = |scheme: &str| ans.iter().find(|a| a.scheme == scheme).unwrap();
    assert_eq!(
        of("end_of_step").keeps_dt_s,
        None,
        "{:?}",
        of("end_of_step")
    );
    assert_eq!(
        of("end_of_step").changes_dt_s,
        Some(1e-2),
        "{:?}",
        of("end_of_step")
    );
    assert_eq!(of("end_of_step").search, Some(SearchEnd::Partial));
    assert_eq!(of("end_of_step").claim, AnswerClaim::Changes);
    assert_eq!(of("end_of_step").headline(), "changes at ≥ 1e-2 s");
    assert_eq!(of("located").keeps_dt_s, Some(1e-2), "{:?}", of("located"));
    assert_eq!(of("located").verdict, Verdict::Keeps, "{:?}", of("located"));
    assert_eq!(of("located").search, Some(SearchEnd::KeepsAtTop));
    assert_eq!(of("located").headline(), "≤ 1e-2 s");
    // Each rung at 5 % over the ladder's 13 rungs.
    assert!((of("located").alpha - 0.05 / 13.0).abs() < 1e-15);
}

#[test]
fn tallies_are_the_same_whatever_pieces_the_shots_come_in() {
    let specs = [discrete(5e-3, "exact")];
    let (whole, shots) = study(FamilyKind::Cut, "seven_foot", 40, &specs);
    // Tallied again from the rows through CSV text, in two pieces, as merge does.
    let mut again = OutcomeTally::default();
    for piece in shots.chunks(17) {
        let mut w = csv::Writer::from_writer(Vec::new());
        for s in piece {
            for r in &s.rows {
                w.serialize(r).unwrap();
            }
        }
        let text = w.into_inner().unwrap();
        let rows: Vec<OutcomeShotRow> = csv::Reader::from_reader(text.as_slice())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        for s in rows.chunks(3) {
            again.add_shot(s);
        }
    }
    assert_eq!(
        format!("{:?}", whole.rows(&Margins::default())),
        format!("{:?}", again.rows(&Margins::default()))
    );
}

#[test]
fn families_make_valid_reproducible_shots_that_a_seed_decides() {
    for table in ["seven_foot", "pooltool_pocket"] {
        let racks = racks(table);
        for kind in FamilyKind::ALL
            .into_iter()
            .filter(|k| k.game_name() == "pool")
        {
            for k in 0..40 {
                let seed = kind.shot_seed(table, 7, k);
                let s = family_shot(kind, &racks, &DEFAULT_RACK, seed).unwrap();
                s.validate().unwrap();
                assert_eq!(s, family_shot(kind, &racks, &DEFAULT_RACK, seed).unwrap());
                assert_eq!(s.name, format!("{}_{seed}", kind.name()));
                match kind {
                    FamilyKind::Break9 => assert_eq!(s.balls.len(), 10),
                    FamilyKind::Break15 => assert_eq!(s.balls.len(), 16),
                    _ => {
                        assert_eq!(s.balls.len(), 2);
                        let cue = s.strike.as_ref().unwrap().cue;
                        assert!(cue.a * cue.a + cue.b * cue.b < 1.0);
                        if kind == FamilyKind::Straight {
                            assert_eq!((cue.a, cue.b), (0.0, 0.0));
                        }
                    }
                }
            }
        }
        // Seeds differ by family, table and index.
        let a = FamilyKind::Cut.shot_seed(table, 1, 0);
        assert_ne!(a, FamilyKind::Cut.shot_seed(table, 1, 1));
        assert_ne!(a, FamilyKind::Bank.shot_seed(table, 1, 0));
        assert_ne!(a, FamilyKind::Cut.shot_seed(table, 2, 0));
    }
    assert_ne!(
        FamilyKind::Cut.shot_seed("seven_foot", 1, 0),
        FamilyKind::Cut.shot_seed("pooltool_pocket", 1, 0)
    );
}

#[test]
fn cut_angles_follow_the_ghost_ball() {
    // The cut angle is the angle between the cue ball's aim and the object ball's line to the
    // pocket; thin cuts are 45-75 degrees, cuts 0-75.
    let racks = racks("seven_foot");
    for (kind, lo, hi) in [
        (FamilyKind::Cut, 0.0, 75.0),
        (FamilyKind::ThinCut, 45.0, 75.0),
    ] {
        let (mut min, mut max) = (f64::INFINITY, 0.0f64);
        for k in 0..300 {
            let s = family_shot(
                kind,
                &racks,
                &DEFAULT_RACK,
                kind.shot_seed("seven_foot", 3, k),
            )
            .unwrap();
            let r = s.physics.radius(&s.balls[0].state);
            let (c, o) = (s.balls[0].state.r.xy(), s.balls[1].state.r.xy());
            let phi = s.strike.as_ref().unwrap().cue.phi.to_radians();
            let aim = pool_physics::Vec2::new(phi.cos(), phi.sin());
            // The ghost ball is on the aim line, 2R short of the object ball's center.
            let to_o = o - c;
            let along = to_o.dot(&aim);
            let ghost = c + aim * along
                - aim * ((2.0 * r).powi(2) - (to_o - aim * along).norm_squared()).sqrt();
            assert!(((ghost - o).norm() - 2.0 * r).abs() < 1e-9);
            let line = (o - ghost).normalize();
            let cut = aim.dot(&line).clamp(-1.0, 1.0).acos().to_degrees();
            assert!(cut >= lo - 1e-6 && cut <= hi + 1e-6, "{kind:?}: cut {cut}");
            min = min.min(cut);
            max = max.max(cut);
        }
        assert!(min < lo + 3.0 && max > hi - 3.0, "{kind:?}: {min}..{max}");
    }
}

#[test]
fn the_perturbation_moves_every_ball_by_its_size_and_keeps_them_apart() {
    let racks = racks("seven_foot");
    let p = Perturbation::default();
    for seed in 0..30 {
        let rack = pool_harness::random_break(racks.get("15ball").unwrap(), seed);
        let q = perturb(&rack, &p, seed).unwrap();
        assert_eq!(q, perturb(&rack, &p, seed).unwrap());
        q.validate().unwrap();
        let mut pushed = 0;
        for (a, b) in rack.balls.iter().zip(&q.balls) {
            let d = (a.state.r - b.state.r).xy().norm();
            // 1 µm, plus a little where an overlap was pushed apart.
            assert!(d <= 3.5e-6, "{d}");
            pushed += usize::from((d - 1e-6).abs() > 1e-12);
        }
        assert!(pushed < q.balls.len());
        for (i, a) in q.balls.iter().enumerate() {
            for b in &q.balls[i + 1..] {
                let gap = (a.state.r - b.state.r).xy().norm()
                    - q.physics.contact_distance(&a.state, &b.state);
                // Apart: pushing one pair apart may close a neighbour's picometre, never past
                // touching.
                assert!(gap >= 0.0, "{gap}");
            }
        }
        // The cue ball's velocity and spin scaled by one factor within 1e-4.
        let (v0, v1) = (rack.balls[0].state.v, q.balls[0].state.v);
        let f = v1.norm() / v0.norm();
        assert!((f - 1.0).abs() <= 1e-4 + 1e-15, "{f}");
        assert!((q.balls[0].state.w - rack.balls[0].state.w * f).norm() < 1e-9);
    }
    // A struck shot has its V0 scaled instead; nothing moves with a zero perturbation.
    let cut = family_shot(FamilyKind::Cut, &racks, &DEFAULT_RACK, 5).unwrap();
    let q = perturb(&cut, &p, 5).unwrap();
    let (v0, v1) = (
        cut.strike.as_ref().unwrap().cue.v0,
        q.strike.as_ref().unwrap().cue.v0,
    );
    assert!((v1 / v0 - 1.0).abs() <= 1e-4 && v1 != v0);
    let none = Perturbation {
        position_m: 0.0,
        speed_rel: 0.0,
    };
    assert_eq!(perturb(&cut, &none, 5).unwrap(), cut);
    // Too large for a rack: refused with the reason.
    let huge = Perturbation {
        position_m: 0.09,
        speed_rel: 0.0,
    };
    let tight = pool_harness::random_break(racks.get("15ball").unwrap(), 1);
    let err = perturb(&tight, &huge, 1).err();
    assert!(err.is_none_or(|e| e.contains("no perturbation")));
    assert!(Perturbation {
        position_m: f64::NAN,
        speed_rel: 0.0
    }
    .validate()
    .is_err());
}

#[test]
fn game_outcomes_and_agreement_read_the_log() {
    // A cut shot of the family through the event engine and the discrete integrator.
    let racks = racks("seven_foot");
    let s = (0..200)
        .map(|k| family_shot(FamilyKind::Cut, &racks, &DEFAULT_RACK, k).unwrap())
        .find(|s| {
            let o = EngineSpec::reference().build().unwrap().run(s);
            GameOutcome::of(s, &o).pocket_of(1).is_some()
        })
        .expect("a cut that pockets the object ball");
    let o = EngineSpec::reference().build().unwrap().run(&s);
    let g = GameOutcome::of(&s, &o);
    assert_eq!(g.cue, Some(0));
    let (ball, t) = g.first_contact.unwrap();
    assert_eq!(ball, 1);
    // The first contact is the log's first ball-ball event.
    let first = o
        .events
        .iter()
        .find(|e| e.kind == pool_physics::EventKind::BallBall)
        .unwrap();
    assert_eq!(first.time, t);
    let pocket = g.pocket_of(1).unwrap();
    assert_eq!(g.fates[1], Fate::Pocketed(Some(pocket)));
    assert_eq!(o.final_states[1].motion, MotionState::Pocketed);
    assert!(g.ended);
    assert!(g
        .pocketed_label(&s)
        .contains(&format!("1:{}", s.table.pockets[pocket].id)));
    // Against itself: every field agrees, positions exactly.
    let same = Agreement::between(&g, &g, 1e-9);
    assert!(Field::ALL.iter().all(|&f| !same.disagrees(f)));
    assert_eq!(same.cue_position_error_m, 0.0);
    // The cue ball moved by 2 cm: positions disagree at 1 cm, agree at 3 cm; nothing else.
    let mut moved = g.clone();
    if moved.fates[0] == Fate::OnTable {
        moved.final_positions[0][0] += 0.02;
        let a = Agreement::between(&g, &moved, 0.01);
        assert!(a.disagrees(Field::CuePosition) && a.disagrees(Field::Positions));
        assert!(!a.disagrees(Field::Outcome));
        assert!((a.cue_position_error_m - 0.02).abs() < 1e-12);
        assert!(!Agreement::between(&g, &moved, 0.03).disagrees(Field::Positions));
    }
    // The object ball in another pocket, the cue ball pocketed, the run not ended: each its
    // field, and every one of them the outcome.
    let mut other = g.clone();
    other.fates[1] = Fate::Pocketed(Some((pocket + 1) % s.table.pockets.len()));
    let a = Agreement::between(&g, &other, 0.01);
    assert!(a.disagrees(Field::Pocketed) && a.disagrees(Field::Outcome));
    assert!(!a.disagrees(Field::Scratch) && !a.disagrees(Field::FirstContact));
    let mut scratch = g.clone();
    scratch.fates[0] = Fate::Pocketed(Some(0));
    let a = Agreement::between(&g, &scratch, 0.01);
    assert!(a.disagrees(Field::Scratch) && a.disagrees(Field::Pocketed));
    assert!(a.disagrees(Field::CuePosition) && a.disagrees(Field::Outcome));
    let mut lost = g.clone();
    lost.ended = false;
    assert!(Agreement::between(&g, &lost, 0.01).disagrees(Field::End));
    assert!(Agreement::between(&g, &lost, 0.01).disagrees(Field::Outcome));
    let mut missed = g.clone();
    missed.first_contact = None;
    let a = Agreement::between(&g, &missed, 0.01);
    assert!(a.disagrees(Field::FirstContact) && a.disagrees(Field::Outcome));
}
