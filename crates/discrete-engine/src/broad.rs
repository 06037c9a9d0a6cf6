//! Broad phase for ball pairs: sort-and-sweep on x with a skin (a Verlet list), with buffers
//! reused from step to step.
//!
//! The narrow test of the integrator (`engine.rs`) is "closer than 2R and approaching". A pair
//! can pass it only if |dx| < 2R and |dy| < 2R (as computed in floating point: rounding is
//! monotonic, so |fl(dx)| >= 2R implies fl(dx^2 + dy^2) >= fl((2R)^2)). The sweep lists every
//! pair closer than 2R + skin in x and in y, and keeps the list while no ball has moved more
//! than skin / 2 in x or y since: two balls that were farther apart than 2R + skin are then
//! still at least 2R apart. The list is a superset of the pairs that can pass the narrow test,
//! in the order the all-pairs loop visits them, so resolving the candidates in that order gives
//! bit-for-bit the same states and events as testing every pair (the extra pairs fail the
//! narrow test; they only cost a test each).

/// How the integrator finds the ball pairs, cushions and pockets to test each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum BroadPhase {
    /// Test every ball pair, every cushion and every pocket: Leckie & Greenspan's discrete
    /// method, whose operation count their formula N (61 n - n^2) / 2 models. O(n^2) per step.
    Exhaustive,
    /// Sort-and-sweep on x for ball pairs, and per-cell lists of the cushions and pockets a ball
    /// in that cell can touch. O(n) per step for balls spread over the table. Same events and
    /// states as [`BroadPhase::Exhaustive`] bit for bit; fewer tests counted.
    #[default]
    Culled,
}

impl BroadPhase {
    /// Name used in reports and on the command line: `exhaustive` or `culled`.
    pub fn name(self) -> &'static str {
        match self {
            BroadPhase::Exhaustive => "exhaustive",
            BroadPhase::Culled => "culled",
        }
    }

    /// Parses `exhaustive` or `culled`.
    pub fn from_name(s: &str) -> Option<Self> {
        match s {
            "exhaustive" => Some(BroadPhase::Exhaustive),
            "culled" => Some(BroadPhase::Culled),
            _ => None,
        }
    }
}

/// The skin, as a fraction of 2R: pairs closer than 2R (1 + SKIN) in x and y are listed, and
/// the list holds until a ball moves R * SKIN in x or y. With 1/2, a tight rack lists only
/// touching neighbours (the next ring is at 2R sqrt 3), and a ball at 10 m/s with dt = 1e-4 s
/// moves 1 mm per step, so the sweep runs about once every 14 steps.
const SKIN: f64 = 0.5;

/// Candidate ball pairs by sort-and-sweep on x with a skin (module docs). Balls are named by
/// slot, and slots are in the order the all-pairs loop visits them. Holds its buffers across
/// steps: after the first step it allocates nothing, and the x order is repaired by insertion
/// sort (balls move little between sweeps, so this is O(n) in practice).
///
/// The caller says whether the list may be stale: a ball moved outside its box
/// ([`PairSweep::holds`] false for its new position). Positions change only where the caller
/// writes them, so it can ask there, for the balls it moved, instead of the sweep looking at
/// every ball every step.
#[derive(Clone, Debug, Default)]
pub(crate) struct PairSweep {
    /// The balls in play at the last sweep, sorted by x, with their positions then.
    by_x: Vec<Entry>,
    /// Each slot's position at the last sweep (NaN before the first, so nothing holds).
    anchor: Vec<(f64, f64)>,
    /// How far a ball may move in x or in y before the list may miss a pair (m).
    half: f64,
    /// Candidate pairs as (lower slot) << 32 | (higher slot), ascending.
    keys: Vec<u64>,
    /// Whether `keys` was built (false before the first sweep and after a non-finite one).
    built: bool,
}

/// One ball in the sweep.
#[derive(Clone, Copy, Debug)]
struct Entry {
    x: f64,
    y: f64,
    /// Slot of the ball.
    slot: u32,
}

impl PairSweep {
    /// Whether the list still holds for ball `slot` at position (x, y) (m): it is within the
    /// skin's half of where the last sweep saw it, less 1 pm for rounding of the differences.
    /// False for a non-finite position and before the first sweep.
    #[inline]
    pub(crate) fn holds(&self, slot: usize, x: f64, y: f64) -> bool {
        match self.anchor.get(slot) {
            Some(&(ax, ay)) => (x - ax).abs() <= self.half && (y - ay).abs() <= self.half,
            None => false,
        }
    }

