//! Criterion benches: whole shots through both engines, and the root solvers on one query.
//!
//! Run with `cargo bench -p benches` (HTML reports under `target/criterion/`).

use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pool_discrete::{DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_roots::{earliest_entry, Alg1010, Companion, Ferrari, Isolator, RootSolver};
use pool_sim::{Engine, Setup};

fn shot(name: &str) -> Setup {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../data/shots/{name}.toml"));
    pool_shots::load(&path).expect("default shot loads")
}

const SHOTS: [&str; 5] = [
    "straight",
    "bank",
    "break_9ball",
    "break_15ball",
    "ideal_many",
];

fn event_engine(c: &mut Criterion) {
    let mut g = c.benchmark_group("event_engine");
    let engine = EventEngine::default();
    for name in SHOTS {
        let setup = shot(name);
        let events = engine.run(&setup).events.len() as u64;
        g.throughput(Throughput::Elements(events));
        g.bench_with_input(BenchmarkId::from_parameter(name), &setup, |b, s| {
            b.iter(|| engine.run(s))
        });
    }
    g.finish();
}

fn discrete_engine(c: &mut Criterion) {
    let mut g = c.benchmark_group("discrete_engine_dt1e-3");
    g.sample_size(10);
    let engine = DiscreteEngine::new(1e-3, Scheme::Exact);
    for name in SHOTS {
        let setup = shot(name);
        let steps = engine.run(&setup).ops.get(pool_sim::Op::Step);
        g.throughput(Throughput::Elements(steps));
        g.bench_with_input(BenchmarkId::from_parameter(name), &setup, |b, s| {
            b.iter(|| engine.run(s))
        });
    }
    g.finish();
}

/// Every backend on every family of `data/roots/cases.csv`: time per earliest-entry query
/// (throughput = queries). The committed cases are the same ones `cargo xtask roots` judges.
fn root_solvers(c: &mut Criterion) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/roots/cases.csv");
    let text = std::fs::read_to_string(&path).expect("data/roots/cases.csv");
    let cases = pool_harness::parse_root_cases(&text).expect("cases parse");
    let mut families: Vec<String> = cases.iter().map(|k| k.family.clone()).collect();
    families.dedup();
    families.sort();
    families.dedup();
    let solvers: [(&str, &dyn RootSolver); 4] = [
        ("isolator", &Isolator { max_horizon: 1e9 }),
        ("ferrari", &Ferrari),
        ("alg1010", &Alg1010),
        ("companion", &Companion),
    ];
    for fam in families {
        let ks: Vec<_> = cases.iter().filter(|k| k.family == fam).collect();
        let mut g = c.benchmark_group(format!("earliest_entry/{fam}"));
        g.throughput(Throughput::Elements(ks.len() as u64));
        for (name, s) in solvers {
            let mut scratch = Vec::new();
            g.bench_function(name, |b| {
                b.iter(|| {
                    for k in &ks {
                        std::hint::black_box(earliest_entry(
                            s,
                            std::hint::black_box(&k.c),
                            k.horizon,
                            &mut scratch,
                        ))
                        .ok();
                    }
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, event_engine, discrete_engine, root_solvers);
criterion_main!(benches);
