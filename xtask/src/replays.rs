//! Drill-down replays of an outcome study (`outcomes/replays.json`), shared by `compare` and
//! `outcomes` (after their study) and `replays` (for an existing run): which shots to replay,
//! replaying them ([`pool_outcome::replay_shot`]) in parallel, and the file with its one-line
//! note. Only `outcomes/shots.csv` and the study's options ([`StudyRecord`], kept in
//! `run.json`) are needed: a shot depends only on them and its family, table and index.
//!
//! Selection: the shots where some engine run's `d_outcome` is 1 (the floor not counted), taken
//! round-robin over the (family, table, run) cells in the order the rows first name them, so
//! that every disagreeing cell gets a shot before any gets a second; each shot carries the
//! reference, the floor and every engine run of it that disagrees. At most `--replays` shots,
//! and at most [`MAX_REPLAY_BYTES`] bytes: shots are kept in the order taken while they fit
//! (a shot that does not is left out, and the note counts it).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use pool_engines::EngineSpec;
use pool_harness::RackModel;
use pool_outcome::{
    replay_options, replay_shot, FamilyKind, OutcomeShotRow, Perturbation, Replay, ReplayEngine,
    ReplayFile, StudyError, StudyPlan, StudyRules, Units, REPLAY_VERSION,
};
use pool_sim::Engine;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::console::errln;
use crate::CliError;

/// Shots replayed by default (`--replays`).
pub const DEFAULT_REPLAYS: u64 = 60;
/// Most shots `--replays` may ask for.
pub const MAX_REPLAYS: u64 = 10_000;
/// The hard ceiling of `outcomes/replays.json` (bytes), 12 MB: the page inlines it, and the
/// whole page's documented ceiling is 20 MB (`docs/report-html.md`); the default 60 replays of
/// the example run take about 8 MB.
pub const MAX_REPLAY_BYTES: usize = 12 << 20;
/// Where the replays go in a run directory.
pub const REPLAYS_FILE: &str = "outcomes/replays.json";
/// `--max-events` of a run whose `run.json` does not record it: `compare`'s event budget (the
/// event engine's own), which the committed example ran with.
pub const DEFAULT_MAX_EVENTS: usize = pool_event::MAX_EVENTS;

/// The study's options a replay needs, as `run.json`'s `outcome_options` records them (names
/// as the options': `--outcome-seed` is `seed`, `--perturb-position` is `perturb_position`, ...).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StudyRecord {
    /// `--outcome-seed`.
    pub seed: u64,
    /// `--outcome-shots` (shots per family of the first look).
    pub shots: u64,
    /// `--outcome-families`.
    pub families: Vec<String>,
    /// `--outcome-tables`.
    pub tables: Vec<String>,
    /// `--perturb-position` (m).
    pub perturb_position: f64,
    /// `--perturb-speed` (relative).
    pub perturb_speed: f64,
    /// `--position-tol` (m).
    pub position_tol: f64,
    /// `--rack`.
    pub rack: String,
    /// `--max-events` (the event budget of every run).
    pub max_events: usize,
    /// The margins of the verdicts (`--margin-*`; absent in runs made before they were
    /// recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margins: Option<pool_outcome::Margins>,
    /// The dt search's options (`--search-limit`, `--search-max-shot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub search: Option<pool_outcome::SearchOptions>,
    /// `--outcome-budget` as it was spent (`none` for one look).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<String>,
    /// The engines the study judged (specs; a dt search plays the same engines at other dt):
    /// `replays` refuses a row of `outcomes/shots.csv` naming any other. Absent in runs made
    /// before they were recorded: a program (`exec:`) such a run names is then never run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engines: Option<Vec<String>>,
    /// `outcomes --reference`: the engine every run was judged against, when it is not the
    /// event engine (absent: the event engine).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

