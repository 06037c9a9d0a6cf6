//! Cumulative distribution (ECDF) of relative errors, one step curve per backend.

use super::common::chart_on;
use std::path::Path;

use plotters::coord::combinators::LogCoord;
use plotters::coord::combinators::WithKeyPoints;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

use super::common::{
    draw_legend, draw_line, draw_note, legend_height, legend_width, log_tick_label, palette, text,
    text_width, titled, LegendEntry, LineKind, LogAxis, AXIS_DESC_SIZE, DASH, GRID_BOLD,
    GRID_LIGHT, INK, TICK_SIZE,
};
use super::{render, Figure, PlotError, WIDTH};

/// Relative error above which the earliest root is taken to be the wrong one.
const THRESHOLD: f64 = 1e-9;
/// Largest position at which exact zeros are drawn.
const ZERO_FLOOR: f64 = 1e-18;
/// Drawable range of the logarithmic axis (clear of f64 underflow/overflow).
const LOG_MIN: f64 = 1e-300;
const LOG_MAX: f64 = 1e300;
/// Colour of the threshold guide.
const GUIDE: RGBColor = RGBColor(90, 90, 90);
/// Width of the curves (px).
const CURVE_W: u32 = 3;

/// Draws the cumulative distribution of relative errors, one curve per backend.
///
/// x: relative error (logarithmic), y: fraction of the backend's cases with error <= x. Each
/// `(backend, errors)` series is an ECDF step curve in its own palette colour, labelled
/// `backend (n = N)`. Exact zeros are drawn at a floor (1e-18, or a decade below the smallest
/// positive error if that is smaller), which the figure states; negative errors count by their
/// magnitude. Non-finite errors count in the denominator but are not drawn, so such a curve ends
/// below 1 (a note gives the count). A dashed vertical guide marks the 1e-9 wrong-root threshold.
/// Writes `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn error_cdf(series: &[(String, Vec<f64>)], stem: &Path) -> Result<(), PlotError> {
    render(stem, &Cdf::new(series))
}

/// One backend's curve.
struct Curve {
    label: String,
    colour: RGBColor,
    kind: LineKind,
    /// Total number of cases (the denominator).
    n: usize,
    /// Finite errors (zeros mapped to the floor), ascending.
    sorted: Vec<f64>,
}

impl Curve {
    /// The ECDF as a step path from `lo` to `hi`: (x, fraction <= x), x clamped to the axis.
    fn steps(&self, lo: f64, hi: f64) -> Vec<(f64, f64)> {
        let clamp = |v: f64| v.clamp(lo, hi);
        let n = self.n.max(1) as f64;
        let mut pts = vec![(lo, 0.0)];
        let mut below = 0.0;
        let mut i = 0;
        while i < self.sorted.len() {
            let v = self.sorted[i];
            while i < self.sorted.len() && self.sorted[i] == v {
                i += 1;
            }
            let x = clamp(v);
            let y = i as f64 / n;
            pts.push((x, below));
            pts.push((x, y));
            below = y;
        }
        pts.push((hi, below));
        pts
    }
}

/// The figure.
struct Cdf {
    curves: Vec<Curve>,
    /// Where exact zeros are drawn, when there are any.
    zero_at: Option<f64>,
    /// Number of non-finite errors over all series.
    dropped: usize,
}

impl Cdf {
    fn new(series: &[(String, Vec<f64>)]) -> Cdf {
        // Magnitudes, positive ones kept on the drawable range above where zeros can go.
        let magnitude = |e: &f64| {
            let m = e.abs();
            if m > 0.0 && m.is_finite() {
                m.clamp(LOG_MIN * 10.0, LOG_MAX)
            } else {
                m
            }
        };
        let min_positive = series
            .iter()
            .flat_map(|(_, v)| v.iter().map(magnitude))
            .filter(|e| e.is_finite() && *e > 0.0)
            .fold(f64::INFINITY, f64::min);
        let has_zero = series.iter().any(|(_, v)| v.contains(&0.0));
        let zero_at = has_zero.then(|| (min_positive / 10.0).clamp(LOG_MIN, ZERO_FLOOR));
        let mut dropped = 0;
        let curves = series
            .iter()
            .enumerate()
            .map(|(i, (name, errors))| {
                let mut sorted: Vec<f64> = errors
                    .iter()
                    .map(magnitude)
                    .filter(|e| e.is_finite())
                    .map(|e| if e == 0.0 { zero_at.unwrap_or(e) } else { e })
                    .collect();
                sorted.sort_by(f64::total_cmp);
                let bad = errors.len() - sorted.len();
                dropped += bad;
                let label = if bad > 0 {
                    format!("{name} (n = {}, {bad} non-finite)", errors.len())
                } else {
                    format!("{name} (n = {})", errors.len())
                };
                // Past the palette, repeat the colours dashed.
                let kind = if (i / 9) % 2 == 1 {
                    LineKind::Dashed(CURVE_W)
                } else {
                    LineKind::Solid(CURVE_W)
                };
                Curve {
                    label,
                    colour: palette(i),
                    kind,
                    n: errors.len(),
                    sorted,
                }
            })
            .collect();
        Cdf {
            curves,
            zero_at,
            dropped,
        }
    }

