//! Correct glyph placement for bitmap output.
//!
//! plotters 0.3.7 rasterises `ab_glyph` text with every glyph placed at the pen position without
//! its left side bearing, so narrow letters drift left ("posi tive"). [`CrispText`] wraps a
//! backend and lays text out itself with `ab_glyph` (bearings, kerning, sub-pixel positions);
//! every other drawing call goes straight to the wrapped backend. The layout box (width = sum
//! of advances with kerning, height = size / 1.24) is the one plotters uses to place labels.

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use plotters::prelude::DrawingBackend;
use plotters_backend::text_anchor::{HPos, VPos};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};

/// A backend whose text is drawn by [`ab_glyph`] directly from `font`.
pub(super) struct CrispText<B> {
    inner: B,
    font: FontRef<'static>,
}

impl<B: DrawingBackend> CrispText<B> {
    /// Wraps `inner`, drawing text with `font`.
    pub(super) fn new(inner: B, font: FontRef<'static>) -> Self {
        CrispText { inner, font }
    }
}

impl<B: DrawingBackend> DrawingBackend for CrispText<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, color)
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, style)
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        self.inner.blit_bitmap(pos, size, src)
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<Self::ErrorType>> {
        let (w, h) = self.layout(text, style.size());
        Ok((w.max(0.0).ceil() as u32, h as u32))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<Self::ErrorType>> {
        let color = style.color();
        let size = style.size();
        if color.alpha == 0.0 || !(size.is_finite() && size > 0.0) {
            return Ok(());
        }
        let (width, height) = self.layout(text, size);
        let height = f64::from(height);
        let dx = match style.anchor().h_pos {
            HPos::Left => 0.0,
            HPos::Center => -width / 2.0,
            HPos::Right => -width,
        };
        let dy = match style.anchor().v_pos {
            VPos::Top => 0.0,
            VPos::Center => -height / 2.0,
            VPos::Bottom => -height,
        };
        let font = self.font.as_scaled(PxScale::from(size as f32));
        // Centre the capital letters vertically in the layout box.
        let cap = self
            .font
            .outline_glyph(font.scaled_glyph('H'))
            .map(|g| f64::from(g.px_bounds().height()))
            .unwrap_or(size * 0.6);
        let baseline = dy + height / 2.0 + cap / 2.0;
        let trans = style.transform();
        let (w, h) = self.inner.get_size();
        let mut pixels: Vec<(i32, i32, f32)> = Vec::new();
        let mut pen = dx;
        let mut prev = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                pen += f64::from(font.kern(p, id));
            }
            prev = Some(id);
            let glyph =
                id.with_scale_and_position(font.scale(), point(pen as f32, baseline as f32));
            if let Some(outline) = self.font.outline_glyph(glyph) {
                let min = outline.px_bounds().min;
                outline.draw(|x, y, coverage| {
                    pixels.push((min.x as i32 + x as i32, min.y as i32 + y as i32, coverage));
                });
            }
            pen += f64::from(font.h_advance(id));
        }
        for (x, y, coverage) in pixels {
            if coverage <= 0.0 {
                continue;
            }
            let (x, y) = trans.transform(x, y);
            let (x, y) = (pos.0 + x, pos.1 + y);
            if x >= 0 && y >= 0 && x < w as i32 && y < h as i32 {
                let alpha = color.alpha * f64::from(coverage.min(1.0));
                self.inner.draw_pixel(
                    (x, y),
                    BackendColor {
                        alpha,
                        rgb: color.rgb,
                    },
                )?;
            }
        }
        Ok(())
    }
}

impl<B> CrispText<B> {
    /// Layout box of `text` at `size`: (width px, height px).
    fn layout(&self, text: &str, size: f64) -> (f64, i32) {
        if !(size.is_finite() && size > 0.0) {
            return (0.0, 0);
        }
        let font = self.font.as_scaled(PxScale::from(size as f32));
        let mut width = 0.0;
        let mut prev = None;
        for c in text.chars() {
            let id = font.glyph_id(c);
            if let Some(p) = prev {
                width += f64::from(font.kern(p, id));
            }
            prev = Some(id);
            width += f64::from(font.h_advance(id));
        }
        (width, (size / 1.24) as i32)
    }
}
