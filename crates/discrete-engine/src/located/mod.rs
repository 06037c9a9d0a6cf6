//! Fixed steps with in-step event location (scheme `located`) and with substeps on contact
//! (scheme `substep<k>`): what ODE solvers call event location and game engines time of
//! impact, on the same exact evolution as the `end_of_step` scheme.
//!
//! `located`: each step evolves every moving ball from the step's start state to its end (the
//! trial). A contact whose gap ([`contact`]) changed sign over the interval, whose straight
//! chords came within contact in between (a ball passing through another, an end point or a
//! pocket), or that is touching and closing at its start, is timed by Illinois refinement of
//! its gap along the evolved trajectories ([`illinois`]) to [`LOCATE_TOL`]. The earliest one
//! is resolved at its time with the same laws as every engine, all balls are evolved there,
//! and the rest of the step is tried again from that state, so that several events of one step
//! are resolved in time order. A contact that re-closes more than [`ZENO_LIMIT`] times in one
//! step (a pressed contact's shrinking rebounds) gets its law's sustained partner.
//!
//! `substep<k>`: a step whose interval holds any contact is taken again as k substeps of
//! dt / k, each ending with the `end_of_step` scheme's end-of-step detection and resolution; a step
//! without one is a single step. Transitions are noticed at the end of the (sub)step.
//!
//! What neither scheme sees: a contact whose gap dips below zero and back inside one step
//! while the straight chords between its ends stay clear (a graze on a curved path, within
//! about mu_s g dt^2 / 2 of touching).

mod contact;
mod illinois;

use pool_physics::{Aabb, BallState, LinearSegment, Physics};
use pool_sim::{Agents, Event, Outcome, Setup, Snapshot, Termination};

use crate::broad::BroadPhase;
use crate::engine::{cushion_hit, DiscreteEngine};
use contact::{Contact, World};

pool_sim::counters! {
    /// The located and substepping schemes' kinds of work.
    pub enum LocatedOp, LocatedOps {
        /// One time step.
        Step = "step",
        /// One substep (scheme `substep<k>`, a step taken again in k parts).
        Substep = "substep",
        /// One ball's state advanced over a step, a substep or to a located event.
        Evolve = "evolve",
        /// A transition test of one ball.
        TransitionTest = "transition_test",
        /// A capture test of one ball against one pocket.
        PocketTest = "pocket_test",
        /// A contact test of one ball against one cushion face or end point.
        CushionTest = "cushion_test",
        /// A contact test of one ball pair.
        PairTest = "pair_test",
        /// One event time refined by the locator.
        Locate = "locate",
        /// One gap evaluated by the locator (the contact's balls evolved to a trial time).
        LocateEvaluation = "locate_evaluation",
        /// One event resolved (a collision law or transition applied).
        Resolve = "resolve",
    }
}

/// The locator's tolerance (s): a located event time is within this of the time where the
/// gap along the evolved trajectories changes sign (collisions are resolved at the bracket's
/// near end, pockets and transitions at its far end).
pub const LOCATE_TOL: f64 = 1e-12;

/// Resolutions of one contact while it stays touching after which it gets its law's
/// sustained partner: a pressed contact's rebounds shrink geometrically (by 5/7 under seed
/// 004's friction), so without this a step would hold an endless train of them. A contact
/// given its sustained law is left alone for the rest of the step, and keeps the sustained law
/// until it opens by more than [`TOUCH`]; only the first sustained resolution is logged (the
/// later ones are a resting contact's force, counted in `resolve`).
pub const ZENO_LIMIT: u32 = 8;

/// A contact whose gap is at most this (m) at the start of a step is still touching (for
/// [`ZENO_LIMIT`]'s count).
const TOUCH: f64 = 1e-9;

/// Events in one step beyond which the run stops with [`Termination::Budget`].
const MAX_EVENTS_PER_STEP: usize = 10_000;

/// Halvings tried to find a point where a contact touching at the start of an interval has
/// opened before it closes again.
const REENTRY_HALVINGS: u32 = 48;

/// How a step finds its events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Located at their times inside the step.
    Locate,
    /// k substeps of a step that holds a contact.
    Substep(u16),
}

