//! `cargo xtask calibrate`: the decision rule's calibration ([`pool_outcome::calibration`]),
//! printed as a table, and with `--write` put into docs/outcomes.md between its markers.

use crate::console::outln;
use crate::CliError;
use pool_outcome::calibration::{calibration_table, Calibration};

/// Where the table goes in docs/outcomes.md.
const START: &str = "<!--calibration-->";
/// Its end.
const END: &str = "<!--/calibration-->";

/// Options of `cargo xtask calibrate`.
#[derive(clap::Args, Debug, Clone)]
pub struct CalibrateArgs {
    /// Replications of each single-cell check, 1 to 1000000
    #[arg(long, default_value_t = Calibration::FULL.replications)]
    pub replications: u64,
    /// Most shots a cell plays (looks at 100, 200, ... up to it), 100 to 1000000
    #[arg(long, default_value_t = Calibration::FULL.max_shots)]
    pub max_shots: u64,
    /// Walks of the dt ladder (and of its negative control), 1 to 1000000
    #[arg(long, default_value_t = Calibration::FULL.walks)]
    pub walks: u64,
    /// Seed of the run
    #[arg(long, default_value_t = Calibration::FULL.seed)]
    pub seed: u64,
    /// Put the table into docs/outcomes.md (between `<!--calibration-->` and
    /// `<!--/calibration-->`) besides printing it
    #[arg(long)]
    pub write: bool,
    /// Worker threads, 1 to 256 [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Runs `cargo xtask calibrate`: exit 1 when a check does not hold.
pub fn run(args: CalibrateArgs) -> Result<(), CliError> {
    crate::args::in_range("--replications", args.replications, 1, 1_000_000)?;
    crate::args::in_range("--max-shots", args.max_shots, 100, 1_000_000)?;
    crate::args::in_range("--walks", args.walks, 1, 1_000_000)?;
    let docs = if args.write {
        let file = crate::workspace::workspace_root()?.join("docs/outcomes.md");
        let text = std::fs::read_to_string(&file)
            .map_err(|e| CliError::Input(format!("{}: {e}", file.display())))?;
        if !(text.contains(START) && text.contains(END)) {
            return Err(CliError::Input(format!(
                "{}: no {START} ... {END} markers to write the table between",
                file.display()
            )));
        }
        Some((file, text))
    } else {
        None
    };
    let run = Calibration {
        replications: args.replications,
        max_shots: args.max_shots,
        walks: args.walks,
        seed: args.seed,
    };
    let pool = crate::args::thread_pool(args.jobs)?;
    let studies = 13 * run.replications + 2 * run.walks;
    let bar = crate::progress::bar(studies, "studies");
    let checks = pool.install(|| run.run(&|| bar.inc(1)));
    bar.finish_and_clear();
    let table = calibration_table(&checks, &run);
    outln!("{table}")?;
    if let Some((file, text)) = docs {
        let (head, rest) = text.split_once(START).expect("checked above");
        let (_, tail) = rest.split_once(END).expect("checked above");
        let new = format!("{head}{START}\n{table}{END}{tail}");
        crate::output::write_file_atomically(&file, new.as_bytes())?;
        outln!("calibrate: the table written into {}", file.display())?;
    }
    match checks.iter().find(|c| !c.holds()) {
        Some(c) => Err(CliError::Run(format!(
            "calibrate: {} does not hold: {} of {} studies",
            c.check, c.false_claims, c.studies
        ))),
        None => Ok(()),
    }
}
