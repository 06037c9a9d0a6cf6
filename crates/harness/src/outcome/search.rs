//! The dt search: for an engine with a time step (a fixed-step scheme, rapier, a peer), the
//! largest dt that keeps the game, found rather than read off a grid. After the grid, the
//! search descends by decades below the smallest dt shown to change the game until a dt keeps
//! it (or the lower limit changes it too), then bisects in log dt between the largest dt that
//! keeps the game and the smallest that changes it, until they are within a factor
//! ([`SearchOptions::tolerance`]). Each candidate is sampled until its verdict is decided.
//!
//! A pure function of what is known ([`next_step`]): the study asks it after every look, and
//! the report asks it once more at the end for the answer.

/// How far the search goes.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SearchOptions {
    /// Stop when the dt that keeps the game and the one above it that changes it are within
    /// this factor (> 1; 2 by default).
    pub tolerance: f64,
    /// The smallest dt the search tries (s; 1e-6 by default): an engine that changes the game
    /// there is "below the search's limit".
    pub limit_s: f64,
    /// The most a candidate's shot may cost (s of wall time, estimated from the series' nearest
    /// dt: a fixed-step engine's cost grows as 1/dt; 5 s by default): the search does not play
    /// a dt dearer than this, and its answer says where it stopped.
    #[serde(default = "default_max_shot_s")]
    pub max_shot_s: f64,
}

fn default_max_shot_s() -> f64 {
    SearchOptions::default().max_shot_s
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            tolerance: 2.0,
            limit_s: 1e-6,
            max_shot_s: 5.0,
        }
    }
}

/// A bad search option: which (`tolerance` or `limit`), its value and range.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchError {
    /// `tolerance` or `limit`.
    pub option: &'static str,
    /// Its value.
    pub value: f64,
    /// Its range, as text.
    pub range: &'static str,
}

impl SearchOptions {
    /// The smallest limit accepted (s): the discrete engine's smallest dt.
    pub const MIN_LIMIT_S: f64 = 1e-7;

    /// Checks the options: a tolerance in (1, 100], a limit in [1e-7, 1] s, a shot's cost in
    /// (0, 86400] s.
    ///
    /// # Errors
    /// The first bad option.
    pub fn validate(&self) -> Result<(), SearchError> {
        if !(self.tolerance > 1.0 && self.tolerance <= 100.0) {
            return Err(SearchError {
                option: "tolerance",
                value: self.tolerance,
                range: "(1, 100]",
            });
        }
        if !(self.limit_s >= Self::MIN_LIMIT_S && self.limit_s <= 1.0) {
            return Err(SearchError {
                option: "limit",
                value: self.limit_s,
                range: "[1e-7, 1] s",
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

/// What is known of one dt of a series.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellState {
    /// Decided: it keeps the game (same shot by shot).
    Keeps,
    /// Decided: it changes the game (a statistic differs, or above the floor shot by shot).
    Changes,
    /// Undecided, and more shots may be played.
    Open,
    /// Undecided, and no more shots may be played (the budget is spent).
    Stuck,
}

/// Where a series' search ended.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SearchEnd {
    /// The dt that keeps the game is within the tolerance of the smallest that changes it.
    Converged,
    /// Every dt tried keeps the game: the answer is the largest tried.
    LargestTried,
    /// The budget stopped the search with an undecided dt between the answer and the smallest
    /// dt that changes the game.
    Stopped,
    /// Every dt tried changes the game, down to the search's limit.
    BelowLimit,
    /// No dt is shown to keep the game, and a dt that matters is undecided.
    Undecided,
}

/// The search's conclusion for a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeriesAnswer {
    /// How it ended.
    pub end: SearchEnd,
    /// The largest dt that keeps the game, no smaller dt tried changing it.
    pub keeps_s: Option<f64>,
    /// The smallest dt shown to change the game.
    pub changes_s: Option<f64>,
    /// The undecided dt that stopped the search, if any.
    pub open_s: Option<f64>,
}

/// The search's next step for a series.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// Play more shots at this dt (a cell that exists).
    Sample(f64),
    /// Play this new dt.
    Probe(f64),
    /// Nothing more to play: the answer.
    Done(SeriesAnswer),
}

/// `x` rounded to two significant digits (the search's candidates are written in tables).
pub fn round_dt(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return x;
    }
    let e = x.log10().floor();
    let scale = 10f64.powf(e - 1.0);
    let r = (x / scale).round() * scale;
    // Through text, so that the value prints as its two digits (3.2e-6, not 3.2000000000000003e-6).
    format!("{r:.1e}").parse().unwrap_or(r)
}

