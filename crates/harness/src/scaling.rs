//! Scaling study: how each engine's cost grows with the number of balls.
//!
//! Random scatters of n balls (seeded) on a large pocketless rectangle run for a fixed simulated
//! time through the event engine and the discrete integrator (both broad phases). Each run gives
//! one [`ScalingRow`]: real operation counts ([`pool_sim::OpCounts`]) and wall time, per event
//! (event engine) or per step (discrete), next to Leckie & Greenspan's estimates (seed 003).
//! [`scaling_slopes`] fits log-log slopes against n. Pure apart from reading the clock: no I/O.

use std::time::Instant;

use pool_engines::EngineSpec;
use pool_physics::{BallParams, Model, Table, Vec2};
use pool_sim::{Setup, Termination};
use serde::Serialize;

use crate::{lg_discrete_ops, lg_event_ops, loglog_slope, scatter, ScatterSpec, SplitMix};

/// Length and width (m) of the study's table: a pocketless rectangle with room for 64 balls
/// covering about 5% of the cloth.
pub const SCALING_TABLE_M: (f64, f64) = (5.0, 2.5);

/// The engines the study runs: the event engine, the discrete integrator with the exhaustive
/// and with the culled broad phase.
pub const SCALING_ENGINES: [&str; 3] = ["event", "discrete_exhaustive", "discrete_culled"];

/// What the study runs: sizes, seeds, simulated time and the discrete step.
#[derive(Clone, Debug, PartialEq)]
pub struct ScalingPlan {
    /// Numbers of balls.
    pub sizes: Vec<usize>,
    /// Seeds per size (scatter k of size n uses seed 1000 n + k).
    pub seeds: u64,
    /// Simulated time per run (s).
    pub t_end: f64,
    /// Discrete step (s).
    pub dt: f64,
}

impl ScalingPlan {
    /// The full study: 2-64 balls, 5 seeds each, 4 s at dt = 1e-4 s (the step).
    pub fn full() -> Self {
        ScalingPlan {
            sizes: vec![2, 4, 8, 16, 32, 64],
            seeds: 5,
            t_end: 4.0,
            dt: 1e-4,
        }
    }

    /// The quick study: the same sizes, two seeds, 2 s at dt = 1e-3 s.
    pub fn quick() -> Self {
        ScalingPlan {
            seeds: 2,
            t_end: 2.0,
            dt: 1e-3,
            ..Self::full()
        }
    }

    /// Every (engine, n, seed) run of the plan, longest first.
    pub fn jobs(&self) -> Vec<(&'static str, usize, u64)> {
        let mut jobs = Vec::new();
        for &n in self.sizes.iter().rev() {
            for seed in 0..self.seeds {
                for e in SCALING_ENGINES {
                    jobs.push((e, n, 1000 * n as u64 + seed));
                }
            }
        }
        jobs
    }
}

/// One run of the study (a row of `scaling.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScalingRow {
    /// `event`, `discrete_exhaustive` or `discrete_culled`.
    pub engine: String,
    /// Number of balls.
    pub n_balls: usize,
    /// Scatter seed.
    pub seed: u64,
    /// Events in the log.
    pub n_events: usize,
    /// Time steps (discrete; 0 for the event engine).
    pub n_steps: u64,
    /// The cost unit: events for the event engine, steps for the discrete integrator.
    pub n_units: u64,
    /// All operations counted.
    pub ops_total: u64,
    /// Operations per unit.
    pub ops_per_unit: f64,
    /// Leckie & Greenspan's operations per unit for n balls: (645 n - 19 n^2) / 2 per event,
    /// (61 n - n^2) / 2 per step (negative past n = 34 and n = 61: outside their fit).
    pub lg_ops_per_unit: f64,
    /// Wall time of the run (s).
    pub wall_time_s: f64,
    /// Wall time per unit (s).
    pub wall_per_unit_s: f64,
}

