//! Prints the events around the first collision whose contact residual exceeds 1e-9 m.
use pool_sim::{Agents, Engine};
fn main() {
    let f = std::env::args().nth(1).unwrap();
    let setup = pool_shots::load(std::path::Path::new(&f)).unwrap();
    let out = pool_event::EventEngine::default()
        .with_snapshots(true)
        .run(&setup);
    let r2 = 2.0 * 0.028575;
    let lab = |a: &Agents| pool_harness::agents_label(&setup, a);
    let mut shown = 0;
    for (k, e) in out.events.iter().enumerate() {
        if let Agents::BallBall { a, b } = e.agents {
            let s = &out.snapshots[k + 1].states;
            let res = (s[a].r - s[b].r).norm() - r2;
            if res < -1e-9 && shown < 1 {
                shown += 1;
                println!(
                    "event {k} t={:.12} {} residual {res:e}",
                    e.time,
                    lab(&e.agents)
                );
                for j in k.saturating_sub(25)..=k {
                    let e = &out.events[j];
                    let s = &out.snapshots[j + 1].states;
                    let extra = if let Agents::BallBall { a, b } = e.agents {
                        format!("d-2R {:e}", (s[a].r - s[b].r).norm() - r2)
                    } else {
                        String::new()
                    };
                    println!(
                        "  {j} {:.12} {} {} {}",
                        e.time,
                        e.kind,
                        lab(&e.agents),
                        extra
                    );
                }
            }
        }
    }
}
