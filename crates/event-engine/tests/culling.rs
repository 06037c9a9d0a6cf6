//! Culling never changes a prediction: over random realistic states (both models, every motion
//! state, balls far apart, near each other, touching), every prediction with culling on equals,
//! bit for bit, the prediction with culling off; with a caller's limit, it equals it or drops an
//! entry later than the limit.

use pool_event::EventOps;
use pool_event::Predictor;
use pool_physics::{BallParams, BallState, Model, Physics, PreparedTable, Table, Vec3};
use pool_roots::Isolator;
use proptest::prelude::*;

const R: f64 = 0.028575;

fn physics(ideal: bool) -> Model {
    if ideal {
        Model::ideal(R, 0.170097)
    } else {
        Model::pool(BallParams::pool())
    }
}

/// A ball somewhere on (or slightly beyond the cushions of) a 7-foot table, with a velocity up
/// to 10 m/s and spin; `kind` picks rolling, sliding, spinning or stationary.
fn ball() -> impl Strategy<Value = BallState> {
    (
        -0.05f64..2.05,
        -0.05f64..1.05,
        0.0f64..10.0,
        0.0f64..std::f64::consts::TAU,
        prop::array::uniform3(-200.0f64..200.0),
        0u8..4,
    )
        .prop_map(|(x, y, speed, phi, w, kind)| {
            let r = Vec3::new(x, y, R);
            let v = Vec3::new(speed * phi.cos(), speed * phi.sin(), 0.0);
            let w = Vec3::new(w[0], w[1], w[2]);
            match kind {
                0 => BallState::settled(r, v, Vec3::new(-v.y / R, v.x / R, w.z), R),
                1 => BallState::settled(r, v, w, R),
                2 => BallState::settled(r, Vec3::zeros(), Vec3::new(0.0, 0.0, w.z), R),
                _ => BallState::settled(r, Vec3::zeros(), Vec3::zeros(), R),
            }
        })
}

/// A second ball placed relative to `a`: at a gap of 10^k m beyond contact (k from -13 to 0) or
/// overlapping by up to 1e-9 m, in a random direction.
fn near(a: &BallState, b: &BallState, log_gap: f64, phi: f64, overlap: bool) -> BallState {
    let gap = if overlap {
        -1e-9 * 10f64.powf(log_gap / 13.0)
    } else {
        10f64.powf(log_gap)
    };
    let d = 2.0 * R + gap;
    BallState {
        r: Vec3::new(a.r.x + d * phi.cos(), a.r.y + d * phi.sin(), R),
        ..*b
    }
}

fn predictors<'a>(p: &'a Model, s: &'a Isolator) -> (Predictor<'a>, Predictor<'a>) {
    let culled = Predictor::new(p, s);
    let mut plain = Predictor::new(p, s);
    plain.cull = false;
    (culled, plain)
}