impl StudyRecord {
    /// The options of `plan`, sampled within `budget`.
    pub fn of(plan: &StudyPlan, budget: Option<&pool_outcome::Budget>) -> Self {
        let mut families: Vec<String> = Vec::new();
        let mut tables: Vec<String> = Vec::new();
        for (kind, table) in &plan.families {
            if !families.iter().any(|f| f == kind.name()) {
                families.push(kind.name().to_string());
            }
            if !tables.contains(table) {
                tables.push(table.clone());
            }
        }
        StudyRecord {
            seed: plan.seed,
            shots: plan.shots,
            families,
            tables,
            perturb_position: plan.perturbation.position_m,
            perturb_speed: plan.perturbation.speed_rel,
            position_tol: plan.position_tol_m,
            rack: plan.rack.to_string(),
            max_events: plan.max_events,
            margins: Some(plan.margins),
            search: Some(plan.search),
            budget: Some(budget.map_or("none".into(), ToString::to_string)),
            engines: Some(plan.engines.iter().map(ToString::to_string).collect()),
            reference: plan.other_reference().map(ToString::to_string),
        }
    }

    /// The recorded reference, parsed (the event engine when none is recorded).
    ///
    /// # Errors
    /// A recorded reference that is no engine spec (exit 2, naming `source`).
    fn reference_spec(&self, source: &str) -> Result<EngineSpec, CliError> {
        match &self.reference {
            None => Ok(EngineSpec::reference()),
            Some(r) => r.parse::<EngineSpec>().map_err(|why| {
                CliError::Input(format!(
                    "{source}: outcome_options.reference = {r:?}: {why}"
                ))
            }),
        }
    }

