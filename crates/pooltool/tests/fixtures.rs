//! Files pooltool 0.6.0 saved itself (`data/peers/pooltool/`, written by
//! `benches/peers/pooltool_fixtures.py`): read as shots with the frames mapped exactly, its
//! tables recognised as our built-ins, its cue strike and laws carried, and its own simulated
//! runs reproduced by our event engine.

use std::path::{Path, PathBuf};

use pool_event::EventEngine;
use pool_physics::resolve::Resolver;
use pool_physics::{MotionState, Physics, Vec3};
use pool_pooltool::{export, import, pooltool_events, read_tree, LoggedEvent};
use pool_sim::{Engine, Setup};
use serde_json::Value;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/peers/pooltool")
        .join(name)
}

fn load(name: &str) -> (Setup, Vec<String>) {
    let i = import(&fixture(name), "fixture", None).unwrap_or_else(|e| panic!("{e}"));
    (i.setup, i.notes)
}

fn f(v: &Value) -> f64 {
    v.as_f64().unwrap()
}

#[test]
fn pooltools_example_system_reads_with_its_frame_mirrored_exactly() {
    let (s, notes) = load("example.json");
    assert!(notes.is_empty());
    let tree = read_tree(&fixture("example.json")).unwrap();
    assert_eq!(
        s.table.name, "pooltool_pocket",
        "pooltool's default table is our built-in"
    );
    assert_eq!(
        s.physics.resolver(),
        &Resolver::pooltool_default(),
        "no resolver: pooltool's default laws, as pt.simulate would run it"
    );
    for b in &s.balls {
        let rvw = &tree["balls"][&b.id]["state"]["rvw"];
        // pooltool's (x, y) is our (y, x): the very same doubles.
        assert_eq!(
            b.state.r,
            Vec3::new(f(&rvw[0][1]), f(&rvw[0][0]), f(&rvw[0][2]))
        );
        assert_eq!(b.state.motion, MotionState::Stationary);
    }
    let p = s.physics.params();
    let theirs = &tree["balls"]["cue"]["params"];
    assert_eq!(
        (p.m, p.radius, p.mu_s, p.mu_r),
        (0.170097, 0.028575, 0.2, 0.01)
    );
    assert_eq!(
        p.mu_sp,
        f(&theirs["u_sp_proportionality"]) * f(&theirs["R"])
    );
    // Nothing moves and V0 > 0: pooltool strikes at t = 0, and so do we.
    let strike = s.strike.as_ref().expect("a strike");
    let cue = &tree["cue"];
    assert_eq!(s.balls[strike.ball].id, "cue");
    assert_eq!(strike.cue.v0, f(&cue["V0"]));
    assert_eq!(strike.cue.phi, 90.0 - f(&cue["phi"]), "aim mirrored");
    assert_eq!(strike.cue.a, -f(&cue["a"]), "left is right in the mirror");
    assert_eq!(strike.cue.b, f(&cue["b"]));
    assert_eq!(strike.cue.specs.end_mass, f(&cue["specs"]["end_mass"]));
    // Written as a shot file and read back: the same set-up.
    let text = pool_shots::to_toml(&s, "example");
    assert!(text.contains("table = \"pooltool_pocket\""), "{text}");
    assert_eq!(
        pool_shots::parse(&text, "fixture", Path::new("x.toml")).unwrap(),
        s
    );
}

#[test]
fn a_simulated_msgpack_system_gives_its_start_and_its_laws() {
    // The same system, simulated by pooltool with seed 004's laws and saved as msgpack
    // (numpy-encoded arrays, the histories as three arrays, the laws in a `resolver` entry):
    // its balls' first history states are the shot's start, its entry the shot's laws.
    let (simulated, notes) = load("example_simulated.msgpack");
    let (plain, _) = load("example.json");
    assert!(
        notes.is_empty(),
        "the first states are before anything is pocketed"
    );
    // The plain file with pooltool's resolver file given apart (seed 004's laws too): the
    // simulated system's set-up exactly.
    let with = import(
        &fixture("example.json"),
        "fixture",
        Some(&fixture("resolver.yaml")),
    )
    .unwrap();
    assert_eq!(simulated, with.setup);
    // Seed 004's laws as pooltool runs them: after its contact spacer.
    let mut seed = Resolver::seed();
    seed.ball_ball = seed.ball_ball.with_spacer(1e-6);
    seed.ball_linear_cushion = seed.ball_linear_cushion.with_spacer(1e-6);
    seed.ball_circular_cushion = seed.ball_circular_cushion.with_spacer(1e-6);
    assert_eq!(with.setup.physics.resolver(), &seed);
    // Without either, pooltool's default laws; everything else the same.
    assert_eq!(plain.physics.resolver(), &Resolver::pooltool_default());
    let mut seed_laws = plain.clone();
    seed_laws.physics = with.setup.physics.clone();
    assert_eq!(with.setup, seed_laws);
}

