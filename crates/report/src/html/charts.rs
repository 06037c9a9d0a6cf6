//! The page's interactive charts: series with, at every point, its n and a 95 % interval, for
//! the page's uPlot charts (hover shows them; a legend click hides a series).

use pool_harness::SummaryRow;
use pool_outcome::{OutcomeRow, FLOOR};
use serde::Serialize;

use super::data::RunFiles;
use crate::compare::{filter_name, own_physics};

/// The filters' name of an engine's series: none for the reference and the chaos floor.
fn series_name(engine: &str, scheme: &str) -> Option<String> {
    (engine != FLOOR && engine != pool_engines::EVENT).then(|| filter_name(engine, scheme))
}

/// One chart: a shared x axis and series over it (`null` where a series has no point).
#[derive(Serialize, Clone, Debug)]
pub(super) struct Chart {
    /// Element id.
    pub id: String,
    /// Title above the chart.
    pub title: String,
    /// Which section the chart belongs to (`game`, `chaos`, `accuracy`).
    pub section: &'static str,
    /// The family it shows (the family filter hides the others'), when one.
    pub family: Option<String>,
    /// One sentence under it: what a point is and what its interval is.
    pub note: String,
    /// Axis labels.
    pub x_label: String,
    /// y axis label.
    pub y_label: String,
    /// Log scales.
    pub x_log: bool,
    /// y log scale.
    pub y_log: bool,
    /// y values are fractions shown as percentages.
    pub y_percent: bool,
    /// x values, ascending.
    pub x: Vec<f64>,
    /// Series.
    pub series: Vec<Series>,
}

/// One series: y, its interval and n at each x.
#[derive(Serialize, Clone, Debug)]
pub(super) struct Series {
    /// Legend label.
    pub label: String,
    /// Engine family and scheme (the page's filters).
    pub engine: String,
    /// Scheme.
    pub scheme: String,
    /// The engine's name in the filters ([`filter_name`]); null for the reference's and the
    /// chaos floor's series, which every filter keeps.
    pub name: Option<String>,
    /// Dashed: a reference level (the floor, an engine without dt).
    pub dash: bool,
    /// Values.
    pub y: Vec<Option<f64>>,
    /// Interval's low end.
    pub lo: Vec<Option<f64>>,
    /// Its high end.
    pub hi: Vec<Option<f64>>,
    /// Sample size behind each point.
    pub n: Vec<Option<u64>>,
}

/// The median of `v` (sorted in place) and the distribution-free 95 % interval of the median
/// from order statistics (the widest pair (k, n - 1 - k) whose binomial coverage is at least
/// 0.95; with n < 6 no pair reaches it and the range is given).
fn median_ci(v: &mut [f64]) -> Option<(f64, f64, f64)> {
    let n = v.len();
    if n == 0 {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let med = if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    };
    // With X ~ Bin(n, 1/2) the count of values below the median, the interval
    // [v[k], v[n-1-k]] (0-based) misses the median with probability 2 P(X <= k).
    let mut k_best = 0;
    let mut cdf = 0.0;
    let mut pmf = 0.5f64.powi(n as i32);
    for k in 0..n / 2 {
        cdf += pmf;
        if 2.0 * cdf > 0.05 {
            break;
        }
        k_best = k;
        pmf *= (n - k) as f64 / (k + 1) as f64;
    }
    let k = k_best.min((n - 1) / 2);
    Some((med, v[k], v[n - 1 - k]))
}

fn x_index(xs: &[f64], x: f64) -> Option<usize> {
    xs.iter().position(|&d| (d - x).abs() <= 1e-9 * x.abs())
}

