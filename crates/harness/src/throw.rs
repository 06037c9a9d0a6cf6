//! TP A-14's throw curve: how far `frictional_inelastic` throws the object ball off the line of
//! centers, against cut angle, for a stun and a naturally rolling cue ball at two speeds, with
//! Coulomb's friction impulse and with pooltool 0.6.0's, beside Alciatore's closed form (the
//! `compare` report's `throw.png`).

use pool_physics::resolve::{LawSpec, Param, Resolver};
use pool_physics::{BallParams, BallState, Model, Motion, Physics, Vec3};
use serde::Serialize;

/// The cue ball speeds of the curve (m/s): TP A-14's slow and fast shots.
pub const THROW_SPEEDS: [f64; 2] = [1.0, 3.0];

/// One point of the throw curve (`throw.csv`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThrowRow {
    /// Cue ball speed before the collision (m/s).
    pub speed_m_s: f64,
    /// `stun` (no spin) or `roll` (natural roll, w = v / R).
    pub spin: String,
    /// Cut angle (deg): between the cue ball's velocity and the line of centers.
    pub cut_deg: f64,
    /// The object ball's direction off the line of centers after the law with Coulomb's
    /// friction impulse, `friction_impulse = "coulomb"` (deg).
    pub throw_deg: f64,
    /// The same with pooltool 0.6.0's friction impulse, the law's default (deg).
    pub pooltool_deg: f64,
    /// TP A-14's closed form for the same shot (deg).
    pub tp_a14_deg: f64,
}

/// Alciatore's TP A-14 throw angle (rad) for cut angle `phi` (rad), cue ball speed `v` (m/s),
/// restitution `e` and friction `mu(slip speed)`: with the normal impulse per unit mass
/// J = (1 + e)/2 v cos(phi) and the contact's slip speed |u| (v sin(phi) for stun, v for natural
/// roll), tan(throw) = min(mu(|u|) v sin(phi) / |u|, v sin(phi) / (7 J)): Coulomb's friction
/// mu J, at most what stops the slip. TP A-14 has e = 1; J carries e here.
pub fn tp_a14_throw(phi: f64, v: f64, rolling: bool, e: f64, mu: impl Fn(f64) -> f64) -> f64 {
    if phi == 0.0 {
        return 0.0;
    }
    let slip = if rolling { v } else { v * phi.sin() };
    let j = 0.5 * (1.0 + e) * v * phi.cos();
    (mu(slip) * v * phi.sin() / slip)
        .min(v * phi.sin() / (7.0 * j))
        .atan()
}

/// The throw curve of `frictional_inelastic` with its default friction (Alciatore's fit,
/// mu = 9.951e-3 + 0.108 exp(-1.088 |u|)) and pool balls (e_b = 0.95): cut angles 0 to 88
/// degrees in steps of 2, stun and natural roll, at [`THROW_SPEEDS`]; each point with
/// Coulomb's friction impulse and with pooltool's, beside [`tp_a14_throw`].
pub fn throw_curve() -> Vec<ThrowRow> {
    let p = BallParams::pool();
    let model = |impulse: &str| {
        let mut laws = Resolver::seed();
        let spec = LawSpec::named("frictional_inelastic")
            .with("friction_impulse", Param::Text(impulse.into()));
        laws.set("ball_ball", &spec).expect("a built-in law");
        Model::new(p, Motion::Cloth, laws)
    };
    let (m, theirs) = (model("coulomb"), model("pooltool"));
    let r = p.radius;
    let mu = |u: f64| 9.951e-3 + 0.108 * (-1.088 * u).exp();
    let mut out = Vec::new();
    for v in THROW_SPEEDS {
        for rolling in [false, true] {
            for k in 0..=44 {
                let cut = 2.0 * f64::from(k);
                let phi = cut.to_radians();
                // The cue ball moves along +x; the line of centers is at phi to it.
                let n = Vec3::new(phi.cos(), -phi.sin(), 0.0);
                let w = if rolling {
                    Vec3::new(0.0, v / r, 0.0)
                } else {
                    Vec3::zeros()
                };
                let cue = BallState::new(Vec3::new(1.0, 0.5, r), Vec3::new(v, 0.0, 0.0), w, r);
                let ob = BallState::new(cue.r + n * (2.0 * r), Vec3::zeros(), Vec3::zeros(), r);
                let throw = |m: &Model| {
                    let (_, after) = m.resolve_ball_ball(&cue, &ob);
                    let along = after.v.dot(&n);
                    let across = (after.v - n * along).norm();
                    across.atan2(along).to_degrees()
                };
                out.push(ThrowRow {
                    speed_m_s: v,
                    spin: if rolling { "roll" } else { "stun" }.into(),
                    cut_deg: cut,
                    throw_deg: throw(&m),
                    pooltool_deg: throw(&theirs),
                    tp_a14_deg: tp_a14_throw(phi, v, rolling, p.e_b, mu).to_degrees(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plotted points are the law's: with Coulomb's friction impulse TP A-14's closed form
    /// at every one; with pooltool's, the closed form with friction 2e/(1 + e) times smaller.
    #[test]
    fn the_law_follows_tp_a14_along_the_whole_curve() {
        let rows = throw_curve();
        assert_eq!(rows.len(), 2 * 2 * 45);
        let e = BallParams::pool().e_b;
        let k = 2.0 * e / (1.0 + e);
        let mu = |u: f64| k * (9.951e-3 + 0.108 * (-1.088 * u).exp());
        let mut apart = 0.0f64;
        for row in &rows {
            assert!((row.throw_deg - row.tp_a14_deg).abs() < 1e-10, "{row:?}");
            let phi = row.cut_deg.to_radians();
            let theirs = tp_a14_throw(phi, row.speed_m_s, row.spin == "roll", e, mu);
            assert!(
                (row.pooltool_deg - theirs.to_degrees()).abs() < 1e-10,
                "{row:?}"
            );
            apart = apart.max(row.throw_deg - row.pooltool_deg);
        }
        // Where the contact slides, pooltool's friction throws 2.6% less at e = 0.95.
        assert!(apart > 0.05, "{apart}");
        // The curve's shape: stun throws more than roll; slow shots throw more than fast ones
        // (friction falls with slip speed); the stun curve peaks (about 4.3 deg at 1 m/s) where
        // sticking gives way to sliding, near a 30 degree cut.
        let at = |v: f64, spin: &str, cut: f64| {
            rows.iter()
                .find(|r| r.speed_m_s == v && r.spin == spin && r.cut_deg == cut)
                .unwrap()
                .throw_deg
        };
        for cut in [10.0, 30.0, 60.0] {
            assert!(at(1.0, "stun", cut) > at(1.0, "roll", cut));
            assert!(at(1.0, "stun", cut) > at(3.0, "stun", cut));
        }
        let peak = rows
            .iter()
            .filter(|r| r.speed_m_s == 1.0 && r.spin == "stun")
            .max_by(|a, b| a.throw_deg.total_cmp(&b.throw_deg))
            .unwrap();
        assert!((2.0..=30.0).contains(&peak.cut_deg), "{peak:?}");
        assert!((3.0..6.0).contains(&peak.throw_deg), "{peak:?}");
    }
}
