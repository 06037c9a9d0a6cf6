//! The event loop.

use pool_physics::{BallState, EventKind, Model, Physics, Trajectory};
use pool_roots::RootSolver;
use pool_sim::{Agents, Engine, Event, Outcome, Setup, Snapshot, Termination};

use crate::ops::{EventOp, EventOps};

use crate::cluster::Cluster;
use crate::cull::{widened, Aabb};
use crate::predict::{Contact, Predictor, CONTACT_SLOP};
use crate::queue::{Entry, Queue};

/// Closing speed (m/s) at or below which a contact is *sustained* (at least; a pressed contact
/// may be sustained faster, see [`sustained_speed`]): resolved, with the whole cluster of balls
/// touching it, by the limit of its damped rebounds ([`Physics::resolve_sustained_ball_ball`],
/// [`Physics::resolve_sustained_cushion`]) instead of one more rebound, with the presses'
/// overlaps (at most about [`crate::CONTACT_SLOP`]) closed. 1 µm/s moves a ball 1 µm in a
/// second: far below anything a table can show.
pub const SUSTAINED_SPEED: f64 = 1e-6;

/// The closing speed (m/s) at or below which a contact whose relative acceleration along the
/// normal is `pressing` (m/s², positive when friction drives the two together) is sustained:
/// [`SUSTAINED_SPEED`], or twice the speed a press reaches over [`CONTACT_SLOP`] from rest,
/// 2 sqrt(2 · pressing · slop), whichever is larger.
///
/// Why: a pressed contact is predicted to collide when friction has closed it by the slop
/// (`Predictor::contact_entry`), so it arrives with at most sqrt(still² + 2 · pressing · slop),
/// where the predictor's `still` (the approach it takes for none) is sqrt(2 · pressing · slop):
/// under twice that, up to 6e-5 m/s between two sliding balls. Resolving that arrival as a rebound starts a fresh chain of
/// rebounds and transitions (seven events a cycle in `pushed_pair_ratchet_9ball_51`); it is a
/// press, and the sustained law is its limit. A real collision that slow is indistinguishable
/// from a press at the scale of the slop.
pub fn sustained_speed(pressing: f64) -> f64 {
    SUSTAINED_SPEED.max(2.0 * (2.0 * pressing.max(0.0) * CONTACT_SLOP).sqrt())
}

/// Slack (m) on the boxes `predict_ball` skips cushion and pocket predictions with: a million
/// times the rounding of positions on a table.
const BOX_SLACK: f64 = 1e-9;

/// The default event budget ([`EventEngine::max_events`]): a run needing more stops with
/// [`Termination::Budget`].
pub const MAX_EVENTS: usize = 100_000;

/// The event-based engine. Generic over nothing: the root solver is chosen at run time so that
/// backends can be compared on identical shots.
pub struct EventEngine {
    solver: Box<dyn RootSolver>,
    /// Stop (with [`Termination::Budget`]) after this many events.
    pub max_events: usize,
    /// Record every ball's state after every event (for drawing paths).
    pub record_snapshots: bool,
    /// Skip root solves that conservative tests prove cannot give the next event
    /// ([`crate::cull`]; default on). The event log does not change for the default root
    /// finder; turn it off to judge another backend's answers on their own.
    pub culling: bool,
}

impl Default for EventEngine {
    fn default() -> Self {
        Self::new(Box::new(pool_roots::default_solver()))
    }
}

impl EventEngine {
    /// An engine using the given root solver, a budget of [`MAX_EVENTS`] events, no snapshots.
    pub fn new(solver: Box<dyn RootSolver>) -> Self {
        EventEngine {
            solver,
            max_events: MAX_EVENTS,
            record_snapshots: false,
            culling: true,
        }
    }

    /// Builder: record snapshots after every event.
    pub fn with_snapshots(mut self, on: bool) -> Self {
        self.record_snapshots = on;
        self
    }

    /// Builder: culling on or off (see [`EventEngine::culling`]).
    pub fn with_culling(mut self, on: bool) -> Self {
        self.culling = on;
        self
    }
}

impl Engine for EventEngine {
    fn run(&self, setup: &Setup) -> Outcome {
        Loop::new(self, setup).run()
    }
}

