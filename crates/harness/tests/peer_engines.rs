//! The peer engines (benches/peers/<name>_engine.py: MuJoCo, PyBullet, pymunk, Box2D,
//! python-billiards; FastFiz on its own shots) on the straight shot and on ideal_many, each when
//! a Python with it is found
//! ($PEERS_PYTHON or .venv-peers/bin/python; `bash benches/peers/install.sh`), else skipped with
//! one line saying why. What is asserted is what each engine's model implies, not its numbers.

use std::path::{Path, PathBuf};

use pool_engines::{peers, EngineSpec, Peer, RunOptions};
use pool_harness::{one_step, run_engine, run_reference, OneStepStats};
use pool_physics::EventKind;
use pool_sim::{Agents, Outcome, Setup};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shot(name: &str) -> Setup {
    pool_shots::load(&root().join("data/shots").join(format!("{name}.toml"))).unwrap()
}

/// `spec` when its peer is installed, else `None` after one line saying why.
fn installed(peer: Peer, spec: &str) -> Option<EngineSpec> {
    match peers::python(peer) {
        Ok(_) => Some(spec.parse().unwrap()),
        Err(why) => {
            eprintln!("skipped {spec}: {why}");
            None
        }
    }
}

/// The engine's first `n` events of `setup` (it is asked to stop there).
fn first_events(spec: &EngineSpec, setup: &Setup, n: usize) -> Outcome {
    let engine = spec
        .build_with(&RunOptions {
            max_events: Some(n),
            ..RunOptions::default()
        })
        .unwrap();
    engine
        .try_run(setup)
        .unwrap_or_else(|e| panic!("{spec}: {e}"))
}

/// The time the straight shot's cue ball reaches the object ball under linear damping
/// v' = -c v with c = mu_r g / v0 (peer_common.disc_damping: the rolling cue ball is the
/// fastest): d = v0 (1 - exp(-c t)) / c.
fn damped_contact_time(setup: &Setup) -> f64 {
    let p = setup.physics.params();
    let cue = &setup.balls[0].state;
    let d = (setup.balls[1].state.r - cue.r).norm() - 2.0 * p.radius;
    let v0 = cue.v.norm();
    let c = p.mu_r * p.g / v0;
    -(1.0 - c * d / v0).ln() / c
}

#[test]
fn billiards_follows_the_event_engine_on_ideal_many_to_its_own_tolerance() {
    let Some(spec) = installed(Peer::Billiards, "billiards") else {
        return;
    };
    let setup = shot("ideal_many");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let refs = &reference.outcome.events;
    // One step: restarted from our state before each event, billiards finds that event, within
    // its time-of-impact tolerance (billiards.physics.time_of_impact's t_eps = 1e-10 s).
    let rows = one_step(&setup, &reference, &spec).unwrap();
    let stats = OneStepStats::of(&rows);
    assert_eq!(rows.len(), refs.len());
    assert_eq!(stats.agree, refs.len(), "{stats:?}");
    for r in &rows {
        assert!(r.error_s.abs() <= 1e-10, "{r:?}");
    }
    // The whole shot: the same events in the same order, each within 1e-9 s, until rounding
    // differences (1e-16 relative) grown by 16 balls' collisions (a chaotic system) make the
    // runs part; that is after more than 50 events.
    let run = run_engine(&setup, &reference, &spec, None).unwrap();
    let same = refs
        .iter()
        .zip(&run.outcome.events)
        .take_while(|(a, b)| {
            a.kind == b.kind && a.agents == b.agents && (a.time - b.time).abs() <= 1e-9
        })
        .count();
    assert!(same > 50, "only the first {same} events agree");
    eprintln!(
        "billiards on ideal_many: {same} of {} events agree to 1e-9 s before the runs part",
        refs.len()
    );
}

/// The error of `peer` (spec `spec`, when installed) on shot `name`, which it must decline
/// saying `why`.
fn declines(peer: Peer, spec: &str, name: &str, why: &str) {
    let Some(spec) = installed(peer, spec) else {
        return;
    };
    let e = spec.build().unwrap().try_run(&shot(name)).unwrap_err();
    assert!(e.unsupported && e.to_string().contains(why), "{e}");
}

#[test]
fn billiards_declines_every_model_but_ideal() {
    declines(
        Peer::Billiards,
        "billiards",
        "straight",
        "only the ideal model",
    );
}

