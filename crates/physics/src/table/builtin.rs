//! The built-in tables: `seven_foot`, `carom`, the `rectangle_LxW` family, and pooltool's
//! (`pooltool_pocket`, `pooltool_snooker`, `pooltool_billiard`, in `pooltool.rs`).

use super::{Cushion, Pocket, Table, POOL_CUSHION_HEIGHT};

/// A straight cushion `id` from `p1` to `p2` (m) at contact height `height` (m).
fn cushion(id: &str, p1: [f64; 2], p2: [f64; 2], height: f64) -> Cushion {
    Cushion {
        id: id.to_string(),
        p1,
        p2,
        height,
    }
}

impl Table {
    /// A pocketless rectangle of `length` x `width` (m) with four cushions at `height` (m).
    pub fn rectangle(name: &str, length: f64, width: f64, height: f64) -> Self {
        let c = |id: &str, p1: [f64; 2], p2: [f64; 2]| Cushion {
            id: id.to_string(),
            p1,
            p2,
            height,
        };
        Table {
            name: name.to_string(),
            length,
            width,
            cushions: vec![
                c("bottom", [0.0, 0.0], [length, 0.0]),
                c("right", [length, 0.0], [length, width]),
                c("top", [length, width], [0.0, width]),
                c("left", [0.0, width], [0.0, 0.0]),
            ],
            circular_cushions: Vec::new(),
            pockets: Vec::new(),
        }
    }

    /// The carom (pocketless) table: 2.84 m x 1.42 m (docs/physics.md). Its cushion height keeps
    /// pooltool's ratio h = 0.64 * 2R for the carom ball R = 0.03075 m.
    pub fn carom() -> Self {
        Self::rectangle("carom", 2.84, 1.42, 0.64 * 2.0 * 0.03075)
    }

    /// The 7-foot pocket table: playing area 1.9812 m x 0.9906 m, 6 pockets (corner radius
    /// 0.062 m, side radius 0.0645 m) and 18 straight segments: 6 rail faces and 2 jaw faces per
    /// pocket.
    ///
    /// The jaws are straight (pooltool rounds their tips with circular segments; here the
    /// segments' end points are collision points instead). Corner mouths are 0.118 m across,
    /// jaw faces parallel at 45 degrees to the rails, pocket centered on the playing-area corner.
    /// Side mouths are 0.137 m across, jaws 0.04 m deep converging at 7.14 degrees, pocket center
    /// 0.02 m behind the rail line.
    pub fn seven_foot() -> Self {
        let (l, w, h) = (1.9812, 0.9906, POOL_CUSHION_HEIGHT);
        let corner_mouth = 0.118;
        let a = corner_mouth / std::f64::consts::SQRT_2; // jaw tip distance from the corner
        let jaw = 0.06 / std::f64::consts::SQRT_2; // corner jaw extent along x and y
        let side_half = 0.137 / 2.0;
        let side_depth = 0.04;
        let side_in = side_depth * (7.14f64).to_radians().tan();
        let side_center_offset = 0.02;
        let mut cushions = Vec::with_capacity(18);
        let mut push = |id: &str, p1: [f64; 2], p2: [f64; 2]| cushions.push(cushion(id, p1, p2, h));
        // Counter-clockwise from the bottom-left corner pocket.
        push("lb_jaw_b", [a - jaw, -jaw], [a, 0.0]);
        push("rail_b1", [a, 0.0], [l / 2.0 - side_half, 0.0]);
        push(
            "cb_jaw_l",
            [l / 2.0 - side_half, 0.0],
            [l / 2.0 - side_half + side_in, -side_depth],
        );
        push(
            "cb_jaw_r",
            [l / 2.0 + side_half - side_in, -side_depth],
            [l / 2.0 + side_half, 0.0],
        );
        push("rail_b2", [l / 2.0 + side_half, 0.0], [l - a, 0.0]);
        push("rb_jaw_b", [l - a, 0.0], [l - a + jaw, -jaw]);
        push("rb_jaw_r", [l + jaw, a - jaw], [l, a]);
        push("rail_r", [l, a], [l, w - a]);
        push("rt_jaw_r", [l, w - a], [l + jaw, w - a + jaw]);
        push("rt_jaw_t", [l - a + jaw, w + jaw], [l - a, w]);
        push("rail_t2", [l - a, w], [l / 2.0 + side_half, w]);
        push(
            "ct_jaw_r",
            [l / 2.0 + side_half, w],
            [l / 2.0 + side_half - side_in, w + side_depth],
        );
        push(
            "ct_jaw_l",
            [l / 2.0 - side_half + side_in, w + side_depth],
            [l / 2.0 - side_half, w],
        );
        push("rail_t1", [l / 2.0 - side_half, w], [a, w]);
        push("lt_jaw_t", [a, w], [a - jaw, w + jaw]);
        push("lt_jaw_l", [-jaw, w - a + jaw], [0.0, w - a]);
        push("rail_l", [0.0, w - a], [0.0, a]);
        push("lb_jaw_l", [0.0, a], [-jaw, a - jaw]);
        let pocket = |id: &str, center: [f64; 2], radius: f64| Pocket {
            id: id.to_string(),
            center,
            radius,
            depth: None,
            capture_line: None,
        };
        let (rc, rs) = (0.062, 0.0645);
        Table {
            name: "seven_foot".to_string(),
            length: l,
            width: w,
            cushions,
            circular_cushions: Vec::new(),
            pockets: vec![
                pocket("lb", [0.0, 0.0], rc),
                pocket("cb", [l / 2.0, -side_center_offset], rs),
                pocket("rb", [l, 0.0], rc),
                pocket("rt", [l, w], rc),
                pocket("ct", [l / 2.0, w + side_center_offset], rs),
                pocket("lt", [0.0, w], rc),
            ],
        }
    }

