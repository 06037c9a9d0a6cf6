//! The seams, used as a newcomer would: a collision law and an engine defined here, outside
//! every crate, each added with one registration call, then chosen by name (the law from a shot
//! file, the engine from a spec string) and run through the harness like the built-in ones.

use std::path::Path;
use std::sync::{Arc, Once};

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{run_engine, run_reference};
use pool_physics::resolve::{BallCushionLaw, BallCushionModel, Law, LawSpec, Param};
use pool_physics::{BallParams, BallState, Vec2, Vec3};
use pool_sim::{Engine, Outcome, Setup, Termination};

/// A cushion that takes all of the normal velocity and keeps the rest (e = 0, no friction):
/// the ball stops against it and runs along it. `keep` (default 0) is the fraction of the
/// normal speed it gives back, to show a law with a parameter.
#[derive(Debug)]
struct Wall {
    keep: f64,
}

impl Law for Wall {
    fn name(&self) -> &str {
        "test_inelastic_wall"
    }
    fn params(&self) -> Vec<(String, Param)> {
        vec![("keep".into(), Param::Number(self.keep))]
    }
}

impl BallCushionLaw for Wall {
    fn resolve(&self, _p: &BallParams, s: &BallState, normal: Vec2, _h: f64) -> (Vec3, Vec3) {
        let n = Vec3::new(normal.x, normal.y, 0.0);
        (s.v - n * ((1.0 + self.keep) * s.v.dot(&n)), s.w)
    }
}

/// An engine in which nothing ever moves: the smallest thing that satisfies the trait.
struct Motionless;

impl Engine for Motionless {
    fn run(&self, setup: &Setup) -> Outcome {
        Outcome {
            events: Vec::new(),
            final_states: setup.balls.iter().map(|b| b.state).collect(),
            end_time: 0.0,
            termination: Termination::TimeLimit,
            ops: Default::default(),
            snapshots: Vec::new(),
            engine_s: None,
        }
    }
}

fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        BallCushionModel::register("test_inelastic_wall", |spec: &LawSpec| {
            spec.only(&["keep"])?;
            let keep = spec.number_or("keep", 0.0)?;
            Ok(Arc::new(Wall { keep }) as Arc<dyn BallCushionLaw>)
        })
        .unwrap();
        pool_engines::register("test_motionless", |args: &str, _: &RunOptions| {
            if args.is_empty() {
                Ok(Box::new(Motionless) as Box<dyn Engine>)
            } else {
                Err(format!("takes no arguments, got {args:?}"))
            }
        })
        .unwrap();
    });
}

/// A frictionless ball sent at atan(1/2) from the normal into the right rail of the carom table, then up into
/// the top rail, under the law named `law` (a pocketless table: the corner would be a pocket).
fn shot(law: &str) -> String {
    format!(
        "description = \"into two rails\"\nmodel = \"ideal\"\ntable = \"carom\"\nt_end = 10.0\n\
         [physics]\nball_linear_cushion = {law}\n\
         [[balls]]\nid = \"cue\"\nr = [1.5, 0.3]\nv = [1.0, 0.5]\n"
    )
}

