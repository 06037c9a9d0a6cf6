//! Rack models: where the object balls of a racked shot sit against one another.
//!
//! A shot file's rack (`data/shots/break_9ball.toml`, `break_15ball.toml`) is a perfect
//! triangular lattice whose neighbours are all exactly 2R + 1e-6 m apart. Such a lattice is a
//! singular set-up: its gaps are all equal, so its collisions come in ties and near-ties, and
//! a perturbation of a micrometre turns it into a different, irregular rack; the spread of
//! outcomes around it measures the lattice's degeneracy, not chaos. A [`RackModel`]
//! turns the file's lattice into the rack a study means: the lattice itself at a chosen gap
//! ([`RackModel::Lattice`], [`RackModel::LEGACY`] for today's racks bit for bit), every
//! neighbour touching ([`RackModel::Frozen`]), or a real rack whose balls sit at random within
//! a manufacturing-scale tolerance of their lattice places ([`RackModel::Jittered`],
//! [`DEFAULT_RACK`]). Sources for the scales: docs/physics.md, "Racks".

use std::fmt;
use std::str::FromStr;

use pool_physics::{MotionState, Physics, Vec2};

use crate::{Setup, SplitMix};

/// How the object balls of a rack are placed ([`RackModel::apply`]). Written and read as
/// `lattice:<gap>`, `frozen` or `jittered:<scale>` (lengths in m, e.g. `jittered:1.27e-4`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RackModel {
    /// The input's lattice scaled about its apex so that its closest neighbours are
    /// 2R + `gap_m` apart (m, >= 0); every other distance scales by the same factor.
    Lattice {
        /// Gap between the closest neighbours' surfaces (m).
        gap_m: f64,
    },
    /// The lattice at gap 0: every lattice neighbour touching (to rounding, about 1e-16 m;
    /// the event engine handles touching balls).
    Frozen,
    /// The lattice at gap `scale_m`, then each rack ball moved uniformly at random within a
    /// disc of radius `scale_m / 2` around its lattice place: neighbour gaps lie in
    /// [0, 2 `scale_m`] with mean about `scale_m`, all different, none zero.
    Jittered {
        /// Scale of the gaps (m, > 0): the lattice gap and twice the largest displacement.
        scale_m: f64,
    },
}

/// The rack model studies should use unless they say otherwise: [`RackModel::Jittered`] at
/// 1.27e-4 m, the WPA/BCA tolerance on a ball's diameter (2 1/4 in +- 0.005 in, +- 0.127 mm):
/// balls made to that tolerance do not freeze as a perfect lattice, and the gaps they leave are
/// of that order. The scale is a choice anchored on the tolerance, not a measured rack
/// (docs/physics.md, "Racks").
pub const DEFAULT_RACK: RackModel = RackModel::Jittered { scale_m: 1.27e-4 };

impl RackModel {
    /// The racks as the shot files have them: the lattice at 2R + 1e-6 m. Applied to the
    /// shipped racks it returns them unchanged, bit for bit.
    pub const LEGACY: RackModel = RackModel::Lattice { gap_m: 1e-6 };

    /// The largest gap or scale accepted (m): 5 cm, most of a ball's diameter; no rack of 9 or
    /// 15 balls spread that far fits its end of a table.
    pub const MAX_GAP_M: f64 = 0.05;

    /// Two lattice spacings closer than this (m) are the same: [`RackModel::apply`] of a
    /// `Lattice` whose spacing the input already has (to rounding) returns the input as it is.
    pub const SAME_SPACING_M: f64 = 1e-12;

    /// The gap between the closest neighbours of the lattice this model starts from (m).
    pub fn lattice_gap(&self) -> f64 {
        match *self {
            RackModel::Lattice { gap_m } => gap_m,
            RackModel::Frozen => 0.0,
            RackModel::Jittered { scale_m } => scale_m,
        }
    }

