//! Invariants of a run, checked from its snapshots.

use pool_physics::{EventKind, MotionState, Physics};
use pool_sim::{Agents, Outcome, Setup, Snapshot, Termination};

/// What [`check_outcome`] measured. Distances in metres.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct InvariantReport {
    /// Collisions examined.
    pub n_collisions: usize,
    /// Max over ball-ball collisions of | |r_a - r_b| - D | at the event time, D the pair's
    /// contact distance (2R for equal balls), or D + s after a law whose contact spacer s
    /// moved the pair apart (pooltool's `make_kiss`, `resolve::spacer`): the nearer of the two.
    pub max_ball_ball_residual_m: f64,
    /// Max over ball-cushion collisions of |distance to the face or end point - R| (straight
    /// cushions) or |distance to the circle - R| (circular ones), R + s after a spacer s, as
    /// for ball-ball.
    pub max_cushion_residual_m: f64,
    /// Largest overlap between two balls (D - |d|, D their contact distance) seen at any sample,
    /// 0 if none.
    pub max_overlap_m: f64,
    /// The overlap [`violations`] allows (m): [`CONTACT_TOL_M`], plus [`SPACER_OVERLAPS`] times
    /// the largest contact spacer of the run's collision laws.
    pub overlap_allowance_m: f64,
    /// Largest penetration of a ball into a cushion, straight or circular (R - distance), at
    /// any sample, 0 if none.
    pub max_cushion_penetration_m: f64,
    /// Balls seen off the table (id and time), if any.
    pub off_table: Vec<(String, f64)>,
    /// Number of events whose time is earlier than the previous event's.
    pub time_reversals: usize,
    /// Number of events across which total kinetic energy rose by more than 1e-12 relative.
    pub energy_rises: usize,
}

/// How many consecutive snapshots show the total kinetic energy rising by more than 1e-12
/// relative (plus 1e-15 J for rounding near zero): the energy check of [`check_outcome`],
/// alone, for outcomes sampled at fixed times (the discrete integrator's).
pub fn energy_rises(physics: &impl Physics, snapshots: &[Snapshot]) -> usize {
    let energy = |states: &[pool_physics::BallState]| -> f64 {
        states.iter().map(|s| physics.kinetic_energy(s)).sum()
    };
    snapshots
        .windows(2)
        .filter(|w| energy(&w[1].states) > energy(&w[0].states) * (1.0 + 1e-12) + 1e-15)
        .count()
}

