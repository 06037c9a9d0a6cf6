//! Reading a pooltool file (`System.save` writes JSON or msgpack) into one JSON tree.
//!
//! pooltool's msgpack files store numpy arrays as msgpack-numpy maps (`nd`, `type`, `shape`,
//! `data`: the raw little-endian buffer); they are read here into nested lists of numbers, so
//! that both formats give the same tree as pooltool's JSON.

use std::io::Read;
use std::path::Path;

use serde_json::{Map, Number, Value};

use crate::PooltoolError;

/// The largest pooltool file read (bytes): a simulated system's history takes about 1 kB per
/// ball per event, so this holds a few thousand events of a full rack with room to spare.
pub const MAX_FILE_BYTES: u64 = 256 * 1024 * 1024;

/// The file's tree: msgpack for a `.msgpack` file, JSON for a `.json` file, else msgpack
/// unless its first non-blank byte is `{`.
///
/// # Errors
/// The file cannot be read, is larger than [`MAX_FILE_BYTES`], is not valid JSON/msgpack, has
/// bytes after its document, or holds a non-finite msgpack number (named by its field path).
pub fn read_tree(path: &Path) -> Result<Value, PooltoolError> {
    read(path, At::Full)
}

/// The parts of the file's tree that [`crate::import`] reads: everything but the history of a
/// simulated system, of which it keeps the first entry (`events`, each ball's
/// `history.states`, the msgpack `history` arrays, `history_cts`). The file is read once, as
/// a stream: time linear in the file and memory about the kept tree's (JSON) or the file's
/// size (msgpack), never a tree of its whole history.
///
/// # Errors
/// As [`read_tree`].
pub fn read_import_tree(path: &Path) -> Result<Value, PooltoolError> {
    read(path, At::Root)
}

fn read(path: &Path, at: At) -> Result<Value, PooltoolError> {
    let err = |field: &str, value: String, why: String| PooltoolError::new(path, field, value, why);
    let file = std::fs::File::open(path)
        .map_err(|e| err("file", path.display().to_string(), e.to_string()))?;
    let size = file
        .metadata()
        .map_err(|e| err("file", path.display().to_string(), e.to_string()))?
        .len();
    let too_large = || {
        err(
            "file",
            format!("more than {MAX_FILE_BYTES} bytes"),
            "file is larger than the 256 MiB limit".into(),
        )
    };
    if size > MAX_FILE_BYTES {
        return Err(too_large());
    }
    // A file that grows while it is read stops at the limit (and then does not parse).
    let mut reader = std::io::BufReader::new(file.take(MAX_FILE_BYTES + 1));
    let format = match path.extension().and_then(|e| e.to_str()) {
        Some("json") => Format::Json,
        Some("msgpack") => Format::Msgpack,
        _ => {
            let head = std::io::BufRead::fill_buf(&mut reader)
                .map_err(|e| err("file", path.display().to_string(), e.to_string()))?;
            if head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{') {
                Format::Json
            } else {
                Format::Msgpack
            }
        }
    };
    match format {
        Format::Json => {
            let mut de = serde_json::Deserializer::from_reader(reader);
            let json_err = |e: serde_json::Error| {
                err(
                    "file",
                    format!("line {}, column {}", e.line(), e.column()),
                    format!("not a JSON file: {e}"),
                )
            };
            let value =
                serde::de::DeserializeSeed::deserialize(Seed(at), &mut de).map_err(json_err)?;
            // Nothing but blanks after the document.
            de.end().map_err(json_err)?;
            Ok(value)
        }
        Format::Msgpack => {
            let mut bytes = Vec::new();
            reader
                .read_to_end(&mut bytes)
                .map_err(|e| err("file", path.display().to_string(), e.to_string()))?;
            if bytes.len() as u64 > MAX_FILE_BYTES {
                return Err(too_large());
            }
            let mut rest = bytes.as_slice();
            let value = rmpv::decode::read_value(&mut rest).map_err(|e| {
                err(
                    "file",
                    "(msgpack)".into(),
                    format!("not a msgpack file: {e}"),
                )
            })?;
            if !rest.is_empty() {
                return Err(err(
                    "file",
                    format!("{} bytes after the document", rest.len()),
                    format!(
                        "not a msgpack file: a document of {} bytes, then more",
                        bytes.len() - rest.len()
                    ),
                ));
            }
            drop(bytes);
            from_msgpack(&value, "", at).map_err(|(field, why)| {
                err(
                    if field.is_empty() { "file" } else { &field },
                    "(msgpack)".into(),
                    why,
                )
            })
        }
    }
}

enum Format {
    Json,
    Msgpack,
}

/// Where a value is in a pooltool file's tree, for what [`read_import_tree`] keeps of it.
#[derive(Clone, Copy, PartialEq)]
enum At {
    /// All of it.
    Full,
    /// The system: its `balls`, `events`, and the rest whole.
    Root,
    /// The `balls` map.
    Balls,
    /// One ball: its `history` and `history_cts`, and the rest whole.
    Ball,
    /// A ball's `history`: `states` (JSON) or its three arrays (msgpack).
    History,
    /// A list of which the first entry is kept whole, the rest skipped.
    KeepFirst,
}