/// A cached candidate: absolute time, kind and the other agent.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    time: f64,
    kind: EventKind,
    other: usize,
    contact: Option<Contact>,
}

impl Candidate {
    const NONE: Candidate = Candidate {
        time: f64::INFINITY,
        kind: EventKind::BallBall,
        other: usize::MAX,
        contact: None,
    };
}

struct Loop<'a> {
    engine: &'a EventEngine,
    setup: &'a Setup,
    physics: &'a Model,
    predictor: Predictor<'a>,
    t: f64,
    /// Each ball's state when it last changed, and that time.
    reference: Vec<BallState>,
    t_reference: Vec<f64>,
    /// Each ball's state at `t` when `now_epoch` equals `epoch`; otherwise stale, and
    /// [`Loop::current`] evolves it from the reference when asked. Evolving on demand gives the
    /// same bits as evolving every ball at every event (the state at `t` is a function of the
    /// reference and `t` alone) and skips the balls no prediction looks at.
    now: Vec<BallState>,
    now_epoch: Vec<u64>,
    transition: Vec<Candidate>,
    cushion: Vec<Candidate>,
    pocket: Vec<Candidate>,
    /// Every finite candidate, earliest first in (time, kind, agents' ids) order; an entry is
    /// stale once one of its balls has changed since it was pushed (`generation`).
    queue: Queue,
    /// How many times each ball has changed: stamps the queue's entries.
    generation: Vec<u32>,
    /// `Physics::trajectory` of each ball's state `now`, valid when `trajectory_epoch` equals
    /// `epoch` (bumped whenever `now` moves on).
    trajectory: Vec<Trajectory>,
    trajectory_epoch: Vec<u64>,
    epoch: u64,
    /// `Physics::trajectory` of each ball's `reference` state: shifted to `t`, a cheap stand-in
    /// for the exact trajectory now, good enough to cull a pair (`pair_clear`).
    reference_trajectory: Vec<Trajectory>,
    /// Where each ball's center can be from its last change until its earliest own candidate,
    /// grown by R + `BOX_SLACK` (`swept_box`); `None` if unbounded.
    swept: Vec<Option<Aabb>>,
    ops: EventOps,
    /// Where a ball's center can be when it touches each cushion segment's face, end point
    /// (`PreparedTable::end_points`), circular cushion and pocket: the feature's box grown by
    /// the contact distance and 1 nm (`predict_ball`).
    face_box: Vec<Aabb>,
    corner_box: Vec<Aabb>,
    arc_box: Vec<Aabb>,
    pocket_box: Vec<Aabb>,
    /// Each ball's position in the sorted list of ids (tie-breaking independent of file order).
    rank: Vec<usize>,
    /// Buffers of the sustained-contact cluster solver.
    cluster: Cluster,
    /// Set when a prediction met a non-finite state; the loop stops at the next iteration.
    failed: bool,
    events: Vec<Event>,
    snapshots: Vec<Snapshot>,
}

impl<'a> Loop<'a> {
    fn new(engine: &'a EventEngine, setup: &'a Setup) -> Self {
        let n = setup.balls.len();
        let (states, strike) = setup.initial_states();
        let reference_trajectory = states.iter().map(|s| setup.physics.trajectory(s)).collect();
        // Every ball's reach: the largest radius.
        let reach = setup.physics.radius_range().1 + BOX_SLACK;
        let table = &setup.table;
        Loop {
            engine,
            setup,
            physics: &setup.physics,
            predictor: {
                let mut p = Predictor::new(&setup.physics, engine.solver.as_ref());
                p.cull = engine.culling;
                p
            },
            t: 0.0,
            reference: states.clone(),
            t_reference: vec![0.0; n],
            now: states,
            now_epoch: vec![0; n],
            transition: vec![Candidate::NONE; n],
            cushion: vec![Candidate::NONE; n],
            pocket: vec![Candidate::NONE; n],
            queue: Queue::with_balls(n),
            generation: vec![0; n],
            trajectory: vec![Trajectory::at_rest(pool_physics::Vec3::zeros()); n],
            trajectory_epoch: vec![u64::MAX; n],
            epoch: 0,
            reference_trajectory,
            swept: vec![None; n],
            ops: EventOps::default(),
            rank: pool_sim::id_ranks(setup),
            cluster: Cluster::default(),
            face_box: table
                .segments()
                .iter()
                .map(|f| f.bbox.grown(reach))
                .collect(),
            corner_box: (table.end_points().iter())
                .map(|e| Aabb::of(&[e.p]).grown(reach))
                .collect(),
            arc_box: (table.circular_segments().iter())
                .map(|a| a.bbox.grown(reach))
                .collect(),
            pocket_box: (table.pocket_zones().iter())
                .map(|p| p.reach(BOX_SLACK))
                .collect(),
            failed: false,
            events: strike.into_iter().collect(),
            snapshots: Vec::new(),
        }
    }

