//! Regression baselines: what a shot did, in a form that diffs well, and how to compare.
//!
//! A shot's baseline is its event-engine log (time, kind, agent ids) and final states, plus the
//! discrete integrator's summary at [`BASELINE_DTS`]. Floats are written in shortest round-trip
//! form, so a baseline written twice from the same run is byte-identical.

use pool_physics::EventKind;
use pool_sim::{Outcome, Setup};
use serde::{Deserialize, Serialize};

use crate::{agents_label, SummaryRow};

/// Time steps (s) of the discrete integrator's baseline rows (end_of_step scheme).
pub const BASELINE_DTS: [f64; 3] = [1e-2, 1e-3, 1e-4];

/// One event of a baseline log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventLine {
    /// Position in the log.
    pub index: usize,
    /// Event time (s).
    pub time_s: f64,
    /// Event kind (`ball_ball`, ...).
    pub kind: String,
    /// First agent id (a ball).
    pub agent_1: String,
    /// Second agent id (ball, cushion or pocket), empty for transitions.
    pub agent_2: String,
}

/// One ball's final state in a baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalLine {
    /// Ball id.
    pub id: String,
    /// Motion state name.
    pub state: String,
    /// Position (m).
    pub x: f64,
    /// Position (m).
    pub y: f64,
    /// Velocity (m/s).
    pub vx: f64,
    /// Velocity (m/s).
    pub vy: f64,
    /// Angular velocity (rad/s).
    pub wx: f64,
    /// Angular velocity (rad/s).
    pub wy: f64,
    /// Angular velocity (rad/s).
    pub wz: f64,
}

/// The event engine's part of a shot's baseline.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotBaseline {
    /// Shot name.
    pub shot: String,
    /// The event log.
    pub events: Vec<EventLine>,
    /// Final states, in file order.
    pub finals: Vec<FinalLine>,
}

/// One discrete-integrator row of the baseline (`discrete.csv`): the deterministic columns of a
/// [`SummaryRow`] (no wall time).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DiscreteLine {
    /// Shot name.
    pub shot: String,
    /// Scheme.
    pub scheme: String,
    /// Time step (s).
    pub dt_s: f64,
    /// Events produced.
    pub n_events: usize,
    /// Reference events matched.
    pub n_matched: usize,
    /// Reference events missed.
    pub n_missed: usize,
    /// Spurious events.
    pub n_spurious: usize,
    /// Median collision-time error (s).
    pub collision_time_error_median_s: f64,
    /// Max collision-time error (s).
    pub collision_time_error_max_s: f64,
    /// Max final position error (m).
    pub final_position_error_max_m: f64,
    /// Total operations.
    pub ops_total: u64,
}

impl DiscreteLine {
    /// The deterministic part of a summary row (`None` for event-engine rows).
    pub fn from_summary(r: &SummaryRow) -> Option<Self> {
        Some(DiscreteLine {
            shot: r.shot.clone(),
            scheme: r.scheme.clone(),
            dt_s: r.dt_s?,
            n_events: r.n_events,
            n_matched: r.n_matched,
            n_missed: r.n_missed,
            n_spurious: r.n_spurious,
            collision_time_error_median_s: r.collision_time_error_median_s,
            collision_time_error_max_s: r.collision_time_error_max_s,
            final_position_error_max_m: r.final_position_error_max_m,
            ops_total: r.ops_total,
        })
    }
}

/// Builds a shot's baseline from an event-engine outcome.
pub fn shot_baseline(setup: &Setup, outcome: &Outcome) -> ShotBaseline {
    let events = outcome
        .events
        .iter()
        .enumerate()
        .map(|(index, e)| {
            let label = agents_label(setup, &e.agents);
            let (mut a1, mut a2) = label.split_once('|').unwrap_or((&label, ""));
            // A pair is named in id order, whatever the balls' order in the file.
            if e.kind == EventKind::BallBall && a2 < a1 {
                std::mem::swap(&mut a1, &mut a2);
            }
            EventLine {
                index,
                time_s: e.time,
                kind: e.kind.name().to_string(),
                agent_1: a1.to_string(),
                agent_2: a2.to_string(),
            }
        })
        .collect();
    let finals = setup
        .balls
        .iter()
        .zip(&outcome.final_states)
        .map(|(b, s)| FinalLine {
            id: b.id.clone(),
            state: s.motion.name().to_string(),
            x: s.r.x,
            y: s.r.y,
            vx: s.v.x,
            vy: s.v.y,
            wx: s.w.x,
            wy: s.w.y,
            wz: s.w.z,
        })
        .collect();
    ShotBaseline {
        shot: setup.name.clone(),
        events,
        finals,
    }
}

