//! `report.md` and the console summary of a compare run.

use std::fmt::Write;

use pool_harness::{OneStepStats, SummaryRow, ONE_STEP_TIME_TOL_S};

use super::engines::{engine_summaries, followed_shots, nearest_dt, EngineSummary};
use super::{Regression, Results, Scaling, BUDGET_FACTOR, TARGET_ERROR_S};

fn sci(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.2e}")
    } else {
        "–".into()
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.retain(|x| x.is_finite());
    if xs.is_empty() {
        return f64::NAN;
    }
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Fitted slopes of the (shot, scheme) series with at least two points of the end-of-step
/// schemes (`exact`, `euler`: the first-order baseline the report's headline is about).
fn fitted_slopes(res: &Results) -> Vec<f64> {
    res.slopes
        .iter()
        .filter(|s| {
            s.points >= 2
                && s.engine == pool_engines::DISCRETE
                && (s.scheme == "end_of_step" || s.scheme == "euler")
        })
        .map(|s| s.slope)
        .collect()
}

/// The dt values of the sweep closest to 1e-2, 1e-3, 1e-4, 1e-5 s (deduplicated), for tables.
fn headline_dts(dts: &[f64]) -> Vec<f64> {
    let mut out: Vec<f64> = [1e-2, 1e-3, 1e-4, 1e-5]
        .iter()
        .filter_map(|&target: &f64| {
            dts.iter()
                .copied()
                .min_by(|a, b| {
                    (a.log10() - target.log10())
                        .abs()
                        .total_cmp(&(b.log10() - target.log10()).abs())
                })
                .filter(|d| (d.log10() - target.log10()).abs() < 0.5)
        })
        .collect();
    out.dedup();
    out
}

fn event_row<'a>(rows: &'a [SummaryRow], shot: &str) -> Option<&'a SummaryRow> {
    rows.iter()
        .find(|r| r.engine == pool_engines::EVENT && r.shot == shot)
}

/// The Markdown report of a compare run (`report.md`): accuracy, cost, the event engine per
/// shot, the discrete integrator at selected dt, the shot diagrams, and the regression check,
/// root-finder verdict and scaling study when the run has them.
pub fn markdown(res: &Results) -> String {
    let mut md = String::new();
    let shots: Vec<&str> = res.residuals.iter().map(|r| r.shot.as_str()).collect();
    intro(&mut md, res);
    let engines = engine_summaries(res);
    glance_section(&mut md, res, &engines);
    if let Some(st) = &res.outcomes {
        super::outcome_section(&mut md, st);
    }
    ends_section(&mut md, res);
    accuracy_section(&mut md, res);
    cost_section(&mut md, res, &shots);
    one_step_section(&mut md, res);
    event_engine_section(&mut md, res);
    discrete_section(&mut md, res, &shots);
    failures_section(&mut md, res);
    paths_section(&mut md, res);
    if let Some(r) = &res.regression {
        regression_section(&mut md, r);
    }
    if let Some(v) = &res.roots_verdict {
        roots_section(&mut md, v);
    }
    if let Some(sc) = &res.scaling {
        scaling_section(&mut md, sc);
    }
    for preset in &res.physics {
        physics_section(&mut md, res, preset);
    }
    if !res.throw.is_empty() {
        throw_section(&mut md, &res.throw);
    }
    how_to_read(&mut md, res);
    // Names, commands and an engine's own words come from elsewhere: no raw HTML.
    crate::md::no_html(&md)
}

/// Title, what ran, and the files beside the report.
fn intro(md: &mut String, res: &Results) {
    let _ = writeln!(md, "# Event-based engine vs discrete-time integrator\n");
    let _ =
        writeln!(
        md,
        "{} shots; the event engine (root solver `{}`) is the reference; the discrete integrator \
         ran with scheme(s) {} at {} time steps from {} s to {} s. Whole run: {:.1} s wall time on \
         {} threads.\n",
        res.residuals.len(),
        res.solver,
        res.schemes.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", "),
        res.dts.len(),
        sci(res.dts.iter().copied().fold(0.0, f64::max)),
        sci(res.dts.iter().copied().fold(f64::INFINITY, f64::min)),
        res.wall_time_s,
        res.threads
    );
    if !res.engines.is_empty() {
        let extra: Vec<String> = res
            .engines
            .iter()
            .filter(|e| !e.starts_with("discrete:"))
            .map(|e| format!("`{e}`"))
            .collect();
        if !extra.is_empty() {
            let _ = writeln!(
                md,
                "More engines measured against it: {}.\n",
                extra.join(", ")
            );
        }
    }
    let _ = writeln!(
        md,
        "Files: `summary.csv` (one row per shot x engine x scheme x dt), `errors.csv` (one row per \
         matched event), `one_step.csv` (one row per engine and reference event: what the engine \
         restarted just before it predicted), `ops.csv` (operation counts by category), \
         `residuals.csv` (event-engine contact residuals and invariants), `slopes.csv` (fitted \
         convergence slopes per shot and fixed-step engine).\n"
    );
}

