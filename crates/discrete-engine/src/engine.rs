//! The fixed-step loop.

use pool_physics::{
    BallState, CircularSegment, EventKind, LinearSegment, MotionState, Physics, PreparedTable, Vec2,
};
use pool_sim::{Agents, Engine, Event, Outcome, Setup, Snapshot, Termination};

use crate::ops::{DiscreteOp, DiscreteOps};

use crate::broad::{unpack, BroadPhase, PairSweep};
use crate::cells::TableCells;
use crate::Scheme;

/// The discrete-time integrator.
#[derive(Clone, Debug)]
pub struct DiscreteEngine {
    /// Time step dt (s).
    pub dt: f64,
    /// How each ball is advanced over a step.
    pub scheme: Scheme,
    /// Longest simulated time (s) before stopping with [`Termination::Budget`] when the set-up
    /// has no `t_end`.
    pub max_time: f64,
    /// Record every ball's state about every this many seconds (and at every event), for
    /// drawing paths; `None` records nothing.
    pub sample_interval: Option<f64>,
    /// How the ball pairs, cushions and pockets to test are found each step (same events and
    /// states either way; only the work differs).
    pub broad_phase: BroadPhase,
    /// Stop with [`Termination::Budget`] at the end of the step in which the log reached
    /// this many events (`None`: no limit). For restarts that only want the next event.
    pub max_events: Option<usize>,
}

/// The simulated time (s) after which a run of a set-up without `t_end` stops with
/// [`Termination::Budget`] (the default [`DiscreteEngine::max_time`]).
pub const MAX_TIME: f64 = 120.0;

/// The time steps (s) the integrator accepts, [`DT_MIN`, `DT_MAX`].
pub const DT_MIN: f64 = 1e-7;
/// See [`DT_MIN`].
pub const DT_MAX: f64 = 1.0;

/// A time step outside [[`DT_MIN`], [`DT_MAX`]] (or not a number).
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("dt = {0:?} s: must be in [{DT_MIN:e}, {DT_MAX}] s (a 10 s shot at the smallest takes 1e8 steps per ball)")]
pub struct InvalidDt(pub f64);

impl DiscreteEngine {
    /// An integrator with step `dt` (s) and the given scheme; [`MAX_TIME`] budget; no snapshots.
    ///
    /// # Errors
    /// `dt` outside [[`DT_MIN`], [`DT_MAX`]] s.
    pub fn new(dt: f64, scheme: Scheme) -> Result<Self, InvalidDt> {
        if !(DT_MIN..=DT_MAX).contains(&dt) {
            return Err(InvalidDt(dt));
        }
        Ok(DiscreteEngine {
            dt,
            scheme,
            max_time: MAX_TIME,
            sample_interval: None,
            broad_phase: BroadPhase::default(),
            max_events: None,
        })
    }

    /// Builder: stop after the step in which the log reached `limit` events.
    pub fn with_max_events(mut self, limit: Option<usize>) -> Self {
        self.max_events = limit;
        self
    }

    /// Builder: how candidates are found ([`BroadPhase::Culled`] by default).
    pub fn with_broad_phase(mut self, broad_phase: BroadPhase) -> Self {
        self.broad_phase = broad_phase;
        self
    }

    /// Builder: record snapshots about every `interval` seconds.
    pub fn with_sampling(mut self, interval: Option<f64>) -> Self {
        self.sample_interval = interval;
        self
    }
}

