//! `cargo xtask`: the harness's command line.
//!
//! - `compare`: runs every shot through the event engine (reference), the discrete integrator's
//!   schemes over a dt sweep and any other engines (rapier, pooltool, programs), whole shots and
//!   one step at a time, and writes CSV, plots and a Markdown report to `reports/<run>/`.
//! - `simulate`: prints one engine's event log and final states for one shot.
//! - `render`: a top-down animation (GIF or PNG frames) of one or two engines' runs of a shot.
//! - `roots`: the earliest-root backends against reference roots and in the engine.
//! - `stress`: many random realistic shots, the invariants checked after every event.
//! - `bench-peers`: our event engine and pooltool (if installed) on the same shots.
//! - `import-pooltool`: a pooltool `System.save` file as a shot file.
//! - `compare-pooltool`: pooltool's own breaks through pooltool and our event engine, event by event.
//! - `sweep`: one shot per point of a grid or random sample of cue and ball parameters.
//! - `outcomes`: does the algorithm change the game? Outcome agreement against the chaos floor.
//! - `figures`: the figures README.md and docs/ quote, checked against their committed run.
//! - `calibrate`: the outcome study's decision rule in simulated worlds: its error rates.
//! - `merge`: the shards of a `stress`, `sweep` or `outcomes` run (`--shard K/N`) joined into one
//!   run.
//! - `replays`: the drill-down replays (`outcomes/replays.json`) of a finished run, remade.
//!
//! The commands are a library ([`run_cli`]) so that the Python package can run them in-process
//! (a Ray worker needs no checkout and no toolchain); `main.rs` only calls it.

// The doc comments of the command-line types are clap's --help text, whose <placeholders> are
// meant for the terminal, not HTML.
#![allow(rustdoc::invalid_html_tags)]

mod args;
/// The command line's caps, which the Python module applies to its own arguments too.
pub use args::{MAX_EVENTS_OPTION, MAX_JOBS};
mod baselines;
mod calibrate;
mod compare;
mod compare_pooltool;
mod console;
mod figures;
mod html;
mod looks;
mod merge;
mod outcomes;
mod output;
mod peers;
mod pooltool;
mod progress;
mod python;
mod racks;
mod render;
mod replays;
mod replays_cmd;
mod roots;
mod roots_dir;
mod serve;
mod shard;
mod simulate;
mod stress;
mod study;
mod sweep;
mod workspace;

use clap::{Parser, Subcommand};

use crate::console::errln;

/// The reference harness for pool/billiards physics: an event-based engine and a discrete-time
/// integrator over the same physics, compared on identical shots.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask", bin_name = "cargo xtask", version, about, long_about = None, after_help = AFTER_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What every command shares: its workspace and its exit codes.
const AFTER_HELP: &str = "\
Workspace: the default shots, baselines and root cases (data/) and the default --out (reports/)
are those of the workspace of the current directory: the nearest directory at or above it with
Cargo.toml and data/shots/ (as cargo and git find theirs), whatever directory the binary was built
in. Outside one, name every file and --out.

