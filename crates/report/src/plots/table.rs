//! Top-down picture of one shot: the table and both engines' ball paths.

use std::ops::Range;
use std::path::Path;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use pool_harness::{BallPath, EventMark, ShotPaths};
use pool_physics::{EventKind, Table};

use super::common::{
    darker, draw_line, draw_marker, fit_text, palette, text, text_at, text_width, titled, LineKind,
    Marker, AXIS_DESC_SIZE, DASH, INK, LEGEND_SIZE, TICK_SIZE,
};
use super::{render, Figure, PlotError};

/// Draws the shot top-down at equal scale on both axes (1 m in x is as long on screen as 1 m in
/// y).
///
/// The cloth (light green, its outline running through the cushion segments' end points) sits
/// on a brown rail; cushion segments are thick dark-green lines and pockets black circles, all
/// at true size. Each ball has one colour (the cue ball dark grey): its event-engine (reference)
/// path is a wide pale band, its discrete path a dashed line on top; its start is an open circle
/// of radius R, its final position a filled disc of radius R (event engine) and a dashed ring
/// (discrete), labelled with the ball id. Title = shot name, subtitle names the discrete run
/// (`p.discrete_label`), and a legend strip below explains the symbols. Writes `<stem>.svg` and
/// `<stem>.png`.
pub fn shot_paths(p: &ShotPaths, stem: &Path) -> Result<(), PlotError> {
    render(stem, &TableFigure { p, marks: None })
}

/// Each engine's events placed on the table (`pool_harness::event_marks`).
#[derive(Clone, Debug, Default)]
pub struct ShotMarks {
    /// Event engine.
    pub reference: Vec<EventMark>,
    /// Discrete integrator.
    pub discrete: Vec<EventMark>,
}

/// The shot diagram: [`shot_paths`] plus every event as a marker by kind (ball-ball diamond,
/// cushion square, pocket inverted triangle, sliding -> rolling triangle, a ball stopping
/// rolling or spinning circle): filled black for the event engine, hollow red for the discrete
/// integrator, with the kinds explained in the legend strip. Final positions are the balls
/// drawn at true size (filled: event engine; dashed ring: discrete), as in [`shot_paths`].
pub fn shot_diagram(p: &ShotPaths, marks: &ShotMarks, stem: &Path) -> Result<(), PlotError> {
    render(
        stem,
        &TableFigure {
            p,
            marks: Some(marks),
        },
    )
}

/// Marker shape and legend label of an event kind in the shot diagram.
fn kind_marker(kind: EventKind) -> (Marker, &'static str) {
    match kind {
        EventKind::BallBall => (Marker::Diamond, "ball-ball"),
        EventKind::BallLinearCushion => (Marker::Square, "cushion"),
        EventKind::BallPocket => (Marker::InvertedTriangle, "pocket"),
        EventKind::SlidingRolling => (Marker::Triangle, "sliding -> rolling"),
        EventKind::RollingStationary
        | EventKind::RollingSpinning
        | EventKind::SpinningStationary => (Marker::Circle, "stops rolling / spinning"),
    }
}

/// Event-engine markers: filled near-black.
const MARK_REFERENCE: RGBColor = RGBColor(30, 30, 30);
/// Discrete markers: hollow red.
const MARK_DISCRETE: RGBColor = RGBColor(200, 30, 30);
/// Marker "radius" (px).
const MARK_R: i32 = 7;

/// A hollow marker (outline only) of "radius" `r` px at pixel `at`.
fn draw_hollow_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    marker: Marker,
    r: i32,
    colour: RGBColor,
) -> Result<(), PlotError> {
    let style = colour.stroke_width(2);
    let rf = f64::from(r);
    let pts: Vec<(f64, f64)> = match marker {
        Marker::Circle => {
            area.draw(&Circle::new((x, y), r, style))?;
            return Ok(());
        }
        Marker::Square => {
            let s = rf * 0.85;
            vec![(-s, -s), (s, -s), (s, s), (-s, s)]
        }
        Marker::Diamond => {
            let s = rf * 1.25;
            vec![(0.0, -s), (s, 0.0), (0.0, s), (-s, 0.0)]
        }
        Marker::Triangle | Marker::InvertedTriangle => {
            let s = rf * 1.3;
            let sign = if marker == Marker::Triangle {
                1.0
            } else {
                -1.0
            };
            vec![
                (0.0, -s * sign),
                (s * 0.866, s * 0.5 * sign),
                (-s * 0.866, s * 0.5 * sign),
            ]
        }
    };
    let mut px: Vec<(i32, i32)> = pts
        .iter()
        .map(|(dx, dy)| (x + dx.round() as i32, y + dy.round() as i32))
        .collect();
    px.push(px[0]);
    area.draw(&PathElement::new(px, style))?;
    Ok(())
}

