//! A sequential outcome study played look by look, each look in shards (a Slurm or Kubernetes
//! job array, Ray): `outcomes --look K --shard i/N [--resume DIR]` plays shard i of look K,
//! and `merge --look K [--resume DIR] <shards>` joins a look's shards into a run directory
//! holding every file the one-process `outcomes` writes had it stopped after look K, and the
//! study's state (`outcomes/looks.json`) the next look resumes from.
//!
//! Look K is the K-th round of the one-process loop (look K of every family, in family order):
//! its wants come from the state after look K - 1 through the same library function
//! (`StudyPlan::look_wants`), its (family, shot) units are cut into N contiguous ranges, and a
//! unit's rows depend only on the state and the unit. So the shards' rows, in shard order, are
//! the loop's rows of that round, and the merge tallies them as the loop did. A driver that
//! crashed resumes from the last merged look: each merged directory is whole or absent
//! (staged, then renamed), and holds all a look needs.

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use pool_outcome::{
    Budget, OutcomeShotRow, Run, ShotRowsTally, StudyPlan, StudyResult, StudyState, WallRow,
};
use serde::{Deserialize, Serialize};

use crate::console::{errln, outln};
use crate::output::RunArgs;
use crate::shard::{in_order, Manifest, Shard, MANIFEST};
use crate::study::OutcomeArgs;
use crate::CliError;

/// The state a merged look writes, in its run directory.
pub const LOOKS_FILE: &str = "outcomes/looks.json";

/// `outcomes/looks.json`: where a sequential study played in shards stands after a look.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LooksFile {
    /// The harness that merged it (the next look's shards come from the same build).
    pub version: String,
    /// The looks merged so far (the state is the one after look `look`).
    pub look: u32,
    /// Whether no cell continues: the directory holds the finished study.
    pub finished: bool,
    /// The study's options, as the shards' manifests record them.
    pub options: Vec<(String, String)>,
    /// The study's options as given to the first shard's command line (for the next look's).
    pub args: Vec<String>,
    /// Shards of the last look.
    pub shards: u64,
    /// The rows of `outcomes/shots.csv`, family look by family look: (family, rows).
    pub segments: Vec<(usize, u64)>,
    /// The study's state.
    pub state: StudyState,
}

/// The options a look's shards and its merge agree on: those of a one-look shard, and the
/// budget, the search's and the replays'.
pub fn look_options(plan: &StudyPlan, budget: &Budget, replays: u64) -> Vec<(String, String)> {
    let mut options = crate::study::manifest_options(plan);
    options.extend([
        ("--outcome-budget".to_string(), budget.to_string()),
        (
            "--search-limit".to_string(),
            format!("{:?}", plan.search.limit_s),
        ),
        (
            "--search-max-shot".to_string(),
            format!("{:?}", plan.search.max_shot_s),
        ),
        ("--replays".to_string(), replays.to_string()),
    ]);
    options
}

/// SHA-256 of `bytes`, hexadecimal.
fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// `<dir>/outcomes/looks.json` and the SHA-256 of its bytes.
///
/// # Errors
/// No such file (not a merged look), or one that does not read (exit 2).
fn read_state(dir: &Path) -> Result<(LooksFile, String), CliError> {
    let path = dir.join(LOOKS_FILE);
    let bytes =
        pool_report::files::read_capped(&path, pool_report::files::MAX_CSV_BYTES).map_err(|e| {
            CliError::Input(format!(
                "{}: {e} (--resume takes the run directory `merge --look K` wrote)",
                path.display()
            ))
        })?;
    let file: LooksFile = serde_json::from_slice(&bytes)
        .map_err(|e| CliError::Input(format!("{}: not a study's state: {e}", path.display())))?;
    Ok((file, sha256_hex(&bytes)))
}

