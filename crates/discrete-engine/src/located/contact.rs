//! What the locator can time, one distance function per kind: each contact's *gap* is
//! positive before its event and zero or negative at and after it, along the balls' evolved
//! trajectories. A new table element kind is one more variant here: its gap, its approach test,
//! its chord test and its law.

use pool_physics::{hypot, BallState, EventKind, Physics, PreparedTable, Vec2};
use pool_sim::Agents;

/// One possible event of the balls in slots (see the engine's id order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Contact {
    /// Two balls (slots, `a < b`): gap |r_b - r_a| - D, D their contact distance (2R for
    /// equal balls, [`pool_physics::contact_distance`]).
    Pair { a: usize, b: usize },
    /// A ball and the face of a cushion segment: gap = signed distance - R, where the contact
    /// point lies on the segment.
    Face { ball: usize, segment: usize },
    /// A ball and a cushion end point ([`PreparedTable::end_points`]): gap |r - p| - R.
    EndPoint { ball: usize, point: usize },
    /// A ball and a circular cushion ([`PreparedTable::circular_segments`]): gap
    /// |r - c| - (R + r_c).
    Arc { ball: usize, arc: usize },
    /// A ball's center and a pocket's circle: gap |r - c| - radius.
    Pocket { ball: usize, pocket: usize },
    /// A ball's natural transition: gap = [`Physics::transition_margin`].
    Transition { ball: usize },
}

/// The world a contact is measured in.
pub(crate) struct World<'a, P: ?Sized> {
    pub physics: &'a P,
    pub table: &'a PreparedTable,
    /// Each slot's ball radius (m): a ball's parameters never change.
    pub radii: Vec<f64>,
    /// Each slot's index in the set-up (slots are in id order): how events and final states
    /// name the balls, and which ball of a pair the ball-ball law takes first.
    pub setup_index: Vec<usize>,
}

