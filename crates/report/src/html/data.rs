//! The run directory's files, read for the page.

use std::path::Path;

use pool_harness::{OneStepRow, SummaryRow};
use pool_outcome::{
    AnswerRow, ChaosRow, Decline, DistributionRow, DistributionVerdict, Margins, OutcomeRow,
    SearchOptions, WallRow,
};
use serde::de::DeserializeOwned;

use super::shots::ShotRow;
use super::HtmlError;
use crate::compare::{OutcomeStudy, SlopeRow};
use crate::files;

/// What the page shows of a run, as read from its directory.
pub(super) struct RunFiles {
    /// `run.json`.
    pub run_json: Option<serde_json::Value>,
    /// `summary.csv`.
    pub summary: Vec<SummaryRow>,
    /// `slopes.csv`.
    pub slopes: Vec<SlopeRow>,
    /// `one_step.csv`.
    pub one_step: Vec<OneStepRow>,
    /// The outcome study's files, when it ran.
    pub study: Option<OutcomeStudy>,
    /// `outcomes/shots.csv`.
    pub shots: Option<Vec<ShotRow>>,
    /// `outcomes/replays.json`.
    pub replays: Option<serde_json::Value>,
    /// The run's PNG plots (relative paths), in name order.
    pub images: Vec<String>,
    /// Data files the page links to.
    pub files: Vec<String>,
    /// Parts missing, one line each.
    pub notes: Vec<String>,
}

/// The rows of the CSV file `dir/name`, or `None` when it does not exist. A file that is not
/// regular (a FIFO, a link) or larger than [`files::MAX_CSV_BYTES`] is an error.
fn csv_rows<T: DeserializeOwned>(dir: &Path, name: &str) -> Result<Option<Vec<T>>, HtmlError> {
    let path = dir.join(name);
    if !files::exists(&path) {
        return Ok(None);
    }
    let bytes = files::read_capped(&path, files::MAX_CSV_BYTES)
        .map_err(|e| HtmlError::at(&path, format!("cannot read: {e}")))?;
    let mut reader = csv::Reader::from_reader(bytes.as_slice());
    let mut rows = Vec::new();
    for (k, row) in reader.deserialize().enumerate() {
        rows.push(
            row.map_err(|e: csv::Error| HtmlError::at(&path, format!("row {}: {e}", k + 2)))?,
        );
    }
    Ok(Some(rows))
}

/// The JSON file `dir/name` of at most `cap` bytes, or `None` when it does not exist.
fn json_file(dir: &Path, name: &str, cap: u64) -> Result<Option<serde_json::Value>, HtmlError> {
    let path = dir.join(name);
    if !files::exists(&path) {
        return Ok(None);
    }
    let bytes = files::read_capped(&path, cap).map_err(|e| {
        let remake = if name == REPLAYS { REMAKE } else { "" };
        HtmlError::at(&path, format!("cannot read: {e}{remake}"))
    })?;
    serde_json::from_slice(&bytes)
        .map(Some)
        .map_err(|e| HtmlError::at(&path, format!("not JSON: {e}")))
}

/// `outcomes/replays.json`.
const REPLAYS: &str = "outcomes/replays.json";
/// How to get a replays file the page can read.
const REMAKE: &str = " (`cargo xtask replays <run dir>` remakes it)";

/// The data files a run writes that the page links to, in the order it lists them: only
/// these names, so that no file someone added to the directory becomes a link.
const DATA_FILES: [&str; 18] = [
    "chaos.csv",
    "distribution_answer.csv",
    "distributions.csv",
    "errors.csv",
    "one_step.csv",
    "ops.csv",
    "outcome_answer.csv",
    "outcomes.csv",
    "report.md",
    "residuals.csv",
    "run.json",
    "scaling.csv",
    "slopes.csv",
    "summary.csv",
    "throw.csv",
    pool_harness::run_files::SHOTS_CSV,
    pool_harness::run_files::WALL_CSV,
    REPLAYS,
];

/// Whether `name` is a plot's file name as a run writes them: `.png`, not hidden, of letters,
/// digits and `_ . @ + -` only (no scheme, no path, nothing to escape).
fn plot_name(name: &str) -> bool {
    name.ends_with(".png")
        && !name.starts_with('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_.@+-".contains(&b))
}

/// Whether `path` is a regular file (not a link, a FIFO or a directory).
fn regular(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file())
}

