//! The vocabulary of events: what can change a ball's motion.

use serde::{Deserialize, Serialize};

/// Every event kind the models produce (seed 000, "(2) What are events?"; pooltool's names).
///
/// Collisions involve a ball and another agent; transitions involve one ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// Two balls collide.
    BallBall,
    /// A ball hits a straight cushion segment (its face or one of its ends).
    BallLinearCushion,
    /// A ball hits a circular cushion segment (a rounded jaw).
    BallCircularCushion,
    /// A ball's center enters a pocket circle.
    BallPocket,
    /// Sliding ball starts rolling (u reaches 0).
    SlidingRolling,
    /// Rolling ball stops with no vertical spin left.
    RollingStationary,
    /// Rolling ball stops while still spinning about z.
    RollingSpinning,
    /// Spinning ball stops spinning.
    SpinningStationary,
    /// The cue stick strikes a ball (at t = 0, the shot's start).
    StickBall,
}

impl EventKind {
    /// All kinds, in the order used for deterministic tie-breaking.
    pub const ALL: [EventKind; 9] = [
        EventKind::BallBall,
        EventKind::BallLinearCushion,
        EventKind::BallCircularCushion,
        EventKind::BallPocket,
        EventKind::SlidingRolling,
        EventKind::RollingStationary,
        EventKind::RollingSpinning,
        EventKind::SpinningStationary,
        EventKind::StickBall,
    ];

    /// The snake_case name used in logs and reports (`ball_ball`, `sliding_rolling`, ...).
    pub fn name(self) -> &'static str {
        match self {
            EventKind::BallBall => "ball_ball",
            EventKind::BallLinearCushion => "ball_linear_cushion",
            EventKind::BallCircularCushion => "ball_circular_cushion",
            EventKind::BallPocket => "ball_pocket",
            EventKind::SlidingRolling => "sliding_rolling",
            EventKind::RollingStationary => "rolling_stationary",
            EventKind::RollingSpinning => "rolling_spinning",
            EventKind::SpinningStationary => "spinning_stationary",
            EventKind::StickBall => "stick_ball",
        }
    }

    /// True for collisions (two agents), false for motion transitions (one ball).
    pub fn is_collision(self) -> bool {
        matches!(
            self,
            EventKind::BallBall
                | EventKind::BallLinearCushion
                | EventKind::BallCircularCushion
                | EventKind::BallPocket
        )
    }
}

impl std::fmt::Display for EventKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