/// pooltool's events of a simulated fixture, in our ids.
fn their_events(name: &str) -> Vec<LoggedEvent> {
    pooltool_events(&read_tree(&fixture(name)).unwrap()).unwrap()
}

/// Our events of the same shot, in the same terms.
fn our_events(s: &Setup) -> Vec<LoggedEvent> {
    pool_pooltool::our_events(s, &EventEngine::default().run(s))
}

/// Our run of a simulated fixture's start, its laws at pooltool's contact `spacer` (m), against
/// pooltool's own events: the same kinds and agents in the same order, every time within `tol`
/// s.
fn reproduces(name: &str, spacer: f64, tol: f64) -> usize {
    let (s, _) = load(name);
    let s = pool_pooltool::at_spacer(&s, spacer);
    let theirs = their_events(name);
    let ours = our_events(&s);
    assert_eq!(ours.len(), theirs.len(), "{name}: {ours:?}\n{theirs:?}");
    let mut worst: f64 = 0.0;
    for (k, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        assert!(a.same_as(b), "{name} event {k}: ours {a}, pooltool {b}");
        worst = worst.max((a.time - b.time).abs());
    }
    assert!(worst <= tol, "{name}: times differ by up to {worst:e} s");
    println!("{name}: {} events, times within {worst:.2e} s", ours.len());
    ours.iter()
        .filter(|e| e.kind == "ball_circular_cushion")
        .count()
}

#[test]
fn our_engine_reproduces_pooltools_own_runs_of_its_files() {
    // pooltool as it comes moves a colliding pair (or a ball and a cushion) 1e-6 m apart
    // before resolving, as our laws' `spacer` does.
    reproduces("example_simulated.msgpack", 1e-6, 1e-12);
    // With that spacer lowered to 1e-12 m (the fixture script), jaw tips (circular cushions)
    // included.
    let circular = reproduces("three_balls_simulated.json", 1e-12, 1e-10);
    assert!(circular >= 2, "the jaws' rounded tips are hit");
}

#[test]
fn pooltools_snooker_and_billiard_tables_are_our_built_ins() {
    assert_eq!(load("snooker.json").0.table.name, "pooltool_snooker");
    assert_eq!(load("billiard.json").0.table.name, "pooltool_billiard");
}

#[test]
fn pooltool_to_ours_to_pooltool_keeps_every_coordinate() {
    // pooltool's file, read and written back: same segments (ends maybe swapped: pooltool's
    // line, and so which side its `direction` plays, does not depend on their order), arcs,
    // pockets, ball states; u_sp_proportionality within an ulp (it travels as mu_sp =
    // u_sp_proportionality R).
    for name in ["example.json", "snooker.json", "billiard.json"] {
        let theirs = read_tree(&fixture(name)).unwrap();
        let (s, _) = load(name);
        let back = export(&s, None).unwrap();
        let (a, b) = (&theirs["table"], &back["table"]);
        for (id, seg) in a["cushion_segments"]["linear"].as_object().unwrap() {
            let mine = &b["cushion_segments"]["linear"][id];
            let same = mine["p1"] == seg["p1"] && mine["p2"] == seg["p2"];
            let swapped = mine["p1"] == seg["p2"] && mine["p2"] == seg["p1"];
            assert!(same || swapped, "{name} segment {id}: {mine} vs {seg}");
            assert_eq!(mine["direction"], seg["direction"], "{name} segment {id}");
        }
        for (id, arc) in a["cushion_segments"]["circular"].as_object().unwrap() {
            assert_eq!(
                &b["cushion_segments"]["circular"][id], arc,
                "{name} arc {id}"
            );
        }
        for (id, p) in a["pockets"].as_object().unwrap() {
            let mine = &b["pockets"][id];
            for k in ["center", "radius", "depth"] {
                assert_eq!(mine[k], p[k], "{name} pocket {id} {k}");
            }
        }
        for (id, ball) in theirs["balls"].as_object().unwrap() {
            let mine = &back["balls"][id];
            assert_eq!(
                mine["state"]["rvw"], ball["state"]["rvw"],
                "{name} ball {id}"
            );
            assert_eq!(mine["state"]["s"], ball["state"]["s"]);
            for (k, v) in ball["params"].as_object().unwrap() {
                let (x, y) = (f(v), f(&mine["params"][k]));
                assert!(
                    x == y || (k == "u_sp_proportionality" && (x - y).abs() <= x * f64::EPSILON),
                    "{name} {id} {k}: {x} vs {y}"
                );
            }
        }
        for k in ["V0", "phi", "theta", "a", "b", "cue_ball_id"] {
            assert_eq!(back["cue"][k], theirs["cue"][k], "{name} cue {k}");
        }
    }
}

