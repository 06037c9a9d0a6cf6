//! The answer a user came for (`outcome_answer.csv`): one per family and engine, combining the
//! shot-by-shot and the distribution verdicts of its cells. An engine with a time step gets
//! the largest dt that keeps the game, as the search ([`super::search`]) found it among the dts
//! played; an engine without one gets its cell's verdict.

use serde::{Deserialize, Serialize};

use super::agreement::Field;
use super::distribution::DistributionVerdict;
use super::search::{conclude, CellState, SearchEnd, SearchOptions};
use super::tally::{OutcomeRow, FLOOR};
use super::verdict::{FloorVerdict, Verdict};

/// One row of `outcome_answer.csv`: a family and an engine (its family and scheme or
/// variant, every dt together).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AnswerRow {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Engine family.
    pub engine: String,
    /// Scheme or variant.
    pub scheme: String,
    /// An engine with a dt: how its search ended; empty for an engine without one.
    pub search: Option<SearchEnd>,
    /// The largest dt (s) that keeps the game (same shot by shot), no smaller dt played
    /// changing it; empty when none is shown to.
    pub keeps_dt_s: Option<f64>,
    /// The smallest dt (s) shown to change the game; empty when none is.
    pub changes_dt_s: Option<f64>,
    /// The dt (s) the budget left undecided where the search stopped (or would play next);
    /// empty when it did not stop on one.
    pub open_dt_s: Option<f64>,
    /// The dt (s) whose verdict, rate and cost this row gives: `keeps_dt_s`, else the dt the
    /// search stopped on, else the smallest played; empty for an engine without one.
    pub dt_s: Option<f64>,
    /// That cell's verdict.
    pub verdict: Verdict,
    /// That cell's shot-by-shot comparison with the floor.
    pub shot_by_shot: Option<FloorVerdict>,
    /// Shots it played (paired with the floor).
    pub n: u64,
    /// Its rate of changed outcomes ([`Field::Outcome`]).
    pub rate: f64,
    /// Wilson 95 % interval.
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
    /// The floor's rate on the same shots.
    pub floor_rate: f64,
    /// Mean operations per shot; empty for engines that count none.
    pub ops_per_shot: Option<f64>,
    /// About how many shots would decide the cell (undecided ones).
    pub shots_to_decide: Option<u64>,
    /// The cell's verdict's detail.
    pub detail: String,
}

impl AnswerRow {
    /// Whether the answer is decided: a dt found (or below the search's limit), or a decided
    /// verdict for an engine without a dt.
    pub fn decided(&self) -> bool {
        match self.search {
            Some(end) => end != SearchEnd::Undecided,
            None => matches!(
                self.verdict,
                Verdict::SameShotByShot
                    | Verdict::SameInDistribution
                    | Verdict::ChangesShots
                    | Verdict::Differs
            ),
        }
    }

    /// The answer in a few words: `≤ 3.2e-6 s`, `below 1e-6 s`, `undecided`, or an engine
    /// without a dt's verdict (`same shot by shot`, `differs`, ...).
    pub fn headline(&self) -> String {
        match (self.search, self.keeps_dt_s) {
            (Some(_), Some(dt)) => format!("≤ {} s", fmt_dt(dt)),
            (Some(SearchEnd::BelowLimit), None) => {
                format!("below {} s", self.changes_dt_s.map_or("?".into(), fmt_dt))
            }
            (Some(_), None) if self.verdict == Verdict::NotPlayed => "not played".into(),
            (Some(_), None) if self.verdict == Verdict::FloorNotNeutral => {
                "floor not neutral".into()
            }
            (Some(_), None) => "undecided".into(),
            (None, _) => self.verdict.label().into(),
        }
    }
}

/// A time step as tables print it: its shortest exponent form (`1e-4`, `3.2e-6`, `0.5` as
/// `5e-1`).
pub fn fmt_dt(dt: f64) -> String {
    let text = format!("{dt:e}");
    match text.split_once('e') {
        Some((m, e)) => format!("{m}e{e}"),
        None => text,
    }
}

