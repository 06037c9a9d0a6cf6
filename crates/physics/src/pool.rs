//! Seed 004's pool model: cloth friction, four natural transitions, Han (2005) cushions.

use crate::hypot::hypot;
use crate::{
    collision::{
        burn_pressing_slip, elastic_ball_ball, han2005_cushion, sustained_ball_ball,
        sustained_cushion,
    },
    BallParams, BallState, EventKind, MotionState, Physics, Trajectory, Transition, Vec2, Vec3,
    SPEED_EPS,
};

/// The pool model of seed 004 (Kiefl, "The physics of pool"), as built by pooltool 0.6.0:
/// stationary / spinning / sliding / rolling / pocketed balls, the four natural transitions,
/// elastic frictionless ball-ball collisions and Han (2005) ball-cushion collisions.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolPhysics {
    /// Ball and friction parameters.
    pub params: BallParams,
}

impl PoolPhysics {
    /// The model with the given parameters (not validated here: see [`BallParams::validate`]).
    pub fn new(params: BallParams) -> Self {
        PoolPhysics { params }
    }

    /// Rate of w_z decay from spinning friction, 5 mu_sp g / (2R) (rad/s^2).
    fn spin_decel(&self) -> f64 {
        let p = &self.params;
        5.0 * p.mu_sp * p.g / (2.0 * p.radius)
    }

