//! The study's tallies of its rows ([`OutcomeTally`]): disagreement rates per family, engine
//! and field (`outcomes.csv`), each with its interval, its shot-by-shot comparison with the
//! floor and its game's statistics. The same rows, tallied in any number of pieces (a run's
//! chunks, or shards read back from their `shots.csv`), give the same tables, byte for byte.

use std::collections::BTreeMap;

use crate::game::agreement::Field;
use crate::stats::levels::Levels;
use crate::stats::levels::Margins;
use crate::stats::levels::SHOT_BY_SHOT_SHARE;
use crate::stats::rates::mcnemar_one_sided;
use crate::stats::rates::wilson_interval;
use crate::stats::shot_by_shot;
use crate::stats::shot_by_shot::BatchedCounts;
use crate::stats::verdict::FloorVerdict;
use crate::tally::distribution::DistributionTally;
use crate::tally::rows::FLOOR;
use crate::tally::rows::{OutcomeShotRow, Run};
use serde::{Deserialize, Serialize};

/// Tallies of one family and run.
#[derive(Clone, Debug, PartialEq)]
struct RunCounts {
    engine: String,
    scheme: String,
    dt_s: Option<f64>,
    /// Shots it ran (failed ones not counted).
    n: u64,
    /// Shots it could not run.
    failed: u64,
    /// Operations over its shots.
    ops: u64,
    /// Per field of [`Field::ALL`], against the floor on the same shots, look by look.
    fields: [BatchedCounts; Field::ALL.len()],
}

/// The study's tallies, fed one shot's rows at a time ([`OutcomeTally::add_shot`]) and look by
/// look ([`OutcomeTally::close_batch`]). Its size is bounded by families x runs x looks, not by
/// shots.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OutcomeTally {
    /// (family, table, run) in the order first seen.
    order: Vec<(String, String, String)>,
    runs: BTreeMap<(String, String, String), RunCounts>,
    /// The game's statistics of the same rows.
    distribution: DistributionTally,
}

/// One row of `outcomes.csv`: a family, a run (the floor, or an engine at one dt) and a field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRow {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Engine family (`floor` for the chaos floor's own row).
    pub engine: String,
    /// Scheme or variant.
    pub scheme: String,
    /// Time step (s), empty for engines without one.
    pub dt_s: Option<f64>,
    /// The field ([`Field::name`]).
    pub field: String,
    /// Shots the run played (paired with the floor on the same shots).
    pub n: u64,
    /// Shots where it disagrees with the reference.
    pub disagree: u64,
    /// disagree / n.
    pub rate: f64,
    /// Wilson 95 % interval of the rate.
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
    /// Shots (of the same n) where the floor disagrees with the reference.
    pub floor_disagree: u64,
    /// The floor's rate on the same shots.
    pub floor_rate: f64,
    /// Its Wilson 95 % interval.
    pub floor_ci_low: f64,
    /// Its upper end.
    pub floor_ci_high: f64,
    /// One-sided exact McNemar p-value of the run's rate being above the floor's on the same
    /// shots ([`crate::stats::rates::mcnemar_one_sided`]), for information: the verdict is
    /// `floor_verdict`'s.
    pub p_value: f64,
    /// rate - floor_rate: the lower end of its confidence sequence at level `alpha` (each end;
    /// [`crate::stats::shot_by_shot`]).
    pub diff_low: f64,
    /// Its upper end.
    pub diff_high: f64,
    /// The floor margin at the floor's observed rate: the absolute part plus the relative part
    /// times that rate.
    pub margin: f64,
    /// The level of the run's cell ([`crate::stats::levels::Levels::cell`]).
    pub alpha: f64,
    /// `within` or `beyond` the floor margin, or `undecided`, tested as
    /// [`crate::stats::shot_by_shot`] says (the `outcome` field's is the cell's claim; the other
    /// fields' describe); empty for the floor's own row.
    pub floor_verdict: Option<FloorVerdict>,
    /// Shots the engine could not run (not in n).
    pub failed: u64,
    /// Mean operations per shot; empty for engines that count none (programs).
    pub ops_per_shot: Option<f64>,
}

impl OutcomeTally {
    /// An empty tally whose cells are held to `levels`.
    pub fn new(levels: Levels) -> Self {
        OutcomeTally {
            distribution: DistributionTally::new(levels),
            ..OutcomeTally::default()
        }
    }

