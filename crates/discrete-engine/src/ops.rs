//! What the discrete integrator counts.

pool_sim::counters! {
    /// The discrete integrator's kinds of work.
    pub enum DiscreteOp, DiscreteOps {
        /// An overlap test of one ball pair.
        PairTest = "pair_test",
        /// A contact test of one ball against one cushion segment.
        CushionTest = "cushion_test",
        /// A capture test of one ball against one pocket.
        PocketTest = "pocket_test",
        /// A transition (sign-change) test of one ball.
        TransitionTest = "transition_test",
        /// One ball's state advanced over one step.
        Evolve = "evolve",
        /// One event resolved (a collision law or transition applied).
        Resolve = "resolve",
        /// One time step.
        Step = "step",
    }
}