    /// w_z after t seconds of spinning friction that stops at zero (never reverses).
    fn decayed_spin(&self, wz: f64, t: f64) -> f64 {
        let drop = self.spin_decel() * t;
        if wz.abs() <= drop {
            0.0
        } else {
            wz - drop.copysign(wz)
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

    /// The unit vector cloth friction opposes: the contact velocity's (sliding) or the
    /// velocity's (rolling); zero in other states.
    #[inline]
    fn friction_direction(&self, s: &BallState) -> Vec3 {
        match s.motion {
            MotionState::Sliding => Self::unit_xy(&s.contact_velocity(self.params.radius)),
            MotionState::Rolling => Self::unit_xy(&s.v),
            _ => Vec3::zeros(),
        }
    }

    /// [`Physics::evolve`] given `dir`, the ball's [`PoolPhysics::friction_direction`].
    #[inline]
    fn evolve_along(&self, s: &BallState, t: f64, dir: &Vec3) -> BallState {
        let p = &self.params;
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
                out.w = Vec3::new(s.w.x + dw.x, s.w.y + dw.y, self.decayed_spin(s.w.z, t));
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
        let p = &self.params;
        let mu = match s.motion {
            MotionState::Sliding => p.mu_s,
            MotionState::Rolling => p.mu_r,
            _ => return Vec3::zeros(),
        };
        -self.friction_direction(s) * (0.5 * mu * p.g)
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
fn k_cross(u: &Vec3) -> Vec3 {
    Vec3::new(-u.y, u.x, 0.0)
}

impl Physics for PoolPhysics {
    fn radius(&self) -> f64 {
        self.params.radius
    }

    fn mass(&self) -> f64 {
        self.params.m
    }

    fn infer_motion(&self, v: &Vec3, w: &Vec3) -> MotionState {
        BallState::infer_motion(v, w, self.params.radius)
    }

    fn trajectory(&self, s: &BallState) -> Trajectory {
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
    fn next_transition(&self, s: &BallState) -> Option<Transition> {
        let p = &self.params;
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
    /// w_xy(t) = w_xy0 + 5 mu_s g t / (2R) (k x u^0); the seed's and physics-notes' minus sign
    /// there is for u^0 x k; this sign is the one for which u(t) = (u0 - 7/2 mu_s g t) u^0).
    #[inline]
    fn evolve(&self, s: &BallState, t: f64) -> BallState {
        self.evolve_along(s, t, &self.friction_direction(s))
    }

    /// The same states as [`PoolPhysics::evolve`] on each ball, bit for bit, with the unit
    /// vectors of a block of balls found first: their square roots and divisions do not wait
    /// on each other, where one ball's evolution is a chain of them.
    fn evolve_all(&self, states: &[BallState], t: f64, out: &mut [BallState]) {
        const BLOCK: usize = 16;
        let mut dirs = [Vec3::zeros(); BLOCK];
        for (states, out) in states.chunks(BLOCK).zip(out.chunks_mut(BLOCK)) {
            for (dir, s) in dirs.iter_mut().zip(states) {
                *dir = self.friction_direction(s);
            }
            for ((s, o), dir) in states.iter().zip(out).zip(&dirs) {
                if s.motion.is_moving() {
                    *o = self.evolve_along(s, t, dir);
                }
            }
        }
    }

    fn accelerations(&self, s: &BallState) -> (Vec3, Vec3) {
        let p = &self.params;
        let spin = if s.w.z == 0.0 {
            0.0
        } else {
            -self.spin_decel().copysign(s.w.z)
        };
        let dir = self.friction_direction(s);
        match s.motion {
            MotionState::Stationary | MotionState::Pocketed => (Vec3::zeros(), Vec3::zeros()),
            MotionState::Spinning => (Vec3::zeros(), Vec3::new(0.0, 0.0, spin)),
            MotionState::Sliding => {
                let dv = -dir * (p.mu_s * p.g);
                let dw = k_cross(&dir) * (2.5 * p.mu_s * p.g / p.radius);
                (dv, Vec3::new(dw.x, dw.y, spin))
            }
            MotionState::Rolling => {
                let dv = -dir * (p.mu_r * p.g);
                let dw = k_cross(&dv) / p.radius;
                (dv, Vec3::new(dw.x, dw.y, spin))
            }
        }
    }

    fn spin_decay_stops(&self, s: &BallState) -> bool {
        s.motion.is_translating()
    }

    #[inline]
    fn transition_crossed(&self, before: &BallState, after: &BallState) -> Option<EventKind> {
        let r = self.params.radius;
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

    fn apply_transition(&self, s: &BallState, kind: EventKind) -> BallState {
        let r = self.params.radius;
        let mut out = *s;
        out.v.z = 0.0;
        match kind {
            EventKind::SlidingRolling => {
                // Cloth friction acts at the contact point, so it conserves the angular momentum
                // about that point, L = I w + m R k x v; the rolling state with the same L has
                // k x v = (2/7) R w_xy + (5/7) k x v. At the exact transition time (u = 0) this
                // is v itself; a fixed-step integrator that overshot u = 0 gets the exact rolling
                // velocity back, and never more energy than it had (rolling is the least-energy
                // state with that L).
                let q = (out.w.xy() * r) * (2.0 / 7.0) + k_cross(&out.v).xy() * (5.0 / 7.0);
                out.v = Vec3::new(q.y, -q.x, 0.0);
                let w_xy = k_cross(&out.v) / r;
                out.w.x = w_xy.x;
                out.w.y = w_xy.y;
                out.motion = self.infer_motion(&out.v, &out.w);
            }
            EventKind::RollingStationary | EventKind::RollingSpinning => {
                out.v = Vec3::zeros();
                out.w.x = 0.0;
                out.w.y = 0.0;
                if (out.w.z * r).abs() < SPEED_EPS {
                    out.w.z = 0.0;
                }
                out.motion = self.infer_motion(&out.v, &out.w);
            }
            EventKind::SpinningStationary => {
                out.v = Vec3::zeros();
                out.w = Vec3::zeros();
                out.motion = MotionState::Stationary;
            }
            // Collisions are not transitions: leave the state alone.
            EventKind::BallBall | EventKind::BallLinearCushion | EventKind::BallPocket => {}
        }
        out
    }

    fn resolve_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        let (va, vb) = elastic_ball_ball(a, b);
        let r = self.params.radius;
        (
            BallState::settled(a.r, va, a.w, r),
            BallState::settled(b.r, vb, b.w, r),
        )
    }

    fn resolve_ball_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState {
        let (v, w) = han2005_cushion(s, normal, height, &self.params);
        BallState::settled(s.r, v, w, self.params.radius)
    }

    fn resolve_sustained_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        // A ball without slip stays rolling through the damped rebounds (each short sliding
        // phase ends in rolling), so it answers a push at its center with 7/5 of its mass; a
        // sliding ball's friction is saturated and it answers with its mass.
        let r = self.params.radius;
        let gap = b.r.xy() - a.r.xy();
        let n = gap / gap.norm();
        let rolls = |s: &BallState| s.motion != MotionState::Sliding;
        let weight = |s: &BallState| if rolls(s) { 1.4 } else { 1.0 };
        let (va, vb) = sustained_ball_ball(a, b, weight(a), weight(b));
        let settle = |s: &BallState, v: Vec3, into: Vec2| {
            let w = if rolls(s) {
                let w_xy = k_cross(&v) / r;
                Vec3::new(w_xy.x, w_xy.y, s.w.z)
            } else {
                burn_pressing_slip(&v, &s.w, into, r)
            };
            BallState::settled(s.r, v, w, r)
        };
        (settle(a, va, n), settle(b, vb, -n))
    }

    fn resolve_sustained_cushion(&self, s: &BallState, normal: Vec2) -> BallState {
        let v = sustained_cushion(&s.v, normal);
        let w = burn_pressing_slip(&v, &s.w, normal, self.params.radius);
        BallState::settled(s.r, v, w, self.params.radius)
    }
}
