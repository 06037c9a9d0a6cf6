//! `fastfiz`: FastFiz's ball–ball collision (P6-Pool/fastfiz 2c1c920, FastFiz.cpp
//! `BallCollisionEvent::doHandle` and `Ball::updateState`), "following Marlow" (Marlow, *The
//! Physics of Pocket Billiards*, 1995) as PoolFiz did. docs/fastfiz.md says where it departs
//! from momentum balance and which parameters undo it.

use super::{pair_mean, BallBallLaw, Velocities};
use crate::resolve::law::BuiltIn;
use crate::resolve::spec::{LawError, LawSpec, Param};
use crate::resolve::Law;
use crate::{BallParams, BallState, Vec2, Vec3};

/// FastFiz's speed below which a ball counts as not moving (m/s; `Utils::VELOCITY_EPSILON`).
pub const FASTFIZ_VELOCITY_EPSILON: f64 = 1e-10;

/// FastFiz's ball–ball law, in the frame whose x axis runs from ball 1's center to ball 2's
/// (ball 1: the moving ball of the pair, or the first of two moving balls):
///
/// - the velocities' x components are exchanged (equal masses, restitution 1);
/// - a friction impulse changes each ball's y velocity by mu_b v1x u_y / |u| (ball 2 +,
///   ball 1 -), with v1x ball 1's velocity along x (not the approach speed) and u the relative
///   velocity of the contact points, u = v1 - v2 - R x^ x (w1 + w2);
/// - a target at rest or spinning gains the spin w_add = -5/2 mu_b v1x / (|u| R s)
///   (x^ x u), s = `inertia_scale` (1.000575 in FastFiz), and ball 1 loses it; a moving target
///   makes both balls roll at their new velocities (w = z^ x v / R, w_z kept), as PoolFiz did;
/// - vertical velocity is dropped; then `Ball::updateState`: a ball slower than
///   [`FASTFIZ_VELOCITY_EPSILON`] keeps only its w_z (`drop_spin_at_rest`), so a stun or draw
///   shot's cue ball stops dead at a full hit, its spin lost.
///
/// mu_b is the mean of the two balls' (0.01 in the `fastfiz` preset, FastFiz's `mu_B`); R is
/// ball 1's radius (FastFiz writes 0.028575 m). Reads `m`, `R`, `mu_b`; masses are taken equal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastFiz {
    /// The factor FastFiz divides the spin transfer by besides R (1.000575; 1 is Marlow's).
    pub inertia_scale: f64,
    /// Whether a ball left without speed also loses its spin about horizontal axes (FastFiz:
    /// true). False keeps it: the ball then slides in place, as the cloth equations have it.
    pub drop_spin_at_rest: bool,
    /// Whether a moving target makes both balls roll (FastFiz: true) instead of the friction
    /// spin transfer a target at rest gets.
    pub roll_moving_target: bool,
}

impl Default for FastFiz {
    fn default() -> Self {
        FastFiz {
            inertia_scale: 1.000575,
            drop_spin_at_rest: true,
            roll_moving_target: true,
        }
    }
}

impl BuiltIn for FastFiz {
    const NAME: &'static str = "fastfiz";

    /// The law from its spec: `inertia_scale` (positive, default 1.000575),
    /// `drop_spin_at_rest` and `roll_moving_target` (bools, default true).
    fn from_spec(spec: &LawSpec) -> Result<Self, LawError> {
        spec.only(&["inertia_scale", "drop_spin_at_rest", "roll_moving_target"])?;
        let d = FastFiz::default();
        Ok(FastFiz {
            inertia_scale: spec.positive_or("inertia_scale", d.inertia_scale)?,
            drop_spin_at_rest: spec.bool_or("drop_spin_at_rest", d.drop_spin_at_rest)?,
            roll_moving_target: spec.bool_or("roll_moving_target", d.roll_moving_target)?,
        })
    }
}

impl Law for FastFiz {
    fn name(&self) -> &str {
        Self::NAME
    }

