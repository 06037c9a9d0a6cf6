//! Earliest-entry queries: closed-form cases, degenerate cases, and families of quartics with
//! known roots where the default backend must never miss the earliest crossing.

use pool_roots::{earliest_entry, Alg1010, Ferrari, Isolator, RootError, RootSolver};
use proptest::prelude::*;

fn entry(s: &dyn RootSolver, c: [f64; 5], h: f64) -> Option<f64> {
    earliest_entry(s, &c, h, &mut Vec::new()).unwrap()
}

/// Ascending coefficients of k * prod (t - r_i) for up to four roots.
fn from_roots(k: f64, roots: &[f64]) -> [f64; 5] {
    let mut c = [0.0; 5];
    c[0] = k;
    for (deg, &r) in roots.iter().enumerate() {
        for i in (0..=deg + 1).rev() {
            let lower = if i > 0 { c[i - 1] } else { 0.0 };
            c[i] = lower - r * c[i];
        }
    }
    c
}

fn mul_quadratic(a: [f64; 3], b: [f64; 3]) -> [f64; 5] {
    let mut c = [0.0; 5];
    for i in 0..3 {
        for j in 0..3 {
            c[i + j] += a[i] * b[j];
        }
    }
    c
}

#[test]
fn four_distinct_roots_first_crossing_is_the_smallest() {
    let c = from_roots(1.0, &[1.0, 2.0, 3.0, 4.0]);
    assert_eq!(c, [24.0, -50.0, 35.0, -10.0, 1.0]);
    for s in [&Isolator::default() as &dyn RootSolver, &Ferrari, &Alg1010] {
        let t = entry(s, c, 10.0).unwrap();
        assert!((t - 1.0).abs() < 1e-12, "{}: {t}", s.name());
    }
}

#[test]
fn roots_beyond_the_horizon_are_not_entries() {
    let c = from_roots(1.0, &[5.0, 6.0]);
    assert_eq!(entry(&Isolator::default(), c, 4.0), None);
    let t = entry(&Isolator::default(), c, 5.5).unwrap();
    assert!((t - 5.0).abs() < 1e-12, "{t}");
}

#[test]
fn contact_at_zero_counts_only_when_approaching() {
    let iso = Isolator::default();
    // p = -t + t^2: in contact now and getting deeper.
    assert_eq!(entry(&iso, [0.0, -1.0, 1.0, 0.0, 0.0], 10.0), Some(0.0));
    // p = t + t^2: in contact now and separating: no entry, ever.
    assert_eq!(entry(&iso, [0.0, 1.0, 1.0, 0.0, 0.0], 10.0), None);
    // Overlapping by rounding and separating, then coming back: the later entry only.
    let c = from_roots(1.0, &[1e-12, 2.0, 3.0]); // sign: - at 0, + on (1e-12, 2), - on (2, 3)
    let t = entry(&iso, c, 10.0).unwrap();
    assert!((t - 2.0).abs() < 1e-12, "{t}");
    // Touching with zero relative velocity but accelerating inward: first non-zero derivative.
    assert_eq!(entry(&iso, [0.0, 0.0, -1.0, 0.0, 0.0], 10.0), Some(0.0));
}

#[test]
fn grazing_near_miss_has_no_entry_and_a_shallow_cut_has_one() {
    let iso = Isolator::default();
    // (t - 1)^2 (t + 1)(t + 2) + eps: a graze that misses by eps.
    let base = from_roots(1.0, &[1.0, 1.0, -1.0, -2.0]);
    let mut miss = base;
    miss[0] += 1e-9;
    assert_eq!(entry(&iso, miss, 10.0), None);
    let mut cut = base;
    cut[0] -= 1e-9;
    let t = entry(&iso, cut, 10.0).expect("shallow intersection must be found");
    // Roots at 1 -/+ sqrt(1e-9 / 6).
    assert!((t - (1.0 - (1e-9f64 / 6.0).sqrt())).abs() < 1e-9, "{t}");
}

