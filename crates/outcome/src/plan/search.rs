//! The dt ladder and its search: for an engine with a time step (a fixed-step scheme, rapier,
//! a peer), where does it stop changing the game? Every such engine is played on one ladder of
//! time steps, {1, 2, 5} x 10^k from the top (1e-2 s) down to the search's limit (1e-6 s by
//! default; 13 rungs), plus any dt the study's grid adds. Each rung is a cell of its own at
//! `alpha / rungs` ([`crate::stats::levels::Levels`]), so that every claim of the answer together errs at
//! most `alpha`, however many rungs the search plays and in whatever order.
//!
//! The answer has two halves, each shown as soon as it is decided: **changes at >= A s** (A,
//! the finest rung shown to change the game) and **keeps at <= W s** (W, the coarsest rung
//! finer than A shown to keep it). Both read the ladder as monotone: W covers the finer rungs,
//! A the coarser. Once W and A are adjacent rungs the answer is complete: **<= W s**.
//!
//! The search plays rungs coarse to fine (a coarse step is cheap): below A with no W yet, the
//! next decade; between W and A, the middle rung; a rung the budget leaves undecided is
//! skipped. A pure function of what is known ([`next_step`]): the study asks it after every
//! look, and the report once more at the end for the answer ([`conclude`]).

/// How far the search goes.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchOptions {
    /// The finest rung of the ladder (s; 1e-6 by default): an engine that changes the game
    /// there changes it at every rung.
    pub limit_s: f64,
    /// The most a rung's shot may cost (s of wall time, estimated from the series' nearest
    /// dt: a fixed-step engine's cost grows as 1/dt; 5 s by default): the search does not play
    /// a dearer rung, and its answer says where it stopped.
    #[serde(default = "default_max_shot_s")]
    pub max_shot_s: f64,
}

fn default_max_shot_s() -> f64 {
    SearchOptions::default().max_shot_s
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit_s: 1e-6,
            max_shot_s: 5.0,
        }
    }
}

/// A bad search option: which (`limit` or `max_shot`), its value and range.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchError {
    /// `limit` or `max_shot`.
    pub option: &'static str,
    /// Its value.
    pub value: f64,
    /// Its range, as text.
    pub range: &'static str,
}

impl SearchOptions {
    /// The smallest limit accepted (s): the discrete engine's smallest dt.
    pub const MIN_LIMIT_S: f64 = 1e-7;

    /// Checks the options: a limit in [1e-7, 1e-2] s, a shot's cost in (0, 86400] s.
    ///
    /// # Errors
    /// The first bad option.
    pub fn validate(&self) -> Result<(), SearchError> {
        if !(self.limit_s >= Self::MIN_LIMIT_S && self.limit_s <= LADDER_TOP_S) {
            return Err(SearchError {
                option: "limit",
                value: self.limit_s,
                range: "[1e-7, 1e-2] s",
            });
        }
        if !(self.max_shot_s > 0.0 && self.max_shot_s <= 86_400.0) {
            return Err(SearchError {
                option: "max_shot",
                value: self.max_shot_s,
                range: "(0, 86400] s",
            });
        }
        Ok(())
    }
}

/// The ladder's top rung (s), unless the grid goes above it.
pub const LADDER_TOP_S: f64 = 1e-2;

/// The rungs a series may be played at, coarsest first.
#[derive(Clone, Debug, PartialEq)]
pub struct Ladder {
    rungs: Vec<f64>,
}

