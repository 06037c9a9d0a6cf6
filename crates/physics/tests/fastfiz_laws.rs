//! Our `fastfiz` laws against FastFiz's own code (P6-Pool/fastfiz 2c1c920), case by case:
//! `data/peers/fastfiz/<law>.csv` holds 1,000 fixed states per law and what FastFiz's handler
//! made of them (`benches/peers/fastfiz_laws.py` writes them through FastFiz's Python binding;
//! rerun it with FastFiz installed to check again from scratch). The states are in FastFiz's
//! frame; every law here is the same in any frame turned about z. Each must agree to rounding:
//! 1e-12 of the case's velocity scale for the collision and strike laws (FastFiz turns its
//! frames by angles in degrees, we by unit vectors: a few ulps apart), and the equations of
//! motion to 1e-9 s and 1e-9 m over whole motion segments (FastFiz evolves from each event's
//! state with `t = newTime - oldTime`, which loses the bits of the sum).

use std::collections::HashMap;
use std::path::Path;

use pool_physics::resolve::{ball_ball, ball_cushion, stick_ball, BallBallLaw, BallCushionLaw};
use pool_physics::resolve::{Cue, CueSpecs, StickBallLaw};
use pool_physics::{BallParams, BallState, Motion, MotionState, Vec2, Vec3};

