//! Ball–pocket laws (pooltool's `ball_pocket` event type). Adding one: a file, its variant and
//! its arms below.

mod canonical;

pub use canonical::{pocket_capture, Canonical};

use super::spec::{unknown_model, LawError, LawSpec};
use crate::{BallParams, BallState, Pocket};

/// The ball–pocket law of a model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BallPocketModel {
    /// [`Canonical`].
    Canonical(Canonical),
}

impl BallPocketModel {
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
                "ball_pocket",
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

    /// The captured ball.
    pub fn resolve(&self, p: &BallParams, s: &BallState, pocket: &Pocket) -> BallState {
        match self {
            Self::Canonical(l) => l.resolve(p, s, pocket),
        }
    }
}
