//! Table geometry: the description ([`Table`]: straight and circular cushion segments and
//! circular pockets, as shot files write it), the built-in tables, and the [`PreparedTable`] the
//! engines use.

mod builtin;
mod enclosure;
mod grid;
mod pooltool;
mod prepared;

pub use enclosure::{Enclosure, MAX_ESCAPE_TESTS, MAX_TABLE_ELEMENTS};
pub use pooltool::{
    cushion_id_from_pooltool, pocket_id_from_pooltool, PocketTableSpecs, POOLTOOL_TABLES,
};
pub use prepared::{CircularSegment, EndPoint, Escape, LinearSegment, PocketZone, PreparedTable};

use serde::{Deserialize, Serialize};

use crate::Vec2;

/// A straight cushion segment (pooltool's `LinearCushionSegment`).
///
/// The playing side is on the **left** of the direction p1 -> p2 (segments of a table run
/// counter-clockwise around the playing area). A ball collides with the segment's face only from
/// the playing side, and with either end point from any side (a convex corner such as a pocket
/// jaw's tip).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cushion {
    /// Identifier used in event logs.
    pub id: String,
    /// Start point on the cloth (m).
    pub p1: [f64; 2],
    /// End point on the cloth (m).
    pub p2: [f64; 2],
    /// Height h of the cushion's contact line above the slate (m). Han (2005) uses
    /// theta = asin(h / R - 1).
    pub height: f64,
}

impl Cushion {
    /// Start point as a vector (m).
    pub fn start(&self) -> Vec2 {
        Vec2::new(self.p1[0], self.p1[1])
    }

    /// End point as a vector (m).
    pub fn end(&self) -> Vec2 {
        Vec2::new(self.p2[0], self.p2[1])
    }

    /// Length of the segment (m).
    pub fn length(&self) -> f64 {
        (self.end() - self.start()).norm()
    }

    /// Unit normal pointing from the face into the playing side.
    pub fn inward_normal(&self) -> Vec2 {
        let d = (self.end() - self.start()) / self.length();
        Vec2::new(-d.y, d.x)
    }

    /// Signed distance (m) of a point from the face's line, positive on the playing side.
    pub fn signed_distance(&self, p: Vec2) -> f64 {
        self.inward_normal().dot(&(p - self.start()))
    }

    /// Segment parameter s of the point's projection: 0 at p1, 1 at p2 (seed 000, corrected:
    /// s = (r - p1).(p2 - p1) / |p2 - p1|^2).
    pub fn parameter(&self, p: Vec2) -> f64 {
        let d = self.end() - self.start();
        (p - self.start()).dot(&d) / d.norm_squared()
    }
}

/// A circular cushion segment (pooltool's `CircularCushionSegment`): a rounded pocket jaw.
///
/// Like pooltool, the whole circle is the cushion: a ball touches it when its center is
/// R + `radius` from `center`, from outside, and the contact normal runs from the circle's
/// center to the ball's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CircularCushion {
    /// Identifier used in event logs (pooltool's ids end in `t`, e.g. `1t`).
    pub id: String,
    /// Circle center on the cloth (m).
    pub center: [f64; 2],
    /// Circle radius (m).
    pub radius: f64,
    /// Height h of the contact line above the slate (m), as for a straight [`Cushion`].
    pub height: f64,
}

impl CircularCushion {
    /// Center as a vector (m).
    pub fn center_vec(&self) -> Vec2 {
        Vec2::new(self.center[0], self.center[1])
    }

    /// Distance (m) from a point to the circle's edge: positive outside, negative inside.
    pub fn gap(&self, p: Vec2) -> f64 {
        (p - self.center_vec()).norm() - self.radius
    }
}

