//! pooltool 0.6.0's own 9-ball breaks (`data/peers/pooltool/breaks/`, written by
//! `benches/peers/pooltool_fixtures.py`): each made by pooltool with a cue strike, saved with
//! `System.save`, and run by pooltool under its default resolver with its contact spacer as
//! shipped (1e-6 m) and lowered (1e-12 m). Imported and run by our event engine under the same
//! laws (`pooltool_default`, every collision law moving the bodies as far apart as pooltool's
//! spacer before it runs: their `spacer`), the logs must have the same kinds and agents as
//! pooltool's, the whole run at both spacers.

use std::path::{Path, PathBuf};

use pool_event::EventEngine;
use pool_physics::EventKind;
use pool_pooltool::{at_spacer, import, our_events, pooltool_events, read_tree, shared_prefix};
use pool_sim::Engine;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/peers/pooltool/breaks")
        .join(name)
}

/// Events closer than this may be logged in either order (`compare-pooltool`'s --tol).
const TIE: f64 = 1e-6;

#[test]
fn pooltools_breaks_share_their_whole_logs_with_ours_limited_only_by_its_spacer() {
    let mut report = Vec::new();
    for seed in 1..=5 {
        let name = format!("break_{seed}");
        let imported = import(
            &fixture(&format!("{name}.json")),
            &name,
            Some(&fixture("resolver.yaml")),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(imported.notes.is_empty(), "{:?}", imported.notes);
        let setup = imported.setup;
        assert_eq!(
            setup.physics.preset_name(),
            Some("pooltool_default"),
            "{name}: pooltool's default resolver is our pooltool_default"
        );
        assert_eq!(setup.table.name, "pooltool_pocket");
        assert!(setup.strike.is_some(), "{name}: a cue strike");
        let run = EventEngine::default().run(&setup);
        // The strike, then the cascade through the rack.
        assert_eq!(run.events[0].kind, EventKind::StickBall);
        let cascade = (run.events.iter().skip(1))
            .take_while(|e| e.kind == EventKind::BallBall)
            .count();
        assert!(
            cascade >= 5,
            "{name}: {cascade} collisions in the first cascade"
        );
        let mut prefix = Vec::new();
        for spacer in ["1e-12", "1e-6"] {
            let tree = read_tree(&fixture(&format!("{name}@{spacer}.json"))).unwrap();
            let theirs = pooltool_events(&tree).unwrap();
            let at = at_spacer(&setup, spacer.parse().unwrap());
            let ours = our_events(&at, &EventEngine::default().run(&at));
            let p = shared_prefix(&ours, &theirs, TIE);
            prefix.push((p.len, theirs.len(), p.worst_dt, p.end.clone(), ours.len()));
        }
        let (lowered, shipped) = (&prefix[0], &prefix[1]);
        // The whole logs, kinds and agents, with the spacer lowered (the laws alone) and as
        // shipped (the laws after pooltool's `make_kiss`).
        for (p, at) in [(lowered, "1e-12"), (shipped, "1e-6")] {
            assert_eq!(p.3, None, "{name} at {at} m: {:?}", p.3);
            assert_eq!((p.0, p.1), (p.4, p.4), "{name} at {at} m");
        }
        report.push(format!(
            "{name}: {} events; cascade {cascade}; shared with pooltool at 1e-12 m: all {} \
             (times within {:.1e} s), at 1e-6 m: all {} (within {:.1e} s)",
            lowered.4, lowered.0, lowered.2, shipped.0, shipped.2
        ));
    }
    for line in report {
        eprintln!("{line}");
    }
}
