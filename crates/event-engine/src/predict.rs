//! Candidate event times: each is the earliest entry of a polynomial into contact.

use crate::ops::{EventOp, EventOps};
use pool_physics::{
    BallState, CircularSegment, LinearSegment, Model, Physics, PocketZone, Trajectory, Vec2,
};
use pool_roots::{earliest_entry, RootList, RootSolver};

use crate::cull;

/// Approach speed, relative to the balls' speeds (at least [`SPEED_FLOOR`]), below which a
/// contact is neither approaching nor separating: about 1e4 times f64 rounding.
pub const APPROACH_EPS: f64 = 1e-12;

/// Speed (m/s) below which the rounding scale of a relative velocity stops shrinking with the
/// balls' speeds. Without it, two nearly stopped balls in contact separating at 1e-17 m/s count
/// as separating, come back within 1e-16 s, which does not move t, and collide again without
/// change forever. With it, any approach or separation slower than 1e-12 m/s (a picometre a
/// second) is no motion at all.
pub const SPEED_FLOOR: f64 = 1.0;

/// The approach speed (m/s) beyond which a touching contact is approaching (or, negated,
/// separating), for balls whose speeds add up to `speed_scale` (m/s): [`APPROACH_EPS`] times
/// `speed_scale` floored at [`SPEED_FLOOR`]. The predictor and the engine's sustained-contact
/// solver use this one threshold, so a contact the solver leaves is never predicted to
/// collide now.
pub fn approach_tolerance(speed_scale: f64) -> f64 {
    APPROACH_EPS * speed_scale.max(SPEED_FLOOR)
}

/// Extra overlap (m) at which a contact that touches without approaching, but is pushed closed
/// by friction, collides (see `Predictor::contact_entry`). Below the 1e-9 m contact tolerance.
pub const CONTACT_SLOP: f64 = 2e-10;

/// Distance (m) beyond contact within which two bodies count as touching: about 1e5 ulps of a
/// 2R-sized distance, far below any contact tolerance. A pair resolved at contact and left a rounding error apart must be treated
/// as touching, or a pressed pair would collide again an instant later, forever.
pub const TOUCH_TOL: f64 = 1e-12;

/// The state of a contact now: how far apart (m), how fast closing (m/s, positive when
/// approaching) and the relative speed that sets the rounding scale (m/s).
#[derive(Clone, Copy, Debug)]
struct Contacting {
    distance: f64,
    approach: f64,
    speed_scale: f64,
    /// How fast the approach grows (m/s², positive when friction drives the two together):
    /// minus the second derivative of the distance.
    pressing: f64,
}

impl Contacting {
    /// Two bodies whose separation d(t) = |c + b t + a t²| (relative position, velocity and
    /// half acceleration, on the cloth) is `distance` = |c| now.
    fn between(c: Vec2, b: Vec2, a: Vec2, speed_scale: f64) -> Self {
        let distance = c.norm();
        let inv = 1.0 / distance.max(f64::MIN_POSITIVE);
        let rate = c.dot(&b) * inv;
        // d'' = (|b|² + 2 a.c - d'²) / d: the relative acceleration along the line of centers
        // plus the centripetal term of the relative motion across it.
        let curvature = (b.norm_squared() + 2.0 * a.dot(&c) - rate * rate) * inv;
        Contacting {
            distance,
            approach: -rate,
            speed_scale,
            pressing: -curvature,
        }
    }

    /// The approach speed (m/s) that counts as none: rounding ([`approach_tolerance`]), or, for
    /// a pressed contact, the speed its press reaches over [`CONTACT_SLOP`] from rest,
    /// sqrt(2 · pressing · slop). Slower than that a touching contact is pressed, not
    /// colliding or parting: it collides when the press has closed it by the slop, and the
    /// engine resolves that arrival as sustained (`sustained_speed` allows twice this speed,
    /// the most it can arrive with: sqrt(still² + 2 · pressing · slop) <= 2 · still). A
    /// velocity-level threshold alone would let a press regenerate 1e-12 m/s every few ns, an
    /// event each time.
    fn still(&self) -> f64 {
        approach_tolerance(self.speed_scale)
            .max((2.0 * self.pressing.max(0.0) * CONTACT_SLOP).sqrt())
    }
}

