//! Seed 004's equations of motion on cloth (Section I) and the four natural transitions'
//! timing (seed 000, "(4)"): stationary, spinning, sliding, rolling.

use crate::hypot::hypot;
use crate::{
    BallParams, BallState, EventKind, MotionState, Trajectory, Transition, Vec3, SPEED_EPS,
};

/// The cloth equations of one ball set (radius, friction coefficients, g), and the scale of
/// spinning friction on w_z while the ball slides: 1 in seed 004's equations, 1/4 in
/// FastFiz's (`Shot::updateSpinning`, "the sliding factor is to match Poolfiz").
#[derive(Clone, Copy)]
pub(crate) struct Cloth<'a>(pub &'a BallParams, pub f64);

impl Cloth<'_> {
    /// Rate of w_z decay from spinning friction, 5 mu_sp g / (2R) (rad/s^2).
    fn spin_decel(&self) -> f64 {
        let p = self.0;
        5.0 * p.mu_sp * p.g / (2.0 * p.radius)
    }

    /// Rate of w_z decay while the ball slides (rad/s^2): [`Cloth::spin_decel`] times the
    /// sliding scale (exactly it for seed 004's scale 1).
    fn sliding_spin_decel(&self) -> f64 {
        self.spin_decel() * self.1
    }

    /// w_z after t seconds of spinning friction that stops at zero (never reverses).
    fn decayed_spin(&self, wz: f64, t: f64) -> f64 {
        decayed(wz, self.spin_decel() * t)
    }

    /// w_z after t seconds of sliding (its spinning friction scaled, stopping at zero).
    fn decayed_sliding_spin(&self, wz: f64, t: f64) -> f64 {
        decayed(wz, self.sliding_spin_decel() * t)
    }
}

/// w_z after friction has taken `drop` (rad/s) off its magnitude, stopping at zero.
#[inline]
fn decayed(wz: f64, drop: f64) -> f64 {
    if wz.abs() <= drop {
        0.0
    } else {
        wz - drop.copysign(wz)
    }
}

