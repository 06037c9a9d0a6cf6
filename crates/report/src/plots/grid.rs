//! `answer_grid.png`: the outcome study's answer as a picture: engines down, families across,
//! each cell filled by its answer's class and labelled with its answer and shots.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::common::{fit_text, shrink_to_fit, text_at, titled, GRID_BOLD, INK};
use super::{render, Figure, PlotError};

/// One cell: its lines of text and its fill (RGB).
#[derive(Clone, Debug, PartialEq)]
pub struct GridCell {
    /// Its parts, top to bottom (one, or a series' two halves), each a horizontal band.
    pub parts: Vec<GridPart>,
}

/// One band of a grid cell: its words and its fill.
#[derive(Clone, Debug, PartialEq)]
pub struct GridPart {
    /// Lines of text, top to bottom (the first in the larger size).
    pub lines: Vec<String>,
    /// Fill colour.
    pub fill: (u8, u8, u8),
}

/// A grid of answers: column headers, one row per engine, and a legend of fills.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The title.
    pub title: String,
    /// A subtitle.
    pub subtitle: String,
    /// Column headers (one per family).
    pub columns: Vec<String>,
    /// Rows: the engine's name and one cell per column (`None`: not played there).
    pub rows: Vec<(String, Vec<Option<GridCell>>)>,
    /// Legend: label and fill.
    pub legend: Vec<(String, (u8, u8, u8))>,
}

/// Draws `grid` into `<stem>.svg` and `<stem>.png`.
///
/// # Errors
/// A file that cannot be created or written.
pub fn answer_grid(grid: &Grid, stem: &Path) -> Result<(), PlotError> {
    render(stem, grid)
}

const HEAD: f64 = 17.0;
/// A column header's second line (the table).
const HEAD_SMALL: f64 = 13.0;
/// The grid's width (px): eight families' columns wide enough for a claim and its numbers.
const GRID_WIDTH: u32 = 1400;
/// A row's height (px): four lines of text.
const ROW_H: i32 = 76;
/// The title and subtitle's height (px), as `titled` draws them.
const TITLE_H: i32 =
    14 + super::common::TITLE_SIZE as i32 + 4 + super::common::SUBTITLE_SIZE as i32 + 4 + 6;
/// The column headers' height (px): the family, then its table.
const HEAD_H: i32 = 44;
/// A legend row's height (px).
const LEGEND_LINE: i32 = 26;

impl Grid {
    /// The legend's entries wrapped into rows of at most `width` px, by a width per character
    /// that bounds the font's (the drawing measures again and wraps the same or sooner).
    fn legend_rows(&self, width: i32) -> usize {
        let mut rows = 1;
        let mut used = 8;
        for (label, _) in &self.legend {
            let wide = 24 + (LEGEND * 0.62 * label.chars().count() as f64) as i32 + 18;
            if used + wide > width && used > 8 {
                rows += 1;
                used = 8;
            }
            used += wide;
        }
        rows
    }
}
const CELL_BIG: f64 = 15.0;
const CELL_SMALL: f64 = 12.0;
const LEGEND: f64 = 16.0;

