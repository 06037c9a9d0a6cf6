//! A set-up, and optionally its run, as a pooltool `System` (the tree `System.save` writes as
//! JSON).

use pool_physics::{
    cushion_id_from_pooltool, pocket_id_from_pooltool, BallParams, BallState, EventKind,
    LinearSegment, MotionState, Physics, Vec3,
};
use pool_sim::{Agents, Outcome, Setup};
use serde_json::{json, Map, Value};

use crate::frame::{angle_mirrored, spin_out, vector_out};
use crate::import::played_on_their_left;
use crate::motion_code;

/// pooltool's default pocket depth (m), for pockets whose depth the table does not give.
const DEFAULT_DEPTH: f64 = 0.08;

/// `setup` as a pooltool `System`, in pooltool's frame and ids (cushions and pockets by
/// [`cushion_id_from_pooltool`] and [`pocket_id_from_pooltool`], their own inverses; balls
/// keep theirs): its cue (the strike, or a cue with
/// V0 = 0 that strikes nothing), table, balls and parameters; with `outcome` (a run recorded
/// with snapshots: one after every event, or, for a fixed-step engine, one at the end of
/// every step with an event), the run as pooltool records one: every event with its agents' states before and after (`initial`, `final`), between a
/// `none` event at t = 0 and one at the end, each ball's state at every one of them
/// (`history`), its final state and the end time `t`. Pocketed balls sit at their pocket's
/// center, `depth` below the cloth (pooltool's convention; our engines keep z = R).
///
/// Two entries pooltool does not read travel with it: `resolver` (our laws, as pooltool's
/// resolver file) and `harness` (what pooltool has no place for: the table's name, length
/// and width, the pockets whose depth it does not give (written as pooltool's default,
/// 0.08 m), the motion model, `t_end` and which parameters are the shot's, `params`: each
/// ball carries its own), so that [`crate::import`] gives back the same set-up.
///
/// An event's `initial` states are the snapshot before it evolved to the event's time by the
/// set-up's physics: the engine's own states for the event engine (to rounding), the analytic
/// path from the last sample for a fixed-step engine.
///
/// # Errors
/// A snapshot is missing for an event, or a number is not finite (a failed run).
pub fn export(setup: &Setup, outcome: Option<&Outcome>) -> Result<Value, String> {
    let physics = &setup.physics;
    let table = &setup.table;
    let cue = cue_out(setup);
    let mut system = Map::new();
    system.insert("cue".into(), cue.clone());
    let initial: Vec<BallState> = setup.balls.iter().map(|b| b.state).collect();
    let ball_obj = |i: usize, s: &BallState, t: f64, depth: Option<f64>| {
        ball_out(&setup.balls[i].id, s, t, physics.params_of(s), depth)
    };
    let Some(out) = outcome else {
        system.insert("table".into(), table_out(setup, &[]));
        let balls: Map<String, Value> = (setup.balls.iter().enumerate())
            .map(|(i, b)| (b.id.clone(), ball_obj(i, &initial[i], 0.0, None)))
            .collect();
        system.insert("balls".into(), Value::Object(balls));
        system.insert("t".into(), json!(0.0));
        system.insert("events".into(), json!([]));
        extras(&mut system, setup);
        return check_finite(Value::Object(system));
    };
    let after = snapshot_after(out)?;
    // Where each ball was pocketed (its pocket's depth), and each pocket's balls, in order.
    let mut depth_of: Vec<Option<f64>> = vec![None; setup.balls.len()];
    let mut contains: Vec<Vec<String>> = vec![Vec::new(); table.pockets.len()];
    let mut events = vec![none_event(0.0)];
    let mut history: Vec<Vec<Value>> = (0..setup.balls.len())
        .map(|i| vec![ball_state(&initial[i], 0.0, None)])
        .collect();
    for (k, e) in out.events.iter().enumerate() {
        let snap = &out.snapshots[after[k]];
        let prev = &out.snapshots[if k == 0 { 0 } else { after[k - 1] }];
        let before = |i: usize| {
            let s = &prev.states[i];
            if e.kind == EventKind::StickBall {
                initial[i]
            } else if s.motion.is_moving() && e.time > prev.time {
                physics.evolve(s, e.time - prev.time)
            } else {
                *s
            }
        };
        let ball_agent = |i: usize, depth_of: &[Option<f64>]| {
            json!({
                "id": setup.balls[i].id,
                "agent_type": "ball",
                "initial": ball_obj(i, &before(i), e.time, None),
                "final": ball_obj(i, &snap.states[i], e.time, depth_of[i]),
            })
        };
        let agents = match e.agents {
            Agents::Ball { ball } if e.kind == EventKind::StickBall => vec![
                json!({"id": cue["id"], "agent_type": "cue", "initial": cue, "final": null}),
                ball_agent(ball, &depth_of),
            ],
            Agents::Ball { ball } => vec![ball_agent(ball, &depth_of)],
            Agents::BallBall { a, b } => vec![ball_agent(a, &depth_of), ball_agent(b, &depth_of)],
            Agents::BallCushion { ball, cushion } => vec![
                ball_agent(ball, &depth_of),
                json!({
                    "id": cushion_id_from_pooltool(&table.cushions[cushion].id),
                    "agent_type": "linear_cushion_segment",
                    "initial": linear_out(&table.segments()[cushion], &table.cushions[cushion].id),
                    "final": null,
                }),
            ],
            Agents::BallCircularCushion { ball, cushion } => vec![
                ball_agent(ball, &depth_of),
                json!({
                    "id": cushion_id_from_pooltool(&table.circular_cushions[cushion].id),
                    "agent_type": "circular_cushion_segment",
                    "initial": circular_out(setup, cushion),
                    "final": null,
                }),
            ],
            Agents::BallPocket { ball, pocket } => {
                let before = pocket_out(setup, pocket, &contains[pocket]);
                contains[pocket].push(setup.balls[ball].id.clone());
                depth_of[ball] = Some(table.pockets[pocket].depth.unwrap_or(DEFAULT_DEPTH));
                vec![
                    ball_agent(ball, &depth_of),
                    json!({
                        "id": pocket_id_from_pooltool(&table.pockets[pocket].id),
                        "agent_type": "pocket",
                        "initial": before,
                        "final": pocket_out(setup, pocket, &contains[pocket]),
                    }),
                ]
            }
        };
        events.push(json!({"event_type": e.kind.name(), "agents": agents, "time": e.time}));
        for (i, h) in history.iter_mut().enumerate() {
            h.push(ball_state(&snap.states[i], e.time, depth_of[i]));
        }
    }
    events.push(none_event(out.end_time));
    for (i, h) in history.iter_mut().enumerate() {
        h.push(ball_state(&out.final_states[i], out.end_time, depth_of[i]));
    }
    system.insert("table".into(), table_out(setup, &contains));
    let balls: Map<String, Value> = (setup.balls.iter().enumerate())
        .map(|(i, b)| {
            let mut ball = ball_obj(i, &out.final_states[i], out.end_time, depth_of[i]);
            ball["history"] = json!({ "states": std::mem::take(&mut history[i]) });
            (b.id.clone(), ball)
        })
        .collect();
    system.insert("balls".into(), Value::Object(balls));
    system.insert("t".into(), json!(out.end_time));
    system.insert("events".into(), Value::Array(events));
    extras(&mut system, setup);
    check_finite(Value::Object(system))
}

