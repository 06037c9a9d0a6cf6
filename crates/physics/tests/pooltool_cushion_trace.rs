//! Our collision laws against pooltool 0.6.0's in whole runs: `data/peers/laws/trace_<law>.csv`
//! holds every cushion (or ball-ball) event of random carom and pool shots that pooltool
//! simulated under three model sets (its default resolver; `han_2005` at the cushions;
//! `frictional_mathavan` with `mathavan_2010`), the balls' states when the event is reached and
//! after pooltool moved them (`make_kiss`) and resolved them
//! (`benches/peers/pooltool_cushion_trace.py` writes them). Our law of the same name with
//! pooltool's spacer (1e-6 m), applied to the states before with the normal and height as our
//! engine passes them, must give pooltool's velocities after to rounding, and its move
//! ([`pool_physics::resolve::spacer`]) pooltool's positions after: what pooltool's laws read in
//! a real run (the ball's own radius and mass, the table's cushion height, the bodies moved
//! 1e-6 m apart before the law runs) is all in our inputs.

use std::collections::HashMap;
use std::path::Path;

use pool_physics::resolve::spacer::{kissed_at_circle, kissed_at_line, kissed_pair};
use pool_physics::resolve::{BallBallModel, BallCushionModel, LawSpec, Param};
use pool_physics::{BallParams, BallState, MotionState, Vec2, Vec3};

/// One event: the text columns (`shot`, `kind`) and the numbers.
struct Event {
    text: HashMap<String, String>,
    num: HashMap<String, f64>,
}

fn events(law: &str) -> Vec<Event> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/peers/laws")
        .join(format!("trace_{law}.csv"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let mut e = Event {
                text: HashMap::new(),
                num: HashMap::new(),
            };
            for (k, x) in header.iter().zip(l.split(',')) {
                match x.parse::<f64>() {
                    Ok(x) => e.num.insert(k.to_string(), x).map(|_| ()),
                    Err(_) => e.text.insert(k.to_string(), x.to_string()).map(|_| ()),
                };
            }
            e
        })
        .collect()
}

fn v3(e: &Event, key: &str) -> Vec3 {
    Vec3::new(
        e.num[&format!("{key}_x")],
        e.num[&format!("{key}_y")],
        e.num[&format!("{key}_z")],
    )
}

/// Relative differences |ours - pooltool's| / scale (the largest component of v and R w, scale
/// |v| + R |w| before) of every event of `law`'s trace, resolved by our law `spec`, by shot kind
/// and cushion kind ("carom linear", "pool circular", ...).
fn differences(law: &str, spec: &LawSpec) -> Vec<(String, Vec<f64>)> {
    let model = BallCushionModel::from_spec(spec).unwrap();
    let mut out: Vec<(String, Vec<f64>)> = vec![];
    for e in events(law) {
        let mut p = BallParams::pool();
        for key in ["R", "m", "e_c", "f_c"] {
            *p.field_mut(key).unwrap() = e.num[key];
        }
        p.mu_s = e.num["u_s"];
        let s = BallState {
            r: v3(&e, "r"),
            v: v3(&e, "v"),
            w: v3(&e, "w"),
            motion: MotionState::Sliding,
            set: 0,
        };
        let (p1, p2) = (v3(&e, "p1"), v3(&e, "p2"));
        let height = p1.z;
        let ((v, w), r) = if e.text["kind"] == "linear" {
            // From the ball's center toward its closest point on the line, on the cloth.
            let axis = (p2 - p1).xy().normalize();
            let rel = s.r.xy() - p1.xy();
            let normal: Vec2 = -(rel - axis * rel.dot(&axis)).normalize();
            let r = kissed_at_line(&s, normal, model.spacer());
            (model.resolve(&p, &s, normal, height), r)
        } else {
            let normal: Vec2 = (p1.xy() - s.r.xy()).normalize();
            let arc = e.num["arc_radius"];
            let r = kissed_at_circle(&s, normal, p.radius + arc, model.spacer());
            (model.resolve_circular(&p, &s, normal, height, arc), r)
        };
        let scale = s.v.norm() + p.radius * s.w.norm();
        let d = (v - v3(&e, "v_out"))
            .amax()
            .max(((w - v3(&e, "w_out")) * p.radius).amax())
            / scale;
        // The move: pooltool's position after against ours, in units of the spacer.
        let moved = (r - v3(&e, "r_out")).amax() / model.spacer();
        assert!(
            model.spacer() == 0.0 || moved < 1e-6,
            "{law} {}: the ball is left {moved:e} spacers from pooltool's",
            e.text["shot"]
        );
        let shot = e.text["shot"].split('_').next().unwrap_or_default();
        let group = format!("{shot} {}", e.text["kind"]);
        match out.iter_mut().find(|(g, _)| *g == group) {
            Some((_, d2)) => d2.push(d),
            None => out.push((group, vec![d])),
        }
    }
    out
}