impl Engine for DiscreteEngine {
    fn run(&self, setup: &Setup) -> Outcome {
        if let Some(mode) = self.scheme.in_step() {
            return crate::located::run(self, setup, mode);
        }
        let physics = &setup.physics;
        let table = &setup.table;
        let dt = self.dt;
        let n = setup.balls.len();
        let culled = self.broad_phase == BroadPhase::Culled;
        // Balls are held and visited in id order (slot k holds ball `order[k]` of the set-up),
        // so that which of two simultaneous contacts is resolved first does not depend on the
        // order of the balls in the shot file. Events, snapshots and final states name balls
        // by their index in the set-up.
        let rank = pool_sim::id_ranks(setup);
        let mut order = vec![0; n];
        for (i, &k) in rank.iter().enumerate() {
            order[k] = i;
        }
        let in_setup_order = |slots: &[BallState]| {
            let mut out = slots.to_vec();
            for (k, s) in slots.iter().enumerate() {
                out[order[k]] = *s;
            }
            out
        };
        let (initial, strike) = setup.initial_states();
        let mut now: Vec<BallState> = order.iter().map(|&i| initial[i]).collect();
        // Each slot's radius (a ball's parameters never change), and the largest contact
        // distance, which bounds the broad phase's and the cells' reach; balls of one radius
        // touch at exactly 2R, the pair test's constant.
        let radii: Vec<f64> = now.iter().map(|s| physics.radius(s)).collect();
        let largest = radii.iter().fold(0.0f64, |m, &r| m.max(r));
        let one_radius = radii.iter().all(|&r| r == largest);
        // The states at the start of the step: the two buffers trade places each step, and the
        // advance writes every slot of the new one (a moving ball's evolved state in place, a
        // resting ball's copied long before anything reads it: a state copied field by field and
        // read back soon after in wider pieces stalls store forwarding).
        let mut before = now.clone();
        let mut ops = DiscreteOps::default();
        let mut events: Vec<Event> = strike.into_iter().collect();
        let mut pocketings: Vec<(usize, usize)> = Vec::new();
        let mut snapshots = Vec::new();
        let sample_every = self
            .sample_interval
            .map(|s| ((s / dt).round() as u64).max(1));
        let t_limit = setup.t_end.unwrap_or(self.max_time);
        let max_steps = (t_limit / dt).ceil() as u64;
        // Built once per run; every per-step buffer below is reused (no allocation per step
        // except for the event log and snapshots).
        let cells = TableCells::new(table, largest);
        let mut sweep = PairSweep::default();
        // Whether a ball moved outside its box of the last sweep (see `PairSweep::holds`).
        let mut stale = true;
        let mut all_pairs: Vec<u64> = Vec::new();
        let mut step: u64 = 0;
        let mut t = 0.0;
        if sample_every.is_some() {
            snapshots.push(Snapshot {
                time: 0.0,
                states: in_setup_order(&now),
            });
        }

        // Every state is checked when it is written (a state not written keeps its verdict),
        // which finds the same non-finite states as checking every ball at every step. The
        // verdicts are summed as `non_finite` marks: 0 while all are finite, NaN for good after
        // the first that is not.
        let mut marks: f64 = now.iter().map(non_finite).sum();
        // Whether each slot's position is in the cells' clear zone, kept true to `now` (every
        // write of a position updates it), and its value at the start of the step.
        let mut clear: Vec<bool> = now.iter().map(|s| cells.in_clear_zone(s.r.xy())).collect();
        let mut clear_before = clear.clone();
        let termination = loop {
            let moving = now.iter().any(|s| s.motion.is_moving());
            if !moving {
                break Termination::AtRest;
            }
            if marks != 0.0 {
                break Termination::NumericalError;
            }
            if let Some(stop) =
                pool_sim::out_of_steps(setup, step, max_steps, events.len(), self.max_events)
            {
                break stop;
            }
            step += 1;
            ops.bump(DiscreteOp::Step);
            // Time from the step count, not by accumulation, so that t_k = k dt exactly.
            t = step as f64 * dt;
            let events_before = events.len();

            // Advance, then look for a transition whose condition changed sign, then for a
            // pocket holding the center. The pocket test reads this ball alone, so it is done
            // while the state is at hand; its event is logged after every transition of the
            // step, as a separate pass would.
            std::mem::swap(&mut before, &mut now);
            std::mem::swap(&mut clear_before, &mut clear);
            self.scheme.step_all(physics, &before, dt, &mut now);
            // Kept local to the pass (a register, not the run's spilled totals).
            let (mut advanced, mut step_marks) = (0, 0.0);
            let slots = now.iter_mut().zip(&before).zip(clear.iter_mut());
            for (k, (((slot, before), clear), clear_was)) in slots.zip(&clear_before).enumerate() {
                if !before.motion.is_moving() {
                    (*slot, *clear) = (*before, *clear_was);
                    continue;
                }
                advanced += 1;
                if let Some(kind) = physics.transition_crossed(before, slot) {
                    ops.bump(DiscreteOp::Resolve);
                    events.push(Event {
                        time: t,
                        kind,
                        agents: Agents::Ball { ball: order[k] },
                    });
                    *slot = physics.apply_transition(slot, kind);
                }
                step_marks += non_finite(slot);
                let p = slot.r.xy();
                stale |= !sweep.holds(k, p.x, p.y);
                *clear = cells.in_clear_zone(p);

                // Pockets: a center inside the circle, or across the capture line.
                if !before.motion.is_translating()
                    || (culled && cells.no_pocket_on_path(*clear_was, *clear))
                {
                    continue;
                }
                let p0 = before.r.xy();
                let near = if culled {
                    cells.pockets_near(p0, p)
                } else {
                    cells.all_pockets()
                };
                for &q in near {
                    let q = q as usize;
                    ops.bump(DiscreteOp::PocketTest);
                    if table.pocket_zones()[q].captures(p0, p) {
                        ops.bump(DiscreteOp::Resolve);
                        let captured = physics.resolve_ball_pocket(slot, &table.pockets[q]);
                        position_written(slot, &captured, &cells, &mut stale, clear);
                        *slot = captured;
                        step_marks += non_finite(slot);
                        pocketings.push((k, q));
                        break;
                    }
                }
            }
            ops.add(DiscreteOp::Evolve, advanced);
            ops.add(DiscreteOp::TransitionTest, advanced);
            marks += step_marks;
            if !pocketings.is_empty() {
                events.extend(pocketings.drain(..).map(|(k, q)| Event {
                    time: t,
                    kind: EventKind::BallPocket,
                    agents: Agents::BallPocket {
                        ball: order[k],
                        pocket: q,
                    },
                }));
            }

            // Ball pairs: overlapping and approaching, visited in id order (lower slot first,
            // then the other's slot). The culled search yields the pairs closer than the
            // largest contact distance in x and in y, in that same order; the states they are
            // tested on are the same.
            let two_r = 2.0 * largest;
            let found = if culled {
                let state = &now;
                let listed = sweep.candidates(
                    stale,
                    |k| (state[k].r.x, state[k].r.y),
                    |k| state[k].motion != MotionState::Pocketed,
                    n,
                    two_r,
                );
                stale = false;
                listed
            } else {
                None
            };
            let candidates: &[u64] = match found {
                Some(keys) => keys,
                None => {
                    if all_pairs.is_empty() {
                        all_pairs.extend(
                            (0..n as u64)
                                .flat_map(|a| (a + 1..n as u64).map(move |b| (a << 32) | b)),
                        );
                    }
                    &all_pairs
                }
            };
            for &key in candidates {
                let (i, j) = unpack(key);
                if now[i].motion == MotionState::Pocketed
                    || now[j].motion == MotionState::Pocketed
                    || !(now[i].motion.is_translating() || now[j].motion.is_translating())
                {
                    continue;
                }
                ops.bump(DiscreteOp::PairTest);
                let d = now[j].r.xy() - now[i].r.xy();
                let touch = if one_radius {
                    two_r
                } else {
                    pool_physics::contact_distance(radii[i], radii[j])
                };
                if d.norm_squared() < touch * touch && d.dot(&(now[j].v.xy() - now[i].v.xy())) < 0.0
                {
                    ops.bump(DiscreteOp::Resolve);
                    // The law takes the earlier ball of the set-up first (`BallBallLaw`'s
                    // contract); slots are in id order.
                    let (a, b) = physics.resolve_ball_ball_in_setup_order(
                        &now[i],
                        &now[j],
                        order[i] < order[j],
                    );
                    marks += non_finite(&a) + non_finite(&b);
                    position_written(&now[i], &a, &cells, &mut stale, &mut clear[i]);
                    position_written(&now[j], &b, &cells, &mut stale, &mut clear[j]);
                    now[i] = a;
                    now[j] = b;
                    events.push(Event {
                        time: t,
                        kind: EventKind::BallBall,
                        agents: Agents::pair(order[i], order[j]),
                    });
                }
            }

            // Cushions: a ball past the line of a face (from the playing side), closer than R
            // to an end point, or closer than R + r to a circular cushion's center (or through
            // it during the step), while approaching.
            for (k, slot) in now.iter_mut().enumerate() {
                if !slot.motion.is_translating() {
                    continue;
                }
                let radius = radii[k];
                let (r0, r1) = (before[k].r.xy(), slot.r.xy());
                if culled && clear_before[k] && clear[k] {
                    continue;
                }
                let near = if culled {
                    cells.cushions_near(r0, r1)
                } else {
                    cells.all_cushions()
                };
                for &c in near {
                    let c = c as usize;
                    ops.bump(DiscreteOp::CushionTest);
                    let hit = cushion_hit(physics, table, c, r0, slot, radius, order[k]);
                    if let Some((after, kind, agents)) = hit {
                        ops.bump(DiscreteOp::Resolve);
                        position_written(slot, &after, &cells, &mut stale, &mut clear[k]);
                        *slot = after;
                        marks += non_finite(slot);
                        events.push(Event {
                            time: t,
                            kind,
                            agents,
                        });
                        break;
                    }
                }
            }

            if let Some(every) = sample_every {
                if step.is_multiple_of(every) || events.len() > events_before {
                    snapshots.push(Snapshot {
                        time: t,
                        states: in_setup_order(&now),
                    });
                }
            }
        };
        if sample_every.is_some() && snapshots.last().is_none_or(|s| s.time < t) {
            snapshots.push(Snapshot {
                time: t,
                states: in_setup_order(&now),
            });
        }
        Outcome {
            events,
            final_states: in_setup_order(&now),
            end_time: t,
            termination,
            ops: ops.counts(),
            snapshots,
            engine_s: None,
        }
    }
}

