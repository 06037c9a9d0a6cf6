//! `cargo xtask figures`: every figure README.md and docs/ quote comes from a committed run
//! (`reports/example/`). A figure is written `<!--fig:KEY-->TEXT<!--/fig-->` (the tags do not
//! render); this command computes KEY's text from the run's files and checks it is TEXT, or
//! writes it there (`--write`). A test runs the check, so a figure that no longer matches its
//! run fails CI.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use pool_discrete::Scheme;
use pool_outcome::{AnswerRow, WallRow};
use pool_report::compare::{
    answer_cell, answer_wall, cost_cell, duration, engine_name, reference_wall_s,
};

use crate::console::outln;
use crate::CliError;

/// Options of `cargo xtask figures`.
#[derive(clap::Args, Debug)]
pub struct FiguresArgs {
    /// Files to check [default: README.md and docs/*.md of the workspace]
    pub files: Vec<PathBuf>,
    /// The run the figures come from [default: reports/example of the workspace]
    #[arg(long, value_name = "DIR")]
    pub run: Option<PathBuf>,
    /// Rewrite each figure from the run instead of checking it
    #[arg(long)]
    pub write: bool,
}

const OPEN: &str = "<!--fig:";
const CLOSE: &str = "<!--/fig-->";

/// One tagged figure of a file.
#[derive(Clone, Debug, PartialEq)]
struct Tag {
    /// Its key.
    key: String,
    /// Byte range of its text.
    text: std::ops::Range<usize>,
    /// Line of the tag (1-based).
    line: usize,
}

/// The tagged figures of `text`.
///
/// # Errors
/// A tag that is not closed, a tag inside another's text, or a key with characters other than
/// `[a-z0-9_:.@-]`.
fn tags(text: &str) -> Result<Vec<Tag>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    // Lines are counted from the last tag on, so the scan stays linear in the text.
    let (mut line, mut counted) = (1, 0);
    while let Some(i) = text[at..].find(OPEN) {
        let start = at + i;
        line += text[counted..start].matches('\n').count();
        counted = start;
        let key_start = start + OPEN.len();
        let key_end = text[key_start..]
            .find("-->")
            .map(|j| key_start + j)
            .ok_or_else(|| format!("line {line}: a fig tag without its closing -->"))?;
        let key = &text[key_start..key_end];
        let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "_:.@-".contains(c);
        if key.is_empty() || !key.chars().all(ok) {
            return Err(format!(
                "line {line}: fig key {key:?}: expected [a-z0-9_:.@-]+"
            ));
        }
        let body = key_end + 3;
        let end = text[body..]
            .find(CLOSE)
            .map(|j| body + j)
            .ok_or_else(|| format!("line {line}: fig:{key} is not closed by {CLOSE}"))?;
        // A tag inside another's text would be replaced with it by --write: refused.
        if let Some(j) = text[body..end].find(OPEN) {
            let inner = line + text[start..body + j].matches('\n').count();
            return Err(format!(
                "line {inner}: a fig tag inside the text of fig:{key} (line {line}): tags do \
                 not nest; close fig:{key} first"
            ));
        }
        out.push(Tag {
            key: key.to_string(),
            text: body..end,
            line,
        });
        at = end + CLOSE.len();
    }
    Ok(out)
}

/// Why a figure has no text: the document's tag asks for what no run has (exit 2), or the
/// committed run's files lack a column or hold a value that is not a finite number (exit 1).
#[derive(Debug)]
enum FigError {
    Doc(String),
    Run(String),
}

impl From<String> for FigError {
    fn from(e: String) -> Self {
        FigError::Doc(e)
    }
}

/// Checks that the rows of the run's `file` (all of one header) have every one of `columns`.
///
/// # Errors
/// The first column missing, naming the file (exit 1).
fn need(rows: &[BTreeMap<String, String>], file: &str, columns: &[&str]) -> Result<(), FigError> {
    match rows.first() {
        Some(r) => match columns.iter().find(|c| !r.contains_key(**c)) {
            Some(c) => Err(FigError::Run(format!("{file}: no column {c:?}"))),
            None => Ok(()),
        },
        None => Ok(()),
    }
}