/// Cloth colour.
const CLOTH: RGBColor = RGBColor(206, 232, 206);
/// Rail (wood) colour.
const RAIL: RGBColor = RGBColor(122, 88, 60);
/// Cushion rubber colour.
const CUSHION: RGBColor = RGBColor(24, 92, 52);
/// Pocket colour.
const POCKET: RGBColor = RGBColor(20, 20, 20);
/// Cue ball colour.
const CUE: RGBColor = RGBColor(70, 70, 70);
/// Width of the rail drawn around the cushions (m).
const RAIL_WIDTH: f64 = 0.05;
/// Empty space around the table (m).
const VIEW_MARGIN: f64 = 0.02;

struct TableFigure<'a> {
    p: &'a ShotPaths,
    marks: Option<&'a ShotMarks>,
}

/// Finite points of a path.
fn finite_points(b: &BallPath) -> impl Iterator<Item = (f64, f64)> + '_ {
    b.points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
}

/// Bounding box (x0, x1, y0, y1) of the table (cushions, pockets, playing area) in metres.
fn table_bounds(t: &Table) -> Option<(f64, f64, f64, f64)> {
    let mut b = Bounds::default();
    if t.length.is_finite() && t.width.is_finite() {
        b.add(0.0, 0.0);
        b.add(t.length, t.width);
    }
    for c in &t.cushions {
        b.add(c.p1[0], c.p1[1]);
        b.add(c.p2[0], c.p2[1]);
    }
    for k in t
        .pockets
        .iter()
        .filter(|k| k.radius.is_finite() && k.radius > 0.0)
    {
        b.add(k.center[0] - k.radius, k.center[1] - k.radius);
        b.add(k.center[0] + k.radius, k.center[1] + k.radius);
    }
    b.get()
}

/// A growing bounding box of finite points.
#[derive(Default)]
struct Bounds(Option<(f64, f64, f64, f64)>);

impl Bounds {
    fn add(&mut self, x: f64, y: f64) {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        self.0 = Some(match self.0 {
            None => (x, x, y, y),
            Some((x0, x1, y0, y1)) => (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
        });
    }
    fn get(&self) -> Option<(f64, f64, f64, f64)> {
        self.0
    }
}

/// Ranges showing `bounds` centred in a `w` x `h` px plot with equal metres per pixel on both
/// axes.
pub(super) fn equal_aspect(
    bounds: (f64, f64, f64, f64),
    w: f64,
    h: f64,
) -> (Range<f64>, Range<f64>) {
    let (x0, x1, y0, y1) = bounds;
    let (w, h) = (w.max(1.0), h.max(1.0));
    let span_x = (x1 - x0).max(1e-6);
    let span_y = (y1 - y0).max(1e-6);
    let m_per_px = (span_x / w).max(span_y / h);
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    let (hx, hy) = (m_per_px * w / 2.0, m_per_px * h / 2.0);
    (cx - hx..cx + hx, cy - hy..cy + hy)
}

/// A linear axis in metres with ticks at multiples of a fixed step.
struct MetreAxis {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl MetreAxis {
    fn new(range: Range<f64>, step: f64) -> MetreAxis {
        let k0 = (range.start / step).ceil() as i64;
        let k1 = (range.end / step).floor() as i64;
        let ticks = (k0..=k1.min(k0 + 200)).map(|k| k as f64 * step).collect();
        MetreAxis { range, ticks }
    }
}

impl Ranged for MetreAxis {
    type FormatOption = DefaultFormatting;
    type ValueType = f64;

