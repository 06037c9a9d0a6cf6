//! The page's tables: the answer, every engine at a glance, the rates per family, the
//! distribution verdicts. Cell texts are report.md's (the same functions make them); each cell
//! may carry a number to sort by and, in the rate tables, the shots it counts.

use std::collections::BTreeMap;

use pool_outcome::{OutcomeRow, FLOOR};
use serde::Serialize;

use super::data::RunFiles;
use crate::compare::{
    answer_lines, cell_name, engine_name, engine_summaries_of, filter_name, glance_cells,
    rate_cell, rate_grid, shot_by_shot_cell, OutcomeStudy, BUDGET_FACTOR, DECLINED_HINT,
    TARGET_ERROR_S,
};

/// A table as the page's script draws it.
#[derive(Serialize, Clone, Debug)]
pub(super) struct Table {
    /// The element id (`answer-table`, `glance-table`, ...), or empty.
    pub id: String,
    /// Class names (`rates` for the rate tables).
    pub class: String,
    /// A heading above the table (empty for none).
    pub caption: String,
    /// Column headers.
    pub columns: Vec<String>,
    /// The family each column shows (the family filter hides the others' columns); empty
    /// when the table's columns are not families.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub col_family: Vec<String>,
    /// Rows.
    pub rows: Vec<Row>,
}

/// One row: attributes the filters read (`name`: the engine's name, [`filter_name`];
/// `family`) and others (`engine`, `scheme`, `table`), and cells. A row without `name` (the
/// reference's, the chaos floor's) stays whatever the engine filter.
#[derive(Serialize, Clone, Debug)]
pub(super) struct Row {
    /// `data-*` attributes of the row.
    pub attrs: BTreeMap<&'static str, String>,
    /// Class names of the row (`reference`).
    pub class: String,
    /// Cells, one per column.
    pub cells: Vec<Cell>,
}

/// One cell: its text (Markdown's `**bold**` and backticks allowed), a number to sort by, and
/// the shots it counts (rate tables).
#[derive(Serialize, Clone, Debug)]
pub(super) struct Cell {
    /// Text.
    pub t: String,
    /// Sort key (None: sorts after every number, by text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub v: Option<f64>,
    /// The shots behind a rate: family, table, engine, scheme, dt (s), shots changed, n.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drill: Option<Drill>,
}

/// The shots a rate cell counts.
#[derive(Serialize, Clone, Debug)]
pub(super) struct Drill {
    family: String,
    table: String,
    engine: String,
    scheme: String,
    dt: Option<f64>,
    changed: u64,
    n: u64,
}

fn cell(t: impl Into<String>, v: Option<f64>) -> Cell {
    Cell {
        t: t.into(),
        v: v.filter(|x| x.is_finite()),
        drill: None,
    }
}