/// A row's `column` ("" when it has none: [`need`] has checked the header).
fn cell<'a>(r: &'a BTreeMap<String, String>, column: &str) -> &'a str {
    r.get(column).map_or("", String::as_str)
}

/// The number in `column` of a row of the run's `file`.
///
/// # Errors
/// A missing column, or a value that is not a finite number, naming the file, the column and
/// the value (exit 1).
fn finite_cell(r: &BTreeMap<String, String>, file: &str, column: &str) -> Result<f64, FigError> {
    let v = r
        .get(column)
        .ok_or_else(|| FigError::Run(format!("{file}: no column {column:?}")))?;
    finite(v.parse::<f64>().unwrap_or(f64::NAN), file, column, v)
}

/// `x` when finite.
///
/// # Errors
/// A non-finite value, naming where it came from (exit 1).
fn finite(x: f64, file: &str, column: &str, text: &str) -> Result<f64, FigError> {
    if x.is_finite() {
        Ok(x)
    } else {
        Err(FigError::Run(format!(
            "{file}: {column} = {text:?}: not a finite number"
        )))
    }
}

/// Whether a figure's text shows a value that is not a number (`NaN %`, `inf`).
fn shows_non_finite(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.eq_ignore_ascii_case("nan") || w.eq_ignore_ascii_case("inf"))
}

/// A committed run's files, read once each when a figure asks for them.
struct Run {
    dir: PathBuf,
    tables: BTreeMap<PathBuf, Vec<BTreeMap<String, String>>>,
    json: Option<serde_json::Value>,
}

impl Run {
    fn new(dir: PathBuf) -> Self {
        Run {
            dir,
            tables: BTreeMap::new(),
            json: None,
        }
    }

    /// The rows of `file` (a CSV of the run) as column -> text.
    fn table(&mut self, file: &str) -> Result<&[BTreeMap<String, String>], FigError> {
        self.csv(self.dir.join(file))
    }

    /// The rows of `file` (a CSV of the run) as `T`s, read afresh.
    fn rows<T: serde::de::DeserializeOwned>(&self, file: &str) -> Result<Vec<T>, FigError> {
        let path = self.dir.join(file);
        csv::Reader::from_path(&path)
            .and_then(|mut r| r.deserialize().collect::<Result<Vec<T>, _>>())
            .map_err(|e| FigError::Run(format!("{}: {e}", path.display())))
    }

    /// The rows of `file` of the committed run `name` beside this one as `T`s, read afresh.
    fn sibling_rows<T: serde::de::DeserializeOwned>(
        &self,
        name: &str,
        file: &str,
    ) -> Result<Vec<T>, FigError> {
        let path = self.dir.with_file_name(name).join(file);
        csv::Reader::from_path(&path)
            .and_then(|mut r| r.deserialize().collect::<Result<Vec<T>, _>>())
            .map_err(|e| FigError::Run(format!("{}: {e}", path.display())))
    }

    /// The rows of `file` of the committed run `name` beside this one (`example-python`).
    fn sibling(&mut self, name: &str, file: &str) -> Result<&[BTreeMap<String, String>], FigError> {
        self.csv(self.dir.with_file_name(name).join(file))
    }

    /// The rows of the CSV at `path`, read once.
    fn csv(&mut self, path: PathBuf) -> Result<&[BTreeMap<String, String>], FigError> {
        if !self.tables.contains_key(&path) {
            let bad = |e: csv::Error| FigError::Run(format!("{}: {e}", path.display()));
            let mut reader = csv::Reader::from_path(&path).map_err(bad)?;
            let rows = reader
                .deserialize::<BTreeMap<String, String>>()
                .collect::<Result<Vec<_>, _>>()
                .map_err(bad)?;
            self.tables.insert(path.clone(), rows);
        }
        Ok(&self.tables[&path])
    }

    /// `run.json`'s field `name`.
    fn info(&mut self, name: &str) -> Result<serde_json::Value, FigError> {
        if self.json.is_none() {
            let path = self.dir.join("run.json");
            let bad = |e: String| FigError::Run(format!("{}: {e}", path.display()));
            let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
            self.json = Some(serde_json::from_str(&text).map_err(|e| bad(e.to_string()))?);
        }
        self.json
            .as_ref()
            .and_then(|j| j.get(name))
            .cloned()
            .ok_or_else(|| FigError::Run(format!("run.json has no {name:?}")))
    }

