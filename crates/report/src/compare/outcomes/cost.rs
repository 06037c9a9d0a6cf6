//! What a shot costs, as the answer tables print it: engine time, its ratio to the event
//! engine's, and a program's wall time with its adapter beside it.

use pool_engines::EngineSpec;
use pool_outcome::{AnswerRow, Run, WallRow};

/// The timing row of answer `a`'s run (its engine, scheme and dt on its family and table) in
/// `wall` (`outcomes/wall.csv`'s rows); `None` when it was not timed.
pub fn answer_wall<'a>(wall: &'a [WallRow], a: &AnswerRow) -> Option<&'a WallRow> {
    wall.iter().find(|w| {
        w.family == a.family
            && w.table == a.table
            && spec_of(&w.run).is_some_and(|s| {
                s.family() == a.engine && s.variant() == a.scheme && s.dt() == a.dt_s
            })
    })
}

/// The engine spec of an engine's run (`wall.csv` keeps it as text); `None` for the reference,
/// the floor, and a spec this process cannot read (a registered engine's, registered elsewhere).
fn spec_of(run: &Run) -> Option<EngineSpec> {
    run.spec().and_then(|s| s.parse().ok())
}

/// Whether a run is a program (an exec engine, pooltool or a peer): its cost has an adapter.
fn is_program(run: &Run) -> bool {
    spec_of(run).is_some_and(|s| {
        matches!(
            s,
            EngineSpec::Exec { .. } | EngineSpec::Pooltool | EngineSpec::Peer { .. }
        )
    })
}

/// What a shot of a timed run costs: the engine time per shot (a program's reported
/// `engine_s`; an engine in this process's wall time) with its ratio to `reference_s` (the
/// event engine's time per shot on the family), and for a program that reports its engine
/// time, its whole wall time per shot beside it (`with adapter`: the adapter's own work, JSON
/// and pipes included): `12.3 ms (870x), with adapter 1.58 s`. A program that reports none has
/// no engine time and no ratio: `1.58 s with adapter (no engine time)`. `–` when the run was
/// not timed.
pub fn cost_cell(w: Option<&WallRow>, reference_s: f64) -> String {
    let Some(w) = w else {
        return "–".into();
    };
    if is_program(&w.run) && w.engine_s.is_none() {
        return format!(
            "{} with adapter (no engine time)",
            duration(w.wall_per_shot_s())
        );
    }
    let engine = w.engine_per_shot_s();
    let ratio = engine / reference_s;
    let mut cell = duration(engine);
    if ratio.is_finite() && ratio > 0.0 {
        cell.push_str(&format!(" ({})", times(ratio)));
    }
    if w.engine_s.is_some() {
        cell.push_str(&format!(", with adapter {}", duration(w.wall_per_shot_s())));
    }
    cell
}

/// A ratio as `870x`, `2.5x`, `0.31x`.
fn times(r: f64) -> String {
    if r >= 100.0 {
        format!("{r:.0}x")
    } else if r >= 1.0 {
        format!("{r:.1}x")
    } else {
        format!("{r:.2}x")
    }
}

/// Wall time per shot (s) of the reference on `family` and `table` in `wall`; NaN when it was
/// not timed.
pub fn reference_wall_s(wall: &[WallRow], family: &str, table: &str) -> f64 {
    wall.iter()
        .find(|w| w.family == family && w.table == table && w.run == Run::Reference)
        .map_or(f64::NAN, WallRow::wall_per_shot_s)
}

/// Seconds in the unit that suits them, to three significant digits: `84.2 µs`, `12.3 ms`,
/// `1.20 s`, `350 ns`; `–` when not finite or negative.
pub fn duration(s: f64) -> String {
    if !(s.is_finite() && s >= 0.0) {
        return "–".into();
    }
    let (v, unit) = if s == 0.0 {
        (0.0, "s")
    } else if s < 1e-6 {
        (s * 1e9, "ns")
    } else if s < 1e-3 {
        (s * 1e6, "µs")
    } else if s < 1.0 {
        (s * 1e3, "ms")
    } else {
        (s, "s")
    };
    let digits = if v >= 100.0 || v == 0.0 {
        0
    } else if v >= 10.0 {
        1
    } else {
        2
    };
    format!("{v:.digits$} {unit}")
}

#[cfg(test)]
mod tests {
    use super::{cost_cell, duration};
    use pool_outcome::WallRow;

    fn timed(run: &str, wall_s: f64, engine_s: Option<f64>) -> WallRow {
        WallRow {
            family: "cut".into(),
            table: "seven_foot".into(),
            run: pool_outcome::Run::of(run),
            shots: 4,
            wall_s,
            engine_s,
        }
    }

    #[test]
    fn a_cost_is_engine_time_with_its_ratio_and_a_program_s_adapter_beside_it() {
        // 1e-5 s per shot for the event engine.
        let reference = 1e-5;
        // In this process: the wall time is the engine time.
        let ours = timed("discrete:1e-3:exact", 4e-3, None);
        assert_eq!(cost_cell(Some(&ours), reference), "1.00 ms (100x)");
        // A program that reports engine_s: its engine time and ratio, then its wall time.
        let peer = timed("mujoco:1e-3", 8.0, Some(0.4));
        assert_eq!(
            cost_cell(Some(&peer), reference),
            "100 ms (10000x), with adapter 2.00 s"
        );
        // One that does not: no engine time, no ratio.
        let silent = timed("exec:./prog", 8.0, None);
        assert_eq!(
            cost_cell(Some(&silent), reference),
            "2.00 s with adapter (no engine time)"
        );
        assert_eq!(cost_cell(None, reference), "–");
    }

    #[test]
    fn durations_take_the_unit_that_suits_them() {
        for (s, text) in [
            (84.2e-6, "84.2 µs"),
            (0.0123, "12.3 ms"),
            (1.2, "1.20 s"),
            (350e-9, "350 ns"),
            (4.5e-4, "450 µs"),
            (0.0, "0 s"),
            (125.0, "125 s"),
            (f64::NAN, "–"),
        ] {
            assert_eq!(duration(s), text, "{s}");
        }
    }
}
