//! Transition laws (pooltool's `transition` event type): what a natural transition does to a
//! ball. When it happens is the equations of motion's ([`crate::Motion`]). Adding a built-in
//! law: a file with a struct implementing [`Law`], [`BuiltIn`] and [`TransitionLaw`], and its
//! line in `law_models!` below; [`TransitionModel::register`] adds one at run time.

mod canonical;

pub use canonical::Canonical;

#[cfg(doc)]
use super::law::BuiltIn;
use super::law::{law_models, Law};
use crate::{BallParams, BallState, EventKind};

/// One transition law.
pub trait TransitionLaw: Law {
    /// The ball after transition `kind`, its velocities agreeing exactly with the new motion
    /// state; collision kinds leave it alone.
    fn apply(&self, p: &BallParams, s: &BallState, kind: EventKind) -> BallState;
}

law_models! { $
    /// The transition law of a model.
    TransitionModel: dyn TransitionLaw, "transition" {
        Canonical(Canonical),
    }
}

impl TransitionModel {
    /// See [`TransitionLaw::apply`].
    pub fn apply(&self, p: &BallParams, s: &BallState, kind: EventKind) -> BallState {
        each_law!(self, l => l.apply(p, s, kind))
    }
}
