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

// The doc comments of the command-line types are clap's --help text, whose <placeholders> are
// meant for the terminal, not HTML.
#![allow(rustdoc::invalid_html_tags)]

mod args;
mod baselines;
mod compare;
mod output;
mod peers;
mod progress;
mod render;
mod roots;
mod roots_dir;
mod simulate;
mod stress;
mod workspace;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The reference harness for pool/billiards physics: an event-based engine and a discrete-time
/// integrator over the same physics, compared on identical shots.
#[derive(Parser, Debug)]
#[command(name = "cargo xtask", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run shots through the event engine (the reference), the discrete integrator's schemes
    /// over a dt sweep and any --engines, and write an accuracy/cost report.
    Compare(compare::CompareArgs),
    /// Print one engine's event log and final ball states for a shot.
    Simulate(simulate::SimulateArgs),
    /// Watch a shot: a top-down animation (GIF or PNG frames) of one or two engines' runs.
    Render(render::RenderArgs),
    /// Evaluate the earliest-root backends against reference roots and in the engine.
    Roots(roots::RootsArgs),
    /// Run many random realistic shots and check the invariants after every event.
    ///
    /// Shot seed s (s = --seed, --seed + 1, ...) is of kind s mod 7, in turn: 0 break9 (the
    /// 9-ball rack, cue struck at 0.5-12 m/s within 0.15 rad of the nearest ball, random spin),
    /// 1 break15 (the same on the 15-ball rack), 2 scatter (2-16 balls anywhere, 0-6 m/s, random
    /// spins), 3 rail (a ball running along a rail 0-3 mm from it at 0-5 degrees into it,
    /// 0.5-12 m/s, sometimes toward balls frozen to the rail), 4 corner (a ball sent at a pocket
    /// or a jaw point from 0.05-1.2 m, 0.2-12 m/s, sometimes an object ball struck into it),
    /// 5 frozen (2-7 balls touching at 2R, 2R + 1-8 ulps or 2R + 1e-12..1e-9 m, pairs,
    /// clusters or against a rail, one struck at 0.1-12 m/s), 6 graze (a ball passing another at
    /// a center distance of 2R(1 +- eps), eps 1e-12..1e-3 log-uniform). The shot's name starts
    /// with its kind. Writes reports/<run>/stress/: summary.txt (failures by invariant and by
    /// kind), shots.csv (one row per shot) and failures/<name>.toml (each failing shot, a shot
    /// file that reproduces it). --replay DIR runs the shot files of DIR instead.
    Stress(stress::StressArgs),
    /// Time our event engine and pooltool 0.6.0 (if installed) on the same shots; ratio table.
    ///
    /// Looks for pooltool in --python, $POOLTOOL_PYTHON, then .venv-pooltool/bin/python at the
    /// workspace root; without it, times our engine only and says how to set pooltool up
    /// (benches/peers/README.md). Writes reports/peers-<time>/peers.{csv,md}.
    BenchPeers(peers::PeersArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Compare(args) => compare::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Render(args) => render::run(args),
        Command::Roots(args) => roots::run(args),
        Command::Stress(args) => stress::run(args),
        Command::BenchPeers(args) => peers::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}

/// A failure the user should read: bad input (exit 2) or a failed run (exit 1).
#[derive(Debug)]
pub enum CliError {
    /// Bad input: a shot file, an option value. Exit code 2.
    Input(String),
    /// Something went wrong while running or writing. Exit code 1.
    Run(String),
}

impl CliError {
    fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Run(_) => 1,
        }
    }
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::Input(m) | CliError::Run(m) => f.write_str(m),
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