Exit codes: 0 the answer is right (a run flagged for its method's own errors, such as the
discrete integrator's overlaps, warns on stderr and still exits 0); 1 a run failed or did not end
physically (an engine's budget, a non-finite state, a ball off the table), or output could not be
written (quietly on a closed pipe); 2 bad input (a shot file, an option value or limit), one line
naming the field or option and the value. Runs are written whole or not at all.";

#[derive(Subcommand, Debug)]
enum Command {
    /// Run shots through the event engine (the reference), the discrete integrator's schemes
    /// over a dt sweep and any --engines, and write an accuracy/cost report.
    ///
    /// The report answers, for every engine: how wrong each event is against dt, what it
    /// costs, whether it predicts the same next event restarted from the reference's states,
    /// and (the outcome study, a first look and then 30 s for more) whether it changes the
    /// game.
    #[command(after_help = "Examples:
  cargo xtask compare                                   the main job, about 3 minutes on 2 cores
  cargo xtask compare --quick --check                   seconds: the baselines checked (CI)
  cargo xtask compare --engines \"exec:python3 my_engine.py\"   your program beside every scheme
  cargo xtask compare --schemes located,substep16 --dt 1e-2,1e-3
  cargo xtask compare --no-one-step --no-scaling --no-outcomes   whole shots only

Groups of options: the sweep, the engines, the outcome study (its shots, sampling and search,
chaos floor, margins, output) and the run's output. docs/report.md explains every table.")]
    Compare(compare::CompareArgs),
    /// Print one engine's event log and final ball states for a shot.
    ///
    /// Then judges the run's end: exit 1 (after the log) when it did not end physically (the
    /// engine's budget, a non-finite state, a ball off the table), a warning on stderr when balls
    /// end overlapping (the discrete integrator's or another root solver's own error, measured).
    /// A fixed-step run that could take more than 1e11 ball-steps is refused before it starts.
    Simulate(simulate::SimulateArgs),
    /// Watch a shot: a top-down animation (GIF or PNG frames) of one or two engines' runs.
    Render(render::RenderArgs),
    /// Evaluate the earliest-root backends against reference roots and in the engine.
    Roots(roots::RootsArgs),
    /// Run many random realistic shots and check the invariants after every event.
    ///
    /// Shot seed s (s = --seed, --seed + 1, ...) is of kind s mod 7, in turn: 0 break9 (the
    /// 9-ball rack placed by --rack, cue struck at 0.5-12 m/s within 0.15 rad of the nearest ball, random spin),
    /// 1 break15 (the same on the 15-ball rack), 2 scatter (2-16 balls anywhere, 0-6 m/s, random
    /// spins), 3 rail (a ball running along a rail 0-3 mm from it at 0-5 degrees into it,
    /// 0.5-12 m/s, sometimes toward balls frozen to the rail), 4 corner (a ball sent at a pocket
    /// or a jaw point from 0.05-1.2 m, 0.2-12 m/s, sometimes an object ball struck into it),
    /// 5 frozen (2-7 balls touching at 2R, 2R + 1-8 ulps or 2R + 1e-12..1e-9 m, pairs,
    /// clusters or against a rail, one struck at 0.1-12 m/s), 6 graze (a ball passing another at
    /// a center distance of 2R(1 +- eps), eps 1e-12..1e-3 log-uniform). The shot's name starts
    /// with its kind. Writes reports/<run>/stress/: summary.txt (failures by invariant and by
    /// kind), shots.csv (one row per shot) and failures/<name>.toml (each failing shot, a shot
    /// file that reproduces it). --replay DIR runs the shot files of DIR instead. The event
    /// engine is checked after every event; another engine (discrete, registered) on its end:
    /// no_end, nan, balls off the table or overlapping at the end count as its failures. Shots
    /// stream through in chunks: any --shots runs in constant memory.
    Stress(stress::StressArgs),
    /// Time our event engine and pooltool 0.6.0 (if installed) on the same shots; ratio table.
    ///
    /// Looks for pooltool in --python, $POOLTOOL_PYTHON, then .venv-pooltool/bin/python at the
    /// workspace root; without it, times our engine only and says how to set pooltool up
    /// (benches/peers/README.md). Writes reports/bench-peers-<time>/peers.{csv,md}.
    BenchPeers(peers::PeersArgs),
    /// Write a shot file from a pooltool 0.6.0 `System.save` file (.json or .msgpack).
    ///
    /// pooltool's (x, y) is our (y, x) (its long side runs along y); spins change sign, the
    /// cue's aim phi becomes 90 - phi and its side offset a becomes -a. Ids: its cushions and
    /// jaw tips 1..18, 1t..17t are our c1..c18, c1t..c17t (no ball's id); its pockets lb, lc,
    /// lt, rb, rc, rt, named in its frame, are our lb, cb, rb, lt, ct, rt (l/c/r along our
    /// length, b/t across), and back on export. Carries the table
    /// (straight and circular cushions, pockets and their depth; named `pooltool_pocket` etc.
    /// when it is that built-in), the balls in play (pocketed ones are left out, with a note),
    /// their parameters (one set per shot), the cue as a strike when pooltool would strike
    /// (t = 0, nothing moving, V0 > 0) and the laws of a resolver entry or --resolver file.
    /// A simulated system gives its balls' first history states. `simulate --format pooltool`
    /// writes the other way.
    ImportPooltool(pooltool::ImportArgs),
    /// pooltool 0.6.0's own 9-ball breaks through pooltool and our event engine under the same
    /// laws, event by event (needs pooltool, skipped with one line without it).
    ///
    /// pooltool makes each break (its table, its 9-ball rack, a random cue strike at the 1
    /// ball), saves it and runs it under --physics (default pooltool_default: its stock
    /// default_resolver()) with its contact spacer at each --spacers value (1e-6 m as shipped,
    /// and lowered); our event engine imports the saved System (import-pooltool) and runs it.
    /// Per break and spacer: the shared prefix (the same kinds and agents in the same order
    /// from the start, events less than --tol apart may trade places), its worst time
    /// difference, and where and why it ends (the events that differ; pooltool's spacer when
    /// the lowered spacer's prefix is longer; pooltool's resolve_continually_touching, which
    /// it applies after a ball-ball law, or a pooltool run that does not finish). Exits 1 if
    /// at the smallest spacer a break shares fewer than --events events and pooltool's own
    /// handling does not explain it. Writes reports/compare-pooltool-<time>/: systems/ and
    /// pooltool/ (pooltool's files), breaks/ (our shot files), compare.csv, summary.md.
    ComparePooltool(compare_pooltool::ComparePooltoolArgs),
    /// One shot per point of a grid or random sample over a base shot's cue strike and ball
    /// parameters; one outcome row per point in sweep/rows.csv.
    ///
    /// Point k depends only on the options and k (a grid is read with the last --param
    /// fastest; a random point is drawn from its own generator, seeded by --seed and k), so
    /// --shard K/N runs points [(K-1) n / N, K n / N) and `merge` joins the shards into the
    /// unsharded run's files byte for byte. Columns: point, the parameters, events, end_time_s,
    /// termination, first_contact (kind|agents), first_contact_time_s, pocketed (ids in the
    /// order they fell), x_<id> and y_<id> of every ball at the end (m). The corners of the
    /// swept box are validated before any work (a point that cannot be played is bad input).
    Sweep(sweep::SweepArgs),
    /// Does the algorithm change the game? Families of random shots (pool's cut, bank, breaks;
    /// snooker and three-cushion on request) through every scheme on the dt ladder and any
    /// --engines, sampled until each answer is decided.
    ///
    /// Each shot is also played by the event engine moved by its physical uncertainty (every
    /// ball 1 µm, the cue's speed up to 1e-4, a break racked again: the chaos floor). Each cell
    /// (an engine at a dt on a family) claims one of two things when its shots show it: keeps
    /// the game (changes outcomes at most 0.5 points + 20 % of the floor's rate more often than
    /// the floor, and every statistic of the game within its margin) or changes it (changes
    /// shots, with "same in distribution" when its statistics are shown within; or changes its
    /// statistics); else undecided with the shots that would decide it. An engine with a time
    /// step is played on a ladder of 13 rungs, {1, 2, 5} x 10^k from 1e-2 to 1e-6 s, searched
    /// coarse to fine: its answer is "changes at >= A s; keeps at <= W s", or "<= W s" once the
    /// two are adjacent rungs; an engine without one (or a peer named at one dt) answers with
    /// its cell. Every claim of one answer is wrong at most 5 % of the time (each rung at
    /// 5 % / 13). Writes reports/<run>/: outcome_answer.csv (the answers),
    /// distribution_answer.csv (every cell's verdict), outcomes.csv (rates per field with the
    /// confidence sequence of the difference against the floor, its margin, level and test),
    /// distributions.csv (every statistic),
    /// chaos.csv, outcomes/shots.csv (every run of every shot), outcomes/wall.csv (timing),
    /// outcomes/replays.json, answer_grid.png, outcome_vs_dt.png, report.md, report.html,
    /// run.json. With --outcome-budget none, shot k of a family depends only on the options
    /// and k: --shard K/N and `merge` give the one-process files byte for byte.
    #[command(after_help = "Examples:
  cargo xtask outcomes                                    every default family, until decided
  cargo xtask outcomes --schemes none --engines \"exec:python3 my_engine.py\" \\
      --outcome-families cut --outcome-tables seven_foot --outcome-budget 400
                                                          a first look at your program
  cargo xtask outcomes --schemes end_of_step --outcome-families break15 --outcome-budget 12800
                                                          one answer, more shots
  cargo xtask outcomes --outcome-budget 3200,3600s        within an hour
  cargo xtask outcomes --outcome-budget none --shard 2/8  one look, one piece (then merge)
  cargo xtask outcomes --outcome-budget 3200 --look 1 --shard 2/8
                                                          look 1 of the sequential study, one
                                                          piece: `merge --look 1` prints look 2's

The terminal leads with one line per family and engine; report.md lists the undecided answers
with the command that decides each. docs/outcomes.md explains every word and number.")]
    Outcomes(outcomes::OutcomesArgs),
    /// Check that the outcome study's claims keep their error rate: simulated studies through
    /// the study's own cells, in worlds where every claim's truth is known.
    ///
    /// A part exactly on its margin (the shot-by-shot rate, each kind of statistic at +- its
    /// margin): "keeps" claimed at most 5 % of the time; no difference at all: "changes" at
    /// most 5 %; a walk of the dt ladder with the game just beyond the margin above a boundary
    /// and just within below: some false claim in at most 5 % of walks; and its negative
    /// control (every rung at the whole 5 %) above 5 %, so that the check can fail. Every cell
    /// plays every look to --max-shots (the worst case). About 20 minutes on 2 cores at the
    /// defaults; exit 1 when a check does not hold.
    #[command(after_help = "Examples:
  cargo xtask calibrate --write                           the full run, its table into docs/outcomes.md
  cargo xtask calibrate --replications 200 --max-shots 3200 --walks 100   a minute")]
    Calibrate(calibrate::CalibrateArgs),
    /// Check the figures README.md and docs/ quote against the committed run they come from
    /// (reports/example/), or rewrite them from it (--write).
    ///
    /// A figure is written `<!--fig:KEY-->TEXT<!--/fig-->` in Markdown (the tags do not render);
    /// KEY names a value of the run's files (run.json, residuals.csv, outcomes.csv,
    /// outcome_answer.csv, ...). Exit 1 when a figure differs from its run, 2 for an unknown key
    /// or a missing file.
    Figures(figures::FiguresArgs),
    /// Write a run directory's report.html from its files (a run made before the page existed,
    /// or after its replays were remade).
    ///
    /// One self-contained page (data, script, style and the charting library inline; the PNG
    /// plots beside it): the answer table, every engine at a glance (sortable, filterable), the
    /// charts (hover for a point's n and 95 % interval, click a legend entry to hide it), the
    /// rate tables whose cells list the shots they count, each shot's replay
    /// (outcomes/replays.json) and the distribution verdicts. Every compare and outcomes run
    /// writes it. Exit 2 for a directory that is not a run's or a file of it that does not parse.
    Html(html::HtmlArgs),
    /// Join the run directories of a sharded stress, sweep or outcomes run (`--shard K/N`) into
    /// the files the unsharded run writes, byte for byte (rows in shard order, failing shots'
    /// files, the summary and tables tallied again from the rows; an outcome study's wall
    /// times are summed).
    ///
    /// Each shard's manifest (stress/shard.json, sweep/shard.json or outcomes/shard.json) must
    /// name the same command, options and shard count, and every shard must be given once.
    /// Exit 1 when the merged run has failing shots (stress), points that did not end
    /// physically (sweep) or failed engine runs (outcomes).
    ///
    /// With --look K: the shards of look K of a sequential outcome study (`outcomes --look K
    /// --shard i/N`), and with --resume the merged look K - 1 they resumed from, into the study
    /// as the one-process `outcomes` writes it had it stopped after look K, plus its state
    /// (outcomes/looks.json); shards of another look, state, build or options are refused.
    Merge(merge::MergeArgs),
    /// Remake the drill-down replays (outcomes/replays.json) of a finished compare or outcomes
    /// run from its outcomes/shots.csv.
    ///
    /// The shots where an engine changed the outcome (d_outcome 1) are made again exactly as
    /// the study made them (a shot depends only on the study's seed, rack model and
    /// perturbation, its family, table and index) and played with snapshots by the reference,
    /// the floor and every engine that changed it: each ball's track (integers of 1e-4 s and
    /// 1e-5 m, delta-coded, simplified to within 0.5 mm of the ball's path), pocket times,
    /// final positions, the event log, and whether each run's outcome is its row's in
    /// shots.csv (a check: a run that does not reproduce is kept and counted in the note). At
    /// most --replays shots, round-robin over the (family, table, engine) cells, and at most
    /// 12 MB; one line says what was written and capped. The run's report.html is then
    /// rewritten with them (one more line). The study's options come from the run's run.json
    /// (outcome_options) when it records them, else from the flags (the study's defaults);
    /// engines not installed here (pooltool, the peers) are skipped with a line. Exit 2 for a
    /// missing directory or file or a row that does not parse (naming the file, field and
    /// value).
    Replays(replays_cmd::ReplaysArgs),
}

/// Runs the command line `args` (the first item is the program's name, as in
/// `std::env::args_os`) and returns its exit code: 0 the answer is right, 1 a run failed or
/// did not end physically, 2 bad input, 3 a shard's program engine cannot start on this machine
/// (`outcomes --shard`, `--look`). Never panics on bad input; what it prints goes to this
/// process's standard output and error.
pub fn run_cli<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let (code, error) = run_cli_quiet(args);
    if let Some(m) = error {
        errln!("error: {m}");
    }
    code
}

/// [`run_cli`], but the failure's line (`error: <line>`) is returned instead of printed: the
/// exit code and that line, for a caller that reports it itself (the Python cluster driver's
/// shards, naming their worker). Everything else is printed as by [`run_cli`].
pub fn run_cli_quiet<I, T>(args: I) -> (u8, Option<String>)
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let raw: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    let cli = match Cli::try_parse_from(&raw) {
        Ok(cli) => cli,
        // --help and --version (exit 0 unless standard output fails), or a usage error (exit 2;
        // clap names the option).
        Err(e) if e.exit_code() == 2 => {
            // A usage error: one line, clap's own words and its tip (a similar option), not
            // its usage block.
            let text = e.render().to_string();
            let lines: Vec<&str> = (text.lines().map(str::trim))
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more"))
                .filter(|l| !l.is_empty())
                .collect();
            let what: Vec<&str> = lines
                .iter()
                .copied()
                .filter(|l| !l.starts_with("tip:"))
                .collect();
            let what = if what.is_empty() {
                "error: bad usage".to_string()
            } else {
                what.join(" ")
            };
            let line = match lines.iter().find(|l| l.starts_with("tip:")) {
                Some(t) => format!("{what} ({t}; see --help)"),
                None => format!("{what} (see --help)"),
            };
            return (2, Some(line.trim_start_matches("error: ").to_string()));
        }
        Err(e) => {
            let code = match (e.print(), e.exit_code()) {
                (Err(io), 0) => {
                    if let CliError::Run(m) = console::stdout_error(io) {
                        errln!("error: {m}");
                    }
                    1
                }
                (_, code) => code,
            };
            return (u8::try_from(code).unwrap_or(1), None);
        }
    };
    let result = match cli.command {
        Command::Compare(args) => compare::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Render(args) => render::run(args),
        Command::Roots(args) => roots::run(args),
        Command::Stress(args) => stress::run(args),
        Command::BenchPeers(args) => peers::run(args),
        Command::ImportPooltool(args) => pooltool::run(args),
        Command::ComparePooltool(args) => compare_pooltool::run(args),
        Command::Sweep(args) => sweep::run(args),
        Command::Outcomes(args) => outcomes::run(args, &raw),
        Command::Calibrate(args) => calibrate::run(args),
        Command::Figures(args) => figures::run(args),
        Command::Html(args) => html::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Replays(args) => replays_cmd::run(args),
    };
    // A signal is ending the process: what the command met meanwhile (its programs killed
    // under it) is not its answer; the signal's thread ends the process.
    if pool_exec::interrupted() {
        pool_exec::end_all();
    }
    match result {
        Ok(()) => (0, None),
        Err(CliError::BrokenPipe) => (1, None),
        Err(e) => (e.exit_code(), Some(e.to_string())),
    }
}

