//! `cargo xtask compare`: the main job.

use std::path::PathBuf;
use std::time::Instant;

use indicatif::ProgressBar;
use pool_discrete::Scheme;
use pool_engines::EngineSpec;
use pool_harness::{
    ball_paths, check_outcome, event_marks, log_dt_sweep, one_step, reference_rows, run_engine,
    run_reference, EngineRun, ErrorRow, InvariantReport, OneStepRow, OpsRow, Reference, ShotPaths,
    SummaryRow,
};
use pool_report::compare::{
    self as report, EngineFailure, Regression, ResidualRow, Results, Scaling, SlopeRow,
};
use pool_report::plots;
use pool_report::roots::{verdict_line, Evidence};
use pool_sim::Setup;
use rayon::prelude::*;

use crate::output::{csv_bytes, Staging};
use crate::roots_dir::write_roots_dir;
use crate::CliError;

/// Options of `cargo xtask compare`.
#[derive(clap::Args, Debug, Clone)]
pub struct CompareArgs {
    /// Shot files (.toml) or directories of them [default: data/shots]
    pub shots: Vec<PathBuf>,
    /// Explicit time steps to sweep (s), comma-separated, e.g. --dt 1e-2,1e-3; overrides
    /// --dt-max/--dt-min/--per-decade
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub dt: Vec<f64>,
    /// Largest time step of the sweep (s)
    #[arg(long, default_value_t = 1e-2)]
    pub dt_max: f64,
    /// Smallest time step of the sweep (s)
    #[arg(long, default_value_t = 1e-5)]
    pub dt_min: f64,
    /// Log-spaced time steps per decade
    #[arg(long, default_value_t = 3)]
    pub per_decade: usize,
    /// Discrete integration schemes, comma-separated: exact, euler, located (events located
    /// inside the step), substep<k> (k substeps on contact, k in 2..=1000)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "exact,euler,located,substep8"
    )]
    pub schemes: Vec<String>,
    /// Root solver of the event engine: isolator, ferrari, alg1010, companion
    #[arg(long, default_value = "isolator")]
    pub solver: String,
    /// More engines to compare with the reference besides the dt sweep, comma-separated engine
    /// specs: discrete:1e-3:euler, event:ferrari, rapier:<dt> (the rapier2d game engine),
    /// pooltool (skipped with a note when pooltool is not installed), exec:<command> (any
    /// program speaking docs/engine-protocol.md; its command cannot contain a comma), or a
    /// registered engine
    #[arg(long, value_delimiter = ',')]
    pub engines: Vec<String>,
    /// Skip the one-step agreement (every engine restarted from the reference's state before
    /// each reference event; one_step.csv)
    #[arg(long)]
    pub no_one_step: bool,
    /// Quick run for CI: dt from 1e-2 to 1e-4 s, one per decade, schemes exact and located
    /// (unless --schemes is given)
    #[arg(long)]
    pub quick: bool,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Compare with the baselines in data/baselines: exit 1 with a diff if the event sequence,
    /// event times, final states or discrete summaries changed beyond tolerance
    #[arg(long, conflicts_with = "bless")]
    pub check: bool,
    /// Rewrite the baselines of the shots run (after an intended physics change) and print what
    /// changed
    #[arg(long)]
    pub bless: bool,
    /// Baseline directory [default: <workspace>/data/baselines]
    #[arg(long)]
    pub baselines: Option<PathBuf>,
    /// Skip the scaling study (cost against 2-64 balls, both engines; scaling.csv, scaling.png)
    #[arg(long)]
    pub no_scaling: bool,
}

/// `--schemes` when not given.
const DEFAULT_SCHEMES: [&str; 4] = ["exact", "euler", "located", "substep8"];

