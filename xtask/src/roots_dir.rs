//! The `roots/` directory of a run: the root finder's evidence, written by `cargo xtask roots`
//! and, case level only, by `cargo xtask compare` next to its run.

use pool_report::roots::Evidence;

use crate::output::{csv_bytes, Staging};
use crate::CliError;

/// Writes `roots/` (summary.csv, wrong.csv, engine.csv when `ev` has the engine-level part, the
/// error CDF plot, report.md) into a staging run.
///
/// # Errors
/// A file that cannot be written.
pub fn write_roots_dir(staging: &Staging, ev: &Evidence) -> Result<(), CliError> {
    staging.write("roots/summary.csv", &csv_bytes(ev.stats)?)?;
    staging.write("roots/wrong.csv", &csv_bytes(&ev.wrong_rows())?)?;
    if let Some(e) = ev.engine {
        staging.write("roots/engine.csv", &csv_bytes(e)?)?;
    }
    ev.error_cdf(&staging.path("roots/error_cdf"))?;
    staging.write("roots/report.md", ev.markdown().as_bytes())
}
