//! Sustained contacts resolved together: the touching cluster of a pressed contact.
//!
//! A pressed contact rarely comes alone. In a rack or a jam, ball 6 pressed by ball 11 also
//! touches 5 and 10; resolving one pair at a time leaves each neighbour closing by a rounding
//! error (1e-12 m/s), which the predictor must treat as a collision now, and the pairs hand that
//! residue back and forth forever at one instant, an event each time, until any budget runs
//! out. Resolving the whole cluster at once, as one event, ends that: the sustained laws
//! are applied contact by contact (projected Gauss–Seidel on the inelastic contact problem) until
//! no contact in the cluster closes faster than half the predictor's approach threshold, members
//! that would stop anyway or are wedged are stopped, then the slop overlaps are closed the same
//! way and the contacts pushed once more.

use pool_physics::{
    BallState, LinearSegment, Model, MotionState, Physics, PreparedTable, Vec2, Vec3,
};

use crate::predict::{approach_tolerance, Contact, TOUCH_TOL};

/// Most sweeps over the cluster's contacts: Gauss–Seidel on a chain converges geometrically but
/// slowly when the chain is long. A cluster left unconverged is not wrong, only slower: its
/// remaining closing contacts come back as events at the same instant.
const MAX_SWEEPS: usize = 200;

/// The solver pushes a contact closing faster than this fraction of [`approach_tolerance`],
/// not the tolerance itself: the predictor measures the approach from trajectory coefficients,
/// the solver from states, and at the boundary their roundings disagreed: a pair closing at
/// 1.000e-12 m/s was "approaching" to one and "not closing" to the other, and collided again
/// unchanged at one instant until the budget ran out (pinned by the regression shot
/// `boundary_approach_15ball_1999229`).
const PUSH_MARGIN: f64 = 0.5;

/// Most rounds of pushing and stopping: each round stops at least one more ball.
const MAX_ROUNDS: usize = 16;

/// Overlap (m) below which a contact counts as closed: about 150 ulps of 2R. Moving balls
/// apart by exactly their overlap leaves rounding-level overlaps that would otherwise be chased
/// for every sweep.
const OVERLAP_EPS: f64 = 1e-15;

/// One contact of a cluster: a pair of balls, or a ball and a cushion with the unit normal on
/// the cloth from the ball's center toward the contact.
#[derive(Clone, Copy, Debug)]
enum Link {
    Balls(usize, usize),
    /// Ball, cushion segment, and where on the segment (face or end point).
    Wall(usize, usize, Contact),
    /// Ball and circular cushion segment.
    Arc(usize, usize),
}

/// Reused buffers for [`Cluster::settle`], so that resolving a cluster does not allocate once
/// the buffers have grown.
#[derive(Default)]
pub(crate) struct Cluster {
    members: Vec<usize>,
    in_cluster: Vec<bool>,
    links: Vec<Link>,
    stopped: Vec<bool>,
    normals: Vec<Vec2>,
}

impl Cluster {
    /// Resolves every sustained contact in the touching cluster of `seeds`: the balls reachable
    /// from them through contacts (ball–ball distance ≤ their contact distance (2R for equal
    /// balls) + [`TOUCH_TOL`], ball–cushion distance ≤ R + [`TOUCH_TOL`]), pocketed balls
    /// excluded. Each closing contact gets the physics'
    /// sustained law until none closes faster than [`PUSH_MARGIN`] times [`approach_tolerance`]
    /// (or [`MAX_SWEEPS`]), with members that would stop within [`TOUCH_TOL`] anyway, or that
    /// are wedged between walls, stopped and treated as walls ([`Cluster::push_until_still`]);
    /// then each overlap among them is closed by moving the balls apart along the contact
    /// normal (at most the slop a press leaves, about [`crate::CONTACT_SLOP`]), and the
    /// contacts are pushed once more on the final geometry.
    ///
    /// Returns the balls of the cluster (all of them may have changed), sorted by index.
    /// `rank` orders the sweep by ball id, so the result does not depend on the file's order.
    pub(crate) fn settle(
        &mut self,
        physics: &Model,
        table: &PreparedTable,
        rank: &[usize],
        now: &mut [BallState],
        seeds: &[usize],
    ) -> &[usize] {
        self.gather(physics, table, now, seeds);
        self.links.sort_by_key(|l| match *l {
            Link::Balls(a, b) => (0, rank[a].min(rank[b]), rank[a].max(rank[b])),
            Link::Wall(i, k, Contact::Face) => (1, rank[i], k),
            Link::Wall(i, _, Contact::Point(_)) => (2, rank[i], 0),
            Link::Arc(i, k) => (3, rank[i], k),
        });
        self.stopped.clear();
        self.stopped.resize(now.len(), false);
        self.push_until_still(physics, table, now);
        for _ in 0..MAX_SWEEPS {
            let mut moved = false;
            for &link in &self.links {
                moved |= separate(physics, table, now, link);
            }
            if !moved {
                break;
            }
        }
        // Closing the overlaps turned the normals by up to slop / R (1e-8 rad), enough to leave
        // a sliding pair closing at 1e-10 m/s: push once more on the final geometry.
        self.push_until_still(physics, table, now);
        self.members.sort_unstable();
        &self.members
    }

