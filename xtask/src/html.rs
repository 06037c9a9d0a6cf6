//! `cargo xtask html`: (re)writes a run directory's `report.html` from its files, and the step
//! every compare and outcomes run ends with.

use std::path::{Path, PathBuf};

use pool_report::html::{report_html_with, write_page, write_report_html, HtmlError, PageInfo};

use crate::console::outln;
use crate::output::Staging;
use crate::CliError;

/// Options of `cargo xtask html`.
#[derive(clap::Args, Debug)]
pub struct HtmlArgs {
    /// The run directory (a compare or outcomes run: it holds summary.csv or outcomes.csv),
    /// e.g. reports/example
    pub dir: PathBuf,
}

/// One line saying what the page holds and where it is.
fn line(info: &PageInfo, path: &Path) -> String {
    let mut s = format!(
        "page: {} ({:.1} MB, {} shot replay(s)); open it in a browser, no server needed",
        path.display(),
        info.bytes as f64 / 1e6,
        info.replays
    );
    for n in &info.notes {
        s.push_str(&format!("\npage: {n}"));
    }
    s
}

/// Writes `report.html` into a run's staging directory (before it is committed); returns the
/// line to print once the run has its final place (`dest`).
///
/// # Errors
/// The run's own files cannot be read back or the page cannot be written: exit 1.
pub fn stage_page(staging: &Staging) -> Result<impl Fn(&Path) -> String, CliError> {
    let dest = staging.destination();
    let title = dest
        .file_name()
        .map_or("run".into(), |n| n.to_string_lossy().into_owned());
    let info = write_report_html(&staging.path(""), &title)
        .map_err(|e| CliError::Run(format!("report.html: {e}")))?;
    Ok(move |dest: &Path| line(&info, &dest.join("report.html")))
}

/// Rewrites the `report.html` of the run directory `dir` from its files, titled with the
/// directory's name; returns the line to print.
///
/// # Errors
/// A directory that is not a run's, or a file of it that does not parse: exit 2, naming the
/// file; the page cannot be written: exit 1.
pub fn rewrite(dir: &Path) -> Result<String, CliError> {
    let info = write_report_html(dir, &title_of(dir)).map_err(cli_error)?;
    Ok(line(&info, &info.path))
}

/// A page made but not yet written ([`make_page`]).
pub struct Page {
    html: String,
    replays: usize,
    notes: Vec<String>,
}

/// The page of the run directory `dir`, titled with the directory's name, with `replays`
/// (the bytes of the `outcomes/replays.json` about to be written) in place of the file: made
/// before anything is written, so that a run whose page cannot be made keeps its old files.
///
/// # Errors
/// As [`rewrite`].
pub fn make_page(dir: &Path, replays: &[u8]) -> Result<Page, CliError> {
    let (html, replays, notes) =
        report_html_with(dir, &title_of(dir), Some(replays)).map_err(cli_error)?;
    Ok(Page {
        html,
        replays,
        notes,
    })
}

/// Writes a page [`make_page`] made as `dir`'s `report.html`; returns the line to print.
///
/// # Errors
/// The page cannot be written: exit 1.
pub fn write_made(dir: &Path, page: Page) -> Result<String, CliError> {
    let info = write_page(dir, page.html, page.replays, page.notes).map_err(cli_error)?;
    Ok(line(&info, &info.path))
}

/// The run's name: its directory's.
fn title_of(dir: &Path) -> String {
    let full = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    full.file_name()
        .map_or("run".into(), |n| n.to_string_lossy().into_owned())
}

/// A file of the run that does not parse is bad input (exit 2); a page that cannot be
/// written, a run failure (exit 1).
fn cli_error(e: HtmlError) -> CliError {
    match e.file {
        Some(_) if !e.message.starts_with("cannot write") => CliError::Input(format!("html: {e}")),
        _ => CliError::Run(format!("html: {e}")),
    }
}

/// `cargo xtask html DIR`.
///
/// # Errors
/// As [`rewrite`].
pub fn run(args: HtmlArgs) -> Result<(), CliError> {
    outln!("{}", rewrite(&args.dir)?)?;
    Ok(())
}