#[test]
fn what_cannot_carry_over_is_refused_or_reported() {
    let tree = read_tree(&fixture("three_balls_simulated.json")).unwrap();
    let try_import =
        |t: &Value| pool_pooltool::import_tree(t, "x", Path::new("x.json"), None).map(|i| i.notes);
    // Its end: a ball is pocketed (left out, with a note) once the events are gone.
    let mut at_end = tree.clone();
    at_end["events"] = Value::Array(Vec::new());
    let notes = try_import(&at_end).unwrap();
    assert!(notes.iter().any(|n| n.contains("pocketed")), "{notes:?}");
    // A two-sided cushion.
    let mut both = tree.clone();
    both["table"]["cushion_segments"]["linear"]["3"]["direction"] = 2.into();
    let e = try_import(&both).unwrap_err();
    assert!(
        e.field.ends_with("linear.3.direction") && e.why.contains("two-sided"),
        "{e}"
    );
    // Per-ball parameters: a heavier ball keeps its own mass (its own set), the others the
    // shot's; gravity is the table's, so a ball with its own is refused by name.
    let mut heavy = tree.clone();
    heavy["balls"]["2"]["params"]["m"] = 0.2.into();
    let imported = pool_pooltool::import_tree(&heavy, "x", Path::new("x.json"), None).unwrap();
    let s = &imported.setup;
    let masses: Vec<(String, f64)> = (s.balls.iter())
        .map(|b| (b.id.clone(), s.physics.mass(&b.state)))
        .collect();
    let shot = s.physics.params().m;
    assert!(
        shot != 0.2 && s.physics.ball_sets().len() == 1,
        "{masses:?}"
    );
    for (id, m) in &masses {
        assert_eq!(*m, if id == "2" { 0.2 } else { shot }, "{id}");
    }
    heavy["balls"]["2"]["params"]["g"] = 9.7.into();
    let e = try_import(&heavy).unwrap_err();
    assert!(
        e.field.ends_with("balls.2.params.g") && e.why.contains("gravity"),
        "{e}"
    );
    // Not a System file.
    let e = try_import(&serde_json::json!({"balls": {}})).unwrap_err();
    assert_eq!(e.field, "table");
    // A motion state that contradicts the velocities.
    let mut wrong = read_tree(&fixture("example.json")).unwrap();
    wrong["balls"]["1"]["state"]["s"] = 3.into();
    let e = try_import(&wrong).unwrap_err();
    assert!(e.why.contains("says rolling"), "{e}");
    // An unknown law in the resolver entry names its path.
    let mut law = tree.clone();
    law["resolver"]["ball_ball"]["model"] = "sticky".into();
    let e = try_import(&law).unwrap_err();
    assert_eq!(e.field, "resolver.ball_ball.model");
    // A file that is neither JSON nor msgpack.
    let dir = std::env::temp_dir().join(format!("pooltool-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{ not json").unwrap();
    let e = import(&junk, "x", None).unwrap_err();
    assert!(e.why.contains("not a JSON file"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}
