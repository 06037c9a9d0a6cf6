//! rapier as an engine: the engine a game developer would pick instead of a billiards
//! simulator. Balls are rigid discs (`rapier2d-f64` 0.36: rapier2d's f64 build, so that its
//! numbers are not f32 rounding on a 2 m table) on the table's segments and fixed discs for its
//! circular cushions (rounded jaws), with continuous
//! collision detection on; restitution and friction come from the shot's laws; pockets are
//! ours (a center inside a pocket's circle at the end of a step).
//!
//! - The `ideal` model (frictionless balls, elastic collisions, mirror cushions) runs on rapier
//!   directly: restitution 1, no friction, no damping, no gravity in the table's plane.
//! - The pool model (seed 004's cloth) adds cloth friction as a per-step force: each ball keeps
//!   a 3D spin and a motion state beside rapier ([`cloth`]); before each step the force m a of
//!   `Physics::accelerations` (sliding friction against the contact slip, rolling resistance)
//!   is applied to the body, and the spin is advanced by the torque's `dw/dt`; after it, the
//!   transition rules of the shared physics settle the state (sliding -> rolling, stops).
//!
//! What it cannot represent: rapier's 2D bodies spin only about the vertical axis, so a
//! collision never changes the topspin, draw or side spin we carry (a Han 2005 cushion does;
//! spin transfer between balls, throw and squirt are absent), cushion friction acts on the
//! ball's center only, and restitution is rapier's velocity-level contact model (with its
//! restitution threshold and soft-contact penetration recovery), not an instantaneous law;
//! contacts with two segments at once are two events. A collision is reported at the end of the
//! step whose solve first gave the contact a force (rapier exposes no time of impact; its
//! "contact started" events come when the contact enters its prediction distance, before the
//! touch), transitions and pockets at the end of the step that crossed them. rapier's length
//! unit is set to a ball's diameter, the typical object size its tolerances scale with. Balls
//! with parameters of their own (per-ball m, R or coefficients) it does not run: its discs of
//! radii R_a, R_b touch at R_a + R_b on the plane (balls on the cloth touch at 2 sqrt(R_a R_b))
//! and its coefficients are the shot's ([`Engine::try_run`] says unsupported).
#![warn(missing_docs)]

mod cloth;

use std::sync::mpsc;

use pool_physics::{BallState, EventKind, MotionState, Physics, Vec3};
use pool_sim::{Agents, Engine, EngineError, Event, Outcome, Setup, Snapshot, Termination};
use rapier2d_f64::prelude::*;

pool_sim::counters! {
    /// What the rapier engine counts (rapier's own work is not counted; its cost is wall time).
    pub enum RapierOp, RapierOps {
        /// One rapier step.
        Step = "step",
        /// One ball advanced over one step (a body in rapier's step).
        BodyStep = "body_step",
        /// One contact force rapier reported (every step a contact pushes).
        ContactEvent = "contact_event",
        /// One event resolved outside rapier (a transition or pocket capture).
        Resolve = "resolve",
    }
}

/// The time steps (s) the engine accepts, as the discrete integrator's.
pub const DT_MIN: f64 = 1e-7;
/// See [`DT_MIN`].
pub const DT_MAX: f64 = 1.0;

/// The rapier engine.
#[derive(Clone, Debug, PartialEq)]
pub struct RapierEngine {
    /// Time step (s).
    pub dt: f64,
    /// Longest simulated time (s) without `t_end` before stopping with `Budget`.
    pub max_time: f64,
    /// Record snapshots about every this many seconds (and at steps with events).
    pub sample_interval: Option<f64>,
    /// Stop at the end of the step in which the log reached this many events.
    pub max_events: Option<usize>,
}

impl RapierEngine {
    /// An engine with step `dt` (s); 120 s budget.
    ///
    /// # Errors
    /// `dt` outside [[`DT_MIN`], [`DT_MAX`]].
    pub fn new(dt: f64) -> Result<Self, String> {
        if !(DT_MIN..=DT_MAX).contains(&dt) {
            return Err(format!("dt = {dt} s: must be in [{DT_MIN:e}, {DT_MAX}] s"));
        }
        Ok(RapierEngine {
            dt,
            max_time: 120.0,
            sample_interval: None,
            max_events: None,
        })
    }

    /// Builder: snapshots about every `interval` seconds.
    pub fn with_sampling(mut self, interval: Option<f64>) -> Self {
        self.sample_interval = interval;
        self
    }

