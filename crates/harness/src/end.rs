//! How a run ended: whether it ended physically, and the errors of the method that its final
//! states show (balls off the table, balls overlapping). Every command that runs an engine
//! judges the run by this, so a run that did not end physically is never passed off as an
//! answer.

use pool_physics::{MotionState, Physics};
use pool_sim::{Outcome, Setup, Termination};

use crate::CONTACT_TOL_M;

/// What a run's end shows, from its termination and final states alone (no snapshots needed,
/// so it costs O(n^2) in the balls and nothing in the events).
#[derive(Clone, Debug, PartialEq)]
pub struct EndCheck {
    /// Why the run stopped.
    pub termination: Termination,
    /// Simulated time when it stopped (s).
    pub end_time: f64,
    /// Events in its log.
    pub events: usize,
    /// Balls (indices) whose final state is not finite.
    pub non_finite: Vec<usize>,
    /// Balls (indices), not pocketed, whose final center is off the table (outside its
    /// rectangle and every pocket's neighbourhood, as [`pool_physics::Table::contains`] with
    /// a 1e-9 m tolerance), with that center (m).
    pub off_table: Vec<(usize, [f64; 2])>,
    /// Largest overlap D - |r_a - r_b| between two unpocketed balls at the end (m), D their
    /// contact distance (2R for equal balls); 0 when none overlap.
    pub max_overlap_m: f64,
    /// The pair (indices) with that overlap, when it is positive.
    pub overlap_pair: Option<(usize, usize)>,
}

impl EndCheck {
    /// Checks the end of `outcome`, a run of `setup`.
    pub fn of(setup: &Setup, outcome: &Outcome) -> Self {
        let states = &outcome.final_states;
        let non_finite: Vec<usize> = (0..states.len())
            .filter(|&i| !states[i].is_finite())
            .collect();
        let on_cloth: Vec<usize> = (0..states.len())
            .filter(|&i| states[i].motion != MotionState::Pocketed && states[i].is_finite())
            .collect();
        let off_table = on_cloth
            .iter()
            .filter(|&&i| !setup.table.contains(states[i].r.xy(), 1e-9))
            .map(|&i| (i, [states[i].r.x, states[i].r.y]))
            .collect();
        let (mut max_overlap_m, mut overlap_pair) = (0.0, None);
        for (k, &i) in on_cloth.iter().enumerate() {
            for &j in &on_cloth[k + 1..] {
                let touch = setup.physics.contact_distance(&states[i], &states[j]);
                let overlap = touch - (states[i].r.xy() - states[j].r.xy()).norm();
                if overlap > max_overlap_m {
                    (max_overlap_m, overlap_pair) = (overlap, Some((i, j)));
                }
            }
        }
        EndCheck {
            termination: outcome.termination,
            end_time: outcome.end_time,
            events: outcome.events.len(),
            non_finite,
            off_table,
            max_overlap_m,
            overlap_pair,
        }
    }

    /// True when the run ended physically: every ball at rest or pocketed, or the set-up's
    /// `t_end` reached, with every final state finite and every ball on the table.
    pub fn ended_physically(&self) -> bool {
        matches!(
            self.termination,
            Termination::AtRest | Termination::TimeLimit
        ) && self.non_finite.is_empty()
            && self.off_table.is_empty()
    }

    /// True when balls end overlapping by more than [`CONTACT_TOL_M`].
    pub fn overlapping(&self) -> bool {
        self.max_overlap_m > CONTACT_TOL_M
    }

    /// Why the run did not end physically, one sentence per reason (empty when it did):
    /// the budget, a non-finite state, balls off the table.
    pub fn failures(&self, setup: &Setup) -> Vec<String> {
        let id = |i: usize| format!("{:?}", setup.balls[i].id);
        let mut out = Vec::new();
        match self.termination {
            Termination::AtRest | Termination::TimeLimit => {}
            Termination::Budget => out.push(format!(
                "it stopped on the engine's budget ({} events, t = {} s) before the balls came \
                 to rest",
                self.events,
                num(self.end_time)
            )),
            Termination::NumericalError => out.push(format!(
                "a state became non-finite (NaN or infinite) at t = {} s after {} events",
                num(self.end_time),
                self.events
            )),
            Termination::Failed => out.push(format!(
                "the engine could not run the shot (after {} events, t = {} s)",
                self.events,
                num(self.end_time)
            )),
        }
        if let Some(&i) = self.non_finite.first() {
            out.push(format!(
                "{} ball(s) end with a non-finite state (first: {})",
                self.non_finite.len(),
                id(i)
            ));
        }
        if let Some(&(i, [x, y])) = self.off_table.first() {
            out.push(format!(
                "{} ball(s) end off the {} x {} m table (first: {} at ({}, {}) m)",
                self.off_table.len(),
                num(setup.table.length),
                num(setup.table.width),
                id(i),
                num(x),
                num(y)
            ));
        }
        out
    }

    /// What the run ended with that is not physical but is the method's own error, measured,
    /// one sentence (empty when none): balls overlapping beyond [`CONTACT_TOL_M`].
    pub fn warnings(&self, setup: &Setup) -> Vec<String> {
        match self.overlap_pair {
            Some((i, j)) if self.overlapping() => vec![format!(
                "balls {:?} and {:?} end overlapping by {} m (more than {CONTACT_TOL_M:e} m)",
                setup.balls[i].id,
                setup.balls[j].id,
                num(self.max_overlap_m)
            )],
            _ => Vec::new(),
        }
    }
}

