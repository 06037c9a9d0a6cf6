//! The legend strip under the shot diagram: path styles, ball symbols and, with event marks,
//! the marker of each event kind, in rows centred under the table.

use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};
use pool_physics::EventKind;

use super::super::common::{
    darker, draw_line, draw_marker, fit_text, text_at, text_width, LineKind, Marker, LEGEND_SIZE,
};
use super::super::PlotError;
use super::marks::{draw_hollow_marker, kind_marker, MARK_DISCRETE, MARK_R, MARK_REFERENCE};
use super::tint;

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
pub(super) fn strip_height<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    discrete_label: &str,
    with_marks: bool,
    width: i32,
) -> i32 {
    strip_rows(root, discrete_label, with_marks, width - 16).len() as i32 * STRIP_ROW + 12
}

/// The legend strip: path styles and ball symbols, in neutral grey.
pub(super) fn draw_legend_strip<DB: DrawingBackend>(
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
