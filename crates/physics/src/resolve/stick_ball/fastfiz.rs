//! `fastfiz`: FastFiz's cue strike (P6-Pool/fastfiz 2c1c920, FastFiz.cpp
//! `CueStrikeEvent::doHandle`): Leckie & Greenspan (2006), equations (1)-(3), with PoolFiz's
//! constants.

use super::{Cue, StickBallLaw};
use crate::resolve::law::BuiltIn;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec3};

/// Leckie & Greenspan's strike as FastFiz computes it. With the contact offsets a = `cue.a` R
/// (side, positive left as in [`Cue`]), b = `cue.b` R (height), c = sqrt(R^2 - a^2 - b^2),
/// elevation theta and stick speed V, the force is (equation 1)
///
/// F = 2 m V / (1 + m / M + c1 5 / (2 R^2) (a^2 + b^2 cos^2 theta + c^2 sin^2 theta
///     - 2 b c cos theta sin theta)),
///
/// the ball leaves along the aim at F cos theta / m (equation 2: no jump) and spins with
/// (equation 3) w = (-c F sin theta + b F cos theta, a F sin theta, -a F cos theta) / I in the
/// frame (left of the aim, against the aim, up). FastFiz's constants: M = `cue_mass` (its
/// `Table::CUE_MASS`, 600 g), c1 = 0.999425 ("correctional constant to match poolfiz") and
/// I = 2/5 `inertia_mass` R^2 with `inertia_mass` = 0.160 * 0.995473 kg (`Table::I`, "to match
/// poolfiz"), while m is the ball's own mass (163.01 g in the `fastfiz` preset): the spin is
/// 2.3 % larger than a ball of mass m would take. The corrections: `c1 = 1` and
/// `inertia_mass` = m. No squirt. a, b are offsets on the ball as L&G write them, not turned
/// with the cue's elevation (pooltool's `instantaneous_point` turns them). Reads `m`, `R`;
/// SI units (kg, m, m/s, rad/s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastFiz {
    /// Stick mass M (kg): FastFiz's 0.6; the shot's cue mass is not read.
    pub cue_mass: f64,
    /// L&G's denominator correction c1 (FastFiz: 0.999425; 1 is the equation's).
    pub c1: f64,
    /// The mass (kg) of the ball's moment of inertia I = 2/5 inertia_mass R^2 (FastFiz:
    /// 0.160 * 0.995473).
    pub inertia_mass: f64,
}

impl Default for FastFiz {
    fn default() -> Self {
        FastFiz {
            cue_mass: 0.6,
            c1: 0.999425,
            inertia_mass: 0.160 * 0.995473,
        }
    }
}

impl BuiltIn for FastFiz {
    const NAME: &'static str = "fastfiz";

    /// The law from its spec: `cue_mass` (kg), `c1`, `inertia_mass` (kg), each positive.
    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["cue_mass", "c1", "inertia_mass"])?;
        let d = FastFiz::default();
        Ok(FastFiz {
            cue_mass: spec.positive_or("cue_mass", d.cue_mass)?,
            c1: spec.positive_or("c1", d.c1)?,
            inertia_mass: spec.positive_or("inertia_mass", d.inertia_mass)?,
        })
    }
}

impl Law for FastFiz {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        vec![
            ("cue_mass".into(), Param::Number(self.cue_mass)),
            ("c1".into(), Param::Number(self.c1)),
            ("inertia_mass".into(), Param::Number(self.inertia_mass)),
        ]
    }
}

impl StickBallLaw for FastFiz {
    fn strike(&self, p: &BallParams, _s: &BallState, cue: &Cue) -> (Vec3, Vec3) {
        let (m, r) = (p.m, p.radius);
        let (a, b) = (cue.a * r, cue.b * r);
        let c = (r * r - a * a - b * b).max(0.0).sqrt();
        let theta = cue.theta.to_radians();
        let (st, ct) = (theta.sin(), theta.cos());
        let across = a * a + b * b * ct * ct + c * c * st * st - 2.0 * b * c * ct * st;
        let force =
            2.0 * m * cue.v0 / (1.0 + m / self.cue_mass + self.c1 * (5.0 / (2.0 * r * r)) * across);
        let inertia = 0.4 * self.inertia_mass * r * r;
        let v_ball = Vec3::new(0.0, -force * ct / m, 0.0);
        let w_ball = Vec3::new(
            -c * force * st + b * force * ct,
            a * force * st,
            -a * force * ct,
        ) * (1.0 / inertia);
        // The ball's frame (x left of the aim, y against it) turned to the table's.
        let turn = cue.phi.to_radians() + std::f64::consts::FRAC_PI_2;
        let (cs, sn) = (turn.cos(), turn.sin());
        let rotate = |u: Vec3| Vec3::new(cs * u.x - sn * u.y, sn * u.x + cs * u.y, u.z);
        (rotate(v_ball), rotate(w_ball))
    }
}
