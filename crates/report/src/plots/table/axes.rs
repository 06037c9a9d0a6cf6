//! The shot diagram's frame: bounding boxes in metres, equal metres per pixel on both axes, and
//! a metre axis with ticks at a fixed "nice" step.

use std::ops::Range;

use plotters::coord::ranged1d::{DefaultFormatting, KeyPointHint};
use plotters::prelude::*;
use pool_physics::Table;

/// Bounding box (x0, x1, y0, y1) of the table (cushions straight and circular, pockets,
/// playing area) in metres.
pub(super) fn table_bounds(t: &Table) -> Option<(f64, f64, f64, f64)> {
    let mut b = Bounds::default();
    if t.length.is_finite() && t.width.is_finite() {
        b.add(0.0, 0.0);
        b.add(t.length, t.width);
    }
    for c in &t.cushions {
        b.add(c.p1[0], c.p1[1]);
        b.add(c.p2[0], c.p2[1]);
    }
    let circles = (t.pockets.iter().map(|k| (k.center, k.radius)))
        .chain(t.circular_cushions.iter().map(|a| (a.center, a.radius)));
    for (c, r) in circles.filter(|(_, r)| r.is_finite() && *r > 0.0) {
        b.add(c[0] - r, c[1] - r);
        b.add(c[0] + r, c[1] + r);
    }
    b.get()
}

/// A growing bounding box of finite points.
#[derive(Default)]
pub(super) struct Bounds(Option<(f64, f64, f64, f64)>);

impl Bounds {
    pub(super) fn add(&mut self, x: f64, y: f64) {
        if !(x.is_finite() && y.is_finite()) {
            return;
        }
        self.0 = Some(match self.0 {
            None => (x, x, y, y),
            Some((x0, x1, y0, y1)) => (x0.min(x), x1.max(x), y0.min(y), y1.max(y)),
        });
    }
    pub(super) fn get(&self) -> Option<(f64, f64, f64, f64)> {
        self.0
    }
}

/// Ranges showing `bounds` centred in a `w` x `h` px plot with equal metres per pixel on both
/// axes.
pub(in crate::plots) fn equal_aspect(
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
pub(super) struct MetreAxis {
    range: Range<f64>,
    ticks: Vec<f64>,
}

impl MetreAxis {
    pub(super) fn new(range: Range<f64>, step: f64) -> MetreAxis {
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
pub(super) fn tick_step(raw: f64) -> (f64, usize) {
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
