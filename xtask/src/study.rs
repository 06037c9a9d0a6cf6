//! The outcome study's options and files, shared by `compare` (a section of its report) and
//! `outcomes` (the study alone, shardable). The plan, its run and its statistics are the
//! library's (`pool_outcome::StudyPlan`); this module turns options into a plan and rows into
//! files.

use std::io::Write;

use indicatif::ProgressBar;
use pool_engines::EngineSpec;
use pool_outcome::{
    Budget, Margins, OptionError, Perturbation, SearchOptions, StudyError, StudyOption,
    StudyOptions, StudyPlan, StudyResult, DEFAULT_DTS, DEFAULT_SHOTS, QUICK_DTS, QUICK_SHOTS,
};
use pool_report::compare::{outcome_section, OutcomeStudy};

use crate::output::{csv_bytes, Staging};
use crate::CliError;

/// The study's options, as `compare` and `outcomes` both take them (grouped under their own
/// headings in `--help`).
#[derive(clap::Args, Debug, Clone)]
pub struct OutcomeArgs {
    /// Shots per family of the first look, 1 to 1000000 [default: 100; compare --quick: 12]
    #[arg(long, value_name = "N", help_heading = "Outcome study: shots")]
    pub outcome_shots: Option<u64>,
    /// Families of shots, comma-separated. Pool: cut (ghost-ball cut shots at a pocket over
    /// cut angle 0-75 degrees, speed and spin), thin_cut (the same at 45-75 degrees), bank
    /// (one-rail banks into a pocket across the table), break9, break15 (random breaks),
    /// straight (center-ball straight shots at a pocket: the known answer). Snooker, on
    /// pooltool_snooker: snooker_break (from the D into the reds), snooker_pot (a red cut at a
    /// pocket among the colours). Three-cushion, on pooltool_billiard: three_cushion (from the
    /// start position), three_cushion_random (from random layouts). A game's families are
    /// played on the listed tables of that game, or else on its own table
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "KIND,...",
        default_value = "cut,bank,break9,break15",
        help_heading = "Outcome study: shots"
    )]
    pub outcome_families: Vec<String>,
    /// Tables the families are played on, comma-separated built-in names (pool's need pockets
    /// on both long rails; snooker and three-cushion play on their own tables)
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME,...",
        default_value = "seven_foot,pooltool_pocket",
        help_heading = "Outcome study: shots"
    )]
    pub outcome_tables: Vec<String>,
    /// The time steps (s) the fixed-step schemes play in the first look, comma-separated, each
    /// in [1e-7, 1], at most 20 (a dt off the dt ladder joins it); the search then plays the
    /// ladder's other rungs [default: 1e-2,1e-3,1e-4; compare --quick: 1e-2,1e-3]
    #[arg(
        long,
        value_delimiter = ',',
        allow_negative_numbers = true,
        value_name = "DT,...",
        help_heading = "Outcome study: shots"
    )]
    pub outcome_dt: Vec<f64>,
    /// Seed of the study's shots (shot k of a family depends only on it, the family, the
    /// table and k)
    #[arg(long, default_value_t = 1, help_heading = "Outcome study: shots")]
    pub outcome_seed: u64,
    /// Rack model of the break families: lattice:<gap> (the racks' lattice, closest
    /// neighbours 2R + gap apart; lattice:1e-6 is the rack files' own), frozen (every
    /// neighbour touching) or jittered:<scale> (the lattice at gap = scale, each ball moved at
    /// random within scale/2, seeded by the shot: generic gaps 0 to 2 scale); scales in m, at
    /// most 0.05. The default is the balls' diameter tolerance (WPA, +-0.005 in)
    #[arg(
        long,
        value_name = "MODEL",
        default_value = "jittered:0.000127",
        help_heading = "Outcome study: shots"
    )]
    pub rack: String,
    /// Sample until decided: after each family's first look, every cell (an engine at a dt on
    /// a family: in-process engines, programs and peers alike) that an answer still needs
    /// plays twice its shots again, and the dt search plays the ladder's rungs, until every
    /// answer is complete or the budget is spent: <shots> per cell, <seconds>s of wall time
    /// after the first look (a look that would overrun it is not started: a slow engine is
    /// stopped by the seconds), both as <shots>,<seconds>s, or none (one look of
    /// --outcome-shots, no search). A cell whose estimate of the shots that would decide it is
    /// more than twice what is left stops at once [default: outcomes 3200; compare 3200,30s;
    /// --quick and --shard: none]
    #[arg(
        long,
        value_name = "BUDGET",
        help_heading = "Outcome study: sampling and search"
    )]
    pub outcome_budget: Option<String>,
    /// The ladder's finest rung (s), in [1e-7, 1e-2]: the dt ladder is {1, 2, 5} x 10^k from
    /// 1e-2 s down to it (13 rungs by default), each rung a cell at 5 % over the rungs
    #[arg(
        long,
        default_value_t = 1e-6,
        allow_negative_numbers = true,
        value_name = "DT",
        help_heading = "Outcome study: sampling and search"
    )]
    pub search_limit: f64,
    /// The most a search's candidate may cost per shot (s of wall time, estimated from its
    /// series' nearest dt as 1/dt), in (0, 86400]: a dearer dt is not played, and the answer
    /// says where the search stopped
    #[arg(
        long,
        default_value_t = 5.0,
        allow_negative_numbers = true,
        value_name = "S",
        help_heading = "Outcome study: sampling and search"
    )]
    pub search_max_shot: f64,
    /// The chaos floor: distance (m) every ball is moved, in a random direction, in [0, 0.1]
    #[arg(
        long,
        default_value_t = 1e-6,
        allow_negative_numbers = true,
        value_name = "M",
        help_heading = "Outcome study: the chaos floor"
    )]
    pub perturb_position: f64,
    /// The chaos floor: relative change of the cue's speed (uniform in +-this), in [0, 0.5]
    #[arg(
        long,
        default_value_t = 1e-4,
        allow_negative_numbers = true,
        value_name = "REL",
        help_heading = "Outcome study: the chaos floor"
    )]
    pub perturb_speed: f64,
    /// Shots per family whose reference is also played with every ball moved 1e-12, 1e-11,
    /// ..., 1e-3 m (the chaos curve, chaos.csv and chaos.png), at most --outcome-shots; 0 for
    /// none [default: 100; compare --quick: 12; outcomes --reference other than event: 0]
    #[arg(
        long,
        value_name = "N",
        help_heading = "Outcome study: the chaos floor"
    )]
    pub chaos_shots: Option<u64>,
    /// Shot by shot: the absolute part of the margin: an engine is within the floor when its
    /// rate of changed outcomes exceeds the floor's by at most this plus
    /// --margin-floor-relative times the floor's rate (shown by the interval of the
    /// difference), a probability in (0, 1)
    #[arg(
        long,
        default_value_t = 0.005,
        allow_negative_numbers = true,
        value_name = "P",
        help_heading = "Outcome study: margins"
    )]
    pub margin_floor: f64,
    /// Shot by shot: the part of the margin relative to the floor's rate, in [0, 10]
    #[arg(
        long,
        default_value_t = 0.2,
        allow_negative_numbers = true,
        value_name = "REL",
        help_heading = "Outcome study: margins"
    )]
    pub margin_floor_relative: f64,
    /// The statistics: margin of the rates (scratch, success, each pocket's, each first
    /// contact's), a difference of probabilities in (0, 1)
    #[arg(
        long,
        default_value_t = 0.02,
        allow_negative_numbers = true,
        value_name = "P",
        help_heading = "Outcome study: margins"
    )]
    pub margin_rate: f64,
    /// The statistics: margin of the mean object balls pocketed per shot, in (0, 15]
    #[arg(
        long,
        default_value_t = 0.05,
        allow_negative_numbers = true,
        value_name = "BALLS",
        help_heading = "Outcome study: margins"
    )]
    pub margin_balls: f64,
    /// The statistics: margin of the mean final cue-ball coordinates (m), in (0, 1]
    #[arg(
        long,
        default_value_t = 0.05,
        allow_negative_numbers = true,
        value_name = "M",
        help_heading = "Outcome study: margins"
    )]
    pub margin_position: f64,
    /// Final positions within this distance (m) agree (fields cue_position and positions),
    /// in (0, 1]
    #[arg(
        long,
        default_value_t = 1e-2,
        allow_negative_numbers = true,
        value_name = "M",
        help_heading = "Outcome study: margins"
    )]
    pub position_tol: f64,
    /// Drill-down replays, 0 to 10000 shots (0: none): after the study, at most N shots where
    /// an engine changed the outcome (d_outcome 1) are played again with snapshots by the
    /// reference, the floor and every engine that changed it, and written to
    /// outcomes/replays.json (report.html draws them). Shots are taken round-robin over the
    /// (family, table, engine) cells, so every cell with a changed outcome gets one before any
    /// gets two; the file stops at 12 MB. `cargo xtask replays` remakes it for a finished run
    #[arg(
        long,
        value_name = "N",
        default_value_t = crate::replays::DEFAULT_REPLAYS,
        help_heading = "Outcome study: output"
    )]
    pub replays: u64,
}

