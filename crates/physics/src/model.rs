//! The physics trait both evolution algorithms call, and [`Model`]: equations of motion plus
//! one law per event type.

use crate::motion::Motion;
use crate::resolve::{BallCushionModel, Resolver};
use crate::{BallParams, BallState, EventKind, Pocket, Trajectory, Vec2, Vec3};

/// A motion transition that will happen to a ball if nothing interrupts it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Transition {
    /// Time from now until the transition (s), >= 0.
    pub dt: f64,
    /// Which transition.
    pub kind: EventKind,
}

/// `law(a, b)` with the ball earlier in the set-up first (`a_first` says whether that is `a`),
/// the results as `(a's, b's)`: the ball-order contract of [`crate::resolve::BallBallLaw`].
fn in_setup_order(
    a: &BallState,
    b: &BallState,
    a_first: bool,
    law: impl Fn(&BallState, &BallState) -> (BallState, BallState),
) -> (BallState, BallState) {
    if a_first {
        law(a, b)
    } else {
        let (nb, na) = law(b, a);
        (na, nb)
    }
}

/// Equations of motion, transition rules and collision laws of one physical model.
///
/// Both engines see the world only through this trait, so any difference between their results
/// is due to the evolution algorithm alone. Implementations are pure functions of their inputs:
/// no hidden state, no randomness, bit-identical results for identical inputs.
///
/// The methods come in three groups: the balls (`radius`, `mass`, `contact_distance`,
/// `kinetic_energy`); the equations of motion between events (`infer_motion` to
/// `transition_crossed`: where a ball is, when its motion state changes); and what happens at
/// an event (`apply_transition` and the `resolve_*` laws, which return *settled* states:
/// velocities agree with the motion state).
///
/// Balls may differ (mass, radius, friction): every method reads the parameters of the ball
/// whose state it is given (its [`BallState::set`]), and a state a law returns keeps its set.
/// Contacts are where balls touch: ball–ball at [`Physics::contact_distance`], ball–cushion
/// with the center at the ball's own R from a face or an end point, R + r from a circular
/// cushion's center.
pub trait Physics: Send + Sync {
    /// The radius R (m) of the ball in state `s`.
    fn radius(&self, s: &BallState) -> f64;

    /// The mass m (kg) of the ball in state `s`.
    fn mass(&self, s: &BallState) -> f64;

    /// The distance (m) between the centers of balls `a` and `b` on the cloth when they touch
    /// ([`crate::contact_distance`] of their radii: 2R for equal balls).
    fn contact_distance(&self, a: &BallState, b: &BallState) -> f64 {
        crate::contact_distance(self.radius(a), self.radius(b))
    }

    /// The motion state the velocities of `s` imply for its ball (seed 004 conditions; the
    /// motion state `s` has is not read).
    fn infer_motion(&self, s: &BallState) -> crate::MotionState;

    /// The center's trajectory coefficients r(t) = a t^2 + b t + c in the ball's current motion
    /// state and how long they stay valid (until its next transition).
    fn trajectory(&self, s: &BallState) -> Trajectory;

    /// The ball's next natural transition if nothing interrupts it (seed 000, "(4)"), or `None`
    /// for a ball that never changes state by itself.
    fn next_transition(&self, s: &BallState) -> Option<Transition>;

    /// The state after `t` seconds of analytic evolution in the current motion state
    /// (seed 004, Section I). The motion state is kept; for `t` beyond
    /// [`next_transition`](Physics::next_transition) the equations are extrapolated (velocities
    /// reverse), which is what a fixed-step integrator sees before it notices the transition.
    /// Independent spin decay (w_z while sliding or rolling) stops at zero and never reverses.
    fn evolve(&self, s: &BallState, t: f64) -> BallState;

    /// [`evolve`](Physics::evolve) on many balls by the same `t` (s): `out[k]` becomes
    /// `evolve(&states[k], t)` bit for bit for every moving ball k; the others' `out[k]` are
    /// left as they are. A model may order its arithmetic across balls for speed, never
    /// change it. `out` is at least as long as `states`.
    fn evolve_all(&self, states: &[BallState], t: f64, out: &mut [BallState]) {
        for (s, o) in states.iter().zip(out) {
            if s.motion.is_moving() {
                *o = self.evolve(s, t);
            }
        }
    }

