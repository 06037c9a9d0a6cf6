//! Leckie & Greenspan's operation-count estimates (seed 003; physics-notes, "Cost model").

/// Event-based method: about (645 n - 19 n^2) / 2 operations per event for n balls.
pub fn lg_event_ops(n_balls: usize, n_events: usize) -> f64 {
    let n = n_balls as f64;
    (645.0 * n - 19.0 * n * n) / 2.0 * n_events as f64
}

/// Discrete method: about N (61 n - n^2) / 2 operations for N steps and n balls.
pub fn lg_discrete_ops(n_balls: usize, n_steps: u64) -> f64 {
    let n = n_balls as f64;
    n_steps as f64 * (61.0 * n - n * n) / 2.0
}
