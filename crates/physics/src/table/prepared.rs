//! The table the engines, the checks and the plots use: the description plus every element's
//! geometry computed once, bit for bit as the description's methods compute it.

use super::{Cushion, Table};
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
}

/// A cushion end point a ball can touch ([`Table::exposed_points`]: a jaw tip or an open end).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EndPoint {
    /// Where (m).
    pub p: Vec2,
    /// The first segment that ends there (its index): the cushion an event names.
    pub segment: usize,
}

/// A pocket's capture circle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PocketCircle {
    /// Center (m).
    pub center: Vec2,
    /// Radius (m).
    pub radius: f64,
}

impl PocketCircle {
    /// The box of the circle grown by `extra` (m): the center's box grown by radius + extra.
    pub fn reach(&self, extra: f64) -> Aabb {
        Aabb::of(&[self.center]).grown(self.radius + extra)
    }
}

/// A [`Table`] with its elements' geometry computed once: linear segments (same indices as
/// `cushions`), the end points a ball can touch, and the pockets (same indices as `pockets`).
/// Reads as its description through `Deref`; built from it with `From`.
#[derive(Clone, Debug)]
pub struct PreparedTable {
    description: Table,
    linear: Vec<LinearSegment>,
    exposed: Vec<EndPoint>,
    circles: Vec<PocketCircle>,
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
            circles: table
                .pockets
                .iter()
                .map(|p| PocketCircle {
                    center: p.center_vec(),
                    radius: p.radius,
                })
                .collect(),
            description: table,
        }
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

    /// Every pocket's circle, in `pockets` order.
    pub fn pocket_circles(&self) -> &[PocketCircle] {
        &self.circles
    }
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
