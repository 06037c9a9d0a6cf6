//! Our built-ins `pooltool_pocket`, `pooltool_snooker` and `pooltool_billiard` against pooltool
//! 0.6.0's own table objects: `data/peers/tables/pooltool_tables.csv` holds every segment, arc
//! and pocket as pooltool builds them, in our frame (`benches/peers/pooltool_tables.py` writes
//! it; rerun it with pooltool installed to check from scratch). Same elements, same ids (ours:
//! pooltool's mapped by `cushion_id_from_pooltool` and `pocket_id_from_pooltool`), same order,
//! every coordinate within 1e-12 m, and each straight segment played on the side pooltool's
//! `direction` says. Every built-in pocket table names its pockets by where they are in our
//! frame.

use std::path::Path;

use pool_physics::{
    cushion_id_from_pooltool, pocket_id_from_pooltool, PreparedTable, Table, Vec2, POOLTOOL_TABLES,
};

/// One row of the data file: table, element, id and the numbers (NaN where empty).
struct Row {
    table: String,
    element: String,
    id: String,
    x: [f64; 7],
}

fn rows() -> Vec<Row> {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/peers/tables/pooltool_tables.csv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("table,"))
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            assert_eq!(f.len(), 10, "{l}");
            let mut x = [f64::NAN; 7];
            for (k, s) in f[3..].iter().enumerate() {
                if !s.is_empty() {
                    x[k] = s.parse().unwrap();
                }
            }
            Row {
                table: f[0].into(),
                element: f[1].into(),
                id: f[2].into(),
                x,
            }
        })
        .collect()
}

const TOL: f64 = 1e-12;

fn close(what: &str, ours: f64, theirs: f64) -> f64 {
    let err = (ours - theirs).abs();
    assert!(err <= TOL, "{what}: ours {ours:?}, pooltool {theirs:?}");
    err
}

#[test]
fn every_segment_arc_and_pocket_is_pooltools_within_1e_12_m() {
    let rows = rows();
    let mut worst: f64 = 0.0;
    let mut exact = (0, 0);
    for name in POOLTOOL_TABLES {
        let t = Table::by_name(name).unwrap();
        let mine: Vec<&Row> = rows.iter().filter(|r| r.table == name).collect();
        let (mut lin, mut arc, mut pocket) = (0, 0, 0);
        for r in &mine {
            let mut check = |what: String, ours: f64, theirs: f64| {
                worst = worst.max(close(&what, ours, theirs));
                exact.1 += 1;
                if ours.to_bits() == theirs.to_bits() {
                    exact.0 += 1;
                }
            };
            match r.element.as_str() {
                "size" => {
                    check(format!("{name} length"), t.length, r.x[0]);
                    check(format!("{name} width"), t.width, r.x[1]);
                }
                "linear" => {
                    let c = &t.cushions[lin];
                    lin += 1;
                    assert_eq!(
                        c.id,
                        cushion_id_from_pooltool(&r.id),
                        "{name}: linear segments in pooltool's order"
                    );
                    let ours = [c.p1[0], c.p1[1], c.p2[0], c.p2[1], c.height];
                    let theirs = [r.x[0], r.x[1], r.x[2], r.x[3], r.x[5]];
                    for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
                        check(format!("{name} segment {} [{k}]", c.id), *a, b);
                    }
                }
                "circular" => {
                    let c = &t.circular_cushions[arc];
                    arc += 1;
                    assert_eq!(
                        c.id,
                        cushion_id_from_pooltool(&r.id),
                        "{name}: arcs in pooltool's order"
                    );
                    let ours = [c.center[0], c.center[1], c.radius, c.height];
                    let theirs = [r.x[0], r.x[1], r.x[4], r.x[5]];
                    for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
                        check(format!("{name} arc {} [{k}]", c.id), *a, b);
                    }
                }
                "pocket" => {
                    let p = &t.pockets[pocket];
                    pocket += 1;
                    assert_eq!(
                        p.id,
                        pocket_id_from_pooltool(&r.id),
                        "{name}: pockets in pooltool's order"
                    );
                    let ours = [p.center[0], p.center[1], p.radius, p.depth.unwrap()];
                    let theirs = [r.x[0], r.x[1], r.x[4], r.x[6]];
                    for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
                        check(format!("{name} pocket {} [{k}]", p.id), *a, b);
                    }
                }
                other => panic!("unknown element {other}"),
            }
        }
        assert_eq!(lin, t.cushions.len(), "{name}: every linear segment");
        assert_eq!(arc, t.circular_cushions.len(), "{name}: every arc");
        assert_eq!(pocket, t.pockets.len(), "{name}: every pocket");
    }
    assert!(worst <= TOL);
    // Informative: how many numbers agree to the last bit (sin, cos and tan of glibc and numpy).
    println!(
        "{} of {} numbers bit for bit, worst {worst:e} m",
        exact.0, exact.1
    );
}

