//! The outcome study's options and files, shared by `compare` (a section of its report) and
//! `outcomes` (the study alone, shardable). The plan, its run and its statistics are the
//! library's (`pool_harness::StudyPlan`); this module turns options into a plan and rows into
//! files.

use std::io::Write;

use indicatif::ProgressBar;
use pool_engines::EngineSpec;
use pool_harness::{
    Budget, OutcomeTally, Perturbation, StudyError, StudyOptions, StudyPlan, StudyResult,
    DEFAULT_DTS, DEFAULT_SHOTS, QUICK_DTS, QUICK_SHOTS,
};
use pool_report::compare::{outcome_section, OutcomeStudy};

use crate::output::{csv_bytes, Staging};
use crate::CliError;

/// The study's options, as `compare` and `outcomes` both take them.
#[derive(clap::Args, Debug, Clone)]
pub struct OutcomeArgs {
    /// Shots per family, 1 to 1000000 [default: 100; compare --quick: 12]. The rates' 95 %
    /// intervals narrow as 1/sqrt(N): about +-10 points at 100 shots for a rate near 50 %
    #[arg(long, value_name = "N")]
    pub outcome_shots: Option<u64>,
    /// Families of shots, comma-separated: cut (ghost-ball cut shots at a pocket over cut
    /// angle 0-75 degrees, speed and spin), thin_cut (the same at 45-75 degrees), bank
    /// (one-rail banks into a pocket across the table), break9, break15 (random breaks),
    /// straight (center-ball straight shots at a pocket: the known answer)
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "KIND,...",
        default_value = "cut,bank,break9,break15"
    )]
    pub outcome_families: Vec<String>,
    /// Tables the families are played on, comma-separated built-in names (the tables need
    /// pockets on both long rails)
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME,...",
        default_value = "seven_foot,pooltool_pocket"
    )]
    pub outcome_tables: Vec<String>,
    /// Time steps of the fixed-step schemes in the study (s), comma-separated, each in
    /// [1e-7, 1], at most 20 [default: 1e-2,5e-3,2e-3,1e-3,5e-4,2e-4,1e-4; compare --quick:
    /// 1e-2,1e-3]
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        value_name = "DT,..."
    )]
    pub outcome_dt: Vec<f64>,
    /// Seed of the study's shots (shot k of a family depends only on it, the family, the
    /// table and k)
    #[arg(long, default_value_t = 1)]
    pub outcome_seed: u64,
    /// The chaos floor: distance (m) every ball is moved, in a random direction, in [0, 0.1]
    #[arg(
        long,
        default_value_t = 1e-6,
        allow_negative_numbers = true,
        value_name = "M"
    )]
    pub perturb_position: f64,
    /// The chaos floor: relative change of the cue's speed (uniform in +-this), in [0, 0.5]
    #[arg(
        long,
        default_value_t = 1e-4,
        allow_negative_numbers = true,
        value_name = "REL"
    )]
    pub perturb_speed: f64,
    /// Final positions within this distance (m) agree (fields cue_position and positions),
    /// in (0, 1]
    #[arg(
        long,
        default_value_t = 1e-2,
        allow_negative_numbers = true,
        value_name = "M"
    )]
    pub position_tol: f64,
    /// Equivalence margin of the rates in the distribution verdicts (scratch, success, each
    /// pocket's, each first contact's), a difference of probabilities in (0, 1)
    #[arg(
        long,
        default_value_t = 0.02,
        allow_negative_numbers = true,
        value_name = "P"
    )]
    pub margin_rate: f64,
    /// Equivalence margin of the mean object balls pocketed per shot, in (0, 15]
    #[arg(
        long,
        default_value_t = 0.05,
        allow_negative_numbers = true,
        value_name = "BALLS"
    )]
    pub margin_balls: f64,
    /// Equivalence margin of the mean final cue-ball coordinates (m), in (0, 1]
    #[arg(
        long,
        default_value_t = 0.05,
        allow_negative_numbers = true,
        value_name = "M"
    )]
    pub margin_position: f64,
    /// Equivalence margin of the shot-by-shot rate over the chaos floor's: within the floor
    /// when the interval of (rate - floor's rate) is below it, in (0, 1)
    #[arg(
        long,
        default_value_t = 0.05,
        allow_negative_numbers = true,
        value_name = "P"
    )]
    pub margin_floor: f64,
    /// Shots per family whose reference is also played with every ball moved 1e-12, 1e-11,
    /// ..., 1e-3 m (the chaos curve, chaos.csv and chaos.png), at most --outcome-shots; 0 for
    /// none [default: 100; compare --quick: 12]
    #[arg(long, value_name = "N")]
    pub chaos_shots: Option<u64>,
    /// Rack model of the break families: lattice:<gap> (the racks' lattice, closest
    /// neighbours 2R + gap apart; lattice:1e-6 is the rack files' own), frozen (every
    /// neighbour touching) or jittered:<scale> (the lattice at gap = scale, each ball moved at
    /// random within scale/2, seeded by the shot: generic gaps 0 to 2 scale); scales in m, at
    /// most 0.05. The default is the balls' diameter tolerance (WPA, +-0.005 in)
    #[arg(long, value_name = "MODEL", default_value = "jittered:0.000127")]
    pub rack: String,
    /// Sequential sampling: after each family's first --outcome-shots, the in-process
    /// engines whose verdict is undecided play twice as many shots, and again, until every
    /// verdict is decided or this budget is spent: <shots> per family, <seconds>s of wall time
    /// (no look starts after it), both as <shots>,<seconds>s, or none (one look of
    /// --outcome-shots). Programs and peers play the first look only. A sharded study plays
    /// one look [default: compare 400,30s; outcomes 3200; --quick and --shard: none]
    #[arg(long, value_name = "BUDGET")]
    pub outcome_budget: Option<String>,
    /// Drill-down replays, 0 to 10000 shots (0: none): after the study, at most N shots where
    /// an engine changed the outcome (d_outcome 1) are played again with snapshots by the
    /// reference, the floor and every engine that changed it, and written to
    /// outcomes/replays.json (report.html draws them). Shots are taken round-robin over the
    /// (family, table, engine) cells, so every cell with a changed outcome gets one before any
    /// gets two; the file stops at 12 MB. `cargo xtask replays` remakes it for a finished run
    #[arg(long, value_name = "N", default_value_t = crate::replays::DEFAULT_REPLAYS)]
    pub replays: u64,
}