impl Ladder {
    /// {1, 2, 5} x 10^k from the top (1e-2 s, or the grid's largest dt) down to `limit_s`,
    /// with every dt of `grid` added: the rungs are fixed before any shot, so that each
    /// spends `1 / rungs` of the answer's level.
    pub fn new(grid: &[f64], limit_s: f64) -> Self {
        let top = grid.iter().copied().fold(LADDER_TOP_S, f64::max);
        let mut rungs: Vec<f64> = grid
            .iter()
            .copied()
            .filter(|d| d.is_finite() && *d > 0.0)
            .collect();
        let mut decade = 10f64.powf(top.log10().ceil());
        // A decade's 5 and 2 may be above a limit that is no rung (the rung above a stepped
        // reference's dt) while the decade itself is below it.
        while decade * 5.0 >= limit_s * 0.999 {
            for m in [5.0, 2.0, 1.0] {
                let r = round_dt(decade * m);
                if r <= top * 1.001 && r >= limit_s * 0.999 {
                    rungs.push(r);
                }
            }
            decade = round_dt(decade / 10.0);
        }
        rungs.sort_by(|a, b| b.total_cmp(a));
        rungs.dedup_by(|a, b| (*a / *b - 1.0).abs() < 1e-9);
        Ladder { rungs }
    }

    /// The ladder's limit (s) when the runs are judged against `reference`: the search's
    /// `limit_s`, or just above a stepped reference's dt (no rung at or below it: a series
    /// there would be judged against a coarser run of the reference's, or be the reference).
    pub fn limit_for(limit_s: f64, reference: &pool_engines::EngineSpec) -> f64 {
        match reference.dt() {
            Some(dt) => limit_s.max(dt * 1.01),
            None => limit_s,
        }
    }

    /// The finest rung (s), if there is one.
    pub fn finest(&self) -> Option<f64> {
        self.rungs.last().copied()
    }

    /// The rungs, coarsest first.
    pub fn rungs(&self) -> &[f64] {
        &self.rungs
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.rungs.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rungs.is_empty()
    }

    /// The index of rung `dt` (`None` off the ladder).
    pub fn index(&self, dt: f64) -> Option<usize> {
        self.rungs.iter().position(|&r| (r / dt - 1.0).abs() < 1e-9)
    }
}

/// What is known of one rung of a series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// Decided: it keeps the game.
    Keeps,
    /// Decided: it changes the game.
    Changes,
    /// Undecided, and more shots may be played.
    Open,
    /// Undecided, and no more shots may be played (the budget, or its estimate far beyond it).
    Stuck,
}

/// Where a series' search ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchEnd {
    /// W and A adjacent on the ladder: the answer is complete, `<= W s`.
    Converged,
    /// W is the top rung: it keeps the game at every rung.
    KeepsAtTop,
    /// A is the finest rung: it changes the game at every rung down to the limit.
    BelowLimit,
    /// One half or both, with rungs between them (or beyond them) the search could not play
    /// or decide.
    Partial,
    /// Neither half is shown.
    Undecided,
}

/// The search's conclusion for a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesAnswer {
    /// How it ended.
    pub end: SearchEnd,
    /// W: the coarsest rung finer than A shown to keep the game.
    pub keeps_s: Option<f64>,
    /// A: the finest rung shown to change the game.
    pub changes_s: Option<f64>,
    /// The rung the search would play or sample next, if it was stopped before it.
    pub open_s: Option<f64>,
}

/// The search's next step for a series.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Play more shots at these rungs (cells that exist), coarsest first.
    Sample(Vec<f64>),
    /// Play this new rung.
    Probe(f64),
    /// Nothing more to play: the answer.
    Done(SeriesAnswer),
}

/// `x` rounded to two significant digits (rungs are written in tables).
pub fn round_dt(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return x;
    }
    let e = x.log10().floor();
    let scale = 10f64.powf(e - 1.0);
    let r = (x / scale).round() * scale;
    // Through text, so that the value prints as its two digits (2e-6, not 2.0000000000000003e-6).
    format!("{r:.1e}").parse().unwrap_or(r)
}

/// The bracket the cells show: (W, A) as ladder indices (A: the finest rung shown to change
/// the game; W: the coarsest rung finer than A shown to keep it).
fn bracket(ladder: &Ladder, cells: &[(f64, CellState)]) -> (Option<usize>, Option<usize>) {
    let state = |i: usize| {
        cells
            .iter()
            .find(|c| ladder.index(c.0) == Some(i))
            .map(|c| c.1)
    };
    let n = ladder.len();
    let a = (0..n).rev().find(|&i| state(i) == Some(CellState::Changes));
    let w = (a.map_or(0, |a| a + 1)..n).find(|&i| state(i) == Some(CellState::Keeps));
    (w, a)
}

