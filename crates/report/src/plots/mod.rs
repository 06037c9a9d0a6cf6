//! Report plots, each written as both `<stem>.svg` and `<stem>.png`.
//!
//! Text is rendered through DejaVu Sans, embedded in the binary (`crates/report/assets/DejaVuSans.ttf`)
//! and registered with plotters' `ab_glyph` font support, so the PNGs come out the same on a
//! machine without any fonts installed. The SVGs reference the generic `sans-serif` family.
//!
//! Plot functions never panic: values that cannot be drawn (NaN, infinities, non-positive values
//! on logarithmic axes) are skipped, and a plot with nothing left shows a "no data" note. They
//! fail ([`PlotError`]) only when a file cannot be created or written (or the embedded font
//! cannot be parsed).

mod cdf;
mod common;
mod frame;
mod glyphs;
mod grid;
mod outcome;
mod outline;
mod sweep;
mod table;
#[cfg(test)]
mod tests;
mod throw;

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::prelude::*;

pub use cdf::error_cdf;
pub use frame::{ball_looks, write_gif, write_png, BallLook, FrameContent, Panel, Scene};
pub use grid::{answer_grid, Grid, GridCell, GridPart};
pub use outcome::{chaos_curve, outcome_vs_dt};
pub use sweep::{error_vs_cost, error_vs_dt, error_vs_wall, ops_vs_dt, scaling};
pub use table::{shot_diagram, shot_paths, ShotMarks};
pub use throw::throw_curve;

/// Width of every plot (px; the SVG uses the same user units).
pub const WIDTH: u32 = 1200;
/// Height of every plot (px).
pub const HEIGHT: u32 = 800;

/// Font family used for all text (registered from the embedded DejaVu Sans).
const FONT: &str = "sans-serif";
/// The embedded font file.
static FONT_BYTES: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Why a plot could not be written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlotError {
    message: String,
}

impl PlotError {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        PlotError {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PlotError {}

impl<E: std::error::Error + Send + Sync> From<DrawingAreaErrorKind<E>> for PlotError {
    fn from(e: DrawingAreaErrorKind<E>) -> Self {
        PlotError::new(format!("drawing failed: {e}"))
    }
}

/// Registers the embedded font as `sans-serif` (once per process).
fn ensure_font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<Result<(), PlotError>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font(FONT, FontStyle::Normal, FONT_BYTES)
                .map_err(|_| PlotError::new("the embedded DejaVu Sans font could not be parsed"))
        })
        .clone()
}

/// The embedded font, registered for plotters' text and parsed for [`glyphs::CrispText`].
fn embedded_font() -> Result<ab_glyph::FontRef<'static>, PlotError> {
    ensure_font()?;
    ab_glyph::FontRef::try_from_slice(FONT_BYTES)
        .map_err(|_| PlotError::new("the embedded DejaVu Sans font could not be parsed"))
}

/// A picture that can be drawn on any plotters backend.
trait Figure {
    /// Draws the whole picture on `root` (already filled white, [`Figure::size`] px).
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static;

    /// Its size (px): `WIDTH` x `HEIGHT`, unless its content sets the height.
    fn size(&self) -> (u32, u32) {
        (WIDTH, HEIGHT)
    }
}

/// `stem` with `.ext` appended (not replacing anything after a dot in the stem).
fn with_suffix(stem: &Path, ext: &str) -> PathBuf {
    let mut s = stem.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Draws `fig` into `<stem>.svg` and `<stem>.png`, creating the parent directory if needed.
fn render(stem: &Path, fig: &impl Figure) -> Result<(), PlotError> {
    ensure_font()?;
    if let Some(dir) = stem.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| PlotError::new(format!("cannot create {}: {e}", dir.display())))?;
    }
    let in_file = |path: &Path, e: PlotError| PlotError::new(format!("{}: {e}", path.display()));

    let svg = with_suffix(stem, "svg");
    {
        let root = SVGBackend::new(&svg, fig.size()).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(PlotError::from)
            .and_then(|()| fig.draw(&root))
            .and_then(|()| root.present().map_err(PlotError::from));
        drawn.map_err(|e| in_file(&svg, e))?;
    }

    let png = with_suffix(stem, "png");
    {
        let font = embedded_font()?;
        let bitmap = BitMapBackend::new(&png, fig.size());
        let root = glyphs::CrispText::new(bitmap, font).into_drawing_area();
        let drawn = root
            .fill(&WHITE)
            .map_err(PlotError::from)
            .and_then(|()| fig.draw(&root))
            .and_then(|()| root.present().map_err(PlotError::from));
        drawn.map_err(|e| in_file(&png, e))?;
    }
    Ok(())
}
