//! One animation frame of a shot, seen from above: the table, every ball in its pool colour with
//! a marker on its surface that turns with the ball (seed 001), the clock and each engine's
//! latest event. Frames go to an animated GIF or numbered PNGs (`encode`); how each ball looks
//! is `looks`.

mod encode;
mod looks;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use pool_harness::BallFrame;
use pool_physics::{MotionState, Table, Vec3};

use super::common::{fit_text, text_at, text_width, INK};
use super::PlotError;
pub use encode::{write_gif, write_png};
pub use looks::{ball_looks, BallLook};

/// Cloth colour (a tournament green, dark enough for the white and yellow balls to stand out).
const CLOTH: RGBColor = RGBColor(38, 122, 78);
/// Rail (wood) colour.
const RAIL: RGBColor = RGBColor(96, 62, 38);
/// Cushion rubber colour.
const CUSHION: RGBColor = RGBColor(22, 84, 52);
/// Pocket colour.
const POCKET: RGBColor = RGBColor(12, 12, 12);
/// Background around the table.
const BACKGROUND: RGBColor = RGBColor(245, 245, 242);
/// Width of the rail drawn around the cushions (m).
const RAIL_WIDTH: f64 = 0.06;
/// Height of the title bar (px).
const TITLE_H: u32 = 40;
/// Height of each panel's header (px).
const HEADER_H: u32 = 30;
/// Title text size (plotters units; about 0.8 px of em per unit).
const TITLE_SIZE: f64 = 26.0;
/// Panel header text size.
const HEADER_SIZE: f64 = 20.0;

/// Angular radius of the marker circle on the ball (rad): about a real ball's number circle.
const MARKER_ANGLE: f64 = 0.6;

/// One engine's view in a frame.
#[derive(Clone, Debug)]
pub struct Panel {
    /// Engine label, e.g. `event engine` or `discrete exact dt=1e-3 s`.
    pub label: String,
    /// Latest event, already worded (e.g. `0.503 s ball_ball cue, 1`), or empty.
    pub event: String,
    /// Every ball, in set-up order.
    pub balls: Vec<BallFrame>,
}

/// What one frame shows: the time, and one panel per engine (side by side as stacked panels),
/// or one panel with the second engine's balls as ghost rings.
#[derive(Clone, Debug)]
pub struct FrameContent {
    /// Simulated time (s).
    pub time: f64,
    /// Panels, top to bottom.
    pub panels: Vec<Panel>,
    /// Ghosts drawn over the first panel: label, latest event, balls.
    pub ghost: Option<Panel>,
}

/// Everything that stays the same from frame to frame.
#[derive(Clone, Debug)]
pub struct Scene<'a> {
    /// Shot name (title).
    pub shot: &'a str,
    /// Table geometry.
    pub table: &'a Table,
    /// Each ball's radius (m), in set-up order.
    pub radii: Vec<f64>,
    /// One look per ball, in set-up order.
    pub looks: Vec<BallLook>,
    /// Frame width (px).
    pub width: u32,
    /// Panels per frame (1 or 2).
    pub panels: u32,
    /// A second engine drawn as rings over the first panel (its header takes a second line).
    pub ghost: bool,
}

/// Bounding box (x0, x1, y0, y1) of the table and its rail (m).
fn view_bounds(t: &Table) -> (f64, f64, f64, f64) {
    let mut b = (0.0f64, t.length, 0.0f64, t.width);
    let mut add = |x: f64, y: f64| {
        if x.is_finite() && y.is_finite() {
            b = (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y));
        }
    };
    for c in &t.cushions {
        add(c.p1[0], c.p1[1]);
        add(c.p2[0], c.p2[1]);
    }
    for (c, r) in (t.pockets.iter().map(|k| (k.center, k.radius)))
        .chain(t.circular_cushions.iter().map(|a| (a.center, a.radius)))
    {
        add(c[0] - r, c[1] - r);
        add(c[0] + r, c[1] + r);
    }
    (
        b.0 - RAIL_WIDTH,
        b.1 + RAIL_WIDTH,
        b.2 - RAIL_WIDTH,
        b.3 + RAIL_WIDTH,
    )
}

