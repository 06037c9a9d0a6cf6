//! One-step agreement: for every event of the reference run, each engine restarts from the
//! reference state just after the previous event and predicts the next one. Whole shots
//! diverge after a few collisions of a break (the dynamics are chaotic); restarting every time
//! from the reference's state measures the algorithm alone, one event at a time.

use pool_engines::{EngineSpec, RunOptions};
use pool_physics::EventKind;
use pool_sim::{Ball, EngineError, Event, Setup};
use serde::Serialize;

use crate::{agents_label, match_window, Reference};

/// Reference events within this (s) of each other are a tie: an engine that predicts any of
/// them first agrees (the order of simultaneous events is a convention, not physics).
pub const TIE_S: f64 = 1e-12;

/// Predicted times within this (s) of the reference count as agreeing in time (the issue's
/// target for pooltool on the seed physics).
pub const ONE_STEP_TIME_TOL_S: f64 = 1e-9;

/// One row of `one_step.csv`: one reference event and what an engine restarted just before it
/// predicted.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct OneStepRow {
    /// Shot name.
    pub shot: String,
    /// Engine family (see `SummaryRow::engine`).
    pub engine: String,
    /// Variant (see `SummaryRow::scheme`).
    pub scheme: String,
    /// Time step (s), empty for engines without one.
    pub dt_s: Option<f64>,
    /// Index of the event in the reference log.
    pub reference_index: usize,
    /// The reference event's kind.
    pub kind: String,
    /// Its agents (`cue|1`).
    pub agents: String,
    /// When the restart began: the previous reference event's time (s).
    pub t_restart_s: f64,
    /// Its time (s).
    pub t_reference_s: f64,
    /// The kind of the first event the engine predicted (empty: none within the window).
    pub predicted_kind: String,
    /// Its agents.
    pub predicted_agents: String,
    /// Its time (s, on the reference's clock; NaN when none).
    pub t_predicted_s: f64,
    /// Same kind and agents as the reference event (or one tied with it, [`TIE_S`]).
    pub agree: bool,
    /// t_predicted - t_reference (s) of the agreeing event; NaN when they disagree.
    pub error_s: f64,
}

/// The restart before reference event `k`: the reference's balls just after event k - 1 (at
/// its time `t0`, s), no strike, and a time limit `horizon` s past the event.
fn restart(setup: &Setup, reference: &Reference, k: usize, horizon: f64) -> Option<(f64, Setup)> {
    let snap = reference.outcome.snapshots.get(k)?;
    let event = reference.outcome.events.get(k)?;
    let balls = setup
        .balls
        .iter()
        .zip(&snap.states)
        .map(|(b, s)| Ball {
            id: b.id.clone(),
            state: *s,
        })
        .collect();
    Some((
        snap.time,
        Setup {
            name: format!("{}@{k}", setup.name),
            physics: setup.physics.clone(),
            table: setup.table.clone(),
            balls,
            t_end: Some((event.time - snap.time) + horizon),
            strike: None,
        },
    ))
}

/// One-step agreement of engine `spec` on every event of `reference` (the run of `setup`, with
/// snapshots at every event) but the cue strike: each restart is one run of the engine with
/// a budget of one event, all passed to [`pool_sim::Engine::try_run_all`] at once. A restart
/// the engine declines (unsupported: FastFiz can only start from a strike on a table at rest)
/// has no row; when it declines every restart, that is the error.
///
/// # Errors
/// The spec does not build, the reference has no snapshots, the engine failed on a restart
/// (its message, naming the event), or it declined them all.
pub fn one_step(
    setup: &Setup,
    reference: &Reference,
    spec: &EngineSpec,
) -> Result<Vec<OneStepRow>, EngineError> {
    let events = &reference.outcome.events;
    if reference.outcome.snapshots.len() < events.len() {
        return Err(EngineError::failed(
            "the reference run has no snapshots to restart from",
        ));
    }
    let horizon = match_window(spec.dt());
    let mut starts = Vec::new();
    let mut restarts = Vec::new();
    for (k, e) in events.iter().enumerate() {
        if e.kind == EventKind::StickBall {
            continue;
        }
        if let Some((t0, s)) = restart(setup, reference, k, horizon) {
            starts.push((k, t0));
            restarts.push(s);
        }
    }
    let engine = spec
        .build_with(&RunOptions {
            snapshots: None,
            max_events: Some(1),
            ..RunOptions::default()
        })
        .map_err(|e| EngineError::failed(e.to_string()))?;
    let outcomes = engine.try_run_all(&restarts);
    let mut rows = Vec::with_capacity(starts.len());
    let mut declined = None;
    for (&(k, t0), outcome) in starts.iter().zip(outcomes) {
        let outcome = match outcome {
            Err(e) if e.unsupported => {
                declined.get_or_insert(EngineError {
                    message: format!("restart before event {k}: {}", e.message),
                    unsupported: true,
                });
                continue;
            }
            other => other.map_err(|e| EngineError {
                message: format!("restart before event {k}: {}", e.message),
                unsupported: e.unsupported,
            })?,
        };
        let predicted = outcome
            .events
            .iter()
            .find(|e| e.kind != EventKind::StickBall);
        rows.push(judge(setup, spec, events, k, t0, predicted));
    }
    match declined {
        Some(e) if rows.is_empty() => Err(e),
        _ => Ok(rows),
    }
}

