//! Transition laws (pooltool's `transition` event type): what a natural transition does to a
//! ball. When it happens is the equations of motion's ([`crate::Motion`]). Adding one: a file,
//! its variant and its arms below.

mod canonical;

pub use canonical::Canonical;

use super::spec::{unknown_model, LawError, LawSpec};
use crate::{BallParams, BallState, EventKind};

/// The transition law of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TransitionModel {
    /// [`Canonical`].
    Canonical(Canonical),
}

impl TransitionModel {
    /// The laws' names.
    pub const BUILT_IN: [&'static str; 1] = [Canonical::NAME];

    /// The law a spec names.
    ///
    /// # Errors
    /// An unknown model name or parameter.
    pub fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        match spec.model.as_str() {
            Canonical::NAME => Canonical::from_spec(spec).map(Self::Canonical),
            _ => Err(unknown_model(
                "transition",
                &spec.model,
                &Self::BUILT_IN.map(String::from),
            )),
        }
    }

    /// Its name.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Canonical(_) => Canonical::NAME,
        }
    }

    /// The spec that builds this law again.
    pub fn spec(&self) -> LawSpec {
        LawSpec::named(self.name())
    }

    /// The [`BallParams`] fields it reads besides `m` and `R`.
    pub fn ball_params(&self) -> &'static [&'static str] {
        &[]
    }

    /// The ball after transition `kind`.
    pub fn apply(&self, p: &BallParams, s: &BallState, kind: EventKind) -> BallState {
        match self {
            Self::Canonical(l) => l.apply(p, s, kind),
        }
    }
}