/// Runs that did not end physically or end with their method's own errors (balls off the
/// table, balls overlapping), one row each; one sentence when there are none.
fn ends_section(md: &mut String, res: &Results) {
    let flagged: Vec<&SummaryRow> = res.summary.iter().filter(|r| !r.clean_end()).collect();
    if flagged.is_empty() {
        let _ = writeln!(
            md,
            "Every run ended physically (at rest, or at the shot's `t_end`) with every ball on \
             the table and no two overlapping at the end (`summary.csv`: `termination`, \
             `final_off_table`, `final_overlap_max_m`).\n"
        );
        return;
    }
    let _ = writeln!(md, "## Runs flagged at their end\n");
    let _ = writeln!(
        md,
        "{} of {} runs are flagged: they did not end physically (`budget`: the engine's budget \
         ran out before the balls came to rest; `numerical_error`: a state became NaN or \
         infinite; balls off the table), or they end with balls overlapping by more than {:e} m. \
         These are the methods' own errors, measured and kept in every table below, not hidden; \
         a run that did not end physically makes `compare` exit 1.\n",
        flagged.len(),
        res.summary.len(),
        pool_harness::CONTACT_TOL_M
    );
    let _ = writeln!(
        md,
        "| shot | engine | scheme | dt (s) | end | balls off the table | final overlap (m) |\n\
         |---|---|---|---:|---|---:|---:|"
    );
    for r in flagged {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} ({:.2} s) | {} | {} |",
            r.shot,
            r.engine,
            r.scheme,
            r.dt_s.map_or("–".into(), sci),
            r.termination,
            r.end_time_s,
            r.final_off_table,
            sci(r.final_overlap_max_m)
        );
    }
    let _ = writeln!(md);
}

fn or_dash(x: Option<f64>, f: impl Fn(f64) -> String) -> String {
    x.filter(|v| v.is_finite()).map_or("–".into(), f)
}

/// A one-step cell: agreeing share, share within the time tolerance, median |error|.
fn one_step_cell(s: &OneStepStats) -> String {
    if s.n == 0 {
        return "–".into();
    }
    format!(
        "{}/{} ({:.0}%), {:.0}% within 1e-9 s, median {}",
        s.agree,
        s.n,
        100.0 * s.agree_fraction(),
        100.0 * s.within_tol as f64 / s.n as f64,
        sci(s.error_median_s)
    )
}

/// The summary table: every engine's order, error at equal cost, cost to 1e-6 s, one-step
/// agreement beside whole-shot matching, wall time.
fn glance_section(md: &mut String, res: &Results, engines: &[EngineSummary]) {
    let own = super::engines::own_physics(&res.summary);
    let followed = followed_shots(&own);
    let shots = own
        .iter()
        .filter(|r| r.engine == pool_engines::EVENT)
        .count();
    let _ = writeln!(md, "## Every engine at a glance\n");
    let _ = writeln!(
        md,
        "Over the {shots} shots under their own physics, as in the plots below (runs under \
         another preset have their own section). \
         *Order*: the median over the followed shots ({}) of the fitted log-log slope of median \
         collision-time error against dt. *Followed* shots are those some fixed-step run at the \
         smallest dt matched event for event; in the others (breaks, many balls) the runs \
         diverge and the errors measure the divergence. *Error at equal cost*: the median over \
         followed shots of the engine's median collision-time error when it spends {BUDGET_FACTOR}x \
         the event engine's operations, and {BUDGET_FACTOR}x its engine time, on the same shot \
         (interpolated log-log along its dt sweep). *To reach {}*: the median operations and \
         engine time at which its error first gets there (shots where it does / followed shots \
         with collisions it was timed on; pooltool and programs count no operations). *Engine \
         time*: for a program that reports `engine_s` (pooltool and the peers' adapters), the \
         seconds inside its engine's own calls; for an engine in this process, its wall time. \
         Every time ratio to the event engine is of engine times; *with adapter* is a \
         program's whole wall time per shot, its adapter, JSON and pipes included. *One step* and *whole shot* at the dt nearest 1e-3 s: events predicted \
         right (kind and agents) when restarted from the reference's state before each event, \
         and events matched over the whole shot. Wall times are one run's, with the run's \
         threads sharing the cores.\n",
        if followed.is_empty() {
            "none".to_string()
        } else {
            followed.join(", ")
        },
        sci(TARGET_ERROR_S)
    );
    let _ = writeln!(
        md,
        "| engine | order | error at {BUDGET_FACTOR}x event ops | error at {BUDGET_FACTOR}x event time | ops to reach {} | engine time to reach {} | dt (s) | one step | whole shot | engine time per shot | with adapter |\n|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|",
        sci(TARGET_ERROR_S),
        sci(TARGET_ERROR_S)
    );
    for e in engines {
        let (name, cells) = glance_cells(e);
        let _ = writeln!(md, "| {name} | {} |", cells.join(" | "));
    }
    let _ = writeln!(
        md,
        "\nThe event engine and every engine without a time step have no order: their times come \
         from the equations of motion (to rounding, or to their own tolerances). `located` puts \
         each event at the root of its contact's gap along the evolved trajectories, to the \
         locator's tolerance (1e-12 s): its error does not fall with dt, it is flat there (a \
         slope near 0), and a coarse step costs fewer operations. `substep<k>` and `rapier` are \
         first order like `exact`, `substep<k>` with a k-times smaller step near contacts. An \
         order beside a percentage is over that share of the shots' events only (the events \
         its finest dt matched, when under half): often the first contact alone, so it says \
         nothing of the events after.\n"
    );
}