fn attrs(pairs: &[(&'static str, &str)]) -> BTreeMap<&'static str, String> {
    pairs.iter().map(|(k, v)| (*k, v.to_string())).collect()
}

/// The attributes of an engine's row: engine, scheme and its name in the filters (none for the
/// reference and the chaos floor, which every filter keeps), and `more`.
fn engine_attrs(
    engine: &str,
    scheme: &str,
    more: &[(&'static str, &str)],
) -> BTreeMap<&'static str, String> {
    let mut a = attrs(&[("engine", engine), ("scheme", scheme)]);
    if engine != FLOOR && engine != pool_engines::EVENT {
        a.insert("name", filter_name(engine, scheme));
    }
    a.extend(more.iter().map(|(k, v)| (*k, v.to_string())));
    a
}

/// `#rrggbb` of an RGB triple.
fn hex((r, g, b): (u8, u8, u8)) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// An answer's rank for sorting: by its claim (keeps the game first), then the larger dt.
fn answer_rank(a: &pool_outcome::AnswerRow) -> f64 {
    let class = pool_outcome::AnswerClaim::LEGEND
        .iter()
        .position(|(c, _)| *c == a.claim)
        .unwrap_or(pool_outcome::AnswerClaim::LEGEND.len());
    class as f64 * 10.0
        - a.keeps_dt_s
            .map_or(0.0, |d| d.log10().clamp(-9.0, 0.0) + 9.0)
}

/// The answer table ("Does it change the game?").
pub(super) fn answer(st: &OutcomeStudy) -> Option<Table> {
    let t = answer_lines(st)?;
    let mut columns = vec!["engine".to_string()];
    columns.extend(t.families.iter().map(|(f, tb)| format!("{f} ({tb})")));
    let mut rows: Vec<Row> = t
        .lines
        .iter()
        .map(|l| {
            let mut cells = vec![cell(l.name.clone(), None)];
            for (c, a) in l.cells.iter().zip(&l.answers) {
                // Sorted by verdict, then by rate.
                let v = a.as_ref().map(answer_rank);
                cells.push(cell(c.clone(), v));
            }
            Row {
                attrs: engine_attrs(&l.engine, &l.scheme, &[]),
                class: String::new(),
                cells,
            }
        })
        .collect();
    let mut cells = vec![cell(format!("{} (reference)", st.reference_label()), None)];
    cells.extend(t.reference.iter().map(|c| cell(c.clone(), None)));
    // The reference's own engine and scheme (the event engine's unless --reference said).
    let reference = st.reference_spec();
    let scheme = reference.variant();
    rows.push(Row {
        attrs: attrs(&[("engine", reference.family()), ("scheme", &scheme)]),
        class: "reference".into(),
        cells,
    });
    let mut col_family = vec![String::new()];
    col_family.extend(t.families.iter().map(|(f, _)| f.clone()));
    Some(Table {
        id: "answer-table".into(),
        class: "answer".into(),
        caption: String::new(),
        columns,
        col_family,
        rows,
    })
}

/// The answer as a picture: engines down, families across, each cell its claim's colour (the
/// colours of `answer_grid.png`; a series' two halves as two bands), headline, shots and the
/// changed rate's excess over the floor, and the answer table's text.
#[derive(Serialize, Clone, Debug)]
pub(super) struct Grid {
    /// One per family: `family`, `table` and the header (`cut (seven_foot)`).
    columns: Vec<GridColumn>,
    /// One per engine, in the answer table's order.
    rows: Vec<GridRow>,
    /// Every colour in legend order: `label`, `colour`.
    legend: Vec<GridLegend>,
}

#[derive(Serialize, Clone, Debug)]
struct GridColumn {
    family: String,
    table: String,
    label: String,
}

#[derive(Serialize, Clone, Debug)]
struct GridRow {
    /// The answer table's name (Markdown).
    name: String,
    /// The name in the filters.
    filter: String,
    engine: String,
    scheme: String,
    /// One per column; null where the engine has no answer on that family.
    cells: Vec<Option<GridCell>>,
}

#[derive(Serialize, Clone, Debug)]
struct GridCell {
    /// The answer's claim (its serde name).
    class: pool_outcome::AnswerClaim,
    /// The first band's colour.
    colour: String,
    /// The bands, top to bottom: one, or a series' keeps and changes halves.
    parts: Vec<GridBand>,
    /// `≤ 2e-6 s`, `changes at ≥ 1e-4 s; keeps at ≤ 1e-5 s`, `undecided`, ...
    headline: String,
    /// Shots it rests on.
    n: u64,
    decided: bool,
    /// The answer table's cell (Markdown).
    text: String,
}

#[derive(Serialize, Clone, Debug)]
struct GridBand {
    lines: Vec<String>,
    colour: String,
    /// Its legend entry's key.
    legend: &'static str,
}

#[derive(Serialize, Clone, Debug)]
struct GridLegend {
    key: &'static str,
    label: &'static str,
    colour: String,
}

/// The answer grid of `st`, `None` when it has no answers.
pub(super) fn grid(st: &OutcomeStudy) -> Option<Grid> {
    let t = answer_lines(st)?;
    Some(Grid {
        columns: t
            .families
            .iter()
            .map(|(f, tb)| GridColumn {
                family: f.clone(),
                table: tb.clone(),
                label: format!("{f} ({tb})"),
            })
            .collect(),
        rows: t
            .lines
            .iter()
            .map(|l| GridRow {
                name: l.name.clone(),
                filter: filter_name(&l.engine, &l.scheme),
                engine: l.engine.clone(),
                scheme: l.scheme.clone(),
                cells: l
                    .answers
                    .iter()
                    .zip(&l.cells)
                    .map(|(a, text)| {
                        a.as_ref().map(|a| {
                            let parts: Vec<GridBand> = crate::compare::answer_parts(a)
                                .into_iter()
                                .map(|(lines, fill)| GridBand {
                                    lines,
                                    colour: hex(fill),
                                    legend: crate::compare::legend_key(fill),
                                })
                                .collect();
                            GridCell {
                                class: a.claim,
                                colour: parts[0].colour.clone(),
                                parts,
                                headline: a.headline(),
                                n: a.n,
                                decided: a.decided(),
                                text: text.clone(),
                            }
                        })
                    })
                    .collect(),
            })
            .collect(),
        legend: crate::compare::legend()
            .into_iter()
            .map(|(key, label, c)| GridLegend {
                key,
                label,
                colour: hex(c),
            })
            .collect(),
    })
}

/// What one engine declined or failed to play, for the page.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub(super) struct Declined {
    /// The answer table's name (Markdown).
    pub name: String,
    /// The name in the filters.
    pub filter: String,
    pub engine: String,
    pub scheme: String,
    /// Its runs (a shot at a dt) in `outcomes/shots.csv`.
    pub runs: u64,
    /// Runs declined as outside its model (`failure` after `declined: `).
    pub declined: u64,
    /// Distinct shots (family, index) it declined.
    pub declined_shots: u64,
    /// Runs that failed otherwise.
    pub failed: u64,
    /// The first declined run's reason (else the first failure's), without the shot's name.
    pub reason: String,
    /// What to do next (Markdown), when it declined any.
    pub next: String,
}

/// Per engine that declined or failed any run: how many, why (the first row's text) and what
/// to do next; from `outcomes/shots.csv`, else `outcomes.csv`'s `failed` (then `declined`
/// counts both, unknown apart).
pub(super) fn declined(run: &RunFiles) -> Vec<Declined> {
    let Some(st) = &run.study else {
        return Vec::new();
    };
    let mut out: Vec<Declined> = Vec::new();
    let mut shots: Vec<std::collections::BTreeSet<(String, u64)>> = Vec::new();
    let entry = |out: &mut Vec<Declined>, engine: &str, scheme: &str| -> usize {
        let filter = filter_name(engine, scheme);
        if let Some(k) = out
            .iter()
            .position(|d| d.filter == filter && d.engine == engine)
        {
            return k;
        }
        out.push(Declined {
            name: engine_name(engine, scheme),
            filter,
            engine: engine.into(),
            scheme: scheme.into(),
            runs: 0,
            declined: 0,
            declined_shots: 0,
            failed: 0,
            reason: String::new(),
            next: String::new(),
        });
        out.len() - 1
    };
    let first_line = |text: &str| {
        let line = text.lines().next().unwrap_or("").trim();
        match line.strip_prefix("shot \"") {
            Some(rest) => rest.split_once("\": ").map_or(line, |(_, r)| r).to_string(),
            None => line.to_string(),
        }
    };
    match &run.shots {
        Some(rows) => {
            for r in rows.iter().filter(|r| {
                r.run != pool_outcome::Run::Reference && r.run != pool_outcome::Run::Floor
            }) {
                let k = entry(&mut out, &r.engine, &r.scheme);
                if shots.len() <= k {
                    shots.resize_with(k + 1, Default::default);
                }
                let d = &mut out[k];
                d.runs += 1;
                match r.failure.as_ref() {
                    None => {}
                    Some(pool_outcome::Failure::Declined(reason)) => {
                        if d.declined == 0 {
                            d.reason = first_line(reason);
                        }
                        d.declined += 1;
                        shots[k].insert((format!("{}/{}", r.family, r.table), r.index));
                    }
                    Some(pool_outcome::Failure::Failed(message)) => {
                        if d.declined == 0 && d.failed == 0 {
                            d.reason = first_line(message);
                        }
                        d.failed += 1;
                    }
                }
            }
            for (d, s) in out.iter_mut().zip(&shots) {
                d.declined_shots = s.len() as u64;
            }
        }
        None => {
            for r in st
                .rows
                .iter()
                .filter(|r| r.field == "outcome" && r.engine != FLOOR)
            {
                let k = entry(&mut out, &r.engine, &r.scheme);
                out[k].runs += r.n + r.failed;
                out[k].failed += r.failed;
            }
        }
    }
    out.retain(|d| d.declined + d.failed > 0);
    for d in &mut out {
        if d.declined > 0 {
            d.next = DECLINED_HINT.to_string();
        }
    }
    out
}

/// Every engine at a glance, with numbers to sort each column by.
pub(super) fn glance(run: &RunFiles) -> Option<Table> {
    if run.summary.is_empty() {
        return None;
    }
    let engines = engine_summaries_of(&run.summary, &run.slopes, &run.one_step);
    let target = format!("{TARGET_ERROR_S:.2e}");
    let columns = [
        "engine".to_string(),
        "order".into(),
        format!("error at {BUDGET_FACTOR}x event ops"),
        format!("error at {BUDGET_FACTOR}x event time"),
        format!("ops to reach {target}"),
        format!("engine time to reach {target}"),
        "dt (s)".into(),
        "one step".into(),
        "whole shot".into(),
        "engine time per shot".into(),
        "with adapter".into(),
    ];
    let rows = engines
        .iter()
        .map(|e| {
            let (name, texts) = glance_cells(e);
            let frac = |(a, b): (usize, usize)| (b > 0).then(|| a as f64 / b as f64);
            let keys = [
                e.slope,
                e.error_at_ops_budget_s,
                e.error_at_wall_budget_s,
                e.ops_to_target,
                e.wall_to_target_s,
                e.dt_s,
                e.one_step.as_ref().map(|s| s.agree_fraction()),
                frac(e.matched),
                Some(e.engine_s),
                e.reports_engine_time.then_some(e.wall_s),
            ];
            let mut cells = vec![cell(name, None)];
            cells.extend(texts.into_iter().zip(keys).map(|(t, v)| cell(t, v)));
            Row {
                attrs: engine_attrs(&e.engine, &e.scheme, &[]),
                class: if e.engine == pool_engines::EVENT {
                    "reference".into()
                } else {
                    String::new()
                },
                cells,
            }
        })
        .collect();
    Some(Table {
        id: "glance-table".into(),
        class: "glance".into(),
        caption: String::new(),
        columns: columns.to_vec(),
        col_family: Vec::new(),
        rows,
    })
}

/// Per family: the rate of changed outcomes of every engine at every dt, each cell linking to
/// the shots it counts.
pub(super) fn rates(st: &OutcomeStudy) -> Vec<Table> {
    let (dts, families) = rate_grid(st);
    let drill_cell = |r: &OutcomeRow| Cell {
        t: rate_cell(r),
        v: r.rate.is_finite().then_some(r.rate),
        drill: (r.n > 0).then(|| Drill {
            family: r.family.clone(),
            table: r.table.clone(),
            engine: r.engine.clone(),
            scheme: r.scheme.clone(),
            dt: r.dt_s,
            changed: r.disagree,
            n: r.n,
        }),
    };
    families
        .iter()
        .map(|f| {
            let (family, table) = (f.family.as_str(), f.table.as_str());
            let mut columns = vec!["engine".to_string()];
            columns.extend(dts.iter().map(|d| format!("dt = {d:.0e} s")));
            columns.push("no dt".into());
            let mut rows = Vec::new();
            let floor_name = format!("chaos floor ({}, perturbed)", st.reference_label());
            let mut floor_cells = vec![cell(floor_name, None)];
            floor_cells.extend(dts.iter().map(|_| cell("", None)));
            floor_cells.push(drill_cell(f.floor));
            rows.push(Row {
                attrs: engine_attrs(
                    FLOOR,
                    &f.floor.scheme,
                    &[("family", family), ("table", table)],
                ),
                class: "floor".into(),
                cells: floor_cells,
            });
            for &(engine, scheme) in &f.engines {
                let mut cells = vec![cell(format!("{engine} {scheme}"), None)];
                for d in dts.iter().map(|&d| Some(d)).chain([None]) {
                    cells.push(f.at(engine, scheme, d).map_or(cell("", None), drill_cell));
                }
                rows.push(Row {
                    attrs: engine_attrs(engine, scheme, &[("family", family), ("table", table)]),
                    class: String::new(),
                    cells,
                });
            }
            Table {
                id: format!("rates-{family}-{table}"),
                class: "rates".into(),
                caption: format!(
                    "{family} on {table}: {} shots; chaos floor {}",
                    f.floor.n,
                    rate_cell(f.floor).trim_end_matches([' ', '†', '○'])
                ),
                columns,
                col_family: Vec::new(),
                rows,
            }
        })
        .collect()
}

/// The distribution verdicts, and the floor's statistics beside the reference's.
pub(super) fn distribution(st: &OutcomeStudy) -> (Option<Table>, Option<Table>) {
    if st.verdicts.is_empty() {
        return (None, None);
    }
    let columns = [
        "family",
        "table",
        "engine",
        "n",
        "shot by shot",
        "verdict",
        "why",
    ]
    .map(String::from)
    .to_vec();
    let rows = st
        .verdicts
        .iter()
        .map(|v| Row {
            attrs: engine_attrs(
                &v.engine,
                &v.scheme,
                &[("family", &v.family), ("table", &v.table)],
            ),
            class: if v.engine == FLOOR {
                "floor".into()
            } else {
                String::new()
            },
            cells: vec![
                cell(v.family.clone(), None),
                cell(v.table.clone(), None),
                cell(cell_name(v), v.dt_s),
                cell(v.n.to_string(), Some(v.n as f64)),
                cell(shot_by_shot_cell(st, v), None),
                cell(format!("**{}**", v.verdict.label()), None),
                cell(v.detail.clone(), None),
            ],
        })
        .collect();
    let verdicts = Table {
        id: "verdict-table".into(),
        class: "verdicts".into(),
        caption: String::new(),
        columns,
        col_family: Vec::new(),
        rows,
    };
    let stats: Vec<Row> = st
        .distributions
        .iter()
        .filter(|r| {
            r.engine == FLOOR
                && matches!(
                    r.statistic.as_str(),
                    "balls_pocketed" | "scratch" | "success" | "cue_x" | "cue_y"
                )
        })
        .map(|r| {
            let num = |x: Option<f64>| x.unwrap_or(f64::NAN);
            Row {
                attrs: attrs(&[("family", &r.family), ("table", &r.table)]),
                class: String::new(),
                cells: vec![
                    cell(r.family.clone(), None),
                    cell(r.table.clone(), None),
                    cell(r.statistic.clone(), None),
                    cell(format!("{:.3}", num(r.reference)), r.reference),
                    cell(format!("{:.3}", r.value), Some(r.value)),
                    cell(
                        format!(
                            "{:+.3} [{:+.3}, {:+.3}]",
                            num(r.diff),
                            num(r.diff_low),
                            num(r.diff_high)
                        ),
                        r.diff,
                    ),
                ],
            }
        })
        .collect();
    let floor_stats = (!stats.is_empty()).then(|| Table {
        id: "floor-stats".into(),
        class: "stats".into(),
        caption: String::new(),
        columns: [
            "family",
            "table",
            "statistic",
            "reference",
            "floor",
            "floor - reference",
        ]
        .map(String::from)
        .to_vec(),
        col_family: Vec::new(),
        rows: stats,
    });
    (Some(verdicts), floor_stats)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::shots::ShotRow;

    fn shot_rows(csv_text: &str) -> Vec<ShotRow> {
        csv::Reader::from_reader(csv_text.as_bytes())
            .deserialize()
            .map(Result::unwrap)
            .collect()
    }

    #[test]
    fn declines_are_counted_per_engine_apart_from_failures() {
        let head = "family,table,index,shot,run,engine,scheme,dt_s,termination,first_contact,\
                    pocketed,scratch,d_outcome,d_first_contact,d_first_cushion,d_pocketed,\
                    d_scratch,d_end,d_cue_position,d_positions,failure\n";
        let row = |i: u32, run: &str, engine: &str, scheme: &str, failure: &str| {
            format!(
                "cut,seven_foot,{i},cut-{i},{run},{engine},{scheme},,at_rest,1,,0,0,0,0,0,0,0,0,0,\
                 {failure}\n"
            )
        };
        let prog = "python3 prog.py";
        let mut text = head.to_string();
        for i in 0..3 {
            text += &row(i, "reference", "event", "isolator", "");
            text += &row(i, "floor", "event", "isolator", "");
            text += &row(
                i,
                &format!("exec:{prog}"),
                "exec",
                prog,
                &format!("declined: shot \"cut-{i}\": only the ideal model"),
            );
            text += &row(i, "rapier:1e-3", "rapier", "rapier2d-f64 0.36", "");
        }
        text += &row(
            3,
            "rapier:1e-3",
            "rapier",
            "rapier2d-f64 0.36",
            "solver diverged",
        );
        let run = RunFiles {
            run_json: None,
            summary: Vec::new(),
            slopes: Vec::new(),
            one_step: Vec::new(),
            study: Some(OutcomeStudy::from_rows(Vec::new(), Vec::new(), &[])),
            shots: Some(shot_rows(&text)),
            replays: None,
            images: Vec::new(),
            files: Vec::new(),
            notes: Vec::new(),
        };
        let d = declined(&run);
        assert_eq!(d.len(), 2, "{d:?}");
        assert_eq!(d[0].filter, "exec:python3 prog.py");
        assert_eq!(d[0].name, "`exec:python3 prog.py`");
        assert_eq!(
            (d[0].runs, d[0].declined, d[0].declined_shots, d[0].failed),
            (3, 3, 3, 0)
        );
        assert_eq!(d[0].reason, "only the ideal model");
        assert_eq!(d[0].next, DECLINED_HINT);
        // A failure is no decline; the engine is named without its version.
        assert_eq!(d[1].filter, "rapier");
        assert_eq!((d[1].runs, d[1].declined, d[1].failed), (4, 0, 1));
        assert_eq!(d[1].reason, "solver diverged");
        assert!(d[1].next.is_empty());
    }
}
