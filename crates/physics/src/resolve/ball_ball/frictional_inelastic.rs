//! `frictional_inelastic`: an instantaneous ball–ball collision with restitution and contact
//! friction, which throws the object ball off the line of centers and transfers spin (pooltool's
//! `FrictionalInelastic`, after D. G. Alciatore's technical proofs TP A-14 "throw", A-27/A-28
//! "speed-dependent friction").

use super::{pair_mean, BallBallLaw, Velocities};
use crate::resolve::law::BuiltIn;
use crate::resolve::spacer;
use crate::resolve::spec::{choice_param, LawError, LawSpec, Param};
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
    /// The mean of the two balls' own ball–ball friction coefficients `mu_b` (pooltool's
    /// `u_b` and its `AverageBallBallFriction`).
    Average,
}

impl Friction {
    /// pooltool 0.6.0's default: Alciatore with a = 9.951e-3, b = 0.108, c = 1.088 s/m.
    pub const ALCIATORE: Friction = Friction::Alciatore {
        a: 9.951e-3,
        b: 0.108,
        c: 1.088,
    };

    /// The coefficient for a collision of balls with parameters `pa` and `pb` whose contact
    /// surfaces slide past each other at `speed` (m/s) before it.
    pub fn coefficient(&self, pa: &BallParams, pb: &BallParams, speed: f64) -> f64 {
        match *self {
            Friction::Alciatore { a, b, c } => a + b * (-c * speed).exp(),
            Friction::Average => pair_mean(pa.mu_b, pb.mu_b),
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

choice_param! {
    /// How large the friction impulse of a sliding contact is, for a normal impulse J: pooltool
    /// 0.6.0's rule or Coulomb's (parameter `friction_impulse`).
    pub enum FrictionImpulse("friction_impulse") {
        /// pooltool 0.6.0's: mu times the normal *separation* speed, mu e |v_an - v_bn| per
        /// unit mass for equal balls (`frictional_inelastic/__init__.py`: `D_v_n_magnitude`
        /// is |v_2n' - v_1n'|). That is mu (2e/(1 + e)) J: for e = 1 Coulomb's, for e < 1 less
        /// (2.6% at e = 0.95), and the throw of a sliding contact then depends on e, which TP
        /// A-14's does not. The default, so that the law under pooltool's name is pooltool's.
        Pooltool = "pooltool",
        /// Coulomb's, as TP A-14 derives throw: mu times the normal impulse J,
        /// mu (1 + e)/2 |v_an - v_bn| per unit mass for equal balls.
        Coulomb = "coulomb",
    }
}

/// A collision with normal restitution e and friction at the contact (pooltool's
/// `frictional_inelastic`), for balls of masses m_a, m_b and radii R_a, R_b (TP A-14 and
/// pooltool take equal balls; the general case below is the same derivation with each ball's
/// own mass and moment of inertia I = 2/5 m R^2, and reduces to it term by term).
///
/// e is the mean of the balls' `e_b` (as pooltool pairs them). In the frame of the line of
/// centers n (from ball a to ball b, on the cloth: the table-bound model resolves along it and
/// the cloth takes any vertical impulse), with mass fractions c_a = m_a / (m_a + m_b),
/// c_b = m_b / (m_a + m_b) (both 1/2 for equal balls):
/// 1. Normal impulse J = (1 + e) mu v_rel, mu = m_a m_b / (m_a + m_b), v_rel = v_an - v_bn:
///    v_an' = (c_a - e c_b) v_an + (1 + e) c_b v_bn and v_bn' = (1 + e) c_a v_an +
///    (c_b - e c_a) v_bn; normal spins w_n are kept.
/// 2. The contact surfaces' relative tangential velocity before the collision,
///    u = v_at - v_bt + (R_a w_at + R_b w_bt) x n (a 3-vector: vertical slip counts; a's
///    contact point is R_a n from its center, b's -R_b n).
/// 3. Sliding throughout: a tangential impulse F against u, ball a gains dv_a = -(F / m_a)
///    u/|u|, ball b dv_b = -(m_a / m_b) dv_a, and each spin dw = (R n x impulse) / I:
///    dw_a = 5/(2 R_a) n x dv_a, dw_b = -5/(2 R_b) n x dv_b. F is set by
///    [`FrictionImpulse`]: pooltool's (the default) F / m_a = mu_f 2 c_b |v_an' - v_bn'|
///    (mu_f e |v_an - v_bn| for equal balls, pooltool's expression), or Coulomb's (TP A-14)
///    F = mu_f J, F / m_a = mu_f (1 + e) c_b |v_rel|.
/// 4. If that would reverse the slip (u . u' <= 0), or there is none (|u| <= 100 ulps), the
///    contact sticks instead: the impulse P that stops the slip, du = 7/(2 mu) P = -u (each
///    ball's surface point answers a tangential impulse with 1/m + R^2/I = 7/(2m)), so
///    dv_a = -(2/7) c_b u, dv_b = (2/7) c_a u and the spins as in 3 (TP A-14's "no-slip"
///    limit: dv_a = -u/7 for equal balls).
///
/// Vertical velocity is removed afterwards (the balls stay on the cloth); the equations of motion
/// then settle each ball's motion state. Parameters: `friction` ([`Friction`]: Alciatore's
/// speed-dependent fit, the default, or the mean of the balls' `mu_b`) and `friction_impulse`
/// ([`FrictionImpulse`], written in a spec only when it is not pooltool's). Reads `e_b` (and
/// `mu_b` with `average`), and `spacer` (m, default 0; [`BallBallLaw::spacer`]: the
/// `pooltool_default` preset names pooltool's 1e-6 m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrictionalInelastic {
    /// The friction coefficient model.
    pub friction: Friction,
    /// The friction impulse's rule.
    pub friction_impulse: FrictionImpulse,
    /// pooltool's gap (m) between the balls when the law runs ([`BallBallLaw::spacer`]).
    pub spacer: f64,
}

impl Default for FrictionalInelastic {
    fn default() -> Self {
        FrictionalInelastic {
            friction: Friction::ALCIATORE,
            friction_impulse: FrictionImpulse::Pooltool,
            spacer: 0.0,
        }
    }
}

impl BuiltIn for FrictionalInelastic {
    const NAME: &'static str = "frictional_inelastic";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["friction", "friction_impulse", "spacer"])?;
        Ok(FrictionalInelastic {
            friction: match spec.get("friction") {
                None => Friction::ALCIATORE,
                Some(p) => Friction::from_param(p)?,
            },
            friction_impulse: FrictionImpulse::from_spec(spec)?,
            spacer: spacer::from_spec(spec, 0.0)?,
        })
    }
}

impl Law for FrictionalInelastic {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        let mut out = vec![("friction".into(), self.friction.param())];
        out.extend(self.friction_impulse.param());
        out.extend(spacer::param(self.spacer, 0.0));
        out
    }