/// The name and the cells of `e`'s row of the glance table (every column after the name, as
/// the table's header orders them); report.md and report.html show the same text.
pub(crate) fn glance_cells(e: &EngineSummary) -> (String, Vec<String>) {
    let name = if e.engine == pool_engines::DISCRETE {
        format!("discrete `{}`", e.scheme)
    } else if e.engine == pool_engines::EXEC {
        format!("exec `{}`", e.scheme)
    } else {
        format!("{} `{}`", e.engine, e.scheme)
    };
    let (m, of) = e.slope_matched;
    let order = match e.slope {
        // Fewer than half the events matched at the finest dt: say how few the order is of.
        Some(s) if of > 0 && 2 * m < of => format!(
            "{s:.2} ({} shots; {:.0} % of their events)",
            e.slope_shots,
            100.0 * m as f64 / of as f64
        ),
        Some(s) => format!("{s:.2} ({} shots)", e.slope_shots),
        None if e.stepped => "–".into(),
        None => "exact times".into(),
    };
    let reach = |x: Option<f64>, (hit, of): (usize, usize), f: &dyn Fn(f64) -> String| match x {
        Some(v) => format!("{} ({hit}/{of})", f(v)),
        None if of > 0 => format!("not reached (0/{of})"),
        None => "–".into(),
    };
    let cells = vec![
        order,
        or_dash(e.error_at_ops_budget_s, sci),
        or_dash(e.error_at_wall_budget_s, sci),
        reach(e.ops_to_target, e.ops_target_shots, &|v| format!("{v:.2e}")),
        reach(e.wall_to_target_s, e.wall_target_shots, &super::duration),
        or_dash(e.dt_s, sci),
        e.one_step.as_ref().map_or("–".into(), one_step_cell),
        format!("{}/{}", e.matched.0, e.matched.1),
        super::duration(e.engine_s),
        if e.reports_engine_time {
            super::duration(e.wall_s)
        } else {
            "–".into()
        },
    ];
    (name, cells)
}