/// What a compare run runs.
struct Plan {
    dts: Vec<f64>,
    schemes: Vec<Scheme>,
    /// The reference engine (the event engine with --solver).
    reference: EngineSpec,
    /// Every engine measured against it: the dt sweep of each scheme, then --engines.
    engines: Vec<EngineSpec>,
    /// The largest dt of the sweep (s): the discrete run drawn in the shot diagrams.
    path_dt: f64,
    /// The engine whose paths are drawn beside the reference: the first scheme at `path_dt`.
    drawn: Option<EngineSpec>,
    /// Whether every engine (the reference too) is also restarted before every reference
    /// event ([`one_step`]).
    one_step: bool,
}

/// What a job computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// The whole shot, matched against the reference.
    Whole,
    /// One-step agreement.
    OneStep,
}

impl Plan {
    /// Every (shot index, engine, task) of `n_shots` shots, longest runs (smallest dt) first,
    /// so the last worker is not left with the slowest job.
    fn jobs(&self, n_shots: usize) -> Vec<(usize, &EngineSpec, Task)> {
        let mut jobs: Vec<(usize, &EngineSpec, Task)> = Vec::new();
        for s in 0..n_shots {
            for e in &self.engines {
                jobs.push((s, e, Task::Whole));
                if self.one_step {
                    jobs.push((s, e, Task::OneStep));
                }
            }
            if self.one_step {
                jobs.push((s, &self.reference, Task::OneStep));
            }
        }
        jobs.sort_by(|a, b| {
            let dt = |e: &EngineSpec| e.dt().unwrap_or(0.0);
            dt(a.1).total_cmp(&dt(b.1))
        });
        jobs
    }
}

