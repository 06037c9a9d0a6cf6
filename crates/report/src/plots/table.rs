//! Top-down picture of one shot: the table and both engines' ball paths.

mod axes;
mod legend;
mod marks;

use std::ops::Range;
use std::path::Path;

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use pool_harness::{BallPath, EventMark, ShotPaths};
use pool_physics::Table;

use super::common::{
    darker, draw_marker, palette, text, text_at, text_width, titled, AXIS_DESC_SIZE, DASH, INK,
    TICK_SIZE,
};
use super::{render, Figure, PlotError};
// The plots' tests check it too.
pub(super) use axes::equal_aspect;
use axes::{table_bounds, tick_step, Bounds, MetreAxis};
use legend::{draw_legend_strip, strip_height};
use marks::{draw_hollow_marker, kind_marker, MARK_DISCRETE, MARK_R, MARK_REFERENCE};

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
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
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
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn shot_diagram(p: &ShotPaths, marks: &ShotMarks, stem: &Path) -> Result<(), PlotError> {
    render(
        stem,
        &TableFigure {
            p,
            marks: Some(marks),
        },
    )
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

/// The shot's picture: paths, and event marks for the shot diagram.
struct TableFigure<'a> {
    p: &'a ShotPaths,
    marks: Option<&'a ShotMarks>,
}

/// A bounding box (x0, x1, y0, y1) in metres.
type Extent = (f64, f64, f64, f64);

/// The table's chart: metre axes with equal metres per pixel.
type MetreChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<MetreAxis, MetreAxis>>;

/// Finite points of a path.
fn finite_points(b: &BallPath) -> impl Iterator<Item = (f64, f64)> + '_ {
    b.points
        .iter()
        .copied()
        .filter(|(x, y)| x.is_finite() && y.is_finite())
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

/// The colour of ball `id` in `colours` ([`TableFigure::ball_colours`]; ink if it has none).
fn colour_of(colours: &[(String, RGBColor)], id: &str) -> RGBColor {
    colours
        .iter()
        .find(|(i, _)| i == id)
        .map(|(_, c)| *c)
        .unwrap_or(INK)
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

    /// The ball radius (m), if it can be drawn.
    fn radius(&self) -> Option<f64> {
        Some(self.p.radius).filter(|r| r.is_finite() && *r > 0.0)
    }

    /// What the chart must show (x0, x1, y0, y1 in metres: the table with its rail and every
    /// ball at its path's points, plus a margin), and the table's own bounds if it has any.
    fn view(&self) -> (Extent, Option<Extent>) {
        let p = self.p;
        let mut view = Bounds::default();
        let table = table_bounds(&p.table);
        if let Some((x0, x1, y0, y1)) = table {
            view.add(x0 - RAIL_WIDTH, y0 - RAIL_WIDTH);
            view.add(x1 + RAIL_WIDTH, y1 + RAIL_WIDTH);
        }
        let r = self.radius();
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
        (bounds, table)
    }

    /// Paths: reference as wide pale bands, discrete dashed on top.
    fn draw_paths<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        chart: &MetreChart<DB>,
        colours: &[(String, RGBColor)],
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let p = self.p;
        let pixels = |b: &BallPath| -> Vec<(i32, i32)> {
            simplify(
                finite_points(b).map(|q| chart.backend_coord(&q)).collect(),
                3,
            )
        };
        for b in &p.reference {
            let c = tint(colour_of(colours, &b.id), 0.45);
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
                let c = darker_mix(colour_of(colours, &b.id));
                root.draw(&DashedPathElement::new(
                    pts,
                    DASH.0,
                    DASH.1,
                    c.stroke_width(2),
                ))?;
            }
        }
        Ok(())
    }

    /// Balls, each of its own radius (its path's, or `r` (m) when that cannot be drawn): start
    /// rings, final discs (reference) and dashed rings (discrete).
    fn draw_balls<DB: DrawingBackend>(
        &self,
        chart: &mut MetreChart<DB>,
        r: f64,
        colours: &[(String, RGBColor)],
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let p = self.p;
        let own = |b: &BallPath| {
            Some(b.radius)
                .filter(|x| x.is_finite() && *x > 0.0)
                .unwrap_or(r)
        };
        for b in &p.reference {
            if let Some(start) = finite_points(b).next() {
                let c = colour_of(colours, &b.id);
                chart.draw_series(std::iter::once(PathElement::new(
                    circle(start, own(b)),
                    c.stroke_width(3),
                )))?;
            }
        }
        for b in &p.reference {
            if let Some(end) = finite_points(b).last() {
                let c = colour_of(colours, &b.id);
                chart.draw_series(std::iter::once(Polygon::new(
                    circle(end, own(b)),
                    c.filled(),
                )))?;
                chart.draw_series(std::iter::once(PathElement::new(
                    circle(end, own(b)),
                    darker(c).stroke_width(2),
                )))?;
            }
        }
        for b in &p.discrete {
            if let Some(end) = finite_points(b).last() {
                let c = darker_mix(colour_of(colours, &b.id));
                chart.draw_series(std::iter::once(DashedPathElement::new(
                    circle(end, own(b)),
                    5,
                    4,
                    c.stroke_width(3),
                )))?;
            }
        }
        Ok(())
    }

    /// Labels at every ball's final position (balls `r_px` px in radius), or a note when no
    /// ball has a path.
    fn draw_labels<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        chart: &MetreChart<DB>,
        r_px: i32,
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let p = self.p;
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
        Ok(())
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

        let (bounds, table) = self.view();
        let (mut chart, m_per_px) = metre_chart(&table_area, bounds)?;
        let to_px = |m: f64| (m / m_per_px).round() as i32;
        draw_table(
            &mut chart,
            &p.table,
            table,
            to_px(0.012).clamp(3, 12) as u32,
        )?;
        let colours = self.ball_colours();
        self.draw_paths(root, &chart, &colours)?;
        if let Some(m) = self.marks {
            draw_events(root, &chart, m)?;
        }
        let r = self.radius();
        if let Some(r) = r {
            self.draw_balls(&mut chart, r, &colours)?;
        }
        self.draw_labels(root, &chart, r.map(to_px).unwrap_or(4))?;

        draw_legend_strip(&legend_area, &p.discrete_label, with_marks)?;
        Ok(())
    }
}