/// Where a ball touches a cushion segment, which fixes the collision normal.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Contact {
    /// The segment's face (its vertical plane): normal = the segment's normal.
    Face,
    /// One end point of the segment (a convex corner such as a jaw tip): normal along the line
    /// from the ball's center to the point.
    Point(Vec2),
}

impl Contact {
    /// The unit collision normal on the cloth, from a ball centered at `center` (m) toward
    /// its contact with `segment`: the face's outward normal, or the direction to the point.
    pub fn normal(&self, segment: &LinearSegment, center: Vec2) -> Vec2 {
        match *self {
            Contact::Face => segment.outward_normal(),
            Contact::Point(p) => (p - center).normalize(),
        }
    }
}

/// Predicts collision times for balls on quadratic trajectories (seed 000, "(4) Calculating
/// event times"), counting the work in an [`EventOps`].
///
/// Each kind of prediction comes in two forms: `ball_ball(a, b, ops)` and its `_within` form,
/// which takes the trajectories (exactly `Physics::trajectory` of the states given, so that a
/// caller can compute them once per state) and a `limit` (s from now) beyond which the caller
/// has no use for an entry. Before any root solve, conservative tests ([`crate::cull`]) look for
/// a proof that there is no entry within min(horizon, limit); when one is found the answer is
/// `None`, otherwise it is the root finder's, unchanged. So a `_within` answer is the plain
/// answer, or `None` where the plain answer is later than `limit`.
pub struct Predictor<'a> {
    /// Physics model (trajectories, radius).
    pub physics: &'a Model,
    /// Root solver backend.
    pub solver: &'a dyn RootSolver,
    /// Skip root solves that [`crate::cull`] proves have no entry (default). The answers do not
    /// change for the default root finder; turn it off to see another backend's own answers.
    pub cull: bool,
    scratch: RootList,
}

/// An error in a prediction: non-finite coefficients mean a corrupted state.
pub type PredictError = pool_roots::RootError;

impl<'a> Predictor<'a> {
    /// A predictor for one model and one root solver, culling on.
    pub fn new(physics: &'a Model, solver: &'a dyn RootSolver) -> Self {
        Predictor {
            physics,
            solver,
            cull: true,
            scratch: Vec::with_capacity(8),
        }
    }

    fn solve(
        &mut self,
        c: &[f64; 5],
        horizon: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        if self.cull && horizon >= 0.0 && cull::quartic_positive(c) {
            // Every coefficient >= 0 and c0 > 0: positive for all t >= 0 (crate::cull).
            return Ok(None);
        }
        ops.bump(EventOp::root_solve(pool_roots::degree(c)));
        earliest_entry(self.solver, c, horizon, &mut self.scratch)
    }

    /// Time from now (s) until balls `a` and `b` first touch while approaching, within both
    /// trajectories' validity: the earliest entry of |d(t)|^2 - D^2, a quartic in t, D their
    /// contact distance (`Physics::contact_distance`: 2R for equal balls).
    pub fn ball_ball(
        &mut self,
        a: &BallState,
        b: &BallState,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let (ta, tb) = (self.physics.trajectory(a), self.physics.trajectory(b));
        self.ball_ball_within(a, b, &ta, &tb, f64::INFINITY, ops)
    }

    /// [`Predictor::ball_ball`] with the balls' trajectories `ta`, `tb` (`Physics::trajectory`
    /// of `a`, `b`) and a `limit`: an entry later than `limit` s from now may be answered `None`.
    pub fn ball_ball_within(
        &mut self,
        a: &BallState,
        b: &BallState,
        ta: &Trajectory,
        tb: &Trajectory,
        limit: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        ops.bump(EventOp::PredictBallBall);
        if !(a.motion.is_translating() || b.motion.is_translating()) {
            return Ok(None);
        }
        let horizon = ta.valid_for.min(tb.valid_for);
        let two_r = self.physics.contact_distance(a, b);
        let gap = (ta.c - tb.c).xy();
        let relative = (ta.b - tb.b).xy();
        if self.culled_apart((ta.a - tb.a).xy(), relative, gap, horizon, limit, two_r) {
            return Ok(None);
        }
        let contact = Contacting::between(
            gap,
            relative,
            (ta.a - tb.a).xy(),
            // The relative velocity is a difference: its rounding scales with the speeds.
            ta.b.xy().norm() + tb.b.xy().norm(),
        );
        self.contact_entry(
            |d| distance_quartic(ta, tb, d),
            two_r,
            contact,
            horizon,
            ops,
        )
    }

