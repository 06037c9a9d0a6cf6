//! Drill-down replays (`outcomes/replays.json`): a study shot remade and played again with
//! snapshots decides what the study's rows say it decided (reference, floor and a discrete
//! engine, including a run whose outcome changed); its tracks pass through the engines' own
//! states at every snapshot, rounded as promised; a ball at rest adds no sample; the file has
//! the contract's field names.

use std::path::Path;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{
    quantise_time, replay_options, replay_run, replay_shot, FamilyKind, Field, OutcomeShotRow,
    Perturbation, ReplayEngine, ReplayRun, StudyRules, StudyShot, MAX_SAMPLE_GAP_S,
    POSITION_QUANTUM_M, TIME_QUANTUM_S,
};
use pool_physics::{MotionState, Vec3};
use pool_sim::{Engine, Outcome, Setup, DEFAULT_RACK};

/// The 9-ball and 15-ball racks on `table`.
fn racks(table: &str) -> [Setup; 2] {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let load = |name: &str| pool_shots::load(&dir.join(format!("{name}.toml"))).unwrap();
    let t = pool_physics::Table::by_name(table).unwrap();
    [load("break_9ball"), load("break_15ball")]
        .map(|r| pool_harness::rack_on_table(&r, &t).unwrap())
}

fn discrete(dt: f64, scheme: &str) -> EngineSpec {
    EngineSpec::discrete(dt, pool_discrete::Scheme::from_name(scheme).unwrap()).unwrap()
}

/// The study's event budget in these tests (`outcomes`' default).
const MAX_EVENTS: usize = 1_000_000;

/// A study's engine: no snapshots, as `StudyPlan` builds them.
fn study_engine(spec: &EngineSpec) -> Box<dyn Engine> {
    spec.build_with(&RunOptions {
        snapshots: None,
        max_events: Some(MAX_EVENTS),
    })
    .unwrap()
}

/// A replay's engine: snapshots on.
fn replay_engine(spec: &EngineSpec) -> Box<dyn Engine> {
    spec.build_with(&replay_options(spec, MAX_EVENTS)).unwrap()
}

fn rules<'a>(reference: &'a dyn Engine, spec: &'a EngineSpec) -> StudyRules<'a> {
    StudyRules {
        seed: 1,
        perturbation: Perturbation::default(),
        position_tol_m: 1e-2,
        rack: DEFAULT_RACK,
        reference: (reference, spec),
    }
}

/// The row of `run` among a shot's rows.
fn row<'a>(rows: &'a [OutcomeShotRow], run: &str) -> &'a OutcomeShotRow {
    rows.iter().find(|r| r.run == run).unwrap()
}

/// Every run of a replay says what its study row says: first contact, pocketed balls with
/// their pockets, scratch, and the fields it differs on.
fn assert_matches_rows(runs: &[ReplayRun], rows: &[OutcomeShotRow], what: &str) {
    for run in runs {
        let r = row(rows, &run.run);
        assert!(run.reproduced, "{what}, {}: not reproduced", run.run);
        assert_eq!(
            run.outcome.first_contact.clone().unwrap_or_default(),
            r.first_contact,
            "{what}, {}",
            run.run
        );
        assert_eq!(run.outcome.pocketed.replace('|', ";"), r.pocketed);
        assert_eq!(run.outcome.scratch, r.scratch == 1, "{what}, {}", run.run);
        for f in Field::ALL.into_iter().filter(|&f| f != Field::Outcome) {
            assert_eq!(
                run.outcome.differs.iter().any(|d| d == f.name()),
                r.disagrees(f),
                "{what}, {}: field {}",
                run.run,
                f.name()
            );
        }
    }
}

