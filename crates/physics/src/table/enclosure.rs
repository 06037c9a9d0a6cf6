//! Whether a ball is on the table: every straight path from its center first meets a cushion
//! from its playing side or a pocket ([`Enclosure::escape`]). Built once per ball radius, asked
//! of every ball, so that checking n balls on a table of m elements costs about n m cheap tests
//! and a few paths per ball, not n m paths.

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use super::grid::{Grid, PointHash};
use super::prepared::{Escape, PreparedTable};
use crate::{Aabb, Vec2};

/// Most elements (straight cushions, circular cushions and pockets together) a table may
/// have. Real tables have 18 to 50; a rail drawn as a fine polyline a few thousand. Past it,
/// checking that the balls are on the table would cost more than a second at
/// 10,000 balls (the shot format's limit).
pub const MAX_TABLE_ELEMENTS: usize = 10_000;

/// Most tests of a straight path against an obstacle the on-table check of one set-up may make
/// ([`Enclosure::obstacles_tested`]): about a second. A table whose every end point a ball can
/// pass beside (a star of thousands of spikes) under many balls reaches it; real tables make a
/// few hundred per ball.
pub const MAX_ESCAPE_TESTS: u64 = 20_000_000;

/// The on-table check of balls of one radius on one table: the obstacles' reach indexed in a
/// grid, and which segment ends are joints of two segments (a chain's corner), built once.
#[derive(Debug)]
pub struct Enclosure<'a> {
    table: &'a PreparedTable,
    radius: f64,
    /// Index bounds of [`Self::boxes`]: linear segments below `linear`, circular cushions below
    /// `circular`, then pockets.
    linear: usize,
    circular: usize,
    count: usize,
    grid: Grid,
    /// The pockets' capture circles (a capture line's pocket too), for [`Self::pocket_at`].
    pockets: Grid,
    /// Every segment end in the table's order (a joint once: where its first segment ends),
    /// with what decides whether its tangents are tried.
    ends: Vec<End>,
    /// The indices in `ends` of the ends that are not convex joints: all a ball more than R in
    /// front of every segment's line needs.
    loose: Vec<u32>,
    /// Each segment's line R in front of its face, as `[nx, ny, offset]`: `p` is more than R
    /// in front when `nx p.x + ny p.y > offset` (a hair more, so rounding never claims it).
    fronts: Vec<[f64; 3]>,
    paths: Cell<u64>,
    /// How many obstacles paths have been tested against, over all calls.
    tests: Cell<u64>,
    /// For each obstacle, the last path (numbered over all calls) that offered it.
    stamp: RefCell<Vec<u64>>,
}

/// The obstacles' boxes a little grown so that rounding never leaves one out of the grid's
/// cells: a path's first hit is among those whose box it crosses before it.
const MARGIN: f64 = 1e-6;

impl PreparedTable {
    /// The on-table check of balls of radius `radius` (m): see [`Enclosure::escape`].
    pub fn enclosure(&self, radius: f64) -> Enclosure<'_> {
        let mut boxes: Vec<Aabb> = Vec::new();
        boxes.extend((self.segments().iter()).map(|s| s.bbox.grown(radius + MARGIN)));
        let linear = boxes.len();
        boxes.extend(
            (self.circular_segments().iter())
                .map(|a| Aabb::of(&[a.center]).grown(a.radius + radius + MARGIN)),
        );
        let circular = boxes.len();
        boxes.extend(self.pocket_zones().iter().map(|c| c.reach(MARGIN)));
        let segments = self.segments();
        let clear = radius * (1.0 + 1e-9) + 1e-9;
        let fronts: Vec<[f64; 3]> = (segments.iter())
            .map(|s| [s.normal.x, s.normal.y, s.normal.dot(&s.start) + clear])
            .collect();
        let ends = ends(self);
        let loose = (ends.iter().enumerate())
            .filter(|(_, e)| !matches!(e.joint, Joint::Convex))
            .map(|(i, _)| i as u32)
            .collect();
        Enclosure {
            table: self,
            radius,
            linear,
            circular,
            count: boxes.len(),
            grid: Grid::new(&boxes),
            pockets: Grid::new(
                &(self.pockets.iter())
                    .map(|k| Aabb::of(&[k.center_vec()]).grown(k.radius + MARGIN))
                    .collect::<Vec<_>>(),
            ),
            ends,
            loose,
            fronts,
            paths: Cell::new(0),
            tests: Cell::new(0),
            stamp: RefCell::new(vec![u64::MAX; boxes.len()]),
        }
    }
}