/// For each event, the snapshot just after it: snapshot k + 1 when the run has one per event
/// (the event engine), else the last snapshot at the event's time (a fixed-step engine, which
/// samples at the end of every step with an event).
fn snapshot_after(out: &Outcome) -> Result<Vec<usize>, String> {
    let snaps = &out.snapshots;
    let per_event = snaps.len() == out.events.len() + 1
        && out
            .events
            .iter()
            .zip(&snaps[1..])
            .all(|(e, s)| e.time == s.time);
    if per_event {
        return Ok((1..snaps.len()).collect());
    }
    out.events
        .iter()
        .map(|e| {
            snaps.iter().rposition(|s| s.time == e.time).ok_or_else(|| {
                format!(
                    "no snapshot at t = {} s for an event: run with snapshots",
                    e.time
                )
            })
        })
        .collect()
}

/// pooltool's null event at `time`.
fn none_event(time: f64) -> Value {
    json!({
        "event_type": "none",
        "agents": [{"id": "dummy", "agent_type": "null", "initial": null, "final": null}],
        "time": time,
    })
}

/// The cue: our strike, or pooltool's default cue with V0 = 0 (which strikes nothing) on the
/// first ball.
fn cue_out(setup: &Setup) -> Value {
    let default = pool_physics::resolve::CueSpecs::default();
    let (ball, v0, phi, theta, a, b, specs) = match &setup.strike {
        Some(s) => (
            setup.balls[s.ball].id.as_str(),
            s.cue.v0,
            angle_mirrored(s.cue.phi),
            s.cue.theta,
            -s.cue.a,
            s.cue.b,
            s.cue.specs,
        ),
        None => (
            setup.balls.first().map_or("cue", |b| b.id.as_str()),
            0.0,
            0.0,
            0.0,
            0.0,
            0.0,
            default,
        ),
    };
    json!({
        "id": "cue_stick",
        "V0": v0,
        "phi": phi,
        "theta": theta,
        "a": a,
        "b": b,
        "cue_ball_id": ball,
        "specs": {
            "brand": "Predator",
            "M": specs.mass,
            "length": 1.4732,
            "tip_radius": 0.0106045,
            "shaft_radius_at_tip": 0.0065,
            "shaft_radius_at_butt": 0.02,
            "end_mass": specs.end_mass,
        },
    })
}