/// One-step agreement per engine and dt, then per event kind.
fn one_step_section(md: &mut String, res: &Results) {
    if res.one_step.is_empty() {
        return;
    }
    let rows = &res.one_step;
    let _ = writeln!(md, "## One-step agreement\n");
    let _ = writeln!(
        md,
        "For every event of the reference run, each engine is restarted from the reference's \
         state just after the event before it (with a budget of one event) and its first event \
         is compared with the reference's: same kind and agents (or those of an event tied with \
         it to 1e-12 s), and the time difference. A whole break diverges after a few \
         collisions; restarted every time from the reference's state, an engine is judged on \
         the algorithm alone. `one_step.csv` has every row. The reference restarted from its \
         own states shows that the restarts are exact. *Other, at the restart instant*: a \
         different event predicted at the very time of the restart, typically a contact the \
         reference had just resolved (balls exactly 2R apart and separating) collided again by \
         an engine that does not check the approach. In the breaks' pressed-contact trains the \
         reference collides a pressed pair when friction has closed it by 2e-10 m \
         (`CONTACT_SLOP`), where an engine colliding at contact is about 6e-5 s earlier.\n"
    );
    let _ = writeln!(
        md,
        "| engine | dt (s) | events | same next event | within {} | other, at the restart instant | median \\|error\\| (s) | max \\|error\\| (s) | whole shot matched |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        sci(ONE_STEP_TIME_TOL_S)
    );
    // (engine, scheme, dt) in row order; fixed-step engines at the headline dt values.
    let mut keys: Vec<(String, String, Option<f64>)> = Vec::new();
    for r in rows {
        let k = (r.engine.clone(), r.scheme.clone(), r.dt_s);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let headline = headline_dts(&res.dts);
    let shown: Vec<&(String, String, Option<f64>)> = keys
        .iter()
        .filter(|(_, _, dt)| {
            dt.is_none_or(|d| {
                headline.iter().any(|h| (h - d).abs() <= 1e-12 * h)
                    || !res.dts.iter().any(|x| (x - d).abs() <= 1e-12 * d)
            })
        })
        .collect();
    for (engine, scheme, dt) in &shown {
        let mine = || {
            rows.iter()
                .filter(|r| &r.engine == engine && &r.scheme == scheme && r.dt_s == *dt)
        };
        let s = OneStepStats::of(mine());
        let whole = res
            .summary
            .iter()
            .filter(|r| &r.engine == engine && &r.scheme == scheme && r.dt_s == *dt);
        let (m, n) = whole.fold((0, 0), |(m, n), r| {
            (m + r.n_matched, n + r.n_reference_events)
        });
        let _ = writeln!(
            md,
            "| {engine} `{scheme}` | {} | {} | {} ({:.1}%) | {} | {} | {} | {} | {m}/{n} |",
            dt.map_or("–".into(), sci),
            s.n,
            s.agree,
            100.0 * s.agree_fraction(),
            s.within_tol,
            s.at_restart,
            sci(s.error_median_s),
            sci(s.error_max_s)
        );
    }
    // Per event kind, at dt nearest 1e-3 s for the fixed-step engines.
    let mut kinds: Vec<&str> = rows.iter().map(|r| r.kind.as_str()).collect();
    kinds.sort();
    kinds.dedup();
    let _ = writeln!(
        md,
        "\nPer event kind (same next event / events, and the median |error| of those; fixed-step \
         engines at the dt nearest 1e-3 s):\n"
    );
    let _ = writeln!(
        md,
        "| engine | {} |\n|---|{}",
        kinds.join(" | "),
        "---|".repeat(kinds.len())
    );
    let mut seen: Vec<(String, String)> = Vec::new();
    for (engine, scheme, _) in &keys {
        if seen.contains(&(engine.clone(), scheme.clone())) {
            continue;
        }
        seen.push((engine.clone(), scheme.clone()));
        let dts: Vec<f64> = keys
            .iter()
            .filter(|(e, s, _)| e == engine && s == scheme)
            .filter_map(|k| k.2)
            .collect();
        let dt = nearest_dt(&dts, 1e-3);
        let cells: Vec<String> = kinds
            .iter()
            .map(|k| {
                let s = OneStepStats::of(rows.iter().filter(|r| {
                    &r.engine == engine
                        && &r.scheme == scheme
                        && r.kind == *k
                        && match (r.dt_s, dt) {
                            (Some(a), Some(b)) => (a - b).abs() <= 1e-12 * b,
                            (None, None) => true,
                            _ => false,
                        }
                }));
                if s.n == 0 {
                    "–".into()
                } else {
                    format!("{}/{} ({})", s.agree, s.n, sci(s.error_median_s))
                }
            })
            .collect();
        let _ = writeln!(
            md,
            "| {engine} `{scheme}`{} | {} |",
            dt.map_or(String::new(), |d| format!(" dt={}", sci(d))),
            cells.join(" | ")
        );
    }
    let _ = writeln!(md);
}

/// Engines that could not run a shot, or declined it.
fn failures_section(md: &mut String, res: &Results) {
    if res.failures.is_empty() {
        return;
    }
    let _ = writeln!(md, "\n## Engines that failed\n");
    let _ = writeln!(
        md,
        "Each engine run that did not produce a log, with the engine's own account (for a \
         program, the end of its stderr). *Declined*: a shot outside the engine's model (not \
         a defect). Every other result of the run is in the tables above.\n"
    );
    let _ = writeln!(
        md,
        "| engine | shot | task | what happened |\n|---|---|---|---|"
    );
    for f in &res.failures {
        let what = if f.unsupported { "declined: " } else { "" };
        let _ = writeln!(
            md,
            "| {} | {} | {} | {what}{} |",
            crate::md::code_cell(&f.engine),
            crate::md::code_cell(&f.shot),
            f.task,
            crate::md::code_cell(&f.message)
        );
    }
    let _ = writeln!(md);
}

/// Collision-time error against dt: the plot, the fitted slopes and the event engine's floor.
fn accuracy_section(md: &mut String, res: &Results) {
    let rows = &res.summary;
    let _ = writeln!(md, "## Accuracy: collision-time error against dt\n");
    let _ = writeln!(md, "![collision-time error vs dt](error_vs_dt.png)\n");
    let slopes = fitted_slopes(res);
    let _ = writeln!(
        md,
        "The discrete integrator's `exact` and `euler` schemes notice a collision at the end of \
         the step in which it happened, so their collision-time error is between 0 and dt and \
         falls linearly with dt: their fitted log-log slopes have median **{:.2}** (every shot \
         and fixed-step engine below; 1 is first order). Each colour is one engine: the bold \
         line is the median over shots at each dt, the thin ones are the shots. The \
         event engine computes each contact time from the equations of motion; its error floor \
         (contact residual divided by approach speed) is the horizontal line, at most {} s.\n",
        median(slopes.clone()),
        sci(rows
            .iter()
            .filter(|r| r.engine == pool_engines::EVENT)
            .map(|r| r.collision_time_error_max_s)
            .filter(|x| x.is_finite())
            .fold(0.0, f64::max))
    );
    let _ = writeln!(
        md,
        "| shot | engine | scheme | slope | points |\n|---|---|---|---:|---:|"
    );
    for s in &res.slopes {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.2} | {} |",
            s.shot, s.engine, s.scheme, s.slope, s.points
        );
    }
}