    /// `run.json`'s number `name`.
    ///
    /// # Errors
    /// No such field, or one that is not a finite number (exit 1).
    fn info_number(&mut self, name: &str) -> Result<f64, FigError> {
        let v = self.info(name)?;
        finite(
            v.as_f64().unwrap_or(f64::NAN),
            "run.json",
            name,
            &v.to_string(),
        )
    }
}

/// A column of rows as numbers.
/// Empty cells and `NaN` (a value a run did not have) are NaN, for the caller to leave out.
fn numbers(
    rows: &[&BTreeMap<String, String>],
    file: &str,
    column: &str,
) -> Result<Vec<f64>, FigError> {
    rows.iter()
        .map(|r| {
            let v = r
                .get(column)
                .ok_or_else(|| FigError::Run(format!("{file}: no column {column:?}")))?;
            if v.is_empty() {
                Ok(f64::NAN)
            } else {
                v.parse::<f64>()
                    .map_err(|_| FigError::Run(format!("{file}: {column} = {v:?}: not a number")))
            }
        })
        .collect()
}

/// `x` with two significant digits in scientific notation (`1.4e-11`).
fn sci2(x: f64) -> String {
    format!("{x:.1e}")
}

/// A share as a whole percent (`86 %`), or with one decimal below 10 % (`0.4 %`).
fn percent(x: f64) -> String {
    if x > 0.0 && x < 0.1 {
        format!("{:.1} %", 100.0 * x)
    } else {
        format!("{:.0} %", 100.0 * x)
    }
}

/// A whole number with thousands separators, rounded to two significant digits when it has
/// more than three (`18,000`, `5,700`, `14`).
fn rate(x: f64) -> String {
    let mut v = x.round();
    if v >= 1000.0 {
        let p = 10f64.powi(v.log10().floor() as i32 - 1);
        v = (v / p).round() * p;
    }
    rate_exact(v)
}

/// The median of the finite values of `xs`.
fn median_of(mut xs: Vec<f64>) -> Option<f64> {
    xs.retain(|x| x.is_finite());
    xs.sort_by(f64::total_cmp);
    xs.get(xs.len() / 2).copied()
}

/// Whether a row is a shot under its own physics (not a `<shot>@<preset>` run).
fn own(r: &BTreeMap<String, String>) -> bool {
    r.get("shot").is_some_and(|s| !s.contains('@'))
}

/// Whether a row's columns hold the given values (`[("family", "cut"), ...]`); a `scheme` column
/// matches by [`same_scheme`].
fn matches(r: &BTreeMap<String, String>, wanted: &[(&str, &str)]) -> bool {
    wanted.iter().all(|(k, v)| {
        r.get(*k)
            .is_some_and(|have| have == v || (*k == "scheme" && same_scheme(have, v)))
    })
}

/// Whether a run's recorded scheme name is the scheme a figure names: the same name, or two
/// names of one scheme (a run written before `exact` was named `end_of_step` records `exact`,
/// which the command line still accepts).
fn same_scheme(recorded: &str, wanted: &str) -> bool {
    recorded == wanted
        || Scheme::from_name(recorded).is_some_and(|a| Scheme::from_name(wanted) == Some(a))
}

/// The first row whose columns hold the given values.
fn find_row<'a>(
    rows: &'a [BTreeMap<String, String>],
    wanted: &[(&str, &str)],
) -> Option<&'a BTreeMap<String, String>> {
    rows.iter().find(|r| matches(r, wanted))
}

/// Whether the row's `dt_s` is `dt` (`none` for an engine without one).
fn at_dt(r: &BTreeMap<String, String>, dt: &str) -> bool {
    let have = r.get("dt_s").map_or("", String::as_str);
    if dt == "none" {
        have.is_empty()
    } else {
        have.parse::<f64>().ok() == dt.parse::<f64>().ok()
    }
}

