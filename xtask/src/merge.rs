//! `cargo xtask merge`: the run directories of a sharded `stress` or `sweep` (`--shard K/N`)
//! joined into the files the unsharded run writes, byte for byte: the shards' rows in shard
//! order under one header, the failing shots' files, and the summary tallied again from the
//! rows.
//!
//! Nothing a shard's files say is taken on trust: each shard's rows must be exactly the jobs of
//! its range, in order (a seeded stress run's seeds, a sweep's points, an outcome study's
//! shots of each family with every run of the plan), else the merge stops with exit 2 naming
//! the shard's file and its first bad row, before anything is written.

use std::path::{Path, PathBuf};

use pool_harness::{StressTally, SweepTally};

use crate::console::outln;
use crate::shard::{in_order, Manifest};
use crate::CliError;

/// Options of `cargo xtask merge`.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The shards' run directories (each holding stress/, sweep/ or outcomes/shard.json), in
    /// any order; every shard of the run (or, with --look, of the look) exactly once
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Play K shots of each outcomes shard again (chosen by a generator seeded by the shard's
    /// place, the same every time), with its manifest's engines and options, and refuse a
    /// shard whose rows differ (exit 2, naming the shard, the shot and the field); 0 to 1000
    #[arg(long, value_name = "K", default_value_t = 0)]
    pub verify: u64,
    /// With --verify (or --look's replays): start the program engine `exec:COMMAND` a shard's manifest names,
    /// COMMAND exactly as written there; repeat for each. A shard is data: without this, a
    /// program it names is never started (exit 2, naming it)
    #[arg(long, value_name = "COMMAND")]
    pub allow_exec: Vec<String>,
    /// Merge look K of a sequential outcome study (`outcomes --look K --shard i/N`): the
    /// directory written holds every file the one-process `outcomes` writes had it stopped
    /// after look K, and the state the next look resumes from (outcomes/looks.json); it
    /// prints the cells that continue and the next look's commands, or that the study is
    /// finished
    #[arg(long, value_name = "K")]
    pub look: Option<u32>,
    /// With --look K > 1: the run directory `merge --look K-1` wrote (the shards must have
    /// resumed from it)
    #[arg(long, value_name = "DIR")]
    pub resume: Option<PathBuf>,
    /// Worker threads of --verify (and of merge --look's replays), 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
}

/// Most shots `--verify` plays again per shard.
const MAX_VERIFY: u64 = 1000;

/// A shard's table: its header and its rows, as text.
fn read_table(dir: &Path, file: &str) -> Result<(String, String), CliError> {
    let path = dir.join(file);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| CliError::Input(format!("{}: {e}", path.display())))?;
    let (header, rows) = text.split_once('\n').unwrap_or((text.as_str(), ""));
    Ok((header.to_string(), rows.to_string()))
}

/// Appends shard `dir`'s `table` to `out`: its header first when `header0` is not set yet
/// (then set), and its rows; returns its header and rows.
///
/// # Errors
/// An unreadable file, or columns other than the first shard's (exit 2); a write error
/// (exit 1).
fn append_table(
    out: &mut impl std::io::Write,
    header0: &mut Option<String>,
    dir: &Path,
    table: &str,
) -> Result<(String, String), CliError> {
    let (header, rows) = read_table(dir, table)?;
    let write_err = |e: std::io::Error| CliError::Run(format!("writing {table}: {e}"));
    match header0 {
        None => {
            writeln!(out, "{header}").map_err(write_err)?;
            *header0 = Some(header.clone());
        }
        Some(h) if *h != header => {
            return Err(CliError::Input(format!(
                "{}: its columns differ from the first shard's",
                dir.join(table).display()
            )))
        }
        Some(_) => {}
    }
    out.write_all(rows.as_bytes()).map_err(write_err)?;
    Ok((header, rows))
}

/// The rows a shard must hold, checked one by one as they are read: the keys of its range in
/// order (`expected`), or, when the manifest cannot give them (a `--replay` run, whose files
/// may be gone where the shards are merged), `hi - lo` keys each above the last one read, in
/// this shard or the one before (the files' sorted names).
struct Coverage<'a> {
    file: &'a Path,
    lo: u64,
    hi: u64,
    expected: Option<Box<dyn Iterator<Item = String> + 'a>>,
    rows: u64,
    last: &'a mut Option<String>,
}

