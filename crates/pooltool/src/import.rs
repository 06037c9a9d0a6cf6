//! A pooltool `System` (its file's tree) as our [`Setup`].

use std::path::Path;

use pool_physics::resolve::{Cue, CueSpecs};
use pool_physics::{
    cushion_id_from_pooltool, pocket_id_from_pooltool, BallParams, BallState, CircularCushion,
    Cushion, Model, Motion, MotionState, Pocket, Table, Vec3, POOLTOOL_TABLES,
};
use pool_sim::{Ball, Setup, Strike};
use serde_json::Value;

use crate::frame::{angle_mirrored, spin_in, vector_in};
use crate::resolver::short;
use crate::PooltoolError;

/// A set-up read from a pooltool file, and what did not carry over.
#[derive(Clone, Debug)]
pub struct Imported {
    /// The set-up (validated).
    pub setup: Setup,
    /// One line per thing left out (pocketed balls), for the user.
    pub notes: Vec<String>,
}

/// Reads the pooltool file at `path` ([`crate::read_import_tree`]) as a set-up named `name`, its laws
/// from `resolver` (a pooltool resolver file, JSON or YAML) when given, else from the file's
/// `resolver` entry, else pooltool 0.6.0's default laws (the `pooltool_default` preset, what
/// `pt.simulate` uses).
///
/// # Errors
/// The first thing that cannot be read or carried over, naming the file, the field (a path in
/// the file's tree), the value and why.
pub fn import(path: &Path, name: &str, resolver: Option<&Path>) -> Result<Imported, PooltoolError> {
    let tree = crate::read_import_tree(path)?;
    let laws = match resolver {
        Some(file) => Some((file, read_resolver(file)?)),
        None => None,
    };
    import_tree(&tree, name, path, laws.as_ref().map(|(f, v)| (*f, v)))
}

/// A resolver file (pooltool's `resolver.yaml`, or the same as JSON) as a tree.
fn read_resolver(file: &Path) -> Result<Value, PooltoolError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| PooltoolError::new(file, "file", file.display().to_string(), e.to_string()))?;
    if text.len() > 1 << 20 {
        return Err(PooltoolError::new(
            file,
            "file",
            format!("{} bytes", text.len()),
            "a resolver file is a few hundred bytes; this one is over 1 MiB",
        ));
    }
    let json = file.extension().is_some_and(|e| e == "json");
    let parsed = if json {
        serde_json::from_str(&text).map_err(|e| e.to_string())
    } else {
        serde_norway::from_str::<Value>(&text).map_err(|e| e.to_string())
    };
    parsed.map_err(|why| {
        PooltoolError::new(
            file,
            "file",
            "(contents)",
            format!("not a resolver file: {why}"),
        )
    })
}

