//! The regression check: a re-run matches its baseline bit for bit (runs, ball order), and a
//! physics change is caught with the first diverging event named.

use std::path::Path;

use pool_harness::{diff_shot, run_reference, shot_baseline, ShotBaseline, Tolerances};
use pool_physics::resolve::LawSpec;
use pool_physics::Model;
use pool_sim::Setup;

fn default_shots() -> Vec<Setup> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    pool_shots::list_shots(&dir)
        .unwrap()
        .iter()
        .map(|f| pool_shots::load(f).unwrap())
        .collect()
}

fn baseline(s: &Setup) -> ShotBaseline {
    shot_baseline(
        s,
        &run_reference(s, &pool_engines::EngineSpec::reference())
            .unwrap()
            .outcome,
    )
}

#[test]
fn reruns_are_bit_identical() {
    for s in default_shots() {
        let (a, b) = (baseline(&s), baseline(&s));
        assert_eq!(a, b, "{}", s.name);
    }
}

#[test]
fn ball_order_in_the_file_does_not_change_the_log() {
    // FastFiz's ball-ball law is not symmetric: its "ball 1" of two moving balls is the first
    // (FastFiz's lower number, here the first in the file; docs/fastfiz.md), so under the
    // `fastfiz` preset the order of the balls is part of the shot.
    for s in default_shots()
        .into_iter()
        .filter(|s| s.physics.preset_name() != Some("fastfiz"))
    {
        let mut reversed = s.clone();
        reversed.balls.reverse();
        let (a, mut b) = (baseline(&s), baseline(&reversed));
        b.finals.reverse();
        assert!(
            a.events == b.events,
            "{}: event log depends on ball order",
            s.name
        );
        assert_eq!(a.finals, b.finals, "{}", s.name);
    }
}

#[test]
fn check_bites_on_a_one_percent_friction_change() {
    let tol = Tolerances::default();
    let mut caught = 0;
    for s in default_shots() {
        if s.physics.preset_name() != Some("pool") {
            continue;
        }
        let mut changed = s.clone();
        let mut params = *s.physics.params();
        params.mu_s *= 1.01;
        changed.physics = Model::pool(params);
        let base = baseline(&s);
        let diffs = diff_shot(&base, &baseline(&changed), &tol);
        let slides = base
            .events
            .iter()
            .any(|e| e.kind == "sliding_rolling" || e.kind.starts_with("ball_"));
        if !slides {
            // No ball ever slides in this shot (spin_down, near_miss): mu_s does not enter.
            assert!(diffs.is_empty(), "{}: {diffs:?}", s.name);
            continue;
        }
        assert!(!diffs.is_empty(), "{}: mu_s + 1% went unnoticed", s.name);
        let first = &diffs[0];
        assert!(
            first.place.starts_with("event ") || first.place.starts_with("final"),
            "{first}"
        );
        if first.field == "time_s" {
            let size = first.size.unwrap();
            assert!(size > 1e3 * tol.time_s, "{}: change only {size} s", s.name);
        }
        caught += 1;
    }
    assert!(caught >= 8, "only {caught} shots caught");
}

#[test]
fn check_bites_on_a_swapped_collision_law() {
    // Mirror cushions (`unrealistic`) instead of Han (2005), everything else kept.
    let s = default_shots()
        .into_iter()
        .find(|s| s.name == "bank")
        .unwrap();
    let mut swapped = s.clone();
    let mut laws = s.physics.resolver().clone();
    laws.set("ball_linear_cushion", &LawSpec::named("unrealistic"))
        .unwrap();
    swapped.physics = Model::new(*s.physics.params(), s.physics.motion(), laws);
    let base = baseline(&s);
    let diffs = diff_shot(&base, &baseline(&swapped), &Tolerances::default());
    let first = diffs.first().expect("a swapped law must be caught");
    // Everything up to the first cushion hit is the same; the event after it is not.
    let hit = base
        .events
        .iter()
        .position(|e| e.kind == "ball_linear_cushion")
        .expect("the bank shot hits a cushion");
    assert!(
        first
            .to_string()
            .starts_with(&format!("bank: event {} ", hit + 1)),
        "{first}"
    );
}