/// `compare`'s default sequential budget: its whole run stays within 3 minutes on 2 cores.
pub const COMPARE_BUDGET: &str = "400,30s";
/// `outcomes`'s: the study alone, where the shots decide.
pub const OUTCOMES_BUDGET: &str = "3200";

impl OutcomeArgs {
    /// The checked plan: `schemes` at the study's time steps, then `extra` engines.
    ///
    /// # Errors
    /// Any option out of range or unknown, naming it (exit 2).
    pub fn plan(
        &self,
        quick: bool,
        schemes: &[pool_discrete::Scheme],
        extra: &[EngineSpec],
        max_events: usize,
    ) -> Result<StudyPlan, CliError> {
        crate::args::in_range("--replays", self.replays, 0, crate::replays::MAX_REPLAYS)?;
        let dts: Vec<f64> = if !self.outcome_dt.is_empty() {
            self.outcome_dt.clone()
        } else if quick {
            QUICK_DTS.to_vec()
        } else {
            DEFAULT_DTS.to_vec()
        };
        let options = StudyOptions {
            families: self.outcome_families.clone(),
            tables: self.outcome_tables.clone(),
            shots: self
                .outcome_shots
                .unwrap_or(if quick { QUICK_SHOTS } else { DEFAULT_SHOTS }),
            seed: self.outcome_seed,
            dts,
            schemes: schemes.to_vec(),
            engines: extra.to_vec(),
            perturbation: Perturbation {
                position_m: self.perturb_position,
                speed_rel: self.perturb_speed,
            },
            position_tol_m: self.position_tol,
            max_events,
            rack: self
                .rack
                .parse::<pool_harness::RackModel>()
                .map_err(|e| CliError::Input(format!("--rack {e}")))?,
            chaos_shots: self.chaos_shots.unwrap_or(if quick {
                QUICK_SHOTS
            } else {
                DEFAULT_SHOTS
            }),
            margins: pool_harness::Margins {
                rate: self.margin_rate,
                balls: self.margin_balls,
                position_m: self.margin_position,
                floor: self.margin_floor,
            },
        };
        let racks = |table: &str| {
            crate::racks::racks("--outcome-tables", Some(table)).map_err(|e| e.to_string())
        };
        StudyPlan::new(&options, &racks).map_err(CliError::Input)
    }

