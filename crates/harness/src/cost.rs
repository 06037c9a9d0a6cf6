//! Cost and convergence figures: Leckie & Greenspan's operation-count estimates (seed 003;
//! docs/physics.md, "Cost model") and the log-log slope of error against step size.

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

/// Least-squares slope of log10(y) against log10(x) over `points` (x, y > 0): the convergence
/// order of an error against a step size. NaN for fewer than two points.
pub fn loglog_slope(points: &[(f64, f64)]) -> f64 {
    if points.len() < 2 {
        return f64::NAN;
    }
    let n = points.len() as f64;
    let (xs, ys): (Vec<f64>, Vec<f64>) =
        points.iter().map(|&(x, y)| (x.log10(), y.log10())).unzip();
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    sxy / sxx
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slope_of_a_power_law_is_its_exponent() {
        let pts: Vec<(f64, f64)> = [1e-4, 1e-3, 1e-2]
            .iter()
            .map(|&x: &f64| (x, 3.0 * x.powf(1.5)))
            .collect();
        assert!((loglog_slope(&pts) - 1.5).abs() < 1e-12);
        assert!(loglog_slope(&pts[..1]).is_nan());
    }

    #[test]
    fn leckie_greenspan_estimates() {
        // 16 balls: (645*16 - 19*256)/2 = 2728 per event; (61*16 - 256)/2 = 360 per step.
        assert_eq!(lg_event_ops(16, 10), 27_280.0);
        assert_eq!(lg_discrete_ops(16, 100), 36_000.0);
    }
}