/// The state of `file` (read from `dir`), checked to be the one look `look` resumes from for
/// the study `options` of `plan`.
///
/// # Errors
/// Another build, other options, another look, a finished study or a state that does not fit
/// the plan (exit 2, naming the file and the field).
fn resumable(
    file: &LooksFile,
    dir: &Path,
    look: u32,
    options: &[(String, String)],
    plan: &StudyPlan,
) -> Result<(), CliError> {
    let path = dir.join(LOOKS_FILE);
    let bad = |why: String| CliError::Input(format!("{}: {why}", path.display()));
    if file.version != crate::shard::version() {
        return Err(bad(format!(
            "version = {:?}, made by another build than this one ({:?}): a study's looks come \
             from one build",
            file.version,
            crate::shard::version()
        )));
    }
    if file.options != options {
        let differs = file
            .options
            .iter()
            .zip(options)
            .find(|(a, b)| a != b)
            .map_or_else(
                || "another set of options".to_string(),
                |(a, b)| format!("{} {} against {} {}", a.0, a.1, b.0, b.1),
            );
        return Err(bad(format!(
            "options: the state's study is not this one ({differs}): give the options the \
             first look was played with"
        )));
    }
    if file.look + 1 != look {
        return Err(bad(format!(
            "look = {}: the state after look {}, so the next is --look {}, not {look}",
            file.look,
            file.look,
            file.look + 1
        )));
    }
    if file.finished {
        return Err(bad(format!(
            "finished = true: the study ended after look {}; no cell continues",
            file.look
        )));
    }
    file.state
        .check(plan)
        .map_err(|e| bad(format!("state: {e}")))
}

/// The study's options as given on the command line `raw` (after `outcomes`), without the
/// shard's own (`--shard`, `--look`, `--resume`, `--out`, `--run-name`, `--jobs`).
fn study_args(raw: &[OsString]) -> Vec<String> {
    const OWN: [&str; 6] = [
        "--shard",
        "--look",
        "--resume",
        "--out",
        "--run-name",
        "--jobs",
    ];
    let words: Vec<String> = raw
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let start = words
        .iter()
        .position(|w| w == "outcomes")
        .map_or(0, |p| p + 1);
    let mut out = Vec::new();
    let mut skip = false;
    for w in &words[start..] {
        if std::mem::take(&mut skip) {
            continue;
        }
        if OWN.contains(&w.as_str()) {
            skip = true;
        } else if !OWN.iter().any(|o| w.starts_with(&format!("{o}="))) {
            out.push(w.clone());
        }
    }
    out
}

/// The sequential budget of a look's shard: `--outcome-budget` in shots.
///
/// # Errors
/// A budget of seconds (each shard's clock is its own), none, or one that does not parse
/// (exit 2).
fn shots_budget(study: &OutcomeArgs) -> Result<Budget, CliError> {
    let text = study
        .outcome_budget
        .as_deref()
        .unwrap_or(crate::study::OUTCOMES_BUDGET);
    match study.budget(Some(crate::study::OUTCOMES_BUDGET))? {
        Some(b) if b.seconds.is_none() => Ok(b),
        Some(_) => Err(CliError::Input(format!(
            "--outcome-budget {text:?} with --look: a budget of seconds cannot be sharded (each \
             shard's clock is its own, so the looks would depend on the machines); give shots \
             only, e.g. --outcome-budget 3200"
        ))),
        None => Err(CliError::Input(
            "--outcome-budget none with --look: one look needs no looks; use --shard K/N alone"
                .into(),
        )),
    }
}

/// What `outcomes --look K` was asked for.
pub struct LookShard<'a> {
    /// K.
    pub look: u32,
    /// Which part of the look (`--shard i/N`; the whole look by default).
    pub shard: Shard,
    /// The merged look K - 1 (`--resume`).
    pub resume: Option<&'a Path>,
    /// The study's options.
    pub study: &'a OutcomeArgs,
    /// `--jobs`.
    pub jobs: Option<usize>,
    /// Where the run directory goes.
    pub run: &'a RunArgs,
    /// The command line as given (for the next look's commands).
    pub raw: &'a [OsString],
}

