//! Matching a run's events to the reference's.

use pool_sim::Event;

/// Pairs (reference index, other index) of events with the same kind and agents, in order, and
/// at most `window` seconds apart: the longest common subsequence of the two logs under that
/// equality, ties broken toward the smallest total |time difference|. Unmatched reference events
/// are *missed*, unmatched events of the other log *spurious*. The window keeps an event from
/// being paired with a namesake seconds later once the two runs have diverged.
///
/// O(n m) time and memory; logs whose product exceeds 4e7 cells fall back to a greedy in-order
/// match (each reference event takes the next unmatched event with the same key).
pub fn match_events(reference: &[Event], other: &[Event], window: f64) -> Vec<(usize, usize)> {
    let (n, m) = (reference.len(), other.len());
    if n == 0 || m == 0 {
        return Vec::new();
    }
    if n.saturating_mul(m) > 40_000_000 {
        return greedy(reference, other, window);
    }
    let same = |i: usize, j: usize| same_event(&reference[i], &other[j], window);
    // score[i][j] for suffixes reference[i..], other[j..]: (matches, -sum |dt|).
    let w = m + 1;
    let mut count = vec![0u32; (n + 1) * w];
    let mut cost = vec![0f64; (n + 1) * w];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            let mut best = (count[(i + 1) * w + j], cost[(i + 1) * w + j]);
            let right = (count[i * w + j + 1], cost[i * w + j + 1]);
            if better(right, best) {
                best = right;
            }
            if same(i, j) {
                let diag = (
                    count[(i + 1) * w + j + 1] + 1,
                    cost[(i + 1) * w + j + 1] + (reference[i].time - other[j].time).abs(),
                );
                if better(diag, best) {
                    best = diag;
                }
            }
            count[i * w + j] = best.0;
            cost[i * w + j] = best.1;
        }
    }
    let mut pairs = Vec::with_capacity(count[0] as usize);
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        let here = (count[i * w + j], cost[i * w + j]);
        if same(i, j) {
            let diag = (
                count[(i + 1) * w + j + 1] + 1,
                cost[(i + 1) * w + j + 1] + (reference[i].time - other[j].time).abs(),
            );
            if diag == here {
                pairs.push((i, j));
                i += 1;
                j += 1;
                continue;
            }
        }
        if (count[(i + 1) * w + j], cost[(i + 1) * w + j]) == here {
            i += 1;
        } else {
            j += 1;
        }
    }
    pairs
}

fn better(a: (u32, f64), b: (u32, f64)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && a.1 < b.1)
}

fn same_event(a: &Event, b: &Event, window: f64) -> bool {
    a.kind == b.kind && a.agents == b.agents && (a.time - b.time).abs() <= window
}

fn greedy(reference: &[Event], other: &[Event], window: f64) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut next = 0;
    for (i, e) in reference.iter().enumerate() {
        if let Some(k) = other[next..].iter().position(|o| same_event(e, o, window)) {
            pairs.push((i, next + k));
            next += k + 1;
        }
    }
    pairs
}
