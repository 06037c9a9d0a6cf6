//! The event loop.

use pool_physics::{AnyPhysics, BallState, EventKind, Physics, Vec2};
use pool_roots::RootSolver;
use pool_sim::{Agents, Engine, Event, Op, OpCounts, Outcome, Setup, Snapshot, Termination};

use crate::cluster::Cluster;
use crate::predict::{Contact, Predictor, CONTACT_SLOP};

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

/// The event-based engine. Generic over nothing: the root solver is chosen at run time so that
/// backends can be compared on identical shots.
pub struct EventEngine {
    solver: Box<dyn RootSolver>,
    /// Stop (with [`Termination::Budget`]) after this many events.
    pub max_events: usize,
    /// Record every ball's state after every event (for drawing paths).
    pub record_snapshots: bool,
}

impl Default for EventEngine {
    fn default() -> Self {
        Self::new(Box::new(pool_roots::default_solver()))
    }
}

impl EventEngine {
    /// An engine using the given root solver, a budget of 100 000 events, no snapshots.
    pub fn new(solver: Box<dyn RootSolver>) -> Self {
        EventEngine {
            solver,
            max_events: 100_000,
            record_snapshots: false,
        }
    }

    /// Builder: record snapshots after every event.
    pub fn with_snapshots(mut self, on: bool) -> Self {
        self.record_snapshots = on;
        self
    }
}

