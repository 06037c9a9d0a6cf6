//! Engine specs: the grammar, its errors, display round trips, and building.

use pool_discrete::{BroadPhase, Scheme};
use pool_engines::{EngineSpec, RunOptions};

#[test]
fn specs_parse_to_their_engine_and_settings() {
    let parse = |s: &str| s.parse::<EngineSpec>().unwrap();
    assert_eq!(parse("event"), EngineSpec::reference());
    assert_eq!(
        parse("event:ferrari:unculled"),
        EngineSpec::Event {
            solver: pool_roots::Solver::Ferrari,
            culling: false
        }
    );
    assert_eq!(
        parse("discrete:1e-3"),
        EngineSpec::Discrete {
            dt: 1e-3,
            scheme: Scheme::EndOfStep,
            broad_phase: BroadPhase::Culled
        }
    );
    assert_eq!(
        parse("discrete:0.01:euler:exhaustive"),
        EngineSpec::Discrete {
            dt: 0.01,
            scheme: Scheme::Euler,
            broad_phase: BroadPhase::Exhaustive
        }
    );
    let d = parse("discrete:2.5e-4:euler");
    assert_eq!(
        (d.family(), d.variant(), d.dt()),
        ("discrete", "euler".into(), Some(2.5e-4))
    );
    assert_eq!(
        parse("discrete:1e-3:substep16:exhaustive"),
        EngineSpec::Discrete {
            dt: 1e-3,
            scheme: Scheme::Substep(16),
            broad_phase: BroadPhase::Exhaustive
        }
    );
    let l = parse("discrete:1e-2:located");
    assert_eq!(
        (l.family(), l.variant(), l.dt()),
        ("discrete", "located".into(), Some(1e-2))
    );
    let e = parse("event:alg1010");
    assert_eq!(
        (e.family(), e.variant(), e.dt()),
        ("event", "alg1010".into(), None)
    );
}

#[test]
fn every_spec_displays_as_a_string_that_parses_back_to_it() {
    for s in [
        "event",
        "event:companion:unculled",
        "discrete:1e-4",
        "discrete:0.0021544346900318843:euler",
        "discrete:1:exact:exhaustive",
        "discrete:1e-7",
        "discrete:1e-3:located",
        "discrete:3e-3:substep8:exhaustive",
        "mujoco:1e-3:euler",
        "mujoco:0.0021544346900318843:implicitfast",
        "mujoco:1:rk4",
        "pybullet:1e-7",
        "pymunk:0.01",
        "box2d:3e-4",
        "billiards",
    ] {
        let spec: EngineSpec = s.parse().unwrap();
        let again: EngineSpec = spec.to_string().parse().unwrap();
        assert_eq!(again, spec, "{s} -> {spec}");
    }
}

#[test]
fn bad_specs_are_one_line_errors_naming_the_spec() {
    for (bad, says) in [
        ("events", "unknown engine"),
        ("discrete", "needs a time step"),
        ("discrete:abc", "not a number"),
        ("discrete:0", "must be in"),
        ("discrete:-1e-3", "must be in"),
        ("discrete:NaN", "must be in"),
        ("discrete:inf", "must be in"),
        ("discrete:1e-9", "must be in"),
        ("discrete:2", "must be in"),
        ("discrete:1e-3:rk4", "unknown scheme"),
        ("discrete:1e-3:substep1", "substep<k> (k in 2..=1000)"),
        ("discrete:1e-3:exact:grid", "unknown broad phase"),
        ("discrete:1e-3:exact:culled:x", "expected discrete"),
        ("event:newton", "unknown root solver"),
        ("event:isolator:fast", "expected event"),
        ("", "unknown engine"),
        ("mujoco", "expected mujoco:<dt>[:<integrator>]"),
        ("mujoco:abc", "not a number"),
        ("mujoco:0", "must be in"),
        ("mujoco:NaN", "must be in"),
        ("mujoco:-1e-3", "must be in"),
        ("mujoco:2", "must be in"),
        (
            "mujoco:1e-3:Euler",
            "unknown integrator \"Euler\"; valid: euler, implicitfast, rk4",
        ),
        ("mujoco:1e-3:implicit", "unknown integrator"),
        ("mujoco:1e-3:rk4:x", "expected mujoco"),
        ("pybullet", "expected pybullet:<dt>"),
        ("pybullet:1e-3:rk4", "expected pybullet:<dt>"),
        ("pymunk:inf", "must be in"),
        ("pymunk:1e-9", "must be in"),
        ("box2d:", "not a number"),
        ("box2d:1e-3:1", "expected box2d:<dt>"),
        ("billiards:1e-3", "billiards (event-driven: no time step)"),
    ] {
        let e = bad.parse::<EngineSpec>().unwrap_err().to_string();
        assert!(e.starts_with(&format!("{bad:?}: ")), "{bad}: {e}");
        assert!(e.contains(says), "{bad}: {e}");
        assert!(!e.contains('\n'), "{bad}: {e}");
    }
    let unknown = "mujo:1e-3".parse::<EngineSpec>().unwrap_err().to_string();
    assert!(unknown.contains("mujoco:<dt>[:<integrator>]") && unknown.contains("billiards"));
    // Peer names are built-in families: no run-time engine may take them.
    assert!(pool_engines::register("pymunk", |_, _| Err("no".into())).is_err());
}

