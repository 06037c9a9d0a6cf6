//! Ad-hoc stress: random breaks and random shots through the event engine, invariants checked.
use pool_physics::{BallState, Vec3};
use pool_sim::Termination;

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.f()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let n: usize = args.get(1).map_or(200, |s| s.parse().unwrap());
    let base_file = args
        .get(2)
        .cloned()
        .unwrap_or("data/shots/break_9ball.toml".into());
    let base = pool_shots::load(std::path::Path::new(&base_file)).unwrap();
    let r = 0.028575;
    let mut rng = Rng(42);
    let (mut fails, mut events) = (0, 0usize);
    let t0 = std::time::Instant::now();
    for k in 0..n {
        let mut s = base.clone();
        let speed = rng.range(0.5, 12.0);
        let ang = rng.range(-0.15, 0.15);
        let cue = &mut s.balls[0].state;
        let dir = (Vec3::new(1.4859 - cue.r.x, 0.4953 - cue.r.y, 0.0)).normalize();
        let (c, si) = (ang.cos(), ang.sin());
        let d = Vec3::new(c * dir.x - si * dir.y, si * dir.x + c * dir.y, 0.0);
        let w = Vec3::new(
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
        ) * (speed / r);
        *cue = BallState::new(cue.r, d * speed, w, r);
        let out = pool_harness::run_reference(&s, "isolator").unwrap();
        let rep = pool_harness::check_outcome(&s, &out.outcome, 10);
        events += out.outcome.events.len();
        let bad = rep.max_ball_ball_residual_m > 1e-9
            || rep.max_overlap_m > 1e-9
            || rep.max_cushion_penetration_m > 1e-9
            || !rep.off_table.is_empty()
            || rep.energy_rises > 0
            || rep.time_reversals > 0
            || out.outcome.termination != Termination::AtRest;
        if bad {
            fails += 1;
            if fails <= 10 {
                println!(
                    "shot {k}: speed {speed:.2} ang {ang:.3} w {:?} -> {:?} events {} {:?}",
                    w.as_slice(),
                    out.outcome.termination,
                    out.outcome.events.len(),
                    rep
                );
                std::fs::write(
                    format!("/tmp/stress_fail_{k}.toml"),
                    pool_shots::to_toml(&s, "stress failure"),
                )
                .unwrap();
            }
        }
    }
    println!(
        "{n} shots, {events} events, {fails} failures, {:.1} s",
        t0.elapsed().as_secs_f64()
    );
}
