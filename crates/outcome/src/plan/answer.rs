//! The answer a user came for (`outcome_answer.csv`): one per family and engine. A series on
//! the dt ladder ([`crate::plan::search`]) answers with its two halves, **changes at >= A s** and
//! **keeps at <= W s** (or **<= W s** once they are adjacent rungs); an engine without a dt,
//! or played at one dt only, answers with its one cell's verdict. Either is an
//! [`AnswerClaim`], typed: the reports render it and never parse it.

use serde::{Deserialize, Serialize};

use crate::game::agreement::Field;
use crate::plan::search::{conclude, CellState, Ladder, SearchEnd};
use crate::stats::levels::Levels;
use crate::stats::verdict::{Claim, FloorVerdict, Verdict};
use crate::tally::changes::OutcomeRow;
use crate::tally::distribution::DistributionVerdict;
use crate::tally::rows::FLOOR;

/// What an answer claims, as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerClaim {
    /// It keeps the game: a cell's verdict, or a series at `<= W s` with W the top rung or
    /// adjacent to A.
    Keeps,
    /// A series with both halves and undecided rungs between them: `changes at >= A s; keeps
    /// at <= W s`.
    KeepsAndChanges,
    /// A series shown to keep the game at W, the rungs above it not decided: `keeps at <= W s`.
    KeepsBelow,
    /// It changes the game: a cell's verdict, or a series shown to change it at A (`changes at
    /// >= A s`) with no finer rung shown to keep it.
    Changes,
    /// Only a partial claim: every statistic within its margin (same in distribution), or
    /// shot by shot within the floor margin.
    Partial,
    /// Nothing is shown.
    Undecided,
    /// Every shot declined or failed.
    NotPlayed,
    /// The family's floor is not neutral, and no statistic is beyond its margin.
    FloorNotNeutral,
}

impl AnswerClaim {
    /// Whether some claim is decided.
    pub fn decided(self) -> bool {
        !matches!(self, AnswerClaim::Undecided | AnswerClaim::NotPlayed)
    }

    /// Every claim, in legend order, with its legend words.
    pub const LEGEND: [(AnswerClaim, &'static str); 8] = [
        (AnswerClaim::Keeps, "keeps the game"),
        (AnswerClaim::KeepsBelow, "keeps it at ≤ W s"),
        (
            AnswerClaim::KeepsAndChanges,
            "changes at ≥ A s; keeps at ≤ W s",
        ),
        (AnswerClaim::Changes, "changes the game"),
        (
            AnswerClaim::Partial,
            "same in distribution or within the floor (partial)",
        ),
        (AnswerClaim::Undecided, "undecided"),
        (AnswerClaim::NotPlayed, "not played"),
        (AnswerClaim::FloorNotNeutral, "floor not neutral"),
    ];
}

/// One row of `outcome_answer.csv`: a family and an engine (a series of dt on the ladder, or
/// one cell).
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
    /// A series on the ladder: how its search ended; empty for one cell.
    pub search: Option<SearchEnd>,
    /// W: the coarsest rung finer than A shown to keep the game.
    pub keeps_dt_s: Option<f64>,
    /// A: the finest rung shown to change the game.
    pub changes_dt_s: Option<f64>,
    /// The rung the search would have played or sampled next, when it stopped before the
    /// answer was complete.
    pub open_dt_s: Option<f64>,
    /// What the answer claims.
    pub claim: AnswerClaim,
    /// The dt (s) of the cell whose verdict, rate and cost this row gives (W's, else A's,
    /// else the open rung's, else the finest played); empty for an engine without one.
    pub dt_s: Option<f64>,
    /// That cell's verdict.
    pub verdict: Verdict,
    /// That cell's shot-by-shot comparison with the floor.
    pub shot_by_shot: Option<FloorVerdict>,
    /// That cell's level (each rung of a ladder: the answer's level over the rungs).
    pub alpha: f64,
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
    /// `rate - floor_rate`: the lower end of its confidence sequence at `alpha`.
    pub excess_low: f64,
    /// Its upper end.
    pub excess_high: f64,
    /// The floor margin at the floor's observed rate.
    pub margin: f64,
    /// Mean operations per shot; empty for engines that count none.
    pub ops_per_shot: Option<f64>,
    /// About how many shots would decide that cell's main claim (undecided ones).
    pub shots_to_decide: Option<u64>,
    /// That cell's verdict's detail.
    pub detail: String,
}

impl AnswerRow {
    /// Whether some claim is decided.
    pub fn decided(&self) -> bool {
        self.claim.decided()
    }

    /// The answer in a few words: `≤ 2e-6 s`, `changes at ≥ 1e-4 s; keeps at ≤ 1e-5 s`,
    /// `keeps the game at 1e-3 s`, `changes shots; same in distribution`, `undecided`.
    pub fn headline(&self) -> String {
        let at = |text: &str| match self.dt_s {
            Some(dt) => format!("{text} at {} s", fmt_dt(dt)),
            None => text.to_string(),
        };
        match (self.search, self.claim) {
            (_, AnswerClaim::NotPlayed) => "not played".into(),
            (_, AnswerClaim::FloorNotNeutral) => "floor not neutral".into(),
            (Some(_), AnswerClaim::Keeps) => format!("≤ {} s", opt_dt(self.keeps_dt_s)),
            (Some(_), AnswerClaim::KeepsAndChanges) => format!(
                "changes at ≥ {} s; keeps at ≤ {} s",
                opt_dt(self.changes_dt_s),
                opt_dt(self.keeps_dt_s)
            ),
            (Some(_), AnswerClaim::KeepsBelow) => {
                format!("keeps at ≤ {} s", opt_dt(self.keeps_dt_s))
            }
            (Some(_), AnswerClaim::Changes) => {
                format!("changes at ≥ {} s", opt_dt(self.changes_dt_s))
            }
            (Some(_), AnswerClaim::Partial) => at(self.verdict.label()),
            (Some(_), _) => "undecided".into(),
            (None, AnswerClaim::Undecided) => "undecided".into(),
            (None, _) => at(self.verdict.label()),
        }
    }
}

