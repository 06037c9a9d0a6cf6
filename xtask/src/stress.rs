//! `cargo xtask stress`: many random, realistic shots with the invariants checked after every
//! event; failing shots are written as shot files that reproduce them.

use std::collections::BTreeMap;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pool_discrete::{DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_harness::{check_outcome, random_break, violations, SplitMix};
use pool_physics::{BallState, Physics, Vec2, Vec3};
use pool_sim::{Ball, Engine, Outcome, Setup};
use rayon::prelude::*;

use crate::output::Staging;
use crate::simulate::EngineName;
use crate::CliError;

/// Options of `cargo xtask stress`.
#[derive(clap::Args, Debug, Clone)]
pub struct StressArgs {
    /// Number of random shots
    #[arg(long, default_value_t = 1000)]
    pub shots: u64,
    /// Seed of the first shot (shot k uses seed + k)
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Evolution algorithm under test
    #[arg(long, value_enum, default_value = "event")]
    pub engine: EngineName,
    /// Time step of the discrete integrator (s)
    #[arg(long, default_value_t = 1e-4)]
    pub dt: f64,
    /// Event budget per shot (event engine): a shot needing more fails as "no end"
    #[arg(long, default_value_t = 100_000)]
    pub max_events: usize,
    /// Failing shots tolerated before the command fails (a ratchet for CI: lower it as fixes
    /// land; 0 is the goal)
    #[arg(long, default_value_t = 0)]
    pub allow_failures: usize,
    #[command(flatten)]
    pub run: crate::output::RunArgs,
    /// Worker threads [default: all cores]
    #[arg(long)]
    pub jobs: Option<usize>,
}

/// Random but realistic shot number `k`: a 9-ball or 15-ball break with a random cue strike, or
/// a scatter of 2-16 balls with random velocities and spins.
fn scenario(racks: &[Setup], seed: u64) -> Setup {
    let mut rng = SplitMix::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    match seed % 3 {
        0 => random_break(&racks[0], seed),
        1 => random_break(&racks[1 % racks.len()], seed),
        _ => scatter(&racks[0], &mut rng, seed),
    }
}

/// 2-16 balls placed at random (no overlap, clear of the cushions and pockets) on the rack's
/// table, each with a random velocity (0-6 m/s) and spin (up to one rolling spin per axis).
fn scatter(template: &Setup, rng: &mut SplitMix, seed: u64) -> Setup {
    let mut s = template.clone();
    s.name = format!("scatter_{seed}");
    let radius = s.physics.radius();
    let table = &s.table;
    let n = 2 + (rng.unit() * 15.0) as usize;
    let mut balls: Vec<Ball> = Vec::with_capacity(n);
    let mut tries = 0;
    while balls.len() < n && tries < 10_000 {
        tries += 1;
        let p = Vec2::new(
            rng.range(radius, table.length - radius),
            rng.range(radius, table.width - radius),
        );
        let clear = balls
            .iter()
            .all(|b| (b.state.r.xy() - p).norm() >= 2.0 * radius + 1e-6)
            && table.cushion_overlap(p, radius, -1e-6).is_none()
            && table
                .pockets
                .iter()
                .all(|k| (p - k.center_vec()).norm() >= k.radius + 1e-6);
        if !clear {
            continue;
        }
        let speed = rng.range(0.0, 6.0);
        let angle = rng.range(0.0, std::f64::consts::TAU);
        let v = Vec3::new(angle.cos(), angle.sin(), 0.0) * speed;
        let spin = speed.max(0.5) / radius;
        let w = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ) * spin;
        balls.push(Ball {
            id: format!("b{}", balls.len() + 1),
            state: BallState::new(Vec3::new(p.x, p.y, radius), v, w, radius),
        });
    }
    s.balls = balls;
    s
}

