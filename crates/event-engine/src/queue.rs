//! The event queue: a binary min-heap of candidates with lazy invalidation.
//!
//! Entries are ordered by (time, kind, agents' id ranks), the engine's tie-break, packed into a
//! time and one integer so that a comparison is two compares. An entry is never removed when it
//! goes out of date: it carries the generation of each ball it involves, and is skipped when it
//! reaches the top after one of them has changed. Invariants: every current candidate with a
//! finite time is in the heap exactly once (stale copies may be there too); the top current
//! entry is the minimum of the current candidates in the same order the former full scan used,
//! so the event log is the same bit for bit. The heap is compacted (stale entries dropped) when
//! it outgrows a bound fixed at the start, so its storage is allocated once.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use pool_physics::EventKind;

/// One queued candidate.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    /// Absolute time (s), finite.
    pub time: f64,
    /// kind << 48 | first id rank << 24 | second key: the tie-break after time.
    order: u64,
    /// Kind of event.
    pub kind: EventKind,
    /// The ball (for a pair: the first ball).
    pub a: u32,
    /// The second ball, cushion segment or pocket (0 for a transition).
    pub b: u32,
    gen_a: u32,
    gen_b: u32,
}

impl Entry {
    /// An entry of `kind` at `time` for ball `a.0` (generation `a.1`) and, for a pair, ball
    /// `b.0` (generation `b.1`); otherwise `b.0` is the cushion or pocket index. `key1`, `key2`
    /// break ties after the kind: (rank, cushion or pocket index or 0) for a ball's own
    /// candidate, (lower rank, higher rank) for a pair, as the engine's scan did.
    pub fn new(
        time: f64,
        kind: EventKind,
        key1: usize,
        key2: usize,
        a: (usize, u32),
        b: (usize, u32),
    ) -> Self {
        debug_assert!(key1 < 1 << 24 && key2 < 1 << 24);
        Entry {
            time,
            order: (kind as u64) << 48 | (key1 as u64) << 24 | key2 as u64,
            kind,
            a: a.0 as u32,
            b: b.0 as u32,
            gen_a: a.1,
            gen_b: b.1,
        }
    }

    /// Whether none of the entry's balls has changed since it was pushed.
    #[inline]
    pub fn is_current(&self, generation: &[u32]) -> bool {
        generation[self.a as usize] == self.gen_a
            && (self.kind != EventKind::BallBall || generation[self.b as usize] == self.gen_b)
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Entry {
    /// Reversed (the earliest is the greatest) for `BinaryHeap`, a max-heap.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .time
            .total_cmp(&self.time)
            .then(other.order.cmp(&self.order))
    }
}

/// The queue.
pub(crate) struct Queue {
    heap: BinaryHeap<Entry>,
    /// Compact when the heap holds more entries than this.
    bound: usize,
}

impl Queue {
    /// An empty queue for `n` balls: at most 3 n + n (n - 1) / 2 current entries; room for
    /// twice that plus the entries one event can push before a compaction.
    pub fn with_balls(n: usize) -> Self {
        let live = 3 * n + n * n.saturating_sub(1) / 2;
        let bound = 2 * live + 64;
        Queue {
            heap: BinaryHeap::with_capacity(bound + live + 64),
            bound,
        }
    }

    /// Queues an entry (ignored unless its time is finite).
    #[inline]
    pub fn push(&mut self, e: Entry) {
        if e.time.is_finite() {
            self.heap.push(e);
        }
    }

    /// Takes the earliest current entry off the queue, dropping the stale ones above it; also
    /// returns how many entries were examined.
    pub fn pop_valid(&mut self, current: impl Fn(&Entry) -> bool) -> (Option<Entry>, u64) {
        let mut examined = 0;
        while let Some(e) = self.heap.pop() {
            examined += 1;
            if current(&e) {
                return (Some(e), examined);
            }
        }
        (None, examined)
    }

    /// Drops every stale entry if the heap has outgrown its bound.
    pub fn compact(&mut self, generation: &[u32]) {
        if self.heap.len() > self.bound {
            self.heap.retain(|e| e.is_current(generation));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_pop_by_time_then_kind_skipping_stale_and_infinite_ones() {
        for kind in EventKind::ALL {
            let e = Entry::new(1.0, kind, 3, 7, (2, 5), (4, 9));
            assert_eq!(e.kind, kind);
            assert_eq!((e.a, e.b, e.gen_a, e.gen_b), (2, 4, 5, 9));
        }
        let mut q = Queue::with_balls(4);
        // Ball 3 has changed once since its entry below was pushed: that entry is stale.
        let gen = [0u32, 0, 0, 1];
        use EventKind::{BallBall, SlidingRolling};
        // (time, kind, keys, first ball and generation, second ball or index and generation)
        let entries = [
            (0.5, SlidingRolling, (3, 0), (3, 0), (0, 0)),
            (2.0, BallBall, (0, 1), (0, 0), (1, 0)),
            (1.0, SlidingRolling, (2, 0), (2, 0), (0, 0)),
            (1.0, BallBall, (1, 2), (1, 0), (2, 0)),
            (f64::INFINITY, BallBall, (0, 2), (0, 0), (2, 0)),
        ];
        for (time, kind, keys, a, b) in entries {
            q.push(Entry::new(time, kind, keys.0, keys.1, a, b));
        }
        let order: Vec<(f64, EventKind)> =
            std::iter::from_fn(|| q.pop_valid(|e| e.is_current(&gen)).0)
                .map(|e| (e.time, e.kind))
                .collect();
        assert_eq!(
            order,
            [(1.0, BallBall), (1.0, SlidingRolling), (2.0, BallBall)]
        );
    }
}