    /// The earliest collision of a contact that happens at distance `contact` (m), where
    /// `poly(d)` is the polynomial whose earliest entry is the time the distance reaches `d`.
    ///
    /// Apart now (beyond [`TOUCH_TOL`]): its earliest entry at `contact` (the callers have
    /// already tried to prove there is none, [`crate::cull`]). Touching now (frozen
    /// balls, a pair just resolved, a ball resting against a cushion), seed 002's guard first:
    /// - approaching: it collides now;
    /// - separating (a rebound): it collides when it comes back to the depth it has now, never
    ///   deeper, so that a pressed pair's rebounds cannot ratchet into an overlap;
    /// - neither (slower than its press would make it over a slop, `Contacting::still`) while
    ///   friction presses the two together: an impulse now would change nothing and repeat
    ///   forever at the same time; the contact collides when it overlaps by [`CONTACT_SLOP`]
    ///   (now, if it already does). The engine then resolves it as a *sustained* contact (the
    ///   limit of its damped rebounds) and closes that overlap ([`crate::sustained_speed`]).
    fn contact_entry(
        &mut self,
        poly: impl Fn(f64) -> [f64; 5],
        contact: f64,
        now: Contacting,
        horizon: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        if now.distance > contact + TOUCH_TOL {
            return self.solve(&poly(contact), horizon, ops);
        }
        let still = now.still();
        if now.approach > still {
            ops.bump(EventOp::root_solve(1));
            return Ok(Some(0.0));
        }
        if now.approach < -still {
            // Separating (a pair just resolved): it collides when it comes back to the depth
            // it has now (the contact distance, or the present one if the two are closer than
            // that already), not deeper, or every rebound of a pushed pair would sink it
            // further. p(0) is zero by definition: rounding in the constant term could hide
            // the return.
            let mut c = poly(contact.min(now.distance));
            c[0] = 0.0;
            return self.solve(&c, horizon, ops);
        }
        // Pressed: it collides when the press has closed it to one slop past contact, measured
        // from contact, never from its present depth: a pair left deeper by a cascade of
        // rebounds at one instant would otherwise sink a further slop at every re-prediction
        // (regression shot `slop_ratchet_15ball_648145`). One already past the slop collides now, and
        // the engine's sustained resolution closes its overlap.
        if now.distance < contact - CONTACT_SLOP {
            ops.bump(EventOp::root_solve(1));
            return Ok(Some(0.0));
        }
        self.solve(&poly(contact - CONTACT_SLOP), horizon, ops)
    }

    /// Whether culling proves that two bodies apart now, at relative position `gap` (m) with
    /// relative velocity `b` and half acceleration `a` on the cloth, stay farther than
    /// `contact` (m) until the trajectories' `horizon` or the caller's `limit` (s): then
    /// `contact_entry`'s apart branch would solve a polynomial with no entry.
    ///
    /// "Apart" is decided as that branch decides it (|gap| > contact + [`TOUCH_TOL`]) without a
    /// square root: the factor 1 + 1e-9 on the square is far beyond the rounding of the norm.
    fn culled_apart(
        &self,
        a: Vec2,
        b: Vec2,
        gap: Vec2,
        horizon: f64,
        limit: f64,
        contact: f64,
    ) -> bool {
        let apart = contact + TOUCH_TOL;
        self.cull
            && gap.norm_squared() > apart * apart * (1.0 + 1e-9)
            && cull::path_clear(a, b, gap, cull::horizon(horizon, limit), contact)
    }

    /// Counts a prediction of kind `op` and returns whether the ball translates (a ball that
    /// does not cannot reach a cushion or a pocket).
    fn moving(&self, s: &BallState, op: EventOp, ops: &mut EventOps) -> bool {
        ops.bump(op);
        s.motion.is_translating()
    }

