//! Ball state and ball parameters.

use crate::hypot::hypot;
use serde::{Deserialize, Serialize};

use crate::{Vec3, SPEED_EPS};

/// Motion state of a ball (seed 004, Section I; pooltool's names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MotionState {
    /// At rest, no spin.
    Stationary,
    /// At rest, spinning about the vertical axis only (w_z != 0).
    Spinning,
    /// Moving with a non-zero relative velocity u at the cloth contact (kinetic friction mu_s).
    Sliding,
    /// Rolling without slipping (u = 0), decelerated by rolling resistance mu_r.
    Rolling,
    /// Captured by a pocket: out of play.
    Pocketed,
}

impl MotionState {
    /// The snake_case name used in files and reports.
    pub fn name(self) -> &'static str {
        match self {
            MotionState::Stationary => "stationary",
            MotionState::Spinning => "spinning",
            MotionState::Sliding => "sliding",
            MotionState::Rolling => "rolling",
            MotionState::Pocketed => "pocketed",
        }
    }

    /// True for sliding and rolling: the ball's center moves.
    pub fn is_translating(self) -> bool {
        matches!(self, MotionState::Sliding | MotionState::Rolling)
    }

    /// True for every state whose variables still change with time.
    pub fn is_moving(self) -> bool {
        matches!(
            self,
            MotionState::Sliding | MotionState::Rolling | MotionState::Spinning
        )
    }
}

/// The kinematic state of one ball: position r (m), velocity v (m/s), angular velocity w (rad/s),
/// all in the table frame, plus its motion state and which of its model's ball-parameter sets
/// it has.
///
/// The ball's center sits at z = R on the cloth; v_z and the z-component of r never change in the
/// table-bound models here.
///
/// Why the parameter set travels with the state: a ball's m, R and friction coefficients are
/// the ball's, like its position, so every [`crate::Physics`] method finds them from the state
/// alone ([`crate::Model::params_of`]) and an engine that moves states around (sorts them,
/// evolves them, hands them to a law) carries them without bookkeeping of its own.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BallState {
    /// Center position (m).
    pub r: Vec3,
    /// Center velocity (m/s).
    pub v: Vec3,
    /// Angular velocity (rad/s).
    pub w: Vec3,
    /// Motion state; must agree with v and w (see [`BallState::infer_motion`]).
    pub motion: MotionState,
    /// The ball's parameter set in its model ([`crate::Model::params_of`]): 0 is the shot's
    /// `[params]`, k >= 1 the model's k-th per-ball set ([`crate::Model::ball_sets`]). Balls
    /// whose parameters are the shot's all have 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub set: u16,
}

fn is_zero(set: &u16) -> bool {
    *set == 0
}

impl BallState {
    /// A state with the motion state inferred from v and w for a ball of radius `radius` (m),
    /// with the shot's parameter set (0).
    pub fn new(r: Vec3, v: Vec3, w: Vec3, radius: f64) -> Self {
        let motion = Self::infer_motion(&v, &w, radius);
        BallState {
            r,
            v,
            w,
            motion,
            set: 0,
        }
    }

    /// The same state with parameter set `set` (see [`BallState::set`]).
    pub fn with_set(self, set: u16) -> Self {
        BallState { set, ..self }
    }

    /// A state whose velocities agree exactly with its inferred motion state: below
    /// [`SPEED_EPS`] a ball is at rest (v = 0 and w_xy = 0, and w_z = 0 unless spinning); a
    /// rolling ball has u = 0 exactly (w_xy = k x v / R). Collision laws end with this, so no
    /// ball is ever left in a state its velocities contradict. Parameter set 0 (see
    /// [`BallState::with_set`]).
    pub fn settled(r: Vec3, v: Vec3, w: Vec3, radius: f64) -> Self {
        let motion = Self::infer_motion(&v, &w, radius);
        let (mut v, mut w) = (v, w);
        v.z = 0.0;
        match motion {
            MotionState::Stationary => {
                v = Vec3::zeros();
                w = Vec3::zeros();
            }
            MotionState::Spinning => {
                v = Vec3::zeros();
                w.x = 0.0;
                w.y = 0.0;
            }
            MotionState::Rolling => {
                w.x = -v.y / radius;
                w.y = v.x / radius;
            }
            MotionState::Sliding | MotionState::Pocketed => {}
        }
        BallState {
            r,
            v,
            w,
            motion,
            set: 0,
        }
    }

