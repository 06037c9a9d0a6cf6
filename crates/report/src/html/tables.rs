//! The page's tables: the answer, every engine at a glance, the rates per family, the
//! distribution verdicts. Cell texts are report.md's (the same functions make them); each cell
//! may carry a number to sort by and, in the rate tables, the shots it counts.

use std::collections::BTreeMap;

use pool_harness::{OutcomeRow, FLOOR};
use serde::Serialize;

use super::data::RunFiles;
use crate::compare::{
    answer_lines, cell_name, engine_summaries_of, glance_cells, rate_cell, rate_grid,
    shot_by_shot_cell, AnswerClass, OutcomeStudy, BUDGET_FACTOR, TARGET_ERROR_S,
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
    /// Rows.
    pub rows: Vec<Row>,
}

/// One row: attributes the filters read (`engine`, `scheme`, `family`, `table`) and cells.
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

/// An answer's rank for sorting: by its class (keeps the game first), then the larger dt.
fn answer_rank(a: &pool_harness::AnswerRow) -> f64 {
    let class = AnswerClass::LEGEND
        .iter()
        .position(|(c, _)| *c == AnswerClass::of(a))
        .unwrap_or(AnswerClass::LEGEND.len());
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
                attrs: attrs(&[("engine", &l.engine), ("scheme", &l.scheme)]),
                class: String::new(),
                cells,
            }
        })
        .collect();
    let mut cells = vec![cell("event engine (reference)", None)];
    cells.extend(t.reference.iter().map(|c| cell(c.clone(), None)));
    rows.push(Row {
        attrs: attrs(&[("engine", pool_engines::EVENT), ("scheme", "isolator")]),
        class: "reference".into(),
        cells,
    });
    Some(Table {
        id: "answer-table".into(),
        class: "answer".into(),
        caption: String::new(),
        columns,
        rows,
    })
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
                attrs: attrs(&[("engine", &e.engine), ("scheme", &e.scheme)]),
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
            let mut floor_cells = vec![cell("chaos floor (event engine, perturbed)", None)];
            floor_cells.extend(dts.iter().map(|_| cell("", None)));
            floor_cells.push(drill_cell(f.floor));
            rows.push(Row {
                attrs: attrs(&[
                    ("engine", FLOOR),
                    ("scheme", &f.floor.scheme),
                    ("family", family),
                    ("table", table),
                ]),
                class: "floor".into(),
                cells: floor_cells,
            });
            for &(engine, scheme) in &f.engines {
                let mut cells = vec![cell(format!("{engine} {scheme}"), None)];
                for d in dts.iter().map(|&d| Some(d)).chain([None]) {
                    cells.push(f.at(engine, scheme, d).map_or(cell("", None), drill_cell));
                }
                rows.push(Row {
                    attrs: attrs(&[
                        ("engine", engine),
                        ("scheme", scheme),
                        ("family", family),
                        ("table", table),
                    ]),
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
            attrs: attrs(&[
                ("engine", &v.engine),
                ("scheme", &v.scheme),
                ("family", &v.family),
                ("table", &v.table),
            ]),
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
        rows: stats,
    });
    (Some(verdicts), floor_stats)
}