    fn map(&self, v: &f64, limit: (i32, i32)) -> i32 {
        let span = self.range.end - self.range.start;
        let t = if span > 0.0 {
            (v - self.range.start) / span
        } else {
            0.5
        };
        let px = f64::from(limit.0) + t * f64::from(limit.1 - limit.0);
        px.round().clamp(-1e6, 1e6) as i32
    }

    fn key_points<H: KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> Range<f64> {
        self.range.clone()
    }
}

/// A "nice" tick step (1, 2 or 5 x 10^k) of at least `raw`, and the decimals it needs.
fn tick_step(raw: f64) -> (f64, usize) {
    if !(raw.is_finite() && raw > 0.0) {
        return (1.0, 0);
    }
    let k = raw.log10().floor();
    let base = 10f64.powf(k);
    let m = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .find(|m| m * base >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0);
    let step = m * base;
    let decimals = (-(step.log10().floor())).max(0.0) as usize;
    (step, decimals.min(6))
}

/// A circle of radius `r` around `c` as a closed polygon (data coordinates).
fn circle(c: (f64, f64), r: f64) -> Vec<(f64, f64)> {
    const N: usize = 48;
    (0..=N)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / N as f64;
            (c.0 + r * a.cos(), c.1 + r * a.sin())
        })
        .collect()
}

/// `c` blended with white: `t` = 0 gives `c`, 1 gives white.
fn tint(c: RGBColor, t: f64) -> RGBColor {
    let f = |v: u8| (f64::from(v) + (255.0 - f64::from(v)) * t).round() as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}

impl TableFigure<'_> {
    /// Ball ids in order of first appearance, with their colours.
    fn ball_colours(&self) -> Vec<(String, RGBColor)> {
        let mut ids: Vec<String> = Vec::new();
        for b in self.p.reference.iter().chain(&self.p.discrete) {
            if !ids.contains(&b.id) {
                ids.push(b.id.clone());
            }
        }
        // Skip the palette's green (index 6): it is hard to see on the cloth.
        let mut next = 0;
        ids.into_iter()
            .map(|id| {
                let c = if id == "cue" {
                    CUE
                } else {
                    let mut i = next;
                    if i % 9 == 6 {
                        i += 1;
                    }
                    next = i + 1;
                    palette(i)
                };
                (id, c)
            })
            .collect()
    }
}

