//! Whole runs against circular cushions (pooltool's rounded jaws): both engines detect and
//! resolve them, the event engine at the kinematic time with the circular law, pressed balls
//! settle against them without sinking in, and the invariants hold on random breaks on
//! pooltool's table.

use pool_event::EventEngine;
use pool_harness::check_outcome;
use pool_physics::{
    BallParams, BallState, CircularSegment, EventKind, Model, Physics, PreparedTable, Table, Vec2,
    Vec3,
};
use pool_sim::{Agents, Ball, Engine, Setup, Termination};

const R: f64 = 0.028575;

fn pool() -> Model {
    Model::pool(BallParams::pool())
}

fn setup(table: Table, balls: Vec<(Vec2, Vec3, Vec3)>) -> Setup {
    let s = Setup {
        name: "arc".into(),
        physics: pool(),
        table: table.into(),
        balls: balls
            .into_iter()
            .enumerate()
            .map(|(i, (r, v, w))| Ball {
                id: i.to_string(),
                state: BallState::new(Vec3::new(r.x, r.y, R), v, w, R),
            })
            .collect(),
        t_end: None,
        strike: None,
    };
    s.validate().unwrap();
    s
}

/// A ball rolling at `v0` (m/s) at pooltool's side jaw tip 5t from 0.3 m away, along the line
/// through the tip's center at 130 degrees (clear of every straight segment); and the tip.
fn rolled_at_tip(v0: f64) -> (Setup, CircularSegment) {
    let table = PreparedTable::from(Table::pooltool_pocket());
    let k = (table.circular_cushions.iter())
        .position(|c| c.id == "c5t")
        .unwrap();
    let arc = table.circular_segments()[k];
    let out_dir = Vec2::new(130f64.to_radians().cos(), 130f64.to_radians().sin());
    let v = Vec3::new(-out_dir.x * v0, -out_dir.y * v0, 0.0);
    let s = setup(
        (*table).clone(),
        vec![(
            arc.center + out_dir * 0.3,
            v,
            Vec3::new(-v.y / R, v.x / R, 0.0),
        )],
    );
    (s, arc)
}

#[test]
fn a_ball_rolled_into_a_side_jaws_tip_rebounds_off_it_by_han_2005() {
    // pooltool's side jaw tip 5t (radius 7.95 mm), approached along the line from its center at
    // 130 degrees: the first event is the circular cushion, at the kinematic time, and the
    // rebound is the cushion law applied at the contact normal.
    let table = PreparedTable::from(Table::pooltool_pocket());
    let (k, tip) = (table.circular_cushions.iter())
        .enumerate()
        .find(|(_, c)| c.id == "c5t")
        .unwrap();
    let arc = table.circular_segments()[k];
    let out_dir = Vec2::new(130f64.to_radians().cos(), 130f64.to_radians().sin());
    let d0 = 0.3;
    let start = arc.center + out_dir * d0;
    let v0 = 2.0;
    let v = Vec3::new(-out_dir.x * v0, -out_dir.y * v0, 0.0);
    let s = setup(
        (*table).clone(),
        vec![(start, v, Vec3::new(-v.y / R, v.x / R, 0.0))],
    );
    let out = EventEngine::default().with_snapshots(true).run(&s);
    let first = out.events[0];
    assert_eq!(
        first.kind,
        EventKind::BallCircularCushion,
        "{:?}",
        out.events
    );
    assert_eq!(
        first.agents,
        Agents::BallCircularCushion {
            ball: 0,
            cushion: k
        }
    );
    let gap = d0 - R - tip.radius;
    let decel = 0.01 * 9.81;
    let expected = 2.0 * gap / (v0 + (v0 * v0 - 2.0 * decel * gap).sqrt());
    assert!((first.time - expected).abs() < 1e-12);
    // The state after it is the circular law's at the normal toward the tip's center.
    let before = pool().evolve(&s.balls[0].state, first.time);
    let normal = arc.normal(before.r.xy());
    let after = pool().resolve_ball_circular_cushion(&before, normal, arc.height, arc.radius);
    assert_eq!(out.snapshots[1].states[0].v, after.v);
    assert!(after.v.xy().dot(&normal) < 0.0, "it leaves the tip");
    let rep = check_outcome(&s, &out, 20);
    assert!(rep.max_cushion_residual_m < 1e-12, "{rep:?}");
    assert!(rep.max_cushion_penetration_m <= 1e-15, "{rep:?}");
    assert_eq!(out.termination, Termination::AtRest);
}

