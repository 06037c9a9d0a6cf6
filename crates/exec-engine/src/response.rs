//! The protocol's answer, checked and turned into an [`Outcome`] (docs/engine-protocol.md,
//! "Answer"). Every way an answer can be wrong is one line naming the field and the value.

use std::sync::Mutex;

use pool_physics::{BallState, EventKind, MotionState, Physics, Vec3};
use pool_sim::{Agents, EngineError, Event, OpCounts, Outcome, Setup, Termination};
use serde_json::{Map, Value};

/// Distinct operation-counter names all programs of a process may report (each is kept for
/// the process's life, as counter names are `&'static str`).
const MAX_OP_NAMES: usize = 256;

/// Longest operation-counter name a program may report (bytes): names are kept for the
/// process's life, so their memory stays bounded whatever a program says.
pub const MAX_OP_NAME_BYTES: usize = 64;

/// The outcome an answer line describes, for `setup` (the request's set-up).
///
/// # Errors
/// A line that is not UTF-8 or not JSON, and every error of [`parse_value`].
pub fn parse_answer(line: &str, setup: &Setup) -> Result<Outcome, EngineError> {
    let answer = answer_value(line.as_bytes()).map_err(EngineError::failed)?;
    parse_value(answer, setup)
}

/// An answer line read back: every top-level field but `events` as JSON values, and what
/// `events` is. The events are read only by [`parse_value`], one at a time straight into the
/// outcome's log, so that an answer of a million events holds its log, not a tree of JSON
/// values for it (a gigabyte for 64 MiB of text).
pub(crate) struct Answer<'a> {
    /// The line (UTF-8, without its line end).
    text: &'a str,
    /// Every top-level field but `events`; `Err` for an answer that is not an object (shown).
    head: Result<Map<String, Value>, String>,
    /// What `events` holds.
    events: Shape,
}

/// What a field that should be an array holds.
enum Shape {
    Missing,
    Array,
    /// Something else, as an error line shows it.
    Other(String),
}

impl Answer<'_> {
    /// The top-level field `key` (`id`, `error`, ...), `None` for an answer that is not an
    /// object.
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        self.head.as_ref().ok()?.get(key)
    }
}

/// An answer line as JSON: one line naming why not (not UTF-8, not JSON), the line's start
/// escaped.
pub(crate) fn answer_value(line: &[u8]) -> Result<Answer<'_>, String> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let text = std::str::from_utf8(line).map_err(|e| {
        format!(
            "answer is not UTF-8 (byte {} is not): {}",
            e.valid_up_to(),
            shorten_bytes(line)
        )
    })?;
    let not_json =
        |e: serde_json::Error| format!("answer is not JSON ({e}): {}", shorten(text.trim_end()));
    let mut de = serde_json::Deserializer::from_str(text);
    let top =
        serde::Deserializer::deserialize_any(&mut de, stream::TopVisitor).map_err(not_json)?;
    de.end().map_err(not_json)?;
    Ok(match top {
        stream::Top::Object(head, events) => Answer {
            text,
            head: Ok(head),
            events,
        },
        stream::Top::Other(shown) => Answer {
            text,
            head: Err(shown),
            events: Shape::Missing,
        },
    })
}