/// Operation counts against dt, per event and per step beside Leckie & Greenspan's estimates,
/// and error against cost.
fn cost_section(md: &mut String, res: &Results, shots: &[&str]) {
    let rows = &res.summary;
    let _ = writeln!(md, "\n## Cost: operations against dt\n");
    let _ = writeln!(md, "![operation count vs dt](ops_vs_dt.png)\n");
    let _ = writeln!(
        md,
        "Operation counts are real counters incremented where the work happens (predictions, root \
         solves by degree, pair/cushion/pocket tests, evolutions, resolutions, steps; see \
         `ops.csv`). The discrete cost grows as 1/dt; the event engine's (dashed) does not depend \
         on dt. Leckie & Greenspan's estimates (seed 003) are in the `lg_estimate_ops` column of \
         `summary.csv`: (645 n - 19 n^2)/2 per event and N (61 n - n^2)/2 for N steps.\n"
    );
    let _ = writeln!(
        md,
        "Measured operations per event (event engine) and per step (discrete integrator, scheme \
         `{}`, smallest dt of the sweep) beside Leckie & Greenspan's estimates for n balls:\n",
        res.schemes.first().map_or("end_of_step", String::as_str)
    );
    let _ = writeln!(
        md,
        "| shot | n | events | event ops / event | L&G (645n - 19n^2)/2 | discrete ops / step | L&G (61n - n^2)/2 |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    let dt_min = res.dts.iter().copied().fold(f64::INFINITY, f64::min);
    for shot in shots {
        let Some(e) = event_row(rows, shot) else {
            continue;
        };
        let n = e.n_balls as f64;
        let per_event = e.ops_total as f64 / e.n_events.max(1) as f64;
        let per_step = rows
            .iter()
            .find(|r| {
                r.engine == pool_engines::DISCRETE
                    && r.shot == *shot
                    && Some(r.scheme.as_str()) == res.schemes.first().map(String::as_str)
                    && r.dt_s == Some(dt_min)
            })
            .map_or(f64::NAN, |r| {
                r.ops_total as f64 / (r.end_time_s / dt_min).round().max(1.0)
            });
        let _ = writeln!(
            md,
            "| {shot} | {} | {} | {:.0} | {:.0} | {:.0} | {:.0} |",
            e.n_balls,
            e.n_events,
            per_event,
            (645.0 * n - 19.0 * n * n) / 2.0,
            per_step,
            (61.0 * n - n * n) / 2.0
        );
    }
    let _ = writeln!(
        md,
        "\nOur counters count units of work (a prediction, a root solve, a pair test, an \
         evolution, a resolution); Leckie & Greenspan's estimates count arithmetic operations. \
         Compare how each grows with n, not the values.\n"
    );
    let _ = writeln!(md, "![error vs cost](error_vs_cost.png)\n");
    let _ = writeln!(
        md,
        "Error against cost: each end-of-step series buys accuracy linearly with operations; \
         `located` sits at its tolerance whatever it spends; engines without a time step are \
         diamonds (the event engine at its floor).\n"
    );
    let _ = writeln!(md, "![error vs engine time](error_vs_wall.png)\n");
    let _ = writeln!(
        md,
        "The same against engine time per run, every engine included (pooltool and programs count \
         no operations; a program that reports `engine_s` is placed at its engine's own calls, \
         one that does not at its wall time, starting the program included). One run, the run's \
         threads sharing the cores: compare orders of magnitude, not percentages.\n"
    );
}

/// The event engine's cost, residuals and invariants, one row per shot.
fn event_engine_section(md: &mut String, res: &Results) {
    let rows = &res.summary;
    let _ = writeln!(md, "## Event engine per shot\n");
    let _ = writeln!(
        md,
        "| shot | balls | events | collisions | wall time | ops | L&G estimate | max ball-ball residual (m) | max cushion residual (m) | max overlap (m) | off table | energy rises | end |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    );
    for r in &res.residuals {
        let e = event_row(rows, &r.shot);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | {:.0} | {} | {} | {} | {} | {} | {} ({:.2} s) |",
            r.shot,
            e.map_or(0, |e| e.n_balls),
            r.n_events,
            r.n_collisions,
            super::duration(e.map_or(f64::NAN, |e| e.wall_time_s)),
            e.map_or(0, |e| e.ops_total),
            e.map_or(f64::NAN, |e| e.lg_estimate_ops),
            sci(r.max_ball_ball_residual_m),
            sci(r.max_cushion_residual_m),
            sci(r.max_overlap_m),
            r.off_table_samples,
            r.energy_rises,
            r.termination,
            r.end_time_s
        );
    }
}

/// The discrete integrator's matches, errors and cost at the headline dt values.
fn discrete_section(md: &mut String, res: &Results, shots: &[&str]) {
    let rows = &res.summary;
    let _ = writeln!(md, "\n## Fixed-step engines at selected dt\n");
    let _ = writeln!(
        md,
        "Events are matched to the reference by kind and agents, in order (longest common \
         subsequence). *Missed*: reference events with no match; *spurious*: discrete events with \
         none (e.g. a collision noticed with different agents, or chatter). Full sweep in \
         `summary.csv`.\n"
    );
    let _ = writeln!(
        md,
        "| shot | scheme | dt (s) | matched | missed | spurious | median error (s) | max error (s) | final position error (m) | ops | ops / event-engine ops | wall |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    let picks = headline_dts(&res.dts);
    for shot in shots {
        let event_ops = event_row(rows, shot).map_or(0, |e| e.ops_total).max(1);
        for r in rows.iter().filter(|r| {
            r.dt_s.is_some()
                && r.shot == *shot
                && r.dt_s
                    .is_some_and(|d| picks.iter().any(|p| (p - d).abs() < 1e-15))
        }) {
            let scheme = if r.engine == pool_engines::DISCRETE {
                r.scheme.clone()
            } else {
                format!("{} {}", r.engine, r.scheme)
            };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {}/{} | {} | {} | {} | {} | {} | {} | {:.0} | {} |",
                r.shot,
                scheme,
                sci(r.dt_s.unwrap_or(f64::NAN)),
                r.n_matched,
                r.n_reference_events,
                r.n_missed,
                r.n_spurious,
                sci(r.collision_time_error_median_s),
                sci(r.collision_time_error_max_s),
                sci(r.final_position_error_max_m),
                r.ops_total,
                r.ops_total as f64 / event_ops as f64,
                super::duration(r.wall_time_s)
            );
        }
    }
}

/// The shot diagrams.
fn paths_section(md: &mut String, res: &Results) {
    let _ = writeln!(md, "\n## Paths and events\n");
    let _ = writeln!(
        md,
        "Top-down view of each shot: event engine paths solid, discrete integrator (scheme `{}`, \
         dt = {} s, the coarsest of the sweep) dashed, final positions drawn at true ball size. \
         Every event is marked where it happened, by kind (diamond ball-ball, square cushion, \
         inverted triangle pocket, triangle sliding -> rolling, circle a ball stopping): filled \
         black for the event engine, hollow red for the discrete integrator. To watch a shot, \
         `cargo xtask render <shot> --engines event,discrete:<dt>`.\n",
        res.schemes.first().map_or("end_of_step", String::as_str),
        sci(res.path_dt)
    );
    for s in &res.shots {
        let _ = writeln!(md, "### {s}\n\n![{s}](paths_{s}.png)\n");
    }
}

/// What `--check` or `--bless` found.
fn regression_section(md: &mut String, r: &Regression) {
    let _ = writeln!(md, "## Regression check\n");
    let what = if r.checked {
        "checked against"
    } else {
        "blessed into"
    };
    if r.differences.is_empty() {
        let _ = writeln!(
            md,
            "{} shots {what} the baselines in `{}`: no differences.\n",
            r.shots,
            r.dir.display()
        );
    } else {
        let _ = writeln!(
            md,
            "{} shots {what} the baselines in `{}`: {} difference(s) in {} shot(s) (for each \
             shot the first diverging event, then final states and discrete summaries).\n",
            r.shots,
            r.dir.display(),
            r.differences.len(),
            r.shots_changed()
        );
        let _ = writeln!(
            md,
            "| shot | where | field | baseline | now | difference |\n|---|---|---|---|---|---:|"
        );
        for d in &r.differences {
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {} | {} |",
                d.shot,
                d.place,
                d.field,
                d.baseline,
                d.now,
                d.size.map_or("".into(), sci)
            );
        }
        let _ = writeln!(md);
    }
}

