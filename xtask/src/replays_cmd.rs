//! `cargo xtask replays <RUN_DIR>`: remakes `outcomes/replays.json` of a finished `compare` or
//! `outcomes` run from its `outcomes/shots.csv`, under the study's options its `run.json`
//! records (`outcome_options`), or the flags when it records none (runs made before it did).

use std::path::PathBuf;

use crate::console::{errln, outln};
use crate::replays::{StudyRecord, DEFAULT_MAX_EVENTS, REPLAYS_FILE};
use crate::CliError;

/// Options of `cargo xtask replays`.
#[derive(clap::Args, Debug, Clone)]
pub struct ReplaysArgs {
    /// The run directory of a `compare` or `outcomes` run (it holds outcomes/shots.csv);
    /// outcomes/replays.json is written there, replacing any (whole, never half-written)
    pub dir: PathBuf,
    /// Shots to replay, 0 to 10000 (0: a file of none): at most N shots where an engine changed
    /// the outcome, taken round-robin over the (family, table, engine) cells so that every cell
    /// with a changed outcome gets one before any gets two; the file stops at 12 MB
    #[arg(long, value_name = "N", default_value_t = crate::replays::DEFAULT_REPLAYS)]
    pub replays: u64,
    /// Seed of the study's shots, when run.json does not record the study's options (given
    /// with a run.json that does, it must agree) [default: 1]
    #[arg(long, value_name = "SEED")]
    pub outcome_seed: Option<u64>,
    /// The chaos floor's position perturbation (m), in [0, 0.1], when run.json does not record
    /// it [default: 1e-6]
    #[arg(long, allow_negative_numbers = true, value_name = "M")]
    pub perturb_position: Option<f64>,
    /// The chaos floor's relative speed perturbation, in [0, 0.5], when run.json does not
    /// record it [default: 1e-4]
    #[arg(long, allow_negative_numbers = true, value_name = "REL")]
    pub perturb_speed: Option<f64>,
    /// Final positions within this distance (m) agree, in (0, 1], when run.json does not record
    /// it [default: 0.01]
    #[arg(long, allow_negative_numbers = true, value_name = "M")]
    pub position_tol: Option<f64>,
    /// Rack model of the break families (lattice:<gap>, frozen, jittered:<scale>), when
    /// run.json does not record it [default: jittered:0.000127]
    #[arg(long, value_name = "MODEL")]
    pub rack: Option<String>,
    /// Event budget of every run (1 to 1000000), when run.json does not record it [default:
    /// 100000, compare's; an outcomes run's default is 1000000]
    #[arg(long, value_name = "N")]
    pub max_events: Option<usize>,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Start the program engine `exec:COMMAND` (or `exec:timeout=<s>:COMMAND`) that the run
    /// names, if its replays need it: COMMAND exactly as the run writes it. Repeat for each
    /// program. A run directory is data: without this, a program it names is never started
    /// (exit 2, naming it)
    #[arg(long, value_name = "COMMAND")]
    pub allow_exec: Vec<String>,
}

