//! `mathavan_2010`: the ball–cushion impact integrated over its normal impulse, with friction at
//! the cushion and at the cloth (Mathavan, Jackson, Parkin, "A theoretical analysis of billiard
//! ball-cushion dynamics under cushion impacts", Proc. IMechE C 224:1863, 2010; pooltool's
//! `Mathavan2010Linear/Circular`).

use super::{BallCushionLaw, Velocities};
use crate::resolve::law::BuiltIn;
use crate::resolve::spacer;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// Mathavan et al. (2010): a rigid cushion touching the ball at I, at angle theta above its
/// center (sin theta = h/R - 1), and the cloth at C. In the cushion frame (y the normal into
/// the cushion, x along it, z up) the slips are (eqs. 13-14)
/// v_xI = v_x + w_y R sin theta - w_z R cos theta, v_yI = -v_y sin theta + w_x R at I and
/// v_xC = v_x - w_y R, v_yC = v_y + w_x R at C, at angles phi and phi' (taken here as direction
/// cosines, x/|v| and y/|v|, the same numbers without libm's atan2, sin and cos; no slip is
/// pooltool's angle 0 seen in our frame, [`NO_SLIP`]). Per unit normal impulse P
/// at I, with friction mu_w (the balls' `f_c`) at the cushion and mu_s (their `mu_s`) at the
/// cloth (eqs. 15-19):
/// - dv_x/dP = -(mu_w cos phi + mu_s cos phi' (sin theta + mu_w sin phi cos theta)) / M
/// - dv_y/dP = -(cos theta - mu_w sin theta sin phi + mu_s sin phi' (sin theta + mu_w sin phi
///   cos theta)) / M
/// - dw_x/dP = -5/(2MR) (mu_w sin phi + mu_s sin phi' (sin theta + mu_w sin phi cos theta))
/// - dw_y/dP = -5/(2MR) (mu_w cos phi sin theta - mu_s cos phi' (sin theta + mu_w sin phi cos
///   theta))
/// - dw_z/dP = 5/(2MR) mu_w cos phi cos theta
///
/// integrated by Euler steps of dP = max(M v_y / `max_steps`, `delta_p`) (N s): compression
/// until v_y reaches 0 (its last step halved eight times so v_y stays positive), then
/// restitution until the work of the normal force at I, |v_y| cos theta dP summed, reaches
/// e_c^2 times the compression's (the last step cut to the remaining work). Valid, the paper
/// says, for normal speeds below about 2.5 m/s (a rigid cushion). Reads `e_c`, `f_c`, `mu_s`.
/// Parameter `spacer` (m, default 0; [`BallCushionLaw::spacer`]): at a circular cushion the
/// normal on the cloth is taken with the ball moved that far off, as pooltool's `make_kiss`
/// leaves it ([`super::kissed_circular_normal`], the trait's `resolve_circular`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mathavan2010 {
    /// Most steps per phase before the step grows (pooltool's `max_steps`).
    pub max_steps: u32,
    /// Smallest impulse step (N s) (pooltool's `delta_p`).
    pub delta_p: f64,
    /// pooltool's gap (m) between the ball and the cushion when the law runs.
    pub spacer: f64,
}

impl Default for Mathavan2010 {
    fn default() -> Self {
        Mathavan2010 {
            max_steps: 1000,
            delta_p: 0.001,
            spacer: 0.0,
        }
    }
}

impl BuiltIn for Mathavan2010 {
    const NAME: &'static str = "mathavan_2010";

    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["max_steps", "delta_p", "spacer"])?;
        Ok(Mathavan2010 {
            max_steps: spec.count_or("max_steps", 1000, 10_000_000)?,
            delta_p: spec.positive_or("delta_p", 0.001)?,
            spacer: spacer::from_spec(spec, 0.0)?,
        })
    }
}

impl Law for Mathavan2010 {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        let mut out = vec![
            ("max_steps".into(), Param::Number(f64::from(self.max_steps))),
            ("delta_p".into(), Param::Number(self.delta_p)),
        ];
        out.extend(spacer::param(self.spacer, 0.0));
        out
    }

    fn ball_params(&self) -> &'static [&'static str] {
        &["mu_s", "e_c", "f_c"]
    }
}

impl BallCushionLaw for Mathavan2010 {
    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities {
        // The cushion frame: y along `normal` (into the cushion), x = y rotated clockwise.
        let (ny, nx) = (
            Vec3::new(normal.x, normal.y, 0.0),
            Vec3::new(normal.y, -normal.x, 0.0),
        );
        let mut state = Impact {
            v: (s.v.dot(&nx), s.v.dot(&ny)),
            w: (s.w.dot(&nx), s.w.dot(&ny), s.w.z),
        };
        let sin_t = (height - p.radius) / p.radius;
        let setting = Setting {
            m: p.m,
            r: p.radius,
            mu_s: p.mu_s,
            mu_w: p.f_c,
            sin_t,
            cos_t: (1.0 - sin_t * sin_t).sqrt(),
        };
        let work = setting.compress(&mut state, self.max_steps, self.delta_p);
        setting.restitute(
            &mut state,
            p.e_c * p.e_c * work,
            self.max_steps,
            self.delta_p,
        );
        let (vx, vy) = state.v;
        let (wx, wy, wz) = state.w;
        let v = nx * vx + ny * vy;
        let w = nx * wx + ny * wy + Vec3::z() * wz;
        (Vec3::new(v.x, v.y, 0.0), w)
    }

    fn spacer(&self) -> f64 {
        self.spacer
    }
}

