//! One engine on one shot, run a fixed number of times: a steady workload for a profiler.
//! Instruction counts under callgrind repeat exactly whatever else the machine is doing, so
//! they judge a change on a loaded machine where wall time cannot.
//!
//! `cargo run --release -p benches --example profile_run -- <event|discrete> <shot> [runs]`,
//! e.g. `valgrind --tool=callgrind target/release/examples/profile_run discrete break_15ball 1`.
//! The discrete integrator runs at dt = 1e-4 s (the `discrete_ball_step_dt1e-4` bench group).
//! Prints the minimum and median wall time of one run (a loaded machine moves the median).

use std::path::Path;
use std::time::Instant;

use pool_discrete::{DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_sim::{Engine, Op};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: profile_run <event|discrete> <shot> [runs]";
    let (Some(kind), Some(name)) = (args.first(), args.get(1)) else {
        eprintln!("{usage}");
        std::process::exit(2);
    };
    let runs: u64 = match args.get(2).map(|s| s.parse()) {
        None => 1,
        Some(Ok(n)) => n,
        Some(Err(_)) => {
            eprintln!("{usage}: runs must be a whole number, got {:?}", args[2]);
            std::process::exit(2);
        }
    };
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/shots/{name}.toml"));
    let setup = match pool_shots::load(&path) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let engine: Box<dyn Engine> = match kind.as_str() {
        "event" => Box::new(EventEngine::default()),
        "discrete" => Box::new(DiscreteEngine::new(1e-4, Scheme::Exact)),
        other => {
            eprintln!("{usage}: unknown engine {other:?}");
            std::process::exit(2);
        }
    };
    let mut last = None;
    let mut times = Vec::with_capacity(runs as usize);
    for _ in 0..runs {
        let start = Instant::now();
        last = Some(std::hint::black_box(engine.run(&setup)));
        times.push(start.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    if let Some(out) = last {
        println!(
            "{kind} {name}: {} events, {} steps, {} ball-steps per run; {runs} runs, \
             min {:.1} us, median {:.1} us",
            out.events.len(),
            out.ops.get(Op::Step),
            out.ops.get(Op::Step) * setup.balls.len() as u64,
            times[0] * 1e6,
            times[times.len() / 2] * 1e6,
        );
    }
}