/// A ball's state in pooltool's frame at time `t`; pocketed at `depth` below the cloth.
fn ball_state(s: &BallState, t: f64, depth: Option<f64>) -> Value {
    let mut r = vector_out(&s.r);
    if s.motion == MotionState::Pocketed {
        if let Some(d) = depth {
            r[2] = -d;
        }
    }
    json!({
        "rvw": [r, vector_out(&s.v), spin_out(&s.w)],
        "s": motion_code(s.motion),
        "t": t,
    })
}

/// Why pooltool 0.6.0 cannot take `setup`'s balls, if it cannot: balls of unequal mass or
/// radius (its `System` asserts equal ones: its ball–ball detection uses the first ball's R
/// for the pair and its `frictionless_elastic` exchanges velocities as for equal masses).
/// Per-ball friction coefficients and restitutions it takes. `None` when every ball has the
/// same m and R.
pub fn unequal_balls(setup: &Setup) -> Option<String> {
    let physics = &setup.physics;
    let first = setup.balls.first()?;
    let (m0, r0) = (physics.mass(&first.state), physics.radius(&first.state));
    setup.balls.iter().find_map(|b| {
        let (m, r) = (physics.mass(&b.state), physics.radius(&b.state));
        (m != m0 || r != r0).then(|| {
            format!(
                "ball {:?} has m = {m} kg, R = {r} m, ball {:?} m = {m0} kg, R = {r0} m",
                b.id, first.id
            )
        })
    })
}

/// A pooltool `Ball`: id, state, its own parameters `p`, no history yet.
fn ball_out(id: &str, s: &BallState, t: f64, p: &BallParams, depth: Option<f64>) -> Value {
    json!({
        "id": id,
        "state": ball_state(s, t, depth),
        "params": params_out(p),
        "ballset": null,
        "initial_orientation": {"pos": [1.0, 1.0, 1.0, 1.0], "sphere": [1.0, 0.0, 0.0, 0.0]},
        "history": {"states": []},
        "history_cts": {"states": []},
    })
}

/// pooltool's `BallParams` for ours (`u_sp_proportionality` = mu_sp / R, see [`proportion`]).
fn params_out(p: &BallParams) -> Value {
    json!({
        "m": p.m,
        "R": p.radius,
        "u_s": p.mu_s,
        "u_r": p.mu_r,
        "u_sp_proportionality": proportion(p.mu_sp, p.radius),
        "u_b": p.mu_b,
        "e_b": p.e_b,
        "e_c": p.e_c,
        "f_c": p.f_c,
        "g": p.g,
    })
}

/// pooltool's `u_sp_proportionality` for our mu_sp: mu_sp / R, or the neighbouring double that
/// gives mu_sp back exactly when multiplied by R (as [`crate::import`] does), if there is one.
fn proportion(mu_sp: f64, radius: f64) -> f64 {
    let p = mu_sp / radius;
    if !(p.is_finite() && p > 0.0) {
        return p;
    }
    let bits = p.to_bits();
    (0..=4u64)
        .flat_map(|k| [bits.wrapping_add(k), bits.wrapping_sub(k)])
        .map(f64::from_bits)
        .find(|q| q * radius == mu_sp)
        .unwrap_or(p)
}

