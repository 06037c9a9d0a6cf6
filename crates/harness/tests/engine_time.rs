//! Every adapter reports its engine time (`engine_s`, docs/engine-protocol.md; FastFiz its
//! `executeShot` call): positive on a
//! shot where something moves, and no more than the wall time the harness measured around the
//! whole program. Each peer when a Python with it is found (`$PEERS_PYTHON`, `POOLTOOL_PYTHON`
//! or the workspace's venvs), else skipped with one line saying why.

use std::path::{Path, PathBuf};

use pool_engines::EngineSpec;
use pool_harness::{run_engine, run_reference};
use pool_sim::Setup;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn shot(name: &str) -> Setup {
    pool_shots::load(&root().join("data/shots").join(format!("{name}.toml"))).unwrap()
}

/// `spec`'s run of `shot`: its engine time is reported, positive and within its wall time,
/// and the engine cost the report reads is that engine time.
fn engine_time_within_wall(spec: &str, shot_name: &str) {
    let spec: EngineSpec = spec.parse().unwrap();
    if let Some(why) = spec.unavailable() {
        eprintln!("skipped {spec}: {why}");
        return;
    }
    let setup = shot(shot_name);
    let reference = run_reference(&setup, &EngineSpec::reference()).unwrap();
    let run = run_engine(&setup, &reference, &spec, None).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let s = &run.summary;
    let engine = s
        .engine_time_s
        .unwrap_or_else(|| panic!("{spec} on {shot_name}: no engine_s in its answer"));
    assert!(engine > 0.0, "{spec} on {shot_name}: engine_s = {engine}");
    assert!(
        engine <= s.wall_time_s,
        "{spec} on {shot_name}: engine_s = {engine} s > wall {} s",
        s.wall_time_s
    );
    assert_eq!(s.engine_cost_s(), engine);
    eprintln!(
        "{spec} on {shot_name}: engine {:.3} ms of {:.3} ms wall",
        engine * 1e3,
        s.wall_time_s * 1e3
    );
}

#[test]
fn mujoco_reports_its_engine_time_on_both_loops() {
    engine_time_within_wall("mujoco:1e-3", "straight");
    engine_time_within_wall("mujoco:1e-3:rk4", "straight");
    // The per-step loop, through the adapter's own command line.
    if let Ok(python) = pool_engines::peers::python(pool_engines::Peer::Mujoco) {
        let script = root().join("benches/peers/mujoco_engine.py");
        engine_time_within_wall(
            &format!(
                "exec:{} {} --dt 1e-3 --loop step",
                python.display(),
                script.display()
            ),
            "straight",
        );
    }
}

#[test]
fn pybullet_pymunk_box2d_report_their_engine_time() {
    for spec in ["pybullet:1e-3", "pymunk:1e-3", "box2d:1e-3"] {
        engine_time_within_wall(spec, "straight");
    }
}

#[test]
fn billiards_and_the_example_program_report_their_engine_time() {
    engine_time_within_wall("billiards", "ideal_many");
    engine_time_within_wall(
        &format!(
            "exec:python3 {}",
            root().join("benches/peers/ideal_engine.py").display()
        ),
        "ideal_many",
    );
}

#[test]
fn pooltool_reports_its_simulate_time() {
    engine_time_within_wall("pooltool", "straight");
}

#[test]
fn fastfiz_reports_the_time_of_execute_shot() {
    engine_time_within_wall("fastfiz", "cut_fastfiz");
    engine_time_within_wall("fastfiz", "break_9ball_fastfiz");
}