/// (median, max) of `x`; (0, 0) when empty.
fn median_max(mut x: Vec<f64>) -> (f64, f64) {
    if x.is_empty() {
        return (0.0, 0.0);
    }
    x.sort_by(f64::total_cmp);
    (x[x.len() / 2], x[x.len() - 1])
}

/// Prints the median and maximum of `law`'s trace under `spec` by shot and cushion kind, and
/// over all linear and all circular events; asserts every difference at linear cushions is
/// within `linear_tol` and at circular ones within `circular_tol`.
fn check(law: &str, spec: &LawSpec, linear_tol: f64, circular_tol: f64) {
    let groups = differences(law, spec);
    let mut failed = vec![];
    for (kind, tol) in [("linear", linear_tol), ("circular", circular_tol)] {
        let mut all = vec![];
        for (group, d) in groups.iter().filter(|(g, _)| g.ends_with(kind)) {
            let (median, max) = median_max(d.clone());
            eprintln!(
                "{law} {group}: {} events, median {median:.2e}, max {max:.2e}",
                d.len()
            );
            all.extend(d);
        }
        let n = all.len();
        assert!(n >= 5, "{law}: {n} {kind} events");
        let (median, max) = median_max(all);
        eprintln!("{law} {kind}: {n} events, median {median:.2e}, max {max:.2e}");
        if max > tol {
            failed.push(format!("{kind} max {max:e} > {tol:e}"));
        }
    }
    assert!(failed.is_empty(), "{law}: {}", failed.join(", "));
}

#[test]
fn stronge_compliant_in_whole_runs_agrees_with_pooltool() {
    let spec = LawSpec::named("stronge_compliant").with("omega_ratio", Param::Number(1.8));
    // 1e-11: pooltool's stick/slip times are toms748 roots to 2e-12 s (tests/pooltool_laws.rs).
    check("stronge_compliant", &spec, 1e-11, 1e-11);
}

#[test]
fn han_2005_in_whole_runs_agrees_with_pooltool() {
    // At a circular cushion pooltool's han_2005 reads the cloth normal at the ball's position
    // after its `make_kiss` moved it back along its velocity to 1e-6 m off the circle, which
    // turns the normal by up to 5e-6 m / (R + r): our law's `spacer`.
    let spec = LawSpec::named("han_2005").with("spacer", Param::Number(1e-6));
    check("han_2005", &spec, 1e-12, 1e-12);
    // At the contact (the law's default) the jaws' normal is not pooltool's: the test sees the
    // spacer.
    let at_contact = differences("han_2005", &LawSpec::named("han_2005"));
    let jaws: Vec<f64> = (at_contact.into_iter())
        .filter(|(g, _)| g.ends_with("circular"))
        .flat_map(|(_, d)| d)
        .collect();
    let (_, max) = median_max(jaws);
    eprintln!("han_2005 circular with spacer = 0: max {max:.2e}");
    assert!(max > 1e-7, "{max:e}");
}

#[test]
fn mathavan_2010_in_whole_runs_agrees_with_pooltool() {
    // Its impulse steps end on decisions (eight halvings, a work target) that rounding can
    // flip, which moves a result by a fraction of one step (docs/pooltool.md): a step of
    // delta_p = 1e-3 N s is 5e-3 m/s for a pool ball, about 1e-3 of these shots' scale.
    let spec = LawSpec::named("mathavan_2010").with("spacer", Param::Number(1e-6));
    check("mathavan_2010", &spec, 2e-3, 2e-3);
}

