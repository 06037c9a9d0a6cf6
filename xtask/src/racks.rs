//! The racks generated shots start from (`stress`'s breaks and every kind made from them, the
//! outcome study's families), built into the binary so that a command runs anywhere (a
//! cluster's worker has the program, not the workspace), and moved onto another table.

use std::path::Path;

use pool_sim::Setup;

use crate::CliError;

/// The 9-ball and 15-ball racks under FastFiz's physics on its table, as shot files: the
/// `fastfiz` table's racks.
const FASTFIZ_RACKS: [(&str, &str); 2] = [
    (
        "break_9ball_fastfiz",
        include_str!("../../data/shots/break_9ball_fastfiz.toml"),
    ),
    (
        "break_15ball_fastfiz",
        include_str!("../../data/shots/break_15ball_fastfiz.toml"),
    ),
];

/// The 9-ball and 15-ball racks, as shot files.
const RACKS: [(&str, &str); 2] = [
    (
        "break_9ball",
        include_str!("../../data/shots/break_9ball.toml"),
    ),
    (
        "break_15ball",
        include_str!("../../data/shots/break_15ball.toml"),
    ),
];

/// The 9-ball and the 15-ball rack, on their own table (`seven_foot`) or on the built-in table
/// `table` ([`pool_harness::rack_on_table`]: the racks keep their places relative to the foot
/// spot). On the `fastfiz` table they are FastFiz's racks, under its physics
/// (`data/shots/break_*_fastfiz.toml`): the table comes with its model.
///
/// # Errors
/// An unknown table name, or racks that do not fit it, as one line naming `option` (exit 2).
pub fn racks(option: &str, table: Option<&str>) -> Result<[Setup; 2], CliError> {
    let parse = |(name, text): (&str, &str)| {
        pool_shots::parse(text, name, Path::new(&format!("data/shots/{name}.toml")))
    };
    let files = if table == Some("fastfiz") {
        FASTFIZ_RACKS
    } else {
        RACKS
    };
    let mut racks = [parse(files[0])?, parse(files[1])?];
    if let Some(name) = table {
        let t = pool_physics::Table::by_name(name).ok_or_else(|| {
            CliError::Input(format!(
                "{option} {name:?}: unknown table; valid: {} (rectangle_LxW for any L x W in m)",
                pool_physics::Table::BUILT_IN.join(", ")
            ))
        })?;
        for rack in &mut racks {
            *rack = pool_harness::rack_on_table(rack, &t).map_err(|e| {
                CliError::Input(format!("{option} {name}: the {} rack: {e}", rack.name))
            })?;
        }
    }
    Ok(racks)
}
