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
/// One colour and marker per engine with a time step (each discrete scheme, rapier): a thin
/// line per shot and a bold line with markers through the median over shots at each dt (the
/// legend lists engines, not shots, so it stays readable with many of both); a grey dashed
/// guide `error = dt` (slope 1); the event engine's floor (`floor_s`, when positive and finite)
/// as a black line, and every other engine without a time step (pooltool, a program, another
/// root solver) as a dashed line at its median error over shots. Writes `<stem>.svg` and
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
    let engines = Engines::of(rows);
    let mut fig = LogLog::new(
        "Collision-time error vs time step",
        "time step dt (s)",
        "median collision-time error (s)",
    );
    fig.series = engines.stepped(rows, |r| r.dt_s, |r| r.collision_time_error_median_s);
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
    fig.hlines
        .extend(engines.median_lines(rows, |r| r.collision_time_error_median_s, false));
    render(stem, &fig)
}

/// Draws total operation count against time step, log-log.
///
/// Engines with a time step as in [`error_vs_dt`] (median over shots bold, each shot thin);
/// each engine without one (the event engine, other root solvers) as a dashed line at its
/// median count over shots. Engines that count no operations (pooltool, programs) are left out:
/// their cost is wall time ([`error_vs_wall`]). Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn ops_vs_dt(rows: &[SummaryRow], stem: &Path) -> Result<(), PlotError> {
    let engines = Engines::of(rows);
    let mut fig = LogLog::new(
        "Cost vs time step",
        "time step dt (s)",
        "operations (total count)",
    );
    fig.series = engines.stepped(rows, |r| r.dt_s, |r| r.ops_total as f64);
    fig.hlines
        .extend(engines.median_lines(rows, |r| r.ops_total as f64, true));
    render(stem, &fig)
}

/// Draws median collision-time error against total operation count, log-log.
///
/// Engines with a time step as in [`error_vs_dt`], joined in dt order (the bold line through
/// the medians over shots of both coordinates at each dt); each engine without one as a large
/// diamond at its median count and median error (the event engine's error: its own when
/// positive, else `floor_s`; with neither, a vertical dashed line at its count). Engines that
/// count no operations are left out. Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn error_vs_cost(
    rows: &[SummaryRow],
    floor_s: Option<f64>,
    stem: &Path,
) -> Result<(), PlotError> {
    cost_figure(
        rows,
        floor_s,
        stem,
        "Collision-time error vs cost",
        "operations (total count)",
        |r| r.ops_total as f64,
    )
}

/// Draws median collision-time error against engine time per run
/// ([`SummaryRow::engine_cost_s`]: a program's reported `engine_s`, else the wall time),
/// log-log, as [`error_vs_cost`] does against operations: every engine, pooltool and programs
/// included (times measured in one run, on the machine's cores shared by the run's threads).
/// Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn error_vs_wall(
    rows: &[SummaryRow],
    floor_s: Option<f64>,
    stem: &Path,
) -> Result<(), PlotError> {
    cost_figure(
        rows,
        floor_s,
        stem,
        "Collision-time error vs engine time",
        "engine time per run (s; a program's engine calls when it reports them, else wall)",
        |r| r.engine_cost_s(),
    )
}

/// [`error_vs_cost`] and [`error_vs_wall`] with cost `cost`.
fn cost_figure(
    rows: &[SummaryRow],
    floor_s: Option<f64>,
    stem: &Path,
    title: &str,
    x_desc: &str,
    cost: impl Fn(&SummaryRow) -> f64 + Copy,
) -> Result<(), PlotError> {
    let engines = Engines::of(rows);
    let mut fig = LogLog::new(title, x_desc, "median collision-time error (s)");
    fig.series = engines.stepped(rows, |r| Some(cost(r)), |r| r.collision_time_error_median_s);
    let floor = floor_s.filter(|v| positive(*v));
    for (e, x, y) in engines.unstepped(rows, cost, |r| r.collision_time_error_median_s) {
        let Some(x) = x else { continue };
        let y = y.or(if e.reference { floor } else { None });
        match y {
            Some(y) => fig.big_points.push(BigPoint {
                x,
                y,
                colour: e.colour,
                label: e.label.clone(),
            }),
            None if e.reference => fig.vlines.push(Line {
                at: x,
                colour: e.colour,
                kind: LineKind::Dashed(3),
                label: Some(format!("{} cost", e.label)),
            }),
            None => {}
        }
    }
    render(stem, &fig)
}

