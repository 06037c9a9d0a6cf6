//! Shot files: the TOML description of a simulation set-up ([`pool_sim::Setup`]), read by
//! [`load`] / [`parse`] and written by [`to_toml`].
//!
//! A shot names a physics model, a table, optional ball parameters, optional time limit and the
//! balls' initial states. Every quantity is in SI units: metres, seconds, kilograms, radians
//! (m, s, kg, rad, m/s, rad/s). Coordinates are in the table frame: x along the long rail, y
//! across, z up, origin at a corner of the playing area `[0, length] x [0, width]`.
//!
//! # The format
//!
//! ```toml
//! description = "Rolling cue ball straight into a stationary object ball"  # required
//! model = "pool"        # optional: "pool" (default) or "ideal"
//! table = "seven_foot"  # required: a built-in table name, or an explicit [table] (below)
//! t_end = 10.0          # optional time limit (s); required for model = "ideal"
//!
//! [params]              # optional
//! preset = "pool"       # optional: "pool" (default) or "carom"
//! R = 0.028575          # optional overrides of the preset, field by field
//!
//! [[balls]]             # at least one, at most 10 000
//! id = "cue"            # required, unique, non-empty
//! r = [0.5, 0.4953]     # required center (m): [x, y] (z = R implied) or [x, y, z] with z == R
//! v = [1.5, 0.0]        # optional velocity (m/s): [vx, vy] or [vx, vy, 0]; default 0
//! w = [0.0, 52.493438320209975, 0.0]  # optional angular velocity (rad/s), 3 components; default 0
//! state = "rolling"     # optional; inferred from v and w when omitted
//! ```
//!
//! ## Top-level keys
//!
//! | key | type | meaning |
//! | --- | --- | --- |
//! | `description` | string, required, non-empty | what the shot tests |
//! | `model` | string, default `"pool"` | `"pool"`: seed 004's model ([`pool_physics::PoolPhysics`]: cloth friction, transitions, Han 2005 cushions); `"ideal"`: seeds 002/001 ([`pool_physics::IdealPhysics`]: frictionless constant-velocity balls, mirror cushions) |
//! | `table` | string or table, required | a built-in name accepted by [`pool_physics::Table::by_name`]: `seven_foot` (1.9812 m x 0.9906 m, 6 pockets), `carom` (2.84 m x 1.42 m, no pockets), `rectangle_LxW` (pocketless L m x W m, e.g. `rectangle_2.0x1.0`); or an explicit table, see below |
//! | `t_end` | float (s), optional | stop the run at this time even if balls still move; must be positive and finite; **required** for `model = "ideal"` (frictionless balls never stop) |
//! | `params` | table, optional | ball parameters, see below |
//! | `balls` | array of tables, required | the balls, in order (event logs refer to them by index) |
//!
//! ## `[params]`
//!
//! Starts from a preset and overrides fields one by one. `preset = "pool"` (the default) is
//! [`pool_physics::BallParams::pool`], `preset = "carom"` is [`pool_physics::BallParams::carom`].
//! Fields (all floats): `m` mass (kg), `R` radius (m), `mu_s` sliding friction, `mu_r` rolling
//! resistance, `mu_sp` spinning friction, `e_b` ball-ball restitution, `e_c` ball-cushion
//! restitution, `f_c` ball-cushion friction (all dimensionless), `g` gravity (m/s²). The result
//! must pass [`pool_physics::BallParams::validate`] (positive `m`, `R`, `g`; non-negative
//! coefficients; restitutions at most 1). The ideal model uses only `m` and `R`; any other field
//! given for it is an error.
//!
//! ## Explicit `[table]`
//!
//! ```toml
//! [table]
//! name = "my_table"     # string
//! length = 2.0          # playing-area length along x (m)
//! width = 1.0           # playing-area width along y (m)
//!
//! [[table.cushions]]    # at least one straight segment; playing side on the LEFT of p1 -> p2
//! id = "bottom"
//! p1 = [0.0, 0.0]       # m
//! p2 = [2.0, 0.0]       # m
//! height = 0.036576     # contact height above the slate (m)
//!
//! [[table.pockets]]     # optional, any number
//! id = "p1"
//! center = [0.0, 0.0]   # m
//! radius = 0.06         # m
//! ```
//!
//! The table must pass [`pool_physics::Table::validate`].
//!
//! ## `[[balls]]`
//!
//! | key | type | meaning |
//! | --- | --- | --- |
//! | `id` | string, required | unique, non-empty identifier (e.g. `"cue"`, `"9"`) |
//! | `r` | 2 or 3 floats (m), required | center `[x, y]`, z = R implied; `[x, y, z]` is accepted only with z exactly equal to R |
//! | `v` | 2 or 3 floats (m/s), default 0 | `[vx, vy]`; a third component must be exactly 0 (table-bound balls) |
//! | `w` | 3 floats (rad/s), default 0 | `[wx, wy, wz]`; rolling without slipping along v means `w = [-vy/R, vx/R, wz]` |
//! | `state` | string, optional | `stationary`, `spinning`, `sliding` or `rolling`. When omitted it is inferred from v and w by the model's `infer_motion` (pool: [`pool_physics::BallState::infer_motion`]; ideal: `sliding` when moving, else `stationary`). When given it must equal the inferred state; `pocketed` is not allowed in files |
//!
//! Every ball must lie inside the playing area, clear of every cushion (center at least R from
//! every segment), and no two balls may overlap (centers at least 2R apart, with a tolerance of
//! 1e-9 m: touching "frozen" balls are allowed). See [`pool_sim::Setup::validate`].
//!
//! ## What is rejected
//!
//! Every failure is a [`ShotError`] naming the file, the field (a path such as `balls[2].v` or
//! `table.cushions[0].p1`), the value as written and what is wrong: TOML syntax errors (field
//! `syntax`, value `line:column`), missing required fields, wrong types, unknown fields (at every
//! level), unknown model, table, preset or state names (the message lists the valid ones), NaN or
//! infinite numbers anywhere (TOML's `nan` and `inf` literals), invalid parameters or tables,
//! balls off the table, overlapping each other or a cushion, duplicate ids, wrong component
//! counts, z != R, an ideal model without `t_end`, files larger than [`MAX_FILE_BYTES`] and more
//! than [`MAX_BALLS`] balls. No input makes the parser panic.
//!
//! Integers are accepted wherever a float is expected (`t_end = 10`). Keys may appear in any
//! order TOML allows; comments are ignored.
//!
//! Error messages read `<file>: <field> = <value>: <message>` on one line, e.g.
//! `shots/x.toml: balls[2].v = [nan, 0.0]: NaN and infinite numbers are not allowed (line 19,
//! column 5)`.
//!
//! # Writing
//!
//! [`to_toml`] writes a set-up back as a shot file that [`parse`] reads to an identical
//! [`pool_sim::Setup`]: every parameter explicitly, the table by name when it is identical to the
//! built-in of that name (explicitly otherwise), every ball with `id`, `r`, `v`, `w` and `state`,
//! floats in Rust's shortest round-trip form.
#![warn(missing_docs)]