impl Figure for TableFigure<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let p = self.p;
        let subtitle = format!("event engine (solid) vs {} (dashed)", p.discrete_label);
        let body = titled(root, &p.shot, Some(&subtitle))?;
        let (body_w, body_h) = body.dim_in_pixel();
        let with_marks = self.marks.is_some();
        let strip_h = strip_height(root, &p.discrete_label, with_marks, body_w as i32);
        let (table_area, legend_area) = body.split_vertically(body_h as i32 - strip_h);

        let mut view = Bounds::default();
        let table = table_bounds(&p.table);
        if let Some((x0, x1, y0, y1)) = table {
            view.add(x0 - RAIL_WIDTH, y0 - RAIL_WIDTH);
            view.add(x1 + RAIL_WIDTH, y1 + RAIL_WIDTH);
        }
        let r = Some(p.radius).filter(|r| r.is_finite() && *r > 0.0);
        for b in p.reference.iter().chain(&p.discrete) {
            for (x, y) in finite_points(b) {
                let rr = r.unwrap_or(0.0);
                view.add(x - rr, y - rr);
                view.add(x + rr, y + rr);
            }
        }
        let (x0, x1, y0, y1) = view.get().unwrap_or((0.0, 1.0, 0.0, 1.0));
        let bounds = (
            x0 - VIEW_MARGIN,
            x1 + VIEW_MARGIN,
            y0 - VIEW_MARGIN,
            y1 + VIEW_MARGIN,
        );

        let builder = || {
            let mut b = ChartBuilder::on(&table_area);
            b.margin_top(6)
                .margin_bottom(6)
                .margin_left(12)
                .margin_right(30)
                .x_label_area_size(TICK_SIZE as i32 + AXIS_DESC_SIZE as i32 + 30)
                .y_label_area_size(TICK_SIZE as i32 * 2 + AXIS_DESC_SIZE as i32 + 24);
            b
        };
        // Measure the plotting area, then choose ranges with equal metres per pixel.
        let probe = builder()
            .build_cartesian_2d(MetreAxis::new(0.0..1.0, 1.0), MetreAxis::new(0.0..1.0, 1.0))?;
        let (a, b) = (
            probe.backend_coord(&(0.0, 0.0)),
            probe.backend_coord(&(1.0, 1.0)),
        );
        let (w_px, h_px) = (f64::from((b.0 - a.0).abs()), f64::from((b.1 - a.1).abs()));
        drop(probe);
        let (xr, yr) = equal_aspect(bounds, w_px, h_px);
        let m_per_px = (xr.end - xr.start) / w_px.max(1.0);
        let to_px = |m: f64| (m / m_per_px).round() as i32;

        // The same tick step on both axes.
        let (step, decimals) = tick_step((xr.end - xr.start).max(yr.end - yr.start) / 13.0);
        let mut chart = builder().build_cartesian_2d(
            MetreAxis::new(xr.clone(), step),
            MetreAxis::new(yr.clone(), step),
        )?;
        let fmt = |v: &f64| format!("{:.*}", decimals, v + 0.0);
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("x (m)")
            .y_desc("y (m)")
            .axis_desc_style(text(AXIS_DESC_SIZE))
            .label_style(text(TICK_SIZE))
            .x_label_formatter(&fmt)
            .y_label_formatter(&fmt)
            .axis_style(INK.stroke_width(1))
            .draw()?;

        // Table: rail, cloth, pockets, cushions.
        let t = &p.table;
        if let Some((tx0, tx1, ty0, ty1)) = table {
            chart.draw_series(std::iter::once(Rectangle::new(
                [
                    (tx0 - RAIL_WIDTH, ty0 - RAIL_WIDTH),
                    (tx1 + RAIL_WIDTH, ty1 + RAIL_WIDTH),
                ],
                RAIL.filled(),
            )))?;
        }
        let mut cloth: Vec<(f64, f64)> = Vec::new();
        for c in &t.cushions {
            for q in [c.p1, c.p2] {
                let q = (q[0], q[1]);
                if q.0.is_finite() && q.1.is_finite() && cloth.last() != Some(&q) {
                    cloth.push(q);
                }
            }
        }
        if cloth.len() < 3 && t.length.is_finite() && t.width.is_finite() {
            cloth = vec![
                (0.0, 0.0),
                (t.length, 0.0),
                (t.length, t.width),
                (0.0, t.width),
            ];
        }
        if cloth.len() >= 3 {
            chart.draw_series(std::iter::once(Polygon::new(cloth, CLOTH.filled())))?;
        }
        for k in &t.pockets {
            let c = (k.center[0], k.center[1]);
            if c.0.is_finite() && c.1.is_finite() && k.radius.is_finite() && k.radius > 0.0 {
                chart.draw_series(std::iter::once(Polygon::new(
                    circle(c, k.radius),
                    POCKET.filled(),
                )))?;
            }
        }
        let cushion_w = to_px(0.012).clamp(3, 12) as u32;
        for c in &t.cushions {
            let pts = vec![(c.p1[0], c.p1[1]), (c.p2[0], c.p2[1])];
            if pts.iter().all(|q| q.0.is_finite() && q.1.is_finite()) {
                chart.draw_series(std::iter::once(PathElement::new(
                    pts,
                    CUSHION.stroke_width(cushion_w),
                )))?;
            }
        }

        // Paths: reference as wide pale bands, discrete dashed on top.
        let colours = self.ball_colours();
        let colour_of = |id: &str| {
            colours
                .iter()
                .find(|(i, _)| i == id)
                .map(|(_, c)| *c)
                .unwrap_or(INK)
        };
        let pixels = |b: &BallPath| -> Vec<(i32, i32)> {
            simplify(
                finite_points(b).map(|q| chart.backend_coord(&q)).collect(),
                3,
            )
        };
        for b in &p.reference {
            let c = tint(colour_of(&b.id), 0.45);
            let w = 7;
            let pieces = split_at_turns(pixels(b));
            for piece in &pieces {
                root.draw(&PathElement::new(piece.clone(), c.stroke_width(w)))?;
            }
            // Round joins where the band was split.
            for piece in pieces.iter().skip(1) {
                root.draw(&Circle::new(piece[0], w as i32 / 2, c.filled()))?;
            }
        }
        for b in &p.discrete {
            let pts = pixels(b);
            if pts.len() >= 2 {
                let c = darker_mix(colour_of(&b.id));
                root.draw(&DashedPathElement::new(
                    pts,
                    DASH.0,
                    DASH.1,
                    c.stroke_width(2),
                ))?;
            }
        }

        // Events by kind: discrete hollow first, the event engine's filled on top.
        if let Some(m) = self.marks {
            let finite = |e: &&EventMark| e.at.0.is_finite() && e.at.1.is_finite();
            for e in m.discrete.iter().filter(finite) {
                let at = chart.backend_coord(&e.at);
                draw_hollow_marker(root, at, kind_marker(e.kind).0, MARK_R, MARK_DISCRETE)?;
            }
            for e in m.reference.iter().filter(finite) {
                let at = chart.backend_coord(&e.at);
                let shape = kind_marker(e.kind).0;
                // A white halo keeps the marker visible on dark ground (pockets, dark paths).
                draw_marker(root, at, shape, MARK_R + 1, WHITE)?;
                draw_marker(root, at, shape, MARK_R - 1, MARK_REFERENCE)?;
            }
        }

        // Balls: start rings, final discs (reference) and dashed rings (discrete), labels.
        if let Some(r) = r {
            for b in &p.reference {
                if let Some(start) = finite_points(b).next() {
                    let c = colour_of(&b.id);
                    chart.draw_series(std::iter::once(PathElement::new(
                        circle(start, r),
                        c.stroke_width(3),
                    )))?;
                }
            }
            for b in &p.reference {
                if let Some(end) = finite_points(b).last() {
                    let c = colour_of(&b.id);
                    chart.draw_series(std::iter::once(Polygon::new(circle(end, r), c.filled())))?;
                    chart.draw_series(std::iter::once(PathElement::new(
                        circle(end, r),
                        darker(c).stroke_width(2),
                    )))?;
                }
            }
            for b in &p.discrete {
                if let Some(end) = finite_points(b).last() {
                    let c = darker_mix(colour_of(&b.id));
                    chart.draw_series(std::iter::once(DashedPathElement::new(
                        circle(end, r),
                        5,
                        4,
                        c.stroke_width(3),
                    )))?;
                }
            }
        }
        let r_px = r.map(to_px).unwrap_or(4);
        let (plot_x, plot_y) = chart.plotting_area().get_pixel_range();
        for b in p.reference.iter().chain(p.discrete.iter().filter(|d| {
            // Label discrete-only balls too.
            !p.reference.iter().any(|b| b.id == d.id)
        })) {
            let Some(end) = finite_points(b).last() else {
                continue;
            };
            let label = if b.pocketed {
                format!("{} (pocketed)", b.id)
            } else {
                b.id.clone()
            };
            draw_ball_label(
                root,
                chart.backend_coord(&end),
                r_px,
                &label,
                (&plot_x, &plot_y),
            )?;
        }
        if p.reference
            .iter()
            .chain(&p.discrete)
            .all(|b| finite_points(b).next().is_none())
        {
            let area = chart.plotting_area().strip_coord_spec();
            let (w, h) = area.dim_in_pixel();
            area.draw_text(
                "no ball paths",
                &text_at(AXIS_DESC_SIZE, HPos::Center, VPos::Center).color(&WHITE),
                (w as i32 / 2, h as i32 / 2),
            )?;
        }

        draw_legend_strip(&legend_area, &p.discrete_label, with_marks)?;
        Ok(())
    }
}

