//! Rack models ([`RackModel`], [`DEFAULT_RACK`]): where the object balls of a racked shot
//! sit, before a break is made of it (`random_break(&model.apply(rack, seed)?, seed)`).
//!
//! The model lives in `pool-sim` beside [`pool_sim::Setup`], so that the shot format
//! (`pool-shots`, a shot file's `rack` key) and the harness share it without a dependency
//! between them; it is re-exported here, where generated shots are made.

pub use pool_sim::{RackModel, DEFAULT_RACK};

#[cfg(test)]
mod tests {
    use std::path::Path;

    use pool_physics::Physics;
    use pool_sim::Setup;
    use proptest::prelude::*;

    use super::*;

    fn rack(name: &str) -> Setup {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
        pool_shots::load(&dir.join(format!("{name}.toml"))).expect("rack loads")
    }

    fn racks() -> [Setup; 2] {
        [rack("break_9ball"), rack("break_15ball")]
    }

    /// Every pair of rack balls (after the cue ball): center distance minus contact distance.
    fn gaps(s: &Setup) -> Vec<f64> {
        let b = &s.balls[1..];
        let mut out = Vec::new();
        for (i, x) in b.iter().enumerate() {
            for y in &b[i + 1..] {
                let d = (x.state.r.xy() - y.state.r.xy()).norm();
                out.push(d - s.physics.contact_distance(&x.state, &y.state));
            }
        }
        out
    }

    /// The gaps of lattice neighbours: pairs whose gap in `lattice` is within 1e-9 m of its
    /// smallest, measured in `s`.
    fn neighbour_gaps(lattice: &Setup, s: &Setup) -> Vec<f64> {
        let (g0, g) = (gaps(lattice), gaps(s));
        let least = g0.iter().copied().fold(f64::INFINITY, f64::min);
        g0.iter()
            .zip(&g)
            .filter(|(a, _)| **a - least < 1e-9)
            .map(|(_, b)| *b)
            .collect()
    }

    #[test]
    fn legacy_is_the_identity_bit_for_bit_on_the_shipped_racks() {
        assert_eq!(RackModel::LEGACY, RackModel::Lattice { gap_m: 1e-6 });
        for r in racks() {
            let out = RackModel::LEGACY.apply(&r, 7).unwrap();
            assert_eq!(out, r, "{}", r.name);
            for (a, b) in out.balls.iter().zip(&r.balls) {
                for k in 0..3 {
                    assert_eq!(a.state.r[k].to_bits(), b.state.r[k].to_bits());
                }
            }
        }
    }

    #[test]
    fn frozen_neighbours_touch_and_lattice_g_has_min_gap_g() {
        for r in racks() {
            let two_r = 2.0 * r.physics.params().radius;
            let frozen = RackModel::Frozen.apply(&r, 0).unwrap();
            let n = neighbour_gaps(&r, &frozen);
            assert_eq!(
                n.len(),
                if r.balls.len() == 10 { 16 } else { 30 },
                "{}",
                r.name
            );
            for g in n {
                assert!(g.abs() < 1e-12, "{}: neighbour gap {g:e}", r.name);
            }
            // The cue ball and the apex stay.
            assert_eq!(frozen.balls[0], r.balls[0]);
            assert_eq!(frozen.balls[1], r.balls[1]);
            for gap in [0.0, 1e-7, 1e-5, 1e-3, 0.01] {
                let s = RackModel::Lattice { gap_m: gap }.apply(&r, 0).unwrap();
                let least = gaps(&s).into_iter().fold(f64::INFINITY, f64::min);
                assert!(
                    (least - gap).abs() < 1e-12,
                    "{}: {least:e} for {gap:e}",
                    r.name
                );
                // A lattice scaled about its apex: the spacing is 2R + gap everywhere.
                for g in neighbour_gaps(&r, &s) {
                    assert!((g - gap).abs() < 1e-12);
                }
                assert!(two_r > 0.0);
            }
        }
    }

