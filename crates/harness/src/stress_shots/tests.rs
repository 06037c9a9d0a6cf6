//! Every kind of stress shot: valid, deterministic, and what its docs promise.

use std::path::Path;

use super::*;

fn racks() -> Vec<Setup> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/shots");
    ["break_9ball", "break_15ball"]
        .iter()
        .map(|n| pool_shots::load(&dir.join(format!("{n}.toml"))).expect("rack loads"))
        .collect()
}

/// Stress shot `seed` on the racks as the files have them.
fn legacy(racks: &[Setup], seed: u64) -> (ScenarioKind, Setup) {
    stress_shot(racks, &RackModel::LEGACY, seed).expect("the legacy racks place")
}

/// Shots of one kind: seeds kind, kind + 7, ... (`count` of them), checked valid.
fn shots_of(kind: ScenarioKind, count: u64) -> Vec<Setup> {
    let racks = racks();
    let first = ScenarioKind::ALL.iter().position(|&k| k == kind).unwrap() as u64;
    (0..count)
        .map(|i| {
            let (k, s) = legacy(&racks, first + 7 * i);
            assert_eq!(k, kind);
            s.validate()
                .unwrap_or_else(|e| panic!("{}: invalid set-up: {e}", s.name));
            s
        })
        .collect()
}

fn xy(b: &Ball) -> Vec2 {
    b.state.r.xy()
}

fn vxy(b: &Ball) -> Vec2 {
    b.state.v.xy()
}

fn by_id<'a>(s: &'a Setup, id: &str) -> &'a Ball {
    s.balls.iter().find(|b| b.id == id).expect("ball id")
}

/// Perpendicular distance from `q` to the line through `p` along `dir`, and how far along.
fn line_offset(p: Vec2, dir: Vec2, q: Vec2) -> (f64, f64) {
    let u = dir.normalize();
    let d = q - p;
    ((d.x * u.y - d.y * u.x).abs(), d.dot(&u))
}

const R: f64 = 0.028575;

#[test]
fn every_stress_shot_is_valid_deterministic_and_named_by_its_kind() {
    let racks = racks();
    let mut seen = std::collections::BTreeMap::new();
    for seed in 0..1400 {
        let (kind, s) = legacy(&racks, seed);
        assert_eq!(kind, ScenarioKind::of_seed(seed));
        s.validate()
            .unwrap_or_else(|e| panic!("{}: invalid set-up: {e}", s.name));
        // A generator that gave up falls back to a scatter: the name would say so.
        assert_eq!(
            ScenarioKind::from_shot_name(&s.name),
            Some(kind),
            "{}",
            s.name
        );
        assert!(s.name.ends_with(&format!("_{seed}")), "{}", s.name);
        assert_eq!(legacy(&racks, seed).1, s, "seed {seed} not deterministic");
        assert!(
            s.balls.iter().any(|b| b.state.motion.is_moving()),
            "{}",
            s.name
        );
        *seen.entry(kind).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 7);
    assert!(seen.values().all(|&n| n == 200));
    assert_ne!(legacy(&racks, 3).1, legacy(&racks, 10).1);
}

#[test]
fn the_rack_model_places_the_breaks_and_changes_nothing_else() {
    let racks = racks();
    let jittered = RackModel::Jittered { scale_m: 1.27e-4 };
    for seed in 0..70 {
        let (kind, old) = legacy(&racks, seed);
        let (_, new) = stress_shot(&racks, &jittered, seed).unwrap();
        new.validate()
            .unwrap_or_else(|e| panic!("{}: invalid set-up: {e}", new.name));
        match kind {
            ScenarioKind::Break9 | ScenarioKind::Break15 => {
                let rack = &racks[usize::from(kind == ScenarioKind::Break15)];
                assert_eq!(old, random_break(rack, seed), "legacy is today's break");
                assert_eq!(
                    new,
                    random_break(&jittered.apply(rack, seed).unwrap(), seed)
                );
                // The same strike (place, speed, spin), aimed at the moved apex.
                let (a, b) = (&new.balls[0].state, &old.balls[0].state);
                assert_eq!((a.r, a.w), (b.r, b.w));
                assert!((a.v.norm() - b.v.norm()).abs() < 1e-12);
                assert_ne!(new.balls[1..], old.balls[1..]);
            }
            _ => assert_eq!(new, old, "{kind:?} does not read the rack balls"),
        }
    }
}

#[test]
fn kind_names_round_trip_and_others_are_unknown() {
    for k in ScenarioKind::ALL {
        let name = match k {
            ScenarioKind::Break9 => "break_9ball_random_7".to_string(),
            ScenarioKind::Break15 => "break_15ball_random_8".to_string(),
            _ => format!("{}_x_1", k.name()),
        };
        assert_eq!(ScenarioKind::from_shot_name(&name), Some(k));
    }
    assert_eq!(ScenarioKind::from_shot_name("cut"), None);
    assert_eq!(ScenarioKind::from_shot_name("break_8ball"), None);
}

