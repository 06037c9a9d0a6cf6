//! `outcome_vs_dt.png`: does the algorithm change the game? The rate at which each fixed-step
//! engine's outcome differs from the reference's, against dt, one panel per family, with the
//! chaos floor (the reference against itself under a physical-scale perturbation) as a band.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use pool_outcome::{ChaosRow, OutcomeRow, FLOOR};

use super::common::{
    draw_legend, draw_line, draw_marker, draw_note, legend_width, log_tick_label, palette, text,
    text_at, titled, LegendEntry, LineKind, LogAxis, Marker, GRID_BOLD, GRID_LIGHT, INK,
};
use super::{render, Figure, PlotError, WIDTH};
use plotters::style::text_anchor::{HPos, VPos};

/// Tick labels in the panels (smaller than a whole-figure plot's: up to 4 x 2 panels).
const PANEL_TICK: f64 = 18.0;
/// Panel titles.
const PANEL_TITLE: f64 = 21.0;
/// Marker radius (px).
const MARKER_R: i32 = 5;
/// The floor's band.
const BAND: RGBColor = RGBColor(205, 205, 205);

/// Draws the disagreement rate of `field` (e.g. `outcome`) against dt from `rows`
/// (`outcomes.csv`'s rows) into `<stem>.svg` and `<stem>.png`: one panel per family (kind x
/// table, in first-appearance order, up to 4 columns), one colour and marker per engine and
/// scheme with a time step, a vertical bar for each rate's Wilson 95 % interval, and the
/// floor's interval as a grey band with its rate dashed. Engines without a time step are left
/// out (the report's table has them). `reference` names what the rates are against in the
/// subtitle (`event engine`, or a stepped reference's spec).
///
/// # Errors
/// A file that cannot be created or written.
pub fn outcome_vs_dt(
    rows: &[OutcomeRow],
    field: &str,
    reference: &str,
    stem: &Path,
) -> Result<(), PlotError> {
    render(
        stem,
        &OutcomeVsDt {
            rows,
            field,
            reference,
        },
    )
}

struct OutcomeVsDt<'a> {
    rows: &'a [OutcomeRow],
    field: &'a str,
    reference: &'a str,
}

impl OutcomeVsDt<'_> {
    /// This field's rows.
    fn mine(&self) -> Vec<&OutcomeRow> {
        self.rows.iter().filter(|r| r.field == self.field).collect()
    }
}

/// Distinct values of `key` over `rows`, in first-appearance order.
fn distinct<T: PartialEq + Clone>(rows: &[&OutcomeRow], key: impl Fn(&OutcomeRow) -> T) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for r in rows {
        let k = key(r);
        if !out.contains(&k) {
            out.push(k);
        }
    }
    out
}

