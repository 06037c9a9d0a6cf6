//! The whole outcome study as one plan ("does it change the game?"): which families of shots on
//! which tables, which engines, the chaos floor's perturbation; checked once ([`StudyPlan::new`])
//! and run over any range of its jobs ([`StudyPlan::run`]) on a thread pool. The command line
//! (`compare`, `outcomes`) and Python call the same functions; they only parse options and write
//! files.

use pool_discrete::Scheme;
use pool_engines::EngineSpec;
use pool_sim::RackModel;

use crate::game::families::family_shot;
use crate::game::family::FamilyKind;
use crate::game::perturb::Perturbation;
use crate::game::ruleset::rules::Racks;
use crate::plan::search::{Ladder, SearchOptions};
use crate::stats::levels::{Levels, MarginName, Margins, STUDY_ALPHA};
use crate::tally::changes::OutcomeTally;
use crate::tally::rows::MAX_SHOTS;
use crate::tally::rows::{OutcomeShotRow, WallRow};

/// The time steps (s) of the first look: the dt ladder's decades over the steps games and
/// robots use. The search then plays the ladder's other rungs where the answer needs them,
/// coarse to fine ([`crate::plan::search`]).
pub const DEFAULT_DTS: [f64; 3] = [1e-2, 1e-3, 1e-4];
/// `compare --quick`'s.
pub const QUICK_DTS: [f64; 2] = [1e-2, 1e-3];
/// Shots per family by default.
pub const DEFAULT_SHOTS: u64 = 100;
/// `compare --quick`'s.
pub const QUICK_SHOTS: u64 = 12;
/// Most time steps in a study.
pub const MAX_DTS: usize = 20;
/// Most ball-steps one study may plan (estimated before any run, as compare's sweep).
pub const MAX_STUDY_BALL_STEPS: f64 = 1e12;
/// A generous bound on how long a family's shot lasts (s), for that estimate only: random
/// breaks at 12 m/s roll for 10-20 s.
const SHOT_SECONDS: f64 = 15.0;

/// What a study is asked for, as plain values (the command line's options, or Python's
/// arguments); [`StudyPlan::new`] checks them.
#[derive(Clone, Debug)]
pub struct StudyOptions {
    /// Family kinds by name ([`FamilyKind::name`]), in run order.
    pub families: Vec<String>,
    /// Built-in tables the families are played on, in run order.
    pub tables: Vec<String>,
    /// Shots per family, 1 to [`MAX_SHOTS`].
    pub shots: u64,
    /// Seed of the shots.
    pub seed: u64,
    /// Time steps (s) of the fixed-step schemes, each in [1e-7, 1], at most [`MAX_DTS`].
    pub dts: Vec<f64>,
    /// The fixed-step schemes played at every dt.
    pub schemes: Vec<Scheme>,
    /// More engines, after the schemes.
    pub engines: Vec<EngineSpec>,
    /// The engine every run is judged against, its chaos floor the same engine on the
    /// perturbed shots: the event engine ([`EngineSpec::reference`]) by default. A stepped
    /// engine here (one with a dt, finer than every dt its own series plays) judges a series
    /// against itself at a fine dt: what changes the game then is the dt, and the event engine,
    /// added as an engine, shows what the model changes ("model or dt").
    pub reference: EngineSpec,
    /// The chaos floor's perturbation.
    pub perturbation: Perturbation,
    /// Final positions within this distance (m) agree, in (0, 1].
    pub position_tol_m: f64,
    /// Event budget of every run.
    pub max_events: usize,
    /// Equivalence margins of the verdicts.
    pub margins: Margins,
    /// Shots per family whose reference is also played perturbed at every size of
    /// [`CHAOS_SIZES`] (the chaos curve), at most `shots`; 0 for none.
    pub chaos_shots: u64,
    /// How the breaks' racks are placed ([`pool_sim::DEFAULT_RACK`] for real racks).
    pub rack: RackModel,
    /// How far a sequential study searches the dt ladder for where each engine keeps and changes
    /// the game.
    pub search: SearchOptions,
    /// Whether `engines` with a dt (peers, programs) are played on the dt ladder and searched
    /// as the schemes are (`outcomes`); else each is a cell of its own at the answer's whole
    /// level (`compare`, which names each peer at one dt).
    pub search_engines: bool,
}