use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Read as _;
use std::ops::Range;
use std::path::{Path, PathBuf};

use pool_physics::{
    AnyPhysics, BallParams, BallState, IdealPhysics, MotionState, Physics, PoolPhysics, Table,
    TableError, Vec3,
};
use pool_sim::{Ball, Setup};
use serde::de::{MapAccess, Visitor};
use serde::Deserialize;
use toml::de::{DeTable, DeValue};
use toml::Spanned;

/// Largest shot file accepted, in bytes (10 MiB). Larger files are refused before reading.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Largest number of balls accepted in one shot.
pub const MAX_BALLS: usize = 10_000;

/// Model names accepted in the `model` key.
pub const MODELS: [&str; 2] = ["pool", "ideal"];

/// Parameter presets accepted in `params.preset`.
pub const PRESETS: [&str; 2] = ["pool", "carom"];

/// Motion states accepted in a ball's `state` key (`pocketed` is not allowed in files).
pub const FILE_STATES: [&str; 4] = ["stationary", "spinning", "sliding", "rolling"];

/// Longest value text quoted in an error message, in characters.
const MAX_VALUE_CHARS: usize = 80;

/// Why a shot file could not be read: the file, the field, the value as written and what is
/// wrong with it. Displays on one line as `<file>: <field> = <value>: <message>`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}: {field} = {value}: {message}", file.display())]
pub struct ShotError {
    /// The shot file (or directory, for [`list_shots`]).
    pub file: PathBuf,
    /// The offending field as a path, e.g. `balls[2].v`, `table.cushions[0].p1`, `t_end`;
    /// `syntax` for TOML syntax errors and `file` for errors reading the file itself.
    pub field: String,
    /// The offending value as written (shortened), `line:column` for syntax errors, or
    /// `(missing)` for a missing field.
    pub value: String,
    /// What is wrong, with the valid choices or the limit where there are some.
    pub message: String,
}

