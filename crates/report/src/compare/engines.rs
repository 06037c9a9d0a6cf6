//! Every engine of a compare run at a glance: order of convergence, error at equal cost, the
//! cost at which it reaches 1e-6 s, one-step agreement beside whole-shot matching.

use pool_harness::{OneStepRow, OneStepStats, SummaryRow};

use super::{Results, SlopeRow};

/// The error level the summary asks each engine to reach (s).
pub const TARGET_ERROR_S: f64 = 1e-6;

/// The cost budget of "error at equal cost": this many times the event engine's operations
/// (or wall time) on the same shot.
pub const BUDGET_FACTOR: f64 = 10.0;

/// One engine (a family and variant; every dt of a fixed-step one) over a run.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSummary {
    /// `summary.csv`'s engine column.
    pub engine: String,
    /// Its scheme column.
    pub scheme: String,
    /// Whether its rows have a time step.
    pub stepped: bool,
    /// Median over the followed shots of the fitted log-log slope of median collision-time
    /// error against dt (fixed-step engines with at least two points on a shot).
    pub slope: Option<f64>,
    /// Shots that slope is the median of.
    pub slope_shots: usize,
    /// On those shots, at its finest dt: reference events it matched / reference events. An
    /// order over few matched events is those events' order alone (often the first contact's).
    pub slope_matched: (usize, usize),
    /// Median over followed shots of its median collision-time error at [`BUDGET_FACTOR`]
    /// times the event engine's operation count on the shot (interpolated log-log between the
    /// dt values around it; `None` when its sweep does not span that cost or it counts none).
    pub error_at_ops_budget_s: Option<f64>,
    /// The same at [`BUDGET_FACTOR`] times the event engine's time, engine times on both
    /// sides ([`SummaryRow::engine_cost_s`]: a program's own engine calls when it reports them).
    pub error_at_wall_budget_s: Option<f64>,
    /// Median over followed shots of the operations at which its median error first reaches
    /// [`TARGET_ERROR_S`] (interpolated log-log; `None` when it never does).
    pub ops_to_target: Option<f64>,
    /// The same in engine time (s; [`SummaryRow::engine_cost_s`]).
    pub wall_to_target_s: Option<f64>,
    /// Followed shots where its operations reached the target / followed shots where it has
    /// errors and counts operations.
    pub ops_target_shots: (usize, usize),
    /// The same in wall time.
    pub wall_target_shots: (usize, usize),
    /// The dt its one-step and whole-shot figures are taken at (the one nearest 1e-3 s).
    pub dt_s: Option<f64>,
    /// One-step agreement over every shot at that dt.
    pub one_step: Option<OneStepStats>,
    /// Whole-shot matched reference events / reference events at that dt.
    pub matched: (usize, usize),
    /// Median wall time per shot at that dt (s).
    pub wall_s: f64,
    /// Median engine time per shot at that dt (s; [`SummaryRow::engine_cost_s`]).
    pub engine_s: f64,
    /// Whether its engine times are a program's reported `engine_s` (then `wall_s` is the
    /// time with its adapter), not its wall times.
    pub reports_engine_time: bool,
}

/// The shots the fixed-step engines follow to the end: some run at the smallest dt of the
/// sweep (or an engine without a time step other than the reference) matched every reference
/// event with no spurious one. Breaks and many-ball shots are not: their collisions come in
/// another order after a few events, so their errors measure divergence, not the algorithm.
pub fn followed_shots(rows: &[SummaryRow]) -> Vec<String> {
    let dt_min = rows
        .iter()
        .filter_map(|r| r.dt_s)
        .fold(f64::INFINITY, f64::min);
    let mut shots: Vec<String> = Vec::new();
    for r in rows {
        let finest = r.dt_s.is_some_and(|d| d <= dt_min * (1.0 + 1e-9));
        if finest && r.n_missed == 0 && r.n_spurious == 0 && !shots.contains(&r.shot) {
            shots.push(r.shot.clone());
        }
    }
    shots
}