impl<P: Physics + ?Sized> World<'_, P> {
    /// Planar distance |q - p| (m), with the project's `hypot` (same bits on every platform).
    #[inline]
    fn dist(p: Vec2, q: Vec2) -> f64 {
        hypot(q.x - p.x, q.y - p.y)
    }

    /// The distance (m) at which the balls of slots `a` and `b` touch on the cloth.
    #[inline]
    fn touch(&self, a: usize, b: usize) -> f64 {
        pool_physics::contact_distance(self.radii[a], self.radii[b])
    }

    /// The contact's gap with the balls in `states` (m, or the margin's units for a
    /// transition, whose `before` is `start`).
    pub fn gap(&self, c: Contact, start: &[BallState], states: &[BallState]) -> f64 {
        match c {
            Contact::Pair { a, b } => {
                Self::dist(states[a].r.xy(), states[b].r.xy()) - self.touch(a, b)
            }
            Contact::Face { ball, segment } => {
                let r = self.radii[ball];
                self.table.segments()[segment].signed_distance(states[ball].r.xy()) - r
            }
            Contact::EndPoint { ball, point } => {
                let r = self.radii[ball];
                Self::dist(states[ball].r.xy(), self.table.end_points()[point].p) - r
            }
            Contact::Arc { ball, arc } => {
                let a = &self.table.circular_segments()[arc];
                Self::dist(states[ball].r.xy(), a.center) - (self.radii[ball] + a.radius)
            }
            Contact::Pocket { ball, pocket } => {
                let zone = &self.table.pocket_zones()[pocket];
                match &zone.line {
                    Some(line) => line.signed_distance(states[ball].r.xy()),
                    None => Self::dist(states[ball].r.xy(), zone.center) - zone.radius,
                }
            }
            Contact::Transition { ball } => {
                self.physics.transition_margin(&start[ball], &states[ball])
            }
        }
    }

    /// The gap `tau` seconds after `start`: the contact's balls evolved into their slots of
    /// `scratch` (the other slots are not read).
    pub fn gap_after(
        &self,
        c: Contact,
        start: &[BallState],
        tau: f64,
        scratch: &mut [BallState],
    ) -> f64 {
        for i in c.balls() {
            scratch[i] = self.physics.evolve(&start[i], tau);
        }
        self.gap(c, start, scratch)
    }

    /// Whether the contact is closing in `states` (always true for pockets and transitions):
    /// a collision law is only applied to a closing contact.
    pub fn approaching(&self, c: Contact, states: &[BallState]) -> bool {
        match c {
            Contact::Pair { a, b } => {
                let (sa, sb) = (&states[a], &states[b]);
                (sb.r.xy() - sa.r.xy()).dot(&(sb.v.xy() - sa.v.xy())) < 0.0
            }
            Contact::Face { ball, segment } => {
                states[ball]
                    .v
                    .xy()
                    .dot(&self.table.segments()[segment].normal)
                    < 0.0
            }
            Contact::EndPoint { ball, point } => {
                let p = self.table.end_points()[point].p;
                (p - states[ball].r.xy()).dot(&states[ball].v.xy()) > 0.0
            }
            Contact::Arc { ball, arc } => {
                let c = self.table.circular_segments()[arc].center;
                (c - states[ball].r.xy()).dot(&states[ball].v.xy()) > 0.0
            }
            Contact::Pocket { .. } | Contact::Transition { .. } => true,
        }
    }

    /// Whether a located contact is a real one: a face contact's point must lie on the segment
    /// (past its ends the end point or the next segment is hit), and so must a capture line's
    /// crossing.
    pub fn valid(&self, c: Contact, states: &[BallState]) -> bool {
        match c {
            Contact::Face { ball, segment } => {
                let p = self.table.segments()[segment].parameter(states[ball].r.xy());
                (0.0..=1.0).contains(&p)
            }
            Contact::Pocket { ball, pocket } => match &self.table.pocket_zones()[pocket].line {
                Some(line) => (0.0..=1.0).contains(&line.parameter(states[ball].r.xy())),
                None => true,
            },
            _ => true,
        }
    }

    /// Whether the contact is past contact at the end of the interval (`y`): its gap is not
    /// positive there, and for a face, the chord crossed the contact line where the contact
    /// point lies on the segment (as the `end_of_step` scheme's cushion test asks).
    pub fn reached(&self, c: Contact, x: &[BallState], y: &[BallState]) -> bool {
        if self.gap(c, x, y) > 0.0 {
            return false;
        }
        let Contact::Face { ball, segment } = c else {
            return true;
        };
        let seg = &self.table.segments()[segment];
        let (r0, r1) = (x[ball].r.xy(), y[ball].r.xy());
        let (d0, d1) = (seg.signed_distance(r0), seg.signed_distance(r1));
        let radius = self.radii[ball];
        let lambda = if d0 > radius {
            (d0 - radius) / (d0 - d1)
        } else {
            0.0
        };
        (0.0..=1.0).contains(&seg.parameter(r0 + (r1 - r0) * lambda))
    }

    /// Where along the straight chords from `x` to `y` (as a fraction of the interval) the
    /// contact comes closest, if it comes within contact there: catches a ball passing through
    /// another, an end point or a pocket within one step with both ends outside. `None` for
    /// faces (a line: the chord's ends decide) and transitions.
    pub fn chord_entry(&self, c: Contact, x: &[BallState], y: &[BallState]) -> Option<f64> {
        // The chord p0 -> p1 relative to a fixed point, and the contact distance.
        let (p0, p1, reach) = match c {
            Contact::Pair { a, b } => (
                x[b].r.xy() - x[a].r.xy(),
                y[b].r.xy() - y[a].r.xy(),
                self.touch(a, b),
            ),
            Contact::EndPoint { ball, point } => {
                let p = self.table.end_points()[point].p;
                (x[ball].r.xy() - p, y[ball].r.xy() - p, self.radii[ball])
            }
            Contact::Arc { ball, arc } => {
                let a = &self.table.circular_segments()[arc];
                let c = a.center;
                (
                    x[ball].r.xy() - c,
                    y[ball].r.xy() - c,
                    self.radii[ball] + a.radius,
                )
            }
            Contact::Pocket { ball, pocket } => {
                let zone = &self.table.pocket_zones()[pocket];
                if zone.line.is_some() {
                    // A line crossed within the interval ends it behind the line: g1 <= 0.
                    return None;
                }
                let c = zone.center;
                (x[ball].r.xy() - c, y[ball].r.xy() - c, zone.radius)
            }
            Contact::Face { .. } | Contact::Transition { .. } => return None,
        };
        let d = p1 - p0;
        let len_sq = d.norm_squared();
        if len_sq == 0.0 {
            return None;
        }
        let sigma = (-p0.dot(&d) / len_sq).clamp(0.0, 1.0);
        (sigma > 0.0 && sigma < 1.0 && (p0 + d * sigma).norm_squared() < reach * reach)
            .then_some(sigma)
    }

    /// Applies the contact's law (or its sustained partner, for a contact that keeps
    /// re-closing within one step) to `states`, evolved from `start` to the event, and returns
    /// the event to log (agents by slot), `None` for a transition whose margin came from
    /// rounding alone.
    pub fn resolve(
        &self,
        c: Contact,
        start: &[BallState],
        states: &mut [BallState],
        sustained: bool,
    ) -> Option<(EventKind, Agents)> {
        let p = self.physics;
        match c {
            Contact::Pair { a, b } => {
                // The earlier ball of the set-up first (`BallBallLaw`'s contract).
                let a_first = self.setup_index[a] < self.setup_index[b];
                let (na, nb) = if sustained {
                    p.resolve_sustained_ball_ball_in_setup_order(&states[a], &states[b], a_first)
                } else {
                    p.resolve_ball_ball_in_setup_order(&states[a], &states[b], a_first)
                };
                (states[a], states[b]) = (na, nb);
                Some((EventKind::BallBall, Agents::pair(a, b)))
            }
            Contact::Face { ball, segment } => {
                let s = &self.table.segments()[segment];
                let normal = s.outward_normal();
                states[ball] = self.cushion_law(&states[ball], normal, s.height, sustained);
                Some((EventKind::BallLinearCushion, cushion(ball, segment)))
            }
            Contact::EndPoint { ball, point } => {
                let e = &self.table.end_points()[point];
                let to_p = e.p - states[ball].r.xy();
                let normal = to_p / hypot(to_p.x, to_p.y);
                let height = self.table.segments()[e.segment].height;
                states[ball] = self.cushion_law(&states[ball], normal, height, sustained);
                Some((EventKind::BallLinearCushion, cushion(ball, e.segment)))
            }
            Contact::Arc { ball, arc } => {
                let a = &self.table.circular_segments()[arc];
                let to_c = a.center - states[ball].r.xy();
                let normal = to_c / hypot(to_c.x, to_c.y);
                let s = &states[ball];
                states[ball] = if sustained {
                    p.resolve_sustained_circular_cushion(s, normal, a.height)
                } else {
                    p.resolve_ball_circular_cushion(s, normal, a.height, a.radius)
                };
                let agents = Agents::BallCircularCushion { ball, cushion: arc };
                Some((EventKind::BallCircularCushion, agents))
            }
            Contact::Pocket { ball, pocket } => {
                states[ball] = p.resolve_ball_pocket(&states[ball], &self.table.pockets[pocket]);
                Some((EventKind::BallPocket, Agents::BallPocket { ball, pocket }))
            }
            Contact::Transition { ball } => {
                // The margin is <= 0 here, so the fixed-step rule names the transition.
                let kind = p.transition_crossed(&start[ball], &states[ball])?;
                states[ball] = p.apply_transition(&states[ball], kind);
                Some((kind, Agents::Ball { ball }))
            }
        }
    }

    fn cushion_law(&self, s: &BallState, normal: Vec2, height: f64, sustained: bool) -> BallState {
        if sustained {
            self.physics.resolve_sustained_cushion(s, normal, height)
        } else {
            self.physics.resolve_ball_cushion(s, normal, height)
        }
    }
}

fn cushion(ball: usize, cushion: usize) -> Agents {
    Agents::BallCushion { ball, cushion }
}

impl Contact {
    /// The balls (slots) the contact involves: one or two.
    pub fn balls(self) -> impl Iterator<Item = usize> {
        let (a, b) = match self {
            Contact::Pair { a, b } => (a, Some(b)),
            Contact::Face { ball, .. }
            | Contact::EndPoint { ball, .. }
            | Contact::Arc { ball, .. }
            | Contact::Pocket { ball, .. }
            | Contact::Transition { ball } => (ball, None),
        };
        std::iter::once(a).chain(b)
    }

    /// A collision with a ball or a cushion (a contact that can close again and be pressed).
    pub fn collision(self) -> bool {
        matches!(
            self,
            Contact::Pair { .. }
                | Contact::Face { .. }
                | Contact::EndPoint { .. }
                | Contact::Arc { .. }
        )
    }

    /// Transitions and pocket captures are resolved where their condition holds (the bracket's
    /// far end); collisions where the balls have not yet met (its near end), so that no law
    /// sees an overlap.
    pub fn resolved_at_far_end(self) -> bool {
        matches!(self, Contact::Pocket { .. } | Contact::Transition { .. })
    }
}
