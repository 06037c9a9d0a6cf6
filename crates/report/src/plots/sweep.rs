//! Log-log plots of the dt sweep: error vs dt, cost vs dt, error vs cost.

use super::common::chart_on;
use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use pool_harness::SummaryRow;

use super::common::{
    draw_legend, draw_line, draw_marker, draw_note, legend_width, log_tick_label, palette, text,
    text_width, titled, LegendEntry, LineKind, LogAxis, Marker, AXIS_DESC_SIZE, GRID_BOLD,
    GRID_LIGHT, INK, TICK_SIZE,
};
use super::{render, Figure, PlotError, WIDTH};

/// Draws median collision-time error against time step, log-log.
///
/// One series (markers joined by lines, sorted by dt) per (shot, scheme) of the `discrete`
/// rows, coloured by shot (by scheme when there is a single shot) with one marker shape per
/// scheme; a grey dashed guide `error = dt` (slope 1); and, when `floor_s` is a positive finite
/// value, a black horizontal line labelled "event engine floor". Writes `<stem>.svg` and
/// `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn error_vs_dt(
    rows: &[SummaryRow],
    floor_s: Option<f64>,
    stem: &Path,
) -> Result<(), PlotError> {
    let keys = Keys::of(rows);
    let mut fig = LogLog::new(
        "Collision-time error vs time step",
        "time step dt (s)",
        "median collision-time error (s)",
    );
    fig.series = keys.discrete_series(rows, |r| r.dt_s, |r| r.collision_time_error_median_s);
    fig.guides.push(Guide {
        factor: 1.0,
        colour: RGBColor(120, 120, 120),
        kind: LineKind::Dashed(2),
        label: "error = dt (slope 1)".into(),
    });
    if let Some(floor) = floor_s.filter(|f| f.is_finite() && *f > 0.0) {
        fig.hlines.push(Line {
            at: floor,
            colour: INK,
            kind: LineKind::Solid(2),
            label: Some("event engine floor".into()),
        });
    }
    render(stem, &fig)
}

/// Draws total operation count against time step, log-log.
///
/// One series per (shot, scheme) of the `discrete` rows (colours and markers as in
/// [`error_vs_dt`]), and for each `event` row a horizontal dashed line at its `ops_total` in its
/// shot's colour (black when there is a single shot). Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn ops_vs_dt(rows: &[SummaryRow], stem: &Path) -> Result<(), PlotError> {
    let keys = Keys::of(rows);
    let mut fig = LogLog::new(
        "Cost vs time step",
        "time step dt (s)",
        "operations (total count)",
    );
    fig.series = keys.discrete_series(rows, |r| r.dt_s, |r| r.ops_total as f64);
    for r in rows.iter().filter(|r| r.engine == pool_engines::EVENT) {
        fig.hlines.push(Line {
            at: r.ops_total as f64,
            colour: keys.event_colour(&r.shot),
            kind: LineKind::Dashed(3),
            label: Some(keys.event_label(rows, r)),
        });
    }
    render(stem, &fig)
}

/// Draws median collision-time error against total operation count, log-log.
///
/// One series per (shot, scheme) of the `discrete` rows (colours and markers as in
/// [`error_vs_dt`], joined in dt order), and each `event` row as a large diamond at
/// (`ops_total`, error) where the error is the row's own median collision-time error if positive,
/// else `floor_s`. An event row with neither is drawn as a vertical dashed line at its
/// `ops_total`. Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn error_vs_cost(
    rows: &[SummaryRow],
    floor_s: Option<f64>,
    stem: &Path,
) -> Result<(), PlotError> {
    let keys = Keys::of(rows);
    let mut fig = LogLog::new(
        "Collision-time error vs cost",
        "operations (total count)",
        "median collision-time error (s)",
    );
    fig.series = keys.discrete_series(
        rows,
        |r| Some(r.ops_total as f64),
        |r| r.collision_time_error_median_s,
    );
    let positive = |v: f64| v.is_finite() && v > 0.0;
    for r in rows.iter().filter(|r| r.engine == pool_engines::EVENT) {
        let x = r.ops_total as f64;
        let y = Some(r.collision_time_error_median_s)
            .filter(|v| positive(*v))
            .or(floor_s.filter(|v| positive(*v)));
        let colour = keys.event_colour(&r.shot);
        let label = keys.event_label(rows, r);
        match y {
            Some(y) => fig.big_points.push(BigPoint {
                x,
                y,
                colour,
                label,
            }),
            None => fig.vlines.push(Line {
                at: x,
                colour,
                kind: LineKind::Dashed(3),
                label: Some(format!("{label} ops")),
            }),
        }
    }
    render(stem, &fig)
}