/// An option of the study, for errors that name it as the caller spells it (the command
/// line's `--outcome-shots`, Python's `shots`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StudyOption {
    /// [`StudyOptions::shots`].
    Shots,
    /// [`StudyOptions::families`].
    Families,
    /// [`StudyOptions::tables`].
    Tables,
    /// [`StudyOptions::dts`].
    Dts,
    /// [`StudyOptions::engines`].
    Engines,
    /// [`StudyOptions::reference`].
    Reference,
    /// [`Perturbation::position_m`].
    PerturbPosition,
    /// [`Perturbation::speed_rel`].
    PerturbSpeed,
    /// [`StudyOptions::position_tol_m`].
    PositionTol,
    /// [`Margins::rate`].
    MarginRate,
    /// [`Margins::balls`].
    MarginBalls,
    /// [`Margins::position_m`].
    MarginPosition,
    /// [`Margins::floor`].
    MarginFloor,
    /// [`Margins::floor_relative`].
    MarginFloorRelative,
    /// [`StudyOptions::rack`].
    Rack,
    /// [`SearchOptions::limit_s`].
    SearchLimit,
    /// [`SearchOptions::max_shot_s`].
    SearchMaxShot,
    /// [`StudyOptions::seed`].
    Seed,
    /// [`StudyOptions::chaos_shots`].
    ChaosShots,
    /// [`StudyOptions::max_events`].
    MaxEvents,
}

/// An option whose value the study cannot use: which, and what is wrong (the text after the
/// option's name: `= 0: must be 1 to 1000000`, `: unknown family "x" ...`, or a value and
/// why, `discrete:1e-2: already in the study`; a message that does not start with `:` follows
/// the name after a space).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The option.
    pub option: StudyOption,
    /// What is wrong, to follow the option's name.
    pub message: String,
}

impl std::fmt::Display for OptionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let gap = if self.message.starts_with(':') {
            ""
        } else {
            " "
        };
        write!(f, "{:?}{gap}{}", self.option, self.message)
    }
}

/// The perturbation sizes (m) of the chaos curve: 1e-12 to 1e-3 m, a decade apart.
pub const CHAOS_SIZES: [f64; 10] = [
    1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3,
];

/// One point of the chaos curve (`chaos.csv`): how often the reference's outcome changes when
/// every ball of the shot is moved by `perturbation_m` (the cue's speed untouched).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ChaosRow {
    /// Family kind.
    pub family: String,
    /// Table.
    pub table: String,
    /// Distance every ball is moved (m), in a random direction.
    pub perturbation_m: f64,
    /// Shots.
    pub n: u64,
    /// Shots whose outcome (first contact, pocketed balls and pockets, scratch, end) changed.
    pub changed: u64,
    /// changed / n.
    pub rate: f64,
    /// Wilson 95 % interval of the rate.
    pub ci_low: f64,
    /// Its upper end.
    pub ci_high: f64,
}

/// Sums chaos rows of the same family, table and size (a study's pieces) and recomputes their
/// rates, in first-seen order.
pub fn merge_chaos(rows: impl IntoIterator<Item = ChaosRow>) -> Vec<ChaosRow> {
    let mut out: Vec<ChaosRow> = Vec::new();
    for r in rows {
        match out.iter_mut().find(|o| {
            (
                o.family.as_str(),
                o.table.as_str(),
                o.perturbation_m.to_bits(),
            ) == (
                r.family.as_str(),
                r.table.as_str(),
                r.perturbation_m.to_bits(),
            )
        }) {
            Some(o) => {
                o.n += r.n;
                o.changed += r.changed;
            }
            None => out.push(r),
        }
    }
    for o in &mut out {
        o.rate = if o.n == 0 {
            f64::NAN
        } else {
            o.changed as f64 / o.n as f64
        };
        (o.ci_low, o.ci_high) = crate::stats::rates::wilson_interval(o.changed, o.n);
    }
    out
}

