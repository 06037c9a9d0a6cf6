//! `fastfiz`: FastFiz's rail collision (P6-Pool/fastfiz 2c1c920, FastFiz.cpp
//! `RailCollisionEvent::doHandle`): damping factors, no contact mechanics.

use super::{BallCushionLaw, Velocities};
use crate::resolve::law::BuiltIn;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// FastFiz's rail law: the velocity component along the rail is multiplied by `parallel`, the
/// component along the normal reversed and multiplied by `perpendicular`, vertical velocity
/// dropped, and the whole spin vector multiplied by `spin`.
///
/// FastFiz's handler writes 0.9 for both velocity factors (`Vector(0.9 * v.x, -0.9 * v.y, 0)`
/// for the north and south rails, the mirror for east and west) and 0.1 for the spin
/// ("Spin is just divided by 10"). Its header declares `RAIL_VEL_DAMPING_X = 0.6` (parallel),
/// `RAIL_VEL_DAMPING_Y = 0.9`, `RAIL_SPIN_DAMPING = 0.1` and the angle adjustments 0, which
/// the handler does not read: `parallel = 0.6` gives the declared behaviour. FastFiz's rails
/// are axis-aligned; here the factors apply along any cushion's normal. The cushion's height
/// is not read (FastFiz's `RAIL_HEIGHT` only limits the cue's elevation). Dimensionless
/// factors; reads nothing of the ball.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastFiz {
    /// Factor on the velocity along the rail (FastFiz's handler: 0.9).
    pub parallel: f64,
    /// Factor on the reversed velocity along the normal (0.9).
    pub perpendicular: f64,
    /// Factor on the spin vector (0.1).
    pub spin: f64,
}

impl Default for FastFiz {
    fn default() -> Self {
        FastFiz {
            parallel: 0.9,
            perpendicular: 0.9,
            spin: 0.1,
        }
    }
}

impl BuiltIn for FastFiz {
    const NAME: &'static str = "fastfiz";

    /// The law from its spec: `parallel`, `perpendicular`, `spin`, each in [0, 1] (defaults
    /// 0.9, 0.9, 0.1).
    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["parallel", "perpendicular", "spin"])?;
        let d = FastFiz::default();
        let factor = |key: &str, default: f64| {
            let x = spec.number_or(key, default)?;
            if (0.0..=1.0).contains(&x) {
                Ok(x)
            } else {
                Err(LawError {
                    param: key.to_string(),
                    value: x.to_string(),
                    why: "must be a damping factor in [0, 1]".into(),
                })
            }
        };
        Ok(FastFiz {
            parallel: factor("parallel", d.parallel)?,
            perpendicular: factor("perpendicular", d.perpendicular)?,
            spin: factor("spin", d.spin)?,
        })
    }
}

impl Law for FastFiz {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        vec![
            ("parallel".into(), Param::Number(self.parallel)),
            ("perpendicular".into(), Param::Number(self.perpendicular)),
            ("spin".into(), Param::Number(self.spin)),
        ]
    }
}

impl BallCushionLaw for FastFiz {
    /// FastFiz's rails have no contact geometry: any height.
    fn check_height(&self, _height: f64, _radius: f64) -> Result<(), String> {
        Ok(())
    }

    fn resolve(&self, _p: &BallParams, s: &BallState, normal: Vec2, _height: f64) -> Velocities {
        let vn = s.v.x * normal.x + s.v.y * normal.y;
        let (tx, ty) = (s.v.x - vn * normal.x, s.v.y - vn * normal.y);
        let v = Vec3::new(
            self.parallel * tx - self.perpendicular * vn * normal.x,
            self.parallel * ty - self.perpendicular * vn * normal.y,
            0.0,
        );
        (v, s.w * self.spin)
    }
}
