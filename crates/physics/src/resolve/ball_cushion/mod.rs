//! Ball–cushion collision laws (pooltool's `ball_linear_cushion` and `ball_circular_cushion`
//! event types: the same laws, applied at the contact's normal), one file per law.
//!
//! Adding a built-in law: a file with a struct implementing [`BallCushionLaw`] (its `NAME`,
//! `from_spec`), then its variant, its `each_law!` arm and its `BUILT_IN` name below. A law
//! defined outside this crate is added at run time with [`BallCushionModel::register`].

mod han_2005;
mod unrealistic;

use std::sync::Arc;

pub use han_2005::{han2005_cushion, Han2005};
pub use unrealistic::{mirror_cushion, Unrealistic};

pub use super::ball_ball::Velocities;
use super::registry::{all_names, Builder, Registry};
use super::spec::{unknown_model, LawError, LawSpec, Param};
use crate::motion::Motion;
use crate::{BallParams, BallState, Vec2};

/// One ball–cushion collision law.
pub trait BallCushionLaw: std::fmt::Debug + Send + Sync {
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

    /// The ball's new (v, w). `normal` is the unit vector on the cloth from the ball's center
    /// toward the contact (into the cushion); `height` the cushion's contact height (m).
    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities;

    /// Its sustained partner, for a ball in contact closing slowly: the new (v, w), or `None`
    /// to leave the ball as it is. The default is [`sustained_wall`] with this law's own
    /// resolution.
    fn sustained(
        &self,
        p: &BallParams,
        motion: Motion,
        s: &BallState,
        normal: Vec2,
        height: f64,
    ) -> Option<Velocities> {
        sustained_wall(p, motion, s, normal, || self.resolve(p, s, normal, height))
    }
}

/// The default sustained ball–cushion law: with cloth friction the limit of the damped rebounds
/// of a ball pressed into the cushion ([`crate::resolve::sustained::pressed_wall`]); without it,
/// the law itself when the ball moves into the cushion, else nothing (see
/// [`crate::resolve::ball_ball::sustained_pair`] for why).
pub fn sustained_wall(
    p: &BallParams,
    motion: Motion,
    s: &BallState,
    normal: Vec2,
    resolve: impl FnOnce() -> Velocities,
) -> Option<Velocities> {
    if motion.has_friction() {
        return Some(super::sustained::pressed_wall(p, s, normal));
    }
    if s.v.xy().dot(&normal) <= 0.0 {
        return None;
    }
    Some(resolve())
}

/// The ball–cushion law of a model: a built-in law (static dispatch) or one registered at run
/// time.
#[derive(Clone, Debug)]
pub enum BallCushionModel {
    /// [`Han2005`].
    Han2005(Han2005),
    /// [`Unrealistic`].
    Unrealistic(Unrealistic),
    /// A law registered with [`BallCushionModel::register`].
    Registered(Arc<dyn BallCushionLaw>),
}

/// `$e` with `$l` bound to the law inside `$self`, for every kind of law.
macro_rules! each_law {
    ($self:expr, $l:ident => $e:expr) => {
        match $self {
            BallCushionModel::Han2005($l) => $e,
            BallCushionModel::Unrealistic($l) => $e,
            BallCushionModel::Registered($l) => $e,
        }
    };
}

static REGISTERED: Registry<dyn BallCushionLaw> = Registry::new();

impl BallCushionModel {
    /// The built-in laws' names.
    pub const BUILT_IN: [&'static str; 2] = [Han2005::NAME, Unrealistic::NAME];

    /// The law a spec names, with its parameters checked.
    ///
    /// # Errors
    /// An unknown model name, an unknown parameter or a bad value, naming it.
    pub fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        match spec.model.as_str() {
            Han2005::NAME => Han2005::from_spec(spec).map(Self::Han2005),
            Unrealistic::NAME => Unrealistic::from_spec(spec).map(Self::Unrealistic),
            _ => match REGISTERED.build(spec) {
                Some(law) => law.map(Self::Registered),
                None => Err(unknown_model("ball_cushion", &spec.model, &Self::names())),
            },
        }
    }

    /// Every name [`BallCushionModel::from_spec`] accepts: built-in, then registered.
    pub fn names() -> Vec<String> {
        all_names(&Self::BUILT_IN, REGISTERED.names())
    }

    /// Registers a law defined outside this crate under `name`, for every later
    /// [`BallCushionModel::from_spec`] (and so shot file) in this process.
    ///
    /// # Errors
    /// `name` is taken (built in or registered).
    pub fn register(
        name: &'static str,
        build: Builder<dyn BallCushionLaw>,
    ) -> Result<(), LawError> {
        REGISTERED.add("ball_cushion", name, &Self::BUILT_IN, build)
    }

    /// The spec that builds this law again.
    pub fn spec(&self) -> LawSpec {
        LawSpec {
            model: self.name().to_string(),
            params: each_law!(self, l => l.params()),
        }
    }

    /// See [`BallCushionLaw::name`].
    pub fn name(&self) -> &str {
        each_law!(self, l => l.name())
    }

    /// See [`BallCushionLaw::ball_params`].
    pub fn ball_params(&self) -> &'static [&'static str] {
        each_law!(self, l => l.ball_params())
    }

    /// See [`BallCushionLaw::resolve`].
    pub fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities {
        each_law!(self, l => l.resolve(p, s, normal, height))
    }

    /// See [`BallCushionLaw::sustained`].
    pub fn sustained(
        &self,
        p: &BallParams,
        motion: Motion,
        s: &BallState,
        normal: Vec2,
        height: f64,
    ) -> Option<Velocities> {
        each_law!(self, l => l.sustained(p, motion, s, normal, height))
    }
}

impl PartialEq for BallCushionModel {
    /// Same name and parameters.
    fn eq(&self, other: &Self) -> bool {
        self.spec() == other.spec()
    }
}