/// The next step of a series whose played rungs are `cells` (dt, state), in any order;
/// `dear(dt)`: whether a rung not yet played would cost more than the search allows.
pub fn next_step(ladder: &Ladder, cells: &[(f64, CellState)], dear: &dyn Fn(f64) -> bool) -> Step {
    let (w, a) = bracket(ladder, cells);
    let state = |i: usize| {
        cells
            .iter()
            .find(|c| ladder.index(c.0) == Some(i))
            .map(|c| c.1)
    };
    // The rungs strictly between W and A (A above, W below: lower index is coarser).
    let from = a.map_or(0, |a| a + 1);
    let to = w.unwrap_or(ladder.len());
    let between: Vec<usize> = (from..to).collect();
    let open: Vec<f64> = between
        .iter()
        .filter(|&&i| state(i) == Some(CellState::Open))
        .map(|&i| ladder.rungs[i])
        .collect();
    if !open.is_empty() {
        return Step::Sample(open);
    }
    let unplayed: Vec<usize> = between
        .iter()
        .copied()
        .filter(|&i| state(i).is_none() && !dear(ladder.rungs[i]))
        .collect();
    if let Some(i) = pick(ladder, &unplayed, w, a) {
        return Step::Probe(ladder.rungs[i]);
    }
    Step::Done(answer(ladder, cells, w, a, &between))
}

/// Which unplayed rung to probe: with no W yet, the next decade below A (the coarsest decade
/// rung among them, else the coarsest); else the middle one (ties to the coarser).
fn pick(ladder: &Ladder, unplayed: &[usize], w: Option<usize>, a: Option<usize>) -> Option<usize> {
    if unplayed.is_empty() {
        return None;
    }
    if w.is_none() && a.is_some() {
        let decade = |i: &&usize| {
            let r = ladder.rungs[**i];
            (r.log10() - r.log10().round()).abs() < 1e-9
        };
        return unplayed.iter().find(decade).or(unplayed.first()).copied();
    }
    Some(unplayed[(unplayed.len() - 1) / 2])
}

/// The answer once nothing is left to play: W and A, and how the search ended.
fn answer(
    ladder: &Ladder,
    cells: &[(f64, CellState)],
    w: Option<usize>,
    a: Option<usize>,
    between: &[usize],
) -> SeriesAnswer {
    let played = |i: usize| cells.iter().any(|c| ladder.index(c.0) == Some(i));
    // A rung between them left unplayed (too dear) or undecided: the answer names the
    // coarsest.
    let open = between
        .iter()
        .find(|&&i| {
            !played(i)
                || cells
                    .iter()
                    .any(|c| ladder.index(c.0) == Some(i) && c.1 != CellState::Keeps)
        })
        .map(|&i| ladder.rungs[i]);
    let end = match (w, a) {
        (Some(0), _) => SearchEnd::KeepsAtTop,
        (Some(_), Some(_)) if between.is_empty() => SearchEnd::Converged,
        (None, Some(i)) if i + 1 == ladder.len() => SearchEnd::BelowLimit,
        (None, None) => SearchEnd::Undecided,
        _ => SearchEnd::Partial,
    };
    SeriesAnswer {
        end,
        keeps_s: w.map(|i| ladder.rungs[i]),
        changes_s: a.map(|i| ladder.rungs[i]),
        open_s: if matches!(end, SearchEnd::Converged | SearchEnd::KeepsAtTop) {
            None
        } else {
            open
        },
    }
}

