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
//! model = "pool"        # optional preset: "pool" (default) or "ideal"
//! table = "seven_foot"  # required: a built-in table name, or an explicit [table] (below)
//! t_end = 10.0          # optional time limit (s); required for model = "ideal"
//!
//! [params]              # optional
//! preset = "pool"       # optional: "pool" (default), "carom", "snooker" or "fastfiz"
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
//! | `model` | string, default `"pool"` | a physics preset: `"pool"`: seed 004's model ([`pool_physics::Model::pool`]: cloth friction, transitions, elastic ball-ball, Han 2005 cushions); `"ideal"`: seeds 002/001 ([`pool_physics::Model::ideal`]: frictionless constant-velocity balls, mirror cushions) |
//! | `physics` | string or table, optional | a preset name (as `model`), or a `[physics]` table choosing the motion and the law of each event type (below) |
//! | `table` | string or table, required | a built-in name accepted by [`pool_physics::Table::by_name`]: `seven_foot` (1.9812 m x 0.9906 m, 6 pockets, straight jaws), `carom` (2.84 m x 1.42 m, no pockets), `rectangle_LxW` (pocketless L m x W m, e.g. `rectangle_2.0x1.0`), pooltool 0.6.0's `pooltool_pocket` (its 7-foot table, rounded jaws), `pooltool_snooker`, `pooltool_billiard`; or an explicit table, see below |
//! | `t_end` | float (s), optional | stop the run at this time even if balls still move; must be positive and finite; **required** with frictionless motion (`model = "ideal"`: frictionless balls never stop) |
//! | `params` | table, optional | ball parameters, see below |
//! | `balls` | array of tables, required | the balls, in order (event logs refer to them by index) |
//! | `rack` | string, optional | a rack model ([`pool_sim::RackModel`]): `lattice:<gap>`, `frozen` or `jittered:<scale>` (m), e.g. `rack = "jittered:5e-5"`; the balls after the first (the cue ball) are the rack, placed by [`pool_sim::RackModel::apply`] after the file is read and checked; the result is checked again |
//! | `rack_seed` | integer, optional, default 0 | the seed of a `jittered` rack (0 to 2^63 - 1, TOML's integers); only with `rack` |
//!
//! ## `[params]`
//!
//! Starts from a preset and overrides fields one by one. `preset = "pool"` (the default) is
//! [`pool_physics::BallParams::pool`], `preset = "carom"` is [`pool_physics::BallParams::carom`],
//! `preset = "snooker"` is [`pool_physics::BallParams::snooker`] (pooltool's snooker ball),
//! `preset = "fastfiz"` is [`pool_physics::BallParams::fastfiz`] (the default under
//! `model = "fastfiz"`).
//! Fields (all floats): `m` mass (kg), `R` radius (m), `mu_s` sliding friction, `mu_r` rolling
//! resistance, `mu_sp` spinning friction, `e_b` ball-ball restitution, `e_c` ball-cushion
//! restitution, `f_c` ball-cushion friction (all dimensionless), `g` gravity (m/s²). The result
//! must pass [`pool_physics::BallParams::validate`] (positive `m`, `R`, `g`; non-negative
//! coefficients; restitutions at most 1). A field the shot's physics does not read (the motion's
//! and the laws' [`pool_physics::Model::ball_params`]: `e_b` under `pool`, anything but `m` and
//! `R` under `ideal`) is an error, not silently ignored.
//!
//! ## `[physics]`
//!
//! Starts from the preset (`preset = "..."` here, or `model`, or `physics = "<preset>"`: at
//! most one of them) and sets keys one by one, with pooltool 0.6.0's keys and model names:
//!
//! ```toml
//! [physics]
//! motion = "cloth"                      # or "frictionless" (seeds 002/001)
//! ball_ball = "frictionless_elastic"
//! ball_linear_cushion = "han_2005"      # or "unrealistic"
//! ball_pocket = "canonical"
//! transition = "canonical"
//! [physics.ball_circular_cushion]       # the table form carries the model's parameters
//! model = "unrealistic"
//! restitution = true
//! ```
//!
//! A law given by name takes its parameters' defaults. Unknown keys, models and parameters are
//! errors listing the valid ones ([`pool_physics::resolve`] has every model and its parameters;
//! laws registered at run time are accepted by their names).
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
//! [[table.circular_cushions]]  # optional, any number: rounded jaws (pooltool's
//! id = "c1t"                    # CircularCushionSegment); a ball touches the whole circle
//! center = [0.091, -0.021]      # m
//! radius = 0.02095              # m
//! height = 0.036576             # m
//!
//! [[table.pockets]]     # optional, any number
//! id = "p1"
//! center = [0.0, 0.0]   # m
//! radius = 0.06         # m
//! depth = 0.08          # optional (m; pooltool's pocket depth, carried, not used by the law)
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
//! | `m`, `R`, `mu_s`, `mu_r`, `mu_sp`, `mu_b`, `e_b`, `e_c`, `f_c` | float, optional | the ball's own parameters ([`pool_physics::BallParams::PER_BALL`]); the shot's `[params]` for the others. Each must be read by the physics and in range; `g` is the table's and refused. Balls with equal own values share a parameter set ([`pool_physics::Model::add_ball_params`], named by [`pool_physics::BallState::set`]) |
//!
//! Every ball must lie inside the region the cushions enclose (the playing area, pocket mouths
//! and throats included), clear of every cushion (center at least its R from every segment,
//! R + r from every circular cushion's center), and no two balls may overlap (centers at least
//! their contact distance apart, [`pool_physics::contact_distance`]: 2R for equal balls, with a
//! tolerance of 1e-9 m: touching "frozen" balls are allowed). See
//! [`pool_sim::Setup::validate`].
//!
//! ## What is rejected
//!
//! Every failure is a [`ShotError`] naming the file, the field (a path such as `balls[2].v` or
//! `table.cushions[0].p1`), the value as written and what is wrong: TOML syntax errors (field
//! `syntax`, value `line:column`), missing required fields, wrong types, unknown fields (at every
//! level), unknown model, table, preset or state names (the message lists the valid ones), NaN or
//! infinite numbers anywhere (TOML's `nan` and `inf` literals), invalid parameters or tables,
//! balls off the table, overlapping each other or a cushion, duplicate ids, wrong component
//! counts, z != R, frictionless motion without `t_end`, files larger than [`MAX_FILE_BYTES`] and more
//! than [`MAX_BALLS`] balls, a `rack` model that does not parse or cannot place the rack (field
//! `rack`, the model's reason), a `rack_seed` without `rack`. No input makes the parser panic.
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
//! [`pool_sim::Setup`]: the preset or every law, every parameter the physics reads, the table by
//! name when it is identical to the
//! built-in of that name (explicitly otherwise), every ball with `id`, `r`, `v`, `w` and `state`,
//! floats in Rust's shortest round-trip form.
#![warn(missing_docs)]