impl<'a> Coverage<'a> {
    fn new(
        file: &'a Path,
        m: &Manifest,
        expected: Option<Box<dyn Iterator<Item = String> + 'a>>,
        last: &'a mut Option<String>,
    ) -> Self {
        Coverage {
            file,
            lo: m.lo,
            hi: m.hi,
            expected,
            rows: 0,
            last,
        }
    }

    fn bad(&self, why: String) -> CliError {
        CliError::Input(format!(
            "{}: {why} (shard of jobs {}..{}: its rows must be exactly its range, in order; a \
             row missing, duplicated or from another shard)",
            self.file.display(),
            self.lo,
            self.hi
        ))
    }

    /// The next row's key.
    fn row(&mut self, key: String) -> Result<(), CliError> {
        self.rows += 1;
        let n = self.rows;
        match &mut self.expected {
            Some(expected) => match expected.next() {
                Some(want) if want == key => Ok(()),
                Some(want) => Err(self.bad(format!("row {n} is {key}, expected {want}"))),
                None => Err(self.bad(format!("row {n} is {key}, past the shard's last job"))),
            },
            None => {
                if n > self.hi - self.lo {
                    return Err(self.bad(format!("row {n} is {key}, past the shard's last job")));
                }
                if let Some(last) = self.last.as_ref().filter(|l| key <= **l) {
                    return Err(self.bad(format!(
                        "row {n} is {key}, not after {last} (the files run in name order, each \
                         once)"
                    )));
                }
                *self.last = Some(key);
                Ok(())
            }
        }
    }

    /// After the last row: none of the range is missing.
    fn end(mut self) -> Result<(), CliError> {
        let n = self.rows;
        let missing = match &mut self.expected {
            Some(expected) => expected.next(),
            None => (n < self.hi - self.lo).then(|| format!("job {}", self.lo + n)),
        };
        match missing {
            None => Ok(()),
            Some(want) if n == 0 => {
                Err(self.bad(format!("no rows (a header only), expected {want} first")))
            }
            Some(want) => Err(self.bad(format!("{n} rows, then {want} is missing"))),
        }
    }
}

/// The column `name` of a CSV header.
fn column(header: &str, name: &str, file: &Path) -> Result<usize, CliError> {
    header
        .split(',')
        .position(|c| c == name)
        .ok_or_else(|| CliError::Input(format!("{}: no column {name:?}", file.display())))
}