/// A checked study: which shots, which runs.
#[derive(Clone, Debug)]
pub struct StudyPlan {
    /// (kind, table) of each family, in run order.
    pub families: Vec<(FamilyKind, String)>,
    /// Each family's racks on its table (every game's there).
    pub racks: Vec<Racks>,
    /// Shots per family.
    pub shots: u64,
    /// Seed of the shots.
    pub seed: u64,
    /// The engine every run is judged against ([`StudyOptions::reference`]).
    pub reference: EngineSpec,
    /// Every engine judged against it, in column order.
    pub engines: Vec<EngineSpec>,
    /// The chaos floor's perturbation.
    pub perturbation: Perturbation,
    /// Position tolerance (m).
    pub position_tol_m: f64,
    /// Event budget of every run.
    pub max_events: usize,
    /// Equivalence margins of the verdicts.
    pub margins: Margins,
    /// Shots per family of the chaos curve (at most `shots`).
    pub chaos_shots: u64,
    /// How the breaks' racks are placed.
    pub rack: RackModel,
    /// The dt search's options.
    pub search: SearchOptions,
    /// The dt ladder every laddered series is played on: the grid's dt and {1, 2, 5} x 10^k
    /// down to the search's limit.
    pub ladder: Ladder,
    /// The laddered series: (engine family, variant) of the schemes, and of the engines with a
    /// dt when [`StudyOptions::search_engines`].
    pub laddered: Vec<(String, String)>,
}

/// An engine's runs declined as outside its model (not a defect: the study's shots are pool
/// shots, and an engine of the ideal model declines them all).
#[derive(Debug, Clone, PartialEq)]
pub struct Decline {
    /// The engine's spec, as the study names its run.
    pub engine: String,
    /// Runs it declined.
    pub runs: u64,
    /// The first declined run's reason, without the shot's name.
    pub reason: String,
}

impl Decline {
    /// Counts one declined run of `engine` in `list`, keeping the first `reason` (its first
    /// line, after a leading `shot "<name>": `).
    pub fn note(list: &mut Vec<Decline>, engine: &str, reason: &str) {
        if let Some(d) = list.iter_mut().find(|d| d.engine == engine) {
            d.runs += 1;
            return;
        }
        let line = reason.lines().next().unwrap_or("").trim();
        let line = match line.strip_prefix("shot \"") {
            Some(rest) => rest.split_once("\": ").map_or(line, |(_, r)| r),
            None => line,
        };
        list.push(Decline {
            engine: engine.to_string(),
            runs: 1,
            reason: line.to_string(),
        });
    }

    /// One line: `` `exec:prog` declined 800 run(s): only the ideal model ``.
    pub fn line(&self) -> String {
        format!(
            "`{}` declined {} run(s) as outside its model: {}",
            self.engine, self.runs, self.reason
        )
    }
}

/// What a study (or a piece of one) produced.
#[derive(Debug, Default)]
pub struct StudyResult {
    /// Per shot and run, in job order.
    pub tally: OutcomeTally,
    /// Wall times per family and run.
    pub wall: Vec<WallRow>,
    /// Engine runs that failed (not declined).
    pub failed: u64,
    /// The first few failures, one line each.
    pub failures: Vec<String>,
    /// Engines that declined runs as outside their model.
    pub declined: Vec<Decline>,
    /// The chaos curve's counts over the jobs run ([`merge_chaos`] joins pieces).
    pub chaos: Vec<ChaosRow>,
}

