//! Options several commands share: choosing an engine by spec.

use pool_engines::EngineSpec;

use crate::CliError;

/// The engine of `--engine` (or `--engines`) as a spec, with the older single-engine options
/// folded in: a bare `event` takes `--solver`, a bare `discrete` takes `--dt` and `--scheme`
/// (defaults isolator, 1e-4 s, exact). A full spec (`discrete:1e-3:euler`) must not be combined
/// with them.
///
/// # Errors
/// A spec that does not parse or validate, or a conflict, as one line naming `option`.
pub fn engine_spec(
    option: &str,
    engine: &str,
    dt: Option<f64>,
    scheme: Option<&str>,
    solver: Option<&str>,
) -> Result<EngineSpec, CliError> {
    let engine = engine.trim();
    if let Some(dt) = dt {
        if !(pool_discrete::DT_MIN..=pool_discrete::DT_MAX).contains(&dt) {
            return Err(CliError::Input(format!(
                "--dt = {dt}: must be in [{:e}, {}] s",
                pool_discrete::DT_MIN,
                pool_discrete::DT_MAX
            )));
        }
    }
    let full = match engine {
        "event" => format!("event:{}", solver.unwrap_or("isolator")),
        "discrete" => format!(
            "discrete:{:e}:{}",
            dt.unwrap_or(1e-4),
            scheme.unwrap_or("exact")
        ),
        spec => {
            let given: Vec<&str> = [
                ("--dt", dt.is_some()),
                ("--scheme", scheme.is_some()),
                ("--solver", solver.is_some()),
            ]
            .into_iter()
            .filter_map(|(name, on)| on.then_some(name))
            .collect();
            if !given.is_empty() {
                return Err(CliError::Input(format!(
                    "{option} = {spec:?}: a full engine spec already says what {} would; give \
                     one or the other",
                    given.join(" and ")
                )));
            }
            spec.to_string()
        }
    };
    full.parse::<EngineSpec>()
        .map_err(|e| CliError::Input(format!("{option} = {e}")))
}

/// Every spec of a comma-separated `--engines` list.
///
/// # Errors
/// The first spec that does not parse, naming `option`.
pub fn engine_specs(option: &str, specs: &[String]) -> Result<Vec<EngineSpec>, CliError> {
    specs
        .iter()
        .map(|s| engine_spec(option, s, None, None, None))
        .collect()
}