/// Runs `cargo xtask merge`.
pub fn run(args: MergeArgs) -> Result<(), CliError> {
    if let Some(look) = args.look {
        if args.verify > 0 {
            return Err(CliError::Input(format!(
                "--verify {} with --look: a look's shards are checked against the state they \
                 resumed from and the units it gives; --verify plays one-look shards again",
                args.verify
            )));
        }
        return crate::looks::merge(&crate::looks::LookMerge {
            look,
            dirs: &args.dirs,
            resume: args.resume.as_deref(),
            allow_exec: &args.allow_exec,
            jobs: args.jobs,
            run: &args.run,
        });
    }
    if let Some(dir) = &args.resume {
        return Err(CliError::Input(format!(
            "--resume {}: only with --look K (the merged look K-1 a look's shards resumed from)",
            dir.display()
        )));
    }
    let shards = args
        .dirs
        .iter()
        .map(|d| Manifest::read(d).map(|m| (m, d.clone())))
        .collect::<Result<Vec<_>, _>>()?;
    let shards = in_order(shards)?;
    let command = shards[0].0.command.clone();
    crate::args::in_range("--verify", args.verify, 0, MAX_VERIFY)?;
    if command == "outcomes" {
        return merge_outcomes(&args, &shards);
    }
    if args.verify > 0 {
        return Err(CliError::Input(format!(
            "--verify {}: only the shards of an outcomes study are played again; these are \
             {command} shards",
            args.verify
        )));
    }
    let engine = shards[0].0.engine.clone();
    let (table, summary_file) = match command.as_str() {
        "stress" => ("stress/shots.csv", "stress/summary.txt"),
        _ => ("sweep/rows.csv", "sweep/summary.txt"),
    };
    let staging = args.run.stage(&format!("{command}-merged"))?;
    let mut out = std::io::BufWriter::new(staging.create(table)?);
    let mut header0: Option<String> = None;
    let mut stress = StressTally::default();
    let mut sweep = SweepTally::default();
    let write_err = |e: std::io::Error| CliError::Run(format!("writing {table}: {e}"));
    let mut last_label = None;
    for (m, dir) in &shards {
        let (header, rows) = append_table(&mut out, &mut header0, dir, table)?;
        let file = dir.join(table);
        let expected: Option<Box<dyn Iterator<Item = String>>> = if command == "stress" {
            crate::stress::shard_shots(m)?.map(|it| {
                Box::new(it.map(|s| format!("shot {s}"))) as Box<dyn Iterator<Item = String>>
            })
        } else {
            Some(Box::new((m.lo..m.hi).map(|k| format!("point {k}"))))
        };
        let mut coverage = Coverage::new(&file, m, expected, &mut last_label);
        // Tally the rows again, as the unsharded run tallied them while it ran.
        // With its header, so that a row of another length is an error, not a panic.
        let mut reader = csv::Reader::from_reader(std::io::Read::chain(
            std::io::Read::chain(header.as_bytes(), &b"\n"[..]),
            rows.as_bytes(),
        ));
        let bad_row = |e: csv::Error| CliError::Input(format!("{}: {e}", file.display()));
        if command == "stress" {
            let (kind, events, failures) = (
                column(&header, "kind", &file)?,
                column(&header, "events", &file)?,
                column(&header, "failures", &file)?,
            );
            let (shot, name) = (
                column(&header, "shot", &file)?,
                column(&header, "name", &file)?,
            );
            // The shots that failed: each may have its file in failures/, and only they.
            let mut failing: std::collections::BTreeSet<String> = Default::default();
            let replayed = m.options.iter().any(|(k, _)| k == "--replay");
            for rec in reader.records() {
                let rec = rec.map_err(bad_row)?;
                coverage.row(format!("shot {}", &rec[shot]))?;
                // The kind is the seed's (a generated shot) and the name's (a replayed one).
                let of_seed = (!replayed)
                    .then(|| {
                        rec[shot]
                            .parse::<u64>()
                            .ok()
                            .map(pool_harness::ScenarioKind::of_seed)
                    })
                    .flatten();
                let of_name = pool_harness::ScenarioKind::from_shot_name(&rec[name]);
                let expected = if replayed { of_name } else { of_seed };
                if expected.is_none_or(|k| k.name() != &rec[kind])
                    || of_name.is_some_and(|k| k.name() != &rec[kind])
                {
                    return Err(CliError::Input(format!(
                        "{}: shot {}: field kind = {:?}, but its {} makes it {}; nothing merged",
                        file.display(),
                        &rec[shot],
                        pool_exec::escape_bytes(rec[kind].as_bytes()),
                        if replayed { "name" } else { "seed" },
                        expected.map_or("no kind", |k| k.name())
                    )));
                }
                if !rec[failures].is_empty() {
                    failing.insert(format!("{}.toml", &rec[name]));
                }
                let n: usize = rec[events].parse().map_err(|_| {
                    CliError::Input(format!("{}: events = {:?}", file.display(), &rec[events]))
                })?;
                let broken: Vec<&str> =
                    rec[failures].split(';').filter(|b| !b.is_empty()).collect();
                stress.add(&rec[kind], n, &broken);
            }
            coverage.end()?;
            // The failing shots' files: one per shot, named by the shot, each there.
            let failures_dir = dir.join("stress/failures");
            if let Some(missing) = failing
                .iter()
                .find(|n| !pool_report::files::exists(&failures_dir.join(n.as_str())))
            {
                return Err(CliError::Input(format!(
                    "{}: a failing shot's file {} is missing (every failing shot writes \
                     failures/<shot>.toml); nothing merged",
                    file.display(),
                    failures_dir.join(missing).display()
                )));
            }
            if failures_dir.is_dir() {
                let mut files: Vec<PathBuf> = std::fs::read_dir(&failures_dir)
                    .map_err(|e| CliError::Input(format!("{}: {e}", failures_dir.display())))?
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .collect();
                files.sort();
                for f in files {
                    let name = f
                        .file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    if !failing.contains(&name) {
                        return Err(CliError::Input(format!(
                            "{}: not the file of a failing shot of {} (a failing shot's file is \
                             failures/<shot>.toml); nothing merged",
                            f.display(),
                            file.display()
                        )));
                    }
                    // A regular file of a shot file's size at most: never a link, never a FIFO.
                    let bytes = pool_report::files::read_capped(&f, pool_shots::MAX_FILE_BYTES)
                        .map_err(|e| CliError::Input(format!("{}: {e}", f.display())))?;
                    staging.write(&format!("stress/failures/{name}"), &bytes)?;
                }
            }
        } else {
            let (events, termination) = (
                column(&header, "events", &file)?,
                column(&header, "termination", &file)?,
            );
            let point = column(&header, "point", &file)?;
            for rec in reader.records() {
                let rec = rec.map_err(bad_row)?;
                coverage.row(format!("point {}", &rec[point]))?;
                let n: u64 = rec[events].parse().map_err(|_| {
                    CliError::Input(format!("{}: events = {:?}", file.display(), &rec[events]))
                })?;
                sweep.add(n, &rec[termination]);
            }
            coverage.end()?;
        }
    }
    {
        use std::io::Write;
        out.flush().map_err(write_err)?;
    }
    drop(out);
    let summary = if command == "stress" {
        stress.summary(&engine)
    } else {
        sweep.summary(&engine)
    };
    staging.write(summary_file, format!("{summary}\n").as_bytes())?;
    let dir = staging.commit()?;
    outln!(
        "merged {} shards: {summary} -> {}",
        shards.len(),
        dir.display()
    )?;
    let failing = if command == "stress" {
        stress.failing
    } else {
        sweep.unphysical()
    };
    if failing > 0 {
        return Err(CliError::Run(format!(
            "{failing} {} (see {})",
            if command == "stress" {
                "failing shots"
            } else {
                "points did not end physically"
            },
            dir.join(table).display()
        )));
    }
    Ok(())
}

