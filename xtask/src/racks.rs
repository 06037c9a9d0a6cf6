//! The racks generated shots start from (`stress`'s breaks and every kind made from them, the
//! outcome study's families): every game's racks, built into the binary by its game module
//! ([`pool_outcome::Racks`]), so that a command runs anywhere (a cluster's worker has the
//! program, not the workspace), here with their errors as the command line's.

use pool_sim::Setup;

use crate::CliError;

/// The 9-ball and the 15-ball rack, on their own table (`seven_foot`) or on the built-in table
/// `table` ([`pool_outcome::pool_racks`]: the racks keep their places relative to the foot
/// spot; on the `fastfiz` table they are FastFiz's racks, under its physics).
///
/// # Errors
/// An unknown table name, or racks that do not fit it, as one line naming `option` (exit 2).
pub fn racks(option: &str, table: Option<&str>) -> Result<[Setup; 2], CliError> {
    let name = table.unwrap_or("seven_foot");
    let racks = pool_outcome::pool_racks(name).ok_or_else(|| {
        CliError::Input(format!("{option} {}", pool_outcome::unknown_table(name)))
    })?;
    let [(_, nine), (_, fifteen)] = racks;
    let placed = |r: Result<Setup, String>| {
        r.map_err(|e| CliError::Input(format!("{option} {name}: the rack {e}")))
    };
    Ok([placed(nine)?, placed(fifteen)?])
}

/// Every game's racks on the built-in table `table` ([`pool_outcome::Racks::on_table`]).
///
/// # Errors
/// An unknown table name, as one line naming `option` (exit 2). A rack that does not fit the
/// table fails only the families that need it, when they are made.
pub fn study_racks(option: &str, table: &str) -> Result<pool_outcome::Racks, CliError> {
    pool_outcome::Racks::on_table(table).map_err(|e| CliError::Input(format!("{option} {e}")))
}