/// The head of a table with an engine column and one column per family (their titles).
fn family_header(families: &[impl AsRef<str>]) -> String {
    format!(
        "| engine | {} |\n|---|{}\n",
        families
            .iter()
            .map(|f| title(f.as_ref()))
            .collect::<Vec<_>>()
            .join(" | "),
        "---|".repeat(families.len())
    )
}

/// A family's column title in the README's tables.
fn title(family: &str) -> String {
    match family {
        "cut" => "cut shots",
        "thin_cut" => "thin cuts",
        "bank" => "bank shots",
        "break9" => "9-ball breaks",
        "break15" => "15-ball breaks",
        other => other,
    }
    .to_string()
}

/// The chaos floor's rate of changed outcomes on `family` and `table` (`outcomes.csv`'s rows).
fn floor_rate(
    rows: &[BTreeMap<String, String>],
    family: &str,
    table: &str,
) -> Result<String, FigError> {
    need(
        rows,
        "outcomes.csv",
        &["family", "table", "engine", "field", "rate"],
    )?;
    let r = find_row(
        rows,
        &[
            ("family", family),
            ("table", table),
            ("engine", pool_outcome::FLOOR),
            ("field", "outcome"),
        ],
    )
    .ok_or_else(|| format!("outcomes.csv has no floor row for {family} {table}"))?;
    Ok(percent(finite_cell(r, "outcomes.csv", "rate")?))
}

/// `k of n`: the answers of `kind` (`all`, `schemes`, `peers`) in `answers` that carry a
/// decided claim, of all of that kind.
fn decided(answers: &[AnswerRow], kind: &str) -> Result<String, FigError> {
    if !matches!(kind, "all" | "schemes" | "peers") {
        return Err(FigError::Doc(format!(
            "decided:{kind}: expected all, schemes or peers"
        )));
    }
    let of_kind = |a: &&AnswerRow| match kind {
        "schemes" => a.engine == pool_engines::DISCRETE,
        "peers" => !matches!(
            a.engine.as_str(),
            pool_engines::DISCRETE | pool_engines::EXEC | pool_engines::EVENT | "pooltool"
        ),
        _ => true,
    };
    let mine: Vec<&AnswerRow> = answers.iter().filter(of_kind).collect();
    let k = mine.iter().filter(|a| a.decided()).count();
    Ok(format!("{k} of {}", mine.len()))
}

/// The README's answer table: for each engine of the outcome study, on each family of
/// `table`, its answer (where it keeps and changes the game on the dt ladder, or its cell's
/// claim), the shots it rests
/// on, its rate against the floor's and the cost of a shot there (engine time, its ratio to the
/// event engine's, and a program's wall time with its adapter); the event engine's own cost
/// last. The cells are the report's own ([`answer_cell`], [`cost_cell`]).
fn answer_table(wall: &[WallRow], answers: &[AnswerRow], table: &str) -> Result<String, FigError> {
    let mine: Vec<&AnswerRow> = answers.iter().filter(|a| a.table == table).collect();
    if mine.is_empty() {
        return Err(format!("outcome_answer.csv has no row on {table}").into());
    }
    let mut families: Vec<&str> = Vec::new();
    let mut engines: Vec<(&str, &str)> = Vec::new();
    for a in &mine {
        if !families.contains(&a.family.as_str()) {
            families.push(&a.family);
        }
        if !engines.contains(&(a.engine.as_str(), a.scheme.as_str())) {
            engines.push((&a.engine, &a.scheme));
        }
    }
    let mut out = family_header(&families);
    for (engine, scheme) in &engines {
        let cells: Vec<String> = families
            .iter()
            .map(|f| {
                mine.iter()
                    .find(|a| a.family == *f && a.engine == *engine && a.scheme == *scheme)
                    .map_or("–".into(), |a| {
                        let cost =
                            cost_cell(answer_wall(wall, a), reference_wall_s(wall, f, table));
                        answer_cell(a, &cost)
                    })
            })
            .collect();
        out.push_str(&format!(
            "| {} | {} |\n",
            engine_name(engine, scheme),
            cells.join(" | ")
        ));
    }
    let reference: Vec<String> = families
        .iter()
        .map(|f| duration(reference_wall_s(wall, f, table)))
        .collect();
    out.push_str(&format!(
        "| event engine (the reference) | {} |",
        reference.join(" | ")
    ));
    Ok(format!("\n{out}\n"))
}

