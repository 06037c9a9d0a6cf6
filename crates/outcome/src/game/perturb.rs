//! The chaos floor's perturbation: a shot moved by the physical uncertainty of its set-up, so
//! that the reference's own disagreement with itself measures what no algorithm can be
//! blamed for.

use pool_physics::{MotionState, Physics, Vec3};
use pool_sim::Setup;

use pool_sim::SplitMix;

/// How much a set-up is perturbed: every ball's position and the cue's speed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Perturbation {
    /// Distance (m) every ball on the table is moved, in a uniformly random direction on the
    /// cloth.
    pub position_m: f64,
    /// Relative change of the cue's speed, uniform in [-speed_rel, +speed_rel]: the strike's
    /// V0 when the shot has one, else the cue ball's velocity and spin together.
    pub speed_rel: f64,
}

impl Default for Perturbation {
    /// 1 µm and 1e-4: a ball spotted by hand is placed to far worse than a micrometre, and a
    /// stroke repeated by a robot varies by more than 1e-4 of its speed, so no outcome that
    /// changes under this perturbation is decided by anything a player controls.
    fn default() -> Self {
        Perturbation {
            position_m: 1e-6,
            speed_rel: 1e-4,
        }
    }
}

impl Perturbation {
    /// The largest position perturbation (m) and relative speed perturbation: beyond them the
    /// perturbed shot is another shot.
    pub const MAX: (f64, f64) = (0.1, 0.5);

    /// Checks both sizes are finite, at least 0 and at most [`Perturbation::MAX`].
    ///
    /// # Errors
    /// The first size out of range: which (`position` or `speed`), its value and its maximum.
    pub fn validate(&self) -> Result<(), (&'static str, f64, f64)> {
        for (name, v, max) in [
            ("position", self.position_m, Self::MAX.0),
            ("speed", self.speed_rel, Self::MAX.1),
        ] {
            if !(v.is_finite() && (0.0..=max).contains(&v)) {
                return Err((name, v, max));
            }
        }
        Ok(())
    }
}

/// The gap (m) [`perturb`] leaves between balls it pushed apart: a picometre, far below any
/// physical scale, so that rounding cannot leave the pair overlapping.
pub const SEPARATION_GAP_M: f64 = 1e-12;

/// Draws tried before [`perturb`] gives up on a set-up whose balls or cushions leave no room.
pub const PERTURB_TRIES: u64 = 20;

/// `setup` perturbed by `p`, deterministically in `seed`: every ball on the table moved by
/// `p.position_m` in a random direction, the cue's speed scaled by 1 + `p.speed_rel` u (u
/// uniform in [-1, 1]; the strike's V0, or the cue ball's v and w when there is no strike).
/// Balls the move left overlapping (a rack's 1 µm gaps) are pushed apart along their line of
/// centres to [`SEPARATION_GAP_M`] beyond touching (balls on a cloth cannot overlap). A
/// draw that leaves a ball in a cushion or off the cloth is drawn again.
///
/// # Errors
/// No valid draw in [`PERTURB_TRIES`]: the perturbation is too large for this set-up (the
/// message names the last reason).
pub fn perturb(setup: &Setup, p: &Perturbation, seed: u64) -> Result<Setup, String> {
    let mut why = String::new();
    for attempt in 0..PERTURB_TRIES {
        let mut rng =
            SplitMix::new(seed ^ 0x5EED_C4A0_5F10_0E00 ^ attempt.wrapping_mul(0x9E37_79B9));
        let mut s = setup.clone();
        for b in &mut s.balls {
            let angle = rng.range(0.0, std::f64::consts::TAU);
            if b.state.motion != MotionState::Pocketed {
                b.state.r += Vec3::new(angle.cos(), angle.sin(), 0.0) * p.position_m;
            }
        }
        let factor = 1.0 + p.speed_rel * rng.range(-1.0, 1.0);
        match (&mut s.strike, crate::game::outcome::cue_ball(setup)) {
            (Some(strike), _) => strike.cue.v0 *= factor,
            (None, Some(c)) => {
                let st = &mut s.balls[c].state;
                st.v *= factor;
                st.w *= factor;
            }
            (None, None) => {}
        }
        separate(&mut s);
        match s.validate() {
            Ok(()) => return Ok(s),
            Err(e) => why = e.to_string(),
        }
    }
    Err(format!(
        "{}: no perturbation by {} m and {} of the speed keeps it playable in {PERTURB_TRIES} \
         draws ({why})",
        setup.name, p.position_m, p.speed_rel
    ))
}

/// Pushes overlapping balls apart to [`SEPARATION_GAP_M`] beyond touching, symmetrically along
/// their line of centres, sweeping the pairs until none overlaps (or 100 sweeps: `validate`
/// then says which do).
fn separate(s: &mut Setup) {
    let n = s.balls.len();
    for _ in 0..100 {
        let mut moved = false;
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (s.balls[i].state, s.balls[j].state);
                if a.motion == MotionState::Pocketed || b.motion == MotionState::Pocketed {
                    continue;
                }
                let touch = s.physics.contact_distance(&a, &b);
                let d = b.r - a.r;
                let dist = d.xy().norm();
                if dist >= touch || dist == 0.0 {
                    continue;
                }
                let push = d * ((touch + SEPARATION_GAP_M - dist) / (2.0 * dist));
                s.balls[i].state.r -= push;
                s.balls[j].state.r += push;
                moved = true;
            }
        }
        if !moved {
            return;
        }
    }
}