/// Checks an outcome with snapshots at every event (the event engine's
/// `with_snapshots(true)`): contact residuals at each collision, and between events, at
/// `samples` evenly spaced times per interval (evolved from the snapshot), no overlap, no
/// cushion penetration, no ball off the table; times non-decreasing; energy never rising.
pub fn check_outcome(setup: &Setup, outcome: &Outcome, samples: usize) -> InvariantReport {
    let physics = &setup.physics;
    let table = &setup.table;
    let laws = physics.resolver();
    // The residual of a contact at distance `d` that should be `touch`, or `touch + spacer`
    // when the law moved the bodies apart first.
    let off = |d: f64, touch: f64, spacer: f64| (d - touch).abs().min((d - touch - spacer).abs());
    let spacer = (laws.ball_ball.spacer())
        .max(laws.ball_linear_cushion.spacer())
        .max(laws.ball_circular_cushion.spacer());
    let mut rep = InvariantReport {
        overlap_allowance_m: CONTACT_TOL_M + SPACER_OVERLAPS * spacer,
        ..InvariantReport::default()
    };
    let snaps = &outcome.snapshots;
    for (k, e) in outcome.events.iter().enumerate() {
        if k > 0 && e.time < outcome.events[k - 1].time {
            rep.time_reversals += 1;
        }
        let Some(snap) = snaps.get(k + 1) else { break };
        match e.agents {
            Agents::BallBall { a, b } => {
                rep.n_collisions += 1;
                let (sa, sb) = (&snap.states[a], &snap.states[b]);
                let d = (sa.r.xy() - sb.r.xy()).norm();
                let touch = physics.contact_distance(sa, sb);
                let residual = off(d, touch, laws.ball_ball.spacer());
                rep.max_ball_ball_residual_m = rep.max_ball_ball_residual_m.max(residual);
            }
            Agents::BallCushion { ball, cushion } if e.kind == EventKind::BallLinearCushion => {
                rep.n_collisions += 1;
                let c = &table.segments()[cushion];
                let p = snap.states[ball].r.xy();
                let radius = physics.radius(&snap.states[ball]);
                let spacer = laws.ball_linear_cushion.spacer();
                let mut best = off((p - c.start).norm(), radius, spacer).min(off(
                    (p - c.end).norm(),
                    radius,
                    spacer,
                ));
                if (0.0..=1.0).contains(&c.parameter(p)) {
                    best = best.min(off(c.signed_distance(p), radius, spacer));
                }
                rep.max_cushion_residual_m = rep.max_cushion_residual_m.max(best);
            }
            Agents::BallCircularCushion { ball, cushion } => {
                rep.n_collisions += 1;
                let s = &snap.states[ball];
                let gap = table.circular_segments()[cushion].gap(s.r.xy());
                let radius = physics.radius(s);
                let spacer = laws.ball_circular_cushion.spacer();
                rep.max_cushion_residual_m =
                    rep.max_cushion_residual_m.max(off(gap, radius, spacer));
            }
            _ => {}
        }
    }
    // A cue strike gives the ball its energy: energy may rise across it, never after.
    let from = usize::from(
        outcome
            .events
            .first()
            .is_some_and(|e| e.kind == EventKind::StickBall),
    );
    rep.energy_rises = energy_rises(physics, &snaps[from.min(snaps.len())..]);
    for (k, snap) in snaps.iter().enumerate() {
        let span = snaps.get(k + 1).map_or(0.0, |n| n.time - snap.time);
        let pieces = if span > 0.0 { samples.max(1) } else { 1 };
        for p in 0..pieces {
            let dt = span * p as f64 / pieces as f64;
            let t = snap.time + dt;
            let states: Vec<_> = snap.states.iter().map(|s| physics.evolve(s, dt)).collect();
            for (i, s) in states.iter().enumerate() {
                if s.motion == MotionState::Pocketed {
                    continue;
                }
                let r = s.r.xy();
                let radius = physics.radius(s);
                if !table.contains(r, 1e-9) && rep.off_table.len() < 100 {
                    rep.off_table.push((setup.balls[i].id.clone(), t));
                }
                for c in table.segments() {
                    let mut dist = (r - c.start).norm().min((r - c.end).norm());
                    if (0.0..=1.0).contains(&c.parameter(r)) && c.signed_distance(r) >= 0.0 {
                        dist = dist.min(c.signed_distance(r));
                    }
                    rep.max_cushion_penetration_m =
                        rep.max_cushion_penetration_m.max(radius - dist);
                }
                for a in table.circular_segments() {
                    rep.max_cushion_penetration_m =
                        rep.max_cushion_penetration_m.max(radius - a.gap(r));
                }
                for other in &states[i + 1..] {
                    if other.motion == MotionState::Pocketed {
                        continue;
                    }
                    let d = (other.r.xy() - r).norm();
                    let touch = physics.contact_distance(s, other);
                    rep.max_overlap_m = rep.max_overlap_m.max(touch - d);
                }
            }
        }
    }
    rep.max_overlap_m = rep.max_overlap_m.max(0.0);
    rep.max_cushion_penetration_m = rep.max_cushion_penetration_m.max(0.0);
    rep
}

/// Overlap, cushion penetration and contact residual (m) beyond which a run breaks an invariant.
pub const CONTACT_TOL_M: f64 = 1e-9;

/// How many contact spacers two balls may overlap under laws with one (pooltool's `make_kiss`,
/// `pool_physics::resolve::spacer`): moving a pair back along its paths, or apart, before the
/// law can press either ball into a third it touches, as in pooltool. Over 10,000 random
/// `pooltool_default` breaks (`stress --seed 1`) the largest overlap was 15.5 spacers (1.55e-5
/// m; median 2.3 among the 5,427 shots with any).
pub const SPACER_OVERLAPS: f64 = 20.0;

/// Names of the invariants a run broke (empty when it kept them all): `no_end` (event or step
/// budget), `nan`, `engine_failed`, `time_reversed`, and, given its [`InvariantReport`], `overlap`
/// (beyond its allowance), `cushion_penetration` (beyond [`CONTACT_TOL_M`]), `off_table`,
/// `energy_rise`.
pub fn violations(o: &Outcome, rep: Option<&InvariantReport>) -> Vec<&'static str> {
    let mut out = Vec::new();
    match o.termination {
        Termination::AtRest | Termination::TimeLimit => {}
        Termination::Budget => out.push("no_end"),
        Termination::NumericalError => out.push("nan"),
        Termination::Failed => out.push("engine_failed"),
    }
    if !out.contains(&"nan") && o.final_states.iter().any(|b| !b.is_finite()) {
        out.push("nan");
    }
    if o.events.windows(2).any(|w| w[1].time < w[0].time) {
        out.push("time_reversed");
    }
    if let Some(rep) = rep {
        let checks = [
            (
                "overlap",
                rep.max_overlap_m > rep.overlap_allowance_m.max(CONTACT_TOL_M),
            ),
            (
                "cushion_penetration",
                rep.max_cushion_penetration_m > CONTACT_TOL_M,
            ),
            ("off_table", !rep.off_table.is_empty()),
            ("energy_rise", rep.energy_rises > 0),
        ];
        out.extend(checks.iter().filter(|c| c.1).map(|c| c.0));
    }
    out
}