    /// Time from now (s) until the ball's center enters the pocket circle.
    pub fn ball_pocket(
        &mut self,
        s: &BallState,
        pocket: &PocketZone,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let t = self.physics.trajectory(s);
        self.ball_pocket_within(s, &t, pocket, f64::INFINITY, ops)
    }

    /// [`Predictor::ball_pocket`] with the ball's trajectory `t` and a `limit` (see
    /// [`Predictor::ball_ball_within`]).
    pub fn ball_pocket_within(
        &mut self,
        s: &BallState,
        t: &Trajectory,
        pocket: &PocketZone,
        limit: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        if !self.moving(s, EventOp::PredictBallPocket, ops) {
            return Ok(None);
        }
        if let Some(line) = &pocket.line {
            return Ok(self.line_crossing(t, line, limit, ops));
        }
        if self.cull {
            let gap = t.c.xy() - pocket.center;
            let h = cull::horizon(t.valid_for, limit);
            if cull::path_clear(t.a.xy(), t.b.xy(), gap, h, pocket.radius) {
                return Ok(None);
            }
        }
        let at = Trajectory::at_rest(pool_physics::Vec3::new(
            pocket.center.x,
            pocket.center.y,
            s.r.z,
        ));
        let c = distance_quartic(t, &at, pocket.radius);
        self.solve(&c, t.valid_for, ops)
    }

    /// Time from now (s) until the ball's center crosses a pocket's capture line from its
    /// playing side, inside the segment: the signed distance reaches 0, a quadratic (FastFiz's
    /// `Shot::addBoundaryEvents` solves the same one), the crossing point checked against the
    /// segment's ends. A center behind the line (beside the segment, within rounding of a
    /// rail's contact line) must come back in front of it first ([`reentry`]).
    fn line_crossing(
        &mut self,
        t: &Trajectory,
        line: &LinearSegment,
        limit: f64,
        ops: &mut EventOps,
    ) -> Option<f64> {
        let n = line.normal;
        let side = n.dot(&(t.c.xy() - line.start));
        let (nb, na) = (n.x * t.b.x + n.y * t.b.y, n.x * t.a.x + n.y * t.a.y);
        let h = cull::horizon(t.valid_for, limit);
        if self.cull && side > 0.0 && cull::scalar_clear(na, nb, side, h, 0.0) {
            return None;
        }
        ops.bump(EventOp::root_solve(2));
        let tau = if side < 0.0 {
            reentry(side, nb, na)
        } else {
            crossing(side, nb, na)
        }
        .filter(|&tau| tau <= t.valid_for)?;
        let r = t.position(tau);
        (0.0..=1.0)
            .contains(&line.parameter(Vec2::new(r.x, r.y)))
            .then_some(tau)
    }

    /// Time from now (s) until the ball touches the segment's face (its vertical plane) from the
    /// playing side while approaching it: signed distance = R, a quadratic, with the contact
    /// point inside the segment (0 <= s <= 1). End points are [`Predictor::ball_point`]'s.
    pub fn ball_cushion(
        &mut self,
        s: &BallState,
        segment: &LinearSegment,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let t = self.physics.trajectory(s);
        self.ball_cushion_within(s, &t, segment, f64::INFINITY, ops)
    }