impl StudyPlan {
    /// The checked plan of `options`; `racks(table)` gives every game's racks on a built-in
    /// table ([`Racks::on_table`]), or why there are none. Each family is played on the
    /// listed tables its game plays on, or else on its game's own table.
    ///
    /// # Errors
    /// The option ([`StudyOption`]) and what is wrong with its value: a count or a size out of
    /// range, an unknown or repeated family, table, dt or engine (an `engines` spec that is
    /// one of `schemes` at a dt, or given twice), a table a family cannot be played on, a study
    /// too large to run.
    pub fn new(
        options: &StudyOptions,
        racks: &dyn Fn(&str) -> Result<Racks, String>,
    ) -> Result<StudyPlan, OptionError> {
        use StudyOption as O;
        let err = |option, message: String| OptionError { option, message };
        let shots = options.shots;
        if !(1..=MAX_SHOTS).contains(&shots) {
            return Err(err(
                O::Shots,
                format!("= {shots}: must be 1 to {MAX_SHOTS}"),
            ));
        }
        let perturbation = options.perturbation;
        perturbation.validate().map_err(|(which, v, max)| {
            let option = if which == "position" {
                O::PerturbPosition
            } else {
                O::PerturbSpeed
            };
            err(option, format!("= {v:?}: must be a number in [0, {max}]"))
        })?;
        options.margins.validate().map_err(|e| {
            let option = match e.margin {
                MarginName::Rate => O::MarginRate,
                MarginName::Balls => O::MarginBalls,
                MarginName::Position => O::MarginPosition,
                MarginName::Floor => O::MarginFloor,
                MarginName::FloorRelative => O::MarginFloorRelative,
            };
            err(
                option,
                format!("= {:?}: must be a number in {}", e.value, e.range),
            )
        })?;
        options.search.validate().map_err(|e| {
            let option = match e.option {
                "limit" => O::SearchLimit,
                _ => O::SearchMaxShot,
            };
            err(option, format!("= {:?}: must be in {}", e.value, e.range))
        })?;
        options
            .rack
            .validate()
            .map_err(|e| err(O::Rack, format!("{}: {e}", options.rack)))?;
        if !(options.position_tol_m > 0.0 && options.position_tol_m <= 1.0) {
            return Err(err(
                O::PositionTol,
                format!(
                    "= {:?}: must be a number in (0, 1] m",
                    options.position_tol_m
                ),
            ));
        }
        let dts = &options.dts;
        if dts.len() > MAX_DTS {
            return Err(err(
                O::Dts,
                format!(
                    ": {} time steps, more than the {MAX_DTS} a study may have",
                    dts.len()
                ),
            ));
        }
        let mut engines = Vec::new();
        for &scheme in &options.schemes {
            for (k, &dt) in dts.iter().enumerate() {
                if dts[..k].contains(&dt) {
                    return Err(err(O::Dts, format!("= {dt:?}: given twice")));
                }
                engines.push(
                    EngineSpec::discrete(dt, scheme).map_err(|e| err(O::Dts, format!("= {e}")))?,
                );
            }
        }
        for spec in &options.engines {
            // A run twice would count its shots twice: n doubled, an interval too narrow.
            let name = spec.to_string();
            if engines.iter().any(|e| e.to_string() == name) {
                return Err(err(
                    O::Engines,
                    format!(
                        "{name}: already in the study (given twice, or one of the schemes at a \
                         study dt); each engine is played once"
                    ),
                ));
            }
            engines.push(spec.clone());
        }
        let reference = options.reference.clone();
        check_reference(&reference, &engines).map_err(|m| err(O::Reference, m))?;
        if reference != EngineSpec::reference()
            && !engines.iter().any(|e| *e == EngineSpec::reference())
        {
            // Against a stepped reference the event engine's own change is the model's share.
            engines.push(EngineSpec::reference());
        }
        let mut kinds = Vec::new();
        for name in &options.families {
            let kind = FamilyKind::from_name(name.trim()).ok_or_else(|| {
                err(
                    O::Families,
                    format!(
                        ": unknown family {name:?}{} (expected some of {})",
                        pool_engines::suggestion(name.trim(), &FamilyKind::ALL.map(|k| k.name())),
                        FamilyKind::ALL.map(|k| k.name()).join(", ")
                    ),
                )
            })?;
            if kinds.contains(&kind) {
                return Err(err(O::Families, format!(": {name:?} given twice")));
            }
            kinds.push(kind);
        }
        // Each family on the listed tables its game plays on; a game's family that no listed
        // table plays goes to its game's own table (snooker's families to the snooker table),
        // after the listed ones.
        let mut tables: Vec<(String, Racks)> = Vec::new();
        let mut pairs: Vec<(FamilyKind, usize)> = Vec::new();
        for (k, table) in options.tables.iter().enumerate() {
            let table = table.trim();
            if options.tables[..k].iter().any(|t| t.trim() == table) {
                return Err(err(O::Tables, format!(": {table:?} given twice")));
            }
            let on_table = racks(table).map_err(|e| err(O::Tables, format!(": {e}")))?;
            tables.push((table.to_string(), on_table));
            let t = tables.len() - 1;
            pairs.extend(
                kinds
                    .iter()
                    .filter(|k| k.game().plays_on(table))
                    .map(|&k| (k, t)),
            );
        }
        for &kind in &kinds {
            let home = kind.game().home_table();
            let Some(home) = home.filter(|_| !pairs.iter().any(|(k, _)| *k == kind)) else {
                continue;
            };
            let t = match tables.iter().position(|(name, _)| name == home) {
                Some(t) => t,
                None => {
                    let on_table = racks(home).map_err(|e| err(O::Tables, format!(": {e}")))?;
                    tables.push((home.to_string(), on_table));
                    tables.len() - 1
                }
            };
            pairs.push((kind, t));
        }
        let mut families = Vec::new();
        let mut on_tables = Vec::new();
        for (kind, t) in pairs {
            let (table, on_table) = &tables[t];
            // One shot of each family now: a table it cannot be played on is bad input.
            family_shot(
                kind,
                on_table,
                &options.rack,
                kind.shot_seed(table, options.seed, 0),
            )
            .map_err(|e| {
                err(
                    O::Tables,
                    format!("{table} (racked by {}): {e}", options.rack),
                )
            })?;
            families.push((kind, table.clone()));
            on_tables.push(on_table.clone());
        }
        if families.is_empty() {
            return Err(err(
                O::Families,
                ": no family to play on the tables given".into(),
            ));
        }
        let laddered_specs: Vec<&EngineSpec> = engines
            .iter()
            .filter(|e| {
                e.dt().is_some()
                    && (matches!(e, EngineSpec::Discrete { .. }) || options.search_engines)
            })
            .collect();
        let grid: Vec<f64> = laddered_specs.iter().filter_map(|e| e.dt()).collect();
        let ladder = Ladder::new(&grid, Ladder::limit_for(options.search.limit_s, &reference));
        let mut laddered: Vec<(String, String)> = Vec::new();
        for e in laddered_specs {
            let key = (e.family().to_string(), e.variant());
            if !laddered.contains(&key) {
                laddered.push(key);
            }
        }
        let plan = StudyPlan {
            families,
            racks: on_tables,
            shots,
            seed: options.seed,
            reference,
            engines,
            perturbation,
            position_tol_m: options.position_tol_m,
            max_events: options.max_events,
            margins: options.margins,
            chaos_shots: options.chaos_shots.min(shots),
            rack: options.rack,
            search: options.search,
            ladder,
            laddered,
        };
        plan.check_work()?;
        Ok(plan)
    }