/// Runs `outcomes --look K --shard i/N`: shard i of look K of the study `plan`.
///
/// # Errors
/// Bad options or a state that is not this look's (exit 2); a run that failed or a file that
/// cannot be written (exit 1).
pub fn shard(plan: &StudyPlan, args: &LookShard<'_>) -> Result<(), CliError> {
    let (look, shard, raw) = (args.look, args.shard, args.raw);
    crate::args::in_range("--look", look, 1, 100_000)?;
    let budget = shots_budget(args.study)?;
    let options = look_options(plan, &budget, args.study.replays);
    let (mut state, sha) = match (look, args.resume) {
        (1, None) => (plan.first_state(&budget), None),
        (1, Some(dir)) => {
            return Err(CliError::Input(format!(
                "--resume {}: --look 1 starts from nothing; leave --resume out (it takes the \
                 run directory `merge --look K-1` wrote, for --look K)",
                dir.display()
            )))
        }
        (_, None) => {
            return Err(CliError::Input(format!(
                "--look {look} needs --resume <the run directory `merge --look {}` wrote>",
                look - 1
            )))
        }
        (_, Some(dir)) => {
            let (file, sha) = read_state(dir)?;
            resumable(&file, dir, look, &options, plan)?;
            // A worker may be handed the state alone (the Python cluster driver sends only
            // looks.json): its rows are then checked where they are, by `merge --look
            // --resume`, which refuses shards that resumed from another state (their SHA-256).
            if dir.join(pool_harness::run_files::SHOTS_CSV).is_file() {
                previous_looks(plan, dir, &file)?;
            }
            (file.state, Some(sha))
        }
    };
    let wants = plan.look_wants(&mut state);
    let units = plan.look_units(&state, &wants);
    if units.is_empty() {
        return Err(CliError::Input(format!(
            "--look {look}: no cell continues after look {}: the study is finished",
            look - 1
        )));
    }
    let total = units.len() as u64;
    let (lo, hi) = shard.range(total);
    // A program this shard plays that cannot start on this worker stops it before it writes
    // anything (exit 3), rather than failing each of its shots.
    let mine = &units[lo as usize..hi as usize];
    let runs: std::collections::BTreeSet<String> = (mine.iter())
        .flat_map(|&u| plan.unit_runs(&state, &wants, u))
        .collect();
    if let Some(rack) = plan.racks.first().and_then(pool_outcome::Racks::first) {
        crate::study::check_programs_start(
            std::iter::once(&plan.reference).chain(
                state
                    .engines
                    .iter()
                    .filter(|s| runs.contains(&s.to_string())),
            ),
            rack,
        )?;
    }
    let pool = crate::args::thread_pool(args.jobs)?;
    let staging = args.run.stage("outcomes")?;
    errln!(
        "outcomes: look {look}, shard {shard}: (family, shot) units {lo}..{hi} of the look's \
         {total}, {} engines, on {} threads -> {}",
        state.engines.len(),
        pool.current_num_threads(),
        staging.destination().display()
    );
    // The first look's shots below --chaos-shots play the chaos curve too.
    let chaos = mine
        .iter()
        .filter(|&&(_, k)| look == 1 && k < plan.chaos_shots)
        .count() as u64
        * pool_outcome::CHAOS_SIZES.len() as u64;
    let bar = crate::progress::bar(
        (hi - lo) * plan.runs_per_job() + chaos,
        "outcome runs {per_sec}",
    );
    let result = {
        let mut csv = csv::Writer::from_writer(staging.create(pool_harness::run_files::SHOTS_CSV)?);
        let mut sink = |r: &OutcomeShotRow| {
            csv.serialize(r)
                .map_err(|e| format!("writing outcomes/shots.csv: {e}"))
        };
        let units = &units[lo as usize..hi as usize];
        let result = plan
            .play_units(&state, &wants, units, &pool, &mut sink, &|n| bar.inc(n))
            .map_err(crate::study::study_error)?;
        csv.into_inner()
            .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {}", e.error())))?
            .flush()
            .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {e}")))?;
        result
    };
    bar.finish_and_clear();
    staging.write(
        pool_harness::run_files::WALL_CSV,
        &crate::output::csv_bytes(&result.wall)?,
    )?;
    staging.write("chaos.csv", &crate::output::csv_bytes(&result.chaos)?)?;
    let manifest = Manifest {
        version: crate::shard::version(),
        command: "outcomes".into(),
        options,
        engine: plan.reference.to_string(),
        k: shard.k,
        n: shard.n,
        total,
        lo,
        hi,
        inputs: Vec::new(),
        look: Some(look),
        state_sha256: sha,
        args: study_args(raw),
    };
    staging.write(
        &format!("outcomes/{MANIFEST}"),
        manifest.to_json().as_bytes(),
    )?;
    let dir = staging.commit()?;
    outln!(
        "look {look}, shard {shard}: {} of the look's {total} (family, shot) units -> {}",
        hi - lo,
        dir.display()
    )?;
    if result.failed > 0 {
        return Err(CliError::Run(format!(
            "{} engine run(s) failed; every other result is written. The first: {}",
            result.failed,
            result.failures.first().map_or("", String::as_str)
        )));
    }
    Ok(())
}