/// `compare`'s default sequential budget: after its first look, 30 s of looks where a claim can
/// still be decided (its whole run stays under 3 minutes on 2 cores).
pub const COMPARE_BUDGET: &str = "3200,30s";
/// `outcomes`'s: the study alone, where the shots decide.
pub const OUTCOMES_BUDGET: &str = "3200";

/// How the command line spells a study option (errors name it so).
pub fn flag(option: StudyOption) -> &'static str {
    match option {
        StudyOption::Shots => "--outcome-shots",
        StudyOption::Families => "--outcome-families",
        StudyOption::Tables => "--outcome-tables",
        StudyOption::Dts => "--outcome-dt",
        StudyOption::Engines => "--engines",
        StudyOption::Reference => "--reference",
        StudyOption::PerturbPosition => "--perturb-position",
        StudyOption::PerturbSpeed => "--perturb-speed",
        StudyOption::PositionTol => "--position-tol",
        StudyOption::MarginRate => "--margin-rate",
        StudyOption::MarginBalls => "--margin-balls",
        StudyOption::MarginPosition => "--margin-position",
        StudyOption::MarginFloor => "--margin-floor",
        StudyOption::MarginFloorRelative => "--margin-floor-relative",
        StudyOption::Rack => "--rack",
        StudyOption::SearchLimit => "--search-limit",
        StudyOption::SearchMaxShot => "--search-max-shot",
        StudyOption::Seed => "--outcome-seed",
        StudyOption::ChaosShots => "--chaos-shots",
        StudyOption::MaxEvents => "--max-events",
    }
}

