//! Where each event of a run happened on the table, for the shot diagram.

use pool_physics::{EventKind, Physics};
use pool_sim::{Agents, Outcome, Setup};

/// One event placed on the table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EventMark {
    /// Simulation time (s).
    pub time: f64,
    /// What happened.
    pub kind: EventKind,
    /// Where (m): the contact point of a ball-ball collision (midway between the centres), the
    /// ball's centre for every other event (for a pocket capture, as the capture left it).
    pub at: (f64, f64),
}

/// Every event of `outcome` placed on the table, in log order. Positions come from the latest
/// snapshot at or before each event, evolved to the event time with the run's physics (for both
/// engines the snapshot is at the event time itself); a run without snapshots has no marks.
pub fn event_marks(setup: &Setup, outcome: &Outcome) -> Vec<EventMark> {
    let snaps = &outcome.snapshots;
    if snaps.is_empty() {
        return Vec::new();
    }
    let physics = &setup.physics;
    outcome
        .events
        .iter()
        .filter_map(|e| {
            let k = snaps.partition_point(|s| s.time <= e.time).checked_sub(1)?;
            let snap = &snaps[k];
            let centre = |i: usize| {
                let s = snap.states.get(i)?;
                let r = physics.evolve(s, e.time - snap.time).r;
                Some((r.x, r.y))
            };
            let at = match e.agents {
                Agents::BallBall { a, b } => {
                    let (pa, pb) = (centre(a)?, centre(b)?);
                    ((pa.0 + pb.0) / 2.0, (pa.1 + pb.1) / 2.0)
                }
                _ => centre(e.agents.balls().0)?,
            };
            Some(EventMark {
                time: e.time,
                kind: e.kind,
                at,
            })
        })
        .collect()
}