    /// Builder: stop after the step that reached `limit` events.
    pub fn with_max_events(mut self, limit: Option<usize>) -> Self {
        self.max_events = limit;
        self
    }
}

/// Restitution and friction of balls and cushions from the shot's laws: each law's
/// coefficients where it has them (`e_b`/`mu_b` for frictional ball-ball laws, `e_c`/`f_c`
/// for the cushion laws with friction), 1 and 0 for the frictionless ones. Rapier combines
/// restitutions by the smaller (balls are 1 unless their law says otherwise) and frictions by
/// the larger, so a ball-cushion contact gets the cushion's values.
fn coefficients(setup: &Setup) -> ((f64, f64), (f64, f64)) {
    let p = setup.physics.params();
    let laws = setup.physics.resolver().specs();
    let law = |event_type: &str| {
        laws.iter()
            .find(|(k, _)| *k == event_type)
            .map_or(String::new(), |(_, s)| s.model.clone())
    };
    let ball = match law("ball_ball").as_str() {
        "frictionless_elastic" => (1.0, 0.0),
        _ => (p.e_b, p.mu_b),
    };
    let cushion = match law("ball_linear_cushion").as_str() {
        "unrealistic" => {
            let restitution = laws
                .iter()
                .find(|(k, _)| *k == "ball_linear_cushion")
                .and_then(|(_, s)| s.get("restitution"))
                .is_some_and(|v| matches!(v, pool_physics::resolve::Param::Bool(true)));
            (if restitution { p.e_c } else { 1.0 }, 0.0)
        }
        _ => (p.e_c, p.f_c),
    };
    (ball, cushion)
}

/// What a collider is.
#[derive(Clone, Copy, Debug)]
enum Part {
    /// A ball (set-up index).
    Ball(usize),
    /// A straight cushion segment (table index).
    Segment(usize),
    /// A circular cushion (table index), a fixed disc.
    Arc(usize),
}

/// One run's world: rapier's, and which collider is which ball or cushion.
struct World {
    rapier: PhysicsWorld,
    bodies: Vec<RigidBodyHandle>,
    colliders: std::collections::HashMap<ColliderHandle, Part>,
}

fn vector(x: f64, y: f64) -> Vector {
    Vector::new(x, y)
}

impl World {
    fn new(setup: &Setup, states: &[BallState], dt: f64) -> Self {
        let mut rapier = PhysicsWorld::new();
        let radius = setup.physics.params().radius;
        rapier.gravity = vector(0.0, 0.0);
        rapier.integration_parameters.dt = dt;
        // rapier's tolerances (2 cm of contact prediction, 5 mm of slop) scale with its
        // length unit, which its documentation sets to the size of a typical object: a ball.
        rapier.integration_parameters.length_unit = 2.0 * radius;
        let ((e_ball, mu_ball), (e_cushion, mu_cushion)) = coefficients(setup);
        let mut colliders = std::collections::HashMap::new();
        let mut bodies = Vec::with_capacity(states.len());
        for (i, s) in states.iter().enumerate() {
            let body = RigidBodyBuilder::dynamic()
                .translation(vector(s.r.x, s.r.y))
                .linvel(vector(s.v.x, s.v.y))
                .ccd_enabled(true)
                .lock_rotations()
                .can_sleep(false)
                .enabled(s.motion != MotionState::Pocketed)
                .build();
            let collider = ColliderBuilder::ball(radius)
                .mass(setup.physics.params().m)
                .restitution(e_ball)
                .restitution_combine_rule(CoefficientCombineRule::Min)
                .friction(mu_ball)
                .friction_combine_rule(CoefficientCombineRule::Max)
                .active_events(ActiveEvents::COLLISION_EVENTS | ActiveEvents::CONTACT_FORCE_EVENTS)
                .contact_force_event_threshold(0.0)
                .build();
            let (b, c) = rapier.insert(body, collider);
            bodies.push(b);
            colliders.insert(c, Part::Ball(i));
        }
        let cushion = |builder: ColliderBuilder| {
            builder
                .restitution(e_cushion)
                .restitution_combine_rule(CoefficientCombineRule::Min)
                .friction(mu_cushion)
                .friction_combine_rule(CoefficientCombineRule::Max)
                .active_events(ActiveEvents::COLLISION_EVENTS | ActiveEvents::CONTACT_FORCE_EVENTS)
                .contact_force_event_threshold(0.0)
                .build()
        };
        for (k, seg) in setup.table.segments().iter().enumerate() {
            let collider = cushion(ColliderBuilder::segment(
                vector(seg.start.x, seg.start.y),
                vector(seg.end.x, seg.end.y),
            ));
            let c = rapier.colliders.insert(collider);
            colliders.insert(c, Part::Segment(k));
        }
        // A rounded jaw touches a ball where their centers are R + r apart: a fixed disc of
        // radius r.
        for (j, arc) in setup.table.circular_segments().iter().enumerate() {
            let collider = cushion(
                ColliderBuilder::ball(arc.radius).translation(vector(arc.center.x, arc.center.y)),
            );
            let c = rapier.colliders.insert(collider);
            colliders.insert(c, Part::Arc(j));
        }
        World {
            rapier,
            bodies,
            colliders,
        }
    }