    fn run(mut self) -> Outcome {
        let n = self.now.len();
        for i in 0..n {
            self.predict_ball(i);
        }
        for i in 0..n {
            self.swept[i] = self.swept_box(i);
        }
        for i in 0..n {
            for j in i + 1..n {
                self.predict_pair(i, j);
            }
        }
        if self.engine.record_snapshots && !self.events.is_empty() {
            // The shot starts with a cue strike: the states before it come first, so that
            // snapshot k + 1 is the one after event k, as for every other event.
            self.snapshots.push(Snapshot {
                time: 0.0,
                states: self.setup.balls.iter().map(|b| b.state).collect(),
            });
        }
        self.snapshot();
        let termination = loop {
            if self.failed {
                break Termination::NumericalError;
            }
            // A state keeps its reference's motion state until the ball changes.
            if !self.reference.iter().any(|s| s.motion.is_moving()) {
                break Termination::AtRest;
            }
            let (time, kind, agents, contact) = match self.next_event() {
                Some(e) => e,
                None => match self.setup.t_end {
                    Some(t_end) => {
                        self.advance_to(t_end);
                        break Termination::TimeLimit;
                    }
                    // Moving balls and nothing will ever happen: only a frictionless ball
                    // on an open table; treat as a budget failure rather than loop forever.
                    None => break Termination::Budget,
                },
            };
            if let Some(t_end) = self.setup.t_end {
                if time > t_end {
                    self.advance_to(t_end);
                    break Termination::TimeLimit;
                }
            }
            if self.events.len() >= self.engine.max_events {
                break Termination::Budget;
            }
            self.advance_to(time);
            self.resolve(kind, agents, contact);
            self.events.push(Event { time, kind, agents });
            self.snapshot();
        };
        self.sync_all();
        Outcome {
            events: self.events,
            final_states: self.now,
            end_time: self.t,
            termination,
            ops: self.ops.counts(),
            snapshots: self.snapshots,
            engine_s: None,
        }
    }

    fn snapshot(&mut self) {
        if self.engine.record_snapshots {
            self.sync_all();
            self.snapshots.push(Snapshot {
                time: self.t,
                states: self.now.clone(),
            });
        }
    }

    /// Moves the clock to absolute time `t`: every moving ball's state goes stale, to be
    /// evolved from its reference when asked ([`Loop::current`]).
    fn advance_to(&mut self, t: f64) {
        self.t = t;
        self.epoch += 1;
    }

    /// Ball `i`'s state at `t`: its reference evolved by t - t_reference, once per epoch.
    fn current(&mut self, i: usize) -> BallState {
        if self.now_epoch[i] != self.epoch {
            if self.reference[i].motion.is_moving() {
                self.ops.bump(EventOp::Evolve);
                self.now[i] = self
                    .physics
                    .evolve(&self.reference[i], self.t - self.t_reference[i]);
            }
            self.now_epoch[i] = self.epoch;
        }
        self.now[i]
    }

    /// Brings every ball's state to `t` (for the cluster solver, snapshots and the outcome).
    fn sync_all(&mut self) {
        for i in 0..self.now.len() {
            self.current(i);
        }
    }

