//! The physics trait that both evolution algorithms call.

use crate::{BallState, EventKind, IdealPhysics, Pocket, PoolPhysics, Trajectory, Vec2, Vec3};

/// A motion transition that will happen to a ball if nothing interrupts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// Time from now until the transition (s), >= 0.
    pub dt: f64,
    /// Which transition.
    pub kind: EventKind,
}

/// Equations of motion, transition rules and collision laws of one physical model.
///
/// Both engines see the world only through this trait, so any difference between their results
/// is due to the evolution algorithm alone. Implementations are pure functions of their inputs:
/// no hidden state, no randomness, bit-identical results for identical inputs.
pub trait Physics: Send + Sync {
    /// Ball radius R (m).
    fn radius(&self) -> f64;

    /// Ball mass m (kg).
    fn mass(&self) -> f64;

    /// The motion state implied by a ball's velocities (seed 004 conditions).
    fn infer_motion(&self, v: &Vec3, w: &Vec3) -> crate::MotionState;

    /// The center's trajectory coefficients r(t) = a t^2 + b t + c in the ball's current motion
    /// state and how long they stay valid (until its next transition).
    fn trajectory(&self, s: &BallState) -> Trajectory;

    /// The ball's next natural transition if nothing interrupts it (seed 000, "(4)"), or `None`
    /// for a ball that never changes state by itself.
    fn next_transition(&self, s: &BallState) -> Option<Transition>;

    /// The state after `t` seconds of analytic evolution in the current motion state
    /// (seed 004, Section I). The motion state is kept; for `t` beyond
    /// [`next_transition`](Physics::next_transition) the equations are extrapolated (velocities
    /// reverse), which is what a fixed-step integrator sees before it notices the transition.
    /// Independent spin decay (w_z while sliding or rolling) stops at zero and never reverses.
    fn evolve(&self, s: &BallState, t: f64) -> BallState;

    /// [`evolve`](Physics::evolve) on many balls by the same `t` (s): `out[k]` becomes
    /// `evolve(&states[k], t)` bit for bit for every moving ball k; the others' `out[k]` are
    /// left as they are. A model may order its arithmetic across balls for speed, never
    /// change it. `out` is at least as long as `states`.
    fn evolve_all(&self, states: &[BallState], t: f64, out: &mut [BallState]) {
        for (s, o) in states.iter().zip(out) {
            if s.motion.is_moving() {
                *o = self.evolve(s, t);
            }
        }
    }

    /// Time derivatives (dv/dt in m/s^2, dw/dt in rad/s^2) in the current motion state, for
    /// numerical stepping. Friction torques on w_z stop the spin; a stepper must not let w_z
    /// change sign through them (see [`Physics::spin_decay_stops`]).
    fn accelerations(&self, s: &BallState) -> (Vec3, Vec3);

    /// True when the model's w_z decay in state `s` is friction that stops at zero rather than a
    /// transition of its own (sliding and rolling balls in the pool model).
    fn spin_decay_stops(&self, s: &BallState) -> bool;

    /// Transition rule for fixed-step integration: given a ball's state before and after a step
    /// taken in the `before` motion state, the transition whose condition changed sign during
    /// the step (u reversed for sliding, v reversed for rolling, w_z reversed for spinning).
    fn transition_crossed(&self, before: &BallState, after: &BallState) -> Option<EventKind>;

    /// Applies a transition: sets the new motion state and makes velocities agree with it
    /// exactly (u = 0 when rolling starts, v = 0 when a ball stops, w = 0 when spinning stops).
    fn apply_transition(&self, s: &BallState, kind: EventKind) -> BallState;