    /// FastFiz's table (FastFiz.h and `Table::calculateTableDimensions`, P6-Pool/fastfiz
    /// 2c1c920): a playing area of 2.236 m x 1.116 m (`TABLE_LENGTH` x `TABLE_WIDTH`), rail
    /// height 0.040005 m (`RAIL_HEIGHT`), corner mouths 0.11 m and side mouths 0.12 m wide
    /// (`CORNER_POCKET_WIDTH`, `SIDE_POCKET_WIDTH`), in our frame (x along the length: FastFiz's
    /// y; FastFiz's x = 1.116 m - our y).
    ///
    /// The four rails are straight cushions along the playing area's sides, the side rails
    /// broken by the side mouths (FastFiz's rails are infinite lines; its corners are cut off
    /// by the pockets before a ball reaches a rail's end). The pockets capture as FastFiz does
    /// ([`Pocket::capture_line`], `Shot::addBoundaryEvents`): across each corner the line
    /// x + y = d + R (d = 0.11 / sqrt 2, R = 0.028575 m, FastFiz's ball radius), drawn from rail
    /// face to rail face; at each side mouth the rails' contact line, the center R from the
    /// rail, between the mouth's ends. Each pocket's circle only draws it and holds its
    /// captured balls: it touches the line at its middle from behind, as wide as the mouth (a
    /// corner's centered on the corner). The side lines are drawn for FastFiz's ball: a smaller
    /// one can run along a rail below one into the mouth's throat. docs/fastfiz.md.
    pub fn fastfiz() -> Self {
        let (l, w, h) = (2.236, 1.116, 0.040005);
        let r = 0.028575;
        let s = 0.12 / 2.0;
        let c = 0.11 / std::f64::consts::SQRT_2 + r;
        let mut cushions = Vec::with_capacity(6);
        let mut push = |id: &str, p1: [f64; 2], p2: [f64; 2]| cushions.push(cushion(id, p1, p2, h));
        // Counter-clockwise from the bottom-left corner.
        push("rail_b1", [0.0, 0.0], [l / 2.0 - s, 0.0]);
        push("rail_b2", [l / 2.0 + s, 0.0], [l, 0.0]);
        push("rail_r", [l, 0.0], [l, w]);
        push("rail_t2", [l, w], [l / 2.0 + s, w]);
        push("rail_t1", [l / 2.0 - s, w], [0.0, w]);
        push("rail_l", [0.0, w], [0.0, 0.0]);
        // The corners' circles: a corner's distance from its line.
        let corner = c / std::f64::consts::SQRT_2;
        // Each line runs with the table on its left, as a cushion does.
        let pocket = |id: &str, center: [f64; 2], radius: f64, line: [[f64; 2]; 2]| Pocket {
            id: id.to_string(),
            center,
            radius,
            depth: None,
            capture_line: Some(line),
        };
        Table {
            name: "fastfiz".to_string(),
            length: l,
            width: w,
            cushions,
            circular_cushions: Vec::new(),
            pockets: vec![
                pocket("lb", [0.0, 0.0], corner, [[0.0, c], [c, 0.0]]),
                pocket(
                    "cb",
                    [l / 2.0, r - s],
                    s,
                    [[l / 2.0 - s, r], [l / 2.0 + s, r]],
                ),
                pocket("rb", [l, 0.0], corner, [[l - c, 0.0], [l, c]]),
                pocket("rt", [l, w], corner, [[l, w - c], [l - c, w]]),
                pocket(
                    "ct",
                    [l / 2.0, w - r + s],
                    s,
                    [[l / 2.0 + s, w - r], [l / 2.0 - s, w - r]],
                ),
                pocket("lt", [0.0, w], c, [[c, w], [0.0, w - c]]),
            ],
        }
    }

    /// A built-in table by name: `seven_foot`, `carom`, `rectangle_LxW` (metres, e.g.
    /// `rectangle_2.0x1.0`, pool cushion height), or pooltool's `pooltool_pocket`,
    /// `pooltool_snooker`, `pooltool_billiard`, or FastFiz's `fastfiz`. `None` for an unknown
    /// name.
    pub fn by_name(name: &str) -> Option<Self> {
        match name {
            "seven_foot" => Some(Self::seven_foot()),
            "carom" => Some(Self::carom()),
            "pooltool_pocket" => Some(Self::pooltool_pocket()),
            "pooltool_snooker" => Some(Self::pooltool_snooker()),
            "pooltool_billiard" => Some(Self::pooltool_billiard()),
            "fastfiz" => Some(Self::fastfiz()),
            _ => {
                let dims = name.strip_prefix("rectangle_")?;
                let (l, w) = dims.split_once('x')?;
                let (l, w): (f64, f64) = (l.parse().ok()?, w.parse().ok()?);
                (l.is_finite() && w.is_finite() && l > 0.0 && w > 0.0)
                    .then(|| Self::rectangle(name, l, w, POOL_CUSHION_HEIGHT))
            }
        }
    }

    /// Names accepted by [`Table::by_name`] (the rectangle family shown by one example).
    pub const BUILT_IN: [&'static str; 7] = [
        "seven_foot",
        "carom",
        "rectangle_2.0x1.0",
        "pooltool_pocket",
        "pooltool_snooker",
        "pooltool_billiard",
        "fastfiz",
    ];
}