/// A number for a message: at most four decimals between 1e-3 and 1e6, else four significant
/// digits with an exponent (never hundreds of digits).
pub fn num(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let a = x.abs();
    if (1e-3..1e6).contains(&a) {
        let s = format!("{x:.4}");
        let s = s.trim_end_matches('0');
        s.trim_end_matches('.').to_string()
    } else {
        format!("{x:.3e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pool_physics::{BallParams, BallState, Model, Table, Vec3};
    use pool_sim::Ball;

    fn setup(positions: &[(f64, f64)]) -> Setup {
        let params = BallParams::pool();
        let radius = params.radius;
        Setup {
            name: "t".into(),
            physics: Model::pool(params),
            table: Table::by_name("seven_foot").unwrap().into(),
            balls: positions
                .iter()
                .enumerate()
                .map(|(i, &(x, y))| Ball {
                    id: format!("b{i}"),
                    state: BallState::new(
                        Vec3::new(x, y, radius),
                        Vec3::zeros(),
                        Vec3::zeros(),
                        radius,
                    ),
                })
                .collect(),
            t_end: None,
            strike: None,
        }
    }

    fn ended(s: &Setup, termination: Termination) -> Outcome {
        Outcome {
            events: Vec::new(),
            final_states: s.balls.iter().map(|b| b.state).collect(),
            end_time: 2.5,
            termination,
            ops: Default::default(),
            snapshots: Vec::new(),
            engine_s: None,
        }
    }

    #[test]
    fn a_run_at_rest_on_the_table_ends_physically_with_nothing_to_say() {
        let s = setup(&[(0.5, 0.5), (1.0, 0.5)]);
        let end = EndCheck::of(&s, &ended(&s, Termination::AtRest));
        assert!(end.ended_physically());
        assert!(end.failures(&s).is_empty() && end.warnings(&s).is_empty());
        assert_eq!(end.max_overlap_m, 0.0);
        let end = EndCheck::of(&s, &ended(&s, Termination::TimeLimit));
        assert!(end.ended_physically());
    }

    #[test]
    fn budget_and_nan_are_no_physical_end() {
        let s = setup(&[(0.5, 0.5)]);
        let end = EndCheck::of(&s, &ended(&s, Termination::Budget));
        assert!(!end.ended_physically());
        assert!(
            end.failures(&s)[0].contains("budget"),
            "{:?}",
            end.failures(&s)
        );
        let mut o = ended(&s, Termination::NumericalError);
        o.final_states[0].r.x = f64::NAN;
        let end = EndCheck::of(&s, &o);
        assert_eq!(end.non_finite, vec![0]);
        let f = end.failures(&s).join("; ");
        assert!(f.contains("non-finite") && f.contains("\"b0\""), "{f}");
        // A non-finite state is not also counted off the table.
        assert!(end.off_table.is_empty());
    }

    #[test]
    fn a_ball_off_the_table_is_no_physical_end_and_is_named_with_short_numbers() {
        let s = setup(&[(0.5, 0.5), (1.0, 0.5)]);
        let mut o = ended(&s, Termination::AtRest);
        o.final_states[1].r.x = 1638.7520268278822;
        o.final_states[1].r.y = -3875.616527070668;
        let end = EndCheck::of(&s, &o);
        assert!(!end.ended_physically());
        let f = end.failures(&s).join("; ");
        assert!(f.contains("\"b1\" at (1638.752, -3875.6165) m"), "{f}");
        // A pocketed ball is never off the table, wherever it is kept.
        o.final_states[1].motion = MotionState::Pocketed;
        assert!(EndCheck::of(&s, &o).ended_physically());
    }

    #[test]
    fn final_overlaps_are_warnings_not_failures() {
        let r = BallParams::pool().radius;
        let s = setup(&[(0.5, 0.5), (0.5 + 2.0 * r - 0.019, 0.5), (1.5, 0.5)]);
        let end = EndCheck::of(&s, &ended(&s, Termination::AtRest));
        assert!(end.ended_physically() && end.overlapping());
        assert!((end.max_overlap_m - 0.019).abs() < 1e-12);
        assert_eq!(end.overlap_pair, Some((0, 1)));
        let w = end.warnings(&s).join("; ");
        assert!(
            w.contains("\"b0\" and \"b1\"") && w.contains("0.019 m"),
            "{w}"
        );
        // Touching within the contact tolerance is not an overlap.
        let s = setup(&[(0.5, 0.5), (0.5 + 2.0 * r - 5e-10, 0.5)]);
        let end = EndCheck::of(&s, &ended(&s, Termination::AtRest));
        assert!(!end.overlapping() && end.warnings(&s).is_empty());
    }

    #[test]
    fn numbers_in_messages_stay_short() {
        assert_eq!(num(1638.7520268278822), "1638.752");
        assert_eq!(num(0.25), "0.25");
        assert_eq!(num(2.0), "2");
        assert_eq!(num(1e300), "1.000e300");
        assert_eq!(num(-3.5e-7), "-3.500e-7");
        assert_eq!(num(0.0), "0");
        assert_eq!(num(f64::NAN), "NaN");
    }
}