/// The outcome an answer describes, for `setup`, checked for consistency with the request and
/// with itself ([`check_consistency`]). The answer's `id` is the session's business
/// (`process.rs`) and is not read here.
///
/// # Errors
/// A field missing or of the wrong type, an unknown event kind, id or motion
/// state, agents that do not fit the kind, times that are not finite or run backwards, a ball
/// missing from or repeated in `final_states`, an `engine_s` that is not a time >= 0, an
/// inconsistency; or the program's own `error`
/// (a failure) or `unsupported` (a shot outside its model).
pub(crate) fn parse_value(answer: Answer<'_>, setup: &Setup) -> Result<Outcome, EngineError> {
    let obj = match &answer.head {
        Ok(obj) => obj,
        Err(shown) => {
            return Err(EngineError::failed(format!(
                "answer = {shown}: must be a JSON object"
            )))
        }
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
    let had_strike = strike.is_some();
    let mut events: Vec<Event> = strike.into_iter().collect();
    match &answer.events {
        Shape::Missing => return Err(EngineError::failed("events: missing".to_string())),
        Shape::Other(shown) => {
            return Err(EngineError::failed(format!(
                "events = {shown}: must be an array"
            )))
        }
        Shape::Array => {
            stream::events(answer.text, setup, &mut events).map_err(EngineError::failed)?
        }
    }
    let final_states = final_states(array(obj, "final_states")?, setup)?;
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
    let outcome = Outcome {
        events,
        final_states,
        end_time,
        termination,
        ops,
        snapshots: Vec::new(),
        engine_s,
    };
    check_consistency(&outcome, setup, usize::from(had_strike))?;
    Ok(outcome)
}

/// The two passes of [`answer_value`] and [`parse_value`] over an answer line, with serde's
/// visitors: the first keeps every field but `events` (skipped), the second reads only
/// `events`, each event a small JSON value turned into an [`Event`] at once.
mod stream {
    use std::fmt;

    use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
    use serde_json::{Map, Value};

    use super::{event, shown, Shape};
    use pool_sim::{Event, Setup};

    /// An answer's top level: an object's fields but `events`, and what `events` is; or what
    /// else it is, shown.
    pub(super) enum Top {
        Object(Map<String, Value>, Shape),
        Other(String),
    }

    /// Pass one.
    pub(super) struct TopVisitor;

    /// A value that is not an object, as an error line shows it.
    fn other<E>(v: Value) -> Result<Top, E> {
        Ok(Top::Other(shown(&v)))
    }

    impl<'de> Visitor<'de> for TopVisitor {
        type Value = Top;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an answer")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
            let mut head = Map::new();
            let mut events = Shape::Missing;
            while let Some(key) = map.next_key::<String>()? {
                if key == "events" {
                    if !matches!(events, Shape::Missing) {
                        return Err(A::Error::custom("events: given twice"));
                    }
                    events = map.next_value::<ShapeOf>()?.0;
                } else {
                    let v = map.next_value::<Value>()?;
                    head.insert(key, v);
                }
            }
            Ok(Top::Object(head, events))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Top, A::Error> {
            while seq.next_element::<IgnoredAny>()?.is_some() {}
            Ok(Top::Other("[...]".into()))
        }
        fn visit_bool<E>(self, v: bool) -> Result<Top, E> {
            other(v.into())
        }
        fn visit_i64<E>(self, v: i64) -> Result<Top, E> {
            other(v.into())
        }
        fn visit_u64<E>(self, v: u64) -> Result<Top, E> {
            other(v.into())
        }
        fn visit_f64<E>(self, v: f64) -> Result<Top, E> {
            other(v.into())
        }
        fn visit_str<E>(self, v: &str) -> Result<Top, E> {
            other(v.into())
        }
        fn visit_unit<E>(self) -> Result<Top, E> {
            other(Value::Null)
        }
    }

    /// What `events` holds, read without keeping it.
    struct ShapeOf(Shape);

    impl<'de> serde::Deserialize<'de> for ShapeOf {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = ShapeOf;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("the events")
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ShapeOf, A::Error> {
                    while seq.next_element::<IgnoredAny>()?.is_some() {}
                    Ok(ShapeOf(Shape::Array))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ShapeOf, A::Error> {
                    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                    Ok(ShapeOf(Shape::Other("{...}".into())))
                }
                fn visit_bool<E>(self, v: bool) -> Result<ShapeOf, E> {
                    Ok(ShapeOf(Shape::Other(shown(&v.into()))))
                }
                fn visit_i64<E>(self, v: i64) -> Result<ShapeOf, E> {
                    Ok(ShapeOf(Shape::Other(shown(&v.into()))))
                }
                fn visit_u64<E>(self, v: u64) -> Result<ShapeOf, E> {
                    Ok(ShapeOf(Shape::Other(shown(&v.into()))))
                }
                fn visit_f64<E>(self, v: f64) -> Result<ShapeOf, E> {
                    Ok(ShapeOf(Shape::Other(shown(&v.into()))))
                }
                fn visit_str<E>(self, v: &str) -> Result<ShapeOf, E> {
                    Ok(ShapeOf(Shape::Other(shown(&v.into()))))
                }
                fn visit_unit<E>(self) -> Result<ShapeOf, E> {
                    Ok(ShapeOf(Shape::Other("null".into())))
                }
            }
            d.deserialize_any(V)
        }
    }

    /// Pass two: the events of `text` (a JSON object already read once, with one `events`
    /// array) appended to `out`, each checked ([`event`]) and in time order.
    ///
    /// # Errors
    /// The first event that does not read, as `events[k]: ...`.
    pub(super) fn events(text: &str, setup: &Setup, out: &mut Vec<Event>) -> Result<(), String> {
        let mut why: Option<String> = None;
        let mut de = serde_json::Deserializer::from_str(text);
        let read = serde::Deserializer::deserialize_map(
            &mut de,
            Fields {
                setup,
                out,
                why: &mut why,
            },
        );
        match (read, why) {
            (_, Some(why)) => Err(why),
            (Err(e), None) => Err(format!("events: {e}")),
            (Ok(()), None) => Ok(()),
        }
    }

    /// The top level of pass two: every field skipped but `events`.
    struct Fields<'a> {
        setup: &'a Setup,
        out: &'a mut Vec<Event>,
        why: &'a mut Option<String>,
    }

    impl<'de> Visitor<'de> for Fields<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an answer object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
            let Fields { setup, out, why } = self;
            while let Some(key) = map.next_key::<String>()? {
                if key == "events" {
                    map.next_value_seed(List {
                        setup,
                        out: &mut *out,
                        why: &mut *why,
                    })?;
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(())
        }
    }

    /// The `events` array of pass two.
    struct List<'a> {
        setup: &'a Setup,
        out: &'a mut Vec<Event>,
        why: &'a mut Option<String>,
    }

    impl<'de> DeserializeSeed<'de> for List<'_> {
        type Value = ();
        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de> Visitor<'de> for List<'_> {
        type Value = ();
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an array of events")
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
            let mut k = 0usize;
            while let Some(v) = seq.next_element::<Value>()? {
                let fail = |why: &mut Option<String>, m: String| {
                    *why = Some(m);
                    A::Error::custom("stopped")
                };
                let e = match event(&v, self.setup) {
                    Ok(e) => e,
                    Err(m) => return Err(fail(self.why, format!("events[{k}]: {m}"))),
                };
                if let Some(last) = self.out.last() {
                    if e.time < last.time {
                        let m = format!(
                            "events[{k}].time = {}: earlier than the event before it ({})",
                            e.time, last.time
                        );
                        return Err(fail(self.why, m));
                    }
                }
                self.out.push(e);
                k += 1;
            }
            Ok(())
        }
    }
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
    EngineError::failed(format!("{field} = {}: {why}", shown(value)))
}