/// The rows an `outcomes` shard must hold, in order, from its manifest: for each job of its
/// range (family `job / shots`, shot `job % shots`), the reference's, the floor's and each
/// engine's.
///
/// # Errors
/// A manifest whose families, tables or shot count do not read (exit 2).
fn outcome_keys(m: &Manifest) -> Result<Box<dyn Iterator<Item = String>>, CliError> {
    let option = |name: &str| -> Result<String, CliError> {
        m.options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                CliError::Input(format!(
                    "outcomes shard {}/{}: the manifest has no {name}",
                    m.k, m.n
                ))
            })
    };
    let list = |v: String| -> Vec<String> {
        v.split(',')
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect()
    };
    let families = list(option("--outcome-families")?);
    let tables = list(option("--outcome-tables")?);
    let shots_text = option("--outcome-shots")?;
    let shots: u64 = shots_text.parse().unwrap_or(0);
    if shots == 0
        || families.len() != tables.len()
        || families.len() as u64 * shots != m.total
        || m.hi > m.total
    {
        return Err(CliError::Input(format!(
            "outcomes shard {}/{}: manifest --outcome-families, --outcome-tables and \
             --outcome-shots = {shots_text:?} do not make its {} jobs",
            m.k, m.n, m.total
        )));
    }
    let mut runs = vec![
        pool_outcome::REFERENCE.to_string(),
        pool_outcome::FLOOR.to_string(),
    ];
    runs.extend(list(option("--engines")?));
    Ok(Box::new((m.lo..m.hi).flat_map(move |job| {
        let f = (job / shots) as usize;
        let (family, table) = (families[f].clone(), tables[f].clone());
        let k = job % shots;
        runs.clone()
            .into_iter()
            .map(move |run| format!("{family} on {table} shot {k} ({run})"))
    })))
}

