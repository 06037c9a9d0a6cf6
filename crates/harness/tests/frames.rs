//! Frame sampling: states and orientations at any time from a run's snapshots.

use std::path::Path;

use nalgebra::{Unit, UnitQuaternion};
use pool_discrete::{DiscreteEngine, Scheme};
use pool_event::EventEngine;
use pool_harness::{latest_event, Frames};
use pool_physics::{EventKind, Vec3};
use pool_sim::{Engine, Outcome, Setup};

fn shot(name: &str) -> Setup {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../data/shots/{name}.toml"));
    pool_shots::load(&p).unwrap()
}

fn event_run(setup: &Setup) -> Outcome {
    EventEngine::default().with_snapshots(true).run(setup)
}

fn discrete_run(setup: &Setup) -> Outcome {
    DiscreteEngine::new(1e-3, Scheme::EndOfStep)
        .unwrap()
        .with_sampling(Some(1.0 / 60.0))
        .run(setup)
}

/// Largest speed (m/s) and angular speed (rad/s) of any ball in any snapshot.
fn max_speeds(o: &Outcome) -> (f64, f64) {
    o.snapshots
        .iter()
        .flat_map(|s| &s.states)
        .fold((0.0, 0.0), |(v, w), s| {
            (v.max(s.v.norm()), w.max(s.w.norm()))
        })
}

#[test]
fn a_frame_at_a_snapshot_time_is_that_snapshot() {
    for name in ["break_9ball", "cut", "draw"] {
        let setup = shot(name);
        for o in [event_run(&setup), discrete_run(&setup)] {
            let frames = Frames::new(&setup, &o).unwrap();
            let snaps = &o.snapshots;
            for (k, snap) in snaps.iter().enumerate() {
                // Several events at one time: the frame shows the state after the last.
                if snaps.get(k + 1).is_some_and(|n| n.time == snap.time) {
                    continue;
                }
                let f = frames.at(snap.time);
                for (b, s) in f.iter().zip(&snap.states) {
                    assert_eq!(b.state.motion, s.motion, "{name} snapshot {k}");
                    assert!((b.state.r - s.r).norm() <= 1e-12, "{name} snapshot {k}");
                    assert!((b.state.v - s.v).norm() <= 1e-12, "{name} snapshot {k}");
                    assert!((b.state.w - s.w).norm() <= 1e-9, "{name} snapshot {k}");
                }
            }
        }
    }
}

#[test]
fn frames_move_continuously_no_jump_beyond_speed_times_frame_time() {
    for name in ["break_9ball", "bank", "draw", "spin_down"] {
        let setup = shot(name);
        for (engine, o) in [
            ("event", event_run(&setup)),
            ("discrete", discrete_run(&setup)),
        ] {
            let frames = Frames::new(&setup, &o).unwrap();
            let (v_max, w_max) = max_speeds(&o);
            let dt = 1.0 / 240.0;
            let n = (frames.end_time() / dt).ceil() as usize;
            let mut prev = frames.at(0.0);
            for k in 1..=n {
                let f = frames.at(k as f64 * dt);
                for (i, (a, b)) in prev.iter().zip(&f).enumerate() {
                    if b.state.motion == pool_physics::MotionState::Pocketed {
                        continue;
                    }
                    let jump = (b.state.r - a.state.r).norm();
                    assert!(
                        jump <= v_max * dt * (1.0 + 1e-9) + 1e-12,
                        "{name} {engine}: ball {i} jumps {jump} m at frame {k}"
                    );
                    let turn = (a.orientation.inverse() * b.orientation).angle();
                    assert!(
                        turn <= w_max * dt * (1.0 + 1e-9) + 1e-12,
                        "{name} {engine}: ball {i} turns {turn} rad at frame {k}"
                    );
                }
                prev = f;
            }
        }
    }
}