    /// The event of a contact start between two colliders, if it is one we log.
    fn contact(&self, a: ColliderHandle, b: ColliderHandle) -> Option<(EventKind, Agents)> {
        match (self.colliders.get(&a)?, self.colliders.get(&b)?) {
            (Part::Ball(i), Part::Ball(j)) => Some((EventKind::BallBall, Agents::pair(*i, *j))),
            (Part::Ball(ball), Part::Segment(cushion))
            | (Part::Segment(cushion), Part::Ball(ball)) => Some((
                EventKind::BallLinearCushion,
                Agents::BallCushion {
                    ball: *ball,
                    cushion: *cushion,
                },
            )),
            (Part::Ball(ball), Part::Arc(cushion)) | (Part::Arc(cushion), Part::Ball(ball)) => {
                Some((
                    EventKind::BallCircularCushion,
                    Agents::BallCircularCushion {
                        ball: *ball,
                        cushion: *cushion,
                    },
                ))
            }
            _ => None,
        }
    }
}

/// Why rapier does not run a set-up whose balls have parameters of their own: its balls are
/// discs on one plane (two of radii R_a, R_b touch at R_a + R_b, not at 2 sqrt(R_a R_b) as
/// balls on the cloth do), and its coefficients are the shot's.
fn unequal_balls() -> EngineError {
    EngineError::unsupported(
        "balls with parameters of their own (per-ball m, R or coefficients): rapier's discs \
         take the shot's one set",
    )
}

impl Engine for RapierEngine {
    /// [`Engine::run`], refusing balls with parameters of their own ([`unequal_balls`]).
    fn try_run(&self, setup: &Setup) -> Result<Outcome, EngineError> {
        if !setup.physics.ball_sets().is_empty() {
            return Err(unequal_balls());
        }
        Ok(self.run(setup))
    }