    /// Motion state implied by the velocities (pooltool's rule): zero v and zero u with w_z != 0
    /// is spinning; zero v, zero w is stationary; zero u is rolling; otherwise sliding.
    pub fn infer_motion(v: &Vec3, w: &Vec3, radius: f64) -> MotionState {
        let u = Self::contact_velocity_of(v, w, radius);
        let v_zero = hypot(v.x, v.y) < SPEED_EPS;
        let u_zero = hypot(u.x, u.y) < SPEED_EPS;
        if v_zero && u_zero {
            if (w.z * radius).abs() < SPEED_EPS {
                MotionState::Stationary
            } else {
                MotionState::Spinning
            }
        } else if u_zero {
            MotionState::Rolling
        } else {
            MotionState::Sliding
        }
    }

    /// Relative velocity of the ball's surface at the cloth contact, u = v + R k x w (m/s)
    /// (seed 004, Section I).
    pub fn contact_velocity(&self, radius: f64) -> Vec3 {
        Self::contact_velocity_of(&self.v, &self.w, radius)
    }

    fn contact_velocity_of(v: &Vec3, w: &Vec3, radius: f64) -> Vec3 {
        // k x w = (-w_y, w_x, 0)
        Vec3::new(v.x - radius * w.y, v.y + radius * w.x, 0.0)
    }

    /// True when every component is finite.
    pub fn is_finite(&self) -> bool {
        self.r
            .iter()
            .chain(self.v.iter())
            .chain(self.w.iter())
            .all(|x| x.is_finite())
    }
}

/// The distance (m) between the centers of two balls of radii `ra` and `rb` (m) on the cloth
/// when they touch: their centers, at heights `ra` and `rb`, are `ra + rb` apart in space, so
/// on the cloth sqrt((ra + rb)^2 - (ra - rb)^2) = 2 sqrt(ra rb) apart; `ra + rb` (= 2R exactly)
/// for equal balls. A snooker ball (R = 26.25 mm) touches a pool ball (28.575 mm) 0.049 mm
/// nearer than ra + rb on the cloth.
#[inline]
pub fn contact_distance(ra: f64, rb: f64) -> f64 {
    if ra == rb {
        ra + rb
    } else {
        2.0 * (ra * rb).sqrt()
    }
}

/// Ball and ball-cloth/ball-cushion parameters (SI). Defaults are pooltool 0.6.0's
/// (docs/physics.md, "Default parameters").
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BallParams {
    /// Mass m (kg).
    pub m: f64,
    /// Radius R (m).
    #[serde(rename = "R")]
    pub radius: f64,
    /// Sliding friction coefficient mu_s (dimensionless).
    pub mu_s: f64,
    /// Rolling resistance coefficient mu_r (dimensionless).
    pub mu_r: f64,
    /// Spinning friction coefficient mu_sp (dimensionless; pooltool: 0.444 R per metre of radius).
    pub mu_sp: f64,
    /// Ball-ball sliding friction coefficient mu_b (pooltool's `u_b`; read by the
    /// `frictional_inelastic` law with `friction = { model = "average" }`).
    pub mu_b: f64,
    /// Ball-ball restitution e_b (read by `frictional_inelastic` and `frictional_mathavan`).
    pub e_b: f64,
    /// Ball-cushion restitution e_c.
    pub e_c: f64,
    /// Ball-cushion friction f_c.
    pub f_c: f64,
    /// Gravitational acceleration g (m/s^2).
    pub g: f64,
}

impl Default for BallParams {
    fn default() -> Self {
        Self::pool()
    }
}

impl BallParams {
    /// Pool ball defaults (pooltool 0.6.0).
    pub fn pool() -> Self {
        BallParams {
            m: 0.170097,
            radius: 0.028575,
            mu_s: 0.2,
            mu_r: 0.01,
            mu_sp: 0.0127,
            mu_b: 0.05,
            e_b: 0.95,
            e_c: 0.85,
            f_c: 0.2,
            g: 9.81,
        }
    }

    /// Carom ball: pool defaults with m = 0.21 kg, R = 0.03075 m and mu_sp = 0.444 R.
    pub fn carom() -> Self {
        BallParams {
            m: 0.21,
            radius: 0.03075,
            mu_sp: 0.444 * 0.03075,
            ..Self::pool()
        }
    }

    /// Snooker ball, pooltool 0.6.0's `PrebuiltBallParams.SNOOKER_GENERIC`
    /// (pooltool/objects/ball/params.py, `BALL_PARAMS`), the ball `BallParams.default` gives
    /// `GameType.SNOOKER`: m = 0.140 kg, R = 0.02619375 m (2 1/16 in diameter), mu_s = 0.5,
    /// mu_r = 0.01, mu_sp = u_sp_proportionality R with u_sp_proportionality = 10 * 2 / 5 / 9
    /// (0.4444 per metre of radius; 0.0116417 here), f_c = 0.5, e_c = 0.85, g = 9.81 m/s^2, and
    /// pooltool's class defaults for what it does not set: mu_b = 0.05 (`u_b`), e_b = 0.95.
    pub fn snooker() -> Self {
        BallParams {
            m: 0.140,
            radius: 0.02619375,
            mu_s: 0.5,
            mu_r: 0.01,
            // pooltool's u_sp = u_sp_proportionality * R, evaluated in its order.
            mu_sp: 10.0 * 2.0 / 5.0 / 9.0 * 0.02619375,
            mu_b: 0.05,
            e_b: 0.95,
            e_c: 0.85,
            f_c: 0.5,
            g: 9.81,
        }
    }

