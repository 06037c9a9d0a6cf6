//! [`to_toml`]: a set-up written back as a shot file.

use std::fmt::Write as _;

use pool_physics::{Physics, Table};
use pool_sim::Setup;

/// Writes `setup` as a shot file that [`crate::parse`] reads back to an identical [`Setup`]
/// (given the same name), for every set-up that `parse` can produce.
///
/// The physics is written as `model = "<preset>"` when it is a preset, else as a `[physics]`
/// table with every key; the ball parameters the physics reads are written explicitly (the
/// others are the pool defaults by construction, see [`pool_physics::Model::new`]), and a
/// ball's own parameters (its set's fields that differ from the shot's) under its `[[balls]]`;
/// the table is
/// written by name when [`Table::by_name`] of its name gives an identical table, explicitly
/// otherwise; every ball gets `id`, `r`, `v`, `w` and `state`. Floats are written with Rust's
/// shortest round-trip formatting, so they read back bit for bit. Set-ups `parse` rejects (e.g.
/// pocketed balls, NaN) are written faithfully and fail to parse. A shot read with a `rack`
/// model is written with its balls where the model placed them and no `rack` (or
/// `rack_seed`) key: the file reads back to the same set-up, bit for bit, without racking
/// again (a `Setup` does not remember how its balls were placed).
pub fn to_toml(setup: &Setup, description: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "description = {}", toml_str(description));
    let (model_line, physics_table) = crate::physics::write(&setup.physics);
    s.push_str(&model_line);
    let table = setup.table.table();
    let built_in = Table::by_name(&table.name).is_some_and(|t| &t == table);
    if built_in {
        let _ = writeln!(s, "table = {}", toml_str(&table.name));
    }
    if let Some(t) = setup.t_end {
        let _ = writeln!(s, "t_end = {}", toml_f64(t));
    }
    s.push_str(&physics_table);
    if !built_in {
        write_table(&mut s, table);
    }
    let _ = writeln!(s, "\n[params]");
    let params = setup.physics.params();
    for key in setup.physics.ball_params() {
        if let Some(v) = params.field(key) {
            let _ = writeln!(s, "{key} = {}", toml_f64(v));
        }
    }
    if let Some(strike) = &setup.strike {
        let c = &strike.cue;
        let _ = writeln!(s, "\n[cue]");
        let _ = writeln!(s, "ball = {}", toml_str(&setup.balls[strike.ball].id));
        for (k, x) in [
            ("V0", c.v0),
            ("phi", c.phi),
            ("theta", c.theta),
            ("a", c.a),
            ("b", c.b),
        ] {
            let _ = writeln!(s, "{k} = {}", toml_f64(x));
        }
        let _ = writeln!(s, "\n[cue.specs]");
        let _ = writeln!(s, "M = {}", toml_f64(c.specs.mass));
        let _ = writeln!(s, "end_mass = {}", toml_f64(c.specs.end_mass));
    }
    let struck = setup.strike.as_ref().map(|s| s.ball);
    for (i, b) in setup.balls.iter().enumerate() {
        let st = &b.state;
        let radius = setup.physics.radius(st);
        let _ = writeln!(s, "\n[[balls]]");
        let _ = writeln!(s, "id = {}", toml_str(&b.id));
        // Its own parameters: those of its set that differ from the shot's (only fields the
        // physics reads can, see `Model::add_ball_params`).
        if let Some(own) = setup.physics.set_params(st.set).filter(|_| st.set != 0) {
            for key in pool_physics::BallParams::PER_BALL {
                if let (Some(x), Some(shot)) = (own.field(key), params.field(key)) {
                    if x.to_bits() != shot.to_bits() {
                        let _ = writeln!(s, "{key} = {}", toml_f64(x));
                    }
                }
            }
        }
        // z == R is implied by the 2-component form; anything else is written as it is.
        let r = if st.r.z == radius && st.r.z.is_sign_positive() {
            toml_arr(&[st.r.x, st.r.y])
        } else {
            toml_arr(&[st.r.x, st.r.y, st.r.z])
        };
        let _ = writeln!(s, "r = {r}");
        if struck == Some(i) {
            // At rest: its v and w are the strike's.
            continue;
        }
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

/// An explicit `[table]` with its cushions (straight and circular) and pockets.
fn write_table(s: &mut String, table: &Table) {
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
    for c in &table.circular_cushions {
        let _ = writeln!(s, "\n[[table.circular_cushions]]");
        let _ = writeln!(s, "id = {}", toml_str(&c.id));
        let _ = writeln!(s, "center = {}", toml_arr(&c.center));
        let _ = writeln!(s, "radius = {}", toml_f64(c.radius));
        let _ = writeln!(s, "height = {}", toml_f64(c.height));
    }
    for p in &table.pockets {
        let _ = writeln!(s, "\n[[table.pockets]]");
        let _ = writeln!(s, "id = {}", toml_str(&p.id));
        let _ = writeln!(s, "center = {}", toml_arr(&p.center));
        let _ = writeln!(s, "radius = {}", toml_f64(p.radius));
        if let Some(d) = p.depth {
            let _ = writeln!(s, "depth = {}", toml_f64(d));
        }
    }
}

/// A TOML basic string with escapes.
pub(crate) fn toml_str(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A TOML float that reads back to the same f64 (Rust's shortest round-trip `{:?}` form, which
/// always has a `.` or an exponent, plus TOML's `nan` / `inf` spellings).
pub fn toml_f64(x: f64) -> String {
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
