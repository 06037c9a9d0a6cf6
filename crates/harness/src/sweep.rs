//! Parameter sweeps: one shot per point of a grid, or of a seeded random sample, over a base
//! shot's cue strike (`V0`, `phi`, `theta`, `a`, `b`) and ball parameters (`m`, `R`, `mu_s`,
//! `e_c`, ...), with one outcome row per shot.
//!
//! Point k of a sweep depends only on the plan and k (a grid is read in mixed radix, the last
//! parameter fastest; a random point draws from its own generator seeded by the plan's seed
//! and k), so any contiguous range of points, a shard, is computed alone and shards
//! concatenate to the whole sweep.

use std::collections::BTreeMap;

use pool_physics::{BallParams, Model, Physics};
use pool_sim::{Outcome, Setup};

use crate::{agents_label, SplitMix};

/// The cue strike's parameters a sweep may vary (a shot file's `[cue]` keys).
pub const CUE_PARAMS: [&str; 5] = ["V0", "phi", "theta", "a", "b"];

/// Most points a sweep may have (a billion shots take about 20 core-hours of breaks).
pub const MAX_POINTS: u64 = 10_000_000_000;

/// How one parameter varies.
#[derive(Clone, Debug, PartialEq)]
pub enum Axis {
    /// These values, in order (a grid's axis).
    Values(Vec<f64>),
    /// Uniform in [lo, hi) (a random sample's axis).
    Range {
        /// Lower bound.
        lo: f64,
        /// Upper bound.
        hi: f64,
    },
}

/// One swept parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepParam {
    /// Its name: one of [`CUE_PARAMS`] or [`pool_physics::BallParams::NAMES`].
    pub name: String,
    /// Its values.
    pub axis: Axis,
}

impl SweepParam {
    /// Parses `name=lo:hi:n` (n values from lo to hi, both included), `name=v1,v2,...` (these
    /// values) or `name=lo:hi` (a range, for random samples).
    ///
    /// # Errors
    /// One line naming the text and what is wrong.
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = |why: &str| Err(format!("{text:?}: {why}"));
        let Some((name, spec)) = text.split_once('=') else {
            return bad("expected name=lo:hi:n, name=v1,v2,... or name=lo:hi");
        };
        let name = name.trim();
        if !CUE_PARAMS.contains(&name) && !BallParams::NAMES.contains(&name) {
            return bad(&format!(
                "unknown parameter {name:?}; valid: {}, {}",
                CUE_PARAMS.join(", "),
                BallParams::NAMES.join(", ")
            ));
        }
        let number = |s: &str| -> Result<f64, String> {
            match s.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                _ => Err(format!("{text:?}: {s:?} is not a finite number")),
            }
        };
        let axis = if spec.contains(':') {
            let parts: Vec<&str> = spec.split(':').collect();
            match parts.as_slice() {
                [lo, hi] => {
                    let (lo, hi) = (number(lo)?, number(hi)?);
                    if lo.is_nan() || hi.is_nan() || lo >= hi {
                        return bad("a range lo:hi needs lo < hi");
                    }
                    Axis::Range { lo, hi }
                }
                [lo, hi, n] => {
                    let (lo, hi) = (number(lo)?, number(hi)?);
                    let n: usize = match n.trim().parse() {
                        Ok(n) if (1..=1_000_000).contains(&n) => n,
                        _ => {
                            return bad("a grid's count n must be a whole number from 1 to 1000000")
                        }
                    };
                    if n > 1 && (lo.is_nan() || hi.is_nan() || lo >= hi) {
                        return bad("a grid lo:hi:n needs lo < hi");
                    }
                    let step = if n > 1 {
                        (hi - lo) / (n - 1) as f64
                    } else {
                        0.0
                    };
                    // The last value is hi itself, not lo + (n - 1) step rounded.
                    Axis::Values(
                        (0..n)
                            .map(|k| {
                                if k + 1 == n && n > 1 {
                                    hi
                                } else {
                                    lo + step * k as f64
                                }
                            })
                            .collect(),
                    )
                }
                _ => return bad("expected lo:hi:n or lo:hi"),
            }
        } else {
            let values = spec
                .split(',')
                .map(number)
                .collect::<Result<Vec<f64>, String>>()?;
            if values.len() > 1_000_000 {
                return bad("at most 1000000 values");
            }
            Axis::Values(values)
        };
        Ok(SweepParam {
            name: name.to_string(),
            axis,
        })
    }
}