    /// True when some curve has a point to draw.
    fn has_points(&self) -> bool {
        self.curves.iter().any(|c| !c.sorted.is_empty())
    }

    /// The x axis: all drawn errors and the threshold guide.
    fn x_axis(&self) -> LogAxis {
        let values = self
            .curves
            .iter()
            .flat_map(|c| c.sorted.iter().copied())
            .map(|v| v.clamp(LOG_MIN, LOG_MAX))
            .chain([THRESHOLD]);
        let mut axis = LogAxis::covering(values).unwrap_or_else(LogAxis::placeholder);
        axis.lo = axis.lo.max(LOG_MIN / 1e4);
        axis.hi = axis.hi.min(LOG_MAX * 1e4);
        let (lo, hi) = (axis.lo, axis.hi);
        axis.bold.retain(|v| *v >= lo && *v <= hi);
        axis.light.retain(|v| *v >= lo && *v <= hi);
        if axis.light.len() > 60 {
            // Decade lines over hundreds of decades would grey the plot out.
            axis.light.clear();
        }
        axis
    }

    /// The x-axis description.
    fn x_desc(&self) -> String {
        let base = "relative error of the earliest root";
        match self.zero_at {
            Some(z) => format!("{base} (exact 0 plotted at {})", log_tick_label(z)),
            None => base.to_string(),
        }
    }

    /// Subtitle notes: dropped values.
    fn subtitle(&self) -> Option<String> {
        (self.dropped > 0).then(|| {
            let s = if self.dropped == 1 { "" } else { "s" };
            format!(
                "{} non-finite error{s} not drawn but counted: such curves end below 1",
                self.dropped
            )
        })
    }

    fn legend(&self) -> Vec<LegendEntry> {
        let mut entries: Vec<LegendEntry> = self
            .curves
            .iter()
            .map(|c| LegendEntry {
                label: c.label.clone(),
                colour: c.colour,
                line: Some(c.kind),
                marker: None,
            })
            .collect();
        entries.push(LegendEntry {
            label: "1e-9: wrong-root threshold".into(),
            colour: GUIDE,
            line: Some(LineKind::Dashed(2)),
            marker: None,
        });
        entries
    }
}

/// Legend title.
const LEGEND_TITLE: &str = "backend";
/// Legend panel width limits (px), when the legend does not fit inside the plot.
const LEGEND_MIN: i32 = 180;
const LEGEND_MAX: i32 = 460;
/// Gap between an inside legend and the plot frame (px).
const INSET: i32 = 12;
/// Clearance kept between an inside legend and the curves (px).
const CLEAR: i32 = 6;
/// Lower and upper end of the y axis.
const Y_RANGE: (f64, f64) = (-0.02, 1.04);

/// The chart type of this figure.
type Chart<'a, DB> =
    ChartContext<'a, DB, Cartesian2d<WithKeyPoints<LogCoord<f64>>, RangedCoordf64>>;

/// A chart on `area` with the x axis `x` and the fraction (y) axis.
fn build<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    x: &LogAxis,
) -> Result<Chart<'a, DB>, PlotError> {
    let y_label_w = text_width(area, "0.0", TICK_SIZE);
    Ok(chart_on(area, y_label_w).build_cartesian_2d(
        (x.lo..x.hi)
            .log_scale()
            .with_key_points(x.bold.clone())
            .with_light_points(x.light.clone()),
        Y_RANGE.0..Y_RANGE.1,
    )?)
}