/// [`import`] on a tree already read; `resolver` is (its file, its tree).
///
/// # Errors
/// As [`import`].
pub fn import_tree(
    tree: &Value,
    name: &str,
    path: &Path,
    resolver: Option<(&Path, &Value)>,
) -> Result<Imported, PooltoolError> {
    let r = Reader { path };
    let harness = tree.get("harness").unwrap_or(&Value::Null);
    let table = r.table(r.get(tree, "table", "")?, name, harness)?;
    let motion = match tree.pointer("/harness/motion") {
        None => Motion::Cloth,
        Some(Value::String(m)) => Motion::by_name(m).ok_or_else(|| {
            r.bad(
                "harness.motion",
                short(&Value::String(m.clone())),
                format!("unknown motion; valid: {}", Motion::NAMES.join(", ")),
            )
        })?,
        Some(other) => return Err(r.bad("harness.motion", short(other), "must be a name")),
    };
    let (balls, params, notes) = r.balls(tree, motion, harness)?;
    // What `pt.simulate` would use on this file: pooltool's default resolver, under an entry
    // or a file that names only some laws too.
    let base = Model::pooltool_default(params).resolver().clone();
    let laws = match resolver {
        Some((file, laws)) => crate::resolver_in(&base, laws)
            .map_err(|(field, value, why)| PooltoolError::new(file, field, value, why))?,
        None => match tree.get("resolver") {
            Some(laws) => crate::resolver_in(&base, laws)
                .map_err(|(field, value, why)| r.bad(format!("resolver.{field}"), value, why))?,
            None => base,
        },
    };
    let mut physics = Model::new(params, motion, laws);
    let t_end = match tree.pointer("/harness/t_end") {
        None | Some(Value::Null) => None,
        Some(v) => Some(r.number(v, "harness.t_end")?),
    };
    let mut out = Vec::with_capacity(balls.len());
    for (id, mut state, own, at) in balls {
        state.set =
            (physics.add_ball_params(&own)).map_err(|why| r.bad(at, "(parameters)", why))?;
        out.push(Ball { id, state });
    }
    let balls = out;
    // pooltool's own rule for the strike (`get_next_stick_ball_collision`): at t = 0, no ball
    // with energy, V0 > 0.
    let at_rest = balls
        .iter()
        .all(|b| b.state.v == Vec3::zeros() && b.state.w == Vec3::zeros());
    let t0 = match tree.get("t") {
        None => 0.0,
        Some(v) => r.number(v, "t")?,
    };
    let simulated = tree
        .get("events")
        .and_then(Value::as_array)
        .is_some_and(|e| !e.is_empty());
    let strike = match tree.get("cue") {
        Some(cue) if at_rest && (t0 == 0.0 || simulated) => r.strike(cue, &balls)?,
        _ => None,
    };
    let setup = Setup {
        name: name.to_string(),
        physics,
        table: table.into(),
        balls,
        t_end,
        strike,
    };
    setup
        .validate()
        .map_err(|e| r.bad(e.field, e.value, e.why))?;
    Ok(Imported { setup, notes })
}

/// Reads fields of one file's tree, naming the file in every error.
struct Reader<'a> {
    path: &'a Path,
}