impl Figure for Grid {
    /// As tall as its rows and legend: no blank area under the grid.
    fn size(&self) -> (u32, u32) {
        let width = GRID_WIDTH;
        let rows = self.rows.len().max(1) as i32;
        let legend = self.legend_rows(width as i32) as i32;
        let h = TITLE_H + HEAD_H + rows * ROW_H + 8 + LEGEND_LINE * legend + 16;
        (width, h.max(200) as u32)
    }

    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let body = titled(root, &self.title, Some(&self.subtitle))?;
        let (w, h) = body.dim_in_pixel();
        let (w, h) = (w as i32, h as i32);
        if self.rows.is_empty() || self.columns.is_empty() {
            return super::common::draw_note(&body, "no answers");
        }
        // The legend's entries, wrapped into rows that fit the width (swatch, gap, label, gap).
        let entry_w = |label: &str| 24 + super::common::text_width(&body, label, LEGEND) + 18;
        let mut legend_rows: Vec<Vec<usize>> = vec![vec![]];
        let mut used = 8;
        for (k, (label, _)) in self.legend.iter().enumerate() {
            let wide = entry_w(label);
            if used + wide > w && !legend_rows.last().is_some_and(Vec::is_empty) {
                legend_rows.push(vec![]);
                used = 8;
            }
            used += wide;
            legend_rows.last_mut().expect("one row at least").push(k);
        }
        let legend_line = LEGEND_LINE;
        let legend_h = legend_line * legend_rows.len() as i32 + 8;
        let name_w = (w / 5).min(230);
        let col_w = (w - name_w - 16) / self.columns.len() as i32;
        let head_h = HEAD_H;
        let row_h = ((h - head_h - legend_h - 10) / self.rows.len() as i32).clamp(24, ROW_H);
        let x0 = 8 + name_w;
        for (c, head) in self.columns.iter().enumerate() {
            let x = x0 + c as i32 * col_w;
            // `family (table)`: the family above, its table below in a smaller size.
            let (family, table) = match head.split_once(" (") {
                Some((f, t)) => (f, Some(t.trim_end_matches(')'))),
                None => (head.as_str(), None),
            };
            let label = fit_text(&body, family, HEAD, col_w - 6);
            let y = if table.is_some() {
                head_h / 3
            } else {
                head_h / 2
            };
            body.draw_text(
                &label,
                &text_at(HEAD, HPos::Center, VPos::Center),
                (x + col_w / 2, y),
            )?;
            if let Some(table) = table {
                let label = fit_text(&body, table, HEAD_SMALL, col_w - 6);
                body.draw_text(
                    &label,
                    &text_at(HEAD_SMALL, HPos::Center, VPos::Center),
                    (x + col_w / 2, 3 * head_h / 4),
                )?;
            }
        }
        for (r, (name, cells)) in self.rows.iter().enumerate() {
            let y = head_h + r as i32 * row_h;
            let label = fit_text(&body, name, HEAD, name_w - 8);
            body.draw_text(
                &label,
                &text_at(HEAD, HPos::Right, VPos::Center),
                (x0 - 8, y + row_h / 2),
            )?;
            for (c, cell) in cells.iter().enumerate() {
                let x = x0 + c as i32 * col_w;
                let rect = [(x + 1, y + 1), (x + col_w - 1, y + row_h - 1)];
                let Some(cell) = cell else {
                    body.draw(&Rectangle::new(rect, GRID_BOLD.stroke_width(1)))?;
                    continue;
                };
                // Each band as tall as its share of the cell's lines.
                let lines: i32 = cell.parts.iter().map(|p| p.lines.len().max(1) as i32).sum();
                let mut top = y + 1;
                for (b, part) in cell.parts.iter().enumerate() {
                    let bottom = if b + 1 == cell.parts.len() {
                        y + row_h - 1
                    } else {
                        top + (row_h - 2) * part.lines.len().max(1) as i32 / lines.max(1)
                    };
                    let (rr, gg, bb) = part.fill;
                    body.draw(&Rectangle::new(
                        [(x + 1, top), (x + col_w - 1, bottom)],
                        RGBColor(rr, gg, bb).filled(),
                    ))?;
                    let n = part.lines.len().max(1) as i32;
                    let h = bottom - top;
                    for (k, line) in part.lines.iter().enumerate() {
                        let size = if k == 0 { CELL_BIG } else { CELL_SMALL };
                        let (text, size) =
                            shrink_to_fit(&body, line, size, CELL_SMALL.min(size), col_w - 8);
                        let dy = (k as i32 * 2 + 1 - n) * h / (2 * n + 1);
                        body.draw_text(
                            &text,
                            &text_at(size, HPos::Center, VPos::Center),
                            (x + col_w / 2, top + h / 2 + dy),
                        )?;
                    }
                    top = bottom;
                }
            }
        }
        // The legend, right under the grid, in as many rows as it needs.
        let top = head_h + self.rows.len() as i32 * row_h + 8;
        for (r, row) in legend_rows.iter().enumerate() {
            let y = top + legend_line * r as i32 + legend_line / 2;
            let mut x = 8;
            for &k in row {
                let (label, (rr, gg, bb)) = &self.legend[k];
                let swatch = [(x, y - 9), (x + 18, y + 9)];
                body.draw(&Rectangle::new(swatch, RGBColor(*rr, *gg, *bb).filled()))?;
                body.draw(&Rectangle::new(swatch, INK.stroke_width(1)))?;
                body.draw_text(
                    label,
                    &text_at(LEGEND, HPos::Left, VPos::Center),
                    (x + 24, y),
                )?;
                x += entry_w(label);
            }
        }
        Ok(())
    }
}
