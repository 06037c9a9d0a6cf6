//! The discrete integrator's own invariants over random realistic two-ball shots.

use pool_discrete::{DiscreteEngine, Scheme};
use pool_physics::{BallParams, BallState, Model, Physics, Table, Vec3};
use pool_sim::{Ball, Engine, Setup, Termination};
use proptest::prelude::*;

const R: f64 = 0.028575;

fn setup(v: Vec3, w: Vec3) -> Setup {
    let s = Setup {
        name: "p".into(),
        physics: Model::pool(BallParams::pool()),
        table: Table::seven_foot().into(),
        balls: vec![
            Ball {
                id: "cue".into(),
                state: BallState::new(Vec3::new(0.5, 0.45, R), v, w, R),
            },
            Ball {
                id: "1".into(),
                state: BallState::new(Vec3::new(1.2, 0.5, R), Vec3::zeros(), Vec3::zeros(), R),
            },
        ],
        t_end: None,
        strike: None,
    };
    s.validate().unwrap();
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Events are reported at step ends (t = k dt), in order; total energy never rises from one
    /// step to the next; every shot comes to rest; states stay finite.
    #[test]
    fn steps_report_step_ends_and_never_add_energy(
        speed in 0.3f64..6.0, angle in -0.5f64..0.5,
        wx in -80.0f64..80.0, wy in -80.0f64..80.0, wz in -40.0f64..40.0,
        euler in any::<bool>(), dt_exp in 2.0f64..4.0,
    ) {
        let dt = 10f64.powf(-dt_exp);
        let scheme = if euler { Scheme::Euler } else { Scheme::EndOfStep };
        let s = setup(Vec3::new(speed * angle.cos(), speed * angle.sin(), 0.0), Vec3::new(wx, wy, wz));
        let out = DiscreteEngine::new(dt, scheme).unwrap().with_sampling(Some(dt)).run(&s);
        prop_assert_eq!(out.termination, Termination::AtRest);
        let mut last = 0.0;
        for e in &out.events {
            let k = (e.time / dt).round();
            prop_assert!((e.time - k * dt).abs() <= 1e-12 * e.time.max(1.0), "event at {} not a step end", e.time);
            prop_assert!(e.time >= last);
            last = e.time;
        }
        let energy = |st: &[BallState]| st.iter().map(|b| s.physics.kinetic_energy(b)).sum::<f64>();
        for w in out.snapshots.windows(2) {
            prop_assert!(w[1].states.iter().all(|b| b.is_finite()));
            prop_assert!(energy(&w[1].states) <= energy(&w[0].states) * (1.0 + 1e-12) + 1e-15,
                "energy rose at t = {}", w[1].time);
        }
    }
}
