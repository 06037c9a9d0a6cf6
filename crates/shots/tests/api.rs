//! `load`, `list_shots` and `to_toml` on hand-made inputs.

use std::path::{Path, PathBuf};

use pool_physics::{
    BallParams, BallState, CircularCushion, Cushion, Model, MotionState, Pocket, Table, Vec3,
};
use pool_shots::{list_shots, load, parse, to_toml, MAX_FILE_BYTES};
use pool_sim::{Ball, Setup};

/// A fresh empty directory under the system temp dir, unique to this test and process.
fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pool-shots-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SMALL: &str =
    "description = \"one ball\"\ntable = \"carom\"\n[[balls]]\nid = \"a\"\nr = [1, 1]\n";

#[test]
fn load_names_the_setup_after_the_file_stem() {
    let d = temp_dir("stem");
    let p = d.join("my_shot.toml");
    std::fs::write(&p, SMALL).unwrap();
    let s = load(&p).unwrap();
    assert_eq!(s.name, "my_shot");
    // Integers are accepted as floats; state is inferred.
    assert_eq!(
        s.balls[0].state.r,
        Vec3::new(1.0, 1.0, BallParams::pool().radius)
    );
    assert_eq!(s.balls[0].state.motion, MotionState::Stationary);
    assert_eq!(s.physics, Model::pool(BallParams::pool()));
    assert_eq!(s.t_end, None);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn load_refuses_large_files_by_size_before_reading() {
    let d = temp_dir("large");
    let p = d.join("huge.toml");
    let f = std::fs::File::create(&p).unwrap();
    f.set_len(MAX_FILE_BYTES + 1).unwrap(); // sparse: nothing is written or read
    let e = load(&p).unwrap_err();
    assert_eq!(e.field, "file");
    assert!(e.value.contains(&(MAX_FILE_BYTES + 1).to_string()), "{e}");
    assert!(e.message.contains("10 MiB"), "{e}");
    assert_eq!(e.file, p);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn load_reports_missing_and_non_utf8_files() {
    let d = temp_dir("io");
    let e = load(&d.join("nope.toml")).unwrap_err();
    assert_eq!(e.field, "file");
    let p = d.join("bin.toml");
    std::fs::write(&p, b"description = \"\xff\"\n").unwrap();
    let e = load(&p).unwrap_err();
    assert_eq!(e.field, "file");
    assert!(e.message.contains("UTF-8"));
    let e = load(&d).unwrap_err();
    assert_eq!(e.field, "file");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn list_shots_lists_toml_files_directly_in_dir_sorted() {
    let d = temp_dir("list");
    for f in ["b.toml", "a.toml", "c.txt", "10.toml"] {
        std::fs::write(d.join(f), SMALL).unwrap();
    }
    std::fs::create_dir(d.join("sub")).unwrap();
    std::fs::write(d.join("sub").join("d.toml"), SMALL).unwrap();
    std::fs::create_dir(d.join("dir.toml")).unwrap();
    let got = list_shots(&d).unwrap();
    let names: Vec<_> = got
        .iter()
        .map(|p| p.file_name().unwrap().to_str().unwrap())
        .collect();
    assert_eq!(names, ["10.toml", "a.toml", "b.toml"]);
    assert!(got.iter().all(|p| p.parent() == Some(d.as_path())));
    let e = list_shots(&d.join("missing")).unwrap_err();
    assert_eq!(e.field, "directory");
    std::fs::remove_dir_all(&d).unwrap();
}

fn state(r: [f64; 2], v: [f64; 2], w: [f64; 3], radius: f64, motion: MotionState) -> BallState {
    BallState {
        r: Vec3::new(r[0], r[1], radius),
        v: Vec3::new(v[0], v[1], 0.0),
        w: Vec3::new(w[0], w[1], w[2]),
        motion,
        set: 0,
    }
}

fn round_trip(s: &Setup) {
    let text = to_toml(s, "a \"quoted\" description\nwith a newline and ünïcödé");
    let back =
        parse(&text, &s.name, Path::new("rt.toml")).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(&back, s, "\n{text}");
}

#[test]
fn to_toml_round_trips_an_explicit_table_and_odd_values() {
    let p = BallParams {
        m: 0.1 + 0.2,
        radius: 0.03,
        mu_s: 1e-300,
        mu_r: 0.0,
        mu_sp: 0.012_345_678_901_234_5,
        mu_b: 0.07,
        e_b: 1.0,
        e_c: 0.5,
        f_c: 0.25,
        g: 9.806_65,
    };
    let table = Table {
        name: "odd \"box\"".into(),
        length: 2.5,
        width: 1.25,
        cushions: vec![
            Cushion {
                id: "b".into(),
                p1: [0.0, 0.0],
                p2: [2.5, 0.0],
                height: 0.04,
            },
            Cushion {
                id: "r".into(),
                p1: [2.5, 0.0],
                p2: [2.5, 1.25],
                height: 0.04,
            },
            Cushion {
                id: "t".into(),
                p1: [2.5, 1.25],
                p2: [0.0, 1.25],
                height: 0.04,
            },
            Cushion {
                id: "l".into(),
                p1: [0.0, 1.25],
                p2: [0.0, 0.0],
                height: 0.04,
            },
        ],
        circular_cushions: vec![CircularCushion {
            id: "nose".into(),
            center: [1.25, 1.26],
            radius: 0.021_345_678_901_234_5,
            height: 0.039,
        }],
        pockets: vec![Pocket {
            id: "corner".into(),
            center: [0.0, 0.0],
            radius: 0.07,
            depth: Some(0.081_234_5),
            capture_line: None,
        }],
    };
    let setup = Setup {
        name: "odd".into(),
        physics: Model::pool(p),
        table: table.into(),
        balls: vec![
            Ball {
                id: "cue ball \"#1\" ✓".into(),
                state: state(
                    [0.5, 0.5],
                    [1.0 / 3.0, -2.0e-7],
                    [0.1, 0.2, 0.3],
                    0.03,
                    MotionState::Sliding,
                ),
            },
            Ball {
                id: "rolling".into(),
                state: state(
                    [1.5, 0.5],
                    [0.3, 0.0],
                    [0.0, 10.0, -7.0],
                    0.03,
                    MotionState::Rolling,
                ),
            },
            Ball {
                id: "spinning".into(),
                state: state(
                    [1.5, 1.0],
                    [0.0, 0.0],
                    [0.0, 0.0, 5.5],
                    0.03,
                    MotionState::Spinning,
                ),
            },
            Ball {
                id: "still".into(),
                state: state(
                    [2.0, 1.0],
                    [0.0, 0.0],
                    [0.0, 0.0, 0.0],
                    0.03,
                    MotionState::Stationary,
                ),
            },
        ],
        t_end: Some(12.345),
        strike: None,
    };
    setup.validate().unwrap();
    round_trip(&setup);
    let text = to_toml(&setup, "d");
    assert!(text.contains("[table]") && text.contains("[[table.pockets]]"));
    assert!(text.contains("[[table.circular_cushions]]") && text.contains("depth = 0.0812345"));
}

#[test]
fn to_toml_writes_built_in_tables_by_name_and_modified_ones_explicitly() {
    let ball = Ball {
        id: "a".into(),
        state: state(
            [1.0, 0.5],
            [0.0, 0.0],
            [0.0; 3],
            BallParams::pool().radius,
            MotionState::Stationary,
        ),
    };
    let mut setup = Setup {
        name: "t".into(),
        physics: Model::pool(BallParams::pool()),
        table: Table::seven_foot().into(),
        balls: vec![ball],
        t_end: None,
        strike: None,
    };
    let text = to_toml(&setup, "d");
    assert!(text.contains("table = \"seven_foot\"") && !text.contains("[table]"));
    round_trip(&setup);
    let mut table = setup.table.table().clone();
    table.cushions[0].height = 0.04;
    setup.table = table.into();
    let text = to_toml(&setup, "d");
    assert!(text.contains("[table]") && text.contains("name = \"seven_foot\""));
    round_trip(&setup);
}

#[test]
fn to_toml_round_trips_the_ideal_model() {
    let setup = Setup {
        name: "ideal".into(),
        physics: Model::ideal(0.05, 0.2),
        table: Table::by_name("rectangle_3x1.5").unwrap().into(),
        balls: vec![
            Ball {
                id: "a".into(),
                state: state(
                    [1.0, 0.5],
                    [1.0, 0.5],
                    [0.0, 3.0, 0.0],
                    0.05,
                    MotionState::Sliding,
                ),
            },
            Ball {
                id: "b".into(),
                state: state(
                    [2.0, 0.5],
                    [0.0, 0.0],
                    [0.0; 3],
                    0.05,
                    MotionState::Stationary,
                ),
            },
        ],
        t_end: Some(5.0),
        strike: None,
    };
    setup.validate().unwrap();
    round_trip(&setup);
    assert!(to_toml(&setup, "d").contains("table = \"rectangle_3x1.5\""));
}

#[test]
fn snooker_preset_is_pooltools_snooker_ball() {
    // pooltool 0.6.0's PrebuiltBallParams.SNOOKER_GENERIC as its System JSON writes it
    // (u_sp = u_sp_proportionality * R = 0.4444444444444444 * 0.02619375); u_b and e_b are
    // its BallParams class defaults.
    let text = "description = \"snooker\"\ntable = \"pooltool_snooker\"\n[params]\npreset = \"snooker\"\n[[balls]]\nid = \"white\"\nr = [0.7089, 1.0]\n";
    let s = parse(text, "x", Path::new("x.toml")).unwrap();
    let want = BallParams {
        m: 0.14,
        radius: 0.02619375,
        mu_s: 0.5,
        mu_r: 0.01,
        mu_sp: 0.011641666666666665,
        mu_b: 0.05,
        e_b: 0.95,
        e_c: 0.85,
        f_c: 0.5,
        g: 9.81,
    };
    assert_eq!(BallParams::snooker(), want);
    assert_eq!(s.physics, Model::pool(want));
    assert_eq!(s.balls[0].state.r.z, 0.02619375);
}

#[test]
fn presets_and_overrides() {
    let text = "description = \"carom\"\ntable = \"carom\"\n[params]\npreset = \"carom\"\nmu_r = 0.02\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0]\n";
    let s = parse(text, "x", Path::new("x.toml")).unwrap();
    let want = BallParams {
        mu_r: 0.02,
        ..BallParams::carom()
    };
    assert_eq!(s.physics, Model::pool(want));
    assert_eq!(s.balls[0].state.r.z, BallParams::carom().radius);
    let ideal = "description = \"i\"\nmodel = \"ideal\"\ntable = \"carom\"\nt_end = 2\n[params]\npreset = \"carom\"\nm = 0.3\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0, 0.03075]\nv = [1, 0, 0]\nstate = \"sliding\"\n";
    let s = parse(ideal, "x", Path::new("x.toml")).unwrap();
    assert_eq!(s.physics, Model::ideal(0.03075, 0.3));
    assert_eq!(s.t_end, Some(2.0));
}

#[test]
fn laws_chosen_per_event_type_round_trip_and_presets_read_the_same_in_every_spelling() {
    use pool_physics::resolve::{LawSpec, Param, Resolver};
    use pool_physics::Motion;
    let mut laws = Resolver::seed();
    let damped = LawSpec::named("unrealistic").with("restitution", Param::Bool(true));
    laws.set("ball_linear_cushion", &damped).unwrap();
    let params = BallParams {
        e_c: 0.5,
        ..BallParams::pool()
    };
    let setup = Setup {
        name: "laws".into(),
        physics: Model::new(params, Motion::Cloth, laws),
        table: Table::seven_foot().into(),
        balls: vec![Ball {
            id: "cue".into(),
            state: state(
                [0.5, 0.4953],
                [1.0, 0.2],
                [0.0, 0.0, 0.0],
                BallParams::pool().radius,
                MotionState::Sliding,
            ),
        }],
        t_end: None,
        strike: None,
    };
    setup.validate().unwrap();
    assert_eq!(setup.physics.preset_name(), None);
    let text = to_toml(&setup, "d");
    assert!(!text.contains("model = \"pool\""), "{text}");
    assert!(
        text.contains("ball_linear_cushion = { model = \"unrealistic\", restitution = true }"),
        "{text}"
    );
    assert!(text.contains("e_c = 0.5"), "{text}");
    round_trip(&setup);

    let base = |physics: &str| {
        let t = format!("description = \"x\"\ntable = \"carom\"\nt_end = 1.0\n{physics}\n[[balls]]\nid = \"a\"\nr = [1.0, 1.0]\n");
        parse(&t, "x", Path::new("x.toml")).unwrap_or_else(|e| panic!("{e}\n{t}"))
    };
    let ideal = base("model = \"ideal\"");
    assert_eq!(ideal.physics.preset_name(), Some("ideal"));
    for spelling in [
        "physics = \"ideal\"",
        "[physics]\npreset = \"ideal\"",
        "[physics]\nmotion = \"frictionless\"\nball_linear_cushion = \"unrealistic\"\nball_circular_cushion = { model = \"unrealistic\", restitution = false }",
    ] {
        assert_eq!(base(spelling), ideal, "{spelling}");
    }
}

#[test]
fn a_cue_strike_reads_writes_and_starts_the_log() {
    let text = "description = \"strike\"\nmodel = \"pooltool_default\"\ntable = \"seven_foot\"\n[cue]\nball = \"cue\"\nV0 = 2.5\nphi = 90.0\nb = -0.3\na = 0.1\n[cue.specs]\nM = 0.5\n[[balls]]\nid = \"1\"\nr = [1.0, 0.8]\n[[balls]]\nid = \"cue\"\nr = [1.0, 0.3]\n";
    let s = parse(text, "strike", Path::new("s.toml")).unwrap();
    let strike = s.strike.as_ref().unwrap();
    assert_eq!(strike.ball, 1);
    assert_eq!(
        (strike.cue.v0, strike.cue.phi, strike.cue.a, strike.cue.b),
        (2.5, 90.0, 0.1, -0.3)
    );
    assert_eq!(strike.cue.specs.mass, 0.5);
    round_trip(&s);
    // The struck ball starts at rest and leaves along +y with backspin after the strike.
    let (states, event) = s.initial_states();
    assert_eq!(s.balls[1].state.motion, MotionState::Stationary);
    assert_eq!(event.unwrap().kind.name(), "stick_ball");
    assert!(states[1].v.y > 1.0 && states[1].v.x.abs() < 0.1 * states[1].v.y);
    assert!(
        states[1].w.x > 0.0,
        "backspin on a ball moving +y is w_x > 0: {:?}",
        states[1].w
    );
}

#[test]
fn a_ball_in_a_pocket_throat_is_on_the_table_and_one_behind_a_rail_is_not() {
    let shot = |r: &str| {
        format!("description = \"throat\"\ntable = \"pooltool_pocket\"\n[[balls]]\nid = \"9\"\nr = {r}\nv = [0.5, 0.5]\n")
    };
    // pooltool reaches this state in a break: (0.99068, 1.94511) m in its frame, the top right
    // corner pocket's throat, beyond the rail line (y > W = 0.9906 m) and outside the pocket.
    let s = parse(&shot("[1.94511, 0.99068]"), "t", Path::new("t.toml")).unwrap();
    assert!(s.balls[0].state.r.y > s.table.width);
    round_trip(&s);
    // Behind the long rail, beyond the playing area: off the table.
    let e = parse(&shot("[0.5, 1.1]"), "t", Path::new("t.toml")).unwrap_err();
    assert!(e.field.starts_with("balls[0].r"), "{e}");
    assert!(e.to_string().contains("off the playing area"), "{e}");
    // 1 mm inside a rounded jaw's reach (R + r from arc c16t's center at (0.0910, 1.0116)), clear of
    // every straight segment.
    let e = parse(&shot("[0.0744, 0.966]"), "t", Path::new("t.toml")).unwrap_err();
    assert!(e.to_string().contains("overlaps cushion \"c16t\""), "{e}");
}

#[test]
fn per_ball_parameters_read_write_and_read_back_bit_for_bit() {
    // A heavy bar-box cue ball (2 3/8 in, 7 oz) and a snooker-size ball among pool balls, a
    // ball giving only the shot's own value (so none of its own), under pooltool's laws.
    let text = r#"
description = "unequal balls"
model = "pooltool_default"
table = "seven_foot"

[[balls]]
id = "cue"
m = 0.1985
R = 0.030163
e_b = 0.93
r = [0.5, 0.4953]
v = [1.5, 0.0]

[[balls]]
id = "snooker"
m = 0.142
R = 0.02625
mu_s = 0.21
r = [1.0, 0.7]

[[balls]]
id = "1"
R = 0.028575
r = [1.3, 0.4953]

[[balls]]
id = "2"
m = 0.1985
R = 0.030163
e_b = 0.93
r = [1.3, 0.2]
"#;
    let s = parse(text, "unequal", Path::new("unequal.toml")).unwrap();
    let sets: Vec<u16> = s.balls.iter().map(|b| b.state.set).collect();
    assert_eq!(
        sets,
        [1, 2, 0, 1],
        "equal balls share a set; the shot's values are set 0"
    );
    let cue = s.physics.params_of(&s.balls[0].state);
    assert_eq!((cue.m, cue.radius, cue.e_b), (0.1985, 0.030163, 0.93));
    assert_eq!(cue.mu_s, s.physics.params().mu_s, "the rest is the shot's");
    // z = the ball's own R.
    assert_eq!(s.balls[0].state.r.z, 0.030163);
    assert_eq!(s.balls[1].state.r.z, 0.02625);
    let written = to_toml(&s, "d");
    assert!(
        written.contains("m = 0.1985\nR = 0.030163\ne_b = 0.93\n"),
        "{written}"
    );
    assert!(
        written.contains("m = 0.142\nR = 0.02625\nmu_s = 0.21\n"),
        "{written}"
    );
    round_trip(&s);
}

#[test]
fn a_rack_key_places_the_rack_and_to_toml_writes_the_placed_balls() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots/break_9ball.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let plain = parse(&text, "break_9ball", &path).unwrap();
    let with = |lines: &str| text.replacen("table = ", &format!("{lines}\ntable = "), 1);
    for (lines, model, seed) in [
        (
            "rack = \"jittered:5e-5\"\nrack_seed = 9",
            "jittered:5e-5",
            9,
        ),
        ("rack = \"jittered:5e-5\"", "jittered:5e-5", 0),
        ("rack = \"frozen\"", "frozen", 0),
        ("rack = \"lattice:1e-6\"", "lattice:1e-6", 0),
    ] {
        let model: pool_sim::RackModel = model.parse().unwrap();
        let racked = parse(&with(lines), "break_9ball", &path).unwrap();
        assert_eq!(racked, model.apply(&plain, seed).unwrap(), "{lines}");
        round_trip(&racked);
        let written = to_toml(&racked, "racked");
        assert!(!written.lines().any(|l| l.starts_with("rack")), "{written}");
    }
    // The legacy lattice is the file's own rack, bit for bit.
    assert_eq!(
        parse(&with("rack = \"lattice:1e-6\""), "break_9ball", &path).unwrap(),
        plain
    );
    let other = parse(
        &with("rack = \"jittered:5e-5\"\nrack_seed = 10"),
        "break_9ball",
        &path,
    );
    let nine = parse(
        &with("rack = \"jittered:5e-5\"\nrack_seed = 9"),
        "break_9ball",
        &path,
    );
    assert_ne!(other.unwrap(), nine.unwrap());
}