impl At {
    /// Where the entry `key` of a map here is.
    fn key(self, key: &str) -> At {
        match (self, key) {
            (At::Root, "balls") => At::Balls,
            (At::Root, "events") | (At::Ball, "history_cts") | (At::History, "states") => {
                At::KeepFirst
            }
            (At::Balls, _) => At::Ball,
            (At::Ball, "history") => At::History,
            _ => At::Full,
        }
    }

    /// Where an entry of a list here is.
    fn item(self) -> At {
        match self {
            At::History => At::KeepFirst,
            _ => At::Full,
        }
    }
}

/// A JSON value read as [`At`] says: whole, or with the long lists of a simulated system cut to
/// their first entry while they stream by.
struct Seed(At);

impl<'de> serde::de::DeserializeSeed<'de> for Seed {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        match self.0 {
            At::Full => serde::Deserialize::deserialize(d),
            _ => d.deserialize_any(self),
        }
    }
}

impl<'de> serde::de::Visitor<'de> for Seed {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("non-finite number {v}")))
    }

    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        if self.0 == At::KeepFirst {
            if let Some(first) = seq.next_element_seed(Seed(At::Full))? {
                out.push(first);
            }
            while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        } else {
            while let Some(v) = seq.next_element_seed(Seed(self.0.item()))? {
                out.push(v);
            }
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let v = map.next_value_seed(Seed(self.0.key(&key)))?;
            out.insert(key, v);
        }
        Ok(Value::Object(out))
    }
}

/// A msgpack value at field path `at` as JSON: maps with string (or UTF-8 binary) keys,
/// arrays, numbers, strings, booleans, nil; msgpack-numpy arrays of little-endian doubles or
/// integers as nested lists; kept as [`At`] says. An error is (field path, why).
fn from_msgpack(v: &rmpv::Value, at: &str, keep: At) -> Result<Value, (String, String)> {
    use rmpv::Value as M;
    let here = |why: String| (at.to_string(), why);
    Ok(match v {
        M::Nil => Value::Null,
        M::Boolean(b) => Value::Bool(*b),
        M::Integer(i) => match (i.as_i64(), i.as_u64()) {
            (Some(x), _) => Value::Number(x.into()),
            (None, Some(x)) => Value::Number(x.into()),
            _ => return Err(here(format!("integer {i} out of range"))),
        },
        M::F32(x) => number(f64::from(*x)).map_err(here)?,
        M::F64(x) => number(*x).map_err(here)?,
        M::String(s) => Value::String(
            s.as_str()
                .ok_or_else(|| here("a string that is not UTF-8".into()))?
                .to_string(),
        ),
        M::Binary(b) => Value::String(
            String::from_utf8(b.clone())
                .map_err(|_| here("binary data outside a numpy array".into()))?,
        ),
        M::Array(a) => {
            let keep_first = keep == At::KeepFirst;
            let items = a.iter().take(if keep_first { 1 } else { a.len() });
            Value::Array(
                items
                    .enumerate()
                    .map(|(k, x)| {
                        let next = if keep_first { At::Full } else { keep.item() };
                        from_msgpack(x, &format!("{at}[{k}]"), next)
                    })
                    .collect::<Result<_, _>>()?,
            )
        }
        M::Map(entries) => {
            if get(entries, "nd").is_some() && get(entries, "data").is_some() {
                return numpy(entries, keep == At::KeepFirst).map_err(|(k, why)| {
                    (
                        k.map_or_else(|| at.to_string(), |k| format!("{at}{k}")),
                        why,
                    )
                });
            }
            let mut out = Map::new();
            for (k, x) in entries {
                let key = match k {
                    M::String(s) => s
                        .as_str()
                        .ok_or_else(|| here("a key that is not UTF-8".into()))?
                        .to_string(),
                    M::Binary(b) => {
                        String::from_utf8(b.clone()).map_err(|_| here("a binary key".into()))?
                    }
                    M::Integer(i) => i.to_string(),
                    other => return Err(here(format!("a map key {other}"))),
                };
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                let v = from_msgpack(x, &path, keep.key(&key))?;
                out.insert(key, v);
            }
            Value::Object(out)
        }
        M::Ext(kind, _) => return Err(here(format!("msgpack extension type {kind}"))),
    })
}

/// The value of a msgpack map's entry `name` (a string or binary key).
fn get<'a>(entries: &'a [(rmpv::Value, rmpv::Value)], name: &str) -> Option<&'a rmpv::Value> {
    entries
        .iter()
        .find(|(k, _)| match k {
            rmpv::Value::String(s) => s.as_str() == Some(name),
            rmpv::Value::Binary(b) => b.as_slice() == name.as_bytes(),
            _ => false,
        })
        .map(|(_, v)| v)
}

