//! `cargo xtask roots`: evidence for the event engine's earliest-root finder.
//!
//! Case level: every backend against the independent references of `data/roots/cases.csv`.
//! Engine level: every backend driving the event engine on the default shots and on random
//! breaks (contact residuals, invariant failures, and breaks whose event log differs from the
//! default backend's).

use std::path::PathBuf;

use pool_engines::{EngineSpec, RunOptions};
use pool_event::distance_quartic;
use pool_harness::{
    check_outcome, evaluate_root_cases, parse_root_cases, random_break, violations, RootCase,
    SplitMix,
};
use pool_physics::{MotionState, Physics, Trajectory, Vec2, Vec3};
use pool_report::roots::{verdict_line, EngineRow, Evidence};
use pool_roots::{earliest_entry, RootSolver, Solver};
use pool_sim::Setup;
use rayon::prelude::*;
use serde::Serialize;

use crate::console::{errln, outln};
use crate::output::{csv_bytes, write_file_atomically};
use crate::roots_dir::write_roots_dir;
use crate::workspace::{resolve_shots, workspace_root};
use crate::CliError;

/// Options of `cargo xtask roots`.
#[derive(clap::Args, Debug, Clone)]
pub struct RootsArgs {
    /// Test cases with reference answers [default: <workspace>/data/roots/cases.csv]
    #[arg(long)]
    pub cases: Option<PathBuf>,
    /// Random breaks (per backend) for the engine-level evidence, 0 to 10000
    #[arg(long, default_value_t = 40)]
    pub breaks: usize,
    /// Timing passes per backend and family, 1 to 1000; the fastest is reported
    #[arg(long, default_value_t = 20)]
    pub repeats: usize,
    /// Instead of evaluating: write the polynomials the event engine solves on the default shots
    /// and random breaks to <workspace>/data/roots/captured.csv (input of make_cases.py)
    #[arg(long)]
    pub capture: bool,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
}

/// Largest cases file `--cases` may name (the committed one is under 1 MB).
const MAX_CASES_BYTES: u64 = 64 << 20;
/// Most random breaks of `--breaks` (per backend; about 4 ms each).
const MAX_BREAKS: usize = 10_000;
/// Most timing passes of `--repeats`.
const MAX_REPEATS: usize = 1_000;
/// Most timed root solves per backend, cases x `--repeats` (the committed cases at the default
/// 20 passes are 1.6e5; 1e8 is some minutes).
const MAX_TIMED_SOLVES: f64 = 1e8;

fn load_cases(args: &RootsArgs) -> Result<Vec<RootCase>, CliError> {
    let path = match &args.cases {
        Some(p) => p.clone(),
        None => workspace_root()?.join("data/roots/cases.csv"),
    };
    let bad = |e: &dyn std::fmt::Display| CliError::Input(format!("{}: {e}", path.display()));
    let size = std::fs::metadata(&path).map_err(|e| bad(&e))?.len();
    if size > MAX_CASES_BYTES {
        return Err(bad(&format!(
            "{size} bytes, more than the {MAX_CASES_BYTES} a cases file may have"
        )));
    }
    let text = std::fs::read_to_string(&path).map_err(|e| bad(&e))?;
    parse_root_cases(&text).map_err(|e| bad(&e))
}

/// Event budget of one engine-level evidence run.
const EVIDENCE_EVENT_BUDGET: usize = 20_000;

/// True when a run broke an invariant (see `pool_harness::violations`).
fn failing(setup: &Setup, o: &pool_sim::Outcome, samples: usize) -> bool {
    !violations(o, Some(&check_outcome(setup, o, samples))).is_empty()
}

fn signature(o: &pool_sim::Outcome) -> Vec<(pool_physics::EventKind, pool_sim::Agents)> {
    o.events.iter().map(|e| (e.kind, e.agents)).collect()
}