/// Shots with a replay in a `replays.json` value.
pub(super) fn replay_count(v: &serde_json::Value) -> usize {
    v.get("replays")
        .and_then(|r| r.as_array())
        .map_or(0, Vec::len)
}

/// The study's margins, search options, budget and first look's size from `run.json`'s
/// `outcome_options`; a run made before they were recorded keeps the defaults (said in a note).
fn options_of(
    st: &mut OutcomeStudy,
    run_json: Option<&serde_json::Value>,
    notes: &mut Vec<String>,
) {
    let Some(o) = run_json
        .and_then(|r| r.get("outcome_options"))
        .filter(|o| !o.is_null())
    else {
        notes.push(
            "run.json records no outcome_options: the reading guide states the default margins"
                .into(),
        );
        return;
    };
    let field = |k: &str| o.get(k).filter(|v| !v.is_null());
    match field("margins").map(|v| serde_json::from_value::<Margins>(v.clone())) {
        Some(Ok(m)) => st.margins = m,
        Some(Err(e)) => notes.push(format!(
            "run.json: outcome_options.margins unreadable ({e}): the reading guide states the \
             default margins"
        )),
        None => notes.push(
            "run.json records no margins (a run made before they were): the reading guide \
             states the default margins"
                .into(),
        ),
    }
    if let Some(Ok(s)) = field("search").map(|v| serde_json::from_value::<SearchOptions>(v.clone()))
    {
        st.search = s;
    }
    st.reference = field("reference")
        .and_then(|v| v.as_str())
        .map(String::from);
    // The ladder stops above a stepped reference's dt, as the plan's does.
    let limit_s = pool_outcome::Ladder::limit_for(st.search.limit_s, &st.reference_spec());
    let ladder = pool_outcome::Ladder::new(&pool_outcome::DEFAULT_DTS, limit_s);
    st.finest_rung_s = ladder.finest().unwrap_or(limit_s);
    if let Some(b) = field("budget").and_then(|v| v.as_str()) {
        st.budget = (b != "none").then(|| b.to_string());
    }
    if let Some(n) = field("shots").and_then(serde_json::Value::as_u64) {
        st.first_shots = n;
    }
}

/// The study's failed and declined runs from `outcomes/shots.csv`'s rows, as `merge` counts
/// them ([`pool_outcome::Failure`]).
fn failures_of(st: &mut OutcomeStudy, rows: &[ShotRow]) {
    for r in rows {
        match r.failure.as_ref() {
            None => {}
            Some(pool_outcome::Failure::Declined(reason)) => {
                Decline::note(&mut st.declined, r.run.as_str(), reason);
            }
            Some(pool_outcome::Failure::Failed(message)) => {
                st.failed += 1;
                if st.failures.len() < 10 {
                    st.failures
                        .push(format!("{} on {}: {message}", r.run, r.shot));
                }
            }
        }
    }
}

