//! `report.html`: one self-contained page per compare or outcomes run, beside `report.md`.
//!
//! The page is a view of the run directory's files (`run.json`, `summary.csv`, `slopes.csv`,
//! `one_step.csv`, `outcomes.csv`, `outcome_answer.csv`, `outcomes/wall.csv`,
//! `outcomes/shots.csv`, `outcomes/replays.json`, `distributions.csv`,
//! `distribution_answer.csv`, `chaos.csv`, the PNG plots): [`write_report_html`] reads them and
//! writes one HTML file with the data as JSON, the page's script and style, and the vendored
//! charting library (uPlot 1.6.32, `assets/uplot/`, MIT) inline, so it opens from disk with no
//! server and no network. Only the PNG plots stay beside it as files. A run made before the page
//! existed gets one with `cargo xtask html <run dir>`.
//!
//! What the page holds, and the DOM its browser test relies on, is in `docs/report-html.md`.

mod charts;
mod data;
mod shots;
mod tables;

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

/// Why a page could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlError {
    /// The file at fault (in the run directory), when one is.
    pub file: Option<PathBuf>,
    /// What is wrong, naming the field and value where there is one.
    pub message: String,
}

impl fmt::Display for HtmlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.file {
            Some(p) => write!(f, "{}: {}", p.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}

impl std::error::Error for HtmlError {}

impl HtmlError {
    fn at(file: &Path, message: impl Into<String>) -> Self {
        HtmlError {
            file: Some(file.to_path_buf()),
            message: message.into(),
        }
    }
}

/// What [`write_report_html`] wrote.
#[derive(Clone, Debug, PartialEq)]
pub struct PageInfo {
    /// The page (`<dir>/report.html`).
    pub path: PathBuf,
    /// Its size (bytes).
    pub bytes: u64,
    /// Shots with a replay on the page.
    pub replays: usize,
    /// Parts of the page left out, one line each (a file the run did not write).
    pub notes: Vec<String>,
}

/// The vendored charting library and the page's own script and style.
const UPLOT_JS: &str = include_str!("../../assets/uplot/uPlot.iife.min.js");
const UPLOT_CSS: &str = include_str!("../../assets/uplot/uPlot.min.css");
const PAGE_JS: &str = include_str!("../../assets/report.js");
const PAGE_CSS: &str = include_str!("../../assets/report.css");

/// Everything the page's script shows, as one JSON object.
#[derive(Serialize)]
struct PageData {
    /// The run directory's name.
    title: String,
    /// `run.json` as written (null when absent).
    run: serde_json::Value,
    /// Files of the run the page links to (relative paths).
    files: Vec<String>,
    /// The reading guide before the answer (report.md's Markdown, with the run's margins).
    guide: Option<String>,
    /// The line above the answer (how many decided, the budget; Markdown).
    answer_heading: Option<String>,
    /// The answer as a picture.
    grid: Option<tables::Grid>,
    answer: Option<tables::Table>,
    /// What the list of undecided answers says first (Markdown), and the answers.
    undecided_intro: Option<String>,
    undecided: Vec<crate::compare::Undecided>,
    /// Per engine: runs declined or failed, why, and what to do next.
    declined: Vec<tables::Declined>,
    glance: Option<tables::Table>,
    rates: Vec<tables::Table>,
    verdicts: Option<tables::Table>,
    floor_stats: Option<tables::Table>,
    charts: Vec<charts::Chart>,
    images: Vec<String>,
    shots: Option<shots::Shots>,
    notes: Vec<String>,
}

/// The HTML of the page for the run in `dir`, titled `title` (the run's name), with the number
/// of shots it replays and its notes (parts left out, what was capped).
///
/// # Errors
/// A file the run wrote that cannot be read or parsed (named, with the line or field); a run
/// directory with no `summary.csv` and no `outcomes.csv` (nothing to show).
pub fn report_html(dir: &Path, title: &str) -> Result<(String, usize, Vec<String>), HtmlError> {
    report_html_with(dir, title, None)
}

/// [`report_html`], with `replays` (the bytes of an `outcomes/replays.json` about to be
/// written) in place of the run's file when given: the page is made before anything is
/// written, so that a run whose page cannot be made keeps its old files, page included.
///
/// # Errors
/// As [`report_html`].
pub fn report_html_with(
    dir: &Path,
    title: &str,
    replays: Option<&[u8]>,
) -> Result<(String, usize, Vec<String>), HtmlError> {
    let run = data::RunFiles::load(dir, replays)?;
    // Parts left out (returned, for the console) and, on the page only, what the replays
    // capped (the run printed that line already).
    let notes = run.notes.clone();
    let mut page_notes = notes.clone();
    let answer = run.study.as_ref().and_then(tables::answer);
    let grid = run.study.as_ref().and_then(tables::grid);
    let (guide, answer_heading) = match (&run.study, &answer) {
        (Some(st), Some(_)) => {
            let mut md = String::new();
            crate::compare::reading_guide(&mut md, st);
            (Some(md), Some(crate::compare::answer_heading(st)))
        }
        _ => (None, None),
    };
    let undecided = run
        .study
        .as_ref()
        .map(crate::compare::undecided)
        .unwrap_or_default();
    let undecided_intro = crate::compare::undecided_intro(undecided.len());
    let declined = tables::declined(&run);
    let glance = tables::glance(&run);
    let rates = run.study.as_ref().map(tables::rates).unwrap_or_default();
    let (verdicts, floor_stats) = run
        .study
        .as_ref()
        .map_or((None, None), tables::distribution);
    let charts = charts::charts(&run);
    let shots = match &run.shots {
        Some(rows) => Some(shots::Shots::of(
            rows,
            &dir.join(pool_harness::run_files::SHOTS_CSV),
        )?),
        None => None,
    };
    let replays = run.replays.as_ref().map_or(0, data::replay_count);
    if let Some(note) = run
        .replays
        .as_ref()
        .and_then(|r| r.get("note"))
        .and_then(|n| n.as_str())
    {
        page_notes.push(note.to_string());
    }
    let page = PageData {
        title: title.to_string(),
        run: run.run_json.clone().unwrap_or(serde_json::Value::Null),
        files: run.files.clone(),
        guide,
        answer_heading,
        grid,
        answer,
        undecided_intro,
        undecided,
        declined,
        glance,
        rates,
        verdicts,
        floor_stats,
        charts,
        images: run.images.clone(),
        shots,
        notes: page_notes,
    };
    let json = script_json(&serde_json::to_string(&page).map_err(|e| HtmlError {
        file: None,
        message: format!("the page's data: {e}"),
    })?);
    let replay_json = match &run.replays {
        Some(v) => script_json(&serde_json::to_string(v).unwrap_or_else(|_| "null".into())),
        None => "null".into(),
    };
    let mut html = String::with_capacity(json.len() + replay_json.len() + 200_000);
    html.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    html.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    html.push_str(&format!(
        "<title>{} · pool harness report</title>\n",
        escape(&page.title)
    ));
    html.push_str("<style>\n");
    html.push_str(UPLOT_CSS);
    html.push('\n');
    html.push_str(PAGE_CSS);
    html.push_str(
        "</style>\n</head>\n<body>\n<noscript>This page draws its tables and charts \
                   with JavaScript; report.md holds the same tables as text.</noscript>\n\
                   <div id=\"app\"></div>\n",
    );
    html.push_str("<script type=\"application/json\" id=\"report-data\">");
    html.push_str(&json);
    html.push_str("</script>\n<script type=\"application/json\" id=\"replay-data\">");
    html.push_str(&replay_json);
    html.push_str("</script>\n<script>\n");
    html.push_str(UPLOT_JS);
    html.push_str("\n</script>\n<script>\n");
    html.push_str(PAGE_JS);
    html.push_str("\n</script>\n</body>\n</html>\n");
    Ok((html, replays, notes))
}

/// Writes `<dir>/report.html` for the run in `dir` (titled `title`), whole or not at all (a
/// temporary file created exclusively under a unique name, synced, then renamed over it: a
/// link at `report.html` or at any temporary name is never written through).
///
/// # Errors
/// As [`report_html`]; the page cannot be written (disk full, no permission), with the file
/// named.
pub fn write_report_html(dir: &Path, title: &str) -> Result<PageInfo, HtmlError> {
    let (html, replays, notes) = report_html(dir, title)?;
    write_page(dir, html, replays, notes)
}

/// Writes a page made by [`report_html_with`] as `<dir>/report.html`, as [`write_report_html`]
/// does.
///
/// # Errors
/// The page cannot be written, with the file named.
pub fn write_page(
    dir: &Path,
    html: String,
    replays: usize,
    notes: Vec<String>,
) -> Result<PageInfo, HtmlError> {
    let path = dir.join("report.html");
    crate::files::write_replacing(&path, html.as_bytes())
        .map_err(|e| HtmlError::at(&path, format!("cannot write: {e}")))?;
    Ok(PageInfo {
        path,
        bytes: html.len() as u64,
        replays,
        notes,
    })
}

/// JSON made safe inside a `<script>` element: `</` (which would end the element early) and
/// `<!--` become JSON escapes of the same string.
fn script_json(json: &str) -> String {
    json.replace("</", "<\\/").replace("<!--", "<\\u0021--")
}

/// Text made safe inside HTML.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_cannot_end_its_script_element() {
        let j = serde_json::to_string(&serde_json::json!({"a": "</script><!-- x"})).unwrap();
        let safe = script_json(&j);
        assert!(!safe.contains("</") && !safe.contains("<!--"));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back["a"], "</script><!-- x");
    }
}