/// A CSV file's header line and the rest.
fn split_header(text: &str) -> (&str, &str) {
    text.split_once('\n').unwrap_or((text, ""))
}

/// A study file of a run directory, read whole (at most a CSV's size).
fn read_text(path: &Path) -> Result<String, CliError> {
    let bytes = pool_report::files::read_capped(path, pool_report::files::MAX_CSV_BYTES)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|_| CliError::Input(format!("{}: not UTF-8 text", path.display())))
}

/// The rows of a CSV text.
fn parse_rows<T: serde::de::DeserializeOwned>(text: &str, path: &Path) -> Result<Vec<T>, CliError> {
    csv::Reader::from_reader(text.as_bytes())
        .deserialize::<T>()
        .map(|r| r.map_err(|e| CliError::Input(format!("{}: {e}", path.display()))))
        .collect()
}

/// The looks a merged look's directory holds, read back and checked: its rows (against their
/// shots and references), tallied look by look as the loop tallied them, its wall times
/// (against the rows) and chaos rows, and its state against all of them
/// ([`StudyState::check_against_rows`]): a `looks.json` edited by hand is refused.
struct PreviousLooks {
    text: String,
    rows: Vec<OutcomeShotRow>,
    tally: ShotRowsTally,
    wall: Vec<WallRow>,
    chaos: Vec<pool_outcome::ChaosRow>,
}

/// Reads the merged look `dir` whose state is `file` ([`PreviousLooks`]).
///
/// # Errors
/// A file that does not read, or rows, times or a state that do not agree (exit 2).
fn previous_looks(
    plan: &StudyPlan,
    dir: &Path,
    file: &LooksFile,
) -> Result<PreviousLooks, CliError> {
    let path = dir.join(pool_harness::run_files::SHOTS_CSV);
    let text = read_text(&path)?;
    let rows: Vec<OutcomeShotRow> = parse_rows(&text, &path)?;
    let segments = &file.segments;
    let counted: u64 = segments.iter().map(|s| s.1).sum();
    if counted != rows.len() as u64 || segments.iter().any(|s| s.0 >= plan.families.len()) {
        return Err(CliError::Input(format!(
            "{}: {} rows, but {} says its looks wrote {counted}",
            path.display(),
            rows.len(),
            dir.join(LOOKS_FILE).display()
        )));
    }
    let mut tally = ShotRowsTally::new(plan);
    let mut at = 0usize;
    for &(_, n) in segments {
        let part = &rows[at..at + n as usize];
        tally
            .add_look(part)
            .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
        at += n as usize;
    }
    plan.check_rows(&rows, &[])
        .map_err(|e| CliError::Input(format!("{}: {e}; nothing merged", path.display())))?;
    let (mut wall, mut chaos) = (Vec::new(), Vec::new());
    absorb_extras(dir, &rows, &mut wall, &mut chaos)?;
    file.state
        .check_against_rows(plan, &tally.tally, &rows, segments, &wall)
        .map_err(|e| {
            CliError::Input(format!(
                "{}: state: {e}: the state is not the one its rows give; nothing played",
                dir.join(LOOKS_FILE).display()
            ))
        })?;
    Ok(PreviousLooks {
        text,
        rows,
        tally,
        wall,
        chaos,
    })
}

/// What the merged rows say of failed and declined runs, as the one-process study counts them.
#[derive(Default)]
struct Failures {
    failed: u64,
    failures: Vec<String>,
    declined: Vec<pool_outcome::Decline>,
}

impl Failures {
    fn note(&mut self, rows: &[OutcomeShotRow]) {
        for row in rows {
            match row.failure.as_ref() {
                None => {}
                Some(pool_outcome::Failure::Declined(reason)) => {
                    pool_outcome::Decline::note(&mut self.declined, row.run.as_str(), reason);
                }
                Some(pool_outcome::Failure::Failed(message)) => {
                    self.failed += 1;
                    if self.failures.len() < 10 {
                        // As the study words it, but for the message's first line only (the
                        // row keeps no more).
                        self.failures.push(format!(
                            "{} on {} ({} on {}): {}",
                            row.run, row.shot, row.family, row.table, message
                        ));
                    }
                }
            }
        }
    }
}