    /// FastFiz's ball (FastFiz.h, P6-Pool/fastfiz 2c1c920): m = 0.16301 kg (`BALL_MASS`,
    /// 5.57 oz), R = 0.028575 m (`BALL_RADIUS`), mu_s = 0.2, mu_r = 0.015, mu_sp = 0.044
    /// (`Table::MU_SLIDING`, `MU_ROLLING`, `MU_SPINNING`), mu_b = 0.01 (`MU_BALL_BALL`),
    /// g = 9.81 m/s^2 (`Table::g`); the rest pool defaults, which FastFiz's laws do not read.
    pub fn fastfiz() -> Self {
        BallParams {
            m: 0.16301,
            radius: 0.028575,
            mu_s: 0.2,
            mu_r: 0.015,
            mu_sp: 0.044,
            mu_b: 0.01,
            g: 9.81,
            ..Self::pool()
        }
    }

    /// Every field's name as shot files write it, in declaration order.
    pub const NAMES: [&'static str; 10] = [
        "m", "R", "mu_s", "mu_r", "mu_sp", "mu_b", "e_b", "e_c", "f_c", "g",
    ];

    /// The fields a ball may have of its own (every one but `g`, the table's gravity), as shot
    /// files write them in `[[balls]]`.
    pub const PER_BALL: [&'static str; 9] = [
        "m", "R", "mu_s", "mu_r", "mu_sp", "mu_b", "e_b", "e_c", "f_c",
    ];

    /// The field named `name` (as in [`BallParams::NAMES`]), or `None`.
    pub fn field(&self, name: &str) -> Option<f64> {
        let mut copy = *self;
        copy.field_mut(name).map(|x| *x)
    }

    /// The field named `name` (as in [`BallParams::NAMES`]) to write, or `None`.
    pub fn field_mut(&mut self, name: &str) -> Option<&mut f64> {
        Some(match name {
            "m" => &mut self.m,
            "R" => &mut self.radius,
            "mu_s" => &mut self.mu_s,
            "mu_r" => &mut self.mu_r,
            "mu_sp" => &mut self.mu_sp,
            "mu_b" => &mut self.mu_b,
            "e_b" => &mut self.e_b,
            "e_c" => &mut self.e_c,
            "f_c" => &mut self.f_c,
            "g" => &mut self.g,
            _ => return None,
        })
    }

    /// Moment of inertia of a solid sphere, I = 2/5 m R^2 (kg m^2).
    pub fn inertia(&self) -> f64 {
        0.4 * self.m * self.radius * self.radius
    }

    /// The supported range of every field (inclusive, SI) and why it ends there: the engines'
    /// absolute tolerances (contact slop 2e-10 m, touching 1e-12 m, overlaps 1e-9 m) must stay
    /// far below R, and nothing may overflow or vanish in the laws' arithmetic.
    pub const RANGES: [(&'static str, f64, f64, &'static str); 10] = [
        ("m", 1e-4, 1e3, "kg"),
        (
            "R",
            1e-3,
            1.0,
            "m: the engines' contact tolerances (down to 2e-10 m) must stay far below R",
        ),
        ("mu_s", 0.0, 10.0, "(friction coefficient)"),
        ("mu_r", 0.0, 10.0, "(friction coefficient)"),
        ("mu_sp", 0.0, 10.0, "(friction coefficient)"),
        ("mu_b", 0.0, 10.0, "(friction coefficient)"),
        ("e_b", 0.0, 1.0, "(restitution: energy cannot rise)"),
        ("e_c", 0.0, 1.0, "(restitution: energy cannot rise)"),
        ("f_c", 0.0, 10.0, "(friction coefficient)"),
        ("g", 1e-3, 1e3, "m/s^2"),
    ];

    /// Checks every parameter is finite and in its supported range ([`BallParams::RANGES`]);
    /// the error starts with the field's name.
    pub fn validate(&self) -> Result<(), String> {
        for (name, lo, hi, unit) in Self::RANGES {
            let x = self.field(name).expect("every range names a field");
            if !(lo..=hi).contains(&x) {
                return Err(format!("{name} must be in [{lo}, {hi}] {unit}, got {x:?}"));
            }
        }
        Ok(())
    }
}