/// A segment end ([`Enclosure::ends`]).
#[derive(Clone, Copy, Debug)]
struct End {
    p: Vec2,
    joint: Joint,
}

/// What meets at a segment end.
#[derive(Clone, Copy, Debug)]
enum Joint {
    /// Not a joint of two segments: its tangents are always tried.
    Loose,
    /// One segment ends where the next starts (within 1e-12 m, nothing else ending there), and
    /// the outline turns left there or goes straight (as [`super::Table::exposed_points`]
    /// hides it): a convex corner of the playing side.
    Convex,
    /// Segment `.0` ends where `.1` starts, and the outline turns right there.
    Reflex(u32, u32),
}

/// Every segment end in the table's order, a joint once (where its first segment ends).
fn ends(table: &PreparedTable) -> Vec<End> {
    let segments = table.segments();
    let mut hash = PointHash::default();
    // Item 2k is segment k's start, 2k + 1 its end.
    for (k, s) in segments.iter().enumerate() {
        hash.insert(s.start, 2 * k);
        hash.insert(s.end, 2 * k + 1);
    }
    let at = |i: usize| {
        let s = &segments[i / 2];
        if i.is_multiple_of(2) {
            s.start
        } else {
            s.end
        }
    };
    // The end `i` meets exactly one other end there, and which.
    let partner = |i: usize| {
        let here: Vec<usize> = (hash.near(at(i)))
            .filter(|&j| (at(j) - at(i)).norm() <= 1e-12)
            .collect();
        match here[..] {
            [a, b] => Some(if a == i { b } else { a }),
            _ => None,
        }
    };
    let mut out = Vec::with_capacity(2 * segments.len());
    for k in 0..segments.len() {
        // A start that is the joint of a segment ending there is listed at that end.
        let start_joined = partner(2 * k).is_some_and(|j| j % 2 == 1 && j / 2 != k);
        if !start_joined {
            out.push(End {
                p: segments[k].start,
                joint: Joint::Loose,
            });
        }
        let joint = match partner(2 * k + 1) {
            Some(j) if j % 2 == 0 && j / 2 != k => {
                let b = j / 2;
                let (u, v) = (segments[k].dir, segments[b].dir);
                if u.x * v.y - u.y * v.x >= 0.0 {
                    Joint::Convex
                } else {
                    Joint::Reflex(k as u32, b as u32)
                }
            }
            _ => Joint::Loose,
        };
        out.push(End {
            p: segments[k].end,
            joint,
        });
    }
    out
}

