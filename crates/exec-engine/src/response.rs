//! The protocol's answer, checked and turned into an [`Outcome`] (docs/engine-protocol.md,
//! "Answer"). Every way an answer can be wrong is one line naming the field and the value.

use std::sync::Mutex;

use pool_physics::{BallState, EventKind, MotionState, Physics, Vec3};
use pool_sim::{Agents, EngineError, Event, OpCounts, Outcome, Setup, Termination};
use serde_json::{Map, Value};

/// Distinct operation-counter names all programs of a process may report (each is kept for
/// the process's life, as counter names are `&'static str`).
const MAX_OP_NAMES: usize = 256;

/// The outcome an answer line describes, for `setup` (the request's set-up).
///
/// # Errors
/// Malformed JSON, a field missing or of the wrong type, an unknown event kind, id or motion
/// state, agents that do not fit the kind, times that are not finite or run backwards, a ball
/// missing from or repeated in `final_states`, an `engine_s` that is not a time >= 0; or the
/// program's own `error` (a failure) or `unsupported` (a shot outside its model).
pub fn parse_answer(line: &str, setup: &Setup) -> Result<Outcome, EngineError> {
    let value: Value = serde_json::from_str(line).map_err(|e| {
        EngineError::failed(format!(
            "answer is not JSON ({e}): {}",
            shorten(line.trim_end())
        ))
    })?;
    let Value::Object(obj) = value else {
        return Err(bad("answer", &value, "must be a JSON object"));
    };
    if let Some(why) = obj.get("unsupported") {
        return Err(EngineError::unsupported(text(why)));
    }
    if let Some(why) = obj.get("error") {
        return Err(EngineError::failed(format!(
            "the program reports an error: {}",
            text(why)
        )));
    }
    let (_, strike) = setup.initial_states();
    let mut events: Vec<Event> = strike.into_iter().collect();
    for (k, e) in array(&obj, "events")?.iter().enumerate() {
        let e = event(e, setup).map_err(|m| EngineError::failed(format!("events[{k}]: {m}")))?;
        if let Some(last) = events.last() {
            if e.time < last.time {
                return Err(EngineError::failed(format!(
                    "events[{k}].time = {}: earlier than the event before it ({})",
                    e.time, last.time
                )));
            }
        }
        events.push(e);
    }
    let final_states = final_states(array(&obj, "final_states")?, setup)?;
    let last = events.last().map_or(0.0, |e| e.time);
    let end_time = match obj.get("end_time") {
        None | Some(Value::Null) => last,
        Some(v) => number(v).filter(|t| *t >= last).ok_or_else(|| {
            bad(
                "end_time",
                v,
                "must be a finite time (s) no earlier than the last event",
            )
        })?,
    };
    let termination = match obj.get("termination") {
        None | Some(Value::Null) => Termination::AtRest,
        Some(v) => termination(v)?,
    };
    let ops = match obj.get("ops") {
        None | Some(Value::Null) => OpCounts::default(),
        Some(Value::Object(m)) => ops(m)?,
        Some(v) => return Err(bad("ops", v, "must be an object of counter: count")),
    };
    let engine_s = engine_s(obj.get("engine_s"))?;
    Ok(Outcome {
        events,
        final_states,
        end_time,
        termination,
        ops,
        snapshots: Vec::new(),
        engine_s,
    })
}

/// The optional `engine_s`: seconds the program spent inside its engine's own calls for this
/// shot (a finite number >= 0; absent or null when the program does not say).
fn engine_s(v: Option<&Value>) -> Result<Option<f64>, EngineError> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(v) => number(v).filter(|s| *s >= 0.0).map(Some).ok_or_else(|| {
            bad(
                "engine_s",
                v,
                "must be a finite time >= 0 (s) spent inside the engine's own calls",
            )
        }),
    }
}

fn bad(field: &str, value: &Value, why: &str) -> EngineError {
    EngineError::failed(format!("{field} = {}: {why}", shorten(&value.to_string())))
}

/// At most 200 characters of `s`, for error lines.
fn shorten(s: &str) -> String {
    if s.chars().count() <= 200 {
        s.to_string()
    } else {
        format!("{}...", s.chars().take(200).collect::<String>())
    }
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => shorten(s),
        other => shorten(&other.to_string()),
    }
}

fn number(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite())
}

fn array<'a>(obj: &'a Map<String, Value>, key: &str) -> Result<&'a Vec<Value>, EngineError> {
    match obj.get(key) {
        Some(Value::Array(a)) => Ok(a),
        Some(v) => Err(bad(key, v, "must be an array")),
        None => Err(EngineError::failed(format!("{key}: missing"))),
    }
}

