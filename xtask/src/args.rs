//! Options several commands share: choosing an engine by spec, the worker threads, and the
//! limits every count and run is checked against before work starts.

use pool_engines::EngineSpec;
use pool_sim::Setup;

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
                "--dt = {dt:?}: must be in [{:e}, {}] s",
                pool_discrete::DT_MIN,
                pool_discrete::DT_MAX
            )));
        }
    }
    let full = match engine {
        "event" => format!(
            "event:{}",
            solver.unwrap_or(pool_roots::Solver::default().name())
        ),
        "discrete" => format!(
            "discrete:{:e}:{}",
            dt.unwrap_or(1e-4),
            scheme.unwrap_or("end_of_step")
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
    engine_list(specs)
        .iter()
        .map(|s| engine_spec(option, s, None, None, None))
        .collect()
}

/// The specs of an `--engines` option given once or more: each occurrence a comma-separated
/// list, where a comma inside an exec command stays in it ([`pool_engines::split_list`]).
pub fn engine_list(given: &[String]) -> Vec<String> {
    given
        .iter()
        .flat_map(|g| pool_engines::split_list(g))
        .collect()
}

/// Most worker threads `--jobs` may ask for: far more than any machine this runs on has cores
/// (10 000 threads stall the pool before any work starts).
pub const MAX_JOBS: usize = 256;

/// The worker threads of `--jobs`: all cores by default, else 1 to [`MAX_JOBS`].
///
/// # Errors
/// A count outside that range (exit 2), or a pool the system cannot start (exit 1).
pub fn thread_pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, CliError> {
    if let Some(n) = jobs {
        in_range("--jobs", n, 1, MAX_JOBS)?;
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Run(format!("thread pool: {e}")))
}

/// `value` of `option` if it is in [`min`, `max`], else one line naming both (exit 2).
///
/// # Errors
/// A value outside the range.
pub fn in_range<T: PartialOrd + std::fmt::Display>(
    option: &str,
    value: T,
    min: T,
    max: T,
) -> Result<T, CliError> {
    if value < min || value > max {
        return Err(CliError::Input(format!(
            "{option} = {value}: must be {min} to {max}"
        )));
    }
    Ok(value)
}

/// Most events `--max-events` may allow a shot (stress, sweep): with a snapshot at every event,
/// 16 balls take 1.3 GB at this budget.
pub const MAX_EVENTS_OPTION: usize = 1_000_000;

/// The `--engine` of a batch command (stress, sweep) with its `--dt`, checked to build, and its
/// `--max-events` checked against [`MAX_EVENTS_OPTION`].
///
/// # Errors
/// A spec that does not parse or build, or a budget out of range (exit 2, naming the option).
pub fn batch_engine(
    engine: &str,
    dt: Option<f64>,
    max_events: usize,
) -> Result<EngineSpec, CliError> {
    let spec = engine_spec("--engine", engine, dt, None, None)?;
    spec.build()
        .map_err(|e| CliError::Input(format!("--engine = {e}")))?;
    in_range("--max-events", max_events, 1, MAX_EVENTS_OPTION)?;
    Ok(spec)
}

/// Most ball-steps (balls x steps) one fixed-step run may take: about half an hour at the
/// discrete integrator's 18-37 ns per ball-step (README, Speed).
pub const MAX_BALL_STEPS: f64 = 1e11;

/// The most ball-steps `spec` can take on `setup` (balls x steps to `t_end`, or to the
/// integrator's [`pool_discrete::MAX_TIME`]), for fixed-step engines; `None` for others.
pub fn ball_steps_bound(spec: &EngineSpec, setup: &Setup) -> Option<f64> {
    let dt = match spec {
        EngineSpec::Discrete { dt, .. } => *dt,
        _ => return None,
    };
    let t_limit = setup.t_end.unwrap_or(pool_discrete::MAX_TIME);
    Some((t_limit / dt).ceil() * setup.balls.len() as f64)
}

/// Refuses a fixed-step run that could take more than [`MAX_BALL_STEPS`] before starting it,
/// naming `option` (the option that chose the engine) and the shot's `t_end`.
///
/// # Errors
/// The run's bound is above the limit (exit 2).
pub fn check_work(option: &str, spec: &EngineSpec, setup: &Setup) -> Result<(), CliError> {
    match ball_steps_bound(spec, setup) {
        Some(work) if work > MAX_BALL_STEPS => Err(CliError::Input(format!(
            "{option} = {spec}: shot {:?} ({} balls, {}) can take {work:.1e} ball-steps, more \
             than the {MAX_BALL_STEPS:.0e} a run may (about half an hour); raise dt or lower \
             t_end",
            setup.name,
            setup.balls.len(),
            match setup.t_end {
                Some(t) => format!("t_end = {} s", pool_harness::num(t)),
                None => format!(
                    "no t_end: up to {} s",
                    pool_harness::num(pool_discrete::MAX_TIME)
                ),
            }
        ))),
        _ => Ok(()),
    }
}

/// The schemes of `--schemes`, checked.
///
/// # Errors
/// An unknown or repeated name (exit 2).
pub fn schemes(names: &[String]) -> Result<Vec<pool_discrete::Scheme>, CliError> {
    use pool_discrete::Scheme;
    let mut out: Vec<Scheme> = Vec::new();
    if names.len() == 1 && names[0].trim() == "none" {
        return Ok(out);
    }
    for n in names {
        let s = Scheme::from_name(n.trim()).ok_or_else(|| {
            let hint = pool_engines::suggestion(
                n.trim(),
                &["end_of_step", "euler", "located", "substep8"],
            );
            CliError::Input(format!(
                "--schemes = {n:?}: unknown scheme{hint}; valid: {}",
                Scheme::NAMES
            ))
        })?;
        if out.contains(&s) {
            return Err(CliError::Input(format!("--schemes = {n:?}: given twice")));
        }
        out.push(s);
    }
    Ok(out)
}

/// The one engine of `option` (`outcomes --reference`), checked: a spec as `--engines` takes
/// them, installed (a reference cannot be skipped).
///
/// # Errors
/// None or several specs, one that does not parse, or a peer not installed (exit 2).
pub fn reference(option: &str, text: &str) -> Result<EngineSpec, CliError> {
    let mut specs = engine_specs(option, &[text.to_string()])?;
    if specs.len() != 1 {
        return Err(CliError::Input(format!(
            "{option} {text:?}: {} engines; the reference is one engine",
            specs.len()
        )));
    }
    let spec = specs.remove(0);
    if let Some(why) = spec.unavailable() {
        return Err(CliError::Input(format!(
            "{option} = {spec}: {why}; the study cannot be judged without its reference"
        )));
    }
    Ok(spec)
}

/// Most engines `--engines` may add to a run.
pub const MAX_ENGINES: usize = 16;

/// The engines of `option` (`--engines`), checked: at most [`MAX_ENGINES`], none twice nor among
/// `already` (the run's own, e.g. a dt sweep); pooltool and the peers (MuJoCo, PyBullet, ...)
/// are skipped with one line on stderr when they are not installed (optional, never a
/// failure).
///
/// # Errors
/// Too many, a spec that does not parse, or one given twice (exit 2, naming the option).
pub fn extra_engines(
    option: &str,
    specs: &[String],
    already: &[EngineSpec],
) -> Result<Vec<EngineSpec>, CliError> {
    let specs = &engine_list(specs)[..];
    if specs.len() > MAX_ENGINES {
        return Err(CliError::Input(format!(
            "{option}: {} engines, more than the {MAX_ENGINES} a run may add",
            specs.len()
        )));
    }
    let mut out: Vec<EngineSpec> = Vec::new();
    for spec in engine_specs(option, specs)? {
        if out.contains(&spec) || already.contains(&spec) {
            return Err(CliError::Input(format!(
                "{option} = {spec}: already in the run (given twice, or in the dt sweep)"
            )));
        }
        // pooltool and the peers are optional: without them, their rows are skipped with one
        // line saying why.
        if let Some(why) = spec.unavailable() {
            crate::console::errln!("skipping {option} {spec}: {why}");
            continue;
        }
        out.push(spec);
    }
    Ok(out)
}