/// Drops points closer than `min_px` to the last kept one (keeping the last point), so segment
/// directions are meaningful and no segment has zero length.
fn simplify(px: Vec<(i32, i32)>, min_px: i32) -> Vec<(i32, i32)> {
    let mut out: Vec<(i32, i32)> = Vec::with_capacity(px.len());
    let n = px.len();
    for (i, q) in px.into_iter().enumerate() {
        match out.last() {
            None => out.push(q),
            Some(&l) => {
                let (dx, dy) = (q.0 - l.0, q.1 - l.1);
                if dx * dx + dy * dy >= min_px * min_px || (i + 1 == n && q != l) {
                    out.push(q);
                }
            }
        }
    }
    out
}

/// Splits a pixel polyline where it turns by more than 80 degrees (wide polylines get miter
/// spikes at sharp turns in the bitmap backend). Pieces share their end points; pieces with
/// fewer than two points are dropped.
fn split_at_turns(px: Vec<(i32, i32)>) -> Vec<Vec<(i32, i32)>> {
    let mut pieces: Vec<Vec<(i32, i32)>> = Vec::new();
    let mut cur: Vec<(i32, i32)> = Vec::new();
    let cos_limit = 80f64.to_radians().cos();
    for q in px {
        if cur.len() >= 2 {
            let (a, b) = (cur[cur.len() - 2], cur[cur.len() - 1]);
            let (ux, uy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
            let (vx, vy) = (f64::from(q.0 - b.0), f64::from(q.1 - b.1));
            let norm = ux.hypot(uy) * vx.hypot(vy);
            if norm > 0.0 && (ux * vx + uy * vy) / norm < cos_limit {
                pieces.push(std::mem::take(&mut cur));
                cur.push(b);
            }
        }
        cur.push(q);
    }
    pieces.push(cur);
    pieces.retain(|p| p.len() >= 2);
    pieces
}

/// Dashed discrete lines a little darker than the ball colour, to stand out on the pale band.
fn darker_mix(c: RGBColor) -> RGBColor {
    let f = |v: u8| (f64::from(v) * 0.8).round() as u8;
    RGBColor(f(c.0), f(c.1), f(c.2))
}

/// Size of ball labels.
const BALL_LABEL_SIZE: f64 = 24.0;

/// Writes `label` on a white box up and to the right of a ball at pixel `at` (to the left /
/// below when it would leave the plotting area).
fn draw_ball_label<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    r_px: i32,
    label: &str,
    (px, py): (&Range<i32>, &Range<i32>),
) -> Result<(), PlotError> {
    let w = text_width(root, label, BALL_LABEL_SIZE);
    let h = (BALL_LABEL_SIZE * 0.85) as i32;
    let pad = 4;
    let gap = (r_px as f64 * 0.7) as i32 + 2;
    let mut x = at.0 + gap;
    let mut y = at.1 - gap - h - 2 * pad;
    if x + w + 2 * pad > px.end {
        x = at.0 - gap - w - 2 * pad;
    }
    if y < py.start {
        y = at.1 + gap;
    }
    root.draw(&Rectangle::new(
        [(x, y), (x + w + 2 * pad, y + h + 2 * pad)],
        WHITE.mix(0.85).filled(),
    ))?;
    root.draw_text(
        label,
        &text_at(BALL_LABEL_SIZE, HPos::Left, VPos::Center),
        (x + pad, y + pad + h / 2),
    )?;
    Ok(())
}