/// Draws cost per unit of work against the number of balls, log-log: for each engine of the
/// scaling study, measured operations per event (event engine) or per step (discrete), median
/// over seeds, as markers joined by lines; Leckie & Greenspan's estimate for the same unit as a
/// dashed curve in the same colour (where positive). Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn scaling(rows: &[pool_harness::ScalingRow], stem: &Path) -> Result<(), PlotError> {
    let mut fig = LogLog::new(
        "Cost vs number of balls",
        "number of balls n",
        "operations per event (event) or per step (discrete)",
    );
    fig.legend_title = "engine (medians over seeds)".into();
    for (k, engine) in pool_harness::SCALING_ENGINES.iter().enumerate() {
        let mine: Vec<&pool_harness::ScalingRow> =
            rows.iter().filter(|r| r.engine == *engine).collect();
        let measured = pool_harness::medians_by_n(&mine, |r| r.ops_per_unit);
        if measured.is_empty() {
            continue;
        }
        let colour = palette(k);
        fig.series.push(Series {
            label: format!("{engine} (measured)"),
            colour,
            marker: Marker::nth(k),
            points: measured,
            dashed: false,
        });
        let lg = pool_harness::medians_by_n(&mine, |r| r.lg_ops_per_unit);
        if lg.len() >= 2 && k < 2 {
            let unit = if k == 0 { "event" } else { "step" };
            fig.series.push(Series {
                label: format!("L&G estimate per {unit}"),
                colour,
                marker: Marker::nth(k),
                points: lg,
                dashed: true,
            });
        }
    }
    render(stem, &fig)
}

/// Shot and scheme order (first appearance) and the colour/marker rules derived from it.
struct Keys {
    shots: Vec<String>,
    schemes: Vec<String>,
}

impl Keys {
    fn of(rows: &[SummaryRow]) -> Keys {
        let mut shots: Vec<String> = Vec::new();
        let mut schemes: Vec<String> = Vec::new();
        for r in rows {
            if !shots.contains(&r.shot) {
                shots.push(r.shot.clone());
            }
            if r.engine == pool_engines::DISCRETE && !schemes.contains(&r.scheme) {
                schemes.push(r.scheme.clone());
            }
        }
        Keys { shots, schemes }
    }

    fn shot_index(&self, shot: &str) -> usize {
        self.shots.iter().position(|s| s == shot).unwrap_or(0)
    }

    fn scheme_index(&self, scheme: &str) -> usize {
        self.schemes.iter().position(|s| s == scheme).unwrap_or(0)
    }

    /// Colour of a discrete series: by shot, or by scheme when there is only one shot.
    fn series_colour(&self, shot: &str, scheme: &str) -> RGBColor {
        if self.shots.len() <= 1 {
            palette(self.scheme_index(scheme))
        } else {
            palette(self.shot_index(shot))
        }
    }

    /// Colour of a shot's event-engine line or marker.
    fn event_colour(&self, shot: &str) -> RGBColor {
        if self.shots.len() <= 1 {
            INK
        } else {
            palette(self.shot_index(shot))
        }
    }

    /// Legend label of an event row: `shot · event engine`, with the root solver when the shot
    /// has several event rows.
    fn event_label(&self, rows: &[SummaryRow], r: &SummaryRow) -> String {
        let n = rows
            .iter()
            .filter(|o| o.engine == pool_engines::EVENT && o.shot == r.shot)
            .count();
        if n > 1 {
            format!("{} · event ({})", r.shot, r.scheme)
        } else {
            format!("{} · event engine", r.shot)
        }
    }

    /// One series per (shot, scheme) of the discrete rows, points sorted by dt, keeping only
    /// positive finite coordinates.
    fn discrete_series(
        &self,
        rows: &[SummaryRow],
        x: impl Fn(&SummaryRow) -> Option<f64>,
        y: impl Fn(&SummaryRow) -> f64,
    ) -> Vec<Series> {
        let ok = |v: f64| v.is_finite() && v > 0.0;
        let mut out = Vec::new();
        for shot in &self.shots {
            for scheme in &self.schemes {
                let mut pts: Vec<(f64, f64, f64)> = rows
                    .iter()
                    .filter(|r| {
                        r.engine == pool_engines::DISCRETE && &r.shot == shot && &r.scheme == scheme
                    })
                    .filter_map(|r| {
                        let (x, y) = (x(r)?, y(r));
                        (ok(x) && ok(y)).then_some((r.dt_s.unwrap_or(f64::NAN), x, y))
                    })
                    .collect();
                if pts.is_empty() {
                    continue;
                }
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                out.push(Series {
                    label: format!("{shot} · {scheme}"),
                    colour: self.series_colour(shot, scheme),
                    marker: Marker::nth(self.scheme_index(scheme)),
                    points: pts.into_iter().map(|(_, x, y)| (x, y)).collect(),
                    dashed: false,
                });
            }
        }
        out
    }
}

