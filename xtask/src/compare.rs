//! `cargo xtask compare`: the main job.

use std::path::PathBuf;
use std::time::Instant;

use indicatif::ProgressBar;
use pool_discrete::Scheme;
use pool_engines::EngineSpec;
use pool_harness::{
    ball_paths, check_outcome, event_marks, log_dt_sweep, one_step, reference_rows, run_engine,
    run_reference, snapshot_budget_note, snapshot_interval, EndCheck, EngineRun, ErrorRow,
    InvariantReport, OneStepRow, OpsRow, Reference, ShotPaths, SummaryRow,
};
use pool_report::compare::{
    self as report, EngineFailure, Regression, ResidualRow, Results, Scaling, SlopeRow,
};
use pool_report::plots;
use pool_report::roots::{verdict_line, Evidence};
use pool_sim::{Setup, Termination};
use rayon::prelude::*;

use crate::console::{errln, outln};
use crate::output::{csv_bytes, Staging};
use crate::roots_dir::write_roots_dir;
use crate::CliError;

/// Options of `cargo xtask compare`.
#[derive(clap::Args, Debug, Clone)]
pub struct CompareArgs {
    /// Shot files (.toml) or directories of them [default: data/shots of the workspace]. Two
    /// shots of one name (file stem) from different directories are refused, since baselines,
    /// plots and rows are named by it; the same file given twice runs once
    pub shots: Vec<PathBuf>,
    /// Explicit time steps to sweep (s), comma-separated, e.g. --dt 1e-2,1e-3; at most 100,
    /// each in [1e-7, 1] s; overrides --dt-max/--dt-min/--per-decade
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true)]
    pub dt: Vec<f64>,
    /// Largest time step of the sweep (s), in [1e-7, 1]
    #[arg(long, default_value_t = 1e-2)]
    pub dt_max: f64,
    /// Smallest time step of the sweep (s), in [1e-7, 1] and at most --dt-max
    #[arg(long, default_value_t = 1e-5)]
    pub dt_min: f64,
    /// Log-spaced time steps per decade, 1 to 100 (at most 100 time steps in all). The sweep's
    /// work is estimated from the reference runs before any discrete run starts, and refused
    /// above 1e12 ball-steps
    #[arg(long, default_value_t = 3)]
    pub per_decade: usize,
    /// Discrete integration schemes, comma-separated: end_of_step (events noticed at the step's end; alias exact), euler, located (events located
    /// inside the step), substep<k> (k substeps on contact, k in 2..=1000)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "end_of_step,euler,located,substep8"
    )]
    pub schemes: Vec<String>,
    /// Root solver of the event engine: isolator, ferrari, alg1010, companion
    #[arg(long, default_value = pool_roots::Solver::Isolator.name())]
    pub solver: String,
    /// More engines to compare with the reference besides the dt sweep, comma-separated engine
    /// specs: discrete:<dt>[:<scheme>], event:<solver>, rapier:<dt> (the rapier2d game engine),
    /// pooltool, the peers mujoco:<dt>[:euler|implicitfast|rk4], pybullet:<dt>, pymunk:<dt>,
    /// box2d:<dt>, billiards and fastfiz (each skipped with a note when not installed:
    /// benches/peers/install.sh), exec:[timeout=<s>:][dt=<s>:][name=<label>:]<command> (any
    /// program speaking docs/engine-protocol.md; a comma stays in its command unless another
    /// spec follows it), or a registered engine; at most 16
    #[arg(long, value_name = "SPEC,...")]
    pub engines: Vec<String>,
    /// Skip the one-step agreement (every engine restarted from the reference's state before
    /// each reference event; one_step.csv)
    #[arg(long)]
    pub no_one_step: bool,
    /// Quick run for CI: dt from 1e-2 to 1e-4 s, one per decade, schemes end_of_step and located
    /// (unless --schemes is given)
    #[arg(long)]
    pub quick: bool,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Compare with the baselines in data/baselines: exit 1 with a diff if the event sequence,
    /// event times, final states or discrete summaries changed beyond tolerance
    #[arg(long, conflicts_with = "bless")]
    pub check: bool,
    /// Rewrite the baselines of the shots run (after an intended physics change) and print what
    /// changed: all files or none (a copy of the directory is rewritten, then swapped in)
    #[arg(long)]
    pub bless: bool,
    /// Baseline directory [default: <workspace>/data/baselines]
    #[arg(long)]
    pub baselines: Option<PathBuf>,
    /// Skip the scaling study (cost against 2-64 balls, both engines; scaling.csv, scaling.png)
    #[arg(long)]
    pub no_scaling: bool,
    /// Physics presets to run every shot with cloth motion under as well, comma-separated
    /// (pool, seed, pooltool_default, corrected, mathavan), or `none`; runs are named
    /// <shot>@<preset>
    #[arg(long, value_delimiter = ',', default_value = "pooltool_default")]
    pub physics: Vec<String>,
    /// Skip the outcome study ("Does it change the game?": families of random shots through
    /// every scheme and --engines, judged against the chaos floor; outcomes.csv)
    #[arg(long, conflicts_with = "OutcomeArgs")]
    pub no_outcomes: bool,
    /// The engines of the outcome study besides the schemes, comma-separated specs [default:
    /// every --engines]; `none` for none. Slow programs (pooltool, MuJoCo at small dt) take
    /// seconds per shot, and the study plays hundreds
    #[arg(long, value_name = "SPEC,...", conflicts_with = "no_outcomes")]
    pub outcome_engines: Option<Vec<String>>,
    #[command(flatten)]
    pub outcomes: crate::study::OutcomeArgs,
}