/// A sweep: its parameters and, for a random sample, the number of points and the seed.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepPlan {
    /// The swept parameters, in column order.
    pub params: Vec<SweepParam>,
    /// `Some((points, seed))` for a random sample (every axis a [`Axis::Range`]); `None` for
    /// a grid (every axis [`Axis::Values`]).
    pub sample: Option<(u64, u64)>,
}

impl SweepPlan {
    /// A plan; checks that the axes fit the mode and the point count fits [`MAX_POINTS`].
    ///
    /// # Errors
    /// One line naming the parameter or count.
    pub fn new(params: Vec<SweepParam>, sample: Option<(u64, u64)>) -> Result<Self, String> {
        if params.is_empty() {
            return Err("no parameter to sweep".into());
        }
        for (k, p) in params.iter().enumerate() {
            if params[..k].iter().any(|q| q.name == p.name) {
                return Err(format!("parameter {:?} given twice", p.name));
            }
            match (&p.axis, sample) {
                (Axis::Range { .. }, None) => {
                    return Err(format!(
                        "parameter {:?}: a range lo:hi needs a random sample (--samples); \
                         a grid takes lo:hi:n or a list",
                        p.name
                    ))
                }
                (Axis::Values(_), Some(_)) => {
                    return Err(format!(
                        "parameter {:?}: a random sample (--samples) draws from ranges lo:hi",
                        p.name
                    ))
                }
                _ => {}
            }
        }
        let plan = SweepPlan { params, sample };
        match plan.len() {
            Some(n) if (1..=MAX_POINTS).contains(&n) => Ok(plan),
            _ => Err(format!(
                "the sweep has {} points: it must have 1 to {MAX_POINTS}",
                plan.len()
                    .map_or("more than 2^64".into(), |n| n.to_string())
            )),
        }
    }

    /// Whether the plan has no point (never, once parsed: counts are at least 1).
    pub fn is_empty(&self) -> bool {
        self.len() == Some(0)
    }

    /// Number of points, or `None` past `u64::MAX`.
    pub fn len(&self) -> Option<u64> {
        match self.sample {
            Some((n, _)) => Some(n),
            None => self.params.iter().try_fold(1u64, |acc, p| match &p.axis {
                Axis::Values(v) => acc.checked_mul(v.len() as u64),
                Axis::Range { .. } => Some(acc),
            }),
        }
    }

    /// The parameters' values at point `k` (0-based, below [`SweepPlan::len`]).
    pub fn point(&self, k: u64) -> Vec<f64> {
        match self.sample {
            Some((_, seed)) => {
                let mut rng =
                    SplitMix::new(seed ^ k.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03));
                self.params
                    .iter()
                    .map(|p| match p.axis {
                        Axis::Range { lo, hi } => rng.range(lo, hi),
                        Axis::Values(_) => unreachable!("checked in SweepPlan::new"),
                    })
                    .collect()
            }
            None => {
                let mut rest = k;
                let mut out = vec![0.0; self.params.len()];
                for (slot, p) in out.iter_mut().zip(&self.params).rev() {
                    let Axis::Values(v) = &p.axis else {
                        unreachable!("checked in SweepPlan::new")
                    };
                    let n = v.len() as u64;
                    *slot = v[(rest % n) as usize];
                    rest /= n;
                }
                out
            }
        }
    }

    /// The corners of the swept box (every combination of each axis's smallest and largest
    /// value): where a bound on a parameter is crossed first. At most 2^10 of them.
    pub fn corners(&self) -> Vec<Vec<f64>> {
        let ends: Vec<(f64, f64)> = self
            .params
            .iter()
            .map(|p| match &p.axis {
                Axis::Values(v) => v
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                        (a.min(x), b.max(x))
                    }),
                Axis::Range { lo, hi } => (*lo, *hi),
            })
            .collect();
        let n = ends.len().min(10);
        (0..1u32 << n)
            .map(|mask| {
                ends.iter()
                    .enumerate()
                    .map(|(j, &(lo, hi))| {
                        if j < n && mask & (1 << j) != 0 {
                            hi
                        } else {
                            lo
                        }
                    })
                    .collect()
            })
            .collect()
    }
}