    /// Time derivatives (dv/dt in m/s^2, dw/dt in rad/s^2) in the current motion state, for
    /// numerical stepping. Friction torques on w_z stop the spin; a stepper must not let w_z
    /// change sign through them (see [`Physics::spin_decay_stops`]).
    fn accelerations(&self, s: &BallState) -> (Vec3, Vec3);

    /// True when the model's w_z decay in state `s` is friction that stops at zero rather than a
    /// transition of its own (sliding and rolling balls in the pool model).
    fn spin_decay_stops(&self, s: &BallState) -> bool;

    /// Transition rule for fixed-step integration: given a ball's state before and after a step
    /// taken in the `before` motion state, the transition whose condition changed sign during
    /// the step (u reversed for sliding, v reversed for rolling, w_z reversed for spinning).
    fn transition_crossed(&self, before: &BallState, after: &BallState) -> Option<EventKind>;

    /// A number whose sign says what [`transition_crossed`](Physics::transition_crossed)
    /// says: positive while the ball's transition condition has not changed sign between
    /// `before` and `after` (a state evolved from it in its motion state), zero or negative
    /// exactly when `transition_crossed` returns `Some`; +inf for a ball with no transition.
    /// Continuous in the time between the two states, so that an engine can locate the
    /// transition inside a step by root refinement. The default, +1 or -1 from
    /// `transition_crossed`, is a step function: it can only be bisected.
    fn transition_margin(&self, before: &BallState, after: &BallState) -> f64 {
        if self.transition_crossed(before, after).is_some() {
            -1.0
        } else {
            1.0
        }
    }

    /// Applies a transition: sets the new motion state and makes velocities agree with it
    /// exactly (u = 0 when rolling starts, v = 0 when a ball stops, w = 0 when spinning stops).
    fn apply_transition(&self, s: &BallState, kind: EventKind) -> BallState;

    /// Ball-ball collision law (post-collision states). Both balls must be in contact.
    fn resolve_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState);

    /// Ball-cushion collision law. `normal` is the unit vector on the cloth from the ball's center
    /// toward the contact (into the cushion); `height` is the cushion's contact height (m).
    fn resolve_ball_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState;

    /// Ball-circular-cushion collision law (pooltool's `ball_circular_cushion`): the cushion
    /// law applied at the contact normal, the unit vector on the cloth from the ball's center
    /// toward the circle's center; `height` is the cushion's contact height (m), `arc_radius`
    /// the circle's radius (m). By default the linear cushion's law
    /// ([`Physics::resolve_ball_cushion`]).
    fn resolve_ball_circular_cushion(
        &self,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
    ) -> BallState {
        let _ = arc_radius;
        self.resolve_ball_cushion(s, normal, height)
    }

    /// Sustained ball-ball contact (a pair in contact closing slowly, pressed together or whose
    /// rebounds have died down; the engine decides when): the ball-ball law's sustained partner
    /// ([`crate::resolve::BallBallLaw::sustained`]). Never pulls a pair that is not closing;
    /// kinetic energy never rises.
    fn resolve_sustained_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState);

    /// [`Physics::resolve_ball_ball`] under the ball-order contract of
    /// [`crate::resolve::BallBallLaw`]: the ball that comes earlier in the set-up (the shot
    /// file or request) is the law's first argument. `a_first` says whether `a` is that ball;
    /// the result is `(a's state, b's state)` either way.
    fn resolve_ball_ball_in_setup_order(
        &self,
        a: &BallState,
        b: &BallState,
        a_first: bool,
    ) -> (BallState, BallState) {
        in_setup_order(a, b, a_first, |x, y| self.resolve_ball_ball(x, y))
    }

    /// [`Physics::resolve_sustained_ball_ball`] under the same contract as
    /// [`Physics::resolve_ball_ball_in_setup_order`].
    fn resolve_sustained_ball_ball_in_setup_order(
        &self,
        a: &BallState,
        b: &BallState,
        a_first: bool,
    ) -> (BallState, BallState) {
        in_setup_order(a, b, a_first, |x, y| self.resolve_sustained_ball_ball(x, y))
    }

    /// Sustained ball-cushion contact, as for [`Physics::resolve_sustained_ball_ball`].
    /// `normal` and `height` as in [`Physics::resolve_ball_cushion`].
    fn resolve_sustained_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState;

    /// Sustained ball-circular-cushion contact, as [`Physics::resolve_sustained_cushion`] for
    /// [`Physics::resolve_ball_circular_cushion`]'s law. By default the linear cushion's.
    fn resolve_sustained_circular_cushion(
        &self,
        s: &BallState,
        normal: Vec2,
        height: f64,
    ) -> BallState {
        self.resolve_sustained_cushion(s, normal, height)
    }

    /// Pocket capture: the ball leaves play.
    fn resolve_ball_pocket(&self, s: &BallState, pocket: &Pocket) -> BallState;

    /// Kinetic energy, translational plus rotational, 1/2 m v^2 + 1/2 I w^2 (J), with the
    /// ball's own m and I = 2/5 m R^2.
    fn kinetic_energy(&self, s: &BallState) -> f64 {
        let (m, r) = (self.mass(s), self.radius(s));
        let i = 0.4 * m * r * r;
        0.5 * m * s.v.norm_squared() + 0.5 * i * s.w.norm_squared()
    }
}

