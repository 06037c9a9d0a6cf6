//! Every ball's state and orientation at any time of a run, from the run's snapshots: what a
//! player needs to show frame k at t = k / fps whatever events happen in between.
//!
//! The engines record snapshots (`Outcome::snapshots`) when asked: the event engine at t = 0
//! and after every event, the discrete integrator at t = 0, about every `sample_interval`
//! seconds, at every step with an event, and at the end. A frame at time t starts from the
//! latest snapshot at or before t and evolves each ball with the same [`Physics::evolve`] the
//! engines use, through any natural transition due in between
//! ([`Physics::next_transition`], [`Physics::apply_transition`]). For the event engine that is
//! exactly the engine's own trajectory (every transition and collision is a snapshot). For the
//! discrete integrator it is the exact analytic motion from its latest sampled state, which is
//! what its `end_of_step` scheme computes step by step; with `euler` the frame between two samples
//! is the analytic motion, not the scheme's, and the next sample may differ from it by the
//! scheme's error over one sampling interval.
//!
//! Orientation is not part of any ball state (the engines do not track it): at every snapshot
//! it is the product of the segment rotations ([`pool_physics::SpinProfile`]) from t = 0, and
//! at time t the rotation from the latest snapshot is composed on top. The marker of seed 001
//! (a point on the ball's surface) is at `orientation * body_point` in the table frame.

use pool_physics::{BallState, Physics, Rotation, SpinProfile};
use pool_sim::{Event, Outcome, Setup, Snapshot};

/// One ball at one time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BallFrame {
    /// The ball's state (m, m/s, rad/s).
    pub state: BallState,
    /// Rotation from the ball's orientation at t = 0 (body frame) to the table frame.
    pub orientation: Rotation,
}

/// A run's balls at any time: snapshots plus each ball's orientation at every snapshot.
#[derive(Clone, Debug)]
pub struct Frames<'a> {
    setup: &'a Setup,
    snapshots: &'a [Snapshot],
    /// `orientations[k][i]`: ball i's rotation from t = 0 to snapshot k's time.
    orientations: Vec<Vec<Rotation>>,
    end_time: f64,
}

/// Evolves `s` by `dt` seconds (s) with the physics, applying the natural transitions that
/// fall within `dt`; returns the state and the rotation over the interval.
pub fn advance<P: Physics + ?Sized>(physics: &P, s: &BallState, dt: f64) -> (BallState, Rotation) {
    let mut s = *s;
    let mut left = dt.max(0.0);
    let mut q = Rotation::identity();
    // A ball goes through at most sliding -> rolling -> spinning -> stationary.
    for _ in 0..4 {
        match physics.next_transition(&s) {
            Some(tr) if tr.dt < left => {
                q = SpinProfile::of(physics, &s).rotation(tr.dt) * q;
                s = physics.apply_transition(&physics.evolve(&s, tr.dt), tr.kind);
                left -= tr.dt;
            }
            _ => break,
        }
    }
    q = SpinProfile::of(physics, &s).rotation(left) * q;
    (physics.evolve(&s, left), q)
}

/// Evolves `s` by `dt` seconds (s) as [`advance`] does (the same state), without the
/// rotation, which costs most of [`advance`]'s time.
pub fn advance_state<P: Physics + ?Sized>(physics: &P, s: &BallState, dt: f64) -> BallState {
    let mut s = *s;
    let mut left = dt.max(0.0);
    for _ in 0..4 {
        match physics.next_transition(&s) {
            Some(tr) if tr.dt < left => {
                s = physics.apply_transition(&physics.evolve(&s, tr.dt), tr.kind);
                left -= tr.dt;
            }
            _ => break,
        }
    }
    physics.evolve(&s, left)
}

impl<'a> Frames<'a> {
    /// Frames of `outcome`, a run of `setup` recorded with snapshots.
    ///
    /// # Errors
    /// An outcome without snapshots, or whose snapshots do not hold one state per ball.
    pub fn new(setup: &'a Setup, outcome: &'a Outcome) -> Result<Self, String> {
        let snapshots = outcome.snapshots.as_slice();
        let n = setup.balls.len();
        if snapshots.is_empty() {
            return Err("the run has no snapshots: run the engine with snapshots on".into());
        }
        if let Some(k) = snapshots.iter().position(|s| s.states.len() != n) {
            return Err(format!(
                "snapshot {k} holds {} states for {n} balls",
                snapshots[k].states.len()
            ));
        }
        let physics = &setup.physics;
        let mut orientations = Vec::with_capacity(snapshots.len());
        orientations.push(vec![Rotation::identity(); n]);
        for pair in snapshots.windows(2) {
            let dt = pair[1].time - pair[0].time;
            let last = &orientations[orientations.len() - 1];
            let next: Vec<Rotation> = pair[0]
                .states
                .iter()
                .zip(last)
                .map(|(s, q0)| advance(physics, s, dt).1 * q0)
                .collect();
            orientations.push(next);
        }
        Ok(Frames {
            setup,
            snapshots,
            orientations,
            end_time: outcome.end_time.max(snapshots[snapshots.len() - 1].time),
        })
    }

    /// Time (s) when the run stopped; frames after it show the final states.
    pub fn end_time(&self) -> f64 {
        self.end_time
    }

    /// Index of the latest snapshot at or before `t` (the first one for t before it).
    fn snapshot_index(&self, t: f64) -> usize {
        self.snapshots
            .partition_point(|s| s.time <= t)
            .saturating_sub(1)
    }

    /// Every ball at time `t` (s), clamped to [0, end time], in set-up order.
    pub fn at(&self, t: f64) -> Vec<BallFrame> {
        let t = if t.is_nan() {
            0.0
        } else {
            t.clamp(0.0, self.end_time)
        };
        let k = self.snapshot_index(t);
        let snap = &self.snapshots[k];
        let dt = t - snap.time;
        snap.states
            .iter()
            .zip(&self.orientations[k])
            .map(|(s, q0)| {
                let (state, q) = advance(&self.setup.physics, s, dt);
                BallFrame {
                    state,
                    orientation: q * q0,
                }
            })
            .collect()
    }
}

/// The latest event at or before `t` (s) in a time-ordered log.
pub fn latest_event(events: &[Event], t: f64) -> Option<&Event> {
    let k = events.partition_point(|e| e.time <= t);
    k.checked_sub(1).map(|k| &events[k])
}
