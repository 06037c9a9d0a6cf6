//! A bounded fuzz over whole shot files with extreme numbers (issue 18): every file either is
//! refused with one line naming it (the CLI's exit 2), or runs on both engines; and a run the
//! commands would pass (exit 0: [`EndCheck::failures`] empty, as `simulate`, `compare` and
//! `render` judge it) keeps every invariant: the event engine all of `check_outcome`'s
//! (contact residuals, overlaps, cushion penetration, balls off the table, energy, time order),
//! the discrete integrator those of its method (a physical end, finite states, time order,
//! energy never rising between samples; its overlaps are flagged, not failures).
//!
//! The numbers are drawn from the edges of every range (zero, subnormals, 1e-16, the supported
//! ranges' ends, 1e300, f64::MAX, NaN, infinities, negatives) and from realistic values, for
//! every field: ball parameters, positions, velocities, spins, `t_end`, tables (built-in,
//! elongated rectangles, explicit boxes with any cushion height), cue strikes. 200 cases take
//! about 10 s in release.

use std::fmt::Write;
use std::path::Path;

use pool_engines::{EngineSpec, RunOptions};
use pool_harness::{check_outcome, energy_rises, violations, EndCheck};
use pool_shots::toml_f64 as toml;
use proptest::prelude::*;