#[test]
fn rail_shots_run_into_or_along_a_rail_toward_balls_frozen_to_it() {
    let shots = shots_of(ScenarioKind::Rail, 400);
    let (mut frozen_cue, mut straight, mut with_ahead, mut touching_ahead) = (0, 0, 0, 0);
    for s in &shots {
        let cue = by_id(s, "cue");
        let (p, v) = (xy(cue), vxy(cue));
        let speed = v.norm();
        assert!((0.5..12.0).contains(&speed), "{}: speed {speed}", s.name);
        // The rail: a long cushion whose face the ball is within R..R + 3 mm of.
        let rail = s
            .table
            .cushions
            .iter()
            .filter(|c| c.length() >= 0.3 && (0.0..=1.0).contains(&c.parameter(p)))
            .find(|c| {
                let gap = c.signed_distance(p) - R;
                (-1e-15..=RAIL_MAX_GAP).contains(&gap)
            })
            .unwrap_or_else(|| panic!("{}: no rail within 3 mm", s.name));
        let gap = rail.signed_distance(p) - R;
        if gap.abs() <= 1e-15 {
            frozen_cue += 1;
        } else {
            assert!(gap >= 1e-9 * (1.0 - 1e-6), "{}: gap {gap}", s.name);
        }
        let n = rail.inward_normal();
        let into = -v.dot(&n) / speed; // sin of the angle into the rail
        assert!(into >= -1e-15, "{}: moves away from the rail", s.name);
        assert!(into <= RAIL_MAX_ANGLE.sin() + 1e-15, "{}: angle", s.name);
        if into.abs() <= 1e-15 {
            straight += 1;
        }
        let ahead: Vec<&Ball> = s.balls.iter().filter(|b| b.id != "cue").collect();
        let expect = s.name.split('_').nth(1).unwrap();
        assert_eq!(expect, format!("{}ahead", ahead.len()), "{}", s.name);
        for b in &ahead {
            assert!(!b.state.motion.is_moving());
            let q = xy(b);
            assert!(
                (rail.signed_distance(q) - R).abs() <= 1e-15,
                "{}: ball {} not frozen to the rail",
                s.name,
                b.id
            );
            assert!((q - p).dot(&v) > 0.0, "{}: ball {} behind", s.name, b.id);
        }
        with_ahead += usize::from(!ahead.is_empty());
        if ahead.len() == 2 && ((xy(ahead[0]) - xy(ahead[1])).norm() - 2.0 * R).abs() < 1e-15 {
            touching_ahead += 1;
        }
    }
    assert!(frozen_cue > 80, "{frozen_cue} frozen to the rail");
    assert!(straight > 50, "{straight} exactly along the rail");
    assert!(with_ahead > 200, "{with_ahead} with balls ahead");
    assert!(touching_ahead > 15, "{touching_ahead} touching pairs ahead");
}

#[test]
fn corner_shots_aim_at_pockets_and_jaw_points() {
    let shots = shots_of(ScenarioKind::Corner, 400);
    let (mut pocket, mut jaw, mut tip_hits, mut object) = (0, 0, 0, 0);
    for s in &shots {
        let cue = by_id(s, "cue");
        let (mut p, v) = (xy(cue), vxy(cue));
        assert!((0.2..=12.0).contains(&v.norm()), "{}", s.name);
        if let Some(b) = s.balls.iter().find(|b| b.id == "1") {
            // A straight shot: the object ball on the cue's line, 2R + 1 mm..0.3 m ahead.
            let (off, along) = line_offset(p, v, xy(b));
            assert!(off < 1e-12, "{}: object ball off the line by {off}", s.name);
            assert!(
                (2.0 * R + 1e-3 - 1e-12..2.0 * R + 0.3).contains(&along),
                "{}",
                s.name
            );
            assert!(!b.state.motion.is_moving());
            p = xy(b);
            object += 1;
        }
        let hits = |q: Vec2, max: f64| {
            let (off, along) = line_offset(p, v, q);
            (off <= max + 1e-12 && (0.05 - 1e-12..=1.2 + 1e-12).contains(&along)).then_some(off)
        };
        if s.name.starts_with("corner_pocket_") {
            pocket += 1;
            assert!(
                s.table
                    .pockets
                    .iter()
                    .any(|k| hits(k.center_vec(), k.radius + R).is_some()),
                "{}: aims at no pocket",
                s.name
            );
        } else {
            assert!(s.name.starts_with("corner_jaw_"), "{}", s.name);
            jaw += 1;
            let best = s
                .table
                .exposed_points()
                .iter()
                .filter_map(|&(q, _)| hits(q, CORNER_JAW_OFFSET_R * R))
                .fold(f64::INFINITY, f64::min);
            assert!(best.is_finite(), "{}: aims at no jaw point", s.name);
            tip_hits += usize::from(best < R);
        }
    }
    assert!(
        pocket > 120 && jaw > 120,
        "{pocket} pocket, {jaw} jaw shots"
    );
    assert!(tip_hits > 50, "only {tip_hits} lines through a jaw point");
    assert!(object > 80, "only {object} object-ball shots");
}

