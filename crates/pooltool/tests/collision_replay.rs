//! pooltool 0.6.0's own runs under `frictional_mathavan` and `mathavan_2010`, replayed collision
//! by collision through our event engine (`data/peers/laws/replay_mathavan_2010.csv`, written
//! by `benches/peers/pooltool_collision_replay.py --write`: the 287 collisions of 36 carom runs
//! of 9 balls that pooltool played; its laws, table and balls imported by `import-pooltool` as
//! `replay_mathavan_2010.toml`). Beside `pool-physics`'s `tests/pooltool_cushion_trace.rs` (our
//! law applied to pooltool's own state at each collision), this checks the states our engine
//! brings to each collision and what the law makes of them.
//!
//! Each collision starts from every ball as pooltool's history has it after the event before;
//! our engine evolves them to its first event and resolves it, every law's `spacer` pooltool's
//! 1e-6 m. Its first event must be pooltool's (kind, agents, time), its result the law's at the
//! state it brought, and its velocities after pooltool's: ball-ball collisions and cushion
//! collisions of balls arriving sliding to rounding.
//!
//! A ball arriving rolling is another matter. `mathavan_2010` sends the cloth's friction in its
//! first impulse step along the ball's slip on the cloth (Mathavan et al. 2010, eq. 14: the
//! angle phi' of (v_xC, v_yC)), which for a rolling ball is zero or a rounding residual: our
//! rolling states have w = k x v / R, a slip the law reads as exactly zero in 137 of these 141
//! arrivals, where pooltool's (its w turned from v / R by its `coordinate_rotation` with
//! cos(pi/2) = 6.1e-17) read as zero in 24. The law's output is discontinuous there: turning
//! that first step's friction, mu_s (sin theta + mu_w sin phi cos theta) dP / M of velocity and
//! 5/2 of it in R w, moves it by parts in 1e4 of the scale. The test holds those collisions to
//! what turning it can do (its spread over every direction), those where our first-step
//! direction is pooltool's to rounding, and our law at pooltool's own rolling states (its
//! residual read, a zero slip taking pooltool's angle 0 seen in our mirrored frame) to the
//! spread as well: it is pooltool's to 1e-12 at all but one (docs/pooltool.md, "mathavan_2010
//! at a rolling ball").

use std::path::{Path, PathBuf};

use pool_event::EventEngine;
use pool_physics::{BallState, MotionState, Physics, Vec2, Vec3};
use pool_pooltool::frame::{spin_in, vector_in};
use pool_pooltool::our_events;
use pool_sim::{Ball, Engine, Setup};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/peers/laws")
        .join(name)
}

/// One collision of pooltool's runs: the balls after the event before (`start`, every ball),
/// the involved balls as pooltool reached the collision (`initial`) and left it (`last`, the
/// file's `final`), in our frame.
struct Collision {
    shot: String,
    event: usize,
    kind: String,
    agents: Vec<String>,
    /// The collision's time after the event before (s).
    dt: f64,
    start: Vec<(String, BallState)>,
    initial: Vec<(String, BallState)>,
    last: Vec<(String, BallState)>,
}

fn motion(code: &str) -> MotionState {
    match code {
        "0" => MotionState::Stationary,
        "1" => MotionState::Spinning,
        "2" => MotionState::Sliding,
        "3" => MotionState::Rolling,
        _ => MotionState::Pocketed,
    }
}

/// The collisions of the replay file, in its order.
fn collisions() -> Vec<Collision> {
    let path = data("replay_mathavan_2010.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |k: &str| header.iter().position(|h| *h == k).unwrap();
    let (shot, event, kind, agents, dt, role, id, code) = (
        col("shot"),
        col("event"),
        col("kind"),
        col("agents"),
        col("dt"),
        col("role"),
        col("id"),
        col("motion"),
    );
    let first = col("r_x");
    let mut out: Vec<Collision> = vec![];
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let x: Vec<f64> = f[first..first + 9]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let state = BallState {
            r: vector_in([x[0], x[1], x[2]]),
            v: vector_in([x[3], x[4], x[5]]),
            w: spin_in([x[6], x[7], x[8]]),
            motion: motion(f[code]),
            set: 0,
        };
        let k: usize = f[event].parse().unwrap();
        if out.last().is_none_or(|c| c.shot != f[shot] || c.event != k) {
            out.push(Collision {
                shot: f[shot].to_string(),
                event: k,
                kind: f[kind].to_string(),
                agents: f[agents].split(' ').map(str::to_string).collect(),
                dt: f[dt].parse().unwrap(),
                start: vec![],
                initial: vec![],
                last: vec![],
            });
        }
        let c = out.last_mut().unwrap();
        let list = match f[role] {
            "start" => &mut c.start,
            "initial" => &mut c.initial,
            _ => &mut c.last,
        };
        list.push((f[id].to_string(), state));
    }
    out
}