    /// The recorded engines, parsed (`None` when the run records none).
    ///
    /// # Errors
    /// A recorded engine that is none (exit 2, naming `source`).
    fn engine_specs(&self, source: &str) -> Result<Option<Vec<EngineSpec>>, CliError> {
        let Some(list) = &self.engines else {
            return Ok(None);
        };
        list.iter()
            .map(|e| {
                e.parse::<EngineSpec>().map_err(|why| {
                    CliError::Input(format!("{source}: engines: {:?}: {why}", shorten(e)))
                })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// The checked rack model and perturbation.
    ///
    /// # Errors
    /// A value out of range, naming the option (exit 2); `source` says where it came from.
    fn check(&self, source: &str) -> Result<(RackModel, Perturbation), CliError> {
        let bad = |m: String| CliError::Input(format!("{source}: {m}"));
        let rack = self
            .rack
            .parse::<RackModel>()
            .map_err(|e| bad(format!("rack {:?}: {e}", self.rack)))?;
        rack.validate()
            .map_err(|e| bad(format!("rack {:?}: {e}", self.rack)))?;
        let perturbation = Perturbation {
            position_m: self.perturb_position,
            speed_rel: self.perturb_speed,
        };
        perturbation.validate().map_err(|(which, v, max)| {
            bad(format!(
                "perturb_{which} = {v:?}: must be a number in [0, {max}]"
            ))
        })?;
        if !(self.position_tol > 0.0 && self.position_tol <= 1.0) {
            return Err(bad(format!(
                "position_tol = {:?}: must be a number in (0, 1] m",
                self.position_tol
            )));
        }
        if !(1..=crate::args::MAX_EVENTS_OPTION).contains(&self.max_events) {
            return Err(bad(format!(
                "max_events = {}: must be 1 to {}",
                self.max_events,
                crate::args::MAX_EVENTS_OPTION
            )));
        }
        Ok((rack, perturbation))
    }
}

/// Which programs (`exec:` engines) a replay may start.
#[derive(Clone, Copy, Debug)]
pub enum Programs<'a> {
    /// Those of the study just run: the user named them on this command line.
    OfThisRun,
    /// Those whose command is one of these (`replays --allow-exec`), exactly: a run directory
    /// is data, and a program it names is never started on its word alone.
    Allowed(&'a [String]),
}

impl Programs<'_> {
    /// Whether `spec` may be started: any engine but a program not allowed.
    fn allow(self, spec: &EngineSpec) -> bool {
        match (self, spec) {
            (Programs::Allowed(list), EngineSpec::Exec { command, .. }) => {
                list.iter().any(|a| a == command)
            }
            _ => true,
        }
    }
}

/// Whether a row may name `spec`: one of `recorded` (the study's engines) or the same engine
/// at another dt (a dt search's candidate); when the run records no engines, any engine but a
/// program (`exec:`) not in `programs`, which a run directory alone never gets run.
fn recorded_engine(spec: &EngineSpec, recorded: Option<&[EngineSpec]>, programs: Programs) -> bool {
    let Some(recorded) = recorded else {
        return !matches!(spec, EngineSpec::Exec { .. }) || programs.allow(spec);
    };
    recorded.iter().any(|r| {
        r == spec
            || (r.dt().is_some()
                && spec.dt().is_some()
                && r.family() == spec.family()
                && r.variant() == spec.variant())
    })
}

/// `s` as a message shows it: at most 300 bytes (then `...`), control and non-UTF-8 bytes
/// escaped, so that a line stays one short line whatever a file holds.
fn shorten(s: &str) -> String {
    const ECHO_BYTES: usize = 300;
    let mut end = s.len().min(ECHO_BYTES);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    let more = if end < s.len() { "..." } else { "" };
    format!("{}{more}", pool_exec::escape_bytes(&s.as_bytes()[..end]))
}

/// The rows of `outcomes/shots.csv` (`text`, read from `file`), grouped by shot in the order
/// the file first names them, and the engine of every run named (but the reference and the
/// floor).
///
/// # Errors
/// A row that does not parse, or names an engine that is none: the file, the row (and line),
/// the field and its value (exit 2).
#[allow(clippy::type_complexity)]
fn read_shots(
    text: &[u8],
    file: &Path,
    recorded: Option<&[EngineSpec]>,
    programs: Programs,
    source: &str,
    seed: u64,
) -> Result<(Vec<pool_outcome::ShotRows>, BTreeMap<String, EngineSpec>), CliError> {
    let mut specs: BTreeMap<String, EngineSpec> = BTreeMap::new();
    let mut reader = csv::Reader::from_reader(text);
    let headers = reader
        .headers()
        .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?
        .clone();
    let mut shots: Vec<pool_outcome::ShotRows> = Vec::new();
    let mut by_key: HashMap<(String, String, u64), usize> = HashMap::new();
    for (n, record) in reader.records().enumerate() {
        let record = record.map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        let line = record.position().map_or(0, csv::Position::line);
        let row: OutcomeShotRow = record.deserialize(Some(&headers)).map_err(|e| {
            let field = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err.field(),
                _ => None,
            };
            let what = match field.and_then(|f| usize::try_from(f).ok()) {
                Some(f) => format!(
                    "field {} = {:?}",
                    headers.get(f).unwrap_or("?"),
                    record.get(f).unwrap_or("")
                ),
                None => "the row".to_string(),
            };
            let why = match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => err.kind().to_string(),
                _ => e.to_string(),
            };
            CliError::Input(format!(
                "{}: row {} (line {line}): {what}: {why}",
                file.display(),
                n + 1
            ))
        })?;
        if let Some(text) = row.run.spec().filter(|t| !specs.contains_key(*t)) {
            let spec = text.parse::<EngineSpec>().map_err(|e| {
                CliError::Input(format!(
                    "{}: row {} (line {line}): field run = {e}",
                    file.display(),
                    n + 1
                ))
            })?;
            if !recorded_engine(&spec, recorded, programs) {
                let named = match recorded {
                    Some(list) if !list.is_empty() => list
                        .iter()
                        .map(|e| format!("`{}`", shorten(&e.to_string())))
                        .collect::<Vec<_>>()
                        .join(", "),
                    Some(_) => "none".into(),
                    None => "no engines: a program it names runs only with --allow-exec".into(),
                };
                return Err(CliError::Input(format!(
                    "{}: row {} (line {line}): field run = {:?}: not an engine of this run \
                     ({source} records {named}); nothing replayed",
                    file.display(),
                    n + 1,
                    shorten(text),
                )));
            }
            specs.insert(text.to_string(), spec);
        }
        // The index and the name must be one shot's: two rows must not claim one shot.
        crate::merge::shot_names_its_seed(
            &row.family,
            &row.table,
            &row.index.to_string(),
            &row.shot,
            seed,
        )
        .map_err(|why| {
            CliError::Input(format!(
                "{}: row {} (line {line}): {why} under {source}'s seed {seed}; nothing replayed",
                file.display(),
                n + 1
            ))
        })?;
        let key = (row.family.clone(), row.table.clone(), row.index);
        let at = *by_key.entry(key).or_insert_with(|| {
            shots.push(pool_outcome::ShotRows {
                family: row.family.clone(),
                table: row.table.clone(),
                index: row.index,
                rows: Vec::new(),
            });
            shots.len() - 1
        });
        shots[at].rows.push(row);
    }
    Ok((shots, specs))
}