/// A study option error as the command line says it: `--outcome-shots = 0: must be ...`.
pub fn option_error(e: &OptionError) -> CliError {
    let gap = if e.message.starts_with(':') { "" } else { " " };
    CliError::Input(format!("{}{gap}{}", flag(e.option), e.message))
}

impl OutcomeArgs {
    /// The margins these options give.
    pub fn margins(&self) -> Margins {
        Margins {
            rate: self.margin_rate,
            balls: self.margin_balls,
            position_m: self.margin_position,
            floor: self.margin_floor,
            floor_relative: self.margin_floor_relative,
        }
    }

    /// The checked plan: `schemes` at the study's time steps, then `extra` engines (played on
    /// the dt ladder too when `search_engines`: `outcomes`; `compare` plays each at its one dt),
    /// each judged against `reference` (the event engine, or `outcomes --reference`).
    ///
    /// # Errors
    /// Any option out of range or unknown, naming it (exit 2).
    pub fn plan(
        &self,
        quick: bool,
        schemes: &[pool_discrete::Scheme],
        (extra, search_engines): (&[EngineSpec], bool),
        reference: &EngineSpec,
        max_events: usize,
    ) -> Result<StudyPlan, CliError> {
        crate::args::in_range("--replays", self.replays, 0, crate::replays::MAX_REPLAYS)?;
        if let (Some(chaos), Some(shots)) = (self.chaos_shots, self.outcome_shots) {
            if chaos > shots {
                return Err(CliError::Input(format!(
                    "--chaos-shots {chaos} with --outcome-shots {shots}: the chaos curve plays \
                     at most --outcome-shots shots a family"
                )));
            }
        }
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
            reference: reference.clone(),
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
            margins: self.margins(),
            search: SearchOptions {
                limit_s: self.search_limit,
                max_shot_s: self.search_max_shot,
            },
            search_engines,
        };
        let racks = |table: &str| {
            crate::racks::study_racks("--outcome-tables", table).map_err(|e| e.to_string())
        };
        StudyPlan::new(&options, &racks).map_err(|e| option_error(&e))
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

/// The plan a shard's manifest records ([`manifest_options`] read back), to play its shots
/// again (`merge --verify`): the same families on the same tables, shots, seed, engines and
/// options. `source` names the manifest in messages.
///
/// # Errors
/// An option missing or out of range, or families and tables that are not a study's (exit 2).
pub fn plan_of_manifest(options: &[(String, String)], source: &str) -> Result<StudyPlan, CliError> {
    use StudyOption as O;
    let bad = |o: StudyOption, why: &str| CliError::Input(format!("{source}: {} {why}", flag(o)));
    let get = |o: StudyOption| -> Result<&str, CliError> {
        options
            .iter()
            .find(|(k, _)| k == flag(o))
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| bad(o, "is missing (made by an older version?)"))
    };
    let number = |o: StudyOption| -> Result<f64, CliError> {
        let v = get(o)?;
        v.parse::<f64>()
            .map_err(|_| bad(o, &format!("= {v:?}: not a number")))
    };
    let count = |o: StudyOption| -> Result<u64, CliError> {
        let v = get(o)?;
        v.parse::<u64>()
            .map_err(|_| bad(o, &format!("= {v:?}: not a count")))
    };
    let list = |o: StudyOption| -> Result<Vec<String>, CliError> {
        Ok(get(o)?
            .split(',')
            .filter(|x| !x.is_empty())
            .map(String::from)
            .collect())
    };
    // Recorded by a sequential study's shards only (`outcomes --look`): else the defaults.
    let number_or = |o: StudyOption, default: f64| -> Result<f64, CliError> {
        match options.iter().any(|(k, _)| k == flag(o)) {
            true => number(o),
            false => Ok(default),
        }
    };
    let (kinds, tables) = (list(O::Families)?, list(O::Tables)?);
    let pairs: Vec<(String, String)> = kinds.iter().cloned().zip(tables.iter().cloned()).collect();
    let unique = |v: &[String]| {
        let mut u: Vec<String> = Vec::new();
        for x in v {
            if !u.contains(x) {
                u.push(x.clone());
            }
        }
        u
    };
    let engines = list(O::Engines)?
        .iter()
        .map(|e| {
            e.parse::<EngineSpec>()
                .map_err(|why| bad(O::Engines, &format!("{e:?}: {why}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // Recorded since a study may have another reference: else the event engine.
    let reference = match options.iter().find(|(k, _)| k == flag(O::Reference)) {
        Some((_, v)) => v
            .parse::<EngineSpec>()
            .map_err(|why| bad(O::Reference, &format!("{v:?}: {why}")))?,
        None => EngineSpec::reference(),
    };
    // The event engine a stepped reference adds is among the recorded engines already.
    let study = StudyOptions {
        families: unique(&kinds),
        tables: unique(&tables),
        shots: count(O::Shots)?,
        seed: count(O::Seed)?,
        dts: Vec::new(),
        schemes: Vec::new(),
        engines,
        reference,
        perturbation: Perturbation {
            position_m: number(O::PerturbPosition)?,
            speed_rel: number(O::PerturbSpeed)?,
        },
        position_tol_m: number(O::PositionTol)?,
        max_events: usize::try_from(count(O::MaxEvents)?).unwrap_or(usize::MAX),
        rack: get(O::Rack)?
            .parse::<pool_harness::RackModel>()
            .map_err(|e| bad(O::Rack, &e.to_string()))?,
        chaos_shots: count(O::ChaosShots)?,
        margins: Margins {
            rate: number(O::MarginRate)?,
            balls: number(O::MarginBalls)?,
            position_m: number(O::MarginPosition)?,
            floor: number(O::MarginFloor)?,
            floor_relative: number(O::MarginFloorRelative)?,
        },
        search: SearchOptions {
            limit_s: number_or(O::SearchLimit, SearchOptions::default().limit_s)?,
            max_shot_s: number_or(O::SearchMaxShot, SearchOptions::default().max_shot_s)?,
        },
        // Shards are `outcomes`', which plays its engines on the ladder.
        search_engines: true,
    };
    let racks = |table: &str| {
        crate::racks::study_racks("--outcome-tables", table).map_err(|e| e.to_string())
    };
    let plan = StudyPlan::new(&study, &racks)
        .map_err(|e| CliError::Input(format!("{source}: {} {}", flag(e.option), e.message)))?;
    let made: Vec<(String, String)> = plan
        .families
        .iter()
        .map(|(k, t)| (k.name().to_string(), t.clone()))
        .collect();
    if made != pairs {
        return Err(bad(
            O::Families,
            "and --outcome-tables are not the families of a study (each family on each table)",
        ));
    }
    Ok(plan)
}

/// The options that decide a shard's rows and verdicts, for its manifest (in a fixed order,
/// spelled as the command line spells them).
pub fn manifest_options(plan: &StudyPlan) -> Vec<(String, String)> {
    let join = |v: Vec<String>| v.join(",");
    let kinds = join(
        plan.families
            .iter()
            .map(|f| f.0.name().to_string())
            .collect(),
    );
    let tables = join(plan.families.iter().map(|f| f.1.clone()).collect());
    let engines = join(plan.engines.iter().map(ToString::to_string).collect());
    let m = &plan.margins;
    [
        (StudyOption::Families, kinds),
        (StudyOption::Tables, tables),
        (StudyOption::Shots, plan.shots.to_string()),
        (StudyOption::Seed, plan.seed.to_string()),
        (StudyOption::Engines, engines),
        (StudyOption::Reference, plan.reference.to_string()),
        (
            StudyOption::PerturbPosition,
            format!("{:?}", plan.perturbation.position_m),
        ),
        (
            StudyOption::PerturbSpeed,
            format!("{:?}", plan.perturbation.speed_rel),
        ),
        (
            StudyOption::PositionTol,
            format!("{:?}", plan.position_tol_m),
        ),
        (StudyOption::MaxEvents, plan.max_events.to_string()),
        (StudyOption::MarginRate, format!("{:?}", m.rate)),
        (StudyOption::MarginBalls, format!("{:?}", m.balls)),
        (StudyOption::MarginPosition, format!("{:?}", m.position_m)),
        (StudyOption::MarginFloor, format!("{:?}", m.floor)),
        (
            StudyOption::MarginFloorRelative,
            format!("{:?}", m.floor_relative),
        ),
        (StudyOption::ChaosShots, plan.chaos_shots.to_string()),
        (StudyOption::Rack, plan.rack.to_string()),
    ]
    .into_iter()
    .map(|(o, v)| (flag(o).to_string(), v))
    .collect()
}

/// `outcomes`' own defaults, as clap gives them (for [`plan_args`]).
#[derive(clap::Parser)]
struct Defaults {
    #[command(flatten)]
    study: OutcomeArgs,
    #[arg(long, default_value_t = 1_000_000)]
    max_events: usize,
}

/// The options of `plan` that are not `cargo xtask outcomes`' defaults, as command-line
/// words (`--outcome-shots 9`, `--max-events 100000`, ...): what a printed `outcomes`
/// command must carry to play the same study (its families, tables, engines and budget are
/// the command's own).
pub fn plan_args(plan: &StudyPlan) -> Vec<String> {
    use clap::Parser;
    let Ok(d) = Defaults::try_parse_from(["outcomes"]) else {
        return Vec::new();
    };
    let Ok(default) = d.study.plan(
        false,
        &[],
        (&[], false),
        &EngineSpec::reference(),
        d.max_events,
    ) else {
        return Vec::new();
    };
    let skip = [
        flag(StudyOption::Families),
        flag(StudyOption::Tables),
        flag(StudyOption::Engines),
    ];
    let mut args: Vec<String> = Vec::new();
    let mine = manifest_options(plan);
    let theirs = manifest_options(&default);
    for ((k, v), (_, dv)) in mine.iter().zip(&theirs) {
        if v != dv && !skip.contains(&k.as_str()) {
            args.extend([k.clone(), v.clone()]);
        }
    }
    let (s, ds) = (&plan.search, &default.search);
    if s.limit_s != ds.limit_s {
        args.extend([
            flag(StudyOption::SearchLimit).into(),
            format!("{:?}", s.limit_s),
        ]);
    }
    if s.max_shot_s != ds.max_shot_s {
        args.extend([
            flag(StudyOption::SearchMaxShot).into(),
            format!("{:?}", s.max_shot_s),
        ]);
    }
    // The grid's dt are rungs of the ladder: another grid is another ladder.
    if plan.ladder.rungs() != default.ladder.rungs() {
        let grid: Vec<String> = (plan.engines.iter())
            .filter(|e| e.family() == pool_engines::DISCRETE)
            .filter_map(EngineSpec::dt)
            .map(|dt| format!("{dt:?}"))
            .fold(Vec::new(), |mut v, d| {
                if !v.contains(&d) {
                    v.push(d);
                }
                v
            });
        if !grid.is_empty() {
            args.extend([flag(StudyOption::Dts).into(), grid.join(",")]);
        }
    }
    args
}

/// What a study plays, in words for its first line: the families (kinds and tables), the shots,
/// and its engines grouped: series at the same dts as "4 schemes at 7 dts (1e-2 to 1e-5 s)",
/// then the others by name. With a `budget` (a sequential study) the laddered series are said to
/// be searched down the dt ladder.
pub fn plan_words(plan: &StudyPlan, budget: Option<&Budget>) -> String {
    let mut kinds: Vec<&str> = Vec::new();
    let mut tables: Vec<&str> = Vec::new();
    for (kind, table) in &plan.families {
        if !kinds.contains(&kind.name()) {
            kinds.push(kind.name());
        }
        if !tables.contains(&table.as_str()) {
            tables.push(table);
        }
    }
    // Each laddered series (family, variant) and the dts it plays at, in column order.
    let mut series: Vec<(String, bool, Vec<f64>)> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    for e in &plan.engines {
        let Some(dt) = e.dt() else {
            others.push(e.to_string());
            continue;
        };
        let (name, scheme) = match e {
            EngineSpec::Discrete { .. } => (e.variant(), true),
            EngineSpec::Exec { .. } => (e.variant(), false),
            _ => (e.family().to_string(), false),
        };
        let laddered = budget.is_some()
            && plan
                .laddered
                .iter()
                .any(|(f, v)| f == e.family() && *v == e.variant());
        let name = if laddered { format!("{name}*") } else { name };
        match series.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, _, dts)) => dts.push(dt),
            None => series.push((name, scheme, vec![dt])),
        }
    }
    // Series with the same dts said together: (dts, [(name, is a scheme)]).
    type Group = (Vec<f64>, Vec<(String, bool)>);
    let mut groups: Vec<Group> = Vec::new();
    for (name, scheme, dts) in series {
        match groups.iter_mut().find(|(d, _)| *d == dts) {
            Some((_, names)) => names.push((name, scheme)),
            None => groups.push((dts, vec![(name, scheme)])),
        }
    }
    let mut parts: Vec<String> = groups
        .iter()
        .map(|(dts, names)| {
            let list: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
            let what = match names.len() {
                1 => list[0].to_string(),
                n if names.iter().all(|(_, s)| *s) => format!("{n} schemes ({})", list.join(", ")),
                n => format!("{n} engines ({})", list.join(", ")),
            };
            let hi = dts.iter().copied().fold(f64::MIN, f64::max);
            let lo = dts.iter().copied().fold(f64::MAX, f64::min);
            if dts.len() == 1 {
                format!("{what} at dt {} s", pool_outcome::fmt_dt(hi))
            } else {
                format!(
                    "{what} at {} dts ({} to {} s)",
                    dts.len(),
                    pool_outcome::fmt_dt(hi),
                    pool_outcome::fmt_dt(lo)
                )
            }
        })
        .collect();
    parts.extend(others);
    let starred = parts.iter().any(|p| p.contains('*'));
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("{n} {one}")
        } else {
            format!("{n} {many}")
        }
    };
    let searched = if starred {
        format!(
            "; * searched down the dt ladder to {} s",
            pool_outcome::fmt_dt(plan.finest_rung_s())
        )
    } else {
        String::new()
    };
    format!(
        "{} ({}) on {} ({}), {} each; {} ({}) against {} and its chaos floor{searched}",
        plural(kinds.len(), "kind of shot", "kinds of shot"),
        kinds.join(", "),
        plural(tables.len(), "table", "tables"),
        tables.join(", "),
        plural(plan.shots as usize, "shot", "shots"),
        plural(plan.engines.len(), "run", "runs"),
        parts.join("; "),
        match plan.other_reference() {
            None => "the event reference".to_string(),
            Some(r) => format!("the reference {r}"),
        }
    )
}