fn opt_dt(dt: Option<f64>) -> String {
    dt.map_or("?".into(), fmt_dt)
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
/// family, table and series (a laddered engine's every dt together) or cell (every other run),
/// in the order first seen; `ladder` and `levels`: the study's; every undecided cell counts as
/// spent (the study is over).
pub fn answers(
    rows: &[OutcomeRow],
    verdicts: &[DistributionVerdict],
    ladder: &Ladder,
    levels: &Levels,
) -> Vec<AnswerRow> {
    let laddered = |v: &DistributionVerdict| {
        v.dt_s.is_some()
            && levels
                .laddered
                .iter()
                .any(|(e, s)| *e == v.engine && *s == v.scheme)
    };
    let key = |v: &DistributionVerdict| {
        (
            v.family.clone(),
            v.table.clone(),
            v.engine.clone(),
            v.scheme.clone(),
            if laddered(v) {
                None
            } else {
                v.dt_s.map(f64::to_bits)
            },
        )
    };
    let mut groups = Vec::new();
    for v in verdicts.iter().filter(|v| v.engine != FLOOR) {
        let g = key(v);
        if !groups.contains(&g) {
            groups.push(g);
        }
    }
    groups
        .into_iter()
        .map(|g| {
            let cells: Vec<&DistributionVerdict> = verdicts
                .iter()
                .filter(|v| v.engine != FLOOR && key(v) == g)
                .collect();
            let series = laddered(cells[0]);
            answer(rows, &cells, series.then_some(ladder))
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

/// The claim of one cell's verdict.
fn cell_claim(v: Verdict) -> AnswerClaim {
    match v {
        Verdict::Keeps => AnswerClaim::Keeps,
        _ if v.claim() == Some(Claim::Changes) => AnswerClaim::Changes,
        Verdict::SameInDistribution | Verdict::WithinFloor => AnswerClaim::Partial,
        Verdict::NotPlayed => AnswerClaim::NotPlayed,
        Verdict::FloorNotNeutral => AnswerClaim::FloorNotNeutral,
        _ => AnswerClaim::Undecided,
    }
}

fn answer(
    rows: &[OutcomeRow],
    cells: &[&DistributionVerdict],
    ladder: Option<&Ladder>,
) -> AnswerRow {
    let first = cells[0];
    let (search, keeps, changes, open, shown, claim) = match ladder {
        None => (None, None, None, None, first, cell_claim(first.verdict)),
        Some(ladder) => {
            let states: Vec<(f64, CellState)> = cells
                .iter()
                .filter_map(|v| Some((v.dt_s?, cell_state(v, false))))
                .collect();
            let a = conclude(ladder, &states);
            let finest = cells
                .iter()
                .filter_map(|v| v.dt_s)
                .fold(f64::INFINITY, f64::min);
            let at = a
                .keeps_s
                .or(a.changes_s)
                .or(a
                    .open_s
                    .filter(|d| cells.iter().any(|v| v.dt_s == Some(*d))))
                .unwrap_or(finest);
            let shown = cells
                .iter()
                .find(|v| v.dt_s == Some(at))
                .copied()
                .unwrap_or(first);
            let claim = if cells.iter().all(|v| v.verdict == Verdict::NotPlayed) {
                AnswerClaim::NotPlayed
            } else {
                match (a.end, a.keeps_s, a.changes_s) {
                    (SearchEnd::Converged | SearchEnd::KeepsAtTop, _, _) => AnswerClaim::Keeps,
                    (_, Some(_), Some(_)) => AnswerClaim::KeepsAndChanges,
                    (_, Some(_), None) => AnswerClaim::KeepsBelow,
                    (_, None, Some(_)) => AnswerClaim::Changes,
                    _ => match cell_claim(shown.verdict) {
                        c @ (AnswerClaim::Partial | AnswerClaim::FloorNotNeutral) => c,
                        _ => AnswerClaim::Undecided,
                    },
                }
            };
            (Some(a.end), a.keeps_s, a.changes_s, a.open_s, shown, claim)
        }
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
    AnswerRow {
        family: shown.family.clone(),
        table: shown.table.clone(),
        engine: shown.engine.clone(),
        scheme: shown.scheme.clone(),
        search,
        keeps_dt_s: keeps,
        changes_dt_s: changes,
        open_dt_s: open,
        claim,
        dt_s: shown.dt_s,
        verdict: shown.verdict,
        shot_by_shot: shown.shot_by_shot,
        alpha: shown.alpha,
        n: shown.n,
        rate: pick(|r| r.rate),
        ci_low: pick(|r| r.ci_low),
        ci_high: pick(|r| r.ci_high),
        floor_rate: pick(|r| r.floor_rate),
        excess_low: pick(|r| r.diff_low),
        excess_high: pick(|r| r.diff_high),
        margin: pick(|r| r.margin),
        ops_per_shot: rate.and_then(|r| r.ops_per_shot),
        shots_to_decide: shown.shots_to_decide,
        detail: shown.detail.clone(),
    }
}