/// The answers from the study's `rows` (`outcomes.csv`) and `verdicts` (the cells'): one per
/// family, table, engine and scheme, in the order first seen; `search`: the dt search's
/// options; every undecided cell counts as spent (the study is over).
pub fn answers(
    rows: &[OutcomeRow],
    verdicts: &[DistributionVerdict],
    search: &SearchOptions,
) -> Vec<AnswerRow> {
    let mut groups: Vec<(&str, &str, &str, &str)> = Vec::new();
    for v in verdicts.iter().filter(|v| v.engine != FLOOR) {
        let g = (
            v.family.as_str(),
            v.table.as_str(),
            v.engine.as_str(),
            v.scheme.as_str(),
        );
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    groups
        .into_iter()
        .map(|(family, table, engine, scheme)| {
            let cells: Vec<&DistributionVerdict> = verdicts
                .iter()
                .filter(|v| {
                    (
                        v.family.as_str(),
                        v.table.as_str(),
                        v.engine.as_str(),
                        v.scheme.as_str(),
                    ) == (family, table, engine, scheme)
                })
                .collect();
            answer(rows, &cells, search)
        })
        .collect()
}

/// A cell's state for the search: decided either way, or undecided (`open`: more shots may
/// be played).
pub fn cell_state(v: &DistributionVerdict, open: bool) -> CellState {
    if v.keeps() {
        CellState::Keeps
    } else if v.changes() {
        CellState::Changes
    } else if open && v.needs_shots() {
        CellState::Open
    } else {
        CellState::Stuck
    }
}

fn answer(
    rows: &[OutcomeRow],
    cells: &[&DistributionVerdict],
    search: &SearchOptions,
) -> AnswerRow {
    let first = cells[0];
    let timed: Vec<(f64, &DistributionVerdict)> = cells
        .iter()
        .filter_map(|v| v.dt_s.map(|d| (d, *v)))
        .collect();
    let (end, keeps, changes, open, shown) = if timed.is_empty() {
        (None, None, None, None, first)
    } else {
        let states: Vec<(f64, CellState)> = timed
            .iter()
            .map(|(d, v)| (*d, cell_state(v, false)))
            .collect();
        let a = conclude(&states, search);
        let smallest = timed.iter().map(|t| t.0).fold(f64::INFINITY, f64::min);
        let at = a
            .keeps_s
            .or(a.open_s)
            .filter(|d| timed.iter().any(|t| t.0 == *d))
            .unwrap_or(smallest);
        let shown = timed.iter().find(|t| t.0 == at).map_or(first, |t| t.1);
        (Some(a.end), a.keeps_s, a.changes_s, a.open_s, shown)
    };
    let rate = rows.iter().find(|r| {
        r.field == Field::Outcome.name()
            && r.family == shown.family
            && r.table == shown.table
            && r.engine == shown.engine
            && r.scheme == shown.scheme
            && r.dt_s == shown.dt_s
    });
    let pick = |f: fn(&OutcomeRow) -> f64| rate.map_or(f64::NAN, f);
    let verdict = shown.verdict;
    AnswerRow {
        family: shown.family.clone(),
        table: shown.table.clone(),
        engine: shown.engine.clone(),
        scheme: shown.scheme.clone(),
        search: end,
        keeps_dt_s: keeps,
        changes_dt_s: changes,
        open_dt_s: open,
        dt_s: shown.dt_s,
        verdict,
        shot_by_shot: shown.shot_by_shot,
        n: shown.n,
        rate: pick(|r| r.rate),
        ci_low: pick(|r| r.ci_low),
        ci_high: pick(|r| r.ci_high),
        floor_rate: pick(|r| r.floor_rate),
        ops_per_shot: rate.and_then(|r| r.ops_per_shot),
        shots_to_decide: shown.shots_to_decide,
        detail: shown.detail.clone(),
    }
}
