//! `cargo xtask compare-pooltool`: 9-ball breaks made and run by pooltool 0.6.0
//! (`benches/peers/pooltool_compare.py`), imported and run by our event engine under the same
//! laws, and how far the two event logs agree, per break and per pooltool contact spacer.

use std::fmt::Write as _;
use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_physics::{BallParams, Model};
use pool_pooltool::{our_events, pooltool_events, shared_prefix, LoggedEvent, SharedPrefix};

use crate::console::{errln, outln};
use crate::CliError;

/// Options of `cargo xtask compare-pooltool`.
#[derive(clap::Args, Debug)]
pub struct ComparePooltoolArgs {
    /// Breaks (pooltool's 9-ball rack and a random cue strike, seeds --seed, --seed + 1, ...),
    /// 1 to 10000
    #[arg(long, default_value_t = 20)]
    pub breaks: u64,
    /// Seed of the first break
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Physics preset both run under; pooltool takes it as its resolver, so it must be one
    /// pooltool has (pooltool_default: pooltool's stock default_resolver(); pool: its seed
    /// laws), not one with our corrections (corrected, mathavan)
    #[arg(long, default_value = "pooltool_default")]
    pub physics: String,
    /// pooltool contact spacers MIN_DIST (m) to run it with, comma-separated. pooltool ships
    /// 1e-6 m: before resolving a collision it moves the pair (or the ball and the cushion)
    /// that far apart, which is not physics; our laws make the same move (their `spacer`, set
    /// to each value in turn). Lowered, the logs show the laws alone. The verdict is on the
    /// smallest
    #[arg(long, default_value = "1e-6,1e-12")]
    pub spacers: String,
    /// Events less than this apart (s) may be logged in either order (a rack's cascade)
    #[arg(long, default_value_t = 1e-6)]
    pub tol: f64,
    /// The verdict: at the smallest spacer, every break's logs must share at least this many
    /// events from the start (or both whole logs), 1 to 100000
    #[arg(long, default_value_t = 40)]
    pub events: usize,
    /// Python with pooltool-billiards 0.6.0 [default: $POOLTOOL_PYTHON, else
    /// <workspace>/.venv-pooltool/bin/python]
    #[arg(long)]
    pub python: Option<PathBuf>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
}

/// One break under one spacer.
struct Row {
    name: String,
    spacer: String,
    ours: usize,
    /// pooltool's event count, or why it failed.
    theirs: Result<usize, String>,
    prefix: SharedPrefix,
    /// What in pooltool, not in its laws, parted the logs, if anything did: its
    /// `resolve_continually_touching` acting before the logs part, or a run that did not
    /// finish within its event budget.
    pooltools_own: Option<String>,
}

/// Most breaks `--breaks` may ask for.
const MAX_BREAKS: u64 = 10_000;

/// pooltool's event budget per break (it can spin on pressed contacts).
const POOLTOOL_MAX_EVENTS: usize = 5000;