#[test]
fn a_ball_pressed_into_a_jaw_tip_by_another_settles_without_sinking_in() {
    // Ball 0 rests against side jaw tip 5t; ball 1 rolls into it along the line through the
    // tip's center (at 130 degrees, clear of every straight segment): slow presses are
    // sustained contacts of a cluster with an arc link.
    let table = PreparedTable::from(Table::pooltool_pocket());
    let k = (table.circular_cushions.iter())
        .position(|c| c.id == "c5t")
        .unwrap();
    let arc = table.circular_segments()[k];
    let n = Vec2::new(130f64.to_radians().cos(), 130f64.to_radians().sin());
    let rest = arc.center + n * (R + arc.radius);
    for speed in [5e-7, 1e-4, 1e-2, 0.3, 3.0] {
        // Touching at 5e-7 m/s (a press: below the sustained speed, 1e-6 m/s, it would stop
        // within 1.3e-12 m); else 20 nm apart (at 1e-4 m/s it rolls 51 nm before stopping).
        let gap = if speed < 1e-6 { 0.0 } else { 2e-8 };
        let pusher = rest + n * (2.0 * R + gap);
        let v = Vec3::new(-n.x * speed, -n.y * speed, 0.0);
        let s = setup(
            (*table).clone(),
            vec![
                (rest, Vec3::zeros(), Vec3::zeros()),
                (pusher, v, Vec3::new(-v.y / R, v.x / R, 0.0)),
            ],
        );
        let out = EventEngine::default().with_snapshots(true).run(&s);
        assert_eq!(out.termination, Termination::AtRest, "{speed} m/s");
        assert!(
            out.events.len() < 200,
            "{speed} m/s: {} events",
            out.events.len()
        );
        let hit = out
            .events
            .iter()
            .any(|e| e.kind == EventKind::BallCircularCushion);
        if speed < 1e-6 {
            // The press is settled as one sustained cluster (ball 1, ball 0 and the tip),
            // logged as the ball-ball contact that started it: both stop where they touch.
            assert!(!hit, "{:?}", out.events);
            assert_eq!(out.events[0].kind, EventKind::BallBall);
            let touching = arc.gap(out.final_states[0].r.xy()) - R;
            assert!(
                touching.abs() <= 1e-9,
                "ball 0 is {touching:e} m off the tip"
            );
        } else {
            // Faster, ball 1 hands its speed on and ball 0 hits the tip (Newton's cradle).
            assert!(hit, "{speed} m/s: {:?}", out.events);
        }
        let rep = check_outcome(&s, &out, 10);
        assert!(
            rep.max_cushion_penetration_m <= 1e-9,
            "{speed} m/s: {rep:?}"
        );
        assert!(rep.max_overlap_m <= 1e-9, "{speed} m/s: {rep:?}");
        assert_eq!(rep.energy_rises, 0);
    }
}

