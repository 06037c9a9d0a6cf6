//! Laws as pooltool's `resolver.yaml` writes them: one entry per event type, `model` and the
//! model's parameters by pooltool's names (`version` aside). Our [`Resolver`] uses the same
//! keys, names and parameters, so the map is one to one, but for the contact spacer: pooltool
//! applies its `MIN_DIST` (1e-6 m) before every collision law, a constant of its simulation and
//! not a law parameter, where our laws take it as their `spacer`. A file read sets pooltool's on
//! every law that takes one and is not given another; a file written here gives every such law
//! its `spacer`, so that it reads back the same (pooltool ignores the key and runs at its
//! `MIN_DIST`).

use pool_physics::resolve::spacer::POOLTOOL_SPACER;
use pool_physics::resolve::{LawSpec, Param, Resolver};
use serde_json::{Map, Value};

/// pooltool 0.6.0's resolver file version.
pub const VERSION: u64 = 9;

/// The resolver as pooltool's resolver file (every event type, and `version`).
pub fn resolver_out(r: &Resolver) -> Value {
    let mut out = Map::new();
    for (key, mut spec) in r.specs() {
        let spacer = match key {
            "ball_ball" => (r.ball_ball.takes_spacer()).then(|| r.ball_ball.spacer()),
            "ball_linear_cushion" => {
                (r.ball_linear_cushion.takes_spacer()).then(|| r.ball_linear_cushion.spacer())
            }
            "ball_circular_cushion" => {
                (r.ball_circular_cushion.takes_spacer()).then(|| r.ball_circular_cushion.spacer())
            }
            _ => None,
        };
        if let (Some(x), None) = (spacer, spec.get("spacer")) {
            spec.params.push(("spacer".into(), Param::Number(x)));
        }
        out.insert(key.to_string(), spec_out(&spec));
    }
    out.insert("version".into(), VERSION.into());
    Value::Object(out)
}

fn spec_out(spec: &LawSpec) -> Value {
    let mut out = Map::new();
    for (k, v) in &spec.params {
        let v = match v {
            Param::Bool(b) => Value::Bool(*b),
            Param::Number(x) => serde_json::Number::from_f64(*x).map_or(Value::Null, Value::Number),
            Param::Text(t) => Value::String(t.clone()),
            Param::Law(l) => spec_out(l),
        };
        out.insert(k.clone(), v);
    }
    out.insert("model".into(), Value::String(spec.model.clone()));
    Value::Object(out)
}

/// `base` with the laws of `tree` (pooltool's resolver file as a tree): each event type given
/// replaces its law, with pooltool's spacer ([`POOLTOOL_SPACER`]) unless the entry names a
/// `spacer`; `version` is ignored, any other key is an error.
///
/// # Errors
/// (field path under the resolver, value, why): an unknown event type, a law that is not a
/// table with `model`, an unknown model or parameter.
pub fn resolver_in(base: &Resolver, tree: &Value) -> Result<Resolver, (String, String, String)> {
    let Value::Object(map) = tree else {
        return Err((
            String::new(),
            short(tree),
            "must be a table of laws by event type".into(),
        ));
    };
    let mut r = base.clone();
    for (key, v) in map {
        if key == "version" {
            continue;
        }
        if !Resolver::EVENT_TYPES.contains(&key.as_str()) {
            return Err((
                key.clone(),
                short(v),
                format!(
                    "unknown event type; valid: {}",
                    Resolver::EVENT_TYPES.join(", ")
                ),
            ));
        }
        let spec = match spec_in(v) {
            Ok(Param::Law(spec)) => spec,
            Ok(Param::Text(name)) => LawSpec::named(&name),
            Ok(other) => {
                return Err((
                    key.clone(),
                    other.to_string(),
                    "must be a table with `model` and the model's parameters".into(),
                ))
            }
            Err((path, value, why)) => return Err((join(key, &path), value, why)),
        };
        r.set(key, &spec)
            .map_err(|e| (join(key, &e.param), e.value, e.why))?;
        if spec.get("spacer").is_none() {
            match key.as_str() {
                "ball_ball" => r.ball_ball = r.ball_ball.with_spacer(POOLTOOL_SPACER),
                "ball_linear_cushion" => {
                    r.ball_linear_cushion = r.ball_linear_cushion.with_spacer(POOLTOOL_SPACER)
                }
                "ball_circular_cushion" => {
                    r.ball_circular_cushion = r.ball_circular_cushion.with_spacer(POOLTOOL_SPACER)
                }
                _ => {}
            }
        }
    }
    Ok(r)
}

/// A parameter value: bool, number, name, or a nested model (an object with `model`).
fn spec_in(v: &Value) -> Result<Param, (String, String, String)> {
    Ok(match v {
        Value::Bool(b) => Param::Bool(*b),
        Value::Number(n) => Param::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => Param::Text(s.clone()),
        Value::Object(o) => {
            let model = match o.get("model") {
                Some(Value::String(m)) => m.clone(),
                Some(other) => {
                    return Err(("model".into(), short(other), "must be a model name".into()))
                }
                None => {
                    return Err((
                        "model".into(),
                        "(missing)".into(),
                        "required field is missing".into(),
                    ))
                }
            };
            let mut spec = LawSpec::named(&model);
            for (k, x) in o.iter().filter(|(k, _)| k.as_str() != "model") {
                let p = spec_in(x).map_err(|(path, value, why)| (join(k, &path), value, why))?;
                spec.params.push((k.clone(), p));
            }
            Param::Law(spec)
        }
        Value::Null | Value::Array(_) => {
            return Err((
                String::new(),
                short(v),
                "must be a number, true/false, a name or a table".into(),
            ))
        }
    })
}

fn join(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (_, true) => a.to_string(),
        (true, false) => b.to_string(),
        _ => format!("{a}.{b}"),
    }
}

/// A value as one short line for messages.
pub(crate) fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(60).collect::<String>())
    } else {
        s
    }
}