fn number(x: f64) -> Result<Value, String> {
    Number::from_f64(x)
        .map(Value::Number)
        .ok_or_else(|| format!("non-finite number {x}"))
}

/// A msgpack-numpy array (`nd`, `type`, `shape`, `data`) as nested lists. Supports the dtypes
/// pooltool writes: little-endian f8 and integers of 1, 2, 4 and 8 bytes.
///
/// With `first_only`, only the first row (the first entry of the outer dimension). An error
/// is (the element's index, as `[i][j]`, when it is one element's; why).
fn numpy(
    entries: &[(rmpv::Value, rmpv::Value)],
    first_only: bool,
) -> Result<Value, (Option<String>, String)> {
    numpy_all(entries, first_only).map_err(|e| match e {
        NumpyError::Array(why) => (None, why),
        NumpyError::Element(index, why) => (Some(index), why),
    })
}

enum NumpyError {
    Array(String),
    Element(String, String),
}

impl From<String> for NumpyError {
    fn from(why: String) -> Self {
        NumpyError::Array(why)
    }
}

impl From<&str> for NumpyError {
    fn from(why: &str) -> Self {
        NumpyError::Array(why.into())
    }
}

fn numpy_all(
    entries: &[(rmpv::Value, rmpv::Value)],
    first_only: bool,
) -> Result<Value, NumpyError> {
    let get = |name: &str| get(entries, name);
    let dtype = match get("type") {
        Some(rmpv::Value::String(s)) => s.as_str().unwrap_or("").to_string(),
        Some(rmpv::Value::Binary(b)) => String::from_utf8_lossy(b).into_owned(),
        _ => return Err("a numpy array without a type".into()),
    };
    let Some(rmpv::Value::Binary(data)) = get("data") else {
        return Err("a numpy array without data".into());
    };
    let shape: Vec<usize> = match get("shape") {
        Some(rmpv::Value::Array(a)) => a
            .iter()
            .map(|d| d.as_u64().map(|d| d as usize).ok_or("a bad numpy shape"))
            .collect::<Result<_, _>>()?,
        _ => Vec::new(), // a numpy scalar
    };
    let width = match dtype.as_str() {
        "<f8" | "<i8" | "<u8" => 8,
        "<i4" | "<u4" => 4,
        "<i2" | "<u2" => 2,
        "|i1" | "|u1" | "|b1" => 1,
        other => {
            return Err(format!("numpy dtype {other:?} (pooltool writes <f8 and integers)").into())
        }
    };
    let n = shape
        .iter()
        .try_fold(1usize, |n, &d| n.checked_mul(d))
        .map(|n| n.max(1));
    let Some(n) = n.filter(|n| n.checked_mul(width) == Some(data.len())) else {
        return Err(format!(
            "numpy data of {} bytes for shape {shape:?} of {dtype}",
            data.len()
        )
        .into());
    };
    // The element's place in the array, as `[i][j]`.
    let index = |mut k: usize| -> String {
        let mut parts = vec![0; shape.len()];
        for (d, &size) in shape.iter().enumerate().rev() {
            parts[d] = k % size.max(1);
            k /= size.max(1);
        }
        parts.iter().map(|i| format!("[{i}]")).collect()
    };
    let item = |k: usize| -> Result<Value, NumpyError> {
        let b = &data[k * width..(k + 1) * width];
        let mut w = [0u8; 8];
        w[..width].copy_from_slice(b);
        Ok(match dtype.as_str() {
            "<f8" => {
                number(f64::from_le_bytes(w)).map_err(|why| NumpyError::Element(index(k), why))?
            }
            "<u8" | "<u4" | "<u2" | "|u1" => Value::Number(u64::from_le_bytes(w).into()),
            "|b1" => Value::Bool(w[0] != 0),
            _ => {
                // Sign-extend the integer of `width` bytes.
                let shift = 64 - 8 * width as u32;
                Value::Number(((i64::from_le_bytes(w) << shift) >> shift).into())
            }
        })
    };
    if shape.is_empty() {
        return item(0);
    }
    if first_only {
        // The first row only: the outer dimension cut to one.
        let rows = shape[0];
        let row = n.checked_div(rows).unwrap_or(0);
        let flat: Vec<Value> = (0..row).map(item).collect::<Result<_, _>>()?;
        let mut one = shape.clone();
        one[0] = one[0].min(1);
        return Ok(nest(&flat, &one));
    }
    let flat: Vec<Value> = (0..n).map(item).collect::<Result<_, _>>()?;
    Ok(nest(&flat, &shape))
}

/// Row-major nested lists of `flat` with dimensions `shape`.
fn nest(flat: &[Value], shape: &[usize]) -> Value {
    match shape {
        [] | [_] => Value::Array(flat.to_vec()),
        [n, rest @ ..] => {
            let size = flat.len() / (*n).max(1);
            Value::Array(
                flat.chunks(size.max(1))
                    .take(*n)
                    .map(|c| nest(c, rest))
                    .collect(),
            )
        }
    }
}