    /// [`Predictor::ball_cushion`] with the ball's trajectory `t` and a `limit` (see
    /// [`Predictor::ball_ball_within`]).
    #[inline]
    pub fn ball_cushion_within(
        &mut self,
        s: &BallState,
        t: &Trajectory,
        face: &LinearSegment,
        limit: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        if !self.moving(s, EventOp::PredictBallCushion, ops) {
            return Ok(None);
        }
        let radius = self.physics.radius(s);
        let n = face.normal;
        let center_side = n.dot(&(Vec2::new(t.c.x, t.c.y) - face.start));
        let (nb, na) = (n.x * t.b.x + n.y * t.b.y, n.x * t.a.x + n.y * t.a.y);
        let h = cull::horizon(t.valid_for, limit);
        if self.cull {
            if center_side > radius + TOUCH_TOL
                && cull::scalar_clear(na, nb, center_side, h, radius)
            {
                // Apart now and the signed distance stays above R: contact_entry's apart
                // branch would solve the same quadratic and find nothing.
                return Ok(None);
            }
            // The contact point must fall inside the segment (0 <= s <= 1): if the path's
            // projection on the segment stays beyond one end, no face contact within h.
            let (lo, hi) = (face.along_start, face.along_start + face.length_sq);
            if cull::outside_band(t.a.xy(), t.b.xy(), t.c.xy(), h, face.dir, lo, hi) {
                return Ok(None);
            }
        }
        let now = Contacting {
            distance: center_side,
            approach: -nb,
            speed_scale: t.b.xy().norm(),
            pressing: -2.0 * na,
        };
        let poly = |d: f64| [center_side - d, nb, na, 0.0, 0.0];
        let beside = !(0.0..=1.0).contains(&face.parameter(t.c.xy()));
        let tau = if center_side < 0.0 || (beside && center_side <= radius + TOUCH_TOL) {
            // Behind the face's line (which, for a jaw, runs on across the table), or within R
            // of it but beside the segment (in a pocket's mouth, next to the jaw tip it just
            // touched): not touching this face, whatever the line's distance says. A face is
            // hit from the front only (pooltool's cushion direction), so the ball can reach it
            // only by crossing to R in front of the line and coming back.
            ops.bump(EventOp::root_solve(2));
            reentry(center_side - radius, nb, na).filter(|&tau| tau <= t.valid_for)
        } else {
            self.contact_entry(poly, radius, now, t.valid_for, ops)?
        };
        let Some(tau) = tau else {
            return Ok(None);
        };
        let r = t.position(tau);
        Ok((0.0..=1.0)
            .contains(&face.parameter(Vec2::new(r.x, r.y)))
            .then_some(tau))
    }

    /// Time from now (s) until the ball touches a cushion end point `p` (a jaw tip, see
    /// `Table::exposed_points`) while approaching it: distance = R, a quartic.
    pub fn ball_point(
        &mut self,
        s: &BallState,
        p: Vec2,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let t = self.physics.trajectory(s);
        self.ball_point_within(s, &t, p, f64::INFINITY, ops)
    }

    /// [`Predictor::ball_point`] with the ball's trajectory `t` and a `limit` (see
    /// [`Predictor::ball_ball_within`]).
    pub fn ball_point_within(
        &mut self,
        s: &BallState,
        t: &Trajectory,
        p: Vec2,
        limit: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let radius = self.physics.radius(s);
        self.ball_circle_within(s, t, p, radius, limit, ops)
    }

    /// Time from now (s) until the ball touches a circular cushion segment (pooltool's
    /// `ball_circular_cushion`) while approaching it: its center R + r from the circle's
    /// center, a quartic in the pool model (seed 000's ball–ball quartic with the cushion at
    /// rest). A ball touching it now is judged as any touching contact
    /// (`Predictor::contact_entry`: approaching, separating, pressed).
    pub fn ball_circular_cushion(
        &mut self,
        s: &BallState,
        arc: &CircularSegment,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let t = self.physics.trajectory(s);
        self.ball_circular_cushion_within(s, &t, arc, f64::INFINITY, ops)
    }

    /// [`Predictor::ball_circular_cushion`] with the ball's trajectory `t` and a `limit` (see
    /// [`Predictor::ball_ball_within`]).
    pub fn ball_circular_cushion_within(
        &mut self,
        s: &BallState,
        t: &Trajectory,
        arc: &CircularSegment,
        limit: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        let reach = self.physics.radius(s) + arc.radius;
        self.ball_circle_within(s, t, arc.center, reach, limit, ops)
    }

