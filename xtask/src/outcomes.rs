//! `cargo xtask outcomes`: the outcome study alone ("does the algorithm change the game?"),
//! shardable (`--shard K/N`, then `merge`): families of random shots through the reference,
//! the chaos floor and every engine; `outcomes.csv`, `outcome_answer.csv`, the plot and a
//! report of the study.

use crate::console::{errln, outln};
use crate::shard::{Manifest, Shard, MANIFEST};
use crate::study::{run_study, study_report, write_study, OutcomeArgs};
use crate::CliError;

/// Options of `cargo xtask outcomes`.
#[derive(clap::Args, Debug, Clone)]
pub struct OutcomesArgs {
    #[command(flatten)]
    pub study: OutcomeArgs,
    /// Discrete integration schemes, comma-separated: end_of_step (events noticed at the step's end; alias exact), euler, located (events located
    /// inside the step), substep<k> (k substeps on contact, k in 2..=1000), or none (only the
    /// reference, the floor and --engines)
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "end_of_step,euler,located,substep8"
    )]
    pub schemes: Vec<String>,
    /// More engines, comma-separated specs: event[:<solver>] (solver isolator, ferrari, alg1010, companion), discrete:<dt>[:<scheme>]
    /// (scheme end_of_step, euler, located, substep<k>), rapier:<dt>, pooltool, mujoco:<dt>[:<integrator>]
    /// (integrator euler, implicitfast, rk4), pybullet:<dt>, pymunk:<dt>, box2d:<dt>, billiards,
    /// fastfiz, exec:[timeout=<s>:][dt=<s>:][name=<label>:]<command>, or a registered engine; pooltool and the peers are skipped
    /// with a note when not installed; at most 16
    #[arg(long, value_name = "SPEC,...")]
    pub engines: Vec<String>,
    /// The engine every run is judged against, one spec as --engines takes them; its chaos
    /// floor is itself on the perturbed shots. A stepped engine at a fine dt (e.g.
    /// "exec:dt=1e-5:name=mine:python3 mine.py" with the same program at coarser dts in
    /// --engines) answers how much of the change is the dt's; the event engine is then added
    /// to the engines, its change against the reference being the model's. The dt ladder stops
    /// above the reference's dt, and the chaos curve (ten runs of the reference a shot) is
    /// not played unless --chaos-shots asks
    #[arg(long, value_name = "SPEC", default_value = "event")]
    pub reference: String,
    /// Event budget of every run (1 to 1000000): a reference that needs more is a defect
    /// (exit 1), an engine that needs more disagrees on `end`
    #[arg(long, default_value_t = 1_000_000)]
    pub max_events: usize,
    /// Run only the K-th (1-based) of N deterministic pieces (shots in family order); `cargo
    /// xtask merge` joins the N run directories into the unsharded run's files byte for byte
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Play look K of the sequential study (--outcome-budget in shots; a budget of seconds
    /// cannot be sharded): look K is the K-th round of the one-process study's looks over the
    /// families. With --shard i/N, the i-th of N even parts of the look's (family, shot)
    /// units; `cargo xtask merge --look K` joins them and prints the next look's commands.
    /// Look 1 plays every family's first --outcome-shots with every engine
    #[arg(long, value_name = "K", help_heading = "Looks in shards")]
    pub look: Option<u32>,
    /// With --look K > 1: the run directory `merge --look K-1` wrote; the look's wants are
    /// computed from its state (outcomes/looks.json), whose hash the shard's manifest records
    #[arg(long, value_name = "DIR", help_heading = "Looks in shards")]
    pub resume: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Runs `cargo xtask outcomes`.
pub fn run(args: OutcomesArgs, raw: &[std::ffi::OsString]) -> Result<(), CliError> {
    let start = std::time::Instant::now();
    crate::args::in_range(
        "--max-events",
        args.max_events,
        1,
        crate::args::MAX_EVENTS_OPTION,
    )?;
    let schemes = crate::args::schemes(&args.schemes)?;
    let extra = crate::args::extra_engines("--engines", &args.engines, &[])?;
    let reference = crate::args::reference("--reference", &args.reference)?;
    let mut study = args.study.clone();
    if reference != pool_engines::EngineSpec::reference() && study.chaos_shots.is_none() {
        // The chaos curve plays the reference ten times a shot: for a stepped reference, asked
        // for only.
        study.chaos_shots = Some(0);
    }
    let plan = study.plan(false, &schemes, (&extra, true), &reference, args.max_events)?;
    if let Some(look) = args.look {
        return crate::looks::shard(
            &plan,
            &crate::looks::LookShard {
                look,
                shard: args.shard.unwrap_or(Shard::WHOLE),
                resume: args.resume.as_deref(),
                study: &study,
                jobs: args.jobs,
                run: &args.run,
                raw,
            },
        );
    }
    if let Some(dir) = &args.resume {
        return Err(CliError::Input(format!(
            "--resume {}: only with --look K (look K of a sequential study resumes from the \
             merged look K-1)",
            dir.display()
        )));
    }
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let budget = if args.shard.is_some() {
        if args.study.budget(None)?.is_some() {
            return Err(CliError::Input(format!(
                "--outcome-budget {:?} with --shard: a sharded study plays one look of \
                 --outcome-shots (merge gives the one-process run with --outcome-budget none); \
                 leave it out or give none, or play it look by look with --look K",
                args.study.outcome_budget.as_deref().unwrap_or("")
            )));
        }
        None
    } else {
        args.study.budget(Some(crate::study::OUTCOMES_BUDGET))?
    };
    let total = plan.total();
    let (lo, hi) = shard.range(total);
    let rack = plan.racks.first().and_then(pool_outcome::Racks::first);
    if let (Some(rack), true) = (rack, hi > lo) {
        // A program that cannot start stops the study before any shot is played: a shard's
        // on this worker with exit 3 (another worker may have it), one process with exit 1.
        match crate::study::check_programs_start(
            std::iter::once(&plan.reference).chain(&plan.engines),
            rack,
        ) {
            Err(CliError::Unstartable(m)) if args.shard.is_none() => {
                return Err(CliError::Run(m.replace(" on this worker", "")))
            }
            other => other?,
        }
    }
    let pool = crate::args::thread_pool(args.jobs)?;
    let staging = args.run.stage("outcomes")?;
    errln!(
        "outcomes: {}; on {} threads -> {}",
        crate::study::plan_words(&plan, budget.as_ref()),
        pool.current_num_threads(),
        staging.destination().display()
    );
    let bar = crate::progress::bar(plan.runs_in(lo, hi), "outcome runs {per_sec}");
    let result = run_study(&plan, lo, hi, budget.as_ref(), &pool, &staging, &bar)?;
    bar.finish_and_clear();
    let wall = result.wall.clone();
    let study = crate::study::study_of(&plan, result, budget.as_ref());
    for w in study.floor_warnings() {
        errln!("outcomes: {w}");
    }
    for d in &study.declined {
        errln!("outcomes: {}", d.line());
    }
    write_study(&staging, &study, &wall)?;
    let record = crate::replays::StudyRecord::of(&plan, budget.as_ref());
    let run_json = serde_json::json!({ "outcome_options": record });
    staging.write(
        "run.json",
        (serde_json::to_string_pretty(&run_json).unwrap_or_default() + "\n").as_bytes(),
    )?;
    let replays_note = if args.shard.is_some() {
        format!(
            "replays: none in a shard (--shard {}/{}): `cargo xtask replays` on the merged run \
             makes them",
            shard.k, shard.n
        )
    } else {
        crate::replays::write_staged(&staging, &plan, args.study.replays, &pool)?
    };
    staging.write(
        "report.md",
        study_report(&study, &format!("{:.1} s", start.elapsed().as_secs_f64())).as_bytes(),
    )?;
    if args.shard.is_some() {
        let manifest = Manifest {
            version: crate::shard::version(),
            command: "outcomes".into(),
            options: crate::study::manifest_options(&plan),
            engine: plan.reference.to_string(),
            k: shard.k,
            n: shard.n,
            total,
            lo,
            hi,
            inputs: Vec::new(),
            look: None,
            state_sha256: None,
            args: Vec::new(),
        };
        staging.write(
            &format!("outcomes/{MANIFEST}"),
            manifest.to_json().as_bytes(),
        )?;
    }
    let page = crate::html::stage_page(&staging)?;
    let dir = staging.commit()?;
    for line in study.console_lines() {
        outln!("{line}")?;
    }
    outln!("{replays_note}")?;
    outln!("report: {}", dir.join("report.md").display())?;
    outln!("{}", page(&dir))?;
    if study.failed > 0 {
        return Err(CliError::Run(format!(
            "{} engine run(s) failed (report.md lists the first {}); every other result is \
             written. The first: {}",
            study.failed,
            study.failures.len(),
            study.failures.first().map_or("", String::as_str)
        )));
    }
    Ok(())
}