impl Engine for EventEngine {
    fn name(&self) -> &'static str {
        "event"
    }

    fn scheme(&self) -> String {
        self.solver.name().to_string()
    }

    fn dt(&self) -> Option<f64> {
        None
    }

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
    physics: &'a AnyPhysics,
    predictor: Predictor<'a>,
    t: f64,
    /// Each ball's state when it last changed, and that time.
    reference: Vec<BallState>,
    t_reference: Vec<f64>,
    /// Each ball's state at `t`.
    now: Vec<BallState>,
    transition: Vec<Candidate>,
    cushion: Vec<Candidate>,
    pocket: Vec<Candidate>,
    /// Upper triangle, row-major: pair (i, j), i < j, at i * n + j.
    pair: Vec<f64>,
    ops: OpCounts,
    /// Cushion end points a ball can touch, with their segment (`Table::exposed_points`).
    corners: Vec<(Vec2, usize)>,
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
        let states: Vec<BallState> = setup.balls.iter().map(|b| b.state).collect();
        Loop {
            engine,
            setup,
            physics: &setup.physics,
            predictor: Predictor::new(&setup.physics, engine.solver.as_ref()),
            t: 0.0,
            reference: states.clone(),
            t_reference: vec![0.0; n],
            now: states,
            transition: vec![Candidate::NONE; n],
            cushion: vec![Candidate::NONE; n],
            pocket: vec![Candidate::NONE; n],
            pair: vec![f64::INFINITY; n * n],
            ops: OpCounts::default(),
            rank: pool_sim::id_ranks(setup),
            corners: setup.table.exposed_points(),
            cluster: Cluster::default(),
            failed: false,
            events: Vec::new(),
            snapshots: Vec::new(),
        }
    }

    fn run(mut self) -> Outcome {
        let n = self.now.len();
        for i in 0..n {
            self.predict_ball(i);
        }
        for i in 0..n {
            for j in i + 1..n {
                self.predict_pair(i, j);
            }
        }
        self.snapshot();
        let termination = loop {
            if self.failed {
                break Termination::NumericalError;
            }
            if !self.now.iter().any(|s| s.motion.is_moving()) {
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
        Outcome {
            events: self.events,
            final_states: self.now,
            end_time: self.t,
            termination,
            ops: self.ops,
            snapshots: self.snapshots,
        }
    }

    fn snapshot(&mut self) {
        if self.engine.record_snapshots {
            self.snapshots.push(Snapshot {
                time: self.t,
                states: self.now.clone(),
            });
        }
    }

    /// Evolves every moving ball to absolute time `t` from its reference state.
    fn advance_to(&mut self, t: f64) {
        for i in 0..self.now.len() {
            if self.reference[i].motion.is_moving() {
                self.ops.bump(Op::Evolve);
                self.now[i] = self
                    .physics
                    .evolve(&self.reference[i], t - self.t_reference[i]);
            }
        }
        self.t = t;
    }

    /// The earliest cached candidate; ties broken by kind order, then agents, so that runs are
    /// deterministic.
    fn next_event(&mut self) -> Option<(f64, EventKind, Agents, Option<Contact>)> {
        let n = self.now.len();
        let mut best: Option<(f64, EventKind, Agents, Option<Contact>)> = None;
        let rank = &self.rank;
        // Ties are broken by kind, then by the agents' ids (not their positions in the file), so
        // that the log does not depend on the order of the balls in the shot file.
        let key = |a: Agents| match a {
            Agents::Ball { ball } => (0, rank[ball], 0),
            Agents::BallBall { a, b } => (1, rank[a].min(rank[b]), rank[a].max(rank[b])),
            Agents::BallCushion { ball, cushion } => (2, rank[ball], cushion),
            Agents::BallPocket { ball, pocket } => (3, rank[ball], pocket),
        };
        let mut consider = |time: f64, kind: EventKind, agents: Agents, contact| {
            if time.is_finite()
                && best.is_none_or(|(bt, bk, ba, _)| (time, kind, key(agents)) < (bt, bk, key(ba)))
            {
                best = Some((time, kind, agents, contact));
            }
        };
        for i in 0..n {
            let c = self.transition[i];
            consider(c.time, c.kind, Agents::Ball { ball: i }, None);
            let c = self.cushion[i];
            consider(
                c.time,
                c.kind,
                Agents::BallCushion {
                    ball: i,
                    cushion: c.other,
                },
                c.contact,
            );
            let c = self.pocket[i];
            consider(
                c.time,
                c.kind,
                Agents::BallPocket {
                    ball: i,
                    pocket: c.other,
                },
                None,
            );
            for j in i + 1..n {
                consider(
                    self.pair[i * n + j],
                    EventKind::BallBall,
                    Agents::pair(i, j),
                    None,
                );
            }
        }
        self.ops.add(
            Op::CandidateScan,
            (3 * n + n * (n.saturating_sub(1)) / 2) as u64,
        );
        best
    }

    fn resolve(&mut self, kind: EventKind, agents: Agents, contact: Option<Contact>) {
        self.ops.bump(Op::Resolve);
        let physics = self.physics;
        match agents {
            Agents::Ball { ball } => {
                self.now[ball] = physics.apply_transition(&self.now[ball], kind);
                self.changed(&[ball]);
            }
            Agents::BallBall { a, b } => {
                let (sa, sb) = (&self.now[a], &self.now[b]);
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
                let c = &self.setup.table.cushions[cushion];
                let s = &self.now[ball];
                let normal = match contact.unwrap_or(Contact::Face) {
                    Contact::Face => -c.inward_normal(),
                    Contact::Point(p) => (p - s.r.xy()).normalize(),
                };
                let pressing = physics.accelerations(s).0.xy().dot(&normal);
                if s.v.xy().dot(&normal) > sustained_speed(pressing) {
                    self.now[ball] = physics.resolve_ball_cushion(s, normal, c.height);
                    self.changed(&[ball]);
                } else {
                    self.settle_cluster(&[ball]);
                }
            }
            Agents::BallPocket { ball, pocket } => {
                let p = &self.setup.table.pockets[pocket];
                self.now[ball] = physics.resolve_ball_pocket(&self.now[ball], p);
                self.changed(&[ball]);
            }
        }
    }

    /// A sustained contact: resolves the whole touching cluster of `seeds` at once
    /// ([`Cluster::settle`]) and re-predicts every ball of it.
    fn settle_cluster(&mut self, seeds: &[usize]) {
        let mut cluster = std::mem::take(&mut self.cluster);
        let members = cluster.settle(
            self.physics,
            &self.setup.table,
            &self.corners,
            &self.rank,
            &mut self.now,
            seeds,
        );
        self.changed(members);
        self.cluster = cluster;
    }

    /// Makes the changed balls' current states their new references and re-predicts every
    /// candidate they take part in.
    fn changed(&mut self, balls: &[usize]) {
        let n = self.now.len();
        for &i in balls {
            self.reference[i] = self.now[i];
            self.t_reference[i] = self.t;
        }
        for &i in balls {
            self.predict_ball(i);
            for j in 0..n {
                if j != i {
                    self.predict_pair(i.min(j), i.max(j));
                }
            }
        }
    }

    fn predict_ball(&mut self, i: usize) {
        let s = self.now[i];
        self.ops.bump(Op::PredictTransition);
        self.transition[i] = match self.physics.next_transition(&s) {
            Some(tr) => Candidate {
                time: self.t + tr.dt,
                kind: tr.kind,
                other: i,
                contact: None,
            },
            None => Candidate::NONE,
        };
        let mut best = Candidate::NONE;
        let now = self.t;
        let consider = |dt: f64, k: usize, contact: Contact, best: &mut Candidate| {
            if now + dt < best.time {
                *best = Candidate {
                    time: now + dt,
                    kind: EventKind::BallLinearCushion,
                    other: k,
                    contact: Some(contact),
                };
            }
        };
        for (k, cushion) in self.setup.table.cushions.iter().enumerate() {
            let r = self.predictor.ball_cushion(&s, cushion, &mut self.ops);
            if let Some(dt) = self.check(r) {
                consider(dt, k, Contact::Face, &mut best);
            }
        }
        for c in 0..self.corners.len() {
            let (p, k) = self.corners[c];
            let r = self.predictor.ball_point(&s, p, &mut self.ops);
            if let Some(dt) = self.check(r) {
                consider(dt, k, Contact::Point(p), &mut best);
            }
        }
        self.cushion[i] = best;
        let mut best = Candidate::NONE;
        for (k, pocket) in self.setup.table.pockets.iter().enumerate() {
            let r = self.predictor.ball_pocket(&s, pocket, &mut self.ops);
            if let Some(dt) = self.check(r) {
                if self.t + dt < best.time {
                    best = Candidate {
                        time: self.t + dt,
                        kind: EventKind::BallPocket,
                        other: k,
                        contact: None,
                    };
                }
            }
        }
        self.pocket[i] = best;
    }

    /// Unwraps a prediction; a root-solver error (non-finite state) stops the run.
    fn check<T>(&mut self, r: Result<Option<T>, crate::predict::PredictError>) -> Option<T> {
        r.unwrap_or_else(|_| {
            self.failed = true;
            None
        })
    }

    fn predict_pair(&mut self, i: usize, j: usize) {
        let n = self.now.len();
        let (a, b) = (self.now[i], self.now[j]);
        let time = if a.motion == pool_physics::MotionState::Pocketed
            || b.motion == pool_physics::MotionState::Pocketed
        {
            None
        } else {
            let r = self.predictor.ball_ball(&a, &b, &mut self.ops);
            self.check(r)
        };
        self.pair[i * n + j] = time.map_or(f64::INFINITY, |dt| self.t + dt);
    }
}
