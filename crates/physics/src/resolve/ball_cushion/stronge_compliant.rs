//! `stronge_compliant`: Stronge's planar impact of rough bodies with tangential compliance,
//! applied to a ball and a cushion as pooltool's `StrongeCompliantLinear/Circular` does (W. J.
//! Stronge, *Impact Mechanics*, 2nd ed., Cambridge 2018, ch. 5 "Tangential compliance in planar
//! impact of rough bodies").

use std::f64::consts::FRAC_PI_2;

use super::{spaced_contact_normal, BallCushionLaw, CircularNormal, Velocities, POOLTOOL_SPACER};
use crate::resolve::law::BuiltIn;
use crate::resolve::spacer;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// The contact is a massless particle tied to the ball by a normal and a tangential spring
/// (Stronge §5.2). With the contact-point velocity split along the contact normal n (from the
/// cushion's contact line to the ball's center, [`super::contact_normal`]) into v_n < 0 and a
/// tangential slip v_t <= 0 along t:
/// - The normal spring oscillates at omega_n = sqrt(beta_n k_n / m) through compression
///   (duration t_c = pi / (2 omega_n)) and a stiffer restitution (duration e t_c), so the
///   normal velocity ends at -e_c v_n (§5.2.1).
/// - The tangential spring oscillates at omega_t = omega_ratio omega_n (stiffness ratio
///   eta^2 = (beta_t / beta_n) / omega_ratio^2) while the contact sticks, and slides with
///   Coulomb friction f_c times the normal force while it slips (§5.3).
/// - Three cases by the incidence ratio r = v_t / v_n (§5.4): gross slip (r > f_c ((1 + e)
///   beta_t / beta_n - eta^2 / e): the contact slides throughout, v_t' = v_t - f_c v_n (beta_t /
///   beta_n)(1 + e)); initial stick (r < f_c eta^2: stick, then slip from a time found as the
///   root of the stick force reaching the friction limit); slip-stick-slip (otherwise: the
///   stick starts at a closed-form time, the final slip at a root). The roots are found by
///   Brent's method on [t_c, t_f] to 1e-15 of the collision time ([`pool_roots::bracket`]).
///
/// For a sphere on a half-space beta_n = 1 and beta_t = 7/2 (the tangential inverse-mass
/// coefficient of a point on a solid sphere's surface). The velocity changes dv_n / beta_n along
/// n and dv_t / beta_t along t are applied to the center, dw = 5/(2R) (-n) x dv, and the
/// vertical velocity is then removed. `omega_ratio` (pooltool's parameter, in (1, 2), default
/// 1.7; pooltool's default resolver uses 1.8) sets the cushion's compliance; at a circular
/// cushion the normal is [`CircularNormal`]'s (parameter `circular_normal`, pooltool's by
/// default). The normal is taken with the ball `spacer` (m) off the cushion (parameter
/// `spacer`, pooltool's 1e-6 m by default, [`POOLTOOL_SPACER`]: pooltool moves the ball that far
/// before its law reads the geometry; 0 takes it at the contact). Reads `e_c` and `f_c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StrongeCompliant {
    /// Tangential to normal natural frequency of the contact, omega_t / omega_n, in (1, 2).
    pub omega_ratio: f64,
    /// The normal at a circular cushion.
    pub circular_normal: CircularNormal,
    /// The gap (m) between the ball and the cushion where the normal is taken.
    pub spacer: f64,
}

impl Default for StrongeCompliant {
    fn default() -> Self {
        StrongeCompliant {
            omega_ratio: 1.7,
            circular_normal: CircularNormal::Pooltool,
            spacer: POOLTOOL_SPACER,
        }
    }
}

impl StrongeCompliant {
    /// The law with `omega_ratio`, pooltool's normal at circular cushions and its spacer.
    pub fn with_omega_ratio(omega_ratio: f64) -> Self {
        StrongeCompliant {
            omega_ratio,
            ..Default::default()
        }
    }
}

/// Tangential inverse-mass coefficient of a sphere's surface point (1 + m R^2 / I).
const BETA_T: f64 = 3.5;
/// Normal inverse-mass coefficient of a sphere on a half-space.
const BETA_N: f64 = 1.0;
/// The normal spring's stiffness (N/m): arbitrary, only the frequency ratio matters (pooltool's
/// value, so the root solves see the same scale).
const K_N: f64 = 1e3;