#[test]
fn discs_with_damping_meet_the_object_ball_when_damping_says() {
    // pymunk and Box2D: a disc under linear damping c covers d = v0 (1 - exp(-c t)) / c; a step
    // of either engine moves it by its velocity at one end of the step, so the first step whose
    // end positions touch ends within dt of that time (Box2D dates it at that step's end too:
    // the contact is found when the next step starts).
    let setup = shot("straight");
    let t_damped = damped_contact_time(&setup);
    for (peer, name) in [(Peer::Pymunk, "pymunk"), (Peer::Box2d, "box2d")] {
        for dt in [1e-2, 1e-3] {
            let Some(spec) = installed(peer, &format!("{name}:{dt:e}")) else {
                continue;
            };
            let out = first_events(&spec, &setup, 1);
            let e = &out.events[0];
            assert_eq!(e.kind, EventKind::BallBall, "{spec}: {e:?}");
            assert!(
                (e.time - t_damped).abs() <= dt * (1.0 + 1e-9),
                "{spec}: {} vs {t_damped} (damped closed form)",
                e.time
            );
        }
    }
}

#[test]
fn spheres_roll_into_the_object_ball_as_the_cloth_says() {
    // MuJoCo and PyBullet: rolling friction 7/5 R mu_r (a length) decelerates the rolling cue
    // ball by mu_r g, so it reaches the object ball when the closed form says (0.8 - 2R =
    // 1.5 t - mu_r g t^2 / 2, the event engine's time) at the end of that step or the next.
    let setup = shot("straight");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let t_ref = reference.outcome.events[0].time;
    for (peer, spec) in [
        (Peer::Mujoco, "mujoco:1e-3"),
        (Peer::Mujoco, "mujoco:1e-3:rk4"),
        (Peer::Mujoco, "mujoco:1e-3:implicitfast"),
        (Peer::Pybullet, "pybullet:1e-3"),
    ] {
        let Some(spec) = installed(peer, spec) else {
            continue;
        };
        let dt = spec.dt().unwrap();
        let out = first_events(&spec, &setup, 1);
        let e = &out.events[0];
        assert_eq!(
            (e.kind, e.agents),
            (EventKind::BallBall, Agents::BallBall { a: 0, b: 1 }),
            "{spec}"
        );
        assert!(
            e.time >= t_ref - 1e-9 && e.time <= t_ref + 2.0 * dt,
            "{spec}: {} vs {t_ref}",
            e.time
        );
    }
}

#[test]
fn every_stepped_peer_starts_ideal_many_with_the_reference_event_and_keeps_its_balls() {
    // Frictionless, elastic: the first event (a ball reaching a rail at constant velocity) at
    // the end of the step that reaches it, and no ball leaves the 2 m x 1 m table.
    let setup = shot("ideal_many");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let first = &reference.outcome.events[0];
    for peer in [Peer::Mujoco, Peer::Pybullet, Peer::Pymunk, Peer::Box2d] {
        let Some(spec) = installed(peer, &format!("{}:1e-3", peer.name())) else {
            continue;
        };
        let run = run_engine(&setup, &reference, &spec, None).unwrap();
        let e = &run.outcome.events[0];
        assert_eq!((e.kind, e.agents), (first.kind, first.agents), "{spec}");
        assert!(
            (e.time - first.time).abs() <= 2e-3,
            "{spec}: {e:?} vs {first:?}"
        );
        assert_eq!(run.summary.termination, "time_limit", "{spec}");
        for s in &run.outcome.final_states {
            let (x, y) = (s.r.x, s.r.y);
            assert!(
                (0.0..=2.0).contains(&x) && (0.0..=1.0).contains(&y),
                "{spec}: a ball at ({x}, {y})"
            );
        }
    }
}

#[test]
fn an_adapter_that_refuses_its_arguments_is_one_error_naming_it() {
    // The specs check dt before an adapter runs; an adapter run by hand checks it again, and
    // its one line reaches the harness's error.
    let python = match peers::python(Peer::Mujoco) {
        Ok(python) => python,
        Err(why) => {
            eprintln!("skipped the mujoco adapter's arguments: {why}");
            return;
        }
    };
    let command = format!(
        "exec:{} {} --dt 0",
        python.display(),
        Peer::Mujoco.adapter().display()
    );
    let spec: EngineSpec = command.parse().unwrap();
    let e = spec
        .build()
        .unwrap()
        .try_run(&shot("straight"))
        .unwrap_err();
    let e = e.to_string();
    assert!(
        e.contains("mujoco_engine.py: --dt = '0': must be in [1e-7, 1] s"),
        "{e}"
    );
}