/// The invariants one shot broke (empty when it kept them all). The event engine's outcome
/// has snapshots at every event, so it gets the full check; the discrete integrator's overlaps
/// are its own error, so only its energy is checked between samples.
fn broken(setup: &Setup, o: &Outcome, event_based: bool) -> Vec<&'static str> {
    if event_based {
        return violations(o, Some(&check_outcome(setup, o, 4)));
    }
    let mut out = violations(o, None);
    let physics = &setup.physics;
    let energy = |st: &[BallState]| st.iter().map(|b| physics.kinetic_energy(b)).sum::<f64>();
    if o.snapshots
        .windows(2)
        .any(|w| energy(&w[1].states) > energy(&w[0].states) * (1.0 + 1e-12) + 1e-15)
    {
        out.push("energy_rise");
    }
    out
}

/// Runs `cargo xtask stress`.
pub fn run(args: StressArgs) -> Result<(), CliError> {
    if !(args.dt.is_finite() && args.dt > 0.0 && args.dt <= 1.0) {
        return Err(CliError::Input(format!(
            "--dt = {}: must be in (0, 1] s",
            args.dt
        )));
    }
    let racks: Vec<Setup> = ["break_9ball", "break_15ball"]
        .iter()
        .map(|n| {
            let f = crate::compare::workspace_root().join(format!("data/shots/{n}.toml"));
            pool_shots::load(&f)
        })
        .collect::<Result<_, _>>()?;
    let (out_root, run_name) = args.run.location("stress")?;
    let staging = Staging::new(&out_root.join(&run_name))?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| CliError::Run(format!("thread pool: {e}")))?;
    let bar = ProgressBar::with_draw_target(Some(args.shots), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} shots {per_sec}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let start = std::time::Instant::now();
    let event_based = matches!(args.engine, EngineName::Event);
    let results: Vec<(u64, usize, Vec<&'static str>)> = pool.install(|| {
        (0..args.shots)
            .into_par_iter()
            .map(|k| {
                let seed = args.seed.wrapping_add(k);
                let s = scenario(&racks, seed);
                let o = if event_based {
                    let mut e = EventEngine::default().with_snapshots(true);
                    e.max_events = args.max_events;
                    e.run(&s)
                } else {
                    DiscreteEngine::new(args.dt, Scheme::Exact)
                        .with_sampling(Some(0.01))
                        .run(&s)
                };
                let bad = broken(&s, &o, event_based);
                if !bad.is_empty() {
                    let text = pool_shots::to_toml(
                        &s,
                        &format!(
                            "stress failure (seed {seed}, {} engine): {}",
                            if event_based { "event" } else { "discrete" },
                            bad.join(", ")
                        ),
                    );
                    staging
                        .write(&format!("stress/failures/{}.toml", s.name), text.as_bytes())
                        .ok();
                }
                bar.inc(1);
                (seed, o.events.len(), bad)
            })
            .collect()
    });
    bar.finish_and_clear();
    let secs = start.elapsed().as_secs_f64();
    let mut events: Vec<usize> = results.iter().map(|r| r.1).collect();
    events.sort_unstable();
    let mut by_invariant: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, _, bad) in &results {
        for b in bad {
            *by_invariant.entry(b).or_default() += 1;
        }
    }
    let failures = results.iter().filter(|r| !r.2.is_empty()).count();
    let summary = format!(
        "stress: {} shots ({} engine), {} events, {failures} failing shots{}; events per shot \
         median {} max {}; {:.0} shots/s ({secs:.1} s)",
        results.len(),
        if event_based { "event" } else { "discrete" },
        events.iter().sum::<usize>(),
        if by_invariant.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                by_invariant
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        events.get(events.len() / 2).copied().unwrap_or(0),
        events.last().copied().unwrap_or(0),
        results.len() as f64 / secs,
    );
    staging.write("stress/summary.txt", format!("{summary}\n").as_bytes())?;
    let dir = staging.commit()?;
    println!("{summary}");
    if failures > args.allow_failures {
        return Err(CliError::Run(format!(
            "{failures} failing shots (more than the {} allowed) written to {} (reproduce one \
             with `cargo xtask simulate FILE`)",
            args.allow_failures,
            dir.join("stress/failures").display()
        )));
    }
    if failures > 0 {
        eprintln!(
            "warning: {failures} failing shots (at most {} allowed) written to {}",
            args.allow_failures,
            dir.join("stress/failures").display()
        );
    }
    Ok(())
}