    fn ball_params(&self) -> &'static [&'static str] {
        match self.friction {
            Friction::Average => &["mu_b", "e_b"],
            Friction::Alciatore { .. } => &["e_b"],
        }
    }
}

impl BallBallLaw for FrictionalInelastic {
    fn resolve(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2] {
        frictional_inelastic(self.friction, self.friction_impulse, pa, a, pb, b)
    }

    fn spacer(&self) -> f64 {
        self.spacer
    }
}

/// The new (v, w) of [`FrictionalInelastic`] for balls `a` (parameters `pa`) and `b` (`pb`).
pub fn frictional_inelastic(
    friction: Friction,
    impulse: FrictionImpulse,
    pa: &BallParams,
    a: &BallState,
    pb: &BallParams,
    b: &BallState,
) -> [Velocities; 2] {
    let (ra, rb) = (pa.radius, pb.radius);
    let e = pair_mean(pa.e_b, pb.e_b);
    let total = pa.m + pb.m;
    let (ca, cb) = (pa.m / total, pb.m / total);
    let d = b.r - a.r;
    let n = Vec3::new(d.x, d.y, 0.0) / d.xy().norm();
    let normal = |u: &Vec3| u.dot(&n);
    let tangent = |u: &Vec3| u - n * normal(u);
    let (van, vbn) = (normal(&a.v), normal(&b.v));
    let van_f = (ca - e * cb) * van + ((1.0 + e) * cb) * vbn;
    let vbn_f = ((1.0 + e) * ca) * van + (cb - e * ca) * vbn;
    let (vat, vbt) = (tangent(&a.v), tangent(&b.v));
    let (wat, wbt) = (tangent(&a.w), tangent(&b.w));
    // Relative tangential velocity of the contact points (a's at R_a n, b's at -R_b n); R
    // factored out for equal radii.
    let slip_of = |va: &Vec3, wa: &Vec3, vb: &Vec3, wb: &Vec3| {
        let turn = if ra == rb {
            (wa + wb).cross(&n) * ra
        } else {
            wa.cross(&n) * ra + wb.cross(&n) * rb
        };
        va - vb + turn
    };
    let slip = slip_of(&vat, &wat, &vbt, &wbt);
    // The friction model reads the slip before the collision (TP ).
    let mu = friction.coefficient(pa, pb, slip.norm());
    // The friction impulse of a sliding contact over m_a mu.
    let per_mu = match impulse {
        // 2 c_b times the separation speed (1 for equal balls, exactly).
        FrictionImpulse::Pooltool => (2.0 * cb) * (vbn_f - van_f).abs(),
        // The normal impulse over m_a, (1 + e) c_b |v_an - v_bn| (TP A-14).
        FrictionImpulse::Coulomb => (1.0 + e) * cb * (van - vbn).abs(),
    };
    // Ball b's changes from ball a's: its velocity change is -(m_a / m_b) dv_a, and its spin
    // change 5/(2 R_b) n x (m_a / m_b) dv_a (both 1 and the same as a's for equal balls).
    let ratio = pa.m / pb.m;
    let spins = |dv: Vec3| {
        let dw_a = n.cross(&dv) * (2.5 / ra);
        let dw_b = n.cross(&(dv * ratio)) * (2.5 / rb);
        (dv, dv * ratio, dw_a, dw_b)
    };
    let sliding = (slip.norm() > NO_SLIP).then(|| {
        let dv = -slip / slip.norm() * (mu * per_mu);
        spins(dv)
    });
    let sticks = match sliding {
        None => true,
        Some((dva, dvb, dwa, dwb)) => {
            let after = slip_of(&(vat + dva), &(wat + dwa), &(vbt - dvb), &(wbt + dwb));
            slip.dot(&after) <= 0.0
        }
    };
    let (dva, dvb, dwa, dwb) = if sticks {
        spins(-slip * (2.0 * cb) / 7.0)
    } else {
        sliding.expect("sliding when not sticking")
    };
    let finish = |vt: Vec3, vn: f64, wt: Vec3, w: &Vec3| {
        let mut v = vt + n * vn;
        v.z = 0.0;
        (v, wt + n * normal(w))
    };
    [
        finish(vat + dva, van_f, wat + dwa, &a.w),
        finish(vbt - dvb, vbn_f, wbt + dwb, &b.w),
    ]
}
