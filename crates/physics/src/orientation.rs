//! Ball orientation: the rotation a ball undergoes while it keeps one motion state.
//!
//! Nothing here is part of a ball's state or of either engine: orientation is *derived* from an
//! event log. Between two consecutive events a ball keeps its motion state, and in every state
//! of both models its angular velocity is piecewise affine in time (seed 004, Section I):
//!
//! - stationary, pocketed: w = 0;
//! - spinning: w = (0, 0, w_z0 - 5 mu_sp g t / (2R));
//! - rolling: w_xy = k x v(t) / R with v(t) = v0 - mu_r g t v^0, and w_z decaying as in spinning
//!   but stopping at zero;
//! - sliding: w_xy(t) = w_xy0 + 5 mu_s g t / (2R) (k x u^0), w_z as in rolling;
//! - the ideal model (seeds 002/001): w constant.
//!
//! So w(t) = w0 + alpha t componentwise, except that w_z stays at 0 once friction has stopped it
//! ([`Physics::spin_decay_stops`]). [`SpinProfile::of`] reads w0 and alpha from the physics
//! itself ([`Physics::accelerations`]), so the rotation always follows the same equations of
//! motion as [`Physics::evolve`].
//!
//! The rotation q(t) (body frame to table frame) solves dq/dt = 1/2 (0, w(t)) q with w in the
//! table frame. When w keeps its direction (w0 parallel to alpha: a ball rolling straight
//! without side spin, a spinning ball, any ideal-model ball) the rotation vectors at different
//! times commute and the answer is the closed form q(t) = exp(1/2 integral w) with
//! integral w = w0 t + alpha t^2 / 2. In general (a sliding ball, a rolling ball with side spin)
//! they do not, and the rotation is integrated with the fourth-order Magnus method on the two
//! Gauss-Legendre nodes (Iserles & Norsett, "On the solution of linear differential equations in
//! Lie groups", Phil. Trans. R. Soc. A 357 (1999); Blanes, Casas, Oteo & Ros, "The Magnus
//! expansion and some of its applications", Phys. Rep. 470 (2009)):
//!
//! Omega = h/2 (w1 + w2) - (sqrt 3 / 12) h^2 (w1 x w2),  q <- exp(Omega) q,
//!
//! with w1, w2 = w at t_n + (1/2 -/+ sqrt 3 / 6) h. The number of substeps comes from the
//! method's leading error term and is chosen so that the error stays below [`ROTATION_TOL`]
//! (tested against a finer integration in `tests/orientation.rs`).
//!
//! Units: s, rad, rad/s, rad/s^2.

use nalgebra::UnitQuaternion;

use crate::{BallState, Physics, Vec3};

/// Target accuracy of [`SpinProfile::rotation`] (rad): the angle between the computed and the
/// exact rotation, per segment.
pub const ROTATION_TOL: f64 = 1e-12;

/// Most Magnus substeps used for one affine piece: a cap that only extreme spins (thousands of
/// rad/s for seconds) reach, so that a pathological state cannot stall a renderer.
pub const MAX_SUBSTEPS: usize = 1_000_000;

/// A ball's angular velocity over one motion segment (table frame, rad/s):
/// w(tau) = w0 + alpha tau for tau in [0, t_spin_stop], and after `t_spin_stop` the same with
/// the z-component held at exactly 0 (spin friction has stopped it and does not reverse it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpinProfile {
    /// Angular velocity at the start of the segment (rad/s).
    pub w0: Vec3,
    /// Angular acceleration (rad/s^2), constant over the segment.
    pub alpha: Vec3,
    /// Time (s) at which w_z reaches 0 and stays there, or `f64::INFINITY` if it never does.
    pub t_spin_stop: f64,
}

impl SpinProfile {
    /// The angular velocity of `s` over its current motion segment, as the physics evolves it:
    /// w0 = `s.w`, alpha from [`Physics::accelerations`], and the time spin friction stops w_z
    /// when [`Physics::spin_decay_stops`] says it stops rather than reverses. A ball that is not
    /// moving ([`crate::MotionState::is_moving`]) does not turn.
    pub fn of<P: Physics + ?Sized>(physics: &P, s: &BallState) -> Self {
        if !s.motion.is_moving() {
            return SpinProfile {
                w0: Vec3::zeros(),
                alpha: Vec3::zeros(),
                t_spin_stop: f64::INFINITY,
            };
        }
        let (_, alpha) = physics.accelerations(s);
        let t_spin_stop = if physics.spin_decay_stops(s) && s.w.z * alpha.z < 0.0 {
            -s.w.z / alpha.z
        } else {
            f64::INFINITY
        };
        SpinProfile {
            w0: s.w,
            alpha,
            t_spin_stop,
        }
    }

    /// Angular velocity (rad/s) at time `tau` (s) into the segment.
    pub fn w(&self, tau: f64) -> Vec3 {
        let mut w = self.w0 + self.alpha * tau;
        if tau >= self.t_spin_stop {
            w.z = 0.0;
        }
        w
    }

    /// The affine pieces of w over [0, t]: (start time, w at start, alpha, duration).
    fn pieces(&self, t: f64) -> impl Iterator<Item = (Vec3, Vec3, f64)> {
        let first = t.min(self.t_spin_stop).max(0.0);
        let mut w_stop = self.w0 + self.alpha * self.t_spin_stop.min(t);
        w_stop.z = 0.0;
        let alpha_after = Vec3::new(self.alpha.x, self.alpha.y, 0.0);
        let second = (t - self.t_spin_stop).max(0.0);
        [(self.w0, self.alpha, first), (w_stop, alpha_after, second)]
            .into_iter()
            .filter(|&(_, _, d)| d > 0.0)
    }

