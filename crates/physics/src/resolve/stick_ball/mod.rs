//! Cue strikes (pooltool's `stick_ball` event type): the cue ball's velocity and spin from the
//! stick's speed, aim, elevation and contact point. Adding a built-in law: a file with a struct
//! implementing [`Law`], [`BuiltIn`] and [`StickBallLaw`], and its line in `law_models!` below.

mod fastfiz;
mod instantaneous_point;

pub use fastfiz::FastFiz;
pub use instantaneous_point::{squirt_angle, tp_a30, InstantaneousPoint};

#[cfg(doc)]
use super::law::BuiltIn;
use super::law::{law_models, Law};
use crate::{BallParams, BallState, Vec3};

/// The cue stick's physical description (pooltool's `CueSpecs`, the fields a strike reads).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CueSpecs {
    /// Stick mass M (kg).
    pub mass: f64,
    /// Effective mass of the stick's end (kg), which sets the squirt (TP A-31).
    pub end_mass: f64,
}

impl Default for CueSpecs {
    /// pooltool 0.6.0's default cue: M = 0.567 kg, end mass 0.170097 / 30 kg.
    fn default() -> Self {
        CueSpecs {
            mass: 0.567,
            end_mass: 0.170097 / 30.0,
        }
    }
}

/// One stroke of the cue (pooltool's `Cue` state), in the table frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cue {
    /// Stick speed at impact V0 (m/s); not the ball's speed.
    pub v0: f64,
    /// Aim direction on the cloth (degrees, 0 = +x, counter-clockwise).
    pub phi: f64,
    /// Elevation of the stick above the cloth (degrees, 0 = level).
    pub theta: f64,
    /// Side offset of the contact point, in ball radii (-1..1, positive = left of center as
    /// the shooter sees it).
    pub a: f64,
    /// Vertical offset of the contact point, in ball radii (-1..1, positive = above center).
    pub b: f64,
    /// The stick.
    pub specs: CueSpecs,
}

impl Cue {
    /// Checks the stroke can be played: V0 positive and finite, theta in [0, 90) degrees,
    /// a^2 + b^2 < 1 (the contact point on the ball), phi finite, the stick's masses positive.
    /// The error names the field.
    pub fn validate(&self) -> Result<(), (&'static str, f64, &'static str)> {
        let checks: [(&str, f64, bool, &str); 7] = [
            (
                "V0",
                self.v0,
                self.v0 > 0.0 && self.v0.is_finite(),
                "must be a positive speed (m/s)",
            ),
            (
                "phi",
                self.phi,
                self.phi.is_finite(),
                "must be finite (degrees)",
            ),
            (
                "theta",
                self.theta,
                (0.0..90.0).contains(&self.theta),
                "must be in [0, 90) degrees",
            ),
            (
                "a",
                self.a,
                (-1.0..=1.0).contains(&self.a),
                "must be in [-1, 1] ball radii",
            ),
            (
                "b",
                self.b,
                self.a * self.a + self.b * self.b < 1.0,
                "a^2 + b^2 must be below 1: the tip must touch the ball",
            ),
            (
                "specs.M",
                self.specs.mass,
                self.specs.mass > 0.0 && self.specs.mass.is_finite(),
                "must be a positive mass (kg)",
            ),
            (
                "specs.end_mass",
                self.specs.end_mass,
                self.specs.end_mass > 0.0 && self.specs.end_mass.is_finite(),
                "must be a positive mass (kg)",
            ),
        ];
        match checks.into_iter().find(|c| !c.2) {
            Some((field, value, _, why)) => Err((field, value, why)),
            None => Ok(()),
        }
    }
}

/// One cue-strike law.
pub trait StickBallLaw: Law {
    /// The struck ball's new (v, w); `s` is the ball before (at rest or not), `p` its
    /// parameters.
    fn strike(&self, p: &BallParams, s: &BallState, cue: &Cue) -> (Vec3, Vec3);
}

law_models! { $
    /// The cue-strike law of a model.
    StickBallModel: dyn StickBallLaw, "stick_ball" {
        InstantaneousPoint(InstantaneousPoint),
        FastFiz(FastFiz),
    }
}

impl StickBallModel {
    /// See [`StickBallLaw::strike`].
    pub fn strike(&self, p: &BallParams, s: &BallState, cue: &Cue) -> (Vec3, Vec3) {
        each_law!(self, l => l.strike(p, s, cue))
    }
}
