//! Running the engines on one set-up and turning outcomes into report rows.

use std::time::Instant;

use pool_engines::{EngineSpec, RunOptions};
use pool_sim::{Agents, EngineError, Outcome, Setup, Termination};

use crate::{match_events, EndCheck, ErrorRow, OpsRow, SummaryRow};

/// The event engine's run of a shot: the reference every discrete run is measured against.
#[derive(Clone, Debug)]
pub struct Reference {
    /// The outcome, with snapshots at every event.
    pub outcome: Outcome,
    /// Wall time of one run without snapshots (s): the mean over as many repeats as fit in
    /// about 20 ms (at least one).
    pub wall_time_s: f64,
    /// The engine that ran it (the event engine with some root solver).
    pub spec: EngineSpec,
}

/// The most ball states the snapshots of one run may hold (1.6 GB at 80 bytes each): runs with
/// snapshots get an event budget and a sampling interval that keep them within it.
pub const SNAPSHOT_STATES: usize = 20_000_000;

/// The event budget of a run of `n_balls` balls with a snapshot at every event: the engine's
/// own [`pool_event::MAX_EVENTS`], lowered for shots of more than 200 balls so that the
/// snapshots stay within [`SNAPSHOT_STATES`].
pub fn snapshot_event_budget(n_balls: usize) -> usize {
    (SNAPSHOT_STATES / n_balls.max(1)).min(pool_event::MAX_EVENTS)
}

/// Why a run with snapshots of `n_balls` balls had a smaller event budget than the engine's
/// own, for the message of a run that stopped on it; `None` when it had the engine's.
pub fn snapshot_budget_note(n_balls: usize) -> Option<String> {
    let budget = snapshot_event_budget(n_balls);
    (budget < pool_event::MAX_EVENTS).then(|| {
        format!(
            "a run with a snapshot at every event keeps at most {SNAPSHOT_STATES} ball states, \
             so {budget} events for {n_balls} balls"
        )
    })
}

/// A sampling interval (s) of at least `at_least` for a fixed-step run of `setup` that keeps
/// its samples within [`SNAPSHOT_STATES`] (to `t_end`, or the integrator's
/// [`pool_discrete::MAX_TIME`]).
pub fn snapshot_interval(setup: &Setup, at_least: f64) -> f64 {
    let t_limit = setup.t_end.unwrap_or(pool_discrete::MAX_TIME);
    at_least.max(t_limit * setup.balls.len() as f64 / SNAPSHOT_STATES as f64)
}

/// Runs the reference engine `spec` (normally [`EngineSpec::reference`]) with snapshots at
/// every event (within [`snapshot_event_budget`]), and times it without (`wall_time_s` NaN
/// when it stopped on its budget).
///
/// # Errors
/// The spec does not build.
pub fn run_reference(setup: &Setup, spec: &EngineSpec) -> Result<Reference, String> {
    let with_snapshots = RunOptions {
        snapshots: Some(f64::INFINITY),
        max_events: Some(snapshot_event_budget(setup.balls.len())),
        ..RunOptions::default()
    };
    let outcome = spec
        .build_with(&with_snapshots)
        .map_err(|e| e.to_string())?
        .run(setup);
    // A run that stopped on its budget has no time worth measuring (and the run without
    // snapshots, with the engine's whole budget, could take far longer).
    if outcome.termination == Termination::Budget {
        return Ok(Reference {
            outcome,
            wall_time_s: f64::NAN,
            spec: spec.clone(),
        });
    }
    let engine = spec.build().map_err(|e| e.to_string())?;
    let start = Instant::now();
    let mut repeats = 0u32;
    while repeats == 0 || (start.elapsed().as_secs_f64() < 0.02 && repeats < 10_000) {
        std::hint::black_box(engine.run(setup));
        repeats += 1;
    }
    Ok(Reference {
        outcome,
        wall_time_s: start.elapsed().as_secs_f64() / repeats as f64,
        spec: spec.clone(),
    })
}

/// How far apart (s) an event and its reference may be to match: 0.05 s or 20 steps (of a
/// fixed-step engine), whichever is longer. A first-order method's timing error is a few steps;
/// beyond that the two runs have diverged and a namesake event is a different event.
pub fn match_window(dt: Option<f64>) -> f64 {
    (20.0 * dt.unwrap_or(0.0)).max(0.05)
}