    #[test]
    fn jittered_racks_keep_their_promises() {
        for r in racks() {
            for scale in [1e-6, 1.27e-4, 1e-3] {
                let model = RackModel::Jittered { scale_m: scale };
                let lattice = RackModel::Lattice { gap_m: scale }.apply(&r, 0).unwrap();
                let mut sum = 0.0;
                let mut count = 0;
                for seed in 0..40 {
                    let s = model.apply(&r, seed).unwrap();
                    assert_eq!(s, model.apply(&r, seed).unwrap(), "deterministic");
                    assert_ne!(s, model.apply(&r, seed + 1).unwrap(), "seeds differ");
                    assert_eq!(s.balls[0], r.balls[0], "the cue ball is untouched");
                    for (a, b) in s.balls.iter().zip(&lattice.balls) {
                        let moved = (a.state.r.xy() - b.state.r.xy()).norm();
                        assert!(moved < 0.5 * scale, "moved {moved:e} of {scale:e}");
                        assert_eq!(a.state.r.z, b.state.r.z);
                    }
                    let all = gaps(&s);
                    assert!(all.iter().all(|&g| g > 0.0), "no overlap, no touching");
                    let mut sorted = all.clone();
                    sorted.sort_by(f64::total_cmp);
                    assert!(sorted.windows(2).all(|w| w[0] != w[1]), "generic");
                    for g in neighbour_gaps(&lattice, &s) {
                        assert!((0.0..=2.0 * scale).contains(&g), "{g:e} of {scale:e}");
                        sum += g;
                        count += 1;
                    }
                    s.validate().unwrap();
                }
                let mean = sum / f64::from(count);
                assert!(
                    (mean / scale - 1.0).abs() < 0.1,
                    "{}: mean neighbour gap {mean:e} for scale {scale:e}",
                    r.name
                );
            }
        }
    }

    #[test]
    fn models_round_trip_as_text_and_bad_values_are_refused() {
        for m in [
            RackModel::LEGACY,
            RackModel::Frozen,
            DEFAULT_RACK,
            RackModel::Lattice { gap_m: 0.0 },
            RackModel::Jittered {
                scale_m: 0.1 + 0.2 - 0.3,
            },
            RackModel::Jittered { scale_m: 0.05 },
        ] {
            assert_eq!(m.to_string().parse::<RackModel>(), Ok(m), "{m}");
        }
        assert_eq!(RackModel::LEGACY.to_string(), "lattice:1e-6");
        assert_eq!(DEFAULT_RACK.to_string(), "jittered:0.000127");
        assert_eq!(
            "jittered:5e-5".parse(),
            Ok(RackModel::Jittered { scale_m: 5e-5 })
        );
        for bad in [
            "lattice:-1e-6",
            "lattice:NaN",
            "lattice:inf",
            "lattice:0.06",
            "jittered:0",
            "jittered:-0.001",
            "jittered:1e300",
            "jittered:x",
            "lattice",
            "frozen:0",
            "tight",
            "",
        ] {
            let e = bad.parse::<RackModel>().unwrap_err();
            assert!(e.contains(&format!("{bad:?}")) && !e.contains('\n'), "{e}");
        }
        let e = RackModel::Lattice { gap_m: f64::NAN }
            .validate()
            .unwrap_err();
        assert!(e.contains("NaN"), "{e}");
        let e = RackModel::Jittered { scale_m: -1.0 }
            .apply(&rack("break_9ball"), 0)
            .unwrap_err();
        assert!(e.contains("-1.0"), "{e}");
    }

    #[test]
    fn a_rack_that_leaves_the_table_or_is_no_rack_fails_cleanly() {
        let r = rack("break_15ball");
        // The rack pushed 0.25 m toward the foot rail: its back row 2 cm from the cushion.
        let mut near = r.clone();
        for b in &mut near.balls[1..] {
            b.state.r.x += 0.25;
        }
        assert_eq!(RackModel::LEGACY.apply(&near, 0).unwrap(), near);
        let e = RackModel::Lattice { gap_m: 0.01 }
            .apply(&near, 0)
            .unwrap_err();
        assert!(
            e.starts_with("rack lattice:0.01: ") && !e.contains('\n'),
            "{e}"
        );
        let mut two = r.clone();
        two.balls.truncate(2);
        let e = RackModel::Frozen.apply(&two, 0).unwrap_err();
        assert!(e.contains("at least two rack balls"), "{e}");
        let mut same = r.clone();
        same.balls[2].state.r = same.balls[3].state.r;
        assert!(RackModel::Frozen.apply(&same, 0).is_err());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Every jittered rack is a valid set-up, at any scale from 0.1 µm to 1 mm.
        #[test]
        fn every_jittered_rack_validates(
            scale in 1e-7f64..1e-3,
            seed in any::<u64>(),
            fifteen in any::<bool>(),
        ) {
            let r = rack(if fifteen { "break_15ball" } else { "break_9ball" });
            let s = RackModel::Jittered { scale_m: scale }.apply(&r, seed);
            prop_assert!(s.is_ok(), "{:?}", s.err());
            let s = s.unwrap();
            prop_assert!(s.validate().is_ok());
            prop_assert!(gaps(&s).iter().all(|&g| g > 0.0));
        }
    }
}
