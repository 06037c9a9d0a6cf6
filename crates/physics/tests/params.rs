//! Every documented parameter changes what reads it: each law's own parameters (by pooltool's
//! names, nested friction models included), each ball parameter a law declares it reads, the
//! equations of motion's coefficients and the cue's specs. And a parameter given to a law that
//! has no such parameter is an error naming it, never silently ignored.

use pool_physics::resolve::{
    BallBallModel, BallCushionModel, Cue, CueSpecs, LawSpec, Param, StickBallModel,
};
use pool_physics::{BallParams, BallState, Model, Motion, Physics, Vec2, Vec3};

const R: f64 = 0.028575;

/// A cue ball at 2 m/s with top and side spin, 45 degrees into a resting object ball: the
/// contact slides (friction at its limit), so every friction coefficient shows.
fn pair() -> (BallState, BallState) {
    let a = BallState::new(
        Vec3::new(1.0, 0.5, R),
        Vec3::new(2.0, 0.0, 0.0),
        Vec3::new(5.0, 40.0, 30.0),
        R,
    );
    let n = Vec3::new(1.0, 1.0, 0.0).normalize();
    let b = BallState::new(a.r + n * (2.0 * R), Vec3::zeros(), Vec3::zeros(), R);
    (a, b)
}

/// Balls into a cushion whose normal is +x: at 1.5 m/s 40 degrees off the normal with spin
/// (the contact slides throughout), and nearly square on with a little side spin (it sticks,
/// where stronge_compliant's tangential compliance shows).
fn into_cushion() -> [BallState; 2] {
    let at = |v: Vec3, w: Vec3| BallState::new(Vec3::new(1.0, 0.5, R), v, w, R);
    [
        at(
            Vec3::new(1.5 * 0.766, 1.5 * 0.643, 0.0),
            Vec3::new(-10.0, 30.0, 25.0),
        ),
        at(Vec3::new(1.5, 0.05, 0.0), Vec3::new(0.0, 0.0, 3.0)),
    ]
}

/// `spec` with parameter `k` (a top-level name, or `friction.<name>`) changed: numbers scaled
/// by 0.8, booleans flipped, our corrections to pooltool's laws (named values) back to
/// `"pooltool"`; `None` when the spec has no such parameter.
fn perturbed(spec: &LawSpec, k: &str) -> Option<LawSpec> {
    let change = |p: &Param| match p {
        Param::Number(x) => Some(Param::Number(x * 0.8)),
        Param::Bool(b) => Some(Param::Bool(!b)),
        Param::Text(t) if t != "pooltool" => Some(Param::Text("pooltool".into())),
        _ => None,
    };
    let mut out = spec.clone();
    match k.split_once('.') {
        None => {
            let slot = out.params.iter_mut().find(|(n, _)| n == k)?;
            slot.1 = change(&slot.1)?;
        }
        Some((outer, inner)) => {
            let slot = out.params.iter_mut().find(|(n, _)| n == outer)?;
            let Param::Law(nested) = &mut slot.1 else {
                return None;
            };
            let inner_slot = nested.params.iter_mut().find(|(n, _)| n == inner)?;
            inner_slot.1 = change(&inner_slot.1)?;
        }
    }
    Some(out)
}

/// Every parameter name of a spec, nested ones as `friction.<name>`.
fn names(spec: &LawSpec) -> Vec<String> {
    let mut out = Vec::new();
    for (k, v) in &spec.params {
        match v {
            Param::Law(nested) => {
                out.extend(nested.params.iter().map(|(n, _)| format!("{k}.{n}")));
            }
            _ => out.push(k.clone()),
        }
    }
    out
}

/// The ball parameters with `name` scaled by 0.7.
fn scaled(p: &BallParams, name: &str) -> BallParams {
    let mut q = *p;
    *q.field_mut(name).unwrap() *= 0.7;
    q
}

fn differ(a: &[(Vec3, Vec3)], b: &[(Vec3, Vec3)]) -> bool {
    a.iter()
        .zip(b)
        .any(|((va, wa), (vb, wb))| (va - vb).amax() > 1e-9 || (wa - wb).amax() * R > 1e-9)
}