/// The chart on `area` showing `bounds` (x0, x1, y0, y1 in metres) with equal metres per pixel
/// on both axes and the same tick step on both, its axes drawn; and its metres per pixel.
fn metre_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    bounds: Extent,
) -> Result<(MetreChart<'a, DB>, f64), PlotError>
where
    DB::ErrorType: 'static,
{
    let builder = || {
        let mut b = ChartBuilder::on(area);
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
    Ok((chart, m_per_px))
}

/// The table at true size: rail (around `bounds`, the table's bounding box, when it has one),
/// cloth, pockets, and cushions `cushion_w` px wide.
fn draw_table<DB: DrawingBackend>(
    chart: &mut MetreChart<DB>,
    t: &Table,
    bounds: Option<Extent>,
    cushion_w: u32,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
    if let Some((tx0, tx1, ty0, ty1)) = bounds {
        chart.draw_series(std::iter::once(Rectangle::new(
            [
                (tx0 - RAIL_WIDTH, ty0 - RAIL_WIDTH),
                (tx1 + RAIL_WIDTH, ty1 + RAIL_WIDTH),
            ],
            RAIL.filled(),
        )))?;
    }
    let mut cloth: Vec<(f64, f64)> = Vec::new();
    for c in super::outline::boundary_order(t)
        .into_iter()
        .map(|k| &t.cushions[k])
    {
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
        let shape = super::outline::pocket_shape(k);
        if shape.len() >= 3 {
            chart.draw_series(std::iter::once(Polygon::new(shape, POCKET.filled())))?;
        }
    }
    for c in &t.cushions {
        let pts = vec![(c.p1[0], c.p1[1]), (c.p2[0], c.p2[1])];
        if pts.iter().all(|q| q.0.is_finite() && q.1.is_finite()) {
            chart.draw_series(std::iter::once(PathElement::new(
                pts,
                CUSHION.stroke_width(cushion_w),
            )))?;
        }
    }
    // Circular cushions (rounded jaws): the whole circle is cushion.
    for a in &t.circular_cushions {
        let c = (a.center[0], a.center[1]);
        if c.0.is_finite() && c.1.is_finite() && a.radius.is_finite() && a.radius > 0.0 {
            chart.draw_series(std::iter::once(Polygon::new(
                circle(c, a.radius),
                CUSHION.filled(),
            )))?;
        }
    }
    Ok(())
}

/// Events by kind: discrete hollow first, the event engine's filled on top.
fn draw_events<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &MetreChart<DB>,
    m: &ShotMarks,
) -> Result<(), PlotError>
where
    DB::ErrorType: 'static,
{
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
    Ok(())
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