/// The imported run: the model (laws with pooltool's spacer, carom ball parameters) and table.
fn template() -> Setup {
    pool_shots::load(&data("replay_mathavan_2010.toml")).unwrap_or_else(|e| panic!("{e}"))
}

/// `set` with `c`'s start as its balls and no strike.
fn at_start(set: &Setup, c: &Collision) -> Setup {
    Setup {
        name: format!("{}#{}", c.shot, c.event),
        balls: (c.start.iter())
            .map(|(id, s)| Ball {
                id: id.clone(),
                state: *s,
            })
            .collect(),
        strike: None,
        t_end: None,
        ..set.clone()
    }
}

/// The largest velocity or spin component difference (R w for spins) over `ours` and
/// `theirs`, in units of the largest speed (|v| or R |w|) of `scale_of`.
fn difference(r: f64, pairs: &[(BallState, BallState)], scale_of: &[BallState]) -> f64 {
    let scale = (scale_of.iter())
        .map(|s| s.v.norm().max(r * s.w.norm()))
        .fold(0.0, f64::max);
    let d = (pairs.iter())
        .map(|(a, b)| (a.v - b.v).amax().max(r * (a.w - b.w).amax()))
        .fold(0.0, f64::max);
    d / scale
}

/// The cloth slip (v_xC, v_yC) = (v_x - w_y R, v_y + w_x R) as `mathavan_2010` computes it
/// at `s` in the cushion frame of `normal` (y along the normal, x the normal turned clockwise;
/// Mathavan et al. 2010, eq. 14).
fn law_slip(s: &BallState, normal: Vec2, r: f64) -> (f64, f64) {
    let (ny, nx) = (
        Vec3::new(normal.x, normal.y, 0.0),
        Vec3::new(normal.y, -normal.x, 0.0),
    );
    let (vx, vy) = (s.v.dot(&nx), s.v.dot(&ny));
    let (wx, wy) = (s.w.dot(&nx), s.w.dot(&ny));
    (vx - wy * r, vy + wx * r)
}

/// The slip direction (cos phi', sin phi') that sets the cloth's friction in the first impulse
/// step of `mathavan_2010` at `s`: [`law_slip`] over its length, and where that slip is
/// exactly zero pooltool's angle 0 seen in our frame, (-1, 0) (the law's `NO_SLIP`).
fn first_direction(s: &BallState, normal: Vec2, r: f64) -> (f64, f64) {
    let (x, y) = law_slip(s, normal, r);
    let n = (x * x + y * y).sqrt();
    if n > 0.0 {
        (x / n, y / n)
    } else {
        (-1.0, 0.0)
    }
}

/// `s` with its cloth slip v + R k x w set to 1e-12 of its speed in direction `alpha`: the
/// same state to 1e-12, with the first impulse step's cloth friction along `alpha`.
fn with_slip(s: &BallState, r: f64, alpha: f64) -> BallState {
    let u = s.v.xy() + Vec2::new(-s.w.y, s.w.x) * r;
    let v = s.v.xy() - u + Vec2::new(alpha.cos(), alpha.sin()) * (1e-12 * s.v.norm());
    BallState {
        v: Vec3::new(v.x, v.y, 0.0),
        ..*s
    }
}

/// Directions sampled for the spread of a rolling arrival (5 degrees apart).
const DIRECTIONS: usize = 72;

