//! The rates of changed outcomes per family: every engine at every dt played (the grid's and
//! the search's), the floor's beside them, each marked with its shot-by-shot verdict.

use std::fmt::Write;

use pool_outcome::{fmt_dt, FloorVerdict, OutcomeRow, FLOOR};

use super::{pct, OutcomeStudy};

/// A rate with its interval: `12 % [7–19 %]`.
pub(crate) fn rate_ci(rate: f64, lo: f64, hi: f64) -> String {
    format!(
        "{} [{}–{}]",
        pct(rate),
        pct(lo).trim_end_matches(" %"),
        pct(hi)
    )
}

/// A rate table's cell: the rate of changed outcomes with its interval, a dagger when shown
/// beyond the floor margin, an open circle when undecided ("–" for a run that played none of
/// the shots).
pub(crate) fn rate_cell(r: &OutcomeRow) -> String {
    if r.n == 0 || !r.rate.is_finite() {
        return "–".into();
    }
    format!(
        "{}{}",
        rate_ci(r.rate, r.ci_low, r.ci_high),
        match r.floor_verdict {
            Some(FloorVerdict::Within) | None => "",
            Some(FloorVerdict::Beyond) => " †",
            Some(FloorVerdict::Undecided) => " ○",
        }
    )
}

/// One family's rates of changed outcomes: the floor's row, and each engine's rows.
pub(crate) struct RateFamily<'a> {
    /// The family's kind.
    pub family: String,
    /// Its table.
    pub table: String,
    /// The floor's `outcome` row.
    pub floor: &'a OutcomeRow,
    /// The engines (family, scheme) in first-row order.
    pub engines: Vec<(&'a str, &'a str)>,
    rows: Vec<&'a OutcomeRow>,
}

impl<'a> RateFamily<'a> {
    /// The `outcome` row of `engine` and `scheme` at `dt` (None: no dt).
    pub fn at(&self, engine: &str, scheme: &str, dt: Option<f64>) -> Option<&'a OutcomeRow> {
        self.rows
            .iter()
            .find(|r| r.engine == engine && r.scheme == scheme && r.dt_s == dt)
            .copied()
    }
}

/// The rate tables' grid: the dt values of every run (largest first) and, per family with a
/// floor, its rows.
pub(crate) fn rate_grid(st: &OutcomeStudy) -> (Vec<f64>, Vec<RateFamily<'_>>) {
    let outcome: Vec<&OutcomeRow> = st.rows.iter().filter(|r| r.field == "outcome").collect();
    let mut dts: Vec<f64> = outcome.iter().filter_map(|r| r.dt_s).collect();
    dts.sort_by(|a, b| b.total_cmp(a));
    dts.dedup();
    let families = st
        .families()
        .into_iter()
        .filter_map(|(family, table)| {
            let rows: Vec<&OutcomeRow> = outcome
                .iter()
                .filter(|r| r.family == family && r.table == table)
                .copied()
                .collect();
            let floor = *rows.iter().find(|r| r.engine == FLOOR)?;
            let mut engines: Vec<(&str, &str)> = Vec::new();
            for r in rows.iter().filter(|r| r.engine != FLOOR) {
                if !engines.contains(&(r.engine.as_str(), r.scheme.as_str())) {
                    engines.push((&r.engine, &r.scheme));
                }
            }
            Some(RateFamily {
                family,
                table,
                floor,
                engines,
                rows,
            })
        })
        .collect();
    (dts, families)
}

/// Per family: the rate of changed outcomes at every dt of every engine, and the floor's.
pub(crate) fn rates_tables(md: &mut String, st: &OutcomeStudy) {
    let (dts, families) = rate_grid(st);
    let _ = writeln!(
        md,
        "### Changed outcomes per dt\n\nEvery dt played (the grid's and the search's), each \
         rate of changed outcomes with its 95 % interval and n in the cells' table below; a \
         dagger marks a rate shown beyond the floor margin, an open circle one not yet decided; \
         unmarked rates are shown within it. A dt's columns are empty for engines that did not \
         play it.\n"
    );
    for f in &families {
        let _ = writeln!(
            md,
            "**{} on {}** (chaos floor {} on its {} shots):\n",
            f.family,
            f.table,
            rate_ci(f.floor.rate, f.floor.ci_low, f.floor.ci_high),
            f.floor.n
        );
        // One column per dt, then one for engines without a dt: built as lists, so that a
        // study with no dt (`--schemes none`) still has a header as wide as its rows.
        let mut heads = vec!["engine".to_string()];
        heads.extend(dts.iter().map(|d| format!("{} s", fmt_dt(*d))));
        heads.push("no dt".into());
        let _ = writeln!(md, "| {} |", heads.join(" | "));
        let _ = writeln!(md, "|{}", "---|".repeat(heads.len()));
        for &(engine, scheme) in &f.engines {
            let cell = |dt: Option<f64>| f.at(engine, scheme, dt).map_or("".into(), rate_cell);
            let mut cells = vec![super::answer::engine_name(engine, scheme)];
            cells.extend(dts.iter().map(|&d| cell(Some(d))));
            cells.push(cell(None));
            let _ = writeln!(md, "| {} |", cells.join(" | "));
        }
        let _ = writeln!(md);
    }
}