fn plan(args: &CompareArgs) -> Result<Plan, CliError> {
    let dts = if !args.dt.is_empty() {
        args.dt.clone()
    } else if args.quick {
        log_dt_sweep(1e-2, 1e-4, 1)
    } else {
        for (name, v) in [("--dt-max", args.dt_max), ("--dt-min", args.dt_min)] {
            if !(v.is_finite() && v > 0.0) {
                return Err(CliError::Input(format!(
                    "{name} = {v}: must be a positive time (s)"
                )));
            }
        }
        log_dt_sweep(args.dt_max, args.dt_min, args.per_decade)
    };
    let names: Vec<String> = if args.quick && args.schemes == DEFAULT_SCHEMES {
        vec!["exact".into(), "located".into()]
    } else {
        args.schemes.clone()
    };
    let schemes = names
        .iter()
        .map(|n| {
            Scheme::from_name(n).ok_or_else(|| {
                CliError::Input(format!(
                    "--schemes = {n:?}: unknown scheme; valid: {}",
                    Scheme::NAMES
                ))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let reference = crate::args::engine_spec("--solver", "event", None, None, Some(&args.solver))?;
    let mut engines = Vec::new();
    for &scheme in &schemes {
        for &dt in &dts {
            engines.push(
                EngineSpec::discrete(dt, scheme)
                    .map_err(|e| CliError::Input(format!("--dt = {e}")))?,
            );
        }
    }
    for spec in crate::args::engine_specs("--engines", &args.engines)? {
        // pooltool is optional: without it, its row is skipped with one line saying why.
        if spec == EngineSpec::Pooltool {
            if let Err(why) = pool_engines::pooltool::command() {
                eprintln!("compare: skipping --engines pooltool: {why}");
                continue;
            }
        }
        engines.push(spec);
    }
    let path_dt = dts.iter().copied().fold(0.0, f64::max);
    let drawn = schemes
        .first()
        .and_then(|&sc| EngineSpec::discrete(path_dt, sc).ok());
    Ok(Plan {
        dts,
        schemes,
        reference,
        engines,
        path_dt,
        drawn,
        one_step: !args.no_one_step,
    })
}

/// Runs the scaling study on `pool` (longest jobs first).
fn scaling_study(quick: bool, pool: &rayon::ThreadPool) -> Result<Scaling, CliError> {
    let start = Instant::now();
    let plan = if quick {
        pool_harness::ScalingPlan::quick()
    } else {
        pool_harness::ScalingPlan::full()
    };
    let rows = pool.install(|| {
        plan.jobs()
            .par_iter()
            .map(|&(e, n, seed)| pool_harness::scaling_run(e, n, seed, &plan))
            .collect::<Result<Vec<_>, String>>()
    });
    let mut rows = rows.map_err(CliError::Run)?;
    rows.sort_by(|a, b| {
        (a.engine.as_str(), a.n_balls, a.seed).cmp(&(b.engine.as_str(), b.n_balls, b.seed))
    });
    let slopes = pool_harness::scaling_slopes(&rows);
    Ok(Scaling {
        plan,
        rows,
        slopes,
        wall_time_s: start.elapsed().as_secs_f64(),
    })
}

/// Runs the comparison and writes `reports/<run>/`.
pub fn run(args: CompareArgs) -> Result<(), CliError> {
    let start = Instant::now();
    let plan = plan(&args)?;
    let files = crate::workspace::resolve_shots(&args.shots)?;
    let setups = files
        .iter()
        .map(|f| pool_shots::load(f))
        .collect::<Result<Vec<Setup>, _>>()?;
    let (out_root, run_name) = args.run.location("compare")?;
    let staging = Staging::new(&out_root.join(&run_name))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Run(format!("thread pool: {e}")))?;
    let threads = pool.current_num_threads();

    let jobs = plan.jobs(setups.len());
    let bar = crate::progress::bar((setups.len() + jobs.len()) as u64, "runs {msg}");
    let more = plan.engines.len() - plan.schemes.len() * plan.dts.len();
    let extra = if more == 0 {
        String::new()
    } else {
        format!(" + {more} more engines")
    };
    eprintln!(
        "compare: {} shots x {} schemes x {} dt values{extra} on {threads} threads -> {}",
        setups.len(),
        plan.schemes.len(),
        plan.dts.len(),
        out_root.join(&run_name).display()
    );
    let references = run_references(&setups, &plan, &pool, &bar)?;
    let done = run_engines(&setups, &references, &plan, &jobs, &pool, &bar);
    bar.finish_and_clear();
    for f in &done.failures {
        eprintln!("compare: {f}");
    }

    let rows = Rows::collect(&setups, &references, &done);
    let scaling = if args.no_scaling {
        None
    } else {
        Some(scaling_study(args.quick, &pool)?)
    };
    let slope_rows = report::slopes(&rows.summary);
    let regression = if args.check || args.bless {
        Some(regression(
            &args,
            &setups,
            &references,
            &rows.summary,
            &pool,
        )?)
    } else {
        None
    };
    rows.write(&staging, &slope_rows, scaling.as_ref())?;

    let mut results = Results {
        solver: args.solver.clone(),
        quick: args.quick,
        dts: plan.dts.clone(),
        schemes: plan.schemes.iter().map(|s| s.name().to_string()).collect(),
        shots: rows.paths.iter().map(|p| p.shot.clone()).collect(),
        summary: rows.summary,
        residuals: rows.residuals,
        slopes: slope_rows,
        wall_time_s: start.elapsed().as_secs_f64(),
        threads,
        path_dt: plan.path_dt,
        regression,
        roots_verdict: None,
        scaling,
        one_step: rows.one_step,
        failures: done.failures,
        engines: plan.engines.iter().map(ToString::to_string).collect(),
    };
    results.roots_verdict = roots_evidence(&staging)?;
    staging.write("report.md", report::markdown(&results).as_bytes())?;
    let dir = staging.commit()?;
    std::fs::write(out_root.join("LATEST"), format!("{run_name}\n")).ok();
    println!("{}", report::console_summary(&results));
    println!("report: {}", dir.join("report.md").display());
    match &results.regression {
        Some(r) if r.checked && !r.differences.is_empty() => Err(CliError::Run(format!(
            "regression check failed: {} difference(s) in {} shot(s); see the diff above and the \
             report's \"Regression check\" section. If the change is intended, run with --bless \
             and commit data/baselines.",
            r.differences.len(),
            r.shots_changed()
        ))),
        _ => {
            let failed = results.failures.iter().filter(|f| !f.unsupported).count();
            if failed > 0 {
                Err(CliError::Run(format!(
                    "{failed} engine run(s) failed (above, and in the report's \"Engines that \
                     failed\" section); every other engine's results are written"
                )))
            } else {
                Ok(())
            }
        }
    }
}

/// The reference run of every shot, with its invariant report.
fn run_references(
    setups: &[Setup],
    plan: &Plan,
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
) -> Result<Vec<(Reference, InvariantReport)>, CliError> {
    pool.install(|| {
        setups
            .par_iter()
            .map(|s| {
                let r = run_reference(s, &plan.reference).map_err(CliError::Input)?;
                let rep = check_outcome(s, &r.outcome, 20);
                bar.inc(1);
                Ok((r, rep))
            })
            .collect::<Result<Vec<_>, CliError>>()
    })
}

/// What the engine jobs produced: whole-shot runs, one-step rows and failures.
struct Done<'a> {
    /// Whole-shot runs, sorted by shot, then engine family and variant, then dt from largest
    /// to smallest.
    runs: Vec<(usize, &'a EngineSpec, EngineRun)>,
    /// One-step rows, in job order sorted the same way.
    one_step: Vec<OneStepRow>,
    /// Engines that could not run a shot (or declined it).
    failures: Vec<EngineFailure>,
}

/// Every job against its shot's reference. Only the drawn engine keeps snapshots. An engine
/// that fails on a shot is recorded, and every other job still runs.
fn run_engines<'a>(
    setups: &[Setup],
    references: &[(Reference, InvariantReport)],
    plan: &Plan,
    jobs: &[(usize, &'a EngineSpec, Task)],
    pool: &rayon::ThreadPool,
    bar: &ProgressBar,
) -> Done<'a> {
    type Output<'a> = (
        usize,
        &'a EngineSpec,
        Result<Result<EngineRun, Vec<OneStepRow>>, EngineFailure>,
    );
    let mut outputs: Vec<Output<'a>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(s, spec, task)| {
                let (setup, reference) = (&setups[s], &references[s].0);
                let result = match task {
                    Task::Whole => {
                        let draw = Some(spec) == plan.drawn.as_ref();
                        let sample = draw.then_some(plan.path_dt.max(0.005));
                        run_engine(setup, reference, spec, sample).map(Ok)
                    }
                    Task::OneStep => one_step(setup, reference, spec).map(Err),
                };
                let result = result.map_err(|e| EngineFailure {
                    shot: setup.name.clone(),
                    engine: spec.to_string(),
                    task: match task {
                        Task::Whole => "whole shot",
                        Task::OneStep => "one-step",
                    }
                    .into(),
                    message: e.message,
                    unsupported: e.unsupported,
                });
                bar.set_message(format!("{} {spec}", setup.name));
                bar.inc(1);
                (s, spec, result)
            })
            .collect()
    });
    outputs.sort_by(|a, b| {
        (a.0, a.1.family(), a.1.variant())
            .cmp(&(b.0, b.1.family(), b.1.variant()))
            .then(b.1.dt().unwrap_or(0.0).total_cmp(&a.1.dt().unwrap_or(0.0)))
    });
    let mut done = Done {
        runs: Vec::new(),
        one_step: Vec::new(),
        failures: Vec::new(),
    };
    for (s, spec, result) in outputs {
        match result {
            Ok(Ok(run)) => done.runs.push((s, spec, run)),
            Ok(Err(rows)) => done.one_step.extend(rows),
            Err(f) => done.failures.push(f),
        }
    }
    done
}