/// A physical model: ball parameters, the equations of motion and one law per event type.
///
/// Built by [`Model::new`], which resets the ball parameters nothing reads to the pool
/// defaults, so two models that compute the same things compare equal.
///
/// The ball parameters are the shot's set ([`Model::params`], set 0) and, only when some balls
/// differ from it, a table of per-ball sets ([`Model::ball_sets`], sets 1, 2, ...; added with
/// [`Model::add_ball_params`]) that a ball's [`BallState::set`] names. A shot of equal balls has
/// no table, and its arithmetic is the single set's, bit for bit.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    params: BallParams,
    balls: Vec<BallParams>,
    motion: Motion,
    resolver: Resolver,
}

impl Model {
    /// Names of the presets ([`Model::preset`]), as in a shot file's `model` key: `pool` and
    /// its synonym `seed` (seed 004's laws), `pooltool_default` (pooltool 0.6.0's default
    /// resolver, its behaviour), `corrected` (the same with our corrections: Coulomb's friction
    /// impulse, the cushions' normal at the contact, the circular cushions' contact normal),
    /// `mathavan` (Mathavan's laws, the cloth's friction opposing the slip), `ideal`, `fastfiz`
    /// (FastFiz's equations of motion and laws, [`Model::fastfiz`]).
    pub const PRESETS: [&'static str; 7] = [
        "pool",
        "seed",
        "pooltool_default",
        "corrected",
        "mathavan",
        "ideal",
        "fastfiz",
    ];

    /// A model from its parts. Parameters that neither the motion nor any law reads
    /// ([`Model::ball_params`]) are set to [`BallParams::pool`]'s values.
    pub fn new(params: BallParams, motion: Motion, resolver: Resolver) -> Self {
        let mut m = Model {
            params,
            balls: Vec::new(),
            motion,
            resolver,
        };
        let used = m.ball_params();
        let pool = BallParams::pool();
        for name in BallParams::NAMES {
            if !used.contains(&name) {
                if let (Some(slot), Some(default)) = (m.params.field_mut(name), pool.field(name)) {
                    *slot = default;
                }
            }
        }
        m
    }

    /// The `pool` preset: seed 004 (Kiefl, "The physics of pool"), as built by pooltool 0.6.0
    /// with its seed laws: cloth motion, `frictionless_elastic` ball–ball, `han_2005` cushions.
    pub fn pool(params: BallParams) -> Self {
        Self::new(params, Motion::Cloth, Resolver::seed())
    }

