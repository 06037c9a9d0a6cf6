//! Ball–cushion collision laws (pooltool's `ball_linear_cushion` and `ball_circular_cushion`
//! event types: the same laws, applied at the contact's normal), one file per law.
//!
//! Adding a built-in law: a file with a struct implementing [`Law`], [`BuiltIn`] and
//! [`BallCushionLaw`], and its line in `law_models!` below. A law defined outside this crate is
//! added at run time with [`BallCushionModel::register`].

mod fastfiz;
mod han_2005;
mod impulse_frictional_inelastic;
mod mathavan_2010;
mod stronge_compliant;
mod unrealistic;

pub use fastfiz::FastFiz;
pub use han_2005::{han2005_cushion, Han2005};
pub use impulse_frictional_inelastic::{half_space, ImpulseFrictionalInelastic};
pub use mathavan_2010::Mathavan2010;
pub use stronge_compliant::{compliant_impact, StrongeCompliant};
pub use unrealistic::{mirror_cushion, Unrealistic};

pub use super::ball_ball::Velocities;
#[cfg(doc)]
use super::law::BuiltIn;
use super::law::{law_models, Law};
use super::spec::choice_param;
use crate::motion::Motion;
use crate::{BallParams, BallState, Vec2, Vec3};

/// One ball–cushion collision law.
pub trait BallCushionLaw: Law {
    /// The ball's new (v, w). `normal` is the unit vector on the cloth from the ball's center
    /// toward the contact (into the cushion); `height` the cushion's contact height (m).
    fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities;

    /// The ball's new (v, w) at a circular cushion (a rounded jaw) of radius `arc_radius` (m):
    /// `normal` is the unit vector on the cloth from the ball's center toward the circle's
    /// center, `height` the cushion's contact height (m). The default is the straight
    /// cushion's law at that normal; the laws that take the contact's normal in space choose
    /// it by their `circular_normal` ([`CircularNormal`]).
    fn resolve_circular(
        &self,
        p: &BallParams,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
    ) -> Velocities {
        let _ = arc_radius;
        self.resolve(p, s, normal, height)
    }

    /// Whether the law can resolve a contact at `height` (m) above the cloth for a ball of radius
    /// `radius` (m); `Err` says why not. The default wants the contact strictly between the
    /// cloth and the top of the ball, 0 < h < 2R: the laws that tilt the contact by
    /// asin(h/R - 1) or along the normal to the contact line are undefined or push nothing
    /// outside it.
    fn check_height(&self, height: f64, radius: f64) -> Result<(), String> {
        if height > 0.0 && height < 2.0 * radius {
            Ok(())
        } else {
            Err(format!(
                "the contact must be between the cloth and the top of the ball for {}: \
                 0 < h < 2R = {} m",
                self.name(),
                2.0 * radius
            ))
        }
    }

    /// Its sustained partner, for a ball in contact closing slowly: the new (v, w), or `None`
    /// to leave the ball as it is. The default is [`sustained_wall`] with this law's own
    /// resolution.
    fn sustained(
        &self,
        p: &BallParams,
        motion: Motion,
        s: &BallState,
        normal: Vec2,
        height: f64,
    ) -> Option<Velocities> {
        sustained_wall(p, motion, s, normal, || self.resolve(p, s, normal, height))
    }
}

/// The default sustained ball–cushion law: with cloth friction the limit of the damped rebounds
/// of a ball pressed into the cushion ([`crate::resolve::sustained::pressed_wall`]); without it,
/// the law itself when the ball moves into the cushion, else nothing (see
/// [`crate::resolve::ball_ball::sustained_pair`] for why).
pub fn sustained_wall(
    p: &BallParams,
    motion: Motion,
    s: &BallState,
    normal: Vec2,
    resolve: impl FnOnce() -> Velocities,
) -> Option<Velocities> {
    if motion.has_friction() {
        return Some(super::sustained::pressed_wall(p, s, normal));
    }
    if s.v.xy().dot(&normal) <= 0.0 {
        return None;
    }
    Some(resolve())
}