/// Engine-level evidence for every backend (runs in parallel over breaks).
pub fn evaluate_engine(shots: &[Setup], rack: &Setup, breaks: usize) -> Vec<EngineRow> {
    let run = |solver: Solver, s: &Setup| {
        // Culling off: it would hide a backend's spurious entries of provably positive
        // polynomials (the default backend's log is the same either way).
        let spec = EngineSpec::Event {
            solver,
            culling: false,
        };
        // A run that needs more events than this is chattering or looping: it counts as failing
        // ("no end") instead of holding the evidence up.
        let options = RunOptions {
            snapshots: Some(f64::INFINITY),
            max_events: Some(EVIDENCE_EVENT_BUDGET),
            ..RunOptions::default()
        };
        spec.build_with(&options).expect("known backend").run(s)
    };
    let scenarios: Vec<Setup> = (0..breaks as u64).map(|k| random_break(rack, k)).collect();
    let default_logs: Vec<_> = scenarios
        .par_iter()
        .map(|s| signature(&run(Solver::default(), s)))
        .collect();
    Solver::ALL
        .into_iter()
        .map(|solver| {
            let (mut bb, mut cu, mut fail) = (0.0f64, 0.0f64, 0);
            for s in shots {
                let o = run(solver, s);
                let rep = check_outcome(s, &o, 10);
                bb = bb.max(rep.max_ball_ball_residual_m);
                cu = cu.max(rep.max_cushion_residual_m);
                fail += usize::from(!violations(&o, Some(&rep)).is_empty());
            }
            let per_break: Vec<(usize, bool, bool)> = scenarios
                .par_iter()
                .zip(&default_logs)
                .map(|(s, d)| {
                    let o = run(solver, s);
                    (o.events.len(), failing(s, &o, 4), signature(&o) != *d)
                })
                .collect();
            EngineRow {
                backend: solver.name().to_string(),
                default_shots_max_ball_ball_residual_m: bb,
                default_shots_max_cushion_residual_m: cu,
                default_shots_failing: fail,
                breaks,
                break_events: per_break.iter().map(|b| b.0).sum(),
                breaks_failing: per_break.iter().filter(|b| b.1).count(),
                breaks_differing_from_default: per_break.iter().filter(|b| b.2).count(),
            }
        })
        .collect()
}

/// The default shots, and the 9-ball rack that random breaks start from.
fn default_shots_and_rack() -> Result<(Vec<Setup>, Setup), CliError> {
    let shots: Vec<Setup> = resolve_shots(&[])?
        .iter()
        .map(|f| pool_shots::load(f))
        .collect::<Result<_, _>>()?;
    let rack = shots
        .iter()
        .find(|s| s.name == "break_9ball")
        .cloned()
        .ok_or_else(|| CliError::Input("data/shots/break_9ball.toml is needed".into()))?;
    Ok((shots, rack))
}

/// Runs `cargo xtask roots`.
pub fn run(args: RootsArgs) -> Result<(), CliError> {
    crate::args::in_range("--breaks", args.breaks, 0, MAX_BREAKS)?;
    crate::args::in_range("--repeats", args.repeats, 1, MAX_REPEATS)?;
    if args.capture {
        return capture(&args);
    }
    let cases = load_cases(&args)?;
    let solves = cases.len() as f64 * args.repeats as f64;
    if solves > MAX_TIMED_SOLVES {
        return Err(CliError::Input(format!(
            "--repeats = {}: {} cases x {} passes = {solves:.1e} timed solves per backend, more \
             than {MAX_TIMED_SOLVES:.0e}; lower --repeats or give fewer cases",
            args.repeats,
            cases.len(),
            args.repeats
        )));
    }
    let staging = args.run.stage("roots")?;
    let start = std::time::Instant::now();
    errln!(
        "roots: {} cases, {} backends; engine evidence on the default shots and {} random breaks",
        cases.len(),
        Solver::ALL.len(),
        args.breaks
    );
    let (stats, answers) = evaluate_root_cases(&cases, args.repeats);
    let (shots, rack) = default_shots_and_rack()?;
    let engine = evaluate_engine(&shots, &rack, args.breaks);
    write_roots_dir(
        &staging,
        &Evidence {
            cases: &cases,
            stats: &stats,
            answers: &answers,
            engine: Some(&engine),
            breaks: args.breaks,
        },
    )?;
    let dir = staging.commit()?;
    outln!("{}", verdict_line(&stats))?;
    outln!(
        "report: {} ({:.1} s)",
        dir.join("roots/report.md").display(),
        start.elapsed().as_secs_f64()
    )
}

/// The polynomials the event engine solves, captured from real runs.
#[derive(Serialize, Clone, Copy)]
struct Captured {
    family: &'static str,
    c0: f64,
    c1: f64,
    c2: f64,
    c3: f64,
    c4: f64,
    horizon: f64,
}

