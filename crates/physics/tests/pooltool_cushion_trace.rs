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
//! 1e-6 m apart before the law runs) is all in our inputs. The cushion laws are applied in our
//! frame, the mirror image of pooltool's, as our engines see its runs (and, where the law does
//! not care, in pooltool's too). `mathavan_2010` at a ball arriving rolling is held to what its
//! first impulse step's direction, a rounding residual's, can change (docs/pooltool.md,
//! "mathavan_2010 at a rolling ball").

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

/// Which frame the law is applied in: pooltool's, as the file has the numbers, or ours, its
/// mirror image (`crates/pooltool/src/frame.rs`: pooltool's (x, y, z) is our (y, x, z), its
/// spin (w_x, w_y, w_z) our (-w_y, -w_x, -w_z)), as our engines see pooltool's runs.
#[derive(Clone, Copy, PartialEq)]
enum Frame {
    Pooltool,
    Ours,
}

impl Frame {
    /// A point or velocity of the file's in this frame.
    fn vector(self, e: &Event, key: &str) -> Vec3 {
        let x = v3(e, key);
        match self {
            Frame::Pooltool => x,
            Frame::Ours => Vec3::new(x.y, x.x, x.z),
        }
    }

    /// A spin of the file's in this frame.
    fn spin(self, e: &Event, key: &str) -> Vec3 {
        let w = v3(e, key);
        match self {
            Frame::Pooltool => w,
            Frame::Ours => Vec3::new(-w.y, -w.x, -w.z),
        }
    }
}

/// One event of a cushion trace, resolved by our law.
struct Diff {
    /// Shot and cushion kind: "carom linear", "pool circular", ...
    group: String,
    /// |ours - pooltool's| / scale: the largest component of v and R w, scale |v| + R |w|
    /// before.
    d: f64,
    /// The ball reached the cushion rolling: its cloth slip v + R k x w zero to rounding
    /// (below 1e-12 |v|).
    rolling: bool,
    /// For a rolling arrival under `spread_of`'s law: how far the result moves as the first
    /// impulse step's cloth friction turns ([`first_step_spread`]), in the same units; 0
    /// otherwise.
    spread: f64,
}

/// Every event of `law`'s trace, resolved by our law `spec` in `frame`; with `spread`, the
/// first impulse step's spread of each rolling arrival (`mathavan_2010`).
fn differences(law: &str, spec: &LawSpec, frame: Frame, spread: bool) -> Vec<Diff> {
    let model = BallCushionModel::from_spec(spec).unwrap();
    let mut out = vec![];
    for e in events(law) {
        let mut p = BallParams::pool();
        for key in ["R", "m", "e_c", "f_c"] {
            *p.field_mut(key).unwrap() = e.num[key];
        }
        p.mu_s = e.num["u_s"];
        let s = BallState {
            r: frame.vector(&e, "r"),
            v: frame.vector(&e, "v"),
            w: frame.spin(&e, "w"),
            motion: MotionState::Sliding,
            set: 0,
        };
        let (p1, p2) = (frame.vector(&e, "p1"), frame.vector(&e, "p2"));
        let height = p1.z;
        let arc = e.num["arc_radius"];
        let (normal, r) = if e.text["kind"] == "linear" {
            // From the ball's center toward its closest point on the line, on the cloth.
            let axis = (p2 - p1).xy().normalize();
            let rel = s.r.xy() - p1.xy();
            let normal: Vec2 = -(rel - axis * rel.dot(&axis)).normalize();
            (normal, kissed_at_line(&s, normal, model.spacer()))
        } else {
            let normal: Vec2 = (p1.xy() - s.r.xy()).normalize();
            let r = kissed_at_circle(&s, normal, p.radius + arc, model.spacer());
            (normal, r)
        };
        let resolve = |s: &BallState| {
            if e.text["kind"] == "linear" {
                model.resolve(&p, s, normal, height)
            } else {
                model.resolve_circular(&p, s, normal, height, arc)
            }
        };
        let (v, w) = resolve(&s);
        let scale = s.v.norm() + p.radius * s.w.norm();
        let d = (v - frame.vector(&e, "v_out"))
            .amax()
            .max(((w - frame.spin(&e, "w_out")) * p.radius).amax())
            / scale;
        // The move: pooltool's position after against ours, in units of the spacer.
        let moved = (r - frame.vector(&e, "r_out")).amax() / model.spacer();
        assert!(
            model.spacer() == 0.0 || moved < 1e-6,
            "{law} {}: the ball is left {moved:e} spacers from pooltool's",
            e.text["shot"]
        );
        let rolling = s.contact_velocity(p.radius).xy().norm() < 1e-12 * s.v.norm();
        let shot = e.text["shot"].split('_').next().unwrap_or_default();
        out.push(Diff {
            group: format!("{shot} {}", e.text["kind"]),
            d,
            rolling,
            spread: if spread && rolling {
                first_step_spread(resolve, &s, p.radius) / scale
            } else {
                0.0
            },
        });
    }
    out
}

/// Directions sampled for a rolling arrival's spread (5 degrees apart).
const DIRECTIONS: usize = 72;