impl BuiltIn for StrongeCompliant {
    const NAME: &'static str = "stronge_compliant";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["omega_ratio", "circular_normal", "spacer"])?;
        let omega_ratio = spec.number_or("omega_ratio", 1.7)?;
        if !(omega_ratio > 1.0 && omega_ratio < 2.0) {
            return Err(LawError {
                param: "omega_ratio".into(),
                value: omega_ratio.to_string(),
                why: "must be in (1, 2): omega_t / omega_n of a sphere's contact".into(),
            });
        }
        Ok(StrongeCompliant {
            omega_ratio,
            circular_normal: CircularNormal::from_spec(spec)?,
            spacer: spacer::from_spec(spec, POOLTOOL_SPACER)?,
        })
    }
}

impl Law for StrongeCompliant {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        let mut out = vec![("omega_ratio".into(), Param::Number(self.omega_ratio))];
        out.extend(self.circular_normal.param());
        out.extend(spacer::param(self.spacer, POOLTOOL_SPACER));
        out
    }

    fn ball_params(&self) -> &'static [&'static str] {
        &["e_c", "f_c"]
    }
}

impl BallCushionLaw for StrongeCompliant {
    fn spacer(&self) -> f64 {
        self.spacer
    }

    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities {
        let n = spaced_contact_normal(normal, height, p.radius, self.spacer);
        self.along(p, s, n)
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
        self.along(p, s, n)
    }
}

impl StrongeCompliant {
    /// The law for the contact's unit normal `n` in space (from the cushion to the ball's
    /// center).
    fn along(&self, p: &BallParams, s: &BallState, n: Vec3) -> Velocities {
        let r = p.radius;
        // Velocity of the contact point, split into its normal component and its tangential
        // slip along t (v_t <= 0 by the choice of t).
        let vc = s.v + s.w.cross(&(n * -r));
        let vn0 = n.dot(&vc);
        let n_x_vc = n.cross(&vc);
        let vt0 = -n_x_vc.norm();
        let t = if vt0 != 0.0 {
            n_x_vc.cross(&n) / vt0
        } else {
            Vec3::zeros()
        };
        let eta_squared = (BETA_T / BETA_N) / (self.omega_ratio * self.omega_ratio);
        let (vt_f, vn_f) = compliant_impact(vt0, vn0, p.m, p.f_c, p.e_c, eta_squared);
        let dv_n = (vn_f - vn0) / BETA_N;
        let dv_t = t * ((vt_f - vt0) / BETA_T);
        let mut v = s.v + n * dv_n + dv_t;
        let w = s.w + (-n).cross(&dv_t) * (2.5 / r);
        v.z = 0.0;
        (v, w)
    }
}