    fn params(&self) -> Vec<(String, Param)> {
        vec![
            ("inertia_scale".into(), Param::Number(self.inertia_scale)),
            (
                "drop_spin_at_rest".into(),
                Param::Bool(self.drop_spin_at_rest),
            ),
            (
                "roll_moving_target".into(),
                Param::Bool(self.roll_moving_target),
            ),
        ]
    }

    fn ball_params(&self) -> &'static [&'static str] {
        &["mu_b"]
    }
}

impl BallBallLaw for FastFiz {
    fn resolve(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2] {
        // FastFiz's ball 1 is the moving ball (its events are found from each moving ball).
        if !a.motion.is_translating() && b.motion.is_translating() {
            let [vb, va] = self.resolve_ordered(pb, b, pa, a);
            return [va, vb];
        }
        self.resolve_ordered(pa, a, pb, b)
    }
}

impl FastFiz {
    /// The law with `a` as FastFiz's ball 1 and `b` as its ball 2.
    fn resolve_ordered(
        &self,
        pa: &BallParams,
        a: &BallState,
        pb: &BallParams,
        b: &BallState,
    ) -> [Velocities; 2] {
        let d = Vec2::new(b.r.x - a.r.x, b.r.y - a.r.y);
        let n = d / d.norm();
        // To the collision frame (x along the line of centers) and back.
        let to = |u: &Vec3| Vec3::new(u.x * n.x + u.y * n.y, u.y * n.x - u.x * n.y, u.z);
        let back = |u: Vec3| Vec3::new(u.x * n.x - u.y * n.y, u.x * n.y + u.y * n.x, u.z);
        let (v1, v2, w1, w2) = (to(&a.v), to(&b.v), to(&a.w), to(&b.w));
        let r = pa.radius;
        let mu = pair_mean(pa.mu_b, pb.mu_b);
        let v0x = v1.x;
        let sum = w1 + w2;
        // v1 - v2 + (x^ x (w1 + w2)) (-R), x^ x w = (0, -w_z, w_y).
        let u = Vec3::new(v1.x - v2.x, v1.y - v2.y + r * sum.z, -r * sum.y);
        let u_mag = u.norm();
        let slip = if u_mag > 0.0 {
            mu * v0x * u.y / u_mag
        } else {
            0.0
        };
        let new2_v = Vec3::new(v1.x, v2.y + slip, 0.0);
        let new1_v = Vec3::new(v2.x, v1.y - slip, 0.0);
        let target_moves = b.motion.is_translating();
        let (new1_w, new2_w) = if target_moves && self.roll_moving_target {
            let roll = |v: &Vec3, wz: f64| Vec3::new(-v.y / r, v.x / r, wz);
            (roll(&new1_v, w1.z), roll(&new2_v, w2.z))
        } else {
            let k = if u_mag > 0.0 {
                -2.5 * mu * v0x / u_mag / r / self.inertia_scale
            } else {
                0.0
            };
            let add = Vec3::new(0.0, -u.z, u.y) * k;
            (w1 - add, w2 + add)
        };
        let settle = |v: Vec3, w: Vec3| self.update_state(back(v), back(w));
        [settle(new1_v, new1_w), settle(new2_v, new2_w)]
    }

    /// FastFiz's clean-up after a collision and `Ball::updateState`: a ball without speed
    /// keeps only w_z (both spin components about horizontal axes dropped) when
    /// `drop_spin_at_rest`, and nothing below [`FASTFIZ_VELOCITY_EPSILON`].
    fn update_state(&self, v: Vec3, w: Vec3) -> Velocities {
        if v.norm() >= FASTFIZ_VELOCITY_EPSILON || !self.drop_spin_at_rest {
            return (v, w);
        }
        let wz = if w.z.abs() < FASTFIZ_VELOCITY_EPSILON {
            0.0
        } else {
            w.z
        };
        (Vec3::zeros(), Vec3::new(0.0, 0.0, wz))
    }
}