    /// The rotation (body frame to table frame) the ball undergoes from 0 to `t` (s), accurate
    /// to [`ROTATION_TOL`] (rad). `t` <= 0 or non-finite gives the identity.
    pub fn rotation(&self, t: f64) -> UnitQuaternion<f64> {
        self.rotation_with(t, None)
    }

    /// [`SpinProfile::rotation`] with a fixed number of Magnus substeps per affine piece
    /// (`Some(n)`), or the automatic choice ([`substeps`], `None`). For convergence studies.
    pub fn rotation_with(&self, t: f64, substeps_per_piece: Option<usize>) -> UnitQuaternion<f64> {
        if !(t.is_finite() && t > 0.0) {
            return UnitQuaternion::identity();
        }
        let mut q = UnitQuaternion::identity();
        for (w0, alpha, d) in self.pieces(t) {
            q = affine_rotation(w0, alpha, d, substeps_per_piece) * q;
        }
        q
    }
}

/// The rotation of a ball in state `s` over the first `t` seconds (s) of its current motion
/// segment (`t` at most the time to its next transition or event; beyond that the equations
/// are extrapolated, as in [`Physics::evolve`]).
pub fn segment_rotation<P: Physics + ?Sized>(
    physics: &P,
    s: &BallState,
    t: f64,
) -> UnitQuaternion<f64> {
    SpinProfile::of(physics, s).rotation(t)
}

/// Magnus substeps that keep the error of integrating w(tau) = w0 + alpha tau over [0, t] below
/// [`ROTATION_TOL`]; 0 when w0 and alpha commute (closed form).
///
/// The two-node method is exact for the first two Magnus terms of an affine w (w0 t +
/// alpha t^2/2 and -t^3/12 w0 x alpha). Its local error is of order h^5: nested commutators
/// w x (w x (w x alpha)) and alpha x (w x alpha) (the h^5 terms of the Magnus series), of sizes
/// |w|^2 |w x alpha| and |alpha| |w x alpha|, where w x alpha = w0 x alpha for every tau. Over
/// n steps of h = t/n the error is thus about t h^4 |w0 x alpha| (c1 |w|^2 + c2 |alpha|), |w|
/// the largest over [0, t]. Measured: c1 = 1.4e-3 (about 1/720) on short segments, down to 3e-6
/// on long fast-spinning ones where the local errors, turned by the ball's own rotation, partly
/// cancel; c2 = 1.7e-3 to 2.9e-3 (`tests/orientation.rs` prints both). The bound below uses
/// c1 = 3e-3 and c2 = 1e-2; a property test checks it against four times as many substeps for
/// random states.
pub fn substeps(w0: Vec3, alpha: Vec3, t: f64) -> usize {
    let cross = w0.cross(&alpha).norm();
    if !(t.is_finite() && t > 0.0) || cross * t * t * t / 12.0 <= ROTATION_TOL * 1e-2 {
        return 0;
    }
    let w_max = w0.norm().max((w0 + alpha * t).norm());
    let k = cross * (3e-3 * w_max * w_max + 1e-2 * alpha.norm());
    // t h^4 k <= tol  =>  h <= (tol / (t k))^(1/4).
    let h = (ROTATION_TOL / (t * k)).powf(0.25);
    ((t / h).ceil() as usize).clamp(1, MAX_SUBSTEPS)
}

/// Rotation for w(tau) = w0 + alpha tau over [0, t], t > 0.
fn affine_rotation(w0: Vec3, alpha: Vec3, t: f64, fixed: Option<usize>) -> UnitQuaternion<f64> {
    let n = fixed.unwrap_or_else(|| substeps(w0, alpha, t));
    if n == 0 {
        // w0 and alpha parallel: every w(tau) is along one axis, so rotations commute.
        return UnitQuaternion::from_scaled_axis(w0 * t + alpha * (0.5 * t * t));
    }
    magnus4(w0, alpha, t, n)
}

/// Fourth-order Magnus integration of dq/dt = 1/2 (0, w0 + alpha tau) q over [0, t] in `n`
/// equal substeps (Gauss-Legendre nodes; see the module documentation).
///
/// The substep rotations are multiplied pairwise (a balanced tree, in time order), so rounding
/// grows with log2(n) rather than n: with n = 10^5 steps a left-to-right product drifts by
/// about 1e-12 rad, the tree by about 1e-15.
pub fn magnus4(w0: Vec3, alpha: Vec3, t: f64, n: usize) -> UnitQuaternion<f64> {
    let n = n.max(1);
    let h = t / n as f64;
    let c = 3f64.sqrt() / 6.0;
    let k = 3f64.sqrt() / 12.0 * h * h;
    // Pairwise product: entries (level, product of 2^level consecutive steps), earliest first.
    let mut stack: Vec<(u32, UnitQuaternion<f64>)> = Vec::with_capacity(64);
    for i in 0..n {
        let t0 = h * i as f64;
        let w1 = w0 + alpha * (t0 + (0.5 - c) * h);
        let w2 = w0 + alpha * (t0 + (0.5 + c) * h);
        let omega = (w1 + w2) * (0.5 * h) - w1.cross(&w2) * k;
        let mut top = (0u32, UnitQuaternion::from_scaled_axis(omega));
        while let Some(&(level, earlier)) = stack.last() {
            if level != top.0 {
                break;
            }
            stack.pop();
            let mut q = top.1 * earlier;
            q.renormalize_fast();
            top = (level + 1, q);
        }
        stack.push(top);
    }
    let mut q = stack
        .into_iter()
        .fold(UnitQuaternion::identity(), |acc, (_, later)| later * acc);
    q.renormalize();
    q
}
