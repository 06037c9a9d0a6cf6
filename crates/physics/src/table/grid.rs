//! Uniform grids over a table's elements, so that the checks of a table of n elements (its
//! exposed end points, whether a ball is enclosed) look at the few elements near a point or a
//! path instead of all n for each of O(n) points or paths. They only choose which elements to
//! test: every test is the exact one the elements' own methods make.

use std::collections::HashMap;

use crate::{Aabb, Vec2};

/// Items whose box spans more cells than this are offered to every query instead (a rail
/// across the whole table), which keeps the grid's size linear in the item count.
const MAX_CELLS_PER_ITEM: usize = 64;

/// A grid of about one cell per item over the items' boxes; each cell lists the items whose
/// box meets it.
#[derive(Debug)]
pub(crate) struct Grid {
    min: Vec2,
    side: f64,
    nx: usize,
    ny: usize,
    cells: Vec<Vec<u32>>,
    /// Items offered to every query: boxes too large for the grid, or not finite.
    big: Vec<u32>,
}

impl Grid {
    /// The grid of `boxes` (item k is `boxes[k]`).
    pub(crate) fn new(boxes: &[Aabb]) -> Grid {
        let finite = |b: &Aabb| {
            [b.min.x, b.min.y, b.max.x, b.max.y]
                .iter()
                .all(|v| v.is_finite())
        };
        let (mut lo, mut hi) = (
            Vec2::new(f64::INFINITY, f64::INFINITY),
            Vec2::new(f64::NEG_INFINITY, f64::NEG_INFINITY),
        );
        for b in boxes.iter().filter(|b| finite(b)) {
            lo = Vec2::new(lo.x.min(b.min.x), lo.y.min(b.min.y));
            hi = Vec2::new(hi.x.max(b.max.x), hi.y.max(b.max.y));
        }
        let n = boxes.len().max(1) as f64;
        let (w, h) = ((hi.x - lo.x).max(0.0), (hi.y - lo.y).max(0.0));
        let mut side = (w * h / n).sqrt();
        if !(side.is_finite() && side > 0.0) {
            side = (w.max(h) / n).max(f64::MIN_POSITIVE);
        }
        // Cells no smaller than a quarter of the typical box: most boxes span at most 5 x 5
        // cells, so few are too large to index.
        let mut extents: Vec<f64> = (boxes.iter().filter(|b| finite(b)))
            .map(|b| (b.max.x - b.min.x).max(b.max.y - b.min.y))
            .collect();
        if !extents.is_empty() {
            let mid = extents.len() / 2;
            let (_, median, _) = extents.select_nth_unstable_by(mid, f64::total_cmp);
            side = side.max(*median / 4.0);
        }
        if !side.is_finite() || !lo.x.is_finite() {
            // Nothing finite: every item is big.
            return Grid {
                min: Vec2::zeros(),
                side: 1.0,
                nx: 1,
                ny: 1,
                cells: vec![Vec::new()],
                big: (0..boxes.len() as u32).collect(),
            };
        }
        // At most about 4 n cells: a long thin spread gets wider cells.
        let cap = 4.0 * n + 16.0;
        while ((w / side).floor() + 1.0) * ((h / side).floor() + 1.0) > cap {
            side *= 2.0;
        }
        let nx = (w / side) as usize + 1;
        let ny = (h / side) as usize + 1;
        let mut grid = Grid {
            min: lo,
            side,
            nx,
            ny,
            cells: vec![Vec::new(); nx * ny],
            big: Vec::new(),
        };
        for (k, b) in boxes.iter().enumerate() {
            if !finite(b) {
                grid.big.push(k as u32);
                continue;
            }
            let (i0, j0) = grid.cell_of(b.min);
            let (i1, j1) = grid.cell_of(b.max);
            if (i1 - i0 + 1) * (j1 - j0 + 1) > MAX_CELLS_PER_ITEM {
                grid.big.push(k as u32);
                continue;
            }
            for j in j0..=j1 {
                for i in i0..=i1 {
                    grid.cells[j * nx + i].push(k as u32);
                }
            }
        }
        grid
    }

