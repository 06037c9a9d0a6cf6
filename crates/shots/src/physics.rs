//! The `model` key and the `[physics]` table: the equations of motion and the law of each
//! event type, by pooltool's keys and model names, read from a shot file and written back.

use std::fmt::Write as _;

use pool_physics::resolve::{LawError, LawSpec, Param, Resolver};
use pool_physics::{BallParams, Model, Motion};

use crate::build::Builder;
use crate::ShotError;

/// The motion and laws a shot chooses: a preset (`model = "..."`, `physics = "..."` or
/// `physics.preset`, at most one of them; default `pool`), then `[physics]` overrides key by
/// key (`motion` and the event types of [`Resolver::EVENT_TYPES`]).
pub(crate) fn choose(
    b: &Builder<'_>,
    model: Option<&str>,
    physics: Option<&toml::Value>,
) -> Result<(Motion, Resolver), ShotError> {
    let table = match physics {
        None | Some(toml::Value::String(_)) => None,
        Some(toml::Value::Table(t)) => Some(t),
        Some(other) => {
            return Err(b.err(
                "physics",
                b.shown("physics", &other.to_string()),
                format!(
                    "must be a preset name ({}) or a table of laws by event type",
                    Model::PRESETS.join(", ")
                ),
            ))
        }
    };
    let mut presets: Vec<(&str, &str)> = Vec::new();
    if let Some(m) = model {
        presets.push(("model", m));
    }
    if let Some(toml::Value::String(p)) = physics {
        presets.push(("physics", p));
    }
    if let Some(p) = table.and_then(|t| t.get("preset")) {
        match p {
            toml::Value::String(p) => presets.push(("physics.preset", p)),
            other => {
                return Err(b.err(
                    "physics.preset",
                    b.shown("physics.preset", &other.to_string()),
                    "must be a preset name",
                ))
            }
        }
    }
    if let [(first, _), (second, _), ..] = presets[..] {
        return Err(b.err(
            second,
            b.shown(second, "?"),
            format!("the preset is given twice ({first} and {second}): give it once"),
        ));
    }
    let (field, name) = presets.first().copied().unwrap_or(("model", "pool"));
    let base = Model::preset(name, BallParams::pool()).ok_or_else(|| {
        b.err(
            field,
            b.shown(field, name),
            format!("unknown model; valid models: {}", Model::PRESETS.join(", ")),
        )
    })?;
    let (mut motion, mut resolver) = (base.motion(), base.resolver().clone());
    for (key, value) in table.into_iter().flatten() {
        let path = format!("physics.{key}");
        match key.as_str() {
            "preset" => {}
            "motion" => {
                let name = value.as_str().unwrap_or("");
                motion = Motion::by_name(name).ok_or_else(|| {
                    b.err(
                        &path,
                        b.shown(&path, &value.to_string()),
                        format!("unknown motion; valid: {}", Motion::NAMES.join(", ")),
                    )
                })?;
            }
            event if Resolver::EVENT_TYPES.contains(&event) => {
                let spec = law_spec(b, &path, value)?;
                resolver
                    .set(event, &spec)
                    .map_err(|e| law_error(b, &path, e))?;
            }
            _ => {
                return Err(b.err(
                    &path,
                    b.shown(&path, &value.to_string()),
                    format!(
                        "unknown key of [physics]; valid keys: preset, motion, {}",
                        Resolver::EVENT_TYPES.join(", ")
                    ),
                ))
            }
        }
    }
    Ok((motion, resolver))
}

/// A law as written: a model name, or a table with `model` and the model's parameters.
fn law_spec(b: &Builder<'_>, path: &str, value: &toml::Value) -> Result<LawSpec, ShotError> {
    match param(b, path, value)? {
        Param::Text(name) => Ok(LawSpec::named(&name)),
        Param::Law(spec) => Ok(spec),
        other => Err(b.err(
            path,
            b.shown(path, &other.to_string()),
            "must be a model name or a table with `model` and the model's parameters",
        )),
    }
}