/// A failure the user should read: bad input (exit 2), a failed run (exit 1), or a shard's
/// program that cannot start here (exit 3).
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a shot file, an option value. Exit code 2.
    Input(String),
    /// Something went wrong while running or writing. Exit code 1.
    Run(String),
    /// Standard output was closed by its reader (e.g. `| head`): exit code 1, quietly.
    BrokenPipe,
    /// A program engine (`exec:`) cannot start on this machine (a shard's worker without the
    /// program or its interpreter): exit code 3, so that a driver tells it from a failed run.
    Unstartable(String),
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Run(_) | CliError::BrokenPipe => 1,
            CliError::Unstartable(_) => 3,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Input(m) | CliError::Run(m) | CliError::Unstartable(m) => f.write_str(m),
            CliError::BrokenPipe => f.write_str("standard output closed"),
        }
    }
}

impl From<pool_report::plots::PlotError> for CliError {
    fn from(e: pool_report::plots::PlotError) -> Self {
        CliError::Run(format!("plot: {}", e.message()))
    }
}

impl From<pool_shots::ShotError> for CliError {
    fn from(e: pool_shots::ShotError) -> Self {
        CliError::Input(e.to_string())
    }
}

#[cfg(test)]
mod help_tests {
    use super::*;
    use clap::CommandFactory;