#[test]
fn rolling_object_ball_turns_distance_over_r_across_other_balls_events() {
    // Straight shot: after the cue ball, stopped by the head-on collision, starts following
    // (rolling along +x) until it hits the object ball again, it turns about +y by the distance
    // covered over R, however many snapshots (the object ball's cushion and transition events)
    // lie in between.
    let setup = shot("straight");
    let o = event_run(&setup);
    let frames = Frames::new(&setup, &o).unwrap();
    let ball = setup.balls.iter().position(|b| b.id == "cue").unwrap();
    let involves = |e: &pool_sim::Event| {
        let (a, b) = e.agents.balls();
        a == ball || b == Some(ball)
    };
    let k_roll = o
        .events
        .iter()
        .position(|e| e.kind == EventKind::SlidingRolling && involves(e))
        .expect("the cue ball starts rolling");
    let t_a = o.events[k_roll].time;
    let t_b = o.events[k_roll + 1..]
        .iter()
        .find(|e| involves(e))
        .map_or(o.end_time, |e| e.time);
    let (t1, t2) = (t_a + 0.01 * (t_b - t_a), t_b - 0.01 * (t_b - t_a));
    let between = o
        .snapshots
        .iter()
        .filter(|s| s.time > t1 && s.time < t2)
        .count();
    assert!(
        between >= 1,
        "want snapshots between t1 and t2 to compose over"
    );
    let (f1, f2) = (frames.at(t1)[ball], frames.at(t2)[ball]);
    let v = f1.state.v;
    assert!(v.y.abs() < 1e-9 && v.x > 0.0, "rolling along +x: {v:?}");
    let dist = (f2.state.r - f1.state.r).norm();
    let r = setup.physics.params().radius;
    let expected =
        UnitQuaternion::from_axis_angle(&Unit::new_normalize(Vec3::z().cross(&v)), dist / r);
    let inc = f2.orientation * f1.orientation.inverse();
    let err = (inc.inverse() * expected).angle();
    assert!(err < 1e-10, "off by {err} rad");
}

#[test]
fn latest_event_is_the_last_one_at_or_before_t() {
    let setup = shot("cut");
    let o = event_run(&setup);
    assert!(latest_event(&o.events, -1.0).is_none());
    for (k, e) in o.events.iter().enumerate() {
        let got = latest_event(&o.events, e.time).unwrap();
        assert_eq!(got.time, e.time);
        // The last of any events at the same time.
        let last_same = o.events[k..].iter().take_while(|x| x.time == e.time).last();
        assert_eq!(Some(got), last_same);
    }
}

#[test]
fn frames_need_snapshots() {
    let setup = shot("cut");
    let o = EventEngine::default().run(&setup);
    assert!(Frames::new(&setup, &o).is_err());
}

#[test]
fn event_marks_sit_where_the_events_happen() {
    // Straight shot: the first collision's contact point is R ahead of the cue ball on y = 0.4953,
    // the cushion hit is R from the right cushion's face.
    let setup = shot("straight");
    let o = event_run(&setup);
    let marks = pool_harness::event_marks(&setup, &o);
    assert_eq!(marks.len(), o.events.len());
    let r = setup.physics.params().radius;
    let first = marks[0];
    assert_eq!(first.kind, EventKind::BallBall);
    let cue_at = frames_at(&setup, &o, first.time, "cue");
    assert!(
        (first.at.0 - (cue_at.0 + r)).abs() < 1e-9,
        "{first:?} {cue_at:?}"
    );
    assert!((first.at.1 - 0.4953).abs() < 1e-12);
    let cushion = marks
        .iter()
        .find(|m| m.kind == EventKind::BallLinearCushion)
        .unwrap();
    assert!(
        (cushion.at.0 - (setup.table.length - r)).abs() < 1e-9,
        "{cushion:?}"
    );
    // Without snapshots there is nothing to place.
    let bare = EventEngine::default().run(&setup);
    assert!(pool_harness::event_marks(&setup, &bare).is_empty());
}

fn frames_at(setup: &Setup, o: &Outcome, t: f64, id: &str) -> (f64, f64) {
    let i = setup.balls.iter().position(|b| b.id == id).unwrap();
    let s = Frames::new(setup, o).unwrap().at(t)[i].state;
    (s.r.x, s.r.y)
}