impl Reader<'_> {
    fn bad(
        &self,
        field: impl Into<String>,
        value: impl Into<String>,
        why: impl Into<String>,
    ) -> PooltoolError {
        PooltoolError::new(self.path, field, value, why)
    }

    fn get<'v>(&self, v: &'v Value, key: &str, at: &str) -> Result<&'v Value, PooltoolError> {
        v.get(key).ok_or_else(|| {
            self.bad(
                join(at, key),
                "(missing)",
                "required field is missing (is this a pooltool System file?)",
            )
        })
    }

    fn object<'v>(
        &self,
        v: &'v Value,
        at: &str,
    ) -> Result<&'v serde_json::Map<String, Value>, PooltoolError> {
        v.as_object()
            .ok_or_else(|| self.bad(at, short(v), "must be a table (an object)"))
    }

    fn number(&self, v: &Value, at: &str) -> Result<f64, PooltoolError> {
        match v.as_f64() {
            Some(x) if x.is_finite() => Ok(x),
            _ => Err(self.bad(at, short(v), "must be a finite number")),
        }
    }

    fn text<'v>(&self, v: &'v Value, key: &str, at: &str) -> Result<&'v str, PooltoolError> {
        let x = self.get(v, key, at)?;
        x.as_str()
            .ok_or_else(|| self.bad(join(at, key), short(x), "must be a string"))
    }

    fn vec3(&self, v: &Value, at: &str) -> Result<[f64; 3], PooltoolError> {
        match v.as_array() {
            Some(a) if a.len() == 3 => Ok([
                self.number(&a[0], at)?,
                self.number(&a[1], at)?,
                self.number(&a[2], at)?,
            ]),
            _ => Err(self.bad(at, short(v), "must be 3 numbers")),
        }
    }

    fn field_vec3(&self, v: &Value, key: &str, at: &str) -> Result<[f64; 3], PooltoolError> {
        self.vec3(self.get(v, key, at)?, &join(at, key))
    }

    fn field_number(&self, v: &Value, key: &str, at: &str) -> Result<f64, PooltoolError> {
        self.number(self.get(v, key, at)?, &join(at, key))
    }

    /// The table, in our frame and ids ([`cushion_id_from_pooltool`],
    /// [`pocket_id_from_pooltool`]), with what our export's `harness` entry adds (its name, size
    /// and the pockets without a depth of their own).
    fn table(&self, t: &Value, name: &str, harness: &Value) -> Result<Table, PooltoolError> {
        let tree_name = harness.get("table").and_then(Value::as_str);
        let segs = self.get(t, "cushion_segments", "table")?;
        let at = "table.cushion_segments.linear";
        let mut cushions = Vec::new();
        for (key, s) in self.object(self.get(segs, "linear", "table.cushion_segments")?, at)? {
            let here = format!("{at}.{key}");
            let id = cushion_id_from_pooltool(self.text(s, "id", &here)?);
            let (p1, p2) = (
                self.field_vec3(s, "p1", &here)?,
                self.field_vec3(s, "p2", &here)?,
            );
            if p1[2] != p2[2] {
                return Err(self.bad(
                    format!("{here}.p2"),
                    format!("{p2:?}"),
                    "p1 and p2 must have the same height (pooltool's rule)",
                ));
            }
            let direction = self.get(s, "direction", &here)?;
            let left = match direction.as_u64() {
                Some(d @ 0..=1) => played_on_their_left(p1, p2, d),
                Some(2) => {
                    return Err(self.bad(
                        format!("{here}.direction"),
                        "2",
                        "two-sided segments (CushionDirection.BOTH) are not supported: our \
                         cushions are played from one side; give two segments",
                    ))
                }
                _ => {
                    return Err(self.bad(
                        format!("{here}.direction"),
                        short(direction),
                        "must be 0 (SIDE1) or 1 (SIDE2)",
                    ))
                }
            };
            let (a, b) = (vector_in(p1), vector_in(p2));
            // The mirror turns pooltool's left into our right.
            let (a, b) = if left { (b, a) } else { (a, b) };
            cushions.push(Cushion {
                id,
                p1: [a.x, a.y],
                p2: [b.x, b.y],
                height: p1[2],
            });
        }
        let at = "table.cushion_segments.circular";
        let mut circular = Vec::new();
        if let Some(arcs) = segs.get("circular") {
            for (key, a) in self.object(arcs, at)? {
                let here = format!("{at}.{key}");
                let c = self.field_vec3(a, "center", &here)?;
                let center = vector_in(c);
                circular.push(CircularCushion {
                    id: cushion_id_from_pooltool(self.text(a, "id", &here)?),
                    center: [center.x, center.y],
                    radius: self.field_number(a, "radius", &here)?,
                    height: c[2],
                });
            }
        }
        let mut pockets = Vec::new();
        // Pockets whose depth our export filled in with pooltool's default (pooltool's ids).
        let no_depth: Vec<&str> = (harness.get("no_depth").and_then(Value::as_array))
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(ps) = t.get("pockets") {
            for (key, p) in self.object(ps, "table.pockets")? {
                let here = format!("table.pockets.{key}");
                let c = vector_in(self.field_vec3(p, "center", &here)?);
                let theirs = self.text(p, "id", &here)?;
                let id = pocket_id_from_pooltool(theirs);
                let depth = match p.get("depth") {
                    _ if no_depth.contains(&theirs) => None,
                    None => None,
                    Some(d) => Some(self.number(d, &format!("{here}.depth"))?),
                };
                let capture_line = match harness.get("capture_lines").and_then(|l| l.get(theirs)) {
                    None => None,
                    Some(line) => {
                        let at = format!("harness.capture_lines.{theirs}");
                        let point = |v: Option<&Value>| -> Result<[f64; 2], PooltoolError> {
                            let v = v.and_then(Value::as_array).filter(|a| a.len() == 2);
                            let v = v.ok_or_else(|| {
                                self.bad(&at, short(line), "must be [[x, y], [x, y]] (m)")
                            })?;
                            Ok([self.number(&v[0], &at)?, self.number(&v[1], &at)?])
                        };
                        let ends = line.as_array().filter(|a| a.len() == 2);
                        let ends = ends.ok_or_else(|| {
                            self.bad(&at, short(line), "must be [[x, y], [x, y]] (m)")
                        })?;
                        Some([point(ends.first())?, point(ends.get(1))?])
                    }
                };
                pockets.push(Pocket {
                    id,
                    center: [c.x, c.y],
                    radius: self.field_number(p, "radius", &here)?,
                    depth,
                    capture_line,
                });
            }
        }
        // Our export's length and width; else pooltool's Table.w and Table.l (its x and y
        // extents, from its rails 3, 12, 9, 18); else the segments' extent.
        let rail = |id: &str| segs["linear"].get(id);
        let size = (harness.get("length").and_then(Value::as_f64))
            .zip(harness.get("width").and_then(Value::as_f64));
        let (length, width) = match (rail("3"), rail("12"), rail("9"), rail("18")) {
            _ if size.is_some() => size.unwrap_or_default(),
            (Some(_), Some(_), Some(_), Some(_)) => {
                let x_of = |id: &str| {
                    let s = &segs["linear"][id]["p1"];
                    (s[0].as_f64().unwrap_or(0.0), s[1].as_f64().unwrap_or(0.0))
                };
                (x_of("9").1 - x_of("18").1, x_of("12").0 - x_of("3").0)
            }
            _ => {
                let xs = cushions.iter().flat_map(|c| [c.p1[0], c.p2[0]]);
                let ys = cushions.iter().flat_map(|c| [c.p1[1], c.p2[1]]);
                let extent = |it: &mut dyn Iterator<Item = f64>| {
                    let (lo, hi) = it.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                        (a.min(x), b.max(x))
                    });
                    hi - lo
                };
                (extent(&mut { xs }), extent(&mut { ys }))
            }
        };
        // Named as the file names it (our export), else the built-in it equals, else `name`.
        let given = tree_name.unwrap_or(name);
        let mut table = Table {
            name: given.to_string(),
            length,
            width,
            cushions,
            circular_cushions: circular,
            pockets,
        };
        for built_in in std::iter::once(given).chain(POOLTOOL_TABLES) {
            let named = Table {
                name: built_in.to_string(),
                ..table.clone()
            };
            if Table::by_name(built_in).is_some_and(|t| t == named) {
                table = named;
                break;
            }
        }
        table.validate().map_err(|e| match e {
            pool_physics::TableError::Invalid { field, value, why } => {
                self.bad(format!("table (ours: {field})"), value, why)
            }
        })?;
        Ok(table)
    }

    /// The balls in play (id, state in our frame with the motion state `motion` infers for the
    /// ball's own parameters, which must be pooltool's, those parameters and where they are),
    /// the shot's set of parameters (`harness.params`, which our export writes; else the set
    /// most balls in play have, the first of them on a tie) and notes on the balls left out.
    /// Balls may differ in every parameter but `g`, the table's in this harness.
    #[allow(clippy::type_complexity)]
    fn balls(
        &self,
        tree: &Value,
        motion: Motion,
        harness: &Value,
    ) -> Result<
        (
            Vec<(String, BallState, BallParams, String)>,
            BallParams,
            Vec<String>,
        ),
        PooltoolError,
    > {
        let simulated = tree
            .get("events")
            .and_then(Value::as_array)
            .is_some_and(|e| !e.is_empty());
        let mut out = Vec::new();
        let mut notes = Vec::new();
        let all = self.object(self.get(tree, "balls", "")?, "balls")?;
        for (key, b) in all {
            let here = format!("balls.{key}");
            let id = self.text(b, "id", &here)?.to_string();
            if id != *key {
                return Err(self.bad(
                    format!("{here}.id"),
                    format!("{id:?}"),
                    "must equal the ball's key (pooltool's rule)",
                ));
            }
            let params = match b.get("params") {
                Some(p) => self.params(p, &format!("{here}.params"))?,
                None => BallParams::pool(),
            };
            // A simulated system's balls are at their end: its first history state is the
            // shot's start.
            let first = if simulated { first_state(b) } else { None };
            let (state, at) = match &first {
                Some(s) => (s, format!("{here}.history (first state)")),
                None => (self.get(b, "state", &here)?, format!("{here}.state")),
            };
            let rvw = self.get(state, "rvw", &at)?;
            let rows = match rvw.as_array() {
                Some(rows) if rows.len() == 3 => rows,
                _ => return Err(self.bad(format!("{at}.rvw"), short(rvw), "must be 3 rows of 3")),
            };
            let rvw_at = format!("{at}.rvw");
            let (r, v, w) = (
                self.vec3(&rows[0], &rvw_at)?,
                self.vec3(&rows[1], &rvw_at)?,
                self.vec3(&rows[2], &rvw_at)?,
            );
            let s = self.get(state, "s", &at)?;
            // An integer (JSON), or a double (msgpack histories store s as float64).
            let code = (s.as_u64())
                .or_else(|| s.as_f64().filter(|x| x.fract() == 0.0).map(|x| x as u64))
                .filter(|c| *c <= 4)
                .ok_or_else(|| {
                    self.bad(
                        format!("{at}.s"),
                        short(s),
                        "must be a motion state code 0-4",
                    )
                })?;
            if code == 4 {
                notes.push(format!("ball {id:?} is pocketed: left out of the shot"));
                continue;
            }
            if r[2] != params.radius {
                return Err(self.bad(
                    rvw_at,
                    format!("{r:?}"),
                    format!(
                        "the center's z must be R = {} (a ball on the cloth)",
                        params.radius
                    ),
                ));
            }
            let (v, w) = (vector_in(v), spin_in(w));
            let inferred = motion.infer_motion(&params, &v, &w);
            let state = BallState::new(vector_in(r), v, w, params.radius);
            let state = BallState {
                motion: inferred,
                ..state
            };
            let theirs = [
                MotionState::Stationary,
                MotionState::Spinning,
                MotionState::Sliding,
                MotionState::Rolling,
            ][code as usize];
            if inferred != theirs {
                return Err(self.bad(
                    format!("{at}.s"),
                    code.to_string(),
                    format!(
                        "says {} but v and w make the ball {}",
                        theirs.name(),
                        inferred.name()
                    ),
                ));
            }
            out.push((id, state, params, format!("{here}.params")));
        }
        if out.is_empty() {
            return Err(self.bad("balls", "{}", "no ball in play"));
        }
        let shared = match harness.get("params") {
            Some(p) => self.params(p, "harness.params")?,
            None => {
                let count = |p: &BallParams| out.iter().filter(|b| b.2 == *p).count();
                let most = out.iter().map(|b| count(&b.2)).max().unwrap_or(0);
                out.iter()
                    .map(|b| b.2)
                    .find(|p| count(p) == most)
                    .unwrap_or_else(BallParams::pool)
            }
        };
        if let Some((id, _, p, at)) = out.iter().find(|b| b.2.g != shared.g) {
            return Err(self.bad(
                format!("{at}.g"),
                p.g.to_string(),
                format!(
                    "ball {id:?} has another gravity than the shot's ({} m/s^2): gravity is \
                     the table's here, the same for every ball",
                    shared.g
                ),
            ));
        }
        Ok((out, shared, notes))
    }

    /// pooltool's `BallParams` as ours (mu_sp = u_sp_proportionality R).
    fn params(&self, p: &Value, at: &str) -> Result<BallParams, PooltoolError> {
        let f = |k: &str| self.field_number(p, k, at);
        let radius = f("R")?;
        let params = BallParams {
            m: f("m")?,
            radius,
            mu_s: f("u_s")?,
            mu_r: f("u_r")?,
            mu_sp: f("u_sp_proportionality")? * radius,
            mu_b: f("u_b")?,
            e_b: f("e_b")?,
            e_c: f("e_c")?,
            f_c: f("f_c")?,
            g: f("g")?,
        };
        params
            .validate()
            .map_err(|why| self.bad(at, "(parameters)", why))?;
        Ok(params)
    }

    /// The cue's strike, if V0 > 0 (the caller checked pooltool's other conditions).
    fn strike(&self, cue: &Value, balls: &[Ball]) -> Result<Option<Strike>, PooltoolError> {
        let v0 = self.field_number(cue, "V0", "cue")?;
        if v0 <= 0.0 {
            return Ok(None);
        }
        let id = self.text(cue, "cue_ball_id", "cue")?;
        let Some(ball) = balls.iter().position(|b| b.id == id) else {
            return Err(self.bad(
                "cue.cue_ball_id",
                format!("{id:?}"),
                "no ball in play has this id",
            ));
        };
        let default = CueSpecs::default();
        let specs = cue.get("specs");
        let spec = |k: &str, d: f64| match specs.and_then(|s| s.get(k)) {
            Some(x) => self.number(x, &format!("cue.specs.{k}")),
            None => Ok(d),
        };
        let strike = Cue {
            v0,
            phi: angle_mirrored(self.field_number(cue, "phi", "cue")?),
            theta: self.field_number(cue, "theta", "cue")?,
            a: -self.field_number(cue, "a", "cue")?,
            b: self.field_number(cue, "b", "cue")?,
            specs: CueSpecs {
                mass: spec("M", default.mass)?,
                end_mass: spec("end_mass", default.end_mass)?,
            },
        };
        Ok(Some(Strike { ball, cue: strike }))
    }
}