/// The answer of a series as its cells stand, the search over or not (a study of one look
/// runs none): every undecided cell counts as one the budget left, and a rung never played
/// as one the search could still play (so an answer reads "partial" until the search has
/// been through the ladder).
pub fn conclude(ladder: &Ladder, cells: &[(f64, CellState)]) -> SeriesAnswer {
    let stuck: Vec<(f64, CellState)> = cells
        .iter()
        .map(|&(d, s)| {
            (
                d,
                if s == CellState::Open {
                    CellState::Stuck
                } else {
                    s
                },
            )
        })
        .collect();
    let (w, a) = bracket(ladder, &stuck);
    let from = a.map_or(0, |a| a + 1);
    let to = w.unwrap_or(ladder.len());
    let between: Vec<usize> = (from..to).collect();
    answer(ladder, &stuck, w, a, &between)
}

#[cfg(test)]
mod tests {
    use super::CellState::*;
    use super::*;

    fn ladder() -> Ladder {
        Ladder::new(&[1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4], 1e-6)
    }

    /// Runs the search to its end on a series whose truth is "keeps at and below
    /// `boundary`", deciding every cell at once; returns the answer and the rungs played.
    fn search(first: &[f64], boundary: f64) -> (SeriesAnswer, Vec<f64>) {
        let l = ladder();
        let state = |dt: f64| if dt <= boundary { Keeps } else { Changes };
        let mut cells: Vec<(f64, CellState)> = first.iter().map(|&d| (d, state(d))).collect();
        for _ in 0..100 {
            match next_step(&l, &cells, &|_| false) {
                Step::Done(a) => return (a, cells.iter().map(|c| c.0).collect()),
                Step::Probe(dt) => {
                    assert!(!cells.iter().any(|c| c.0 == dt), "{dt} probed twice");
                    cells.push((dt, state(dt)));
                }
                Step::Sample(dts) => panic!("{dts:?} are decided"),
            }
        }
        panic!("the search did not end");
    }

    #[test]
    fn the_ladder_has_thirteen_rungs_by_default() {
        let l = ladder();
        assert_eq!(
            l.rungs(),
            &[1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4, 5e-5, 2e-5, 1e-5, 5e-6, 2e-6, 1e-6]
        );
        // A grid dt off the ladder joins it; a limit of 1e-7 adds three rungs.
        assert_eq!(Ladder::new(&[3e-3], 1e-6).len(), 14);
        assert_eq!(Ladder::new(&[], 1e-7).len(), 16);
        assert_eq!(Ladder::new(&[0.1], 1e-6).rungs()[..3], [0.1, 5e-2, 2e-2]);
    }

    #[test]
    fn the_search_finds_adjacent_rungs_wherever_the_boundary_is() {
        let l = ladder();
        for (k, &boundary) in l.rungs().iter().enumerate() {
            for first in [&[1e-2][..], &[1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4][..]] {
                let (a, tried) = search(first, boundary * 1.01);
                assert_eq!(a.keeps_s, Some(boundary), "{boundary}: {a:?} {tried:?}");
                if k == 0 {
                    assert_eq!(a.end, SearchEnd::KeepsAtTop);
                } else {
                    assert_eq!(a.changes_s, Some(l.rungs()[k - 1]), "{a:?}");
                    assert_eq!(a.end, SearchEnd::Converged);
                }
                // Decades first, then the middle: a handful of new rungs.
                assert!(tried.len() <= first.len() + 6, "{boundary}: {tried:?}");
            }
        }
        // Nothing keeps the game down to the limit.
        let (a, tried) = search(&[1e-2], 1e-8);
        assert_eq!(a.end, SearchEnd::BelowLimit, "{a:?}");
        assert_eq!(a.changes_s, Some(1e-6));
        assert_eq!(tried, vec![1e-2, 1e-3, 1e-4, 1e-5, 1e-6]);
    }