impl ShotError {
    fn new(
        file: &Path,
        field: impl Into<String>,
        value: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        ShotError {
            file: file.to_path_buf(),
            field: one_line(&field.into()),
            value: shorten(&value.into()),
            message: one_line(&message.into()),
        }
    }
}

/// Reads a shot file; the set-up's name is the file's stem (`straight` for `straight.toml`).
///
/// Files larger than [`MAX_FILE_BYTES`] are refused before reading, by their size on disk.
pub fn load(path: &Path) -> Result<Setup, ShotError> {
    let file_err = |value: String, message: String| ShotError::new(path, "file", value, message);
    let meta =
        std::fs::metadata(path).map_err(|e| file_err("(unreadable)".into(), e.to_string()))?;
    if !meta.is_file() {
        return Err(file_err(
            "(not a file)".into(),
            "a shot must be a regular file".into(),
        ));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(file_err(
            format!("{} bytes", meta.len()),
            format!("file is larger than the {MAX_FILE_BYTES}-byte (10 MiB) limit"),
        ));
    }
    let f =
        std::fs::File::open(path).map_err(|e| file_err("(unreadable)".into(), e.to_string()))?;
    let mut bytes = Vec::new();
    // Read at most one byte past the limit, in case the file grew since `metadata`.
    f.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| file_err("(unreadable)".into(), e.to_string()))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(file_err(
            format!("more than {MAX_FILE_BYTES} bytes"),
            format!("file is larger than the {MAX_FILE_BYTES}-byte (10 MiB) limit"),
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        file_err(
            format!("byte {}", e.utf8_error().valid_up_to()),
            "file is not valid UTF-8".into(),
        )
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse(&text, &name, path)
}

/// Parses the text of a shot file into a validated [`Setup`] named `name`; `file` is only used
/// in error messages.
pub fn parse(text: &str, name: &str, file: &Path) -> Result<Setup, ShotError> {
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(ShotError::new(
            file,
            "file",
            format!("{} bytes", text.len()),
            format!("file is larger than the {MAX_FILE_BYTES}-byte (10 MiB) limit"),
        ));
    }
    let doc = Doc { text, file };
    let root = DeTable::parse(text).map_err(|e| doc.syntax_error(&e))?;
    // Refuse huge ball counts before building anything per ball.
    if let Some(n) = root
        .get_ref()
        .iter()
        .find(|(k, _)| k.get_ref() == "balls")
        .and_then(|(_, v)| v.get_ref().as_array().map(|a| a.len()))
    {
        if n > MAX_BALLS {
            return Err(doc.err(
                "balls",
                format!("{n} balls"),
                format!("more than {MAX_BALLS} balls"),
            ));
        }
    }
    let raw = RawShot::deserialize(toml::de::Deserializer::from(root.clone()))
        .map_err(|e| doc.serde_error(&e, &root))?;
    doc.build(raw, name, &root)
}

/// The `*.toml` files directly in `dir` (not in subdirectories), sorted by file name.
pub fn list_shots(dir: &Path) -> Result<Vec<PathBuf>, ShotError> {
    let err = |e: std::io::Error| {
        ShotError::new(dir, "directory", dir.display().to_string(), e.to_string())
    };
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let entry = entry.map_err(err)?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "toml") && path.is_file() {
            out.push(path);
        }
    }
    out.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    Ok(out)
}

