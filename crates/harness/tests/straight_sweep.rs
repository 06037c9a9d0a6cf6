//! The discrete integrator against the event engine on a straight shot with a closed form:
//! the error is in [0, dt] at every dt and falls as dt (log-log slope near 1).

use pool_discrete::Scheme;
use pool_harness::{log_dt_sweep, loglog_slope, run_engine, run_reference};
use pool_physics::{BallParams, BallState, EventKind, Model, Table, Vec3};
use pool_sim::{Ball, Setup};

const R: f64 = 0.028575;

fn straight() -> Setup {
    let v = Vec3::new(1.5, 0.0, 0.0);
    let ball = |id: &str, x: f64, v: Vec3| Ball {
        id: id.into(),
        state: BallState::new(
            Vec3::new(x, 0.4953, R),
            v,
            Vec3::new(-v.y / R, v.x / R, 0.0),
            R,
        ),
    };
    Setup {
        name: "straight".into(),
        physics: Model::pool(BallParams::pool()),
        table: Table::seven_foot().into(),
        balls: vec![ball("cue", 0.5, v), ball("1", 1.3, Vec3::zeros())],
        t_end: None,
        strike: None,
    }
}

#[test]
fn discrete_collision_error_is_within_one_step_and_falls_as_dt() {
    let setup = straight();
    let reference = run_reference(&setup, &pool_engines::EngineSpec::reference()).unwrap();
    let t_ref = reference.outcome.events[0].time;
    assert_eq!(reference.outcome.events[0].kind, EventKind::BallBall);
    let mut points = Vec::new();
    for dt in log_dt_sweep(1e-2, 1e-5, 3) {
        let run = run_engine(
            &setup,
            &reference,
            &pool_engines::EngineSpec::discrete(dt, Scheme::EndOfStep).unwrap(),
            None,
        )
        .unwrap();
        let first = run
            .errors
            .iter()
            .find(|e| e.kind == "ball_ball")
            .expect("collision matched");
        assert_eq!(first.t_reference_s, t_ref);
        assert!(
            first.error_s >= 0.0 && first.error_s <= dt,
            "dt {dt}: error {} outside [0, dt]",
            first.error_s
        );
        // Every reference collision is found (transitions at the end of the shot may drift
        // out of the matching window at the coarsest steps).
        let collisions = reference
            .outcome
            .events
            .iter()
            .filter(|e| e.kind.is_collision())
            .count();
        let matched = run
            .errors
            .iter()
            .filter(|e| e.kind.starts_with("ball_"))
            .count();
        assert_eq!(matched, collisions, "dt {dt}: {:?}", run.summary);
        points.push((dt, run.summary.collision_time_error_median_s));
    }
    let slope = loglog_slope(&points);
    assert!(
        (0.8..=1.2).contains(&slope),
        "slope {slope}, points {points:?}"
    );
}

#[test]
fn euler_scheme_converges_too() {
    let setup = straight();
    let reference = run_reference(&setup, &pool_engines::EngineSpec::reference()).unwrap();
    let mut points = Vec::new();
    for dt in log_dt_sweep(1e-2, 1e-5, 2) {
        let run = run_engine(
            &setup,
            &reference,
            &pool_engines::EngineSpec::discrete(dt, Scheme::Euler).unwrap(),
            None,
        )
        .unwrap();
        assert!(
            run.errors.iter().any(|e| e.kind == "ball_ball"),
            "dt {dt}: {:?}",
            run.summary
        );
        points.push((dt, run.summary.collision_time_error_median_s));
    }
    let slope = loglog_slope(&points);
    assert!(
        (0.7..=1.3).contains(&slope),
        "slope {slope}, points {points:?}"
    );
}

#[test]
fn a_sweep_hits_round_steps_exactly() {
    let dts = log_dt_sweep(1e-2, 1e-5, 3);
    assert_eq!(dts.len(), 10);
    for round in [1e-2, 1e-3, 1e-4, 1e-5] {
        assert!(dts.contains(&round), "{round} not in {dts:?}");
    }
    assert!(dts.windows(2).all(|w| w[0] > w[1]));
    // 10^(-1/3) steps, to 12 significant digits.
    assert!((dts[1] / 1e-2 - 10f64.powf(-1.0 / 3.0)).abs() < 1e-11);
}
