//! Drill-down replays (`outcomes/replays.json`, version 2): a study shot remade and played
//! again with snapshots decides what the study's rows say it decided (reference, floor and a
//! discrete engine, including a run whose outcome changed); its tracks, integers delta-coded
//! and simplified, decode and interpolate to the engines' own frames ([`Frames`]) within the
//! tolerance at the ticks either side of every snapshot and at every tick of the run; the
//! first and last samples and where a ball starts or stops are kept; a ball at rest adds no
//! sample; the file has the contract's field names and units.

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::Frames;
use pool_outcome::{
    decode_track, replay_options, replay_run, replay_shot, FamilyKind, Field, OutcomeShotRow,
    Perturbation, ReplayEngine, ReplayRun, StudyRules, StudyShot, POSITION_QUANTUM_M,
    SNAPSHOT_INTERVAL_S, TIME_QUANTUM_S, TRACK_TOLERANCE_M,
};
use pool_physics::{MotionState, Vec3};
use pool_sim::{Engine, Outcome, Setup, DEFAULT_RACK};

/// Every game's racks on `table`.
fn racks(table: &str) -> pool_outcome::Racks {
    pool_outcome::Racks::on_table(table).unwrap()
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
        ..RunOptions::default()
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
    rows.iter().find(|r| r.run.as_str() == run).unwrap()
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
                    "discrete:1e-2:end_of_step",
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

/// A track's samples `(tick, x, y)` in its integer units: the first triple as it is, each
/// later one summed onto the one before.
fn decode(track: &[i64]) -> Vec<(i64, i64, i64)> {
    assert_eq!(track.len() % 3, 0, "a track is triples");
    let mut out: Vec<(i64, i64, i64)> = Vec::new();
    for d in track.chunks(3) {
        let p = out.last().map_or((d[0], d[1], d[2]), |&(t, x, y)| {
            (t + d[0], x + d[1], y + d[2])
        });
        out.push(p);
    }
    out
}

/// Where the decoded track `samples` puts the ball at tick `tick`: linear in time between
/// samples, the first before them and the last after them (m).
fn position_at(samples: &[(i64, i64, i64)], tick: i64) -> [f64; 2] {
    let k = samples.partition_point(|s| s.0 <= tick);
    let m = |v: i64| v as f64 * POSITION_QUANTUM_M;
    if k == 0 {
        return [m(samples[0].1), m(samples[0].2)];
    }
    if k == samples.len() {
        let l = samples[k - 1];
        return [m(l.1), m(l.2)];
    }
    let (a, b) = (samples[k - 1], samples[k]);
    let u = (tick - a.0) as f64 / (b.0 - a.0) as f64;
    [
        m(a.1) + u * (m(b.1) - m(a.1)),
        m(a.2) + u * (m(b.2) - m(a.2)),
    ]
}

/// The time (s) of a tick.
fn tick_time(tick: i64) -> f64 {
    tick as f64 / 1e4
}

/// The first tick at or after `t` (s).
fn tick_at_or_after(t: f64) -> i64 {
    let mut k = (t * 1e4).ceil() as i64;
    while k > 0 && tick_time(k - 1) >= t {
        k -= 1;
    }
    while tick_time(k) < t {
        k += 1;
    }
    k
}

/// What [`assert_tracks_reproduce_frames`] checked: ball positions compared, the largest
/// error (m), the samples kept over all the tracks and their JSON's size (bytes).
#[derive(Debug, Default)]
struct Checked {
    positions: usize,
    max_err: f64,
    kept: usize,
    bytes: usize,
}

/// Every ball on the table is where the decoded track, linear in time, puts it within
/// [`TRACK_TOLERANCE_M`] + 1e-5 m of where [`Frames`] (the engine's snapshots and the
/// physics between them) shows it: at the ticks either side of every snapshot (a track's time
/// unit is a tick) and at every `stride`-th tick of the run. A ball is gone from its
/// `pocketed_at` on, and is not yet at a tick before it.
fn assert_tracks_reproduce_frames(
    setup: &Setup,
    outcome: &Outcome,
    stride: usize,
    what: &str,
) -> Checked {
    let run = replay_run("run", setup, outcome, None, None, None);
    let tracks = run.tracks.as_ref().unwrap();
    let frames = Frames::new(setup, outcome).unwrap();
    let decoded: Vec<_> = tracks.iter().map(|t| decode(t)).collect();
    let mut checked = Checked {
        kept: decoded.iter().map(Vec::len).sum(),
        bytes: serde_json::to_string(tracks).unwrap().len(),
        ..Checked::default()
    };
    let end = tick_at_or_after(frames.end_time());
    let mut ticks: Vec<i64> = (0..=end).step_by(stride).collect();
    for s in &outcome.snapshots {
        let k = tick_at_or_after(s.time);
        ticks.extend([k - 1, k].into_iter().filter(|&k| k >= 0));
    }
    ticks.sort_unstable();
    ticks.dedup();
    for tick in ticks {
        let t = tick_time(tick);
        for (i, f) in frames.at(t).iter().enumerate() {
            let s = f.state;
            let pocketed_at = run.pocketed_at[i].map(|p| (p * 1e4).round() as i64);
            if s.motion == MotionState::Pocketed {
                let p = pocketed_at.expect("a ball Frames shows pocketed has a pocket time");
                assert!(
                    p <= tick,
                    "{what}: ball {i} pocketed at tick {p}, after {tick}"
                );
                continue;
            }
            if pocketed_at.is_some_and(|p| p <= tick) || !(s.r.x.is_finite() && s.r.y.is_finite()) {
                // Gone up to half a tick before Frames takes it; or lost.
                continue;
            }
            let p = position_at(&decoded[i], tick);
            let err = (p[0] - s.r.x).hypot(p[1] - s.r.y);
            checked.positions += 1;
            checked.max_err = checked.max_err.max(err);
            assert!(
                err <= TRACK_TOLERANCE_M + 1e-5,
                "{what}: ball {} at t = {t}: track {p:?}, frames ({}, {}), {err:e} m",
                setup.balls[i].id,
                s.r.x,
                s.r.y
            );
        }
    }
    checked
}

#[test]
fn decoded_tracks_reproduce_the_engines_frames_within_the_tolerance() {
    let table = "seven_foot";
    let racks = racks(table);
    let reference_spec = EngineSpec::reference();
    let reference = replay_engine(&reference_spec);
    let rules = rules(reference.as_ref(), &reference_spec);
    let exact = replay_engine(&discrete(1e-3, "exact"));
    let euler = replay_engine(&discrete(1e-2, "euler"));
    for (kind, k) in [
        (FamilyKind::Cut, 0),
        (FamilyKind::Cut, 5),
        (FamilyKind::Bank, 1),
        (FamilyKind::Break9, 1),
        (FamilyKind::Break15, 0),
    ] {
        let shot = pool_outcome::StudySetups::of(kind, table, &racks, k, &rules).unwrap();
        let what = format!("{} {k}", kind.name());
        let o = reference.run(&shot.setup);
        assert!(
            o.snapshots.len() > o.events.len(),
            "{what}: a snapshot at every event"
        );
        let c = assert_tracks_reproduce_frames(&shot.setup, &o, 1, &what);
        // A tenth of the ticks at least are of moving balls: the check is not vacuous.
        assert!(c.positions > 1000, "{what}: {c:?}");
        eprintln!(
            "{what}, reference: {} positions within {:.3e} m; {} samples kept, {} bytes",
            c.positions, c.max_err, c.kept, c.bytes
        );
        for (name, e) in [
            ("discrete:1e-3:exact", &exact),
            ("discrete:1e-2:euler", &euler),
        ] {
            let d = e.run(&shot.setup);
            let c = assert_tracks_reproduce_frames(&shot.setup, &d, 1, &format!("{what}, {name}"));
            eprintln!(
                "{what}, {name}: {} positions within {:.3e} m; {} samples kept, {} bytes",
                c.positions, c.max_err, c.kept, c.bytes
            );
        }
        // The floor is its own shot: its start positions, not the shot's.
        let f = reference.run(&shot.perturbed);
        assert_tracks_reproduce_frames(&shot.perturbed, &f, 7, &format!("{what}, floor"));
    }
}

#[test]
fn tracks_are_integers_delta_coded_first_last_starts_and_stops_kept() {
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
    let units = |v: f64, per: f64| (v * per).round() as i64;
    let multiple = |v: f64, per: f64| ((v * per).round() - v * per).abs() < 1e-6;
    for (kind, k) in [
        (FamilyKind::Cut, 2),
        (FamilyKind::Bank, 2),
        (FamilyKind::Break15, 0),
    ] {
        let shot = pool_outcome::StudySetups::of(kind, table, &racks, k, &rules).unwrap();
        for (ek, e) in engines.iter().enumerate() {
            let what = format!("{} {k}, engine {ek}", kind.name());
            let o = e.run(&shot.setup);
            let run = replay_run("run", &shot.setup, &o, None, None, None);
            assert!(multiple(run.end_time, 1e4));
            assert!((run.end_time - o.end_time).abs() <= TIME_QUANTUM_S / 2.0 + 1e-12);
            let end_tick = units(run.end_time, 1e4);
            for (i, tr) in run.tracks.as_ref().unwrap().iter().enumerate() {
                let samples = decode(tr);
                assert!(
                    !samples.is_empty(),
                    "a ball on the table has a sample at t = 0"
                );
                // The first triple is absolute: t = 0, where the ball starts.
                let s0 = shot.setup.balls[i].state.r;
                assert_eq!(
                    (tr[0], tr[1], tr[2]),
                    (0, units(s0.x, 1e5), units(s0.y, 1e5)),
                    "{what}"
                );
                // Every later time delta is positive: times strictly increase.
                assert!(tr.chunks(3).skip(1).all(|d| d[0] > 0), "{what}: {tr:?}");
                // The deltas sum back to the last sample, and decode_track says the same.
                let sum = tr
                    .chunks(3)
                    .fold((0, 0, 0), |a, d| (a.0 + d[0], a.1 + d[1], a.2 + d[2]));
                let last = *samples.last().unwrap();
                assert_eq!(sum, last);
                let library = decode_track(tr);
                assert_eq!(library.len(), samples.len());
                for (a, b) in library.iter().zip(&samples) {
                    assert!((a[0] - b.0 as f64 * TIME_QUANTUM_S).abs() < 1e-12);
                    assert!((a[1] - b.1 as f64 * POSITION_QUANTUM_M).abs() < 1e-12);
                    assert!((a[2] - b.2 as f64 * POSITION_QUANTUM_M).abs() < 1e-12);
                }
                assert!(last.0 <= end_tick, "{what}: a sample after the end");
                // The last sample: where a pocket took the ball (its pocket time, up to a
                // snapshot interval for a fixed-step engine, whose snapshot shows it later),
                // else its final position.
                match (run.pocketed_at[i], run.final_positions[i]) {
                    (Some(t), None) => {
                        let p = units(t, 1e4);
                        assert!(
                            (last.0 - p).abs() as f64 * TIME_QUANTUM_S
                                <= SNAPSHOT_INTERVAL_S + TIME_QUANTUM_S,
                            "{what}, ball {i}: last sample at tick {}, pocketed at {p}",
                            last.0
                        );
                    }
                    (None, Some(f)) => {
                        assert_eq!(
                            (last.1, last.2),
                            (units(f[0], 1e5), units(f[1], 1e5)),
                            "{what}, ball {i}"
                        );
                    }
                    other => panic!("ball {i}: {other:?}"),
                }
                if ek != 0 {
                    continue;
                }
                // The event engine snapshots every event: where a ball starts moving the track
                // keeps the tick before at its resting place, where it stops the tick at or
                // after at its final place (the run's end at the latest).
                let snaps = &o.snapshots;
                for w in 1..snaps.len() {
                    let (a, b) = (snaps[w - 1].states[i], snaps[w].states[i]);
                    if a.motion == MotionState::Pocketed || b.motion == MotionState::Pocketed {
                        break;
                    }
                    let tick = tick_at_or_after(snaps[w].time).min(end_tick);
                    let at = |t: i64| samples.iter().find(|s| s.0 == t).copied();
                    if !a.motion.is_translating() && b.motion.is_translating() && tick > 0 {
                        let s = at(tick - 1).unwrap_or_else(|| {
                            panic!("{what}, ball {i}: no sample where it starts, tick {tick}")
                        });
                        assert_eq!((s.1, s.2), (units(a.r.x, 1e5), units(a.r.y, 1e5)));
                    }
                    if a.motion.is_translating() && !b.motion.is_translating() {
                        let s = at(tick).unwrap_or_else(|| {
                            panic!("{what}, ball {i}: no sample where it stops, tick {tick}")
                        });
                        assert_eq!((s.1, s.2), (units(b.r.x, 1e5), units(b.r.y, 1e5)));
                    }
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
    let mut setup = pool_outcome::StudySetups::of(FamilyKind::Cut, "seven_foot", &racks, 3, &rules)
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
        let run = replay_run("run", &s, &o, None, None, None);
        let fin = o.final_states[2].r;
        if (fin - extra.state.r).norm() != 0.0 {
            continue;
        }
        assert_eq!(
            run.tracks.as_ref().unwrap()[2],
            [0, (x * 1e5).round() as i64, (y * 1e5).round() as i64],
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
    let run = replay_run("run", &setup, &bare, None, None, None);
    assert!(run.tracks.is_none());
    assert_eq!(run.events.len(), o.events.len());
    assert_eq!(run.final_positions.len(), 3);
    // A ball that starts pocketed: an empty track, pocketed at 0.
    let mut gone = setup.clone();
    gone.balls[2].state.motion = MotionState::Pocketed;
    let o = replay_engine(&reference_spec).run(&gone);
    let run = replay_run("run", &gone, &o, None, None, None);
    assert_eq!(run.tracks.as_ref().unwrap()[2], Vec::<i64>::new());
    assert_eq!(run.pocketed_at[2], Some(0.0));
    assert_eq!(run.final_positions[2], None);
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
    let file = pool_outcome::ReplayFile {
        version: pool_outcome::REPLAY_VERSION,
        units: pool_outcome::Units::V2,
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
            "units",
            "version",
            "written"
        ]
    );
    assert_eq!(v["version"], 2);
    assert_eq!(
        v["units"],
        serde_json::json!({"t_s": 1e-4, "xy_m": 1e-5, "tolerance_m": 5e-4})
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
    // A track is a flat array of integers, triples; the cue ball's moves.
    let cue = run["tracks"][0].as_array().unwrap();
    assert!(cue.len() > 3 && cue.len().is_multiple_of(3));
    assert!(cue.iter().all(|v| v.is_i64()), "{cue:?}");
    assert_eq!(cue[0], 0);
    // An event is [t, kind, agents...]; a pocket [cx, cy, r, id].
    let first = &run["events"][0];
    assert!(first[0].is_number() && first[1].is_string() && first[2].is_string());
    let pocket = &r["geometry"]["pockets"][0];
    assert!(pocket[0].is_number() && pocket[3].is_string());
    assert_eq!(r["geometry"]["bounds"].as_array().unwrap().len(), 4);
    // And it reads back as it was written.
    let back: pool_outcome::ReplayFile = serde_json::from_value(v).unwrap();
    assert_eq!(back, file);
}