/// The root finder's verdict `v` and where its evidence is.
fn roots_section(md: &mut String, v: &str) {
    let _ = writeln!(md, "## Root finder\n");
    let _ = writeln!(
        md,
        "Event times are earliest roots of polynomials; [roots/report.md](roots/report.md) \
         measures every backend against exact references (`data/roots/cases.csv`). {v}. \
         `cargo xtask roots` adds the engine-level evidence (random breaks).\n"
    );
}

/// How to read the report, and how to reproduce it.
fn how_to_read(md: &mut String, res: &Results) {
    let _ = writeln!(md, "## How to read this\n");
    let _ = writeln!(
        md,
        "- A slope near 1 in the first plot is the discrete method's first-order timing error; \
         points above the slope-1 guide mean a step noticed the event more than a step late \
         (a missed-then-caught contact) or the trajectories had already drifted.\n\
         - *missed* and *spurious* counts above zero at large dt are the discrete method changing \
         the shot's outcome (a different ball hit, a pocket missed), not only its timing.\n\
         - The event engine's residuals must stay below 1e-9 m; overlaps, off-table samples and \
         energy rises must be 0. Any non-zero value there is a defect.\n\
         - Reproduce: `cargo xtask compare{}`.",
        if res.quick { " --quick" } else { "" }
    );
}