/// Metres to pixels within one panel's table area (y up on the table, down on screen).
#[derive(Clone, Copy, Debug)]
struct ToPx {
    x0: f64,
    y1: f64,
    scale: f64,
    top: i32,
}

impl ToPx {
    fn pt(&self, x: f64, y: f64) -> (i32, i32) {
        (
            ((x - self.x0) * self.scale).round() as i32,
            self.top + ((self.y1 - y) * self.scale).round() as i32,
        )
    }
    fn len(&self, m: f64) -> f64 {
        m * self.scale
    }
}

impl Scene<'_> {
    /// Pixels per metre and the height (px) of one panel's table area.
    fn scale(&self) -> (f64, u32) {
        let (x0, x1, y0, y1) = view_bounds(self.table);
        let scale = f64::from(self.width) / (x1 - x0);
        (scale, ((y1 - y0) * scale).ceil() as u32)
    }

    /// Height (px) of a panel's header: one line per engine shown in it.
    fn header_h(&self) -> u32 {
        HEADER_H * if self.ghost { 2 } else { 1 }
    }

    /// Frame size (px): title bar plus, per panel, a header and the table.
    pub fn size(&self) -> (u32, u32) {
        let (_, table_h) = self.scale();
        // Saturating: a table far taller than wide must not wrap to a small frame; the caller
        // refuses frames above its limits.
        (
            self.width,
            TITLE_H.saturating_add(
                self.panels
                    .max(1)
                    .saturating_mul(self.header_h().saturating_add(table_h)),
            ),
        )
    }

    /// Colour key for balls without a number (ids such as `cue`, `object`, `b7`), right-aligned
    /// in the title bar, when it fits beside the title.
    fn draw_key<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        title_w: i32,
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let keyed: Vec<&BallLook> = self.looks.iter().filter(|l| l.number.is_none()).collect();
        if keyed.is_empty()
            || self
                .looks
                .iter()
                .all(|l| l.number.is_some() || l.id == "cue")
        {
            return Ok(());
        }
        let size = HEADER_SIZE;
        let dot = 7;
        let gap = 14;
        let widths: Vec<i32> = keyed
            .iter()
            .map(|l| 2 * dot + 6 + text_width(root, &l.id, size))
            .collect();
        let total: i32 = widths.iter().sum::<i32>() + gap * (widths.len() as i32 - 1);
        let w = self.width as i32;
        if total > w - title_w - 40 {
            return Ok(());
        }
        let y = TITLE_H as i32 / 2;
        let mut x = w - 12 - total;
        for (l, lw) in keyed.iter().zip(widths) {
            root.draw(&Circle::new((x + dot, y), dot as u32, l.colour.filled()))?;
            root.draw(&Circle::new((x + dot, y), dot as u32, INK.stroke_width(1)))?;
            root.draw_text(
                &l.id,
                &text_at(size, HPos::Left, VPos::Center),
                (x + 2 * dot + 6, y),
            )?;
            x += lw + gap;
        }
        Ok(())
    }

    /// Draws one frame on `root` (of [`Scene::size`]).
    fn draw<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        f: &FrameContent,
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        root.fill(&BACKGROUND)?;
        let w = self.width as i32;
        let title = format!("{}    t = {:6.3} s", self.shot, f.time);
        root.draw_text(
            &title,
            &text_at(TITLE_SIZE, HPos::Left, VPos::Center),
            (12, TITLE_H as i32 / 2),
        )?;
        self.draw_key(root, 12 + text_width(root, &title, TITLE_SIZE))?;
        let (scale, table_h) = self.scale();
        let (x0, _, _, y1) = view_bounds(self.table);
        let header_h = self.header_h();
        for (k, panel) in f.panels.iter().enumerate() {
            let top = (TITLE_H + k as u32 * (header_h + table_h)) as i32;
            let mut lines = vec![format!("{}: {}", panel.label, panel.event)];
            if let (0, Some(g)) = (k, &f.ghost) {
                lines.push(format!("rings: {}: {}", g.label, g.event));
            }
            for (j, line) in lines.iter().enumerate() {
                root.draw_text(
                    &fit_text(root, line, HEADER_SIZE, w - 24),
                    &text_at(HEADER_SIZE, HPos::Left, VPos::Center),
                    (12, top + (HEADER_H as i32) * j as i32 + HEADER_H as i32 / 2),
                )?;
            }
            let to = ToPx {
                x0,
                y1,
                scale,
                top: top + header_h as i32,
            };
            self.draw_table(root, &to)?;
            for ((look, b), &r) in self.looks.iter().zip(&panel.balls).zip(&self.radii) {
                self.draw_ball(root, &to, look, b, r)?;
            }
            if k == 0 {
                if let Some(g) = &f.ghost {
                    for ((look, b), &r) in self.looks.iter().zip(&g.balls).zip(&self.radii) {
                        self.draw_ghost(root, &to, look, b, r)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn draw_table<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        to: &ToPx,
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let t = self.table;
        let (bx0, bx1, by0, by1) = view_bounds(t);
        root.draw(&Rectangle::new(
            [to.pt(bx0, by1), to.pt(bx1, by0)],
            RAIL.filled(),
        ))?;
        // Cloth: the polygon through the cushion segments' end points (the playing area when
        // the table has too few segments).
        let mut cloth: Vec<(i32, i32)> = Vec::new();
        for c in super::outline::boundary_order(t)
            .into_iter()
            .map(|k| &t.cushions[k])
        {
            for q in [c.p1, c.p2] {
                let p = to.pt(q[0], q[1]);
                if cloth.last() != Some(&p) {
                    cloth.push(p);
                }
            }
        }
        if cloth.len() < 3 {
            cloth = vec![
                to.pt(0.0, 0.0),
                to.pt(t.length, 0.0),
                to.pt(t.length, t.width),
                to.pt(0.0, t.width),
            ];
        }
        root.draw(&Polygon::new(cloth, CLOTH.filled()))?;
        for k in &t.pockets {
            if k.capture_line.is_none() {
                let r = to.len(k.radius).round().max(1.0) as u32;
                root.draw(&Circle::new(
                    to.pt(k.center[0], k.center[1]),
                    r,
                    POCKET.filled(),
                ))?;
                continue;
            }
            let shape: Vec<_> = (super::outline::pocket_shape(k).into_iter())
                .map(|(x, y)| to.pt(x, y))
                .collect();
            if shape.len() >= 3 {
                root.draw(&Polygon::new(shape, POCKET.filled()))?;
            }
        }
        let cushion_w = to.len(0.01).round().clamp(2.0, 10.0) as u32;
        for c in &t.cushions {
            root.draw(&PathElement::new(
                vec![to.pt(c.p1[0], c.p1[1]), to.pt(c.p2[0], c.p2[1])],
                CUSHION.stroke_width(cushion_w),
            ))?;
        }
        // Circular cushions (rounded jaws): the whole circle is cushion.
        for a in &t.circular_cushions {
            let r = to.len(a.radius).round().max(1.0) as u32;
            root.draw(&Circle::new(
                to.pt(a.center[0], a.center[1]),
                r,
                CUSHION.filled(),
            ))?;
        }
        Ok(())
    }

    /// A ball: body (stripes: white with a coloured band), outline, and the marker circle where
    /// the rotated marker point projects: an ellipse squashed by cos(theta) toward the centre
    /// as it turns away from the viewer (seed 001), drawn faintly when on the far side.
    fn draw_ball<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        to: &ToPx,
        look: &BallLook,
        b: &BallFrame,
        radius: f64,
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        if b.state.motion == MotionState::Pocketed {
            return Ok(());
        }
        let c = to.pt(b.state.r.x, b.state.r.y);
        let r = to.len(radius);
        let r_px = r.round().max(2.0) as u32;
        if look.stripe {
            root.draw(&Circle::new(c, r_px, WHITE.filled()))?;
            root.draw(&Circle::new(
                c,
                (r * 0.72).round() as u32,
                look.colour.filled(),
            ))?;
        } else {
            root.draw(&Circle::new(c, r_px, look.colour.filled()))?;
        }
        root.draw(&Circle::new(c, r_px, RGBColor(20, 20, 20).stroke_width(1)))?;

        let m = b.orientation * look.marker_point;
        let (near, colour) = if m.z >= 0.0 {
            (true, look.marker)
        } else {
            (false, blend(look.marker, look.colour, 0.7))
        };
        let pts = marker_outline(c, r, &m);
        root.draw(&Polygon::new(pts, colour.filled()))?;
        if near && m.z > 0.55 && r >= 9.0 {
            if let Some(n) = &look.number {
                let centre = (
                    c.0 + (m.x * r).round() as i32,
                    c.1 - (m.y * r).round() as i32,
                );
                // Text height about the circle's diameter (plotters size ~ 1.2 x em).
                let size = (2.0 * r * MARKER_ANGLE.sin() * 1.15).clamp(8.0, 48.0);
                root.draw_text(
                    n,
                    &text_at(size, HPos::Center, VPos::Center).color(&INK),
                    centre,
                )?;
            }
        }
        Ok(())
    }

    /// The second engine's ball in the ghost layout: a ring of the ball's colour.
    fn draw_ghost<DB: DrawingBackend>(
        &self,
        root: &DrawingArea<DB, Shift>,
        to: &ToPx,
        look: &BallLook,
        b: &BallFrame,
        radius: f64,
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        if b.state.motion == MotionState::Pocketed {
            return Ok(());
        }
        let c = to.pt(b.state.r.x, b.state.r.y);
        let r = to.len(radius).round().max(2.0) as u32;
        root.draw(&Circle::new(c, r + 3, INK.stroke_width(1)))?;
        root.draw(&Circle::new(c, r + 1, look.colour.stroke_width(3)))?;
        Ok(())
    }
}

/// `a` mixed with `b`: `t` = 0 gives `a`, 1 gives `b`.
fn blend(a: RGBColor, b: RGBColor, t: f64) -> RGBColor {
    let f = |x: u8, y: u8| (f64::from(x) * (1.0 - t) + f64::from(y) * t).round() as u8;
    RGBColor(f(a.0, b.0), f(a.1, b.1), f(a.2, b.2))
}

/// Outline (px) of the marker circle whose centre direction on the ball is the unit vector `m`
/// (table frame), for a ball drawn at pixel `c` with radius `r` px: the spherical cap of
/// angular radius [`MARKER_ANGLE`] around `m`, each boundary point projected straight down
/// (exact orthographic projection of the cap's rim, which is the ellipse of seed 001 when the
/// cap is small). Every point of the sphere projects inside the ball's disc, so the outline
/// never leaves it.
fn marker_outline(c: (i32, i32), r: f64, m: &Vec3) -> Vec<(i32, i32)> {
    // Two unit vectors perpendicular to m.
    let helper = if m.z.abs() < 0.9 {
        Vec3::z()
    } else {
        Vec3::x()
    };
    let e1 = m.cross(&helper).normalize();
    let e2 = m.cross(&e1);
    let (s, co) = MARKER_ANGLE.sin_cos();
    const N: usize = 20;
    (0..N)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / N as f64;
            let p = m * co + (e1 * a.cos() + e2 * a.sin()) * s;
            let (x, y) = (p.x * r, p.y * r);
            (c.0 + x.round() as i32, c.1 - y.round() as i32)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marker_squashes_toward_the_centre_as_it_turns_away() {
        let r = 100.0;
        let width = |m: Vec3| {
            let pts = marker_outline((0, 0), r, &m);
            let xs = pts.iter().map(|p| p.0);
            let ys = pts.iter().map(|p| p.1);
            (
                xs.clone().max().unwrap() - xs.min().unwrap(),
                ys.clone().max().unwrap() - ys.min().unwrap(),
            )
        };
        // On top: a circle of diameter 2 R sin(MARKER_ANGLE).
        let (wx, wy) = width(Vec3::z());
        let d = 2.0 * r * MARKER_ANGLE.sin();
        assert!((f64::from(wx) - d).abs() <= 2.0 && (f64::from(wy) - d).abs() <= 2.0);
        // Turned 60 degrees toward +x: the radial (x) extent shrinks to about cos 60 of it.
        let a = 60f64.to_radians();
        let (wx, wy) = width(Vec3::new(a.sin(), 0.0, a.cos()));
        assert!((f64::from(wy) - d).abs() <= 2.0);
        assert!(
            (f64::from(wx) - d * a.cos()).abs() <= 0.1 * d,
            "{wx} vs {}",
            d * a.cos()
        );
    }
}