    /// The `ideal` preset: seeds 002/001, frictionless constant-velocity balls of radius
    /// `radius` (m) and mass `mass` (kg), elastic collisions, mirror cushions.
    pub fn ideal(radius: f64, mass: f64) -> Self {
        let params = BallParams {
            radius,
            m: mass,
            ..BallParams::pool()
        };
        Self::new(params, Motion::Frictionless, Resolver::mirror())
    }

    /// The `pooltool_default` preset: cloth motion with pooltool 0.6.0's default laws
    /// ([`Resolver::pooltool_default`]: `frictional_inelastic` ball–ball, `stronge_compliant`
    /// cushions).
    pub fn pooltool_default(params: BallParams) -> Self {
        Self::new(params, Motion::Cloth, Resolver::pooltool_default())
    }

    /// The `fastfiz` preset: FastFiz's equations of motion ([`Motion::FastFiz`]) and laws
    /// ([`Resolver::fastfiz`]) with these ball parameters ([`BallParams::fastfiz`] are
    /// FastFiz's own); docs/fastfiz.md.
    pub fn fastfiz(params: BallParams) -> Self {
        Self::new(params, Motion::FastFiz, Resolver::fastfiz())
    }

    /// A preset by name ([`Model::PRESETS`]) with these ball parameters; `None` for an unknown
    /// name.
    pub fn preset(name: &str, params: BallParams) -> Option<Self> {
        match name {
            "pool" | "seed" => Some(Self::pool(params)),
            "pooltool_default" => Some(Self::pooltool_default(params)),
            "corrected" => Some(Self::new(params, Motion::Cloth, Resolver::corrected())),
            "mathavan" => Some(Self::new(params, Motion::Cloth, Resolver::mathavan())),
            "ideal" => Some(Self::ideal(params.radius, params.m)),
            "fastfiz" => Some(Self::fastfiz(params)),
            _ => None,
        }
    }