/// A run directory's or a shard's wall times (checked, absorbed into `wall`) and chaos rows
/// (appended to `chaos`).
fn absorb_extras(
    dir: &Path,
    rows: &[OutcomeShotRow],
    wall: &mut Vec<WallRow>,
    chaos: &mut Vec<pool_outcome::ChaosRow>,
) -> Result<(), CliError> {
    let path = dir.join(pool_harness::run_files::WALL_CSV);
    let timed = absorb_wall(wall, &path)?;
    pool_outcome::check_wall(&timed, rows)
        .map_err(|e| CliError::Input(format!("{}: {e}; nothing merged", path.display())))?;
    let path = dir.join("chaos.csv");
    chaos.extend(parse_rows::<pool_outcome::ChaosRow>(
        &read_text(&path)?,
        &path,
    )?);
    Ok(())
}

/// The wall times of a run directory or a shard, checked, absorbed into `wall`; returns them.
fn absorb_wall(wall: &mut Vec<WallRow>, path: &Path) -> Result<Vec<WallRow>, CliError> {
    let text = read_text(path)?;
    let timed = parse_rows::<WallRow>(&text, path)?;
    for w in &timed {
        crate::shard::check_times(w, path)?;
        match wall
            .iter_mut()
            .find(|x| (&x.family, &x.table, &x.run) == (&w.family, &w.table, &w.run))
        {
            Some(x) => x.absorb(w),
            None => wall.push(w.clone()),
        }
    }
    Ok(timed)
}

/// What `merge --look K` was asked for.
pub struct LookMerge<'a> {
    /// K.
    pub look: u32,
    /// The look's shards.
    pub dirs: &'a [PathBuf],
    /// The merged look K - 1 (`--resume`).
    pub resume: Option<&'a Path>,
    /// Programs the replays may start (`--allow-exec`).
    pub allow_exec: &'a [String],
    /// `--jobs` (the replays').
    pub jobs: Option<usize>,
    /// Where the run directory goes.
    pub run: &'a RunArgs,
}

