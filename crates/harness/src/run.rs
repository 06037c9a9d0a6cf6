//! Running the engines on one set-up and turning outcomes into report rows.

use std::time::Instant;

use pool_discrete::{DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_sim::{Agents, Engine, Outcome, Setup};

use crate::{match_events, ErrorRow, OpsRow, SummaryRow};

/// The event engine's run of a shot: the reference every discrete run is measured against.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The outcome, with snapshots at every event.
    pub outcome: Outcome,
    /// Wall time of one run without snapshots (s): the mean over as many repeats as fit in
    /// about 20 ms (at least one).
    pub wall_time_s: f64,
    /// Root solver used.
    pub solver: String,
}

/// Runs the event engine with the named root solver (see `pool_roots::SOLVER_NAMES`).
///
/// # Errors
/// An unknown solver name.
pub fn run_reference(setup: &Setup, solver: &str) -> Result<Reference, String> {
    let make = || {
        pool_roots::solver_by_name(solver)
            .map(EventEngine::new)
            .ok_or_else(|| {
                format!(
                    "unknown root solver {solver:?}; known: {}",
                    pool_roots::SOLVER_NAMES.join(", ")
                )
            })
    };
    let outcome = make()?.with_snapshots(true).run(setup);
    let engine = make()?;
    let start = Instant::now();
    let mut repeats = 0u32;
    while repeats == 0 || (start.elapsed().as_secs_f64() < 0.02 && repeats < 10_000) {
        std::hint::black_box(engine.run(setup));
        repeats += 1;
    }
    Ok(Reference {
        outcome,
        wall_time_s: start.elapsed().as_secs_f64() / repeats as f64,
        solver: solver.to_string(),
    })
}

/// How far apart (s) a discrete event and its reference may be to match: 0.05 s or 20 steps,
/// whichever is longer. A first-order method's timing error is a few steps; beyond that the two
/// runs have diverged and a namesake event is a different event.
pub fn match_window(dt: f64) -> f64 {
    (20.0 * dt).max(0.05)
}

/// One discrete run measured against the reference.
#[derive(Clone, Debug)]
pub struct DiscreteRun {
    /// Its `summary.csv` row.
    pub summary: SummaryRow,
    /// Its `errors.csv` rows (one per matched event).
    pub errors: Vec<ErrorRow>,
    /// Its `ops.csv` rows.
    pub ops: Vec<OpsRow>,
    /// The outcome (with snapshots when sampling was asked for).
    pub outcome: Outcome,
}

/// dt values from `max` down to `min` (s), `per_decade` log-spaced values per decade, both ends
/// included. Returns just `[max]` when `min >= max`.
pub fn log_dt_sweep(max: f64, min: f64, per_decade: usize) -> Vec<f64> {
    if min >= max || per_decade == 0 {
        return vec![max];
    }
    let steps = ((max / min).log10() * per_decade as f64).round().max(1.0) as usize;
    (0..=steps)
        .map(|k| max * (min / max).powf(k as f64 / steps as f64))
        .collect()
}

/// Agent ids joined by `|`, e.g. `cue|1`, `cue|rail_b1`, `9|cb`, `cue`.
pub fn agents_label(setup: &Setup, agents: &Agents) -> String {
    let ball = |i: usize| setup.balls[i].id.as_str();
    match *agents {
        Agents::Ball { ball: i } => ball(i).to_string(),
        Agents::BallBall { a, b } => format!("{}|{}", ball(a), ball(b)),
        Agents::BallCushion { ball: i, cushion } => {
            format!("{}|{}", ball(i), setup.table.cushions[cushion].id)
        }
        Agents::BallPocket { ball: i, pocket } => {
            format!("{}|{}", ball(i), setup.table.pockets[pocket].id)
        }
    }
}

fn ops_rows(
    setup: &Setup,
    engine: &str,
    scheme: &str,
    dt: Option<f64>,
    o: &Outcome,
) -> Vec<OpsRow> {
    o.ops
        .iter()
        .map(|(op, count)| OpsRow {
            shot: setup.name.clone(),
            engine: engine.to_string(),
            scheme: scheme.to_string(),
            dt_s: dt,
            op: op.name().to_string(),
            count,
        })
        .collect()
}

fn median_and_max(mut xs: Vec<f64>) -> (f64, f64) {
    if xs.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    let median = if n % 2 == 1 {
        xs[n / 2]
    } else {
        0.5 * (xs[n / 2 - 1] + xs[n / 2])
    };
    (median, xs[n - 1])
}

/// Collisions slower than this (m/s) are left out of the event engine's error floor.
pub const FLOOR_MIN_APPROACH: f64 = 1e-3;