    /// The preset whose motion and laws this model has, if any.
    pub fn preset_name(&self) -> Option<&'static str> {
        Self::PRESETS.into_iter().find(|name| {
            Self::preset(name, self.params)
                .is_some_and(|p| p.motion == self.motion && p.resolver == self.resolver)
        })
    }

    /// The shot's ball parameters (set 0: every ball's unless it has its own).
    pub fn params(&self) -> &BallParams {
        &self.params
    }

    /// The parameters of the ball in state `s` (its [`BallState::set`]; the shot's for a set
    /// this model does not have, which [`Model::set_params`] tells apart).
    #[inline]
    pub fn params_of(&self, s: &BallState) -> &BallParams {
        // A model of equal balls answers without reading the state: the engines ask per ball
        // per step, and the test on the model hoists out of their loops.
        if self.balls.is_empty() {
            return &self.params;
        }
        self.set_params(s.set).unwrap_or(&self.params)
    }

    /// Parameter set `set` (0: the shot's), or `None` if the model has no such set.
    #[inline]
    pub fn set_params(&self, set: u16) -> Option<&BallParams> {
        match set {
            0 => Some(&self.params),
            k => self.balls.get(usize::from(k) - 1),
        }
    }

    /// The per-ball parameter sets, sets 1, 2, ... in order (empty when every ball has the
    /// shot's).
    pub fn ball_sets(&self) -> &[BallParams] {
        &self.balls
    }

    /// Every parameter set, the shot's first: the radii, masses ... of all the balls there
    /// can be.
    pub fn all_params(&self) -> impl Iterator<Item = &BallParams> {
        std::iter::once(&self.params).chain(&self.balls)
    }

    /// The set for a ball with parameters `p`: its id for [`BallState::set`]. The fields
    /// neither the motion nor a law reads, and `g` (the table's gravity, every ball's), are
    /// taken from the shot's set ([`Model::params`]), so a ball whose read parameters are the
    /// shot's gets 0 and equal balls share one set.
    ///
    /// # Errors
    /// More than 65 535 distinct per-ball sets.
    pub fn add_ball_params(&mut self, p: &BallParams) -> Result<u16, String> {
        let mut own = self.params;
        for name in self.ball_params() {
            if name == "g" {
                continue;
            }
            if let (Some(slot), Some(x)) = (own.field_mut(name), p.field(name)) {
                *slot = x;
            }
        }
        if own == self.params {
            return Ok(0);
        }
        if let Some(k) = self.balls.iter().position(|q| *q == own) {
            return Ok(k as u16 + 1);
        }
        let id = u16::try_from(self.balls.len() + 1)
            .map_err(|_| format!("more than {} different ball parameter sets", u16::MAX))?;
        self.balls.push(own);
        Ok(id)
    }

    /// The smallest and the largest ball radius of every set (m).
    pub fn radius_range(&self) -> (f64, f64) {
        self.all_params()
            .fold((f64::INFINITY, 0.0f64), |(lo, hi), p| {
                (lo.min(p.radius), hi.max(p.radius))
            })
    }

    /// Equations of motion.
    pub fn motion(&self) -> Motion {
        self.motion
    }

    /// The law of every event type.
    pub fn resolver(&self) -> &Resolver {
        &self.resolver
    }

    /// The [`BallParams`] fields (as named in shot files) the motion or a law reads, in
    /// [`BallParams::NAMES`] order.
    pub fn ball_params(&self) -> Vec<&'static str> {
        let laws = self.resolver.ball_params();
        BallParams::NAMES
            .into_iter()
            .filter(|n| self.motion.ball_params().contains(n) || laws.contains(n))
            .collect()
    }

    /// Whether the cushion laws can resolve contacts at `height` (m) for every ball of this
    /// model (every parameter set's radius).
    ///
    /// # Errors
    /// Why not, naming the law, the range and the radius.
    pub fn check_cushion_height(&self, height: f64) -> Result<(), String> {
        for p in self.all_params() {
            let r = p.radius;
            let linear = self.resolver.ball_linear_cushion.check_height(height, r);
            linear
                .and_then(|()| self.resolver.ball_circular_cushion.check_height(height, r))
                .map_err(|why| format!("{why}; R = {r} m"))?;
        }
        Ok(())
    }

    /// The ball `s` after the cue's stroke `cue` ([`Resolver::stick_ball`]'s law, with the
    /// struck ball's parameters), settled.
    pub fn strike(&self, s: &BallState, cue: &crate::resolve::Cue) -> BallState {
        let new = self.resolver.stick_ball.strike(self.params_of(s), s, cue);
        self.settle(s, new)
    }

    /// The ball `s` with a law's new velocities, settled with its own parameters.
    #[inline]
    fn settle(&self, s: &BallState, (v, w): (Vec3, Vec3)) -> BallState {
        self.motion.settle(self.params_of(s), s, v, w)
    }

    /// A cushion `law` (the linear or the circular one) at `normal` and `height`, settled.
    #[inline]
    fn cushion(&self, law: &BallCushionModel, s: &BallState, normal: Vec2, h: f64) -> BallState {
        let out = self.settle(s, law.resolve(self.params_of(s), s, normal, h));
        BallState {
            r: crate::resolve::spacer::kissed_at_line(s, normal, law.spacer()),
            ..out
        }
    }

    /// A cushion `law`'s sustained partner, settled; the state unchanged if it has none.
    fn sustained_cushion(
        &self,
        law: &BallCushionModel,
        s: &BallState,
        normal: Vec2,
        h: f64,
    ) -> BallState {
        match law.sustained(self.params_of(s), self.motion, s, normal, h) {
            Some(new) => self.settle(s, new),
            None => *s,
        }
    }
}

impl Physics for Model {
    #[inline]
    fn radius(&self, s: &BallState) -> f64 {
        self.params_of(s).radius
    }

    fn mass(&self, s: &BallState) -> f64 {
        self.params_of(s).m
    }

    /// [`crate::contact_distance`] of the balls' radii; 2R without looking at the balls when
    /// they all have the shot's parameters (the engines ask for every pair they predict).
    #[inline]
    fn contact_distance(&self, a: &BallState, b: &BallState) -> f64 {
        if self.balls.is_empty() {
            let r = self.params.radius;
            return r + r;
        }
        crate::contact_distance(self.radius(a), self.radius(b))
    }