    /// The sequential budget: `--outcome-budget`, else `default` (`None`: one look).
    ///
    /// # Errors
    /// A budget that does not parse, naming the option (exit 2).
    pub fn budget(&self, default: Option<&str>) -> Result<Option<Budget>, CliError> {
        match self.outcome_budget.as_deref().or(default) {
            None | Some("none") => Ok(None),
            Some(text) => text.parse::<Budget>().map(Some).map_err(|e| {
                CliError::Input(format!(
                    "--outcome-budget {text:?}: {e} (expected <shots>, <seconds>s, \
                     <shots>,<seconds>s or none)"
                ))
            }),
        }
    }
}

/// Runs jobs `[lo, hi)` of `plan` on `pool` (or, with a `budget`, the whole study
/// sequentially), streaming `outcomes/shots.csv` into `staging`, and returns the tallies.
///
/// # Errors
/// As [`StudyPlan::run`]: a reference run that did not end physically (exit 1), a shot the
/// perturbation cannot keep playable (exit 2), or a file that cannot be written (exit 1).
pub fn run_study(
    plan: &StudyPlan,
    lo: u64,
    hi: u64,
    budget: Option<&Budget>,
    pool: &rayon::ThreadPool,
    staging: &Staging,
    bar: &ProgressBar,
) -> Result<StudyResult, CliError> {
    let mut csv = csv::Writer::from_writer(staging.create("outcomes/shots.csv")?);
    let mut sink = |r: &pool_harness::OutcomeShotRow| {
        csv.serialize(r)
            .map_err(|e| format!("writing outcomes/shots.csv: {e}"))
    };
    let result = match budget {
        Some(b) => plan.run_sequential(b, pool, &mut sink, &|n| bar.inc(n)),
        None => plan.run(lo, hi, pool, &mut sink, &|n| bar.inc(n)),
    }
    .map_err(|e| match e {
        StudyError::Perturbation(m) => {
            CliError::Input(format!("--perturb-position / --perturb-speed: {m}"))
        }
        StudyError::Run(m) => CliError::Run(format!("outcome study, {m}")),
        StudyError::Input(m) => CliError::Input(m),
        StudyError::Output(m) => CliError::Run(m),
    })?;
    csv.into_inner()
        .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {}", e.error())))?
        .flush()
        .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {e}")))?;
    Ok(result)
}

/// The study's files besides the streamed `outcomes/shots.csv`: `outcomes.csv`,
/// `outcome_answer.csv`, `outcomes/wall.csv` and the plot.
pub fn write_study(
    staging: &Staging,
    study: &OutcomeStudy,
    wall: &[pool_harness::WallRow],
) -> Result<(), CliError> {
    staging.write("outcomes.csv", &csv_bytes(&study.rows)?)?;
    staging.write("outcome_answer.csv", &csv_bytes(&study.answers)?)?;
    staging.write("distributions.csv", &csv_bytes(&study.distributions)?)?;
    staging.write("distribution_answer.csv", &csv_bytes(&study.verdicts)?)?;
    staging.write("chaos.csv", &csv_bytes(&study.chaos)?)?;
    staging.write("outcomes/wall.csv", &csv_bytes(wall)?)?;
    pool_report::plots::outcome_vs_dt(&study.rows, "outcome", &staging.path("outcome_vs_dt"))?;
    pool_report::plots::chaos_curve(&study.chaos, study.floor_m, &staging.path("chaos"))?;
    Ok(())
}

/// The report of a study run alone (`outcomes`, or `merge` of its shards).
pub fn study_report(study: &OutcomeStudy, wall: &str) -> String {
    let mut md = String::from("# Does the algorithm change the game?\n\n");
    md.push_str(&format!(
        "The outcome study alone (`cargo xtask outcomes`); wall time {wall}.\n\n"
    ));
    outcome_section(&mut md, study);
    md
}

/// Tallies a study's `outcomes/shots.csv` rows read back (a shard's), shot by shot, and
/// returns the rows of engines that could not run their shot.
///
/// # Errors
/// A row that does not parse, naming the file.
pub fn tally_rows(
    tally: &mut OutcomeTally,
    text: &[u8],
    file: &std::path::Path,
) -> Result<Vec<pool_harness::OutcomeShotRow>, CliError> {
    let mut reader = csv::Reader::from_reader(text);
    let rows = reader
        .deserialize::<pool_harness::OutcomeShotRow>()
        .map(|r| r.map_err(|e| format!("{}: {e}", file.display())));
    pool_harness::tally_shot_rows(tally, rows).map_err(CliError::Input)
}