    /// Ends the look of (`family`, `table`, `run`) ([`DistributionTally::close_batch`]).
    pub fn close_batch(&mut self, family: &str, table: &str, run: &str) {
        self.distribution.close_batch(family, table, run);
        if let Some(c) =
            self.runs
                .get_mut(&(family.to_string(), table.to_string(), run.to_string()))
        {
            c.fields.iter_mut().for_each(BatchedCounts::close);
        }
    }

    /// Adds one shot: its rows in any order (the reference's, the floor's, the engines').
    /// Rows of other shots or without a floor row are ignored.
    pub fn add_shot(&mut self, rows: &[OutcomeShotRow]) {
        self.add_shot_counting(rows, true);
    }

    /// [`OutcomeTally::add_shot`] where `count_floor` false pairs the engines' rows with the
    /// shot's floor row without counting the floor's own run again (a shot the floor played
    /// at an earlier look, played now by an engine that joined the study later).
    pub fn add_shot_counting(&mut self, rows: &[OutcomeShotRow], count_floor: bool) {
        self.distribution.add_shot_counting(rows, count_floor);
        let Some(floor) = rows.iter().find(|r| r.run == Run::Floor) else {
            return;
        };
        for row in rows
            .iter()
            .filter(|r| r.run != Run::Reference && (count_floor || r.run != Run::Floor))
        {
            let key = (row.family.clone(), row.table.clone(), row.run.to_string());
            let counts = self.runs.entry(key.clone()).or_insert_with(|| {
                self.order.push(key.clone());
                RunCounts {
                    engine: row.engine_label(),
                    scheme: row.scheme.clone(),
                    dt_s: row.dt_s,
                    n: 0,
                    failed: 0,
                    ops: 0,
                    fields: Default::default(),
                }
            });
            if row.failure.is_some() {
                counts.failed += 1;
                continue;
            }
            counts.n += 1;
            counts.ops += row.ops;
            for (k, &f) in Field::ALL.iter().enumerate() {
                counts.fields[k].add(row.disagrees(f), floor.disagrees(f));
            }
        }
    }

    /// The game's statistics of the rows added ([`DistributionTally`]).
    pub fn distribution(&self) -> &DistributionTally {
        &self.distribution
    }

    /// The rows of `outcomes.csv`: every family and run in the order first seen, every field
    /// in [`Field::ALL`]'s order, each judged against the floor with `margins`' floor margin
    /// ([`crate::stats::shot_by_shot`]) at its run's level.
    pub fn rows(&self, margins: &Margins) -> Vec<OutcomeRow> {
        let mut out = Vec::new();
        for key in &self.order {
            let c = &self.runs[key];
            let is_floor = c.engine == FLOOR;
            let alpha = self.distribution.cell_alpha(&key.0, &key.1, &key.2);
            for (k, &f) in Field::ALL.iter().enumerate() {
                let batched = &c.fields[k];
                let fc = batched.total();
                let (ci_low, ci_high) = wilson_interval(fc.run, c.n);
                let (floor_ci_low, floor_ci_high) = wilson_interval(fc.floor, c.n);
                let judged = (!is_floor).then(|| {
                    shot_by_shot::judge(batched, alpha, alpha * SHOT_BY_SHOT_SHARE, margins)
                });
                out.push(OutcomeRow {
                    family: key.0.clone(),
                    table: key.1.clone(),
                    engine: c.engine.clone(),
                    scheme: c.scheme.clone(),
                    dt_s: c.dt_s,
                    field: f.name().to_string(),
                    n: c.n,
                    disagree: fc.run,
                    rate: fc.rate(),
                    ci_low,
                    ci_high,
                    floor_disagree: fc.floor,
                    floor_rate: fc.floor_rate(),
                    floor_ci_low,
                    floor_ci_high,
                    p_value: mcnemar_one_sided(fc.only_run, fc.only_floor),
                    diff_low: judged.map_or(0.0, |j| j.diff_low),
                    diff_high: judged.map_or(0.0, |j| j.diff_high),
                    margin: judged.map_or(f64::NAN, |j| j.margin),
                    alpha,
                    floor_verdict: judged.map(|j| j.verdict),
                    failed: c.failed,
                    ops_per_shot: (c.n > 0 && c.ops > 0).then(|| c.ops as f64 / c.n as f64),
                });
            }
        }
        out
    }
}