#[test]
fn the_pocket_tables_jaws_are_tangent_to_their_arcs() {
    // Each jaw and rail segment ends where an arc touches it: the end point is on the circle
    // and the segment's line is tangent there (the arc's center is its radius from the line;
    // pooltool's side jaws, whose tip offset is r / tan((90 deg + angle) / 2), cut 4.9e-9 m
    // into their arcs).
    for name in ["pooltool_pocket", "pooltool_snooker"] {
        let t = Table::by_name(name).unwrap();
        for a in &t.circular_cushions {
            let c = a.center_vec();
            let touching: Vec<_> = t
                .cushions
                .iter()
                .filter(|s| [s.start(), s.end()].iter().any(|p| a.gap(*p).abs() < 1e-12))
                .collect();
            assert_eq!(touching.len(), 2, "{name} {}: two segments end on it", a.id);
            for s in touching {
                assert!(
                    (s.signed_distance(c).abs() - a.radius).abs() < 1e-8,
                    "{name} {} and {}",
                    a.id,
                    s.id
                );
                // The arc lies behind the segment's playing side.
                assert!(
                    s.signed_distance(c) < 0.0,
                    "{name} {} behind {}",
                    a.id,
                    s.id
                );
            }
        }
        // So no segment end on an arc is a collision point of its own.
        let prepared = PreparedTable::from(t.clone());
        for e in prepared.end_points() {
            assert!(t.circular_cushions.iter().all(|a| a.gap(e.p) > 1e-9));
        }
    }
}

#[test]
fn pooltools_tables_are_closed_around_their_playing_area_and_throats() {
    let r = 0.028575;
    for name in POOLTOOL_TABLES {
        let t = PreparedTable::from(Table::by_name(name).unwrap());
        // A lattice over the rectangle: every point clear of the cushions is enclosed.
        let (nx, ny) = (60, 30);
        for i in 0..=nx {
            for j in 0..=ny {
                let p = Vec2::new(
                    t.length * i as f64 / nx as f64,
                    t.width * j as f64 / ny as f64,
                );
                if t.cushion_overlap(p, r, 0.0).is_some()
                    || t.pockets
                        .iter()
                        .any(|k| (p - k.center_vec()).norm() < k.radius)
                {
                    continue;
                }
                assert_eq!(t.escape(p, r), None, "{name} at {p:?}");
            }
        }
        // Outside, beyond the cushions: never enclosed.
        for p in [
            Vec2::new(-0.3, 0.4),
            Vec2::new(t.length / 2.0, t.width + 0.2),
        ] {
            assert!(t.escape(p, r).is_some(), "{name} at {p:?}");
        }
    }
    // A ball in the throat of pooltool's top right corner pocket, beyond the rail line, as
    // pooltool reaches in a break (its (0.99068, 1.94511) m): on the table.
    let t = PreparedTable::from(Table::pooltool_pocket());
    let throat = Vec2::new(1.94511, 0.99068);
    assert!(throat.y > t.width);
    assert_eq!(t.cushion_overlap(throat, r, 0.0), None);
    assert_eq!(t.escape(throat, r), None);
}

/// A pocket's id names where it is in our frame, on every built-in table with pockets: `l`,
/// `c`, `r` along the length (x = 0, L/2, L), then `b`, `t` across (y = 0, W); no cushion id
/// can be a ball's (`1`..`15`, `cue`): pooltool's cushions `1`..`18` are our `c1`..`c18`.
#[test]
fn pocket_ids_name_the_same_corner_or_side_on_every_built_in_table() {
    let mut tables = 0;
    for name in Table::BUILT_IN {
        let t = Table::by_name(name).unwrap();
        for (at, id) in t.element_ids() {
            let ball_like = id == "cue" || id.parse::<u32>().is_ok();
            assert!(!ball_like, "{name}: {at} is {id:?}, a ball's id");
        }
        if t.pockets.is_empty() {
            continue;
        }
        tables += 1;
        let mut ids: Vec<&str> = t.pockets.iter().map(|p| p.id.as_str()).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["cb", "ct", "lb", "lt", "rb", "rt"], "{name}");
        for p in &t.pockets {
            let along = match &p.id[..1] {
                "l" => 0.0,
                "c" => t.length / 2.0,
                _ => t.length,
            };
            let across = if p.id.ends_with('b') { 0.0 } else { t.width };
            // The pocket's circle passes near its corner or side, or its capture line does.
            let at = Vec2::new(along, across);
            let d = match p.capture_line {
                Some(_) => (p.aim() - at).norm(),
                None => ((p.center_vec() - at).norm() - p.radius).abs(),
            };
            assert!(d < 0.1, "{name}: pocket {} at {:?}", p.id, p.center);
        }
    }
    assert_eq!(
        tables, 4,
        "seven_foot, pooltool_pocket, pooltool_snooker, fastfiz"
    );
}

#[test]
fn the_id_maps_are_their_own_inverse() {
    for id in [
        "1", "18", "5t", "c1", "c18", "c5t", "cc1", "c", "", "rail_b1", "lb", "lc", "cb", "rc",
        "ct", "lt", "rb", "rt", "x", "1a",
    ] {
        let c = cushion_id_from_pooltool(id);
        assert_eq!(cushion_id_from_pooltool(&c), id, "{id:?} -> {c:?}");
        let p = pocket_id_from_pooltool(id);
        assert_eq!(pocket_id_from_pooltool(&p), id, "{id:?} -> {p:?}");
    }
    assert_eq!(cushion_id_from_pooltool("9"), "c9");
    assert_eq!(cushion_id_from_pooltool("5t"), "c5t");
    assert_eq!(cushion_id_from_pooltool("c9"), "9");
    assert_eq!(cushion_id_from_pooltool("rail_b1"), "rail_b1");
    assert_eq!(pocket_id_from_pooltool("lc"), "cb");
    assert_eq!(pocket_id_from_pooltool("lt"), "rb");
    assert_eq!(pocket_id_from_pooltool("rt"), "rt");
}
