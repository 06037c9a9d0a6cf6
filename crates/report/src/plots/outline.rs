//! The cloth's outline and the pockets' shapes, shared by the shot diagram and the animation
//! frames.

use pool_physics::{Pocket, Table};

/// A pocket's shape on the cloth (m), a polygon: its circle, or for a pocket with a capture
/// line the part of its circle behind the line (the line is where the ball leaves the cloth).
/// Empty for a circle that is not finite and positive.
pub(super) fn pocket_shape(k: &Pocket) -> Vec<(f64, f64)> {
    const N: usize = 48;
    let (c, r) = (k.center, k.radius);
    if !(c[0].is_finite() && c[1].is_finite() && r.is_finite() && r > 0.0) {
        return Vec::new();
    }
    let behind = |x: f64, y: f64| match k.capture_line {
        // The playing side is on the line's left.
        Some([a, b]) => (b[0] - a[0]) * (y - a[1]) - (b[1] - a[1]) * (x - a[0]) <= 0.0,
        None => true,
    };
    (0..=N)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / N as f64;
            (c[0] + r * a.cos(), c[1] + r * a.sin())
        })
        .filter(|&(x, y)| behind(x, y))
        .collect()
}

/// The table's straight cushions in the order they run around the cloth: each next segment is
/// the unused one whose start is nearest the current one's end (ties to the lower index),
/// starting from the first. A table listed counter-clockwise end to start (every table of
/// ours) keeps its order; pooltool's, listed by kind (rails, then jaws) with arcs and pocket
/// mouths between their segments, comes out in walking order, so the polygon through the
/// segments' ends is the cloth with the pockets' throats.
pub(super) fn boundary_order(t: &Table) -> Vec<usize> {
    let n = t.cushions.len();
    let mut used = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut next = (n > 0).then_some(0);
    while let Some(at) = next {
        used[at] = true;
        order.push(at);
        let end = t.cushions[at].p2;
        let gap = |k: usize| {
            let s = t.cushions[k].p1;
            (s[0] - end[0]).hypot(s[1] - end[1])
        };
        next = (0..n)
            .filter(|&k| !used[k])
            .min_by(|&a, &b| gap(a).total_cmp(&gap(b)));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_tables_keep_their_order_and_pooltools_walk_around_the_cloth() {
        for name in ["seven_foot", "carom", "rectangle_2.0x1.0"] {
            let t = Table::by_name(name).unwrap();
            let order = boundary_order(&t);
            assert_eq!(order, (0..t.cushions.len()).collect::<Vec<_>>(), "{name}");
        }
        let t = Table::pooltool_pocket();
        let order = boundary_order(&t);
        assert_eq!(order.len(), 18);
        // Each step to the next segment crosses at most a pocket's mouth or a jaw tip (under
        // 0.2 m), never the table.
        for w in order.windows(2) {
            let (a, b) = (&t.cushions[w[0]], &t.cushions[w[1]]);
            let gap = (b.p1[0] - a.p2[0]).hypot(b.p1[1] - a.p2[1]);
            assert!(gap < 0.2, "{} -> {}: {gap} m", a.id, b.id);
        }
    }
}