/// The `what` column (`strike_many`, `simulate_many`, `loop`, `pooltool`) of the committed
/// Python batch run (`reports/example-python/batch.csv`): shots per second.
fn python_rate(run: &mut Run, what: &str) -> Result<String, FigError> {
    let file = "example-python/batch.csv";
    let rows = run.sibling("example-python", "batch.csv")?;
    need(rows, file, &["what", "shots_per_s"])?;
    let row =
        find_row(rows, &[("what", what)]).ok_or_else(|| format!("{file}: no row {what:?}"))?;
    Ok(rate(finite_cell(row, file, "shots_per_s")?))
}

/// A number of the committed stress run `name`'s summary line
/// (`reports/example-stress/<name>/stress/summary.txt`): `shots`, `events`, `failing`, `max`
/// (events in the longest shot).
fn stress_figure(run: &Run, name: &str, what: &str) -> Result<String, FigError> {
    let path = run
        .dir
        .with_file_name("example-stress")
        .join(name)
        .join("stress/summary.txt");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| FigError::Run(format!("{}: {e}", path.display())))?;
    let after = |marker: &str| {
        text.find(marker).and_then(|i| {
            text[i + marker.len()..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .map(str::to_string)
        })
    };
    let before = |marker: &str| {
        text.find(marker).map(|i| {
            let head = &text[..i];
            let digits: String = head
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect();
            digits.chars().rev().collect::<String>()
        })
    };
    let value = match what {
        "shots" => after("stress: "),
        "events" => before(" events"),
        "failing" => before(" failing shots"),
        "max" => after(" max "),
        _ => None,
    };
    let v = value
        .filter(|v| !v.is_empty())
        .ok_or_else(|| FigError::Run(format!("{}: no {what} in {text:?}", path.display())))?;
    let n: f64 = v.parse().map_err(|_| format!("{what} = {v:?}"))?;
    Ok(if what == "failing" { v } else { rate_exact(n) })
}

/// A figure of the committed `compare-pooltool` run (`reports/example-pooltool/compare.csv`)
/// at contact spacer `spacer` (as the CSV writes it, `1e-6`): `breaks`, `whole` (breaks whose
/// whole logs are shared: the prefix has no end and pooltool's run finished), `prefix`
/// (`min / median / max` events, the upper median as the summary takes it), `outside`
/// (breaks parted by pooltool's own handling outside its laws).
fn pooltool_figure(run: &mut Run, spacer: &str, what: &str) -> Result<String, FigError> {
    let file = "example-pooltool/compare.csv";
    let all = run.sibling("example-pooltool", "compare.csv")?;
    need(
        all,
        file,
        &[
            "spacer_m",
            "end",
            "pooltool_events",
            "pooltools_own",
            "shared_prefix",
        ],
    )?;
    let rows: Vec<&BTreeMap<String, String>> = all
        .iter()
        .filter(|r| matches(r, &[("spacer_m", spacer)]))
        .collect();
    if rows.is_empty() {
        return Err(format!("{file}: no break at spacer {spacer}").into());
    }
    let empty = |r: &BTreeMap<String, String>, c: &str| r.get(c).is_none_or(|v| v.is_empty());
    match what {
        "breaks" => Ok(rows.len().to_string()),
        "whole" => Ok(rows
            .iter()
            .filter(|r| empty(r, "end") && cell(r, "pooltool_events").parse::<u64>().is_ok())
            .count()
            .to_string()),
        "outside" => Ok(rows
            .iter()
            .filter(|r| !empty(r, "pooltools_own"))
            .count()
            .to_string()),
        "prefix" => {
            let mut lens = rows
                .iter()
                .map(|r| cell(r, "shared_prefix").parse::<u64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| FigError::Run(format!("{file}: shared_prefix: {e}")))?;
            lens.sort_unstable();
            Ok(format!(
                "{} / {} / {}",
                lens[0],
                lens[lens.len() / 2],
                lens[lens.len() - 1]
            ))
        }
        _ => Err(FigError::Doc(format!("unknown pooltool figure {what:?}"))),
    }
}

