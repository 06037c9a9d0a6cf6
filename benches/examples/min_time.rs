//! Minimum and median wall time of repeated runs, for a shared or loaded machine where
//! criterion's medians drift with other jobs: the minimum is the run least disturbed.
//!
//! `cargo run --release -p benches --example min_time [shot ...]` (default: the 9-ball and
//! 15-ball breaks, bank, ideal_many): each shot through the event engine for 3 s, then the
//! 15-ball break through the discrete integrator at dt = 1e-4 s (ns per ball-step, every ball
//! counted, as the `discrete_ball_step_dt1e-4` bench group).

use std::path::Path;
use std::time::Instant;

use pool_discrete::{DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_sim::{Engine, Op, Setup};

fn shot(name: &str) -> Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/shots/{name}.toml"));
    pool_shots::load(&path).expect("default shot loads")
}

/// Run times (s) of `f` repeated for about `seconds`, sorted.
fn times(seconds: f64, mut f: impl FnMut()) -> Vec<f64> {
    let mut ts = Vec::new();
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < seconds || ts.len() < 3 {
        let t0 = Instant::now();
        f();
        ts.push(t0.elapsed().as_secs_f64());
    }
    ts.sort_by(f64::total_cmp);
    ts
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let names: Vec<&str> = if args.is_empty() {
        vec!["break_9ball", "break_15ball", "bank", "ideal_many"]
    } else {
        args.iter().map(String::as_str).collect()
    };
    let engine = EventEngine::default();
    for name in names {
        let setup = shot(name);
        let events = engine.run(&setup).events.len();
        let ts = times(3.0, || {
            std::hint::black_box(engine.run(&setup));
        });
        println!(
            "event {name}: {events} events, {} runs, min {:.1} us, median {:.1} us",
            ts.len(),
            ts[0] * 1e6,
            ts[ts.len() / 2] * 1e6
        );
    }
    let setup = shot("break_15ball");
    let discrete = DiscreteEngine::new(1e-4, Scheme::Exact);
    let ball_steps = discrete.run(&setup).ops.get(Op::Step) * setup.balls.len() as u64;
    let ts = times(4.0, || {
        std::hint::black_box(discrete.run(&setup));
    });
    println!(
        "discrete break_15ball dt=1e-4: {} runs, min {:.1} ns/ball-step, median {:.1}",
        ts.len(),
        ts[0] * 1e9 / ball_steps as f64,
        ts[ts.len() / 2] * 1e9 / ball_steps as f64
    );
}