/// The next step of a series whose cells are `cells` (dt, state), in any order.
///
/// The bracket: A is the smallest dt shown to change the game, W the largest below it shown to
/// keep it. An undecided dt between them that may still be sampled is sampled (the largest
/// first). One the budget has left undecided (stuck) bounds the bracket from above instead of
/// A, so the search goes on below it: the answer W is then "stopped" (its bracket's top is
/// undecided, not shown to change the game) rather than converged.
pub fn next_step(cells: &[(f64, CellState)], options: &SearchOptions) -> Step {
    let changes = cells
        .iter()
        .filter(|c| c.1 == CellState::Changes)
        .map(|c| c.0)
        .fold(f64::INFINITY, f64::min);
    let changes_s = changes.is_finite().then_some(changes);
    let below: Vec<(f64, CellState)> = cells.iter().copied().filter(|c| c.0 < changes).collect();
    let keeps_s = below
        .iter()
        .filter(|c| c.1 == CellState::Keeps)
        .map(|c| c.0)
        .reduce(f64::max);
    let above_keeps = |c: &&(f64, CellState)| keeps_s.is_none_or(|k| c.0 > k);
    if let Some(&(dt, _)) = below
        .iter()
        .filter(above_keeps)
        .filter(|c| c.1 == CellState::Open)
        .max_by(|a, b| a.0.total_cmp(&b.0))
    {
        return Step::Sample(dt);
    }
    // The top of the bracket: the smallest dt not shown to keep the game above W.
    let stuck = below
        .iter()
        .filter(above_keeps)
        .filter(|c| c.1 == CellState::Stuck)
        .map(|c| c.0)
        .reduce(f64::min);
    let top = stuck.map_or(changes, |s| s.min(changes));
    let done = |end, open_s| {
        Step::Done(SeriesAnswer {
            end,
            keeps_s,
            changes_s,
            open_s,
        })
    };
    let stopped = stuck.is_some_and(|s| s < changes);
    match keeps_s {
        Some(_) if !top.is_finite() => done(SearchEnd::LargestTried, None),
        Some(k) => {
            let converged = top / k <= options.tolerance * (1.0 + 1e-9);
            let mid = round_dt((top * k).sqrt());
            if converged || !(mid > k && mid < top) {
                if stopped {
                    done(SearchEnd::Stopped, stuck)
                } else {
                    done(SearchEnd::Converged, None)
                }
            } else {
                Step::Probe(mid)
            }
        }
        None if !top.is_finite() => done(SearchEnd::Undecided, None),
        None => {
            if top <= options.limit_s * (1.0 + 1e-9) {
                if stopped {
                    done(SearchEnd::Undecided, stuck)
                } else {
                    done(SearchEnd::BelowLimit, None)
                }
            } else {
                Step::Probe(round_dt((top / 10.0).max(options.limit_s)))
            }
        }
    }
}