/// Legend strip geometry (px): sample length, sample-label gap, spacing between items, row
/// height.
const STRIP_SAMPLE: i32 = 44;
const STRIP_GAP: i32 = 10;
const STRIP_SPACING: i32 = 26;
const STRIP_ROW: i32 = 36;

/// The legend strip's items: label and symbol kind (0-4 paths and balls, 5-9 event kinds, 10
/// the engines' marker styles).
fn strip_items(discrete_label: &str, with_marks: bool) -> Vec<(String, usize)> {
    let mut items: Vec<(String, usize)> = vec![
        ("event engine".into(), 0),
        (discrete_label.into(), 1),
        ("start".into(), 2),
        ("end (event engine)".into(), 3),
        ("end (discrete)".into(), 4),
    ];
    if with_marks {
        for (i, kind) in [
            EventKind::BallBall,
            EventKind::BallLinearCushion,
            EventKind::BallPocket,
            EventKind::SlidingRolling,
            EventKind::RollingStationary,
        ]
        .into_iter()
        .enumerate()
        {
            items.push((kind_marker(kind).1.into(), 5 + i));
        }
        items.push((
            "events: filled = event engine, hollow = discrete".into(),
            10,
        ));
    }
    items
}

/// Splits the strip's items into centred rows no wider than `width`: per row, the item indices
/// and the row's width.
fn strip_rows<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    discrete_label: &str,
    with_marks: bool,
    width: i32,
) -> Vec<(Vec<usize>, i32)> {
    let mut rows: Vec<(Vec<usize>, i32)> = Vec::new();
    for (i, (label, _)) in strip_items(discrete_label, with_marks).iter().enumerate() {
        let w = STRIP_SAMPLE + STRIP_GAP + text_width(area, label, LEGEND_SIZE);
        match rows.last_mut() {
            Some((items, row_w)) if *row_w + STRIP_SPACING + w <= width => {
                items.push(i);
                *row_w += STRIP_SPACING + w;
            }
            _ => rows.push((vec![i], w)),
        }
    }
    rows
}

