//! Integration schemes: how one ball is advanced over one step.

use pool_physics::{BallState, Physics};

/// How a ball's state is advanced over one step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// The analytic solution of the ball's current motion state over dt (`Physics::evolve`),
    /// extrapolated past a transition that falls inside the step (noticed at the step's end).
    Exact,
    /// Semi-implicit (symplectic) Euler on `Physics::accelerations`: v and w first, then r with
    /// the new v.
    Euler,
}

impl Scheme {
    /// Name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scheme::Exact => "exact",
            Scheme::Euler => "euler",
        }
    }

    /// Parses `exact` or `euler`.
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "exact" => Some(Scheme::Exact),
            "euler" => Some(Scheme::Euler),
            _ => None,
        }
    }

    /// Advances every moving ball of `before` by `dt` seconds into the same slot of `after`
    /// (same bits as [`Scheme::step`] on each; other slots are left as they are).
    #[inline]
    pub fn step_all<P: Physics + ?Sized>(
        self,
        physics: &P,
        before: &[BallState],
        dt: f64,
        after: &mut [BallState],
    ) {
        match self {
            Scheme::Exact => physics.evolve_all(before, dt, after),
            Scheme::Euler => {
                for (b, a) in before.iter().zip(after) {
                    if b.motion.is_moving() {
                        *a = self.step(physics, b, dt);
                    }
                }
            }
        }
    }

    /// Advances one ball by `dt` seconds, keeping its motion state.
    #[inline]
    pub fn step<P: Physics + ?Sized>(self, physics: &P, s: &BallState, dt: f64) -> BallState {
        match self {
            Scheme::Exact => physics.evolve(s, dt),
            Scheme::Euler => {
                let (dv, dw) = physics.accelerations(s);
                let mut out = *s;
                out.v += dv * dt;
                out.w += dw * dt;
                // Spin friction stops w_z; it cannot drive it through zero (seed 004, Section I).
                if physics.spin_decay_stops(s) && out.w.z * s.w.z < 0.0 {
                    out.w.z = 0.0;
                }
                out.r += out.v * dt;
                out
            }
        }
    }
}