/// Runs `merge --look K`: look K's shards (and, for K > 1, the merged look K - 1) into the run
/// directory of the study after look K.
///
/// # Errors
/// Shards of another look, state, options or build, one missing or given twice, rows that are
/// not the look's (exit 2, one line naming the file); a file that cannot be written (exit 1).
pub fn merge(args: &LookMerge<'_>) -> Result<(), CliError> {
    let look = args.look;
    crate::args::in_range("--look", look, 1, 100_000)?;
    let previous = match (look, args.resume) {
        (1, None) => None,
        (1, Some(dir)) => {
            return Err(CliError::Input(format!(
                "--resume {}: look 1 starts from nothing; leave --resume out",
                dir.display()
            )))
        }
        (_, None) => {
            return Err(CliError::Input(format!(
                "merge --look {look} needs --resume <the run directory `merge --look {}` wrote>",
                look - 1
            )))
        }
        (_, Some(dir)) => Some((read_state(dir)?, dir.to_path_buf())),
    };
    let shards = args
        .dirs
        .iter()
        .map(|d| Manifest::read(d).map(|m| (m, d.clone())))
        .collect::<Result<Vec<_>, _>>()?;
    let want_sha = previous.as_ref().map(|((_, sha), _)| sha.clone());
    for (m, dir) in &shards {
        let source = dir.join("outcomes").join(MANIFEST);
        if m.command != "outcomes" || m.look != Some(look) {
            let what = m
                .look
                .map_or("one look".to_string(), |k| format!("look {k}"));
            return Err(CliError::Input(format!(
                "{}: shard {}/{} of {what} of `{}`, not of look {look}: merge --look {look} \
                 takes that look's shards",
                source.display(),
                m.k,
                m.n,
                m.command
            )));
        }
        if m.state_sha256 != want_sha {
            let short = |s: &Option<String>| {
                s.as_deref()
                    .map_or("none".to_string(), |s| s.chars().take(12).collect())
            };
            return Err(CliError::Input(format!(
                "{}: shard {}/{} resumed from the state sha256 {}, not from {} (sha256 {}): it \
                 belongs to another run of the study; play it again from that state",
                source.display(),
                m.k,
                m.n,
                short(&m.state_sha256),
                previous
                    .as_ref()
                    .map_or("nothing (look 1)".to_string(), |(_, d)| {
                        d.join(LOOKS_FILE).display().to_string()
                    }),
                short(&want_sha)
            )));
        }
    }
    let shards = in_order(shards)?;
    let (m0, dir0) = &shards[0];
    let source = dir0.join("outcomes").join(MANIFEST).display().to_string();
    let plan = crate::study::plan_of_manifest(&m0.options, &source)?;
    let option = |name: &str| {
        m0.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| CliError::Input(format!("{source}: no {name} (not a look's shard)")))
    };
    let budget_text = option("--outcome-budget")?;
    let budget = budget_text
        .parse::<Budget>()
        .ok()
        .filter(|b| b.seconds.is_none())
        .ok_or_else(|| {
            CliError::Input(format!(
                "{source}: --outcome-budget = {budget_text:?}: not a budget of shots"
            ))
        })?;
    let replays_text = option("--replays")?;
    let replays = replays_text
        .parse::<u64>()
        .ok()
        .filter(|&r| r <= crate::replays::MAX_REPLAYS)
        .ok_or_else(|| {
            CliError::Input(format!(
                "{source}: --replays = {replays_text:?}: not a count"
            ))
        })?;
    if look_options(&plan, &budget, replays) != m0.options {
        return Err(CliError::Input(format!(
            "{source}: options: not those this build records for a study's look (made by \
             another version, or edited)"
        )));
    }
    let (mut state, mut segments, study_args) = match &previous {
        None => (plan.first_state(&budget), Vec::new(), m0.args.clone()),
        Some(((file, _), dir)) => {
            resumable(file, dir, look, &m0.options, &plan)?;
            (file.state.clone(), file.segments.clone(), file.args.clone())
        }
    };
    let staging = args.run.stage(&format!("outcomes-look{look}"))?;
    let mut out = std::io::BufWriter::new(staging.create(pool_harness::run_files::SHOTS_CSV)?);
    let write_err = |e: std::io::Error| CliError::Run(format!("writing outcomes/shots.csv: {e}"));
    let mut header: Option<String> = None;
    let mut tally = ShotRowsTally::new(&plan);
    let mut failures = Failures::default();
    let mut wall: Vec<WallRow> = Vec::new();
    let mut chaos = Vec::new();
    // The looks before, tallied again as the loop tallied them (their reference rows are
    // those of the shots this look's rows play again).
    let mut earlier: Vec<OutcomeShotRow> = Vec::new();
    if let Some(((file, _), dir)) = &previous {
        let before = previous_looks(&plan, dir, file)?;
        let (h, body) = split_header(&before.text);
        writeln!(out, "{h}").map_err(write_err)?;
        out.write_all(body.as_bytes()).map_err(write_err)?;
        header = Some(h.to_string());
        tally = before.tally;
        failures.note(&before.rows);
        wall.extend(before.wall);
        chaos.extend(before.chaos);
        earlier = before.rows;
    }
    // This look: the wants the shards computed, from the same state.
    let wants = plan.look_wants(&mut state);
    let units = plan.look_units(&state, &wants);
    if units.len() as u64 != m0.total {
        return Err(CliError::Input(format!(
            "{source}: total = {}, but the state gives look {look} {} (family, shot) units",
            m0.total,
            units.len()
        )));
    }
    let mut look_rows: Vec<OutcomeShotRow> = Vec::new();
    for (m, dir) in &shards {
        let path = dir.join(pool_harness::run_files::SHOTS_CSV);
        let text = read_text(&path)?;
        let (h, body) = split_header(&text);
        if !body.is_empty() {
            match &header {
                None => {
                    writeln!(out, "{h}").map_err(write_err)?;
                    header = Some(h.to_string());
                }
                Some(first) if first != h => {
                    return Err(CliError::Input(format!(
                        "{}: its columns differ from those of the study's rows",
                        path.display()
                    )))
                }
                Some(_) => {}
            }
            out.write_all(body.as_bytes()).map_err(write_err)?;
        }
        let rows: Vec<OutcomeShotRow> = if body.is_empty() {
            Vec::new()
        } else {
            parse_rows(&text, &path)?
        };
        check_rows(
            &plan,
            &state,
            &wants,
            &units[m.lo as usize..m.hi as usize],
            &rows,
            &path,
        )?;
        plan.check_rows(&rows, &earlier)
            .map_err(|e| CliError::Input(format!("{}: {e}; nothing merged", path.display())))?;
        failures.note(&rows);
        absorb_extras(dir, &rows, &mut wall, &mut chaos)?;
        look_rows.extend(rows);
    }
    out.flush().map_err(write_err)?;
    drop(out);
    // Family by family, as the loop played the round.
    let mut at = 0usize;
    for (f, w) in wants.iter().enumerate() {
        if w.is_empty() {
            continue;
        }
        let (kind, table) = &plan.families[f];
        let n = look_rows[at..]
            .iter()
            .take_while(|r| r.family == kind.name() && r.table == *table)
            .count();
        tally
            .add_look(&look_rows[at..at + n])
            .map_err(|e| CliError::Input(format!("look {look}: {e}")))?;
        plan.record_look(&mut tally.tally, &mut state, f, w);
        segments.push((f, n as u64));
        at += n;
    }
    state.looks = look;
    let wall = in_run_order(&plan, &state, wall);
    for (f, family) in state.families.iter_mut().enumerate() {
        let (kind, table) = &plan.families[f];
        for (e, cell) in family.cells.iter_mut().enumerate() {
            let run = Run::engine(&state.engines[e]);
            cell.cost_s = wall
                .iter()
                .find(|w| w.family == kind.name() && w.table == *table && w.run == run)
                .filter(|w| w.shots > 0)
                .map(|w| w.wall_s / w.shots as f64);
        }
    }
    let shard_wall: f64 = wall.iter().map(|w| w.wall_s).sum();
    let result = StudyResult {
        tally: tally.tally,
        wall: wall.clone(),
        failed: failures.failed,
        failures: failures.failures,
        declined: failures.declined,
        chaos: pool_outcome::merge_chaos(chaos),
    };
    let study = crate::study::study_of(&plan, result, Some(&budget));
    for w in study.floor_warnings() {
        errln!("merge: {w}");
    }
    for d in &study.declined {
        errln!("merge: {}", d.line());
    }
    crate::study::write_study(&staging, &study, &wall)?;
    let record = crate::replays::StudyRecord::of(&plan, Some(&budget));
    let run_json = serde_json::json!({ "outcome_options": record });
    staging.write(
        "run.json",
        (serde_json::to_string_pretty(&run_json).unwrap_or_default() + "\n").as_bytes(),
    )?;
    let pool = crate::args::thread_pool(args.jobs)?;
    let replays_note = crate::replays::write_staged_with(
        &staging,
        &plan,
        replays,
        &pool,
        crate::replays::Programs::Allowed(args.allow_exec),
    )?;
    staging.write(
        "report.md",
        crate::study::study_report(
            &study,
            &format!("{shard_wall:.1} s of runs summed over the looks and their shards"),
        )
        .as_bytes(),
    )?;
    let mut next_state = state.clone();
    let next = plan.look_wants(&mut next_state);
    let file = LooksFile {
        version: crate::shard::version(),
        look,
        finished: next.iter().all(Vec::is_empty),
        options: m0.options.clone(),
        args: study_args,
        shards: m0.n,
        segments,
        state,
    };
    staging.write(
        LOOKS_FILE,
        (serde_json::to_string_pretty(&file).unwrap_or_default() + "\n").as_bytes(),
    )?;
    let page = crate::html::stage_page(&staging)?;
    let dir = staging.commit()?;
    outln!(
        "merged look {look} from {} shards -> {}",
        shards.len(),
        dir.display()
    )?;
    for line in study.console_lines() {
        outln!("{line}")?;
    }
    outln!("{replays_note}")?;
    outln!("{}", page(&dir))?;
    next_steps(&plan, &file, &next_state, &next, &dir)?;
    if study.failed > 0 {
        return Err(CliError::Run(format!(
            "{} engine run(s) failed (see {})",
            study.failed,
            dir.join(pool_harness::run_files::SHOTS_CSV).display()
        )));
    }
    Ok(())
}