/// A value of the answer as an error line shows it: its JSON, at most 200 characters
/// ([`shorten`]), however long the value.
pub(crate) fn shown(value: &Value) -> String {
    match value {
        // Only the start of a long string is written out.
        Value::String(s) if s.len() > 400 => {
            let mut end = 400;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            shorten(&format!("{:?}", &s[..end]))
        }
        Value::Array(a) if a.len() > 8 || value_is_long(value) => {
            let items: Vec<String> = a.iter().take(8).map(shown).collect();
            shorten(&format!(
                "[{}{}]",
                items.join(","),
                if a.len() > 8 { ",..." } else { "" }
            ))
        }
        Value::Object(_) if value_is_long(value) => "{...}".to_string(),
        other => shorten(&other.to_string()),
    }
}

/// Whether a value holds a string longer than 400 bytes or more than 64 items anywhere
/// (its JSON is then not written out whole).
fn value_is_long(value: &Value) -> bool {
    match value {
        Value::String(s) => s.len() > 400,
        Value::Array(a) => a.len() > 64 || a.iter().any(value_is_long),
        Value::Object(m) => {
            m.len() > 64 || m.iter().any(|(k, v)| k.len() > 400 || value_is_long(v))
        }
        _ => false,
    }
}

/// An id as an error line shows it: quoted, escaped, at most 200 characters.
fn quoted(id: &str) -> String {
    let mut end = id.len().min(400);
    while !id.is_char_boundary(end) {
        end -= 1;
    }
    shorten(&format!("{:?}", &id[..end]))
}

