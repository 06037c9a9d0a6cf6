//! Per-cell lists of the cushions and pockets a ball can touch.
//!
//! The table's bounding box (cushions and pockets, plus a margin) is cut into square cells. A
//! cushion (a straight segment, or a circular one: see [`TableCells::cushions_near`]) is listed
//! in a cell when the cell meets the cushion's bounding box grown by R + [`SLACK`]; a pocket
//! when the cell meets its capture zone's bounding box (its circle's, or its capture line's)
//! grown by [`SLACK`]. A ball whose path over a step (start and end) stays in one cell can touch only the
//! cushions listed there: the cushion test needs the contact point (on the path) within R of
//! the segment, and every point of the cell is farther than R + SLACK from the unlisted ones.
//! Lists keep the table's order, so the first contact found is the one the full scan finds.

use pool_physics::{PreparedTable, Vec2};

/// Margin (m) added to every reach: far above floating-point rounding of table coordinates
/// (~1e-16 m), far below anything that matters.
pub(crate) const SLACK: f64 = 1e-6;

/// Cell side (m): large enough that a ball rarely crosses a cell boundary in one step at the
/// sweep's time steps, small enough that cells far from the rails list nothing.
const CELL: f64 = 0.1;

/// The table's cells and their cushion and pocket lists (indices into the table's lists).
#[derive(Clone, Debug)]
pub(crate) struct TableCells {
    origin: Vec2,
    nx: usize,
    ny: usize,
    /// Cushion lists: `cushion_idx[cushion_start[c]..cushion_start[c + 1]]` for cell c; an
    /// index k below the number of straight segments n is segment k, and n + j circular
    /// cushion j.
    cushion_start: Vec<u32>,
    cushion_idx: Vec<u16>,
    pocket_start: Vec<u32>,
    pocket_idx: Vec<u16>,
    all_cushions: Vec<u16>,
    all_pockets: Vec<u16>,
    /// Whether any pocket captures by a line: a center captured by a line may end its step
    /// far behind it, so its pockets are looked up by the step's path, not by its end.
    capture_lines: bool,
    /// A box meeting no cushion's or pocket's reach box, grown by SLACK: the open middle of
    /// the table, where a ball needs no cell lookup (see [`TableCells::in_clear_zone`]).
    clear_zone: Aabb,
}

/// Axis-aligned box (min x, min y, max x, max y).
type Aabb = [f64; 4];

fn meets(a: &Aabb, b: &Aabb) -> bool {
    a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3]
}