    /// Checks the model's length.
    ///
    /// # Errors
    /// One line naming the model and the value: a gap that is negative, NaN, infinite or
    /// larger than [`RackModel::MAX_GAP_M`]; a jittered scale that is not positive (`frozen` is
    /// the rack without gaps).
    pub fn validate(&self) -> Result<(), String> {
        self.problem()
            .map_or(Ok(()), |why| Err(format!("rack {self}: {why}")))
    }

    /// What is wrong with the model's length, if anything.
    fn problem(&self) -> Option<String> {
        let (what, x) = match *self {
            RackModel::Lattice { gap_m } => ("gap", gap_m),
            RackModel::Frozen => return None,
            RackModel::Jittered { scale_m } => ("scale", scale_m),
        };
        let jittered = matches!(self, RackModel::Jittered { .. });
        if (0.0..=Self::MAX_GAP_M).contains(&x) && !(jittered && x == 0.0) {
            return None;
        }
        let least = if jittered {
            "positive (jittered:0 is frozen)"
        } else {
            "at least 0"
        };
        Some(format!(
            "{what} {x:?} m must be finite, {least} and at most {:?} m",
            Self::MAX_GAP_M
        ))
    }

    /// `rack` with its rack placed by this model: the balls after the first (the first is the
    /// cue ball and is left as it is; so are pocketed balls) are the rack. Its apex is the rack
    /// ball nearest the cue ball, its spacing d0 the smallest center distance between two rack
    /// balls (2R + 1e-6 m in the shipped racks), and 2R that pair's contact distance
    /// ([`Physics::contact_distance`]). Every rack ball moves to apex + (p - apex) (2R + g) / d0
    /// with g the model's [`RackModel::lattice_gap`], so every pair keeps at least 2R + g; when
    /// |2R + g - d0| <= [`RackModel::SAME_SPACING_M`] the input is returned unchanged (so
    /// [`RackModel::LEGACY`] is the identity, bit for bit, on the shipped racks).
    /// `Jittered { scale_m }` then moves each rack ball, in file order, by a point drawn
    /// uniformly in the disc of radius `scale_m / 2` ([`SplitMix`] seeded by `seed`:
    /// deterministic). As every pair was at least 2R + `scale_m` apart and each ball moves by
    /// less than `scale_m / 2`, no two balls can overlap and no separation step is needed; the
    /// result is checked anyway (a contact distance that is not 2R for balls of unequal
    /// radii, and rounding, are caught there). Only positions change (x and y; z, velocities,
    /// spins, ids, the name and the strike are kept). `seed` is read by `Jittered` only.
    ///
    /// # Errors
    /// One line naming the model and the reason: an invalid model ([`RackModel::validate`]),
    /// fewer than two rack balls, two rack balls at one place, positions that are not finite,
    /// or a result that is not a valid
    /// set-up ([`Setup::validate`]: a ball pushed off the table, into a cushion, a pocket or
    /// the cue ball).
    pub fn apply(&self, rack: &Setup, seed: u64) -> Result<Setup, String> {
        self.validate()?;
        let fail = |why: String| format!("rack {self}: {why}");
        let idx: Vec<usize> = (1..rack.balls.len())
            .filter(|&i| rack.balls[i].state.motion != MotionState::Pocketed)
            .collect();
        if idx.len() < 2 {
            return Err(fail(format!(
                "needs at least two rack balls after the cue ball, the shot has {}",
                idx.len()
            )));
        }
        let at = |i: usize| rack.balls[i].state.r.xy();
        let cue = at(0);
        let apex = idx
            .iter()
            .map(|&i| at(i))
            .min_by(|a, b| (a - cue).norm().total_cmp(&(b - cue).norm()))
            .unwrap_or(cue);
        // The closest pair: its distance d0 and its contact distance (2R).
        let mut closest = (f64::INFINITY, 0.0);
        for (k, &i) in idx.iter().enumerate() {
            for &j in &idx[k + 1..] {
                let d = (at(i) - at(j)).norm();
                if d < closest.0 {
                    let touch = rack
                        .physics
                        .contact_distance(&rack.balls[i].state, &rack.balls[j].state);
                    closest = (d, touch);
                }
            }
        }
        let (d0, touch) = closest;
        if d0 == 0.0 {
            return Err(fail("two rack balls are at one place".into()));
        }
        if !d0.is_finite() {
            return Err(fail("the rack balls' positions are not finite".into()));
        }
        let spacing = touch + self.lattice_gap();
        let mut out = rack.clone();
        if (spacing - d0).abs() > Self::SAME_SPACING_M {
            let k = spacing / d0;
            for &i in &idx {
                let p = apex + (at(i) - apex) * k;
                out.balls[i].state.r.x = p.x;
                out.balls[i].state.r.y = p.y;
            }
        }
        if let RackModel::Jittered { scale_m } = *self {
            let mut rng = SplitMix::new(seed ^ 0x5EED_4ACC_0000_0001);
            for &i in &idx {
                let d = Self::jitter_draw(&mut rng, scale_m);
                out.balls[i].state.r.x += d.x;
                out.balls[i].state.r.y += d.y;
            }
            // No overlap can arise (see above); checked all the same, before `validate`'s
            // tolerance could let a small one through.
            for (k, &i) in idx.iter().enumerate() {
                for &j in &idx[k + 1..] {
                    let (a, b) = (&out.balls[i].state, &out.balls[j].state);
                    if (a.r.xy() - b.r.xy()).norm() < out.physics.contact_distance(a, b) {
                        return Err(fail(format!(
                            "balls {:?} and {:?} overlap after the jitter",
                            out.balls[i].id, out.balls[j].id
                        )));
                    }
                }
            }
        }
        out.validate().map_err(|e| fail(e.to_string()))?;
        Ok(out)
    }
}