/// Runs `setup` with `engine`'s step, budget and sampling in `mode`.
pub(crate) fn run(engine: &DiscreteEngine, setup: &Setup, mode: Mode) -> Outcome {
    let physics = &setup.physics;
    let n = setup.balls.len();
    let dt = engine.dt;
    // Slots in id order, as the plain loop holds them (see engine.rs).
    let rank = pool_sim::id_ranks(setup);
    let mut order = vec![0; n];
    for (i, &k) in rank.iter().enumerate() {
        order[k] = i;
    }
    let (initial, strike) = setup.initial_states();
    let mut x: Vec<BallState> = order.iter().map(|&i| initial[i]).collect();
    // Each slot's radius, and the largest, which bounds every reach (balls of one radius
    // touch at exactly 2R).
    let radii: Vec<f64> = x.iter().map(|s| physics.radius(s)).collect();
    let largest = radii.iter().fold(0.0f64, |m, &r| m.max(r));
    let mut r = Run {
        world: World {
            physics,
            table: &setup.table,
            radii,
            setup_index: order,
        },
        largest,
        culled: engine.broad_phase == BroadPhase::Culled,
        ops: LocatedOps::default(),
        events: strike.into_iter().collect(),
        trial: x.clone(),
        scratch: x.clone(),
        sweep: (0..n).collect(),
        spans: x.iter().map(|s| Aabb::of(&[s.r.xy()])).collect(),
        reach: Reach::new(&setup.table, largest),
        pairs: Vec::new(),
        zeno: Vec::new(),
        held: Vec::new(),
    };
    let in_setup_order = |slots: &[BallState], order: &[usize]| {
        let mut out = slots.to_vec();
        for (k, s) in slots.iter().enumerate() {
            out[order[k]] = *s;
        }
        out
    };
    let sample_every = engine
        .sample_interval
        .map(|s| ((s / dt).round() as u64).max(1));
    let mut snapshots = Vec::new();
    if sample_every.is_some() {
        snapshots.push(Snapshot {
            time: 0.0,
            states: in_setup_order(&x, &r.world.setup_index),
        });
    }
    let t_limit = setup.t_end.unwrap_or(engine.max_time);
    let max_steps = (t_limit / dt).ceil() as u64;
    let (mut step, mut t) = (0u64, 0.0);
    let termination = loop {
        if !x.iter().any(|s| s.motion.is_moving()) {
            break Termination::AtRest;
        }
        if x.iter().map(crate::engine::non_finite).sum::<f64>() != 0.0 {
            break Termination::NumericalError;
        }
        if let Some(stop) =
            pool_sim::out_of_steps(setup, step, max_steps, r.events.len(), engine.max_events)
        {
            break stop;
        }
        let t0 = t;
        step += 1;
        t = step as f64 * dt;
        r.ops.bump(LocatedOp::Step);
        let events_before = r.events.len();
        let finished = match mode {
            Mode::Locate => r.located_step(&mut x, t0, t - t0),
            Mode::Substep(k) => {
                r.substep_step(&mut x, t0, t, k);
                true
            }
        };
        if !finished {
            break Termination::Budget;
        }
        if let Some(every) = sample_every {
            if step.is_multiple_of(every) || r.events.len() > events_before {
                snapshots.push(Snapshot {
                    time: t,
                    states: in_setup_order(&x, &r.world.setup_index),
                });
            }
        }
    };
    if sample_every.is_some() && snapshots.last().is_none_or(|s| s.time < t) {
        snapshots.push(Snapshot {
            time: t,
            states: in_setup_order(&x, &r.world.setup_index),
        });
    }
    Outcome {
        final_states: in_setup_order(&x, &r.world.setup_index),
        events: r.events,
        end_time: t,
        termination,
        ops: r.ops.counts(),
        snapshots,
        engine_s: None,
    }
}

/// One run's state besides the balls: the world, the log, the counters and reused buffers.
struct Run<'a, P: ?Sized> {
    world: World<'a, P>,
    /// The largest ball radius (m): the broad phase's and the table reach's.
    largest: f64,
    culled: bool,
    ops: LocatedOps,
    events: Vec<Event>,
    /// States at the end of the interval being tried.
    trial: Vec<BallState>,
    /// The locator's states at a trial time (only the contact's slots are meaningful).
    scratch: Vec<BallState>,
    /// Slots by the low x of their span (kept nearly sorted from interval to interval).
    sweep: Vec<usize>,
    /// Each slot's span over the interval: the box of its center's start and end (m), which
    /// holds the straight chord every test here looks at.
    spans: Vec<Aabb>,
    /// The boxes a center must meet to touch each table element.
    reach: Reach,
    /// Candidate pairs of the interval.
    pairs: Vec<(usize, usize)>,
    /// Resolutions of each contact since it last opened (see [`ZENO_LIMIT`]).
    zeno: Vec<(Contact, u32)>,
    /// Contacts given their sustained law in the current step: not looked at again in it.
    held: Vec<Contact>,
}