    /// The cell holding `p`, clamped to the grid.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let at = |v: f64, lo: f64, n: usize| {
            let c = ((v - lo) / self.side).floor();
            if c.is_nan() || c < 0.0 {
                0
            } else {
                (c as usize).min(n - 1)
            }
        };
        (at(p.x, self.min.x, self.nx), at(p.y, self.min.y, self.ny))
    }

    /// Every item whose box may hold `p` (and the big ones), each once, in no order.
    pub(crate) fn near(&self, p: Vec2) -> impl Iterator<Item = usize> + '_ {
        let inside = p.x >= self.min.x
            && p.y >= self.min.y
            && p.x <= self.min.x + self.side * self.nx as f64
            && p.y <= self.min.y + self.side * self.ny as f64;
        let cell: &[u32] = if inside {
            let (i, j) = self.cell_of(p);
            &self.cells[j * self.nx + i]
        } else {
            &[]
        };
        cell.iter().chain(&self.big).map(|&k| k as usize)
    }

    /// The items offered to every query.
    pub(crate) fn big(&self) -> impl Iterator<Item = usize> + '_ {
        self.big.iter().map(|&k| k as usize)
    }

    /// The cells the path `p + t d` (t >= 0) crosses, in order, each with the t at which the
    /// path enters it, calling `visit(t_enter, items)` until it returns false.
    pub(crate) fn walk(&self, p: Vec2, d: Vec2, mut visit: impl FnMut(f64, &[u32]) -> bool) {
        let (ox, oy) = (self.min.x, self.min.y);
        let (ex, ey) = (
            ox + self.side * self.nx as f64,
            oy + self.side * self.ny as f64,
        );
        // The path's part inside the grid's box: [t0, t1].
        let (mut t0, mut t1) = (0.0f64, f64::INFINITY);
        for (o, v, lo, hi) in [(p.x, d.x, ox, ex), (p.y, d.y, oy, ey)] {
            if v == 0.0 {
                if o < lo || o > hi {
                    return;
                }
            } else {
                let (a, b) = ((lo - o) / v, (hi - o) / v);
                t0 = t0.max(a.min(b));
                t1 = t1.min(a.max(b));
            }
        }
        // Written so that a NaN bound returns too.
        #[allow(clippy::neg_cmp_op_on_partial_ord)]
        if !(t0 <= t1) {
            return;
        }
        let start = p + d * t0;
        let (mut i, mut j) = self.cell_of(start);
        let step = |v: f64| if v > 0.0 { 1i64 } else { -1 };
        let (si, sj) = (step(d.x), step(d.y));
        // The t at which the path crosses the next cell boundary on each axis.
        let next = |c: usize, s: i64, o: f64, lo: f64, v: f64| {
            if v == 0.0 {
                return (f64::INFINITY, f64::INFINITY);
            }
            let edge = lo + self.side * (c as f64 + if s > 0 { 1.0 } else { 0.0 });
            ((edge - o) / v, self.side / v.abs())
        };
        let (mut tx, dtx) = next(i, si, p.x, ox, d.x);
        let (mut ty, dty) = next(j, sj, p.y, oy, d.y);
        let mut t = t0;
        loop {
            if !visit(t, &self.cells[j * self.nx + i]) {
                return;
            }
            if tx <= ty {
                t = tx;
                tx += dtx;
                let ni = i as i64 + si;
                if ni < 0 || ni >= self.nx as i64 || t > t1 {
                    return;
                }
                i = ni as usize;
            } else {
                t = ty;
                ty += dty;
                let nj = j as i64 + sj;
                if nj < 0 || nj >= self.ny as i64 || t > t1 {
                    return;
                }
                j = nj as usize;
            }
        }
    }
}

/// Points found by position to within a tolerance far below the cell size: each point is
/// filed under its cell of side [`PointHash::SIDE`], and a query looks at the 3 x 3 cells
/// around it.
#[derive(Debug, Default)]
pub(crate) struct PointHash {
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl PointHash {
    /// Cell side (m): far above the 1e-12 m the table's checks match end points to.
    const SIDE: f64 = 1e-6;

    fn key(p: Vec2) -> (i64, i64) {
        // `as` saturates (and maps NaN to 0): any point has a cell.
        (
            (p.x / Self::SIDE).floor() as i64,
            (p.y / Self::SIDE).floor() as i64,
        )
    }

    /// Files item `k` at `p`.
    pub(crate) fn insert(&mut self, p: Vec2, k: usize) {
        self.cells.entry(Self::key(p)).or_default().push(k);
    }

    /// The items filed within one cell of `p`, in no order.
    pub(crate) fn near(&self, p: Vec2) -> impl Iterator<Item = usize> + '_ {
        let (i, j) = Self::key(p);
        (-1i64..=1)
            .flat_map(move |dj| {
                (-1i64..=1).map(move |di| (i.saturating_add(di), j.saturating_add(dj)))
            })
            .filter_map(|c| self.cells.get(&c))
            .flatten()
            .copied()
    }
}