#[test]
fn a_replay_reproduces_the_study_rows_of_reference_floor_and_engines() {
    let table = "seven_foot";
    let racks = racks(table);
    let reference_spec = EngineSpec::reference();
    let (study_ref, replay_ref) = (
        study_engine(&reference_spec),
        replay_engine(&reference_spec),
    );
    let specs = [discrete(1e-2, "exact"), discrete(1e-3, "euler")];
    let study_engines: Vec<_> = specs.iter().map(study_engine).collect();
    let replay_engines: Vec<_> = specs.iter().map(replay_engine).collect();
    let replayed: Vec<ReplayEngine> = specs
        .iter()
        .zip(&replay_engines)
        .map(|(s, e)| ReplayEngine {
            run: s.to_string(),
            engine: e.as_ref(),
        })
        .collect();
    let mut changed = 0;
    for (kind, shots) in [(FamilyKind::ThinCut, 0..24), (FamilyKind::Break9, 0..3)] {
        for k in shots {
            let mut shot = StudyShot::play(
                kind,
                table,
                &racks,
                k,
                &rules(study_ref.as_ref(), &reference_spec),
            )
            .unwrap();
            for (spec, e) in specs.iter().zip(&study_engines) {
                shot.add(spec, &e.try_run(&shot.setup));
            }
            let replay = replay_shot(
                kind,
                table,
                &racks,
                k,
                &rules(replay_ref.as_ref(), &reference_spec),
                &replayed,
                &shot.rows,
            )
            .unwrap();
            assert!(replay.failed.is_empty(), "{:?}", replay.failed);
            let r = &replay.replay;
            assert_eq!(r.key, format!("{}/{table}/{k}", kind.name()));
            assert_eq!(r.shot, shot.setup.name);
            assert_eq!(r.seed, kind.shot_seed(table, 1, k));
            let names: Vec<&str> = r.runs.iter().map(|x| x.run.as_str()).collect();
            assert_eq!(
                names,
                [
                    "reference",
                    "floor",
                    "discrete:1e-2:exact",
                    "discrete:1e-3:euler"
                ]
            );
            assert_matches_rows(&r.runs, &shot.rows, &r.key);
            assert!(r.runs.iter().all(|x| x.tracks.is_some()));
            changed += shot.rows[2..].iter().filter(|x| x.d_outcome == 1).count();
        }
    }
    // The replays that matter are of changed outcomes: some of these are.
    assert!(
        changed > 0,
        "no engine changed an outcome: the test checks nothing"
    );
}

/// The track's sample nearest `t` (s), interpolated linearly, or the last one after it.
fn position_at(track: &[f64], t: f64) -> [f64; 2] {
    let n = track.len() / 3;
    let k = (0..n).position(|k| track[3 * k] > t).unwrap_or(n);
    if k == 0 {
        return [track[1], track[2]];
    }
    if k == n {
        return [track[3 * n - 2], track[3 * n - 1]];
    }
    let (t0, t1) = (track[3 * k - 3], track[3 * k]);
    let u = (t - t0) / (t1 - t0);
    [
        track[3 * k - 2] + u * (track[3 * k + 1] - track[3 * k - 2]),
        track[3 * k - 1] + u * (track[3 * k + 2] - track[3 * k - 1]),
    ]
}

/// At every snapshot of `outcome` (every event, for the event engine), each ball on the table
/// is where the track says at that (rounded) time, to the rounding; returns the snapshots
/// checked.
fn assert_tracks_pass_through_snapshots(setup: &Setup, outcome: &Outcome, what: &str) -> usize {
    let run = replay_run("run", setup, outcome, None, None);
    let tracks = run.tracks.as_ref().unwrap();
    let snaps = &outcome.snapshots;
    let mut checked = 0;
    for (k, snap) in snaps.iter().enumerate() {
        // Snapshots within one rounded time share one sample: the latest one's.
        let t = quantise_time(snap.time);
        if snaps.get(k + 1).is_some_and(|n| quantise_time(n.time) == t) {
            continue;
        }
        checked += 1;
        for (i, s) in snap.states.iter().enumerate() {
            if s.motion == MotionState::Pocketed {
                assert!(run.pocketed_at[i].is_some_and(|p| p <= t + 1e-12), "{what}");
                continue;
            }
            let p = position_at(&tracks[i], t);
            let err = (p[0] - s.r.x).hypot(p[1] - s.r.y);
            assert!(
                err <= 1e-5,
                "{what}: ball {} at snapshot {k} (t = {}): track {p:?}, state ({}, {}), {err:e} m",
                setup.balls[i].id,
                snap.time,
                s.r.x,
                s.r.y
            );
        }
    }
    checked
}

