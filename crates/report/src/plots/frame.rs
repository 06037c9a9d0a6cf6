//! One animation frame of a shot, seen from above: the table, every ball in its pool colour with
//! a marker on its surface that turns with the ball (seed 001), the clock and each engine's
//! latest event. Frames go to an animated GIF (plotters' GIF backend) or numbered PNGs.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use pool_harness::BallFrame;
use pool_physics::{MotionState, Table, Vec3};

use super::common::{fit_text, text_at, text_width, INK};
use super::{ensure_font, glyphs, PlotError, FONT_BYTES};

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

/// A marker position on the ball at t = 0 (body frame, unit vector), `deg` degrees from the top
/// toward -y. Off the top, a spin about the vertical axis moves the marker too.
fn tilted(deg: f64) -> Vec3 {
    let a = deg.to_radians();
    Vec3::new(0.0, -a.sin(), a.cos())
}

/// Angular radius of the marker circle on the ball (rad): about a real ball's number circle.
const MARKER_ANGLE: f64 = 0.6;

/// How one ball is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct BallLook {
    /// Ball id (as in the shot file).
    pub id: String,
    /// Body colour.
    pub colour: RGBColor,
    /// Striped ball (9-15): white with a band of the colour.
    pub stripe: bool,
    /// Text in the marker circle (the ball's number), if any.
    pub number: Option<String>,
    /// Marker colour.
    pub marker: RGBColor,
    /// Where the marker is on the ball at t = 0 (body frame, unit vector).
    pub marker_point: Vec3,
}

/// Standard pool colours of balls 1-8 (9-15 are stripes of 1-7).
const POOL_COLOURS: [RGBColor; 8] = [
    RGBColor(250, 200, 20), // 1 yellow
    RGBColor(25, 65, 180),  // 2 blue
    RGBColor(215, 30, 30),  // 3 red
    RGBColor(105, 45, 150), // 4 purple
    RGBColor(250, 120, 20), // 5 orange
    RGBColor(10, 85, 40),   // 6 green
    RGBColor(125, 20, 35),  // 7 maroon
    RGBColor(15, 15, 15),   // 8 black
];

/// Distinct colours for balls whose ids are not pool numbers (no green: it is the cloth).
const OTHER_COLOURS: [RGBColor; 8] = [
    RGBColor(250, 200, 20),
    RGBColor(215, 30, 30),
    RGBColor(25, 65, 180),
    RGBColor(250, 120, 20),
    RGBColor(105, 45, 150),
    RGBColor(240, 110, 190),
    RGBColor(20, 190, 210),
    RGBColor(125, 20, 35),
];

/// Cue ball colour.
const CUE_WHITE: RGBColor = RGBColor(250, 250, 244);
/// The cue ball's marker (a red dot, like a measle ball's).
const CUE_MARKER: RGBColor = RGBColor(210, 30, 30);