/// How far the law's result at `s` moves as its first impulse step's cloth friction turns:
/// the largest distance between two of its results over [`DIRECTIONS`] directions, in units of
/// the scale (largest component of v or R w, over |v| or R |w|).
fn first_step_spread(law: impl Fn(&BallState) -> BallState, s: &BallState, r: f64) -> f64 {
    let out: Vec<BallState> = (0..DIRECTIONS)
        .map(|k| {
            law(&with_slip(
                s,
                r,
                std::f64::consts::TAU * k as f64 / DIRECTIONS as f64,
            ))
        })
        .collect();
    let mut spread = 0.0f64;
    for (i, a) in out.iter().enumerate() {
        for b in &out[i + 1..] {
            spread = spread.max(difference(r, &[(*a, *b)], &[*s]));
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

/// A ball at its cushion: reached rolling (cloth slip zero to rounding) or sliding.
fn rolling(s: &BallState, r: f64) -> bool {
    s.contact_velocity(r).xy().norm() < 1e-12 * s.v.norm()
}

#[test]
fn pooltools_mathavan_runs_replayed_collision_by_collision() {
    let set = template();
    let r = set.physics.params().radius;
    let table = set.table.clone();
    let mut engine = EventEngine::default();
    engine.max_events = 1;
    let cases = collisions();
    assert!(cases.len() >= 250, "{} collisions", cases.len());
    let (mut pairs_d, mut worst_time) = (vec![], 0.0f64);
    // Cushion events arriving sliding: the replay's and the law's (at pooltool's own state)
    // difference, and the output change per input change of 1e-9.
    let (mut sliding, mut sliding_law, mut gain) = (vec![], vec![], vec![]);
    // Arriving rolling: the replay's difference and the first step's spread where our
    // first-step direction is not pooltool's, the replay's difference where it is.
    let (mut turned, mut spreads, mut same) = (vec![], vec![], vec![]);
    let mut law_off = vec![];
    // Rolling arrivals whose cloth slip the law reads as exactly zero: at our engine's state,
    // at pooltool's.
    let (mut zero_ours, mut zero_theirs) = (0, 0);
    // How far the state our engine brought to each cushion is from pooltool's there (largest
    // component of v or R w, over the scale).
    let mut inputs = vec![];
    for c in &cases {
        let setup = at_start(&set, c);
        let run = engine.run(&setup);
        let ours = our_events(&setup, &run);
        let first = ours
            .first()
            .unwrap_or_else(|| panic!("{}: no event", setup.name));
        assert_eq!(
            (&first.kind, &first.agents),
            (&c.kind, &c.agents),
            "{}: our first event is not pooltool's",
            setup.name
        );
        worst_time = worst_time.max((first.time - c.dt).abs());
        let index = |id: &str| setup.balls.iter().position(|b| b.id == id).unwrap();
        let after: Vec<(BallState, BallState)> = (c.last.iter())
            .map(|(id, s)| (run.final_states[index(id)], *s))
            .collect();
        let initial: Vec<BallState> = c.initial.iter().map(|(_, s)| *s).collect();
        let d = difference(r, &after, &initial);
        if c.kind == "ball_ball" {
            pairs_d.push(d);
            continue;
        }
        // The cushion: the state our engine brought to it (evolved from the same start), and
        // what the law makes of it and of pooltool's own state there.
        let (id, theirs) = &c.initial[0];
        let k = index(id);
        let mine = set.physics.evolve(&setup.balls[k].state, first.time);
        let seg = (table.segments().iter().zip(&table.table().cushions))
            .find(|(_, cu)| cu.id == c.agents[1])
            .map(|(s, _)| *s)
            .unwrap();
        let (normal, h) = (seg.outward_normal(), seg.height);
        let law = |s: &BallState| set.physics.resolve_ball_cushion(s, normal, h);
        let replayed = law(&mine);
        assert_eq!(
            (replayed.v, replayed.w),
            (run.final_states[k].v, run.final_states[k].w),
            "{}: the engine's result is not the law's at the state it brought (normal, height)",
            setup.name
        );
        let pooltools = c.last[0].1;
        inputs.push(difference(r, &[(mine, *theirs)], &[*theirs]));
        let d_law = difference(r, &[(law(theirs), pooltools)], &[*theirs]);
        if !rolling(theirs, r) {
            sliding.push(d);
            sliding_law.push(d_law);
            let scaled = BallState {
                v: theirs.v * (1.0 + 1e-9),
                w: theirs.w * (1.0 + 1e-9),
                ..*theirs
            };
            gain.push(difference(r, &[(law(&scaled), law(theirs))], &[*theirs]) / 1e-9);
            continue;
        }
        // A rolling arrival: the replay, and our law at pooltool's own state, are within what
        // turning the first step's cloth friction can move the result.
        let spread = first_step_spread(law, theirs, r);
        for (what, x) in [("the replay", d), ("the law at pooltool's state", d_law)] {
            assert!(
                x <= 1.05 * spread + 1e-12,
                "{}: {what} is {x:e} of the scale off, more than the first step's cloth \
                 friction turned anywhere can move it ({spread:e})",
                setup.name
            );
        }
        law_off.push(d_law);
        zero_ours += usize::from(law_slip(&mine, normal, r) == (0.0, 0.0));
        zero_theirs += usize::from(law_slip(theirs, normal, r) == (0.0, 0.0));
        if first_direction(&mine, normal, r) == first_direction(theirs, normal, r) {
            same.push(d);
        } else {
            turned.push(d);
            spreads.push(spread);
        }
    }
    let n_rolling = turned.len() + same.len();
    let (n_turned, n_same, n_sliding) = (turned.len(), same.len(), sliding.len());
    let (pair_median, pair_max) = median_max(pairs_d.clone());
    let (sliding_median, sliding_max) = median_max(sliding);
    let (_, sliding_law_max) = median_max(sliding_law);
    let (gain_median, gain_max) = median_max(gain);
    let (turned_median, turned_max) = median_max(turned);
    let (spread_median, spread_max) = median_max(spreads);
    let (_, same_max) = median_max(same);
    let (input_median, input_max) = median_max(inputs);
    let law_parted = law_off.iter().filter(|x| **x > 1e-12).count();
    let (law_median, _) = median_max(law_off);
    eprintln!(
        "{} collisions replayed, every first event pooltool's (times within {worst_time:.1e} s)",
        cases.len()
    );
    eprintln!(
        "the state our engine brought to a cushion against pooltool's there: median \
         {input_median:.1e}, max {input_max:.1e} of the scale"
    );
    eprintln!(
        "ball-ball: {} events, median {pair_median:.1e}, max {pair_max:.1e}",
        pairs_d.len()
    );
    eprintln!(
        "cushion, arriving sliding: {n_sliding} events, median {sliding_median:.1e}, max \
         {sliding_max:.1e} (the law at pooltool's state: max {sliding_law_max:.1e}); output \
         change per relative input change of 1e-9: median {gain_median:.2}, max {gain_max:.2}"
    );
    eprintln!(
        "cushion, arriving rolling: {n_rolling} events, the cloth slip exactly zero at our \
         engine's state in {zero_ours}, at pooltool's in {zero_theirs} (the law at pooltool's \
         state: median {law_median:.1e}, {law_parted} beyond 1e-12); {n_same} with our \
         first-step direction pooltool's: max \
         {same_max:.1e}; {n_turned} with another: median {turned_median:.1e}, max \
         {turned_max:.1e}, the first step's spread there median {spread_median:.1e}, max \
         {spread_max:.1e}"
    );
    assert!(worst_time < 1e-12, "event times {worst_time:e} s apart");
    assert!(
        input_max < 1e-12,
        "states at the cushion {input_max:e} apart"
    );
    assert!(pair_max <= 1e-11, "ball-ball: {pair_max:e}");
    assert!(
        n_sliding >= 30 && n_rolling >= 100,
        "{n_sliding} sliding, {n_rolling} rolling"
    );
    assert!(
        sliding_max <= 1e-8 && sliding_law_max <= 1e-8,
        "sliding: {sliding_max:e}"
    );
    assert!(
        gain_max < 100.0,
        "sliding: output change {gain_max} per input change"
    );
    assert!(
        same_max <= 1e-12,
        "rolling, same first direction: {same_max:e}"
    );
    // The test sees the conditioning: the first step's direction is a rounding residual's,
    // and where it is not pooltool's the results part by parts in 1e4 of the scale.
    assert!(
        n_turned >= 10 && turned_median > 1e-5,
        "{n_turned}, {turned_median:e}"
    );
}
