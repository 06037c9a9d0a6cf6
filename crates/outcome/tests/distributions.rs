//! The game's statistics have power and keep their error rate: an engine with a deliberate
//! bias is shown to change its statistics on 15-ball breaks at the `outcomes` command's
//! default budget while shot by shot it is within the chaos floor margin; the event engine as
//! an engine keeps the game; the event engine on another seed is never called different; a
//! lattice rack's floor is shown not neutral and a jittered rack's never is.

use pool_engines::{EngineSpec, RunOptions};
use pool_outcome::{
    compare_independent, Budget, Decision, DistributionVerdict, FloorVerdict, Margins,
    OutcomeShotRow, Perturbation, Racks, SearchOptions, StudyOptions, StudyPlan, StudyResult,
    Verdict,
};
use pool_physics::Model;
use pool_sim::{Engine, Outcome, RackModel, Setup, DEFAULT_RACK};

fn racks(table: &str) -> Result<Racks, String> {
    Racks::on_table(table)
}

/// The event engine playing every shot with one ball parameter scaled by a factor
/// (registered as `biased:<parameter>=<factor>`).
struct Biased {
    inner: Box<dyn Engine>,
    parameter: String,
    factor: f64,
}

impl Engine for Biased {
    fn run(&self, setup: &Setup) -> Outcome {
        let mut s = setup.clone();
        let mut params = *s.physics.params();
        if let Some(v) = params.field_mut(&self.parameter) {
            *v *= self.factor;
        }
        s.physics = Model::new(params, s.physics.motion(), s.physics.resolver().clone());
        self.inner.run(&s)
    }
}

fn build_biased(args: &str, options: &RunOptions) -> Result<Box<dyn Engine>, String> {
    let (parameter, factor) = args
        .split_once('=')
        .ok_or("expected <parameter>=<factor>")?;
    let factor: f64 = factor
        .parse()
        .map_err(|_| format!("{args:?}: not a factor"))?;
    Ok(Box::new(Biased {
        inner: EngineSpec::reference()
            .build_with(options)
            .map_err(|e| e.to_string())?,
        parameter: parameter.to_string(),
        factor,
    }))
}

fn options(families: &[&str], shots: u64, seed: u64, rack: RackModel) -> StudyOptions {
    StudyOptions {
        families: families.iter().map(|s| s.to_string()).collect(),
        tables: vec!["seven_foot".into()],
        shots,
        seed,
        dts: Vec::new(),
        schemes: Vec::new(),
        engines: Vec::new(),
        reference: EngineSpec::reference(),
        perturbation: Perturbation::default(),
        position_tol_m: 1e-2,
        max_events: 1_000_000,
        margins: Margins::default(),
        chaos_shots: 0,
        rack,
        search: SearchOptions::default(),
        search_engines: true,
    }
}

fn play(options: &StudyOptions, budget: Option<Budget>) -> StudyResult {
    let plan = StudyPlan::new(options, &racks).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().build().unwrap();
    let mut sink = |_: &OutcomeShotRow| Ok(());
    match budget {
        Some(b) => plan.run_sequential(&b, &pool, &mut sink, &|_| {}, &|_, _| {}),
        None => plan.run(0, plan.total(), &pool, &mut sink, &|_| {}),
    }
    .unwrap()
}

fn verdicts(result: &StudyResult) -> Vec<DistributionVerdict> {
    result
        .tally
        .distribution()
        .evaluate(&Margins::default(), true, 1)
        .1
}

#[test]
fn a_friction_bias_changes_the_statistics_but_not_single_shots_beyond_the_floor() {
    pool_engines::register("biased", build_biased).unwrap();
    // Rolling friction doubled (the pool preset's mu_r 0.01 -> 0.02), and the event engine
    // itself beside it, at `outcomes`'s default budget (3200 shots per family). A 25 % bias
    // moves balls pocketed by about -0.07 a break, too near the 0.05-ball margin to show
    // within that budget either way.
    assert_eq!(pool_physics::BallParams::pool().mu_r, 0.01);
    let mut o = options(&["break15"], 100, 1, DEFAULT_RACK);
    o.engines = vec!["biased:mu_r=2".parse().unwrap(), EngineSpec::reference()];
    let result = play(&o, Some("3200".parse().unwrap()));
    let v = verdicts(&result);
    let floor = v.iter().find(|x| x.engine == "floor").unwrap();
    assert_ne!(floor.verdict, Verdict::NotNeutral, "{floor:?}");
    let biased = v.iter().find(|x| x.engine == "biased").unwrap();
    // More rolling friction: the balls roll shorter, so fewer are pocketed and the cue ball
    // stops sooner; the statistic furthest beyond its margin is named.
    assert_eq!(biased.verdict, Verdict::ChangesStatistics, "{biased:?}");
    assert!(
        ["balls_pocketed -", "cue_x", "cue_y"]
            .iter()
            .any(|s| biased.detail.starts_with(s)),
        "{biased:?}"
    );
    assert!(biased.n <= 3200, "{biased:?}");
    // Shot by shot it cannot be told from the floor: a break re-racked is as different.
    assert_eq!(
        biased.shot_by_shot,
        Some(FloorVerdict::Within),
        "{biased:?}"
    );
    // The event engine as an engine: the same games, decided early.
    let same = v.iter().find(|x| x.engine == "event").unwrap();
    assert_eq!(same.verdict, Verdict::Keeps, "{same:?}");
    assert!(same.n < 3200, "{same:?}");
}