/// The rows and pictures of a run: the CSV tables, and a shot diagram per shot with a drawn
/// discrete run.
struct Rows {
    summary: Vec<SummaryRow>,
    errors: Vec<ErrorRow>,
    ops: Vec<OpsRow>,
    residuals: Vec<ResidualRow>,
    paths: Vec<ShotPaths>,
    marks: Vec<plots::ShotMarks>,
    one_step: Vec<OneStepRow>,
}

impl Rows {
    /// The references' rows in shot order, then every run's in `runs` order.
    fn collect(
        setups: &[Setup],
        references: &[(Reference, InvariantReport)],
        done: &Done<'_>,
    ) -> Rows {
        let runs = &done.runs;
        let mut summary: Vec<SummaryRow> = Vec::new();
        let mut errors: Vec<ErrorRow> = Vec::new();
        let mut ops: Vec<OpsRow> = Vec::new();
        let mut residuals = Vec::new();
        for (s, (r, rep)) in setups.iter().zip(references) {
            let (row, o) = reference_rows(s, r);
            summary.push(row);
            ops.extend(o);
            residuals.push(ResidualRow::new(s, r, rep));
        }
        let mut paths: Vec<ShotPaths> = Vec::new();
        let mut marks: Vec<plots::ShotMarks> = Vec::new();
        for (s, spec, run) in runs {
            summary.push(run.summary.clone());
            errors.extend(run.errors.iter().cloned());
            ops.extend(run.ops.iter().cloned());
            if !run.outcome.snapshots.is_empty() {
                let setup = &setups[*s];
                paths.push(ShotPaths {
                    shot: setup.name.clone(),
                    table: setup.table.table().clone(),
                    radius: pool_physics::Physics::radius(&setup.physics),
                    reference: ball_paths(setup, &references[*s].0.outcome, true, 0.01),
                    discrete: ball_paths(setup, &run.outcome, false, 0.01),
                    discrete_label: spec.label(),
                });
                marks.push(plots::ShotMarks {
                    reference: event_marks(setup, &references[*s].0.outcome),
                    discrete: event_marks(setup, &run.outcome),
                });
            }
        }
        Rows {
            summary,
            errors,
            ops,
            residuals,
            paths,
            marks,
            one_step: done.one_step.clone(),
        }
    }