/// The study's set-up, one sentence each, for its report.
pub fn describe(plan: &StudyPlan, budget: Option<&Budget>) -> Vec<String> {
    let mut families: Vec<String> = Vec::new();
    for (kind, table) in &plan.families {
        let f = format!("{} on {table}", kind.name());
        if !families.contains(&f) {
            families.push(f);
        }
    }
    vec![
        format!(
            "Families: {} ({} shots each in the first look, seed {}; `--outcome-shots`, \
             `--outcome-seed`).",
            families.join(", "),
            plan.shots,
            plan.seed
        ),
        format!(
            "Engines: {} ({}).",
            plan.engines
                .iter()
                .map(|e| format!("`{e}`"))
                .collect::<Vec<_>>()
                .join(", "),
            match plan.other_reference() {
                None => "the event engine is the reference".to_string(),
                Some(r) => format!("the reference is `{r}`: `--reference`"),
            }
        ),
        match budget {
            Some(b) => format!(
                "Sampled until decided within `--outcome-budget {b}` (its seconds after the \
                 first look; every engine, every look; the dt ladder's {} rungs down to {} s, \
                 at most {} s a shot: `--search-limit`, `--search-max-shot`).",
                plan.ladder.len(),
                pool_outcome::fmt_dt(plan.finest_rung_s()),
                plan.search.max_shot_s
            ),
            None => "One look of the first shots (`--outcome-budget none`): no sampling until \
                     decided, no dt search."
                .into(),
        },
        format!(
            "Chaos floor: every ball moved {:e} m in a random direction, the cue's speed changed \
             by up to {:e} relative (`--perturb-position`, `--perturb-speed`); balls the move \
             left overlapping pushed apart to touching; breaks racked again.",
            plan.perturbation.position_m, plan.perturbation.speed_rel
        ),
        format!(
            "Final positions agree within {} m (`--position-tol`).",
            plan.position_tol_m
        ),
        format!(
            "Breaks racked by `{}` (`--rack`: lattice:<gap>, frozen or jittered:<scale>).",
            plan.rack
        ),
    ]
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
    let mut csv = csv::Writer::from_writer(staging.create(pool_harness::run_files::SHOTS_CSV)?);
    let mut sink = |r: &pool_outcome::OutcomeShotRow| {
        csv.serialize(r)
            .map_err(|e| format!("writing outcomes/shots.csv: {e}"))
    };
    let result = match budget {
        Some(b) => {
            // Each look's runs join the bar as it starts: done of planned so far, and the look.
            let on_look = |look: u32, runs: u64| {
                if look == 1 {
                    bar.set_length(runs);
                } else {
                    bar.inc_length(runs);
                }
                bar.set_message(format!("look {look}"));
            };
            plan.run_sequential(b, pool, &mut sink, &|n| bar.inc(n), &on_look)
        }
        None => plan.run(lo, hi, pool, &mut sink, &|n| bar.inc(n)),
    }
    .map_err(study_error)?;
    csv.into_inner()
        .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {}", e.error())))?
        .flush()
        .map_err(|e| CliError::Run(format!("writing outcomes/shots.csv: {e}")))?;
    Ok(result)
}

