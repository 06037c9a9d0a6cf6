//! `instantaneous_point`: an instantaneous, point-like stick–ball impact (D. G. Alciatore,
//! technical proof TP A-30 "cue ball speed and spin from stick speed and tip offset", with the
//! squirt of TP A-31; pooltool's `InstantaneousPoint`).

use super::{Cue, StickBallLaw};
use crate::resolve::law::BuiltIn;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec3};

/// TP A-30: the stick (mass M, speed V0, elevation theta) hits the ball (mass m, radius R,
/// I = 2/5 m R^2) at the surface point Q; the ball leaves at
/// v = 2 V0 / (1 + m/M + |Q_perp|^2 / (I/m)) along the stick's horizontal direction, with
/// w = v / (I/m) (Q x stick direction), where Q_perp is Q's component across the stick. Q is
/// the point (a, sqrt(1 - a^2 - b^2), b) R of the stick's frame turned by theta into the
/// ball's. Then (TP A-31) the squirt turns v by -atan(5/2 a sqrt(1 - a^2) / (1 + m/m_e + 5/2
/// (1 - a^2))) (m_e: the stick's end mass), scaled by `squirt_throttle`, and the spin is
/// scaled by `english_throttle` (pooltool's parameters, default 1). Vertical velocity is not
/// kept (the ball stays on the cloth). Reads the ball's `m` and `R`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InstantaneousPoint {
    /// Spin scale (1: the model's).
    pub english_throttle: f64,
    /// Squirt scale (1: TP A-31's; 0: none).
    pub squirt_throttle: f64,
}

impl Default for InstantaneousPoint {
    fn default() -> Self {
        InstantaneousPoint {
            english_throttle: 1.0,
            squirt_throttle: 1.0,
        }
    }
}

impl BuiltIn for InstantaneousPoint {
    const NAME: &'static str = "instantaneous_point";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["english_throttle", "squirt_throttle"])?;
        let throttle = |key: &str| {
            let x = spec.number_or(key, 1.0)?;
            if x >= 0.0 {
                Ok(x)
            } else {
                Err(LawError {
                    param: key.to_string(),
                    value: x.to_string(),
                    why: "must not be negative".into(),
                })
            }
        };
        Ok(InstantaneousPoint {
            english_throttle: throttle("english_throttle")?,
            squirt_throttle: throttle("squirt_throttle")?,
        })
    }
}

impl Law for InstantaneousPoint {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        vec![
            (
                "english_throttle".into(),
                Param::Number(self.english_throttle),
            ),
            (
                "squirt_throttle".into(),
                Param::Number(self.squirt_throttle),
            ),
        ]
    }
}

impl StickBallLaw for InstantaneousPoint {
    fn strike(&self, p: &BallParams, _s: &BallState, cue: &Cue) -> (Vec3, Vec3) {
        let (v, w) = tp_a30(p, cue);
        let alpha = squirt_angle(p.m, cue.specs.end_mass, cue.a, self.squirt_throttle);
        let (c, s) = (alpha.cos(), alpha.sin());
        let v = Vec3::new(c * v.x - s * v.y, s * v.x + c * v.y, 0.0);
        (v, w * self.english_throttle)
    }
}

/// TP A-30's ball velocity and spin (before squirt), in the table frame.
pub fn tp_a30(p: &BallParams, cue: &Cue) -> (Vec3, Vec3) {
    let (m, big_m, r) = (p.m, cue.specs.mass, p.radius);
    let (phi, theta) = (cue.phi.to_radians(), cue.theta.to_radians());
    let (st, ct) = (theta.sin(), theta.cos());
    // The contact point in the ball's frame (x across the stick, y along it backwards, z up),
    // from the stick's frame turned by theta about x.
    let c_cue = (1.0 - cue.a * cue.a - cue.b * cue.b).sqrt();
    let (qa, qc, qb) = (
        cue.a * r,
        (ct * c_cue - st * cue.b) * r,
        (st * c_cue + ct * cue.b) * r,
    );
    let i_m = 0.4 * r * r;
    let across = qa * qa + (qb * ct) * (qb * ct) + (qc * st) * (qc * st) - 2.0 * qb * qc * ct * st;
    let speed = 2.0 * cue.v0 / (1.0 + m / big_m + across / i_m);
    // In the ball's frame the stick drives along -y; turned by phi + 90 degrees to the table.
    let v_ball = Vec3::new(0.0, -speed * ct, 0.0);
    let w_ball = Vec3::new(-qc * st + qb * ct, qa * st, -qa * ct) * (speed / i_m);
    let turn = phi + std::f64::consts::FRAC_PI_2;
    let (c, s) = (turn.cos(), turn.sin());
    let rotate = |u: Vec3| Vec3::new(c * u.x - s * u.y, s * u.x + c * u.y, u.z);
    (rotate(v_ball), rotate(w_ball))
}

/// TP A-31's squirt angle (radians, positive to the left) for a ball of mass `m_b`, a stick end
/// of mass `m_e`, side offset `a` (ball radii), scaled by `throttle`.
pub fn squirt_angle(m_b: f64, m_e: f64, a: f64, throttle: f64) -> f64 {
    let inside = 1.0 - a * a;
    let num = 2.5 * a * inside.sqrt();
    let den = 1.0 + m_b / m_e + 2.5 * inside;
    -throttle * num.atan2(den)
}