/// Runs `cargo xtask compare-pooltool`.
pub fn run(args: ComparePooltoolArgs) -> Result<(), CliError> {
    // pooltool takes about 0.1 s a break: 10,000 breaks are a quarter of an hour per spacer.
    crate::args::in_range("--breaks", args.breaks, 1, MAX_BREAKS)?;
    crate::args::in_range("--events", args.events, 1, 100_000)?;
    if !(args.tol >= 0.0 && args.tol.is_finite()) {
        return Err(CliError::Input(format!(
            "--tol = {}: must be a time >= 0 (s)",
            args.tol
        )));
    }
    let spacers: Vec<(String, f64)> = (args.spacers.split(','))
        .map(|s| {
            let s = s.trim();
            let ok = |x: &f64| *x > 0.0 && x.is_finite();
            s.parse::<f64>().ok().filter(ok).map(|x| (s.to_string(), x))
        })
        .collect::<Option<_>>()
        .filter(|v: &Vec<_>| !v.is_empty())
        .ok_or_else(|| {
            CliError::Input(format!(
                "--spacers {:?}: expected positive lengths in m, comma-separated",
                args.spacers
            ))
        })?;
    let model = pooltools_preset(&args.physics)?;
    let Some(python) = crate::python::find_pooltool(args.python.as_deref())? else {
        outln!("compare-pooltool: skipped: {}", crate::python::SETUP_HINT)?;
        return Ok(());
    };
    let staging = args.run.stage("compare-pooltool")?;
    let mut laws = pool_pooltool::resolver_out(model.resolver());
    if let Some(map) = laws.as_object_mut() {
        map.remove("version");
    }
    let laws_json = serde_json::to_vec_pretty(&laws).map_err(|e| CliError::Run(e.to_string()))?;
    staging.write("resolver.json", &laws_json)?;
    errln!(
        "compare-pooltool: {} breaks made and run by pooltool ({}; numba compiles on a first \
         run, about 30 s), then by our event engine, under {}",
        args.breaks,
        python.display(),
        args.physics
    );
    let script_args: Vec<std::ffi::OsString> = vec![
        staging.path("").into(),
        "--breaks".into(),
        args.breaks.to_string().into(),
        "--seed".into(),
        args.seed.to_string().into(),
        "--spacers".into(),
        (spacers.iter().map(|s| s.0.as_str()))
            .collect::<Vec<_>>()
            .join(",")
            .into(),
        "--max-events".into(),
        POOLTOOL_MAX_EVENTS.to_string().into(),
    ];
    crate::python::run_script(&python, "pooltool_compare.py", &script_args)?;
    let engine = EngineSpec::reference()
        .build_with(&RunOptions::default())
        .map_err(|e| CliError::Run(e.to_string()))?;
    let mut rows = Vec::new();
    for seed in (0..args.breaks).map(|k| args.seed.wrapping_add(k)) {
        let name = format!("break_{seed}");
        let system = staging.path(&format!("systems/{name}.json"));
        let imported = pool_pooltool::import(&system, &name, Some(&staging.path("resolver.json")))
            .map_err(|e| CliError::Run(e.to_string()))?;
        let setup = imported.setup;
        let shot = pool_shots::to_toml(
            &setup,
            &format!(
                "pooltool's 9-ball break {seed} (benches/peers/pooltool_compare.py), imported"
            ),
        );
        staging.write(&format!("breaks/{name}.toml"), shot.as_bytes())?;
        for (token, spacer) in &spacers {
            // Our collision laws move the bodies as far apart as pooltool's spacer does.
            let at = pool_pooltool::at_spacer(&setup, *spacer);
            let ours = our_events(&at, &engine.run(&at));
            let file = staging.path(&format!("pooltool/{name}@{token}.json"));
            let tree = pool_pooltool::read_tree(&file).map_err(|e| CliError::Run(e.to_string()))?;
            let theirs: Result<Vec<LoggedEvent>, String> = match tree.get("error") {
                Some(e) => Err(format!("pooltool error: {}", e.as_str().unwrap_or("?"))),
                None => pooltool_events(&tree).map_err(|e| format!("{}: {e}", file.display())),
            };
            let prefix = match &theirs {
                Ok(t) => shared_prefix(&ours, t, args.tol),
                Err(why) => SharedPrefix {
                    len: 0,
                    worst_dt: f64::NAN,
                    end: Some(why.clone()),
                    at: None,
                },
            };
            let pooltools_own = pooltools_own(&tree, &prefix);
            rows.push(Row {
                name: name.clone(),
                spacer: token.clone(),
                ours: ours.len(),
                theirs: theirs.map(|t| t.len()),
                prefix,
                pooltools_own,
            });
        }
    }
    let verdict = (spacers.iter())
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|s| s.0.clone())
        .unwrap_or_default();
    staging.write("compare.csv", &csv(&rows)?)?;
    let summary = summarize(&rows, &spacers, &verdict, &args);
    staging.write("summary.md", summary.as_bytes())?;
    let dir = staging.commit()?;
    outln!("{}", summary.trim_end_matches('\n'))?;
    outln!("written: {}", dir.display())?;
    let failing: Vec<&Row> = (rows.iter())
        .filter(|r| r.spacer == verdict && !agrees(r, args.events) && r.pooltools_own.is_none())
        .collect();
    if let Some(first) = failing.first() {
        return Err(CliError::Run(format!(
            "{} of {} breaks share fewer than {} events with pooltool at spacer {verdict} m, \
             first: {} ({} events: {})",
            failing.len(),
            args.breaks,
            args.events,
            first.name,
            first.prefix.len,
            first.prefix.end.as_deref().unwrap_or("")
        )));
    }
    Ok(())
}

