//! Our laws against pooltool 0.6.0's, case by case: `data/peers/laws/<law>.csv` holds 1,000
//! random pre-collision states per law (ball sizes from pool to carom, spins to 150 rad/s,
//! cushion heights 1.05 to 1.6 R) and what pooltool made of them: its law's `solve`, or for the
//! cushion laws that read the ball's position (`stronge_compliant`,
//! `impulse_frictional_inelastic`) `resolve`, as its simulation calls them, which first moves
//! the ball 1e-6 m off the cushion (`benches/peers/pooltool_laws.py` writes them; rerun it with
//! pooltool installed to check again from scratch). Every law under its pooltool name and with
//! pooltool's parameters (our corrections are parameters whose default is pooltool's) must
//! agree to 1e-12 of the state's velocity scale: the closed forms and `frictional_mathavan`
//! (the same impulse steps as pooltool); `stronge_compliant` to 1e-11 (its stick/slip times are
//! roots: pooltool's scipy toms748 to 2e-12 s, our Brent to 1e-15 of the collision time);
//! `mathavan_2010` within one of its impulse steps (rounding can flip its end-of-compression
//! and end-of-collision tests).

use std::collections::HashMap;
use std::path::Path;

use pool_physics::resolve::{BallBallModel, BallCushionModel, LawSpec, Param, Resolver};
use pool_physics::{BallParams, BallState, MotionState, Vec2, Vec3};

/// The rows of one law's file, each a map from column name to value.
fn rows(law: &str) -> Vec<HashMap<String, f64>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/peers/laws")
        .join(format!("{law}.csv"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let out: Vec<HashMap<String, f64>> = lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(|x| x.parse::<f64>().unwrap()))
                .collect()
        })
        .collect();
    assert!(out.len() >= 1000, "{law}: {} cases", out.len());
    out
}

fn v3(row: &HashMap<String, f64>, key: &str) -> Vec3 {
    Vec3::new(
        row[&format!("{key}_x")],
        row[&format!("{key}_y")],
        row[&format!("{key}_z")],
    )
}

fn state(row: &HashMap<String, f64>, r: &str, v: &str, w: &str) -> BallState {
    BallState {
        r: v3(row, r),
        v: v3(row, v),
        w: v3(row, w),
        motion: MotionState::Sliding,
        set: 0,
    }
}

/// |ours - theirs| <= tol * scale for every component.
fn agree(what: &str, k: usize, ours: Vec3, theirs: Vec3, scale: f64, tol: f64) -> f64 {
    let err = (ours - theirs).amax() / scale;
    assert!(
        err <= tol,
        "{what} case {k}: ours {ours:?} pooltool {theirs:?} ({err:e} of scale)"
    );
    err
}

fn params(row: &HashMap<String, f64>) -> BallParams {
    let mut p = BallParams::pool();
    for key in ["R", "m", "e_b", "e_c", "f_c"] {
        if let Some(&x) = row.get(key) {
            *p.field_mut(key).unwrap() = x;
        }
    }
    if let Some(&x) = row.get("u_b") {
        p.mu_b = x;
    }
    if let Some(&x) = row.get("u_s") {
        p.mu_s = x;
    }
    p
}

/// Our ball-ball law `spec` on every case of `file`, ball parameters as pooltool had them then
/// changed by `adjust`; the worst difference in units of the velocity scale.
fn ball_ball(
    file: &str,
    spec: impl Fn(&HashMap<String, f64>) -> LawSpec,
    tol: f64,
    adjust: impl Fn(&HashMap<String, f64>, &mut BallParams),
) -> f64 {
    let mut worst = 0.0f64;
    for (k, row) in rows(file).iter().enumerate() {
        let law = BallBallModel::from_spec(&spec(row)).unwrap();
        let (a, b) = (state(row, "r1", "v1", "w1"), state(row, "r2", "v2", "w2"));
        let mut p = params(row);
        adjust(row, &mut p);
        let scale = a.v.norm() + b.v.norm() + p.radius * (a.w.norm() + b.w.norm());
        let [(va, wa), (vb, wb)] = law.resolve(&p, &a, &p, &b);
        for (ours, col) in [(va, "v1_out"), (vb, "v2_out")] {
            worst = worst.max(agree(file, k, ours, v3(row, col), scale, tol));
        }
        for (ours, col) in [(wa, "w1_out"), (wb, "w2_out")] {
            worst = worst.max(agree(
                file,
                k,
                ours * p.radius,
                v3(row, col) * p.radius,
                scale,
                tol,
            ));
        }
    }
    worst
}