/// Markers joined by a solid line.
struct Series {
    label: String,
    colour: RGBColor,
    marker: Marker,
    points: Vec<(f64, f64)>,
    /// A model curve: dashed, no markers.
    dashed: bool,
}

/// A horizontal (y = at) or vertical (x = at) line across the plot.
struct Line {
    at: f64,
    colour: RGBColor,
    kind: LineKind,
    label: Option<String>,
}

/// The guide line y = factor * x.
struct Guide {
    factor: f64,
    colour: RGBColor,
    kind: LineKind,
    label: String,
}

/// A single large marker.
struct BigPoint {
    x: f64,
    y: f64,
    colour: RGBColor,
    label: String,
}

/// Marker radius of series points (px).
const MARKER_R: i32 = 7;
/// Marker radius of big points (px).
const BIG_MARKER_R: i32 = 13;

/// A log-log plot with a legend panel on the right.
struct LogLog {
    title: String,
    x_desc: String,
    y_desc: String,
    series: Vec<Series>,
    hlines: Vec<Line>,
    vlines: Vec<Line>,
    guides: Vec<Guide>,
    big_points: Vec<BigPoint>,
    legend_title: String,
}

impl LogLog {
    fn new(title: &str, x_desc: &str, y_desc: &str) -> LogLog {
        LogLog {
            title: title.into(),
            x_desc: x_desc.into(),
            y_desc: y_desc.into(),
            series: Vec::new(),
            hlines: Vec::new(),
            vlines: Vec::new(),
            guides: Vec::new(),
            big_points: Vec::new(),
            legend_title: "shot · scheme".into(),
        }
    }

    /// The axes covering the data, or `None` when nothing can be placed on them.
    fn axes(&self) -> Option<(LogAxis, LogAxis)> {
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0));
        let xs = xs
            .chain(self.big_points.iter().map(|p| p.x))
            .chain(self.vlines.iter().map(|l| l.at));
        let ys = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1));
        let ys = ys
            .chain(self.big_points.iter().map(|p| p.y))
            .chain(self.hlines.iter().map(|l| l.at));
        let has_points = !self.series.is_empty() || !self.big_points.is_empty();
        let x = LogAxis::covering(xs)?;
        let y = LogAxis::covering(ys)?;
        has_points.then_some((x, y))
    }

    /// The visible part of the guide y = f x: x from a to b, if any.
    fn guide_span(x: &LogAxis, y: &LogAxis, f: f64) -> Option<(f64, f64)> {
        if !(f.is_finite() && f > 0.0) {
            return None;
        }
        let a = x.lo.max(y.lo / f);
        let b = x.hi.min(y.hi / f);
        (a < b).then_some((a, b))
    }

    /// Legend entries for what is drawn on these axes.
    fn legend(&self, axes: &(LogAxis, LogAxis)) -> Vec<LegendEntry> {
        let (x, y) = axes;
        let mut entries: Vec<LegendEntry> = self
            .series
            .iter()
            .map(|s| LegendEntry {
                label: s.label.clone(),
                colour: s.colour,
                line: Some(if s.dashed {
                    LineKind::Dashed(2)
                } else {
                    LineKind::Solid(3)
                }),
                marker: (!s.dashed).then_some((s.marker, MARKER_R)),
            })
            .collect();
        entries.extend(self.big_points.iter().map(|p| LegendEntry {
            label: p.label.clone(),
            colour: p.colour,
            line: None,
            marker: Some((Marker::Diamond, BIG_MARKER_R - 3)),
        }));
        for (lines, axis) in [(&self.hlines, y), (&self.vlines, x)] {
            entries.extend(
                lines
                    .iter()
                    .filter(|l| axis.contains(l.at))
                    .filter_map(|l| {
                        Some(LegendEntry {
                            label: l.label.clone()?,
                            colour: l.colour,
                            line: Some(l.kind),
                            marker: None,
                        })
                    }),
            );
        }
        entries.extend(
            self.guides
                .iter()
                .filter(|g| Self::guide_span(x, y, g.factor).is_some())
                .map(|g| LegendEntry {
                    label: g.label.clone(),
                    colour: g.colour,
                    line: Some(g.kind),
                    marker: None,
                }),
        );
        entries
    }
}