/// The event engine's own summary row and ops rows. Its collision-time "error" is its floor:
/// each ball-ball collision's contact residual (m) divided by the approach speed there (m/s),
/// i.e. how far in time the computed contact is from exact contact, over collisions approaching
/// at [`FLOOR_MIN_APPROACH`] or faster.
pub fn reference_rows(setup: &Setup, reference: &Reference) -> (SummaryRow, Vec<OpsRow>) {
    let o = &reference.outcome;
    let radius = pool_physics::Physics::radius(&setup.physics);
    let mut floors = Vec::new();
    for (k, e) in o.events.iter().enumerate() {
        let (Agents::BallBall { a, b }, Some(snap), Some(prev)) =
            (e.agents, o.snapshots.get(k + 1), o.snapshots.get(k))
        else {
            continue;
        };
        // Approach speed from the states just before resolution (previous snapshot evolved).
        let physics = &setup.physics;
        let dt = e.time - prev.time;
        let (sa, sb) = (
            pool_physics::Physics::evolve(physics, &prev.states[a], dt),
            pool_physics::Physics::evolve(physics, &prev.states[b], dt),
        );
        let d = snap.states[b].r.xy() - snap.states[a].r.xy();
        let approach = (sa.v.xy() - sb.v.xy()).dot(&d.normalize()).abs();
        // Slow pushes (approach below 1 mm/s) turn a tiny residual into a meaningless time.
        if approach >= FLOOR_MIN_APPROACH {
            floors.push((d.norm() - 2.0 * radius).abs() / approach);
        }
    }
    let (median, max) = median_and_max(floors);
    let n = o.events.len();
    let row = SummaryRow {
        shot: setup.name.clone(),
        engine: "event".into(),
        scheme: reference.solver.clone(),
        dt_s: None,
        n_balls: setup.balls.len(),
        n_reference_events: n,
        n_events: n,
        n_matched: n,
        n_missed: 0,
        n_spurious: 0,
        collision_time_error_median_s: median,
        collision_time_error_max_s: max,
        final_position_error_max_m: 0.0,
        ops_total: o.ops.total(),
        lg_estimate_ops: crate::lg_event_ops(setup.balls.len(), n),
        wall_time_s: reference.wall_time_s,
        end_time_s: o.end_time,
        termination: o.termination.name().into(),
    };
    (row, ops_rows(setup, "event", &reference.solver, None, o))
}

/// Runs the discrete integrator at `dt` with `scheme` and measures it against `reference`.
/// `sample_interval` (s) records snapshots for drawing paths.
pub fn run_discrete(
    setup: &Setup,
    reference: &Reference,
    scheme: Scheme,
    dt: f64,
    sample_interval: Option<f64>,
) -> DiscreteRun {
    // The culled broad phase (pool-discrete's default): the discrete side of the comparison
    // must be well built to be honest. It gives the same events and states bit for bit as the
    // exhaustive one (pool-discrete's tests/broad_phase.rs); the scaling study measures both.
    let engine = DiscreteEngine::new(dt, scheme).with_sampling(sample_interval);
    let start = Instant::now();
    let outcome = engine.run(setup);
    let wall = start.elapsed().as_secs_f64();
    let refo = &reference.outcome;
    let pairs = match_events(&refo.events, &outcome.events, match_window(dt));
    let scheme_name = scheme.name().to_string();
    let errors: Vec<ErrorRow> = pairs
        .iter()
        .map(|&(i, j)| {
            let (r, d) = (&refo.events[i], &outcome.events[j]);
            ErrorRow {
                shot: setup.name.clone(),
                engine: "discrete".into(),
                scheme: scheme_name.clone(),
                dt_s: Some(dt),
                reference_index: i,
                kind: r.kind.name().into(),
                agents: agents_label(setup, &r.agents),
                t_reference_s: r.time,
                t_engine_s: d.time,
                error_s: d.time - r.time,
            }
        })
        .collect();
    let collision_errors: Vec<f64> = pairs
        .iter()
        .filter(|&&(i, _)| refo.events[i].kind.is_collision())
        .map(|&(i, j)| (outcome.events[j].time - refo.events[i].time).abs())
        .collect();
    let (median, max) = median_and_max(collision_errors);
    let final_err = refo
        .final_states
        .iter()
        .zip(&outcome.final_states)
        .map(|(a, b)| (a.r.xy() - b.r.xy()).norm())
        .fold(0.0, f64::max);
    let n_ref = refo.events.len();
    let summary = SummaryRow {
        shot: setup.name.clone(),
        engine: "discrete".into(),
        scheme: scheme_name.clone(),
        dt_s: Some(dt),
        n_balls: setup.balls.len(),
        n_reference_events: n_ref,
        n_events: outcome.events.len(),
        n_matched: pairs.len(),
        n_missed: n_ref - pairs.len(),
        n_spurious: outcome.events.len() - pairs.len(),
        collision_time_error_median_s: median,
        collision_time_error_max_s: max,
        final_position_error_max_m: final_err,
        ops_total: outcome.ops.total(),
        lg_estimate_ops: crate::lg_discrete_ops(
            setup.balls.len(),
            outcome.ops.get(pool_sim::Op::Step),
        ),
        wall_time_s: wall,
        end_time_s: outcome.end_time,
        termination: outcome.termination.name().into(),
    };
    let ops = ops_rows(setup, "discrete", &scheme_name, Some(dt), &outcome);
    DiscreteRun {
        summary,
        errors,
        ops,
        outcome,
    }
}