/// One engine's run measured against the reference.
#[derive(Clone, Debug)]
pub struct EngineRun {
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
/// included, each rounded to 12 significant digits so that a step that should be a round value
/// is one (1e-4 s, not the 1.0000000000000002e-4 of `powf`): a sweep's 1e-4 s and a `--dt
/// 1e-4` run are the same run, bit for bit. Returns just `[max]` when `min >= max`.
pub fn log_dt_sweep(max: f64, min: f64, per_decade: usize) -> Vec<f64> {
    if min >= max || per_decade == 0 {
        return vec![max];
    }
    let steps = ((max / min).log10() * per_decade as f64).round().max(1.0) as usize;
    (0..=steps)
        .map(|k| {
            let dt = max * (min / max).powf(k as f64 / steps as f64);
            format!("{dt:.11e}").parse().unwrap_or(dt)
        })
        .collect()
}

/// Agent ids joined by `|`, e.g. `cue|1`, `cue|rail_b1`, `cue|c1t` (a circular cushion), `9|cb`,
/// `cue`: the ball(s), then the cushion or pocket. Unambiguous: a valid set-up's ball ids are
/// none of its table's ids (`Setup::validate`).
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
        Agents::BallCircularCushion { ball: i, cushion } => {
            format!("{}|{}", ball(i), setup.table.circular_cushions[cushion].id)
        }
    }
}

fn ops_rows(setup: &Setup, spec: &EngineSpec, o: &Outcome) -> Vec<OpsRow> {
    o.ops
        .iter()
        .map(|(op, count)| OpsRow {
            shot: setup.name.clone(),
            engine: spec.family().to_string(),
            scheme: spec.variant(),
            dt_s: spec.dt(),
            op: op.to_string(),
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
            let touch = pool_physics::Physics::contact_distance(physics, &sa, &sb);
            floors.push((d.norm() - touch).abs() / approach);
        }
    }
    let (median, max) = median_and_max(floors);
    let n = o.events.len();
    let row = SummaryRow {
        shot: setup.name.clone(),
        engine: reference.spec.family().into(),
        scheme: reference.spec.variant(),
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
        engine_time_s: None,
        end_time_s: o.end_time,
        termination: o.termination.name().into(),
        final_off_table: 0,
        final_overlap_max_m: 0.0,
    }
    .with_end(&EndCheck::of(setup, o));
    (row, ops_rows(setup, &reference.spec, o))
}

/// Runs engine `spec` on `setup` and measures it against `reference`. `snapshots` (s) records
/// states for drawing paths (see [`RunOptions::snapshots`]).
///
/// # Errors
/// The spec does not build, or the engine could not run the shot
/// ([`pool_sim::Engine::try_run`]: an external program failed or declined it).
pub fn run_engine(
    setup: &Setup,
    reference: &Reference,
    spec: &EngineSpec,
    snapshots: Option<f64>,
) -> Result<EngineRun, EngineError> {
    let engine = spec
        .build_with(&RunOptions {
            snapshots,
            ..RunOptions::default()
        })
        .map_err(|e| EngineError::failed(e.to_string()))?;
    let start = Instant::now();
    let outcome = engine.try_run(setup)?;
    let wall = start.elapsed().as_secs_f64();
    let refo = &reference.outcome;
    let pairs = match_events(&refo.events, &outcome.events, match_window(spec.dt()));
    let errors: Vec<ErrorRow> = pairs
        .iter()
        .map(|&(i, j)| {
            let (r, d) = (&refo.events[i], &outcome.events[j]);
            ErrorRow {
                shot: setup.name.clone(),
                engine: spec.family().to_string(),
                scheme: spec.variant(),
                dt_s: spec.dt(),
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
    let lg_estimate_ops = match spec {
        EngineSpec::Discrete { .. } => {
            crate::lg_discrete_ops(setup.balls.len(), outcome.ops.get("step"))
        }
        EngineSpec::Event { .. } => crate::lg_event_ops(setup.balls.len(), outcome.events.len()),
        _ => f64::NAN,
    };
    let summary = SummaryRow {
        shot: setup.name.clone(),
        engine: spec.family().to_string(),
        scheme: spec.variant(),
        dt_s: spec.dt(),
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
        lg_estimate_ops,
        wall_time_s: wall,
        engine_time_s: outcome.engine_s,
        end_time_s: outcome.end_time,
        termination: outcome.termination.name().into(),
        final_off_table: 0,
        final_overlap_max_m: 0.0,
    }
    .with_end(&EndCheck::of(setup, &outcome));
    let ops = ops_rows(setup, spec, &outcome);
    Ok(EngineRun {
        summary,
        errors,
        ops,
        outcome,
    })
}