/// Writes `setup` as a shot file that [`parse`] reads back to an identical [`Setup`] (given the
/// same name), for every set-up that `parse` can produce.
///
/// Every parameter is written explicitly; the table is written by name when
/// [`Table::by_name`] of its name gives an identical table, explicitly otherwise; every ball gets
/// `id`, `r`, `v`, `w` and `state`. Floats are written with Rust's shortest round-trip formatting,
/// so they read back bit for bit. Set-ups `parse` rejects (e.g. pocketed balls, NaN) are written
/// faithfully and fail to parse.
pub fn to_toml(setup: &Setup, description: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "description = {}", toml_str(description));
    let _ = writeln!(s, "model = {}", toml_str(setup.physics.name()));
    let table = &setup.table;
    let built_in = Table::by_name(&table.name).is_some_and(|t| &t == table);
    if built_in {
        let _ = writeln!(s, "table = {}", toml_str(&table.name));
    }
    if let Some(t) = setup.t_end {
        let _ = writeln!(s, "t_end = {}", toml_f64(t));
    }
    if !built_in {
        let _ = writeln!(s, "\n[table]");
        let _ = writeln!(s, "name = {}", toml_str(&table.name));
        let _ = writeln!(s, "length = {}", toml_f64(table.length));
        let _ = writeln!(s, "width = {}", toml_f64(table.width));
        for c in &table.cushions {
            let _ = writeln!(s, "\n[[table.cushions]]");
            let _ = writeln!(s, "id = {}", toml_str(&c.id));
            let _ = writeln!(s, "p1 = {}", toml_arr(&c.p1));
            let _ = writeln!(s, "p2 = {}", toml_arr(&c.p2));
            let _ = writeln!(s, "height = {}", toml_f64(c.height));
        }
        for p in &table.pockets {
            let _ = writeln!(s, "\n[[table.pockets]]");
            let _ = writeln!(s, "id = {}", toml_str(&p.id));
            let _ = writeln!(s, "center = {}", toml_arr(&p.center));
            let _ = writeln!(s, "radius = {}", toml_f64(p.radius));
        }
    }
    let _ = writeln!(s, "\n[params]");
    match &setup.physics {
        AnyPhysics::Pool(p) => {
            let p = &p.params;
            for (k, v) in [
                ("m", p.m),
                ("R", p.radius),
                ("mu_s", p.mu_s),
                ("mu_r", p.mu_r),
                ("mu_sp", p.mu_sp),
                ("e_b", p.e_b),
                ("e_c", p.e_c),
                ("f_c", p.f_c),
                ("g", p.g),
            ] {
                let _ = writeln!(s, "{k} = {}", toml_f64(v));
            }
        }
        AnyPhysics::Ideal(p) => {
            let _ = writeln!(s, "m = {}", toml_f64(p.mass));
            let _ = writeln!(s, "R = {}", toml_f64(p.radius));
        }
    }
    let radius = setup.physics.radius();
    for b in &setup.balls {
        let st = &b.state;
        let _ = writeln!(s, "\n[[balls]]");
        let _ = writeln!(s, "id = {}", toml_str(&b.id));
        // z == R is implied by the 2-component form; anything else is written as it is.
        let r = if st.r.z == radius && st.r.z.is_sign_positive() {
            toml_arr(&[st.r.x, st.r.y])
        } else {
            toml_arr(&[st.r.x, st.r.y, st.r.z])
        };
        let _ = writeln!(s, "r = {r}");
        let v = if st.v.z == 0.0 {
            toml_arr(&[st.v.x, st.v.y])
        } else {
            toml_arr(&[st.v.x, st.v.y, st.v.z])
        };
        let _ = writeln!(s, "v = {v}");
        let _ = writeln!(s, "w = {}", toml_arr(&[st.w.x, st.w.y, st.w.z]));
        let _ = writeln!(s, "state = {}", toml_str(st.motion.name()));
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Writing helpers.

/// A TOML basic string with escapes.
fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML float that reads back to the same f64 (Rust's shortest round-trip `{:?}` form, which
/// always has a `.` or an exponent, plus TOML's `nan` / `inf` spellings).
fn toml_f64(x: f64) -> String {
    if x.is_nan() {
        "nan".into()
    } else if x.is_infinite() {
        if x > 0.0 { "inf" } else { "-inf" }.into()
    } else {
        format!("{x:?}")
    }
}

fn toml_arr(xs: &[f64]) -> String {
    let parts: Vec<String> = xs.iter().map(|&x| toml_f64(x)).collect();
    format!("[{}]", parts.join(", "))
}

// ---------------------------------------------------------------------------------------------
// The file's raw structure, as serde reads it.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawShot {
    description: String,
    model: Option<String>,
    table: TableSpec,
    t_end: Option<f64>,
    params: Option<RawParams>,
    balls: Vec<RawBall>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawParams {
    preset: Option<String>,
    m: Option<f64>,
    #[serde(rename = "R")]
    radius: Option<f64>,
    mu_s: Option<f64>,
    mu_r: Option<f64>,
    mu_sp: Option<f64>,
    e_b: Option<f64>,
    e_c: Option<f64>,
    f_c: Option<f64>,
    g: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBall {
    id: String,
    r: Vec<f64>,
    v: Option<Vec<f64>>,
    w: Option<Vec<f64>>,
    state: Option<String>,
}

/// `table = "name"` or an explicit `[table]` (deserialized as [`Table`], which denies unknown
/// fields at every level).
enum TableSpec {
    Name(String),
    Explicit(Table),
}

impl<'de> Deserialize<'de> for TableSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TableSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a built-in table name (string) or a [table] with name, length, width, cushions, pockets")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<TableSpec, E> {
                Ok(TableSpec::Name(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TableSpec, A::Error> {
                Table::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TableSpec::Explicit)
            }
        }
        d.deserialize_any(V)
    }
}

// ---------------------------------------------------------------------------------------------
// Building and checking.

/// The text being parsed and its file, for error messages.
struct Doc<'a> {
    text: &'a str,
    file: &'a Path,
}