/// Stronge's collinear compliant frictional impact (ch. 5): the final tangential and normal
/// velocities of the contact for initial ones `vt0` <= 0 and `vn0` < 0, effective mass `m`,
/// friction `mu`, restitution `e`, and stiffness ratio `eta_squared`, with the sphere's
/// beta_t = 7/2, beta_n = 1. A contact that does not approach (vn0 >= 0) is returned unchanged.
pub fn compliant_impact(
    vt0: f64,
    vn0: f64,
    m: f64,
    mu: f64,
    e: f64,
    eta_squared: f64,
) -> (f64, f64) {
    if vn0 >= 0.0 || vn0.is_nan() {
        return (vt0, vn0);
    }
    let beta = BETA_T / BETA_N;
    let ratio = vt0 / vn0;
    let omega_n = (BETA_N * K_N / m).sqrt();
    let omega_t = omega_n * (beta / eta_squared).sqrt();
    let t_c = FRAC_PI_2 / omega_n;
    let t_f = (1.0 + e) * t_c;
    // Phase of the normal oscillation during restitution (§5.2.1): omega_n t / e + pi/2 (1 - 1/e).
    let shift = FRAC_PI_2 * (1.0 - 1.0 / e);
    let phase = |t: f64| omega_n * t / e + shift;
    let vt_f = if ratio > mu * ((1.0 + e) * beta - eta_squared / e) {
        // Gross slip: the contact slides throughout.
        vt0 - mu * vn0 * beta * (1.0 + e)
    } else if ratio < mu * eta_squared {
        // Initial stick; the slip starts when the stick force reaches mu times the normal force.
        let t_slip = if close(ratio, 0.0) {
            t_f
        } else if close(ratio, mu * eta_squared) {
            t_c
        } else {
            let f = |t: f64| {
                (-ratio * (omega_t * t).sin()).abs()
                    - mu * eta_squared * omega_t / omega_n * phase(t).sin()
            };
            root(f, t_c, t_f)
        };
        stick_velocity(t_slip, omega_t, vt0, 0.0, 0.0)
            + mu * vn0 * beta * e * (1.0 + (omega_n * t_slip / e + shift).cos())
    } else {
        // Slip, then stick from a closed-form time (§5.4.2), then slip again.
        let t_stick = t_c * stick_time(ratio, beta, mu, e, eta_squared, shift);
        let (u_stick, v_stick) = if t_stick <= t_c {
            let c = (omega_n * t_stick).cos();
            (
                -mu * vn0 * eta_squared / omega_n * (omega_n * t_stick).sin(),
                vt0 - mu * beta * vn0 * (1.0 - c),
            )
        } else {
            let ph = phase(t_stick);
            (
                -mu * vn0 * eta_squared / omega_n * ph.sin(),
                vt0 - mu * beta * vn0 * (1.0 - e * ph.cos()),
            )
        };
        let t_slip = if close(ratio, mu * eta_squared) {
            t_c
        } else if close(ratio, mu * ((1.0 + e) * beta - eta_squared / e)) {
            t_f
        } else {
            let f = |t: f64| {
                let dt = t - t_stick;
                (omega_n / (mu * vn0)
                    * (u_stick * (omega_t * dt).cos() - v_stick / omega_t * (omega_t * dt).sin()))
                .abs()
                    - eta_squared * phase(t).sin()
            };
            // The stick force meets the limit at t_stick itself, where f touches zero (a
            // double root, f ~ -c (t - t_stick)^2, either sign to rounding): the slip starts
            // at the first crossing after it. From t_c when the stick started in compression.
            if t_stick <= t_c {
                root(f, t_c, t_f)
            } else {
                after_touch(&f, t_stick, t_f).map_or(t_stick, |lo| root(f, lo, t_f))
            }
        };
        stick_velocity(t_slip, omega_t, v_stick, u_stick, t_stick)
            + beta * mu * vn0 * e * (1.0 + phase(t_slip).cos())
    };
    let vn_f = e * vn0 * phase(t_f).cos();
    (vt_f, vn_f)
}

/// Tangential velocity while stuck (§5.3): the spring's free oscillation from displacement
/// `u0` and velocity `v0` at time `t0`.
fn stick_velocity(t: f64, omega_t: f64, v0: f64, u0: f64, t0: f64) -> f64 {
    omega_t * u0 * (omega_t * (t - t0)).sin() + v0 * (omega_t * (t - t0)).cos()
}

/// When an initially slipping contact sticks, in units of the compression time (§5.4.2).
fn stick_time(ratio: f64, beta: f64, mu: f64, e: f64, eta_squared: f64, shift: f64) -> f64 {
    if ratio <= mu * beta {
        let x = ((ratio / mu) - beta) / (eta_squared - beta);
        (2.0 / std::f64::consts::PI) * x.clamp(-1.0, 1.0).acos()
    } else {
        let x = ((ratio / mu) - beta) / (eta_squared / e - e * beta);
        (2.0 / std::f64::consts::PI) * (x.clamp(-1.0, 1.0).acos() - shift) * e
    }
}

/// numpy's `isclose` (relative 1e-5, absolute 1e-8): where pooltool takes the boundary cases
/// of the incidence ratio, so that both choose the same branch.
fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-8 + 1e-5 * b.abs()
}

/// A time after `t_stick` where `f` (zero at `t_stick` and below it just after) is below zero
/// beyond rounding: `t_stick` plus 1e-6, 1e-5, ... 1e-1 of the time left to `t_f`, the first
/// where f < 0; `None` when there is none (the stick lasts less than 1e-6 of it).
fn after_touch(f: &impl Fn(f64) -> f64, t_stick: f64, t_f: f64) -> Option<f64> {
    (1..=6)
        .map(|k| t_stick + (t_f - t_stick) * 10f64.powi(k - 7))
        .find(|&t| f(t) < 0.0)
}

/// The stick-to-slip time: a root of `f` on [t_c, t_f]. The collision lasts about 0.04 s for
/// a pool ball (k_n = 1e3 N/m); 1e-15 of it is far below anything the result can show. Without
/// a sign change (the force touches the limit only at an end), the end where |f| is smaller.
fn root(f: impl Fn(f64) -> f64, t_c: f64, t_f: f64) -> f64 {
    match pool_roots::bracket::brent(&f, t_c, t_f, 1e-15 * t_f) {
        Ok(t) => t,
        Err(_) => {
            if f(t_c).abs() <= f(t_f).abs() {
                t_c
            } else {
                t_f
            }
        }
    }
}