/// A straight segment in pooltool's frame and ids (ours is `id`), with the `direction` that
/// plays our left side.
fn linear_out(s: &LinearSegment, id: &str) -> Value {
    let id = cushion_id_from_pooltool(id);
    let h = s.height;
    let p1 = vector_out(&Vec3::new(s.start.x, s.start.y, h));
    let p2 = vector_out(&Vec3::new(s.end.x, s.end.y, h));
    // Our left is pooltool's right: the direction whose side is not on its left.
    let direction = u64::from(!played_on_their_left(p1, p2, 1));
    json!({"id": id, "p1": p1, "p2": p2, "direction": direction})
}

fn circular_out(setup: &Setup, k: usize) -> Value {
    let c = &setup.table.circular_cushions[k];
    let center = vector_out(&Vec3::new(c.center[0], c.center[1], c.height));
    json!({"id": cushion_id_from_pooltool(&c.id), "center": center, "radius": c.radius})
}

fn pocket_out(setup: &Setup, k: usize, contains: &[String]) -> Value {
    let p = &setup.table.pockets[k];
    let center = vector_out(&Vec3::new(p.center[0], p.center[1], 0.0));
    json!({
        "id": pocket_id_from_pooltool(&p.id),
        "center": center,
        "radius": p.radius,
        "depth": p.depth.unwrap_or(DEFAULT_DEPTH),
        "contains": contains,
    })
}

/// The table; `contains` the balls in each pocket at the end (empty for none).
fn table_out(setup: &Setup, contains: &[Vec<String>]) -> Value {
    let t = &setup.table;
    let linear: Map<String, Value> = (t.cushions.iter().zip(t.segments()))
        .map(|(c, s)| (cushion_id_from_pooltool(&c.id), linear_out(s, &c.id)))
        .collect();
    let circular: Map<String, Value> = (t.circular_cushions.iter().enumerate())
        .map(|(k, c)| (cushion_id_from_pooltool(&c.id), circular_out(setup, k)))
        .collect();
    let pockets: Map<String, Value> = (t.pockets.iter().enumerate())
        .map(|(k, p)| {
            let inside = contains.get(k).map_or(&[][..], Vec::as_slice);
            (pocket_id_from_pooltool(&p.id), pocket_out(setup, k, inside))
        })
        .collect();
    json!({
        "cushion_segments": {"linear": linear, "circular": circular},
        "pockets": pockets,
        "table_type": if t.pockets.is_empty() { "billiard" } else { "pocket" },
        "model_descr": null,
        "height": 0.708,
        "lights_height": 1.99,
    })
}

/// The entries pooltool does not read: our laws as its resolver file, our motion and t_end.
fn extras(system: &mut Map<String, Value>, setup: &Setup) {
    system.insert(
        "resolver".into(),
        crate::resolver_out(setup.physics.resolver()),
    );
    let t = &setup.table;
    // pooltool's ids, as the file's pockets have them.
    let no_depth: Vec<String> = (t.pockets.iter())
        .filter(|p| p.depth.is_none())
        .map(|p| pocket_id_from_pooltool(&p.id))
        .collect();
    let mut harness = json!({
        "table": t.name,
        "length": t.length,
        "width": t.width,
        "no_depth": no_depth,
        "motion": setup.physics.motion().name(),
        "t_end": setup.t_end,
        "params": params_out(setup.physics.params()),
    });
    // pooltool's pockets are circles: a capture line (ours, in our frame) rides along here so
    // that the file reads back as the same table.
    let lines: Map<String, Value> = (t.pockets.iter())
        .filter_map(|p| Some((pocket_id_from_pooltool(&p.id), json!(p.capture_line?))))
        .collect();
    if !lines.is_empty() {
        harness["capture_lines"] = Value::Object(lines);
    }
    system.insert("harness".into(), harness);
}

/// `v`, or an error if a number in it could not be written (serde_json makes NaN and
/// infinities null).
fn check_finite(v: Value) -> Result<Value, String> {
    // Nulls pooltool writes itself: agents' `initial` and `final` where there is no state,
    // `ballset`, `model_descr`; ours: `t_end` when the shot has none.
    fn bad_null(v: &Value) -> bool {
        match v {
            Value::Array(a) => a.iter().any(bad_null),
            Value::Object(o) => o.iter().any(|(k, x)| {
                if x.is_null() {
                    !matches!(
                        k.as_str(),
                        "final" | "initial" | "ballset" | "model_descr" | "t_end"
                    )
                } else {
                    bad_null(x)
                }
            }),
            _ => false,
        }
    }
    if bad_null(&v) {
        return Err("a state is not finite (NaN or infinite): the run failed".into());
    }
    Ok(v)
}
