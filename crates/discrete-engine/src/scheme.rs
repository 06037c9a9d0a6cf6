//! Integration schemes: how one ball is advanced over one step, and where in the step its
//! events are put.

use std::borrow::Cow;

use pool_physics::{BallState, Physics};

use crate::located::Mode;

/// How a ball's state is advanced over one step, and when its events are found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scheme {
    /// The analytic solution of the ball's current motion state over dt (`Physics::evolve`),
    /// extrapolated past a transition that falls inside the step; every event is noticed at the
    /// step's end (`end_of_step`; `exact` is accepted for it, its name before it said what it
    /// does).
    EndOfStep,
    /// Semi-implicit (symplectic) Euler on `Physics::accelerations`: v and w first, then r with
    /// the new v.
    Euler,
    /// `EndOfStep`'s evolution with every event located inside its step (bracketed Illinois
    /// refinement of the contact's gap to [`crate::LOCATE_TOL`]) and resolved there, the step
    /// finished from that state; several events of one step in time order.
    Located,
    /// `EndOfStep`'s evolution; a step that holds a contact is taken again as this many
    /// substeps (2..=[`Scheme::MAX_SUBSTEPS`]), each with end-of-step detection.
    Substep(u16),
}

impl Scheme {
    /// The most substeps `substep<k>` takes.
    pub const MAX_SUBSTEPS: u16 = 1000;

    /// The schemes' names, for help and error texts.
    pub const NAMES: &'static str =
        "end_of_step (alias exact), euler, located, substep<k> (k in 2..=1000)";

    /// Name used in reports and on the command line: `end_of_step`, `euler`, `located`,
    /// `substep<k>`.
    pub fn name(self) -> Cow<'static, str> {
        match self {
            Scheme::EndOfStep => "end_of_step".into(),
            Scheme::Euler => "euler".into(),
            Scheme::Located => "located".into(),
            Scheme::Substep(k) => format!("substep{k}").into(),
        }
    }

    /// Parses a name of [`Scheme::name`]'s form (and `exact`, `end_of_step`'s old name).
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "end_of_step" | "exact" => Some(Scheme::EndOfStep),
            "euler" => Some(Scheme::Euler),
            "located" => Some(Scheme::Located),
            _ => {
                let k: u16 = s.strip_prefix("substep")?.parse().ok()?;
                (2..=Self::MAX_SUBSTEPS)
                    .contains(&k)
                    .then_some(Scheme::Substep(k))
            }
        }
    }

    /// How a scheme that finds events inside its steps does it (`None` for `end_of_step` and
    /// `euler`, which notice them at the step's end).
    pub(crate) fn in_step(self) -> Option<Mode> {
        match self {
            Scheme::Located => Some(Mode::Locate),
            Scheme::Substep(k) => Some(Mode::Substep(k)),
            Scheme::EndOfStep | Scheme::Euler => None,
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
            Scheme::EndOfStep | Scheme::Located | Scheme::Substep(_) => {
                physics.evolve_all(before, dt, after)
            }
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
            Scheme::EndOfStep | Scheme::Located | Scheme::Substep(_) => physics.evolve(s, dt),
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
