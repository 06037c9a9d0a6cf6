//! Pieces shared by the plots: text sizes, colours, markers, logarithmic axes, legends.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::{PlotError, FONT};

// Font sizes in plotters units. The SVG backend writes `font-size = size / 1.24` px and the
// ab_glyph rasteriser scales the font's ascent-descent height to `size` (em ~ size / 1.16), so
// 24 units is >= 19 px of em in both outputs.
/// Figure title.
pub(super) const TITLE_SIZE: f64 = 36.0;
/// Figure subtitle.
pub(super) const SUBTITLE_SIZE: f64 = 26.0;
/// Axis descriptions.
pub(super) const AXIS_DESC_SIZE: f64 = 28.0;
/// Tick labels.
pub(super) const TICK_SIZE: f64 = 24.0;
/// Legend entries and notes.
pub(super) const LEGEND_SIZE: f64 = 24.0;

/// Text colour.
pub(super) const INK: RGBColor = RGBColor(25, 25, 25);
/// Light grid lines.
pub(super) const GRID_LIGHT: RGBColor = RGBColor(236, 236, 236);
/// Grid lines at labelled ticks.
pub(super) const GRID_BOLD: RGBColor = RGBColor(200, 200, 200);

/// A text style of the embedded font.
pub(super) fn text(size: f64) -> TextStyle<'static> {
    TextStyle::from((FONT, size).into_font()).color(&INK)
}

/// A text style with an anchor.
pub(super) fn text_at(size: f64, h: HPos, v: VPos) -> TextStyle<'static> {
    text(size).pos(Pos::new(h, v))
}

/// Series colours (Tableau 10 order, grey dropped): distinguishable on white and light green.
const PALETTE: [RGBColor; 9] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(44, 160, 44),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The `i`-th series colour (cycles).
pub(super) fn palette(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// A darker shade of `c` (for marker outlines).
pub(super) fn darker(c: RGBColor) -> RGBColor {
    let d = |v: u8| (f64::from(v) * 0.55) as u8;
    RGBColor(d(c.0), d(c.1), d(c.2))
}

/// Marker shapes, one per scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Marker {
    Circle,
    Triangle,
    Square,
    Diamond,
    InvertedTriangle,
}

impl Marker {
    /// The `i`-th marker shape (cycles).
    pub(super) fn nth(i: usize) -> Marker {
        const ALL: [Marker; 5] = [
            Marker::Circle,
            Marker::Triangle,
            Marker::Square,
            Marker::Diamond,
            Marker::InvertedTriangle,
        ];
        ALL[i % ALL.len()]
    }
}

/// Draws a filled marker of "radius" `r` px centred at the pixel `at` of `area`.
pub(super) fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    marker: Marker,
    r: i32,
    colour: RGBColor,
) -> Result<(), PlotError> {
    let (x, y) = at;
    let fill = colour.filled();
    let edge = darker(colour).stroke_width(2);
    let polygon = |pts: Vec<(i32, i32)>| -> Result<(), PlotError> {
        area.draw(&Polygon::new(pts.clone(), fill))?;
        let mut closed = pts;
        closed.push(closed[0]);
        area.draw(&PathElement::new(closed, edge))?;
        Ok(())
    };
    match marker {
        Marker::Circle => {
            area.draw(&Circle::new((x, y), r, fill))?;
            area.draw(&Circle::new((x, y), r, edge))?;
        }
        Marker::Square => {
            let s = (f64::from(r) * 0.85).round() as i32;
            polygon(vec![
                (x - s, y - s),
                (x + s, y - s),
                (x + s, y + s),
                (x - s, y + s),
            ])?;
        }
        Marker::Diamond => {
            let s = (f64::from(r) * 1.25).round() as i32;
            polygon(vec![(x, y - s), (x + s, y), (x, y + s), (x - s, y)])?;
        }
        Marker::Triangle | Marker::InvertedTriangle => {
            let s = f64::from(r) * 1.3;
            let sign = if marker == Marker::Triangle {
                1.0
            } else {
                -1.0
            };
            let p = |dx: f64, dy: f64| {
                (
                    (f64::from(x) + dx) as i32,
                    (f64::from(y) + sign * dy) as i32,
                )
            };
            polygon(vec![
                p(0.0, -s),
                p(s * 0.866, s * 0.5),
                p(-s * 0.866, s * 0.5),
            ])?;
        }
    }
    Ok(())
}