/// Log-log interpolation: where the polyline through `pts` (sorted by x) reaches x = `at`.
fn interpolate(pts: &[(f64, f64)], at: f64) -> Option<f64> {
    pts.windows(2).find_map(|w| {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        let (lo, hi) = (x0.min(x1), x0.max(x1));
        (lo <= at && at <= hi).then(|| {
            if x1 == x0 {
                y0
            } else {
                let f = (at.ln() - x0.ln()) / (x1.ln() - x0.ln());
                (y0.ln() + f * (y1.ln() - y0.ln())).exp()
            }
        })
    })
}

/// The cost (x) at which the curve `pts` (x = cost increasing along it) first has y <=
/// `target`, interpolated log-log; the first point's cost when it starts there.
fn cost_to_reach(pts: &[(f64, f64)], target: f64) -> Option<f64> {
    if pts.first()?.1 <= target {
        return Some(pts[0].0);
    }
    pts.windows(2).find_map(|w| {
        let ((x0, y0), (x1, y1)) = (w[0], w[1]);
        (y1 <= target).then(|| {
            let f = (target.ln() - y0.ln()) / (y1.ln() - y0.ln());
            (x0.ln() + f * (x1.ln() - x0.ln())).exp()
        })
    })
}

fn median(mut v: Vec<f64>) -> Option<f64> {
    v.retain(|x| x.is_finite());
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    Some(v[v.len() / 2])
}

fn positive(x: f64) -> bool {
    x.is_finite() && x > 0.0
}

/// The dt of `dts` nearest `target` on a log scale.
pub fn nearest_dt(dts: &[f64], target: f64) -> Option<f64> {
    dts.iter().copied().min_by(|a, b| {
        (a.log10() - target.log10())
            .abs()
            .total_cmp(&(b.log10() - target.log10()).abs())
    })
}

/// The rows of the shots under their own physics: what the glance table and the main plots
/// (`error_vs_dt.png`, ...) count; runs under another preset (`<shot>@<preset>`) have their own
/// section.
pub fn own_physics(rows: &[SummaryRow]) -> Vec<SummaryRow> {
    rows.iter()
        .filter(|r| !super::is_variant(&r.shot))
        .cloned()
        .collect()
}

/// One summary per engine of the run, in `summary.csv` order (the reference first), over the
/// shots under their own physics ([`own_physics`]).
pub fn engine_summaries(res: &Results) -> Vec<EngineSummary> {
    engine_summaries_of(&res.summary, &res.slopes, &res.one_step)
}