    /// Pushes until no contact closes, then stops the members that would come to rest within
    /// [`TOUCH_TOL`] anyway, and repeats while that stopped any. A member stopped so is a wall
    /// for the rest of the solve, or its pusher, still closing on it, would push it again and
    /// again.
    fn push_until_still(&mut self, physics: &Model, table: &PreparedTable, now: &mut [BallState]) {
        for _ in 0..MAX_ROUNDS {
            // A ball pressed into two walls (stopped balls or cushions) that leave it no way
            // out converges to rest only geometrically, at a rate set by the angle between
            // them: a ball squeezed between two stopped neighbours almost in line with it would
            // take more events than any budget (regression shot `wedged_ball_15ball_753110`).
            // Stop it outright.
            for k in 0..self.members.len() {
                let i = self.members[k];
                if !self.stopped[i] && self.wedged(physics, table, now, i) {
                    let s = &now[i];
                    now[i] = BallState::settled(
                        s.r,
                        Vec3::zeros(),
                        Vec3::new(0.0, 0.0, s.w.z),
                        physics.radius(s),
                    )
                    .with_set(s.set);
                    self.stopped[i] = true;
                }
            }
            for _ in 0..MAX_SWEEPS {
                let mut pushed = false;
                for &link in &self.links {
                    pushed |= push(physics, table, now, link, &self.stopped);
                }
                if !pushed {
                    break;
                }
            }
            let mut stopped = false;
            for &i in &self.members {
                if let Some(rest) = at_rest_within(physics, &now[i], TOUCH_TOL) {
                    now[i] = rest;
                    self.stopped[i] = true;
                    stopped = true;
                }
            }
            if !stopped {
                break;
            }
        }
    }

    /// Whether ball `i` moves into walls (members marked stopped, cushions) that together leave
    /// it no velocity: the projection of its velocity on the cone {u : u . n <= 0} of its
    /// walls' normals n (on the cloth, toward the walls) is zero. In the plane that projection
    /// is the velocity itself, or its projection on one wall's line, or zero when neither is
    /// feasible. Never in a model without friction.
    fn wedged(
        &mut self,
        physics: &Model,
        table: &PreparedTable,
        now: &[BallState],
        i: usize,
    ) -> bool {
        // Without friction (no transitions) nothing is ever stopped: the model's elastic laws
        // keep a wedged ball bouncing, as they should.
        if !now[i].motion.is_translating() || physics.next_transition(&now[i]).is_none() {
            return false;
        }
        let v = now[i].v.xy();
        let tol = approach_tolerance(v.norm());
        self.normals.clear();
        for &link in &self.links {
            let normal = match link {
                Link::Balls(a, b) if a == i && self.stopped[b] => now[b].r.xy() - now[a].r.xy(),
                Link::Balls(a, b) if b == i && self.stopped[a] => now[a].r.xy() - now[b].r.xy(),
                Link::Wall(w, k, contact) if w == i => {
                    contact.normal(&table.segments()[k], now[i].r.xy())
                }
                Link::Arc(w, k) if w == i => table.circular_segments()[k].normal(now[i].r.xy()),
                _ => continue,
            };
            self.normals.push(normal / normal.norm());
        }
        let feasible = |u: Vec2| self.normals.iter().all(|n| u.dot(n) <= tol);
        if self.normals.len() < 2 || feasible(v) {
            return false;
        }
        !self
            .normals
            .iter()
            .filter(|n| v.dot(n) > tol)
            .any(|n| feasible(v - n * v.dot(n)))
    }

