//! Ball–ball collision laws (pooltool's `ball_ball` event type), one file per law.
//!
//! Adding a built-in law: a file with a struct implementing [`BallBallLaw`] (its `NAME`,
//! `from_spec`), then its variant, its `each_law!` arm and its `BUILT_IN` name below. A law
//! defined outside this crate is added at run time with [`BallBallModel::register`].

mod frictionless_elastic;

use std::sync::Arc;

pub use frictionless_elastic::{elastic_ball_ball, FrictionlessElastic};

use super::registry::{all_names, Builder, Registry};
use super::spec::{unknown_model, LawError, LawSpec, Param};
use crate::motion::Motion;
use crate::{BallParams, BallState, Vec3};

/// A ball's new (v, w) from a law, before the equations of motion settle its motion state.
pub type Velocities = (Vec3, Vec3);

/// One ball–ball collision law.
pub trait BallBallLaw: std::fmt::Debug + Send + Sync {
    /// Its name in shot files (pooltool's model name where it has one).
    fn name(&self) -> &str;

    /// Its parameters, by pooltool's names, as [`LawSpec`] writes them back.
    fn params(&self) -> Vec<(String, Param)> {
        Vec::new()
    }

    /// The [`BallParams`] fields it reads (as named in shot files), besides `m` and `R`.
    fn ball_params(&self) -> &'static [&'static str] {
        &[]
    }

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

/// The ball–ball law of a model: a built-in law (static dispatch) or one registered at run time.
#[derive(Clone, Debug)]
pub enum BallBallModel {
    /// [`FrictionlessElastic`].
    FrictionlessElastic(FrictionlessElastic),
    /// A law registered with [`BallBallModel::register`].
    Registered(Arc<dyn BallBallLaw>),
}

/// `$e` with `$l` bound to the law inside `$self`, for every kind of law.
macro_rules! each_law {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            BallBallModel::FrictionlessElastic($l) => $e,
            BallBallModel::Registered($l) => $e,
        }
    };
}

static REGISTERED: Registry<dyn BallBallLaw> = Registry::new();

impl BallBallModel {
    /// The built-in laws' names.
    pub const BUILT_IN: [&'static str; 1] = [FrictionlessElastic::NAME];

    /// The law a spec names, with its parameters checked.
    ///
    /// # Errors
    /// An unknown model name, an unknown parameter or a bad value, naming it.
    pub fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        match spec.model.as_str() {
            FrictionlessElastic::NAME => {
                FrictionlessElastic::from_spec(spec).map(Self::FrictionlessElastic)
            }
            _ => match REGISTERED.build(spec) {
                Some(law) => law.map(Self::Registered),
                None => Err(unknown_model("ball_ball", &spec.model, &Self::names())),
            },
        }
    }

    /// Every name [`BallBallModel::from_spec`] accepts: built-in, then registered.
    pub fn names() -> Vec<String> {
        all_names(&Self::BUILT_IN, REGISTERED.names())
    }

    /// Registers a law defined outside this crate under `name`, for every later
    /// [`BallBallModel::from_spec`] (and so shot file) in this process.
    ///
    /// # Errors
    /// `name` is taken (built in or registered).
    pub fn register(name: &'static str, build: Builder<dyn BallBallLaw>) -> Result<(), LawError> {
        REGISTERED.add("ball_ball", name, &Self::BUILT_IN, build)
    }

    /// The spec that builds this law again.
    pub fn spec(&self) -> LawSpec {
        LawSpec {
            model: self.name().to_string(),
            params: each_law!(self, l => l.params()),
        }
    }

    /// See [`BallBallLaw::name`].
    pub fn name(&self) -> &str {
        each_law!(self, l => l.name())
    }

    /// See [`BallBallLaw::ball_params`].
    pub fn ball_params(&self) -> &'static [&'static str] {
        each_law!(self, l => l.ball_params())
    }

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

impl PartialEq for BallBallModel {
    /// Same name and parameters.
    fn eq(&self, other: &Self) -> bool {
        self.spec() == other.spec()
    }
}