/// A size in bytes for people: `812 kB`, `3.1 MB`.
fn human(bytes: usize) -> String {
    if bytes < 1 << 20 {
        format!("{} kB", bytes.div_ceil(1024))
    } else {
        format!("{:.1} MB", bytes as f64 / f64::from(1 << 20))
    }
}

/// A replayed shot: its index in the study's shots, the replay, its JSON and its runs that
/// failed.
type Played = (usize, Replay, Vec<u8>, Vec<String>);

/// What [`make`] produced: the file's bytes and its note (the line to print).
pub struct Replays {
    /// `outcomes/replays.json`'s bytes.
    pub bytes: Vec<u8>,
    /// The one line saying what was written and what was capped.
    pub note: String,
}

/// Selects the shots of `shots_csv` (the text of `file`, a study's `outcomes/shots.csv`) to
/// replay, at most `max_shots`, replays them under `record` on `pool`, and returns the file
/// and its note. Engines not installed here (pooltool, the peers) are skipped with one line
/// each on stderr; a program not in `programs` is refused before anything runs.
///
/// # Errors
/// A row that does not parse, an unknown family, table or engine, a program not allowed, or
/// options out of range (exit 2, naming the file or option); a shot the family cannot make
/// again (exit 1).
pub fn make(
    shots_csv: &[u8],
    file: &Path,
    record: &StudyRecord,
    source: &str,
    programs: Programs,
    max_shots: u64,
    pool: &rayon::ThreadPool,
) -> Result<Replays, CliError> {
    crate::args::in_range("--replays", max_shots, 0, MAX_REPLAYS)?;
    let (rack, perturbation) = record.check(source)?;
    let recorded = record.engine_specs(source)?;
    let (shots, parsed) = read_shots(
        shots_csv,
        file,
        recorded.as_deref(),
        programs,
        source,
        record.seed,
    )?;
    let disagreeing = shots
        .iter()
        .flat_map(|s| &s.rows)
        .filter(|r| r.changed_outcome())
        .count() as u64;
    let changed = shots
        .iter()
        .filter(|s| s.rows.iter().any(OutcomeShotRow::changed_outcome))
        .count();
    // The engines of the disagreeing runs, those not installed here skipped.
    let mut specs: BTreeMap<String, Option<EngineSpec>> = BTreeMap::new();
    let mut skipped: Vec<String> = Vec::new();
    for row in shots
        .iter()
        .flat_map(|s| &s.rows)
        .filter(|r| r.changed_outcome())
    {
        if specs.contains_key(row.run.as_str()) {
            continue;
        }
        let spec = parsed[row.run.as_str()].clone();
        if let (EngineSpec::Exec { command, .. }, false) = (&spec, programs.allow(&spec)) {
            return Err(CliError::Input(format!(
                "{}: engine {:?} is a program named only by the run directory ({source}); \
                 nothing replayed: to run it, give --allow-exec {:?} (exactly its command)",
                file.display(),
                shorten(row.run.as_str()),
                shorten(command)
            )));
        }
        let usable = match spec.unavailable() {
            Some(why) => {
                errln!("replays: skipping the runs of {}: {why}", row.run);
                skipped.push(row.run.to_string());
                None
            }
            None => Some(spec),
        };
        specs.insert(row.run.to_string(), usable);
    }
    let replayable = |run: &str| specs.get(run).is_some_and(Option::is_some);
    let selected = pool_outcome::pick_replays(&shots, max_shots, &replayable);
    // Each selected shot's family, table (racks) and engine runs, checked before any runs.
    let mut racks: BTreeMap<String, pool_outcome::Racks> = BTreeMap::new();
    let mut jobs: Vec<(usize, FamilyKind, Vec<String>)> = Vec::new();
    for &s in &selected {
        let shot = &shots[s];
        let kind = FamilyKind::from_name(&shot.family).ok_or_else(|| {
            CliError::Input(format!(
                "{}: shot {}/{}/{}: field family = {:?}: unknown family (expected one of {})",
                file.display(),
                shot.family,
                shot.table,
                shot.index,
                shot.family,
                FamilyKind::ALL.map(|k| k.name()).join(", ")
            ))
        })?;
        if !racks.contains_key(&shot.table) {
            let option = format!("{}: field table =", file.display());
            racks.insert(
                shot.table.clone(),
                crate::racks::study_racks(&option, &shot.table)?,
            );
        }
        let runs = shot
            .rows
            .iter()
            .filter(|r| r.changed_outcome() && replayable(r.run.as_str()))
            .map(|r| r.run.to_string())
            .collect();
        jobs.push((s, kind, runs));
    }
    let build = |spec: &EngineSpec| {
        spec.build_with(&replay_options(spec, record.max_events))
            .map_err(|e| CliError::Input(format!("{}: field run = {e}", file.display())))
    };
    let reference_spec = record.reference_spec(&file.display().to_string())?;
    // The reference is the run directory's word too: a program there starts only when allowed.
    if let (EngineSpec::Exec { command, .. }, false) =
        (&reference_spec, programs.allow(&reference_spec))
    {
        return Err(CliError::Input(format!(
            "{}: the reference {:?} is a program named only by the run directory ({source}); \
             nothing replayed: to run it, give --allow-exec {:?} (exactly its command)",
            file.display(),
            shorten(&reference_spec.to_string()),
            shorten(command)
        )));
    }
    if let Some(why) = reference_spec.unavailable() {
        return Err(CliError::Input(format!(
            "{}: the reference {reference_spec} cannot run here: {why}; nothing replayed",
            file.display()
        )));
    }
    let reference = build(&reference_spec)?;
    let mut engines: BTreeMap<&str, Box<dyn Engine>> = BTreeMap::new();
    for (run, spec) in &specs {
        if let Some(spec) = spec {
            if jobs.iter().any(|j| j.2.contains(run)) {
                engines.insert(run.as_str(), build(spec)?);
            }
        }
    }
    let rules = StudyRules {
        seed: record.seed,
        perturbation,
        position_tol_m: record.position_tol,
        rack,
        reference: (reference.as_ref(), &reference_spec),
    };
    let runs_total: u64 = jobs.iter().map(|j| 2 + j.2.len() as u64).sum();
    let bar = crate::progress::bar(runs_total, "replay runs {per_sec}");
    let played: Vec<Result<Played, CliError>> = pool.install(|| {
        jobs.par_iter()
            .with_max_len(1)
            .map(|(s, kind, runs)| {
                let shot = &shots[*s];
                let with: Vec<ReplayEngine> = runs
                    .iter()
                    .map(|r| ReplayEngine {
                        run: r.clone(),
                        engine: engines[r.as_str()].as_ref(),
                    })
                    .collect();
                let out = replay_shot(
                    *kind,
                    &shot.table,
                    &racks[&shot.table],
                    shot.index,
                    &rules,
                    &with,
                    &shot.rows,
                )
                .map_err(|e| match e {
                    StudyError::Perturbation(m) | StudyError::Input(m) => {
                        CliError::Input(format!("{source}: {m}"))
                    }
                    StudyError::Run(m) | StudyError::Output(m) => {
                        CliError::Run(format!("replays: {m}"))
                    }
                })?;
                bar.inc(2 + runs.len() as u64);
                let bytes = serde_json::to_vec(&out.replay)
                    .map_err(|e| CliError::Run(format!("replays: {e}")))?;
                Ok((*s, out.replay, bytes, out.failed))
            })
            .collect()
    });
    bar.finish_and_clear();
    let played = played.into_iter().collect::<Result<Vec<_>, CliError>>()?;
    let sizes: Vec<usize> = played.iter().map(|p| p.2.len()).collect();
    let fits = pool_outcome::fit_within(&sizes, MAX_REPLAY_BYTES);
    let dropped = fits.iter().filter(|&&f| !f).count();
    let mut failed: Vec<String> = Vec::new();
    let mut kept = Vec::new();
    for ((s, replay, _, f), fit) in played.into_iter().zip(fits) {
        if fit {
            failed.extend(f);
            kept.push((s, replay));
        }
    }
    // In the study's order.
    kept.sort_by_key(|k| k.0);
    let not_reproduced = kept
        .iter()
        .flat_map(|k| &k.1.runs)
        .filter(|r| !r.reproduced)
        .count();
    let mut file_out = ReplayFile {
        version: REPLAY_VERSION,
        units: Units::V2,
        max_shots,
        disagreeing,
        written: kept.len() as u64,
        note: String::new(),
        replays: kept.into_iter().map(|k| k.1).collect(),
    };
    let extras = {
        let mut v = Vec::new();
        if dropped > 0 {
            v.push(format!(
                "{dropped} more left out at the {} ceiling",
                human(MAX_REPLAY_BYTES)
            ));
        }
        if not_reproduced > 0 {
            v.push(format!(
                "{not_reproduced} run(s) did not reproduce their shots.csv row (kept, \
                 reproduced: false)"
            ));
        }
        if !failed.is_empty() {
            v.push(format!(
                "{} run(s) failed when replayed and are left out, e.g. {}",
                failed.len(),
                failed[0]
            ));
        }
        if !skipped.is_empty() {
            v.push(format!(
                "the runs of {} skipped (not installed here)",
                skipped.join(", ")
            ));
        }
        v
    };
    let note_with = |bytes: usize| {
        let mut note = format!(
            "replays: {} of {changed} shots with a changed outcome written to {REPLAYS_FILE} \
             (--replays {max_shots}; {})",
            file_out.written,
            human(bytes)
        );
        for e in &extras {
            note.push_str("; ");
            note.push_str(e);
        }
        note
    };
    let bare = serde_json::to_vec(&file_out)
        .map_err(|e| CliError::Run(format!("replays: {e}")))?
        .len();
    let guess = note_with(bare);
    file_out.note = note_with(bare + guess.len());
    let bytes =
        serde_json::to_vec(&file_out).map_err(|e| CliError::Run(format!("replays: {e}")))?;
    Ok(Replays {
        bytes,
        note: file_out.note,
    })
}