/// The model of preset `name`, if pooltool can run its laws (cloth motion, no correction of
/// ours).
///
/// # Errors
/// An unknown preset, or one pooltool cannot run (exit 2).
fn pooltools_preset(name: &str) -> Result<Model, CliError> {
    let model = Model::preset(name, BallParams::pool()).ok_or_else(|| {
        CliError::Input(format!(
            "--physics {name:?}: unknown preset; valid: {}",
            Model::PRESETS.join(", ")
        ))
    })?;
    if !model.motion().has_friction() {
        return Err(CliError::Input(format!(
            "--physics {name}: frictionless motion, which pooltool does not have"
        )));
    }
    let ours = model.resolver().corrections();
    if !ours.is_empty() {
        return Err(CliError::Input(format!(
            "--physics {name}: pooltool 0.6.0 has no such law ({}): choose a preset of \
             pooltool's laws (pooltool_default, pool)",
            ours.join("; ")
        )));
    }
    Ok(model)
}

/// What in pooltool outside its laws explains where the logs part (`prefix`), from its run's
/// file (`tree`, `benches/peers/pooltool_compare.py`'s): its `resolve_continually_touching`
/// changed a pair's velocities at or before that time, or the run stopped at its budget.
fn pooltools_own(tree: &serde_json::Value, prefix: &SharedPrefix) -> Option<String> {
    let at = prefix.at?;
    if tree.get("budget").and_then(serde_json::Value::as_bool) == Some(true) {
        return Some(format!(
            "pooltool's run stopped at its {POOLTOOL_MAX_EVENTS}-event budget (it does not \
             finish this break at this spacer)"
        ));
    }
    let first = (tree
        .get("interventions")
        .and_then(serde_json::Value::as_array))?
    .iter()
    .find_map(|i| {
        let t = i.get("time")?.as_f64()?;
        let ids: Vec<&str> = (i.get("agents")?.as_array()?.iter())
            .filter_map(serde_json::Value::as_str)
            .collect();
        (t <= at + 1e-9).then(|| (t, ids.join(" and ")))
    })?;
    Some(format!(
        "pooltool's resolve_continually_touching (its momentum theft for balls moving in \
         unison, not a law) changed balls {} at {:?} s",
        first.1, first.0
    ))
}

/// The break agrees with pooltool: its logs share `events` events, or both whole logs.
fn agrees(r: &Row, events: usize) -> bool {
    match r.theirs {
        Ok(n) => r.prefix.len >= events || (r.prefix.end.is_none() && r.ours == n),
        Err(_) => false,
    }
}

/// `compare.csv`: one row per break and spacer.
fn csv(rows: &[Row]) -> Result<Vec<u8>, CliError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let bad = |e: csv::Error| CliError::Run(format!("compare.csv: {e}"));
    w.write_record([
        "name",
        "spacer_m",
        "our_events",
        "pooltool_events",
        "shared_prefix",
        "worst_dt_s",
        "end",
        "pooltools_own",
    ])
    .map_err(bad)?;
    for r in rows {
        w.write_record([
            r.name.clone(),
            r.spacer.clone(),
            r.ours.to_string(),
            r.theirs.as_ref().map_or(String::new(), |n| n.to_string()),
            r.prefix.len.to_string(),
            format!("{:e}", r.prefix.worst_dt),
            r.prefix.end.clone().unwrap_or_default(),
            r.pooltools_own.clone().unwrap_or_default(),
        ])
        .map_err(bad)?;
    }
    w.into_inner()
        .map_err(|e| CliError::Run(format!("compare.csv: {e}")))
}

