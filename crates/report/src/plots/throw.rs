//! `throw.png`: TP A-14's throw curve (object ball throw against cut angle), the law's points
//! (Coulomb's friction impulse) over Alciatore's closed form, and the law with pooltool's
//! friction impulse.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;
use pool_harness::ThrowRow;

use super::common::{
    chart_on, draw_legend, draw_line, draw_marker, draw_note, legend_width, palette, text,
    text_width, titled, LegendEntry, LineKind, Marker, AXIS_DESC_SIZE, GRID_BOLD, GRID_LIGHT, INK,
    TICK_SIZE,
};
use super::{render, Figure, PlotError, WIDTH};

/// Marker radius of the law's points (px).
const MARKER_R: i32 = 6;

/// Draws the throw curve of `rows` ([`pool_harness::throw_curve`]) into `<stem>.svg` and
/// `<stem>.png`: one colour per (speed, spin), the law's points (Coulomb's friction impulse)
/// as markers, TP A-14's closed form as a solid line through the same cut angles, the law with
/// pooltool's friction impulse as a dashed one. Non-finite points are skipped.
///
/// # Errors
/// A file cannot be written.
pub fn throw_curve(rows: &[ThrowRow], stem: &Path) -> Result<(), PlotError> {
    render(stem, &Throw { rows })
}

struct Throw<'a> {
    rows: &'a [ThrowRow],
}

impl Throw<'_> {
    /// The (speed, spin) series in first-appearance order.
    fn keys(&self) -> Vec<(f64, String)> {
        let mut out: Vec<(f64, String)> = Vec::new();
        for r in self.rows {
            if !out.iter().any(|(v, s)| *v == r.speed_m_s && *s == r.spin) {
                out.push((r.speed_m_s, r.spin.clone()));
            }
        }
        out
    }
}

impl Figure for Throw<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<(), PlotError>
    where
        DB::ErrorType: 'static,
    {
        let body = titled(
            root,
            "Throw vs cut angle: frictional_inelastic against TP A-14",
            Some(
                "object ball's direction off the line of centers; pool balls, e_b = 0.95; \
                 markers: Coulomb's friction impulse, dashed: pooltool's",
            ),
        )?;
        let finite: Vec<&ThrowRow> = self
            .rows
            .iter()
            .filter(|r| {
                r.cut_deg.is_finite()
                    && r.throw_deg.is_finite()
                    && r.tp_a14_deg.is_finite()
                    && r.pooltool_deg.is_finite()
            })
            .collect();
        if finite.is_empty() {
            return draw_note(&body, "no data");
        }
        let keys = self.keys();
        let mut entries = Vec::new();
        for (k, (v, spin)) in keys.iter().enumerate() {
            entries.push(LegendEntry {
                label: format!("{spin}, {v} m/s: law"),
                colour: palette(k),
                line: None,
                marker: Some((Marker::nth(k), MARKER_R)),
            });
            entries.push(LegendEntry {
                label: format!("{spin}, {v} m/s: TP A-14"),
                colour: palette(k),
                line: Some(LineKind::Solid(2)),
                marker: None,
            });
            entries.push(LegendEntry {
                label: format!("{spin}, {v} m/s: pooltool"),
                colour: palette(k),
                line: Some(LineKind::Dashed(2)),
                marker: None,
            });
        }
        let title = "cue ball";
        let panel_w = legend_width(root, title, &entries).clamp(180, 440) + 24;
        let (plot, legend) = body.split_horizontally(WIDTH as i32 - panel_w);
        let y_max = finite
            .iter()
            .map(|r| r.throw_deg.max(r.tp_a14_deg))
            .fold(0.0, f64::max);
        let y_max = (y_max * 1.1).ceil().max(1.0);
        let mut chart = chart_on(&plot, text_width(root, "0.0", TICK_SIZE))
            .build_cartesian_2d(0.0..90.0, 0.0..y_max)?;
        chart
            .configure_mesh()
            .x_desc("cut angle (deg)")
            .y_desc("throw (deg)")
            .x_labels(10)
            .y_labels(8)
            .axis_desc_style(text(AXIS_DESC_SIZE))
            .label_style(text(TICK_SIZE))
            .x_label_formatter(&|v: &f64| format!("{v:.0}"))
            .y_label_formatter(&|v: &f64| format!("{v:.1}"))
            .bold_line_style(GRID_BOLD.stroke_width(1))
            .light_line_style(GRID_LIGHT.stroke_width(1))
            .axis_style(INK.stroke_width(2))
            .draw()?;
        // Backend pixels, drawn on the root area (whose origin they are relative to).
        let area = root;
        let local = |p: (i32, i32)| p;
        for (k, (v, spin)) in keys.iter().enumerate() {
            let mine: Vec<&&ThrowRow> = finite
                .iter()
                .filter(|r| r.speed_m_s == *v && r.spin == *spin)
                .collect();
            for w in mine.windows(2) {
                let a = local(chart.backend_coord(&(w[0].cut_deg, w[0].tp_a14_deg)));
                let b = local(chart.backend_coord(&(w[1].cut_deg, w[1].tp_a14_deg)));
                draw_line(area, a, b, LineKind::Solid(2), palette(k))?;
                let a = local(chart.backend_coord(&(w[0].cut_deg, w[0].pooltool_deg)));
                let b = local(chart.backend_coord(&(w[1].cut_deg, w[1].pooltool_deg)));
                draw_line(area, a, b, LineKind::Dashed(2), palette(k))?;
            }
            for r in &mine {
                let at = local(chart.backend_coord(&(r.cut_deg, r.throw_deg)));
                draw_marker(area, at, Marker::nth(k), MARKER_R, palette(k))?;
            }
        }
        draw_legend(&legend.margin(10, 0, 0, 10), title, &entries)
    }
}