/// How far a law's velocities at `s` (a ball reaching the cushion rolling) move as the
/// direction of its cloth slip turns: the largest component difference of v or R w (m/s)
/// between two of its results over [`DIRECTIONS`] directions, the slip set each time to 1e-12
/// of the speed (the same state to 1e-12). `mathavan_2010`'s first impulse step sends the
/// cloth's friction along that slip (Mathavan et al. 2010, eq. 14), which at a rolling ball is
/// a rounding residual.
fn first_step_spread(law: impl Fn(&BallState) -> (Vec3, Vec3), s: &BallState, r: f64) -> f64 {
    let out: Vec<(Vec3, Vec3)> = (0..DIRECTIONS)
        .map(|k| {
            let alpha = std::f64::consts::TAU * k as f64 / DIRECTIONS as f64;
            let u = s.v.xy() + Vec2::new(-s.w.y, s.w.x) * r;
            let v = s.v.xy() - u + Vec2::new(alpha.cos(), alpha.sin()) * (1e-12 * s.v.norm());
            law(&BallState {
                v: Vec3::new(v.x, v.y, 0.0),
                ..*s
            })
        })
        .collect();
    let mut spread = 0.0f64;
    for (i, (va, wa)) in out.iter().enumerate() {
        for (vb, wb) in &out[i + 1..] {
            spread = spread.max((va - vb).amax().max(((wa - wb) * r).amax()));
        }
    }
    spread
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
/// over all linear and all circular events, with the law applied in our frame (as our engines
/// see pooltool's runs) and in pooltool's; asserts every difference at linear cushions is
/// within `linear_tol` and at circular ones within `circular_tol`, in both frames.
fn check(law: &str, spec: &LawSpec, linear_tol: f64, circular_tol: f64) {
    for frame in [Frame::Ours, Frame::Pooltool] {
        check_in(law, spec, linear_tol, circular_tol, frame);
    }
}

/// [`check`] in one frame.
fn check_in(law: &str, spec: &LawSpec, linear_tol: f64, circular_tol: f64, frame: Frame) {
    let diffs = differences(law, spec, frame, false);
    let law = &format!(
        "{law} ({} frame)",
        if frame == Frame::Ours {
            "our"
        } else {
            "pooltool's"
        }
    );
    let mut failed = vec![];
    for (kind, tol) in [("linear", linear_tol), ("circular", circular_tol)] {
        let mut all = vec![];
        for group in groups(&diffs).iter().filter(|g| g.ends_with(kind)) {
            let d: Vec<f64> = (diffs.iter())
                .filter(|e| &e.group == group)
                .map(|e| e.d)
                .collect();
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

/// The groups of `diffs`, in their order.
fn groups(diffs: &[Diff]) -> Vec<String> {
    let mut out: Vec<String> = vec![];
    for d in diffs {
        if !out.contains(&d.group) {
            out.push(d.group.clone());
        }
    }
    out
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
    let at_contact = differences("han_2005", &LawSpec::named("han_2005"), Frame::Ours, false);
    let jaws: Vec<f64> = (at_contact.into_iter())
        .filter(|e| e.group.ends_with("circular"))
        .map(|e| e.d)
        .collect();
    let (_, max) = median_max(jaws);
    eprintln!("han_2005 circular with spacer = 0: max {max:.2e}");
    assert!(max > 1e-7, "{max:e}");
}

#[test]
fn mathavan_2010_in_whole_runs_agrees_with_pooltool() {
    // In our frame, as our engines see pooltool's runs. A ball reaching the cushion sliding
    // gets pooltool's result to rounding. One reaching it rolling has a cloth slip of zero or
    // of rounding residuals (|v + R k x w| about 1e-16 |v|), and the law's first impulse step
    // sends the cloth's friction along it (Mathavan et al. 2010, eq. 14): where the residual
    // our arithmetic reads from pooltool's state points elsewhere than pooltool's own (its
    // frame turned with libm's sin and cos of the normal's angle), the results part by what
    // turning that first step's friction can move them (docs/pooltool.md, "mathavan_2010 at
    // a rolling ball").
    let spec = LawSpec::named("mathavan_2010").with("spacer", Param::Number(1e-6));
    let diffs = differences("mathavan_2010", &spec, Frame::Ours, true);
    let sliding: Vec<f64> = diffs.iter().filter(|e| !e.rolling).map(|e| e.d).collect();
    let rolling: Vec<&Diff> = diffs.iter().filter(|e| e.rolling).collect();
    let (n_sliding, n_rolling) = (sliding.len(), rolling.len());
    let (sliding_median, sliding_max) = median_max(sliding);
    let parted: Vec<&&Diff> = rolling.iter().filter(|e| e.d > 1e-12).collect();
    let (spread_median, spread_max) = median_max(rolling.iter().map(|e| e.spread).collect());
    let (parted_median, parted_max) = median_max(parted.iter().map(|e| e.d).collect());
    eprintln!(
        "mathavan_2010: {n_sliding} events arriving sliding, median {sliding_median:.2e}, max \
         {sliding_max:.2e}; {n_rolling} arriving rolling, {} of them beyond 1e-12 (median \
         {parted_median:.2e}, max {parted_max:.2e}); the first step's spread of a rolling \
         arrival: median {spread_median:.2e}, max {spread_max:.2e}",
        parted.len()
    );
    assert!(
        n_sliding >= 30 && n_rolling >= 100,
        "{n_sliding}, {n_rolling}"
    );
    assert!(sliding_max <= 1e-10, "sliding: max {sliding_max:e}");
    for e in &rolling {
        assert!(
            e.d <= 1.05 * e.spread + 1e-12,
            "{}: a rolling arrival {:e} off, beyond its first step's spread {:e}",
            e.group,
            e.d,
            e.spread
        );
    }
    // The spread is what rounding can do here: parts in 1e4 of the scale.
    assert!(spread_median > 1e-5, "{spread_median:e}");
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