/// The row of reference event `k` given the engine's first event (times from `t0`).
fn judge(
    setup: &Setup,
    spec: &EngineSpec,
    events: &[Event],
    k: usize,
    t0: f64,
    predicted: Option<&Event>,
) -> OneStepRow {
    let r = &events[k];
    // The reference events tied with event k (k itself first).
    let tied = events[k..]
        .iter()
        .take_while(|e| (e.time - r.time).abs() <= TIE_S);
    let agreeing = predicted.and_then(|p| {
        tied.clone()
            .find(|e| e.kind == p.kind && e.agents == p.agents)
            .map(|e| t0 + p.time - e.time)
    });
    OneStepRow {
        shot: setup.name.clone(),
        engine: spec.family().to_string(),
        scheme: spec.variant(),
        dt_s: spec.dt(),
        reference_index: k,
        kind: r.kind.name().into(),
        agents: agents_label(setup, &r.agents),
        t_restart_s: t0,
        t_reference_s: r.time,
        predicted_kind: predicted.map_or(String::new(), |p| p.kind.name().into()),
        predicted_agents: predicted.map_or(String::new(), |p| agents_label(setup, &p.agents)),
        t_predicted_s: predicted.map_or(f64::NAN, |p| t0 + p.time),
        agree: agreeing.is_some(),
        error_s: agreeing.unwrap_or(f64::NAN),
    }
}

/// One-step agreement of one engine over some rows (a shot, or all shots; one event kind, or
/// all): how many events, how many agreeing, and the agreeing ones' time errors.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OneStepStats {
    /// Reference events restarted from.
    pub n: usize,
    /// Events predicted with the same kind and agents.
    pub agree: usize,
    /// Agreeing events whose time is within [`ONE_STEP_TIME_TOL_S`].
    pub within_tol: usize,
    /// Disagreeing events whose prediction came at the restart instant itself (within
    /// [`TIE_S`]): an engine re-colliding a contact the reference had just resolved.
    pub at_restart: usize,
    /// Median |error| of the agreeing events (s); NaN when none.
    pub error_median_s: f64,
    /// Largest |error| of the agreeing events (s); NaN when none.
    pub error_max_s: f64,
}

impl OneStepStats {
    /// The statistics of `rows`.
    pub fn of<'a>(rows: impl IntoIterator<Item = &'a OneStepRow>) -> Self {
        let (mut n, mut at_restart) = (0, 0);
        let mut errors = Vec::new();
        for r in rows {
            n += 1;
            if r.agree {
                errors.push(r.error_s.abs());
            } else if (r.t_predicted_s - r.t_restart_s).abs() <= TIE_S {
                at_restart += 1;
            }
        }
        errors.sort_by(f64::total_cmp);
        let median = if errors.is_empty() {
            f64::NAN
        } else {
            errors[errors.len() / 2]
        };
        OneStepStats {
            n,
            agree: errors.len(),
            within_tol: errors.iter().filter(|&&e| e <= ONE_STEP_TIME_TOL_S).count(),
            at_restart,
            error_median_s: median,
            error_max_s: errors.last().copied().unwrap_or(f64::NAN),
        }
    }

    /// Agreeing events as a fraction of all (NaN for none).
    pub fn agree_fraction(&self) -> f64 {
        self.agree as f64 / self.n as f64
    }
}