    /// Collects the cluster's balls and contacts by a breadth-first search from `seeds`
    /// (ball–circular-cushion contacts: distance to the circle ≤ R + [`TOUCH_TOL`]).
    fn gather(
        &mut self,
        physics: &Model,
        table: &PreparedTable,
        now: &[BallState],
        seeds: &[usize],
    ) {
        self.members.clear();
        self.links.clear();
        self.in_cluster.clear();
        self.in_cluster.resize(now.len(), false);
        for &s in seeds {
            if !self.in_cluster[s] {
                self.in_cluster[s] = true;
                self.members.push(s);
            }
        }
        let mut next = 0;
        while next < self.members.len() {
            let i = self.members[next];
            next += 1;
            let ri = now[i].r.xy();
            let radius = physics.radius(&now[i]);
            for (j, s) in now.iter().enumerate() {
                if j == i || s.motion == MotionState::Pocketed {
                    continue;
                }
                let touch = physics.contact_distance(&now[i], s) + TOUCH_TOL;
                if (s.r.xy() - ri).norm() > touch {
                    continue;
                }
                // Each pair once: when its first ball is taken from the queue.
                if !self.in_cluster[j] {
                    self.in_cluster[j] = true;
                    self.members.push(j);
                    self.links.push(Link::Balls(i, j));
                } else if !self.members[..next - 1].contains(&j) {
                    self.links.push(Link::Balls(i, j));
                }
            }
            for (k, c) in table.segments().iter().enumerate() {
                let d = c.signed_distance(ri);
                if (0.0..=radius + TOUCH_TOL).contains(&d) && (0.0..=1.0).contains(&c.parameter(ri))
                {
                    self.links.push(Link::Wall(i, k, Contact::Face));
                }
            }
            for corner in table.end_points() {
                if (corner.p - ri).norm() <= radius + TOUCH_TOL {
                    let (p, k) = (corner.p, corner.segment);
                    self.links.push(Link::Wall(i, k, Contact::Point(p)));
                }
            }
            for (k, arc) in table.circular_segments().iter().enumerate() {
                if arc.gap(ri) <= radius + TOUCH_TOL {
                    self.links.push(Link::Arc(i, k));
                }
            }
        }
    }
}

/// The ball brought to rest where it is, if it would come to rest by itself within `travel`
/// (m) of where it is: its state after its transitions to rest, with its present position.
///
/// Why: a pushed ball in a jam can be left creeping at 1e-10 m/s. It stops within 1e-9 s, its
/// pusher catches it, shares its speed, and the two repeat that tens of thousands of times
/// (regression shot `creeping_pusher_9ball_7374`). A ball that will not move another `travel` = [`TOUCH_TOL`]
/// is at rest to within what contacts can resolve; stopping it moves nothing and only removes
/// energy. `None` for a ball that does not come to rest by itself (a frictionless model).
fn at_rest_within(physics: &Model, s: &BallState, travel: f64) -> Option<BallState> {
    if !s.motion.is_translating() {
        return None;
    }
    let mut end = *s;
    // Sliding, rolling, stationary: at most a few transitions in any model with friction.
    for _ in 0..4 {
        if !end.motion.is_translating() {
            break;
        }
        let tr = physics.next_transition(&end)?;
        end = physics.apply_transition(&physics.evolve(&end, tr.dt), tr.kind);
    }
    if end.motion.is_translating() || (end.r - s.r).xy().norm() > travel {
        return None;
    }
    end.r = s.r;
    Some(end)
}

/// The contact normal (unit, from the ball toward the contact) and the overlap (m, positive
/// when interpenetrating) of a ball–cushion link.
fn wall_contact(
    cushion: &LinearSegment,
    s: &BallState,
    contact: Contact,
    radius: f64,
) -> (Vec2, f64) {
    let r = s.r.xy();
    let depth = match contact {
        Contact::Face => radius - cushion.signed_distance(r),
        Contact::Point(p) => radius - (p - r).norm(),
    };
    (contact.normal(cushion, r), depth)
}