/// The rows of one law's file, each a map from column name to its text.
fn rows(law: &str) -> Vec<HashMap<String, String>> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/peers/fastfiz")
        .join(format!("{law}.csv"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let out: Vec<HashMap<String, String>> = lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect();
    assert!(out.len() >= 1000, "{law}: {} cases", out.len());
    out
}

fn num(row: &HashMap<String, String>, key: &str) -> f64 {
    row[key]
        .parse()
        .unwrap_or_else(|e| panic!("{key} = {}: {e}", row[key]))
}

fn v3(row: &HashMap<String, String>, key: &str) -> Vec3 {
    Vec3::new(
        num(row, &format!("{key}_x")),
        num(row, &format!("{key}_y")),
        num(row, &format!("{key}_z")),
    )
}

fn motion(name: &str) -> MotionState {
    match name {
        "stationary" => MotionState::Stationary,
        "spinning" => MotionState::Spinning,
        "sliding" => MotionState::Sliding,
        "rolling" => MotionState::Rolling,
        other => panic!("state {other:?}"),
    }
}

/// The largest |ours - theirs| over the case's vectors, as a fraction of `scale`.
fn error(pairs: &[(Vec3, Vec3)], scale: f64) -> f64 {
    pairs
        .iter()
        .map(|(a, b)| (a - b).amax() / scale)
        .fold(0.0, f64::max)
}

#[test]
fn ball_ball_agrees_with_fastfiz_ball_collision_event() {
    let p = BallParams::fastfiz();
    let law = ball_ball::FastFiz::default();
    let r = p.radius;
    let mut worst = 0.0f64;
    let mut branches = HashMap::new();
    for (k, row) in rows("ball_ball").iter().enumerate() {
        let ball = |key: &str, s: &str| BallState {
            r: Vec3::new(
                num(row, &format!("r{key}_x")),
                num(row, &format!("r{key}_y")),
                r,
            ),
            v: v3(row, &format!("v{key}")),
            w: v3(row, &format!("w{key}")),
            motion: motion(&row[s]),
            set: 0,
        };
        let (a, b) = (ball("1", "state1"), ball("2", "state2"));
        let [(va, wa), (vb, wb)] = law.resolve(&p, &a, &p, &b);
        let pairs = [
            (va, v3(row, "v1_after")),
            (wa * r, v3(row, "w1_after") * r),
            (vb, v3(row, "v2_after")),
            (wb * r, v3(row, "w2_after") * r),
        ];
        let scale = [a.v.norm(), b.v.norm(), a.w.norm() * r, b.w.norm() * r]
            .into_iter()
            .fold(1e-3, f64::max);
        let err = error(&pairs, scale);
        assert!(err <= 1e-12, "case {k}: {pairs:?} ({err:e} of {scale})");
        for (v, w, s) in [(va, wa, "state1_after"), (vb, wb, "state2_after")] {
            let ours = Motion::FastFiz.infer_motion(&p, &v, &w);
            assert_eq!(ours, motion(&row[s]), "case {k}: {s}");
        }
        worst = worst.max(err);
        *branches
            .entry((row["state2"].clone(), row["state1_after"].clone()))
            .or_insert(0) += 1;
    }
    // Every branch of the law is in the data: targets at rest, spinning and moving, and the
    // shooter stopping dead (drop_spin_at_rest) as well as moving on.
    for target in ["stationary", "spinning", "sliding", "rolling"] {
        assert!(branches.keys().any(|(t, _)| t == target), "{branches:?}");
    }
    assert!(branches.contains_key(&("stationary".to_string(), "stationary".to_string())));
    eprintln!("ball_ball: largest difference {worst:e} of the velocity scale; {branches:?}");
}

#[test]
fn rail_agrees_with_fastfiz_rail_collision_event() {
    let p = BallParams::fastfiz();
    let law = ball_cushion::FastFiz::default();
    let mut worst = 0.0f64;
    for (k, row) in rows("rail").iter().enumerate() {
        let s = BallState {
            r: Vec3::new(0.5, 1.1, p.radius),
            v: v3(row, "v"),
            w: v3(row, "w"),
            motion: MotionState::Sliding,
            set: 0,
        };
        let normal = Vec2::new(num(row, "normal_x"), num(row, "normal_y"));
        let (v, w) = law.resolve(&p, &s, normal, 0.040005);
        let scale = s.v.norm().max(s.w.norm() * p.radius);
        let pairs = [
            (v, v3(row, "v_after")),
            (w * p.radius, v3(row, "w_after") * p.radius),
        ];
        let err = error(&pairs, scale);
        assert!(
            err <= 1e-15,
            "case {k} ({}): {pairs:?} ({err:e})",
            row["rail"]
        );
        worst = worst.max(err);
    }
    eprintln!("rail: largest difference {worst:e} of the velocity scale");
}

#[test]
fn strike_agrees_with_fastfiz_cue_strike_event() {
    let p = BallParams::fastfiz();
    let law = stick_ball::FastFiz::default();
    let at_rest = BallState {
        r: Vec3::new(0.5, 1.1, p.radius),
        v: Vec3::zeros(),
        w: Vec3::zeros(),
        motion: MotionState::Stationary,
        set: 0,
    };
    let mut worst = 0.0f64;
    for (k, row) in rows("strike").iter().enumerate() {
        let cue = Cue {
            v0: num(row, "V"),
            phi: num(row, "phi"),
            theta: num(row, "theta"),
            a: num(row, "a") / p.radius,
            b: num(row, "b") / p.radius,
            specs: CueSpecs::default(),
        };
        let (v, w) = law.strike(&p, &at_rest, &cue);
        let scale = v.norm().max(1e-3);
        let pairs = [
            (v, v3(row, "v_after")),
            (w * p.radius, v3(row, "w_after") * p.radius),
        ];
        let err = error(&pairs, scale);
        assert!(err <= 1e-12, "case {k}: {pairs:?} ({err:e})");
        worst = worst.max(err);
    }
    eprintln!("strike: largest difference {worst:e} of the ball's speed");
}

#[test]
fn motion_agrees_with_fastfiz_update_ball() {
    let p = BallParams::fastfiz();
    let mut worst = (0.0f64, 0.0f64);
    let mut kinds = HashMap::new();
    for (k, row) in rows("motion").iter().enumerate() {
        let s = BallState {
            r: Vec3::new(num(row, "r_x"), num(row, "r_y"), p.radius),
            v: v3(row, "v"),
            w: v3(row, "w"),
            motion: motion(&row["state"]),
            set: 0,
        };
        let dt = num(row, "dt");
        let next = Motion::FastFiz
            .next_transition(&p, &s)
            .unwrap_or_else(|| panic!("case {k}: no transition for {s:?}"));
        let dt_err = (next.dt - dt).abs();
        assert!(
            dt_err <= 1e-9,
            "case {k}: transition after {} s, FastFiz {dt} s",
            next.dt
        );
        let after = Motion::FastFiz.evolve(&p, &s, dt);
        let r_err = (after.r.xy() - Vec2::new(num(row, "r_after_x"), num(row, "r_after_y"))).amax();
        assert!(r_err <= 1e-9, "case {k}: at {:?}, FastFiz {row:?}", after.r);
        if s.motion == MotionState::Sliding {
            // FastFiz's state change keeps the evolved velocities (it only reclassifies).
            let pairs = [
                (after.v, v3(row, "v_after")),
                (after.w * p.radius, v3(row, "w_after") * p.radius),
            ];
            let err = error(&pairs, 1.0);
            assert!(err <= 1e-9, "case {k}: {pairs:?} ({err:e} m/s)");
        }
        worst = (worst.0.max(dt_err), worst.1.max(r_err));
        *kinds
            .entry((row["state"].clone(), row["state_after"].clone()))
            .or_insert(0) += 1;
    }
    assert!(kinds.keys().any(|(a, _)| a == "sliding"), "{kinds:?}");
    assert!(kinds.keys().any(|(a, _)| a == "rolling"), "{kinds:?}");
    eprintln!(
        "motion: largest time difference {:e} s, position {:e} m; {kinds:?}",
        worst.0, worst.1
    );
}