#[test]
fn a_triple_root_falling_through_zero_is_an_entry() {
    // p = -(t - 1)^3: positive before 1, negative after; p' = p'' = 0 at the root. Triple roots
    // are conditioned like eps^(1/3), so 1e-4 is the honest tolerance.
    let c = [1.0, -3.0, 3.0, -1.0, 0.0];
    let t = entry(&Isolator::default(), c, 10.0).expect("entry");
    assert!((t - 1.0).abs() < 1e-4, "{t}");
    // -(t - 1)^2 (t - 3): p > 0 on [0, 1), touches 0 at 1 (a graze), p > 0 on (1, 3), falls
    // through zero at 3: the entry is 3, not the graze.
    let c = from_roots(-1.0, &[1.0, 1.0, 3.0]);
    assert!(c[0] > 0.0);
    let t = entry(&Isolator::default(), c, 10.0).expect("entry");
    assert!((t - 3.0).abs() < 1e-9, "{t}");
}

#[test]
fn tiny_leading_coefficient_is_no_special_case() {
    // (t - 0.3)(t - 0.7)(1e-18 t^2 + 1): real roots 0.3, 0.7; complex roots at +-1e9 i.
    let c = mul_quadratic([0.21, -1.0, 1.0], [1.0, 0.0, 1e-18]);
    let t = entry(&Isolator::default(), c, 100.0).unwrap();
    assert!((t - 0.3).abs() < 1e-14, "{t}");
}

#[test]
fn infinite_horizon_is_bounded_by_the_roots() {
    let c = from_roots(1.0, &[1e3, 2e3]);
    let t = entry(&Isolator::default(), c, f64::INFINITY).unwrap();
    assert!((t - 1e3).abs() < 1e-9);
    // A constant-velocity pair that never meets.
    assert_eq!(
        entry(
            &Isolator::default(),
            [1.0, 0.0, 1.0, 0.0, 0.0],
            f64::INFINITY
        ),
        None
    );
}

#[test]
fn non_finite_input_is_an_error_not_a_silent_miss() {
    let mut scratch = Vec::new();
    let iso = Isolator::default();
    let e = earliest_entry(&iso, &[1.0, f64::NAN, 0.0, 0.0, 0.0], 1.0, &mut scratch);
    assert!(
        matches!(e, Err(RootError::NonFiniteCoefficient { index: 1, .. })),
        "{e:?}"
    );
    let e = earliest_entry(
        &iso,
        &[1.0, 0.0, f64::INFINITY, 0.0, 0.0],
        1.0,
        &mut scratch,
    );
    assert!(matches!(
        e,
        Err(RootError::NonFiniteCoefficient { index: 2, .. })
    ));
    let e = earliest_entry(&iso, &[1.0, -1.0, 0.0, 0.0, 0.0], f64::NAN, &mut scratch);
    assert!(matches!(e, Err(RootError::BadHorizon(_))));
}

/// A deterministic generator (splitmix64) so the family tests are reproducible.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn log_uniform(&mut self, lo: f64, hi: f64) -> f64 {
        (lo.ln() + self.next() * (hi.ln() - lo.ln())).exp()
    }
}