/// The base shot with the parameters `names` set to `values`: cue parameters on its `[cue]`
/// strike, ball parameters on its model (balls rest on the cloth at the new R).
///
/// # Errors
/// A cue parameter on a shot without a strike, a ball parameter the shot's physics does not
/// read, or a set-up that does not validate; one line naming the parameter and value.
pub fn sweep_setup(base: &Setup, names: &[String], values: &[f64]) -> Result<Setup, String> {
    let mut setup = base.clone();
    let mut params = *base.physics.params();
    let mut params_changed = false;
    for (name, &x) in names.iter().zip(values) {
        if let Some(strike) = setup.strike.as_mut() {
            let slot = match name.as_str() {
                "V0" => Some(&mut strike.cue.v0),
                "phi" => Some(&mut strike.cue.phi),
                "theta" => Some(&mut strike.cue.theta),
                "a" => Some(&mut strike.cue.a),
                "b" => Some(&mut strike.cue.b),
                _ => None,
            };
            if let Some(slot) = slot {
                *slot = x;
                continue;
            }
        } else if CUE_PARAMS.contains(&name.as_str()) {
            return Err(format!(
                "{name}: the base shot {:?} has no [cue] strike to vary",
                base.name
            ));
        }
        let read = base.physics.ball_params();
        if !read.contains(&name.as_str()) {
            return Err(format!(
                "{name}: the base shot's physics does not read this ball parameter (it reads {})",
                read.join(", ")
            ));
        }
        *params
            .field_mut(name)
            .ok_or_else(|| format!("{name}: not a ball parameter"))? = x;
        params_changed = true;
    }
    if params_changed {
        params
            .validate()
            .map_err(|e| format!("ball parameters {}: {e}", fmt_point(names, values)))?;
        setup.physics = Model::new(
            params,
            base.physics.motion(),
            base.physics.resolver().clone(),
        );
        // A ball with parameters of its own keeps the fields it has of its own (those that
        // differ from the base shot's) and takes the new shot's for the rest.
        let old = base.physics.params();
        for b in &mut setup.balls {
            let mine = base.physics.params_of(&b.state);
            let mut own = params;
            for name in BallParams::PER_BALL {
                if let (Some(x), Some(slot)) = (mine.field(name), own.field_mut(name)) {
                    if old.field(name) != Some(x) {
                        *slot = x;
                    }
                }
            }
            b.state.set = (setup.physics.add_ball_params(&own))
                .map_err(|e| format!("ball {:?}: {e}", b.id))?;
            b.state.r.z = setup.physics.radius(&b.state);
        }
    }
    setup
        .validate()
        .map_err(|e| format!("at {}: {e}", fmt_point(names, values)))?;
    Ok(setup)
}

