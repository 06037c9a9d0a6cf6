//! Operation counters: real counts of the work each engine does.

use serde::Serialize;

/// One category of work. Engines increment these where the work happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// Event engine: a motion-transition time predicted for one ball.
    PredictTransition,
    /// Event engine: a ball-ball collision time predicted for one pair.
    PredictBallBall,
    /// Event engine: a ball-cushion collision time predicted for one ball and one segment.
    PredictBallCushion,
    /// Event engine: a ball-pocket time predicted for one ball and one pocket.
    PredictBallPocket,
    /// A polynomial root solve of degree 1.
    RootSolveDeg1,
    /// A polynomial root solve of degree 2.
    RootSolveDeg2,
    /// A polynomial root solve of degree 3.
    RootSolveDeg3,
    /// A polynomial root solve of degree 4.
    RootSolveDeg4,
    /// Discrete integrator: an overlap test of one ball pair.
    PairTest,
    /// Discrete integrator: a contact test of one ball against one cushion segment.
    CushionTest,
    /// Discrete integrator: a capture test of one ball against one pocket.
    PocketTest,
    /// Discrete integrator: a transition (sign-change) test of one ball.
    TransitionTest,
    /// One ball's state evolved over a time interval (analytic or numerical).
    Evolve,
    /// One event resolved (a collision law or transition applied).
    Resolve,
    /// Event engine: one candidate scanned when selecting the next event.
    CandidateScan,
    /// Discrete integrator: one time step.
    Step,
}

impl Op {
    /// Every category, in report order.
    pub const ALL: [Op; 16] = [
        Op::PredictTransition,
        Op::PredictBallBall,
        Op::PredictBallCushion,
        Op::PredictBallPocket,
        Op::RootSolveDeg1,
        Op::RootSolveDeg2,
        Op::RootSolveDeg3,
        Op::RootSolveDeg4,
        Op::PairTest,
        Op::CushionTest,
        Op::PocketTest,
        Op::TransitionTest,
        Op::Evolve,
        Op::Resolve,
        Op::CandidateScan,
        Op::Step,
    ];

    /// snake_case name for CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Op::PredictTransition => "predict_transition",
            Op::PredictBallBall => "predict_ball_ball",
            Op::PredictBallCushion => "predict_ball_cushion",
            Op::PredictBallPocket => "predict_ball_pocket",
            Op::RootSolveDeg1 => "root_solve_deg1",
            Op::RootSolveDeg2 => "root_solve_deg2",
            Op::RootSolveDeg3 => "root_solve_deg3",
            Op::RootSolveDeg4 => "root_solve_deg4",
            Op::PairTest => "pair_test",
            Op::CushionTest => "cushion_test",
            Op::PocketTest => "pocket_test",
            Op::TransitionTest => "transition_test",
            Op::Evolve => "evolve",
            Op::Resolve => "resolve",
            Op::CandidateScan => "candidate_scan",
            Op::Step => "step",
        }
    }

    /// The root-solve category for a polynomial of this degree (0 counts as degree 1).
    pub fn root_solve(degree: usize) -> Op {
        match degree {
            0 | 1 => Op::RootSolveDeg1,
            2 => Op::RootSolveDeg2,
            3 => Op::RootSolveDeg3,
            _ => Op::RootSolveDeg4,
        }
    }
}

/// Counts per [`Op`]; `add` is a plain array increment, cheap enough for inner loops.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    counts: [u64; Op::ALL.len()],
}

impl OpCounts {
    /// Adds `n` to a category.
    #[inline]
    pub fn add(&mut self, op: Op, n: u64) {
        self.counts[op as usize] += n;
    }

    /// Adds one to a category.
    #[inline]
    pub fn bump(&mut self, op: Op) {
        self.counts[op as usize] += 1;
    }

    /// The count of one category.
    pub fn get(&self, op: Op) -> u64 {
        self.counts[op as usize]
    }

    /// Sum over all categories (each unit of work counted once).
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Sum of the root-solve categories.
    pub fn root_solves(&self) -> u64 {
        [
            Op::RootSolveDeg1,
            Op::RootSolveDeg2,
            Op::RootSolveDeg3,
            Op::RootSolveDeg4,
        ]
        .iter()
        .map(|&o| self.get(o))
        .sum()
    }

    /// (category, count) pairs in report order, zeros included.
    pub fn iter(&self) -> impl Iterator<Item = (Op, u64)> + '_ {
        Op::ALL.iter().map(|&o| (o, self.get(o)))
    }
}
