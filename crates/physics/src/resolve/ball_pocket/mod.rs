//! Ball–pocket laws (pooltool's `ball_pocket` event type), one file per law. Adding a built-in
//! law: a file with a struct implementing [`Law`], [`BuiltIn`] and [`BallPocketLaw`], and its
//! line in `law_models!` below; [`BallPocketModel::register`] adds one at run time.

mod canonical;

pub use canonical::{pocket_capture, Canonical};

#[cfg(doc)]
use super::law::BuiltIn;
use super::law::{law_models, Law};
use crate::{BallParams, BallState, Pocket};

/// One ball–pocket law.
pub trait BallPocketLaw: Law {
    /// The ball after its center entered `pocket`'s circle (settled: its velocities agree with
    /// its motion state).
    fn resolve(&self, p: &BallParams, s: &BallState, pocket: &Pocket) -> BallState;
}

law_models! { $
    /// The ball–pocket law of a model.
    BallPocketModel: dyn BallPocketLaw, "ball_pocket" {
        Canonical(Canonical),
    }
}

impl BallPocketModel {
    /// See [`BallPocketLaw::resolve`].
    pub fn resolve(&self, p: &BallParams, s: &BallState, pocket: &Pocket) -> BallState {
        each_law!(self, l => l.resolve(p, s, pocket))
    }
}
