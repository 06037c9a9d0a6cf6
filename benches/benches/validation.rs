//! The on-table check of a shot at the shot format's limits: `Setup::validate` of `balls`
//! resting balls on a rectangle whose rails are cut into `segments` straight segments, up to
//! 10,000 balls on [`pool_physics::MAX_TABLE_ELEMENTS`] segments; and the default 15-ball break.
//!
//! Run with `cargo bench -p benches --bench validation`; group `validate/<segments>x<balls>`,
//! throughput in balls (elements/s = balls checked per second).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use pool_physics::{BallParams, BallState, Cushion, Model, Table, Vec3};
use pool_sim::{Ball, Setup};

/// A 12 m x 6 m rectangle with its four rails cut into `segments` segments in all, and `balls`
/// resting balls on a grid over it.
fn setup(segments: usize, balls: usize) -> Setup {
    let (l, w) = (12.0, 6.0);
    let mut table = Table::rectangle("many", l, w, 0.036576);
    table.cushions.clear();
    let corners = [[0.0, 0.0], [l, 0.0], [l, w], [0.0, w], [0.0, 0.0]];
    let per = segments / 4;
    for (side, c) in corners.windows(2).enumerate() {
        for i in 0..per {
            let at = |f: f64| {
                [
                    c[0][0] + (c[1][0] - c[0][0]) * f,
                    c[0][1] + (c[1][1] - c[0][1]) * f,
                ]
            };
            table.cushions.push(Cushion {
                id: format!("s{side}_{i}"),
                p1: at(i as f64 / per as f64),
                p2: at((i + 1) as f64 / per as f64),
                height: 0.036576,
            });
        }
    }
    let params = BallParams::pool();
    let cols = ((balls as f64 * l / w).sqrt().ceil() as usize).max(1);
    let rows = balls.div_ceil(cols);
    let balls = (0..balls)
        .map(|n| {
            let (i, j) = (n % cols, n / cols);
            let x = 0.1 + (l - 0.2) * (i as f64 + 0.5) / cols as f64;
            let y = 0.1 + (w - 0.2) * (j as f64 + 0.5) / rows as f64;
            Ball {
                id: format!("b{n}"),
                state: BallState::new(
                    Vec3::new(x, y, params.radius),
                    Vec3::zeros(),
                    Vec3::zeros(),
                    params.radius,
                ),
            }
        })
        .collect();
    Setup {
        name: format!("{segments}x{}", rows * cols),
        physics: Model::pool(params),
        table: table.into(),
        balls,
        t_end: None,
        strike: None,
    }
}

fn validate(c: &mut Criterion) {
    let mut group = c.benchmark_group("validate");
    // The default 15-ball break (built-in table): the check every generated shot of a study
    // makes.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/shots/break_15ball.toml");
    let rack = pool_shots::load(&path).expect("default shot loads");
    group.throughput(Throughput::Elements(rack.balls.len() as u64));
    group.bench_function("break_15ball", |b| b.iter(|| rack.validate().unwrap()));
    group.sample_size(10);
    for (segments, balls) in [
        (100, 100),
        (1_000, 1_000),
        (10_000, 100),
        (10_000, 1_000),
        (10_000, 10_000),
    ] {
        let s = setup(segments, balls);
        s.validate().expect("the bench's shot is valid");
        group.throughput(Throughput::Elements(balls as u64));
        group.bench_with_input(
            BenchmarkId::from_parameter(format!("{segments}x{balls}")),
            &s,
            |b, s| b.iter(|| s.validate().unwrap()),
        );
    }
    group.finish();
}

criterion_group!(benches, validate);
criterion_main!(benches);