    /// The earliest cached candidate; ties broken by kind order, then agents' ids, so that which
    /// of two simultaneous events comes first does not depend on the order of the balls in the
    /// shot file. (The physics may: an asymmetric ball-ball law takes the earlier ball of the
    /// set-up first, `BallBallLaw`'s contract, and `Agents::pair` puts it first.) Taken off the
    /// queue: resolving it changes its balls, which makes it stale anyway.
    fn next_event(&mut self) -> Option<(f64, EventKind, Agents, Option<Contact>)> {
        let generation = &self.generation;
        let (entry, examined) = self.queue.pop_valid(|e| e.is_current(generation));
        self.ops.add(EventOp::CandidateScan, examined);
        let e = entry?;
        let (a, b) = (e.a as usize, e.b as usize);
        Some(match e.kind {
            EventKind::BallBall => (e.time, e.kind, Agents::pair(a, b), None),
            EventKind::BallLinearCushion => (
                e.time,
                e.kind,
                Agents::BallCushion {
                    ball: a,
                    cushion: b,
                },
                self.cushion[a].contact,
            ),
            EventKind::BallCircularCushion => (
                e.time,
                e.kind,
                Agents::BallCircularCushion {
                    ball: a,
                    cushion: b,
                },
                None,
            ),
            EventKind::BallPocket => (
                e.time,
                e.kind,
                Agents::BallPocket { ball: a, pocket: b },
                None,
            ),
            _ => (e.time, e.kind, Agents::Ball { ball: a }, None),
        })
    }

    /// Queues a ball's own candidate (transition, cushion or pocket) if it is finite.
    fn push_own(&mut self, i: usize, c: Candidate) {
        if c.time.is_finite() {
            let other = match c.kind {
                EventKind::BallLinearCushion
                | EventKind::BallCircularCushion
                | EventKind::BallPocket => c.other,
                _ => 0,
            };
            self.queue.push(Entry::new(
                c.time,
                c.kind,
                self.rank[i],
                other,
                (i, self.generation[i]),
                (other, 0),
            ));
        }
    }

    fn resolve(&mut self, kind: EventKind, agents: Agents, contact: Option<Contact>) {
        self.ops.bump(EventOp::Resolve);
        let physics = self.physics;
        match agents {
            Agents::Ball { ball } => {
                self.now[ball] = physics.apply_transition(&self.current(ball), kind);
                self.changed(&[ball]);
            }
            Agents::BallBall { a, b } => {
                let (sa, sb) = (&self.current(a), &self.current(b));
                let gap = sb.r.xy() - sa.r.xy();
                let n = gap / gap.norm();
                let closing = (sa.v.xy() - sb.v.xy()).dot(&n);
                let pressing = (physics.accelerations(sa).0 - physics.accelerations(sb).0)
                    .xy()
                    .dot(&n);
                if closing > sustained_speed(pressing) {
                    let (sa, sb) = physics.resolve_ball_ball(sa, sb);
                    self.now[a] = sa;
                    self.now[b] = sb;
                    self.changed(&[a, b]);
                } else {
                    self.settle_cluster(&[a, b]);
                }
            }
            Agents::BallCushion { ball, cushion } => {
                let c = &self.setup.table.segments()[cushion];
                let s = &self.current(ball);
                let normal = contact.unwrap_or(Contact::Face).normal(c, s.r.xy());
                let pressing = physics.accelerations(s).0.xy().dot(&normal);
                if s.v.xy().dot(&normal) > sustained_speed(pressing) {
                    self.now[ball] = physics.resolve_ball_cushion(s, normal, c.height);
                    self.changed(&[ball]);
                } else {
                    self.settle_cluster(&[ball]);
                }
            }
            Agents::BallCircularCushion { ball, cushion } => {
                let arc = &self.setup.table.circular_segments()[cushion];
                let s = &self.current(ball);
                let normal = arc.normal(s.r.xy());
                let pressing = physics.accelerations(s).0.xy().dot(&normal);
                if s.v.xy().dot(&normal) > sustained_speed(pressing) {
                    self.now[ball] =
                        physics.resolve_ball_circular_cushion(s, normal, arc.height, arc.radius);
                    self.changed(&[ball]);
                } else {
                    self.settle_cluster(&[ball]);
                }
            }
            Agents::BallPocket { ball, pocket } => {
                let p = &self.setup.table.pockets[pocket];
                self.now[ball] = physics.resolve_ball_pocket(&self.current(ball), p);
                self.changed(&[ball]);
            }
        }
    }