/// A node of the parsed document found by [`find_node`]: its path and the span of its value.
struct Node {
    path: String,
    value_span: Range<usize>,
}

impl Doc<'_> {
    fn err(
        &self,
        field: impl Into<String>,
        value: impl Into<String>,
        message: impl Into<String>,
    ) -> ShotError {
        ShotError::new(self.file, field, value, message)
    }

    /// 1-based line and column (in characters) of byte offset `at`.
    fn line_col(&self, at: usize) -> (usize, usize) {
        let mut at = at.min(self.text.len());
        while !self.text.is_char_boundary(at) {
            at -= 1;
        }
        let before = &self.text[..at];
        let line = before.matches('\n').count() + 1;
        let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
        (line, col)
    }

    fn source(&self, span: &Range<usize>) -> Option<&str> {
        self.text.get(span.clone())
    }

    fn syntax_error(&self, e: &toml::de::Error) -> ShotError {
        let (value, at) = match e.span() {
            Some(span) => {
                let (l, c) = self.line_col(span.start);
                (format!("{l}:{c}"), format!(" (line {l}, column {c})"))
            }
            None => ("?".to_string(), String::new()),
        };
        self.err("syntax", value, format!("{}{at}", e.message()))
    }

    /// Maps a serde error to the field it is about, using the error's span.
    fn serde_error(&self, e: &toml::de::Error, root: &Spanned<DeTable<'_>>) -> ShotError {
        let msg = e.message();
        let Some(span) = e.span() else {
            return self.err("(document)", "?", msg);
        };
        let (l, c) = self.line_col(span.start);
        let at = format!(" (line {l}, column {c})");
        if let Some(missing) = between(msg, "missing field `", "`") {
            // The span is the header of the table that lacks the field (empty for the root).
            let table = if span.is_empty() {
                None
            } else {
                find_node(root, |_, value_span| value_span == &span)
            };
            return match table {
                Some(t) => self.err(
                    join(&t.path, missing),
                    "(missing)",
                    format!("required field is missing{at}"),
                ),
                None => self.err(missing, "(missing)", "required field is missing"),
            };
        }
        let best = find_node(root, |node_span, _| {
            node_span.start <= span.start && span.end <= node_span.end
        });
        match best {
            Some(n) if !n.path.is_empty() => self.err(
                n.path,
                self.source(&n.value_span).unwrap_or("?"),
                format!("{msg}{at}"),
            ),
            _ => self.err(
                "(document)",
                self.source(&span).unwrap_or("?"),
                format!("{msg}{at}"),
            ),
        }
    }

    /// The value as written at `path` (e.g. `balls[2].v`), or `fallback`.
    fn written(
        &self,
        root: &Spanned<DeTable<'_>>,
        path: &str,
        fallback: impl FnOnce() -> String,
    ) -> String {
        lookup(root, path)
            .and_then(|span| self.source(&span))
            .map_or_else(fallback, str::to_string)
    }

    fn finite(&self, root: &Spanned<DeTable<'_>>, path: &str, xs: &[f64]) -> Result<(), ShotError> {
        if xs.iter().all(|x| x.is_finite()) {
            Ok(())
        } else {
            Err(self.err(
                path,
                self.written(root, path, || format!("{xs:?}")),
                "NaN and infinite numbers are not allowed",
            ))
        }
    }

    /// [`Doc::build_unlocated`], with the line and column of the offending value appended to the
    /// message when the field can be found in the document.
    fn build(
        &self,
        raw: RawShot,
        name: &str,
        root: &Spanned<DeTable<'_>>,
    ) -> Result<Setup, ShotError> {
        self.build_unlocated(raw, name, root).map_err(|mut e| {
            let path = e.field.split(' ').next().unwrap_or("");
            if let Some(span) = lookup(root, path) {
                let (l, c) = self.line_col(span.start);
                e.message = format!("{} (line {l}, column {c})", e.message);
            }
            e
        })
    }

    fn build_unlocated(
        &self,
        raw: RawShot,
        name: &str,
        root: &Spanned<DeTable<'_>>,
    ) -> Result<Setup, ShotError> {
        let shown = |path: &str, fallback: &str| self.written(root, path, || fallback.to_string());
        if raw.description.trim().is_empty() {
            return Err(self.err(
                "description",
                shown("description", ""),
                "must say what the shot tests (empty)",
            ));
        }

        // Model.
        let model = raw.model.as_deref().unwrap_or("pool");
        let ideal = match model {
            "pool" => false,
            "ideal" => true,
            other => {
                return Err(self.err(
                    "model",
                    shown("model", other),
                    format!("unknown model; valid models: {}", MODELS.join(", ")),
                ))
            }
        };

        // Parameters.
        let rp = raw.params.unwrap_or_default();
        let mut params = match rp.preset.as_deref() {
            None | Some("pool") => BallParams::pool(),
            Some("carom") => BallParams::carom(),
            Some(other) => {
                return Err(self.err(
                    "params.preset",
                    shown("params.preset", other),
                    format!("unknown preset; valid presets: {}", PRESETS.join(", ")),
                ))
            }
        };
        let overrides: [(&str, Option<f64>, &mut f64); 9] = [
            ("m", rp.m, &mut params.m),
            ("R", rp.radius, &mut params.radius),
            ("mu_s", rp.mu_s, &mut params.mu_s),
            ("mu_r", rp.mu_r, &mut params.mu_r),
            ("mu_sp", rp.mu_sp, &mut params.mu_sp),
            ("e_b", rp.e_b, &mut params.e_b),
            ("e_c", rp.e_c, &mut params.e_c),
            ("f_c", rp.f_c, &mut params.f_c),
            ("g", rp.g, &mut params.g),
        ];
        for (key, value, slot) in overrides {
            if let Some(x) = value {
                let path = format!("params.{key}");
                self.finite(root, &path, &[x])?;
                if ideal && key != "m" && key != "R" {
                    return Err(self.err(
                        &path,
                        shown(&path, &x.to_string()),
                        "the ideal model uses only params.m and params.R (and preset)",
                    ));
                }
                *slot = x;
            }
        }
        if let Err(why) = params.validate() {
            let key = why.split_whitespace().next().unwrap_or("").to_string();
            let value = param_value(&params, &key);
            let path = format!("params.{key}");
            return Err(self.err(&path, shown(&path, &value), why));
        }
        let physics = if ideal {
            AnyPhysics::Ideal(IdealPhysics {
                radius: params.radius,
                mass: params.m,
            })
        } else {
            AnyPhysics::Pool(PoolPhysics::new(params))
        };
        let radius = params.radius;

        // Table.
        let table = match raw.table {
            TableSpec::Name(n) => Table::by_name(&n).ok_or_else(|| {
                self.err(
                    "table",
                    shown("table", &n),
                    "unknown table name; valid names: seven_foot, carom, rectangle_LxW \
                     (L and W positive lengths in m, e.g. rectangle_2.0x1.0), \
                     or an explicit [table]",
                )
            })?,
            TableSpec::Explicit(t) => {
                self.finite(root, "table.length", &[t.length])?;
                self.finite(root, "table.width", &[t.width])?;
                for (i, c) in t.cushions.iter().enumerate() {
                    self.finite(root, &format!("table.cushions[{i}].p1"), &c.p1)?;
                    self.finite(root, &format!("table.cushions[{i}].p2"), &c.p2)?;
                    self.finite(root, &format!("table.cushions[{i}].height"), &[c.height])?;
                }
                for (i, p) in t.pockets.iter().enumerate() {
                    self.finite(root, &format!("table.pockets[{i}].center"), &p.center)?;
                    self.finite(root, &format!("table.pockets[{i}].radius"), &[p.radius])?;
                }
                if let Err(TableError::Invalid { field, value, why }) = t.validate() {
                    return Err(self.err(format!("table.{field}"), value, why));
                }
                t
            }
        };

        // Time limit.
        if let Some(t) = raw.t_end {
            self.finite(root, "t_end", &[t])?;
        } else if ideal {
            return Err(self.err(
                "t_end",
                "(missing)",
                "required for model = \"ideal\": frictionless balls never stop",
            ));
        }

        // Balls.
        if raw.balls.is_empty() {
            return Err(self.err("balls", "[]", "a shot needs at least one ball"));
        }
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(raw.balls.len());
        let mut balls = Vec::with_capacity(raw.balls.len());
        for (i, b) in raw.balls.iter().enumerate() {
            let path = |k: &str| format!("balls[{i}].{k}");
            let written = |k: &str, fallback: String| self.written(root, &path(k), || fallback);
            if b.id.is_empty() {
                return Err(self.err(path("id"), "\"\"", "ball ids must be non-empty"));
            }
            if let Some(j) = seen.insert(b.id.as_str(), i) {
                return Err(self.err(
                    path("id"),
                    written("id", format!("{:?}", b.id)),
                    format!("duplicate ball id: balls[{j}] has the same id"),
                ));
            }
            // Position.
            self.finite(root, &path("r"), &b.r)?;
            let r = match b.r.as_slice() {
                [x, y] => Vec3::new(*x, *y, radius),
                [x, y, z] => {
                    if *z != radius {
                        return Err(self.err(
                            path("r"),
                            written("r", format!("{:?}", b.r)),
                            format!("z must equal the ball radius R = {radius:?} m (balls rest on the cloth); omit z to imply it"),
                        ));
                    }
                    Vec3::new(*x, *y, *z)
                }
                _ => {
                    return Err(self.err(
                        path("r"),
                        written("r", format!("{:?}", b.r)),
                        format!(
                            "expected 2 components [x, y] or 3 [x, y, z] (m), got {}",
                            b.r.len()
                        ),
                    ))
                }
            };
            // Velocity.
            let v = match b.v.as_deref() {
                None => Vec3::zeros(),
                Some(v) => {
                    self.finite(root, &path("v"), v)?;
                    match v {
                        [x, y] => Vec3::new(*x, *y, 0.0),
                        [x, y, z] if *z == 0.0 => Vec3::new(*x, *y, 0.0),
                        [_, _, _] => {
                            return Err(self.err(
                                path("v"),
                                written("v", format!("{v:?}")),
                                "vz must be 0: balls stay on the cloth",
                            ))
                        }
                        _ => {
                            return Err(self.err(
                                path("v"),
                                written("v", format!("{v:?}")),
                                format!(
                                    "expected 2 components [vx, vy] or 3 [vx, vy, 0] (m/s), got {}",
                                    v.len()
                                ),
                            ))
                        }
                    }
                }
            };
            // Angular velocity.
            let w = match b.w.as_deref() {
                None => Vec3::zeros(),
                Some(w) => {
                    self.finite(root, &path("w"), w)?;
                    match w {
                        [x, y, z] => Vec3::new(*x, *y, *z),
                        _ => {
                            return Err(self.err(
                                path("w"),
                                written("w", format!("{w:?}")),
                                format!(
                                    "expected 3 components [wx, wy, wz] (rad/s), got {}",
                                    w.len()
                                ),
                            ))
                        }
                    }
                }
            };
            // Motion state.
            let inferred = physics.infer_motion(&v, &w);
            if let Some(s) = b.state.as_deref() {
                let given = match s {
                    "stationary" => MotionState::Stationary,
                    "spinning" => MotionState::Spinning,
                    "sliding" => MotionState::Sliding,
                    "rolling" => MotionState::Rolling,
                    "pocketed" => {
                        return Err(self.err(
                            path("state"),
                            written("state", format!("{s:?}")),
                            "pocketed balls are not allowed in shot files",
                        ))
                    }
                    _ => {
                        return Err(self.err(
                            path("state"),
                            written("state", format!("{s:?}")),
                            format!("unknown state; valid states: {}", FILE_STATES.join(", ")),
                        ))
                    }
                };
                if given != inferred {
                    return Err(self.err(
                        path("state"),
                        written("state", format!("{s:?}")),
                        format!(
                            "contradicts the velocities, which make the ball {} in the {model} model \
                             (omit state to infer it)",
                            inferred.name()
                        ),
                    ));
                }
            }
            balls.push(Ball {
                id: b.id.clone(),
                state: BallState {
                    r,
                    v,
                    w,
                    motion: inferred,
                },
            });
        }

        let setup = Setup {
            name: name.to_string(),
            physics,
            table,
            balls,
            t_end: raw.t_end,
        };
        setup
            .validate()
            .map_err(|e| self.err(e.field, e.value, e.why))?;
        Ok(setup)
    }
}