fn positive(v: f64) -> bool {
    v.is_finite() && v > 0.0
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
            thin: false,
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
                thin: false,
            });
        }
    }
    render(stem, &fig)
}

/// One engine of the figures: a family and variant (a discrete scheme, a root solver,
/// pooltool, a program, rapier), with its colour and marker.
struct EngineKey {
    /// `summary.csv`'s engine and scheme columns.
    engine: String,
    scheme: String,
    /// Legend label.
    label: String,
    colour: RGBColor,
    marker: Marker,
    /// The rows have a time step.
    stepped: bool,
    /// The reference (the first event-engine rows: compare writes the reference first).
    reference: bool,
}

/// The engines of the rows, in order of first appearance, and their shots.
struct Engines {
    keys: Vec<EngineKey>,
    shots: Vec<String>,
}

/// A short legend label for an engine.
fn engine_label(engine: &str, scheme: &str) -> String {
    match engine {
        pool_engines::DISCRETE => scheme.to_string(),
        pool_engines::EVENT if scheme == "isolator" => "event engine".into(),
        pool_engines::EVENT => format!("event ({scheme})"),
        pool_engines::POOLTOOL => format!("pooltool {scheme}"),
        pool_engines::RAPIER => "rapier".into(),
        pool_engines::EXEC => {
            let short: String = scheme.chars().take(36).collect();
            let more = if scheme.chars().count() > 36 {
                "…"
            } else {
                ""
            };
            format!("exec: {short}{more}")
        }
        other => format!("{other} {scheme}"),
    }
}

impl Engines {
    fn of(rows: &[SummaryRow]) -> Engines {
        let mut keys: Vec<EngineKey> = Vec::new();
        let mut shots: Vec<String> = Vec::new();
        for r in rows {
            if !shots.contains(&r.shot) {
                shots.push(r.shot.clone());
            }
            if keys
                .iter()
                .any(|k| k.engine == r.engine && k.scheme == r.scheme)
            {
                continue;
            }
            // The reference is the first event-engine row's (compare writes it first).
            let reference = r.engine == pool_engines::EVENT && !keys.iter().any(|k| k.reference);
            let k = keys.iter().filter(|k| !k.reference).count();
            let label = match (reference, r.scheme.as_str()) {
                (true, "isolator") => "event engine".to_string(),
                (true, solver) => format!("event engine ({solver})"),
                (false, _) => engine_label(&r.engine, &r.scheme),
            };
            keys.push(EngineKey {
                engine: r.engine.clone(),
                scheme: r.scheme.clone(),
                label,
                colour: if reference { INK } else { palette(k) },
                marker: if reference {
                    Marker::Diamond
                } else {
                    Marker::nth(k)
                },
                stepped: r.dt_s.is_some(),
                reference,
            });
        }
        Engines { keys, shots }
    }