/// Median over shots of a per-run metric against dt, one series per stepped engine, and one
/// level per engine without a dt.
fn sweep_chart(
    rows: &[SummaryRow],
    metric: &dyn Fn(&SummaryRow) -> f64,
    id: &str,
    title: &str,
    y_label: &str,
) -> Option<Chart> {
    let mut xs: Vec<f64> = rows.iter().filter_map(|r| r.dt_s).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
    if xs.is_empty() {
        return None;
    }
    let mut keys: Vec<(String, String)> = Vec::new();
    for r in rows {
        let k = (r.engine.clone(), r.scheme.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut series = Vec::new();
    for (engine, scheme) in keys {
        let mine: Vec<&SummaryRow> = rows
            .iter()
            .filter(|r| r.engine == engine && r.scheme == scheme)
            .collect();
        let stepped = mine.iter().any(|r| r.dt_s.is_some());
        let len = xs.len();
        let mut s = Series {
            label: if stepped {
                format!("{engine} {scheme}")
            } else {
                format!("{engine} {scheme} (no dt)")
            },
            name: series_name(&engine, &scheme),
            engine: engine.clone(),
            scheme: scheme.clone(),
            dash: !stepped,
            y: vec![None; len],
            lo: vec![None; len],
            hi: vec![None; len],
            n: vec![None; len],
        };
        let mut put = |i: usize, vals: &mut Vec<f64>| {
            if let Some((m, lo, hi)) = median_ci(vals) {
                s.y[i] = Some(m);
                s.lo[i] = Some(lo);
                s.hi[i] = Some(hi);
                s.n[i] = Some(vals.len() as u64);
            }
        };
        if stepped {
            for (i, &x) in xs.iter().enumerate() {
                let mut vals: Vec<f64> = mine
                    .iter()
                    .filter(|r| r.dt_s.is_some_and(|d| (d - x).abs() <= 1e-9 * x))
                    .map(|r| metric(r))
                    .filter(|v| v.is_finite() && *v > 0.0)
                    .collect();
                put(i, &mut vals);
            }
        } else {
            let mut vals: Vec<f64> = mine
                .iter()
                .map(|r| metric(r))
                .filter(|v| v.is_finite() && *v > 0.0)
                .collect();
            // A level: one median and interval, drawn at every x.
            put(0, &mut vals);
            for i in 1..len {
                s.y[i] = s.y[0];
                s.lo[i] = s.lo[0];
                s.hi[i] = s.hi[0];
                s.n[i] = s.n[0];
            }
        }
        if s.y.iter().any(Option::is_some) {
            series.push(s);
        }
    }
    if series.is_empty() {
        return None;
    }
    Some(Chart {
        id: id.into(),
        title: title.into(),
        section: "accuracy",
        family: None,
        note: "Each point: the median over the shots under their own physics (n shots), with the \
               distribution-free 95 % interval of that median (the range when n < 6). Dashed: an \
               engine without a time step, its median over shots."
            .into(),
        x_label: "dt (s)".into(),
        y_label: y_label.into(),
        x_log: true,
        y_log: true,
        y_percent: false,
        x: xs,
        series,
    })
}

/// The rate of changed outcomes against dt, one chart per family; the floor and engines
/// without a dt as dashed levels.
fn outcome_charts(rows: &[OutcomeRow]) -> Vec<Chart> {
    let outcome: Vec<&OutcomeRow> = rows.iter().filter(|r| r.field == "outcome").collect();
    let mut fams: Vec<(String, String)> = Vec::new();
    for r in &outcome {
        let k = (r.family.clone(), r.table.clone());
        if !fams.contains(&k) {
            fams.push(k);
        }
    }
    let mut xs: Vec<f64> = outcome.iter().filter_map(|r| r.dt_s).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup_by(|a, b| (*a - *b).abs() <= 1e-9 * b.abs());
    if xs.is_empty() {
        return Vec::new();
    }
    let len = xs.len();
    fams.into_iter()
        .map(|(family, table)| {
            let mine: Vec<&&OutcomeRow> = outcome
                .iter()
                .filter(|r| r.family == family && r.table == table && r.n > 0)
                .collect();
            let mut keys: Vec<(String, String)> = Vec::new();
            for r in &mine {
                let k = (r.engine.clone(), r.scheme.clone());
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            let series = keys
                .into_iter()
                .map(|(engine, scheme)| {
                    let runs: Vec<&&&OutcomeRow> = mine
                        .iter()
                        .filter(|r| r.engine == engine && r.scheme == scheme)
                        .collect();
                    let level = runs.iter().all(|r| r.dt_s.is_none());
                    let mut s = Series {
                        label: if engine == FLOOR {
                            "chaos floor".into()
                        } else if level {
                            format!("{engine} {scheme} (no dt)")
                        } else {
                            format!("{engine} {scheme}")
                        },
                        name: series_name(&engine, &scheme),
                        engine: engine.clone(),
                        scheme: scheme.clone(),
                        dash: level,
                        y: vec![None; len],
                        lo: vec![None; len],
                        hi: vec![None; len],
                        n: vec![None; len],
                    };
                    for r in &runs {
                        let idx: Vec<usize> = match r.dt_s {
                            Some(d) => x_index(&xs, d).into_iter().collect(),
                            None => (0..len).collect(),
                        };
                        for i in idx {
                            s.y[i] = Some(r.rate);
                            s.lo[i] = Some(r.ci_low);
                            s.hi[i] = Some(r.ci_high);
                            s.n[i] = Some(r.n);
                        }
                    }
                    s
                })
                .collect();
            Chart {
                id: format!("outcome-{family}-{table}"),
                title: format!("{family} on {table}: shots whose outcome changed"),
                section: "game",
                family: Some(family.clone()),
                note: "Each point: the share of the family's shots whose outcome differs from the \
                       reference's, with its 95 % Wilson interval and n shots. Dashed: the chaos \
                       floor and engines without a time step."
                    .into(),
                x_label: "dt (s)".into(),
                y_label: "changed outcomes".into(),
                x_log: true,
                y_log: false,
                y_percent: true,
                x: xs.clone(),
                series,
            }
        })
        .collect()
}

/// The reference's changed-outcome rate against perturbation size, one series per family.
fn chaos_chart(rows: &[pool_outcome::ChaosRow]) -> Option<Chart> {
    let mut xs: Vec<f64> = rows.iter().map(|r| r.perturbation_m).collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    if xs.is_empty() {
        return None;
    }
    let mut fams: Vec<(String, String)> = Vec::new();
    for r in rows {
        let k = (r.family.clone(), r.table.clone());
        if !fams.contains(&k) {
            fams.push(k);
        }
    }
    let len = xs.len();
    let series = fams
        .into_iter()
        .map(|(family, table)| {
            let mut s = Series {
                label: format!("{family} ({table})"),
                engine: pool_engines::EVENT.into(),
                scheme: "isolator".into(),
                name: None,
                dash: false,
                y: vec![None; len],
                lo: vec![None; len],
                hi: vec![None; len],
                n: vec![None; len],
            };
            for r in rows
                .iter()
                .filter(|r| r.family == family && r.table == table)
            {
                if let Some(i) = x_index(&xs, r.perturbation_m) {
                    s.y[i] = Some(r.rate);
                    s.lo[i] = Some(r.ci_low);
                    s.hi[i] = Some(r.ci_high);
                    s.n[i] = Some(r.n);
                }
            }
            s
        })
        .collect();
    Some(Chart {
        id: "chaos".into(),
        title: "Where chaos starts: the reference's shots changed by a perturbation".into(),
        section: "chaos",
        family: None,
        note: "Each point: the share of the family's shots whose outcome a perturbation of that \
               size changes (every ball moved that far in a random direction), with its 95 % \
               Wilson interval and n shots."
            .into(),
        x_label: "perturbation (m)".into(),
        y_label: "changed outcomes".into(),
        x_log: true,
        y_log: false,
        y_percent: true,
        x: xs,
        series,
    })
}

/// Every chart of the run.
pub(super) fn charts(run: &RunFiles) -> Vec<Chart> {
    let mut out = Vec::new();
    if let Some(st) = &run.study {
        out.extend(outcome_charts(&st.rows));
        out.extend(chaos_chart(&st.chaos));
    }
    let own = own_physics(&run.summary);
    out.extend(sweep_chart(
        &own,
        &|r| r.collision_time_error_median_s,
        "error-vs-dt",
        "Collision-time error against dt",
        "median collision-time error (s)",
    ));
    out.extend(sweep_chart(
        &own,
        &|r| r.ops_total as f64,
        "ops-vs-dt",
        "Operations against dt",
        "operations per shot",
    ));
    out.extend(sweep_chart(
        &own,
        &|r| r.engine_cost_s(),
        "time-vs-dt",
        "Engine time against dt",
        "engine time per shot (s)",
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::median_ci;

    #[test]
    fn median_interval_covers_95_percent_from_order_statistics() {
        // n = 10: P(X <= 1) = 11/1024, 2x = 0.021 <= 0.05; P(X <= 2) = 56/1024, 2x = 0.109:
        // the interval is [x_(2), x_(9)] (1-based), coverage 97.9 %.
        let mut v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(median_ci(&mut v), Some((5.5, 2.0, 9.0)));
        // n = 5: no pair reaches 95 % (2/32 = 0.0625): the range.
        let mut v = vec![3.0, 1.0, 2.0, 5.0, 4.0];
        assert_eq!(median_ci(&mut v), Some((3.0, 1.0, 5.0)));
        assert_eq!(median_ci(&mut []), None);
    }
}