/// A shard's check that every program engine (`exec:`) among `specs` starts on this machine
/// before it plays anything: each is started apart and sent `setup` (the study's first rack:
/// nothing moves) as one request ([`pool_exec::ExecEngine::check_start`]). A program missing
/// here (its path, its interpreter) would otherwise turn every one of its shots into a failed
/// row that the merge takes for the engine's own failures.
///
/// # Errors
/// [`CliError::Unstartable`] (exit 3), one line: `engine exec:<command>: cannot start on this
/// worker (<host>): <why>`.
pub fn check_programs_start<'a>(
    specs: impl IntoIterator<Item = &'a EngineSpec>,
    setup: &pool_sim::Setup,
) -> Result<(), CliError> {
    for spec in specs {
        let EngineSpec::Exec {
            command,
            timeout_s,
            dt,
            ..
        } = spec
        else {
            continue;
        };
        // The request the program will get, its dt included.
        let engine = pool_exec::ExecEngine::new(command, *timeout_s)
            .map_err(|e| CliError::Input(format!("engine {spec}: {e}")))?
            .with_dt(*dt);
        engine.check_start(setup).map_err(|why| {
            CliError::Unstartable(format!(
                "engine {spec}: cannot start on this worker ({}): {why}",
                host_name()
            ))
        })?;
    }
    Ok(())
}