/// The study's options: `run.json`'s `outcome_options` when it has them (a flag given too must
/// agree), else the flags and the study's defaults; and where they came from.
fn study_options(args: &ReplaysArgs) -> Result<(StudyRecord, String), CliError> {
    let path = args.dir.join("run.json");
    let recorded =
        match pool_report::files::exists(&path)
            .then(|| pool_report::files::read_capped(&path, pool_report::files::MAX_JSON_BYTES))
        {
            None => None,
            Some(Err(e)) => return Err(CliError::Input(format!("{}: {e}", path.display()))),
            Some(Ok(bytes)) => {
                let v: serde_json::Value = serde_json::from_slice(&bytes)
                    .map_err(|e| CliError::Input(format!("{}: not JSON: {e}", path.display())))?;
                match v.get("outcome_options") {
                    None | Some(serde_json::Value::Null) => None,
                    Some(o) => Some(serde_json::from_value::<StudyRecord>(o.clone()).map_err(
                        |e| CliError::Input(format!("{}: outcome_options: {e}", path.display())),
                    )?),
                }
            }
        };
    let Some(r) = recorded else {
        let record = StudyRecord {
            seed: args.outcome_seed.unwrap_or(1),
            shots: 0,
            families: Vec::new(),
            tables: Vec::new(),
            perturb_position: args.perturb_position.unwrap_or(1e-6),
            perturb_speed: args.perturb_speed.unwrap_or(1e-4),
            position_tol: args.position_tol.unwrap_or(1e-2),
            rack: args
                .rack
                .clone()
                .unwrap_or_else(|| pool_harness::DEFAULT_RACK.to_string()),
            max_events: args.max_events.unwrap_or(DEFAULT_MAX_EVENTS),
            margins: None,
            search: None,
            budget: None,
            engines: None,
            reference: None,
        };
        return Ok((
            record,
            "the study's options (--outcome-seed, --perturb-position, ...)".into(),
        ));
    };
    let given: [(&str, Option<String>, String); 6] = [
        (
            "--outcome-seed",
            args.outcome_seed.map(|v| v.to_string()),
            r.seed.to_string(),
        ),
        (
            "--perturb-position",
            args.perturb_position.map(|v| format!("{v:?}")),
            format!("{:?}", r.perturb_position),
        ),
        (
            "--perturb-speed",
            args.perturb_speed.map(|v| format!("{v:?}")),
            format!("{:?}", r.perturb_speed),
        ),
        (
            "--position-tol",
            args.position_tol.map(|v| format!("{v:?}")),
            format!("{:?}", r.position_tol),
        ),
        ("--rack", args.rack.clone(), r.rack.clone()),
        (
            "--max-events",
            args.max_events.map(|v| v.to_string()),
            r.max_events.to_string(),
        ),
    ];
    for (option, flag, recorded) in given {
        if let Some(flag) = flag {
            if flag != recorded {
                return Err(CliError::Input(format!(
                    "{option} {flag}: {} records the study's {recorded}; the replays must be \
                     the study's shots (leave {option} out)",
                    path.display()
                )));
            }
        }
    }
    Ok((r, format!("{}: outcome_options", path.display())))
}

/// Runs `cargo xtask replays`.
pub fn run(args: ReplaysArgs) -> Result<(), CliError> {
    let start = std::time::Instant::now();
    crate::args::in_range("--replays", args.replays, 0, crate::replays::MAX_REPLAYS)?;
    if !args.dir.is_dir() {
        return Err(CliError::Input(format!(
            "{}: not a run directory (no such directory)",
            args.dir.display()
        )));
    }
    let shots = args.dir.join(pool_harness::run_files::SHOTS_CSV);
    let text = pool_report::files::read_capped(&shots, pool_report::files::MAX_CSV_BYTES).map_err(
        |e| {
            CliError::Input(format!(
                "{}: {e} (a compare or outcomes run with its outcome study holds it)",
                shots.display()
            ))
        },
    )?;
    let (record, source) = study_options(&args)?;
    let pool = crate::args::thread_pool(args.jobs)?;
    errln!(
        "replays: {} under {source}, on {} threads",
        shots.display(),
        pool.current_num_threads()
    );
    let made = crate::replays::make(
        &text,
        &shots,
        &record,
        &source,
        crate::replays::Programs::Allowed(&args.allow_exec),
        args.replays,
        &pool,
    )?;
    let out = args.dir.join(REPLAYS_FILE);
    // The page inlines the replays: it is made first, from the new replays, so that a run
    // whose page cannot be made (exit 2) keeps its old replays and page, whole. A directory
    // that holds only the study's shots, not a whole run, has no page to rewrite.
    let page = if ["summary.csv", "outcomes.csv"]
        .iter()
        .any(|f| args.dir.join(f).is_file())
    {
        Some(crate::html::make_page(&args.dir, &made.bytes)?)
    } else {
        None
    };
    crate::output::write_file_atomically(&out, &made.bytes)?;
    outln!("{}", made.note)?;
    match page {
        Some(page) => outln!("{}", crate::html::write_made(&args.dir, page)?)?,
        None => errln!(
            "replays: {} has no summary.csv nor outcomes.csv: no report.html to rewrite",
            args.dir.display()
        ),
    }
    errln!(
        "replays: {} in {:.1} s",
        out.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}
