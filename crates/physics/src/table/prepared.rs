//! The table the engines, the checks and the plots use: the description plus every element's
//! geometry computed once, bit for bit as the description's methods compute it.

use super::{CircularCushion, Cushion, Pocket, Table};
use crate::{Aabb, Vec2};

/// A straight cushion segment (pooltool's `LinearCushionSegment`) with what every contact test
/// needs computed once. The playing side is on the left of start -> end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinearSegment {
    /// p1 (m).
    pub start: Vec2,
    /// p2 (m).
    pub end: Vec2,
    /// Unit normal into the playing side ([`Cushion::inward_normal`]).
    pub normal: Vec2,
    /// end - start (m).
    pub dir: Vec2,
    /// |end - start|^2 (m^2).
    pub length_sq: f64,
    /// dir . start (m^2): where the segment begins along `dir`.
    pub along_start: f64,
    /// Contact height above the slate (m).
    pub height: f64,
    /// The box of its two end points.
    pub bbox: Aabb,
}

impl LinearSegment {
    /// The segment of a cushion.
    pub fn new(c: &Cushion) -> Self {
        let (start, end) = (c.start(), c.end());
        let dir = end - start;
        LinearSegment {
            start,
            end,
            normal: c.inward_normal(),
            dir,
            length_sq: dir.norm_squared(),
            along_start: dir.dot(&start),
            height: c.height,
            bbox: Aabb::of(&[start, end]),
        }
    }

    /// [`Cushion::signed_distance`], bit for bit: positive on the playing side (m).
    #[inline]
    pub fn signed_distance(&self, p: Vec2) -> f64 {
        self.normal.dot(&(p - self.start))
    }

    /// [`Cushion::parameter`], bit for bit: 0 at the start, 1 at the end.
    #[inline]
    pub fn parameter(&self, p: Vec2) -> f64 {
        (p - self.start).dot(&self.dir) / self.length_sq
    }

    /// The unit collision normal of a face contact, from the ball toward the cushion.
    #[inline]
    pub fn outward_normal(&self) -> Vec2 {
        -self.normal
    }

    /// Where the chord from `p0` to `p1` crosses the segment from its playing side: the
    /// fraction of the chord (in [0, 1)), when `p0` is on the playing side or on the line,
    /// `p1` strictly behind it, and the crossing point inside the segment (0 <= s <= 1).
    #[inline]
    pub fn crossed(&self, p0: Vec2, p1: Vec2) -> Option<f64> {
        let (d0, d1) = (self.signed_distance(p0), self.signed_distance(p1));
        if !(d0 >= 0.0 && d1 < 0.0) {
            return None;
        }
        let sigma = d0 / (d0 - d1);
        (0.0..=1.0)
            .contains(&self.parameter(p0 + (p1 - p0) * sigma))
            .then_some(sigma)
    }
}

/// A circular cushion segment (pooltool's `CircularCushionSegment`): a ball touches it when its
/// center is R + `radius` from `center`, from outside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CircularSegment {
    /// Circle center (m).
    pub center: Vec2,
    /// Circle radius (m).
    pub radius: f64,
    /// Contact height above the slate (m).
    pub height: f64,
    /// The circle's box.
    pub bbox: Aabb,
}

impl CircularSegment {
    /// The segment of a circular cushion.
    pub fn new(c: &CircularCushion) -> Self {
        let center = c.center_vec();
        CircularSegment {
            center,
            radius: c.radius,
            height: c.height,
            bbox: Aabb::of(&[center]).grown(c.radius),
        }
    }

    /// The unit collision normal of a ball centered at `p` touching the circle, from the
    /// ball toward the circle's center (pooltool's `get_normal_xy`, reversed).
    #[inline]
    pub fn normal(&self, p: Vec2) -> Vec2 {
        (self.center - p).normalize()
    }

    /// Distance (m) from `p` to the circle's edge ([`CircularCushion::gap`]): positive outside.
    #[inline]
    pub fn gap(&self, p: Vec2) -> f64 {
        (p - self.center).norm() - self.radius
    }
}

/// A cushion end point a ball can touch ([`Table::exposed_points`]: a jaw tip or an open end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndPoint {
    /// Where (m).
    pub p: Vec2,
    /// The first segment that ends there (its index): the cushion an event names.
    pub segment: usize,
}

/// Where a pocket captures: inside its circle, or (with a [`Pocket::capture_line`]) across
/// its line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PocketZone {
    /// The circle's center (m).
    pub center: Vec2,
    /// The circle's radius (m).
    pub radius: f64,
    /// The capture line, crossed from its playing side (its left), when the pocket has one;
    /// then the circle captures nothing.
    pub line: Option<LinearSegment>,
}