impl<P: Physics + ?Sized> Run<'_, P> {
    /// Logs an event of the slots' balls at `time` (s).
    fn log(&mut self, time: f64, (kind, agents): (pool_physics::EventKind, Agents)) {
        let o = &self.world.setup_index;
        let agents = match agents {
            Agents::Ball { ball } => Agents::Ball { ball: o[ball] },
            Agents::BallBall { a, b } => Agents::pair(o[a], o[b]),
            Agents::BallCushion { ball, cushion } => Agents::BallCushion {
                ball: o[ball],
                cushion,
            },
            Agents::BallCircularCushion { ball, cushion } => Agents::BallCircularCushion {
                ball: o[ball],
                cushion,
            },
            Agents::BallPocket { ball, pocket } => Agents::BallPocket {
                ball: o[ball],
                pocket,
            },
        };
        self.events.push(Event { time, kind, agents });
    }

    /// `out[k]` = `x[k]` evolved by `h` (s) for every moving ball, `x[k]` otherwise.
    fn evolve_into(&mut self, x: &[BallState], h: f64, out_is_trial: bool) {
        let out = if out_is_trial {
            &mut self.trial
        } else {
            &mut self.scratch
        };
        out.copy_from_slice(x);
        self.world.physics.evolve_all(x, h, out);
        let moving = x.iter().filter(|s| s.motion.is_moving()).count();
        self.ops.add(LocatedOp::Evolve, moving as u64);
    }

    /// One step of the `located` scheme from `x` at `t0` over `dt` (s). False when the step
    /// held more than [`MAX_EVENTS_PER_STEP`] events.
    fn located_step(&mut self, x: &mut Vec<BallState>, t0: f64, dt: f64) -> bool {
        self.held.clear();
        let world = &self.world;
        self.zeno.retain(|&(c, _)| world.gap(c, x, x) <= TOUCH);
        let mut s = 0.0;
        for _ in 0..MAX_EVENTS_PER_STEP {
            let h = dt - s;
            self.evolve_into(x, h, true);
            let trial = std::mem::take(&mut self.trial);
            let earliest = self.earliest(x, &trial, h, false);
            self.trial = trial;
            let Some((c, tau)) = earliest else {
                std::mem::swap(x, &mut self.trial);
                return true;
            };
            // Every ball to the event, then the law on the contact.
            if tau > 0.0 {
                self.evolve_into(x, tau, true);
            } else {
                self.trial.copy_from_slice(x);
            }
            // Only collisions re-close; a transition or a capture happens once per motion
            // segment and is never held (a held transition would be extrapolated past).
            let count = if c.collision() {
                match self.zeno.iter_mut().find(|(k, _)| *k == c) {
                    Some((_, count)) => {
                        *count += 1;
                        *count
                    }
                    None => {
                        self.zeno.push((c, 1));
                        1
                    }
                }
            } else {
                1
            };
            let sustained = count > ZENO_LIMIT;
            if sustained {
                self.held.push(c);
            }
            let mut states = std::mem::take(&mut self.trial);
            let event = self.world.resolve(c, x, &mut states, sustained);
            self.trial = states;
            std::mem::swap(x, &mut self.trial);
            s = (s + tau).min(dt);
            self.ops.bump(LocatedOp::Resolve);
            // A contact held by its sustained law is a resting contact from then on: its later
            // resolutions are its contact force, counted as work, not logged as events.
            if let Some(event) = event.filter(|_| count <= ZENO_LIMIT + 1) {
                self.log(t0 + s, event);
            }
        }
        false
    }

    /// The earliest event of the interval of `h` seconds from `x` (trial end states `y`), with
    /// its time from `x`; ties (within [`LOCATE_TOL`]) go to the smaller [`Contact`]. With `collisions_only`, whether
    /// any collision is worth locating, without locating it (time 0).
    fn earliest(
        &mut self,
        x: &[BallState],
        y: &[BallState],
        h: f64,
        collisions_only: bool,
    ) -> Option<(Contact, f64)> {
        let mut best: Option<(Contact, f64)> = None;
        let mut offer = |run: &mut Self, c: Contact| {
            if run.held.contains(&c) {
                return;
            }
            if collisions_only {
                if run.worth_locating(c, x, y) {
                    best = Some((c, 0.0));
                }
                return;
            }
            if let Some(tau) = run.locate(c, x, y, h) {
                // Events within the locator's tolerance of each other are a tie, broken by
                // the contact's order, not by the last bits of their located times.
                let first = |(bc, bt): (Contact, f64)| {
                    tau < bt - LOCATE_TOL || (tau <= bt + LOCATE_TOL && c < bc)
                };
                if best.is_none_or(first) {
                    best = Some((c, tau));
                }
            }
        };
        let n = x.len();
        if !collisions_only {
            for ball in 0..n {
                if x[ball].motion.is_moving() {
                    self.ops.bump(LocatedOp::TransitionTest);
                    if self.world.physics.transition_margin(&x[ball], &y[ball]) <= 0.0 {
                        offer(self, Contact::Transition { ball });
                    }
                }
            }
        }
        self.swept_boxes(x, y);
        let table = self.world.table;
        let culled = self.culled;
        for (ball, s) in x.iter().enumerate() {
            if !s.motion.is_translating() {
                continue;
            }
            let span = self.spans[ball];
            if culled && self.reach.clear(&span) {
                continue;
            }
            let meets = |b: &Aabb| !culled || !span.apart_from(b);
            for (pocket, zone) in table.pocket_zones().iter().enumerate() {
                // A capture line is crossed from its playing side only.
                let in_front = zone.line.is_none_or(|l| l.signed_distance(s.r.xy()) >= 0.0);
                if meets(&self.reach.pockets[pocket]) && in_front {
                    self.ops.bump(LocatedOp::PocketTest);
                    offer(self, Contact::Pocket { ball, pocket });
                }
            }
            for (segment, seg) in table.segments().iter().enumerate() {
                if meets(&self.reach.segments[segment]) && faces(seg, s) {
                    self.ops.bump(LocatedOp::CushionTest);
                    offer(self, Contact::Face { ball, segment });
                }
            }
            for point in 0..table.end_points().len() {
                if meets(&self.reach.points[point]) {
                    self.ops.bump(LocatedOp::CushionTest);
                    offer(self, Contact::EndPoint { ball, point });
                }
            }
            for arc in 0..table.circular_segments().len() {
                if meets(&self.reach.arcs[arc]) {
                    self.ops.bump(LocatedOp::CushionTest);
                    offer(self, Contact::Arc { ball, arc });
                }
            }
        }
        self.candidate_pairs(x);
        for k in 0..self.pairs.len() {
            let (a, b) = self.pairs[k];
            self.ops.bump(LocatedOp::PairTest);
            offer(self, Contact::Pair { a, b });
        }
        best
    }

    /// Each slot's span over the interval: the box of its start and end centers.
    fn swept_boxes(&mut self, x: &[BallState], y: &[BallState]) {
        for (span, (a, b)) in self.spans.iter_mut().zip(x.iter().zip(y)) {
            *span = Aabb::of(&[a.r.xy(), b.r.xy()]);
        }
    }

    /// The ball pairs whose spans come within 2R in x and in y (every pair with the exhaustive
    /// broad phase), at least one of them translating, neither pocketed: sort-and-sweep on x,
    /// the order repaired by insertion sort. Pairs as (lower slot, higher slot), sorted.
    fn candidate_pairs(&mut self, x: &[BallState]) {
        self.pairs.clear();
        let live = |k: usize| x[k].motion != pool_physics::MotionState::Pocketed;
        let wanted =
            |a: usize, b: usize| x[a].motion.is_translating() || x[b].motion.is_translating();
        if !self.culled {
            for a in 0..x.len() {
                for b in a + 1..x.len() {
                    if live(a) && live(b) && wanted(a, b) {
                        self.pairs.push((a, b));
                    }
                }
            }
            return;
        }
        let two_r = 2.0 * self.largest + crate::cells::SLACK;
        let spans = &self.spans;
        let sweep = &mut self.sweep;
        for i in 1..sweep.len() {
            let mut j = i;
            while j > 0 && spans[sweep[j - 1]].min.x > spans[sweep[j]].min.x {
                sweep.swap(j - 1, j);
                j -= 1;
            }
        }
        for (i, &a) in sweep.iter().enumerate() {
            if !live(a) {
                continue;
            }
            let reach = spans[a].grown(two_r);
            for &b in &sweep[i + 1..] {
                if spans[b].min.x > reach.max.x {
                    break;
                }
                if !reach.apart_from(&spans[b]) && live(b) && wanted(a, b) {
                    self.pairs.push((a.min(b), a.max(b)));
                }
            }
        }
        // Slot order, as the exhaustive list: pairs resolved one after another at the end of
        // a substep must be resolved in the same order.
        self.pairs.sort_unstable();
    }

    /// Whether a collision contact needs looking at over the interval: touching and closing
    /// at its start, past contact at its end, or its chords passing within contact.
    fn worth_locating(&mut self, c: Contact, x: &[BallState], y: &[BallState]) -> bool {
        let w = &self.world;
        if matches!(c, Contact::Transition { .. }) {
            return false;
        }
        (w.gap(c, x, x) <= 0.0 && w.approaching(c, x) && w.valid(c, x))
            || w.reached(c, x, y)
            || w.chord_entry(c, x, y).is_some()
    }

    /// The time (s from `x`) of contact `c`'s event in the interval of `h` seconds, if it has
    /// one (`y`: the states at its end).
    fn locate(&mut self, c: Contact, x: &[BallState], y: &[BallState], h: f64) -> Option<f64> {
        let w = &self.world;
        let (g0, g1) = (w.gap(c, x, x), w.gap(c, x, y));
        let start = if g0 <= 0.0 {
            if w.approaching(c, x) && w.valid(c, x) {
                // Touching and closing: the event is now.
                return Some(0.0);
            }
            // Touching and opening: an event only if it closes again within the interval;
            // find where it is open.
            if !(g1 <= 0.0 && w.approaching(c, y) && w.valid(c, x)) {
                return None;
            }
            let mut tau = h;
            let mut open = None;
            for _ in 0..REENTRY_HALVINGS {
                tau *= 0.5;
                let g = self.gap_after(c, x, tau);
                if g > 0.0 {
                    open = Some((tau, g));
                    break;
                }
            }
            open?
        } else {
            (0.0, g0)
        };
        let end = if g1 <= 0.0 {
            (h, g1)
        } else {
            let sigma = self.world.chord_entry(c, x, y)?;
            let tau = sigma * h;
            let g = self.gap_after(c, x, tau);
            if g > 0.0 {
                return None;
            }
            (tau, g)
        };
        self.ops.bump(LocatedOp::Locate);
        let mut evaluations = 0;
        let world = &self.world;
        let scratch = &mut self.scratch;
        let bracket = illinois::illinois(
            |tau| world.gap_after(c, x, tau, scratch),
            start,
            end,
            LOCATE_TOL,
            &mut evaluations,
        );
        self.ops.add(LocatedOp::LocateEvaluation, evaluations);
        let tau = if c.resolved_at_far_end() {
            bracket.hi
        } else {
            bracket.lo
        };
        // A collision only where the balls are closing and the contact point is real.
        self.gap_after(c, x, tau);
        let w = &self.world;
        (w.approaching(c, &self.scratch) && w.valid(c, &self.scratch)).then_some(tau)
    }

    fn gap_after(&mut self, c: Contact, x: &[BallState], tau: f64) -> f64 {
        self.ops.bump(LocatedOp::LocateEvaluation);
        self.world.gap_after(c, x, tau, &mut self.scratch)
    }

    /// One step of the `substep<k>` scheme from `x` at `t0` to `t1` (s).
    fn substep_step(&mut self, x: &mut Vec<BallState>, t0: f64, t1: f64, k: u16) {
        let dt = t1 - t0;
        self.evolve_into(x, dt, true);
        let trial = std::mem::take(&mut self.trial);
        let contact = self.earliest(x, &trial, dt, true).is_some();
        self.trial = trial;
        if !contact {
            self.end_of_step(x, t1);
            return;
        }
        let h = dt / f64::from(k);
        for j in 1..=k {
            self.ops.bump(LocatedOp::Substep);
            self.evolve_into(x, h, true);
            let t = if j == k { t1 } else { t0 + f64::from(j) * h };
            self.end_of_step(x, t);
        }
    }

    /// The `end_of_step` scheme's detection and resolution on the trial states (evolved
    /// from `x`), logged at `t`; `x` becomes the result. Transitions and pockets ball by ball,
    /// then overlapping closing pairs, then cushions crossed from the playing side.
    fn end_of_step(&mut self, x: &mut Vec<BallState>, t: f64) {
        let physics = self.world.physics;
        let table = self.world.table;
        let mut y = std::mem::take(&mut self.trial);
        // Every test below looks at a ball's start and end centers (the laws keep positions),
        // so the spans of the interval cull them as in `earliest`.
        self.swept_boxes(x, &y);
        let culled = self.culled;
        for k in 0..y.len() {
            if !x[k].motion.is_moving() {
                continue;
            }
            self.ops.bump(LocatedOp::TransitionTest);
            if let Some(kind) = physics.transition_crossed(&x[k], &y[k]) {
                self.ops.bump(LocatedOp::Resolve);
                y[k] = physics.apply_transition(&y[k], kind);
                self.log(t, (kind, Agents::Ball { ball: k }));
            }
            if !x[k].motion.is_translating() {
                continue;
            }
            let span = self.spans[k];
            for (q, zone) in table.pocket_zones().iter().enumerate() {
                if culled && span.apart_from(&self.reach.pockets[q]) {
                    continue;
                }
                self.ops.bump(LocatedOp::PocketTest);
                if zone.captures(x[k].r.xy(), y[k].r.xy()) {
                    self.ops.bump(LocatedOp::Resolve);
                    y[k] = physics.resolve_ball_pocket(&y[k], &table.pockets[q]);
                    let agents = Agents::BallPocket { ball: k, pocket: q };
                    self.log(t, (pool_physics::EventKind::BallPocket, agents));
                    break;
                }
            }
        }
        self.candidate_pairs(&y);
        for p in 0..self.pairs.len() {
            let (a, b) = self.pairs[p];
            self.ops.bump(LocatedOp::PairTest);
            let c = Contact::Pair { a, b };
            if self.world.gap(c, &y, &y) < 0.0 && self.world.approaching(c, &y) {
                self.ops.bump(LocatedOp::Resolve);
                if let Some(e) = self.world.resolve(c, x, &mut y, false) {
                    self.log(t, e);
                }
            }
        }
        for k in 0..y.len() {
            if !y[k].motion.is_translating() {
                continue;
            }
            let r0 = x[k].r.xy();
            let span = self.spans[k];
            // One cushion per ball per substep, straight segments first, then circular ones,
            // as the `end_of_step` scheme's cell lists order them.
            let n = table.segments().len();
            for c in 0..n + table.circular_segments().len() {
                let reach = if c < n {
                    &self.reach.segments[c]
                } else {
                    &self.reach.arcs[c - n]
                };
                if culled && span.apart_from(reach) {
                    continue;
                }
                self.ops.bump(LocatedOp::CushionTest);
                let radius = self.world.radii[k];
                if let Some((after, kind, agents)) =
                    cushion_hit(physics, table, c, r0, &y[k], radius, k)
                {
                    self.ops.bump(LocatedOp::Resolve);
                    y[k] = after;
                    self.log(t, (kind, agents));
                    break;
                }
            }
        }
        std::mem::swap(x, &mut y);
        self.trial = y;
    }
}