/// [`check_programs_start`] for one process, on the 7-foot table's first rack: a program that
/// cannot start stops the command before any shot is played (exit 1).
///
/// # Errors
/// The first program that cannot start, one line (exit 1).
pub fn programs_start(specs: &[EngineSpec]) -> Result<(), CliError> {
    if !specs.iter().any(|s| matches!(s, EngineSpec::Exec { .. })) {
        return Ok(());
    }
    let racks = pool_outcome::Racks::on_table("seven_foot").map_err(CliError::Run)?;
    let Some(rack) = racks.first() else {
        return Ok(());
    };
    match check_programs_start(specs, rack) {
        Err(CliError::Unstartable(m)) => Err(CliError::Run(m.replace(" on this worker", ""))),
        other => other,
    }
}

/// This machine's host name (`?` when it has none that reads).
fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: gethostname writes at most `buf.len()` bytes into `buf`.
        if unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            if end > 0 {
                return pool_exec::escape_bytes(&buf[..end]);
            }
        }
    }
    std::env::var("COMPUTERNAME").unwrap_or_else(|_| "?".into())
}

/// A study's error as the command line reports it: bad input (exit 2) or a run that failed
/// (exit 1).
pub fn study_error(e: StudyError) -> CliError {
    match e {
        StudyError::Perturbation(m) => {
            CliError::Input(format!("--perturb-position / --perturb-speed: {m}"))
        }
        StudyError::Run(m) => CliError::Run(format!("outcome study, {m}")),
        StudyError::Input(m) => CliError::Input(m),
        StudyError::Output(m) => CliError::Run(m),
    }
}