impl PocketZone {
    /// The zone of a pocket.
    pub fn new(p: &Pocket) -> Self {
        PocketZone {
            center: p.center_vec(),
            radius: p.radius,
            line: p.capture_line.map(|[a, b]| {
                LinearSegment::new(&Cushion {
                    id: String::new(),
                    p1: a,
                    p2: b,
                    height: 0.0,
                })
            }),
        }
    }

    /// The box a captured center enters it through, grown by `extra` (m): the circle's box,
    /// or the line's.
    pub fn reach(&self, extra: f64) -> Aabb {
        match &self.line {
            Some(line) => line.bbox.grown(extra),
            None => Aabb::of(&[self.center]).grown(self.radius + extra),
        }
    }

    /// Whether a center that moved from `p0` to `p1` (m, a step's chord) is captured at `p1`:
    /// for a circle, `p1` is inside it; for a line, the chord crosses the segment from the
    /// playing side (`p0` on it or on the line, `p1` behind it).
    #[inline]
    pub fn captures(&self, p0: Vec2, p1: Vec2) -> bool {
        match &self.line {
            None => (p1 - self.center).norm_squared() < self.radius * self.radius,
            Some(line) => line.crossed(p0, p1).is_some(),
        }
    }
}

/// A [`Table`] with its elements' geometry computed once: linear segments (same indices as
/// `cushions`), the end points a ball can touch, circular segments (same indices as
/// `circular_cushions`) and the pockets (same indices as `pockets`).
/// Reads as its description through `Deref`; built from it with `From`.
#[derive(Clone, Debug)]
pub struct PreparedTable {
    description: Table,
    /// Whether the description is a built-in table's (then it is closed around its whole
    /// playing area and faces it: `tests/table.rs` proves it, and [`PreparedTable::escape`]
    /// need not be asked).
    built_in: bool,
    linear: Vec<LinearSegment>,
    exposed: Vec<EndPoint>,
    circular: Vec<CircularSegment>,
    zones: Vec<PocketZone>,
}

impl PreparedTable {
    /// Prepares a table (not validated here: see [`Table::validate`]).
    pub fn new(table: Table) -> Self {
        PreparedTable {
            linear: table.cushions.iter().map(LinearSegment::new).collect(),
            exposed: table
                .exposed_points()
                .into_iter()
                .map(|(p, segment)| EndPoint { p, segment })
                .collect(),
            circular: (table.circular_cushions.iter())
                .map(CircularSegment::new)
                .collect(),
            zones: table.pockets.iter().map(PocketZone::new).collect(),
            built_in: Table::by_name(&table.name).is_some_and(|t| t == table),
            description: table,
        }
    }

    /// Whether the description is one of the built-in tables ([`Table::by_name`]).
    pub fn is_built_in(&self) -> bool {
        self.built_in
    }

    /// The description.
    pub fn table(&self) -> &Table {
        &self.description
    }

    /// Every straight cushion segment, in `cushions` order.
    pub fn segments(&self) -> &[LinearSegment] {
        &self.linear
    }

    /// The cushion end points a ball can touch.
    pub fn end_points(&self) -> &[EndPoint] {
        &self.exposed
    }

    /// Every circular cushion segment, in `circular_cushions` order.
    pub fn circular_segments(&self) -> &[CircularSegment] {
        &self.circular
    }

    /// Every pocket's capture zone, in `pockets` order.
    pub fn pocket_zones(&self) -> &[PocketZone] {
        &self.zones
    }
}

/// How a ball can leave a table: see [`PreparedTable::escape`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Escape {
    /// Rolling this way (a unit vector), its center never comes within R of a cushion nor
    /// enters a pocket: the table is open there.
    Open(Vec2),
    /// Rolling this way, the first cushion it meets (this segment) faces away from it: the ball
    /// is behind the cushion, off the playing side.
    Behind(Vec2, usize),
}

impl PreparedTable {
    /// Whether a ball of radius `radius` (m) centered at `p` is enclosed: see
    /// [`Enclosure::escape`], of which this is one call (a check of many balls builds the
    /// [`Enclosure`] once, [`PreparedTable::enclosure`]).
    pub fn escape(&self, p: Vec2, radius: f64) -> Option<Escape> {
        self.enclosure(radius).escape(p)
    }

    /// When the path from `p` along the unit `d` first meets obstacle `k` of [`Self::escape`]'s
    /// list (linear segments below `linear`, circular ones below `circular`, then pockets).
    pub(super) fn hit_time(
        &self,
        k: usize,
        linear: usize,
        circular: usize,
        p: Vec2,
        d: Vec2,
        radius: f64,
    ) -> Option<f64> {
        let none = std::iter::empty();
        let mut t = None;
        let mut offer = |x: f64| {
            if x >= 0.0 && t.is_none_or(|b| x < b) {
                t = Some(x);
            }
        };
        if k < linear {
            self.hits(
                p,
                d,
                radius,
                std::iter::once(k),
                none.clone(),
                none,
                |x, _| offer(x),
            );
        } else if k < circular {
            let one = std::iter::once(k - linear);
            self.hits(p, d, radius, none.clone(), one, none, |x, _| offer(x));
        } else {
            let one = std::iter::once(k - circular);
            self.hits(p, d, radius, none.clone(), none, one, |x, _| offer(x));
        }
        t
    }