/// A cushion law on one case: at a straight cushion, or at a circular one when the case has
/// the circle's radius (`arc_radius`).
fn rebound(law: &BallCushionModel, row: &HashMap<String, f64>) -> (Vec3, Vec3) {
    let s = state(row, "r", "v", "w");
    let p = params(row);
    let normal = Vec2::new(row["normal_x"], row["normal_y"]);
    match row.get("arc_radius") {
        Some(&arc) => law.resolve_circular(&p, &s, normal, row["height"], arc),
        None => law.resolve(&p, &s, normal, row["height"]),
    }
}

/// Our cushion law `spec` on every case of `file` (straight or circular); the worst difference
/// in units of the velocity scale.
fn cushion(file: &str, spec: impl Fn(&HashMap<String, f64>) -> LawSpec, tol: f64) -> f64 {
    let mut worst = 0.0f64;
    for (k, row) in rows(file).iter().enumerate() {
        let law = BallCushionModel::from_spec(&spec(row)).unwrap();
        let s = state(row, "r", "v", "w");
        let p = params(row);
        let scale = s.v.norm() + p.radius * s.w.norm();
        let (v, w) = rebound(&law, row);
        worst = worst.max(agree(file, k, v, v3(row, "v_out"), scale, tol));
        worst = worst.max(agree(
            file,
            k,
            w * p.radius,
            v3(row, "w_out") * p.radius,
            scale,
            tol,
        ));
    }
    worst
}

#[test]
fn frictionless_elastic_agrees_with_pooltool() {
    let worst = ball_ball(
        "frictionless_elastic",
        |_| LawSpec::named("frictionless_elastic"),
        1e-12,
        |_, _| {},
    );
    eprintln!("frictionless_elastic: worst {worst:e}");
}

/// pooltool's friction impulse is mu times the normal *separation* speed e |dv_n|: the law's
/// default (`friction_impulse = "pooltool"`) is pooltool's, with both friction models, to
/// 1e-12. Coulomb's, mu times the normal impulse (1 + e)/2 |dv_n| (TP A-14,
/// `friction_impulse = "coulomb"`), differs as soon as e_b < 1 and the contact slides.
#[test]
fn frictional_inelastic_agrees_with_pooltool_with_both_friction_models() {
    let alciatore = |row: &HashMap<String, f64>| {
        let friction = LawSpec::named("alciatore")
            .with("a", Param::Number(row["a"]))
            .with("b", Param::Number(row["b"]))
            .with("c", Param::Number(row["c"]));
        LawSpec::named("frictional_inelastic").with("friction", Param::Law(friction))
    };
    let worst = ball_ball(
        "frictional_inelastic_alciatore",
        alciatore,
        1e-12,
        |_, _| {},
    );
    eprintln!("frictional_inelastic (alciatore): worst {worst:e}");
    let average = |_: &HashMap<String, f64>| {
        LawSpec::named("frictional_inelastic")
            .with("friction", Param::Law(LawSpec::named("average")))
    };
    let worst = ball_ball("frictional_inelastic_average", average, 1e-12, |_, _| {});
    eprintln!("frictional_inelastic (average): worst {worst:e}");
    let coulomb = |row: &HashMap<String, f64>| {
        alciatore(row).with("friction_impulse", Param::Text("coulomb".into()))
    };
    let coulomb = ball_ball(
        "frictional_inelastic_alciatore",
        coulomb,
        f64::INFINITY,
        |_, _| {},
    );
    assert!(coulomb > 1e-3, "coulomb, worst {coulomb:e}");
    eprintln!("frictional_inelastic (alciatore), friction_impulse = coulomb: worst {coulomb:e}");
}