/// Each base spec of every ball-ball law (both friction models, and our corrections to
/// pooltool's, which a spec writes only when set), with all parameters written out; each law
/// parameter and each ball parameter the law reads must change the result.
#[test]
fn every_ball_ball_parameter_changes_the_collision() {
    let (a, b) = pair();
    let p = BallParams::pool();
    let friction = |m: &str| Param::Law(LawSpec::named(m));
    let specs = [
        LawSpec::named("frictionless_elastic"),
        LawSpec::named("frictional_inelastic").with("friction", friction("alciatore")),
        LawSpec::named("frictional_inelastic").with("friction", friction("average")),
        LawSpec::named("frictional_mathavan").with("friction", friction("alciatore")),
        LawSpec::named("frictional_mathavan").with("friction", friction("average")),
        LawSpec::named("frictional_inelastic")
            .with("friction", friction("alciatore"))
            .with("friction_impulse", Param::Text("coulomb".into())),
        LawSpec::named("frictional_mathavan")
            .with("friction", friction("alciatore"))
            .with("cloth_slip", Param::Text("opposed".into())),
    ];
    let mut checked = 0;
    for spec in specs {
        let law = BallBallModel::from_spec(&spec).unwrap();
        let full = law.spec();
        let base = law.resolve(&p, &a, &p, &b);
        for k in names(&full) {
            let other = BallBallModel::from_spec(&perturbed(&full, &k).unwrap()).unwrap();
            assert!(
                differ(&base, &other.resolve(&p, &a, &p, &b)),
                "{}: {k} changes nothing",
                full.model
            );
            checked += 1;
        }
        // Each ball's own: a parameter of the first ball alone changes the collision, and so
        // does one of the second ball alone (for Mathavan's cloth friction mu_s, in the pair
        // taken the other way round too: only the ball the collision presses into the cloth
        // feels its own).
        let swapped = law.resolve(&p, &b, &p, &a);
        for &name in law.ball_params().iter().chain(&["m"]) {
            let q = scaled(&p, name);
            let first = differ(&base, &law.resolve(&q, &a, &p, &b))
                || differ(&swapped, &law.resolve(&q, &b, &p, &a));
            let second = differ(&base, &law.resolve(&p, &a, &q, &b))
                || differ(&swapped, &law.resolve(&p, &b, &q, &a));
            assert!(
                first,
                "{}: the first ball's {name} changes nothing",
                full.model
            );
            assert!(
                second,
                "{}: the second ball's {name} changes nothing",
                full.model
            );
            checked += 1;
        }
        // A parameter the law does not have is refused, by name.
        let e = BallBallModel::from_spec(&full.clone().with("omega_ratio", Param::Number(1.5)))
            .unwrap_err();
        assert_eq!(e.param, "omega_ratio", "{}", full.model);
    }
    // Every law (seven specs): m. frictionless_elastic: nothing else. frictional_inelastic: a,
    // b, c, e_b; with average e_b, mu_b; coulomb's a, b, c, friction_impulse, e_b.
    // frictional_mathavan: a, b, c, num_iterations, mu_s, e_b; with average num_iterations,
    // mu_s, mu_b, e_b; opposed a, b, c, num_iterations, cloth_slip, mu_s, e_b.
    assert_eq!(checked, 7 + (4 + 2 + 6 + 4 + 5 + 7));
}

