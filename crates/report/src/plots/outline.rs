//! The cloth's outline, shared by the shot diagram and the animation frames.

use pool_physics::Table;

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
    let mut at = 0;
    while n > 0 {
        used[at] = true;
        order.push(at);
        let end = t.cushions[at].p2;
        let next = (0..n).filter(|&k| !used[k]).min_by(|&a, &b| {
            let d = |k: usize| {
                let s = t.cushions[k].p1;
                (s[0] - end[0]).hypot(s[1] - end[1])
            };
            d(a).total_cmp(&d(b))
        });
        match next {
            Some(k) => at = k,
            None => break,
        }
    }
    order
}