#[test]
fn closed_form_cushion_laws_agree_with_pooltool() {
    let unrealistic = |row: &HashMap<String, f64>| {
        LawSpec::named("unrealistic").with("restitution", Param::Bool(row["restitution"] != 0.0))
    };
    for at in ["", "_circular"] {
        let worst = cushion(
            &format!("han_2005{at}"),
            |_| LawSpec::named("han_2005"),
            1e-12,
        );
        eprintln!("han_2005{at}: worst {worst:e}");
        let worst = cushion(&format!("unrealistic{at}"), unrealistic, 1e-12);
        eprintln!("unrealistic{at}: worst {worst:e}");
        let file = format!("impulse_frictional_inelastic{at}");
        let worst = cushion(
            &file,
            |_| LawSpec::named("impulse_frictional_inelastic"),
            1e-12,
        );
        eprintln!("{file}: worst {worst:e}");
    }
    // At a circular cushion pooltool pushes along the line from the circle's center, not
    // from the contact on it (`circular_normal = "contact"`), which moves the rebound.
    let contact = |_: &HashMap<String, f64>| {
        LawSpec::named("impulse_frictional_inelastic")
            .with("circular_normal", Param::Text("contact".into()))
    };
    let moved = cushion(
        "impulse_frictional_inelastic_circular",
        contact,
        f64::INFINITY,
    );
    eprintln!("impulse_frictional_inelastic_circular with circular_normal = contact: {moved:e}");
    assert!(moved > 1e-3, "{moved:e}");
    let at_contact = |_: &HashMap<String, f64>| {
        LawSpec::named("impulse_frictional_inelastic").with("spacer", Param::Number(0.0))
    };
    for at in ["", "_circular"] {
        let file = format!("impulse_frictional_inelastic{at}");
        let moved = cushion(&file, at_contact, f64::INFINITY);
        eprintln!("{file} with spacer = 0: {moved:e}");
        assert!(moved > 1e-7 && moved < 1e-3, "{moved:e}");
    }
}

#[test]
fn stronge_compliant_agrees_with_pooltool() {
    let spec = |row: &HashMap<String, f64>| {
        LawSpec::named("stronge_compliant").with("omega_ratio", Param::Number(row["omega_ratio"]))
    };
    for at in ["", "_circular"] {
        // pooltool's stick/slip times are toms748 roots to 2e-12 s (scipy's default xtol) of a
        // collision lasting about 0.03 s: 1e-11 of the scale leaves room for that.
        let worst = cushion(&format!("stronge_compliant{at}"), spec, 1e-11);
        eprintln!("stronge_compliant{at}: worst {worst:e}");
    }
    let contact = |row: &HashMap<String, f64>| {
        spec(row).with("circular_normal", Param::Text("contact".into()))
    };
    let moved = cushion("stronge_compliant_circular", contact, f64::INFINITY);
    eprintln!("stronge_compliant_circular with circular_normal = contact: {moved:e}");
    assert!(moved > 1e-3, "{moved:e}");
    // pooltool moves the ball 1e-6 m off the cushion before its law reads the normal (the
    // law's default `spacer`); at the contact itself (`spacer = 0`) the rebound moves by
    // parts per million, at both cushion kinds.
    let at_contact = |row: &HashMap<String, f64>| spec(row).with("spacer", Param::Number(0.0));
    for at in ["", "_circular"] {
        let moved = cushion(&format!("stronge_compliant{at}"), at_contact, f64::INFINITY);
        eprintln!("stronge_compliant{at} with spacer = 0: {moved:e}");
        assert!(moved > 1e-7 && moved < 1e-3, "{moved:e}");
    }
    // The preset's choice is pooltool's default resolver's.
    let d = Resolver::pooltool_default();
    assert_eq!(
        d.ball_linear_cushion.spec(),
        spec(&HashMap::from([("omega_ratio".into(), 1.8)]))
    );
}