/// Superscript form of an integer, e.g. `-3` -> `⁻³`.
pub(super) fn superscript(n: i32) -> String {
    n.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            '9' => '⁹',
            other => other,
        })
        .collect()
}

/// Tick label of a logarithmic axis: `10⁻³`, `2×10⁻³`.
pub(super) fn log_tick_label(v: f64) -> String {
    if !(v.is_finite() && v > 0.0) {
        return String::new();
    }
    let mut k = v.log10().floor();
    let mut m = (v / 10f64.powf(k)).round();
    if m >= 10.0 {
        m = 1.0;
        k += 1.0;
    }
    let k = k as i32;
    if m == 1.0 {
        format!("10{}", superscript(k))
    } else {
        format!("{m}×10{}", superscript(k))
    }
}

/// A logarithmic axis: range and the ticks to label (bold) and to grid (light).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LogAxis {
    /// Lower end of the axis.
    pub lo: f64,
    /// Upper end of the axis.
    pub hi: f64,
    /// Labelled ticks.
    pub bold: Vec<f64>,
    /// Unlabelled grid lines.
    pub light: Vec<f64>,
}

impl LogAxis {
    /// An axis covering all positive finite `values` with a margin, at least one decade long;
    /// `None` when there is no such value.
    pub(super) fn covering(values: impl IntoIterator<Item = f64>) -> Option<LogAxis> {
        let (mut min, mut max) = (f64::INFINITY, f64::NEG_INFINITY);
        for v in values.into_iter().filter(|v| v.is_finite() && *v > 0.0) {
            min = min.min(v);
            max = max.max(v);
        }
        if min > max {
            return None;
        }
        // Stay clear of f64 underflow/overflow at the padded ends.
        let (mut a, mut b) = (min.log10().max(-300.0), max.log10().min(300.0));
        let pad = (0.06 * (b - a)).max(0.12);
        a -= pad;
        b += pad;
        if b - a < 1.0 {
            let grow = (1.0 - (b - a)) / 2.0;
            a -= grow;
            b += grow;
        }
        Some(Self::from_log10(a, b))
    }

    /// The axis from 10^a to 10^b (a < b).
    fn from_log10(a: f64, b: f64) -> LogAxis {
        let (lo, hi) = (10f64.powf(a), 10f64.powf(b));
        let (k0, k1) = (a.ceil() as i32, b.floor() as i32);
        let decades = (k1 - k0 + 1).max(0);
        // At most ~8 labelled decades.
        let step = ((decades + 7) / 8).max(1);
        let inside = |v: f64| v >= lo * (1.0 - 1e-12) && v <= hi * (1.0 + 1e-12);
        let mut bold: Vec<f64> = (k0..=k1)
            .filter(|k| k.rem_euclid(step) == 0)
            .map(|k| 10f64.powi(k))
            .collect();
        let kmin = a.floor() as i32;
        let kmax = b.ceil() as i32;
        let with_mantissas = |ms: &[f64]| -> Vec<f64> {
            (kmin..=kmax)
                .flat_map(|k| ms.iter().map(move |m| m * 10f64.powi(k)))
                .filter(|v| inside(*v))
                .collect()
        };
        if bold.len() < 3 {
            bold = with_mantissas(&[1.0, 2.0, 5.0]);
        }
        if bold.len() < 3 {
            bold = with_mantissas(&[1.0, 2.0, 3.0, 5.0, 7.0]);
        }
        let light = if decades <= 8 {
            with_mantissas(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0])
        } else {
            (kmin..=kmax)
                .map(|k| 10f64.powi(k))
                .filter(|v| inside(*v))
                .collect()
        };
        LogAxis {
            lo,
            hi,
            bold,
            light,
        }
    }

    /// A placeholder axis (1 to 10) for empty plots.
    pub(super) fn placeholder() -> LogAxis {
        LogAxis {
            lo: 1.0,
            hi: 10.0,
            bold: Vec::new(),
            light: Vec::new(),
        }
    }

    /// True when `v` lies on the axis.
    pub(super) fn contains(&self, v: f64) -> bool {
        v.is_finite() && v >= self.lo && v <= self.hi
    }
}