    #[test]
    fn undecided_rungs_are_sampled_or_skipped() {
        let l = ladder();
        let never = |_: f64| false;
        // Open rungs between W and A are sampled, coarsest first.
        let cells = [(1e-2, Changes), (1e-3, Open), (2e-4, Open), (1e-4, Keeps)];
        assert_eq!(
            next_step(&l, &cells, &never),
            Step::Sample(vec![1e-3, 2e-4])
        );
        // Stuck ones are skipped: the middle unplayed rung is probed instead.
        let cells = [(1e-2, Changes), (1e-3, Stuck), (1e-4, Keeps)];
        assert_eq!(next_step(&l, &cells, &never), Step::Probe(2e-3));
        // Every rung between them stuck: done, both halves shown, the coarsest open named.
        let cells = [(1e-3, Changes), (5e-4, Stuck), (2e-4, Stuck), (1e-4, Keeps)];
        let Step::Done(a) = next_step(&l, &cells, &never) else {
            panic!()
        };
        assert_eq!(
            (a.end, a.keeps_s, a.changes_s, a.open_s),
            (SearchEnd::Partial, Some(1e-4), Some(1e-3), Some(5e-4))
        );
        // With no W, the next decade below A; a stuck decade is skipped for the next.
        let cells = [(1e-2, Changes), (1e-3, Stuck)];
        assert_eq!(next_step(&l, &cells, &never), Step::Probe(1e-4));
        // Down to the limit, where a stuck rung leaves the keeps half undecided.
        let cells = [(2e-6, Changes), (1e-6, Stuck)];
        let Step::Done(a) = next_step(&l, &cells, &never) else {
            panic!()
        };
        assert_eq!(
            (a.end, a.changes_s, a.keeps_s),
            (SearchEnd::Partial, Some(2e-6), None)
        );
        // An undecided rung above A does not matter.
        let cells = [(1e-2, Stuck), (1e-3, Changes), (1e-4, Keeps)];
        assert_eq!(next_step(&l, &cells, &never), Step::Probe(5e-4));
        // A rung finer than W that is undecided does not hold the answer back.
        let cells = [(1e-2, Keeps), (1e-3, Open)];
        let Step::Done(a) = next_step(&l, &cells, &never) else {
            panic!()
        };
        assert_eq!((a.end, a.keeps_s), (SearchEnd::KeepsAtTop, Some(1e-2)));
        // Too dear rungs are not played: the answer says where it stopped.
        let dear = |dt: f64| dt < 1e-4;
        let cells = [(1e-2, Changes), (1e-3, Changes), (1e-4, Changes)];
        let Step::Done(a) = next_step(&l, &cells, &dear) else {
            panic!()
        };
        assert_eq!(
            (a.end, a.changes_s, a.open_s),
            (SearchEnd::Partial, Some(1e-4), Some(5e-5))
        );
    }

    #[test]
    fn a_search_not_run_concludes_with_what_is_shown() {
        let l = ladder();
        // One look: end_of_step changes the game at 1e-2 s, nothing finer was played.
        let a = conclude(&l, &[(1e-2, Changes)]);
        assert_eq!(
            (a.end, a.keeps_s, a.changes_s, a.open_s),
            (SearchEnd::Partial, None, Some(1e-2), Some(5e-3))
        );
        // A rung keeps it and the rungs between are open: both halves, partial.
        let a = conclude(&l, &[(1e-2, Changes), (1e-3, Open), (1e-4, Keeps)]);
        assert_eq!(
            (a.end, a.keeps_s, a.changes_s, a.open_s),
            (SearchEnd::Partial, Some(1e-4), Some(1e-2), Some(5e-3))
        );
        // Neither.
        assert_eq!(conclude(&l, &[(1e-2, Open)]).end, SearchEnd::Undecided);
    }

    #[test]
    fn rungs_print_as_two_digits() {
        assert_eq!(round_dt(2.0000000000000003e-6), 2e-6);
        assert_eq!(round_dt(1e-5 / 10.0), 1e-6);
        assert_eq!(format!("{:e}", round_dt(5.623e-6)), "5.6e-6");
        assert_eq!(round_dt(0.0), 0.0);
    }
}