/// One line for the terminal: events, fitted slopes, the event engine's worst residuals and the
/// run's wall time.
pub fn console_summary(res: &Results) -> String {
    let slopes = fitted_slopes(res);
    let events: usize = res.residuals.iter().map(|r| r.n_events).sum();
    let bb = res
        .residuals
        .iter()
        .map(|r| r.max_ball_ball_residual_m)
        .fold(0.0, f64::max);
    let cu = res
        .residuals
        .iter()
        .map(|r| r.max_cushion_residual_m)
        .fold(0.0, f64::max);
    let overlap = res
        .residuals
        .iter()
        .map(|r| r.max_overlap_m)
        .fold(0.0, f64::max);
    let off: usize = res.residuals.iter().map(|r| r.off_table_samples).sum();
    let failed = res.failures.iter().filter(|f| !f.unsupported).count();
    let failed = if failed > 0 {
        format!("; {failed} engine run(s) FAILED")
    } else {
        String::new()
    };
    let slope = if slopes.is_empty() {
        "no end_of_step/euler run to fit an order to".to_string()
    } else {
        format!(
            "median fitted slope of end_of_step/euler {:.2} (min {:.2}, max {:.2})",
            median(slopes.clone()),
            slopes.iter().copied().fold(f64::INFINITY, f64::min),
            slopes.iter().copied().fold(f64::NEG_INFINITY, f64::max)
        )
    };
    format!(
        "{} shots, {} reference events; {slope}; event engine max residual: ball-ball {} m, \
         cushion {} m; max overlap {} m; off-table samples {}; wall time {:.1} s{failed}",
        res.residuals.len(),
        events,
        sci(bb),
        sci(cu),
        sci(overlap),
        off,
        res.wall_time_s
    )
}

/// The scaling study: what ran, the fitted slopes against Leckie & Greenspan's, the plot.
fn scaling_section(md: &mut String, sc: &Scaling) {
    let p = &sc.plan;
    let (l, w) = pool_harness::SCALING_TABLE_M;
    let _ = writeln!(md, "## Scaling with the number of balls\n");
    let _ = writeln!(
        md,
        "Random scatters of n = {} balls ({} seed(s) each) on a {l} m x {w} m pocketless \
         table, {} s of play each, through the event engine and the discrete integrator \
         (dt = {} s, end_of_step scheme) with both broad phases: `exhaustive` tests every pair, \
         cushion and pocket each step (the method Leckie & Greenspan count); `culled` \
         (sort-and-sweep on x with a skin, the list kept until a ball moves R/2; per-cell \
         cushion lists) gives the same events bit for bit. \
         Cost per unit of work: per event for the event engine, per step for the discrete \
         integrator; medians over seeds. Study wall time {:.1} s. Rows: `scaling.csv`.\n",
        p.sizes
            .iter()
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(", "),
        p.seeds,
        p.t_end,
        sci(p.dt),
        sc.wall_time_s
    );
    let _ = writeln!(md, "![cost vs number of balls](scaling.png)\n");
    let _ = writeln!(
        md,
        "| engine | slope of ops per unit | slope of wall time per unit | L&G slope (same n, where positive) | n range |"
    );
    let _ = writeln!(md, "| --- | --- | --- | --- | --- |");
    for engine in pool_harness::SCALING_ENGINES {
        let get = |m: &str| {
            sc.slopes
                .iter()
                .find(|s| s.engine == engine && s.metric == m)
        };
        let fmt = |m: &str| get(m).map_or("n/a".to_string(), |s| format!("{:.2}", s.slope));
        let lg = get("lg_ops_per_unit").map_or("n/a".to_string(), |s| {
            format!("{:.2} (n {}-{})", s.slope, s.n_range.0, s.n_range.1)
        });
        let range = get("ops_per_unit").map_or("n/a".to_string(), |s| {
            format!("{}-{}", s.n_range.0, s.n_range.1)
        });
        let _ = writeln!(
            md,
            "| {engine} | {} | {} | {lg} | {range} |",
            fmt("ops_per_unit"),
            fmt("wall_per_unit_s")
        );
    }
    let _ = writeln!(
        md,
        "\nA slope of 1 means cost per event (or step) grows linearly with n, 2 quadratically. \
         L&G's formulas, (645 n - 19 n^2)/2 per event and (61 n - n^2)/2 per step, fall and \
         turn negative past n = 34 and n = 61: they were fitted on small n, and only their \
         positive part is drawn and fitted. Wall times share 2 cores with the rest of the run: \
         compare slopes, not absolute values.\n"
    );
}