impl Figure for OutcomeVsDt<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let body = titled(
            root,
            &format!(
                "Does it change the game? `{}` disagreement vs dt",
                self.field
            ),
            Some(&format!(
                "share of shots differing from the {}'s vs time step dt (s); grey: the chaos floor",
                self.reference
            )),
        )?;
        let rows = self.mine();
        let stepped: Vec<&OutcomeRow> = rows
            .iter()
            .copied()
            .filter(|r| r.engine != FLOOR && r.dt_s.is_some_and(|d| d > 0.0) && r.n > 0)
            .collect();
        if stepped.is_empty() {
            return draw_note(&body, "no data");
        }
        let families = distinct(&rows, |r| (r.family.clone(), r.table.clone()));
        let series = distinct(&stepped, |r| (r.engine.clone(), r.scheme.clone()));
        let entries: Vec<LegendEntry> = series
            .iter()
            .enumerate()
            .map(|(k, (e, s))| LegendEntry {
                label: if e == "discrete" {
                    s.clone()
                } else {
                    format!("{e} {s}")
                },
                colour: palette(k),
                line: Some(LineKind::Solid(2)),
                marker: Some((Marker::nth(k), MARKER_R)),
            })
            .chain(std::iter::once(LegendEntry {
                label: "chaos floor".into(),
                colour: RGBColor(120, 120, 120),
                line: Some(LineKind::Dashed(2)),
                marker: None,
            }))
            .collect();
        let title = "engine";
        let panel_w = legend_width(root, title, &entries).clamp(160, 360) + 16;
        let (plots, legend) = body.split_horizontally(WIDTH as i32 - panel_w);
        let x = LogAxis::covering(stepped.iter().filter_map(|r| r.dt_s))
            .unwrap_or_else(LogAxis::placeholder);
        let cols = families.len().clamp(1, 4);
        let n_rows = families.len().div_ceil(cols);
        let panels = plots.split_evenly((n_rows, cols));
        for (p, (family, table)) in panels.iter().zip(&families) {
            let (top, area) = p.split_vertically(PANEL_TITLE as i32 + 10);
            top.draw_text(
                &format!("{family} on {table}"),
                &text_at(PANEL_TITLE, HPos::Center, VPos::Top),
                (top.dim_in_pixel().0 as i32 / 2, 4),
            )?;
            let mut chart = ChartBuilder::on(&area)
                .margin_top(4)
                .margin_left(4)
                .margin_right(14)
                .margin_bottom(4)
                .x_label_area_size(PANEL_TICK as i32 + 12)
                .y_label_area_size(PANEL_TICK as i32 * 2 + 8)
                .build_cartesian_2d(
                    (x.lo..x.hi)
                        .log_scale()
                        .with_key_points(x.bold.clone())
                        .with_light_points(x.light.clone()),
                    0.0..1.0,
                )?;
            chart
                .configure_mesh()
                .label_style(text(PANEL_TICK))
                .x_label_formatter(&|v: &f64| log_tick_label(*v))
                .y_label_formatter(&|v: &f64| format!("{v:.1}"))
                .y_labels(6)
                .bold_line_style(GRID_BOLD.stroke_width(1))
                .light_line_style(GRID_LIGHT.stroke_width(1))
                .axis_style(INK.stroke_width(1))
                .draw()?;
            let here = |r: &&&OutcomeRow| r.family == *family && r.table == *table;
            if let Some(floor) = rows.iter().filter(here).find(|r| r.engine == FLOOR) {
                if floor.ci_low.is_finite() && floor.ci_high.is_finite() {
                    chart.draw_series(std::iter::once(Rectangle::new(
                        [
                            (x.lo, floor.ci_low),
                            (x.hi, floor.ci_high.max(floor.ci_low + 0.004)),
                        ],
                        BAND.mix(0.6).filled(),
                    )))?;
                    let a = chart.backend_coord(&(x.lo, floor.rate));
                    let b = chart.backend_coord(&(x.hi, floor.rate));
                    draw_line(root, a, b, LineKind::Dashed(2), RGBColor(120, 120, 120))?;
                }
            }
            for (k, (engine, scheme)) in series.iter().enumerate() {
                let mut pts: Vec<&OutcomeRow> = stepped
                    .iter()
                    .copied()
                    .filter(|r| r.family == *family && r.table == *table)
                    .filter(|r| r.engine == *engine && r.scheme == *scheme && r.rate.is_finite())
                    .collect();
                pts.sort_by(|a, b| a.dt_s.unwrap_or(0.0).total_cmp(&b.dt_s.unwrap_or(0.0)));
                let colour = palette(k);
                let at = |r: &OutcomeRow, y: f64| chart.backend_coord(&(r.dt_s.unwrap_or(1.0), y));
                for w in pts.windows(2) {
                    draw_line(
                        root,
                        at(w[0], w[0].rate),
                        at(w[1], w[1].rate),
                        LineKind::Solid(2),
                        colour,
                    )?;
                }
                for r in &pts {
                    if r.ci_low.is_finite() && r.ci_high.is_finite() {
                        draw_line(
                            root,
                            at(r, r.ci_low),
                            at(r, r.ci_high),
                            LineKind::Solid(1),
                            colour,
                        )?;
                    }
                    draw_marker(root, at(r, r.rate), Marker::nth(k), MARKER_R, colour)?;
                }
            }
        }
        draw_legend(&legend.margin(10, 0, 0, 6), title, &entries)
    }
}