/// Legend panel width limits (px).
const LEGEND_MIN: i32 = 180;
const LEGEND_MAX: i32 = 440;

impl Figure for LogLog {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let body = titled(root, &self.title, None)?;
        let axes = self.axes();
        let (x_axis, y_axis) = axes
            .clone()
            .unwrap_or_else(|| (LogAxis::placeholder(), LogAxis::placeholder()));
        let entries = match &axes {
            Some(a) => self.legend(a),
            None => Vec::new(),
        };
        let legend_w = if entries.is_empty() {
            0
        } else {
            legend_width(root, &self.legend_title, &entries).clamp(LEGEND_MIN, LEGEND_MAX) + 24
        };
        let (plot, legend_area) = body.split_horizontally(WIDTH as i32 - legend_w);

        let y_label_w = y_axis
            .bold
            .iter()
            .map(|v| text_width(root, &log_tick_label(*v), TICK_SIZE))
            .max()
            .unwrap_or(0);
        let mut chart = chart_on(&plot, y_label_w).build_cartesian_2d(
            (x_axis.lo..x_axis.hi)
                .log_scale()
                .with_key_points(x_axis.bold.clone())
                .with_light_points(x_axis.light.clone()),
            (y_axis.lo..y_axis.hi)
                .log_scale()
                .with_key_points(y_axis.bold.clone())
                .with_light_points(y_axis.light.clone()),
        )?;
        let fmt = |v: &f64| log_tick_label(*v);
        chart
            .configure_mesh()
            .x_desc(self.x_desc.as_str())
            .y_desc(self.y_desc.as_str())
            .axis_desc_style(text(AXIS_DESC_SIZE))
            .label_style(text(TICK_SIZE))
            .x_label_formatter(&fmt)
            .y_label_formatter(&fmt)
            .bold_line_style(GRID_BOLD.stroke_width(1))
            .light_line_style(GRID_LIGHT.stroke_width(1))
            .axis_style(INK.stroke_width(2))
            .draw()?;

        let Some((x, y)) = axes else {
            let area = chart.plotting_area().strip_coord_spec();
            return draw_note(&area, "no data (nothing positive and finite to plot)");
        };

        for g in &self.guides {
            if let Some((a, b)) = LogLog::guide_span(&x, &y, g.factor) {
                let pa = chart.backend_coord(&(a, g.factor * a));
                let pb = chart.backend_coord(&(b, g.factor * b));
                draw_line(root, pa, pb, g.kind, g.colour)?;
            }
        }
        for l in self.hlines.iter().filter(|l| y.contains(l.at)) {
            let pa = chart.backend_coord(&(x.lo, l.at));
            let pb = chart.backend_coord(&(x.hi, l.at));
            draw_line(root, pa, pb, l.kind, l.colour)?;
        }
        for l in self.vlines.iter().filter(|l| x.contains(l.at)) {
            let pa = chart.backend_coord(&(l.at, y.lo));
            let pb = chart.backend_coord(&(l.at, y.hi));
            draw_line(root, pa, pb, l.kind, l.colour)?;
        }
        for s in self.series.iter().filter(|s| s.dashed) {
            for w in s.points.windows(2) {
                let (a, b) = (chart.backend_coord(&w[0]), chart.backend_coord(&w[1]));
                draw_line(root, a, b, LineKind::Dashed(2), s.colour)?;
            }
        }
        for s in self.series.iter().filter(|s| !s.dashed) {
            chart.draw_series(LineSeries::new(
                s.points.iter().copied(),
                s.colour.stroke_width(3),
            ))?;
        }
        for s in self.series.iter().filter(|s| !s.dashed) {
            for p in &s.points {
                draw_marker(root, chart.backend_coord(p), s.marker, MARKER_R, s.colour)?;
            }
        }
        for p in &self.big_points {
            let at = chart.backend_coord(&(p.x, p.y));
            draw_marker(root, at, Marker::Diamond, BIG_MARKER_R, p.colour)?;
        }

        if !entries.is_empty() {
            let legend_area = legend_area.margin(10, 0, 0, 14);
            draw_legend(&legend_area, &self.legend_title, &entries)?;
        }
        Ok(())
    }
}
