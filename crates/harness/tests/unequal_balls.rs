//! Whole shots of unequal balls (per-ball m, R, mu_s) under every cloth preset, some with two
//! balls frozen together at their contact distance: the event engine keeps every invariant
//! `check_outcome` checks (contact residuals and overlaps at each pair's own distance, cushion
//! penetration at each ball's own R, energy, time order) and ends at rest; the discrete
//! integrator (exact and located schemes) ends physically without an energy rise. The engines
//! that take one set of ball parameters (rapier, exec) refuse such shots as unsupported.

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{check_outcome, energy_rises, violations, EndCheck};
use pool_physics::{contact_distance, BallParams, BallState, Model, Table, Vec3};
use pool_sim::{Ball, Setup, Termination};
use proptest::prelude::*;

/// One ball: grid cell jitter (m), velocity (m/s), and its own m (kg), R (m), mu_s.
type BallChoice = ((f64, f64), (f64, f64), (f64, f64, f64));

fn shot() -> impl Strategy<Value = (usize, bool, Vec<BallChoice>)> {
    let ball = (
        (-0.02f64..0.02, -0.02f64..0.02),
        (-3.0f64..3.0, -3.0f64..3.0),
        (0.12f64..0.25, 0.0255f64..0.031, 0.15f64..0.25),
    );
    (0usize..3, any::<bool>(), prop::collection::vec(ball, 2..8))
}

/// Balls on a 0.15 m grid in the middle of the 7-foot table (so never closer than 2 R_max),
/// each with its own parameters; with `frozen`, ball 1 is moved to touch ball 0 exactly.
fn setup(preset: usize, frozen: bool, balls: &[BallChoice]) -> Setup {
    let name = ["pool", "pooltool_default", "mathavan"][preset];
    let mut physics = Model::preset(name, BallParams::pool()).unwrap();
    let mut out: Vec<Ball> = Vec::new();
    for (k, &((jx, jy), (vx, vy), (m, radius, mu_s))) in balls.iter().enumerate() {
        let own = BallParams {
            m,
            radius,
            mu_s,
            ..BallParams::pool()
        };
        let set = physics.add_ball_params(&own).unwrap();
        let (col, row) = ((k % 4) as f64, (k / 4) as f64);
        let (x, y) = (0.6 + 0.15 * col + jx, 0.4 + 0.15 * row + jy);
        let v = Vec3::new(vx, vy, 0.0);
        let state = BallState::new(Vec3::new(x, y, radius), v, Vec3::zeros(), radius);
        let mut state = state.with_set(set);
        state.motion = pool_physics::Physics::infer_motion(&physics, &state);
        out.push(Ball {
            id: k.to_string(),
            state,
        });
    }
    if frozen {
        let (a, b) = (out[0].state, out[1].state);
        let (ra, rb) = (physics.params_of(&a).radius, physics.params_of(&b).radius);
        let n = (b.r - a.r).xy().normalize();
        let d = contact_distance(ra, rb);
        out[1].state.r = Vec3::new(a.r.x + n.x * d, a.r.y + n.y * d, rb);
    }
    let s = Setup {
        name: format!("unequal_{name}"),
        physics,
        table: Table::seven_foot().into(),
        balls: out,
        t_end: None,
        strike: None,
    };
    s.validate().unwrap();
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn unequal_balls_keep_every_invariant_in_both_engines((preset, frozen, balls) in shot()) {
        let s = setup(preset, frozen, &balls);
        let options = RunOptions {
            snapshots: Some(f64::INFINITY),
            max_events: Some(200_000),
            ..RunOptions::default()
        };
        let event = EngineSpec::reference().build_with(&options).unwrap().run(&s);
        prop_assert_eq!(event.termination, Termination::AtRest);
        let rep = check_outcome(&s, &event, 4);
        let broken = violations(&event, Some(&rep));
        prop_assert!(broken.is_empty(), "{broken:?} {rep:?}");
        prop_assert!(rep.max_ball_ball_residual_m < 1e-9, "{rep:?}");
        // pooltool's contact spacer moves a pair back along its paths before the law, which
        // can press one of them into a third ball it touches (as in pooltool).
        prop_assert!(rep.max_overlap_m <= rep.overlap_allowance_m, "{rep:?}");
        prop_assert!(EndCheck::of(&s, &event).failures(&s).is_empty());

        for scheme in [pool_discrete::Scheme::EndOfStep, pool_discrete::Scheme::Located] {
            let discrete = EngineSpec::discrete(1e-3, scheme)
                .unwrap()
                .build_with(&RunOptions {
                    snapshots: Some(0.01),
                    max_events: None,
                    ..RunOptions::default()
                })
                .unwrap()
                .run(&s);
            prop_assert_eq!(discrete.termination, Termination::AtRest, "{:?}", scheme);
            prop_assert!(violations(&discrete, None).is_empty(), "{:?}", scheme);
            prop_assert_eq!(energy_rises(&s.physics, &discrete.snapshots), 0, "{:?}", scheme);
        }
    }
}

#[test]
fn engines_of_one_ball_parameter_set_refuse_unequal_balls_as_unsupported() {
    let s = setup(0, false, &[((0.0, 0.0), (1.0, 0.0), (0.2, 0.03, 0.2)); 2]);
    let mut equal = s.clone();
    for b in &mut equal.balls {
        b.state.set = 0;
        b.state.r.z = BallParams::pool().radius;
    }
    equal.physics = Model::preset("pool", BallParams::pool()).unwrap();
    for spec in ["rapier:1e-3", "exec:/nonexistent/program"] {
        let engine: EngineSpec = spec.parse().unwrap();
        let engine = engine.build().unwrap();
        let e = engine.try_run(&s).unwrap_err();
        assert!(e.unsupported, "{spec}: {e}");
        assert!(
            e.to_string().contains("parameters of their own"),
            "{spec}: {e}"
        );
        assert_eq!(engine.run(&s).termination, Termination::Failed, "{spec}");
    }
    // Equal balls still go through (rapier runs them).
    let engine = "rapier:1e-3"
        .parse::<EngineSpec>()
        .unwrap()
        .build()
        .unwrap();
    assert!(engine.try_run(&equal).is_ok());
}
