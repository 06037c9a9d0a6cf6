//! The protocol from the program's side: a request read back as a [`Setup`]
//! ([`setup_of_request`], the inverse of [`crate::request`]) and an [`Outcome`] written as the
//! answer ([`answer_of`], what [`crate::parse_answer`] reads). With them one of our own engines
//! is a protocol program (`cargo xtask simulate --serve`): a reference answer for anyone
//! writing one, and a check of the harness's side of the protocol against its own engines.

use pool_physics::resolve::{LawSpec, Param, Resolver};
use pool_physics::{BallParams, BallState, Model, Motion, MotionState, Vec3};
use pool_physics::{CircularCushion, Cushion, Pocket, Table};
use pool_sim::{Agents, Ball, Outcome, Setup};
use serde_json::{json, Map, Value};

use crate::PROTOCOL;

/// A field of the request and what is wrong with it: `model.params.mu_r = "x": not a number`.
fn bad(field: &str, value: &Value, why: &str) -> String {
    let text = value.to_string();
    let shown: String = text.chars().take(120).collect();
    format!("{field} = {shown}: {why}")
}

fn get<'a>(obj: &'a Value, field: &str, path: &str) -> Result<&'a Value, String> {
    obj.get(field)
        .ok_or_else(|| format!("{path}{field}: missing"))
}

fn number(v: &Value, field: &str) -> Result<f64, String> {
    v.as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| bad(field, v, "must be a finite number"))
}

fn text<'a>(v: &'a Value, field: &str) -> Result<&'a str, String> {
    v.as_str().ok_or_else(|| bad(field, v, "must be a string"))
}

fn pair(v: &Value, field: &str) -> Result<[f64; 2], String> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y]) => Ok([number(x, field)?, number(y, field)?]),
        _ => Err(bad(field, v, "must be 2 numbers")),
    }
}

fn capture_line(v: &Value, field: &str) -> Result<[[f64; 2]; 2], String> {
    match v.as_array().map(Vec::as_slice) {
        Some([a, b]) => Ok([pair(a, field)?, pair(b, field)?]),
        _ => Err(bad(field, v, "must be 2 points [[x, y], [x, y]]")),
    }
}

fn vec3(v: &Value, field: &str) -> Result<Vec3, String> {
    match v.as_array().map(Vec::as_slice) {
        Some([x, y, z]) => Ok(Vec3::new(
            number(x, field)?,
            number(y, field)?,
            number(z, field)?,
        )),
        _ => Err(bad(field, v, "must be 3 numbers")),
    }
}

fn list<'a>(v: &'a Value, field: &str) -> Result<&'a Vec<Value>, String> {
    v.as_array()
        .ok_or_else(|| bad(field, v, "must be an array"))
}

/// A law as the request writes it (`{"model": name, <param>: value, ...}`).
fn law(v: &Value, field: &str) -> Result<LawSpec, String> {
    let Value::Object(m) = v else {
        return Err(bad(field, v, "must be an object with `model`"));
    };
    let model = text(
        m.get("model")
            .ok_or_else(|| format!("{field}.model: missing"))?,
        &format!("{field}.model"),
    )?;
    let mut spec = LawSpec::named(model);
    for (k, x) in m.iter().filter(|(k, _)| *k != "model") {
        let at = format!("{field}.{k}");
        let p = match x {
            Value::Bool(b) => Param::Bool(*b),
            Value::Number(_) => Param::Number(number(x, &at)?),
            Value::String(s) => Param::Text(s.clone()),
            Value::Object(_) => Param::Law(law(x, &at)?),
            _ => return Err(bad(&at, x, "must be a number, a boolean, a name or a law")),
        };
        spec = spec.with(k, p);
    }
    Ok(spec)
}