/// Merges the shards of an `outcomes` run: `outcomes/shots.csv` concatenated in shard order,
/// the tables and plot tallied again from its rows, the wall times summed.
fn merge_outcomes(args: &MergeArgs, shards: &[(Manifest, PathBuf)]) -> Result<(), CliError> {
    use std::io::Write;
    let table = pool_harness::run_files::SHOTS_CSV;
    let staging = args.run.stage("outcomes-merged")?;
    let write_err = |e: std::io::Error| CliError::Run(format!("writing {table}: {e}"));
    let mut out = std::io::BufWriter::new(staging.create(table)?);
    let mut header0: Option<String> = None;
    // The plan the shards were cut from: the same levels (the ladder's rungs) as the
    // one-process run's.
    let source = format!("{}", shards[0].1.join("manifest.json").display());
    let plan = crate::study::plan_of_manifest(&shards[0].0.options, &source)?;
    let mut tally = pool_outcome::OutcomeTally::new(plan.levels());
    let mut wall: Vec<pool_outcome::WallRow> = Vec::new();
    let (mut failed, mut declined, mut failures) = (0u64, Vec::new(), Vec::new());
    let mut no_last = None;
    let verify = match args.verify {
        0 => None,
        _ => Some(Verify::new(args, &shards[0])?),
    };
    for (m, dir) in shards {
        let (header, rows) = append_table(&mut out, &mut header0, dir, table)?;
        let file = dir.join(table);
        let text = format!("{header}\n{rows}");
        let mut coverage = Coverage::new(&file, m, Some(outcome_keys(m)?), &mut no_last);
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let columns =
            ["family", "table", "index", "run", "shot"].map(|c| column(&header, c, &file));
        let [family, on, index, run, shot] = columns;
        let (family, on, index, run, shot) = (family?, on?, index?, run?, shot?);
        let seed = outcome_seed(m)?;
        for rec in reader.records() {
            let rec = rec.map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
            coverage.row(format!(
                "{} on {} shot {} ({})",
                &rec[family], &rec[on], &rec[index], &rec[run]
            ))?;
            check_shot_name(&rec, [family, on, index, shot], seed, &file)?;
        }
        coverage.end()?;
        if let Some(v) = &verify {
            v.shard(m, &file, &text)?;
        }
        // The rows are data: each checked against its shot and its reference's row, and the
        // shard's wall times against the rows they time, before anything counts.
        let rows: Vec<pool_outcome::OutcomeShotRow> = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        plan.check_rows(&rows, &[])
            .map_err(|e| CliError::Input(format!("{}: {e}; nothing merged", file.display())))?;
        let wall_file = dir.join(pool_harness::run_files::WALL_CSV);
        let wall_text =
            pool_report::files::read_capped(&wall_file, pool_report::files::MAX_CSV_BYTES)
                .map_err(|e| CliError::Input(format!("{}: {e}", wall_file.display())))?;
        let shard_wall: Vec<pool_outcome::WallRow> = csv::Reader::from_reader(wall_text.as_slice())
            .deserialize()
            .collect::<Result<_, _>>()
            .map_err(|e| CliError::Input(format!("{}: {e}", wall_file.display())))?;
        pool_outcome::check_wall(&shard_wall, &rows).map_err(|e| {
            CliError::Input(format!("{}: {e}; nothing merged", wall_file.display()))
        })?;
        let failed_rows = pool_outcome::tally_shot_rows(&mut tally, rows.into_iter().map(Ok))
            .map_err(CliError::Input)?;
        for row in failed_rows {
            match row.failure.as_ref() {
                None => {}
                Some(pool_outcome::Failure::Declined(reason)) => {
                    pool_report::compare::Decline::note(&mut declined, row.run.as_str(), reason);
                }
                Some(pool_outcome::Failure::Failed(message)) => {
                    failed += 1;
                    if failures.len() < 10 {
                        failures.push(format!("{} on {}: {message}", row.run, row.shot));
                    }
                }
            }
        }
        for w in shard_wall {
            crate::shard::check_times(&w, &wall_file)?;
            match wall
                .iter_mut()
                .find(|x| (&x.family, &x.table, &x.run) == (&w.family, &w.table, &w.run))
            {
                Some(x) => x.absorb(&w),
                None => wall.push(w),
            }
        }
    }
    out.flush().map_err(write_err)?;
    drop(out);
    let options = shards[0]
        .0
        .options
        .iter()
        .map(|(k, v)| format!("`{k} {v}`"))
        .collect::<Vec<_>>()
        .join(" ");
    let option = |name: &str| -> Result<String, CliError> {
        shards[0]
            .0
            .options
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                CliError::Input(format!(
                    "{}: the shard's manifest has no {name} (made by an older version?)",
                    shards[0].1.display()
                ))
            })
    };
    let number = |name: &str| -> Result<f64, CliError> {
        let v = option(name)?;
        v.parse::<f64>().map_err(|_| {
            CliError::Input(format!(
                "{}: manifest {name} = {v:?}: not a number",
                shards[0].1.display()
            ))
        })
    };
    let margins = pool_outcome::Margins {
        rate: number("--margin-rate")?,
        balls: number("--margin-balls")?,
        position_m: number("--margin-position")?,
        floor: number("--margin-floor")?,
        floor_relative: number("--margin-floor-relative")?,
    };
    margins.validate().map_err(|e| {
        CliError::Input(format!(
            "{}: manifest {:?} = {}: must be in {}",
            shards[0].1.display(),
            e.margin,
            e.value,
            e.range
        ))
    })?;
    let seed_text = option("--outcome-seed")?;
    let seed = seed_text.parse::<u64>().map_err(|_| {
        CliError::Input(format!(
            "{}: manifest --outcome-seed = {seed_text:?}: not a seed",
            shards[0].1.display()
        ))
    })?;
    let mut study = pool_report::compare::OutcomeStudy::new(
        &tally,
        &wall,
        vec![format!(
            "Merged from {} shards of one run with options {options}.",
            shards.len()
        )],
        &margins,
        (&plan.search, &plan.ladder),
        seed,
    );
    study.failed = failed;
    study.failures = failures;
    study.declined = declined;
    // The one plan the shards were cut from, as the one-process run reports it.
    crate::study::name_plan(&mut study, &plan);
    let mut chaos = Vec::new();
    for (_, dir) in shards {
        let file = dir.join("chaos.csv");
        let text = std::fs::read(&file)
            .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        for row in csv::Reader::from_reader(text.as_slice()).deserialize::<pool_outcome::ChaosRow>()
        {
            chaos.push(row.map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?);
        }
    }
    study.chaos = pool_outcome::merge_chaos(chaos);
    study.floor_m = number("--perturb-position")?;
    for w in study.floor_warnings() {
        crate::console::errln!("merge: {w}");
    }
    crate::study::write_study(&staging, &study, &wall)?;
    let shard_wall: f64 = wall.iter().map(|w| w.wall_s).sum();
    staging.write(
        "report.md",
        crate::study::study_report(
            &study,
            &format!("{shard_wall:.1} s of runs summed over the shards"),
        )
        .as_bytes(),
    )?;
    let page = crate::html::stage_page(&staging)?;
    let dir = staging.commit()?;
    outln!("merged {} shards -> {}", shards.len(), dir.display())?;
    for line in study.console_lines() {
        outln!("{line}")?;
    }
    outln!("{}", page(&dir))?;
    if failed > 0 {
        return Err(CliError::Run(format!(
            "{failed} engine run(s) failed (see {})",
            dir.join(table).display()
        )));
    }
    Ok(())
}