/// [`engine_summaries`] of a run's `summary.csv`, `slopes.csv` and `one_step.csv` rows.
pub fn engine_summaries_of(
    summary: &[SummaryRow],
    slopes_rows: &[SlopeRow],
    one_step_rows: &[OneStepRow],
) -> Vec<EngineSummary> {
    let rows = &own_physics(summary);
    let followed = followed_shots(rows);
    let mut keys: Vec<(String, String)> = Vec::new();
    for r in rows {
        let k = (r.engine.clone(), r.scheme.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let event_of = |shot: &str| {
        rows.iter()
            .find(|r| r.engine == pool_engines::EVENT && r.scheme == "isolator" && r.shot == shot)
    };
    keys.into_iter()
        .map(|(engine, scheme)| {
            let mine: Vec<&SummaryRow> = rows
                .iter()
                .filter(|r| r.engine == engine && r.scheme == scheme)
                .collect();
            let stepped = mine.iter().any(|r| r.dt_s.is_some());
            let dts: Vec<f64> = {
                let mut d: Vec<f64> = mine.iter().filter_map(|r| r.dt_s).collect();
                d.sort_by(f64::total_cmp);
                d.dedup();
                d
            };
            let dt = nearest_dt(&dts, 1e-3);
            let at_dt: Vec<&&SummaryRow> = mine
                .iter()
                .filter(|r| match (r.dt_s, dt) {
                    (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * b,
                    (None, None) => true,
                    _ => false,
                })
                .collect();
            let slope_rows: Vec<&SlopeRow> = slopes_rows
                .iter()
                .filter(|s: &&SlopeRow| {
                    s.engine == engine
                        && s.scheme == scheme
                        && s.points >= 2
                        && followed.contains(&s.shot)
                })
                .collect();
            let slopes: Vec<f64> = slope_rows.iter().map(|s| s.slope).collect();
            let mut slope_matched = (0, 0);
            for s in &slope_rows {
                let finest = mine
                    .iter()
                    .filter(|r| r.shot == s.shot && r.dt_s.is_some())
                    .min_by(|a, b| a.dt_s.unwrap_or(0.0).total_cmp(&b.dt_s.unwrap_or(0.0)));
                if let Some(r) = finest {
                    slope_matched.0 += r.n_matched;
                    slope_matched.1 += r.n_reference_events;
                }
            }
            let (mut at_ops, mut at_wall, mut ops_hit, mut wall_hit) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let (mut with_ops, mut with_wall) = (0, 0);
            for shot in &followed {
                let curve = |cost: &dyn Fn(&SummaryRow) -> f64| {
                    let mut pts: Vec<(f64, f64)> = mine
                        .iter()
                        .filter(|r| &r.shot == shot)
                        .map(|r| (cost(r), r.collision_time_error_median_s))
                        .filter(|&(x, y)| positive(x) && positive(y))
                        .collect();
                    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                    pts
                };
                let ops = curve(&|r| r.ops_total as f64);
                let wall = curve(&|r| r.engine_cost_s());
                with_ops += usize::from(!ops.is_empty());
                with_wall += usize::from(!wall.is_empty());
                if let Some(e) = event_of(shot) {
                    at_ops.extend(interpolate(&ops, BUDGET_FACTOR * e.ops_total as f64));
                    at_wall.extend(interpolate(&wall, BUDGET_FACTOR * e.engine_cost_s()));
                }
                ops_hit.extend(cost_to_reach(&ops, TARGET_ERROR_S));
                wall_hit.extend(cost_to_reach(&wall, TARGET_ERROR_S));
            }
            let (ops_reached, wall_reached) = (ops_hit.len(), wall_hit.len());
            let one_step_rows: Vec<&OneStepRow> = one_step_rows
                .iter()
                .filter(|o| {
                    o.engine == engine
                        && o.scheme == scheme
                        && !super::is_variant(&o.shot)
                        && match (o.dt_s, dt) {
                            (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * b,
                            (None, None) => true,
                            _ => false,
                        }
                })
                .collect();
            EngineSummary {
                stepped,
                slope: median(slopes.clone()),
                slope_shots: slopes.len(),
                slope_matched,
                error_at_ops_budget_s: median(at_ops),
                error_at_wall_budget_s: median(at_wall),
                ops_to_target: median(ops_hit),
                wall_to_target_s: median(wall_hit),
                ops_target_shots: (ops_reached, with_ops),
                wall_target_shots: (wall_reached, with_wall),
                dt_s: dt,
                one_step: (!one_step_rows.is_empty())
                    .then(|| OneStepStats::of(one_step_rows.iter().copied())),
                matched: (
                    at_dt.iter().map(|r| r.n_matched).sum(),
                    at_dt.iter().map(|r| r.n_reference_events).sum(),
                ),
                wall_s: median(at_dt.iter().map(|r| r.wall_time_s).collect()).unwrap_or(f64::NAN),
                engine_s: median(at_dt.iter().map(|r| r.engine_cost_s()).collect())
                    .unwrap_or(f64::NAN),
                reports_engine_time: at_dt.iter().any(|r| r.engine_time_s.is_some()),
                engine,
                scheme,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interpolation_is_log_log_and_bounded() {
        let pts = [(1e3, 1e-2), (1e5, 1e-4)];
        assert!((interpolate(&pts, 1e4).unwrap() - 1e-3).abs() < 1e-15);
        assert_eq!(interpolate(&pts, 1e6), None);
        assert!((cost_to_reach(&pts, 1e-3).unwrap() - 1e4).abs() < 1e-9);
        assert_eq!(cost_to_reach(&pts, 1e-6), None);
        assert_eq!(cost_to_reach(&[(5.0, 1e-9)], 1e-6), Some(5.0));
    }
}