    /// A sustained contact: resolves the whole touching cluster of `seeds` at once
    /// ([`Cluster::settle`]) and re-predicts every ball of it.
    fn settle_cluster(&mut self, seeds: &[usize]) {
        self.sync_all();
        let mut cluster = std::mem::take(&mut self.cluster);
        let members = cluster.settle(
            self.physics,
            &self.setup.table,
            &self.rank,
            &mut self.now,
            seeds,
        );
        self.changed(members);
        self.cluster = cluster;
    }

    /// Makes the changed balls' current states their new references and re-predicts every
    /// candidate they take part in: first each ball's own (transition, cushion, pocket), then
    /// its pairs, each pair once, so that a pair's limit sees both balls' new own candidates.
    fn changed(&mut self, balls: &[usize]) {
        let n = self.now.len();
        for &i in balls {
            self.reference[i] = self.now[i];
            self.now_epoch[i] = self.epoch;
            self.t_reference[i] = self.t;
            self.generation[i] = self.generation[i].wrapping_add(1);
            self.trajectory_epoch[i] = u64::MAX;
        }
        for &i in balls {
            self.reference_trajectory[i] = self.trajectory_of(i);
            self.predict_ball(i);
        }
        for &i in balls {
            self.swept[i] = self.swept_box(i);
        }
        for (k, &i) in balls.iter().enumerate() {
            for j in 0..n {
                if j != i && !balls[..k].contains(&j) {
                    self.predict_pair(i.min(j), i.max(j));
                }
            }
        }
        self.queue.compact(&self.generation);
    }

    /// `Physics::trajectory` of ball `i`'s state now, computed once per state.
    fn trajectory_of(&mut self, i: usize) -> Trajectory {
        if self.trajectory_epoch[i] != self.epoch {
            let s = self.current(i);
            self.trajectory[i] = self.physics.trajectory(&s);
            self.trajectory_epoch[i] = self.epoch;
        }
        self.trajectory[i]
    }

    /// The earliest of ball `i`'s own candidates (absolute time): its trajectory changes then
    /// at the latest, so a later candidate involving it can never be taken (see `predict_pair`).
    fn own_time(&self, i: usize) -> f64 {
        self.transition[i]
            .time
            .min(self.cushion[i].time)
            .min(self.pocket[i].time)
    }