/// A shard's `--outcome-seed`.
///
/// # Errors
/// None, or not a seed (exit 2).
fn outcome_seed(m: &Manifest) -> Result<u64, CliError> {
    let v = m
        .options
        .iter()
        .find(|(k, _)| k == "--outcome-seed")
        .map(|(_, v)| v.as_str());
    v.and_then(|v| v.parse().ok()).ok_or_else(|| {
        CliError::Input(format!(
            "outcomes shard {}/{}: manifest --outcome-seed = {:?}: not a seed",
            m.k,
            m.n,
            v.unwrap_or("(none)")
        ))
    })
}

/// A row's shot is the one its family, table and index make under the manifest's seed: its
/// name holds the shot's seed (`cut_<seed>`, `break_9ball_random_<seed>_floor`:
/// [`pool_outcome::FamilyKind::shot_seed`]), so a manifest whose seed was edited does not pass
/// for the run that made the rows.
///
/// # Errors
/// Another seed, or an unknown family or index (exit 2, naming the file, the row and field).
fn check_shot_name(
    rec: &csv::StringRecord,
    [family, table, index, shot]: [usize; 4],
    seed: u64,
    file: &Path,
) -> Result<(), CliError> {
    shot_names_its_seed(&rec[family], &rec[table], &rec[index], &rec[shot], seed).map_err(|why| {
        CliError::Input(format!(
            "{}: {why}, but --outcome-seed {seed} of the shard's manifest makes it: the \
                 manifest is not the one these rows were made with; nothing merged",
            file.display()
        ))
    })
}