    /// Candidate pairs among the `n` slots `active` says are in play, with positions `xy` (m):
    /// a superset of the pairs closer than `two_r` in x and in y, as (lower slot, higher slot)
    /// keys sorted ascending, the all-pairs loop's visiting order. The last list is returned
    /// unless `stale` (some ball moved where [`PairSweep::holds`] is false since the last
    /// sweep). `None` if a coordinate is not finite (the caller then tests every pair, which
    /// is what the all-pairs loop would do).
    pub(crate) fn candidates(
        &mut self,
        stale: bool,
        xy: impl Fn(usize) -> (f64, f64),
        active: impl Fn(usize) -> bool,
        n: usize,
        two_r: f64,
    ) -> Option<&[u64]> {
        if self.built && !stale {
            return Some(&self.keys);
        }
        self.built = false;
        // Keep the previous order of the balls still in play; on the first sweep, every ball
        // in play in slot order.
        if self.by_x.is_empty() {
            self.by_x
                .extend((0..n).filter(|&i| active(i)).map(|i| Entry {
                    x: 0.0,
                    y: 0.0,
                    slot: i as u32,
                }));
        }
        self.anchor.clear();
        self.anchor.resize(n, (f64::NAN, f64::NAN));
        let mut dropped = false;
        for e in &mut self.by_x {
            let i = e.slot as usize;
            dropped |= !active(i);
            (e.x, e.y) = xy(i);
            if !(e.x.is_finite() && e.y.is_finite()) {
                return None;
            }
            self.anchor[i] = (e.x, e.y);
        }
        if dropped {
            self.by_x.retain(|e| active(e.slot as usize));
        }
        // Insertion sort by x: nearly sorted input, O(n + inversions).
        for k in 1..self.by_x.len() {
            let cur = self.by_x[k];
            let mut m = k;
            while m > 0 && self.by_x[m - 1].x > cur.x {
                self.by_x[m] = self.by_x[m - 1];
                m -= 1;
            }
            self.by_x[m] = cur;
        }
        let reach = two_r * (1.0 + SKIN);
        self.half = 0.5 * SKIN * two_r - 1e-12;
        self.keys.clear();
        let mut rest = &self.by_x[..];
        while let Some((a, tail)) = rest.split_first() {
            rest = tail;
            for b in tail {
                // b.x >= a.x, so dx >= 0 and grows along the sweep (finite: checked above).
                if b.x - a.x >= reach {
                    break;
                }
                if (b.y - a.y).abs() < reach {
                    let (lo, hi) = if a.slot < b.slot {
                        (a.slot, b.slot)
                    } else {
                        (b.slot, a.slot)
                    };
                    self.keys.push(((lo as u64) << 32) | hi as u64);
                }
            }
        }
        self.keys.sort_unstable();
        self.built = true;
        Some(&self.keys)
    }
}

/// Splits a candidate key into (lower slot, higher slot).
#[inline]
pub(crate) fn unpack(key: u64) -> (usize, usize) {
    ((key >> 32) as usize, (key & 0xFFFF_FFFF) as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every pair of slots with |dx| < reach and |dy| < reach, in slot order.
    fn brute(p: &[(f64, f64)], reach: f64) -> Vec<u64> {
        let mut out = Vec::new();
        for i in 0..p.len() {
            for j in i + 1..p.len() {
                if (p[j].0 - p[i].0).abs() < reach && (p[j].1 - p[i].1).abs() < reach {
                    out.push(((i as u64) << 32) | j as u64);
                }
            }
        }
        out
    }

    #[test]
    fn sweep_lists_every_close_pair_in_slot_order_across_steps() {
        // A deterministic pseudo-random walk of 40 points in a 1 m x 0.5 m box, 2R = 0.1 m.
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let n = 40;
        let mut p: Vec<(f64, f64)> = (0..n).map(|_| (next(), 0.5 * next())).collect();
        let mut sweep = PairSweep::default();
        let (mut total, mut reused) = (0, 0);
        let mut last: Vec<u64> = Vec::new();
        let mut stale = true;
        for step in 0..400 {
            let got = sweep
                .candidates(stale, |i| p[i], |_| true, n, 0.1)
                .unwrap()
                .to_vec();
            // Every close pair, in slot order, and nothing beyond the skin of the last sweep.
            let want = brute(&p, 0.1);
            assert!(
                got.windows(2).all(|w| w[0] < w[1]),
                "step {step}: not sorted"
            );
            assert!(
                want.iter().all(|k| got.binary_search(k).is_ok()),
                "step {step}: a close pair is missing"
            );
            let far = brute(&p, 0.1 * (1.0 + SKIN) + 0.1 * SKIN);
            assert!(got.iter().all(|k| far.binary_search(k).is_ok()));
            total += want.len();
            reused += usize::from(step > 0 && got == last);
            last = got;
            // Steps of up to 4 mm (most short of the 25 mm half-skin), now and then a jump;
            // the walker reports the moves that leave a box, as the integrator does.
            let jump = if step % 37 == 0 { 0.1 } else { 0.008 };
            stale = false;
            for (i, q) in p.iter_mut().enumerate() {
                q.0 += jump * (next() - 0.5);
                q.1 += jump * (next() - 0.5);
                stale |= !sweep.holds(i, q.0, q.1);
            }
        }
        assert!(
            total > 200,
            "the walk must produce close pairs to test ({total})"
        );
        assert!(reused > 100, "the list must outlive some steps ({reused})");
    }

    #[test]
    fn nothing_holds_before_the_first_sweep_or_at_a_non_finite_position() {
        let p = [(0.0, 0.0), (0.5, 0.0)];
        let mut sweep = PairSweep::default();
        assert!(!sweep.holds(0, 0.0, 0.0));
        assert!(sweep
            .candidates(false, |i| p[i], |_| true, 2, 0.1)
            .is_some());
        assert!(sweep.holds(0, 0.0, 0.0));
        assert!(sweep.holds(1, 0.5 + 0.02, 0.0));
        assert!(!sweep.holds(1, 0.5 + 0.03, 0.0));
        assert!(!sweep.holds(1, f64::NAN, 0.0));
    }

    #[test]
    fn non_finite_position_gives_no_candidates_list() {
        let p = [(0.0, 0.0), (f64::NAN, 0.0)];
        let mut sweep = PairSweep::default();
        assert!(sweep.candidates(true, |i| p[i], |_| true, 2, 0.1).is_none());
    }

    #[test]
    fn names_round_trip() {
        for b in [BroadPhase::Exhaustive, BroadPhase::Culled] {
            assert_eq!(BroadPhase::from_name(b.name()), Some(b));
        }
        assert_eq!(BroadPhase::from_name("grid"), None);
    }
}