#[test]
fn tracks_pass_through_every_event_of_the_event_engine_and_every_snapshot_of_a_discrete_one() {
    let table = "seven_foot";
    let racks = racks(table);
    let reference_spec = EngineSpec::reference();
    let reference = replay_engine(&reference_spec);
    let rules = rules(reference.as_ref(), &reference_spec);
    let exact = replay_engine(&discrete(1e-3, "exact"));
    for (kind, k) in [
        (FamilyKind::Cut, 0),
        (FamilyKind::Cut, 5),
        (FamilyKind::Break9, 1),
    ] {
        let shot = pool_harness::StudySetups::of(kind, table, &racks, k, &rules).unwrap();
        let what = format!("{} {k}", kind.name());
        let o = reference.run(&shot.setup);
        let checked = assert_tracks_pass_through_snapshots(&shot.setup, &o, &what);
        // Every event of a cut shot is its own sample; a break's first collisions ripple
        // through the rack within a tenth of a millisecond, so they share one.
        assert!(
            o.snapshots.len() > o.events.len(),
            "{what}: a snapshot at every event"
        );
        assert!(
            checked * 2 > o.snapshots.len(),
            "{what}: {checked} snapshots checked"
        );
        let d = exact.run(&shot.setup);
        assert_tracks_pass_through_snapshots(&shot.setup, &d, &format!("{what}, discrete"));
        // The floor is its own shot: its start positions, not the shot's.
        let f = reference.run(&shot.perturbed);
        assert_tracks_pass_through_snapshots(&shot.perturbed, &f, &format!("{what}, floor"));
    }
}

#[test]
fn samples_are_rounded_as_promised_and_at_most_a_frame_apart_while_a_ball_moves() {
    let table = "pooltool_pocket";
    let racks = racks(table);
    let reference_spec = EngineSpec::reference();
    let reference = replay_engine(&reference_spec);
    let rules = rules(reference.as_ref(), &reference_spec);
    let engines = [
        replay_engine(&reference_spec),
        replay_engine(&discrete(1e-2, "euler")),
        replay_engine(&"rapier:1e-3".parse().unwrap()),
    ];
    let multiple = |v: f64, per: f64| ((v * per).round() - v * per).abs() < 1e-6;
    for (kind, k) in [(FamilyKind::Bank, 2), (FamilyKind::Break15, 0)] {
        let shot = pool_harness::StudySetups::of(kind, table, &racks, k, &rules).unwrap();
        for (ek, e) in engines.iter().enumerate() {
            let o = e.run(&shot.setup);
            let run = replay_run("run", &shot.setup, &o, None, None);
            assert!(multiple(run.end_time, 1e4));
            assert!((run.end_time - o.end_time).abs() <= TIME_QUANTUM_S / 2.0 + 1e-12);
            for (i, tr) in run.tracks.as_ref().unwrap().iter().enumerate() {
                assert_eq!(tr.len() % 3, 0);
                assert!(!tr.is_empty(), "a ball on the table has a sample at t = 0");
                assert_eq!(tr[0], 0.0);
                let s0 = shot.setup.balls[i].state.r;
                assert!((tr[1] - s0.x).abs() <= POSITION_QUANTUM_M / 2.0 + 1e-12);
                assert!((tr[2] - s0.y).abs() <= POSITION_QUANTUM_M / 2.0 + 1e-12);
                for s in tr.chunks(3) {
                    assert!(multiple(s[0], 1e4), "t = {}", s[0]);
                    assert!(multiple(s[1], 1e5) && multiple(s[2], 1e5), "{s:?}");
                    assert!(s[0] <= run.end_time + 1e-12);
                }
                for w in tr.chunks(3).collect::<Vec<_>>().windows(2) {
                    assert!(w[1][0] > w[0][0], "times strictly increase: {w:?}");
                    let moved = w[1][1] != w[0][1] || w[1][2] != w[0][2];
                    if moved {
                        assert!(
                            w[1][0] - w[0][0] <= MAX_SAMPLE_GAP_S + 1e-9,
                            "{} {k}, engine {ek}, ball {i}: a moving ball's samples {w:?} are more than a \
                             frame apart",
                            kind.name()
                        );
                    }
                }
                // Pocketed: gone from its last sample on; else its last sample is its final
                // position.
                let last = &tr[tr.len() - 3..];
                match (run.pocketed_at[i], run.final_positions[i]) {
                    (Some(t), None) => assert!((last[0] - t).abs() <= MAX_SAMPLE_GAP_S),
                    (None, Some(f)) => assert_eq!([last[1], last[2]], f),
                    other => panic!("ball {i}: {other:?}"),
                }
            }
            for e in &run.events {
                assert!(multiple(e.t, 1e4));
            }
        }
    }
}

