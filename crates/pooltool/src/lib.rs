//! pooltool's files in and out: a pooltool 0.6.0 `System.save` file (JSON or msgpack) read as a
//! [`Setup`] ([`import`]), and a set-up with its run written as a pooltool `System`
//! ([`export`]), events and ball histories in pooltool's structure, so that pooltool's own
//! tools (`System.load`, `continuize`, its event filters and plots) read our runs.
//!
//! **Frames** ([`frame`]): pooltool's (x, y) is our (y, x), an exact mirror both ways; spins
//! change sign, the cue's aim phi becomes 90 - phi and its side offset a becomes -a.
//!
//! **Ids** ([`pool_physics::cushion_id_from_pooltool`], [`pool_physics::pocket_id_from_pooltool`],
//! each its own inverse, applied both ways): pooltool's cushions and jaw tips `1`..`18`,
//! `1t`..`17t` are our `c1`..`c18`, `c1t`..`c17t` (an id that could be a ball's gains a `c`);
//! its pockets, named by where they are in its frame, get the names of where they are in ours
//! (its `lb`, `lc`, `lt`, `rb`, `rc`, `rt` are our `lb`, `cb`, `rb`, `lt`, `ct`, `rt`). Ball ids
//! are kept; a ball whose id is a cushion's or a pocket's is refused (`Setup::validate`).
//!
//! **What maps to what.**
//! - Table: linear segments (p1/p2 listed so that the side pooltool's `direction` plays is on
//!   the left, as ours are; written back with the `direction` that says so), circular
//!   segments, pockets with their `depth`; length and width from the rails `3`, `12`, `9`,
//!   `18` as pooltool's `Table.l` and `Table.w` (else the segments' extent). A table equal to
//!   one of our `pooltool_*` built-ins bit for bit (or to the built-in our export named) is
//!   named so.
//! - Balls: state (`rvw`, `s`), one set of parameters for the shot (`u_sp_proportionality`
//!   times R is our `mu_sp`); pocketed balls are out of play and are left out (reported). A
//!   simulated system (with events) gives its balls' first history states, the shot's start.
//! - Cue: a strike when pooltool would strike (`t` = 0, no ball moving or spinning, V0 > 0),
//!   as our `[cue]`.
//! - Physics: a `resolver` entry (pooltool's resolver file, which [`export`] also writes) or a
//!   resolver file given apart sets the laws; our motion model and time limit travel in a
//!   `harness` entry pooltool ignores. Otherwise pooltool's default laws (the
//!   `pooltool_default` preset), as `pt.simulate` would run the file.
//!
//! Round trips: our set-up → pooltool → our set-up is the same set-up; pooltool → ours →
//! pooltool gives the same coordinates bit for bit (a segment may list its ends the other
//! way round, with the `direction` flipped to match) and the same parameters, with
//! `u_sp_proportionality` within an ulp (it travels as mu_sp = u_sp_proportionality R).
#![warn(missing_docs)]

mod export;
pub mod frame;
mod import;
mod logs;
mod read;
mod resolver;

use std::path::{Path, PathBuf};

pub use export::{export, unequal_balls};
pub use import::{import, import_tree, Imported};
pub use logs::{at_spacer, our_events, pooltool_events, shared_prefix, LoggedEvent, SharedPrefix};
pub use read::{read_import_tree, read_tree, MAX_FILE_BYTES};
pub use resolver::{resolver_in, resolver_out, VERSION};

#[cfg(doc)]
use pool_sim::Setup;

/// Why a pooltool file cannot be read: the file, the field (a path such as
/// `balls.cue.state.rvw`), the value as written and what is wrong. Displays on one line as
/// `<file>: <field> = <value>: <why>`.
#[derive(Clone, Debug, PartialEq)]
pub struct PooltoolError {
    /// The file read.
    pub file: PathBuf,
    /// The field, as a path into the file's tree.
    pub field: String,
    /// The value as written (shortened).
    pub value: String,
    /// What is wrong.
    pub why: String,
}

impl PooltoolError {
    pub(crate) fn new(
        file: &Path,
        field: impl Into<String>,
        value: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        PooltoolError {
            file: file.to_path_buf(),
            field: field.into(),
            value: value.into(),
            why: why.into(),
        }
    }
}

impl std::fmt::Display for PooltoolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} = {}: {}",
            self.file.display(),
            self.field,
            self.value,
            self.why
        )
    }
}

impl std::error::Error for PooltoolError {}

/// pooltool's motion state codes (`pooltool.constants`): 0 stationary, 1 spinning, 2 sliding,
/// 3 rolling, 4 pocketed.
pub fn motion_code(m: pool_physics::MotionState) -> u64 {
    use pool_physics::MotionState as M;
    match m {
        M::Stationary => 0,
        M::Spinning => 1,
        M::Sliding => 2,
        M::Rolling => 3,
        M::Pocketed => 4,
    }
}