/// The slip direction (cos phi, sin phi), or (cos phi', sin phi'), this law takes where a slip
/// is exactly zero: pooltool's `atan2(0, 0)` = 0, its cushion frame's +x, which is our cushion
/// frame's -x. pooltool's frame is the mirror image of ours (its (x, y) is our (y, x),
/// `crates/pooltool/src/frame.rs`), and both cushion frames take x as the normal turned
/// clockwise, so the mirror turns pooltool's +x into our -x. It matters for a ball reaching the
/// cushion rolling: its cloth slip (Mathavan et al. 2010, eq. 14: v_xC = v_x - w_y R,
/// v_yC = v_y + w_x R) is zero or a rounding residual, and its direction sets the cloth's
/// friction in the first impulse step, mu_s (sin theta + mu_w sin phi cos theta) dP / M of
/// velocity and 5/2 of that in R w (up to 3.3e-4 and 8.3e-4 m/s for carom balls at the default
/// `delta_p`; docs/pooltool.md, "mathavan_2010 at a rolling ball").
const NO_SLIP: (f64, f64) = (-1.0, 0.0);

/// The ball's velocity (v_x, v_y) and spin (w_x, w_y, w_z) in the cushion frame.
#[derive(Clone, Copy)]
struct Impact {
    v: (f64, f64),
    w: (f64, f64, f64),
}

/// (cos, sin) of the slip angle at the cushion, then at the cloth.
type Directions = ((f64, f64), (f64, f64));

/// What the integration keeps fixed.
struct Setting {
    m: f64,
    r: f64,
    mu_s: f64,
    mu_w: f64,
    sin_t: f64,
    cos_t: f64,
}

impl Setting {
    /// The slip directions at the cushion and at the cloth: (cos phi, sin phi) and
    /// (cos phi', sin phi').
    fn angles(&self, s: &Impact) -> Directions {
        let (vx, vy) = s.v;
        let (wx, wy, wz) = s.w;
        let r = self.r;
        let x_i = vx + wy * r * self.sin_t - wz * r * self.cos_t;
        let y_i = -vy * self.sin_t + wx * r;
        let (x_c, y_c) = (vx - wy * r, vy + wx * r);
        let direction = |x: f64, y: f64| {
            let n = (x * x + y * y).sqrt();
            if n > 0.0 {
                (x / n, y / n)
            } else {
                NO_SLIP
            }
        };
        (direction(x_i, y_i), direction(x_c, y_c))
    }

    /// The velocities after one impulse step `dp` (eqs. 15-16), at the slip angles of `s`.
    fn velocity(&self, s: &Impact, (phi, phi_c): Directions, dp: f64) -> (f64, f64) {
        let (st, ct, mw, ms) = (self.sin_t, self.cos_t, self.mu_w, self.mu_s);
        let ((cos, sin), (cos_c, sin_c)) = (phi, phi_c);
        let k = st + mw * sin * ct;
        let (vx, vy) = s.v;
        (
            vx - (1.0 / self.m) * (mw * cos + ms * cos_c * k) * dp,
            vy - (1.0 / self.m) * (ct - mw * st * sin + ms * sin_c * k) * dp,
        )
    }

    /// The spins after one impulse step `dp` (eqs. 17-19).
    fn spin(&self, s: &Impact, (phi, phi_c): Directions, dp: f64) -> (f64, f64, f64) {
        let (st, ct, mw, ms) = (self.sin_t, self.cos_t, self.mu_w, self.mu_s);
        let ((cos, sin), (cos_c, sin_c)) = (phi, phi_c);
        let k = st + mw * sin * ct;
        let f = 5.0 / (2.0 * self.m * self.r);
        let (wx, wy, wz) = s.w;
        (
            wx + (-f * (mw * sin + ms * sin_c * k)) * dp,
            wy + (-f * (mw * cos * st - ms * cos_c * k)) * dp,
            wz + (f * (mw * cos * ct)) * dp,
        )
    }

    /// One Euler step of `dp`, returning the work of the normal force over it.
    fn step(&self, s: &mut Impact, dp: f64) -> f64 {
        let angles = self.angles(s);
        let v = self.velocity(s, angles, dp);
        s.w = self.spin(s, angles, dp);
        s.v = v;
        dp * s.v.1.abs() * self.cos_t
    }

    /// Compression: steps until the normal velocity would fall to zero (the last one halved
    /// eight times, keeping v_y > 0). Returns the work done.
    fn compress(&self, s: &mut Impact, max_steps: u32, delta_p: f64) -> f64 {
        let dp = (self.m * s.v.1 / f64::from(max_steps)).max(delta_p);
        let mut work = 0.0;
        for _ in 0..10 * u64::from(max_steps) {
            if s.v.1 <= 0.0 {
                break;
            }
            if self.velocity(s, self.angles(s), dp).1 <= 0.0 {
                let mut fine = dp;
                for _ in 0..8 {
                    fine /= 2.0;
                    if self.velocity(s, self.angles(s), fine).1 > 0.0 {
                        work += self.step(s, fine);
                    }
                }
                return work;
            }
            work += self.step(s, dp);
        }
        work
    }

    /// Restitution: steps until the work reaches `target`, the last one cut to the work left.
    fn restitute(&self, s: &mut Impact, target: f64, max_steps: u32, delta_p: f64) {
        let dp = (target / f64::from(max_steps)).max(delta_p);
        let mut work = 0.0;
        for _ in 0..10 * u64::from(max_steps) {
            if work >= target {
                return;
            }
            if work + dp * s.v.1.abs() * self.cos_t > target {
                let last = (target - work) / (s.v.1.abs() * self.cos_t);
                self.step(s, last);
                return;
            }
            work += self.step(s, dp);
        }
    }
}