/// Replays the study `plan` just ran into `staging` (its `outcomes/shots.csv`, closed):
/// writes [`REPLAYS_FILE`] there and returns its note.
///
/// # Errors
/// As [`make`]; a file that cannot be read or written (exit 1).
pub fn write_staged(
    staging: &crate::output::Staging,
    plan: &StudyPlan,
    max_shots: u64,
    pool: &rayon::ThreadPool,
) -> Result<String, CliError> {
    write_staged_with(staging, plan, max_shots, pool, Programs::OfThisRun)
}

/// [`write_staged`] starting only the `programs` allowed (a run directory's shards are data:
/// `merge --look` starts a program only with `--allow-exec`).
///
/// # Errors
/// As [`write_staged`].
pub fn write_staged_with(
    staging: &crate::output::Staging,
    plan: &StudyPlan,
    max_shots: u64,
    pool: &rayon::ThreadPool,
    programs: Programs,
) -> Result<String, CliError> {
    let name = pool_harness::run_files::SHOTS_CSV;
    let path = staging.path(name);
    let text = std::fs::read(&path)
        .map_err(|e| CliError::Run(format!("reading {}: {e}", path.display())))?;
    let r = make(
        &text,
        Path::new(name),
        &StudyRecord::of(plan, None),
        "the study's options",
        programs,
        max_shots,
        pool,
    )?;
    staging.write(REPLAYS_FILE, &r.bytes)?;
    Ok(r.note)
}