/// One event: `{time, kind, agents}` with agents by id.
fn event(e: &Value, setup: &Setup) -> Result<Event, String> {
    let field = |k: &str| e.get(k).ok_or_else(|| format!("{k}: missing"));
    let t = field("time")?;
    let time = number(t)
        .filter(|t| *t >= 0.0)
        .ok_or_else(|| format!("time = {t}: must be a finite time >= 0 (s)"))?;
    let k = field("kind")?;
    let kind: EventKind = serde_json::from_value(k.clone()).map_err(|_| {
        format!(
            "kind = {k}: unknown event kind; valid: {}",
            EventKind::ALL.map(|k| k.name()).join(", ")
        )
    })?;
    let a = field("agents")?;
    let ids: Vec<&str> = a
        .as_array()
        .and_then(|v| v.iter().map(Value::as_str).collect())
        .ok_or_else(|| format!("agents = {a}: must be an array of ids"))?;
    let wrong = |why: String| format!("agents = {a}: {why}");
    let ball = |id: &str| {
        setup
            .balls
            .iter()
            .position(|b| b.id == id)
            .ok_or_else(|| wrong(format!("no ball {id:?}")))
    };
    let agents = match (kind, ids.as_slice()) {
        (EventKind::BallBall, [x, y]) => {
            let (i, j) = (ball(x)?, ball(y)?);
            if i == j {
                return Err(wrong("a ball cannot collide with itself".into()));
            }
            Agents::pair(i, j)
        }
        (EventKind::BallLinearCushion, [b, c]) => Agents::BallCushion {
            ball: ball(b)?,
            cushion: setup
                .table
                .cushions
                .iter()
                .position(|k| k.id == *c)
                .ok_or_else(|| wrong(format!("no cushion {c:?}")))?,
        },
        (EventKind::BallCircularCushion, [b, c]) => Agents::BallCircularCushion {
            ball: ball(b)?,
            cushion: (setup.table.circular_cushions.iter())
                .position(|k| k.id == *c)
                .ok_or_else(|| wrong(format!("no circular cushion {c:?}")))?,
        },
        (EventKind::BallPocket, [b, p]) => Agents::BallPocket {
            ball: ball(b)?,
            pocket: setup
                .table
                .pockets
                .iter()
                .position(|k| k.id == *p)
                .ok_or_else(|| wrong(format!("no pocket {p:?}")))?,
        },
        (k, [b]) if !k.is_collision() => Agents::Ball { ball: ball(b)? },
        (k, _) => {
            let want = match k {
                EventKind::BallBall => "two ball ids",
                EventKind::BallLinearCushion => "a ball id and a cushion id",
                EventKind::BallCircularCushion => "a ball id and a circular cushion id",
                EventKind::BallPocket => "a ball id and a pocket id",
                _ => "one ball id",
            };
            return Err(wrong(format!("a {} event names {want}", k.name())));
        }
    };
    Ok(Event { time, kind, agents })
}

/// Every ball's final state, in set-up order.
fn final_states(list: &[Value], setup: &Setup) -> Result<Vec<BallState>, EngineError> {
    let mut out: Vec<Option<BallState>> = vec![None; setup.balls.len()];
    for (k, b) in list.iter().enumerate() {
        let at = |f: &str| format!("final_states[{k}].{f}");
        let get = |f: &str| {
            b.get(f)
                .ok_or_else(|| EngineError::failed(format!("{}: missing", at(f))))
        };
        let id = get("id")?;
        let i = id
            .as_str()
            .and_then(|id| setup.balls.iter().position(|b| b.id == id))
            .ok_or_else(|| bad(&at("id"), id, "no such ball"))?;
        if out[i].is_some() {
            return Err(bad(&at("id"), id, "given twice"));
        }
        // The ball's own radius (its center's height) and parameter set.
        let own = &setup.balls[i].state;
        let radius = setup.physics.radius(own);
        let vec3 = |f: &str, z: f64| -> Result<Vec3, EngineError> {
            let v = get(f)?;
            let xs: Option<Vec<f64>> = v.as_array().and_then(|a| a.iter().map(number).collect());
            match xs.as_deref() {
                Some([x, y]) => Ok(Vec3::new(*x, *y, z)),
                Some([x, y, z]) => Ok(Vec3::new(*x, *y, *z)),
                _ => Err(bad(&at(f), v, "must be 2 or 3 finite numbers")),
            }
        };
        let state = get("state")?;
        let motion: MotionState = serde_json::from_value(state.clone()).map_err(|_| {
            bad(
                &at("state"),
                state,
                "unknown motion state; valid: stationary, spinning, sliding, rolling, pocketed",
            )
        })?;
        out[i] = Some(BallState {
            r: vec3("r", radius)?,
            v: vec3("v", 0.0)?,
            w: vec3("w", 0.0)?,
            motion,
            set: own.set,
        });
    }
    out.into_iter()
        .zip(&setup.balls)
        .map(|(s, b)| {
            s.ok_or_else(|| {
                EngineError::failed(format!("final_states: ball {:?} is missing", b.id))
            })
        })
        .collect()
}

fn termination(v: &Value) -> Result<Termination, EngineError> {
    let all = [
        Termination::AtRest,
        Termination::TimeLimit,
        Termination::Budget,
        Termination::NumericalError,
    ];
    all.into_iter()
        .find(|t| v.as_str() == Some(t.name()))
        .ok_or_else(|| {
            bad(
                "termination",
                v,
                "valid: at_rest, time_limit, budget, numerical_error",
            )
        })
}

/// Counter names seen so far (see [`MAX_OP_NAMES`]).
static OP_NAMES: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());

fn ops(m: &Map<String, Value>) -> Result<OpCounts, EngineError> {
    let mut names = OP_NAMES.lock().unwrap_or_else(|p| p.into_inner());
    let mut counts = Vec::with_capacity(m.len());
    for (name, count) in m {
        let count = count
            .as_u64()
            .ok_or_else(|| bad(&format!("ops.{name}"), count, "must be a count >= 0"))?;
        let interned = match names.iter().find(|n| **n == name.as_str()) {
            Some(n) => *n,
            None if names.len() < MAX_OP_NAMES => {
                let n: &'static str = Box::leak(name.clone().into_boxed_str());
                names.push(n);
                n
            }
            None => {
                return Err(EngineError::failed(format!(
                    "ops.{name}: more than {MAX_OP_NAMES} distinct counter names"
                )))
            }
        };
        counts.push((interned, count));
    }
    Ok(OpCounts::new(counts))
}