impl Enclosure<'_> {
    /// Whether a ball centered at `p` is enclosed: every straight path from `p` first meets a
    /// cushion from its playing side (its center reaching R from the segment's face or end, or
    /// R + r from a circular cushion's center) or a pocket's capture circle. `None` when it
    /// is; else a way out. This is what "on the table" means: the region the cushions enclose,
    /// pocket mouths and throats included.
    ///
    /// Exact for tables of segments and circles: the directions that escape (or meet a back
    /// face first) form open arcs whose ends are tangent to an obstacle's reach (an end point's
    /// circle of radius R, a circular cushion's of radius R + r, a pocket circle), so it tries
    /// each such tangent turned a little to either side, and four fixed directions for a table
    /// with no obstacle at all. A joint of two segments of a chain (one ends where the next
    /// starts) bounds no such arc when `p` is more than R in front of both and sees the two
    /// segments on either side of the joint: every path beside it meets one of their faces
    /// from the front. Those joints' tangents are left out, which leaves a closed outline of
    /// any number of segments a few paths per ball.
    pub fn escape(&self, p: Vec2) -> Option<Escape> {
        let radius = self.radius;
        let mut directions: Vec<Vec2> = vec![
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-1.0, 0.0),
            Vec2::new(0.0, -1.0),
        ];
        let mut tangents = |c: Vec2, r: f64| directions.extend(tangents_of(p, c, r));
        if self.clear_of_every_segment(p) {
            // Every face faces `p`: no path meets a back face, and one escapes only past an
            // obstacle's silhouette. A convex joint seen from in front of both its segments is
            // none, nor a reflex joint whose segments lie either side of the path to it.
            for e in self.loose.iter().map(|&i| &self.ends[i as usize]) {
                let tried = match e.joint {
                    Joint::Reflex(a, b) => !self.hidden_reflex(p, a as usize, b as usize),
                    _ => true,
                };
                if tried {
                    tangents(e.p, radius);
                }
            }
        } else {
            for e in &self.ends {
                tangents(e.p, radius);
            }
        }
        for a in self.table.circular_segments() {
            tangents(a.center, a.radius + radius);
        }
        for c in self.table.pocket_zones() {
            match &c.line {
                Some(line) => {
                    tangents(line.start, 0.0);
                    tangents(line.end, 0.0);
                }
                None => tangents(c.center, c.radius),
            }
        }
        // A direction already tried gives the same answer again (joined segments share their
        // end points): each is tried once, in the same order.
        let mut tried = HashSet::new();
        directions.retain(|d| tried.insert((d.x.to_bits(), d.y.to_bits())));
        let first = self.paths.get();
        self.paths.set(first + directions.len() as u64);
        let mut stamp = self.stamp.borrow_mut();
        (directions.into_iter().zip(first..))
            .find_map(|(d, n)| self.first_escape(p, d, n, &mut stamp))
    }

    /// [`super::Table::cushion_overlap`] for this radius, asked of the cushions near `p` only:
    /// the same answer, bit for bit (the first straight cushion in the table's order, else the
    /// first circular one).
    pub fn cushion_overlap(&self, p: Vec2, tol: f64) -> Option<&str> {
        let (table, radius) = (self.table.table(), self.radius);
        let near = || self.grid.near(p);
        let linear = (near().filter(|&k| k < self.linear))
            .filter(|&k| {
                let c = &table.cushions[k];
                let s = c.parameter(p).clamp(0.0, 1.0);
                let closest = c.start() + (c.end() - c.start()) * s;
                (p - closest).norm() < radius - tol
            })
            .min();
        let k = linear.map(|k| table.cushions[k].id.as_str());
        k.or_else(|| {
            (near().filter(|&k| (self.linear..self.circular).contains(&k)))
                .filter(|&k| table.circular_cushions[k - self.linear].gap(p) < radius - tol)
                .min()
                .map(|k| table.circular_cushions[k - self.linear].id.as_str())
        })
    }

    /// The first pocket (in the table's order) whose capture circle holds `p` (closer to its
    /// center than its radius), as a scan of every pocket would find it.
    pub fn pocket_at(&self, p: Vec2) -> Option<&super::Pocket> {
        let pockets = &self.table.table().pockets;
        (self.pockets.near(p))
            .filter(|&k| (p - pockets[k].center_vec()).norm() < pockets[k].radius)
            .min()
            .map(|k| &pockets[k])
    }

    /// [`Self::escape`] without its shortcuts, the oracle its tests hold it to: every end
    /// point's tangents tried, each path's first hit found by a scan of every obstacle.
    pub fn escape_exhaustive(&self, p: Vec2) -> Option<Escape> {
        let table = self.table;
        let mut directions: Vec<Vec2> = vec![
            Vec2::new(1.0, 0.0),
            Vec2::new(0.0, 1.0),
            Vec2::new(-1.0, 0.0),
            Vec2::new(0.0, -1.0),
        ];
        let mut tangents = |c: Vec2, r: f64| directions.extend(tangents_of(p, c, r));
        for s in table.segments() {
            tangents(s.start, self.radius);
            tangents(s.end, self.radius);
        }
        for a in table.circular_segments() {
            tangents(a.center, a.radius + self.radius);
        }
        for c in table.pocket_zones() {
            match &c.line {
                Some(line) => {
                    tangents(line.start, 0.0);
                    tangents(line.end, 0.0);
                }
                None => tangents(c.center, c.radius),
            }
        }
        let all = |n: usize| 0..n;
        directions.into_iter().find_map(|d| {
            table.first_hit(
                p,
                d,
                self.radius,
                all(table.segments().len()),
                all(table.circular_segments().len()),
                all(table.pocket_zones().len()),
            )
        })
    }

    /// How many straight paths [`Self::escape`] has tried so far, over all its calls.
    pub fn paths_tried(&self) -> u64 {
        self.paths.get()
    }

    /// How many obstacles [`Self::escape`]'s paths have been tested against so far, over all
    /// its calls: its work, which [`MAX_ESCAPE_TESTS`] bounds in a set-up's check.
    pub fn obstacles_tested(&self) -> u64 {
        self.tests.get()
    }

    /// Whether `p` is more than R in front of every segment's line. One pass over the lines,
    /// with no branch.
    fn clear_of_every_segment(&self, p: Vec2) -> bool {
        let mut least = f64::INFINITY;
        for &[nx, ny, offset] in &self.fronts {
            let s = nx * p.x + ny * p.y - offset;
            least = if s < least { s } else { least };
        }
        least > 0.0
    }

    /// Whether no path close beside the reflex joint where segment `a` ends and `b` starts
    /// escapes there, for a `p` more than R in front of both lines: the far ends of `a` and
    /// `b` lie strictly on either side of the line from `p` through the joint, so every path
    /// close beside it meets `a`'s or `b`'s reach. (A convex joint seen from in front of both
    /// lines always is.)
    fn hidden_reflex(&self, p: Vec2, a: usize, b: usize) -> bool {
        let segments = self.table.segments();
        let (sa, sb) = (&segments[a], &segments[b]);
        let j = sa.end - p;
        let cross = |q: Vec2| {
            let v = q - p;
            (j.x * v.y - j.y * v.x, j.norm() * v.norm())
        };
        let ((ca, na), (cb, nb)) = (cross(sa.start), cross(sb.end));
        let tol = 1e-9;
        (ca < -tol * na && cb > tol * nb) || (ca > tol * na && cb < -tol * nb)
    }

    /// What the path from `p` along the unit `d` meets first, if that means the ball escapes
    /// (path `n` of this ball, `stamp` marking the obstacles it has offered already).
    fn first_escape(&self, p: Vec2, d: Vec2, n: u64, stamp: &mut [u64]) -> Option<Escape> {
        let (radius, linear, circular) = (self.radius, self.linear, self.circular);
        // The obstacles the path meets, with when, cell by cell along it until past the
        // nearest meeting found so far.
        let mut found: Vec<(usize, f64)> = Vec::new();
        let mut nearest = f64::INFINITY;
        let table = self.table;
        let offer = |k: usize, found: &mut Vec<(usize, f64)>, nearest: &mut f64| {
            self.tests.set(self.tests.get() + 1);
            if let Some(t) = table.hit_time(k, linear, circular, p, d, radius) {
                *nearest = nearest.min(t);
                found.push((k, t));
            }
        };
        for k in self.grid.big() {
            stamp[k] = n;
            offer(k, &mut found, &mut nearest);
        }
        self.grid.walk(p, d, |t, items| {
            if t > nearest + MARGIN {
                return false;
            }
            for &k in items {
                let k = k as usize;
                if stamp[k] != n {
                    stamp[k] = n;
                    offer(k, &mut found, &mut nearest);
                }
            }
            true
        });
        // Only the nearest can be the first hit; the scan below breaks their ties as a scan of
        // every obstacle would.
        let mut found: Vec<usize> = (found.into_iter())
            .filter(|&(_, t)| t <= nearest)
            .map(|(k, _)| k)
            .collect();
        found.sort_unstable();
        let split = |lo: usize, hi: usize| {
            found
                .iter()
                .filter(move |&&k| (lo..hi).contains(&k))
                .map(move |&k| k - lo)
        };
        table.first_hit(
            p,
            d,
            radius,
            split(0, linear),
            split(linear, circular),
            split(circular, self.count),
        )
    }
}

/// The two directions from `p` just past the tangents to the circle of radius `r` at `c`
/// (turned a little outward, so that each path just misses it); none from its center.
fn tangents_of(p: Vec2, c: Vec2, r: f64) -> impl Iterator<Item = Vec2> {
    let d = c - p;
    let dist = d.norm();
    let half = (r / dist).min(1.0).asin();
    let base = d.y.atan2(d.x);
    let sides = if dist == 0.0 {
        &[][..]
    } else {
        &[-1.0, 1.0][..]
    };
    sides.iter().map(move |side| {
        let a = base + side * (half * (1.0 + 1e-7) + 1e-9);
        Vec2::new(a.cos(), a.sin())
    })
}
