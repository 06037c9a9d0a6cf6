//! From the raw file to a validated [`Setup`]: the physics, the ball parameters, the table, the
//! time limit and the balls, each checked with an error naming its field.

use std::collections::HashMap;

use pool_physics::resolve::{Cue, CueSpecs};
use pool_physics::{BallParams, BallState, Model, MotionState, Physics, Table, TableError, Vec3};
use pool_sim::{Ball, RackModel, Setup, Strike};
use toml::de::DeTable;
use toml::Spanned;

use crate::locate::{lookup, Doc};
use crate::raw::{RawBall, RawCue, RawParams, RawShot, TableSpec};
use crate::{physics, ShotError, FILE_STATES, PRESETS};

/// A parsed document being turned into a set-up.
pub(crate) struct Builder<'a> {
    pub doc: &'a Doc<'a>,
    pub root: &'a Spanned<DeTable<'a>>,
}

impl Builder<'_> {
    /// An error about `field` with `value` as shown and `message`.
    pub fn err(
        &self,
        field: impl Into<String>,
        value: impl Into<String>,
        message: impl Into<String>,
    ) -> ShotError {
        self.doc.err(field, value, message)
    }

    /// The value as written at `path`, or `fallback`.
    pub fn shown(&self, path: &str, fallback: &str) -> String {
        self.doc.written(self.root, path, || fallback.to_string())
    }

    fn finite(&self, path: &str, xs: &[f64]) -> Result<(), ShotError> {
        self.doc.finite(self.root, path, xs)
    }

    /// The set-up, or the first error with the line and column of the offending value appended
    /// when the field can be found in the document.
    pub fn build(&self, raw: RawShot, name: &str) -> Result<Setup, ShotError> {
        self.build_unlocated(raw, name).map_err(|mut e| {
            let path = e.field.split(' ').next().unwrap_or("");
            if let Some(span) = lookup(self.root, path) {
                let (l, c) = self.doc.line_col(span.start);
                e.message = format!("{} (line {l}, column {c})", e.message);
            }
            e
        })
    }

    fn build_unlocated(&self, raw: RawShot, name: &str) -> Result<Setup, ShotError> {
        if raw.description.trim().is_empty() {
            return Err(self.err(
                "description",
                self.shown("description", ""),
                "must say what the shot tests (empty)",
            ));
        }
        let (motion, resolver) = physics::choose(self, raw.model.as_deref(), raw.physics.as_ref())?;
        let mut model = self.model(raw.params.unwrap_or_default(), motion, resolver)?;
        let table = self.table(raw.table)?;
        if let Some(t) = raw.t_end {
            self.finite("t_end", &[t])?;
        } else if !model.motion().has_friction() {
            return Err(self.err(
                "t_end",
                "(missing)",
                "required with frictionless motion (model = \"ideal\"): frictionless balls \
                 never stop",
            ));
        }
        let balls = self.balls(&raw.balls, &mut model)?;
        let strike = match &raw.cue {
            None => None,
            Some(cue) => Some(self.strike(cue, &raw.balls)?),
        };
        let setup = Setup {
            name: name.to_string(),
            physics: model,
            table: table.into(),
            balls,
            t_end: raw.t_end,
            strike,
        };
        setup
            .validate()
            .map_err(|e| self.err(e.field, e.value, e.why))?;
        self.racked(setup, raw.rack.as_deref(), raw.rack_seed)
    }

    /// The set-up with its balls after the first placed by the `rack` model (seeded by
    /// `rack_seed`, default 0), or as it is without `rack`.
    fn racked(
        &self,
        setup: Setup,
        rack: Option<&str>,
        seed: Option<u64>,
    ) -> Result<Setup, ShotError> {
        let Some(text) = rack else {
            return match seed {
                None => Ok(setup),
                Some(s) => Err(self.err(
                    "rack_seed",
                    self.shown("rack_seed", &s.to_string()),
                    "only with a `rack` model (the seed of a jittered rack)",
                )),
            };
        };
        let shown = || self.shown("rack", &format!("{text:?}"));
        let model: RackModel = text.parse().map_err(|e| self.err("rack", shown(), e))?;
        model
            .apply(&setup, seed.unwrap_or(0))
            .map_err(|e| self.err("rack", shown(), e))
    }

    /// The model: the chosen motion and laws with the ball parameters of `[params]` (a preset,
    /// then field overrides). A field given that nothing reads is an error.
    fn model(
        &self,
        rp: RawParams,
        motion: pool_physics::Motion,
        resolver: pool_physics::resolve::Resolver,
    ) -> Result<Model, ShotError> {
        let mut params = match rp.preset.as_deref() {
            // FastFiz's equations of motion come with FastFiz's balls unless told otherwise.
            None if motion == pool_physics::Motion::FastFiz => BallParams::fastfiz(),
            None | Some("pool") => BallParams::pool(),
            Some("fastfiz") => BallParams::fastfiz(),
            Some("carom") => BallParams::carom(),
            Some("snooker") => BallParams::snooker(),
            Some(other) => {
                return Err(self.err(
                    "params.preset",
                    self.shown("params.preset", other),
                    format!("unknown preset; valid presets: {}", PRESETS.join(", ")),
                ))
            }
        };
        let given = rp.given();
        for (key, value) in given {
            if let (Some(x), Some(slot)) = (value, params.field_mut(key)) {
                self.finite(&format!("params.{key}"), &[x])?;
                *slot = x;
            }
        }
        let model = Model::new(params, motion, resolver);
        let reads = model.ball_params();
        if let Some((key, Some(x))) = given
            .into_iter()
            .find(|(k, v)| v.is_some() && !reads.contains(k))
        {
            let path = format!("params.{key}");
            return Err(self.err(
                &path,
                self.shown(&path, &x.to_string()),
                format!(
                    "not read by this shot's physics ({}); it reads {}",
                    physics::describe(&model),
                    reads.join(", ")
                ),
            ));
        }
        if let Err(why) = params.validate() {
            let key = why.split_whitespace().next().unwrap_or("").to_string();
            let value = params.field(&key).map_or("?".into(), |x| format!("{x:?}"));
            let path = format!("params.{key}");
            return Err(self.err(&path, self.shown(&path, &value), why));
        }
        Ok(model)
    }

    /// `[cue]`: the struck ball by id (given at rest: the strike sets its v and w) and the stroke;
    /// its ranges are checked with the set-up ([`Setup::validate`]).
    fn strike(&self, cue: &RawCue, balls: &[RawBall]) -> Result<Strike, ShotError> {
        for (path, x) in [
            ("cue.V0", Some(cue.v0)),
            ("cue.phi", Some(cue.phi)),
            ("cue.theta", cue.theta),
            ("cue.a", cue.a),
            ("cue.b", cue.b),
        ] {
            if let Some(x) = x {
                self.finite(path, &[x])?;
            }
        }
        // An angle is a turn or less: beyond, the float's precision is the direction.
        if !(-360.0..=360.0).contains(&cue.phi) {
            return Err(self.err(
                "cue.phi",
                self.shown("cue.phi", &format!("{:?}", cue.phi)),
                "an angle in [-360, 360] degrees",
            ));
        }
        let Some(ball) = balls.iter().position(|b| b.id == cue.ball) else {
            let ids: Vec<&str> = balls.iter().map(|b| b.id.as_str()).take(20).collect();
            return Err(self.err(
                "cue.ball",
                self.shown("cue.ball", &format!("{:?}", cue.ball)),
                format!("no ball has this id; ids: {}", ids.join(", ")),
            ));
        };
        if balls[ball].v.is_some() || balls[ball].w.is_some() {
            return Err(self.err(
                format!("balls[{ball}].v"),
                self.shown(&format!("balls[{ball}].v"), "(given)"),
                "the struck ball's v and w come from [cue]: give one or the other",
            ));
        }
        let default = CueSpecs::default();
        let specs = cue.specs.as_ref();
        Ok(Strike {
            ball,
            cue: Cue {
                v0: cue.v0,
                phi: cue.phi,
                theta: cue.theta.unwrap_or(0.0),
                a: cue.a.unwrap_or(0.0),
                b: cue.b.unwrap_or(0.0),
                specs: CueSpecs {
                    mass: specs.and_then(|s| s.mass).unwrap_or(default.mass),
                    end_mass: specs.and_then(|s| s.end_mass).unwrap_or(default.end_mass),
                },
            },
        })
    }

    /// A built-in table by name, or the explicit `[table]`, validated.
    fn table(&self, spec: TableSpec) -> Result<Table, ShotError> {
        match spec {
            TableSpec::Name(n) => Table::by_name(&n).ok_or_else(|| {
                self.err(
                    "table",
                    self.shown("table", &n),
                    "unknown table name; valid names: seven_foot, carom, rectangle_LxW \
                     (L and W positive lengths in m, e.g. rectangle_2.0x1.0), \
                     pooltool_pocket, pooltool_snooker, pooltool_billiard, \
                     or an explicit [table]",
                )
            }),
            TableSpec::Explicit(t) => {
                self.finite("table.length", &[t.length])?;
                self.finite("table.width", &[t.width])?;
                for (i, c) in t.cushions.iter().enumerate() {
                    self.finite(&format!("table.cushions[{i}].p1"), &c.p1)?;
                    self.finite(&format!("table.cushions[{i}].p2"), &c.p2)?;
                    self.finite(&format!("table.cushions[{i}].height"), &[c.height])?;
                }
                for (i, c) in t.circular_cushions.iter().enumerate() {
                    let path = |k: &str| format!("table.circular_cushions[{i}].{k}");
                    self.finite(&path("center"), &c.center)?;
                    self.finite(&path("radius"), &[c.radius])?;
                    self.finite(&path("height"), &[c.height])?;
                }
                for (i, p) in t.pockets.iter().enumerate() {
                    self.finite(&format!("table.pockets[{i}].center"), &p.center)?;
                    self.finite(&format!("table.pockets[{i}].radius"), &[p.radius])?;
                    if let Some(d) = p.depth {
                        self.finite(&format!("table.pockets[{i}].depth"), &[d])?;
                    }
                }
                let lists: [(&str, Vec<&String>); 3] = [
                    ("cushions", t.cushions.iter().map(|c| &c.id).collect()),
                    (
                        "circular_cushions",
                        t.circular_cushions.iter().map(|c| &c.id).collect(),
                    ),
                    ("pockets", t.pockets.iter().map(|p| &p.id).collect()),
                ];
                for (list, ids) in lists {
                    if let Some((i, id)) =
                        (ids.iter().enumerate()).find(|(_, id)| id.len() > crate::MAX_ID_BYTES)
                    {
                        return Err(self.err(
                            format!("table.{list}[{i}].id"),
                            format!("{id:?}"),
                            format!(
                                "an id of {} bytes: ids are at most {} bytes",
                                id.len(),
                                crate::MAX_ID_BYTES
                            ),
                        ));
                    }
                }
                if let Err(TableError::Invalid { field, value, why }) = t.validate() {
                    return Err(self.err(format!("table.{field}"), value, why));
                }
                Ok(t)
            }
        }
    }

    /// The balls, each with unique non-empty id, its own parameters if it has any (a set of
    /// `model`'s), r, v, w and a motion state.
    fn balls(&self, raw: &[RawBall], model: &mut Model) -> Result<Vec<Ball>, ShotError> {
        if raw.is_empty() {
            return Err(self.err("balls", "[]", "a shot needs at least one ball"));
        }
        let mut seen: HashMap<&str, usize> = HashMap::with_capacity(raw.len());
        let mut balls = Vec::with_capacity(raw.len());
        for (i, b) in raw.iter().enumerate() {
            let path = |k: &str| format!("balls[{i}].{k}");
            if b.id.is_empty() {
                return Err(self.err(path("id"), "\"\"", "ball ids must be non-empty"));
            }
            if let Some(why) = pool_physics::id_problem(&b.id) {
                return Err(self.err(path("id"), format!("{:?}", b.id), why));
            }
            if b.id.len() > crate::MAX_ID_BYTES {
                return Err(self.err(
                    path("id"),
                    format!("{:?}", b.id),
                    format!(
                        "an id of {} bytes: ids are at most {} bytes (every event and row \
                         carries them)",
                        b.id.len(),
                        crate::MAX_ID_BYTES
                    ),
                ));
            }
            if let Some(j) = seen.insert(b.id.as_str(), i) {
                return Err(self.err(
                    path("id"),
                    self.shown(&path("id"), &format!("{:?}", b.id)),
                    format!("duplicate ball id: balls[{j}] has the same id"),
                ));
            }
            let set = self.ball_params(i, b, model)?;
            let radius = model.set_params(set).map_or(f64::NAN, |p| p.radius);
            let r = self.position(&path("r"), &b.r, radius)?;
            let v = self.velocity(&path("v"), b.v.as_deref())?;
            let w = self.spin(&path("w"), b.w.as_deref())?;
            let mut state = BallState::new(r, v, w, radius).with_set(set);
            state.motion = model.infer_motion(&state);
            if let Some(s) = b.state.as_deref() {
                self.state(&path("state"), s, state.motion, model)?;
            }
            balls.push(Ball {
                id: b.id.clone(),
                state,
            });
        }
        Ok(balls)
    }

    /// Ball `i`'s own parameters (`[[balls]]` keys of [`BallParams::PER_BALL`]) as a set of
    /// `model` ([`Model::add_ball_params`]; 0 when it gives none, or only the shot's values).
    /// Each must be finite, read by the physics and in its range; `g` is the table's.
    fn ball_params(&self, i: usize, b: &RawBall, model: &mut Model) -> Result<u16, ShotError> {
        let given = b.given();
        if given.iter().all(|(_, x)| x.is_none()) {
            return Ok(0);
        }
        let path = |k: &str| format!("balls[{i}].{k}");
        let reads: Vec<&str> = (model.ball_params().into_iter())
            .filter(|k| *k != "g")
            .collect();
        let mut own = *model.params();
        for (key, value) in given {
            let Some(x) = value else { continue };
            let at = path(key);
            self.finite(&at, &[x])?;
            if key == "g" {
                return Err(self.err(
                    &at,
                    self.shown(&at, &x.to_string()),
                    "gravity is the table's, the same for every ball: give it in [params]",
                ));
            }
            if !reads.contains(&key) {
                return Err(self.err(
                    &at,
                    self.shown(&at, &x.to_string()),
                    format!(
                        "not read by this shot's physics ({}); it reads {}",
                        physics::describe(model),
                        reads.join(", ")
                    ),
                ));
            }
            if let Some(slot) = own.field_mut(key) {
                *slot = x;
            }
        }
        if let Err(why) = own.validate() {
            let key = why.split_whitespace().next().unwrap_or("").to_string();
            let value = own.field(&key).map_or("?".into(), |x| format!("{x:?}"));
            let at = path(&key);
            return Err(self.err(&at, self.shown(&at, &value), why));
        }
        model
            .add_ball_params(&own)
            .map_err(|why| self.err(path("id"), format!("{:?}", b.id), why))
    }

    /// `r`: [x, y] (z = R implied) or [x, y, z] with z == R.
    fn position(&self, path: &str, r: &[f64], radius: f64) -> Result<Vec3, ShotError> {
        self.finite(path, r)?;
        let shown = || self.shown(path, &format!("{r:?}"));
        match r {
            [x, y] => Ok(Vec3::new(*x, *y, radius)),
            [x, y, z] if *z == radius => Ok(Vec3::new(*x, *y, *z)),
            [_, _, _] => Err(self.err(
                path,
                shown(),
                format!(
                    "z must equal the ball radius R = {radius:?} m (balls rest on the cloth); \
                     omit z to imply it"
                ),
            )),
            _ => Err(self.err(
                path,
                shown(),
                format!(
                    "expected 2 components [x, y] or 3 [x, y, z] (m), got {}",
                    r.len()
                ),
            )),
        }
    }

    /// `v`: [vx, vy] or [vx, vy, 0]; zero when omitted.
    fn velocity(&self, path: &str, v: Option<&[f64]>) -> Result<Vec3, ShotError> {
        let Some(v) = v else {
            return Ok(Vec3::zeros());
        };
        self.finite(path, v)?;
        match v {
            [x, y] => Ok(Vec3::new(*x, *y, 0.0)),
            [x, y, z] if *z == 0.0 => Ok(Vec3::new(*x, *y, 0.0)),
            [_, _, _] => Err(self.err(
                path,
                self.shown(path, &format!("{v:?}")),
                "vz must be 0: balls stay on the cloth",
            )),
            _ => Err(self.err(
                path,
                self.shown(path, &format!("{v:?}")),
                format!(
                    "expected 2 components [vx, vy] or 3 [vx, vy, 0] (m/s), got {}",
                    v.len()
                ),
            )),
        }
    }

    /// `w`: [wx, wy, wz]; zero when omitted.
    fn spin(&self, path: &str, w: Option<&[f64]>) -> Result<Vec3, ShotError> {
        let Some(w) = w else {
            return Ok(Vec3::zeros());
        };
        self.finite(path, w)?;
        match w {
            [x, y, z] => Ok(Vec3::new(*x, *y, *z)),
            _ => Err(self.err(
                path,
                self.shown(path, &format!("{w:?}")),
                format!(
                    "expected 3 components [wx, wy, wz] (rad/s), got {}",
                    w.len()
                ),
            )),
        }
    }

    /// A `state` given in the file must be a file state and agree with the velocities.
    fn state(
        &self,
        path: &str,
        s: &str,
        inferred: MotionState,
        model: &Model,
    ) -> Result<(), ShotError> {
        let shown = || self.shown(path, &format!("{s:?}"));
        let given = match s {
            "stationary" => MotionState::Stationary,
            "spinning" => MotionState::Spinning,
            "sliding" => MotionState::Sliding,
            "rolling" => MotionState::Rolling,
            "pocketed" => {
                return Err(self.err(
                    path,
                    shown(),
                    "pocketed balls are not allowed in shot files",
                ))
            }
            _ => {
                return Err(self.err(
                    path,
                    shown(),
                    format!("unknown state; valid states: {}", FILE_STATES.join(", ")),
                ))
            }
        };
        if given != inferred {
            return Err(self.err(
                path,
                shown(),
                format!(
                    "contradicts the velocities, which make the ball {} under {} \
                     (omit state to infer it)",
                    inferred.name(),
                    physics::describe(model)
                ),
            ));
        }
        Ok(())
    }
}
