//! What the event engine counts.

pool_sim::counters! {
    /// The event engine's kinds of work.
    pub enum EventOp, EventOps {
        /// A motion-transition time predicted for one ball.
        PredictTransition = "predict_transition",
        /// A ball-ball collision time predicted for one pair.
        PredictBallBall = "predict_ball_ball",
        /// A ball-cushion collision time predicted for one ball and one segment face or end point.
        PredictBallCushion = "predict_ball_cushion",
        /// A ball-pocket time predicted for one ball and one pocket.
        PredictBallPocket = "predict_ball_pocket",
        /// A polynomial root solve of degree 1.
        RootSolveDeg1 = "root_solve_deg1",
        /// A polynomial root solve of degree 2.
        RootSolveDeg2 = "root_solve_deg2",
        /// A polynomial root solve of degree 3.
        RootSolveDeg3 = "root_solve_deg3",
        /// A polynomial root solve of degree 4.
        RootSolveDeg4 = "root_solve_deg4",
        /// One ball's state evolved over a time interval.
        Evolve = "evolve",
        /// One event resolved (a collision law or transition applied).
        Resolve = "resolve",
        /// One candidate scanned when selecting the next event.
        CandidateScan = "candidate_scan",
    }
}

impl EventOp {
    /// The root-solve counter for a polynomial of this degree (0 counts as degree 1).
    pub fn root_solve(degree: usize) -> EventOp {
        match degree {
            0 | 1 => EventOp::RootSolveDeg1,
            2 => EventOp::RootSolveDeg2,
            3 => EventOp::RootSolveDeg3,
            _ => EventOp::RootSolveDeg4,
        }
    }
}