/// The Markdown summary: per spacer, the spread of the shared prefixes; per break, the shared
/// prefix at each spacer and where and why it ends.
fn summarize(
    rows: &[Row],
    spacers: &[(String, f64)],
    verdict: &str,
    args: &ComparePooltoolArgs,
) -> String {
    let mut md = format!(
        "# Our event engine vs pooltool 0.6.0: {} of pooltool's 9-ball breaks\n\n\
         Each break made by pooltool (its 7-foot table, its 9-ball rack, a cue strike; \
         `systems/`), imported by `import-pooltool` (`breaks/`) and run by our event engine \
         under `{}`, which pooltool runs as its resolver (`resolver.json`), once per contact \
         spacer. Shared prefix: the events both logs have from the start, the same kinds and \
         agents in the same order (events less than {:e} s apart may trade places). The \
         verdict is at spacer {verdict} m: at least {} events shared, or both whole logs, \
         unless what parts them is pooltool's own handling outside its laws (its \
         `resolve_continually_touching`, or a run that does not finish).\n\n",
        args.breaks, args.physics, args.tol, args.events
    );
    let _ = writeln!(
        md,
        "| spacer (m) | breaks | whole logs shared | shared prefix: min / median / max \
         (events) | parted by pooltool outside its laws | worst time difference in a prefix (s) |"
    );
    let _ = writeln!(md, "| --- | --- | --- | --- | --- | --- |");
    for (token, _) in spacers {
        let mine: Vec<&Row> = rows.iter().filter(|r| &r.spacer == token).collect();
        let mut lens: Vec<usize> = mine.iter().map(|r| r.prefix.len).collect();
        lens.sort_unstable();
        let whole = (mine.iter())
            .filter(|r| r.prefix.end.is_none() && r.theirs.is_ok())
            .count();
        let own = mine.iter().filter(|r| r.pooltools_own.is_some()).count();
        let worst = (mine.iter())
            .map(|r| r.prefix.worst_dt)
            .filter(|x| x.is_finite())
            .fold(0.0f64, f64::max);
        let (lo, mid, hi) = match lens.as_slice() {
            [] => (0, 0, 0),
            l => (l[0], l[l.len() / 2], l[l.len() - 1]),
        };
        let _ = writeln!(
            md,
            "| {token} | {} | {whole} | {lo} / {mid} / {hi} | {own} | {worst:.2e} |",
            mine.len()
        );
    }
    let _ = write!(md, "\n| break | our events |");
    for (token, _) in spacers {
        let _ = write!(md, " pooltool events, prefix at {token} m |");
    }
    let _ = writeln!(md, " where and why the prefix ends |");
    let _ = writeln!(md, "|{}", " --- |".repeat(3 + spacers.len()));
    let mut names: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
    names.dedup();
    for name in names {
        let of = |token: &str| rows.iter().find(|r| r.name == name && r.spacer == token);
        let ours = rows.iter().find(|r| r.name == name).map_or(0, |r| r.ours);
        let _ = write!(md, "| {name} | {ours} |");
        for (token, _) in spacers {
            match of(token) {
                Some(Row {
                    theirs: Ok(n),
                    prefix,
                    ..
                }) => {
                    let _ = write!(md, " {n}, {} |", prefix.len);
                }
                _ => md.push_str(" error |"),
            }
        }
        let _ = writeln!(
            md,
            " {} |",
            why(name, rows, spacers, verdict).replace('|', "/")
        );
    }
    let _ = writeln!(
        md,
        "\nRows per break and spacer: `compare.csv` (the end of each prefix in full)."
    );
    md
}

/// Where and why break `name`'s prefixes end, spacer by spacer (from the largest): the end,
/// what in pooltool outside its laws explains it, and whether the smallest spacer's prefix is
/// longer (the spacer's doing).
fn why(name: &str, rows: &[Row], spacers: &[(String, f64)], verdict: &str) -> String {
    let of = |token: &str| rows.iter().find(|r| r.name == name && r.spacer == token);
    let smallest = of(verdict);
    let mut by_size: Vec<&(String, f64)> = spacers.iter().collect();
    by_size.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut parts = Vec::new();
    for (token, _) in by_size {
        let Some(r) = of(token) else { continue };
        let Some(end) = &r.prefix.end else {
            parts.push(format!("at {token} m: the whole logs agree"));
            continue;
        };
        let mut line = format!("at {token} m: {end}");
        if let Some(own) = &r.pooltools_own {
            line.push_str(&format!("; {own}"));
        } else if smallest.is_some_and(|s| s.prefix.len > r.prefix.len) {
            line.push_str("; pooltool's spacer (lowered, the logs agree further)");
        }
        parts.push(line);
    }
    parts.join(". ")
}