#[test]
fn a_ball_at_rest_adds_no_sample_and_a_program_has_no_tracks() {
    let racks = racks("seven_foot");
    let reference_spec = EngineSpec::reference();
    let reference = replay_engine(&reference_spec);
    let rules = rules(reference.as_ref(), &reference_spec);
    let mut setup = pool_harness::StudySetups::of(FamilyKind::Cut, "seven_foot", &racks, 3, &rules)
        .unwrap()
        .setup;
    // A ball in a spot of the table the shot leaves alone: the middle of a short rail... or
    // anywhere the run does not touch it, which the test checks below.
    let mut extra = setup.balls[1].clone();
    extra.id = "9".into();
    let candidates = [(0.2, 0.2), (1.8, 0.8), (0.2, 0.8), (1.8, 0.2), (1.0, 0.5)];
    let mut done = false;
    for (x, y) in candidates {
        extra.state.r = Vec3::new(x, y, extra.state.r.z);
        let mut s = setup.clone();
        s.balls.push(extra.clone());
        if s.validate().is_err() {
            continue;
        }
        let o = reference.run(&s);
        let run = replay_run("run", &s, &o, None, None);
        let fin = o.final_states[2].r;
        if (fin - extra.state.r).norm() != 0.0 {
            continue;
        }
        assert_eq!(
            run.tracks.as_ref().unwrap()[2].len(),
            3,
            "one sample, at t = 0"
        );
        assert!(
            run.tracks.as_ref().unwrap()[0].len() > 6,
            "the cue ball moves"
        );
        setup = s;
        done = true;
        break;
    }
    assert!(done, "no spot left alone by the shot");
    // A run without snapshots (a program's): finals and events only.
    let o = replay_engine(&reference_spec).run(&setup);
    let mut bare = o.clone();
    bare.snapshots.clear();
    let run = replay_run("run", &setup, &bare, None, None);
    assert!(run.tracks.is_none());
    assert_eq!(run.events.len(), o.events.len());
    assert_eq!(run.final_positions.len(), 3);
}

#[test]
fn the_file_has_the_contracts_field_names() {
    let racks = racks("seven_foot");
    let reference_spec = EngineSpec::reference();
    let reference = replay_engine(&reference_spec);
    let rules = rules(reference.as_ref(), &reference_spec);
    let replay = replay_shot(FamilyKind::Cut, "seven_foot", &racks, 0, &rules, &[], &[])
        .unwrap()
        .replay;
    // No rows: nothing to reproduce.
    assert!(replay.runs.iter().all(|r| !r.reproduced));
    let file = pool_harness::ReplayFile {
        version: pool_harness::REPLAY_VERSION,
        max_shots: 60,
        disagreeing: 1,
        written: 1,
        note: "replays: 1 of 1".into(),
        replays: vec![replay],
    };
    let v: serde_json::Value = serde_json::to_value(&file).unwrap();
    let keys = |v: &serde_json::Value| -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    assert_eq!(
        keys(&v),
        [
            "disagreeing",
            "max_shots",
            "note",
            "replays",
            "version",
            "written"
        ]
    );
    let r = &v["replays"][0];
    assert_eq!(
        keys(r),
        ["balls", "family", "geometry", "index", "key", "runs", "seed", "shot", "table"]
    );
    assert_eq!(
        keys(&r["geometry"]),
        ["arcs", "bounds", "pockets", "segments"]
    );
    assert_eq!(keys(&r["balls"][0]), ["id", "radius"]);
    let run = &r["runs"][0];
    assert_eq!(
        keys(run),
        [
            "end_time",
            "events",
            "final",
            "outcome",
            "pocketed_at",
            "reproduced",
            "run",
            "tracks"
        ]
    );
    assert_eq!(
        keys(&run["outcome"]),
        ["differs", "first_contact", "pocketed", "scratch"]
    );
    assert_eq!(r["runs"][1]["run"], "floor");
    // An event is [t, kind, agents...]; a pocket [cx, cy, r, id].
    let first = &run["events"][0];
    assert!(first[0].is_number() && first[1].is_string() && first[2].is_string());
    let pocket = &r["geometry"]["pockets"][0];
    assert!(pocket[0].is_number() && pocket[3].is_string());
    assert_eq!(r["geometry"]["bounds"].as_array().unwrap().len(), 4);
    // And it reads back as it was written.
    let back: pool_harness::ReplayFile = serde_json::from_value(v).unwrap();
    assert_eq!(back, file);
}
