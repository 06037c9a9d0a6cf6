//! `canonical`: pocket capture as pooltool's `CanonicalBallPocket` does it.

use crate::resolve::spec::{LawError, LawSpec};
use crate::{BallParams, BallState, MotionState, Pocket, Vec3};

/// The ball leaves play: pocketed, at rest at the pocket's center (pooltool's convention, so that
/// final positions of pocketed balls compare exactly), its center kept at z = R (pooltool puts
/// it at the pocket's depth). No parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Canonical;

impl Canonical {
    /// Its name in shot files and pooltool's `resolver.yaml`.
    pub const NAME: &'static str = "canonical";

    /// The law from its spec (it takes no parameters).
    pub fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&[])?;
        Ok(Canonical)
    }

    /// The captured ball.
    pub fn resolve(&self, p: &BallParams, s: &BallState, pocket: &Pocket) -> BallState {
        pocket_capture(s, pocket, p.radius)
    }
}

/// Pocket capture: the ball is out of play, at rest at the pocket's center at height `radius`.
pub fn pocket_capture(s: &BallState, pocket: &Pocket, radius: f64) -> BallState {
    let _ = s;
    BallState {
        r: Vec3::new(pocket.center[0], pocket.center[1], radius),
        v: Vec3::zeros(),
        w: Vec3::zeros(),
        motion: MotionState::Pocketed,
    }
}