/// The value of a [`BallParams`] field by its file name, for error messages.
fn param_value(p: &BallParams, key: &str) -> String {
    let x = match key {
        "m" => p.m,
        "R" => p.radius,
        "mu_s" => p.mu_s,
        "mu_r" => p.mu_r,
        "mu_sp" => p.mu_sp,
        "e_b" => p.e_b,
        "e_c" => p.e_c,
        "f_c" => p.f_c,
        "g" => p.g,
        _ => return "?".into(),
    };
    format!("{x:?}")
}

/// One step of a path into the document: a key or an array index.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Key(&'a str),
    Index(usize),
}

fn path_string(stack: &[Seg<'_>]) -> String {
    let mut out = String::new();
    for seg in stack {
        match seg {
            Seg::Key(k) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(k);
            }
            Seg::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// The node of the document (a key or a value; a key's value span is its value's) for which
/// `matches(span, value_span)` holds, preferring the smallest span and then the deepest path.
/// Walks the document without allocating per node, so that errors in huge files stay cheap.
fn find_node(
    root: &Spanned<DeTable<'_>>,
    matches: impl Fn(&Range<usize>, &Range<usize>) -> bool,
) -> Option<Node> {
    struct Search<'m, M> {
        matches: &'m M,
        best: Option<(usize, usize, Node)>,
    }
    impl<M: Fn(&Range<usize>, &Range<usize>) -> bool> Search<'_, M> {
        fn offer(&mut self, span: Range<usize>, value_span: Range<usize>, stack: &[Seg<'_>]) {
            if !(self.matches)(&span, &value_span) {
                return;
            }
            let better = match &self.best {
                None => true,
                Some((len, depth, _)) => {
                    (span.len(), usize::MAX - stack.len()) < (*len, usize::MAX - depth)
                }
            };
            if better {
                let node = Node {
                    path: path_string(stack),
                    value_span,
                };
                self.best = Some((span.len(), stack.len(), node));
            }
        }
        fn table<'a>(&mut self, t: &'a DeTable<'a>, stack: &mut Vec<Seg<'a>>) {
            for (k, x) in t.iter() {
                stack.push(Seg::Key(k.get_ref()));
                self.offer(k.span(), x.span(), stack);
                self.value(x, stack);
                stack.pop();
            }
        }
        fn value<'a>(&mut self, v: &'a Spanned<DeValue<'a>>, stack: &mut Vec<Seg<'a>>) {
            // The TOML parser limits nesting already; this guard keeps the walk bounded anyway.
            if stack.len() > 256 {
                return;
            }
            self.offer(v.span(), v.span(), stack);
            match v.get_ref() {
                DeValue::Table(t) => self.table(t, stack),
                DeValue::Array(a) => {
                    for (i, x) in a.iter().enumerate() {
                        stack.push(Seg::Index(i));
                        self.value(x, stack);
                        stack.pop();
                    }
                }
                _ => {}
            }
        }
    }
    let mut search = Search {
        matches: &matches,
        best: None,
    };
    search.table(root.get_ref(), &mut Vec::new());
    search.best.map(|(_, _, node)| node)
}