/// A scatter of `n` balls on the study's table, seeded: random places clear of one another (by
/// 1 mm) and of the cushions (centers at least 2R from them), speeds 0.5-4 m/s in random
/// directions, random spins up to one rolling spin ([`crate::scatter`]).
pub fn scaling_setup(n: usize, seed: u64, t_end: f64) -> Setup {
    let params = BallParams::pool();
    let radius = params.radius;
    let (length, width) = SCALING_TABLE_M;
    let table = Table::rectangle("scaling_5x2.5", length, width, 0.64 * 2.0 * radius);
    let mut rng = SplitMix::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D));
    let spec = ScatterSpec {
        n,
        region: (
            Vec2::new(2.0 * radius, 2.0 * radius),
            Vec2::new(length - 2.0 * radius, width - 2.0 * radius),
        ),
        min_gap: 1e-3,
        speed: (0.5, 4.0),
        rest_fraction: 0.0,
        max_tries: usize::MAX,
    };
    let balls = scatter(&table, radius, &spec, &mut rng);
    Setup {
        name: format!("scatter_{n}_{seed}"),
        physics: Model::pool(params),
        table: table.into(),
        balls,
        t_end: Some(t_end),
        strike: None,
    }
}

/// Runs one (engine, n, seed) job of `plan`. `engine` is one of [`SCALING_ENGINES`].
///
/// # Errors
/// An unknown engine, or a run that did not end physically (budget or a non-finite state).
pub fn scaling_run(
    engine: &str,
    n: usize,
    seed: u64,
    plan: &ScalingPlan,
) -> Result<ScalingRow, String> {
    let setup = scaling_setup(n, seed, plan.t_end);
    let spec = match engine {
        "event" => "event".to_string(),
        "discrete_exhaustive" => format!("discrete:{:e}:end_of_step:exhaustive", plan.dt),
        "discrete_culled" => format!("discrete:{:e}:end_of_step:culled", plan.dt),
        other => {
            return Err(format!(
                "unknown scaling engine {other:?}; known: {}",
                SCALING_ENGINES.join(", ")
            ))
        }
    };
    let runner = spec
        .parse::<EngineSpec>()
        .and_then(|s| s.build())
        .map_err(|e| e.to_string())?;
    let start = Instant::now();
    let o = runner.run(&setup);
    let wall = start.elapsed().as_secs_f64();
    if !matches!(o.termination, Termination::AtRest | Termination::TimeLimit) {
        return Err(format!(
            "scaling run {spec} on {n} balls (seed {seed}) did not end physically: {}",
            o.termination.name()
        ));
    }
    let steps = o.ops.get("step");
    let event_based = engine == pool_engines::EVENT;
    let units = if event_based {
        o.events.len() as u64
    } else {
        steps
    };
    let per = |x: f64| {
        if units > 0 {
            x / units as f64
        } else {
            f64::NAN
        }
    };
    Ok(ScalingRow {
        engine: engine.to_string(),
        n_balls: setup.balls.len(),
        seed,
        n_events: o.events.len(),
        n_steps: steps,
        n_units: units,
        ops_total: o.ops.total(),
        ops_per_unit: per(o.ops.total() as f64),
        lg_ops_per_unit: if event_based {
            lg_event_ops(n, 1)
        } else {
            lg_discrete_ops(n, 1)
        },
        wall_time_s: wall,
        wall_per_unit_s: per(wall),
    })
}

/// A fitted log-log slope of one engine's cost against n.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ScalingSlope {
    /// Engine name.
    pub engine: String,
    /// `ops_per_unit`, `wall_per_unit_s` or `lg_ops_per_unit`.
    pub metric: String,
    /// Slope of log10(median over seeds) against log10(n).
    pub slope: f64,
    /// Smallest and largest n in the fit.
    pub n_range: (usize, usize),
}

/// Reads one per-unit cost from a row.
type Metric = fn(&ScalingRow) -> f64;

/// Slopes of ops per unit, wall time per unit and L&G's estimate (where positive) against n,
/// per engine, each fitted on the median over seeds at each n.
pub fn scaling_slopes(rows: &[ScalingRow]) -> Vec<ScalingSlope> {
    let mut out = Vec::new();
    for engine in SCALING_ENGINES {
        let mine: Vec<&ScalingRow> = rows.iter().filter(|r| r.engine == engine).collect();
        let metrics: [(&str, Metric); 3] = [
            ("ops_per_unit", |r| r.ops_per_unit),
            ("wall_per_unit_s", |r| r.wall_per_unit_s),
            ("lg_ops_per_unit", |r| r.lg_ops_per_unit),
        ];
        for (metric, get) in metrics {
            let pts = medians_by_n(&mine, get);
            if pts.len() < 2 {
                continue;
            }
            out.push(ScalingSlope {
                engine: engine.to_string(),
                metric: metric.to_string(),
                slope: loglog_slope(&pts),
                n_range: (pts[0].0 as usize, pts[pts.len() - 1].0 as usize),
            });
        }
    }
    out
}

