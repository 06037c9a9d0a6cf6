//! A set-up as the protocol's request: one JSON object (docs/engine-protocol.md, "Request").

use pool_physics::resolve::{LawSpec, Param};
use pool_physics::{BallParams, BallState, Vec3};
use pool_sim::Setup;
use serde_json::{json, Map, Value};

use crate::PROTOCOL;

/// The request for `setup`: the model (preset name when it is one, motion, every event type's
/// law with its parameters by pooltool's names, ball parameters), the table (cushion segments
/// with their playing-side normal, the end points a ball can touch, circular cushions, pockets),
/// every ball's
/// state at t = 0 with a cue strike already applied, `t_end` and `max_events` (null for none).
pub fn request(setup: &Setup, max_events: Option<usize>) -> Value {
    sorted(request_unsorted(setup, max_events))
}

/// The request line for `setup` with its `id` (and the time step `dt` (s) the program is
/// asked to take, for a program that takes one): [`request`] written with every object's keys in
/// alphabetical order, as docs/engine-protocol.md says (whether or not serde_json keeps
/// insertion order in this build: its `preserve_order` feature is the whole build's).
pub fn request_line(
    setup: &Setup,
    max_events: Option<usize>,
    dt: Option<f64>,
    id: usize,
) -> String {
    let mut r = request_unsorted(setup, max_events);
    if let Value::Object(m) = &mut r {
        m.insert("id".into(), Value::from(id));
        if let Some(dt) = dt {
            m.insert("dt".into(), Value::from(dt));
        }
    }
    sorted(r).to_string()
}

/// `v` with every object's keys in alphabetical order (objects inside arrays too).
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        v => v,
    }
}

fn request_unsorted(setup: &Setup, max_events: Option<usize>) -> Value {
    let physics = &setup.physics;
    let mut laws = Map::new();
    for (event_type, spec) in physics.resolver().specs() {
        laws.insert(event_type.to_string(), law(&spec));
    }
    let params = physics.params();
    let mut values = Map::new();
    for name in BallParams::NAMES {
        if let Some(v) = params.field(name) {
            values.insert(name.to_string(), json!(v));
        }
    }
    let table = setup.table.table();
    let segments = setup.table.segments();
    let cushions: Vec<Value> = table
        .cushions
        .iter()
        .zip(segments)
        .map(|(c, s)| {
            json!({
                "id": c.id,
                "p1": c.p1,
                "p2": c.p2,
                "height": c.height,
                "normal": [s.normal.x, s.normal.y],
            })
        })
        .collect();
    let end_points: Vec<Value> = setup
        .table
        .end_points()
        .iter()
        .map(|e| json!({ "p": [e.p.x, e.p.y], "cushion": table.cushions[e.segment].id }))
        .collect();
    let circular: Vec<Value> = (table.circular_cushions.iter())
        .map(|c| json!({ "id": c.id, "center": c.center, "radius": c.radius, "height": c.height }))
        .collect();
    let pockets: Vec<Value> = table
        .pockets
        .iter()
        .map(|p| match p.capture_line {
            Some(line) => {
                json!({ "id": p.id, "center": p.center, "radius": p.radius, "capture_line": line })
            }
            None => json!({ "id": p.id, "center": p.center, "radius": p.radius }),
        })
        .collect();
    let (states, _) = setup.initial_states();
    let balls: Vec<Value> = setup
        .balls
        .iter()
        .zip(&states)
        .map(|(b, s)| ball(&b.id, s))
        .collect();
    json!({
        "protocol": PROTOCOL,
        "shot": setup.name,
        "model": {
            "preset": physics.preset_name(),
            "motion": physics.motion().name(),
            "laws": laws,
            "params": values,
            "radius": physics.params().radius,
        },
        "table": {
            "name": table.name,
            "length": table.length,
            "width": table.width,
            "cushions": cushions,
            "end_points": end_points,
            "circular_cushions": circular,
            "pockets": pockets,
        },
        "balls": balls,
        "t_end": setup.t_end,
        "max_events": max_events,
    })
}

/// A ball as `{id, r, v, w, state}` (m, m/s, rad/s).
fn ball(id: &str, s: &BallState) -> Value {
    let v3 = |v: &Vec3| [v.x, v.y, v.z];
    json!({
        "id": id,
        "r": v3(&s.r),
        "v": v3(&s.v),
        "w": v3(&s.w),
        "state": s.motion.name(),
    })
}

/// A law as `{"model": name, <param>: value, ...}`.
fn law(spec: &LawSpec) -> Value {
    let mut m = Map::new();
    m.insert("model".into(), json!(spec.model));
    for (k, v) in &spec.params {
        m.insert(k.clone(), param(v));
    }
    Value::Object(m)
}

fn param(p: &Param) -> Value {
    match p {
        Param::Bool(b) => json!(b),
        Param::Number(x) => json!(x),
        Param::Text(s) => json!(s),
        Param::Law(l) => law(l),
    }
}
