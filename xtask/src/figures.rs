//! `cargo xtask figures`: every figure README.md and docs/ quote comes from a committed run
//! (`reports/example/`). A figure is written `<!--fig:KEY-->TEXT<!--/fig-->` (the tags do not
//! render); this command computes KEY's text from the run's files and checks it is TEXT, or
//! writes it there (`--write`). A test runs the check, so a figure that no longer matches its
//! run fails CI.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
/// A tag that is not closed, or a key with characters other than `[a-z0-9_:.@-]`.
fn tags(text: &str) -> Result<Vec<Tag>, String> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(i) = text[at..].find(OPEN) {
        let start = at + i;
        let line = text[..start].matches('\n').count() + 1;
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
        out.push(Tag {
            key: key.to_string(),
            text: body..end,
            line,
        });
        at = end + CLOSE.len();
    }
    Ok(out)
}

/// A committed run's files, read once each when a figure asks for them.
struct Run {
    dir: PathBuf,
    tables: BTreeMap<String, Vec<BTreeMap<String, String>>>,
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
    fn table(&mut self, file: &str) -> Result<&[BTreeMap<String, String>], String> {
        if !self.tables.contains_key(file) {
            let path = self.dir.join(file);
            let mut reader =
                csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let rows = reader
                .deserialize::<BTreeMap<String, String>>()
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| format!("{}: {e}", path.display()))?;
            self.tables.insert(file.to_string(), rows);
        }
        Ok(&self.tables[file])
    }

    /// `run.json`'s field `name`.
    fn info(&mut self, name: &str) -> Result<serde_json::Value, String> {
        if self.json.is_none() {
            let path = self.dir.join("run.json");
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            self.json =
                Some(serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?);
        }
        self.json
            .as_ref()
            .and_then(|j| j.get(name))
            .cloned()
            .ok_or_else(|| format!("run.json has no {name:?}"))
    }
}

/// A column of rows as numbers.
fn numbers(rows: &[&BTreeMap<String, String>], column: &str) -> Result<Vec<f64>, String> {
    rows.iter()
        .map(|r| {
            let v = r
                .get(column)
                .ok_or_else(|| format!("no column {column:?}"))?;
            if v.is_empty() {
                Ok(f64::NAN)
            } else {
                v.parse::<f64>()
                    .map_err(|_| format!("{column} = {v:?}: not a number"))
            }
        })
        .collect()
}

/// `x` with two significant digits in scientific notation (`1.4e-11`).
fn sci2(x: f64) -> String {
    format!("{x:.1e}")
}

/// The text of figure `key` of `run`.
///
/// # Errors
/// An unknown key, or a run without the files or rows it needs.
fn figure(key: &str, run: &mut Run) -> Result<String, String> {
    let parts: Vec<&str> = key.split(':').collect();
    match parts.as_slice() {
        // Shots and runs of the compare run (residuals.csv has one row per shot run).
        ["shots"] => Ok(run.info("shots")?.to_string()),
        ["runs"] => Ok(run.info("runs")?.to_string()),
        ["wall_s"] => {
            let w = run.info("wall_time_s")?.as_f64().unwrap_or(f64::NAN);
            Ok(format!("{w:.0}"))
        }
        ["reference_events"] => {
            let rows = run.table("residuals.csv")?;
            let n: f64 = numbers(&rows.iter().collect::<Vec<_>>(), "n_events")?
                .iter()
                .sum();
            Ok(format!("{n:.0}"))
        }
        // The outcome study's answer for a family, table and scheme: `≤ 2e-4 s`.
        ["answer", family, table, engine, scheme] => {
            let rows = run.table("outcome_answer.csv")?;
            let a = rows
                .iter()
                .find(|r| {
                    r["family"] == *family
                        && r["table"] == *table
                        && r["engine"] == *engine
                        && r["scheme"] == *scheme
                })
                .ok_or_else(|| {
                    format!("outcome_answer.csv has no {family} {table} {engine} {scheme}")
                })?;
            Ok(match a["largest_dt_s"].parse::<f64>() {
                Ok(dt) => format!("≤ {dt:.0e} s"),
                Err(_) => a["verdict"].clone(),
            })
        }
        // A rate of outcomes.csv: family, table, engine, scheme, dt (or `-`), field.
        ["rate", family, table, engine, scheme, dt, field] => {
            let rows = run.table("outcomes.csv")?;
            let r = rows
                .iter()
                .find(|r| {
                    r["family"] == *family
                        && r["table"] == *table
                        && r["engine"] == *engine
                        && r["scheme"] == *scheme
                        && r["field"] == *field
                        && (if *dt == "-" {
                            r["dt_s"].is_empty()
                        } else {
                            r["dt_s"].parse::<f64>().ok() == dt.parse::<f64>().ok()
                        })
                })
                .ok_or_else(|| format!("outcomes.csv has no row {key}"))?;
            let rate: f64 = r["rate"].parse().map_err(|_| format!("{key}: rate"))?;
            Ok(format!("{:.0} %", 100.0 * rate))
        }
        ["median", file, column, filter @ ..] => {
            let rows = run.table(file)?;
            let picked: Vec<&BTreeMap<String, String>> = rows
                .iter()
                .filter(|r| {
                    filter.iter().all(|f| match f.split_once('=') {
                        Some((c, v)) => r.get(c).is_some_and(|x| x == v),
                        None => false,
                    })
                })
                .collect();
            let mut xs: Vec<f64> = numbers(&picked, column)?
                .into_iter()
                .filter(|x| x.is_finite())
                .collect();
            if xs.is_empty() {
                return Err(format!("{key}: no finite value"));
            }
            xs.sort_by(f64::total_cmp);
            Ok(sci2(xs[xs.len() / 2]))
        }
        _ => Err(format!("unknown figure key {key:?}")),
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
    let mut run = Run::new(
        args.run
            .clone()
            .unwrap_or_else(|| root.join("reports/example")),
    );
    let (mut checked, mut wrong) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file)
            .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        let found = tags(&text).map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for tag in &found {
            let want = figure(&tag.key, &mut run).map_err(|e| {
                CliError::Input(format!(
                    "{}:{}: fig:{}: {e}",
                    file.display(),
                    tag.line,
                    tag.key
                ))
            })?;
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
        if args.write && out != text {
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
    }
}
