//! Our set-ups through pooltool's `System` structure and back: every default and regression
//! shot, and breaks on each of pooltool's tables, come back as the same set-up (table, balls,
//! parameters, laws, strike, time limit), and the exported run carries the event log.

use std::path::{Path, PathBuf};

use pool_event::EventEngine;
use pool_pooltool::{export, import_tree};
use pool_sim::{Engine, Setup};
use serde_json::Value;

/// The default shots (with their runs) and the regression shots (set-ups only: some run for
/// tens of thousands of events).
fn shots() -> Vec<(PathBuf, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let mut files: Vec<(PathBuf, bool)> = (pool_shots::list_shots(&root).unwrap().into_iter())
        .map(|f| (f, true))
        .collect();
    files.extend(
        (pool_shots::list_shots(&root.join("regressions"))
            .unwrap()
            .into_iter())
        .map(|f| (f, false)),
    );
    assert!(files.len() > 20);
    files
}

/// `setup` written with its run and read back.
fn through_pooltool(setup: &Setup, simulate: bool) -> (Setup, Value) {
    let run = simulate.then(|| EventEngine::default().with_snapshots(true).run(setup));
    let tree = export(setup, run.as_ref()).unwrap();
    // As a file: JSON text, read back by a JSON parser.
    let text = serde_json::to_string(&tree).unwrap();
    let tree: Value = serde_json::from_str(&text).unwrap();
    let back = import_tree(&tree, &setup.name, Path::new("mem.json"), None)
        .unwrap_or_else(|e| panic!("{}: {e}", setup.name));
    assert!(back.notes.is_empty(), "{:?}", back.notes);
    (back.setup, tree)
}

#[test]
fn every_shot_comes_back_the_same_from_pooltools_structure() {
    for (file, run) in shots() {
        let setup = pool_shots::load(&file).unwrap();
        for simulate in [false, run] {
            let (back, _) = through_pooltool(&setup, simulate);
            assert_eq!(back, setup, "{} (simulated: {simulate})", file.display());
        }
    }
}

#[test]
fn breaks_on_pooltools_tables_come_back_the_same_with_their_events() {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots/break_9ball.toml"),
    )
    .unwrap();
    for table in pool_physics::POOLTOOL_TABLES {
        let t = text.replace("table = \"seven_foot\"", &format!("table = \"{table}\""));
        let mut setup = pool_shots::parse(&t, "b", Path::new("b.toml")).unwrap();
        // On the bigger tables, move the rack and the cue ball by the same amount to keep
        // them on the cloth in the same places relative to the foot spot.
        let shift = setup.table.length * 0.75 - 1.4859;
        for b in &mut setup.balls {
            b.state.r.x += shift;
            b.state.r.y += setup.table.width / 2.0 - 0.4953;
        }
        setup.validate().unwrap();
        let run = EventEngine::default().with_snapshots(true).run(&setup);
        let (back, tree) = through_pooltool(&setup, true);
        assert_eq!(back, setup, "{table}");
        // pooltool's log: a null event first and last, ours between, same kinds and times.
        let events = tree["events"].as_array().unwrap();
        assert_eq!(events.len(), run.events.len() + 2);
        assert_eq!(events[0]["event_type"], "none");
        for (e, ours) in events[1..].iter().zip(&run.events) {
            assert_eq!(e["event_type"], ours.kind.name());
            assert_eq!(e["time"].as_f64().unwrap(), ours.time);
        }
        // Every ball's history: one state per event, plus the start and the end.
        for b in tree["balls"].as_object().unwrap().values() {
            let h = b["history"]["states"].as_array().unwrap();
            assert_eq!(h.len(), events.len());
        }
        if table == "pooltool_pocket" {
            let circular = run
                .events
                .iter()
                .filter(|e| e.kind == pool_physics::EventKind::BallCircularCushion)
                .count();
            assert!(circular > 0, "the break hits a jaw");
        }
    }
}

#[test]
fn a_pocketed_ball_sits_at_its_pockets_depth_in_pooltools_frame() {
    // The default `frozen` shot pockets its last ball in the top right corner pocket.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let text = std::fs::read_to_string(root.join("frozen.toml"))
        .unwrap()
        .replace("table = \"seven_foot\"", "table = \"pooltool_pocket\"");
    let setup = pool_shots::parse(&text, "frozen", Path::new("f.toml")).unwrap();
    let run = EventEngine::default().with_snapshots(true).run(&setup);
    let pocketed: Vec<_> = run
        .events
        .iter()
        .filter(|e| e.kind == pool_physics::EventKind::BallPocket)
        .collect();
    assert!(!pocketed.is_empty(), "{:?}", run.events);
    let tree = export(&setup, Some(&run)).unwrap();
    for e in tree["events"].as_array().unwrap() {
        if e["event_type"] != "ball_pocket" {
            continue;
        }
        let ball = &e["agents"][0]["final"]["state"];
        let pocket = &e["agents"][1]["final"];
        assert_eq!(ball["s"], 4);
        assert_eq!(ball["rvw"][0][0], pocket["center"][0]);
        assert_eq!(ball["rvw"][0][1], pocket["center"][1]);
        assert_eq!(ball["rvw"][0][2].as_f64(), Some(-0.08));
        let id = &e["agents"][0]["id"];
        assert!(pocket["contains"].as_array().unwrap().contains(id));
        assert!(!e["agents"][1]["initial"]["contains"]
            .as_array()
            .unwrap()
            .contains(id));
    }
}