#[test]
fn the_discrete_integrator_refuses_a_step_out_of_range_however_it_is_made() {
    use pool_discrete::{DiscreteEngine, DT_MAX, DT_MIN};
    for dt in [
        0.0,
        -1e-3,
        f64::NAN,
        f64::INFINITY,
        DT_MIN / 2.0,
        DT_MAX * 2.0,
    ] {
        assert!(DiscreteEngine::new(dt, Scheme::EndOfStep).is_err(), "{dt}");
        assert!(EngineSpec::discrete(dt, Scheme::EndOfStep).is_err(), "{dt}");
    }
    for dt in [DT_MIN, 1e-4, DT_MAX] {
        assert!(DiscreteEngine::new(dt, Scheme::EndOfStep).is_ok(), "{dt}");
    }
}

#[test]
fn a_built_engine_runs_the_shot_its_spec_names() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots/straight.toml");
    let setup = pool_shots::load(&path).unwrap();
    for s in [
        "event",
        "event:alg1010",
        "discrete:1e-3",
        "discrete:1e-3:euler",
        "discrete:1e-3:located",
        "discrete:1e-3:substep4",
    ] {
        let spec: EngineSpec = s.parse().unwrap();
        let o = spec.build().unwrap().run(&setup);
        assert!(!o.events.is_empty(), "{s}");
        assert!(o.snapshots.is_empty(), "{s}: no snapshots unless asked");
        let with = RunOptions {
            snapshots: Some(0.01),
            ..RunOptions::default()
        };
        let o2 = spec.build_with(&with).unwrap().run(&setup);
        assert!(!o2.snapshots.is_empty(), "{s}");
        assert_eq!(o2.events, o.events, "{s}: snapshots change nothing");
    }
}

#[test]
fn peer_specs_parse_to_their_engine_step_and_integrator() {
    use pool_engines::{Integrator, Peer};
    let parse = |s: &str| s.parse::<EngineSpec>().unwrap();
    assert_eq!(
        parse("mujoco:1e-3"),
        EngineSpec::Peer {
            peer: Peer::Mujoco,
            dt: Some(1e-3),
            integrator: Some(Integrator::Euler)
        }
    );
    let m = parse("mujoco:2e-4:rk4");
    assert_eq!(
        (m.family(), m.variant(), m.dt(), m.to_string()),
        ("mujoco", "rk4".into(), Some(2e-4), "mujoco:2e-4:rk4".into())
    );
    assert_eq!(parse("mujoco:1e-2:implicitfast").variant(), "implicitfast");
    for (s, peer, version) in [
        ("pybullet:1e-3", Peer::Pybullet, "3.2.7"),
        ("pymunk:1e-3", Peer::Pymunk, "7.3.1"),
        ("box2d:1e-3", Peer::Box2d, "2.3.10"),
    ] {
        let spec = parse(s);
        assert_eq!(
            spec,
            EngineSpec::Peer {
                peer,
                dt: Some(1e-3),
                integrator: None
            }
        );
        assert_eq!(
            (spec.family(), spec.variant(), spec.dt()),
            (peer.name(), version.into(), Some(1e-3))
        );
    }
    let b = parse("billiards");
    assert_eq!(
        (b.family(), b.variant(), b.dt(), b.label()),
        ("billiards", "0.5.0".into(), None, "billiards 0.5.0".into())
    );
}

#[test]
fn a_peer_that_is_not_installed_says_why_in_one_line() {
    use pool_engines::peers;
    // A Python that cannot import the module (python3 without the peers, or no Python at all).
    for peer in pool_engines::Peer::ALL {
        let why =
            peers::check_python(std::path::Path::new("/nonexistent/python"), peer).unwrap_err();
        assert!(why.contains("cannot run /nonexistent/python"), "{why}");
        assert!(!why.contains('\n'), "{why}");
    }
    // Every engine but pooltool and the peers is always available.
    for s in ["event", "discrete:1e-3", "exec:true"] {
        assert_eq!(s.parse::<EngineSpec>().unwrap().unavailable(), None, "{s}");
    }
}