impl TableCells {
    /// Cells for `table` and balls of radius up to `radius` (m).
    pub fn new(table: &PreparedTable, radius: f64) -> Self {
        let corners = |b: pool_physics::Aabb| [b.min.x, b.min.y, b.max.x, b.max.y];
        let reach = radius + SLACK;
        let segments = table.segments();
        let cushion_boxes: Vec<Aabb> = (segments.iter().map(|s| s.bbox))
            .chain(table.circular_segments().iter().map(|a| a.bbox))
            .map(|b| corners(b.grown(reach)))
            .collect();
        let pocket_boxes: Vec<Aabb> = (table.pocket_zones().iter())
            .map(|p| corners(p.reach(SLACK)))
            .collect();
        let mut bounds: Aabb = [0.0, 0.0, table.length, table.width];
        for b in cushion_boxes.iter().chain(&pocket_boxes) {
            bounds = [
                bounds[0].min(b[0]),
                bounds[1].min(b[1]),
                bounds[2].max(b[2]),
                bounds[3].max(b[3]),
            ];
        }
        let origin = Vec2::new(bounds[0] - CELL, bounds[1] - CELL);
        // Finite, validated tables have a finite extent; cap the grid at 1000 x 1000 cells.
        let cells = |extent: f64| ((extent / CELL).ceil() as usize + 2).clamp(1, 1000);
        let (nx, ny) = (cells(bounds[2] - bounds[0]), cells(bounds[3] - bounds[1]));
        let mut cushion_start = Vec::with_capacity(nx * ny + 1);
        let mut cushion_idx = Vec::new();
        let mut pocket_start = Vec::with_capacity(nx * ny + 1);
        let mut pocket_idx = Vec::new();
        for cy in 0..ny {
            for cx in 0..nx {
                let lo = origin + Vec2::new(cx as f64 * CELL, cy as f64 * CELL);
                // The cell, grown by SLACK against rounding of the cell index.
                let cell: Aabb = [
                    lo.x - SLACK,
                    lo.y - SLACK,
                    lo.x + CELL + SLACK,
                    lo.y + CELL + SLACK,
                ];
                cushion_start.push(cushion_idx.len() as u32);
                cushion_idx.extend(
                    (0..cushion_boxes.len())
                        .filter(|&k| meets(&cell, &cushion_boxes[k]))
                        .map(|k| k as u16),
                );
                pocket_start.push(pocket_idx.len() as u32);
                pocket_idx.extend(
                    (0..pocket_boxes.len())
                        .filter(|&k| meets(&cell, &pocket_boxes[k]))
                        .map(|k| k as u16),
                );
            }
        }
        cushion_start.push(cushion_idx.len() as u32);
        pocket_start.push(pocket_idx.len() as u32);
        let clear_zone = clear_zone(
            [0.0, 0.0, table.length, table.width],
            cushion_boxes.iter().chain(&pocket_boxes),
        );
        TableCells {
            clear_zone,
            all_cushions: (0..cushion_boxes.len() as u16).collect(),
            all_pockets: (0..table.pockets.len() as u16).collect(),
            capture_lines: table.pocket_zones().iter().any(|z| z.line.is_some()),
            origin,
            nx,
            ny,
            cushion_start,
            cushion_idx,
            pocket_start,
            pocket_idx,
        }
    }

    /// The cell holding `p`, or `None` outside the grid (or for a non-finite point).
    #[inline]
    fn cell(&self, p: Vec2) -> Option<usize> {
        // A multiplication instead of a division: rounding of the index is covered by the
        // cells' SLACK, and the lists are only ever looked up through this function.
        let fx = (p.x - self.origin.x) * (1.0 / CELL);
        let fy = (p.y - self.origin.y) * (1.0 / CELL);
        // Also false for NaN. In range (0 <= f < 1000), so `as u32` truncates like `as usize`
        // but compiles to one instruction instead of the saturating u64 sequence, which cost a
        // sixth of a step.
        if fx >= 0.0 && fy >= 0.0 && fx < self.nx as f64 && fy < self.ny as f64 {
            Some(fy as u32 as usize * self.nx + fx as u32 as usize)
        } else {
            None
        }
    }

    /// True if `p` lies in the open middle of the table, a box that no cushion's reach box
    /// (the segment's box grown by R + SLACK) and no pocket's box meets: a ball whose path over
    /// a step starts and ends here (the zone is a box, so the whole path is in it) is farther
    /// than R + SLACK from every cushion and outside every pocket, so every cushion and pocket
    /// test of the cell lists would fail. Four comparisons instead of a cell lookup; false
    /// for NaN.
    #[inline]
    pub fn in_clear_zone(&self, p: Vec2) -> bool {
        let z = &self.clear_zone;
        p.x > z[0] && p.x < z[2] && p.y > z[1] && p.y < z[3]
    }

    /// The cushions a ball moving from `r0` to `r1` during a step can touch, in table order
    /// (straight segments k < n, then circular cushions n + j): the cell's list when both ends
    /// are in one cell, otherwise every cushion.
    #[inline]
    pub fn cushions_near(&self, r0: Vec2, r1: Vec2) -> &[u16] {
        match (self.cell(r0), self.cell(r1)) {
            (Some(a), Some(b)) if a == b => {
                &self.cushion_idx
                    [self.cushion_start[a] as usize..self.cushion_start[a + 1] as usize]
            }
            _ => &self.all_cushions,
        }
    }

