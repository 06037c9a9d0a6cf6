//! Writing frames: one looping animated GIF with a global palette and changed-rectangle
//! frames, or one PNG per frame.

use std::collections::HashMap;
use std::path::Path;

use plotters::prelude::*;

use super::super::{embedded_font, glyphs, PlotError};
use super::{FrameContent, Scene};

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
///
/// # Errors
/// `n` = 0, or a file that cannot be created or written.
pub fn write_gif(
    path: &Path,
    scene: &Scene,
    delay_cs: u16,
    n: usize,
    mut frame: impl FnMut(usize) -> FrameContent,
    mut tick: impl FnMut(),
) -> Result<(), PlotError> {
    let font = embedded_font()?;
    let (w, h) = scene.size();
    let io = |e: &dyn std::fmt::Display| PlotError::new(format!("{}: {e}", path.display()));
    if n == 0 {
        return Err(PlotError::new("no frames to write"));
    }

    // Global palette by popularity over sample frames.
    let mut samples = vec![0, n / 4, n / 2, 3 * n / 4, n - 1];
    samples.dedup();
    let mut counts: HashMap<[u8; 3], u64> = HashMap::new();
    for &k in &samples {
        for px in draw_rgb(scene, &font, &frame(k))?.chunks_exact(3) {
            *counts.entry([px[0], px[1], px[2]]).or_default() += 1;
        }
    }
    let mut palette = Palette::most_frequent(counts);
    let transparent = palette.transparent();

    let file = std::fs::File::create(path).map_err(|e| io(&e))?;
    let mut enc = gif::Encoder::new(
        std::io::BufWriter::new(file),
        w as u16,
        h as u16,
        &palette.flat(),
    )
    .map_err(|e| io(&e))?;
    enc.set_repeat(gif::Repeat::Infinite).map_err(|e| io(&e))?;
    let mut prev: Option<Vec<u8>> = None;
    for k in 0..n {
        let rgb = draw_rgb(scene, &font, &frame(k))?;
        let idx: Vec<u8> = rgb
            .chunks_exact(3)
            .map(|p| palette.nearest([p[0], p[1], p[2]]))
            .collect();
        let wu = w as usize;
        let changed = |i: usize| prev.as_ref().is_none_or(|p| p[i] != idx[i]);
        let (x0, y0, x1, y1) = changed_rect(changed, wu, h as usize);
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

/// The animation's one palette: the 255 most frequent colours of the sample frames; the index
/// after the last colour is transparent.
struct Palette {
    colours: Vec<[u8; 3]>,
    /// Colour to palette index, for every colour met so far (a colour not in the palette maps
    /// to its nearest entry).
    index: HashMap<[u8; 3], u8>,
}

impl Palette {
    /// The 255 colours with the highest `counts` (ties by colour, so the palette is the same
    /// from run to run).
    fn most_frequent(counts: HashMap<[u8; 3], u64>) -> Palette {
        let mut popular: Vec<([u8; 3], u64)> = counts.into_iter().collect();
        popular.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        popular.truncate(255);
        let colours: Vec<[u8; 3]> = popular.iter().map(|(c, _)| *c).collect();
        let index = colours
            .iter()
            .enumerate()
            .map(|(i, c)| (*c, i as u8))
            .collect();
        Palette { colours, index }
    }

    /// The transparent index.
    fn transparent(&self) -> u8 {
        self.colours.len() as u8
    }

    /// The 256-entry RGB table the GIF stores (unused entries black).
    fn flat(&self) -> Vec<u8> {
        let mut flat: Vec<u8> = self.colours.iter().flatten().copied().collect();
        flat.resize(256 * 3, 0);
        flat
    }

    /// The index of `c`, or of the entry nearest to it (squared RGB distance).
    fn nearest(&mut self, c: [u8; 3]) -> u8 {
        let colours = &self.colours;
        *self.index.entry(c).or_insert_with(|| {
            let d = |p: &[u8; 3]| {
                (0..3)
                    .map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2))
                    .sum::<i32>()
            };
            (0..colours.len())
                .min_by_key(|&i| d(&colours[i]))
                .unwrap_or(0) as u8
        })
    }
}

/// The rectangle (x0, y0, x1, y1), ends exclusive, of the pixels of a `w` x `h` frame for which
/// `changed(y * w + x)` holds (all of the first frame).
fn changed_rect(
    changed: impl Fn(usize) -> bool,
    w: usize,
    h: usize,
) -> (usize, usize, usize, usize) {
    let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if changed(y * w + x) {
                x0 = x0.min(x);
                x1 = x1.max(x + 1);
                y0 = y0.min(y);
                y1 = y1.max(y + 1);
            }
        }
    }
    if x0 >= x1 {
        // Nothing changed: one transparent pixel holds the frame's time.
        return (0, 0, 1, 1);
    }
    (x0, y0, x1, y1)
}

/// Writes one frame as a PNG at `path`.
///
/// # Errors
/// A file that cannot be created or written; drawing problems in the data are not errors
/// (see [`crate::plots`]).
pub fn write_png(path: &Path, scene: &Scene, f: &FrameContent) -> Result<(), PlotError> {
    let font = embedded_font()?;
    let root =
        glyphs::CrispText::new(BitMapBackend::new(path, scene.size()), font).into_drawing_area();
    scene.draw(&root, f)?;
    root.present()
        .map_err(|e| PlotError::new(format!("{}: {e}", path.display())))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use pool_harness::BallFrame;
    use pool_physics::{Table, Vec3};

    use super::super::{ball_looks, Panel};
    use super::*;

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
            radii: vec![0.028575; 2],
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

        let font = embedded_font().unwrap();
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