/// Drops interior points of the pixel polyline `px` that lie within `tol` px of the simplified
/// line (Douglas-Peucker), so staircases of sub-pixel steps become clean slopes while steps and
/// plateaus of visible size stay sharp.
fn simplify(px: &[(i32, i32)], tol: f64) -> Vec<(i32, i32)> {
    let n = px.len();
    if n <= 2 {
        return px.to_vec();
    }
    let mut keep = vec![false; n];
    keep[0] = true;
    keep[n - 1] = true;
    let mut stack = vec![(0, n - 1)];
    while let Some((a, b)) = stack.pop() {
        let (p, q) = (px[a], px[b]);
        let (dx, dy) = (f64::from(q.0 - p.0), f64::from(q.1 - p.1));
        let len = dx.hypot(dy);
        let mut worst = (0.0, a);
        for (i, r) in px.iter().enumerate().take(b).skip(a + 1) {
            let (rx, ry) = (f64::from(r.0 - p.0), f64::from(r.1 - p.1));
            let d = if len > 0.0 {
                (dx * ry - dy * rx).abs() / len
            } else {
                rx.hypot(ry)
            };
            if d > worst.0 {
                worst = (d, i);
            }
        }
        if worst.0 > tol {
            keep[worst.1] = true;
            stack.push((a, worst.1));
            stack.push((worst.1, b));
        }
    }
    px.iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(*p))
        .collect()
}

/// The lowest and highest pixel row the polyline `px` reaches between columns `x0` and `x1`.
fn rows_between(px: &[(i32, i32)], x0: i32, x1: i32) -> Option<(i32, i32)> {
    let mut span: Option<(i32, i32)> = None;
    let mut add = |y: i32| {
        span = Some(span.map_or((y, y), |(a, b)| (a.min(y), b.max(y))));
    };
    for w in px.windows(2) {
        let (p, q) = if w[0].0 <= w[1].0 {
            (w[0], w[1])
        } else {
            (w[1], w[0])
        };
        let (a, b) = (p.0.max(x0), q.0.min(x1));
        if a > b {
            continue;
        }
        let at = |x: i32| {
            if q.0 == p.0 {
                None
            } else {
                let t = f64::from(x - p.0) / f64::from(q.0 - p.0);
                Some((f64::from(p.1) + t * f64::from(q.1 - p.1)).round() as i32)
            }
        };
        match (at(a), at(b)) {
            (Some(ya), Some(yb)) => {
                add(ya);
                add(yb);
            }
            _ => {
                add(p.1);
                add(q.1);
            }
        }
    }
    span
}

impl Cdf {
    /// Each drawable curve's simplified pixel path on `chart`.
    fn paths<DB: DrawingBackend>(
        &self,
        chart: &Chart<'_, DB>,
        x: &LogAxis,
    ) -> Vec<Vec<(i32, i32)>> {
        self.curves
            .iter()
            .map(|c| {
                if c.sorted.is_empty() {
                    return Vec::new();
                }
                let px: Vec<(i32, i32)> = c
                    .steps(x.lo, x.hi)
                    .iter()
                    .map(|p| chart.backend_coord(p))
                    .collect();
                simplify(&px, 0.8)
            })
            .collect()
    }

    /// The top-left pixel of a `w` x `h` legend box inside the plot of `chart` that keeps clear
    /// of the curves and the guide: bottom right, else top left; `None` when neither is free.
    fn free_corner<DB: DrawingBackend>(
        &self,
        chart: &Chart<'_, DB>,
        paths: &[Vec<(i32, i32)>],
        guide_x: Option<i32>,
        (w, h): (i32, i32),
    ) -> Option<(i32, i32)> {
        let (xs, ys) = chart.plotting_area().get_pixel_range();
        if !self.has_points() || xs.end - xs.start < w + 2 * INSET + 80 {
            return None;
        }
        let corners = [
            (xs.end - INSET - w, ys.end - INSET - h),
            (xs.start + INSET, ys.start + INSET),
        ];
        corners.into_iter().find(|&(x0, y0)| {
            if y0 < ys.start + INSET {
                return false;
            }
            let (x0c, x1c) = (x0 - CLEAR, x0 + w + CLEAR);
            let (y0c, y1c) = (y0 - CLEAR, y0 + h + CLEAR);
            let guide_clear = guide_x.is_none_or(|g| g < x0c || g > x1c);
            guide_clear
                && paths
                    .iter()
                    .all(|p| rows_between(p, x0c, x1c).is_none_or(|(lo, hi)| hi < y0c || lo > y1c))
        })
    }
}