    fn predict_ball(&mut self, i: usize) {
        let s = self.current(i);
        let traj = self.trajectory_of(i);
        self.ops.bump(EventOp::PredictTransition);
        self.transition[i] = match self.physics.next_transition(&s) {
            Some(tr) => Candidate {
                time: self.t + tr.dt,
                kind: tr.kind,
                other: i,
                contact: None,
            },
            None => Candidate::NONE,
        };
        if !s.motion.is_translating() {
            // It cannot reach a cushion or a pocket: every such prediction answers `None`.
            let features = self.face_box.len() + self.corner_box.len() + self.arc_box.len();
            self.ops.add(EventOp::PredictBallCushion, features as u64);
            self.ops
                .add(EventOp::PredictBallPocket, self.pocket_box.len() as u64);
            self.cushion[i] = Candidate::NONE;
            self.pocket[i] = Candidate::NONE;
            self.push_own(i, self.transition[i]);
            return;
        }
        let mut best = Candidate::NONE;
        let now = self.t;
        // A straight cushion's contact (face or end point), or a circular cushion's (`None`).
        let consider = |dt: f64, k: usize, contact: Option<Contact>, best: &mut Candidate| {
            if now + dt < best.time {
                let kind = if contact.is_some() {
                    EventKind::BallLinearCushion
                } else {
                    EventKind::BallCircularCushion
                };
                *best = Candidate {
                    time: now + dt,
                    kind,
                    other: k,
                    contact,
                };
            }
        };
        // Each prediction may drop an entry later than the best so far (`_within`): `consider`
        // would not take it.
        // Before each, a box test: a face, end point, circular cushion or pocket contact puts
        // the center within the contact distance of the feature (a face's contact point is on
        // the segment), so inside the feature's box (`face_box`, ...); the path up to the limit
        // lies in the box of its control points (`crate::cull`). Boxes apart (by more than
        // `BOX_SLACK`, far beyond rounding): no contact within the limit, the prediction
        // would answer `None` or later than the limit.
        let path_box = |limit: f64| {
            let h = crate::cull::horizon(traj.valid_for, limit);
            Aabb::of_path(traj.a.xy(), traj.b.xy(), traj.c.xy(), h)
        };
        let apart =
            |path: &Option<Aabb>, feature: &Aabb| path.is_some_and(|p| p.apart_from(feature));
        let mut path = path_box(f64::INFINITY);
        let table = &self.setup.table;
        for (k, face) in table.segments().iter().enumerate() {
            if apart(&path, &self.face_box[k]) {
                self.ops.bump(EventOp::PredictBallCushion);
                continue;
            }
            let limit = best.time - now;
            let r = self
                .predictor
                .ball_cushion_within(&s, &traj, face, limit, &mut self.ops);
            if let Some(dt) = self.check(r) {
                consider(dt, k, Some(Contact::Face), &mut best);
                path = path_box(best.time - now);
            }
        }
        for (c, corner) in table.end_points().iter().enumerate() {
            if apart(&path, &self.corner_box[c]) {
                self.ops.bump(EventOp::PredictBallCushion);
                continue;
            }
            let (p, k) = (corner.p, corner.segment);
            let limit = best.time - now;
            let r = self
                .predictor
                .ball_point_within(&s, &traj, p, limit, &mut self.ops);
            if let Some(dt) = self.check(r) {
                consider(dt, k, Some(Contact::Point(p)), &mut best);
                path = path_box(best.time - now);
            }
        }
        for (k, arc) in table.circular_segments().iter().enumerate() {
            if apart(&path, &self.arc_box[k]) {
                self.ops.bump(EventOp::PredictBallCushion);
                continue;
            }
            let limit = best.time - now;
            let r =
                (self.predictor).ball_circular_cushion_within(&s, &traj, arc, limit, &mut self.ops);
            if let Some(dt) = self.check(r) {
                consider(dt, k, None, &mut best);
                path = path_box(best.time - now);
            }
        }
        self.cushion[i] = best;
        // A pocket entry later than the ball's cushion contact or transition can never be taken:
        // the ball changes first, and its candidates are predicted again (see `predict_pair`).
        let own = self.transition[i].time.min(self.cushion[i].time);
        let mut path = path_box(own - now);
        let mut best = Candidate::NONE;
        for (k, pocket) in table.pocket_zones().iter().enumerate() {
            if apart(&path, &self.pocket_box[k]) {
                self.ops.bump(EventOp::PredictBallPocket);
                continue;
            }
            let limit = best.time.min(own) - now;
            let r = self
                .predictor
                .ball_pocket_within(&s, &traj, pocket, limit, &mut self.ops);
            if let Some(dt) = self.check(r) {
                if self.t + dt < best.time {
                    best = Candidate {
                        time: self.t + dt,
                        kind: EventKind::BallPocket,
                        other: k,
                        contact: None,
                    };
                    path = path_box(best.time.min(own) - now);
                }
            }
        }
        self.pocket[i] = best;
        self.push_own(i, self.transition[i]);
        self.push_own(i, self.cushion[i]);
        self.push_own(i, self.pocket[i]);
    }

    /// Unwraps a prediction; a root-solver error (non-finite state) stops the run.
    fn check<T>(&mut self, r: Result<Option<T>, crate::predict::PredictError>) -> Option<T> {
        r.unwrap_or_else(|_| {
            self.failed = true;
            None
        })
    }