    /// Writes the CSV tables and the plots.
    fn write(
        &self,
        staging: &Staging,
        slopes: &[SlopeRow],
        scaling: Option<&Scaling>,
    ) -> Result<(), CliError> {
        let summary = &self.summary;
        staging.write("summary.csv", &csv_bytes(summary)?)?;
        staging.write("errors.csv", &csv_bytes(&self.errors)?)?;
        staging.write("ops.csv", &csv_bytes(&self.ops)?)?;
        staging.write("residuals.csv", &csv_bytes(&self.residuals)?)?;
        staging.write("slopes.csv", &csv_bytes(slopes)?)?;
        staging.write("one_step.csv", &csv_bytes(&self.one_step)?)?;
        if let Some(sc) = scaling {
            staging.write("scaling.csv", &csv_bytes(&sc.rows)?)?;
        }

        let floor = summary
            .iter()
            .filter(|r| r.engine == pool_engines::EVENT)
            .map(|r| r.collision_time_error_max_s)
            .filter(|e| e.is_finite() && e > &0.0)
            .fold(None, |m: Option<f64>, e| Some(m.map_or(e, |m| m.max(e))));
        plots::error_vs_dt(summary, floor, &staging.path("error_vs_dt"))?;
        plots::ops_vs_dt(summary, &staging.path("ops_vs_dt"))?;
        plots::error_vs_cost(summary, floor, &staging.path("error_vs_cost"))?;
        plots::error_vs_wall(summary, floor, &staging.path("error_vs_wall"))?;
        if let Some(sc) = scaling {
            plots::scaling(&sc.rows, &staging.path("scaling"))?;
        }
        for (p, m) in self.paths.iter().zip(&self.marks) {
            plots::shot_diagram(p, m, &staging.path(&format!("paths_{}", p.shot)))?;
        }
        Ok(())
    }
}