/// How the discrete integrator's error depends on the physics: every shot that also ran under
/// `preset`, its own physics beside it, at the headline dt values.
fn physics_section(md: &mut String, res: &Results, preset: &str) {
    let rows = &res.summary;
    let bases: Vec<&str> = res
        .residuals
        .iter()
        .map(|r| r.shot.as_str())
        .filter(|s| {
            rows.iter()
                .any(|r| r.shot == super::variant_name(s, preset))
        })
        .collect();
    if bases.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "\n## The discrete integrator's error under `{preset}` physics\n"
    );
    let _ = writeln!(
        md,
        "Every shot with cloth motion ran again with the `{preset}` preset's laws (same table, \
         balls and ball parameters; shots named `<shot>@{preset}` in the CSV files), the event \
         engine again the reference. The discrete integrator notices a collision at the end of \
         the step whatever the law, so the first collision's error is the same; the laws change \
         what follows (throw and spin transfer at ball-ball contacts, other cushion rebounds), \
         and so where later errors come from. Median collision-time error and matched events \
         (scheme `{}`), the shot's own physics beside `{preset}`; plot: \
         `error_vs_dt_{preset}.png`.\n",
        res.schemes.first().map_or("end_of_step", String::as_str)
    );
    let _ = writeln!(
        md,
        "![error vs dt under {preset}](error_vs_dt_{preset}.png)\n"
    );
    let _ = writeln!(
        md,
        "| shot | dt (s) | matched (own) | median error (own, s) | matched ({preset}) | median error ({preset}, s) | ratio |\n|---|---:|---:|---:|---:|---:|---:|"
    );
    let scheme = res.schemes.first().map_or("end_of_step", String::as_str);
    let find = |shot: &str, dt: f64| {
        rows.iter().find(|r| {
            r.engine == pool_engines::DISCRETE
                && r.shot == shot
                && r.scheme == scheme
                && r.dt_s.is_some_and(|d| (d - dt).abs() < 1e-15)
        })
    };
    let mut ratios = Vec::new();
    for base in &bases {
        let variant = super::variant_name(base, preset);
        for dt in headline_dts(&res.dts) {
            let (Some(a), Some(b)) = (find(base, dt), find(&variant, dt)) else {
                continue;
            };
            let ratio = b.collision_time_error_median_s / a.collision_time_error_median_s;
            if ratio.is_finite() {
                ratios.push(ratio);
            }
            let _ = writeln!(
                md,
                "| {base} | {} | {}/{} | {} | {}/{} | {} | {} |",
                sci(dt),
                a.n_matched,
                a.n_reference_events,
                sci(a.collision_time_error_median_s),
                b.n_matched,
                b.n_reference_events,
                sci(b.collision_time_error_median_s),
                if ratio.is_finite() {
                    format!("{ratio:.2}")
                } else {
                    "–".into()
                }
            );
        }
    }
    let slope = |shot: &str| {
        res.slopes
            .iter()
            .find(|s| s.shot == shot && s.scheme == scheme && s.points >= 2)
            .map(|s| s.slope)
    };
    let pairs: Vec<(f64, f64)> = bases
        .iter()
        .filter_map(|b| Some((slope(b)?, slope(&super::variant_name(b, preset))?)))
        .collect();
    let _ = writeln!(
        md,
        "\nMedian ratio of median errors ({preset} / own) over these rows: **{:.2}** (min {:.2}, \
         max {:.2}). Fitted slopes of error against dt, median over shots: {:.2} with the \
         shots' own physics, {:.2} under {preset}.",
        median(ratios.clone()),
        ratios.iter().copied().fold(f64::INFINITY, f64::min),
        ratios.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        median(pairs.iter().map(|p| p.0).collect()),
        median(pairs.iter().map(|p| p.1).collect()),
    );
}

/// TP A-14's throw curve beside its closed form.
fn throw_section(md: &mut String, rows: &[pool_harness::ThrowRow]) {
    let worst = rows
        .iter()
        .map(|r| (r.throw_deg - r.tp_a14_deg).abs())
        .fold(0.0, f64::max);
    let apart = rows
        .iter()
        .map(|r| r.throw_deg - r.pooltool_deg)
        .fold(0.0, f64::max);
    let _ = writeln!(md, "\n## Throw: `frictional_inelastic` against TP A-14\n");
    let _ = writeln!(md, "![throw vs cut angle](throw.png)\n");
    let _ = writeln!(
        md,
        "The object ball's direction off the line of centers after a `frictional_inelastic` \
         collision (pooltool's default ball-ball law, Alciatore's speed-dependent friction, \
         e_b = 0.95) with Coulomb's friction impulse (`friction_impulse = \"coulomb\"`, the \
         `corrected` preset), for a stun and a naturally rolling cue ball at {} m/s, against the \
         cut angle; solid lines are Alciatore's closed form (TP A-14: Coulomb friction on the \
         normal impulse, at most what stops the contact's slip; friction from TP A-27/A-28's \
         fit), dashed lines the law with pooltool 0.6.0's friction impulse (mu times the \
         separation speed, the law's default and `pooltool_default`'s), which throws up to {} \
         deg less. Largest difference from TP A-14 over the {} points: {} deg (`throw.csv`; \
         the same numbers are asserted in the tests). Stun throws most; its curve peaks at the \
         cut where the contact stops sticking (smaller cuts) and slides; slow shots throw \
         more, since friction falls with slip speed.\n",
        pool_harness::THROW_SPEEDS
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join(" and "),
        sci(apart),
        rows.len(),
        sci(worst)
    );
}