mod build;
mod locate;
mod physics;
mod raw;
mod write;

use std::io::Read as _;
use std::path::{Path, PathBuf};

use pool_sim::Setup;
use serde::Deserialize;
use toml::de::DeTable;

use build::Builder;
use locate::{one_line, shorten, Doc};
use raw::RawShot;
pub use write::{to_toml, toml_f64};

/// Largest shot file accepted, in bytes (10 MiB). Larger files are refused before reading.
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// Longest id (bytes) of a ball, cushion, circular cushion or pocket: every event, row and
/// report carries ids, so a long one would multiply through all of them.
pub const MAX_ID_BYTES: usize = 64;

/// Largest number of balls accepted in one shot.
pub const MAX_BALLS: usize = 10_000;

/// Preset names accepted in the `model` key (and as `physics = "..."`).
pub const MODELS: [&str; 7] = pool_physics::Model::PRESETS;

/// Parameter presets accepted in `params.preset`.
pub const PRESETS: [&str; 4] = ["pool", "carom", "snooker", "fastfiz"];

/// Motion states accepted in a ball's `state` key (`pocketed` is not allowed in files).
pub const FILE_STATES: [&str; 4] = ["stationary", "spinning", "sliding", "rolling"];

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
    Builder {
        doc: &doc,
        root: &root,
    }
    .build(raw, name)
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