    /// The pockets that may capture a ball moving from `r0` to `r1` during a step, in table
    /// order: those whose circle may hold `r1`, or on a table with capture lines, the cell's
    /// list when both ends are in one cell, otherwise every pocket.
    #[inline]
    pub fn pockets_near(&self, r0: Vec2, r1: Vec2) -> &[u16] {
        let cell = if self.capture_lines {
            match (self.cell(r0), self.cell(r1)) {
                (Some(a), Some(b)) if a == b => Some(a),
                _ => None,
            }
        } else {
            self.cell(r1)
        };
        match cell {
            Some(a) => {
                &self.pocket_idx[self.pocket_start[a] as usize..self.pocket_start[a + 1] as usize]
            }
            None => &self.all_pockets,
        }
    }

    /// Whether a step from `r0` (in the clear zone: `clear_before`) to `r1` (`clear_after`)
    /// can be captured by no pocket: its end is in the clear zone, and on a table with capture
    /// lines its start too (the zone is a box, so the whole path is in it).
    #[inline]
    pub fn no_pocket_on_path(&self, clear_before: bool, clear_after: bool) -> bool {
        clear_after && (clear_before || !self.capture_lines)
    }

    /// Every cushion (straight, then circular), in table order.
    pub fn all_cushions(&self) -> &[u16] {
        &self.all_cushions
    }

    /// Every pocket, in table order.
    pub fn all_pockets(&self) -> &[u16] {
        &self.all_pockets
    }
}

/// A large box found by shrinking `start` until it meets none of `boxes` (each grown by
/// SLACK): for each box it meets, the side that keeps the most area moves just past it. One
/// pass is enough: the box only shrinks, so a box it has stopped meeting stays apart. An empty
/// result (min > max) is a zone nothing is in.
fn clear_zone<'a>(start: Aabb, boxes: impl Iterator<Item = &'a Aabb>) -> Aabb {
    let mut z = start;
    for b in boxes {
        let b = [b[0] - SLACK, b[1] - SLACK, b[2] + SLACK, b[3] + SLACK];
        if !meets(&z, &b) {
            continue;
        }
        let (w, h) = (z[2] - z[0], z[3] - z[1]);
        // Area kept by each cut: raise min x past b, lower max x below b, same for y.
        let cuts = [
            ((z[2] - b[2]) * h, 0, b[2]),
            ((b[0] - z[0]) * h, 2, b[0]),
            ((z[3] - b[3]) * w, 1, b[3]),
            ((b[1] - z[1]) * w, 3, b[1]),
        ];
        let best = cuts
            .iter()
            .copied()
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .expect("four cuts");
        z[best.1] = best.2;
    }
    z
}

#[cfg(test)]
mod tests {
    use super::*;

    const R: f64 = 0.028575;

    use pool_physics::{LinearSegment, Table};

    /// Distance (m) from `p` to the segment.
    fn to_segment(s: &LinearSegment, p: Vec2) -> f64 {
        let t = s.parameter(p).clamp(0.0, 1.0);
        (p - (s.start + s.dir * t)).norm()
    }