    fn infer_motion(&self, s: &BallState) -> crate::MotionState {
        self.motion.infer_motion(self.params_of(s), &s.v, &s.w)
    }

    fn trajectory(&self, s: &BallState) -> Trajectory {
        self.motion.trajectory(self.params_of(s), s)
    }

    fn next_transition(&self, s: &BallState) -> Option<Transition> {
        self.motion.next_transition(self.params_of(s), s)
    }

    #[inline]
    fn evolve(&self, s: &BallState, t: f64) -> BallState {
        self.motion.evolve(self.params_of(s), s, t)
    }

    #[inline]
    fn evolve_all(&self, states: &[BallState], t: f64, out: &mut [BallState]) {
        if self.balls.is_empty() {
            self.motion.evolve_all(&self.params, states, t, out)
        } else {
            for (s, o) in states.iter().zip(out) {
                if s.motion.is_moving() {
                    *o = self.evolve(s, t);
                }
            }
        }
    }

    fn accelerations(&self, s: &BallState) -> (Vec3, Vec3) {
        self.motion.accelerations(self.params_of(s), s)
    }

    fn spin_decay_stops(&self, s: &BallState) -> bool {
        self.motion.spin_decay_stops(s)
    }

    #[inline]
    fn transition_crossed(&self, before: &BallState, after: &BallState) -> Option<EventKind> {
        (self.motion).transition_crossed(self.params_of(before), before, after)
    }

    fn transition_margin(&self, before: &BallState, after: &BallState) -> f64 {
        self.motion
            .transition_margin(self.params_of(before), before, after)
    }

    fn apply_transition(&self, s: &BallState, kind: EventKind) -> BallState {
        if !self.motion.has_friction() {
            // Frictionless balls have no transitions: nothing to apply.
            return *s;
        }
        self.resolver.transition.apply(self.params_of(s), s, kind)
    }

    fn resolve_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        let (pa, pb) = (self.params_of(a), self.params_of(b));
        let law = &self.resolver.ball_ball;
        let touch = crate::contact_distance(pa.radius, pb.radius);
        let [a, b] = crate::resolve::spacer::kissed_pair(a, b, touch, law.spacer());
        let [na, nb] = law.resolve(pa, &a, pb, &b);
        (self.settle(&a, na), self.settle(&b, nb))
    }

    fn resolve_ball_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState {
        self.cushion(&self.resolver.ball_linear_cushion, s, normal, height)
    }

    fn resolve_sustained_ball_ball(&self, a: &BallState, b: &BallState) -> (BallState, BallState) {
        let (pa, pb) = (self.params_of(a), self.params_of(b));
        match (self.resolver.ball_ball).sustained(self.motion, pa, a, pb, b) {
            Some([na, nb]) => (self.settle(a, na), self.settle(b, nb)),
            None => (*a, *b),
        }
    }

    fn resolve_sustained_cushion(&self, s: &BallState, normal: Vec2, height: f64) -> BallState {
        self.sustained_cushion(&self.resolver.ball_linear_cushion, s, normal, height)
    }

    fn resolve_ball_circular_cushion(
        &self,
        s: &BallState,
        normal: Vec2,
        height: f64,
        arc_radius: f64,
    ) -> BallState {
        let law = &self.resolver.ball_circular_cushion;
        let p = self.params_of(s);
        let out = self.settle(s, law.resolve_circular(p, s, normal, height, arc_radius));
        let touch = p.radius + arc_radius;
        BallState {
            r: crate::resolve::spacer::kissed_at_circle(s, normal, touch, law.spacer()),
            ..out
        }
    }

    fn resolve_sustained_circular_cushion(
        &self,
        s: &BallState,
        normal: Vec2,
        height: f64,
    ) -> BallState {
        self.sustained_cushion(&self.resolver.ball_circular_cushion, s, normal, height)
    }

    fn resolve_ball_pocket(&self, s: &BallState, pocket: &Pocket) -> BallState {
        self.resolver
            .ball_pocket
            .resolve(self.params_of(s), s, pocket)
    }
}