/// How a legend entry's line sample is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum LineKind {
    /// Solid line of the given width (px).
    Solid(u32),
    /// Dashed line of the given width (px).
    Dashed(u32),
}

/// One legend entry: a sample (line and/or marker) and a label.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct LegendEntry {
    /// Text.
    pub label: String,
    /// Colour of the sample.
    pub colour: RGBColor,
    /// Line sample, if any.
    pub line: Option<LineKind>,
    /// Marker sample and its radius (px), if any.
    pub marker: Option<(Marker, i32)>,
}

/// Length of a legend entry's sample (px).
const SAMPLE_LEN: i32 = 54;
/// Gap between sample and label (px).
const SAMPLE_GAP: i32 = 12;

/// Dash and gap lengths (px) of dashed lines.
pub(super) const DASH: (u32, u32) = (12, 8);

/// Draws a straight line between two pixels of `area`.
pub(super) fn draw_line<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    a: (i32, i32),
    b: (i32, i32),
    kind: LineKind,
    colour: RGBColor,
) -> Result<(), PlotError> {
    match kind {
        LineKind::Solid(w) => area.draw(&PathElement::new(vec![a, b], colour.stroke_width(w)))?,
        LineKind::Dashed(w) => area.draw(&DashedPathElement::new(
            vec![a, b],
            DASH.0,
            DASH.1,
            colour.stroke_width(w),
        ))?,
    }
    Ok(())
}

/// Draws one legend entry with its sample starting at `(x, y)` (y = vertical centre); returns
/// its width (px).
pub(super) fn draw_legend_entry<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    entry: &LegendEntry,
) -> Result<i32, PlotError> {
    if let Some(kind) = entry.line {
        draw_line(area, (x, y), (x + SAMPLE_LEN, y), kind, entry.colour)?;
    }
    if let Some((marker, r)) = entry.marker {
        draw_marker(area, (x + SAMPLE_LEN / 2, y), marker, r, entry.colour)?;
    }
    let style = text_at(LEGEND_SIZE, HPos::Left, VPos::Center);
    area.draw_text(&entry.label, &style, (x + SAMPLE_LEN + SAMPLE_GAP, y))?;
    Ok(SAMPLE_LEN + SAMPLE_GAP + text_width(area, &entry.label, LEGEND_SIZE))
}

/// Width (px) of `s` at `size`, 0 when it cannot be measured.
pub(super) fn text_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    size: f64,
) -> i32 {
    area.estimate_text_size(s, &text(size))
        .map(|(w, _)| w as i32)
        .unwrap_or(0)
}

/// `s`, shortened with an ellipsis to at most `max_w` px at `size`.
pub(super) fn fit_text<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    size: f64,
    max_w: i32,
) -> String {
    if text_width(area, s, size) <= max_w {
        return s.to_string();
    }
    let mut chars: Vec<char> = s.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let t: String = chars.iter().chain(std::iter::once(&'…')).collect();
        if text_width(area, &t, size) <= max_w {
            return t;
        }
    }
    String::new()
}

/// `s` at the largest size from `size` down to `min_size` (1 px steps) at which it fits in
/// `max_w` px, else shortened with an ellipsis at `min_size` ([`fit_text`]): a label is made
/// smaller before it is cut.
pub(super) fn shrink_to_fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    size: f64,
    min_size: f64,
    max_w: i32,
) -> (String, f64) {
    let mut at = size;
    while at > min_size {
        if text_width(area, s, at) <= max_w {
            return (s.to_string(), at);
        }
        at = (at - 1.0).max(min_size);
    }
    (fit_text(area, s, min_size, max_w), min_size)
}

/// Width (px) a vertical legend of `entries` needs, title included.
pub(super) fn legend_width<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[LegendEntry],
) -> i32 {
    let labels = entries
        .iter()
        .map(|e| SAMPLE_LEN + SAMPLE_GAP + text_width(area, &e.label, LEGEND_SIZE))
        .max()
        .unwrap_or(0);
    labels.max(text_width(area, title, LEGEND_SIZE)) + 2 * LEGEND_PAD
}

/// Padding inside the legend box (px).
const LEGEND_PAD: i32 = 14;
/// Height of one legend row (px).
const LEGEND_ROW: i32 = 34;