/// A pocket: a ball whose center enters the circle is captured, or, when the pocket has a
/// [`Pocket::capture_line`], whose center crosses that line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pocket {
    /// Identifier used in event logs.
    pub id: String,
    /// Circle center on the cloth (m).
    pub center: [f64; 2],
    /// Circle radius (m).
    pub radius: f64,
    /// How deep the pocket is (m; pooltool's `Pocket.depth`, 0.08 m by default there), when the
    /// table gives it. Carried and reported; the `canonical` capture law does not read it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub depth: Option<f64>,
    /// The mouth's capture line [p1, p2] (m), when the pocket captures by a line instead of its
    /// circle: a ball is captured when its center crosses the segment from its playing side
    /// (the left of p1 -> p2, as for a [`Cushion`]). This is FastFiz's rule
    /// (`Shot::addBoundaryEvents`, FastFiz.cpp lines 2248-2320 of fastfiz 2c1c920): a side
    /// pocket takes a ball whose center reaches the rail's contact line within the mouth, a
    /// corner one whose center reaches the line across the corner. The circle then only draws
    /// the pocket and says where the table's mouths are ([`Table::contains`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capture_line: Option<[[f64; 2]; 2]>,
}

impl Pocket {
    /// Center as a vector (m).
    pub fn center_vec(&self) -> Vec2 {
        Vec2::new(self.center[0], self.center[1])
    }

    /// The point a shot at this pocket aims at (m): the middle of its capture line, or its
    /// center.
    pub fn aim(&self) -> Vec2 {
        match self.capture_line {
            Some([a, b]) => Vec2::new(a[0] + b[0], a[1] + b[1]) * 0.5,
            None => self.center_vec(),
        }
    }
}

/// A table: the playing area [0, length] x [0, width] between its cushions, and its pockets.
///
/// Balls play in the region the cushions enclose, pocket mouths included
/// ([`PreparedTable::escape`]), which may reach beyond the rectangle (a pocket's throat).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Table {
    /// Name, e.g. `seven_foot`.
    pub name: String,
    /// Playing-area length along x (m).
    pub length: f64,
    /// Playing-area width along y (m).
    pub width: f64,
    /// Straight cushion segments, counter-clockwise (playing side on the left).
    pub cushions: Vec<Cushion>,
    /// Circular cushion segments (rounded jaws; may be empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub circular_cushions: Vec<CircularCushion>,
    /// Pockets (may be empty).
    #[serde(default)]
    pub pockets: Vec<Pocket>,
}

/// Why a table description is invalid.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TableError {
    /// A field holds a value that cannot describe a table.
    #[error("{field} = {value}: {why}")]
    Invalid {
        /// Which field, e.g. `cushions[3].p2`.
        field: String,
        /// The offending value as written.
        value: String,
        /// What is wrong with it.
        why: String,
    },
}

/// What is wrong with an id (a ball's, a cushion's, a pocket's), if anything: ids go into
/// every event, CSV row and report, so they are printable text, with no control character
/// (ESC, a line break, NUL) and no invisible or direction-changing character.
pub fn id_problem(id: &str) -> Option<String> {
    let hidden = |c: char| {
        matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}')
    };
    id.chars().find(|&c| c.is_control() || hidden(c)).map(|c| {
        format!(
            "an id is printable text: U+{:04X} is a control or invisible character",
            u32::from(c)
        )
    })
}

/// Height of the cushion contact line for pool tables: 0.64 * 2R with R = 0.028575 m (pooltool).
pub const POOL_CUSHION_HEIGHT: f64 = 0.64 * 2.0 * 0.028575;