fn capture(args: &RootsArgs) -> Result<(), CliError> {
    let (shots, rack) = default_shots_and_rack()?;
    let mut runs: Vec<Setup> = shots
        .into_iter()
        .filter(|s| s.physics.preset_name() == Some("pool"))
        .collect();
    runs.extend((0..args.breaks.min(50) as u64).map(|k| random_break(&rack, 1000 + k)));
    let mut pools: [Vec<Captured>; 4] = Default::default();
    let names = [
        "captured_ball_ball",
        "captured_ball_pocket",
        "captured_cushion_face",
        "captured_cushion_point",
    ];
    for s in &runs {
        let every_event = RunOptions {
            snapshots: Some(f64::INFINITY),
            ..RunOptions::default()
        };
        let o = EngineSpec::reference()
            .build_with(&every_event)
            .expect("the reference builds")
            .run(s);
        let physics = &s.physics;
        for snap in &o.snapshots {
            let moving: Vec<usize> = (0..snap.states.len())
                .filter(|&i| snap.states[i].motion.is_translating())
                .collect();
            for &i in &moving {
                let ti = physics.trajectory(&snap.states[i]);
                let radius = physics.radius(&snap.states[i]);
                for (j, sj) in snap.states.iter().enumerate() {
                    if j == i
                        || sj.motion == MotionState::Pocketed
                        || (j < i && moving.contains(&j))
                    {
                        continue;
                    }
                    let tj = physics.trajectory(sj);
                    let touch = physics.contact_distance(&snap.states[i], sj);
                    let c = distance_quartic(&ti, &tj, touch);
                    push(&mut pools[0], names[0], c, ti.valid_for.min(tj.valid_for));
                }
                for p in &s.table.pockets {
                    let at = Trajectory::at_rest(Vec3::new(p.center[0], p.center[1], radius));
                    push(
                        &mut pools[1],
                        names[1],
                        distance_quartic(&ti, &at, p.radius),
                        ti.valid_for,
                    );
                }
                for cu in &s.table.cushions {
                    let n = cu.inward_normal();
                    let side = n.dot(&(Vec2::new(ti.c.x, ti.c.y) - cu.start()));
                    if side >= 0.0 {
                        let c = [
                            side - radius,
                            n.x * ti.b.x + n.y * ti.b.y,
                            n.x * ti.a.x + n.y * ti.a.y,
                            0.0,
                            0.0,
                        ];
                        push(&mut pools[2], names[2], c, ti.valid_for);
                    }
                    let at = Trajectory::at_rest(Vec3::new(cu.p1[0], cu.p1[1], radius));
                    push(
                        &mut pools[3],
                        names[3],
                        distance_quartic(&ti, &at, radius),
                        ti.valid_for,
                    );
                }
            }
        }
    }
    // Keep up to 400 per family: half with an entry, half without (by the default backend),
    // sampled deterministically.
    let iso = pool_roots::default_solver();
    let mut rng = SplitMix::new(20261121);
    let mut rows = Vec::new();
    for pool in pools.iter_mut() {
        let (mut hit, mut miss): (Vec<&Captured>, Vec<&Captured>) = (Vec::new(), Vec::new());
        for c in pool.iter() {
            let coeffs = [c.c0, c.c1, c.c2, c.c3, c.c4];
            if entry(&iso, &coeffs, c.horizon).is_some() {
                hit.push(c);
            } else {
                miss.push(c);
            }
        }
        for group in [hit, miss] {
            let mut g = group;
            for k in (1..g.len()).rev() {
                let j = (rng.unit() * (k + 1) as f64) as usize;
                g.swap(k, j.min(k));
            }
            rows.extend(g.into_iter().take(200).copied());
        }
    }
    let path = workspace_root()?.join("data/roots/captured.csv");
    write_file_atomically(&path, &csv_bytes(&rows)?)?;
    outln!(
        "captured {} polynomials from {} runs -> {} (now run: python3 data/roots/make_cases.py)",
        rows.len(),
        runs.len(),
        path.display()
    )
}

fn entry(s: &dyn RootSolver, c: &[f64; 5], h: f64) -> Option<f64> {
    earliest_entry(s, c, h, &mut Vec::new()).unwrap_or(None)
}

fn push(pool: &mut Vec<Captured>, family: &'static str, c: [f64; 5], horizon: f64) {
    if c.iter().all(|x| x.is_finite()) && horizon.is_finite() && horizon > 0.0 {
        pool.push(Captured {
            family,
            c0: c[0],
            c1: c[1],
            c2: c[2],
            c3: c[3],
            c4: c[4],
            horizon,
        });
    }
}