/// A whole number with thousands separators, every digit kept (`9,761,464`).
fn rate_exact(x: f64) -> String {
    let digits = format!("{x:.0}");
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The text of figure `key` of `run`.
///
/// # Errors
/// An unknown key, or a run without the files or rows it needs.
fn figure(key: &str, run: &mut Run) -> Result<String, FigError> {
    let parts: Vec<&str> = key.split(':').collect();
    match parts.as_slice() {
        // Shots and runs of the compare run (residuals.csv has one row per shot run).
        ["shots"] => Ok(run.info("shots")?.to_string()),
        ["runs"] => Ok(run.info("runs")?.to_string()),
        ["wall_s"] => Ok(format!("{:.0}", run.info_number("wall_time_s")?)),
        // The wall time of another committed compare run (`reports/<name>/run.json`), e.g. the
        // default run alone.
        ["wall_s", name] => {
            let mut other = Run::new(run.dir.with_file_name(name));
            Ok(format!("{:.0}", other.info_number("wall_time_s")?))
        }
        ["reference_events"] => {
            let rows = run.table("residuals.csv")?;
            let n: f64 = numbers(
                &rows.iter().collect::<Vec<_>>(),
                "residuals.csv",
                "n_events",
            )?
            .iter()
            .sum();
            Ok(format!(
                "{:.0}",
                finite(n, "residuals.csv", "n_events", "(their sum)")?
            ))
        }
        // A rate of outcomes.csv: family, table, engine, scheme, dt (or `none`), field.
        ["rate", family, table, engine, scheme, dt, field] => {
            let rows = run.table("outcomes.csv")?;
            need(
                rows,
                "outcomes.csv",
                &[
                    "family", "table", "engine", "scheme", "dt_s", "field", "rate",
                ],
            )?;
            let r = rows
                .iter()
                .find(|r| {
                    at_dt(r, dt)
                        && matches(
                            r,
                            &[
                                ("family", family),
                                ("table", table),
                                ("engine", engine),
                                ("scheme", scheme),
                                ("field", field),
                            ],
                        )
                })
                .ok_or_else(|| format!("outcomes.csv has no row {key}"))?;
            Ok(percent(finite_cell(r, "outcomes.csv", "rate")?))
        }
        ["variants"] => {
            let whole = |name: &str, v: serde_json::Value| {
                v.as_u64().ok_or_else(|| {
                    FigError::Run(format!("run.json: {name} = {v}: not a whole number"))
                })
            };
            let runs = whole("runs", run.info("runs")?)?;
            let shots = whole("shots", run.info("shots")?)?;
            Ok((runs - shots.min(runs)).to_string())
        }
        ["answer_table"] => answer_table(
            &run.rows(pool_harness::run_files::WALL_CSV)?,
            &run.rows("outcome_answer.csv")?,
            "seven_foot",
        ),
        ["answer_table", table] => answer_table(
            &run.rows(pool_harness::run_files::WALL_CSV)?,
            &run.rows("outcome_answer.csv")?,
            table,
        ),
        ["answer_table", table, sibling] => answer_table(
            &run.sibling_rows(sibling, pool_harness::run_files::WALL_CSV)?,
            &run.sibling_rows(sibling, "outcome_answer.csv")?,
            table,
        ),
        // How many answers carry a decided claim, of how many: `14 of 32`; of a kind of
        // engine (`all`, `schemes`: ours, `peers`: the field's engines besides pooltool).
        ["decided", kind] => decided(&run.rows("outcome_answer.csv")?, kind),
        ["decided", kind, sibling] => {
            decided(&run.sibling_rows(sibling, "outcome_answer.csv")?, kind)
        }
        // The chaos floor's rate of `outcome` disagreement on a family.
        ["floor", family, table] => floor_rate(run.table("outcomes.csv")?, family, table),
        ["floor", family, table, sibling] => {
            floor_rate(run.sibling(sibling, "outcomes.csv")?, family, table)
        }
        // The median fitted slope of a scheme over the shots under their own physics.
        ["median_slope", scheme] => {
            let rows = run.table("slopes.csv")?;
            need(
                rows,
                "slopes.csv",
                &["shot", "scheme", "engine", "points", "slope"],
            )?;
            let picked: Vec<&BTreeMap<String, String>> = rows
                .iter()
                .filter(|r| {
                    own(r)
                        && same_scheme(cell(r, "scheme"), scheme)
                        && cell(r, "engine") == "discrete"
                })
                .filter(|r| cell(r, "points").parse::<u32>().is_ok_and(|p| p >= 2))
                .collect();
            let m = median_of(numbers(&picked, "slopes.csv", "slope")?)
                .ok_or(format!("{key}: no slope"))?;
            Ok(format!("{m:.2}"))
        }
        // The median over own-physics shots of a scheme's median collision-time error at dt.
        ["median_error", scheme, dt] => {
            let rows = run.table("summary.csv")?;
            let column = "collision_time_error_median_s";
            need(rows, "summary.csv", &["shot", "scheme", "dt_s", column])?;
            let picked: Vec<&BTreeMap<String, String>> = rows
                .iter()
                .filter(|r| own(r) && same_scheme(cell(r, "scheme"), scheme) && at_dt(r, dt))
                .collect();
            let m = median_of(numbers(&picked, "summary.csv", column)?)
                .ok_or(format!("{key}: no finite error"))?;
            Ok(sci2(m))
        }
        // The share of one-step predictions that agree, own-physics shots.
        ["one_step", engine, scheme, dt] => {
            let rows = run.table("one_step.csv")?;
            need(
                rows,
                "one_step.csv",
                &["shot", "engine", "scheme", "dt_s", "agree"],
            )?;
            let picked: Vec<&BTreeMap<String, String>> = rows
                .iter()
                .filter(|r| {
                    own(r)
                        && cell(r, "engine") == *engine
                        && same_scheme(cell(r, "scheme"), scheme)
                        && at_dt(r, dt)
                })
                .collect();
            if picked.is_empty() {
                return Err(format!("one_step.csv has no row {key}").into());
            }
            let agree = picked.iter().filter(|r| cell(r, "agree") == "true").count();
            Ok(percent(agree as f64 / picked.len() as f64))
        }
        // The event engine's wall time on a shot.
        ["event_wall", shot] => {
            let rows = run.table("summary.csv")?;
            need(rows, "summary.csv", &["shot", "engine", "wall_time_s"])?;
            let r = rows
                .iter()
                .find(|r| cell(r, "shot") == *shot && cell(r, "engine") == "event")
                .ok_or_else(|| format!("summary.csv has no event row for {shot}"))?;
            Ok(duration(finite_cell(r, "summary.csv", "wall_time_s")?))
        }
        // The largest ball-ball or cushion residual of the event engine over every shot.
        ["max_residual", which] => {
            let column = match *which {
                "ball_ball" => "max_ball_ball_residual_m",
                "cushion" => "max_cushion_residual_m",
                _ => return Err(FigError::Doc(format!("{key}: ball_ball or cushion"))),
            };
            let rows = run.table("residuals.csv")?;
            let m = numbers(&rows.iter().collect::<Vec<_>>(), "residuals.csv", column)?
                .into_iter()
                .fold(0.0, f64::max);
            Ok(sci2(finite(m, "residuals.csv", column, "(their largest)")?))
        }
        ["py_rate", what] => python_rate(run, what),
        ["stress", name, what] => stress_figure(run, name, what),
        ["pooltool_breaks", spacer, what] => pooltool_figure(run, spacer, what),
        _ => Err(FigError::Doc(format!("unknown figure key {key:?}"))),
    }
}

/// Runs `cargo xtask figures`.
pub fn run(args: FiguresArgs) -> Result<(), CliError> {
    let root = crate::workspace::workspace_root()?;
    let files = if args.files.is_empty() {
        let mut f = vec![root.join("README.md")];
        let docs = root.join("docs");
        let mut more: Vec<PathBuf> = std::fs::read_dir(&docs)
            .map_err(|e| CliError::Input(format!("{}: {e}", docs.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        more.sort();
        f.extend(more);
        f
    } else {
        args.files.clone()
    };
    let run_dir = args
        .run
        .clone()
        .unwrap_or_else(|| root.join("reports/example"));
    if !run_dir.is_dir() {
        return Err(CliError::Input(format!(
            "--run {}: no such run directory",
            run_dir.display()
        )));
    }
    let mut run = Run::new(run_dir);
    let (mut checked, mut wrong, mut rewritten) = (0, Vec::new(), Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        let found = tags(&text).map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for tag in &found {
            let place = format!("{}:{}: fig:{}", file.display(), tag.line, tag.key);
            let want = match figure(&tag.key, &mut run) {
                Ok(w) if shows_non_finite(&w) => {
                    return Err(CliError::Run(format!(
                        "{place}: the run ({}) gives {w:?}, not a finite number; nothing written",
                        run.dir.display()
                    )))
                }
                Ok(w) => w,
                Err(FigError::Doc(e)) => return Err(CliError::Input(format!("{place}: {e}"))),
                Err(FigError::Run(e)) => {
                    return Err(CliError::Run(format!(
                        "{place}: {e} (in the run {}); nothing written",
                        run.dir.display()
                    )))
                }
            };
            let have = &text[tag.text.clone()];
            checked += 1;
            if have != want {
                wrong.push(format!(
                    "{}:{}: fig:{} reads {have:?}, the run ({}) says {want:?}",
                    display(file, &root),
                    tag.line,
                    tag.key,
                    display(&run.dir, &root)
                ));
            }
            out.push_str(&text[at..tag.text.start]);
            out.push_str(&want);
            at = tag.text.end;
        }
        out.push_str(&text[at..]);
        if out != text {
            rewritten.push((file, out));
        }
    }
    // Every figure is computed before any file is written: a run that cannot give one leaves
    // every document as it was.
    if args.write {
        for (file, out) in &rewritten {
            crate::output::write_file_atomically(file, out.as_bytes())?;
        }
    }
    for w in &wrong {
        outln!("{w}")?;
    }
    if args.write {
        outln!("figures: {checked} figures, {} rewritten", wrong.len())?;
        return Ok(());
    }
    if !wrong.is_empty() {
        return Err(CliError::Run(format!(
            "{} of {checked} figures differ from their run (`cargo xtask figures --write` \
             rewrites them after the run is regenerated)",
            wrong.len()
        )));
    }
    outln!("figures: {checked} figures match their run")?;
    Ok(())
}

/// `path` relative to the workspace when it is inside it.
fn display(path: &Path, root: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_the_docs_write_them() {
        assert_eq!(rate(18_234.6), "18,000");
        assert_eq!(rate(5_741.0), "5,700");
        assert_eq!(rate(14.2), "14");
        assert_eq!(rate(987.0), "987");
        assert_eq!(rate_exact(9_761_464.0), "9,761,464");
        assert_eq!(percent(0.862), "86 %");
        assert_eq!(percent(0.004), "0.4 %");
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(sci2(1.44e-11), "1.4e-11");
    }

    #[test]
    fn tags_are_found_with_their_lines_and_refused_when_broken() {
        let text = "a\n<!--fig:shots-->13<!--/fig--> b <!--fig:x:y-->1.0\n2<!--/fig-->\n";
        let t = tags(text).unwrap();
        assert_eq!(t.len(), 2);
        assert_eq!(
            (t[0].key.as_str(), &text[t[0].text.clone()], t[0].line),
            ("shots", "13", 2)
        );
        assert_eq!(
            (t[1].key.as_str(), &text[t[1].text.clone()]),
            ("x:y", "1.0\n2")
        );
        assert!(tags("<!--fig:a-->1").unwrap_err().contains("not closed"));
        assert!(tags("<!--fig:A B-->1<!--/fig-->")
            .unwrap_err()
            .contains("fig key"));
        let nested = tags("<!--fig:a-->1\n<!--fig:b-->2<!--/fig--><!--/fig-->").unwrap_err();
        assert!(
            nested.contains("line 2: a fig tag inside the text of fig:a"),
            "{nested}"
        );
    }
}
