//! `cargo xtask compare-pooltool`: random 9-ball breaks on pooltool's 7-foot table through
//! pooltool 0.6.0 and our event engine from the same states, event by event
//! (`benches/peers/pooltool_compare.py` runs pooltool and compares).

use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_physics::Table;

use crate::console::{errln, outln};
use crate::workspace::workspace_root;
use crate::CliError;

/// Options of `cargo xtask compare-pooltool`.
#[derive(clap::Args, Debug)]
pub struct ComparePooltoolArgs {
    /// Random breaks (`pool_harness::random_break` of the 9-ball rack, seeds --seed, --seed + 1,
    /// ...: the cue ball at 0.5-12 m/s within 0.15 rad of the head ball, random spin), 1 to
    /// 10000
    #[arg(long, default_value_t = 20)]
    pub breaks: u64,
    /// Seed of the first break
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Events compared per break (fewer when a run has fewer), 1 to 100000
    #[arg(long, default_value_t = 30)]
    pub events: usize,
    /// Largest time difference (s) an event may have and still agree
    #[arg(long, default_value_t = 1e-6)]
    pub tol: f64,
    /// pooltool contact spacers MIN_DIST (m) to run it with, comma-separated; the verdict is
    /// on the first (pooltool ships 1e-6 m: it moves a colliding pair that far apart before
    /// resolving, which is not physics and, in a rack 1e-6 m apart, shifts later times by
    /// far more than 1e-6 s)
    #[arg(long, default_value = "1e-12,1e-6")]
    pub spacers: String,
    /// Python with pooltool-billiards 0.6.0 [default: $POOLTOOL_PYTHON, else
    /// <workspace>/.venv-pooltool/bin/python]
    #[arg(long)]
    pub python: Option<PathBuf>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
}

/// One row of the script's CSV.
struct Row {
    spacer: f64,
    compared: usize,
    same_order: bool,
    ties: bool,
    worst: Option<f64>,
    first: String,
    name: String,
}

/// Most breaks `--breaks` may ask for.
const MAX_BREAKS: u64 = 10_000;

/// Runs `cargo xtask compare-pooltool`.
pub fn run(args: ComparePooltoolArgs) -> Result<(), CliError> {
    // pooltool takes about 0.1 s a break: 10,000 breaks are a quarter of an hour per spacer.
    crate::args::in_range("--breaks", args.breaks, 1, MAX_BREAKS)?;
    crate::args::in_range("--events", args.events, 1, 100_000)?;
    if !(args.tol > 0.0 && args.tol.is_finite()) {
        return Err(CliError::Input(format!(
            "--tol = {}: must be a positive time (s)",
            args.tol
        )));
    }
    let spacers: Vec<f64> = (args.spacers.split(','))
        .map(|s| {
            s.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| *x > 0.0 && x.is_finite())
        })
        .collect::<Option<_>>()
        .ok_or_else(|| {
            CliError::Input(format!(
                "--spacers {:?}: expected positive lengths in m, comma-separated",
                args.spacers
            ))
        })?;
    let Some(python) = crate::python::find_pooltool(args.python.as_deref())? else {
        outln!("compare-pooltool: skipped: {}", crate::python::SETUP_HINT)?;
        return Ok(());
    };
    let rack = pool_shots::load(&workspace_root()?.join("data/shots/break_9ball.toml"))?;
    let rack = pool_harness::rack_on_table(&rack, &Table::pooltool_pocket())
        .map_err(|e| CliError::Run(format!("the 9-ball rack on pooltool_pocket: {e}")))?;
    let staging = args.run.stage("pooltool-compare")?;
    let engine = EngineSpec::reference()
        .build_with(&RunOptions {
            snapshots: Some(0.01),
            ..Default::default()
        })
        .map_err(|e| CliError::Run(e.to_string()))?;
    for seed in (0..args.breaks).map(|k| args.seed.wrapping_add(k)) {
        let s = pool_harness::random_break(&rack, seed);
        let shot = pool_shots::to_toml(
            &s,
            &format!("random 9-ball break {seed} on pooltool_pocket"),
        );
        staging.write(&format!("breaks/{}.toml", s.name), shot.as_bytes())?;
        let json = |v: serde_json::Value| {
            serde_json::to_vec_pretty(&v).map_err(|e| CliError::Run(e.to_string()))
        };
        let start = pool_pooltool::export(&s, None).map_err(CliError::Run)?;
        staging.write(&format!("systems/{}.json", s.name), &json(start)?)?;
        let ours = pool_pooltool::export(&s, Some(&engine.run(&s)))
            .map_err(|e| CliError::Run(format!("{}: {e}", s.name)))?;
        staging.write(&format!("ours/{}.json", s.name), &json(ours)?)?;
    }
    errln!(
        "compare-pooltool: {} breaks through pooltool ({}; numba compiles on a first run, about \
         30 s)",
        args.breaks,
        python.display()
    );
    let script_args: Vec<std::ffi::OsString> = vec![
        staging.path("").into(),
        "--events".into(),
        args.events.to_string().into(),
        "--tol".into(),
        format!("{:e}", args.tol).into(),
        "--spacers".into(),
        args.spacers.clone().into(),
    ];
    let csv = crate::python::run_script(&python, "pooltool_compare.py", &script_args)?;
    let rows = parse(&csv)?;
    let summary = summarize(&rows, &spacers, &args);
    staging.write("compare.csv", csv.as_bytes())?;
    staging.write("summary.md", summary.as_bytes())?;
    let dir = staging.commit()?;
    outln!("{}", summary.trim_end_matches('\n'))?;
    outln!("written: {}", dir.display())?;
    let verdict = spacers[0];
    let failing: Vec<&Row> = rows
        .iter()
        .filter(|r| r.spacer == verdict)
        .filter(|r| !r.ties || r.worst.is_none_or(|w| w > args.tol))
        .collect();
    if !failing.is_empty() {
        return Err(CliError::Run(format!(
            "{} of {} breaks differ from pooltool (spacer {verdict:e} m), first: {} {}",
            failing.len(),
            args.breaks,
            failing[0].name,
            failing[0].first
        )));
    }
    Ok(())
}