law_models! { $
    /// The ball–cushion law of a model: a built-in law (static dispatch) or one registered at
    /// run time.
    BallCushionModel: dyn BallCushionLaw, "ball_cushion" {
        Han2005(Han2005),
        Unrealistic(Unrealistic),
        ImpulseFrictionalInelastic(ImpulseFrictionalInelastic),
        StrongeCompliant(StrongeCompliant),
        Mathavan2010(Mathavan2010),
        FastFiz(FastFiz),
    }
}

impl BallCushionModel {
    /// See [`BallCushionLaw::resolve`].
    pub fn resolve(&self, p: &BallParams, s: &BallState, normal: Vec2, height: f64) -> Velocities {
        each_law!(self, l => l.resolve(p, s, normal, height))
    }

    /// See [`BallCushionLaw::resolve_circular`].
    pub fn resolve_circular(
        &self,
        p: &BallParams,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
    ) -> Velocities {
        each_law!(self, l => l.resolve_circular(p, s, normal, height, arc_radius))
    }

    /// See [`BallCushionLaw::check_height`].
    pub fn check_height(&self, height: f64, radius: f64) -> Result<(), String> {
        each_law!(self, l => l.check_height(height, radius))
    }

    /// See [`BallCushionLaw::sustained`].
    pub fn sustained(
        &self,
        p: &BallParams,
        motion: Motion,
        s: &BallState,
        normal: Vec2,
        height: f64,
    ) -> Option<Velocities> {
        each_law!(self, l => l.sustained(p, motion, s, normal, height))
    }
}

/// The unit normal of a cushion contact in space, from the cushion's contact line (`height`
/// above the cloth) to the center of a ball of radius `radius` whose center is R from the
/// line's vertical plane (where the engines find the contact): (-R normal, R - h) normalized.
/// `normal` is the unit vector on the cloth from the ball toward the contact.
pub fn contact_normal(normal: Vec2, height: f64, radius: f64) -> Vec3 {
    spaced_contact_normal(normal, height, radius, 0.0)
}

/// [`contact_normal`] for a ball `spacer` (m) farther from the line's vertical plane than
/// touching: (-(R + spacer) normal, R - h) normalized, as pooltool 0.6.0's
/// `LinearCushionSegment.get_normal_3d` gives it for the ball its `make_kiss` has moved to
/// R + `MIN_DIST` (1e-6 m) from the plane before the law runs.
pub fn spaced_contact_normal(normal: Vec2, height: f64, radius: f64, spacer: f64) -> Vec3 {
    let d = radius + spacer;
    Vec3::new(-d * normal.x, -d * normal.y, radius - height).normalize()
}

/// pooltool 0.6.0's gap between a ball and a cushion when its laws read the contact's geometry
/// (`pooltool.constants.MIN_DIST`, m): its `make_kiss` moves the ball back along its velocity
/// until its center is R + 1e-6 m from the cushion (R + r + 1e-6 m from a circular one's
/// center) before calling the law. The default of the laws' `spacer` parameter.
pub const POOLTOOL_SPACER: f64 = 1e-6;

/// The `spacer` parameter (m) of the laws that read the contact's normal in space
/// (`stronge_compliant`, `impulse_frictional_inelastic`): how far from touching the ball is
/// when the law takes the normal. pooltool's [`POOLTOOL_SPACER`] by default; 0 takes it at the
/// contact itself (our correction: the spacer tilts the normal by about (h - R) / R^2 x spacer,
/// 1e-5 rad for pool balls, and rotates it at a circular cushion, moving the rebound by a few
/// parts per million). Errors unless a number in [0, 1e-3].
pub(crate) fn spacer_from_spec(spec: &super::spec::LawSpec) -> Result<f64, super::spec::LawError> {
    let x = spec.number_or("spacer", POOLTOOL_SPACER)?;
    if (0.0..=1e-3).contains(&x) {
        Ok(x)
    } else {
        Err(super::spec::LawError {
            param: "spacer".into(),
            value: x.to_string(),
            why: "must be in [0, 1e-3] m: the gap between ball and cushion when the law reads \
                  the contact's normal"
                .into(),
        })
    }
}

/// The `spacer` parameter as a law's spec writes it: only when it is not pooltool's.
pub(crate) fn spacer_param(spacer: f64) -> Option<(String, super::spec::Param)> {
    (spacer != POOLTOOL_SPACER).then(|| ("spacer".into(), super::spec::Param::Number(spacer)))
}