impl Table {
    /// Checks dimensions, segments and pockets, and that there are at most
    /// [`MAX_TABLE_ELEMENTS`] of them; the error names the offending field.
    pub fn validate(&self) -> Result<(), TableError> {
        let bad = |field: String, value: String, why: &str| {
            Err(TableError::Invalid {
                field,
                value,
                why: why.to_string(),
            })
        };
        for (field, v) in [("length", self.length), ("width", self.width)] {
            if !(v.is_finite() && v > 0.0) {
                return bad(
                    field.into(),
                    v.to_string(),
                    "must be a positive finite length (m)",
                );
            }
        }
        if self.cushions.is_empty() {
            return bad(
                "cushions".into(),
                "[]".into(),
                "a table needs at least one cushion",
            );
        }
        let elements = self.cushions.len() + self.circular_cushions.len() + self.pockets.len();
        if elements > MAX_TABLE_ELEMENTS {
            return bad(
                "cushions".into(),
                format!(
                    "{} straight, {} circular, {} pockets",
                    self.cushions.len(),
                    self.circular_cushions.len(),
                    self.pockets.len()
                ),
                &format!(
                    "a table has at most {MAX_TABLE_ELEMENTS} elements (cushions, circular \
                     cushions and pockets together)"
                ),
            );
        }
        for (i, c) in self.cushions.iter().enumerate() {
            let all = [c.p1[0], c.p1[1], c.p2[0], c.p2[1], c.height];
            if all.iter().any(|x| !x.is_finite()) {
                return bad(
                    format!("cushions[{i}] (id {:?})", c.id),
                    format!("{:?} -> {:?}, height {}", c.p1, c.p2, c.height),
                    "coordinates and height must be finite",
                );
            }
            if c.length() < 1e-9 {
                return bad(
                    format!("cushions[{i}].p2 (id {:?})", c.id),
                    format!("{:?}", c.p2),
                    "segment has zero length (p1 == p2)",
                );
            }
            if c.height <= 0.0 {
                return bad(
                    format!("cushions[{i}].height (id {:?})", c.id),
                    c.height.to_string(),
                    "must be positive (m)",
                );
            }
        }
        for (i, c) in self.circular_cushions.iter().enumerate() {
            let all = [c.center[0], c.center[1], c.radius, c.height];
            if all.iter().any(|x| !x.is_finite()) {
                return bad(
                    format!("circular_cushions[{i}] (id {:?})", c.id),
                    format!(
                        "center {:?}, radius {}, height {}",
                        c.center, c.radius, c.height
                    ),
                    "center, radius and height must be finite",
                );
            }
            for (field, v) in [("radius", c.radius), ("height", c.height)] {
                if v <= 0.0 {
                    return bad(
                        format!("circular_cushions[{i}].{field} (id {:?})", c.id),
                        v.to_string(),
                        "must be positive (m)",
                    );
                }
            }
        }
        // An event names its agents by id: one id, one element.
        let mut seen: std::collections::HashMap<&str, String> = std::collections::HashMap::new();
        for (field, id) in self.element_ids() {
            if let Some(why) = id_problem(id) {
                return bad(format!("{field}.id"), format!("{id:?}"), &why);
            }
            if let Some(first) = seen.get(id) {
                return bad(
                    format!("{field}.id"),
                    format!("{id:?}"),
                    &format!("{first} has the same id: every cushion and pocket needs its own"),
                );
            }
            seen.insert(id, field);
        }
        for (i, p) in self.pockets.iter().enumerate() {
            if !(p.center.iter().all(|x| x.is_finite()) && p.radius.is_finite() && p.radius > 0.0) {
                return bad(
                    format!("pockets[{i}] (id {:?})", p.id),
                    format!("center {:?}, radius {}", p.center, p.radius),
                    "center must be finite and radius positive (m)",
                );
            }
            if let Some([a, b]) = p.capture_line {
                if ![a[0], a[1], b[0], b[1]].iter().all(|x| x.is_finite()) {
                    return bad(
                        format!("pockets[{i}].capture_line (id {:?})", p.id),
                        format!("{:?}", [a, b]),
                        "end points must be finite (m)",
                    );
                }
                if (a[0] - b[0]).hypot(a[1] - b[1]) < 1e-9 {
                    return bad(
                        format!("pockets[{i}].capture_line (id {:?})", p.id),
                        format!("{:?}", [a, b]),
                        "line has zero length (p1 == p2)",
                    );
                }
            }
            if let Some(d) = p.depth {
                if !(d.is_finite() && d >= 0.0) {
                    return bad(
                        format!("pockets[{i}].depth (id {:?})", p.id),
                        d.to_string(),
                        "must be a finite depth >= 0 (m)",
                    );
                }
            }
        }
        Ok(())
    }

    /// Every element's id with where it is (`cushions[3]`, `circular_cushions[0]`,
    /// `pockets[5]`): the agent ids of its events besides the balls'.
    pub fn element_ids(&self) -> impl Iterator<Item = (String, &str)> {
        let linear = (self.cushions.iter().enumerate())
            .map(|(i, c)| (format!("cushions[{i}]"), c.id.as_str()));
        let circular = (self.circular_cushions.iter().enumerate())
            .map(|(i, c)| (format!("circular_cushions[{i}]"), c.id.as_str()));
        let pockets = (self.pockets.iter().enumerate())
            .map(|(i, p)| (format!("pockets[{i}]"), p.id.as_str()));
        linear.chain(circular).chain(pockets)
    }