    /// The levels the study's cells are held to: the answer's level, split over the ladder's
    /// rungs for a laddered series.
    pub fn levels(&self) -> Levels {
        Levels {
            alpha: STUDY_ALPHA,
            rungs: self.ladder.len().max(1),
            laddered: self.laddered.clone(),
            position_bin_m: self.margins.position_m / 50.0,
        }
    }

    /// The ladder's finest rung (s): the search's limit, or the rung above a stepped
    /// reference's dt.
    pub fn finest_rung_s(&self) -> f64 {
        self.ladder.finest().unwrap_or(self.search.limit_s)
    }

    /// The reference when it is not the event engine (`outcomes --reference`), which reports
    /// name; `None` for the event engine.
    pub fn other_reference(&self) -> Option<&EngineSpec> {
        (self.reference != EngineSpec::reference()).then_some(&self.reference)
    }

    /// Whether `spec` is played on the ladder (searched), rather than as a cell of its own.
    pub fn is_laddered(&self, spec: &EngineSpec) -> bool {
        spec.dt().is_some()
            && self
                .laddered
                .iter()
                .any(|(e, v)| e == spec.family() && *v == spec.variant())
    }

    /// Jobs of the whole study: every family's shots, family by family.
    pub fn total(&self) -> u64 {
        self.families.len() as u64 * self.shots
    }

