//! `frictional_inelastic`: an instantaneous ball–ball collision with restitution and contact
//! friction, which throws the object ball off the line of centers and transfers spin (pooltool's
//! `FrictionalInelastic`, after D. G. Alciatore's technical proofs TP A-14 "throw", A-27/A-28
//! "speed-dependent friction").

use super::{BallBallLaw, Velocities};
use crate::resolve::law::BuiltIn;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec3};

/// Relative contact speeds (m/s) at or below this are no slip at all: pooltool's `EPS`
/// (100 machine epsilons).
const NO_SLIP: f64 = 100.0 * f64::EPSILON;

/// The ball–ball friction coefficient of a collision (pooltool's `friction` sub-model).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Friction {
    /// Alciatore's fit to Marlow's measurements (TP A-14, after Marlow 1995, Table 10):
    /// mu = a + b exp(-c v), v the relative sliding speed of the surfaces at the contact before
    /// the collision (m/s).
    Alciatore {
        /// Speed-independent part.
        a: f64,
        /// Amplitude of the speed-dependent part.
        b: f64,
        /// Decay rate (s/m).
        c: f64,
    },
    /// The balls' own ball–ball friction coefficient, `mu_b` (pooltool's `u_b`; both balls share
    /// it here, so the average of the two is it).
    Average,
}

impl Friction {
    /// pooltool 0.6.0's default: Alciatore with a = 9.951e-3, b = 0.108, c = 1.088 s/m.
    pub const ALCIATORE: Friction = Friction::Alciatore {
        a: 9.951e-3,
        b: 0.108,
        c: 1.088,
    };

    /// The coefficient for a collision whose contact surfaces slide past each other at
    /// `speed` (m/s) before it.
    pub fn coefficient(&self, p: &BallParams, speed: f64) -> f64 {
        match *self {
            Friction::Alciatore { a, b, c } => a + b * (-c * speed).exp(),
            Friction::Average => p.mu_b,
        }
    }

    pub(crate) fn from_param(value: &Param) -> Result<Self, LawError> {
        let bad = |why: &str| LawError {
            param: "friction".into(),
            value: value.to_string(),
            why: why.into(),
        };
        let Param::Law(spec) = value else {
            return Err(bad(
                "must be a table: { model = \"alciatore\", a, b, c } or { model = \"average\" }",
            ));
        };
        let nested = |e: LawError| LawError {
            param: format!("friction.{}", e.param),
            ..e
        };
        match spec.model.as_str() {
            "alciatore" => {
                spec.only(&["a", "b", "c"]).map_err(nested)?;
                let Friction::Alciatore { a, b, c } = Self::ALCIATORE else {
                    unreachable!("the default is Alciatore's")
                };
                let f = Friction::Alciatore {
                    a: spec.number_or("a", a).map_err(nested)?,
                    b: spec.number_or("b", b).map_err(nested)?,
                    c: spec.number_or("c", c).map_err(nested)?,
                };
                let Friction::Alciatore { a, b, c } = f else {
                    unreachable!()
                };
                if a < 0.0 || b < 0.0 || c < 0.0 {
                    return Err(bad("a, b and c must not be negative (mu >= 0)"));
                }
                Ok(f)
            }
            "average" => {
                spec.only(&[]).map_err(nested)?;
                Ok(Friction::Average)
            }
            other => Err(LawError {
                param: "friction.model".into(),
                value: format!("{other:?}"),
                why: "unknown ball-ball friction model; valid: alciatore, average".into(),
            }),
        }
    }

    pub(crate) fn param(&self) -> Param {
        Param::Law(match *self {
            Friction::Alciatore { a, b, c } => LawSpec::named("alciatore")
                .with("a", Param::Number(a))
                .with("b", Param::Number(b))
                .with("c", Param::Number(c)),
            Friction::Average => LawSpec::named("average"),
        })
    }
}