/// The study's files besides the streamed `outcomes/shots.csv`: `outcomes.csv`,
/// `outcome_answer.csv`, `distributions.csv`, `distribution_answer.csv`, `chaos.csv`,
/// `outcomes/wall.csv` and the plots (`outcome_vs_dt`, `chaos`, `answer_grid`).
pub fn write_study(
    staging: &Staging,
    study: &OutcomeStudy,
    wall: &[pool_outcome::WallRow],
) -> Result<(), CliError> {
    staging.write("outcomes.csv", &csv_bytes(&study.rows)?)?;
    staging.write("outcome_answer.csv", &csv_bytes(&study.answers)?)?;
    staging.write("distributions.csv", &csv_bytes(&study.distributions)?)?;
    staging.write("distribution_answer.csv", &csv_bytes(&study.verdicts)?)?;
    staging.write("chaos.csv", &csv_bytes(&study.chaos)?)?;
    staging.write(pool_harness::run_files::WALL_CSV, &csv_bytes(wall)?)?;
    pool_report::plots::outcome_vs_dt(
        &study.rows,
        "outcome",
        study.reference_label(),
        &staging.path("outcome_vs_dt"),
    )?;
    pool_report::plots::answer_grid(
        &pool_report::compare::answer_grid(study),
        &staging.path("answer_grid"),
    )?;
    pool_report::plots::chaos_curve(&study.chaos, study.floor_m, &staging.path("chaos"))?;
    Ok(())
}

