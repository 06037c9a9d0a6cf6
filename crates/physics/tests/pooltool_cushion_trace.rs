//! Our cushion laws against pooltool 0.6.0's in whole runs: `data/peers/laws/trace_<law>.csv`
//! holds every cushion event of random carom and pool shots that pooltool simulated under its
//! default resolver (with `han_2005` at the cushions for the second file), the ball's state
//! when the event is reached and after pooltool resolved it
//! (`benches/peers/pooltool_cushion_trace.py` writes them). Our law of the same name, applied to
//! the state before with the cushion's normal and height as our engine passes them, must give
//! pooltool's state after to 1e-11 of the velocity scale: what pooltool's laws read in a real
//! run (the ball's own radius and mass, the table's cushion height, the ball moved 1e-6 m off
//! the cushion before the law runs, the `spacer` of our `stronge_compliant`) is all in our
//! law's inputs. `han_2005` agrees to rounding at straight cushions; at circular ones pooltool
//! turns its normal by the same move, which ours does not model.

use std::collections::HashMap;
use std::path::Path;

use pool_physics::resolve::{BallCushionModel, LawSpec, Param};
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
        let s = BallState {
            r: v3(&e, "r"),
            v: v3(&e, "v"),
            w: v3(&e, "w"),
            motion: MotionState::Sliding,
            set: 0,
        };
        let (p1, p2) = (v3(&e, "p1"), v3(&e, "p2"));
        let height = p1.z;
        let (v, w) = if e.text["kind"] == "linear" {
            // From the ball's center toward its closest point on the line, on the cloth.
            let axis = (p2 - p1).xy().normalize();
            let rel = s.r.xy() - p1.xy();
            let normal: Vec2 = -(rel - axis * rel.dot(&axis)).normalize();
            model.resolve(&p, &s, normal, height)
        } else {
            let normal: Vec2 = (p1.xy() - s.r.xy()).normalize();
            model.resolve_circular(&p, &s, normal, height, e.num["arc_radius"])
        };
        let scale = s.v.norm() + p.radius * s.w.norm();
        let d = (v - v3(&e, "v_out"))
            .amax()
            .max(((w - v3(&e, "w_out")) * p.radius).amax())
            / scale;
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
    // turns the normal by up to 5e-6 m / (R + r); ours takes it at the contact (docs/pooltool.md).
    check("han_2005", &LawSpec::named("han_2005"), 1e-12, 1e-4);
}