    /// The long help of `cargo xtask <command>`, one line per option's paragraph joined.
    fn help(command: &str) -> String {
        let mut cli = Cli::command();
        cli.build();
        let sub = cli
            .find_subcommand_mut(command)
            .unwrap_or_else(|| panic!("no command {command}"));
        sub.render_long_help().to_string().replace('\n', " ")
    }

    /// The `[default: ...]` an option's help writes by hand (where clap does not show its own).
    fn default_of(help: &str, option: &str) -> String {
        let at = help
            .find(&format!("{option} <"))
            .or_else(|| help.find(&format!("{option} ")))
            .unwrap_or_else(|| panic!("no {option}"));
        let rest = &help[at..];
        let start = rest.find("[default: ").expect("a default") + "[default: ".len();
        let end = rest[start..].find(']').unwrap();
        rest[start..start + end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn every_default_help_shows_is_the_one_the_code_uses() {
        use pool_outcome::{DEFAULT_DTS, DEFAULT_SHOTS, QUICK_DTS, QUICK_SHOTS};
        let dts = |v: &[f64]| {
            v.iter()
                .map(|d| format!("{d:e}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        for command in ["outcomes", "compare"] {
            let h = help(command);
            assert_eq!(
                default_of(&h, "--outcome-shots"),
                format!("{DEFAULT_SHOTS}; compare --quick: {QUICK_SHOTS}")
            );
            assert_eq!(
                default_of(&h, "--chaos-shots"),
                format!(
                    "{DEFAULT_SHOTS}; compare --quick: {QUICK_SHOTS}; outcomes --reference other \
                     than event: 0"
                )
            );
            assert_eq!(
                default_of(&h, "--outcome-dt"),
                format!(
                    "{}; compare --quick: {}",
                    dts(&DEFAULT_DTS),
                    dts(&QUICK_DTS)
                )
            );
            assert_eq!(
                default_of(&h, "--outcome-budget"),
                format!(
                    "outcomes {}; compare {}; --quick and --shard: none",
                    study::OUTCOMES_BUDGET,
                    study::COMPARE_BUDGET
                )
            );
        }
        // simulate's plain engines, completed as its help says.
        let h = help("simulate");
        let (dt, scheme, solver) = (
            default_of(&h, "--dt"),
            default_of(&h, "--scheme"),
            default_of(&h, "--solver"),
        );
        let discrete = args::engine_spec("--engine", "discrete", None, None, None).unwrap();
        assert_eq!(discrete.dt(), Some(dt.parse::<f64>().unwrap()));
        assert_eq!(discrete.variant(), scheme);
        let event = args::engine_spec("--engine", "event", None, None, None).unwrap();
        assert_eq!(event.variant(), solver);
        // The study's options as clap defaults them are the library's defaults.
        #[derive(clap::Parser)]
        struct Defaults {
            #[command(flatten)]
            study: study::OutcomeArgs,
        }
        let d = <Defaults as Parser>::try_parse_from(["outcomes"]).unwrap();
        let plan = d
            .study
            .plan(
                false,
                &[],
                (&[], false),
                &pool_engines::EngineSpec::reference(),
                1_000_000,
            )
            .unwrap();
        assert_eq!(plan.margins, pool_outcome::Margins::default());
        assert_eq!(plan.search, pool_outcome::SearchOptions::default());
        assert_eq!(plan.perturbation, pool_outcome::Perturbation::default());
        assert_eq!(plan.shots, DEFAULT_SHOTS);
        // Usage lines name the command as it is typed.
        assert!(help("stress").contains("Usage: cargo xtask stress"));
    }
}