/// The reference's rows of `n` 15-ball breaks of study seed `seed`.
fn reference_rows(n: u64, seed: u64) -> Vec<OutcomeShotRow> {
    let plan = StudyPlan::new(&options(&["break15"], n, seed, DEFAULT_RACK), &racks).unwrap();
    let pool = rayon::ThreadPoolBuilder::new().build().unwrap();
    let mut rows = Vec::new();
    let mut sink = |r: &OutcomeShotRow| {
        if r.run == pool_outcome::Run::Reference {
            rows.push(r.clone());
        }
        Ok(())
    };
    plan.run(0, plan.total(), &pool, &mut sink, &|_| {})
        .unwrap();
    rows
}

#[test]
fn the_reference_on_another_seed_is_not_called_different() {
    // Independent samples: the reference's breaks of seed 1 against those of seed 2 (paired by
    // index). At 3200 shots a side the rates' intervals are wider than the 2-point margin, so
    // "undecided" is the honest answer; what must never come is "changes".
    let (a, b) = (reference_rows(3200, 1), reference_rows(3200, 2));
    let a: Vec<&OutcomeShotRow> = a.iter().collect();
    let b: Vec<&OutcomeShotRow> = b.iter().collect();
    let (rows, v) = compare_independent(&a, &b, "break15", "seven_foot", &Margins::default(), 1);
    assert_ne!(v.verdict, Verdict::ChangesStatistics, "{v:?}");
    assert!(
        rows.iter().all(|r| r.decision != Decision::Beyond),
        "{rows:?}"
    );
    assert_eq!(v.n, 3200);
}

#[test]
fn a_lattice_racks_floor_is_not_neutral_and_a_jittered_ones_never_is() {
    // On the lattice, a micrometre moves the floor to another game: +0.25 balls pocketed per
    // break (docs/outcomes.md, "Racks"), beyond the 0.05-ball margin within 2000 breaks.
    let lattice = play(&options(&["break15"], 2000, 1, RackModel::LEGACY), None);
    let v = verdicts(&lattice);
    assert_eq!(v[0].engine, "floor");
    assert_eq!(v[0].verdict, Verdict::NotNeutral, "{:?}", v[0]);
    assert!(v[0].detail.starts_with("balls_pocketed +"), "{:?}", v[0]);
    let jittered = play(&options(&["break15"], 2000, 1, DEFAULT_RACK), None);
    let v = verdicts(&jittered);
    assert_ne!(v[0].verdict, Verdict::NotNeutral, "{:?}", v[0]);
}

/// The in-process biased engines of issue 39's must-show, on every default family at
/// `outcomes`' default budget: `cargo test --release -p pool-harness --test distributions --
/// --ignored --nocapture` prints one line per family and factor (a few minutes on 2 cores).
#[test]
#[ignore]
fn print_the_biased_engines_on_every_default_family() {
    let _ = pool_engines::register("biased", build_biased);
    let mut o = options(&["cut", "bank", "break9", "break15"], 100, 1, DEFAULT_RACK);
    o.tables = vec!["seven_foot".into(), "pooltool_pocket".into()];
    o.engines = ["biased:mu_r=1", "biased:mu_r=1.05", "biased:mu_r=1.25"]
        .iter()
        .map(|s| s.parse().unwrap())
        .collect();
    let result = play(&o, Some("3200".parse().unwrap()));
    for v in verdicts(&result).iter().filter(|v| v.engine == "biased") {
        println!(
            "| {} | {} | {} | {} | {:?} | {} | {} |",
            v.family,
            v.table,
            v.scheme,
            v.verdict.label(),
            v.shot_by_shot,
            v.n,
            v.detail
        );
    }
}
