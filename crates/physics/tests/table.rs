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
        assert_eq!(p.pocket_circles().len(), t.pockets.len());
        for (c, k) in p.pocket_circles().iter().zip(&t.pockets) {
            assert_eq!((c.center, c.radius), (k.center_vec(), k.radius));
            let b = c.reach(0.0);
            assert!(b.min.x <= c.center.x - c.radius && b.max.y >= c.center.y + c.radius);
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
