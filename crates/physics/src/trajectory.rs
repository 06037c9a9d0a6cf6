//! Quadratic trajectories of ball centers.

use crate::Vec3;

/// The center's path while a ball keeps its motion state: r(t) = a t^2 + b t + c for
/// 0 <= t <= `valid_for` (seed 004, Section I: every state's r(t) is quadratic in t).
///
/// This is what turns every collision time into a root of a polynomial of degree <= 4.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Trajectory {
    /// Half the acceleration (m/s^2).
    pub a: Vec3,
    /// Initial velocity (m/s).
    pub b: Vec3,
    /// Initial position (m).
    pub c: Vec3,
    /// How long (s) the coefficients describe the motion: the time to the ball's next
    /// transition, or `f64::INFINITY` if none.
    pub valid_for: f64,
}

impl Trajectory {
    /// A ball at rest at `c` forever.
    pub fn at_rest(c: Vec3) -> Self {
        Trajectory {
            a: Vec3::zeros(),
            b: Vec3::zeros(),
            c,
            valid_for: f64::INFINITY,
        }
    }

    /// Position (m) at time t (s).
    pub fn position(&self, t: f64) -> Vec3 {
        (self.a * t + self.b) * t + self.c
    }

    /// Velocity (m/s) at time t (s).
    pub fn velocity(&self, t: f64) -> Vec3 {
        self.a * (2.0 * t) + self.b
    }
}