/// How far a re-run may drift from its baseline before the check fails.
///
/// The event engine is deterministic, so on one machine a re-run is bit-identical; the
/// tolerances admit only what another CPU or libm can change (last-ulp differences in `sqrt`,
/// `hypot`, `asin`), amplified by collisions. The measured error floor of event times is 2e-13 s
/// at most (median 1e-16 s) and contact residuals are below 1e-9 m (`reports/example`), while
/// a small physics change worth catching, mu_s + 1%, moves the first event it touches by
/// 1.8e-5 s (breaks) to 3.1e-3 s (carom) on the default shots (test
/// `check_bites_on_a_one_percent_friction_change`). 1e-9 s, 1e-9 m and 1e-9 m/s (rad/s:
/// 1e-9 / R) sit four orders above the floor and four below that change.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tolerances {
    /// Event times (s).
    pub time_s: f64,
    /// Final positions (m).
    pub position_m: f64,
    /// Final velocities (m/s); angular velocities use this divided by R = 0.028575 m.
    pub velocity_m_s: f64,
    /// Discrete-integrator error and distance columns, relative.
    pub relative: f64,
}

impl Default for Tolerances {
    fn default() -> Self {
        Tolerances {
            time_s: 1e-9,
            position_m: 1e-9,
            velocity_m_s: 1e-9,
            relative: 1e-9,
        }
    }
}

/// One difference between a baseline and a re-run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Difference {
    /// Shot name.
    pub shot: String,
    /// Where: `event 12`, `final ball 9`, `discrete exact dt=1e-3`, `shot`.
    pub place: String,
    /// Which field: `kind`, `agents`, `time_s`, `x`, `n_events`, ...
    pub field: String,
    /// Baseline value.
    pub baseline: String,
    /// Re-run value.
    pub now: String,
    /// Size of the difference where numeric (|now - baseline|).
    pub size: Option<f64>,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {}: {} baseline {} now {}",
            self.shot, self.place, self.field, self.baseline, self.now
        )?;
        if let Some(d) = self.size {
            write!(f, " (differs by {d:.3e})")?;
        }
        Ok(())
    }
}

fn differs(a: f64, b: f64, tol: f64) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() != b.is_nan();
    }
    (a - b).abs() > tol
}