/// Height (px) of the box [`draw_legend`] draws for `entries` entries when they all fit.
pub(super) fn legend_height(entries: usize) -> i32 {
    2 * LEGEND_PAD + (1 + entries as i32) * LEGEND_ROW
}

/// Draws a boxed vertical legend at the top left of `area`, at most as many rows as fit.
pub(super) fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    title: &str,
    entries: &[LegendEntry],
) -> Result<(), PlotError> {
    if entries.is_empty() {
        return Ok(());
    }
    let (w, h) = area.dim_in_pixel();
    let (w, h) = (w as i32, h as i32);
    let box_w = legend_width(area, title, entries).min(w - 4);
    let max_rows = ((h - 2 * LEGEND_PAD) / LEGEND_ROW - 1).max(1) as usize;
    let (shown, hidden) = if entries.len() > max_rows {
        (&entries[..max_rows - 1], entries.len() - (max_rows - 1))
    } else {
        (entries, 0)
    };
    let rows = 1 + shown.len() as i32 + i32::from(hidden > 0);
    let box_h = 2 * LEGEND_PAD + rows * LEGEND_ROW;
    area.draw(&Rectangle::new([(1, 1), (box_w, box_h)], WHITE.filled()))?;
    area.draw(&Rectangle::new(
        [(1, 1), (box_w, box_h)],
        GRID_BOLD.stroke_width(2),
    ))?;
    let x = 1 + LEGEND_PAD;
    let mut y = 1 + LEGEND_PAD + LEGEND_ROW / 2;
    let title = fit_text(area, title, LEGEND_SIZE, box_w - 2 * LEGEND_PAD);
    area.draw_text(
        &title,
        &text_at(LEGEND_SIZE, HPos::Left, VPos::Center),
        (x, y),
    )?;
    let label_w = box_w - 2 * LEGEND_PAD - SAMPLE_LEN - SAMPLE_GAP;
    for e in shown {
        y += LEGEND_ROW;
        let e = LegendEntry {
            label: fit_text(area, &e.label, LEGEND_SIZE, label_w),
            ..e.clone()
        };
        draw_legend_entry(area, (x, y), &e)?;
    }
    if hidden > 0 {
        y += LEGEND_ROW;
        area.draw_text(
            &format!("... and {hidden} more"),
            &text_at(LEGEND_SIZE, HPos::Left, VPos::Center),
            (x, y),
        )?;
    }
    Ok(())
}

/// Writes `message` centred in `area` (used for "no data").
pub(super) fn draw_note<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    message: &str,
) -> Result<(), PlotError> {
    let (w, h) = area.dim_in_pixel();
    area.draw_text(
        message,
        &text_at(AXIS_DESC_SIZE, HPos::Center, VPos::Center),
        (w as i32 / 2, h as i32 / 2),
    )?;
    Ok(())
}

/// Draws a title (and optional subtitle) centred at the top of `root`; returns the area below.
pub(super) fn titled<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    subtitle: Option<&str>,
) -> Result<DrawingArea<DB, Shift>, PlotError> {
    let (w, _) = root.dim_in_pixel();
    let cx = w as i32 / 2;
    let mut y = 14;
    root.draw_text(
        title,
        &text_at(TITLE_SIZE, HPos::Center, VPos::Top),
        (cx, y),
    )?;
    y += TITLE_SIZE as i32 + 4;
    if let Some(sub) = subtitle {
        root.draw_text(
            sub,
            &text_at(SUBTITLE_SIZE, HPos::Center, VPos::Top),
            (cx, y),
        )?;
        y += SUBTITLE_SIZE as i32 + 4;
    }
    Ok(root.split_vertically(y + 6).1)
}

/// The chart builder every plot uses: its margins and an x label area for ticks and the axis
/// description; `y_label_w` (px) is the widest y tick label.
pub(super) fn chart_on<'a, 'b, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    y_label_w: i32,
) -> ChartBuilder<'a, 'b, DB> {
    let mut b = ChartBuilder::on(area);
    b.margin_top(10)
        .margin_left(16)
        .margin_right(28)
        .margin_bottom(12)
        .x_label_area_size(TICK_SIZE as i32 + AXIS_DESC_SIZE as i32 + 28)
        .y_label_area_size(y_label_w + AXIS_DESC_SIZE as i32 + 36);
    b
}