/// The model of a request: ball parameters, motion, every event type's law.
fn model(m: &Value) -> Result<Model, String> {
    let mut params = BallParams::pool();
    let Value::Object(values) = get(m, "params", "model.")? else {
        return Err("model.params: must be an object".into());
    };
    for (k, v) in values {
        let at = format!("model.params.{k}");
        let x = number(v, &at)?;
        *params
            .field_mut(k)
            .ok_or_else(|| bad(&at, v, "not a ball parameter"))? = x;
    }
    // Every parameter is given (docs/engine-protocol.md): none is filled in.
    if let Some(missing) = BallParams::NAMES.iter().find(|n| !values.contains_key(**n)) {
        return Err(format!(
            "model.params.{missing}: missing (every ball parameter is given, by its shot-file \
             name)"
        ));
    }
    if let Err(why) = params.validate() {
        let key = why.split_whitespace().next().unwrap_or("");
        return Err(format!("model.params.{key}: {why}"));
    }
    let radius = get(m, "radius", "model.")?;
    if number(radius, "model.radius")?.to_bits() != params.radius.to_bits() {
        return Err(bad(
            "model.radius",
            radius,
            &format!(
                "differs from model.params.R = {:?}: both are the balls' radius",
                params.radius
            ),
        ));
    }
    let name = text(get(m, "motion", "model.")?, "model.motion")?;
    let motion = Motion::by_name(name).ok_or_else(|| {
        bad(
            "model.motion",
            &Value::from(name),
            &format!("valid: {}", Motion::NAMES.join(", ")),
        )
    })?;
    let mut resolver = Resolver::seed();
    if let Value::Object(laws) = get(m, "laws", "model.")? {
        for (event, spec) in laws {
            let at = format!("model.laws.{event}");
            resolver
                .set(event, &law(spec, &at)?)
                .map_err(|e| format!("{at}: {e}"))?;
        }
    } else {
        return Err("model.laws: must be an object".into());
    }
    Ok(Model::new(params, motion, resolver))
}