/// The edges a number can sit on, in and out of every range the format accepts.
const EDGES: [f64; 26] = [
    0.0,
    -0.0,
    5e-324,
    1e-310,
    1e-16,
    1e-10,
    1e-4,
    1e-3,
    2e-3,
    0.01,
    0.028575,
    0.1,
    0.5,
    1.0,
    10.0,
    999.999,
    1e3,
    1001.0,
    1e6,
    1e300,
    f64::MAX,
    -1.0,
    -1e300,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// Any number: on an edge (in or out of range), realistic, or any bit pattern.
fn number() -> BoxedStrategy<f64> {
    prop_oneof![
        4 => prop::sample::select(&EDGES[..]),
        3 => -10.0..10.0f64,
        1 => any::<f64>(),
    ]
    .boxed()
}

/// `tame` (values inside the accepted ranges, their ends included), or in a hostile case
/// sometimes [`number`].
fn pick(hostile: bool, tame: BoxedStrategy<f64>) -> BoxedStrategy<f64> {
    if hostile {
        prop_oneof![2 => tame, 1 => number()].boxed()
    } else {
        tame
    }
}

/// One `[params]` override: a field and a value at the ends of its range or inside it.
fn param(hostile: bool) -> impl Strategy<Value = (&'static str, f64)> {
    let coefficient = || prop_oneof![Just(0.0), Just(1e-9), Just(10.0), 0.0..1.0f64].boxed();
    prop_oneof![
        Just("m").prop_flat_map(move |f| (
            Just(f),
            pick(
                hostile,
                prop_oneof![Just(1e-4), Just(1e3), 0.01..1.0f64].boxed()
            )
        )),
        Just("R").prop_flat_map(move |f| (
            Just(f),
            pick(
                hostile,
                prop_oneof![
                    Just(1e-3),
                    Just(0.0185),
                    Just(0.1),
                    Just(1.0),
                    0.02..0.05f64
                ]
                .boxed()
            )
        )),
        Just("mu_s").prop_flat_map(move |f| (Just(f), pick(hostile, coefficient()))),
        Just("mu_r").prop_flat_map(move |f| (Just(f), pick(hostile, coefficient()))),
        Just("mu_sp").prop_flat_map(move |f| (Just(f), pick(hostile, coefficient()))),
        Just("e_c").prop_flat_map(move |f| (
            Just(f),
            pick(
                hostile,
                prop_oneof![Just(0.0), Just(1.0), 0.0..1.0f64].boxed()
            )
        )),
        Just("f_c").prop_flat_map(move |f| (Just(f), pick(hostile, coefficient()))),
        Just("g").prop_flat_map(move |f| (
            Just(f),
            pick(
                hostile,
                prop_oneof![Just(1e-3), Just(1e3), 1.0..20.0f64].boxed()
            )
        )),
    ]
}

#[derive(Debug, Clone)]
enum TableChoice {
    Named(&'static str),
    /// An explicit box of this length, width and cushion height (m), closed or missing its
    /// top cushion.
    Box(f64, f64, f64, bool),
}

fn table(hostile: bool) -> impl Strategy<Value = TableChoice> {
    prop_oneof![
        3 => prop::sample::select(&["seven_foot", "carom", "rectangle_2.0x1.0", "rectangle_0.06x1000", "rectangle_1000x0.06", "rectangle_3x3"][..])
            .prop_map(TableChoice::Named),
        2 => (
            pick(hostile, prop_oneof![Just(2.0), Just(0.2), Just(100.0)].boxed()),
            pick(hostile, prop_oneof![Just(1.0), Just(0.2)].boxed()),
            pick(hostile, prop_oneof![Just(0.0015), Just(0.036576), Just(0.5), 0.001..0.06f64].boxed()),
            prop::bool::weighted(if hostile { 0.7 } else { 1.0 }),
        )
            .prop_map(|(l, w, h, closed)| TableChoice::Box(l, w, h, closed)),
    ]
}

/// (length, width) of the playing area, to place balls as fractions of it.
fn extent(t: &TableChoice) -> (f64, f64) {
    match t {
        TableChoice::Named("seven_foot") => (1.9812, 0.9906),
        TableChoice::Named("carom") => (2.84, 1.42),
        TableChoice::Named("rectangle_0.06x1000") => (0.06, 1000.0),
        TableChoice::Named("rectangle_1000x0.06") => (1000.0, 0.06),
        TableChoice::Named("rectangle_3x3") => (3.0, 3.0),
        TableChoice::Named(_) => (2.0, 1.0),
        TableChoice::Box(l, w, ..) => (*l, *w),
    }
}

#[derive(Debug, Clone)]
struct BallChoice {
    /// Position as fractions of the table (a number outside [0, 1] is used as is, in m).
    at: (f64, f64),
    /// Speed (m/s) and direction (rad).
    speed: f64,
    heading: f64,
    /// Spin times R (m/s) about each axis.
    spin: [f64; 3],
}

fn ball(hostile: bool) -> impl Strategy<Value = BallChoice> {
    let fraction = || pick(hostile, (0.1..0.9f64).boxed());
    let speed = pick(
        hostile,
        prop_oneof![
            2 => Just(0.0),
            3 => 0.0..10.0f64,
            2 => prop::sample::select(&[1e-12, 1e-6, 30.0, 100.0, 999.0, 1e3][..]),
        ]
        .boxed(),
    );
    let spin = || {
        pick(
            hostile,
            prop_oneof![3 => Just(0.0), 2 => -5.0..5.0f64, 1 => prop::sample::select(&[-700.0, 1e-12, 100.0, 700.0][..])].boxed(),
        )
    };
    (
        (fraction(), fraction()),
        speed,
        0.0..std::f64::consts::TAU,
        [spin(), spin(), spin()],
    )
        .prop_map(|(at, speed, heading, spin)| BallChoice {
            at,
            speed,
            heading,
            spin,
        })
}

#[derive(Debug, Clone)]
struct Strike {
    v0: f64,
    phi: f64,
    theta: f64,
    a: f64,
    b: f64,
}

fn strike(hostile: bool) -> impl Strategy<Value = Option<Strike>> {
    let v0 = pick(
        hostile,
        prop_oneof![
            2 => 0.5..12.0f64,
            1 => prop::sample::select(&[0.0, 1e-9, 100.0, 999.0, 1000.0][..]),
        ]
        .boxed(),
    );
    let phi = pick(hostile, (0.0..360.0f64).boxed());
    let theta = pick(
        hostile,
        prop_oneof![3 => 0.0..30.0f64, 1 => Just(89.9)].boxed(),
    );
    let offset = || pick(hostile, (-0.6..0.6f64).boxed());
    prop::option::weighted(
        0.3,
        (v0, phi, theta, offset(), offset()).prop_map(|(v0, phi, theta, a, b)| Strike {
            v0,
            phi,
            theta,
            a,
            b,
        }),
    )
}

#[derive(Debug, Clone)]
struct ShotChoice {
    ideal: bool,
    t_end: Option<f64>,
    table: TableChoice,
    params: Vec<(&'static str, f64)>,
    balls: Vec<BallChoice>,
    strike: Option<Strike>,
}

/// A shot: tame (every number inside its accepted range, often at an end of it) in four cases
/// of five, hostile (any field may hold any number) in the fifth.
fn shot() -> impl Strategy<Value = ShotChoice> {
    prop::bool::weighted(0.2).prop_flat_map(|hostile| {
        let t_end = prop_oneof![
            3 => Just(None),
            2 => pick(hostile, prop::sample::select(&[1e-9, 0.1, 1.0, 10.0, 1e4, 1e6][..]).boxed()).prop_map(Some),
        ];
        (
            prop::bool::weighted(0.25),
            t_end,
            table(hostile),
            prop::collection::vec(param(hostile), 0..3),
            prop::collection::vec(ball(hostile), 1..5),
            strike(hostile),
        )
            .prop_map(move |(ideal, t_end, table, params, balls, strike)| ShotChoice {
                ideal,
                // Frictionless balls never stop: a tame ideal shot has a time limit.
                t_end: if ideal && !hostile { t_end.or(Some(10.0)) } else { t_end },
                table,
                params,
                balls,
                strike,
            })
    })
}

/// The shot file's text.
fn text(s: &ShotChoice) -> String {
    let mut t = String::from("description = \"fuzz\"\n");
    if s.ideal {
        t.push_str("model = \"ideal\"\n");
    }
    if let Some(e) = s.t_end {
        let _ = writeln!(t, "t_end = {}", toml(e));
    }
    match &s.table {
        TableChoice::Named(n) => {
            let _ = writeln!(t, "table = \"{n}\"");
        }
        TableChoice::Box(l, w, h, closed) => {
            let _ = writeln!(
                t,
                "[table]\nname = \"box\"\nlength = {}\nwidth = {}",
                toml(*l),
                toml(*w)
            );
            let corners = [(0.0, 0.0), (*l, 0.0), (*l, *w), (0.0, *w)];
            for k in 0..4 {
                if k == 2 && !closed {
                    continue;
                }
                let (p, q) = (corners[k], corners[(k + 1) % 4]);
                let _ = writeln!(
                    t,
                    "[[table.cushions]]\nid = \"c{k}\"\np1 = [{}, {}]\np2 = [{}, {}]\nheight = {}",
                    toml(p.0),
                    toml(p.1),
                    toml(q.0),
                    toml(q.1),
                    toml(*h)
                );
            }
        }
    }
    // A parameter the ideal model does not read is an error by design: keep m and R there.
    let params: Vec<_> = s
        .params
        .iter()
        .filter(|(f, _)| !s.ideal || matches!(*f, "m" | "R"))
        .collect();
    if !params.is_empty() {
        t.push_str("[params]\n");
        let mut seen = Vec::new();
        for (f, v) in params {
            if !seen.contains(f) {
                seen.push(*f);
                let _ = writeln!(t, "{f} = {}", toml(*v));
            }
        }
    }
    let (l, w) = extent(&s.table);
    for (k, b) in s.balls.iter().enumerate() {
        let place = |f: f64, size: f64| {
            if (0.0..=1.0).contains(&f) {
                f * size
            } else {
                f
            }
        };
        let struck = k == 0 && s.strike.is_some();
        let _ = writeln!(
            t,
            "[[balls]]\nid = \"b{k}\"\nr = [{}, {}]",
            toml(place(b.at.0, l)),
            toml(place(b.at.1, w))
        );
        if !struck {
            let (c, sn) = (b.heading.cos(), b.heading.sin());
            let _ = writeln!(t, "v = [{}, {}]", toml(b.speed * c), toml(b.speed * sn));
            let r = 0.028575;
            let _ = writeln!(
                t,
                "w = [{}, {}, {}]",
                toml(b.spin[0] / r),
                toml(b.spin[1] / r),
                toml(b.spin[2] / r)
            );
        }
    }
    if let Some(c) = &s.strike {
        let _ = writeln!(
            t,
            "[cue]\nball = \"b0\"\nV0 = {}\nphi = {}\ntheta = {}\na = {}\nb = {}",
            toml(c.v0),
            toml(c.phi),
            toml(c.theta),
            toml(c.a),
            toml(c.b)
        );
    }
    t
}

/// The event budget of the fuzz's runs: far below the commands' 100 000, to bound the time; a
/// run that needs more ends on the budget, which the commands call a failure (exit 1).
const FUZZ_EVENTS: usize = 20_000;
/// The discrete runs' time step (s), and the most ball-steps a fuzz case may spend on it.
const FUZZ_DT: f64 = 1e-3;
const FUZZ_BALL_STEPS: f64 = 2e6;

/// Cases per run: 1000 (about 6 s in release; about half are refused, half run), or
/// `FUZZ_CASES` for a longer hunt (20 000 cases found nothing more after the table-size rule).
fn cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(1000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn a_shot_is_refused_in_one_line_or_every_passed_run_keeps_its_invariants(s in shot()) {
        let text = text(&s);
        let setup = match pool_shots::parse(&text, "fuzz", Path::new("fuzz.toml")) {
            Err(e) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("fuzz.toml: "), "{msg}");
                prop_assert_eq!(msg.lines().count(), 1, "{}", msg);
                prop_assert!(msg.len() < 600, "{} bytes: {}", msg.len(), msg);
                return Ok(());
            }
            Ok(setup) => setup,
        };

        let event = EngineSpec::reference()
            .build_with(&RunOptions {
                snapshots: Some(f64::INFINITY),
                max_events: Some(FUZZ_EVENTS),
                ..RunOptions::default()
            })
            .unwrap()
            .run(&setup);
        let end = EndCheck::of(&setup, &event);
        if end.failures(&setup).is_empty() {
            let rep = check_outcome(&setup, &event, 4);
            let broken = violations(&event, Some(&rep));
            prop_assert!(broken.is_empty(), "event engine: {broken:?} {rep:?}\n{text}");
        } else {
            prop_assert!(!end.ended_physically());
        }

        let t_limit = setup.t_end.unwrap_or(pool_discrete::MAX_TIME);
        if t_limit / FUZZ_DT * setup.balls.len() as f64 <= FUZZ_BALL_STEPS {
            let discrete = EngineSpec::discrete(FUZZ_DT, pool_discrete::Scheme::EndOfStep)
                .unwrap()
                .build_with(&RunOptions {
                    snapshots: Some(0.01),
                    max_events: None,
                    ..RunOptions::default()
                })
                .unwrap()
                .run(&setup);
            let end = EndCheck::of(&setup, &discrete);
            if end.failures(&setup).is_empty() {
                let broken = violations(&discrete, None);
                prop_assert!(broken.is_empty(), "discrete: {broken:?}\n{text}");
                prop_assert_eq!(energy_rises(&setup.physics, &discrete.snapshots), 0, "{}", text);
                prop_assert_eq!(end.overlapping(), !end.warnings(&setup).is_empty());
            }
        }
    }
}