#[test]
fn frozen_shots_touch_at_two_radii_plus_the_named_gap() {
    let shots = shots_of(ScenarioKind::Frozen, 450);
    let mut seen = std::collections::BTreeSet::new();
    let mut straight_in = 0;
    for s in &shots {
        let words: Vec<&str> = s.name.split('_').collect();
        let (layout, gap_word) = (words[1], words[2]);
        seen.insert((layout, gap_word));
        let (lo, hi) = match gap_word {
            "exact" => (-1e-15, 1e-15),
            "ulp" => (-1e-15, 8.0 * f64::EPSILON + 1e-15),
            "gap" => (FROZEN_GAP_M.0 - 1e-15, FROZEN_GAP_M.1 + 1e-15),
            w => panic!("{}: unknown gap word {w}", s.name),
        };
        let cue = &s.balls[0];
        assert_eq!(cue.id, "cue");
        assert!(s.balls[1..].iter().all(|b| !b.state.motion.is_moving()));
        // The struck ball touches another at 2R + delta.
        let gaps: Vec<f64> = s.balls[1..]
            .iter()
            .map(|b| (xy(b) - xy(cue)).norm() - 2.0 * R)
            .collect();
        let partner = gaps.iter().position(|g| (lo..=hi).contains(g));
        assert!(partner.is_some(), "{}: gaps {gaps:?}", s.name);
        let to = xy(&s.balls[1 + partner.unwrap()]) - xy(cue);
        straight_in += usize::from(
            line_offset(xy(cue), vxy(cue), xy(cue) + to).0 < 1e-12 && to.dot(&vxy(cue)) > 0.0,
        );
        // Nobody overlaps by more than rounding; every ball touches one.
        for (i, a) in s.balls.iter().enumerate() {
            let nearest = s
                .balls
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, b)| (xy(a) - xy(b)).norm() - 2.0 * R)
                .fold(f64::INFINITY, f64::min);
            assert!(nearest >= -1e-12, "{}: overlap {nearest}", s.name);
            assert!(nearest <= hi, "{}: ball {} touches none", s.name, a.id);
        }
        match layout {
            "pair" => assert_eq!(s.balls.len(), 2),
            "cluster" => assert!((3..=7).contains(&s.balls.len()), "{}", s.name),
            "rail" => {
                assert_eq!(s.balls.len(), 2);
                let frozen_to_rail = s.balls.iter().any(|b| {
                    s.table.cushions.iter().any(|c| {
                        (0.0..=1.0).contains(&c.parameter(xy(b)))
                            && (c.signed_distance(xy(b)) - R).abs() <= 1e-15
                    })
                });
                assert!(frozen_to_rail, "{}: nobody frozen to a rail", s.name);
            }
            l => panic!("{}: unknown layout {l}", s.name),
        }
    }
    assert_eq!(seen.len(), 9, "layouts x gaps seen: {seen:?}");
    assert!(straight_in > 150, "only {straight_in} struck straight in");
}

#[test]
fn grazes_pass_at_two_radii_times_one_plus_or_minus_eps() {
    let shots = shots_of(ScenarioKind::Graze, 500);
    let mut decades = std::collections::BTreeSet::new();
    let (mut hits, mut misses) = (0, 0);
    for s in &shots {
        assert_eq!(s.balls.len(), 2);
        let (cue, object) = (by_id(s, "cue"), by_id(s, "1"));
        let (p, v) = (xy(cue), vxy(cue));
        let (dist, along) = line_offset(p, v, xy(object));
        assert!((0.1 - 1e-9..0.8 + 1e-9).contains(&along), "{}", s.name);
        let eps = dist / (2.0 * R) - 1.0;
        let words: Vec<&str> = s.name.split('_').collect();
        let k: i32 = words[2].strip_prefix('e').unwrap().parse().unwrap();
        decades.insert(k);
        match words[1] {
            "hit" => {
                hits += 1;
                assert!(eps < 0.0, "{}: eps {eps}", s.name);
            }
            "miss" => {
                misses += 1;
                assert!(eps > 0.0, "{}: eps {eps}", s.name);
            }
            w => panic!("{}: {w}", s.name),
        }
        // Within 2% of the named decade (rounding of coordinates is ~4e-16 m, 1% of the
        // smallest miss 2R 1e-12) and within the stated range.
        let e = eps.abs();
        let decade = 10f64.powi(k);
        assert!(
            e >= decade * 0.98 && e < decade * 10.0 * 1.02,
            "{}: eps {e:e}",
            s.name
        );
        assert!(
            e >= GRAZE_EPS.0 * 0.98 && e <= GRAZE_EPS.1 * 1.02,
            "{}",
            s.name
        );
        // Straight path: the contact point slips parallel to the velocity.
        let u = cue.state.contact_velocity(R).xy();
        assert!(
            (u.x * v.y - u.y * v.x).abs() <= 1e-12 * v.norm_squared(),
            "{}: friction would curve the path",
            s.name
        );
        assert!(u.dot(&v) >= -1e-12 * v.norm_squared(), "{}", s.name);
    }
    assert_eq!(
        decades.iter().copied().collect::<Vec<_>>(),
        (-12..=-4).collect::<Vec<_>>()
    );
    assert!(hits > 180 && misses > 180, "{hits} hits, {misses} misses");
}