/// Whether `shot` is a name of shot `index` of family `family` on `table` under the study's
/// `seed`: it holds that shot's seed as one of its `_`-separated parts.
///
/// # Errors
/// The phrase `<family> on <table> shot <index>: field shot = <name>, not the shot of seed
/// <s>` (or "no such shot").
pub(crate) fn shot_names_its_seed(
    family: &str,
    table: &str,
    index: &str,
    shot: &str,
    seed: u64,
) -> Result<(), String> {
    let Some(kind) = pool_outcome::FamilyKind::from_name(family) else {
        return Err(format!(
            "field family = {:?}: not a family",
            pool_exec::escape_bytes(family.as_bytes())
        ));
    };
    let expected = (index.parse::<u64>().ok()).map(|k| kind.shot_seed(table, seed, k).to_string());
    if let Some(e) = &expected {
        if shot.split('_').any(|part| part == e) {
            return Ok(());
        }
    }
    Err(format!(
        "{family} on {table} shot {index}: field shot = {:?}, not {}",
        pool_exec::escape_bytes(shot.as_bytes()),
        expected.map_or_else(
            || "a shot of the study".to_string(),
            |e| format!("the shot of seed {e}")
        )
    ))
}

/// `merge --verify`: the study the shards' manifests record, and the worker threads.
struct Verify {
    plan: pool_outcome::StudyPlan,
    count: u64,
    pool: rayon::ThreadPool,
}

impl Verify {
    /// The plan of the shards (all of one run: `in_order` checked it), its programs allowed.
    ///
    /// # Errors
    /// A manifest that does not make a plan, or a program not named with `--allow-exec`
    /// (exit 2).
    fn new(args: &MergeArgs, (m, dir): &(Manifest, PathBuf)) -> Result<Self, CliError> {
        let source = dir.join("outcomes").join(crate::shard::MANIFEST);
        let source = source.display().to_string();
        let mut plan = crate::study::plan_of_manifest(&m.options, &source)?;
        if let Some(why) = plan.reference.unavailable() {
            return Err(CliError::Input(format!(
                "{source}: the reference {} cannot run here ({why}): --verify plays it again; \
                 nothing merged",
                plan.reference
            )));
        }
        for (k, spec) in std::iter::once(&plan.reference)
            .chain(&plan.engines)
            .enumerate()
        {
            if let pool_engines::EngineSpec::Exec { command, .. } = spec {
                if !args.allow_exec.iter().any(|a| a == command) {
                    return Err(CliError::Input(format!(
                        "{source}: {} {:?} is a program named only by the shard; nothing \
                         merged: to play it again, give --allow-exec {:?} (exactly its command)",
                        if k == 0 { "the reference" } else { "engine" },
                        pool_exec::escape_bytes(spec.to_string().as_bytes()),
                        pool_exec::escape_bytes(command.as_bytes())
                    )));
                }
            }
        }
        // An engine not installed here (pooltool, a peer) is not played again: its rows are
        // taken as they are.
        plan.engines.retain(|spec| match spec.unavailable() {
            None => true,
            Some(why) => {
                crate::console::errln!("merge: --verify does not play {spec} again: {why}");
                false
            }
        });
        Ok(Verify {
            plan,
            count: args.verify,
            pool: crate::args::thread_pool(args.jobs)?,
        })
    }