/// Applies the sustained law to `link` if it closes faster than [`PUSH_MARGIN`] times the
/// approach threshold; a ball
/// marked in `stopped` does not give way (the other ball gets the cushion's sustained law along
/// the line of centers). Returns whether it pushed.
fn push(
    physics: &Model,
    table: &PreparedTable,
    now: &mut [BallState],
    link: Link,
    stopped: &[bool],
) -> bool {
    match link {
        Link::Balls(a, b) => {
            if stopped[a] && stopped[b] {
                return false;
            }
            let (sa, sb) = (&now[a], &now[b]);
            let gap = sb.r.xy() - sa.r.xy();
            let n = gap / gap.norm();
            let closing = (sa.v.xy() - sb.v.xy()).dot(&n);
            let scale = sa.v.xy().norm() + sb.v.xy().norm();
            if closing <= PUSH_MARGIN * approach_tolerance(scale) {
                return false;
            }
            // A stopped ball is a wall touched at the pushing ball's center height, its R.
            if stopped[b] {
                now[a] = physics.resolve_sustained_cushion(sa, n, physics.radius(sa));
            } else if stopped[a] {
                now[b] = physics.resolve_sustained_cushion(sb, -n, physics.radius(sb));
            } else {
                // Balls are indexed as in the set-up: the earlier one first (`BallBallLaw`).
                let (na, nb) = physics.resolve_sustained_ball_ball_in_setup_order(sa, sb, a < b);
                now[a] = na;
                now[b] = nb;
            }
            true
        }
        Link::Wall(i, k, contact) => {
            let s = &now[i];
            let segment = &table.segments()[k];
            let normal = contact.normal(segment, s.r.xy());
            if s.v.xy().dot(&normal) <= PUSH_MARGIN * approach_tolerance(s.v.xy().norm()) {
                return false;
            }
            now[i] = physics.resolve_sustained_cushion(s, normal, segment.height);
            true
        }
        Link::Arc(i, k) => {
            let s = &now[i];
            let arc = &table.circular_segments()[k];
            let normal = arc.normal(s.r.xy());
            if s.v.xy().dot(&normal) <= PUSH_MARGIN * approach_tolerance(s.v.xy().norm()) {
                return false;
            }
            now[i] = physics.resolve_sustained_circular_cushion(s, normal, arc.height);
            true
        }
    }
}