#[test]
fn mathavan_laws_agree_with_pooltool_step_for_step() {
    let spec = |row: &HashMap<String, f64>| {
        LawSpec::named("mathavan_2010")
            .with("max_steps", Param::Number(row["max_steps"]))
            .with("delta_p", Param::Number(row["delta_p"]))
    };
    // mathavan_2010 ends compression with eight halvings of its last step and the collision
    // when the work reaches a target: rounding (our frame and slip directions are computed
    // without pooltool's angle functions) can flip one of those decisions, which moves the
    // result by up to a fraction of a step. Per case: within one impulse step, dv = dp / M.
    for file in ["mathavan_2010", "mathavan_2010_circular"] {
        let mut exact = 0;
        let mut worst_steps = 0.0f64;
        for (k, row) in rows(file).iter().enumerate() {
            let law = BallCushionModel::from_spec(&spec(row)).unwrap();
            let s = state(row, "r", "v", "w");
            let p = params(row);
            let normal = Vec2::new(row["normal_x"], row["normal_y"]);
            let vn = s.v.xy().dot(&normal);
            let dp = (p.m * vn / row["max_steps"]).max(row["delta_p"]);
            let (v, w) = rebound(&law, row);
            let dv = (v - v3(row, "v_out"))
                .amax()
                .max(((w - v3(row, "w_out")) * p.radius).amax());
            let steps = dv / (dp / p.m);
            assert!(
                steps <= 1.0,
                "{file} case {k}: off by {steps} impulse steps"
            );
            worst_steps = worst_steps.max(steps);
            exact += usize::from(dv <= 1e-12 * (s.v.norm() + p.radius * s.w.norm()));
        }
        eprintln!("{file}: {exact} of 1000 cases within 1e-12, worst {worst_steps:.3} of a step");
    }
    let spec = |row: &HashMap<String, f64>| {
        let friction = LawSpec::named("alciatore")
            .with("a", Param::Number(row["a"]))
            .with("b", Param::Number(row["b"]))
            .with("c", Param::Number(row["c"]));
        LawSpec::named("frictional_mathavan")
            .with("friction", Param::Law(friction))
            .with("num_iterations", Param::Number(row["num_iterations"]))
    };
    // pooltool takes the cloth slip as v - R k x w, the law's default
    // (`cloth_slip = "pooltool"`): step for step, pooltool's numbers. `"opposed"` (the contact
    // point's velocity v + R k x w, which friction opposes) moves them.
    let worst = ball_ball("frictional_mathavan", spec, 1e-12, |_, _| {});
    let opposed =
        |row: &HashMap<String, f64>| spec(row).with("cloth_slip", Param::Text("opposed".into()));
    let moved = ball_ball("frictional_mathavan", opposed, f64::INFINITY, |_, _| {});
    eprintln!(
        "frictional_mathavan: worst {worst:e}; with cloth_slip = opposed {moved:e} of the scale"
    );
    assert!(moved > 1e-6, "the cloth slip's sign changes nothing");
}

#[test]
fn instantaneous_point_strikes_as_pooltool_does() {
    use pool_physics::resolve::{Cue, CueSpecs, StickBallModel};
    let mut worst = 0.0f64;
    for (k, row) in rows("instantaneous_point").iter().enumerate() {
        let spec = LawSpec::named("instantaneous_point")
            .with("english_throttle", Param::Number(row["english_throttle"]))
            .with("squirt_throttle", Param::Number(row["squirt_throttle"]));
        let law = StickBallModel::from_spec(&spec).unwrap();
        let p = BallParams {
            m: row["m"],
            ..BallParams::pool()
        };
        let cue = Cue {
            v0: row["V0"],
            phi: row["phi"],
            theta: row["theta"],
            a: row["a"],
            b: row["b"],
            specs: CueSpecs {
                mass: row["M"],
                end_mass: row["end_mass"],
            },
        };
        cue.validate().unwrap();
        let at_rest = BallState::new(
            Vec3::new(1.0, 0.5, p.radius),
            Vec3::zeros(),
            Vec3::zeros(),
            p.radius,
        );
        let (v, w) = law.strike(&p, &at_rest, &cue);
        let scale = row["V0"];
        worst = worst.max(agree(
            "instantaneous_point",
            k,
            v,
            v3(row, "v_out"),
            scale,
            1e-12,
        ));
        worst = worst.max(agree(
            "instantaneous_point",
            k,
            w * p.radius,
            v3(row, "w_out") * p.radius,
            scale,
            1e-12,
        ));
    }
    eprintln!("instantaneous_point: worst {worst:e}");
}