    fn rows_of<'a>(
        key: &'a EngineKey,
        rows: &'a [SummaryRow],
    ) -> impl Iterator<Item = &'a SummaryRow> + 'a {
        rows.iter()
            .filter(move |r| r.engine == key.engine && r.scheme == key.scheme)
    }

    /// For each engine with a time step: a thin series per shot (when there are several) and
    /// a bold one through the medians over shots at each dt, points sorted by dt, positive
    /// finite coordinates only.
    fn stepped(
        &self,
        rows: &[SummaryRow],
        x: impl Fn(&SummaryRow) -> Option<f64>,
        y: impl Fn(&SummaryRow) -> f64,
    ) -> Vec<Series> {
        let mut thin = Vec::new();
        let mut bold = Vec::new();
        for key in self.keys.iter().filter(|k| k.stepped) {
            // (dt, x, y) of each shot's rows.
            let mut by_dt: Vec<(f64, Vec<(f64, f64)>)> = Vec::new();
            let mut shots_drawn = 0;
            for shot in &self.shots {
                let mut pts: Vec<(f64, f64, f64)> = Self::rows_of(key, rows)
                    .filter(|r| &r.shot == shot)
                    .filter_map(|r| {
                        let (x, y) = (x(r)?, y(r));
                        (positive(x) && positive(y)).then_some((r.dt_s?, x, y))
                    })
                    .collect();
                if pts.is_empty() {
                    continue;
                }
                shots_drawn += 1;
                pts.sort_by(|a, b| a.0.total_cmp(&b.0));
                for &(dt, x, y) in &pts {
                    match by_dt.iter_mut().find(|(d, _)| (d - dt).abs() <= 1e-12 * dt) {
                        Some((_, v)) => v.push((x, y)),
                        None => by_dt.push((dt, vec![(x, y)])),
                    }
                }
                thin.push(Series {
                    label: format!("{shot} · {}", key.label),
                    colour: lighter(key.colour),
                    marker: key.marker,
                    points: pts.into_iter().map(|(_, x, y)| (x, y)).collect(),
                    dashed: false,
                    thin: true,
                });
            }
            if by_dt.is_empty() {
                continue;
            }
            by_dt.sort_by(|a, b| a.0.total_cmp(&b.0));
            let points = by_dt
                .into_iter()
                .map(|(_, v)| (median(v.iter().map(|p| p.0)), median(v.iter().map(|p| p.1))))
                .collect();
            let label = if shots_drawn > 1 {
                format!("{} (median of {shots_drawn} shots)", key.label)
            } else {
                key.label.clone()
            };
            bold.push(Series {
                label,
                colour: key.colour,
                marker: key.marker,
                points,
                dashed: false,
                thin: false,
            });
        }
        if self.shots.len() <= 1 {
            thin.clear();
        }
        thin.extend(bold);
        thin
    }

    /// For each engine without a time step: its median `x` and `y` over shots (positive finite
    /// values only; `None` when there is none).
    fn unstepped(
        &self,
        rows: &[SummaryRow],
        x: impl Fn(&SummaryRow) -> f64,
        y: impl Fn(&SummaryRow) -> f64,
    ) -> Vec<(&EngineKey, Option<f64>, Option<f64>)> {
        self.keys
            .iter()
            .filter(|k| !k.stepped)
            .map(|k| {
                let xs: Vec<f64> = Self::rows_of(k, rows)
                    .map(&x)
                    .filter(|v| positive(*v))
                    .collect();
                let ys: Vec<f64> = Self::rows_of(k, rows)
                    .map(&y)
                    .filter(|v| positive(*v))
                    .collect();
                let m = |v: Vec<f64>| (!v.is_empty()).then(|| median(v.into_iter()));
                (k, m(xs), m(ys))
            })
            .collect()
    }
}

impl Engines {
    /// A dashed horizontal line at each engine without a time step's median `y` over shots
    /// (the reference's too, with `with_reference`).
    fn median_lines(
        &self,
        rows: &[SummaryRow],
        y: impl Fn(&SummaryRow) -> f64,
        with_reference: bool,
    ) -> Vec<Line> {
        self.unstepped(rows, |r| r.wall_time_s, y)
            .into_iter()
            .filter(|(e, _, _)| with_reference || !e.reference)
            .filter_map(|(e, _, y)| {
                Some(Line {
                    at: y?,
                    colour: e.colour,
                    kind: LineKind::Dashed(3),
                    label: Some(format!("{} (median)", e.label)),
                })
            })
            .collect()
    }
}

/// The median of some values (the mean of the middle two for an even count).
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.collect();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        f64::NAN
    } else if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    }
}

/// `c` mixed 60% toward white: the thin per-shot lines under the medians.
fn lighter(c: RGBColor) -> RGBColor {
    let mix = |v: u8| (f64::from(v) + 0.6 * (255.0 - f64::from(v))) as u8;
    RGBColor(mix(c.0), mix(c.1), mix(c.2))
}

/// Markers joined by a solid line.
struct Series {
    label: String,
    colour: RGBColor,
    marker: Marker,
    points: Vec<(f64, f64)>,
    /// A model curve: dashed, no markers.
    dashed: bool,
    /// One shot under an engine's median: a thin line, no markers, not in the legend.
    thin: bool,
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
            legend_title: "engine".into(),
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
            .filter(|s| !s.thin)
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
        if self.series.iter().any(|s| s.thin) {
            entries.push(LegendEntry {
                label: "thin: one shot each".into(),
                colour: RGBColor(150, 150, 150),
                line: Some(LineKind::Solid(1)),
                marker: None,
            });
        }
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
                s.colour.stroke_width(if s.thin { 1 } else { 3 }),
            ))?;
        }
        for s in self.series.iter().filter(|s| !s.dashed && !s.thin) {
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