/// `--schemes` when not given.
const DEFAULT_SCHEMES: [&str; 4] = ["end_of_step", "euler", "located", "substep8"];

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
    /// The outcome study, unless `--no-outcomes`.
    study: Option<pool_outcome::StudyPlan>,
    /// Its sequential budget (`None`: one look).
    budget: Option<pool_outcome::Budget>,
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

/// Most time steps one sweep may have (an explicit --dt list, or --dt-max, --dt-min and
/// --per-decade).
pub const MAX_DTS: usize = 100;

/// The sweep's time steps: --dt, --quick's, or --dt-max down to --dt-min at --per-decade,
/// each in the integrator's [`pool_discrete::DT_MIN`, `pool_discrete::DT_MAX`] and at most
/// [`MAX_DTS`] of them, counted before any is made.
fn dt_sweep(args: &CompareArgs) -> Result<Vec<f64>, CliError> {
    if !args.dt.is_empty() {
        if args.dt.len() > MAX_DTS {
            return Err(CliError::Input(format!(
                "--dt: {} time steps, more than the {MAX_DTS} a sweep may have",
                args.dt.len()
            )));
        }
        for (k, dt) in args.dt.iter().enumerate() {
            if args.dt[..k].contains(dt) {
                return Err(CliError::Input(format!("--dt = {dt:?}: given twice")));
            }
        }
        return Ok(args.dt.clone());
    }
    if args.quick {
        return Ok(log_dt_sweep(1e-2, 1e-4, 1));
    }
    let range = pool_discrete::DT_MIN..=pool_discrete::DT_MAX;
    for (name, v) in [("--dt-max", args.dt_max), ("--dt-min", args.dt_min)] {
        if !range.contains(&v) {
            return Err(CliError::Input(format!(
                "{name} = {v:?}: must be in [{:e}, {}] s",
                pool_discrete::DT_MIN,
                pool_discrete::DT_MAX
            )));
        }
    }
    if args.dt_min > args.dt_max {
        return Err(CliError::Input(format!(
            "--dt-min = {:?}: above --dt-max = {:?}",
            args.dt_min, args.dt_max
        )));
    }
    crate::args::in_range("--per-decade", args.per_decade, 1, MAX_DTS)?;
    let count = ((args.dt_max / args.dt_min).log10() * args.per_decade as f64).round() + 1.0;
    if count > MAX_DTS as f64 {
        return Err(CliError::Input(format!(
            "--per-decade = {}: {count} time steps from {:?} to {:?} s, more than the {MAX_DTS} a \
             sweep may have",
            args.per_decade, args.dt_max, args.dt_min
        )));
    }
    Ok(log_dt_sweep(args.dt_max, args.dt_min, args.per_decade))
}

