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
    /// cushion's law at that normal, turned as the ball's move by the law's
    /// [`BallCushionLaw::spacer`] turns it ([`kissed_circular_normal`]; unturned at spacer 0);
    /// the laws that take the contact's normal in space choose it by their `circular_normal`
    /// ([`CircularNormal`]).
    fn resolve_circular(
        &self,
        p: &BallParams,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
    ) -> Velocities {
        let normal = kissed_circular_normal(s, normal, p.radius, arc_radius, self.spacer());
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

    /// pooltool 0.6.0's contact spacer (m) for this law, its parameter `spacer` where it has
    /// one: [`crate::Model`] moves the ball that far off the cushion as pooltool's `make_kiss`
    /// does before the law runs ([`crate::resolve::spacer::kissed_at_line`],
    /// [`crate::resolve::spacer::kissed_at_circle`]), and the ball leaves from there; the law
    /// itself reads the normal it implies from the state it is given. The default 0 resolves the
    /// collision where the ball touches.
    fn spacer(&self) -> f64 {
        0.0
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

    /// See [`BallCushionLaw::spacer`].
    pub fn spacer(&self) -> f64 {
        each_law!(self, l => l.spacer())
    }

    /// Whether this law takes pooltool's contact spacer (a `spacer` parameter).
    pub fn takes_spacer(&self) -> bool {
        matches!(
            self,
            BallCushionModel::StrongeCompliant(_)
                | BallCushionModel::ImpulseFrictionalInelastic(_)
                | BallCushionModel::Han2005(_)
                | BallCushionModel::Mathavan2010(_)
        )
    }

    /// This law with its `spacer` (m) set, for the built-in laws that pooltool resolves after
    /// its `make_kiss` (`stronge_compliant`, `impulse_frictional_inelastic`, `han_2005`,
    /// `mathavan_2010`); any other law as it is.
    pub fn with_spacer(&self, spacer: f64) -> Self {
        let mut out = self.clone();
        match &mut out {
            BallCushionModel::StrongeCompliant(l) => l.spacer = spacer,
            BallCushionModel::ImpulseFrictionalInelastic(l) => l.spacer = spacer,
            BallCushionModel::Han2005(l) => l.spacer = spacer,
            BallCushionModel::Mathavan2010(l) => l.spacer = spacer,
            _ => {}
        }
        out
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

pub use crate::resolve::spacer::POOLTOOL_SPACER;

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
    match crate::resolve::spacer::circular_kiss_time(s, normal, touch, spacer) {
        Some(t) => {
            let to_center = -(-normal * touch + s.v.xy() * t);
            to_center / to_center.norm()
        }
        None => normal,
    }
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
