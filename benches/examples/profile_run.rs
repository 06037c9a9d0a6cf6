//! One engine on one shot, run a fixed number of times: a steady workload for a profiler.
//! Instruction counts under callgrind repeat exactly whatever else the machine is doing, so
//! they judge a change on a loaded machine where wall time cannot.
//!
//! `cargo run --release -p benches --example profile_run -- <engine spec> <shot> [runs]` (a
//! default shot's name or a shot file's path, with `@<preset>` to run it under another physics
//! preset, e.g. `break_9ball@pooltool_default`),
//! e.g. `valgrind --tool=callgrind target/release/examples/profile_run discrete break_15ball 1`.
//! The spec is any `pool_engines::EngineSpec` (`event`, `discrete:1e-3:euler`, ...); plain
//! `discrete` is dt = 1e-4 s (the `discrete_ball_step_dt1e-4` bench group).
//! Prints the minimum and median wall time of one run (a loaded machine moves the median),
//! and for the discrete integrator the same per ball-step.

use std::path::Path;
use std::time::Instant;

use pool_engines::EngineSpec;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage =
        "usage: profile_run <engine spec: event, discrete, discrete:<dt>, ...> <shot> [runs]";
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
    // A default shot by name, or any shot file by path; `<shot>@<preset>` runs it under
    // another physics preset (as `compare --physics` names its runs).
    let (file, preset) = match name.split_once('@') {
        Some((f, p)) => (f, Some(p)),
        None => (name.as_str(), None),
    };
    let path = if file.ends_with(".toml") {
        Path::new(file).to_path_buf()
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/shots/{file}.toml"))
    };
    let setup = pool_shots::load(&path)
        .map_err(|e| e.to_string())
        .and_then(|s| match preset {
            Some(p) => pool_harness::with_physics(&s, p),
            None => Ok(s),
        });
    let setup = match setup {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let spec = if kind == "discrete" {
        "discrete:1e-4"
    } else {
        kind
    };
    let engine = match spec.parse::<EngineSpec>().and_then(|s| s.build()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{usage}: {e}");
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
        let ball_steps = out.ops.get("step") * setup.balls.len() as u64;
        let (min, median) = (times[0], times[times.len() / 2]);
        print!(
            "{kind} {name}: {} events, {} steps, {ball_steps} ball-steps per run; {runs} runs, \
             min {:.1} us, median {:.1} us",
            out.events.len(),
            out.ops.get("step"),
            min * 1e6,
            median * 1e6,
        );
        if ball_steps > 0 {
            // Every ball counts, moving or not, as in the `discrete_ball_step_dt1e-4` group.
            let per = 1e9 / ball_steps as f64;
            print!(" ({:.1} / {:.1} ns per ball-step)", min * per, median * per);
        }
        println!();
    }
}