/// Relative differences of every ball-ball event of `law`'s trace, moved and resolved by our
/// law `spec` as our engines do ([`kissed_pair`], then the law), and the largest distance (m)
/// between our moved centers and pooltool's. Events where pooltool's
/// `resolve_continually_touching` acts after the law (its own device, not a law: a pair moving
/// in unison, closing or parting at under 0.01 m/s) are counted apart, not compared.
fn ball_ball_differences(law: &str, spec: &LawSpec) -> (Vec<f64>, f64, usize) {
    let model = BallBallModel::from_spec(spec).unwrap();
    let (mut out, mut moved, mut theirs) = (vec![], 0.0f64, 0);
    for e in events(law) {
        let ball = |tag: &str| {
            let mut p = BallParams::pool();
            for (ours, pooltool) in [("R", "R"), ("m", "m"), ("e_b", "e_b"), ("mu_b", "u_b")] {
                *p.field_mut(ours).unwrap() = e.num[&format!("{tag}_{pooltool}")];
            }
            p.mu_s = e.num[&format!("{tag}_u_s")];
            let motion = match e.num[&format!("{tag}_motion")] as u8 {
                0 => MotionState::Stationary,
                1 => MotionState::Spinning,
                2 => MotionState::Sliding,
                3 => MotionState::Rolling,
                _ => MotionState::Pocketed,
            };
            let s = BallState {
                r: v3(&e, &format!("{tag}_r")),
                v: v3(&e, &format!("{tag}_v")),
                w: v3(&e, &format!("{tag}_w")),
                motion,
                set: 0,
            };
            (p, s)
        };
        let ((pa, a), (pb, b)) = (ball("a"), ball("b"));
        let touch = pool_physics::contact_distance(pa.radius, pb.radius);
        let [ka, kb] = kissed_pair(&a, &b, touch, model.spacer());
        let [(va, wa), (vb, wb)] = model.resolve(&pa, &ka, &pb, &kb);
        moved = moved
            .max((ka.r - v3(&e, "a_r_out")).amax())
            .max((kb.r - v3(&e, "b_r_out")).amax());
        // pooltool's device: parting along the line of centers at under 0.01 m/s, velocities
        // within 25 degrees.
        let n = (kb.r - ka.r).normalize();
        let (ua, ub) = (va.dot(&n), vb.dot(&n));
        if (ub - ua).abs() < 0.01 && va.dot(&vb) > 0.9 * va.norm() * vb.norm() {
            theirs += 1;
            continue;
        }
        let scale = a.v.norm() + b.v.norm() + pa.radius * (a.w.norm() + b.w.norm());
        let d = [
            (va - v3(&e, "a_v_out")).amax(),
            (vb - v3(&e, "b_v_out")).amax(),
            ((wa - v3(&e, "a_w_out")) * pa.radius).amax(),
            ((wb - v3(&e, "b_w_out")) * pb.radius).amax(),
        ]
        .into_iter()
        .fold(0.0, f64::max)
            / scale;
        out.push(d);
    }
    (out, moved, theirs)
}

#[test]
fn ball_ball_laws_in_whole_runs_agree_with_pooltool() {
    for (law, tol) in [
        ("frictional_inelastic", 1e-11),
        ("frictional_mathavan", 1e-11),
    ] {
        let spacer = |x: f64| LawSpec::named(law).with("spacer", Param::Number(x));
        let (d, moved, theirs) = ball_ball_differences(law, &spacer(1e-6));
        let n = d.len();
        assert!(n >= 100, "{law}: {n} events");
        let (median, max) = median_max(d);
        eprintln!(
            "{law}: {n} events (and {theirs} where pooltool's resolve_continually_touching \
             acts), median {median:.2e}, max {max:.2e}; centers within {moved:.1e} m"
        );
        assert!(max <= tol, "{law}: max {max:e} > {tol:e}");
        assert!(moved < 1e-12, "{law}: centers {moved:e} m from pooltool's");
        // At the contact (spacer 0) the line of centers is not pooltool's: the test sees it.
        let (d0, _, _) = ball_ball_differences(law, &spacer(0.0));
        let (median0, max0) = median_max(d0);
        eprintln!("{law} with spacer = 0: median {median0:.2e}, max {max0:.2e}");
        assert!(max0 > 100.0 * tol, "{law}: {max0:e}");
    }
}
