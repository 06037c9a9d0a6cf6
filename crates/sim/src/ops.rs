//! Operation counters: real counts of the work each engine does. Each engine defines its own
//! kinds of work with [`crate::counters!`] and reports them as [`OpCounts`].

use serde::Serialize;

/// The work one run did: (counter name, count) pairs in the engine's report order, zeros
/// included. The names are the engine's own (`predict_ball_ball`, `pair_test`, `step`, ...).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct OpCounts {
    counts: Vec<(&'static str, u64)>,
}

impl OpCounts {
    /// Counts from (name, count) pairs.
    pub fn new(counts: impl IntoIterator<Item = (&'static str, u64)>) -> Self {
        OpCounts {
            counts: counts.into_iter().collect(),
        }
    }

    /// The count named `name`, 0 for a counter the engine does not have.
    pub fn get(&self, name: &str) -> u64 {
        self.counts
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(0, |(_, c)| *c)
    }

    /// Sum over all counters (each unit of work counted once).
    pub fn total(&self) -> u64 {
        self.counts.iter().map(|(_, c)| c).sum()
    }

    /// (name, count) pairs in report order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        self.counts.iter().copied()
    }
}

/// Defines an engine's kinds of work: an enum of counters with their report names (`ALL`,
/// `name`) and a tally of fixed size whose `bump` is a plain array increment, cheap enough for
/// inner loops; `counts()` turns it into [`OpCounts`].
///
/// ```
/// pool_sim::counters! {
///     /// What my engine counts.
///     pub enum MyOp, MyOps {
///         /// One step.
///         Step = "step",
///         /// One pair tested.
///         PairTest = "pair_test",
///     }
/// }
/// let mut ops = MyOps::default();
/// ops.bump(MyOp::Step);
/// ops.add(MyOp::PairTest, 3);
/// assert_eq!(ops.counts().get("pair_test"), 3);
/// assert_eq!(ops.counts().total(), 4);
/// ```
#[macro_export]
macro_rules! counters {
    (
        $(#[$meta:meta])*
        $vis:vis enum $op:ident, $tally:ident {
            $($(#[$vmeta:meta])* $variant:ident = $label:literal,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis enum $op {
            $($(#[$vmeta])* $variant,)+
        }

        impl $op {
            /// Every counter, in report order.
            pub const ALL: &'static [$op] = &[$($op::$variant),+];

            /// The snake_case name in reports.
            pub fn name(self) -> &'static str {
                match self {
                    $($op::$variant => $label,)+
                }
            }
        }

        #[doc = concat!("Counts per [`", stringify!($op), "`].")]
        #[derive(Clone, Debug, Default, PartialEq, Eq)]
        $vis struct $tally {
            counts: [u64; [$($label),+].len()],
        }

        impl $tally {
            /// Adds one to a counter.
            #[inline]
            pub fn bump(&mut self, op: $op) {
                self.counts[op as usize] += 1;
            }

            /// Adds `n` to a counter.
            #[inline]
            pub fn add(&mut self, op: $op, n: u64) {
                self.counts[op as usize] += n;
            }

            /// One counter's count.
            pub fn get(&self, op: $op) -> u64 {
                self.counts[op as usize]
            }

            /// Every counter by name, for the run's outcome.
            pub fn counts(&self) -> $crate::OpCounts {
                $crate::OpCounts::new($op::ALL.iter().map(|&o| (o.name(), self.get(o))))
            }
        }
    };
}