    /// The earliest approaching contact of the ball's center with the circle of radius
    /// `reach` (m) about the fixed point `center`: an end point (reach R) or a circular cushion
    /// (reach R + r).
    fn ball_circle_within(
        &mut self,
        s: &BallState,
        t: &Trajectory,
        center: Vec2,
        reach: f64,
        limit: f64,
        ops: &mut EventOps,
    ) -> Result<Option<f64>, PredictError> {
        if !self.moving(s, EventOp::PredictBallCushion, ops) {
            return Ok(None);
        }
        let gap = t.c.xy() - center;
        if self.culled_apart(t.a.xy(), t.b.xy(), gap, t.valid_for, limit, reach) {
            return Ok(None);
        }
        let at = Trajectory::at_rest(pool_physics::Vec3::new(center.x, center.y, t.c.z));
        let now = Contacting::between(gap, t.b.xy(), t.a.xy(), t.b.xy().norm());
        let circle = |d: f64| distance_quartic(t, &at, d);
        self.contact_entry(circle, reach, now, t.valid_for, ops)
    }
}

/// The time a quadratic p(t) = c0 + c1 t + c2 t^2 with p(0) = c0 <= 0 next enters p <= 0 from
/// above: its later root, when p rises above zero and comes back (c2 < 0, both roots positive).
/// `None` if it never leaves, or never comes back.
///
/// Why not [`earliest_entry`]: it answers "first time p <= 0", which for a p already <= 0 is
/// now. A ball beside a cushion segment, nearer its line than R, needs the return instead;
/// taking "the depth it has now" as the target (as a touching contact does) would let a ball
/// leaving a side pocket's mouth come back millimetres into the next rail (regression shot
/// `pocket_mouth_rail_9ball_49672`).
fn reentry(c0: f64, c1: f64, c2: f64) -> Option<f64> {
    if !(c2 < 0.0 && c1 > 0.0) {
        return None;
    }
    let disc = c1 * c1 - 4.0 * c2 * c0;
    if disc <= 0.0 {
        return None;
    }
    // Larger root of a concave quadratic, without cancellation: (-c1 - sqrt(disc)) / (2 c2).
    Some((-c1 - disc.sqrt()) / (2.0 * c2))
}

/// The first t >= 0 at which p(t) = c0 + c1 t + c2 t^2, with p(0) = c0 >= 0, reaches 0 while
/// falling (a center on the playing side of a line crossing it); `None` if it never does. A p
/// at 0 now counts when it falls (c1 < 0, or c1 = 0 and c2 < 0).
fn crossing(c0: f64, c1: f64, c2: f64) -> Option<f64> {
    if c0 == 0.0 {
        return (c1 < 0.0 || (c1 == 0.0 && c2 < 0.0)).then_some(0.0);
    }
    if c2 == 0.0 {
        return (c1 < 0.0).then(|| -c0 / c1);
    }
    let disc = c1 * c1 - 4.0 * c2 * c0;
    if disc < 0.0 {
        return None;
    }
    // The two roots without cancellation: q = -(c1 + sign(c1) sqrt(disc)) / 2, then q / c2 and
    // c0 / q. p falls through 0 at the smaller non-negative one.
    let q = -0.5 * (c1 + c1.signum() * disc.sqrt());
    let roots = [q / c2, if q != 0.0 { c0 / q } else { f64::NAN }];
    roots
        .into_iter()
        .filter(|&r| r >= 0.0)
        .min_by(f64::total_cmp)
}

/// Ascending coefficients of |d(t)|^2 - dist^2 for d(t) = x_a(t) - x_b(t) on the cloth plane:
/// with d = A t^2 + B t + C, the quartic A.A t^4 + 2 A.B t^3 + (B.B + 2 A.C) t^2 + 2 B.C t +
/// C.C - dist^2 (seed 000, ball-ball event).
pub fn distance_quartic(a: &Trajectory, b: &Trajectory, dist: f64) -> [f64; 5] {
    let (ax, ay) = (a.a.x - b.a.x, a.a.y - b.a.y);
    let (bx, by) = (a.b.x - b.b.x, a.b.y - b.b.y);
    let (cx, cy) = (a.c.x - b.c.x, a.c.y - b.c.y);
    let norm_c = pool_physics::hypot(cx, cy);
    [
        // (|C| - dist)(|C| + dist) keeps the relative accuracy of a near-contact gap.
        (norm_c - dist) * (norm_c + dist),
        2.0 * (bx * cx + by * cy),
        bx * bx + by * by + 2.0 * (ax * cx + ay * cy),
        2.0 * (ax * bx + ay * by),
        ax * ax + ay * ay,
    ]
}
