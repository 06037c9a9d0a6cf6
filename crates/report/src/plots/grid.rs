//! `answer_grid.png`: the outcome study's answer as a picture: engines down, families across,
//! each cell filled by its answer's class and labelled with its answer and shots.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, VPos};

use super::common::{fit_text, text_at, titled, GRID_BOLD, INK};
use super::{render, Figure, PlotError};

/// One cell: its lines of text and its fill (RGB).
#[derive(Clone, Debug, PartialEq)]
pub struct GridCell {
    /// Lines of text, top to bottom (the first in bold size).
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
const CELL_BIG: f64 = 17.0;
const CELL_SMALL: f64 = 13.0;
const LEGEND: f64 = 16.0;

impl Figure for Grid {
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
        let legend_line = 26;
        let legend_h = legend_line * legend_rows.len() as i32 + 8;
        let name_w = (w / 5).min(230);
        let col_w = (w - name_w - 16) / self.columns.len() as i32;
        let head_h = 34;
        let row_h = ((h - head_h - legend_h - 10) / self.rows.len() as i32).clamp(24, 70);
        let x0 = 8 + name_w;
        for (c, head) in self.columns.iter().enumerate() {
            let x = x0 + c as i32 * col_w;
            let label = fit_text(&body, head, HEAD, col_w - 6);
            body.draw_text(
                &label,
                &text_at(HEAD, HPos::Center, VPos::Center),
                (x + col_w / 2, head_h / 2),
            )?;
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
                let (rr, gg, bb) = cell.fill;
                body.draw(&Rectangle::new(rect, RGBColor(rr, gg, bb).filled()))?;
                let n = cell.lines.len().max(1) as i32;
                for (k, line) in cell.lines.iter().enumerate() {
                    let size = if k == 0 { CELL_BIG } else { CELL_SMALL };
                    let text = fit_text(&body, line, size, col_w - 8);
                    let dy = (k as i32 * 2 + 1 - n) * row_h / (2 * n + 1);
                    body.draw_text(
                        &text,
                        &text_at(size, HPos::Center, VPos::Center),
                        (x + col_w / 2, y + row_h / 2 + dy),
                    )?;
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
