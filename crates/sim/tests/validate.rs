//! `Setup::validate` finds the first overlapping pair and the first ball off its own table's
//! region through grids (near-linear in balls and table elements): its answers must be a scan
//! of every pair's and every element's.

use pool_physics::{BallParams, BallState, Model, Table, Vec3};
use pool_sim::{Ball, Setup};
use proptest::prelude::*;

/// Resting pool balls at `centers` on a 2 m x 1 m box drawn as a table of its own (so the
/// grid-based checks run, not the built-in tables' shortcut).
fn setup(centers: &[(f64, f64)]) -> Setup {
    let params = BallParams::pool();
    let balls = (centers.iter().enumerate())
        .map(|(i, &(x, y))| Ball {
            id: format!("b{i}"),
            state: BallState::new(
                Vec3::new(x, y, params.radius),
                Vec3::zeros(),
                Vec3::zeros(),
                params.radius,
            ),
        })
        .collect();
    Setup {
        name: "grid".into(),
        physics: Model::pool(params),
        table: Table::rectangle("my_box", 2.0, 1.0, 0.036576).into(),
        balls,
        t_end: None,
        strike: None,
    }
}

/// The first error a scan of every pair in order would give: the ball `j` of the first `i`
/// with an overlapping `j > i` (the smallest such `j`), as `balls[j].r`.
fn first_overlap(s: &Setup) -> Option<String> {
    let r = BallParams::pool().radius;
    for i in 0..s.balls.len() {
        for j in i + 1..s.balls.len() {
            let d = (s.balls[i].state.r.xy() - s.balls[j].state.r.xy()).norm();
            if d < 2.0 * r - 1e-9 {
                return Some(format!("balls[{j}].r"));
            }
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Balls dropped at random, many of them overlapping: the pair named is the scan's.
    #[test]
    fn the_overlap_named_is_the_first_of_a_scan_of_every_pair(
        centers in prop::collection::vec((0.03f64..1.97, 0.03f64..0.97), 2..60),
    ) {
        let s = setup(&centers);
        let expected = first_overlap(&s);
        match s.validate() {
            Ok(()) => prop_assert_eq!(expected, None),
            Err(e) => {
                let overlaps = e.why.contains("overlaps ball");
                prop_assert_eq!(overlaps.then(|| e.field.split(' ').next().unwrap().to_string()), expected, "{}", e);
            }
        }
    }
}

#[test]
fn balls_off_a_table_of_its_own_or_on_its_cushions_are_named() {
    let ok = setup(&[(0.5, 0.5), (1.5, 0.5)]);
    ok.validate().unwrap();
    // Outside the box: rolling away from it, it meets nothing.
    let e = setup(&[(0.5, 0.5), (2.5, 0.5)]).validate().unwrap_err();
    assert!(
        e.field.starts_with("balls[1].r") && e.why.contains("off the playing area"),
        "{e}"
    );
    // Closer than R to the right rail.
    let e = setup(&[(1.98, 0.5)]).validate().unwrap_err();
    assert!(e.why.contains("overlaps cushion"), "{e}");
}