#[test]
fn each_ball_carries_its_own_parameters_and_unequal_masses_or_radii_are_named() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let heavy = pool_shots::load(&root.join("heavy_cue.toml")).unwrap();
    let (back, tree) = through_pooltool(&heavy, true);
    assert_eq!(back, heavy);
    // In pooltool's structure each ball has its own BallParams, and the shot's set travels in
    // `harness.params` (the set a ball without its own has).
    let own = &tree["balls"]["cue"]["params"];
    assert_eq!(
        (own["m"].as_f64(), own["R"].as_f64()),
        (Some(0.1985), Some(0.030163))
    );
    assert_eq!(tree["balls"]["1"]["params"]["R"].as_f64(), Some(0.028575));
    assert_eq!(tree["harness"]["params"]["R"].as_f64(), Some(0.028575));
    let why = pool_pooltool::unequal_balls(&heavy).unwrap();
    assert!(why.contains("\"1\"") && why.contains("0.030163"), "{why}");
    let straight = pool_shots::load(&root.join("straight.toml")).unwrap();
    assert_eq!(pool_pooltool::unequal_balls(&straight), None);
}

/// Ids cross both ways: our cushions `c1`..`c18` and jaw tips `c1t`.. are pooltool's `1`..`18`,
/// `1t`.. in the file (tables, event agents); our pockets, named where they are in our frame,
/// are named where they are in pooltool's (our `cb` at the bottom side is its `lc`, our `rb`
/// its `lt`); and the file read back gives our ids. A table of ours keeps ids pooltool does
/// not use (`rail_b1`), and its pockets are renamed the same way.
#[test]
fn ids_round_trip_through_pooltools_names() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    let setup = pool_shots::load(&root.join("break_9ball_pooltool.toml")).unwrap();
    let ours: Vec<&str> = setup.table.cushions.iter().map(|c| c.id.as_str()).collect();
    assert!(ours.iter().all(|id| id.starts_with('c')), "{ours:?}");
    let (back, tree) = through_pooltool(&setup, true);
    assert_eq!(back, setup);
    let linear = tree["table"]["cushion_segments"]["linear"]
        .as_object()
        .unwrap();
    let mut theirs: Vec<&str> = linear.keys().map(String::as_str).collect();
    theirs.sort_by_key(|id| id.parse::<u32>().unwrap());
    let expected: Vec<String> = (1..=18).map(|k| k.to_string()).collect();
    assert_eq!(theirs, expected);
    let arcs = tree["table"]["cushion_segments"]["circular"]
        .as_object()
        .unwrap();
    assert!(arcs
        .keys()
        .all(|id| id.ends_with('t') && !id.starts_with('c')));
    let pockets = tree["table"]["pockets"].as_object().unwrap();
    let mut names: Vec<&str> = pockets.keys().map(String::as_str).collect();
    names.sort_unstable();
    assert_eq!(names, ["lb", "lc", "lt", "rb", "rc", "rt"]);
    // Where each pocket is: pooltool's `lt` is at its x = 0 (its left), y = l (its top), our
    // right bottom.
    let lt = &pockets["lt"]["center"];
    assert!(lt[0].as_f64().unwrap() < 0.0 && lt[1].as_f64().unwrap() > 1.9);
    let ours_rb = setup.table.pockets.iter().find(|p| p.id == "rb").unwrap();
    assert_eq!(
        (ours_rb.center[0], ours_rb.center[1]),
        (lt[1].as_f64().unwrap(), lt[0].as_f64().unwrap())
    );
    // The event agents carry pooltool's ids and types.
    let mut cushion_events = 0;
    for e in tree["events"].as_array().unwrap() {
        for a in e["agents"].as_array().unwrap() {
            let id = a["id"].as_str().unwrap();
            match a["agent_type"].as_str().unwrap() {
                "linear_cushion_segment" => {
                    assert!(linear.contains_key(id), "{id}");
                    cushion_events += 1;
                }
                "circular_cushion_segment" => assert!(arcs.contains_key(id), "{id}"),
                "pocket" => assert!(pockets.contains_key(id), "{id}"),
                "ball" => assert!(setup.balls.iter().any(|b| b.id == id), "{id}"),
                _ => {}
            }
        }
    }
    assert!(cushion_events > 0);
    // A table of ours: ids pooltool's tables do not use are kept, pockets renamed.
    let seven = pool_shots::load(&root.join("bank.toml")).unwrap();
    let (back, tree) = through_pooltool(&seven, true);
    assert_eq!(back, seven);
    assert!(tree["table"]["cushion_segments"]["linear"]["rail_b1"].is_object());
    assert!(tree["table"]["pockets"]["lc"].is_object() && tree["table"]["pockets"]["cb"].is_null());
}