fn plan(args: &CompareArgs) -> Result<Plan, CliError> {
    let dts = dt_sweep(args)?;
    let names: Vec<String> = if args.quick && args.schemes == DEFAULT_SCHEMES {
        vec!["end_of_step".into(), "located".into()]
    } else {
        args.schemes.clone()
    };
    let schemes = crate::args::schemes(&names)?;
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
    let extra = crate::args::extra_engines("--engines", &args.engines, &engines)?;
    crate::study::programs_start(&extra)?;
    engines.extend(extra.iter().cloned());
    let budget = args.outcomes.budget(if args.quick {
        None
    } else {
        Some(crate::study::COMPARE_BUDGET)
    })?;
    let study = if args.no_outcomes {
        None
    } else {
        let studied = match args
            .outcome_engines
            .as_deref()
            .map(crate::args::engine_list)
        {
            Some(v) if v.len() == 1 && v[0] == "none" => Vec::new(),
            Some(v) => crate::args::extra_engines("--outcome-engines", &v, &[])?,
            None => extra.clone(),
        };
        Some(args.outcomes.plan(
            args.quick,
            &schemes,
            (&studied, false),
            &EngineSpec::reference(),
            pool_event::MAX_EVENTS,
        )?)
    };
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
        study,
        budget,
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

/// Most ball-steps of the discrete integrator one compare run may plan, estimated from the
/// reference runs' end times before any discrete run starts (about five hours on one core).
pub const MAX_TOTAL_BALL_STEPS: f64 = 1e12;

/// Runs the comparison and writes `reports/<run>/`.
pub fn run(args: CompareArgs) -> Result<(), CliError> {
    let start = Instant::now();
    let plan = plan(&args)?;
    let files = crate::workspace::resolve_shots(&args.shots)?;
    let mut setups = files
        .iter()
        .map(|f| pool_shots::load(f))
        .collect::<Result<Vec<Setup>, _>>()?;
    let presets = physics_presets(&args.physics)?;
    setups.extend(physics_variants(&setups, &presets)?);
    for setup in &setups {
        for spec in &plan.engines {
            crate::args::check_work("--dt", spec, setup)?;
        }
    }
    let baselines = if args.check || args.bless {
        Some(Baselines::read(&args, &setups)?)
    } else {
        None
    };
    let staging = args.run.stage("compare")?;
    let pool = crate::args::thread_pool(args.jobs)?;
    let threads = pool.current_num_threads();

    let jobs = plan.jobs(setups.len());
    let bar = crate::progress::bar((setups.len() + jobs.len()) as u64, "runs {msg}");
    let more = plan.engines.len() - plan.schemes.len() * plan.dts.len();
    let extra = if more == 0 {
        String::new()
    } else {
        format!(" + {more} more engines")
    };
    errln!(
        "compare: {} shots x {} schemes x {} dt values{extra} on {threads} threads -> {}",
        setups.len(),
        plan.schemes.len(),
        plan.dts.len(),
        staging.destination().display()
    );
    let references = run_references(&setups, &plan, &pool, &bar)?;
    estimate_work(&setups, &references, &jobs)?;
    let done = run_engines(&setups, &references, &plan, &jobs, &pool, &bar);
    bar.finish_and_clear();
    // Failures one line each; what an engine declined (outside its model: often most shots for
    // a peer) one line per engine, the report's "Engines that failed" listing every run.
    let mut declined: Vec<(&str, Vec<&EngineFailure>)> = Vec::new();
    for f in &done.failures {
        if !f.unsupported {
            errln!("compare: {f}");
        } else if let Some((_, fs)) = declined.iter_mut().find(|(e, _)| *e == f.engine) {
            fs.push(f);
        } else {
            declined.push((&f.engine, vec![f]));
        }
    }
    for (engine, fs) in &declined {
        let mut shots: Vec<&str> = fs.iter().map(|f| f.shot.as_str()).collect();
        shots.dedup();
        let more = if shots.len() > 3 { ", ..." } else { "" };
        errln!(
            "compare: {engine} declined {} run(s) of {} shot(s) ({}{more}), e.g. {}: {} \
             (report.md lists each)",
            fs.len(),
            shots.len(),
            shots[..shots.len().min(3)].join(", "),
            fs[0].shot,
            fs[0].message
        );
    }

    let rows = Rows::collect(&setups, &references, &done);
    let scaling = if args.no_scaling {
        None
    } else {
        Some(scaling_study(args.quick, &pool)?)
    };
    let (outcomes, replays_note) = match &plan.study {
        Some(study) => {
            let (o, note) = outcome_study(
                study,
                plan.budget.as_ref(),
                args.outcomes.replays,
                &pool,
                &staging,
            )?;
            (Some(o), Some(note))
        }
        None => (None, None),
    };
    let slope_rows = report::slopes(&rows.summary);
    let regression = match baselines {
        Some(b) => Some(regression(
            &args,
            b,
            &setups,
            &references,
            &rows.summary,
            &pool,
        )?),
        None => None,
    };
    let throw = pool_harness::throw_curve();
    rows.write(&staging, &slope_rows, scaling.as_ref(), &presets, &throw)?;

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
        physics: presets,
        throw,
        one_step: rows.one_step,
        failures: done.failures,
        engines: plan.engines.iter().map(ToString::to_string).collect(),
        outcomes,
    };
    results.roots_verdict = roots_evidence(&staging)?;
    staging.write("report.md", report::markdown(&results).as_bytes())?;
    staging.write(
        "run.json",
        run_json(&args, &results, plan.study.as_ref(), plan.budget.as_ref()).as_bytes(),
    )?;
    let page = crate::html::stage_page(&staging)?;
    let dir = staging.commit()?;
    if let (Some(root), Some(name)) = (dir.parent(), dir.file_name()) {
        let latest = format!("{}\n", name.to_string_lossy());
        crate::output::write_file_atomically(&root.join("LATEST"), latest.as_bytes()).ok();
    }
    let unphysical = flag_ends(&results.summary);
    if let Some(st) = &results.outcomes {
        for line in st.console_lines() {
            outln!("{line}")?;
        }
    }
    outln!("{}", report::console_summary(&results))?;
    if let Some(note) = &replays_note {
        outln!("{note}")?;
    }
    outln!("report: {}", dir.join("report.md").display())?;
    outln!("{}", page(&dir))?;
    if unphysical > 0 {
        return Err(CliError::Run(format!(
            "{unphysical} run(s) did not end physically (budget, a non-finite state or balls off \
             the table): see the warnings above and the report's \"Runs flagged at their end\""
        )));
    }
    match &results.regression {
        Some(r) if r.checked && !r.differences.is_empty() => Err(CliError::Run(format!(
            "regression check failed: {} difference(s) in {} shot(s); see the diff above and the \
             report's \"Regression check\" section. If the change is intended, run with --bless \
             and commit data/baselines.",
            r.differences.len(),
            r.shots_changed()
        ))),
        _ => {
            let failed = results.failures.iter().filter(|f| !f.unsupported).count() as u64
                + results.outcomes.as_ref().map_or(0, |o| o.failed);
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

/// `run.json`: how the run was made and how long it took, for tools that quote it (the
/// README's figures): what ran (shots, presets, schemes, dt, engines), the wall time and the
/// threads; and the outcome study's options (`outcome_options`, null without the study), from
/// which `cargo xtask replays` remakes its replays.
fn run_json(
    args: &CompareArgs,
    res: &Results,
    study: Option<&pool_outcome::StudyPlan>,
    budget: Option<&pool_outcome::Budget>,
) -> String {
    let value = serde_json::json!({
        "quick": args.quick,
        "wall_time_s": res.wall_time_s,
        "threads": res.threads,
        "shots": res.residuals.iter().filter(|r| !report::is_variant(&r.shot)).count(),
        "runs": res.residuals.len(),
        "physics": res.physics,
        "schemes": res.schemes,
        "dts": res.dts,
        "engines": res.engines,
        "outcome_study": !args.no_outcomes,
        "outcome_options": study.map(|p| crate::replays::StudyRecord::of(p, budget)),
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// Runs the outcome study into `staging` (`outcomes/`, `outcomes.csv`, `outcome_answer.csv`,
/// `outcome_vs_dt.png`), then up to `replays` drill-down replays (`outcomes/replays.json`),
/// and returns it for the report with the replays' note.
fn outcome_study(
    plan: &pool_outcome::StudyPlan,
    budget: Option<&pool_outcome::Budget>,
    replays: u64,
    pool: &rayon::ThreadPool,
    staging: &Staging,
) -> Result<(report::OutcomeStudy, String), CliError> {
    errln!(
        "compare: outcome study: {}",
        crate::study::plan_words(plan, budget)
    );
    let bar = crate::progress::bar(plan.runs_in(0, plan.total()), "outcome runs {per_sec}");
    let result = crate::study::run_study(plan, 0, plan.total(), budget, pool, staging, &bar)?;
    bar.finish_and_clear();
    let wall = result.wall.clone();
    let study = crate::study::study_of(plan, result, budget);
    for w in study.floor_warnings() {
        errln!("compare: outcome study: {w}");
    }
    for f in &study.failures {
        errln!("compare: outcome study: {f}");
    }
    for d in &study.declined {
        errln!("compare: outcome study: {}", d.line());
    }
    crate::study::write_study(staging, &study, &wall)?;
    let note = crate::replays::write_staged(staging, plan, replays, pool)?;
    Ok((study, note))
}

/// Says on stderr which runs did not end physically (a few by name, then a count: they make
/// the command exit 1) and, in one line, how many ended with the method's own overlaps (a
/// flag, measured in the report, not a failure); returns how many did not end physically.
fn flag_ends(summary: &[SummaryRow]) -> usize {
    let is_unphysical = |r: &SummaryRow| {
        r.final_off_table > 0 || !matches!(r.termination.as_str(), "at_rest" | "time_limit")
    };
    let unphysical: Vec<&SummaryRow> = summary.iter().filter(|r| is_unphysical(r)).collect();
    for r in unphysical.iter().take(10) {
        errln!(
            "warning: {} with {}{}: ended {}{}",
            r.shot,
            r.engine,
            r.dt_s.map_or(format!(" ({})", r.scheme), |dt| format!(
                " {} dt = {dt:e} s",
                r.scheme
            )),
            r.termination,
            if r.final_off_table > 0 {
                format!(", {} ball(s) off the table", r.final_off_table)
            } else {
                String::new()
            },
        );
    }
    if unphysical.len() > 10 {
        errln!(
            "warning: ... and {} more (summary.csv)",
            unphysical.len() - 10
        );
    }
    let overlapping: Vec<&SummaryRow> = summary
        .iter()
        .filter(|r| !r.clean_end() && !is_unphysical(r))
        .collect();
    if !overlapping.is_empty() {
        let worst = overlapping
            .iter()
            .map(|r| r.final_overlap_max_m)
            .fold(0.0, f64::max);
        let mut shots: Vec<&str> = overlapping.iter().map(|r| r.shot.as_str()).collect();
        shots.dedup();
        errln!(
            "compare: {} run(s) of {} shot(s) ({}) end with balls overlapping, up to {worst:.1e} m: \
             expected of a fixed-step method (it resolves a contact at the step after it \
             happened), not a failure; measured in the report's \"Runs flagged at their end\"",
            overlapping.len(),
            shots.len(),
            shots.iter().take(4).copied().collect::<Vec<_>>().join(", ")
                + if shots.len() > 4 { ", ..." } else { "" }
        );
    }
    unphysical.len()
}

/// Refuses a plan whose discrete runs, estimated from each reference's end time, would take
/// more than [`MAX_TOTAL_BALL_STEPS`]; says the estimate when it is large.
fn estimate_work(
    setups: &[Setup],
    references: &[(Reference, InvariantReport)],
    jobs: &[(usize, &EngineSpec, Task)],
) -> Result<(), CliError> {
    // One-step jobs restart before each reference event and run one step: negligible beside
    // the whole shots.
    let work: f64 = jobs
        .iter()
        .filter_map(|&(s, spec, task)| {
            let dt = spec.dt().filter(|_| task == Task::Whole)?;
            let t = references[s].0.outcome.end_time.max(dt);
            Some((t / dt).ceil() * setups[s].balls.len() as f64)
        })
        .sum();
    if work > MAX_TOTAL_BALL_STEPS {
        return Err(CliError::Input(format!(
            "--dt: the sweep would take about {work:.1e} ball-steps (the reference runs' end \
             times / dt x balls, summed), more than the {MAX_TOTAL_BALL_STEPS:.0e} one compare run \
             may; raise --dt-min, lower --per-decade, or give fewer shots"
        )));
    }
    if work > 1e9 {
        errln!(
            "compare: about {work:.1e} ball-steps of the discrete integrator (some {:.0} min of \
             CPU at 20-40 ns each)",
            work * 30e-9 / 60.0
        );
    }
    Ok(())
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
                // Every engine is measured against this run: one that did not end physically
                // makes the comparison meaningless, so nothing more runs.
                let mut failures = EndCheck::of(s, &r.outcome).failures(s);
                if r.outcome.termination == Termination::Budget {
                    failures.extend(snapshot_budget_note(s.balls.len()));
                }
                if !failures.is_empty() {
                    return Err(CliError::Run(format!(
                        "shot {:?}: the reference run ({}) did not end physically: {}; nothing \
                         was written (`cargo xtask simulate` shows its log)",
                        s.name,
                        plan.reference,
                        failures.join("; ")
                    )));
                }
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
                        let sample =
                            draw.then(|| snapshot_interval(setup, plan.path_dt.max(0.005)));
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
                    radius: setup.physics.radius_range().1,
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
        presets: &[String],
        throw: &[pool_harness::ThrowRow],
    ) -> Result<(), CliError> {
        staging.write("throw.csv", &csv_bytes(throw)?)?;
        plots::throw_curve(throw, &staging.path("throw"))?;
        for preset in presets {
            let suffix = report::variant_name("", preset);
            let mine: Vec<SummaryRow> = self
                .summary
                .iter()
                .filter(|r| r.shot.ends_with(&suffix))
                .cloned()
                .collect();
            if !mine.is_empty() {
                plots::error_vs_dt(&mine, None, &staging.path(&format!("error_vs_dt_{preset}")))?;
            }
        }
        self.write_tables(staging, slopes, scaling)
    }

    /// The CSV tables and the plots of the shots' own physics.
    fn write_tables(
        &self,
        staging: &Staging,
        slopes: &[SlopeRow],
        scaling: Option<&Scaling>,
    ) -> Result<(), CliError> {
        let own: Vec<SummaryRow> = self
            .summary
            .iter()
            .filter(|r| !report::is_variant(&r.shot))
            .cloned()
            .collect();
        let summary = &own;
        staging.write("summary.csv", &csv_bytes(&self.summary)?)?;
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
    let Ok(root) = crate::workspace::workspace_root() else {
        return Ok(None);
    };
    let roots_cases = root.join("data/roots/cases.csv");
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

/// The baselines of a `--check` or `--bless` run, read (and checked) before anything runs.
struct Baselines {
    dir: PathBuf,
    /// Each shot's baseline, in shot order; `None` when it has none yet.
    shots: Vec<Option<pool_harness::ShotBaseline>>,
    discrete: Vec<pool_harness::DiscreteLine>,
}

impl Baselines {
    /// Reads `--baselines` (default `data/baselines`; a link there followed), first putting
    /// back a directory a killed bless left mid-swap.
    fn read(args: &CompareArgs, setups: &[Setup]) -> Result<Self, CliError> {
        let dir = crate::baselines::resolve(&match &args.baselines {
            Some(d) => d.clone(),
            None => crate::baselines::default_dir()?,
        })?;
        crate::baselines::recover(&dir)?;
        // After the recovery (a killed bless may have left it renamed away).
        if !pool_report::files::exists(&dir) {
            return Err(CliError::Input(format!(
                "--baselines {}: no such directory",
                dir.display()
            )));
        }
        let shots = setups
            .iter()
            .map(|s| crate::baselines::read_shot(&dir, &s.name))
            .collect::<Result<_, _>>()?;
        let discrete = crate::baselines::read_discrete(&dir)?;
        Ok(Baselines {
            dir,
            shots,
            discrete,
        })
    }
}

/// Compares the run with the baselines (`--check`) or rewrites them (`--bless`), printing the
/// differences either way.
fn regression(
    args: &CompareArgs,
    baselines: Baselines,
    setups: &[Setup],
    references: &[(Reference, InvariantReport)],
    summary: &[SummaryRow],
    pool: &rayon::ThreadPool,
) -> Result<Regression, CliError> {
    use pool_harness::{diff_discrete, diff_shot, shot_baseline, DiscreteLine, Tolerances};
    let Baselines {
        dir,
        shots: old_shots,
        discrete: old_discrete,
    } = baselines;
    let stage = if args.bless {
        Some(crate::baselines::BlessStage::new(&dir)?)
    } else {
        None
    };
    let tol = Tolerances::default();
    // Discrete rows at the baseline time steps: taken from the sweep when it ran them.
    let mut lines: Vec<DiscreteLine> = Vec::new();
    let mut missing = Vec::new();
    for (k, s) in setups.iter().enumerate() {
        for &dt in &pool_harness::BASELINE_DTS {
            let found = summary.iter().find(|r| {
                r.shot == s.name
                    && r.scheme == "end_of_step"
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
                let spec = EngineSpec::discrete(dt, Scheme::EndOfStep).ok()?;
                let run = run_engine(&setups[k], &references[k].0, &spec, None).ok()?;
                let mut l = DiscreteLine::from_summary(&run.summary)?;
                l.dt_s = dt;
                Some(l)
            })
            .collect()
    });
    lines.extend(extra);

    let mut differences = Vec::new();
    for ((s, (r, _)), old) in setups.iter().zip(references).zip(old_shots) {
        let now = shot_baseline(s, &r.outcome);
        match old {
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
        if let Some(stage) = &stage {
            stage.write_shot(&now)?;
        }
    }
    differences.extend(diff_discrete(&old_discrete, &lines, &tol));
    if let Some(stage) = stage {
        let names: Vec<String> = setups.iter().map(|s| s.name.clone()).collect();
        stage.write_discrete(&names, &lines)?;
        stage.commit()?;
    }
    let verb = if args.check { "check" } else { "bless" };
    if differences.is_empty() {
        errln!(
            "{verb}: {} shots match the baselines in {}",
            setups.len(),
            dir.display()
        );
    } else {
        errln!(
            "{verb}: {} difference(s) from the baselines in {}:",
            differences.len(),
            dir.display()
        );
        for d in &differences {
            errln!("  {d}");
        }
        if args.bless {
            errln!("bless: baselines rewritten; commit data/baselines with the change.");
        }
    }
    Ok(Regression {
        checked: args.check,
        shots: setups.len(),
        differences,
        dir,
    })
}

/// The presets of `--physics` (`none` for none), each checked.
fn physics_presets(names: &[String]) -> Result<Vec<String>, CliError> {
    let mut out: Vec<String> = Vec::new();
    if names.len() > 1 && names.iter().any(|n| n == "none") {
        return Err(CliError::Input(format!(
            "--physics = {:?}: none is no preset, so it goes alone",
            names.join(",")
        )));
    }
    for n in names {
        if n == "none" {
            continue;
        }
        if !pool_physics::Model::PRESETS.contains(&n.as_str()) || n == "ideal" {
            return Err(CliError::Input(format!(
                "--physics = {n:?}: unknown preset; valid: pool, seed, pooltool_default, \
                 corrected, mathavan, none"
            )));
        }
        if !out.contains(n) {
            out.push(n.clone());
        }
    }
    Ok(out)
}

/// Every shot with cloth motion under each of `presets` it does not already use, named
/// `<shot>@<preset>`.
fn physics_variants(setups: &[Setup], presets: &[String]) -> Result<Vec<Setup>, CliError> {
    let mut out = Vec::new();
    for preset in presets {
        for s in setups {
            let own = s.physics.preset_name();
            let same = own == Some(preset.as_str())
                || (matches!(own, Some("pool" | "seed"))
                    && matches!(preset.as_str(), "pool" | "seed"));
            if same || !s.physics.motion().has_friction() {
                continue;
            }
            let mut v = pool_harness::with_physics(s, preset).map_err(CliError::Input)?;
            v.name = report::variant_name(&s.name, preset);
            out.push(v);
        }
    }
    Ok(out)
}