/// A shard's rows are exactly those of its `units`, in order: family, table, shot and run.
///
/// # Errors
/// The first row that is not (exit 2, naming the file and the row).
fn check_rows(
    plan: &StudyPlan,
    state: &StudyState,
    wants: &pool_outcome::Look,
    units: &[(usize, u64)],
    rows: &[OutcomeShotRow],
    path: &Path,
) -> Result<(), CliError> {
    let expected = units.iter().flat_map(|&(f, k)| {
        let (kind, table) = &plan.families[f];
        plan.unit_runs(state, wants, (f, k))
            .into_iter()
            .map(move |run| format!("{} on {table} shot {k} ({run})", kind.name()))
    });
    let mut expected = expected.peekable();
    for (n, row) in rows.iter().enumerate() {
        let got = format!(
            "{} on {} shot {} ({})",
            row.family, row.table, row.index, row.run
        );
        match expected.next() {
            Some(want) if want == got => {}
            want => {
                return Err(CliError::Input(format!(
                    "{}: row {} is {}, expected {}: a shard's rows are its units' of the look, \
                     in order; nothing merged",
                    path.display(),
                    n + 1,
                    pool_exec::escape_bytes(got.as_bytes()),
                    want.unwrap_or_else(|| "none (past the shard's last unit)".into())
                )))
            }
        }
    }
    if let Some(want) = expected.next() {
        return Err(CliError::Input(format!(
            "{}: {} rows, then {want} is missing; nothing merged",
            path.display(),
            rows.len()
        )));
    }
    Ok(())
}