/// FastFiz's and our events of `setup` under the `fastfiz` preset, and how many of them agree
/// (kind, agents, and time within `tol` s) before the runs part.
fn fastfiz_beside_ours(spec: &EngineSpec, name: &str, tol: f64) -> (usize, usize, usize) {
    let (same, ours, theirs) = fastfiz_beside_ours_on(spec, &shot(name), tol);
    eprintln!(
        "fastfiz on {name}: {same} events agree to {tol:e} s before the runs part ({} ours, {} FastFiz's)",
        ours.len(),
        theirs.len()
    );
    (same, ours.len(), theirs.len())
}

/// [`fastfiz_beside_ours`] on a set-up: how many events agree, and both logs.
fn fastfiz_beside_ours_on(
    spec: &EngineSpec,
    setup: &Setup,
    tol: f64,
) -> (usize, Vec<pool_sim::Event>, Vec<pool_sim::Event>) {
    let setup = setup.clone();
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let run = run_engine(&setup, &reference, spec, None).unwrap();
    let (ours, theirs) = (&reference.outcome.events, &run.outcome.events);
    let same = ours
        .iter()
        .zip(theirs)
        .take_while(|(a, b)| {
            a.kind == b.kind && a.agents == b.agents && (a.time - b.time).abs() <= tol
        })
        .count();
    (same, ours.clone(), theirs.clone())
}

#[test]
fn fastfiz_and_ours_take_the_earlier_ball_first_in_either_file_order() {
    let Some(spec) = installed(Peer::FastFiz, "fastfiz") else {
        return;
    };
    // FastFiz's ball-ball law is asymmetric (its ball 1's speed along the line of centres feeds
    // the friction impulse), and it takes the lower ball number, the earlier ball in the file,
    // as ball 1; so do we. On the 9-ball break the cue ball meets the 1 ball a second time at
    // 0.1139 s with both moving: the two file orders are two runs, each FastFiz's.
    let forward = shot("break_9ball_fastfiz");
    let mut backward = forward.clone();
    backward.balls.reverse();
    backward.validate().unwrap();
    let mut times = vec![];
    for (order, setup) in [("file order", &forward), ("reversed", &backward)] {
        let (same, ours, theirs) = fastfiz_beside_ours_on(&spec, setup, 1e-9);
        eprintln!(
            "fastfiz on break_9ball_fastfiz, {order}: {same} events agree to 1e-9 s ({} ours, {} \
             FastFiz's)",
            ours.len(),
            theirs.len()
        );
        // Through the both-moving contact and the rest of the cascade (later, tied transitions
        // may come in either order, docs/fastfiz.md).
        assert!(same >= 15, "{order}: {same} events agree");
        times.push(ours.iter().map(|e| e.time).collect::<Vec<_>>());
    }
    // The orders part within those events: the test sees the order.
    let parted = (times[0].iter().zip(&times[1]))
        .take(15)
        .any(|(a, b)| (a - b).abs() > 1e-9);
    assert!(
        parted,
        "the two file orders gave the same first 15 event times"
    );
}

#[test]
fn fastfiz_follows_the_event_engine_under_its_own_physics() {
    let Some(spec) = installed(Peer::FastFiz, "fastfiz") else {
        return;
    };
    // A bank and a cut: one ball's strike, slide, rail and roll, and a collision and what
    // follows, event for event to FastFiz's rounding (its balls move from each event's state,
    // ours from their own last event).
    for name in ["bank_fastfiz", "cut_fastfiz"] {
        let (same, ours, theirs) = fastfiz_beside_ours(&spec, name, 1e-9);
        assert_eq!((same, same), (ours, theirs), "{name}");
    }
    // One step: from the set-up, FastFiz finds our first event (after the strike, both see the
    // cue ball sliding toward the same ball).
    let setup = shot("cut_fastfiz");
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let rows = one_step(&setup, &reference, &spec).unwrap_or_else(|e| panic!("{e}"));
    let stats = OneStepStats::of(&rows);
    assert!(stats.agree >= 1, "{stats:?}");
}

/// The events two logs share in order, tied events (within 1e-9 s of each other) taken in
/// either order, and the largest time difference over them and over their pocket events (s).
fn shared_in_order(ours: &[pool_sim::Event], theirs: &[pool_sim::Event]) -> (usize, f64, f64) {
    let mut theirs = theirs.to_vec();
    let same = |a: &pool_sim::Event, b: &pool_sim::Event| a.kind == b.kind && a.agents == b.agents;
    let (mut worst, mut worst_pocket) = (0.0f64, 0.0f64);
    for i in 0..ours.len().min(theirs.len()) {
        if !same(&ours[i], &theirs[i]) {
            let tied = (i + 1..theirs.len())
                .take_while(|&j| (theirs[j].time - theirs[i].time).abs() < 1e-9)
                .find(|&j| same(&ours[i], &theirs[j]));
            match tied {
                Some(j) => theirs.swap(i, j),
                None => return (i, worst, worst_pocket),
            }
        }
        let d = (ours[i].time - theirs[i].time).abs();
        worst = worst.max(d);
        if ours[i].kind == EventKind::BallPocket {
            worst_pocket = worst_pocket.max(d);
        }
    }
    (ours.len().min(theirs.len()), worst, worst_pocket)
}

