//! The resolver: every built-in law by name, its spec round trip, the ball parameters it reads,
//! and the invariants every law keeps whatever the equations of motion (energy never rises, an
//! approaching ball leaves the cushion).

use pool_physics::resolve::{
    BallBallModel, BallCushionModel, BallPocketModel, LawSpec, Param, Resolver, TransitionModel,
};
use pool_physics::{BallParams, BallState, Model, Motion, Physics, Vec2, Vec3};
use proptest::prelude::*;

/// Every built-in cushion law, with each value of its parameters.
fn cushion_laws() -> Vec<LawSpec> {
    vec![
        LawSpec::named("han_2005"),
        LawSpec::named("unrealistic"),
        LawSpec::named("unrealistic").with("restitution", Param::Bool(true)),
    ]
}

/// A model with every motion and every cushion law.
fn models() -> Vec<Model> {
    let mut out = Vec::new();
    for motion in Motion::ALL {
        for spec in cushion_laws() {
            let mut laws = Resolver::seed();
            laws.set("ball_linear_cushion", &spec).unwrap();
            out.push(Model::new(BallParams::pool(), motion, laws));
        }
    }
    out
}

#[test]
fn every_built_in_law_is_found_by_name_and_gives_its_spec_back() {
    for &name in BallBallModel::BUILT_IN {
        let m = BallBallModel::from_spec(&LawSpec::named(name)).unwrap();
        assert_eq!(m.name(), name);
        assert_eq!(BallBallModel::from_spec(&m.spec()).unwrap(), m);
    }
    for spec in cushion_laws() {
        let m = BallCushionModel::from_spec(&spec).unwrap();
        assert_eq!(BallCushionModel::from_spec(&m.spec()).unwrap(), m);
    }
    for &name in BallCushionModel::BUILT_IN {
        assert!(BallCushionModel::names().contains(&name.to_string()));
    }
    for &name in BallPocketModel::BUILT_IN {
        assert_eq!(
            BallPocketModel::from_spec(&LawSpec::named(name))
                .unwrap()
                .name(),
            name
        );
    }
    for &name in TransitionModel::BUILT_IN {
        assert_eq!(
            TransitionModel::from_spec(&LawSpec::named(name))
                .unwrap()
                .name(),
            name
        );
    }
    let mut r = Resolver::seed();
    for (event_type, spec) in Resolver::seed().specs() {
        r.set(event_type, &spec).unwrap();
    }
    assert_eq!(r, Resolver::seed());
    let e = r.set("ball_rail", &LawSpec::named("han_2005")).unwrap_err();
    assert_eq!(e.param, "event_type");
    let e = BallCushionModel::from_spec(&LawSpec::named("rubber")).unwrap_err();
    assert!(e.why.contains("han_2005, unrealistic"), "{e}");
}

#[test]
fn a_model_reads_the_ball_parameters_of_its_motion_and_laws_and_resets_the_rest() {
    let pool = Model::pool(BallParams::pool());
    assert_eq!(
        pool.ball_params(),
        ["m", "R", "mu_s", "mu_r", "mu_sp", "e_c", "f_c", "g"]
    );
    let ideal = Model::ideal(0.03, 0.2);
    assert_eq!(ideal.ball_params(), ["m", "R"]);
    let mut laws = Resolver::mirror();
    let damped = LawSpec::named("unrealistic").with("restitution", Param::Bool(true));
    laws.set("ball_circular_cushion", &damped).unwrap();
    let odd = BallParams {
        e_b: 0.1,
        e_c: 0.3,
        mu_s: 0.9,
        ..BallParams::pool()
    };
    let m = Model::new(odd, Motion::Frictionless, laws);
    assert_eq!(m.ball_params(), ["m", "R", "e_c"]);
    // Unread fields are reset, so two models computing the same things compare equal.
    assert_eq!(m.params().e_c, 0.3);
    assert_eq!((m.params().e_b, m.params().mu_s), (0.95, 0.2));
    assert_eq!(m.preset_name(), None);
    assert_eq!(
        Model::preset("ideal", odd).unwrap(),
        Model::ideal(odd.radius, odd.m)
    );
}

#[test]
fn unrealistic_reverses_the_normal_velocity_scaled_by_e_c_only_with_restitution() {
    let s = BallState::new(
        Vec3::new(1.0, 0.5, 0.028575),
        Vec3::new(1.0, 0.4, 0.0),
        Vec3::new(0.0, 0.0, 7.0),
        0.028575,
    );
    let params = BallParams {
        e_c: 0.5,
        ..BallParams::pool()
    };
    for (restitution, vx) in [(false, -1.0), (true, -0.5)] {
        let mut laws = Resolver::seed();
        let spec = LawSpec::named("unrealistic").with("restitution", Param::Bool(restitution));
        laws.set("ball_linear_cushion", &spec).unwrap();
        let m = Model::new(params, Motion::Frictionless, laws);
        let out = m.resolve_ball_cushion(&s, Vec2::new(1.0, 0.0), 0.036576);
        assert_eq!((out.v.x, out.v.y, out.w.z), (vx, 0.4, 7.0));
    }
}

fn approaching() -> impl Strategy<Value = (BallState, Vec2)> {
    (
        0.05f64..6.0,
        -1.5f64..1.5,
        -1.0f64..1.0,
        -60.0f64..60.0,
        -60.0f64..60.0,
        -60.0f64..60.0,
        0.0f64..std::f64::consts::TAU,
    )
        .prop_map(|(speed, angle, slide, wx, wy, wz, phi)| {
            let r = BallParams::pool().radius;
            let normal = Vec2::new(phi.cos(), phi.sin());
            // Velocity at `angle` from the normal, so the ball approaches the cushion.
            let (c, s) = (angle.cos(), angle.sin());
            let v = Vec3::new(
                normal.x * c - normal.y * s,
                normal.x * s + normal.y * c,
                0.0,
            ) * speed;
            let w = if slide > 0.0 {
                Vec3::new(wx, wy, wz)
            } else {
                Vec3::new(-v.y / r, v.x / r, wz)
            };
            (BallState::new(Vec3::new(1.0, 0.5, r), v, w, r), normal)
        })
}

proptest! {
    #[test]
    fn no_cushion_law_adds_energy_or_sends_the_ball_into_the_cushion((s, normal) in approaching()) {
        for m in models() {
            let e0 = m.kinetic_energy(&s);
            for out in [
                m.resolve_ball_cushion(&s, normal, 0.036576),
                m.resolve_sustained_cushion(&s, normal, 0.036576),
            ] {
                prop_assert!(m.kinetic_energy(&out) <= e0 * (1.0 + 1e-12), "{:?}", m.resolver());
                prop_assert!(out.v.xy().dot(&normal) <= 1e-12 * s.v.norm(), "{:?}", m.resolver());
                prop_assert_eq!(out.motion, m.infer_motion(&out.v, &out.w));
            }
        }
    }
}