#[test]
fn a_law_registered_here_is_chosen_by_name_in_a_shot_file_and_run_by_both_engines() {
    register();
    let setup =
        pool_shots::parse(&shot("\"test_inelastic_wall\""), "wall", Path::new("x")).unwrap();
    let law = &setup.physics.resolver().ball_linear_cushion;
    assert_eq!(law.name(), "test_inelastic_wall");
    // Written back and read again: the same set-up.
    let text = pool_shots::to_toml(&setup, "again");
    assert!(text.contains("test_inelastic_wall"), "{text}");
    assert_eq!(
        pool_shots::parse(&text, "wall", Path::new("y")).unwrap(),
        setup
    );

    // The event engine: the right rail takes v_x, the ball runs up along it at 0.5 m/s into
    // the top rail, which takes v_y: at rest in the top-right corner, R from both rails.
    let r = setup.physics.params().radius;
    let (l, w) = (setup.table.length, setup.table.width);
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let o = &reference.outcome;
    let kinds: Vec<&str> = o.events.iter().map(|e| e.kind.name()).collect();
    assert_eq!(kinds, ["ball_linear_cushion", "ball_linear_cushion"]);
    assert_eq!(o.termination, Termination::AtRest);
    let end = o.final_states[0];
    assert_eq!(end.v, Vec3::zeros());
    assert!(
        (end.r.x - (l - r)).abs() < 1e-12 && (end.r.y - (w - r)).abs() < 1e-12,
        "{end:?}"
    );
    // First hit at x = l - R: t = (l - R - 1.5) / 1; second when y reaches w - R.
    let t1 = (l - r - 1.5) / 1.0;
    let t2 = t1 + (w - r - (0.3 + 0.5 * t1)) / 0.5;
    assert!((o.events[0].time - t1).abs() < 1e-12 && (o.events[1].time - t2).abs() < 1e-12);

    // The discrete integrator, through the same harness call as any engine: the same two
    // events, each noticed within a step of the exact time.
    let dt = 1e-4;
    let spec = EngineSpec::discrete(dt, pool_discrete::Scheme::EndOfStep).unwrap();
    let run = run_engine(&setup, &reference, &spec, None).unwrap();
    assert_eq!(run.summary.n_matched, 2, "{:?}", run.summary);
    assert!(run.summary.collision_time_error_max_s <= dt);
    assert_eq!(run.outcome.final_states[0].v, Vec3::zeros());
}

#[test]
fn a_registered_law_takes_its_parameters_from_the_table_form_and_refuses_unknown_ones() {
    register();
    let half = shot("{ model = \"test_inelastic_wall\", keep = 0.5 }");
    let setup = pool_shots::parse(&half, "wall", Path::new("x")).unwrap();
    let o = run_reference(&setup, &EngineSpec::reference())
        .unwrap()
        .outcome;
    // Half the normal speed comes back off the right rail: v_x = -0.5 after the first event.
    assert_eq!(o.events[0].kind.name(), "ball_linear_cushion");
    let after = o.snapshots[1].states[0].v;
    assert!(
        (after.x + 0.5).abs() < 1e-15 && (after.y - 0.5).abs() < 1e-15,
        "{after:?}"
    );

    let bad = shot("{ model = \"test_inelastic_wall\", bounce = 0.5 }");
    let e = pool_shots::parse(&bad, "wall", Path::new("x.toml")).unwrap_err();
    assert_eq!(e.field, "physics.ball_linear_cushion.bounce", "{e}");
    assert!(e.message.contains("keep"), "{e}");
    // A built-in name cannot be taken.
    let taken = BallCushionModel::register("han_2005", |_| unreachable!());
    assert!(taken.is_err());
}

#[test]
fn an_engine_registered_here_is_built_from_its_spec_and_compared_like_any_other() {
    register();
    let spec: EngineSpec = "test_motionless".parse().unwrap();
    assert_eq!((spec.family(), spec.dt()), ("test_motionless", None));
    assert_eq!(spec.to_string().parse::<EngineSpec>().unwrap(), spec);
    let refused = "test_motionless:fast"
        .parse::<EngineSpec>()
        .unwrap()
        .build();
    let Err(e) = refused else {
        panic!("built with arguments it does not take")
    };
    assert!(e.to_string().contains("takes no arguments"), "{e}");

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots/straight.toml");
    let setup = pool_shots::load(&path).unwrap();
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let run = run_engine(&setup, &reference, &spec, None).unwrap();
    let n = reference.outcome.events.len();
    assert!(n > 0);
    assert_eq!(run.summary.engine, "test_motionless");
    assert_eq!((run.summary.n_matched, run.summary.n_missed), (0, n));
    assert!(
        run.summary.final_position_error_max_m > 0.5,
        "the balls did move in the reference"
    );
    // Unknown families name the registered ones among the valid choices.
    let e = "test_motionles"
        .parse::<EngineSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("test_motionless"), "{e}");
}