/// A parameter value: bool, number, name, or a nested model table.
fn param(b: &Builder<'_>, path: &str, value: &toml::Value) -> Result<Param, ShotError> {
    let bad = |why: &str| b.err(path, b.shown(path, &value.to_string()), why);
    Ok(match value {
        toml::Value::Boolean(x) => Param::Bool(*x),
        toml::Value::Integer(i) => Param::Number(*i as f64),
        toml::Value::Float(x) if x.is_finite() => Param::Number(*x),
        toml::Value::Float(_) => return Err(bad("NaN and infinite numbers are not allowed")),
        toml::Value::String(s) => Param::Text(s.clone()),
        toml::Value::Table(t) => {
            let model_path = format!("{path}.model");
            let model = match t.get("model") {
                Some(toml::Value::String(m)) => m.clone(),
                Some(other) => {
                    return Err(b.err(
                        &model_path,
                        b.shown(&model_path, &other.to_string()),
                        "must be a model name",
                    ))
                }
                None => return Err(b.err(model_path, "(missing)", "required field is missing")),
            };
            let mut spec = LawSpec::named(&model);
            for (k, v) in t.iter().filter(|(k, _)| k.as_str() != "model") {
                spec.params
                    .push((k.clone(), param(b, &format!("{path}.{k}"), v)?));
            }
            Param::Law(spec)
        }
        toml::Value::Array(_) | toml::Value::Datetime(_) => {
            return Err(bad("must be a number, true/false, a name or a table"))
        }
    })
}

/// A law's complaint, placed at `path` (the event type) or `path.<param>`.
fn law_error(b: &Builder<'_>, path: &str, e: LawError) -> ShotError {
    let field = if e.param == "model" {
        // The name is the value itself, or the `model` key of the table form.
        let key = format!("{path}.model");
        if crate::locate::lookup(b.root, &key).is_some() {
            key
        } else {
            path.to_string()
        }
    } else {
        format!("{path}.{}", e.param)
    };
    let value = b.shown(&field, &e.value);
    b.err(field, value, e.why)
}

/// How a model is named in messages: its preset, or its motion and laws.
pub(crate) fn describe(model: &Model) -> String {
    match model.preset_name() {
        Some(p) => format!("model \"{p}\""),
        None => {
            let laws: Vec<String> = model
                .resolver()
                .specs()
                .iter()
                .map(|(k, s)| format!("{k} {}", s.model))
                .collect();
            format!("motion {}, {}", model.motion().name(), laws.join(", "))
        }
    }
}

/// The shot file's lines for `model`: `model = "<preset>"` when it is one, else a `[physics]`
/// table with every key. Returns (top-level lines, table lines).
pub(crate) fn write(model: &Model) -> (String, String) {
    if let Some(p) = model.preset_name() {
        return (
            format!("model = {}\n", crate::write::toml_str(p)),
            String::new(),
        );
    }
    let mut s = String::from("\n[physics]\n");
    let _ = writeln!(
        s,
        "motion = {}",
        crate::write::toml_str(model.motion().name())
    );
    for (key, spec) in model.resolver().specs() {
        let _ = writeln!(s, "{key} = {}", spec_value(&spec));
    }
    (String::new(), s)
}

/// A spec as a TOML value: its name alone, or an inline table with its parameters.
fn spec_value(spec: &LawSpec) -> String {
    if spec.params.is_empty() {
        crate::write::toml_str(&spec.model)
    } else {
        spec_table(spec)
    }
}

/// A spec as an inline table (nested laws are always written so, to read back as laws).
fn spec_table(spec: &LawSpec) -> String {
    let name = crate::write::toml_str(&spec.model);
    let mut parts = vec![format!("model = {name}")];
    for (k, v) in &spec.params {
        let v = match v {
            Param::Bool(b) => b.to_string(),
            Param::Number(x) => crate::write::toml_f64(*x),
            Param::Text(t) => crate::write::toml_str(t),
            Param::Law(l) => spec_table(l),
        };
        parts.push(format!("{k} = {v}"));
    }
    format!("{{ {} }}", parts.join(", "))
}
