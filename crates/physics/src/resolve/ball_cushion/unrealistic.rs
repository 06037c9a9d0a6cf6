//! `unrealistic`: mirror reflection off a cushion (seed 002; pooltool's `UnrealisticLinear` /
//! `UnrealisticCircular`), spin untouched.

use super::{BallCushionLaw, Velocities};
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::{BuiltIn, Law};
use crate::{BallParams, BallState, Vec2, Vec3};

/// The velocity component along the contact normal is reversed (and scaled by the balls'
/// `e_c` when `restitution` is true, pooltool's parameter, default false); everything else,
/// spin included, is kept.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Unrealistic {
    /// Damp the reversed normal component by the ball-cushion restitution e_c.
    pub restitution: bool,
}

impl BuiltIn for Unrealistic {
    const NAME: &'static str = "unrealistic";

    /// The law from its spec: `restitution` (bool, default false).
    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["restitution"])?;
        Ok(Unrealistic {
            restitution: spec.bool_or("restitution", false)?,
        })
    }
}

impl Law for Unrealistic {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        vec![("restitution".into(), Param::Bool(self.restitution))]
    }

    fn ball_params(&self) -> &'static [&'static str] {
        if self.restitution {
            &["e_c"]
        } else {
            &[]
        }
    }
}

impl BallCushionLaw for Unrealistic {
    /// A mirror needs no contact geometry: any height.
    fn check_height(&self, _height: f64, _radius: f64) -> Result<(), String> {
        Ok(())
    }

    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, _height: f64) -> Velocities {
        let e = if self.restitution { p.e_c } else { 1.0 };
        (reflect(&s.v, normal, e), s.w)
    }
}

/// Mirror reflection off a frictionless cushion (seed 002): the normal velocity component is
/// reversed, everything else kept. `normal` is a unit vector on the cloth.
pub fn mirror_cushion(v: &Vec3, normal: Vec2) -> Vec3 {
    reflect(v, normal, 1.0)
}

/// `v` with its component along the unit `normal` reversed and scaled by `e`: v - (1 + e)(v.n) n.
/// For e = 1 the factor 1 + e is exactly 2.
fn reflect(v: &Vec3, normal: Vec2, e: f64) -> Vec3 {
    let n = Vec3::new(normal.x, normal.y, 0.0);
    v - n * ((1.0 + e) * v.dot(&n))
}