/// The root finder's case-level evidence, next to the run it served (`cargo xtask roots` adds
/// the engine-level part): writes `roots/` and returns the verdict line, if
/// `data/roots/cases.csv` is there.
fn roots_evidence(staging: &Staging) -> Result<Option<String>, CliError> {
    let roots_cases = crate::workspace::workspace_root().join("data/roots/cases.csv");
    let Ok(text) = std::fs::read_to_string(&roots_cases) else {
        return Ok(None);
    };
    let cases = pool_harness::parse_root_cases(&text)
        .map_err(|e| CliError::Input(format!("{}: {e}", roots_cases.display())))?;
    let (stats, answers) = pool_harness::evaluate_root_cases(&cases, 3);
    write_roots_dir(
        staging,
        &Evidence {
            cases: &cases,
            stats: &stats,
            answers: &answers,
            engine: None,
            breaks: 0,
        },
    )?;
    Ok(Some(verdict_line(&stats)))
}

/// Compares the run with the baselines (`--check`) or rewrites them (`--bless`), printing the
/// differences either way.
fn regression(
    args: &CompareArgs,
    setups: &[Setup],
    references: &[(Reference, InvariantReport)],
    summary: &[SummaryRow],
    pool: &rayon::ThreadPool,
) -> Result<Regression, CliError> {
    use pool_harness::{diff_discrete, diff_shot, shot_baseline, DiscreteLine, Tolerances};
    let dir = args
        .baselines
        .clone()
        .unwrap_or_else(crate::baselines::default_dir);
    let tol = Tolerances::default();
    // Discrete rows at the baseline time steps: taken from the sweep when it ran them.
    let mut lines: Vec<DiscreteLine> = Vec::new();
    let mut missing = Vec::new();
    for (k, s) in setups.iter().enumerate() {
        for &dt in &pool_harness::BASELINE_DTS {
            let found = summary.iter().find(|r| {
                r.shot == s.name
                    && r.scheme == "exact"
                    && r.dt_s.is_some_and(|d| (d - dt).abs() <= 1e-9 * dt)
            });
            match found.and_then(DiscreteLine::from_summary) {
                Some(mut l) => {
                    l.dt_s = dt;
                    lines.push(l);
                }
                None => missing.push((k, dt)),
            }
        }
    }
    let extra: Vec<DiscreteLine> = pool.install(|| {
        missing
            .par_iter()
            .filter_map(|&(k, dt)| {
                let spec = EngineSpec::discrete(dt, Scheme::Exact).ok()?;
                let run = run_engine(&setups[k], &references[k].0, &spec, None).ok()?;
                let mut l = DiscreteLine::from_summary(&run.summary)?;
                l.dt_s = dt;
                Some(l)
            })
            .collect()
    });
    lines.extend(extra);

    let old_discrete = crate::baselines::read_discrete(&dir)?;
    let mut differences = Vec::new();
    for (s, (r, _)) in setups.iter().zip(references) {
        let now = shot_baseline(s, &r.outcome);
        match crate::baselines::read_shot(&dir, &s.name)? {
            Some(base) => differences.extend(diff_shot(&base, &now, &tol)),
            None => differences.push(pool_harness::Difference {
                shot: s.name.clone(),
                place: "no baseline file".into(),
                field: "events".into(),
                baseline: "-".into(),
                now: now.events.len().to_string(),
                size: None,
            }),
        }
        if args.bless {
            crate::baselines::write_shot(&dir, &now)?;
        }
    }
    differences.extend(diff_discrete(&old_discrete, &lines, &tol));
    if args.bless {
        let names: Vec<String> = setups.iter().map(|s| s.name.clone()).collect();
        crate::baselines::write_discrete(&dir, &names, &lines)?;
    }
    let verb = if args.check { "check" } else { "bless" };
    if differences.is_empty() {
        eprintln!(
            "{verb}: {} shots match the baselines in {}",
            setups.len(),
            dir.display()
        );
    } else {
        eprintln!(
            "{verb}: {} difference(s) from the baselines in {}:",
            differences.len(),
            dir.display()
        );
        for d in &differences {
            eprintln!("  {d}");
        }
        if args.bless {
            eprintln!("bless: baselines rewritten; commit data/baselines with the change.");
        }
    }
    Ok(Regression {
        checked: args.check,
        shots: setups.len(),
        differences,
        dir,
    })
}
