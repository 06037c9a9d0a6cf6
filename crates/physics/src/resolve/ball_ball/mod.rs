//! Ball–ball collision laws (pooltool's `ball_ball` event type), one file per law.
//!
//! Adding a built-in law: a file with a struct implementing [`Law`], [`BuiltIn`] and
//! [`BallBallLaw`], and its line in `law_models!` below. A law defined outside this crate is
//! added at run time with [`BallBallModel::register`].

mod fastfiz;
mod frictional_inelastic;
mod frictional_mathavan;
mod frictionless_elastic;

pub use fastfiz::{FastFiz, FASTFIZ_VELOCITY_EPSILON};
pub use frictional_inelastic::{
    frictional_inelastic, Friction, FrictionImpulse, FrictionalInelastic,
};
pub use frictional_mathavan::{ClothSlip, FrictionalMathavan};
pub use frictionless_elastic::{elastic_ball_ball, FrictionlessElastic};

#[cfg(doc)]
use super::law::BuiltIn;
use super::law::{law_models, Law};
use crate::motion::Motion;
use crate::{BallParams, BallState, Vec3};

/// A ball's new (v, w) from a law, before the equations of motion settle its motion state.
pub type Velocities = (Vec3, Vec3);

/// One ball–ball collision law.
///
/// The balls may differ: each comes with its own parameters (`pa` for `a`, `pb` for `b`: mass,
/// radius, restitution, friction), and a law that pairs two coefficients (e_b, mu_b) combines
/// them as pooltool does, by their mean.
///
/// **Ball order.** `a` is the ball that comes earlier in the set-up (the shot file, or the
/// request's ball list), `b` the later one, in every engine: the event engine, every discrete
/// scheme, their sustained and cluster paths ([`crate::Physics::resolve_ball_ball_in_setup_order`]
/// swaps the arguments and the results back). A symmetric law gives the same answer either way
/// up to rounding; an asymmetric one (`fastfiz`, whose first ball's speed along the line of
/// centres feeds the friction impulse, as FastFiz's own "ball 1", the lower ball number) would
/// otherwise give two engines two physics.
pub trait BallBallLaw: Law {
    /// The new (v, w) of balls `a` (parameters `pa`) and `b` (`pb`), touching (centers
    /// [`crate::contact_distance`] apart on the cloth) and approaching.
    fn resolve(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2];

    /// pooltool 0.6.0's contact spacer (m) for this law, its parameter `spacer`: before the law
    /// runs, [`crate::Model`] moves the pair that far apart along their paths
    /// ([`crate::resolve::spacer::kissed_pair`]), so the law reads the line of centers there
    /// and the balls leave from there, as pooltool's `make_kiss` does. The default 0 resolves
    /// the collision where the balls touch.
    fn spacer(&self) -> f64 {
        0.0
    }

    /// Its sustained partner, for a pair in contact that closes slowly (the event engine's
    /// cluster solver decides when): the new (v, w) of both, or `None` to leave them as they
    /// are. The default is [`sustained_pair`] with this law's own resolution.
    fn sustained(
        &self,
        motion: Motion,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> Option<[Velocities; 2]> {
        sustained_pair(motion, pa, a, pb, b, || self.resolve(pa, a, pb, b))
    }
}

/// The default sustained ball–ball law. With cloth friction (which presses balls together) the
/// limit of the pair's damped rebounds ([`crate::resolve::sustained::pressed_pair`]); without
/// it, where nothing presses, a slowly closing contact is a slow collision and `resolve` (the
/// law itself) is its exact resolution: summing damped rebounds would lose energy such a model
/// conserves. A pair that does not close is left as it is: contacts push, they never pull.
pub fn sustained_pair(
    motion: Motion,
    pa: &BallParams,
    a: &BallState,
    pb: &BallParams,
    b: &BallState,
    resolve: impl FnOnce() -> [Velocities; 2],
) -> Option<[Velocities; 2]> {
    if motion.has_friction() {
        return Some(super::sustained::pressed_pair(pa, a, pb, b));
    }
    let n = (b.r - a.r).xy();
    if (a.v - b.v).xy().dot(&n) <= 0.0 {
        return None;
    }
    Some(resolve())
}

/// The mean of two balls' coefficients (pooltool's pairing of e_b and u_b), exactly `x` when
/// both are `x`.
#[inline]
pub fn pair_mean(x: f64, y: f64) -> f64 {
    0.5 * (x + y)
}

/// `ra xa + rb xb` for per-ball factors `ra`, `rb` (radii): `ra (xa + xb)` when they are equal,
/// one rounding fewer, as the laws' papers write it for equal balls.
#[inline]
pub(crate) fn weighted_sum(ra: f64, xa: f64, rb: f64, xb: f64) -> f64 {
    if ra == rb {
        ra * (xa + xb)
    } else {
        ra * xa + rb * xb
    }
}

law_models! { $
    /// The ball–ball law of a model: a built-in law (static dispatch) or one registered at run
    /// time.
    BallBallModel: dyn BallBallLaw, "ball_ball" {
        FrictionlessElastic(FrictionlessElastic),
        FrictionalInelastic(FrictionalInelastic),
        FrictionalMathavan(FrictionalMathavan),
        FastFiz(FastFiz),
    }
}

impl BallBallModel {
    /// See [`BallBallLaw::resolve`].
    pub fn resolve(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2] {
        each_law!(self, l => l.resolve(pa, a, pb, b))
    }

    /// See [`BallBallLaw::spacer`].
    pub fn spacer(&self) -> f64 {
        each_law!(self, l => l.spacer())
    }

    /// Whether this law takes pooltool's contact spacer (a `spacer` parameter).
    pub fn takes_spacer(&self) -> bool {
        matches!(
            self,
            BallBallModel::FrictionlessElastic(_)
                | BallBallModel::FrictionalInelastic(_)
                | BallBallModel::FrictionalMathavan(_)
        )
    }

    /// This law with its `spacer` (m) set, for the built-in laws that pooltool resolves after
    /// its `make_kiss` (`frictionless_elastic`, `frictional_inelastic`,
    /// `frictional_mathavan`); any other law as it is.
    pub fn with_spacer(&self, spacer: f64) -> Self {
        let mut out = self.clone();
        match &mut out {
            BallBallModel::FrictionlessElastic(l) => l.spacer = spacer,
            BallBallModel::FrictionalInelastic(l) => l.spacer = spacer,
            BallBallModel::FrictionalMathavan(l) => l.spacer = spacer,
            _ => {}
        }
        out
    }

    /// See [`BallBallLaw::sustained`].
    pub fn sustained(
        &self,
        motion: Motion,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> Option<[Velocities; 2]> {
        each_law!(self, l => l.sustained(motion, pa, a, pb, b))
    }
}