impl Cloth<'_> {
    /// The unit vector cloth friction opposes: the contact velocity's (sliding) or the
    /// velocity's (rolling); zero in other states.
    #[inline]
    fn friction_direction(&self, s: &BallState) -> Vec3 {
        match s.motion {
            MotionState::Sliding => unit_xy(&s.contact_velocity(self.0.radius)),
            MotionState::Rolling => unit_xy(&s.v),
            _ => Vec3::zeros(),
        }
    }

    /// [`Cloth::evolve`] given `dir`, the ball's [`Cloth::friction_direction`].
    #[inline]
    fn evolve_along(&self, s: &BallState, t: f64, dir: &Vec3) -> BallState {
        let p = self.0;
        let mut out = *s;
        match s.motion {
            MotionState::Stationary | MotionState::Pocketed => {}
            MotionState::Spinning => {
                out.w.z = s.w.z - (self.spin_decel() * t).copysign(s.w.z);
            }
            MotionState::Sliding => {
                let u_hat = dir;
                let dv = p.mu_s * p.g * t;
                out.r = s.r + s.v * t - u_hat * (0.5 * dv * t);
                out.v = s.v - u_hat * dv;
                let dw = k_cross(u_hat) * (2.5 * dv / p.radius);
                out.w = Vec3::new(
                    s.w.x + dw.x,
                    s.w.y + dw.y,
                    self.decayed_sliding_spin(s.w.z, t),
                );
            }
            MotionState::Rolling => {
                let v_hat = dir;
                let dv = p.mu_r * p.g * t;
                out.r = s.r + s.v * t - v_hat * (0.5 * dv * t);
                out.v = s.v - v_hat * dv;
                let w_xy = k_cross(&out.v) / p.radius;
                out.w = Vec3::new(w_xy.x, w_xy.y, self.decayed_spin(s.w.z, t));
            }
        }
        out
    }

    /// Half the center's acceleration in the current state: the `a` of r(t) = a t^2 + b t + c.
    fn half_acceleration(&self, s: &BallState) -> Vec3 {
        let p = self.0;
        let mu = match s.motion {
            MotionState::Sliding => p.mu_s,
            MotionState::Rolling => p.mu_r,
            _ => return Vec3::zeros(),
        };
        -self.friction_direction(s) * (0.5 * mu * p.g)
    }

    pub fn trajectory(&self, s: &BallState) -> Trajectory {
        let valid_for = self.next_transition(s).map_or(f64::INFINITY, |t| t.dt);
        if !s.motion.is_translating() {
            return Trajectory {
                valid_for,
                ..Trajectory::at_rest(s.r)
            };
        }
        Trajectory {
            a: self.half_acceleration(s),
            b: s.v,
            c: s.r,
            valid_for,
        }
    }

    /// Seed 000, "(4)": sliding -> rolling at 2|u0| / (7 mu_s g); rolling -> stationary or
    /// spinning at |v0| / (mu_r g) (spinning if w_z survives that long); spinning -> stationary at
    /// 2R |w_z| / (5 mu_sp g).
    pub fn next_transition(&self, s: &BallState) -> Option<Transition> {
        let p = self.0;
        let (dt, kind) = match s.motion {
            MotionState::Sliding => {
                let u = s.contact_velocity(p.radius);
                (
                    2.0 * hypot(u.x, u.y) / (7.0 * p.mu_s * p.g),
                    EventKind::SlidingRolling,
                )
            }
            MotionState::Rolling => {
                let dt = hypot(s.v.x, s.v.y) / (p.mu_r * p.g);
                let kind = if self.decayed_spin(s.w.z, dt) == 0.0 {
                    EventKind::RollingStationary
                } else {
                    EventKind::RollingSpinning
                };
                (dt, kind)
            }
            MotionState::Spinning => (
                s.w.z.abs() / self.spin_decel(),
                EventKind::SpinningStationary,
            ),
            MotionState::Stationary | MotionState::Pocketed => return None,
        };
        (dt.is_finite()).then_some(Transition { dt, kind })
    }

    /// Seed 004, Section I (sliding: v(t) = v0 - mu_s g t u^0,
    /// w_xy(t) = w_xy0 + 5 mu_s g t / (2R) (k x u^0); the seed's minus sign (docs/physics.md)
    /// there is for u^0 x k; this sign is the one for which u(t) = (u0 - 7/2 mu_s g t) u^0).
    #[inline]
    pub fn evolve(&self, s: &BallState, t: f64) -> BallState {
        self.evolve_along(s, t, &self.friction_direction(s))
    }

    /// The same states as [`Cloth::evolve`] on each ball, bit for bit, with the unit vectors of
    /// a block of balls found first: their square roots and divisions do not wait on each
    /// other, where one ball's evolution is a chain of them.
    pub fn evolve_all(&self, states: &[BallState], t: f64, out: &mut [BallState]) {
        // A local copy of the parameters: the writes to `out` cannot alias it, so their loads
        // stay out of the loop (through the borrowed reference they were reloaded every ball).
        let params = *self.0;
        let this = Cloth(&params, self.1);
        const BLOCK: usize = 16;
        let mut dirs = [Vec3::zeros(); BLOCK];
        for (states, out) in states.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
            for (dir, s) in dirs.iter_mut().zip(states) {
                *dir = this.friction_direction(s);
            }
            for ((s, o), dir) in states.iter().zip(out).zip(&dirs) {
                if s.motion.is_moving() {
                    *o = this.evolve_along(s, t, dir);
                }
            }
        }
    }

    pub fn accelerations(&self, s: &BallState) -> (Vec3, Vec3) {
        let p = self.0;
        let spin_at = |rate: f64| {
            if s.w.z == 0.0 {
                0.0
            } else {
                -rate.copysign(s.w.z)
            }
        };
        let spin = spin_at(self.spin_decel());
        let dir = self.friction_direction(s);
        match s.motion {
            MotionState::Stationary | MotionState::Pocketed => (Vec3::zeros(), Vec3::zeros()),
            MotionState::Spinning => (Vec3::zeros(), Vec3::new(0.0, 0.0, spin)),
            MotionState::Sliding => {
                let dv = -dir * (p.mu_s * p.g);
                let dw = k_cross(&dir) * (2.5 * p.mu_s * p.g / p.radius);
                (
                    dv,
                    Vec3::new(dw.x, dw.y, spin_at(self.sliding_spin_decel())),
                )
            }
            MotionState::Rolling => {
                let dv = -dir * (p.mu_r * p.g);
                let dw = k_cross(&dv) / p.radius;
                (dv, Vec3::new(dw.x, dw.y, spin))
            }
        }
    }

    #[inline]
    pub fn transition_crossed(&self, before: &BallState, after: &BallState) -> Option<EventKind> {
        let r = self.0.radius;
        match before.motion {
            MotionState::Sliding => {
                let (u0, u1) = (before.contact_velocity(r), after.contact_velocity(r));
                (u0.dot(&u1) <= 0.0 || below_speed_eps(u1.x, u1.y))
                    .then_some(EventKind::SlidingRolling)
            }
            MotionState::Rolling => {
                // The planar dot product: v_z is +0 in every state (shot files and the laws
                // enforce it), so the z term only turns a -0 sum into +0, which compares the
                // same; and the state just written is not read back across its stores.
                let turned = before.v.x * after.v.x + before.v.y * after.v.y <= 0.0;
                if turned || below_speed_eps(after.v.x, after.v.y) {
                    Some(if (after.w.z * r).abs() < SPEED_EPS {
                        EventKind::RollingStationary
                    } else {
                        EventKind::RollingSpinning
                    })
                } else {
                    None
                }
            }
            MotionState::Spinning => (before.w.z * after.w.z <= 0.0
                || (after.w.z * r).abs() < SPEED_EPS)
                .then_some(EventKind::SpinningStationary),
            MotionState::Stationary | MotionState::Pocketed => None,
        }
    }
}