impl RunFiles {
    /// The run's files; `replays` (the bytes of an `outcomes/replays.json` not yet written)
    /// in place of that file when given.
    pub(super) fn load(dir: &Path, replays: Option<&[u8]>) -> Result<Self, HtmlError> {
        if !dir.is_dir() {
            return Err(HtmlError::at(dir, "not a directory"));
        }
        let mut notes = Vec::new();
        let summary = csv_rows::<SummaryRow>(dir, "summary.csv")?;
        let outcome_rows = csv_rows::<OutcomeRow>(dir, "outcomes.csv")?;
        if summary.is_none() && outcome_rows.is_none() {
            return Err(HtmlError::at(
                dir,
                "no summary.csv and no outcomes.csv: not the directory of a compare or outcomes run",
            ));
        }
        let mut study = match outcome_rows {
            Some(rows) => {
                let answers = csv_rows::<AnswerRow>(dir, "outcome_answer.csv")?.unwrap_or_default();
                let wall = csv_rows::<WallRow>(dir, pool_harness::run_files::WALL_CSV)?
                    .unwrap_or_default();
                let mut st = OutcomeStudy::from_rows(rows, answers, &wall);
                st.distributions =
                    csv_rows::<DistributionRow>(dir, "distributions.csv")?.unwrap_or_default();
                st.verdicts = csv_rows::<DistributionVerdict>(dir, "distribution_answer.csv")?
                    .unwrap_or_default();
                st.chaos = csv_rows::<ChaosRow>(dir, "chaos.csv")?.unwrap_or_default();
                Some(st)
            }
            None => None,
        };
        let shots = csv_rows::<ShotRow>(dir, pool_harness::run_files::SHOTS_CSV)?;
        let run_json = json_file(dir, "run.json", files::MAX_JSON_BYTES)?;
        if let Some(st) = study.as_mut() {
            options_of(st, run_json.as_ref(), &mut notes);
            if let Some(rows) = &shots {
                failures_of(st, rows);
            }
        }
        if study.is_some() && shots.is_none() {
            notes.push("no outcomes/shots.csv: the outcome tables link to no shots".into());
        }
        // Replays about to be written are the file's: the page lists it.
        let replays_given = replays.is_some();
        let replays = match replays {
            Some(bytes) => Some(
                serde_json::from_slice(bytes)
                    .map_err(|e| HtmlError::at(&dir.join(REPLAYS), format!("not JSON: {e}")))?,
            ),
            None => json_file(dir, REPLAYS, files::MAX_REPLAYS_BYTES)?,
        };
        if let Some(v) = &replays {
            // Version 2: integer, delta-coded tracks (docs/report-html.md).
            let want = u64::from(pool_outcome::REPLAY_VERSION);
            if v.get("version").and_then(|x| x.as_u64()) != Some(want) {
                return Err(HtmlError::at(
                    &dir.join("outcomes/replays.json"),
                    format!(
                        "version = {}: expected {want} (cargo xtask replays <run dir> remakes it)",
                        v.get("version").unwrap_or(&serde_json::Value::Null)
                    ),
                ));
            }
        } else if study.is_some() {
            notes.push("no outcomes/replays.json: the shots have no replays".into());
        }
        let mut images = Vec::new();
        if let Ok(entries) = std::fs::read_dir(dir) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                if plot_name(&name) && e.file_type().is_ok_and(|t| t.is_file()) {
                    images.push(name);
                }
            }
        }
        images.sort();
        let files: Vec<String> = DATA_FILES
            .iter()
            .filter(|f| regular(&dir.join(f)) || (**f == REPLAYS && replays_given))
            .map(|f| (*f).to_string())
            .collect();
        Ok(RunFiles {
            run_json,
            summary: summary.unwrap_or_default(),
            slopes: csv_rows::<SlopeRow>(dir, "slopes.csv")?.unwrap_or_default(),
            one_step: csv_rows::<OneStepRow>(dir, "one_step.csv")?.unwrap_or_default(),
            study,
            shots,
            replays,
            images,
            files,
            notes,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_states_the_margins_run_json_records() {
        let mut st = OutcomeStudy::from_rows(Vec::new(), Vec::new(), &[]);
        let mut notes = Vec::new();
        let j = serde_json::json!({"outcome_options": {
            "seed": 1, "shots": 50, "budget": "400",
            "margins": {"rate": 0.03, "balls": 0.07, "position_m": 0.04, "floor": 0.01,
                        "floor_relative": 0.3},
            "search": {"tolerance": 4.0, "limit_s": 1e-7}}});
        options_of(&mut st, Some(&j), &mut notes);
        assert!(notes.is_empty(), "{notes:?}");
        assert_eq!(st.margins.balls, 0.07);
        assert_eq!(st.budget.as_deref(), Some("400"));
        assert_eq!(st.first_shots, 50);
        let mut md = String::new();
        crate::compare::reading_guide(&mut md, &st);
        assert!(md.contains("balls pocketed ±0.07 per shot"), "{md}");
        assert!(md.contains("down to 1e-7 s"), "{md}");

        // One look: no budget. A run made before the margins were recorded: the defaults,
        // and a note that says so.
        let mut st = OutcomeStudy::from_rows(Vec::new(), Vec::new(), &[]);
        let j = serde_json::json!({"outcome_options": {"seed": 1, "shots": 8, "budget": "none"}});
        options_of(&mut st, Some(&j), &mut notes);
        assert_eq!(st.budget, None);
        assert_eq!(st.margins, Margins::default());
        assert_eq!(notes.len(), 1, "{notes:?}");
        options_of(&mut st, None, &mut notes);
        assert_eq!(notes.len(), 2, "{notes:?}");
    }
}