    /// Ball-ball collision law (post-collision states). Both balls must be in contact.
    fn resolve_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState);

    /// Ball-cushion collision law. `normal` is the unit vector on the cloth from the ball's center
    /// toward the contact (into the cushion); `height` is the cushion's contact height (m).
    fn resolve_ball_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState;

    /// Sustained ball-ball contact (a pair in contact closing slowly, pressed together or whose
    /// rebounds have died down; the engine decides when): in a model with friction, the limit
    /// of its damped rebounds ([`crate::sustained_ball_ball`]); in a frictionless one, where
    /// nothing presses, its elastic law. Never pulls a pair that is not closing; kinetic energy
    /// never rises.
    fn resolve_sustained_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState);

    /// Sustained ball-cushion contact, as for [`Physics::resolve_sustained_ball_ball`]: with
    /// friction [`crate::sustained_cushion`], without it the cushion's law. `normal` as in
    /// [`Physics::resolve_ball_cushion`].
    fn resolve_sustained_cushion(&self, s: &BallState, normal: Vec2) -> BallState;

    /// Pocket capture: the ball leaves play (pocketed, at rest at the pocket's center).
    fn resolve_ball_pocket(&self, s: &BallState, pocket: &Pocket) -> BallState {
        crate::pocket_capture(s, pocket, self.radius())
    }

    /// Kinetic energy, translational plus rotational, 1/2 m v^2 + 1/2 I w^2 (J).
    fn kinetic_energy(&self, s: &BallState) -> f64 {
        let m = self.mass();
        let i = 0.4 * m * self.radius() * self.radius();
        0.5 * m * s.v.norm_squared() + 0.5 * i * s.w.norm_squared()
    }
}

/// Either model, chosen at run time (e.g. by a shot file), dispatching by `match`.
#[derive(Clone, Debug, PartialEq)]
pub enum AnyPhysics {
    /// Seed 004's pool model.
    Pool(PoolPhysics),
    /// Seeds 002/001's frictionless model.
    Ideal(IdealPhysics),
}

macro_rules! dispatch {
    ($self:ident, $p:ident => $e:expr) => {
        match $self {
            AnyPhysics::Pool($p) => $e,
            AnyPhysics::Ideal($p) => $e,
        }
    };
}

impl AnyPhysics {
    /// The model's name as written in shot files: `pool` or `ideal`.
    pub fn name(&self) -> &'static str {
        match self {
            AnyPhysics::Pool(_) => "pool",
            AnyPhysics::Ideal(_) => "ideal",
        }
    }
}

impl Physics for AnyPhysics {
    fn radius(&self) -> f64 {
        dispatch!(self, p => p.radius())
    }
    fn mass(&self) -> f64 {
        dispatch!(self, p => p.mass())
    }
    fn infer_motion(&self, v: &Vec3, w: &Vec3) -> crate::MotionState {
        dispatch!(self, p => p.infer_motion(v, w))
    }
    fn trajectory(&self, s: &BallState) -> Trajectory {
        dispatch!(self, p => p.trajectory(s))
    }
    fn next_transition(&self, s: &BallState) -> Option<Transition> {
        dispatch!(self, p => p.next_transition(s))
    }
    #[inline]
    fn evolve(&self, s: &BallState, t: f64) -> BallState {
        dispatch!(self, p => p.evolve(s, t))
    }
    fn evolve_all(&self, states: &[BallState], t: f64, out: &mut [BallState]) {
        dispatch!(self, p => p.evolve_all(states, t, out))
    }
    fn accelerations(&self, s: &BallState) -> (Vec3, Vec3) {
        dispatch!(self, p => p.accelerations(s))
    }
    fn spin_decay_stops(&self, s: &BallState) -> bool {
        dispatch!(self, p => p.spin_decay_stops(s))
    }
    #[inline]
    fn transition_crossed(&self, before: &BallState, after: &BallState) -> Option<EventKind> {
        dispatch!(self, p => p.transition_crossed(before, after))
    }
    fn apply_transition(&self, s: &BallState, kind: EventKind) -> BallState {
        dispatch!(self, p => p.apply_transition(s, kind))
    }
    fn resolve_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        dispatch!(self, p => p.resolve_ball_ball(a, b))
    }
    fn resolve_ball_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState {
        dispatch!(self, p => p.resolve_ball_cushion(s, normal, height))
    }
    fn resolve_ball_pocket(&self, s: &BallState, pocket: &Pocket) -> BallState {
        dispatch!(self, p => p.resolve_ball_pocket(s, pocket))
    }
    fn resolve_sustained_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        dispatch!(self, p => p.resolve_sustained_ball_ball(a, b))
    }
    fn resolve_sustained_cushion(&self, s: &BallState, normal: Vec2) -> BallState {
        dispatch!(self, p => p.resolve_sustained_cushion(s, normal))
    }
}