impl Cloth<'_> {
    /// See [`crate::Physics::transition_margin`]: the product [`Cloth::transition_crossed`]
    /// tests (u0 . u1 sliding, v0 . v1 rolling, w_z0 w_z1 spinning), at most 0 where that test
    /// reports a crossing because the speed fell below [`SPEED_EPS`]; +inf for a ball with no
    /// transition. Linear in the time between the two states along one motion segment (seed
    /// 004, Section I: u, v and w_z change linearly), so a secant step finds its zero at once.
    pub fn transition_margin(&self, before: &BallState, after: &BallState) -> f64 {
        let r = self.0.radius;
        let (dot, small) = match before.motion {
            MotionState::Sliding => {
                let (u0, u1) = (before.contact_velocity(r), after.contact_velocity(r));
                (u0.dot(&u1), below_speed_eps(u1.x, u1.y))
            }
            MotionState::Rolling => (
                before.v.x * after.v.x + before.v.y * after.v.y,
                below_speed_eps(after.v.x, after.v.y),
            ),
            MotionState::Spinning => (before.w.z * after.w.z, (after.w.z * r).abs() < SPEED_EPS),
            MotionState::Stationary | MotionState::Pocketed => return f64::INFINITY,
        };
        if small {
            dot.min(0.0)
        } else {
            dot
        }
    }
}

/// Unit direction of a planar vector, or zero for a zero vector.
#[inline]
fn unit_xy(u: &Vec3) -> Vec3 {
    let n = hypot(u.x, u.y);
    if n > 0.0 {
        Vec3::new(u.x / n, u.y / n, 0.0)
    } else {
        Vec3::zeros()
    }
}

/// `hypot(x, y) < SPEED_EPS`, without the `hypot` call when a component alone reaches
/// `SPEED_EPS` (hypot(x, y) >= max(|x|, |y|): the exact value is, and a faithfully rounded result
/// cannot fall below a float under it). Same answer, bit for bit; the discrete integrator asks
/// this of every moving ball at every step.
#[inline]
fn below_speed_eps(x: f64, y: f64) -> bool {
    x.abs() < SPEED_EPS && y.abs() < SPEED_EPS && hypot(x, y) < SPEED_EPS
}

/// k x u for a planar u: (-u_y, u_x, 0).
#[inline]
pub(crate) fn k_cross(u: &Vec3) -> Vec3 {
    Vec3::new(-u.y, u.x, 0.0)
}