/// Keeps the run's bookkeeping true to `new`, a law's result about to replace `old` in a slot:
/// the laws here keep positions, but one that moved a ball would outdate the pair list
/// (`stale`) and the slot's clear-zone flag.
#[inline]
fn position_written(
    old: &BallState,
    new: &BallState,
    cells: &TableCells,
    stale: &mut bool,
    clear: &mut bool,
) {
    if new.r != old.r {
        *stale = true;
        *clear = cells.in_clear_zone(new.r.xy());
    }
}

/// 0 for a state whose every component is finite, NaN otherwise (`BallState::is_finite` as a
/// mark that sums: x - x is 0 for a finite x and NaN for an infinite or NaN one, and a sum
/// with a NaN term is NaN). A few vector instructions, no branch.
#[inline]
#[allow(clippy::eq_op)] // x - x is the point: it is not 0 for an infinite or NaN x.
pub(crate) fn non_finite(s: &BallState) -> f64 {
    let zero = |u: &pool_physics::Vec3| (u.x - u.x) + (u.y - u.y) + (u.z - u.z);
    zero(&s.r) + zero(&s.v) + zero(&s.w)
}

/// The end-of-step test of ball `s` (radius `radius`, logged as `ball`), which moved from `r0`
/// during the step, against cushion `c` of the table's cushion list (straight segments k < n,
/// then circular cushions n + j, as [`TableCells`] numbers them): if it is in contact and
/// approaching, its state after the cushion's law, the event kind and the agents.
#[inline]
pub(crate) fn cushion_hit<P: Physics + ?Sized>(
    physics: &P,
    table: &PreparedTable,
    c: usize,
    r0: Vec2,
    s: &BallState,
    radius: f64,
    ball: usize,
) -> Option<(BallState, EventKind, Agents)> {
    match table.segments().get(c) {
        Some(segment) => cushion_contact(segment, r0, s, radius).map(|n| {
            let after = physics.resolve_ball_cushion(s, n, segment.height);
            let agents = Agents::BallCushion { ball, cushion: c };
            (after, EventKind::BallLinearCushion, agents)
        }),
        None => {
            let j = c - table.segments().len();
            let arc = &table.circular_segments()[j];
            arc_contact(arc, r0, s, radius).map(|n| {
                let after = physics.resolve_ball_circular_cushion(s, n, arc.height, arc.radius);
                let agents = Agents::BallCircularCushion { ball, cushion: j };
                (after, EventKind::BallCircularCushion, agents)
            })
        }
    }
}