/// The same for every cushion law; mathavan_2010's step is the larger of M v_y / max_steps
/// and delta_p, so each of the two shows with the other out of the way.
#[test]
fn every_cushion_parameter_changes_the_rebound() {
    let states = into_cushion();
    let normal = Vec2::new(1.0, 0.0);
    let p = BallParams::pool();
    let h = 0.036576;
    let mathavan = |dp: f64| LawSpec::named("mathavan_2010").with("delta_p", Param::Number(dp));
    let bases = [
        vec![LawSpec::named("han_2005")],
        vec![LawSpec::named("unrealistic").with("restitution", Param::Bool(true))],
        vec![LawSpec::named("impulse_frictional_inelastic")],
        vec![LawSpec::named("stronge_compliant")],
        vec![mathavan(0.001), mathavan(1e-6)],
    ];
    let s = states[0];
    for specs in bases {
        let laws: Vec<BallCushionModel> = specs
            .iter()
            .map(|sp| BallCushionModel::from_spec(sp).unwrap())
            .collect();
        let model = laws[0].spec().model;
        for k in names(&laws[0].spec()) {
            let changes = laws.iter().any(|law| {
                let full = law.spec();
                let other = BallCushionModel::from_spec(&perturbed(&full, &k).unwrap()).unwrap();
                states.iter().any(|s| {
                    differ(
                        &[law.resolve(&p, s, normal, h)],
                        &[other.resolve(&p, s, normal, h)],
                    )
                })
            });
            assert!(changes, "{model}: {k} changes nothing");
        }
        for &name in laws[0].ball_params() {
            let law = &laws[0];
            assert!(
                differ(
                    &[law.resolve(&p, &s, normal, h)],
                    &[law.resolve(&scaled(&p, name), &s, normal, h)]
                ),
                "{model}: ball parameter {name} changes nothing"
            );
        }
        let e =
            BallCushionModel::from_spec(&laws[0].spec().with("num_iterations", Param::Number(9.0)))
                .unwrap_err();
        assert_eq!(e.param, "num_iterations", "{model}");
    }
    // Without restitution the mirror reads nothing, and e_c is not among its parameters.
    let mirror = BallCushionModel::from_spec(&LawSpec::named("unrealistic")).unwrap();
    assert!(mirror.ball_params().is_empty());
    assert!(!differ(
        &[mirror.resolve(&p, &s, normal, h)],
        &[mirror.resolve(&scaled(&p, "e_c"), &s, normal, h)]
    ));
}

/// `circular_normal` (stronge_compliant, impulse_frictional_inelastic) changes the rebound
/// from a circular cushion, and only from one; the other cushion laws take the straight
/// cushion's law at the circle's normal.
#[test]
fn circular_normal_changes_the_rebound_from_a_circular_cushion() {
    let p = BallParams::pool();
    let normal = Vec2::new(1.0, 0.0);
    let (h, arc) = (0.036576, 0.02095);
    for s in into_cushion() {
        for model in ["stronge_compliant", "impulse_frictional_inelastic"] {
            let pooltool = BallCushionModel::from_spec(&LawSpec::named(model)).unwrap();
            let contact = LawSpec::named(model)
                .with("circular_normal", Param::Text("contact".into()))
                .with("spacer", Param::Number(0.0));
            let contact = BallCushionModel::from_spec(&contact).unwrap();
            let theirs = pooltool.resolve_circular(&p, &s, normal, h, arc);
            let ours = contact.resolve_circular(&p, &s, normal, h, arc);
            assert!(differ(&[theirs], &[ours]), "{model}");
            // "contact" at the contact itself is the straight cushion's geometry at the
            // circle's normal.
            assert_eq!(ours, contact.resolve(&p, &s, normal, h), "{model}");
            let at_contact = LawSpec::named(model).with("spacer", Param::Number(0.0));
            let at_contact = BallCushionModel::from_spec(&at_contact).unwrap();
            assert_eq!(at_contact.resolve(&p, &s, normal, h), ours, "{model}");
        }
        for spec in [LawSpec::named("han_2005"), LawSpec::named("mathavan_2010")] {
            let law = BallCushionModel::from_spec(&spec).unwrap();
            let at_arc = law.resolve_circular(&p, &s, normal, h, arc);
            assert_eq!(at_arc, law.resolve(&p, &s, normal, h), "{}", spec.model);
        }
    }
}

/// The cue strike's throttles (side offset, so both show) and the cue's specs and the ball's
/// mass (TP A-30: the speed depends on m / M; TP A-31: the squirt on the end mass).
#[test]
fn every_cue_parameter_changes_the_strike() {
    let p = BallParams::pool();
    let s = BallState::new(Vec3::new(1.0, 0.5, R), Vec3::zeros(), Vec3::zeros(), R);
    let cue = Cue {
        v0: 2.0,
        phi: 30.0,
        theta: 5.0,
        a: 0.3,
        b: -0.2,
        specs: CueSpecs::default(),
    };
    let law = StickBallModel::from_spec(&LawSpec::named("instantaneous_point")).unwrap();
    let base = [law.strike(&p, &s, &cue)];
    for k in names(&law.spec()) {
        let other = StickBallModel::from_spec(&perturbed(&law.spec(), &k).unwrap()).unwrap();
        assert!(
            differ(&base, &[other.strike(&p, &s, &cue)]),
            "{k} changes nothing"
        );
    }
    let heavier = |f: fn(&mut Cue)| {
        let mut c = cue;
        f(&mut c);
        [law.strike(&p, &s, &c)]
    };
    assert!(differ(&base, &heavier(|c| c.specs.mass *= 1.2)));
    assert!(differ(&base, &heavier(|c| c.specs.end_mass *= 1.2)));
    assert!(differ(&base, &[law.strike(&scaled(&p, "m"), &s, &cue)]));
}