    /// True when a ball center at `p` is on the table: inside the playing area (within `tol` m),
    /// or in a pocket's mouth (within two pocket radii of its center), where balls travel just
    /// before capture.
    pub fn contains(&self, p: Vec2, tol: f64) -> bool {
        let inside =
            p.x >= -tol && p.y >= -tol && p.x <= self.length + tol && p.y <= self.width + tol;
        inside
            || self
                .pockets
                .iter()
                .any(|k| (p - k.center_vec()).norm() <= 2.0 * k.radius)
    }

    /// The segment end points a ball can touch, each once, with the index of the first segment
    /// that ends there: open ends, and joints where the boundary turns away from the playing
    /// side (jaw tips). A joint where it turns toward the playing side (a rectangle's corner)
    /// is never touched: a ball reaching it touches one of the two faces first. Nor is a point
    /// on or inside a circular cushion (where a straight jaw runs into its rounded tip): a ball
    /// outside the circle is at least R from every such point, and exactly R only where it
    /// touches the circle at that very point.
    pub fn exposed_points(&self) -> Vec<(Vec2, usize)> {
        // The same tests as a scan of every segment and circle for each end point, asked only
        // of those near it (`grid`): linear in the table's size, not quadratic.
        let mut starts = grid::PointHash::default();
        let mut ends = grid::PointHash::default();
        for (k, d) in self.cushions.iter().enumerate() {
            starts.insert(d.start(), k);
            ends.insert(d.end(), k);
        }
        let circles = grid::Grid::new(
            &(self.circular_cushions.iter())
                .map(|a| crate::Aabb::of(&[a.center_vec()]).grown(a.radius + 1e-9))
                .collect::<Vec<_>>(),
        );
        // The first segment (by index) whose end (start) is at p.
        let first = |hash: &grid::PointHash, p: Vec2, end: bool| {
            hash.near(p)
                .filter(|&k| {
                    let d = &self.cushions[k];
                    let q = if end { d.end() } else { d.start() };
                    (q - p).norm() <= 1e-12
                })
                .min()
                .map(|k| &self.cushions[k])
        };
        let mut points: Vec<(Vec2, usize)> = Vec::new();
        let mut pushed = grid::PointHash::default();
        for (k, c) in self.cushions.iter().enumerate() {
            for p in [c.start(), c.end()] {
                if pushed.near(p).any(|i| (points[i].0 - p).norm() <= 1e-12)
                    || circles
                        .near(p)
                        .any(|a| self.circular_cushions[a].gap(p) <= 1e-12)
                {
                    continue;
                }
                // The segments ending and starting at p (counter-clockwise order).
                let incoming = first(&ends, p, true);
                let outgoing = first(&starts, p, false);
                let hidden = match (incoming, outgoing) {
                    (Some(a), Some(b)) => {
                        let (u, v) = (a.end() - a.start(), b.end() - b.start());
                        u.x * v.y - u.y * v.x >= 0.0 // left turn or straight: inside corner
                    }
                    _ => false,
                };
                if !hidden {
                    pushed.insert(p, points.len());
                    points.push((p, k));
                }
            }
        }
        points
    }

    /// Whether a ball of radius `radius` centered at `p` overlaps a cushion face or tip, or a
    /// circular cushion, by more than `tol` m (a ball may touch a cushion). Returns the
    /// offending cushion's id.
    pub fn cushion_overlap(&self, p: Vec2, radius: f64, tol: f64) -> Option<&str> {
        let linear = self.cushions.iter().find_map(|c| {
            let s = c.parameter(p).clamp(0.0, 1.0);
            let closest = c.start() + (c.end() - c.start()) * s;
            ((p - closest).norm() < radius - tol).then_some(c.id.as_str())
        });
        linear.or_else(|| {
            (self.circular_cushions.iter())
                .find(|a| a.gap(p) < radius - tol)
                .map(|a| a.id.as_str())
        })
    }
}