/// (n, median of `get` over the rows with that n), n ascending, positive finite values only.
pub fn medians_by_n(rows: &[&ScalingRow], get: fn(&ScalingRow) -> f64) -> Vec<(f64, f64)> {
    let mut ns: Vec<usize> = rows.iter().map(|r| r.n_balls).collect();
    ns.sort_unstable();
    ns.dedup();
    ns.into_iter()
        .filter_map(|n| {
            let mut v: Vec<f64> = rows
                .iter()
                .filter(|r| r.n_balls == n)
                .map(|r| get(r))
                .filter(|x| x.is_finite() && *x > 0.0)
                .collect();
            if v.is_empty() {
                return None;
            }
            v.sort_by(f64::total_cmp);
            let m = v.len();
            let med = if m % 2 == 1 {
                v[m / 2]
            } else {
                0.5 * (v[m / 2 - 1] + v[m / 2])
            };
            Some((n as f64, med))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scatters_are_valid_seeded_and_sized() {
        for n in [2, 16, 64] {
            let a = scaling_setup(n, 7, 1.0);
            a.validate().expect("valid set-up");
            assert_eq!(a.balls.len(), n);
            let b = scaling_setup(n, 7, 1.0);
            assert_eq!(a.balls[n - 1].state, b.balls[n - 1].state);
            assert_ne!(a.balls[0].state, scaling_setup(n, 8, 1.0).balls[0].state);
        }
    }

    #[test]
    fn discrete_cost_per_step_is_quadratic_exhaustive_and_linear_culled() {
        let plan = ScalingPlan {
            sizes: vec![8, 64],
            seeds: 1,
            t_end: 0.05,
            dt: 1e-3,
        };
        let mut rows = Vec::new();
        for (e, n, seed) in plan.jobs() {
            rows.push(scaling_run(e, n, seed, &plan).unwrap());
        }
        let get = |e: &str, n: usize| {
            rows.iter()
                .find(|r| r.engine == e && r.n_balls == n)
                .unwrap()
                .ops_per_unit
        };
        // Exhaustive: C(n, 2) pair tests dominate, 8 -> 64 balls is ~64x more per step
        // (ratio of n(n-1)/2 = 72); culled: about 8x (linear), certainly below 16x.
        let ex = get("discrete_exhaustive", 64) / get("discrete_exhaustive", 8);
        let cu = get("discrete_culled", 64) / get("discrete_culled", 8);
        assert!(ex > 30.0, "exhaustive grew only {ex}x");
        assert!(cu < 16.0, "culled grew {cu}x");
        // Same physics: the two discrete runs log the same events.
        let ev = |e: &str| {
            rows.iter()
                .find(|r| r.engine == e && r.n_balls == 64)
                .unwrap()
                .n_events
        };
        assert_eq!(ev("discrete_exhaustive"), ev("discrete_culled"));
        let slopes = scaling_slopes(&rows);
        let s = slopes
            .iter()
            .find(|s| s.engine == "discrete_exhaustive" && s.metric == "ops_per_unit")
            .unwrap();
        assert!(s.slope > 1.6 && s.slope < 2.1, "slope {}", s.slope);
        assert_eq!(s.n_range, (8, 64));
    }

    #[test]
    fn unknown_engine_is_an_error() {
        assert!(scaling_run("warp", 2, 1, &ScalingPlan::quick()).is_err());
    }

    #[test]
    fn medians_take_the_middle_and_skip_bad_values() {
        let row = |n, v| ScalingRow {
            engine: "event".into(),
            n_balls: n,
            seed: 0,
            n_events: 1,
            n_steps: 0,
            n_units: 1,
            ops_total: 1,
            ops_per_unit: v,
            lg_ops_per_unit: v,
            wall_time_s: v,
            wall_per_unit_s: v,
        };
        let rows = [
            row(2, 1.0),
            row(2, 3.0),
            row(2, f64::NAN),
            row(4, 5.0),
            row(4, 7.0),
            row(4, 6.0),
        ];
        let refs: Vec<&ScalingRow> = rows.iter().collect();
        assert_eq!(
            medians_by_n(&refs, |r| r.ops_per_unit),
            vec![(2.0, 2.0), (4.0, 6.0)]
        );
    }
}
