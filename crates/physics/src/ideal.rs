//! Seeds 002/001's ideal model: frictionless, constant-velocity balls.

use crate::hypot::hypot;
use crate::{
    collision::{elastic_ball_ball, mirror_cushion},
    BallState, EventKind, MotionState, Physics, Trajectory, Transition, Vec2, Vec3, SPEED_EPS,
};

/// The ideal 2D model of seeds 002/001: no friction, balls move at constant velocity (a moving
/// ball is *sliding*, frictionlessly, and never changes state by itself), elastic ball-ball
/// collisions, mirror cushions (normal velocity reversed), pocket capture.
#[derive(Clone, Debug, PartialEq)]
pub struct IdealPhysics {
    /// Ball radius R (m).
    pub radius: f64,
    /// Ball mass m (kg).
    pub mass: f64,
}

impl IdealPhysics {
    /// The state with velocity `v`, at rest exactly when below [`SPEED_EPS`].
    fn settle(&self, s: &BallState, v: Vec3) -> BallState {
        let motion = self.infer_motion(&v, &s.w);
        let v = if motion == MotionState::Stationary {
            Vec3::zeros()
        } else {
            v
        };
        BallState { v, motion, ..*s }
    }
}

impl Physics for IdealPhysics {
    fn radius(&self) -> f64 {
        self.radius
    }

    fn mass(&self) -> f64 {
        self.mass
    }

    fn infer_motion(&self, v: &Vec3, _w: &Vec3) -> MotionState {
        if hypot(v.x, v.y) < SPEED_EPS {
            MotionState::Stationary
        } else {
            MotionState::Sliding
        }
    }

    fn trajectory(&self, s: &BallState) -> Trajectory {
        if s.motion.is_translating() {
            Trajectory {
                a: Vec3::zeros(),
                b: s.v,
                c: s.r,
                valid_for: f64::INFINITY,
            }
        } else {
            Trajectory::at_rest(s.r)
        }
    }

    fn next_transition(&self, _s: &BallState) -> Option<Transition> {
        None
    }

    #[inline]
    fn evolve(&self, s: &BallState, t: f64) -> BallState {
        let mut out = *s;
        if s.motion.is_translating() {
            out.r = s.r + s.v * t;
        }
        out
    }

    fn accelerations(&self, _s: &BallState) -> (Vec3, Vec3) {
        (Vec3::zeros(), Vec3::zeros())
    }

    fn spin_decay_stops(&self, _s: &BallState) -> bool {
        false
    }

    #[inline]
    fn transition_crossed(&self, _before: &BallState, _after: &BallState) -> Option<EventKind> {
        None
    }

    fn apply_transition(&self, s: &BallState, _kind: EventKind) -> BallState {
        *s
    }

    fn resolve_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        let (va, vb) = elastic_ball_ball(a, b);
        (self.settle(a, va), self.settle(b, vb))
    }

    fn resolve_ball_cushion(&self, s: &BallState, normal: Vec2, _height: f64) -> BallState {
        self.settle(s, mirror_cushion(&s.v, normal))
    }

    /// Without friction nothing presses two balls together, so a contact that closes slowly is
    /// a slow collision, and the elastic law is its exact resolution (summing damped rebounds,
    /// as the pool model does, would lose energy this model conserves). A pair that does not
    /// close is left as it is: contacts push, they never pull.
    fn resolve_sustained_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        let n = (b.r - a.r).xy();
        if (a.v - b.v).xy().dot(&n) <= 0.0 {
            return (*a, *b);
        }
        self.resolve_ball_ball(a, b)
    }

    /// The mirror law, for the reason given at
    /// [`resolve_sustained_ball_ball`](Physics::resolve_sustained_ball_ball); a ball not moving
    /// into the cushion is left as it is.
    fn resolve_sustained_cushion(&self, s: &BallState, normal: Vec2) -> BallState {
        if s.v.xy().dot(&normal) <= 0.0 {
            return *s;
        }
        self.resolve_ball_cushion(s, normal, 0.0)
    }
}