    /// Runs per job (the reference, the floor, every engine), for progress bars.
    pub fn runs_per_job(&self) -> u64 {
        2 + self.engines.len() as u64
    }

    /// Runs of jobs `[lo, hi)` for a progress bar: [`StudyPlan::runs_per_job`] each, and the
    /// chaos curve's [`CHAOS_SIZES`] runs of the reference on each of its shots (a stepped
    /// reference's chaos curve can be most of a study's time).
    pub fn runs_in(&self, lo: u64, hi: u64) -> u64 {
        hi.saturating_sub(lo) * self.runs_per_job() + self.chaos_runs_in(lo, hi)
    }

    /// The chaos curve's runs among jobs `[lo, hi)`: [`CHAOS_SIZES`] runs of the reference on
    /// each shot below `chaos_shots` of its family.
    pub fn chaos_runs_in(&self, lo: u64, hi: u64) -> u64 {
        let chaos_jobs: u64 = (0..self.families.len() as u64)
            .map(|f| {
                let first = f * self.shots;
                let (a, b) = (lo.max(first), hi.min(first + self.chaos_shots));
                b.saturating_sub(a)
            })
            .sum();
        chaos_jobs * CHAOS_SIZES.len() as u64
    }

    /// Refuses a study whose fixed-step runs would take more than [`MAX_STUDY_BALL_STEPS`],
    /// estimated at [`SHOT_SECONDS`] per shot.
    fn check_work(&self) -> Result<(), OptionError> {
        let per_shot: f64 = self
            .engines
            .iter()
            .filter_map(EngineSpec::dt)
            .map(|dt| SHOT_SECONDS / dt)
            .sum();
        let balls: f64 = self
            .families
            .iter()
            .map(|(kind, _)| kind.game().balls(*kind))
            .sum();
        let work = per_shot * balls * self.shots as f64;
        if work > MAX_STUDY_BALL_STEPS {
            return Err(OptionError {
                option: StudyOption::Shots,
                message: format!(
                    "= {}: the study would take about {work:.1e} ball-steps (shots x balls x \
                     {SHOT_SECONDS} s / dt), more than the {MAX_STUDY_BALL_STEPS:.0e} one run \
                     may; fewer shots, fewer families or larger time steps",
                    self.shots
                ),
            });
        }
        Ok(())
    }
}

/// Refuses a stepped reference not finer than every dt its own series plays among `engines`
/// (a run judged against a coarser run of its own engine, or against itself). The message
/// follows the option's name.
fn check_reference(reference: &EngineSpec, engines: &[EngineSpec]) -> Result<(), String> {
    let Some(ref_dt) = reference.dt() else {
        return Ok(());
    };
    let name = reference.to_string();
    let finest = engines
        .iter()
        .filter(|e| e.family() == reference.family() && e.variant() == reference.variant())
        .filter_map(EngineSpec::dt)
        .fold(f64::INFINITY, f64::min);
    if finest <= ref_dt {
        return Err(format!(
            "= {name}: its dt ({ref_dt:e} s) is not finer than {finest:e} s, where its series \
             also plays; a stepped reference judges coarser steps of an engine against a finer one"
        ));
    }
    Ok(())
}

/// How far a sequential study may go: shots per family and wall seconds (no look starts
/// after them; every family plays its first look).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Budget {
    /// Most shots per family.
    pub shots: u64,
    /// Most wall seconds of the whole study, if any.
    pub seconds: Option<f64>,
}

impl std::str::FromStr for Budget {
    type Err = String;