/// Counts wrong earliest entries (missing, or off by more than 1e-9 relative) over families of
/// quartics whose roots are known exactly by construction.
fn wrong_entries(s: &dyn RootSolver, family: &str, n: usize) -> usize {
    let mut rng = Rng(0xB111A2D5 ^ family.len() as u64);
    let mut wrong = 0;
    for _ in 0..n {
        let scale = rng.log_uniform(1e-6, 1e6);
        let (c, truth) = match family {
            // Four real roots from 1e-4 s to 10 s.
            "separated" => {
                let mut r: Vec<f64> = (0..4).map(|_| rng.log_uniform(1e-4, 10.0)).collect();
                r.sort_by(f64::total_cmp);
                (from_roots(scale, &r), r[0])
            }
            // Two real roots and a complex pair close to the real axis just after them.
            "complex_pair" => {
                let r1 = rng.log_uniform(1e-4, 10.0);
                let r2 = r1 * (1.0 + rng.log_uniform(1e-3, 1.0));
                let m = r2 * (1.0 + rng.next());
                let d = m * rng.log_uniform(1e-6, 1e-2);
                let q1 = [r1 * r2 * scale, -(r1 + r2) * scale, scale];
                (mul_quadratic(q1, [m * m + d * d, -2.0 * m, 1.0]), r1)
            }
            // Nearly equal accelerations: t^4 coefficient 1e-12..1e-20 of the rest.
            "tiny_leading" => {
                let r1 = rng.log_uniform(1e-4, 10.0);
                let r2 = r1 * (1.0 + rng.log_uniform(1e-3, 10.0));
                let eps = rng.log_uniform(1e-20, 1e-12);
                let q1 = [r1 * r2 * scale, -(r1 + r2) * scale, scale];
                (mul_quadratic(q1, [1.0, 0.0, eps]), r1)
            }
            _ => unreachable!(),
        };
        let got = entry(s, c, 20.0);
        // The coefficients are rounded to f64, which moves a root by up to about
        // eps * sum|c_i| r^i / |p'(r)|: an error within that is the family's, not the solver's.
        let conditioning = c
            .iter()
            .enumerate()
            .map(|(i, x)| x.abs() * truth.powi(i as i32))
            .sum::<f64>()
            / pool_roots::derivative_at(&c, truth).abs();
        let tol = (1e-9 * truth.max(1e-3)).max(16.0 * f64::EPSILON * conditioning);
        match got {
            Some(t) if (t - truth).abs() <= tol => {}
            _ => {
                if std::env::var("SHOW_WRONG").is_ok() {
                    println!("{} {family}: c={c:?} truth={truth} got={got:?}", s.name());
                }
                wrong += 1
            }
        }
    }
    wrong
}

#[test]
fn default_backend_never_misses_on_known_root_families() {
    let n = 20_000;
    let mut table = String::new();
    let mut iso_wrong = 0;
    for family in ["separated", "complex_pair", "tiny_leading"] {
        let w: Vec<usize> = [&Isolator::default() as &dyn RootSolver, &Ferrari, &Alg1010]
            .iter()
            .map(|s| wrong_entries(*s, family, n))
            .collect();
        table += &format!(
            "{family:>13}: isolator {} ferrari {} alg1010 {} (of {n})\n",
            w[0], w[1], w[2]
        );
        iso_wrong += w[0];
    }
    println!("{table}");
    assert_eq!(iso_wrong, 0, "isolator missed earliest roots:\n{table}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Real-looking ball-ball polynomials: two quadratic trajectories in the plane, contact at
    /// |d| = 2R. The entry found must be a real contact (|d(t)| = 2R to 1e-9 m) with the pair
    /// approaching, and no earlier time on a fine grid may already be in contact.
    #[test]
    fn ball_ball_entry_is_the_first_contact(
        ax in -1.0f64..1.0, ay in -1.0f64..1.0,
        bx in -10.0f64..10.0, by in -10.0f64..10.0,
        cx in -1.0f64..1.0, cy in -1.0f64..1.0,
    ) {
        let two_r = 0.05715;
        let c = [
            cx * cx + cy * cy - two_r * two_r,
            2.0 * (bx * cx + by * cy),
            bx * bx + by * by + 2.0 * (ax * cx + ay * cy),
            2.0 * (ax * bx + ay * by),
            ax * ax + ay * ay,
        ];
        let horizon = 5.0;
        let dist = |t: f64| ((ax * t * t + bx * t + cx).powi(2) + (ay * t * t + by * t + cy).powi(2)).sqrt();
        let got = entry(&Isolator::default(), c, horizon);
        let first_grid = (0..=50_000).map(|k| k as f64 * horizon / 50_000.0).find(|&t| dist(t) < two_r);
        match (got, first_grid) {
            (Some(t), g) => {
                if t > 0.0 {
                    prop_assert!((dist(t) - two_r).abs() < 1e-9, "residual {}", dist(t) - two_r);
                }
                if let Some(g) = g { prop_assert!(t <= g + 1e-12, "entry {t} after grid contact {g}"); }
            }
            (None, Some(g)) => {
                // Allowed only when contact at the grid point is the tail of a separating overlap.
                prop_assert!(c[0] <= 0.0 && g == 0.0, "missed contact at {g}");
            }
            (None, None) => {}
        }
    }
}