/// Compares a re-run with its baseline: the event sequence must be identical in kind and agents,
/// event times and final states within `tol`. Reports the first diverging event (everything
/// after it follows from it) and every final-state field out of tolerance.
pub fn diff_shot(base: &ShotBaseline, now: &ShotBaseline, tol: &Tolerances) -> Vec<Difference> {
    let mut out = Vec::new();
    let d = |place: String, field: &str, b: String, n: String, size: Option<f64>| Difference {
        shot: base.shot.clone(),
        place,
        field: field.to_string(),
        baseline: b,
        now: n,
        size,
    };
    let first_divergence = base.events.iter().zip(&now.events).find_map(|(b, n)| {
        let place = format!("event {} (t = {:.6} s)", b.index, b.time_s);
        if b.kind != n.kind {
            Some(d(place, "kind", b.kind.clone(), n.kind.clone(), None))
        } else if (&b.agent_1, &b.agent_2) != (&n.agent_1, &n.agent_2) {
            let fmt = |e: &EventLine| format!("{}|{}", e.agent_1, e.agent_2);
            Some(d(place, "agents", fmt(b), fmt(n), None))
        } else if differs(b.time_s, n.time_s, tol.time_s) {
            let size = Some((n.time_s - b.time_s).abs());
            Some(d(
                place,
                "time_s",
                format!("{:?}", b.time_s),
                format!("{:?}", n.time_s),
                size,
            ))
        } else {
            None
        }
    });
    if let Some(x) = first_divergence {
        out.push(x);
    } else if base.events.len() != now.events.len() {
        let k = base.events.len().min(now.events.len());
        let describe = |e: Option<&EventLine>| {
            e.map_or("(end of log)".to_string(), |e| {
                format!(
                    "{} {}|{} at {:.6} s",
                    e.kind, e.agent_1, e.agent_2, e.time_s
                )
            })
        };
        out.push(d(
            format!("event {k}"),
            "event",
            describe(base.events.get(k)),
            describe(now.events.get(k)),
            None,
        ));
    }
    let angular = tol.velocity_m_s / 0.028575;
    for (b, n) in base.finals.iter().zip(&now.finals) {
        let place = format!("final ball {}", b.id);
        if b.id != n.id {
            out.push(d(place.clone(), "id", b.id.clone(), n.id.clone(), None));
            continue;
        }
        if b.state != n.state {
            out.push(d(
                place.clone(),
                "state",
                b.state.clone(),
                n.state.clone(),
                None,
            ));
        }
        let fields = [
            ("x", b.x, n.x, tol.position_m),
            ("y", b.y, n.y, tol.position_m),
            ("vx", b.vx, n.vx, tol.velocity_m_s),
            ("vy", b.vy, n.vy, tol.velocity_m_s),
            ("wx", b.wx, n.wx, angular),
            ("wy", b.wy, n.wy, angular),
            ("wz", b.wz, n.wz, angular),
        ];
        for (field, bv, nv, t) in fields {
            if differs(bv, nv, t) {
                let size = Some((nv - bv).abs());
                out.push(d(
                    place.clone(),
                    field,
                    format!("{bv:?}"),
                    format!("{nv:?}"),
                    size,
                ));
            }
        }
    }
    if base.finals.len() != now.finals.len() {
        out.push(d(
            "final states".into(),
            "balls",
            base.finals.len().to_string(),
            now.finals.len().to_string(),
            None,
        ));
    }
    out
}

/// Compares discrete-integrator rows present in both lists (same shot, scheme and dt within
/// 1e-9 relative): counts must be equal, errors and distances within `tol.relative` (relative)
/// plus `tol.time_s` or `tol.position_m` (absolute).
pub fn diff_discrete(
    base: &[DiscreteLine],
    now: &[DiscreteLine],
    tol: &Tolerances,
) -> Vec<Difference> {
    let mut out = Vec::new();
    for n in now {
        let Some(b) = base.iter().find(|b| {
            b.shot == n.shot && b.scheme == n.scheme && (b.dt_s - n.dt_s).abs() <= 1e-9 * b.dt_s
        }) else {
            continue;
        };
        let place = format!("discrete {} dt={:e}", n.scheme, n.dt_s);
        let d = |field: &str, bv: String, nv: String, size: Option<f64>| Difference {
            shot: n.shot.clone(),
            place: place.clone(),
            field: field.to_string(),
            baseline: bv,
            now: nv,
            size,
        };
        let counts = [
            ("n_events", b.n_events as u64, n.n_events as u64),
            ("n_matched", b.n_matched as u64, n.n_matched as u64),
            ("n_missed", b.n_missed as u64, n.n_missed as u64),
            ("n_spurious", b.n_spurious as u64, n.n_spurious as u64),
            ("ops_total", b.ops_total, n.ops_total),
        ];
        for (field, bv, nv) in counts {
            if bv != nv {
                let size = Some((nv as f64 - bv as f64).abs());
                out.push(d(field, bv.to_string(), nv.to_string(), size));
            }
        }
        let reals = [
            (
                "collision_time_error_median_s",
                b.collision_time_error_median_s,
                n.collision_time_error_median_s,
                tol.time_s,
            ),
            (
                "collision_time_error_max_s",
                b.collision_time_error_max_s,
                n.collision_time_error_max_s,
                tol.time_s,
            ),
            (
                "final_position_error_max_m",
                b.final_position_error_max_m,
                n.final_position_error_max_m,
                tol.position_m,
            ),
        ];
        for (field, bv, nv, abs) in reals {
            if differs(bv, nv, abs + tol.relative * bv.abs()) {
                let size = Some((nv - bv).abs());
                out.push(d(field, format!("{bv:?}"), format!("{nv:?}"), size));
            }
        }
    }
    out
}

/// True for a kind name the event log may hold (used when reading baselines back).
pub fn is_event_kind(name: &str) -> bool {
    EventKind::ALL.iter().any(|k| k.name() == name)
}