#[test]
fn the_discrete_integrator_finds_the_same_jaw_tip_and_one_it_tunnels_through() {
    // The shot of `a_ball_rolled_into_a_side_jaws_tip_rebounds_off_it_by_han_2005`, at
    // dt = 1e-4 s: the same event (kind and agents), noticed within one step of the event
    // engine's time.
    let s = rolled_at_tip(2.0).0;
    let reference = EventEngine::default().run(&s);
    let dt = 1e-4;
    let discrete = pool_discrete::DiscreteEngine::new(dt, pool_discrete::Scheme::EndOfStep)
        .unwrap()
        .run(&s);
    let (a, b) = (reference.events[0], discrete.events[0]);
    assert_eq!((a.kind, a.agents), (b.kind, b.agents));
    assert!(
        b.time >= a.time && b.time - a.time <= dt,
        "{} vs {}",
        b.time,
        a.time
    );
    // At 60 m/s and dt = 2e-3 s the ball moves 0.12 m a step, more than the tip's reach
    // across (2 (R + r) = 0.073 m): it is noticed where its path entered the circle.
    let fast = rolled_at_tip(60.0).0;
    let step = 2e-3;
    let discrete = pool_discrete::DiscreteEngine::new(step, pool_discrete::Scheme::EndOfStep)
        .unwrap()
        .run(&fast);
    let first = discrete.events[0];
    assert_eq!(
        first.kind,
        EventKind::BallCircularCushion,
        "{:?}",
        discrete.events
    );
    let after = discrete.final_states[0];
    assert!(after.r.x > 0.0, "bounced back onto the table: {after:?}");
}

#[test]
fn the_in_step_schemes_and_rapier_find_the_same_jaw_tip() {
    // The shot of `a_ball_rolled_into_a_side_jaws_tip_rebounds_off_it_by_han_2005`: located
    // places the event at the event engine's time (to its 1e-12 s tolerance plus rounding),
    // substep8 within one substep after it, rapier (the tip a fixed disc) within its first
    // order error, a step or two; every one logs it as the ball_circular_cushion of tip 5t and
    // sends the ball back onto the table.
    let (s, arc) = rolled_at_tip(2.0);
    let reference = EventEngine::default().run(&s);
    let a = reference.events[0];
    let dt = 1e-3;
    for (spec, tol) in [
        ("discrete:1e-3:located", 1e-11),
        ("discrete:1e-3:substep8", dt / 8.0),
        ("rapier:1e-3", 2.0 * dt),
    ] {
        let engine = spec
            .parse::<pool_engines::EngineSpec>()
            .unwrap()
            .build()
            .unwrap();
        let out = engine.run(&s);
        let first = (out.events.iter())
            .find(|e| e.kind.is_collision())
            .unwrap_or_else(|| panic!("{spec}: no collision in {:?}", out.events));
        assert_eq!((first.kind, first.agents), (a.kind, a.agents), "{spec}");
        assert!(
            (first.time - a.time).abs() <= tol,
            "{spec}: {} vs {}",
            first.time,
            a.time
        );
        let after = out.final_states[0];
        assert!(
            (after.r.xy() - arc.center).norm() > R + arc.radius - 1e-6,
            "{spec}: ends in the tip: {after:?}"
        );
    }
}

#[test]
fn random_breaks_on_pooltools_table_keep_every_invariant() {
    // The 9-ball rack on pooltool's table, broken at random (`random_break`): no ball inside an
    // arc or through a jaw, no overlap, no energy gained, every run ends.
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/shots/break_9ball.toml"
    ))
    .unwrap()
    .replace("table = \"seven_foot\"", "table = \"pooltool_pocket\"");
    let rack = pool_shots::parse(&text, "break_9ball", std::path::Path::new("b.toml")).unwrap();
    let mut circular = 0;
    for seed in 0..60 {
        let s = pool_harness::random_break(&rack, seed);
        let out = EventEngine::default().with_snapshots(true).run(&s);
        let rep = check_outcome(&s, &out, 8);
        let broken = pool_harness::violations(&out, Some(&rep));
        assert!(broken.is_empty(), "seed {seed}: {broken:?} {rep:?}");
        circular += out
            .events
            .iter()
            .filter(|e| e.kind == EventKind::BallCircularCushion)
            .count();
    }
    assert!(circular > 10, "the jaws were hit {circular} times");
}
