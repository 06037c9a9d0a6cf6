//! `canonical`: pocket capture as pooltool's `CanonicalBallPocket` does it.

use super::BallPocketLaw;
use crate::resolve::law::parameterless_law;
use crate::{BallParams, BallState, MotionState, Pocket, Vec3};

/// The ball leaves play: pocketed, at rest at the pocket's center (pooltool's convention, so that
/// final positions of pocketed balls compare exactly), its center kept at z = R (pooltool puts
/// it at the pocket's depth). No parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Canonical;

parameterless_law!(Canonical, "canonical");

impl BallPocketLaw for Canonical {
    /// The captured ball.
    fn resolve(&self, p: &BallParams, s: &BallState, pocket: &Pocket) -> BallState {
        pocket_capture(s, pocket, p.radius)
    }
}

/// Pocket capture: the ball is out of play, at rest at the pocket's center at height `radius`
/// (its own), its parameter set kept.
pub fn pocket_capture(s: &BallState, pocket: &Pocket, radius: f64) -> BallState {
    BallState {
        r: Vec3::new(pocket.center[0], pocket.center[1], radius),
        v: Vec3::zeros(),
        w: Vec3::zeros(),
        motion: MotionState::Pocketed,
        set: s.set,
    }
}