impl RackModel {
    /// One ball's move under `Jittered { scale_m }`: a point drawn uniformly in the disc of
    /// radius `scale_m / 2` (m), two draws of `rng`.
    pub fn jitter_draw(rng: &mut SplitMix, scale_m: f64) -> Vec2 {
        let radius = 0.5 * scale_m * rng.unit().sqrt();
        let angle = std::f64::consts::TAU * rng.unit();
        Vec2::new(angle.cos(), angle.sin()) * radius
    }
}

impl fmt::Display for RackModel {
    /// `lattice:<gap>`, `frozen` or `jittered:<scale>`, numbers in Rust's shortest round-trip
    /// form (`{:?}`), so that [`RackModel::from_str`] reads back the same model.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RackModel::Lattice { gap_m } => write!(f, "lattice:{gap_m:?}"),
            RackModel::Frozen => write!(f, "frozen"),
            RackModel::Jittered { scale_m } => write!(f, "jittered:{scale_m:?}"),
        }
    }
}

impl FromStr for RackModel {
    type Err = String;

    /// Reads `lattice:<gap>`, `frozen` or `jittered:<scale>` (m) and validates it
    /// ([`RackModel::validate`]).
    ///
    /// # Errors
    /// One line naming the text: another form, a number that does not parse, or an invalid
    /// value.
    fn from_str(s: &str) -> Result<Self, String> {
        let number = |x: &str| {
            x.trim()
                .parse::<f64>()
                .map_err(|_| format!("{s:?}: {x:?} is not a number (a length in m, e.g. 1.27e-4)"))
        };
        let model = match s.trim().split_once(':') {
            None if s.trim() == "frozen" => RackModel::Frozen,
            Some(("lattice", gap)) => RackModel::Lattice {
                gap_m: number(gap)?,
            },
            Some(("jittered", scale)) => RackModel::Jittered {
                scale_m: number(scale)?,
            },
            _ => {
                return Err(format!(
                    "{s:?}: unknown rack model; expected lattice:<gap>, frozen or \
                     jittered:<scale> (m), e.g. {}",
                    DEFAULT_RACK
                ))
            }
        };
        match model.problem() {
            None => Ok(model),
            Some(why) => Err(format!("{s:?}: {why}")),
        }
    }
}