/// The collision normal (from the ball toward the cushion) if the ball, which moved from `r0` to
/// `s.r` during the step, is in contact with the segment and approaching it.
fn cushion_contact(c: &LinearSegment, r0: Vec2, s: &BallState, radius: f64) -> Option<Vec2> {
    let r1 = s.r.xy();
    let v = s.v.xy();
    let n = c.normal;
    let (d0, d1) = (c.signed_distance(r0), c.signed_distance(r1));
    if d0 >= 0.0 && d1 < radius && v.dot(&n) < 0.0 {
        // Where the center path crossed the contact line d = R (the ball may have tunnelled).
        let lambda = if d0 > radius {
            (d0 - radius) / (d0 - d1)
        } else {
            0.0
        };
        let crossing = r0 + (r1 - r0) * lambda;
        if (0.0..=1.0).contains(&c.parameter(crossing)) {
            return Some(-n);
        }
    }
    for p in [c.start, c.end] {
        let to_p = p - r1;
        if to_p.norm_squared() < radius * radius && v.dot(&to_p) > 0.0 {
            return Some(to_p.normalize());
        }
    }
    None
}

/// The collision normal (from the ball toward the circle's center) if the ball, which moved
/// from `r0` to `s.r` during the step, is in contact with the circular cushion (its center
/// closer than R + r to the circle's) and approaching it, or passed through it during the step:
/// then the normal where its straight path from `r0` entered, if it was approaching there.
fn arc_contact(a: &CircularSegment, r0: Vec2, s: &BallState, radius: f64) -> Option<Vec2> {
    let (r1, v) = (s.r.xy(), s.v.xy());
    let reach = radius + a.radius;
    let to_center = a.center - r1;
    if to_center.norm_squared() < reach * reach {
        return (v.dot(&to_center) > 0.0).then(|| to_center.normalize());
    }
    // Both ends outside: did the path between them cut the circle (a tunnel)?
    let (m, d) = (r0 - a.center, r1 - r0);
    let dd = d.norm_squared();
    if dd == 0.0 || m.norm_squared() < reach * reach {
        return None;
    }
    let closest = -m.dot(&d) / dd;
    let miss = (m + d * closest).norm_squared();
    if !(0.0..=1.0).contains(&closest) || miss >= reach * reach {
        return None;
    }
    let entry = closest - ((reach * reach - miss) / dd).sqrt();
    let normal = (a.center - (r0 + d * entry)).normalize();
    (v.dot(&normal) > 0.0).then_some(normal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pool_physics::Vec3;

    #[test]
    fn non_finite_marks_exactly_the_states_with_a_non_finite_component() {
        let base = BallState::new(
            Vec3::new(0.5, 0.25, 0.028575),
            Vec3::new(1.0, -2.0, 0.0),
            Vec3::new(3.0, 4.0, -5.0),
            0.028575,
        );
        assert_eq!(non_finite(&base), 0.0);
        let huge = BallState {
            r: Vec3::new(f64::MAX, -f64::MAX, f64::MIN_POSITIVE),
            ..base
        };
        assert_eq!(non_finite(&huge), 0.0);
        for k in 0..9 {
            for bad in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
                let mut s = base;
                let u = [&mut s.r, &mut s.v, &mut s.w]
                    .into_iter()
                    .nth(k / 3)
                    .unwrap();
                u[k % 3] = bad;
                assert!(!s.is_finite());
                assert!(non_finite(&s).is_nan(), "component {k} = {bad}");
                // A mark, once summed in, stays.
                assert!((non_finite(&s) + non_finite(&base) + non_finite(&huge)).is_nan());
            }
        }
    }
}