/// An equal-mass collision with normal restitution e_b and Coulomb friction at the contact
/// (pooltool's `frictional_inelastic`).
///
/// In the frame of the line of centers n (from ball a to ball b):
/// 1. Normal velocities: v_an' = ((1 - e) v_an + (1 + e) v_bn) / 2 and
///    v_bn' = ((1 + e) v_an + (1 - e) v_bn) / 2; normal spins w_n are kept.
/// 2. The contact surfaces' relative tangential velocity before the collision,
///    u = v_at - v_bt + R (w_at + w_bt) x n (a 3-vector: vertical slip counts).
/// 3. Sliding throughout (TP A-14): Coulomb friction, an impulse per unit mass mu J against u,
///    J = (1 + e) |v_an - v_bn| / 2 the normal impulse per unit mass: ball a gains
///    dv = -mu J u/|u|, ball b -dv, each dw = 5/(2R) n x dv. (pooltool 0.6.0 takes the
///    normal separation speed e |v_an - v_bn| for J instead: the same for e = 1, for e < 1 its
///    friction is 2e/(1 + e) of Coulomb's, 2.6% less at e = 0.95, and its sliding throw angle
///    depends on e, which Coulomb's does not.)
/// 4. If that would reverse the slip (u . u' <= 0), or there is none (|u| <= 100 ulps), the
///    contact sticks instead: dv = -u/7, dw = -5/(14 R) n x u, which leaves no relative
///    tangential slip (TP A-14's "no-slip" limit).
///
/// Vertical velocity is removed afterwards (the balls stay on the cloth); the equations of motion
/// then settle each ball's motion state. Friction is [`Friction`]: Alciatore's speed-dependent
/// fit (default) or the balls' `mu_b`. Reads `e_b` (and `mu_b` with `average`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionalInelastic {
    /// The friction coefficient model.
    pub friction: Friction,
}

impl Default for FrictionalInelastic {
    fn default() -> Self {
        FrictionalInelastic {
            friction: Friction::ALCIATORE,
        }
    }
}

impl BuiltIn for FrictionalInelastic {
    const NAME: &'static str = "frictional_inelastic";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["friction"])?;
        Ok(FrictionalInelastic {
            friction: match spec.get("friction") {
                None => Friction::ALCIATORE,
                Some(p) => Friction::from_param(p)?,
            },
        })
    }
}

impl Law for FrictionalInelastic {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        vec![("friction".into(), self.friction.param())]
    }

    fn ball_params(&self) -> &'static [&'static str] {
        match self.friction {
            Friction::Average => &["mu_b", "e_b"],
            Friction::Alciatore { .. } => &["e_b"],
        }
    }
}

impl BallBallLaw for FrictionalInelastic {
    fn resolve(&self, p: &BallParams, a: &BallState, b: &BallState) -> [Velocities; 2] {
        frictional_inelastic(p, self.friction, a, b)
    }
}

/// The new (v, w) of [`FrictionalInelastic`].
pub fn frictional_inelastic(
    p: &BallParams,
    friction: Friction,
    a: &BallState,
    b: &BallState,
) -> [Velocities; 2] {
    let (r, e) = (p.radius, p.e_b);
    let d = b.r - a.r;
    let n = Vec3::new(d.x, d.y, 0.0) / d.xy().norm();
    let normal = |u: &Vec3| u.dot(&n);
    let tangent = |u: &Vec3| u - n * normal(u);
    let (van, vbn) = (normal(&a.v), normal(&b.v));
    let van_f = 0.5 * ((1.0 - e) * van + (1.0 + e) * vbn);
    let vbn_f = 0.5 * ((1.0 + e) * van + (1.0 - e) * vbn);
    let (vat, vbt) = (tangent(&a.v), tangent(&b.v));
    let (wat, wbt) = (tangent(&a.w), tangent(&b.w));
    // Relative tangential velocity of the contact points (a's at R n, b's at -R n).
    let slip_of = |va: &Vec3, wa: &Vec3, vb: &Vec3, wb: &Vec3| va - vb + (wa + wb).cross(&n) * r;
    let slip = slip_of(&vat, &wat, &vbt, &wbt);
    // The friction model reads the slip before the collision (TP ).
    let mu = friction.coefficient(p, slip.norm());
    // The normal impulse per unit mass, (1 + e)/2 |v_an - v_bn|: Coulomb bounds the friction
    // impulse by mu times it (TP A-14).
    let normal_impulse = 0.5 * (1.0 + e) * (van - vbn).abs();
    let sliding = (slip.norm() > NO_SLIP).then(|| {
        let dv = -slip / slip.norm() * (mu * normal_impulse);
        let dw = n.cross(&dv) * (2.5 / r);
        (dv, dw)
    });
    let sticks = match sliding {
        None => true,
        Some((dv, dw)) => {
            let after = slip_of(&(vat + dv), &(wat + dw), &(vbt - dv), &(wbt + dw));
            slip.dot(&after) <= 0.0
        }
    };
    let (dv, dw) = if sticks {
        let dv = -slip / 7.0;
        (dv, n.cross(&dv) * (2.5 / r))
    } else {
        sliding.expect("sliding when not sticking")
    };
    let finish = |vt: Vec3, vn: f64, wt: Vec3, w: &Vec3| {
        let mut v = vt + n * vn;
        v.z = 0.0;
        (v, wt + n * normal(w))
    };
    [
        finish(vat + dv, van_f, wat + dw, &a.w),
        finish(vbt - dv, vbn_f, wbt + dw, &b.w),
    ]
}