/// `within` is the culled answer under a limit, `plain` the unculled one.
fn agrees(within: Option<f64>, plain: Option<f64>, limit: f64) -> bool {
    within == plain || (within.is_none() && plain.is_some_and(|t| t > limit))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn culled_equals_unculled_ball_ball(
        a in ball(), b in ball(), ideal in any::<bool>(), place in 0u8..3,
        log_gap in -13.0f64..0.0, phi in 0.0f64..std::f64::consts::TAU, limit in 0.0f64..3.0,
    ) {
        let p = physics(ideal);
        let solver = Isolator::default();
        let (mut culled, mut plain) = predictors(&p, &solver);
        let b = match place {
            0 => b,
            1 => near(&a, &b, log_gap, phi, false),
            _ => near(&a, &b, log_gap, phi, true),
        };
        let mut ops = EventOps::default();
        let want = plain.ball_ball(&a, &b, &mut ops).unwrap();
        prop_assert_eq!(culled.ball_ball(&a, &b, &mut ops).unwrap(), want);
        let (ta, tb) = (p.trajectory(&a), p.trajectory(&b));
        let within = culled.ball_ball_within(&a, &b, &ta, &tb, limit, &mut ops).unwrap();
        prop_assert!(agrees(within, want, limit), "{within:?} vs {want:?}, limit {limit}");
    }

    #[test]
    fn culled_equals_unculled_cushions_and_pockets(
        s in ball(), ideal in any::<bool>(), limit in 0.0f64..3.0, edge in 0u8..3,
        log_gap in -13.0f64..-1.0,
    ) {
        let p = physics(ideal);
        let solver = Isolator::default();
        let (mut culled, mut plain) = predictors(&p, &solver);
        let table = PreparedTable::from(Table::seven_foot());
        // Also balls at (or a hair from) a rail: x = R (+ gap) from the left cushion's line.
        let s = match edge {
            0 => s,
            1 => BallState { r: Vec3::new(table.cushions[0].p1[0] + R + 10f64.powf(log_gap), s.r.y, R), ..s },
            _ => BallState { r: Vec3::new(s.r.x, R + 10f64.powf(log_gap), R), ..s },
        };
        let t = p.trajectory(&s);
        let mut ops = EventOps::default();
        for k in table.segments() {
            let want = plain.ball_cushion(&s, k, &mut ops).unwrap();
            prop_assert_eq!(culled.ball_cushion(&s, k, &mut ops).unwrap(), want);
            let within = culled.ball_cushion_within(&s, &t, k, limit, &mut ops).unwrap();
            prop_assert!(agrees(within, want, limit));
        }
        for q in table.end_points().iter().map(|e| e.p) {
            let want = plain.ball_point(&s, q, &mut ops).unwrap();
            prop_assert_eq!(culled.ball_point(&s, q, &mut ops).unwrap(), want);
            let within = culled.ball_point_within(&s, &t, q, limit, &mut ops).unwrap();
            prop_assert!(agrees(within, want, limit));
        }
        // FastFiz's table captures on lines (Pocket::capture_line).
        let fastfiz = PreparedTable::from(Table::fastfiz());
        for k in table.pocket_zones().iter().chain(fastfiz.pocket_zones()) {
            let want = plain.ball_pocket(&s, k, &mut ops).unwrap();
            prop_assert_eq!(culled.ball_pocket(&s, k, &mut ops).unwrap(), want);
            let within = culled.ball_pocket_within(&s, &t, k, limit, &mut ops).unwrap();
            prop_assert!(agrees(within, want, limit));
        }
    }

    /// A ball placed within reach of a jaw tip (gap 1e-13..1 m), where the quartic is hardest.
    #[test]
    fn culled_equals_unculled_near_points(
        s in ball(), k in 0usize..64, log_gap in -13.0f64..0.0, phi in 0.0f64..std::f64::consts::TAU,
    ) {
        let p = physics(false);
        let solver = Isolator::default();
        let (mut culled, mut plain) = predictors(&p, &solver);
        let table = Table::seven_foot();
        let points = table.exposed_points();
        let (q, _) = points[k % points.len()];
        let d = R + 10f64.powf(log_gap);
        let s = BallState { r: Vec3::new(q.x + d * phi.cos(), q.y + d * phi.sin(), R), ..s };
        let mut ops = EventOps::default();
        let want = plain.ball_point(&s, q, &mut ops).unwrap();
        prop_assert_eq!(culled.ball_point(&s, q, &mut ops).unwrap(), want);
    }

    /// A ball anywhere on pooltool's pocket table, or placed within reach of one of its
    /// circular cushions (gap 1e-13..1 m beyond R + r, or overlapping by up to 1e-9 m).
    #[test]
    fn culled_equals_unculled_circular_cushions(
        s in ball(), ideal in any::<bool>(), k in 0usize..12, place in 0u8..3,
        log_gap in -13.0f64..0.0, phi in 0.0f64..std::f64::consts::TAU, limit in 0.0f64..3.0,
    ) {
        let p = physics(ideal);
        let solver = Isolator::default();
        let (mut culled, mut plain) = predictors(&p, &solver);
        let table = PreparedTable::from(Table::pooltool_pocket());
        let arc = table.circular_segments()[k];
        let gap = match place {
            0 => None,
            1 => Some(10f64.powf(log_gap)),
            _ => Some(-1e-9 * 10f64.powf(log_gap / 13.0)),
        };
        let s = match gap {
            None => s,
            Some(g) => {
                let d = R + arc.radius + g;
                BallState { r: Vec3::new(arc.center.x + d * phi.cos(), arc.center.y + d * phi.sin(), R), ..s }
            }
        };
        let t = p.trajectory(&s);
        let mut ops = EventOps::default();
        for a in table.circular_segments() {
            let want = plain.ball_circular_cushion(&s, a, &mut ops).unwrap();
            prop_assert_eq!(culled.ball_circular_cushion(&s, a, &mut ops).unwrap(), want);
            let within = culled.ball_circular_cushion_within(&s, &t, a, limit, &mut ops).unwrap();
            prop_assert!(agrees(within, want, limit));
        }
    }
}