    #[test]
    fn every_cushion_within_reach_of_a_point_is_listed_in_its_cell() {
        let table = PreparedTable::from(Table::seven_foot());
        let cells = TableCells::new(&table, R);
        let mut listed_somewhere_short = false;
        // A 2 mm lattice over the table and its surroundings.
        for ix in -60..=1050 {
            for iy in -60..=550 {
                let p = Vec2::new(ix as f64 * 0.002, iy as f64 * 0.002);
                let near = cells.cushions_near(p, p);
                if near.len() < table.segments().len() {
                    listed_somewhere_short = true;
                }
                for (k, s) in table.segments().iter().enumerate() {
                    if to_segment(s, p) <= R {
                        assert!(near.contains(&(k as u16)), "cushion {k} missing at {p:?}");
                    }
                }
                let pockets = cells.pockets_near(p, p);
                for (k, pk) in table.pockets.iter().enumerate() {
                    if (p - pk.center_vec()).norm() <= pk.radius {
                        assert!(pockets.contains(&(k as u16)), "pocket {k} missing at {p:?}");
                    }
                }
            }
        }
        assert!(listed_somewhere_short, "cells must cull something");
        // The clear zone covers most of the table, and no cushion reaches into it nor any
        // pocket circle.
        let z = cells.clear_zone;
        assert!((z[2] - z[0]) * (z[3] - z[1]) > 0.6 * table.length * table.width);
        for ix in 0..=1000 {
            for iy in 0..=500 {
                let p = Vec2::new(ix as f64 * 0.002, iy as f64 * 0.002);
                if cells.in_clear_zone(p) {
                    for (k, s) in table.segments().iter().enumerate() {
                        assert!(to_segment(s, p) > R + SLACK, "cushion {k} reaches {p:?}");
                    }
                    for (k, pk) in table.pockets.iter().enumerate() {
                        assert!(
                            (p - pk.center_vec()).norm() > pk.radius,
                            "pocket {k} at {p:?}"
                        );
                    }
                }
            }
        }
        // The middle of the table is clear of every cushion and pocket.
        let mid = Vec2::new(table.length / 2.0 + 0.2, table.width / 2.0);
        assert!(cells.cushions_near(mid, mid).is_empty());
        assert!(cells.pockets_near(mid, mid).is_empty());
    }

    #[test]
    fn a_path_across_a_capture_line_gets_its_pocket_wherever_it_ends() {
        // The `fastfiz` table captures on lines: a ball crossing one in a long step may end
        // far behind it, in another cell or off the grid, and must still be tested.
        let table = PreparedTable::from(Table::fastfiz());
        let cells = TableCells::new(&table, R);
        assert!(!cells.no_pocket_on_path(false, true));
        let side = 1; // cb: the line y = R across the bottom side mouth
        let zone = &table.pocket_zones()[side];
        let x = table.length / 2.0;
        for (from, to) in [
            (Vec2::new(x, 0.05), Vec2::new(x, 0.02)),
            (Vec2::new(x, 0.3), Vec2::new(x + 0.01, -0.2)),
            (Vec2::new(x, 0.04), Vec2::new(x, -30.0)),
        ] {
            assert!(zone.captures(from, to), "{from:?} -> {to:?}");
            let near = cells.pockets_near(from, to);
            assert!(
                near.contains(&(side as u16)),
                "{from:?} -> {to:?}: {near:?}"
            );
        }
        // Crossing beside the mouth (onto the rail's line), or from behind, is no capture.
        assert!(!zone.captures(Vec2::new(0.5, 0.05), Vec2::new(0.5, 0.02)));
        assert!(!zone.captures(Vec2::new(x, 0.02), Vec2::new(x, 0.05)));
        assert!(!zone.captures(Vec2::new(x, 0.02), Vec2::new(x, 0.01)));
    }

    #[test]
    fn paths_across_cells_or_off_the_grid_get_every_cushion() {
        let table = PreparedTable::from(Table::seven_foot());
        let cells = TableCells::new(&table, R);
        let n = table.segments().len();
        assert_eq!(
            cells
                .cushions_near(Vec2::new(0.5, 0.5), Vec2::new(0.95, 0.5))
                .len(),
            n
        );
        assert_eq!(
            cells
                .cushions_near(Vec2::new(50.0, 0.5), Vec2::new(50.0, 0.5))
                .len(),
            n
        );
        let nan = Vec2::new(f64::NAN, 0.5);
        assert_eq!(cells.cushions_near(nan, nan).len(), n);
    }
}
