//! Prints the event engine's invariant report for shot files (debugging aid).
fn main() {
    for f in std::env::args().skip(1) {
        let setup = pool_shots::load(std::path::Path::new(&f)).unwrap();
        let t = std::time::Instant::now();
        let r = pool_harness::run_reference(&setup, "isolator").unwrap();
        let rep = pool_harness::check_outcome(&setup, &r.outcome, 20);
        println!(
            "{:>18} events {:>6} {:?} end {:.2}s  bb {:.1e} cu {:.1e} overlap {:.1e} pen {:.1e} off {} energy {} ({:.2}s)",
            setup.name, r.outcome.events.len(), r.outcome.termination, r.outcome.end_time,
            rep.max_ball_ball_residual_m, rep.max_cushion_residual_m, rep.max_overlap_m,
            rep.max_cushion_penetration_m, rep.off_table.len(), rep.energy_rises, t.elapsed().as_secs_f64()
        );
    }
}