/// Looks for balls with these ids: `cue` white with a red marker 45 degrees off the top (so
/// side spin shows); `1`-`15` in standard pool colours (9-15 striped) with a white number
/// circle, on top at t = 0 (numbers up, as in a rack); any other id a distinct colour (eight
/// colours, then the same striped: 16 distinct looks) with a white marker 30 degrees off the
/// top.
pub fn ball_looks(ids: &[String]) -> Vec<BallLook> {
    let mut other = 0;
    ids.iter()
        .map(|id| {
            let number = id.parse::<usize>().ok().filter(|n| (1..=15).contains(n));
            match (id.as_str(), number) {
                ("cue", _) => BallLook {
                    id: id.clone(),
                    colour: CUE_WHITE,
                    stripe: false,
                    number: None,
                    marker: CUE_MARKER,
                    marker_point: tilted(45.0),
                },
                (_, Some(n)) => BallLook {
                    id: id.clone(),
                    colour: POOL_COLOURS[if n > 8 { n - 9 } else { n - 1 }],
                    stripe: n > 8,
                    number: Some(n.to_string()),
                    marker: WHITE,
                    marker_point: Vec3::z(),
                },
                _ => {
                    // Eight colours, then the same eight striped, and so on.
                    let c = OTHER_COLOURS[other % OTHER_COLOURS.len()];
                    let stripe = (other / OTHER_COLOURS.len()) % 2 == 1;
                    other += 1;
                    BallLook {
                        id: id.clone(),
                        colour: c,
                        stripe,
                        number: None,
                        marker: WHITE,
                        marker_point: tilted(30.0),
                    }
                }
            }
        })
        .collect()
}

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
    /// Ball radius (m).
    pub radius: f64,
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
    for k in &t.pockets {
        add(k.center[0] - k.radius, k.center[1] - k.radius);
        add(k.center[0] + k.radius, k.center[1] + k.radius);
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
        (
            self.width,
            TITLE_H + self.panels.max(1) * (self.header_h() + table_h),
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
            for (look, b) in self.looks.iter().zip(&panel.balls) {
                self.draw_ball(root, &to, look, b)?;
            }
            if k == 0 {
                if let Some(g) = &f.ghost {
                    for (look, b) in self.looks.iter().zip(&g.balls) {
                        self.draw_ghost(root, &to, look, b)?;
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
        for c in &t.cushions {
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
            let r = to.len(k.radius).round().max(1.0) as u32;
            root.draw(&Circle::new(
                to.pt(k.center[0], k.center[1]),
                r,
                POCKET.filled(),
            ))?;
        }
        let cushion_w = to.len(0.01).round().clamp(2.0, 10.0) as u32;
        for c in &t.cushions {
            root.draw(&PathElement::new(
                vec![to.pt(c.p1[0], c.p1[1]), to.pt(c.p2[0], c.p2[1])],
                CUSHION.stroke_width(cushion_w),
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
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        if b.state.motion == MotionState::Pocketed {
            return Ok(());
        }
        let c = to.pt(b.state.r.x, b.state.r.y);
        let r = to.len(self.radius);
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
    ) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        if b.state.motion == MotionState::Pocketed {
            return Ok(());
        }
        let c = to.pt(b.state.r.x, b.state.r.y);
        let r = to.len(self.radius).round().max(2.0) as u32;
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

/// Draws one frame into an RGB buffer of [`Scene::size`].
fn draw_rgb(
    scene: &Scene,
    font: &ab_glyph::FontRef<'static>,
    f: &FrameContent,
) -> Result<Vec<u8>, PlotError> {
    let (w, h) = scene.size();
    let mut buf = vec![0u8; w as usize * h as usize * 3];
    {
        let backend = BitMapBackend::with_buffer(&mut buf, (w, h));
        let root = glyphs::CrispText::new(backend, font.clone()).into_drawing_area();
        scene.draw(&root, f)?;
        root.present()?;
    }
    Ok(buf)
}

/// Writes frames into a looping animated GIF at `path`, `delay_cs` centiseconds per frame,
/// calling `frame(k)` for k = 0..n and `tick()` after each.
///
/// The frames are drawn with plotters' bitmap backend and encoded with the `gif` crate (the one
/// plotters' own GIF backend uses) in the way that suits a mostly still picture: one global
/// palette for the whole animation (the 255 most frequent colours of five frames spread over
/// it; a colour not in it is drawn as its nearest entry), and each frame stores only the
/// rectangle of pixels that changed, with unchanged pixels inside it transparent. plotters'
/// backend re-quantises and stores every frame whole: 4.1 MB against this encoder's few
/// hundred kB for the 9-ball break at 800 px.
pub fn write_gif(
    path: &Path,
    scene: &Scene,
    delay_cs: u16,
    n: usize,
    mut frame: impl FnMut(usize) -> FrameContent,
    mut tick: impl FnMut(),
) -> Result<(), PlotError> {
    use std::collections::HashMap;

    ensure_font()?;
    let font = ab_glyph::FontRef::try_from_slice(FONT_BYTES)
        .map_err(|_| PlotError::new("the embedded DejaVu Sans font could not be parsed"))?;
    let (w, h) = scene.size();
    let io = |e: &dyn std::fmt::Display| PlotError::new(format!("{}: {e}", path.display()));
    if n == 0 {
        return Err(PlotError::new("no frames to write"));
    }

    // Global palette by popularity over sample frames; the last index is transparent.
    let mut samples = vec![0, n / 4, n / 2, 3 * n / 4, n - 1];
    samples.dedup();
    let mut counts: HashMap<[u8; 3], u64> = HashMap::new();
    for &k in &samples {
        for px in draw_rgb(scene, &font, &frame(k))?.chunks_exact(3) {
            *counts.entry([px[0], px[1], px[2]]).or_default() += 1;
        }
    }
    let mut popular: Vec<([u8; 3], u64)> = counts.into_iter().collect();
    popular.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    popular.truncate(255);
    let palette: Vec<[u8; 3]> = popular.iter().map(|(c, _)| *c).collect();
    let transparent = palette.len() as u8;
    let mut flat: Vec<u8> = palette.iter().flatten().copied().collect();
    flat.resize(256 * 3, 0);
    let mut index: HashMap<[u8; 3], u8> = palette
        .iter()
        .enumerate()
        .map(|(i, c)| (*c, i as u8))
        .collect();
    let mut nearest = |c: [u8; 3]| -> u8 {
        *index.entry(c).or_insert_with(|| {
            let d = |p: &[u8; 3]| {
                (0..3)
                    .map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2))
                    .sum::<i32>()
            };
            (0..palette.len())
                .min_by_key(|&i| d(&palette[i]))
                .unwrap_or(0) as u8
        })
    };

    let file = std::fs::File::create(path).map_err(|e| io(&e))?;
    let mut enc = gif::Encoder::new(std::io::BufWriter::new(file), w as u16, h as u16, &flat)
        .map_err(|e| io(&e))?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(|e| io(&e))?;
    let mut prev: Option<Vec<u8>> = None;
    for k in 0..n {
        let rgb = draw_rgb(scene, &font, &frame(k))?;
        let idx: Vec<u8> = rgb
            .chunks_exact(3)
            .map(|p| nearest([p[0], p[1], p[2]]))
            .collect();
        // The rectangle of changed pixels (all of the first frame).
        let (wu, hu) = (w as usize, h as usize);
        let changed = |i: usize| prev.as_ref().is_none_or(|p| p[i] != idx[i]);
        let (mut x0, mut y0, mut x1, mut y1) = (wu, hu, 0, 0);
        for y in 0..hu {
            for x in 0..wu {
                if changed(y * wu + x) {
                    x0 = x0.min(x);
                    x1 = x1.max(x + 1);
                    y0 = y0.min(y);
                    y1 = y1.max(y + 1);
                }
            }
        }
        if x0 >= x1 {
            // Nothing changed: one transparent pixel holds the frame's time.
            (x0, y0, x1, y1) = (0, 0, 1, 1);
        }
        let mut buffer = Vec::with_capacity((x1 - x0) * (y1 - y0));
        for y in y0..y1 {
            for x in x0..x1 {
                let i = y * wu + x;
                buffer.push(if changed(i) { idx[i] } else { transparent });
            }
        }
        let f = gif::Frame {
            left: x0 as u16,
            top: y0 as u16,
            width: (x1 - x0) as u16,
            height: (y1 - y0) as u16,
            buffer: std::borrow::Cow::Owned(buffer),
            transparent: Some(transparent),
            delay: delay_cs,
            dispose: gif::DisposalMethod::Keep,
            ..gif::Frame::default()
        };
        enc.write_frame(&f).map_err(|e| io(&e))?;
        prev = Some(idx);
        tick();
    }
    enc.into_inner().map_err(|e| io(&e))?;
    Ok(())
}

/// Writes one frame as a PNG at `path`.
pub fn write_png(path: &Path, scene: &Scene, f: &FrameContent) -> Result<(), PlotError> {
    ensure_font()?;
    let font = ab_glyph::FontRef::try_from_slice(FONT_BYTES)
        .map_err(|_| PlotError::new("the embedded DejaVu Sans font could not be parsed"))?;
    let root =
        glyphs::CrispText::new(BitMapBackend::new(path, scene.size()), font).into_drawing_area();
    scene.draw(&root, f)?;
    root.present()
        .map_err(|e| PlotError::new(format!("{}: {e}", path.display())))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pool_numbers_get_pool_colours_and_stripes() {
        let ids: Vec<String> = ["cue", "1", "8", "9", "15", "red", "white"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let looks = ball_looks(&ids);
        assert_eq!(looks[0].colour, CUE_WHITE);
        assert_eq!(looks[1].colour, POOL_COLOURS[0]);
        assert!(!looks[1].stripe);
        assert_eq!(looks[2].colour, RGBColor(15, 15, 15));
        assert_eq!(looks[3].colour, POOL_COLOURS[0]);
        assert!(looks[3].stripe);
        assert_eq!(looks[4].colour, POOL_COLOURS[6]);
        assert_ne!(looks[5].colour, looks[6].colour);
    }

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

    /// A small scene with two balls, `n` frames moving ball 0 along x.
    fn moving(n: usize) -> (Table, Vec<FrameContent>) {
        let table = Table::seven_foot();
        let r = 0.028575;
        let ball = |x: f64, turn: f64| BallFrame {
            state: pool_physics::BallState::new(
                Vec3::new(x, 0.5, r),
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(0.0, 1.0 / r, 0.0),
                r,
            ),
            orientation: pool_physics::Rotation::from_axis_angle(&Vec3::y_axis(), turn),
        };
        let frames = (0..n)
            .map(|k| {
                let x = 0.5 + 0.04 * k as f64;
                FrameContent {
                    time: 0.04 * k as f64,
                    panels: vec![Panel {
                        label: "event engine".into(),
                        event: format!("event {k}"),
                        balls: vec![ball(x, 0.04 * k as f64 / r), ball(1.5, 0.0)],
                    }],
                    ghost: None,
                }
            })
            .collect();
        (table, frames)
    }

    #[test]
    fn gif_frames_decode_to_the_drawn_pictures() {
        let (table, frames) = moving(6);
        let ids = vec!["cue".to_string(), "9".to_string()];
        let scene = Scene {
            shot: "test",
            table: &table,
            radius: 0.028575,
            looks: ball_looks(&ids),
            width: 400,
            panels: 1,
            ghost: false,
        };
        let dir = std::env::temp_dir().join(format!("xtask-gif-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.gif");
        // The last frame twice: a held frame stores (almost) nothing.
        let n = frames.len() + 1;
        let pick = |k: usize| frames[k.min(frames.len() - 1)].clone();
        write_gif(&path, &scene, 4, n, pick, || {}).unwrap();

        let font = ab_glyph::FontRef::try_from_slice(FONT_BYTES).unwrap();
        let (w, h) = scene.size();
        let mut opts = gif::DecodeOptions::new();
        opts.set_color_output(gif::ColorOutput::Indexed);
        let mut dec = opts.read_info(std::fs::File::open(&path).unwrap()).unwrap();
        let global = dec.global_palette().unwrap().to_vec();
        let mut screen = vec![0u8; w as usize * h as usize * 3];
        let mut k = 0;
        while let Some(f) = dec.read_next_frame().unwrap() {
            assert_eq!(f.delay, 4);
            for y in 0..usize::from(f.height) {
                for x in 0..usize::from(f.width) {
                    let i = f.buffer[y * usize::from(f.width) + x];
                    if Some(i) == f.transparent {
                        continue;
                    }
                    let p = ((usize::from(f.top) + y) * w as usize + usize::from(f.left) + x) * 3;
                    screen[p..p + 3].copy_from_slice(&global[usize::from(i) * 3..][..3]);
                }
            }
            if k == n - 1 {
                assert_eq!((f.width, f.height), (1, 1), "a held frame stores one pixel");
            }
            let want = draw_rgb(&scene, &font, &pick(k)).unwrap();
            let exact = want
                .chunks(3)
                .zip(screen.chunks(3))
                .filter(|(a, b)| a == b)
                .count();
            let worst = want
                .iter()
                .zip(&screen)
                .map(|(a, b)| (i32::from(*a) - i32::from(*b)).abs())
                .max()
                .unwrap();
            let total = (w * h) as usize;
            assert!(
                exact * 1000 >= total * 995,
                "frame {k}: {exact} of {total} exact"
            );
            assert!(worst <= 64, "frame {k}: a pixel off by {worst}");
            k += 1;
        }
        assert_eq!(k, n);
        std::fs::remove_dir_all(&dir).ok();
    }
}
