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

/// The file's tree: msgpack for a `.msgpack` file (or one that does not start with `{`), JSON
/// otherwise.
///
/// # Errors
/// The file cannot be read, is larger than [`MAX_FILE_BYTES`], or is not valid JSON/msgpack.
pub fn read_tree(path: &Path) -> Result<Value, PooltoolError> {
    let err = |field: &str, value: String, why: String| PooltoolError::new(path, field, value, why);
    let file = std::fs::File::open(path)
        .map_err(|e| err("file", path.display().to_string(), e.to_string()))?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err("file", path.display().to_string(), e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(err(
            "file",
            format!("more than {MAX_FILE_BYTES} bytes"),
            "file is larger than the 256 MiB limit".into(),
        ));
    }
    let msgpack = path.extension().is_some_and(|e| e == "msgpack")
        || bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{');
    if msgpack {
        let value = rmpv::decode::read_value(&mut bytes.as_slice()).map_err(|e| {
            err(
                "file",
                "(msgpack)".into(),
                format!("not a msgpack file: {e}"),
            )
        })?;
        from_msgpack(&value).map_err(|why| err("file", "(msgpack)".into(), why))
    } else {
        serde_json::from_slice(&bytes).map_err(|e| {
            err(
                "file",
                format!("line {}, column {}", e.line(), e.column()),
                format!("not a JSON file: {e}"),
            )
        })
    }
}

/// A msgpack value as JSON: maps with string (or UTF-8 binary) keys, arrays, numbers, strings,
/// booleans, nil; msgpack-numpy arrays of little-endian doubles or integers as nested lists.
fn from_msgpack(v: &rmpv::Value) -> Result<Value, String> {
    use rmpv::Value as M;
    Ok(match v {
        M::Nil => Value::Null,
        M::Boolean(b) => Value::Bool(*b),
        M::Integer(i) => match (i.as_i64(), i.as_u64()) {
            (Some(x), _) => Value::Number(x.into()),
            (None, Some(x)) => Value::Number(x.into()),
            _ => return Err(format!("integer {i} out of range")),
        },
        M::F32(x) => number(f64::from(*x))?,
        M::F64(x) => number(*x)?,
        M::String(s) => Value::String(s.as_str().ok_or("a string that is not UTF-8")?.to_string()),
        M::Binary(b) => Value::String(
            String::from_utf8(b.clone()).map_err(|_| "binary data outside a numpy array")?,
        ),
        M::Array(a) => Value::Array(a.iter().map(from_msgpack).collect::<Result<_, _>>()?),
        M::Map(entries) => {
            if get(entries, "nd").is_some() && get(entries, "data").is_some() {
                return numpy(entries);
            }
            let mut out = Map::new();
            for (k, x) in entries {
                let key = match k {
                    M::String(s) => s.as_str().ok_or("a key that is not UTF-8")?.to_string(),
                    M::Binary(b) => String::from_utf8(b.clone()).map_err(|_| "a binary key")?,
                    M::Integer(i) => i.to_string(),
                    other => return Err(format!("a map key {other}")),
                };
                out.insert(key, from_msgpack(x)?);
            }
            Value::Object(out)
        }
        M::Ext(kind, _) => return Err(format!("msgpack extension type {kind}")),
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
fn numpy(entries: &[(rmpv::Value, rmpv::Value)]) -> Result<Value, String> {
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
            return Err(format!(
                "numpy dtype {other:?} (pooltool writes <f8 and integers)"
            ))
        }
    };
    let n: usize = shape.iter().product::<usize>().max(1);
    if data.len() != n * width {
        return Err(format!(
            "numpy data of {} bytes for shape {shape:?} of {dtype}",
            data.len()
        ));
    }
    let item = |k: usize| -> Result<Value, String> {
        let b = &data[k * width..(k + 1) * width];
        let mut w = [0u8; 8];
        w[..width].copy_from_slice(b);
        Ok(match dtype.as_str() {
            "<f8" => number(f64::from_le_bytes(w))?,
            "<u8" | "<u4" | "<u2" | "|u1" => Value::Number(u64::from_le_bytes(w).into()),
            "|b1" => Value::Bool(w[0] != 0),
            _ => {
                // Sign-extend the integer of `width` bytes.
                let shift = 64 - 8 * width as u32;
                Value::Number(((i64::from_le_bytes(w) << shift) >> shift).into())
            }
        })
    };
    let flat: Vec<Value> = (0..n).map(item).collect::<Result<_, _>>()?;
    if shape.is_empty() {
        return Ok(flat.into_iter().next().unwrap_or(Value::Null));
    }
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
