//! Axis-aligned boxes on the cloth, for conservative "certainly apart" tests.

use crate::Vec2;

/// An axis-aligned box on the cloth (m).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Aabb {
    /// Lower corner.
    pub min: Vec2,
    /// Upper corner.
    pub max: Vec2,
}

impl Aabb {
    /// The box of a set of points (at least one).
    pub fn of(points: &[Vec2]) -> Self {
        let mut b = Aabb {
            min: points[0],
            max: points[0],
        };
        for p in &points[1..] {
            b.min = Vec2::new(b.min.x.min(p.x), b.min.y.min(p.y));
            b.max = Vec2::new(b.max.x.max(p.x), b.max.y.max(p.y));
        }
        b
    }

    /// The box grown by `d` on every side.
    pub fn grown(self, d: f64) -> Self {
        Aabb {
            min: Vec2::new(self.min.x - d, self.min.y - d),
            max: Vec2::new(self.max.x + d, self.max.y + d),
        }
    }

    /// The box of the control points of the path r(t) = a t^2 + b t + c on [0, h]: the
    /// quadratic Bézier with control points c, c + b h / 2 and c + b h + a h^2, which lies in
    /// their convex hull and so in this box. `None` unless h is finite and non-negative.
    pub fn of_path(a: Vec2, b: Vec2, c: Vec2, h: f64) -> Option<Self> {
        (0.0..f64::INFINITY)
            .contains(&h)
            .then(|| Aabb::of(&[c, c + b * (0.5 * h), c + b * h + a * (h * h)]))
    }

    /// True if the boxes certainly do not overlap (false for NaN corners).
    #[inline]
    pub fn apart_from(&self, o: &Aabb) -> bool {
        self.max.x < o.min.x || o.max.x < self.min.x || self.max.y < o.min.y || o.max.y < self.min.y
    }
}
