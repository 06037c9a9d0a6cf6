//! Families of random shots for the outcome study, seeded and reproducible: every family's
//! name and game ([`FamilyKind`]), and the shots its game makes ([`family_shot`],
//! [`floor_shot`]; each game's own in [`crate::game::ruleset`]).

use pool_sim::{RackModel, Setup};

use crate::game::family::FamilyKind;
use crate::game::ruleset::rules::Racks;

/// The chaos floor's shot before its perturbation: for a break whose rack model draws
/// (`jittered`), the same strike on another draw of the rack (a rack is never racked twice
/// alike: its own jitter is the physical uncertainty of a break); otherwise the shot itself
/// ([`family_shot`]). Each game says which of its families are breaks.
///
/// # Errors
/// As [`family_shot`].
pub fn floor_shot(
    kind: FamilyKind,
    racks: &Racks,
    rack: &RackModel,
    seed: u64,
) -> Result<Setup, String> {
    kind.game().floor_shot(kind, racks, rack, seed)
}

/// Shot `seed` of kind `kind` made by its game from `racks` (on the family's table), the
/// breaks' racks placed by `rack` (seeded by `seed`). Named `<kind>_<seed>`. Deterministic in
/// `seed`; every set-up returned passes [`Setup::validate`].
///
/// # Errors
/// The table has no rack or no pocket the kind needs, or no placement fitted in 10 000 draws.
pub fn family_shot(
    kind: FamilyKind,
    racks: &Racks,
    rack: &RackModel,
    seed: u64,
) -> Result<Setup, String> {
    let mut s = kind.game().shot(kind, racks, rack, seed)?;
    s.name = format!("{}_{seed}", kind.name());
    s.validate().map_err(|e| format!("{}: {e}", s.name))?;
    Ok(s)
}