/// The study as its report reads it, from `result` of `plan` (sampled within `budget`).
pub fn study_of(plan: &StudyPlan, result: StudyResult, budget: Option<&Budget>) -> OutcomeStudy {
    let mut study = OutcomeStudy::new(
        &result.tally,
        &result.wall,
        describe(plan, budget),
        &plan.margins,
        (&plan.search, &plan.ladder),
        plan.seed,
    );
    study.budget_shots = budget.map_or(0, |b| b.shots);
    study.failed = result.failed;
    study.failures = result.failures;
    study.declined = result.declined;
    study.chaos = result.chaos;
    study.floor_m = plan.perturbation.position_m;
    study.budget = budget.map(ToString::to_string);
    name_plan(&mut study, plan);
    study
}

/// What a study's report says of its plan, however the study was tallied (one process, or
/// `merge` of its shards): its first look's shots, the options its commands carry, its
/// reference and how its commands start.
pub fn name_plan(study: &mut OutcomeStudy, plan: &StudyPlan) {
    study.first_shots = plan.shots;
    study.plan_args = plan_args(plan);
    study.reference = plan.other_reference().map(ToString::to_string);
    study.program = crate::workspace::invocation();
}

/// The report of a study run alone (`outcomes`, or `merge` of its shards).
pub fn study_report(study: &OutcomeStudy, wall: &str) -> String {
    let mut md = String::from("# Does the algorithm change the game?\n\n");
    md.push_str(&format!(
        "The outcome study alone (`cargo xtask outcomes`); wall time {wall}.\n\n"
    ));
    outcome_section(&mut md, study);
    // Names, commands and an engine's own words come from elsewhere: no raw HTML.
    pool_report::md::no_html(&md)
}