    /// `<shots>`, `<seconds>s`, or `<shots>,<seconds>s` in either order (shots 1 to
    /// [`MAX_SHOTS`], seconds in (0, 1e6]); a budget of seconds alone allows [`MAX_SHOTS`]
    /// shots. At most one count and one duration: a second of either is an error naming it.
    fn from_str(text: &str) -> Result<Self, String> {
        if text.trim().is_empty() {
            return Err("empty budget".into());
        }
        let (mut shots, mut seconds) = (None, None);
        for part in text.split(',').map(str::trim) {
            if let Some(secs) = part.strip_suffix('s') {
                let v: f64 = secs
                    .parse()
                    .map_err(|_| format!("{part:?} is not a number of seconds"))?;
                if !(v > 0.0 && v <= 1e6) {
                    return Err(format!("{part:?}: seconds must be in (0, 1e6]"));
                }
                if let Some(first) = seconds.replace(v) {
                    return Err(format!(
                        "{part:?}: a second duration (after {first}s): a budget is at most one \
                         count of shots and one of seconds"
                    ));
                }
            } else {
                let v: u64 = part
                    .parse()
                    .map_err(|_| format!("{part:?} is not a count of shots or <N>s"))?;
                if !(1..=MAX_SHOTS).contains(&v) {
                    return Err(format!("{part:?}: shots must be 1 to {MAX_SHOTS}"));
                }
                if let Some(first) = shots.replace(v) {
                    return Err(format!(
                        "{part:?}: a second count of shots (after {first}; seconds end in s, \
                         e.g. {part}s): a budget is at most one count of shots and one of seconds"
                    ));
                }
            }
        }
        Ok(Budget {
            shots: shots.unwrap_or(MAX_SHOTS),
            seconds,
        })
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seconds {
            Some(s) => write!(f, "{},{s}s", self.shots),
            None => write!(f, "{}", self.shots),
        }
    }
}

/// Tallies a study's `outcomes/shots.csv` rows read back (a shard's), shot by shot, and
/// returns the rows of engines that could not run their shot.
///
/// # Errors
/// A row that does not parse (the CSV reader's message).
pub fn tally_shot_rows(
    tally: &mut OutcomeTally,
    rows: impl IntoIterator<Item = Result<OutcomeShotRow, String>>,
) -> Result<Vec<OutcomeShotRow>, String> {
    let mut failed = Vec::new();
    let mut shot: Vec<OutcomeShotRow> = Vec::new();
    for row in rows {
        let row = row?;
        let same = shot.first().is_some_and(|s| {
            (s.family.as_str(), s.table.as_str(), s.index)
                == (row.family.as_str(), row.table.as_str(), row.index)
        });
        if !same && !shot.is_empty() {
            tally.add_shot(&shot);
            shot.clear();
        }
        if row.failure.is_some() {
            failed.push(row.clone());
        }
        shot.push(row);
    }
    tally.add_shot(&shot);
    Ok(failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_budget_is_at_most_one_count_and_one_duration() {
        let b = |t: &str| t.parse::<Budget>();
        assert_eq!(
            b("3200").unwrap(),
            Budget {
                shots: 3200,
                seconds: None
            }
        );
        assert_eq!(
            b("45s").unwrap(),
            Budget {
                shots: MAX_SHOTS,
                seconds: Some(45.0)
            }
        );
        assert_eq!(
            b(" 30s , 800 ").unwrap(),
            Budget {
                shots: 800,
                seconds: Some(30.0)
            }
        );
        for (text, part) in [
            ("6400,5100", "\"5100\": a second count"),
            ("100,5s,7", "\"7\": a second count"),
            ("3s,1s", "\"1s\": a second duration"),
            ("", "empty"),
            ("5,", "\"\" is not a count"),
            ("0", "shots must be 1"),
            ("-3s", "seconds must be in"),
        ] {
            let e = b(text).unwrap_err();
            assert!(e.contains(part), "{text:?}: {e}");
        }
        // Written back, a budget reads as itself.
        for text in ["3200", "3200,30s", "45s"] {
            let v = b(text).unwrap();
            assert_eq!(v.to_string().parse::<Budget>().unwrap(), v);
        }
    }
}
