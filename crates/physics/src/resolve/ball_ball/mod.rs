//! Ball–ball collision laws (pooltool's `ball_ball` event type), one file per law.
//!
//! Adding a built-in law: a file with a struct implementing [`Law`], [`BuiltIn`] and
//! [`BallBallLaw`], and its line in `law_models!` below. A law defined outside this crate is
//! added at run time with [`BallBallModel::register`].

mod frictional_inelastic;
mod frictional_mathavan;
mod frictionless_elastic;

pub use frictional_inelastic::{frictional_inelastic, Friction, FrictionalInelastic};
pub use frictional_mathavan::FrictionalMathavan;
pub use frictionless_elastic::{elastic_ball_ball, FrictionlessElastic};

#[cfg(doc)]
use super::law::BuiltIn;
use super::law::{law_models, Law};
use crate::motion::Motion;
use crate::{BallParams, BallState, Vec3};

/// A ball's new (v, w) from a law, before the equations of motion settle its motion state.
pub type Velocities = (Vec3, Vec3);

/// One ball–ball collision law.
pub trait BallBallLaw: Law {
    /// The new (v, w) of balls `a` and `b`, in contact (centers 2R apart) and approaching.
    fn resolve(&self, p: &BallParams, a: &BallState, b: &BallState) -> [Velocities; 2];

    /// Its sustained partner, for a pair in contact that closes slowly (the event engine's
    /// cluster solver decides when): the new (v, w) of both, or `None` to leave them as they
    /// are. The default is [`sustained_pair`] with this law's own resolution.
    fn sustained(
        &self,
        p: &BallParams,
        motion: Motion,
        a: &BallState,
        b: &BallState,
    ) -> Option<[Velocities; 2]> {
        sustained_pair(p, motion, a, b, || self.resolve(p, a, b))
    }
}

/// The default sustained ball–ball law. With cloth friction (which presses balls together) the
/// limit of the pair's damped rebounds ([`crate::resolve::sustained::pressed_pair`]); without
/// it, where nothing presses, a slowly closing contact is a slow collision and `resolve` (the
/// law itself) is its exact resolution: summing damped rebounds would lose energy such a model
/// conserves. A pair that does not close is left as it is: contacts push, they never pull.
pub fn sustained_pair(
    p: &BallParams,
    motion: Motion,
    a: &BallState,
    b: &BallState,
    resolve: impl FnOnce() -> [Velocities; 2],
) -> Option<[Velocities; 2]> {
    if motion.has_friction() {
        return Some(super::sustained::pressed_pair(p, a, b));
    }
    let n = (b.r - a.r).xy();
    if (a.v - b.v).xy().dot(&n) <= 0.0 {
        return None;
    }
    Some(resolve())
}

law_models! { $
    /// The ball–ball law of a model: a built-in law (static dispatch) or one registered at run
    /// time.
    BallBallModel: dyn BallBallLaw, "ball_ball" {
        FrictionlessElastic(FrictionlessElastic),
        FrictionalInelastic(FrictionalInelastic),
        FrictionalMathavan(FrictionalMathavan),
    }
}

impl BallBallModel {
    /// See [`BallBallLaw::resolve`].
    pub fn resolve(&self, p: &BallParams, a: &BallState, b: &BallState) -> [Velocities; 2] {
        each_law!(self, l => l.resolve(p, a, b))
    }

    /// See [`BallBallLaw::sustained`].
    pub fn sustained(
        &self,
        p: &BallParams,
        motion: Motion,
        a: &BallState,
        b: &BallState,
    ) -> Option<[Velocities; 2]> {
        each_law!(self, l => l.sustained(p, motion, a, b))
    }
}
