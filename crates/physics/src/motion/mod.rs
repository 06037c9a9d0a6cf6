//! Equations of motion and the timing of natural transitions: how a ball moves between events
//! (seed 004, Section I; seed 000, "(4)"). The collision laws and the transitions' effect are
//! in [`crate::resolve`].

pub(crate) mod cloth;
pub(crate) mod frictionless;

use crate::{BallParams, BallState, EventKind, MotionState, Trajectory, Transition, Vec3};

/// The equations of motion a model's balls follow between events.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Motion {
    /// Seed 004 (pooltool's evolution): balls on cloth, stationary / spinning / sliding /
    /// rolling, decelerated by sliding friction mu_s, rolling resistance mu_r and spinning
    /// friction mu_sp under gravity g; four natural transitions.
    Cloth,
    /// FastFiz's equations of motion (FastFiz.cpp `Shot::updateBall`, `Shot::updateSpinning`,
    /// `Shot::nextTransitionEvent`: Leckie & Greenspan 2006, equations (4)-(15)): seed 004's
    /// cloth equations except that spinning friction slows w_z at a quarter of its rate while
    /// the ball slides (`updateSpinning`'s `isSliding ? 0.25 : 1`, "to match Poolfiz"). The
    /// `fastfiz` preset's motion; docs/fastfiz.md.
    FastFiz,
    /// Seeds 002/001: frictionless balls at constant velocity (a moving ball is *sliding*,
    /// frictionlessly), no transitions. Shots need a `t_end`: nothing stops.
    Frictionless,
}

impl Motion {
    /// Every motion model, in the order of [`Motion::NAMES`].
    pub const ALL: [Motion; 3] = [Motion::Cloth, Motion::Frictionless, Motion::FastFiz];

    /// Names accepted in shot files (`[physics] motion = ...`).
    pub const NAMES: [&'static str; 3] = ["cloth", "frictionless", "fastfiz"];

    /// The name in shot files: `cloth`, `frictionless` or `fastfiz`.
    pub fn name(self) -> &'static str {
        match self {
            Motion::Cloth => "cloth",
            Motion::Frictionless => "frictionless",
            Motion::FastFiz => "fastfiz",
        }
    }

    /// The scale of spinning friction on w_z while a ball slides: 1/4 for FastFiz's
    /// equations, 1 otherwise.
    #[inline]
    pub fn sliding_spin_scale(self) -> f64 {
        if self == Motion::FastFiz {
            0.25
        } else {
            1.0
        }
    }

    /// The model of that name, or `None`.
    pub fn by_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The ball parameters ([`BallParams`] field names as in shot files) these equations read;
    /// every model also reads `m` and `R`.
    pub fn ball_params(self) -> &'static [&'static str] {
        match self {
            Motion::Cloth | Motion::FastFiz => &["m", "R", "mu_s", "mu_r", "mu_sp", "g"],
            Motion::Frictionless => &["m", "R"],
        }
    }

    /// True when friction with the cloth can press a ball into a contact (and so a contact can
    /// be *sustained*, see [`crate::Physics::resolve_sustained_ball_ball`]).
    pub fn has_friction(self) -> bool {
        self != Motion::Frictionless
    }

    /// The motion state implied by a ball's velocities.
    pub fn infer_motion(self, p: &BallParams, v: &Vec3, w: &Vec3) -> MotionState {
        match self {
            Motion::Cloth | Motion::FastFiz => BallState::infer_motion(v, w, p.radius),
            Motion::Frictionless => frictionless::infer_motion(v),
        }
    }

    /// The ball `before` (its position and parameter set `p` kept) with velocities `v`, `w`,
    /// made to agree exactly with the motion state they imply: what a collision law's new v
    /// and w become (cloth: [`BallState::settled`]; frictionless: at rest below
    /// [`crate::SPEED_EPS`], spin kept).
    pub fn settle(self, p: &BallParams, before: &BallState, v: Vec3, w: Vec3) -> BallState {
        let r = before.r;
        let settled = match self {
            Motion::Cloth | Motion::FastFiz => BallState::settled(r, v, w, p.radius),
            Motion::Frictionless => frictionless::settle(r, v, w),
        };
        settled.with_set(before.set)
    }

    /// See [`crate::Physics::trajectory`].
    pub fn trajectory(self, p: &BallParams, s: &BallState) -> Trajectory {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).trajectory(s)
            }
            Motion::Frictionless => frictionless::trajectory(s),
        }
    }

    /// See [`crate::Physics::next_transition`].
    pub fn next_transition(self, p: &BallParams, s: &BallState) -> Option<Transition> {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).next_transition(s)
            }
            Motion::Frictionless => None,
        }
    }

    /// See [`crate::Physics::evolve`].
    #[inline]
    pub fn evolve(self, p: &BallParams, s: &BallState, t: f64) -> BallState {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).evolve(s, t)
            }
            Motion::Frictionless => frictionless::evolve(s, t),
        }
    }

    /// See [`crate::Physics::evolve_all`].
    pub fn evolve_all(self, p: &BallParams, states: &[BallState], t: f64, out: &mut [BallState]) {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).evolve_all(states, t, out)
            }
            Motion::Frictionless => {
                for (s, o) in states.iter().zip(out) {
                    if s.motion.is_moving() {
                        *o = frictionless::evolve(s, t);
                    }
                }
            }
        }
    }

    /// See [`crate::Physics::accelerations`].
    pub fn accelerations(self, p: &BallParams, s: &BallState) -> (Vec3, Vec3) {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).accelerations(s)
            }
            Motion::Frictionless => (Vec3::zeros(), Vec3::zeros()),
        }
    }

    /// See [`crate::Physics::spin_decay_stops`].
    pub fn spin_decay_stops(self, s: &BallState) -> bool {
        match self {
            Motion::Cloth | Motion::FastFiz => s.motion.is_translating(),
            Motion::Frictionless => false,
        }
    }

    /// See [`crate::Physics::transition_margin`].
    pub fn transition_margin(self, p: &BallParams, before: &BallState, after: &BallState) -> f64 {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).transition_margin(before, after)
            }
            Motion::Frictionless => f64::INFINITY,
        }
    }

    /// See [`crate::Physics::transition_crossed`].
    #[inline]
    pub fn transition_crossed(
        self,
        p: &BallParams,
        before: &BallState,
        after: &BallState,
    ) -> Option<EventKind> {
        match self {
            Motion::Cloth | Motion::FastFiz => {
                cloth::Cloth(p, self.sliding_spin_scale()).transition_crossed(before, after)
            }
            Motion::Frictionless => None,
        }
    }
}