fn parse(csv: &str) -> Result<Vec<Row>, CliError> {
    let mut rows = Vec::new();
    for line in csv.lines().skip(1) {
        let f: Vec<&str> = line.splitn(9, ',').collect();
        let bad = || {
            CliError::Run(format!(
                "unexpected line from pooltool_compare.py: {line:?}"
            ))
        };
        if f.len() != 9 {
            return Err(bad());
        }
        rows.push(Row {
            name: f[0].to_string(),
            spacer: f[1].parse().map_err(|_| bad())?,
            compared: f[4].parse().map_err(|_| bad())?,
            same_order: f[5] == "True",
            ties: f[6] == "True",
            worst: f[7].parse().ok(),
            first: f[8].to_string(),
        });
    }
    Ok(rows)
}

/// The Markdown summary: per spacer, how many breaks agree and how closely.
fn summarize(rows: &[Row], spacers: &[f64], args: &ComparePooltoolArgs) -> String {
    use std::fmt::Write;
    let mut md = format!(
        "# Our event engine vs pooltool 0.6.0: {} random 9-ball breaks on pooltool's 7-foot \
         table\n\nSame start (our export, loaded by pooltool's `System.load`), pooltool's laws \
         set explicitly (frictionless_elastic, han_2005, canonical); the first {} events of \
         each run compared: kinds and agents in order, and times within {:e} s. Our runs are \
         read by pooltool's own `System.load` and `continuize`.\n\n\
         | pooltool spacer (m) | breaks | same order | same up to ties | worst time difference (s) | differing |\n\
         | --- | --- | --- | --- | --- | --- |\n",
        args.breaks, args.events, args.tol
    );
    for sp in spacers {
        let mine: Vec<&Row> = rows.iter().filter(|r| r.spacer == *sp).collect();
        let same = mine.iter().filter(|r| r.same_order).count();
        let ties = mine.iter().filter(|r| r.ties).count();
        let worst = mine
            .iter()
            .filter(|r| r.ties)
            .filter_map(|r| r.worst)
            .fold(0.0f64, f64::max);
        let compared: usize = mine.iter().map(|r| r.compared).sum();
        let differing: Vec<String> = mine
            .iter()
            .filter(|r| !r.ties || r.worst.is_none_or(|w| w > args.tol))
            .map(|r| r.name.clone())
            .collect();
        let _ = writeln!(
            md,
            "| {sp:e} | {} ({compared} events) | {same} | {ties} | {worst:.2e} | {} |",
            mine.len(),
            if differing.is_empty() {
                "none".into()
            } else {
                differing.join(" ")
            }
        );
    }
    let _ = writeln!(
        md,
        "\nRows per break and spacer: `compare.csv` (first difference when there is one)."
    );
    md
}