/// Cloth motion: mu_s sets the sliding time, mu_r the rolling time, mu_sp the spinning time, g
/// all three; R the rolling spin.
#[test]
fn every_motion_parameter_changes_the_motion() {
    let p = BallParams::pool();
    let states = [
        BallState::new(
            Vec3::new(1.0, 0.5, R),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::zeros(),
            R,
        ),
        BallState::new(
            Vec3::new(1.0, 0.5, R),
            Vec3::new(1.0, 0.0, 0.0),
            Vec3::new(0.0, 1.0 / R, 0.0),
            R,
        ),
        BallState::new(
            Vec3::new(1.0, 0.5, R),
            Vec3::zeros(),
            Vec3::new(0.0, 0.0, 20.0),
            R,
        ),
    ];
    let time = |q: &BallParams, s: &BallState| {
        Model::pool(*q).next_transition(s).expect("a transition").dt
    };
    for (name, k) in [
        ("mu_s", 0),
        ("mu_r", 1),
        ("mu_sp", 2),
        ("g", 0),
        ("g", 1),
        ("g", 2),
    ] {
        let s = &states[k];
        assert_ne!(time(&p, s), time(&scaled(&p, name), s), "{name}");
    }
    let m = Model::new(p, Motion::Cloth, pool_physics::resolve::Resolver::seed());
    assert!(m
        .ball_params()
        .iter()
        .all(|n| BallParams::NAMES.contains(n)));
}

/// `spacer` (stronge_compliant, impulse_frictional_inelastic: the gap pooltool leaves between
/// ball and cushion when its law reads the normal) moves the rebound at both cushion kinds, by
/// parts per million for pooltool's 1e-6 m, and the law's spec writes it only when it is not
/// pooltool's.
#[test]
fn spacer_moves_the_rebound_by_parts_per_million() {
    let p = BallParams::pool();
    let normal = Vec2::new(1.0, 0.0);
    let (h, arc) = (0.036576, 0.02095);
    for model in ["stronge_compliant", "impulse_frictional_inelastic"] {
        let pooltool = BallCushionModel::from_spec(&LawSpec::named(model)).unwrap();
        assert_eq!(pooltool.spec().get("spacer"), None, "{model}");
        let spec = LawSpec::named(model).with("spacer", Param::Number(0.0));
        let contact = BallCushionModel::from_spec(&spec).unwrap();
        let written = contact.spec();
        assert_eq!(written.get("spacer"), Some(&Param::Number(0.0)), "{model}");
        let mut moved = 0.0f64;
        for s in into_cushion() {
            let scale = s.v.norm() + p.radius * s.w.norm();
            for (a, b) in [
                (
                    pooltool.resolve(&p, &s, normal, h),
                    contact.resolve(&p, &s, normal, h),
                ),
                (
                    pooltool.resolve_circular(&p, &s, normal, h, arc),
                    contact.resolve_circular(&p, &s, normal, h, arc),
                ),
            ] {
                let d = (a.0 - b.0).amax().max(((a.1 - b.1) * p.radius).amax()) / scale;
                moved = moved.max(d);
            }
        }
        assert!(moved > 1e-7 && moved < 1e-4, "{model}: {moved:e}");
        for bad in [-1e-6, 0.01] {
            let spec = LawSpec::named(model).with("spacer", Param::Number(bad));
            let e = BallCushionModel::from_spec(&spec).unwrap_err();
            assert_eq!(e.param, "spacer", "{model}");
        }
    }
}
