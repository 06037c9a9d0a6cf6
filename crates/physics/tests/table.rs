//! Table geometry: the exposed end points, and the prepared table's precomputed geometry
//! against the description's methods.

use pool_physics::{PreparedTable, Table, Vec2};
use proptest::prelude::*;

#[test]
fn exposed_points_are_the_jaw_tips_and_open_ends_only() {
    // A rectangle's corners turn toward the playing side: a ball never touches them.
    assert!(Table::carom().exposed_points().is_empty());
    // The 7-foot table: 12 jaw tips (rail meets jaw, turning away from the cloth) and the 12
    // open outer ends of the jaws; each point once.
    let t = Table::seven_foot();
    let pts = t.exposed_points();
    assert_eq!(pts.len(), 24);
    for (i, (p, k)) in pts.iter().enumerate() {
        let c = &t.cushions[*k];
        assert!((c.start() - p).norm() < 1e-12 || (c.end() - p).norm() < 1e-12);
        assert!(pts[i + 1..].iter().all(|(q, _)| (q - p).norm() > 1e-9));
    }
}

#[test]
fn the_prepared_table_lists_every_element_of_its_description_in_order() {
    for name in Table::BUILT_IN {
        let t = Table::by_name(name).unwrap();
        let p = PreparedTable::from(t.clone());
        assert_eq!(*p, t);
        assert_eq!(p.segments().len(), t.cushions.len());
        for (s, c) in p.segments().iter().zip(&t.cushions) {
            assert_eq!((s.start, s.end, s.height), (c.start(), c.end(), c.height));
            assert_eq!(s.normal, c.inward_normal());
            assert_eq!(s.outward_normal(), -c.inward_normal());
            for q in [s.start, s.end] {
                assert!(q.x >= s.bbox.min.x && q.x <= s.bbox.max.x);
                assert!(q.y >= s.bbox.min.y && q.y <= s.bbox.max.y);
            }
        }
        let points: Vec<(Vec2, usize)> = p.end_points().iter().map(|e| (e.p, e.segment)).collect();
        assert_eq!(points, t.exposed_points());
        assert_eq!(p.pocket_zones().len(), t.pockets.len());
        for (c, k) in p.pocket_zones().iter().zip(&t.pockets) {
            assert_eq!((c.center, c.radius), (k.center_vec(), k.radius));
            let b = c.reach(0.0);
            match (&c.line, k.capture_line) {
                (Some(line), Some([p1, p2])) => {
                    assert_eq!((line.start, line.end), (Vec2::from(p1), Vec2::from(p2)));
                    assert_eq!(b, line.bbox);
                }
                (None, None) => {
                    assert!(b.min.x <= c.center.x - c.radius && b.max.y >= c.center.y + c.radius)
                }
                _ => panic!("{}: capture line {:?}", k.id, k.capture_line),
            }
        }
    }
}

proptest! {
    /// The engines read distances and segment parameters from the prepared segments, the checks
    /// and older code from the description: both must give the same bits.
    #[test]
    fn prepared_segments_give_the_description_methods_bits(x in -0.5f64..3.5, y in -0.5f64..2.0) {
        for t in [Table::seven_foot(), Table::carom()] {
            let p = PreparedTable::from(t.clone());
            let q = Vec2::new(x, y);
            for (s, c) in p.segments().iter().zip(&t.cushions) {
                prop_assert_eq!(s.signed_distance(q).to_bits(), c.signed_distance(q).to_bits());
                prop_assert_eq!(s.parameter(q).to_bits(), c.parameter(q).to_bits());
            }
        }
    }
}