    /// Plays `count` jobs of shard `m` again, chosen by a generator seeded by its place, and
    /// compares their rows with the shard's (`text`, the rows of `file` under their header).
    ///
    /// # Errors
    /// A row that differs (exit 2, naming the file, the shot, the run and the field); a run
    /// that cannot be made again (exit 1).
    fn shard(&self, m: &Manifest, file: &Path, text: &str) -> Result<(), CliError> {
        let bad_csv = |e: csv::Error| CliError::Input(format!("{}: {e}", file.display()));
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header = reader.headers().map_err(bad_csv)?.clone();
        let rows: Vec<csv::StringRecord> = reader
            .records()
            .collect::<Result<_, _>>()
            .map_err(bad_csv)?;
        let run_col = header.iter().position(|c| c == "run").unwrap_or(0);
        let span = m.hi - m.lo;
        let mut jobs = std::collections::BTreeSet::new();
        let mut rng = pool_sim::SplitMix::new(m.k ^ (m.n << 32) ^ 0x5EED_0F7E);
        while (jobs.len() as u64) < self.count.min(span) {
            jobs.insert(m.lo + rng.index(usize::try_from(span).unwrap_or(usize::MAX)) as u64);
        }
        let per_job = usize::try_from(2 + m_engines(m)).unwrap_or(usize::MAX);
        for job in jobs {
            let mut played = Vec::new();
            self.plan
                .run(
                    job,
                    job + 1,
                    &self.pool,
                    &mut |r| {
                        played.push(r.clone());
                        Ok(())
                    },
                    &|_| {},
                )
                .map_err(|e| {
                    CliError::Run(format!("merge --verify, playing job {job} again: {e}"))
                })?;
            let bytes = crate::output::csv_bytes(&played)?;
            let mut again = csv::Reader::from_reader(bytes.as_slice());
            let again_header = again.headers().map_err(bad_csv)?.clone();
            if again_header != header {
                return Err(CliError::Input(format!(
                    "{}: its columns are not those of this version's rows (merge --verify)",
                    file.display()
                )));
            }
            let at = usize::try_from(job - m.lo).unwrap_or(usize::MAX) * per_job;
            let theirs = rows.get(at..at + per_job).unwrap_or_default();
            for rec in again.records() {
                let rec = rec.map_err(bad_csv)?;
                let Some(row) = theirs.iter().find(|r| r.get(run_col) == rec.get(run_col)) else {
                    continue;
                };
                let differs = again_header
                    .iter()
                    .zip(rec.iter().zip(row.iter()))
                    .find(|(_, (a, b))| a != b);
                if let Some((field, (ours, shards))) = differs {
                    return Err(CliError::Input(format!(
                        "{}: shard {}/{}, shot {} ({} on {}, index {}), run {}: field {field} = \
                         {:?}, played again {:?}: the shard's rows are not what its manifest \
                         gives (merge --verify); nothing merged",
                        file.display(),
                        m.k,
                        m.n,
                        &rec[3],
                        &rec[0],
                        &rec[1],
                        &rec[2],
                        pool_exec::escape_bytes(rec[run_col].as_bytes()),
                        pool_exec::escape_bytes(shards.as_bytes()),
                        pool_exec::escape_bytes(ours.as_bytes()),
                    )));
                }
            }
        }
        Ok(())
    }
}

/// The number of engines a shard's manifest names (besides the reference and the floor).
fn m_engines(m: &Manifest) -> u64 {
    m.options
        .iter()
        .find(|(k, _)| k == "--engines")
        .map_or(0, |(_, v)| {
            v.split(',').filter(|x| !x.is_empty()).count() as u64
        })
}