    /// What a path from `p` along the unit `d` meets first, if that means the ball escapes:
    /// `Some(Open)` for nothing at all, `Some(Behind)` for a cushion's back face.
    /// Only the obstacles listed are looked at, each list in increasing order (the first of
    /// equally near ones counts, as in a scan of all of them).
    pub(super) fn first_hit(
        &self,
        p: Vec2,
        d: Vec2,
        radius: f64,
        linear: impl Iterator<Item = usize>,
        circular: impl Iterator<Item = usize>,
        circles: impl Iterator<Item = usize>,
    ) -> Option<Escape> {
        // (distance along the path, the segment whose back face it is, if it is one)
        let mut best: Option<(f64, Option<usize>)> = None;
        let offer = |t: f64, behind: Option<usize>| {
            if t >= 0.0 && best.is_none_or(|(b, _)| t < b) {
                best = Some((t, behind));
            }
        };
        self.hits(p, d, radius, linear, circular, circles, offer);
        match best {
            None => Some(Escape::Open(d)),
            Some((_, Some(k))) => Some(Escape::Behind(d, k)),
            Some((_, None)) => None,
        }
    }

    /// Offers `offer(t, behind)` every meeting of the path from `p` along the unit `d` with the
    /// listed obstacles, in list order: `behind` names the segment whose back face it meets.
    #[allow(clippy::too_many_arguments)]
    fn hits(
        &self,
        p: Vec2,
        d: Vec2,
        radius: f64,
        linear: impl Iterator<Item = usize>,
        circular: impl Iterator<Item = usize>,
        circles: impl Iterator<Item = usize>,
        mut offer: impl FnMut(f64, Option<usize>),
    ) {
        // A ball touching a face (up to the engines' overlap tolerance) meets it at once.
        let touch = 1e-9;
        for k in linear {
            let s = &self.linear[k];
            // The faces' lines R away on either side, where the contact point is on the segment.
            let (s0, sd) = (s.signed_distance(p), s.normal.dot(&d));
            if sd != 0.0 {
                for side in [1.0, -1.0] {
                    let mut t = (side * radius - s0) / sd;
                    if side > 0.0 && t < 0.0 && t * sd.abs() >= -touch {
                        t = 0.0;
                    }
                    if (0.0..=1.0).contains(&s.parameter(p + d * t)) {
                        offer(t, (side < 0.0).then_some(k));
                    }
                }
            }
            for q in [s.start, s.end] {
                if let Some(t) = circle_entry(p, d, q, radius) {
                    offer(t, None);
                }
            }
        }
        for a in circular.map(|k| &self.circular[k]) {
            if let Some(t) = circle_entry(p, d, a.center, a.radius + radius) {
                offer(t, None);
            }
        }
        for c in circles.map(|k| &self.zones[k]) {
            let entry = match &c.line {
                // A capture line met from either side holds the ball as a circle would.
                Some(line) => {
                    let (s0, sd) = (line.signed_distance(p), line.normal.dot(&d));
                    let t = if s0 == 0.0 { 0.0 } else { -s0 / sd };
                    (t >= 0.0 && (0.0..=1.0).contains(&line.parameter(p + d * t))).then_some(t)
                }
                None => circle_entry(p, d, c.center, c.radius),
            };
            if let Some(t) = entry {
                offer(t, None);
            }
        }
    }
}

/// The first t >= 0 at which the path p + t d (unit d) enters the circle of radius `r` at `c`
/// (0 when it starts on the circle, to within 1e-9 m, and moves inward).
fn circle_entry(p: Vec2, d: Vec2, c: Vec2, r: f64) -> Option<f64> {
    let m = p - c;
    let b = m.dot(&d);
    if m.norm() <= r + 1e-9 {
        return (b < 0.0).then_some(0.0);
    }
    let disc = b * b - (m.norm_squared() - r * r);
    if disc < 0.0 {
        return None;
    }
    let t = -b - disc.sqrt();
    (t >= 0.0).then_some(t)
}

impl std::ops::Deref for PreparedTable {
    type Target = Table;
    fn deref(&self) -> &Table {
        &self.description
    }
}

impl From<Table> for PreparedTable {
    fn from(table: Table) -> Self {
        PreparedTable::new(table)
    }
}

impl PartialEq for PreparedTable {
    /// Same description (the rest is computed from it).
    fn eq(&self, other: &Self) -> bool {
        self.description == other.description
    }
}