/// The span of the value at `path` (`a.b[2].c` syntax; keys must not contain `.` or `[`).
fn lookup(root: &Spanned<DeTable<'_>>, path: &str) -> Option<Range<usize>> {
    let mut table = root.get_ref();
    let mut current: Option<&Spanned<DeValue<'_>>> = None;
    for part in path.split('.') {
        let (key, indices) = match part.find('[') {
            Some(i) => (&part[..i], &part[i..]),
            None => (part, ""),
        };
        if let Some(c) = current {
            table = c.get_ref().as_table()?;
        }
        let mut v = table
            .iter()
            .find(|(k, _)| k.get_ref() == key)
            .map(|(_, v)| v)?;
        for idx in indices.split('[').skip(1) {
            let i: usize = idx.strip_suffix(']')?.parse().ok()?;
            v = v.get_ref().as_array()?.get(i)?;
        }
        current = Some(v);
    }
    current.map(|v| v.span())
}

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The text between `start` and the next `end` in `s`.
fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let rest = &s[s.find(start)? + start.len()..];
    Some(&rest[..rest.find(end)?])
}

/// Collapses whitespace runs (newlines included) to single spaces.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// One line, at most [`MAX_VALUE_CHARS`] characters.
fn shorten(s: &str) -> String {
    let s = one_line(s);
    if s.chars().count() <= MAX_VALUE_CHARS {
        s
    } else {
        let head: String = s.chars().take(MAX_VALUE_CHARS).collect();
        format!("{head}...")
    }
}