/// At most 200 characters of `s`, for error lines, escaped ([`escape_bytes`]).
fn shorten(s: &str) -> String {
    if s.chars().count() <= 200 {
        escape_bytes(s.as_bytes())
    } else {
        format!(
            "{}...",
            escape_bytes(s.chars().take(200).collect::<String>().as_bytes())
        )
    }
}

/// At most 200 bytes of `b`, escaped.
fn shorten_bytes(b: &[u8]) -> String {
    let more = if b.len() > 200 { "..." } else { "" };
    format!("{}{more}", escape_bytes(&b[..b.len().min(200)]))
}

/// Text a program wrote, safe to print on a terminal and in one line: control characters
/// (C0, DEL, C1: ESC, BEL, NUL, newlines), the invisible and direction-changing format
/// characters (U+200B..U+200F, U+202A..U+202E, U+2066..U+2069, U+FEFF) and bytes that are not
/// UTF-8 become `\u{..}` or `\xNN` escapes; a backslash stays as it is.
pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            let hidden = matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}' | '\u{FEFF}');
            if c.is_control() || hidden {
                out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
            } else {
                out.push(c);
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Largest speed (m/s) of a ball that an answer calls at rest (`stationary` or `spinning`, or
/// any unpocketed ball with termination `at_rest`): fixed-step engines stop a ball below their
/// own threshold (0.01 m/s for Box2D's sleep tolerance, which the peer adapters use), so only a
/// ball clearly moving is refused.
pub const REST_SPEED: f64 = 0.1;

/// How far (s) past the set-up's `t_end` an event or the answer's `end_time` may be: rounding
/// of a program's clock, not a step.
pub const T_END_SLACK: f64 = 1e-9;

/// An answer's consistency: events (after the first `skip`, the harness's own) inside
/// [0, `t_end`], and final states that agree with the events and the termination: a ball at
/// rest does not move, a pocketed ball is in a pocket or off the table (not on the cloth), a
/// ball with a `ball_pocket` event ends pocketed, in that event's pocket when its center is in
/// a pocket. One line naming the field.
fn check_consistency(o: &Outcome, setup: &Setup, skip: usize) -> Result<(), EngineError> {
    let fail = |m: String| Err(EngineError::failed(m));
    if let Some(t_end) = setup.t_end {
        if let Some((k, e)) =
            (o.events.iter().enumerate().skip(skip)).find(|(_, e)| e.time > t_end + T_END_SLACK)
        {
            return fail(format!(
                "events[{}].time = {}: after the shot's t_end = {t_end} s",
                k - skip,
                e.time
            ));
        }
        if o.end_time > t_end + T_END_SLACK {
            return fail(format!(
                "end_time = {}: after the shot's t_end = {t_end} s",
                o.end_time
            ));
        }
    }
    let table = setup.table.table();
    let (initial, _) = setup.initial_states();
    let planar = |v: Vec3| v.x.hypot(v.y);
    // The pocket whose circle holds point `r`, if any.
    let pocket_at = |r: Vec3| {
        (table.pockets.iter())
            .position(|p| (r.x - p.center[0]).hypot(r.y - p.center[1]) <= p.radius)
    };
    for (i, (s, b)) in o.final_states.iter().zip(&setup.balls).enumerate() {
        let at = |f: &str| format!("final_states[{:?}].{f}", b.id);
        let speed = planar(s.v);
        let at_rest = matches!(s.motion, MotionState::Stationary | MotionState::Spinning);
        if at_rest && speed > REST_SPEED {
            return fail(format!(
                "{} = {}: moving at {speed} m/s (more than {REST_SPEED} m/s) in a ball at rest",
                at("state"),
                s.motion.name()
            ));
        }
        if s.motion != MotionState::Pocketed
            && o.termination == Termination::AtRest
            && speed > REST_SPEED
        {
            return fail(format!(
                "{} = {speed} m/s: a moving ball with termination = at_rest",
                at("v")
            ));
        }
        let pocket_event =
            (o.events.iter().enumerate().skip(skip)).find_map(|(k, e)| match e.agents {
                Agents::BallPocket { ball, pocket } if ball == i => Some((k - skip, pocket)),
                _ => None,
            });
        let was_pocketed = initial[i].motion == MotionState::Pocketed;
        if s.motion == MotionState::Pocketed && !was_pocketed {
            let on_cloth =
                s.r.x > 0.0 && s.r.x < table.length && s.r.y > 0.0 && s.r.y < table.width;
            if on_cloth && pocket_at(s.r).is_none() {
                return fail(format!(
                    "{} = pocketed: at r = ({}, {}) m, on the cloth and in no pocket",
                    at("state"),
                    s.r.x,
                    s.r.y
                ));
            }
        }
        if let Some((k, pocket)) = pocket_event {
            let id = &table.pockets[pocket].id;
            if s.motion != MotionState::Pocketed {
                return fail(format!(
                    "{} = {}: events[{k}] pockets the ball in {id:?}",
                    at("state"),
                    s.motion.name()
                ));
            }
            if let Some(q) = pocket_at(s.r).filter(|q| *q != pocket) {
                return fail(format!(
                    "{} = ({}, {}): in pocket {:?}, but events[{k}] pockets the ball in {id:?}",
                    at("r"),
                    s.r.x,
                    s.r.y,
                    table.pockets[q].id
                ));
            }
        }
    }
    Ok(())
}

fn text(v: &Value) -> String {
    match v {
        Value::String(s) => {
            let mut end = s.len().min(400);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            shorten(&s[..end])
        }
        other => shown(other),
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
        .ok_or_else(|| format!("time = {}: must be a finite time >= 0 (s)", shown(t)))?;
    let k = field("kind")?;
    let kind: EventKind = serde_json::from_value(k.clone()).map_err(|_| {
        format!(
            "kind = {}: unknown event kind; valid: {}",
            shown(k),
            EventKind::ALL.map(|k| k.name()).join(", ")
        )
    })?;
    let a = field("agents")?;
    let ids: Vec<&str> = a
        .as_array()
        .and_then(|v| v.iter().map(Value::as_str).collect())
        .ok_or_else(|| format!("agents = {}: must be an array of ids", shown(a)))?;
    let wrong = |why: String| format!("agents = {}: {why}", shown(a));
    let ball = |id: &str| {
        setup
            .balls
            .iter()
            .position(|b| b.id == id)
            .ok_or_else(|| wrong(format!("no ball {}", quoted(id))))
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
                .ok_or_else(|| wrong(format!("no cushion {}", quoted(c))))?,
        },
        (EventKind::BallCircularCushion, [b, c]) => Agents::BallCircularCushion {
            ball: ball(b)?,
            cushion: (setup.table.circular_cushions.iter())
                .position(|k| k.id == *c)
                .ok_or_else(|| wrong(format!("no circular cushion {}", quoted(c))))?,
        },
        (EventKind::BallPocket, [b, p]) => Agents::BallPocket {
            ball: ball(b)?,
            pocket: setup
                .table
                .pockets
                .iter()
                .position(|k| k.id == *p)
                .ok_or_else(|| wrong(format!("no pocket {}", quoted(p))))?,
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
        if name.len() > MAX_OP_NAME_BYTES {
            return Err(EngineError::failed(format!(
                "ops.{}: a counter name longer than {MAX_OP_NAME_BYTES} bytes",
                quoted(name)
            )));
        }
        let count = count.as_u64().ok_or_else(|| {
            bad(
                &format!("ops.{}", quoted(name)),
                count,
                "must be a count >= 0",
            )
        })?;
        let interned = match names.iter().find(|n| **n == name.as_str()) {
            Some(n) => *n,
            None if names.len() < MAX_OP_NAMES => {
                let n: &'static str = Box::leak(name.clone().into_boxed_str());
                names.push(n);
                n
            }
            None => {
                return Err(EngineError::failed(format!(
                    "ops.{}: more than {MAX_OP_NAMES} distinct counter names",
                    quoted(name)
                )))
            }
        };
        counts.push((interned, count));
    }
    Ok(OpCounts::new(counts))
}