/// Wall rows in the one-process study's order: family by family, the reference, the floor,
/// then each engine in engine order.
fn in_run_order(plan: &StudyPlan, state: &StudyState, mut wall: Vec<WallRow>) -> Vec<WallRow> {
    let family = |w: &WallRow| {
        plan.families
            .iter()
            .position(|(k, t)| k.name() == w.family && *t == w.table)
            .unwrap_or(usize::MAX)
    };
    let run = |w: &WallRow| match &w.run {
        Run::Reference => 0,
        Run::Floor => 1,
        r => (state.engines.iter())
            .position(|s| Run::engine(s) == *r)
            .map_or(usize::MAX, |e| 2 + e),
    };
    wall.sort_by_key(|w| (family(w), run(w)));
    wall
}

/// Prints what comes next: the cells that continue and the next look's commands, or that the
/// study is finished.
fn next_steps(
    plan: &StudyPlan,
    file: &LooksFile,
    next_state: &StudyState,
    next: &pool_outcome::Look,
    dir: &Path,
) -> Result<(), CliError> {
    let look = file.look;
    if file.finished {
        outln!(
            "the study is finished after look {look}: no cell continues; {} holds its files",
            dir.display()
        )?;
        return Ok(());
    }
    let cells: Vec<String> = next
        .iter()
        .enumerate()
        .flat_map(|(f, wants)| {
            let (kind, table) = &plan.families[f];
            wants.iter().map(move |&(e, target)| {
                format!(
                    "{} on {table}: {} to {target} shots",
                    kind.name(),
                    next_state.engines[e]
                )
            })
        })
        .collect();
    outln!(
        "look {} continues {} cell(s): {}",
        look + 1,
        cells.len(),
        cells.join("; ")
    )?;
    let out = dir.parent().unwrap_or(Path::new("."));
    let name = |i: u64| format!("look{}-{i}of{}", look + 1, file.shards);
    let options: Vec<String> = file
        .args
        .iter()
        .map(|a| pool_engines::shell_word(a))
        .collect();
    let options = options.join(" ");
    let (d, o) = (
        pool_engines::shell_word(&dir.display().to_string()),
        pool_engines::shell_word(&out.display().to_string()),
    );
    outln!(
        "next, look {} in {} shards (each anywhere, in any order):",
        look + 1,
        file.shards
    )?;
    for i in 1..=file.shards {
        outln!(
            "  cargo xtask outcomes {options} --look {} --resume {d} --shard {i}/{} --out {o} \
             --run-name {}",
            look + 1,
            file.shards,
            name(i)
        )?;
    }
    let shard_dirs: Vec<String> = (1..=file.shards)
        .map(|i| pool_engines::shell_word(&out.join(name(i)).display().to_string()))
        .collect();
    outln!(
        "then: cargo xtask merge --look {} --resume {d} {} --out {o} --run-name look{}",
        look + 1,
        shard_dirs.join(" "),
        look + 1
    )?;
    Ok(())
}