impl Figure for Cdf {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let subtitle = self.subtitle();
        let body = titled(
            root,
            "Earliest-root relative error, cumulative",
            subtitle.as_deref(),
        )?;
        let x = self.x_axis();
        let entries = self.legend();
        let box_w = legend_width(root, LEGEND_TITLE, &entries);
        let box_h = legend_height(entries.len());

        // The legend goes inside the plot when a corner is free, else into a panel on the right.
        let (plot, inside, legend_area) = {
            let chart = build(&body, &x)?;
            let guide_x = x
                .contains(THRESHOLD)
                .then(|| chart.backend_coord(&(THRESHOLD, 0.0)).0);
            let paths = self.paths(&chart, &x);
            match self.free_corner(&chart, &paths, guide_x, (box_w, box_h)) {
                Some(at) => (body.clone(), Some(at), None),
                None => {
                    let panel_w = box_w.clamp(LEGEND_MIN, LEGEND_MAX) + 24;
                    let (plot, legend) = body.split_horizontally(WIDTH as i32 - panel_w);
                    (plot, None, Some(legend))
                }
            }
        };

        let mut chart = build(&plot, &x)?;
        let x_fmt = |v: &f64| log_tick_label(*v);
        let y_fmt = |v: &f64| format!("{:.1}", v + 0.0);
        let x_desc = self.x_desc();
        chart
            .configure_mesh()
            .x_desc(x_desc.as_str())
            .y_desc("fraction of cases")
            .y_labels(6)
            .y_max_light_lines(1)
            .axis_desc_style(text(AXIS_DESC_SIZE))
            .label_style(text(TICK_SIZE))
            .x_label_formatter(&x_fmt)
            .y_label_formatter(&y_fmt)
            .bold_line_style(GRID_BOLD.stroke_width(1))
            .light_line_style(GRID_LIGHT.stroke_width(1))
            .axis_style(INK.stroke_width(2))
            .draw()?;

        if x.contains(THRESHOLD) {
            let pa = chart.backend_coord(&(THRESHOLD, Y_RANGE.0));
            let pb = chart.backend_coord(&(THRESHOLD, Y_RANGE.1));
            draw_line(root, pa, pb, LineKind::Dashed(2), GUIDE)?;
        }
        for (c, px) in self.curves.iter().zip(self.paths(&chart, &x)) {
            if px.len() < 2 {
                continue;
            }
            match c.kind {
                LineKind::Solid(w) => {
                    root.draw(&PathElement::new(px, c.colour.stroke_width(w)))?;
                }
                LineKind::Dashed(w) => root.draw(&DashedPathElement::new(
                    px,
                    DASH.0,
                    DASH.1,
                    c.colour.stroke_width(w),
                ))?,
            }
        }
        if !self.has_points() {
            let area = chart.plotting_area().strip_coord_spec();
            let msg = if self.curves.is_empty() {
                "no data"
            } else {
                "no data (no finite errors to plot)"
            };
            let (w, h) = area.dim_in_pixel();
            let (cx, cy) = (w as i32 / 2, h as i32 / 2);
            let half = text_width(&area, msg, AXIS_DESC_SIZE) / 2 + 10;
            let half_h = AXIS_DESC_SIZE as i32 / 2 + 8;
            area.draw(&Rectangle::new(
                [(cx - half, cy - half_h), (cx + half, cy + half_h)],
                WHITE.filled(),
            ))?;
            draw_note(&area, msg)?;
        }

        match (inside, legend_area) {
            (Some((x0, y0)), _) => {
                let (w, h) = root.dim_in_pixel();
                let area = root.clone().shrink((x0 - 1, y0 - 1), (w, h));
                draw_legend(&area, LEGEND_TITLE, &entries)?;
            }
            (None, Some(panel)) => {
                let panel = panel.margin(10, 0, 0, 14);
                draw_legend(&panel, LEGEND_TITLE, &entries)?;
            }
            (None, None) => {}
        }
        Ok(())
    }
}
