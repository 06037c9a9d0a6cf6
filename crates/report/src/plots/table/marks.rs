//! Event markers in the shot diagram: a shape per event kind, filled for the event engine and
//! hollow for the discrete integrator.

use plotters::coord::Shift;
use plotters::prelude::*;
use pool_physics::EventKind;

use super::super::common::Marker;
use super::super::PlotError;

/// Marker shape and legend label of an event kind in the shot diagram.
pub(super) fn kind_marker(kind: EventKind) -> (Marker, &'static str) {
    match kind {
        EventKind::BallBall => (Marker::Diamond, "ball-ball"),
        EventKind::BallLinearCushion | EventKind::BallCircularCushion => {
            (Marker::Square, "cushion")
        }
        EventKind::BallPocket => (Marker::InvertedTriangle, "pocket"),
        EventKind::SlidingRolling => (Marker::Triangle, "sliding -> rolling"),
        // At the struck ball's start, which the diagram marks already; not in the legend.
        EventKind::StickBall => (Marker::Triangle, "cue strike"),
        EventKind::RollingStationary
        | EventKind::RollingSpinning
        | EventKind::SpinningStationary => (Marker::Circle, "stops rolling / spinning"),
    }
}

/// Event-engine markers: filled near-black.
pub(super) const MARK_REFERENCE: RGBColor = RGBColor(30, 30, 30);
/// Discrete markers: hollow red.
pub(super) const MARK_DISCRETE: RGBColor = RGBColor(200, 30, 30);
/// Marker "radius" (px).
pub(super) const MARK_R: i32 = 7;

/// A hollow marker (outline only) of "radius" `r` px at pixel `at`.
pub(super) fn draw_hollow_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    marker: Marker,
    r: i32,
    colour: RGBColor,
) -> Result<(), PlotError> {
    let style = colour.stroke_width(2);
    let rf = f64::from(r);
    let pts: Vec<(f64, f64)> = match marker {
        Marker::Circle => {
            area.draw(&Circle::new((x, y), r, style))?;
            return Ok(());
        }
        Marker::Square => {
            let s = rf * 0.85;
            vec![(-s, -s), (s, -s), (s, s), (-s, s)]
        }
        Marker::Diamond => {
            let s = rf * 1.25;
            vec![(0.0, -s), (s, 0.0), (0.0, s), (-s, 0.0)]
        }
        Marker::Triangle | Marker::InvertedTriangle => {
            let s = rf * 1.3;
            let sign = if marker == Marker::Triangle {
                1.0
            } else {
                -1.0
            };
            vec![
                (0.0, -s * sign),
                (s * 0.866, s * 0.5 * sign),
                (-s * 0.866, s * 0.5 * sign),
            ]
        }
    };
    let mut px: Vec<(i32, i32)> = pts
        .iter()
        .map(|(dx, dy)| (x + dx.round() as i32, y + dy.round() as i32))
        .collect();
    px.push(px[0]);
    area.draw(&PathElement::new(px, style))?;
    Ok(())
}
