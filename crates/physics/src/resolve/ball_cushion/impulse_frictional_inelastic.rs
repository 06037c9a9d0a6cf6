//! `impulse_frictional_inelastic`: a sphere hitting a rigid half-space, instantaneously, with
//! restitution and Coulomb friction (pooltool's `ImpulseFrictionalInelasticLinear/Circular`).

use super::{spaced_contact_normal, BallCushionLaw, CircularNormal, Velocities, POOLTOOL_SPACER};
use crate::resolve::law::BuiltIn;
use crate::resolve::spacer;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// Relative contact speeds (m/s) at or below this are no slip at all (pooltool's `EPS`).
const NO_SLIP: f64 = 100.0 * f64::EPSILON;

/// The cushion as a rigid half-space touched at the point where the ball meets the cushion's
/// contact line (height h), normal n from that line to the ball's center
/// ([`super::contact_normal`]). With v_n = v . n < 0 and u the tangential slip of the contact point
/// (v and w without their n components, u = v_t - R w_t x n):
/// - normal impulse per unit mass (1 + e_c) |v_n| along n (v_n' = -e_c v_n);
/// - if the no-slip change dv = 2/7 (R w_t x n - v_t) (which leaves the contact rolling) is no
///   larger than the sliding one, dv = -f_c (1 + e_c) |v_n| u/|u|, it sticks: dv and
///   dw = 5/7 (n x v_t / R - w_t); else it slides: dv and dw = 5/(2R) |dv| n x u/|u|.
///
/// At a circular cushion the normal is [`CircularNormal`]'s (parameter `circular_normal`,
/// pooltool's by default). The normal is taken with the ball `spacer` (m) off the cushion
/// (parameter `spacer`, pooltool's 1e-6 m by default, [`POOLTOOL_SPACER`]; 0 for the contact
/// itself). Vertical velocity is removed afterwards. Reads `e_c` and `f_c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ImpulseFrictionalInelastic {
    /// The normal at a circular cushion.
    pub circular_normal: CircularNormal,
    /// The gap (m) between the ball and the cushion where the normal is taken.
    pub spacer: f64,
}

impl Default for ImpulseFrictionalInelastic {
    fn default() -> Self {
        ImpulseFrictionalInelastic {
            circular_normal: CircularNormal::default(),
            spacer: POOLTOOL_SPACER,
        }
    }
}

impl BuiltIn for ImpulseFrictionalInelastic {
    const NAME: &'static str = "impulse_frictional_inelastic";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["circular_normal", "spacer"])?;
        Ok(ImpulseFrictionalInelastic {
            circular_normal: CircularNormal::from_spec(spec)?,
            spacer: spacer::from_spec(spec, POOLTOOL_SPACER)?,
        })
    }
}

impl Law for ImpulseFrictionalInelastic {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        let normal = self.circular_normal.param();
        normal
            .into_iter()
            .chain(spacer::param(self.spacer, POOLTOOL_SPACER))
            .collect()
    }

    fn ball_params(&self) -> &'static [&'static str] {
        &["e_c", "f_c"]
    }
}

impl BallCushionLaw for ImpulseFrictionalInelastic {
    fn spacer(&self) -> f64 {
        self.spacer
    }

    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities {
        let n = spaced_contact_normal(normal, height, p.radius, self.spacer);
        half_space(p, s, n)
    }

    fn resolve_circular(
        &self,
        p: &BallParams,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
    ) -> Velocities {
        let n = (self.circular_normal).in_space(p, s, normal, height, arc_radius, self.spacer);
        half_space(p, s, n)
    }
}

/// [`ImpulseFrictionalInelastic`] against a half-space of unit normal `n` (from the contact
/// to the ball's center).
pub fn half_space(p: &BallParams, s: &BallState, n: Vec3) -> Velocities {
    let (r, e, mu) = (p.radius, p.e_c, p.f_c);
    let vn = s.v.dot(&n);
    let normal_impulse = (1.0 + e) * -vn;
    let vt = s.v - n * vn;
    let wt = s.w - n * s.w.dot(&n);
    let slip = vt + wt.cross(&n) * -r;
    let slipping = slip.norm() > NO_SLIP;
    let slide = if slipping {
        -slip / slip.norm() * (mu * normal_impulse)
    } else {
        Vec3::zeros()
    };
    let stick = (wt.cross(&n) * r - vt) * (2.0 / 7.0);
    let (dv, dw) = if !slipping || stick.norm_squared() <= slide.norm_squared() {
        (stick, (n.cross(&vt) / r - wt) * (5.0 / 7.0))
    } else {
        let dir = slip / slip.norm();
        (slide, n.cross(&dir) * (2.5 / r * slide.norm()))
    };
    let mut v = s.v + n * normal_impulse + dv;
    v.z = 0.0;
    (v, s.w + dw)
}