/// A ball's first history state: pooltool's JSON lists the states (`history.states[0]`), its
/// msgpack stores them as three arrays (`history = [rvw (n x 3 x 3), s (n), t (n)]`).
fn first_state(ball: &Value) -> Option<Value> {
    let h = ball.get("history")?;
    if let Some(s) = h.pointer("/states/0") {
        return Some(s.clone());
    }
    let a = h.as_array()?;
    match &a[..] {
        [rvw, s, t] => Some(serde_json::json!({
            "rvw": rvw.get(0)?,
            "s": s.get(0)?,
            "t": t.get(0)?,
        })),
        _ => None,
    }
}

/// Whether the side of pooltool's segment p1 -> p2 that its `direction` plays (0: SIDE1, where
/// its line's l_x x + l_y y + l_0 is negative; 1: SIDE2, positive; the ball's center is put at
/// -R or +R |(l_x, l_y)| by its collision-time solver) is left of p1 -> p2, in its frame.
pub(crate) fn played_on_their_left(p1: [f64; 3], p2: [f64; 3], direction: u64) -> bool {
    let (dx, dy) = (p2[0] - p1[0], p2[1] - p1[1]);
    // pooltool's l_x, l_y (LinearCushionSegment.lx, .ly).
    let (lx, ly) = if dx == 0.0 {
        (1.0, 0.0)
    } else {
        (-(dy / dx), 1.0)
    };
    // How the line's expression changes one step to the left, (-dy, dx).
    let to_left = lx * -dy + ly * dx;
    (to_left > 0.0) == (direction == 1)
}

fn join(at: &str, key: &str) -> String {
    if at.is_empty() {
        key.to_string()
    } else {
        format!("{at}.{key}")
    }
}