/// Moves the balls of `link` apart along its normal if they overlap. Returns whether it did.
fn separate(physics: &Model, table: &PreparedTable, now: &mut [BallState], link: Link) -> bool {
    match link {
        Link::Balls(a, b) => {
            let gap = now[b].r.xy() - now[a].r.xy();
            let overlap = physics.contact_distance(&now[a], &now[b]) - gap.norm();
            if overlap <= OVERLAP_EPS {
                return false;
            }
            let shift = gap / gap.norm() * (0.5 * overlap);
            now[a].r.x -= shift.x;
            now[a].r.y -= shift.y;
            now[b].r.x += shift.x;
            now[b].r.y += shift.y;
            true
        }
        Link::Wall(i, k, contact) => {
            let radius = physics.radius(&now[i]);
            let (normal, depth) = wall_contact(&table.segments()[k], &now[i], contact, radius);
            if depth <= OVERLAP_EPS {
                return false;
            }
            now[i].r.x -= normal.x * depth;
            now[i].r.y -= normal.y * depth;
            true
        }
        Link::Arc(i, k) => {
            let arc = &table.circular_segments()[k];
            let r = now[i].r.xy();
            let depth = physics.radius(&now[i]) - arc.gap(r);
            if depth <= OVERLAP_EPS {
                return false;
            }
            let normal = arc.normal(r);
            now[i].r.x -= normal.x * depth;
            now[i].r.y -= normal.y * depth;
            true
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pool_physics::{BallParams, Vec3};
    use proptest::prelude::*;

    fn pool() -> Model {
        Model::pool(BallParams::pool())
    }

    fn rolling(physics: &Model, x: f64, y: f64, vx: f64, vy: f64) -> BallState {
        let r = physics.params().radius;
        let v = Vec3::new(vx, vy, 0.0);
        BallState::settled(Vec3::new(x, y, r), v, Vec3::new(-vy / r, vx / r, 0.0), r)
    }

    #[test]
    fn a_ball_that_stops_within_the_tolerance_is_stopped_where_it_is() {
        let p = pool();
        // Rolling travel to rest is v^2 / (2 mu_r g) = v^2 / 0.1962 m.
        let slow = rolling(&p, 1.0, 0.5, 3e-7, 0.0); // 4.6e-13 m to rest
        let rest = at_rest_within(&p, &slow, TOUCH_TOL).expect("stops within 1e-12 m");
        assert_eq!(rest.r, slow.r);
        assert_eq!(rest.v, Vec3::zeros());
        assert!(!rest.motion.is_translating());
        let faster = rolling(&p, 1.0, 0.5, 6e-7, 0.0); // 1.8e-12 m to rest
        assert!(at_rest_within(&p, &faster, TOUCH_TOL).is_none());
        // Without friction nothing stops by itself.
        let ideal = Model::ideal(0.03, 0.17);
        let s = BallState::settled(
            Vec3::new(1.0, 0.5, 0.03),
            Vec3::new(1e-9, 0.0, 0.0),
            Vec3::zeros(),
            0.03,
        );
        assert!(at_rest_within(&ideal, &s, TOUCH_TOL).is_none());
    }

    #[test]
    fn a_creeping_ball_pressing_a_frozen_row_brings_the_row_to_rest_at_once() {
        let p = pool();
        let two_r = 2.0 * p.params().radius;
        let table = PreparedTable::from(pool_physics::Table::seven_foot());
        let mut now: Vec<BallState> = (0..6)
            .map(|k| rolling(&p, 0.5 + k as f64 * two_r, 0.6, 0.0, 0.0))
            .collect();
        now[0] = rolling(&p, 0.5, 0.6, 5e-7, 0.0);
        let before = now.clone();
        let rank: Vec<usize> = (0..6).collect();
        let members = Cluster::default()
            .settle(&p, &table, &rank, &mut now, &[0, 1])
            .to_vec();
        assert_eq!(members, (0..6).collect::<Vec<_>>());
        for (s, b) in now.iter().zip(&before) {
            assert!(!s.motion.is_translating(), "{s:?}");
            assert!((s.r - b.r).norm() <= 1e-15);
        }
    }

    /// A random cluster: a chain of balls, each touching the previous one (at distance 2R minus
    /// up to the slop) at a random angle and none overlapping another by more than the slop,
    /// with random small velocities and spins.
    fn cluster() -> impl Strategy<Value = Vec<BallState>> {
        prop::collection::vec(
            (
                -1.0f64..1.0,
                0.0f64..2e-10,
                -0.05f64..0.05,
                -0.05f64..0.05,
                -3.0f64..3.0,
                prop::bool::ANY,
            ),
            2..8,
        )
        .prop_map(|links| {
            let p = pool();
            let r = p.params().radius;
            let mut out: Vec<BallState> = Vec::new();
            let (mut x, mut y) = (1.0, 0.6);
            for (angle, overlap, vx, vy, wz, rolls) in links {
                if let Some(prev) = out.last() {
                    let d = 2.0 * r - overlap;
                    x = prev.r.x + d * (angle * 1.5f64).cos();
                    y = prev.r.y + d * (angle * 1.5f64).sin();
                }
                let v = Vec3::new(vx, vy, 0.0);
                let w = if rolls {
                    Vec3::new(-vy / r, vx / r, wz)
                } else {
                    Vec3::new(0.0, 0.0, wz)
                };
                out.push(BallState::settled(Vec3::new(x, y, r), v, w, r));
            }
            out
        })
        .prop_filter("balls overlap by more than the slop", |balls| {
            let two_r = 2.0 * pool().params().radius;
            balls.iter().enumerate().all(|(i, a)| {
                balls[i + 1..]
                    .iter()
                    .all(|b| (a.r - b.r).xy().norm() >= two_r - 2.5e-10)
            })
        })
    }

    proptest! {
        #[test]
        fn settling_a_cluster_leaves_no_contact_closing_and_no_energy_gained(start in cluster()) {
            let p = pool();
            let table = PreparedTable::from(pool_physics::Table::seven_foot());
            let rank: Vec<usize> = (0..start.len()).collect();
            let mut now = start.clone();
            let mut c = Cluster::default();
            let members = c.settle(&p, &table, &rank, &mut now, &[0, 1]).to_vec();
            let energy = |s: &[BallState]| s.iter().map(|b| p.kinetic_energy(b)).sum::<f64>();
            prop_assert!(energy(&now) <= energy(&start) * (1.0 + 1e-12) + 1e-18);
            let r = p.params().radius;
            for &i in &members {
                // Positions move only to close the slop overlaps.
                prop_assert!((now[i].r - start[i].r).norm() <= 1e-9);
                for &j in &members {
                    if i < j {
                        let gap = now[j].r.xy() - now[i].r.xy();
                        if gap.norm() <= 2.0 * r + TOUCH_TOL {
                            let closing = (now[i].v.xy() - now[j].v.xy()).dot(&gap) / gap.norm();
                            let scale = now[i].v.xy().norm() + now[j].v.xy().norm();
                            prop_assert!(closing <= approach_tolerance(scale), "{i}-{j} closing {closing:e}");
                            prop_assert!(2.0 * r - gap.norm() <= 1e-12, "{i}-{j} overlap");
                        }
                    }
                }
            }
        }
    }
}