/// The unit vector on the cloth from a ball toward a circular cushion's center (radius
/// `arc_radius`, m) once the ball, touching it along `normal` (same sense), is moved back along
/// its velocity until its center is R + r + `spacer` from the circle's center, as pooltool
/// 0.6.0's `CoreBallCCushionCollision.make_kiss` does before the law runs: the smaller root in
/// magnitude of |c - (r + t v)| = R + r + spacer; `normal` itself when the ball does not move
/// on the cloth or the move would be longer than 5 spacers (pooltool's fallback: the ball is
/// pushed out along the line of centers).
pub fn kissed_circular_normal(
    s: &BallState,
    normal: Vec2,
    radius: f64,
    arc_radius: f64,
    spacer: f64,
) -> Vec2 {
    let touch = radius + arc_radius;
    let target = touch + spacer;
    let v = s.v.xy();
    let diff = -normal * touch;
    let alpha = v.norm_squared();
    let beta = 2.0 * diff.dot(&v);
    let gamma = (touch - target) * (touch + target);
    let disc = beta * beta - 4.0 * alpha * gamma;
    if spacer == 0.0 || alpha == 0.0 || disc < 0.0 {
        return normal;
    }
    let q = -0.5 * (beta + beta.signum() * disc.sqrt());
    let t = if q == 0.0 {
        (-gamma / alpha).sqrt()
    } else {
        let (t1, t2) = (q / alpha, gamma / q);
        if t1.abs() < t2.abs() {
            t1
        } else {
            t2
        }
    };
    if (s.v * t).norm() > 5.0 * spacer {
        return normal;
    }
    let to_center = -(diff + v * t);
    to_center / to_center.norm()
}

choice_param! {
    /// Which unit normal in space a circular cushion (a rounded jaw of radius r, its contact
    /// circle `height` above the cloth) pushes a ball of radius R along, for the laws that take
    /// the contact's normal in space (`stronge_compliant`, `impulse_frictional_inelastic`,
    /// parameter `circular_normal`). The ball touches the circle when its center is R + r
    /// from the circle's center on the cloth.
    pub enum CircularNormal("circular_normal") {
        /// pooltool 0.6.0's (`CircularCushionSegment.get_normal_3d`): from the circle's
        /// *center* (at the cushion's height) to the ball's center, ((R + r) n, R - h)
        /// normalized, n the unit vector on the cloth from the circle toward the ball. Tilted
        /// less than a straight cushion's at the same height (9.2 against 15.6 degrees for
        /// pooltool's corner jaws, r = 20.95 mm, and pool balls). The default.
        Pooltool = "pooltool",
        /// From the contact on the circle, R from the ball's center on the cloth, to the
        /// ball's center, (R n, R - h) normalized: the straight cushion's geometry
        /// ([`contact_normal`]) at the point of the nose the ball touches.
        Contact = "contact",
    }
}

impl CircularNormal {
    /// The unit normal in space for a ball of radius `radius` (m) at a circular cushion of
    /// radius `arc_radius` (m) whose contact circle is `height` (m) above the cloth, the ball
    /// `spacer` (m) farther from the circle than touching; `normal` is the unit vector on the
    /// cloth from the ball's center toward the circle's (see [`kissed_circular_normal`]).
    pub fn normal(
        self,
        normal: Vec2,
        height: f64,
        radius: f64,
        arc_radius: f64,
        spacer: f64,
    ) -> Vec3 {
        match self {
            CircularNormal::Pooltool => {
                let d = radius + arc_radius + spacer;
                Vec3::new(-d * normal.x, -d * normal.y, radius - height).normalize()
            }
            CircularNormal::Contact => spaced_contact_normal(normal, height, radius, spacer),
        }
    }

    /// The unit normal in space a law that reads it takes for a ball in state `s` touching a
    /// circular cushion along `normal` (see [`BallCushionLaw::resolve_circular`]), the ball
    /// first moved `spacer` (m) off the circle as pooltool's `make_kiss` does
    /// ([`kissed_circular_normal`]), then [`CircularNormal::normal`].
    pub fn in_space(
        self,
        p: &BallParams,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
        spacer: f64,
    ) -> Vec3 {
        let n = kissed_circular_normal(s, normal, p.radius, arc_radius, spacer);
        self.normal(n, height, p.radius, arc_radius, spacer)
    }
}