    /// Whether pair (i, j) certainly has no entry within `limit` s (or before either trajectory
    /// ends), judged on the reference trajectories shifted to now, without the exact ones.
    ///
    /// The shifted trajectory (position and velocity of the reference trajectory at
    /// t - t_reference) is the exact trajectory of the state `now` (evolved from the reference
    /// by the same equations) up to rounding, a few ulps of the positions (m) and velocities
    /// involved, and its remaining validity is the exact one up to a few ulps. So the test asks
    /// for a clearance 1 nm beyond contact, a million times that rounding, over a horizon
    /// widened by 1e-9 relative and 1 ns: if the shifted pair is that clear, the exact pair is
    /// apart now and clear by almost 1 nm, far more than `Predictor::ball_ball_within` itself
    /// requires to return `None` ([`crate::cull`]), so skipping it changes nothing.
    fn pair_clear(&self, i: usize, j: usize, limit: f64) -> bool {
        if let (Some(p), Some(q)) = (&self.swept[i], &self.swept[j]) {
            // A contact before both balls' own candidates puts both centers in their boxes,
            // within the contact distance (<= R_i + R_j) of each other: boxes grown by their
            // radii + `BOX_SLACK` would overlap.
            if p.apart_from(q) {
                return true;
            }
        }
        let shifted = |k: usize| {
            let tr = &self.reference_trajectory[k];
            let tau = self.t - self.t_reference[k];
            let (a, b, c) = (tr.a.xy(), tr.b.xy(), tr.c.xy());
            (
                (a * tau + b) * tau + c,
                a * (2.0 * tau) + b,
                a,
                tr.valid_for - tau,
            )
        };
        let (ci, bi, ai, hi) = shifted(i);
        let (cj, bj, aj, hj) = shifted(j);
        let h = crate::cull::horizon(widened(hi.min(hj)), limit);
        let touch = (self.physics).contact_distance(&self.reference[i], &self.reference[j]);
        crate::cull::path_clear(ai - aj, bi - bj, ci - cj, h, touch + 1e-9)
    }

    /// The box of ball `i`'s path from now (it has just changed) until its earliest own
    /// candidate or the end of its trajectory, grown by R + `BOX_SLACK`: the control points'
    /// box (`crate::cull`) over that horizon widened by 1e-9 relative and 1 ns. Later, the
    /// ball's exact state is its reference evolved, the same path up to rounding far below the
    /// slack, and its pairs' limits never pass its own candidate, so the box holds every
    /// position a pair prediction can care about until the ball changes again.
    fn swept_box(&self, i: usize) -> Option<Aabb> {
        let tr = &self.reference_trajectory[i];
        let reach = self.physics.radius(&self.reference[i]) + BOX_SLACK;
        if !self.reference[i].motion.is_translating() {
            return Some(Aabb::of(&[tr.c.xy()]).grown(reach));
        }
        let h = widened(tr.valid_for.min(self.own_time(i) - self.t));
        Aabb::of_path(tr.a.xy(), tr.b.xy(), tr.c.xy(), h).map(|b| b.grown(reach))
    }

    /// Predicts pair (i, j) and queues it.
    ///
    /// Its limit is the earlier of the two balls' own candidates: a pair entry later than that
    /// can never be the next event. The own candidate is queued, stamped with the same ball's
    /// generation, and precedes it in (time, kind, ids) order (the entry is later by at least
    /// 1 ns, `Predictor`'s widening); so the own candidate is taken first, or the ball changes
    /// some other way first, and either way the ball's pairs are all predicted again before the
    /// pair's time. Dropping such an entry changes nothing in the log.
    fn predict_pair(&mut self, i: usize, j: usize) {
        let (ma, mb) = (self.reference[i].motion, self.reference[j].motion);
        let limit = self.own_time(i).min(self.own_time(j)) - self.t;
        let time = if ma == pool_physics::MotionState::Pocketed
            || mb == pool_physics::MotionState::Pocketed
        {
            None
        } else if !(ma.is_translating() || mb.is_translating()) {
            // Neither moves: `Predictor::ball_ball_within` answers `None` at once.
            self.ops.bump(EventOp::PredictBallBall);
            None
        } else if self.engine.culling && self.pair_clear(i, j, limit) {
            self.ops.bump(EventOp::PredictBallBall);
            None
        } else {
            let (a, b) = (self.current(i), self.current(j));
            let (ta, tb) = (self.trajectory_of(i), self.trajectory_of(j));
            let r = self
                .predictor
                .ball_ball_within(&a, &b, &ta, &tb, limit, &mut self.ops);
            self.check(r)
        };
        if let Some(dt) = time {
            let (ri, rj) = (self.rank[i], self.rank[j]);
            self.queue.push(Entry::new(
                self.t + dt,
                EventKind::BallBall,
                ri.min(rj),
                ri.max(rj),
                (i, self.generation[i]),
                (j, self.generation[j]),
            ));
        }
    }
}