#[test]
fn keep_sessions_reaches_the_exec_engines_built() {
    // A program that notes each start and declines every shot: three batches make three
    // starts by default, one with `keep_sessions` (ended when the engine is dropped).
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots/straight.toml");
    let setup = pool_shots::load(&path).unwrap();
    let dir = std::env::temp_dir().join(format!("spec-keep-sessions-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let starts = |keep: bool| {
        let pids = dir.join(format!("pids-{keep}"));
        let spec: EngineSpec = format!(
            "exec:timeout=10:echo $$ >> {}; while read -r l; do echo '{{\"unsupported\": \"no\"}}'; done",
            pids.display()
        )
        .parse()
        .unwrap();
        let options = RunOptions {
            keep_sessions: keep,
            ..RunOptions::default()
        };
        let engine = spec.build_with(&options).unwrap();
        for _ in 0..3 {
            let out = engine.try_run_all(&[setup.clone(), setup.clone()]);
            assert!(out.iter().all(|r| r.as_ref().is_err_and(|e| e.unsupported)));
        }
        drop(engine);
        std::fs::read_to_string(&pids).unwrap().lines().count()
    };
    assert!(!RunOptions::default().keep_sessions);
    assert_eq!(starts(false), 3);
    assert_eq!(starts(true), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_end_of_step_scheme_is_named_for_what_it_does_and_exact_still_reads() {
    let spec: EngineSpec = "discrete:1e-3:exact".parse().unwrap();
    assert_eq!(spec.to_string(), "discrete:1e-3:end_of_step");
    assert_eq!(spec, "discrete:1e-3:end_of_step".parse().unwrap());
    assert_eq!(spec.variant(), "end_of_step");
    // The default scheme is end_of_step.
    let plain: EngineSpec = "discrete:1e-3".parse().unwrap();
    assert_eq!(plain, spec);
    // The search's candidates keep everything but the step.
    let finer = spec.with_dt(3.2e-6).unwrap();
    assert_eq!(finer.to_string(), "discrete:3.2e-6:end_of_step");
    assert!(spec.with_dt(1e-9).is_none());
    assert!("event"
        .parse::<EngineSpec>()
        .unwrap()
        .with_dt(1e-3)
        .is_none());
}

#[test]
fn a_program_may_take_a_time_step_and_a_short_name() {
    let p: EngineSpec = "exec:dt=1e-3:name=euler_rl:python3 e.py --flag a:b"
        .parse()
        .unwrap();
    assert_eq!(
        p,
        EngineSpec::Exec {
            command: "python3 e.py --flag a:b".into(),
            timeout_s: pool_exec::DEFAULT_TIMEOUT_S,
            dt: Some(1e-3),
            name: Some("euler_rl".into()),
        }
    );
    assert_eq!(
        (p.family(), p.variant(), p.dt()),
        ("exec", "euler_rl".into(), Some(1e-3))
    );
    assert_eq!(p.label(), "euler_rl dt=1e-3 s");
    // On the ladder: the same program at another rung; its name and command stay.
    let rung = p.with_dt(2e-4).unwrap();
    assert_eq!((rung.dt(), rung.variant()), (Some(2e-4), "euler_rl".into()));
    for s in [
        "exec:timeout=5:name=x:dt=1e-2:./run",
        "exec:dt=1e-4:sh -c 'echo a=b'",
    ] {
        let spec: EngineSpec = s.parse().unwrap();
        assert_eq!(spec.to_string().parse::<EngineSpec>().unwrap(), spec, "{s}");
    }
    // Without dt= a program has no time step and no rung.
    let plain: EngineSpec = "exec:python3 e.py".parse().unwrap();
    assert_eq!((plain.dt(), plain.with_dt(1e-3)), (None, None));
    for (bad, says) in [
        ("exec:dt=0:x", "must be in"),
        ("exec:dt=abc:x", "not a number"),
        ("exec:dt=1e-3:dt=1e-4:x", "given twice"),
        ("exec:name=a b:x", "a short label"),
        ("exec:dt=1e-3", "expected exec:dt=<value>:<command>"),
    ] {
        let e = bad.parse::<EngineSpec>().unwrap_err().to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

#[test]
fn an_engine_list_keeps_the_commas_of_a_command_and_names_a_typo() {
    use pool_engines::split_list;
    assert_eq!(
        split_list("exec:python3 e.py --dts 1e-2,1e-3,mujoco:1e-3, pymunk:1e-3"),
        [
            "exec:python3 e.py --dts 1e-2,1e-3",
            "mujoco:1e-3",
            "pymunk:1e-3"
        ]
    );
    assert_eq!(split_list("event,billiards"), ["event", "billiards"]);
    assert_eq!(split_list("exec:a,exec:b"), ["exec:a", "exec:b"]);
    let e = "pymunkk:1e-3"
        .parse::<EngineSpec>()
        .unwrap_err()
        .to_string();
    assert!(e.contains("did you mean \"pymunk\"?"), "{e}");
    let e = "fastfix".parse::<EngineSpec>().unwrap_err().to_string();
    assert!(e.contains("did you mean \"fastfiz\"?"), "{e}");
}