/// The boxes a ball's center must meet to touch each table element, computed once per run: a
/// segment's box grown by R (plus [`crate::cells::SLACK`]), an end point's, a circular
/// cushion's, a pocket circle's; and the cells' clear zone, a box no element's reaches into.
struct Reach {
    segments: Vec<Aabb>,
    points: Vec<Aabb>,
    arcs: Vec<Aabb>,
    pockets: Vec<Aabb>,
    cells: crate::cells::TableCells,
}

impl Reach {
    fn new(table: &pool_physics::PreparedTable, radius: f64) -> Self {
        let reach = radius + crate::cells::SLACK;
        Reach {
            segments: table
                .segments()
                .iter()
                .map(|s| s.bbox.grown(reach))
                .collect(),
            points: (table.end_points().iter())
                .map(|e| Aabb::of(&[e.p]).grown(reach))
                .collect(),
            arcs: (table.circular_segments().iter())
                .map(|a| a.bbox.grown(reach))
                .collect(),
            pockets: (table.pocket_zones().iter())
                .map(|c| c.reach(crate::cells::SLACK))
                .collect(),
            cells: crate::cells::TableCells::new(table, radius),
        }
    }

    /// Whether a span lies in the clear zone (both its corners do, and the zone is a box):
    /// no table element can be touched from it.
    fn clear(&self, span: &Aabb) -> bool {
        self.cells.in_clear_zone(span.min) && self.cells.in_clear_zone(span.max)
    }
}

/// Whether a ball in state `s` is on the playing side of the segment's line (a contact with a
/// face is only possible from there).
fn faces(seg: &LinearSegment, s: &BallState) -> bool {
    seg.signed_distance(s.r.xy()) >= 0.0
}