/// Height (px) of the legend strip for an image `width` px wide.
fn strip_height<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    discrete_label: &str,
    with_marks: bool,
    width: i32,
) -> i32 {
    strip_rows(root, discrete_label, with_marks, width - 16).len() as i32 * STRIP_ROW + 12
}

/// The legend strip: path styles and ball symbols, in neutral grey.
fn draw_legend_strip<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    discrete_label: &str,
    with_marks: bool,
) -> Result<(), PlotError> {
    let (w, _) = area.dim_in_pixel();
    let w = w as i32;
    let grey = RGBColor(90, 90, 90);
    let r = 11;
    let items = strip_items(discrete_label, with_marks);
    for (row, (indices, row_w)) in strip_rows(area, discrete_label, with_marks, w - 16)
        .into_iter()
        .enumerate()
    {
        let y = STRIP_ROW / 2 + row as i32 * STRIP_ROW;
        let mut x = ((w - row_w) / 2).max(8);
        for i in indices {
            let (label, kind) = (&items[i].0, items[i].1);
            let label = fit_text(area, label, LEGEND_SIZE, w - 16 - STRIP_SAMPLE - STRIP_GAP);
            let cx = x + STRIP_SAMPLE / 2;
            match kind {
                0 => draw_line(
                    area,
                    (x, y),
                    (x + STRIP_SAMPLE, y),
                    LineKind::Solid(7),
                    tint(grey, 0.45),
                )?,
                1 => draw_line(
                    area,
                    (x, y),
                    (x + STRIP_SAMPLE, y),
                    LineKind::Dashed(2),
                    grey,
                )?,
                2 => area.draw(&Circle::new((cx, y), r, grey.stroke_width(3)))?,
                3 => {
                    area.draw(&Circle::new((cx, y), r, grey.filled()))?;
                    area.draw(&Circle::new((cx, y), r, darker(grey).stroke_width(2)))?;
                }
                5..=9 => {
                    let kind = [
                        EventKind::BallBall,
                        EventKind::BallLinearCushion,
                        EventKind::BallPocket,
                        EventKind::SlidingRolling,
                        EventKind::RollingStationary,
                    ][kind - 5];
                    draw_marker(
                        area,
                        (cx, y),
                        kind_marker(kind).0,
                        MARK_R - 1,
                        MARK_REFERENCE,
                    )?;
                }
                10 => {
                    draw_marker(
                        area,
                        (cx - 10, y),
                        Marker::Diamond,
                        MARK_R - 1,
                        MARK_REFERENCE,
                    )?;
                    draw_hollow_marker(area, (cx + 12, y), Marker::Diamond, MARK_R, MARK_DISCRETE)?;
                }
                _ => {
                    let ring: Vec<(i32, i32)> = (0..=32)
                        .map(|k| {
                            let a = std::f64::consts::TAU * f64::from(k) / 32.0;
                            let (dx, dy) = (f64::from(r) * a.cos(), f64::from(r) * a.sin());
                            (cx + dx.round() as i32, y + dy.round() as i32)
                        })
                        .collect();
                    area.draw(&DashedPathElement::new(ring, 5, 4, grey.stroke_width(3)))?;
                }
            }
            area.draw_text(
                &label,
                &text_at(LEGEND_SIZE, HPos::Left, VPos::Center),
                (x + STRIP_SAMPLE + STRIP_GAP, y),
            )?;
            x += STRIP_SAMPLE + STRIP_GAP + text_width(area, &label, LEGEND_SIZE) + STRIP_SPACING;
        }
    }
    Ok(())
}