/// Draws the chaos curve from `rows` (`chaos.csv`'s) into `<stem>.svg` and `<stem>.png`: the
/// reference's changed-outcome rate against the perturbation size (m, log scale), one colour per
/// family with each rate's Wilson 95 % interval as a bar, and the study's floor perturbation
/// `floor_m` as a dashed vertical line.
///
/// # Errors
/// A file that cannot be created or written.
pub fn chaos_curve(rows: &[ChaosRow], floor_m: f64, stem: &Path) -> Result<(), PlotError> {
    render(stem, &Chaos { rows, floor_m })
}

struct Chaos<'a> {
    rows: &'a [ChaosRow],
    floor_m: f64,
}

impl Figure for Chaos<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let body = titled(
            root,
            "Where chaos starts: the reference against itself",
            Some("share of shots whose outcome changes vs how far every ball is moved (m); dashed: the floor's size"),
        )?;
        let rows: Vec<&ChaosRow> = self
            .rows
            .iter()
            .filter(|r| r.n > 0 && r.perturbation_m > 0.0 && r.rate.is_finite())
            .collect();
        if rows.is_empty() {
            return draw_note(&body, "no data");
        }
        let mut families: Vec<(String, String)> = Vec::new();
        for r in &rows {
            let k = (r.family.clone(), r.table.clone());
            if !families.contains(&k) {
                families.push(k);
            }
        }
        let entries: Vec<LegendEntry> = families
            .iter()
            .enumerate()
            .map(|(k, (f, t))| LegendEntry {
                label: format!("{f} on {t}"),
                colour: palette(k),
                line: Some(LineKind::Solid(2)),
                marker: Some((Marker::nth(k), MARKER_R)),
            })
            .collect();
        let title = "family";
        let panel_w = legend_width(root, title, &entries).clamp(160, 420) + 16;
        let (plot, legend) = body.split_horizontally(WIDTH as i32 - panel_w);
        let x = LogAxis::covering(rows.iter().map(|r| r.perturbation_m))
            .unwrap_or_else(LogAxis::placeholder);
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(PANEL_TICK as i32 + 16)
            .y_label_area_size(PANEL_TICK as i32 * 2 + 12)
            .build_cartesian_2d(
                (x.lo..x.hi)
                    .log_scale()
                    .with_key_points(x.bold.clone())
                    .with_light_points(x.light.clone()),
                0.0..1.0,
            )?;
        chart
            .configure_mesh()
            .label_style(text(PANEL_TICK))
            .x_label_formatter(&|v: &f64| log_tick_label(*v))
            .y_label_formatter(&|v: &f64| format!("{v:.1}"))
            .y_labels(6)
            .bold_line_style(GRID_BOLD.stroke_width(1))
            .light_line_style(GRID_LIGHT.stroke_width(1))
            .axis_style(INK.stroke_width(1))
            .draw()?;
        if self.floor_m > x.lo && self.floor_m < x.hi {
            let a = chart.backend_coord(&(self.floor_m, 0.0));
            let b = chart.backend_coord(&(self.floor_m, 1.0));
            draw_line(root, a, b, LineKind::Dashed(2), RGBColor(120, 120, 120))?;
        }
        for (k, (family, table)) in families.iter().enumerate() {
            let mut pts: Vec<&&ChaosRow> = rows
                .iter()
                .filter(|r| &r.family == family && &r.table == table)
                .collect();
            pts.sort_by(|a, b| a.perturbation_m.total_cmp(&b.perturbation_m));
            let colour = palette(k);
            let at = |r: &ChaosRow, y: f64| chart.backend_coord(&(r.perturbation_m, y));
            for w in pts.windows(2) {
                draw_line(
                    root,
                    at(w[0], w[0].rate),
                    at(w[1], w[1].rate),
                    LineKind::Solid(2),
                    colour,
                )?;
            }
            for r in &pts {
                if r.ci_low.is_finite() && r.ci_high.is_finite() {
                    draw_line(
                        root,
                        at(r, r.ci_low),
                        at(r, r.ci_high),
                        LineKind::Solid(1),
                        colour,
                    )?;
                }
                draw_marker(root, at(r, r.rate), Marker::nth(k), MARKER_R, colour)?;
            }
        }
        draw_legend(&legend.margin(10, 0, 0, 6), title, &entries)
    }
}