#[test]
fn fastfiz_pockets_a_ball_when_ours_does() {
    let Some(spec) = installed(Peer::FastFiz, "fastfiz") else {
        return;
    };
    // The `fastfiz` table captures on FastFiz's lines (Pocket::capture_line), so pocket events
    // agree to rounding as the others do; a circle near a line would be up to millimetres off.
    for (name, events, within, pockets_within) in [
        ("cut_fastfiz", 7, 1e-9, 1e-9),
        ("break_15ball_fastfiz", 63, 2e-8, 1e-8),
    ] {
        let (_, ours, theirs) = fastfiz_beside_ours_on(&spec, &shot(name), 1e-9);
        let (shared, worst, worst_pocket) = shared_in_order(&ours, &theirs);
        eprintln!(
            "fastfiz on {name}: {shared} events shared in order ({} ours, {} FastFiz's), times \
             within {worst:e} s, pocket events within {worst_pocket:e} s",
            ours.len(),
            theirs.len()
        );
        assert_eq!(
            (shared, ours.len(), theirs.len()),
            (events, events, events),
            "{name}"
        );
        assert!(
            ours.iter().any(|e| e.kind == EventKind::BallPocket),
            "{name}"
        );
        assert!(worst <= within && worst_pocket <= pockets_within, "{name}");
    }
}

#[test]
fn fastfiz_declines_shots_outside_its_table_and_physics() {
    declines(
        Peer::FastFiz,
        "fastfiz",
        "straight",
        "only the fastfiz preset",
    );
}

#[test]
fn every_stepped_peer_stops_at_the_last_step_before_a_t_end_between_steps() {
    // A restart's t_end is the next reference event's time, almost never a whole number of
    // steps: the run takes every step that ends by t_end and not the one after (the protocol
    // refuses an end time after t_end). MuJoCo's rollout loop (its default) took that step.
    let mut setup = shot("straight");
    let t_end = 0.9639943831486695;
    setup.t_end = Some(t_end);
    for peer in [Peer::Mujoco, Peer::Pybullet, Peer::Pymunk, Peer::Box2d] {
        let Some(spec) = installed(peer, &format!("{}:1e-3", peer.name())) else {
            continue;
        };
        let out = spec
            .build()
            .unwrap()
            .try_run(&setup)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(out.termination, pool_sim::Termination::TimeLimit, "{spec}");
        assert!(
            out.end_time <= t_end && out.end_time > t_end - 1e-3,
            "{spec}: ends at {} for t_end {t_end}",
            out.end_time
        );
    }
}

#[test]
fn pooltool_stops_at_a_t_end_between_its_events_with_the_balls_evolved_to_it() {
    // A one-step restart's t_end lies just past the event it predicts; pooltool's own t_final
    // resolves the next event and ends after it (an answer the protocol refuses). The adapter
    // stops at t_end: on the cut shot halfway to the first ball-ball collision, the cue ball
    // has moved and nothing has been hit.
    if let Err(why) = pool_engines::pooltool::command() {
        eprintln!("skipped pooltool: {why}");
        return;
    }
    let reference = EngineSpec::reference().build().unwrap();
    let full = reference.run(&shot("cut"));
    let hit = (full.events.iter())
        .find(|e| e.kind == EventKind::BallBall)
        .expect("the cut hits the object ball")
        .time;
    let mut setup = shot("cut");
    let t_end = hit / 2.0;
    setup.t_end = Some(t_end);
    let spec: EngineSpec = "pooltool".parse().unwrap();
    let out = spec
        .build()
        .unwrap()
        .try_run(&setup)
        .unwrap_or_else(|e| panic!("pooltool: {e}"));
    assert_eq!(out.termination, pool_sim::Termination::TimeLimit);
    assert_eq!(out.end_time, t_end, "ends at t_end");
    assert!(out.events.iter().all(|e| e.time <= t_end));
    assert!(!out.events.iter().any(|e| e.kind == EventKind::BallBall));
    // The event engine stopped at the same t_end: the cue ball within pooltool's agreement on
    // a rolling ball (1e-9 m).
    let ours = reference.run(&setup);
    let gap = (out.final_states[0].r - ours.final_states[0].r).norm();
    assert!(gap < 1e-9, "the cue ball is {gap:e} m from ours at t_end");
}