/// Points on a 1 cm lattice over the playing area, clear of every cushion (by R) and outside
/// every pocket (its circle, or behind its capture line).
fn playable(t: &PreparedTable, radius: f64) -> Vec<Vec2> {
    let mut out = Vec::new();
    for ix in 1..(t.length * 100.0) as i32 {
        for iy in 1..(t.width * 100.0) as i32 {
            let p = Vec2::new(f64::from(ix) * 0.01, f64::from(iy) * 0.01);
            let clear = t.cushion_overlap(p, radius, 0.0).is_none();
            let outside = t.pocket_zones().iter().all(|c| match &c.line {
                // Behind a capture line, across its segment, a ball is captured.
                Some(l) => l.signed_distance(p) >= 0.0 || !(0.0..=1.0).contains(&l.parameter(p)),
                None => (p - c.center).norm() >= c.radius,
            });
            if clear && outside {
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn every_built_in_table_encloses_its_whole_playing_area() {
    use pool_physics::BallParams;
    for name in Table::BUILT_IN {
        let t = PreparedTable::from(Table::by_name(name).unwrap());
        assert!(t.is_built_in());
        // pooltool's snooker ball, R = 0.02619375 m, too.
        for radius in [
            BallParams::pool().radius,
            BallParams::carom().radius,
            0.02619375,
            0.001,
        ] {
            if name == "fastfiz" && radius < BallParams::pool().radius {
                // FastFiz's side capture lines run R = 0.028575 m (its ball's radius) from the
                // rails: a smaller ball can run along a rail below one, beside it, into the
                // mouth's throat. The table is FastFiz's, for FastFiz's ball.
                assert!(matches!(
                    t.escape(Vec2::new(0.01, 0.11), 0.001),
                    Some(pool_physics::Escape::Open(_))
                ));
                continue;
            }
            if name == "pooltool_snooker" && radius < 0.002 {
                // pooltool's snooker side jaws (tip radius 63.5 mm, deeper than the 39.4 mm
                // cushion width) leave a channel between each tip's arc and the side pocket's
                // capture circle (centers 0.1085 m apart, radii 63.5 and 42.7 mm) that a ball
                // of radius below 2.2 mm passes through: open for it, as in pooltool.
                assert!(matches!(
                    t.escape(Vec2::new(0.36, 1.73), radius),
                    Some(pool_physics::Escape::Open(_))
                ));
                continue;
            }
            let points = playable(&t, radius);
            assert!(points.len() > 1000, "{name}");
            // Every 7th point: the escape test is exact, this is about where it is asked.
            for p in points.iter().step_by(7) {
                assert_eq!(t.escape(*p, radius), None, "{name}, R = {radius}, at {p:?}");
            }
        }
    }
}

#[test]
fn an_open_or_inside_out_table_lets_the_ball_escape() {
    use pool_physics::{Cushion, Escape};
    let r = 0.028575;
    let closed = Table::rectangle("box", 2.0, 1.0, 0.036576);
    let inside = Vec2::new(0.5, 0.5);
    assert_eq!(PreparedTable::from(closed.clone()).escape(inside, r), None);
    // Without its top cushion, the ball rolls out upward.
    let mut open = closed.clone();
    open.cushions.remove(2);
    match PreparedTable::from(open).escape(inside, r) {
        Some(Escape::Open(d)) => assert!(d.y > 0.0, "{d:?}"),
        other => panic!("{other:?}"),
    }
    // A gap of 10 cm between two rails of the box's bottom.
    let mut gap = closed.clone();
    gap.cushions[0].p2 = [0.9, 0.0];
    gap.cushions.insert(
        1,
        Cushion {
            id: "bottom2".into(),
            p1: [1.0, 0.0],
            p2: [2.0, 0.0],
            height: 0.036576,
        },
    );
    assert!(matches!(
        PreparedTable::from(gap.clone()).escape(inside, r),
        Some(Escape::Open(_))
    ));
    // The same gap narrower than the ball: closed for it.
    gap.cushions[0].p2 = [0.96, 0.0];
    gap.cushions[1].p1 = [1.0, 0.0];
    assert_eq!(PreparedTable::from(gap).escape(inside, r), None);
    // Reversed cushions: their playing side faces out.
    let mut reversed = closed.clone();
    for c in &mut reversed.cushions {
        std::mem::swap(&mut c.p1, &mut c.p2);
    }
    assert!(matches!(
        PreparedTable::from(reversed).escape(inside, r),
        Some(Escape::Behind(..))
    ));
    // A ball outside the box sees the back of the cushions.
    let outside = Vec2::new(3.0, 0.5);
    assert!(matches!(
        PreparedTable::from(closed).escape(outside, r),
        Some(Escape::Behind(..)) | Some(Escape::Open(_))
    ));
}

/// A random table for the on-table check: a star-shaped outline of `corners` corners (radii
/// `radii` about the center, counter-clockwise) with each edge cut into `pieces` segments,
/// pockets at some corners, circular cushions at some, a few edges left out (gaps) or turned
/// round (facing out), and stray segments across it.
fn random_table(radii: &[f64], pieces: usize, marks: &[u8], strays: &[[f64; 4]]) -> Table {
    use pool_physics::{CircularCushion, Cushion, Pocket};
    let n = radii.len();
    let corner = |i: usize| {
        let a = std::f64::consts::TAU * (i % n) as f64 / n as f64;
        Vec2::new(2.0 + radii[i % n] * a.cos(), 1.5 + radii[i % n] * a.sin())
    };
    let mut t = Table::rectangle("random", 4.0, 3.0, 0.036576);
    t.cushions.clear();
    let mark = |i: usize| marks[i % marks.len()];
    for i in 0..n {
        let (a, b) = (corner(i), corner(i + 1));
        if mark(i) % 11 == 0 {
            continue; // a gap
        }
        for k in 0..pieces {
            let (u, v) = (k as f64 / pieces as f64, (k + 1) as f64 / pieces as f64);
            let (p, q) = (a + (b - a) * u, a + (b - a) * v);
            let (p1, p2) = if mark(i) % 13 == 1 { (q, p) } else { (p, q) };
            t.cushions.push(Cushion {
                id: format!("e{i}_{k}"),
                p1: [p1.x, p1.y],
                p2: [p2.x, p2.y],
                height: 0.036576,
            });
        }
        let c = corner(i);
        match mark(i) % 7 {
            0 => t.pockets.push(Pocket {
                id: format!("p{i}"),
                center: [c.x, c.y],
                radius: 0.05 + f64::from(mark(i)) * 1e-4,
                depth: None,
                capture_line: None,
            }),
            1 => t.circular_cushions.push(CircularCushion {
                id: format!("a{i}"),
                center: [c.x, c.y],
                radius: 0.01 + f64::from(mark(i)) * 1e-4,
                height: 0.036576,
            }),
            _ => {}
        }
    }
    for (k, s) in strays.iter().enumerate() {
        t.cushions.push(Cushion {
            id: format!("s{k}"),
            p1: [s[0], s[1]],
            p2: [s[2], s[3]],
            height: 0.036576,
        });
    }
    t
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The on-table check leaves out the tangents of joints that bound no escape and looks up
    /// the obstacles in a grid: it must say what trying every tangent against every obstacle
    /// says, on outlines convex and not, with gaps, reversed edges, pockets, arcs and strays.
    #[test]
    fn the_on_table_check_agrees_with_trying_every_tangent(
        radii in prop::collection::vec(0.3f64..1.4, 3..24),
        pieces in 1usize..5,
        marks in prop::collection::vec(0u8..255, 1..24),
        strays in prop::collection::vec(prop::array::uniform4(0.0f64..4.0), 0..3),
        points in prop::collection::vec((0.0f64..4.0, 0.0f64..3.0), 1..40),
        radius in prop::sample::select(vec![0.028575, 0.001, 0.1]),
    ) {
        let t = random_table(&radii, pieces, &marks, &strays);
        prop_assume!(t.validate().is_ok());
        let prepared = PreparedTable::from(t);
        let check = prepared.enclosure(radius);
        for (x, y) in points {
            let p = Vec2::new(x, y);
            prop_assert_eq!(
                check.escape(p).is_some(),
                check.escape_exhaustive(p).is_some(),
                "at {:?}", p
            );
        }
    }
}