/// The answer of a series as its cells stand, the search over or not (a study of one look
/// runs none): [`next_step`]'s when it is done; else what is shown so far, `Stopped` when a dt
/// keeps the game, `Undecided` when none does, with the dt it would play next as `open_s`.
pub fn conclude(cells: &[(f64, CellState)], options: &SearchOptions) -> SeriesAnswer {
    match next_step(cells, options) {
        Step::Done(a) => a,
        Step::Sample(next) | Step::Probe(next) => {
            let changes_s = cells
                .iter()
                .filter(|c| c.1 == CellState::Changes)
                .map(|c| c.0)
                .reduce(f64::min);
            let keeps_s = cells
                .iter()
                .filter(|c| c.1 == CellState::Keeps && changes_s.is_none_or(|x| c.0 < x))
                .map(|c| c.0)
                .reduce(f64::max);
            SeriesAnswer {
                end: if keeps_s.is_some() {
                    SearchEnd::Stopped
                } else {
                    SearchEnd::Undecided
                },
                keeps_s,
                changes_s,
                open_s: Some(next),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::CellState::*;
    use super::*;

    /// Runs the search to its end on a series whose true answer is "keeps at and below
    /// `boundary`", deciding every cell at once; returns the answer and the dts tried.
    fn search(grid: &[f64], boundary: f64, options: &SearchOptions) -> (SeriesAnswer, Vec<f64>) {
        let state = |dt: f64| if dt <= boundary { Keeps } else { Changes };
        let mut cells: Vec<(f64, CellState)> = grid.iter().map(|&d| (d, state(d))).collect();
        for _ in 0..100 {
            match next_step(&cells, options) {
                Step::Done(a) => return (a, cells.iter().map(|c| c.0).collect()),
                Step::Probe(dt) => {
                    assert!(!cells.iter().any(|c| c.0 == dt), "{dt} probed twice");
                    cells.push((dt, state(dt)));
                }
                Step::Sample(dt) => panic!("{dt} is decided"),
            }
        }
        panic!("the search did not end");
    }

    #[test]
    fn the_search_brackets_the_boundary_within_its_tolerance() {
        let grid = [1e-2, 5e-3, 2e-3, 1e-3, 5e-4, 2e-4, 1e-4];
        let o = SearchOptions::default();
        for boundary in [3e-6, 1.5e-5, 7e-5, 3e-4, 0.05, 2e-6] {
            let (a, tried) = search(&grid, boundary, &o);
            let k = a.keeps_s.unwrap();
            assert!(k <= boundary, "{boundary}: {a:?} {tried:?}");
            match a.changes_s {
                Some(c) => {
                    assert!(c > boundary && c / k <= 2.0 + 1e-9, "{boundary}: {a:?}");
                    assert_eq!(a.end, SearchEnd::Converged);
                }
                None => assert_eq!(a.end, SearchEnd::LargestTried),
            }
            // Descending by decades, then bisecting: a handful of probes.
            assert!(tried.len() <= grid.len() + 7, "{boundary}: {tried:?}");
        }
        // Nothing keeps the game down to the limit.
        let (a, tried) = search(&grid, 1e-8, &o);
        assert_eq!(a.end, SearchEnd::BelowLimit, "{a:?}");
        assert_eq!(a.changes_s, Some(1e-6));
        assert_eq!(tried.len(), grid.len() + 2);
    }

    #[test]
    fn undecided_cells_are_sampled_or_bound_the_search_honestly() {
        let o = SearchOptions::default();
        // The largest dt below the smallest change is undecided: sample it.
        let cells = [(1e-2, Changes), (1e-3, Open), (1e-4, Keeps)];
        assert_eq!(next_step(&cells, &o), Step::Sample(1e-3));
        // Spent: it bounds the bracket in place of the change, and the search bisects below it.
        let cells = [(1e-2, Changes), (1e-3, Stuck), (1e-4, Keeps)];
        assert_eq!(next_step(&cells, &o), Step::Probe(3.2e-4));
        // Within the tolerance of a spent dt: the answer stands, the search stopped there.
        let cells = [(1e-2, Changes), (1e-3, Stuck), (6e-4, Keeps)];
        let Step::Done(a) = next_step(&cells, &o) else {
            panic!()
        };
        assert_eq!(
            (a.end, a.keeps_s, a.changes_s, a.open_s),
            (SearchEnd::Stopped, Some(6e-4), Some(1e-2), Some(1e-3))
        );
        // Nothing keeps the game yet and the one below the change is spent: descend below it.
        let cells = [(1e-2, Changes), (1e-3, Stuck)];
        assert_eq!(next_step(&cells, &o), Step::Probe(1e-4));
        // ... down to the limit, where a spent dt leaves the answer undecided, not below it.
        let cells = [(1e-5, Changes), (1e-6, Stuck)];
        let Step::Done(a) = next_step(&cells, &o) else {
            panic!()
        };
        assert_eq!((a.end, a.open_s), (SearchEnd::Undecided, Some(1e-6)));
        // An undecided dt above a change does not matter.
        let cells = [(1e-2, Stuck), (1e-3, Changes), (1e-4, Keeps)];
        assert_eq!(next_step(&cells, &o), Step::Probe(3.2e-4));
        // A dt below the answer that is undecided does not hold the answer back.
        let cells = [(1e-2, Keeps), (1e-3, Open)];
        let Step::Done(a) = next_step(&cells, &o) else {
            panic!()
        };
        assert_eq!((a.end, a.keeps_s), (SearchEnd::LargestTried, Some(1e-2)));
    }

    #[test]
    fn a_boundary_blurred_by_spent_cells_is_still_bracketed() {
        // Cells within a factor 3 above the boundary cannot be decided within the budget.
        let o = SearchOptions::default();
        let boundary = 2e-6;
        let state = |dt: f64| {
            if dt <= boundary {
                Keeps
            } else if dt <= 3.0 * boundary {
                Stuck
            } else {
                Changes
            }
        };
        let mut cells: Vec<(f64, CellState)> =
            [1e-2, 1e-3, 1e-4].iter().map(|&d| (d, state(d))).collect();
        let answer = loop {
            match next_step(&cells, &o) {
                Step::Done(a) => break a,
                Step::Probe(dt) => cells.push((dt, state(dt))),
                Step::Sample(dt) => panic!("{dt} is decided"),
            }
            assert!(cells.len() < 20, "{cells:?}");
        };
        let k = answer.keeps_s.unwrap();
        assert!(
            k <= boundary && answer.open_s.unwrap() / k <= 2.0 + 1e-9,
            "{answer:?}"
        );
        assert_eq!(answer.end, SearchEnd::Stopped);
    }

    #[test]
    fn a_search_not_run_concludes_with_what_is_shown() {
        let o = SearchOptions::default();
        // One look, no search: exact changes the game at 1e-2 s, nothing smaller was played.
        let a = conclude(&[(1e-2, Changes)], &o);
        assert_eq!(
            (a.end, a.keeps_s, a.changes_s, a.open_s),
            (SearchEnd::Undecided, None, Some(1e-2), Some(1e-3))
        );
        // A dt keeps it and the bracket is wide: the answer stands, the search stopped.
        let a = conclude(&[(1e-2, Changes), (1e-4, Keeps)], &o);
        assert_eq!((a.end, a.keeps_s), (SearchEnd::Stopped, Some(1e-4)));
    }

    #[test]
    fn candidates_print_as_two_digits() {
        assert_eq!(round_dt((1e-5f64 * 1e-6).sqrt()), 3.2e-6);
        assert_eq!(round_dt(1e-5 / 10.0), 1e-6);
        assert_eq!(format!("{:e}", round_dt(5.623e-6)), "5.6e-6");
        assert_eq!(round_dt(0.0), 0.0);
    }
}