fn fmt_point(names: &[String], values: &[f64]) -> String {
    names
        .iter()
        .zip(values)
        .map(|(n, x)| format!("{n} = {}", crate::num(*x)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The columns of a sweep's rows.csv for `base`'s balls and the swept `names`.
pub fn sweep_header(base: &Setup, names: &[String]) -> Vec<String> {
    let mut h = vec!["point".to_string()];
    h.extend(names.iter().cloned());
    h.extend(
        [
            "events",
            "end_time_s",
            "termination",
            "first_contact",
            "first_contact_time_s",
            "pocketed",
        ]
        .map(String::from),
    );
    for b in &base.balls {
        h.push(format!("x_{}", b.id));
        h.push(format!("y_{}", b.id));
    }
    h
}

/// One row of a sweep's rows.csv: the point, its values, and what the run did: events, end
/// time (s), termination, the first collision (kind and agents, `|`-separated) and its time
/// (s), the pocketed balls in the order they fell (`;`-separated), every ball's final x and y
/// (m). Numbers print in their shortest exact form.
pub fn sweep_row(point: u64, values: &[f64], setup: &Setup, o: &Outcome) -> Vec<String> {
    let mut row = vec![point.to_string()];
    row.extend(values.iter().map(|x| x.to_string()));
    let first = o
        .events
        .iter()
        .find(|e| e.kind.is_collision() && e.kind != pool_physics::EventKind::StickBall);
    let pocketed: Vec<&str> = o
        .events
        .iter()
        .filter(|e| e.kind == pool_physics::EventKind::BallPocket)
        .map(|e| setup.balls[e.agents.balls().0].id.as_str())
        .collect();
    row.push(o.events.len().to_string());
    row.push(o.end_time.to_string());
    row.push(o.termination.name().to_string());
    row.push(first.map_or(String::new(), |e| {
        format!("{}|{}", e.kind.name(), agents_label(setup, &e.agents))
    }));
    row.push(first.map_or(String::new(), |e| e.time.to_string()));
    row.push(pocketed.join(";"));
    for s in &o.final_states {
        row.push(s.r.x.to_string());
        row.push(s.r.y.to_string());
    }
    row
}

/// The sweep's tallies, for summary.txt: points by termination.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepTally {
    points: u64,
    events: u64,
    by_termination: BTreeMap<String, u64>,
}

impl SweepTally {
    /// Counts one row (its `events` and `termination` columns).
    pub fn add(&mut self, events: u64, termination: &str) {
        self.points += 1;
        self.events += events;
        *self
            .by_termination
            .entry(termination.to_string())
            .or_default() += 1;
    }

    /// The summary line: `engine` names what ran (e.g. `event engine`). No timing: a run and
    /// its merged shards write the same line.
    pub fn summary(&self, engine: &str) -> String {
        let ends: Vec<String> = self
            .by_termination
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "sweep: {} points ({engine}), {} events; by termination: {}",
            self.points,
            self.events,
            ends.join(", ")
        )
    }

    /// Points whose run did not end physically (budget, numerical_error).
    pub fn unphysical(&self) -> u64 {
        ["budget", "numerical_error"]
            .iter()
            .filter_map(|k| self.by_termination.get(*k))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(text: &str) -> SweepParam {
        SweepParam::parse(text).unwrap()
    }

    #[test]
    fn a_grid_ends_exactly_at_its_bounds_and_reads_in_mixed_radix() {
        let plan = SweepPlan::new(vec![p("V0=1:3:3"), p("phi=0,90")], None).unwrap();
        assert_eq!(plan.len(), Some(6));
        let points: Vec<Vec<f64>> = (0..6).map(|k| plan.point(k)).collect();
        assert_eq!(
            points,
            [
                [1.0, 0.0],
                [1.0, 90.0],
                [2.0, 0.0],
                [2.0, 90.0],
                [3.0, 0.0],
                [3.0, 90.0]
            ]
        );
        let fine = p("b=-0.3:0.7:11");
        let Axis::Values(v) = fine.axis else { panic!() };
        assert_eq!((v[0], v[10]), (-0.3, 0.7));
    }

    #[test]
    fn a_random_point_depends_on_the_seed_and_its_index_only() {
        let plan = SweepPlan::new(vec![p("V0=1:8"), p("mu_s=0.1:0.3")], Some((100, 7))).unwrap();
        let again = SweepPlan::new(vec![p("V0=1:8"), p("mu_s=0.1:0.3")], Some((5, 7))).unwrap();
        for k in 0..5 {
            assert_eq!(plan.point(k), again.point(k));
            let x = plan.point(k);
            assert!((1.0..8.0).contains(&x[0]) && (0.1..0.3).contains(&x[1]));
        }
        assert_ne!(plan.point(0), plan.point(1));
        let other = SweepPlan::new(vec![p("V0=1:8"), p("mu_s=0.1:0.3")], Some((100, 8))).unwrap();
        assert_ne!(plan.point(0), other.point(0));
    }

    #[test]
    fn bad_sweeps_are_refused_in_one_line() {
        for (text, why) in [
            ("V0", "expected name="),
            ("speed=1:2:3", "unknown parameter"),
            ("V0=1:2:0", "count n"),
            ("V0=2:1:3", "lo < hi"),
            ("V0=1:nan:3", "not a finite number"),
            ("V0=1:2:3:4", "expected lo:hi:n"),
        ] {
            let e = SweepParam::parse(text).unwrap_err();
            assert!(e.contains(why), "{text}: {e}");
        }
        assert!(SweepPlan::new(vec![p("V0=1:2")], None)
            .unwrap_err()
            .contains("needs a random sample"));
        assert!(SweepPlan::new(vec![p("V0=1:2:3")], Some((3, 1)))
            .unwrap_err()
            .contains("draws from ranges"));
        assert!(SweepPlan::new(vec![p("V0=1:2:3"), p("V0=1:2:3")], None)
            .unwrap_err()
            .contains("twice"));
        let huge: Vec<SweepParam> = ["V0", "phi", "theta", "a"]
            .iter()
            .map(|n| p(&format!("{n}=0:0.5:1000")))
            .collect();
        assert!(SweepPlan::new(huge, None).unwrap_err().contains("points"));
    }

    #[test]
    fn corners_span_the_box() {
        let plan = SweepPlan::new(vec![p("V0=1:3:3"), p("phi=5,0,90")], None).unwrap();
        let mut c = plan.corners();
        c.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(c, [[1.0, 0.0], [1.0, 90.0], [3.0, 0.0], [3.0, 90.0]]);
    }
}