/// The table of a request (end points are the prepared table's own, not read).
fn table(t: &Value) -> Result<Table, String> {
    let f = |k: &str| get(t, k, "table.");
    let cushions = list(f("cushions")?, "table.cushions")?
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let at = |x: &str| format!("table.cushions[{k}].{x}");
            Ok(Cushion {
                id: text(get(c, "id", &at(""))?, &at("id"))?.to_string(),
                p1: pair(get(c, "p1", &at(""))?, &at("p1"))?,
                p2: pair(get(c, "p2", &at(""))?, &at("p2"))?,
                height: number(get(c, "height", &at(""))?, &at("height"))?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let circular_cushions = list(f("circular_cushions")?, "table.circular_cushions")?
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let at = |x: &str| format!("table.circular_cushions[{k}].{x}");
            Ok(CircularCushion {
                id: text(get(c, "id", &at(""))?, &at("id"))?.to_string(),
                center: pair(get(c, "center", &at(""))?, &at("center"))?,
                radius: number(get(c, "radius", &at(""))?, &at("radius"))?,
                height: number(get(c, "height", &at(""))?, &at("height"))?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let pockets = list(f("pockets")?, "table.pockets")?
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let at = |x: &str| format!("table.pockets[{k}].{x}");
            Ok(Pocket {
                id: text(get(p, "id", &at(""))?, &at("id"))?.to_string(),
                center: pair(get(p, "center", &at(""))?, &at("center"))?,
                radius: number(get(p, "radius", &at(""))?, &at("radius"))?,
                depth: None,
                capture_line: match p.get("capture_line") {
                    None | Some(Value::Null) => None,
                    Some(v) => Some(capture_line(v, &at("capture_line"))?),
                },
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let table = Table {
        name: text(f("name")?, "table.name")?.to_string(),
        length: number(f("length")?, "table.length")?,
        width: number(f("width")?, "table.width")?,
        cushions,
        circular_cushions,
        pockets,
    };
    table.validate().map_err(|e| format!("table: {e}"))?;
    Ok(table)
}

/// The set-up a request describes: the inverse of [`crate::request`] (pocket depths, which the
/// request does not carry, are left out; a shot's strike arrives applied).
///
/// # Errors
/// A field missing or malformed, an unknown law, motion or state, or a set-up that does not
/// validate: one line naming the field and the value.
pub fn setup_of_request(r: &Value) -> Result<Setup, String> {
    let protocol = get(r, "protocol", "")?;
    if protocol.as_str() != Some(PROTOCOL) {
        return Err(bad("protocol", protocol, &format!("expected {PROTOCOL:?}")));
    }
    let physics = model(get(r, "model", "")?)?;
    let table = table(get(r, "table", "")?)?;
    let balls = list(get(r, "balls", "")?, "balls")?
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let at = |x: &str| format!("balls[{k}].{x}");
            let state = get(b, "state", &at(""))?;
            let motion: MotionState = serde_json::from_value(state.clone())
                .map_err(|_| bad(&at("state"), state, "unknown motion state"))?;
            Ok(Ball {
                id: text(get(b, "id", &at(""))?, &at("id"))?.to_string(),
                state: BallState {
                    r: vec3(get(b, "r", &at(""))?, &at("r"))?,
                    v: vec3(get(b, "v", &at(""))?, &at("v"))?,
                    w: vec3(get(b, "w", &at(""))?, &at("w"))?,
                    motion,
                    set: 0,
                },
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let t_end = match get(r, "t_end", "")? {
        Value::Null => None,
        v => Some(number(v, "t_end")?),
    };
    let setup = Setup {
        name: text(get(r, "shot", "")?, "shot")?.to_string(),
        physics,
        table: table.into(),
        balls,
        t_end,
        strike: None,
    };
    setup.validate().map_err(|e| e.to_string())?;
    Ok(setup)
}

/// The request's `max_events` (`None` for null or absent).
///
/// # Errors
/// A value that is not a count.
pub fn max_events_of_request(r: &Value) -> Result<Option<usize>, String> {
    match r.get("max_events") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| bad("max_events", v, "must be a count or null")),
    }
}

/// An event's agents as the protocol names them (ball ids, then a cushion's or pocket's id).
fn agent_ids(setup: &Setup, agents: &Agents) -> Vec<String> {
    let ball = |i: usize| setup.balls[i].id.clone();
    let table = setup.table.table();
    match *agents {
        Agents::Ball { ball: b } => vec![ball(b)],
        Agents::BallBall { a, b } => vec![ball(a), ball(b)],
        Agents::BallCushion { ball: b, cushion } => {
            vec![ball(b), table.cushions[cushion].id.clone()]
        }
        Agents::BallCircularCushion { ball: b, cushion } => {
            vec![ball(b), table.circular_cushions[cushion].id.clone()]
        }
        Agents::BallPocket { ball: b, pocket } => vec![ball(b), table.pockets[pocket].id.clone()],
    }
}

/// The answer of request `id` for `setup` run as `outcome` (see the protocol's "Answer"):
/// events, final states, end time, termination, operations, and `engine_s` when given.
pub fn answer_of(
    id: Option<&Value>,
    setup: &Setup,
    outcome: &Outcome,
    engine_s: Option<f64>,
) -> Value {
    let v3 = |v: &Vec3| [v.x, v.y, v.z];
    let events: Vec<Value> = outcome
        .events
        .iter()
        .map(|e| {
            json!({
                "time": e.time,
                "kind": e.kind.name(),
                "agents": agent_ids(setup, &e.agents),
            })
        })
        .collect();
    let finals: Vec<Value> = outcome
        .final_states
        .iter()
        .zip(&setup.balls)
        .map(|(s, b)| {
            json!({
                "id": b.id,
                "r": v3(&s.r),
                "v": v3(&s.v),
                "w": v3(&s.w),
                "state": s.motion.name(),
            })
        })
        .collect();
    let mut ops = Map::new();
    for (name, count) in outcome.ops.iter() {
        ops.insert(name.to_string(), json!(count));
    }
    let mut answer = json!({
        "events": events,
        "final_states": finals,
        "end_time": outcome.end_time,
        "termination": outcome.termination.name(),
        "ops": ops,
    });
    if let Value::Object(m) = &mut answer {
        if let Some(id) = id {
            m.insert("id".into(), id.clone());
        }
        if let Some(s) = engine_s {
            m.insert("engine_s".into(), json!(s));
        }
    }
    answer
}