    /// The run; a set-up whose balls have parameters of their own ends at once as
    /// [`Termination::Failed`] ([`Engine::try_run`] says why).
    fn run(&self, setup: &Setup) -> Outcome {
        let physics = &setup.physics;
        if !physics.ball_sets().is_empty() {
            return Outcome::failed(setup);
        }
        // Every ball has the shot's parameters.
        let radius = physics.params().radius;
        let dt = self.dt;
        let (mut states, strike) = setup.initial_states();
        let mut world = World::new(setup, &states, dt);
        let mut ops = RapierOps::default();
        let mut events: Vec<Event> = strike.into_iter().collect();
        let mut snapshots = Vec::new();
        let sample_every = self
            .sample_interval
            .map(|s| ((s / dt).round() as u64).max(1));
        if sample_every.is_some() {
            snapshots.push(Snapshot {
                time: 0.0,
                states: states.clone(),
            });
        }
        let (send, contacts) = mpsc::channel();
        let (force_send, forces) = mpsc::channel();
        let (tear_send, _tears) = mpsc::channel();
        let collector = ChannelEventCollector::new(send, force_send, tear_send);
        let t_limit = setup.t_end.unwrap_or(self.max_time);
        let max_steps = (t_limit / dt).ceil() as u64;
        let (mut step, mut t) = (0u64, 0.0);
        let mut step_events: Vec<(EventKind, Agents)> = Vec::new();
        // Pairs in contact that have pushed already: a contact is one event, logged at the
        // step whose solve first gave it a force (not when rapier starts predicting it).
        let mut pushing: Vec<((u32, u32), (u32, u32))> = Vec::new();
        let key = |a: ColliderHandle, b: ColliderHandle| {
            let (x, y) = (a.into_raw_parts(), b.into_raw_parts());
            if x <= y {
                (x, y)
            } else {
                (y, x)
            }
        };
        let termination = loop {
            if !states.iter().any(|s| s.motion.is_moving()) {
                break Termination::AtRest;
            }
            if !states.iter().all(BallState::is_finite) {
                break Termination::NumericalError;
            }
            if let Some(stop) =
                pool_sim::out_of_steps(setup, step, max_steps, events.len(), self.max_events)
            {
                break stop;
            }
            step += 1;
            t = step as f64 * dt;
            ops.bump(RapierOp::Step);
            // Cloth friction for this step, from the states at its start.
            let before = states.clone();
            let planned = cloth::forces(physics, &before, dt);
            for (k, s) in before.iter().enumerate() {
                if s.motion == MotionState::Pocketed {
                    continue;
                }
                ops.bump(RapierOp::BodyStep);
                if let Some(rb) = world.rapier.bodies.get_mut(world.bodies[k]) {
                    rb.reset_forces(false);
                    let f = planned[k].force;
                    if f != Vec3::zeros() {
                        rb.add_force(vector(f.x, f.y), true);
                    }
                }
            }
            world.rapier.step_with_events(&(), &collector);
            step_events.clear();
            while let Ok(c) = contacts.try_recv() {
                if let CollisionEvent::Stopped(a, b, _) = c {
                    pushing.retain(|&p| p != key(a, b));
                }
            }
            while let Ok(f) = forces.try_recv() {
                ops.bump(RapierOp::ContactEvent);
                let pair = key(f.collider1, f.collider2);
                if f.total_force_magnitude > 0.0 && !pushing.contains(&pair) {
                    pushing.push(pair);
                    if let Some(e) = world.contact(f.collider1, f.collider2) {
                        step_events.push(e);
                    }
                }
            }
            // The balls after the step: rapier's positions and velocities, our spins and
            // motion states, then transitions and pockets.
            for (k, s) in states.iter_mut().enumerate() {
                if s.motion == MotionState::Pocketed {
                    continue;
                }
                let Some(rb) = world.rapier.bodies.get(world.bodies[k]) else {
                    continue;
                };
                let (p, v) = (rb.translation(), rb.linvel());
                let moved = BallState {
                    r: Vec3::new(p.x, p.y, s.r.z),
                    v: Vec3::new(v.x, v.y, 0.0),
                    w: planned[k].w,
                    motion: s.motion,
                    set: s.set,
                };
                let (next, transition) =
                    cloth::settle(physics, &before[k], &moved, planned[k].v, radius);
                if let Some(kind) = transition {
                    ops.bump(RapierOp::Resolve);
                    step_events.push((kind, Agents::Ball { ball: k }));
                }
                *s = next;
                if next.v.xy() != moved.v.xy() {
                    if let Some(rb) = world.rapier.bodies.get_mut(world.bodies[k]) {
                        rb.set_linvel(vector(next.v.x, next.v.y), true);
                    }
                }
                if !s.motion.is_translating() {
                    continue;
                }
                let (from, center) = (before[k].r.xy(), s.r.xy());
                if let Some(q) =
                    (setup.table.pocket_zones().iter()).position(|z| z.captures(from, center))
                {
                    ops.bump(RapierOp::Resolve);
                    *s = physics.resolve_ball_pocket(s, &setup.table.pockets[q]);
                    step_events.push((
                        EventKind::BallPocket,
                        Agents::BallPocket { ball: k, pocket: q },
                    ));
                    if let Some(rb) = world.rapier.bodies.get_mut(world.bodies[k]) {
                        rb.set_enabled(false);
                    }
                }
            }
            step_events.sort();
            step_events.dedup();
            let had_events = !step_events.is_empty();
            events.extend(step_events.iter().map(|&(kind, agents)| Event {
                time: t,
                kind,
                agents,
            }));
            if let Some(every) = sample_every {
                if step.is_multiple_of(every) || had_events {
                    snapshots.push(Snapshot {
                        time: t,
                        states: states.clone(),
                    });
                }
            }
        };
        if sample_every.is_some() && snapshots.last().is_none_or(|s| s.time < t) {
            snapshots.push(Snapshot {
                time: t,
                states: states.clone(),
            });
        }
        Outcome {
            events,
            final_states: states,
            end_time: t,
            termination,
            ops: ops.counts(),
            snapshots,
            engine_s: None,
        }
    }
}
