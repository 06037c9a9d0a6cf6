//! The answer: one cell per engine and family, its reading guide (before the table), the
//! answers not yet complete with the command that would complete each, and the terminal's
//! lines. Every word comes from the typed answer ([`AnswerClaim`], [`AnswerRow`]).

use std::fmt::Write;

use pool_outcome::{fmt_dt, AnswerClaim, AnswerRow, SearchEnd, Verdict, STUDY_ALPHA};

use super::cost::{cost_cell, duration};
use super::{pct, OutcomeStudy};

/// The fill of a claim (RGB), shared by the PNG grid, the page and the legends. A change that
/// keeps the game's statistics (`changes shots; same in distribution`) is orange, any other
/// change red.
pub fn claim_rgb(claim: AnswerClaim, verdict: Verdict) -> (u8, u8, u8) {
    match claim {
        AnswerClaim::Keeps | AnswerClaim::KeepsBelow => KEEPS_RGB,
        AnswerClaim::Changes if verdict == Verdict::ChangesShotsSameInDistribution => {
            CHANGES_SHOTS_RGB
        }
        AnswerClaim::Changes => CHANGES_RGB,
        AnswerClaim::KeepsAndChanges => KEEPS_RGB,
        AnswerClaim::Partial => PARTIAL_RGB,
        AnswerClaim::Undecided => (205, 205, 205),
        AnswerClaim::NotPlayed => (245, 245, 245),
        AnswerClaim::FloorNotNeutral => (190, 160, 220),
    }
}

/// Keeps the game.
const KEEPS_RGB: (u8, u8, u8) = (120, 190, 120);
/// Changes shots; same in distribution.
const CHANGES_SHOTS_RGB: (u8, u8, u8) = (245, 190, 110);
/// Changes the game.
const CHANGES_RGB: (u8, u8, u8) = (225, 110, 100);
/// A partial claim.
const PARTIAL_RGB: (u8, u8, u8) = (200, 228, 185);

/// The legend of the grid and the page: each colour's key, what it claims, and the colour.
pub fn legend() -> Vec<(&'static str, &'static str, (u8, u8, u8))> {
    vec![
        ("keeps", "keeps the game", KEEPS_RGB),
        (
            "changes_shots",
            "changes shots; same in distribution",
            CHANGES_SHOTS_RGB,
        ),
        ("changes", "changes the game", CHANGES_RGB),
        (
            "partial",
            "partial: same in distribution, or within the floor",
            PARTIAL_RGB,
        ),
        (
            "undecided",
            "undecided",
            claim_rgb(AnswerClaim::Undecided, Verdict::Undecided),
        ),
        (
            "not_played",
            "not played",
            claim_rgb(AnswerClaim::NotPlayed, Verdict::NotPlayed),
        ),
        (
            "floor_not_neutral",
            "floor not neutral",
            claim_rgb(AnswerClaim::FloorNotNeutral, Verdict::FloorNotNeutral),
        ),
    ]
}

/// The legend key of a colour ([`legend`]'s first field).
pub fn legend_key((r, g, b): (u8, u8, u8)) -> &'static str {
    legend()
        .into_iter()
        .find(|l| l.2 == (r, g, b))
        .map_or("undecided", |l| l.0)
}

/// An answer drawn as the grid draws it: one part, or two (a series' two halves, the keeps
/// half above the changes half), each with its words (a short claim, then the shots and the dt
/// they were played at, then the changed rate's excess over the floor) and its fill.
pub fn answer_parts(a: &AnswerRow) -> Vec<(Vec<String>, (u8, u8, u8))> {
    let fill = claim_rgb(a.claim, a.verdict);
    if a.claim == AnswerClaim::NotPlayed {
        return vec![(
            vec!["not played".into(), "every shot declined".into()],
            fill,
        )];
    }
    let shots = match (a.search, a.dt_s) {
        (Some(_), Some(dt)) => format!("n = {} at {} s", a.n, fmt_dt(dt)),
        _ => format!("n = {}", a.n),
    };
    let numbers = vec![shots, excess_text(a)];
    let with = |head: Vec<String>| head.into_iter().chain(numbers.clone()).collect::<Vec<_>>();
    let at = |text: &str| match a.dt_s {
        Some(dt) if a.search.is_none() => vec![text.to_string(), format!("at {} s", fmt_dt(dt))],
        _ => vec![text.to_string()],
    };
    match (a.search, a.claim) {
        (Some(_), AnswerClaim::KeepsAndChanges) => vec![
            (
                with(vec![format!("keeps ≤ {} s", opt_dt(a.keeps_dt_s))]),
                KEEPS_RGB,
            ),
            (
                vec![format!("changes ≥ {} s", opt_dt(a.changes_dt_s))],
                CHANGES_RGB,
            ),
        ],
        (Some(_), AnswerClaim::Keeps) => {
            vec![(with(vec![format!("≤ {} s", opt_dt(a.keeps_dt_s))]), fill)]
        }
        (Some(_), AnswerClaim::KeepsBelow) => {
            vec![(
                with(vec![format!("keeps ≤ {} s", opt_dt(a.keeps_dt_s))]),
                fill,
            )]
        }
        (Some(_), AnswerClaim::Changes) => {
            vec![(
                with(vec![format!("changes ≥ {} s", opt_dt(a.changes_dt_s))]),
                fill,
            )]
        }
        (_, AnswerClaim::FloorNotNeutral) => vec![(with(vec!["floor not neutral".into()]), fill)],
        (_, AnswerClaim::Undecided) => vec![(with(vec!["undecided".into()]), fill)],
        // A cell's verdict (or a series' partial claim), at its dt.
        _ => {
            let short = match a.verdict {
                Verdict::Keeps => "keeps the game",
                Verdict::ChangesShotsSameInDistribution => "changes shots, same distr.",
                Verdict::ChangesShots => "changes shots",
                Verdict::ChangesStatistics => "changes statistics",
                Verdict::SameInDistribution => "same in distribution",
                Verdict::WithinFloor => "within the floor",
                _ => "undecided",
            };
            let head = match (a.search, a.dt_s) {
                (Some(_), Some(dt)) => vec![format!("{short} at {} s", fmt_dt(dt))],
                _ => at(short),
            };
            vec![(head.into_iter().chain(numbers).collect(), fill)]
        }
    }
}

fn opt_dt(dt: Option<f64>) -> String {
    dt.map_or("?".into(), fmt_dt)
}

/// An interval in points: `+0.1 [-0.2, +0.4] pt`.
pub fn excess_text(a: &AnswerRow) -> String {
    let p = |x: f64| {
        let v = 100.0 * x;
        if v.abs() >= 10.0 {
            format!("{v:+.0}")
        } else {
            format!("{v:+.1}")
        }
    };
    if !a.rate.is_finite() || !a.floor_rate.is_finite() {
        return "–".into();
    }
    format!(
        "{} [{}, {}] pt",
        p(a.rate - a.floor_rate),
        p(a.excess_low),
        p(a.excess_high)
    )
}

/// The grid's small line: the shots, the dt they were played at (a series), and the changed
/// rate's excess over the floor with its interval.
fn numbers_line(a: &AnswerRow) -> String {
    if a.claim == AnswerClaim::NotPlayed {
        return "every shot declined or failed".into();
    }
    let at = match (a.search, a.dt_s) {
        (Some(_), Some(dt)) => format!(" at {} s", fmt_dt(dt)),
        _ => String::new(),
    };
    format!("n = {}{at} · {}", a.n, excess_text(a))
}

/// Whether an answer is complete: a cell's main claim decided, or a series whose two halves
/// meet (adjacent rungs, or the ladder's end).
pub fn complete(a: &AnswerRow) -> bool {
    match a.search {
        Some(end) => matches!(
            end,
            SearchEnd::Converged | SearchEnd::KeepsAtTop | SearchEnd::BelowLimit
        ),
        None => a.verdict.claim().is_some(),
    }
}

/// The reading guide, before the answer table: what each word of a cell means, and what the
/// 5 % covers.
pub fn reading_guide(md: &mut String, st: &OutcomeStudy) {
    let m = &st.margins;
    let _ = writeln!(
        md,
        "**How to read it.** Each cell is one engine on one family of random shots, against \
         {} (the reference) on the same shots. A shot's **outcome** is the first ball \
         the cue ball touches, the pocketed balls with their pockets, a scratch and a physical \
         end. The **chaos floor** is the reference itself on each shot moved by its physical \
         uncertainty (every ball 1 µm, the cue's speed 1e-4, a break racked again): how often \
         that changes the outcome is what no algorithm can be blamed for. Two claims, exactly \
         one of which is true of any engine, each made only when the shots show it:\n",
        st.reference_name()
    );
    if let Some(p) = st.model_or_dt() {
        let _ = writeln!(md, "**Model or dt.** {p}\n");
    }
    let _ = writeln!(
        md,
        "- **keeps the game**: it changes outcomes at most {} + {:.0} % of the floor's rate more \
         often than the floor does, *and* every statistic of the game is within its margin \
         (balls pocketed ±{} per shot; scratch, success, each pocket's and first contact's rate \
         ±{}; the final cue-ball position ±{} m);",
        pct(m.floor),
        100.0 * m.floor_relative,
        m.balls,
        pct(m.rate),
        m.position_m
    );
    let _ = writeln!(
        md,
        "- **changes the game**: its rate of changed outcomes is beyond that margin (**changes \
         shots**; with **same in distribution** when every statistic is shown within its \
         margin: single shots change, the game's statistics do not), or a statistic is beyond \
         its margin (**changes its statistics**). A difference that only excludes 0 is not a \
         claim;"
    );
    let _ = writeln!(
        md,
        "- an engine with a time step is played on one ladder of dt ({} rungs, {{1, 2, 5}} x \
         10^k from 1e-2 down to {} s), searched coarse to fine: **changes at ≥ A s** (the finest \
         rung shown to change the game, read as covering every coarser rung) and **keeps at ≤ W \
         s** (the coarsest finer rung shown to keep it, read as covering every finer rung it \
         played), each half shown as soon as it is decided; **≤ W s** alone once W and A are \
         adjacent rungs. An engine played at one dt (a peer named at one dt) is one cell: \
         \"keeps the game at 1e-3 s\" or \"changes ... at 1e-3 s\";",
        st.rungs,
        fmt_dt(st.finest_rung_s)
    );
    let _ = writeln!(
        md,
        "- **undecided**: neither is shown yet; the list below the table says how many shots \
         would decide it, and the command that plays them.\n"
    );
    let _ = writeln!(
        md,
        "Beside each answer: the shots it rests on, the changed rate's excess over the floor's \
         on the same shots with its interval at the cell's level, and what a shot costs there \
         (engine time on one core, its ratio to the reference's; a program that reports its \
         engine time has its whole wall time *with adapter* beside it).\n"
    );
    let _ = writeln!(
        md,
        "**What the {} % covers.** One answer: every claim about one engine on one family \
         (every rung of its ladder together, each rung at {} / {}) is wrong at most {} % of the \
         time, whenever the study stopped. It does not cover the whole table: of {} answers, \
         each at {} %, a false claim somewhere is to be expected.\n",
        100.0 * STUDY_ALPHA,
        STUDY_ALPHA,
        st.rungs,
        100.0 * STUDY_ALPHA,
        st.answers.len(),
        100.0 * STUDY_ALPHA
    );
}

/// The answer's cell text (Markdown): `**≤ 2e-6 s** · 3200 shots at 2e-6 s · +0.1 [-0.2,
/// +0.4] pt over the floor's 0.1 % · cost`.
pub fn answer_cell(a: &AnswerRow, cost: &str) -> String {
    let mut out = format!("**{}**", a.headline());
    if a.claim == AnswerClaim::NotPlayed {
        out.push_str(" (every shot declined or failed)");
        return out;
    }
    // Where a series' search stopped, once it has a half to stop beside.
    if let (Some(_), Some(open), true) = (a.search, a.open_dt_s, a.decided()) {
        let _ = write!(out, " (search stopped: {} s undecided)", fmt_dt(open));
    }
    let at = match (a.search, a.dt_s) {
        (Some(_), Some(dt)) => format!(" at {} s", fmt_dt(dt)),
        _ => String::new(),
    };
    let _ = write!(
        out,
        " · {} shots{at} · {} over the floor's {}",
        a.n,
        excess_text(a),
        pct(a.floor_rate)
    );
    if let Some(need) = a.shots_to_decide.filter(|_| !complete(a)) {
        let _ = write!(out, " · about {need} would decide");
    }
    let _ = write!(out, " · {cost}");
    out
}

/// The answer table's content: one line per engine (family and scheme) of the answers, and the
/// event engine's own cost per family.
pub(crate) struct AnswerTable {
    /// The columns: (family, table) in first-appearance order.
    pub families: Vec<(String, String)>,
    /// One line per engine, in first-answer order.
    pub lines: Vec<AnswerLine>,
    /// The reference's cells (its time per shot), one per family.
    pub reference: Vec<String>,
}

/// One engine's line of the answer table.
pub(crate) struct AnswerLine {
    /// Engine family (`discrete`, `rapier`, ...).
    pub engine: String,
    /// Its scheme or variant.
    pub scheme: String,
    /// The name shown (Markdown: a scheme in backticks).
    pub name: String,
    /// One cell per family ("–" where it has no answer).
    pub cells: Vec<String>,
    /// The answers behind the cells (`None` where "–").
    pub answers: Vec<Option<AnswerRow>>,
}

/// An engine's name in the answer table: a scheme in backticks, else `<engine> (<variant>)`.
pub fn engine_name(engine: &str, scheme: &str) -> String {
    if engine == pool_engines::DISCRETE {
        format!("`{scheme}`")
    } else if engine == pool_engines::EXEC {
        format!("`exec:{scheme}`")
    } else {
        format!("{engine} ({scheme})")
    }
}

/// An engine's name in the page's filters: a discrete scheme's (`end_of_step`) and a
/// program's (`exec:<command>`) as the answer table names them, else the engine alone
/// (`rapier`, `pooltool`: their variant is a version, which tells no two engines of one run
/// apart).
pub fn filter_name(engine: &str, scheme: &str) -> String {
    if engine == pool_engines::DISCRETE || engine == pool_engines::EXEC {
        engine_name(engine, scheme).replace('`', "")
    } else {
        engine.to_string()
    }
}

/// The line above the answer table (Markdown): how many answers carry a decided claim and
/// how many are complete, and the budget.
pub fn answer_heading(st: &OutcomeStudy) -> String {
    let decided = st.answers.iter().filter(|a| a.decided()).count();
    let whole = st.answers.iter().filter(|a| complete(a)).count();
    format!(
        "**The answer** ({decided} of {} carry a decided claim, {whole} complete{}):",
        st.answers.len(),
        st.budget
            .as_ref()
            .map_or(String::new(), |b| format!("; sequential budget {b}"))
    )
}

/// An answer not yet complete, with about how many shots would complete it and the command
/// that plays them.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Undecided {
    /// The engine's name as the answer table shows it (Markdown).
    pub name: String,
    /// The engine's name in the page's filters ([`filter_name`]).
    pub filter: String,
    /// The family.
    pub family: String,
    /// Its table.
    pub table: String,
    /// What the list says before the command (Markdown): `` `end_of_step` on cut
    /// (seven_foot): changes at ≥ 1e-3 s; undecided at 2e-5 s at 400 shots, about 9000 would
    /// decide `` (or `its next rung, 5e-3 s, not played yet`).
    pub text: String,
    /// The `cargo xtask outcomes ...` command that decides it.
    pub command: String,
}

/// The answers played and not complete, in answer order.
pub fn undecided(st: &OutcomeStudy) -> Vec<Undecided> {
    st.answers
        .iter()
        .enumerate()
        .filter(|(_, a)| !complete(a) && a.claim != AnswerClaim::NotPlayed)
        .map(|(k, a)| {
            let spec = st.answer_wall[k].as_ref().map(|w| w.run.as_str());
            let name = engine_name(&a.engine, &a.scheme);
            // The shots the open rung has played (the answer's own n is its decided rung's):
            // a search's next rung may not have been played at all.
            let open = match (a.search, a.open_dt_s.or(a.dt_s)) {
                (Some(_), Some(dt)) => {
                    let played = st
                        .outcome_row((&a.family, &a.table), (&a.engine, &a.scheme), Some(dt))
                        .map_or(0, |r| r.n);
                    match played {
                        0 => format!("; its next rung, {} s, not played yet", fmt_dt(dt)),
                        n => format!("; undecided at {} s at {n} shots", fmt_dt(dt)),
                    }
                }
                _ => format!("; undecided at {} shots", a.n),
            };
            Undecided {
                text: format!(
                    "{name} on {} ({}): {}{open}{}",
                    a.family,
                    a.table,
                    a.headline(),
                    a.shots_to_decide
                        .map_or(String::new(), |n| format!(", about {n} would decide"))
                ),
                filter: filter_name(&a.engine, &a.scheme),
                name,
                family: a.family.clone(),
                table: a.table.clone(),
                command: decide_command(
                    a,
                    spec,
                    (st.first_shots, st.budget_shots),
                    &st.plan_args,
                    &st.program,
                ),
            }
        })
        .collect()
}

/// What the list of incomplete answers says before its items (Markdown), `None` when every
/// answer played is complete.
pub fn undecided_intro(open: usize) -> Option<String> {
    (open > 0).then(|| {
        format!(
            "Not yet complete ({open}): each with about how many shots would complete it (the \
             mean and spread seen so far taken to hold: a planning hint) and the command that \
             plays them:"
        )
    })
}

/// The answer table of `st`, `None` when it has no answers.
pub(crate) fn answer_lines(st: &OutcomeStudy) -> Option<AnswerTable> {
    let families = st.families();
    let mut engines: Vec<(String, String)> = Vec::new();
    for a in &st.answers {
        let k = (a.engine.clone(), a.scheme.clone());
        if !engines.contains(&k) {
            engines.push(k);
        }
    }
    if engines.is_empty() {
        return None;
    }
    let lines = engines
        .into_iter()
        .map(|(engine, scheme)| {
            let found: Vec<Option<usize>> = families
                .iter()
                .map(|(f, t)| {
                    st.answers.iter().position(|a| {
                        &a.family == f && &a.table == t && a.engine == engine && a.scheme == scheme
                    })
                })
                .collect();
            let cells = found
                .iter()
                .zip(&families)
                .map(|(k, (f, t))| {
                    k.map_or("–".into(), |k| {
                        let cost = cost_cell(st.answer_wall[k].as_ref(), st.reference_s(f, t));
                        answer_cell(&st.answers[k], &cost)
                    })
                })
                .collect();
            AnswerLine {
                answers: found
                    .iter()
                    .map(|k| k.map(|k| st.answers[k].clone()))
                    .collect(),
                name: engine_name(&engine, &scheme),
                engine,
                scheme,
                cells,
            }
        })
        .collect();
    let reference = families
        .iter()
        .map(|(f, t)| duration(st.reference_s(f, t)))
        .collect();
    Some(AnswerTable {
        families,
        lines,
        reference,
    })
}

/// The answer table (Markdown), after its reading guide, with the picture and the answers not
/// yet complete.
pub(crate) fn answer_section(md: &mut String, st: &OutcomeStudy) {
    let Some(t) = answer_lines(st) else {
        return;
    };
    reading_guide(md, st);
    let _ = writeln!(md, "{}\n", answer_heading(st));
    let header: Vec<String> = t
        .families
        .iter()
        .map(|(f, t)| format!("{f} ({t})"))
        .collect();
    let _ = writeln!(md, "| engine | {} |", header.join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(t.families.len()));
    for l in &t.lines {
        let _ = writeln!(md, "| {} | {} |", l.name, l.cells.join(" | "));
    }
    let _ = writeln!(
        md,
        "| {} (the reference) | {} |\n",
        st.reference
            .as_ref()
            .map_or("event engine".to_string(), |r| format!("`{r}`")),
        t.reference.join(" | ")
    );
    let _ = writeln!(md, "![the answer as a grid](answer_grid.png)\n");
    undecided_hints(md, st);
}

/// The smallest look size of the study's schedule (`first` doubled) at or above `need`.
fn budget_for(need: u64, first: u64) -> u64 {
    let mut n = first.max(1);
    while n < need && n < pool_outcome::MAX_SHOTS {
        n = n.saturating_mul(2);
    }
    n.min(pool_outcome::MAX_SHOTS)
}

/// The `outcomes` command that plays answer `a`'s engine on its family until decided: a
/// budget of shots at least what would decide it, and larger than the one that ran
/// (`ran`), and the study's own options (`plan_args`, [`super::OutcomeStudy::plan_args`]),
/// run by `program` ([`super::OutcomeStudy::program`]).
pub fn decide_command(
    a: &AnswerRow,
    spec: Option<&str>,
    (first_shots, ran): (u64, u64),
    plan_args: &[String],
    program: &str,
) -> String {
    let need = a
        .shots_to_decide
        .unwrap_or(a.n.saturating_mul(4))
        .max(a.n + 1)
        .max(ran.saturating_add(1));
    let engines = if a.engine == pool_engines::DISCRETE {
        format!("--schemes {}", a.scheme)
    } else {
        format!(
            "--schemes none --engines {}",
            pool_engines::shell_word(spec.unwrap_or(&format!("{}:{}", a.engine, a.scheme)))
        )
    };
    let own: String = plan_args
        .iter()
        .map(|w| format!(" {}", pool_engines::shell_word(w)))
        .collect();
    format!(
        "{program} outcomes {engines} --outcome-families {} --outcome-tables {} \
         --outcome-budget {}{own}",
        a.family,
        a.table,
        budget_for(need, first_shots)
    )
}

/// The incomplete answers, each with about how many shots would complete it and the command.
fn undecided_hints(md: &mut String, st: &OutcomeStudy) {
    let open = undecided(st);
    let Some(intro) = undecided_intro(open.len()) else {
        return;
    };
    let _ = writeln!(md, "{intro}\n");
    for u in open {
        let _ = writeln!(md, "- {}: `{}`", u.text, u.command);
    }
    let _ = writeln!(md);
}

/// The answer as a picture's grid (`answer_grid.png`): engines down, families across, each
/// cell its claim (a series' two halves one above the other), its shots and the changed
/// rate's excess over the floor, filled by its claim.
pub fn answer_grid(st: &OutcomeStudy) -> crate::plots::Grid {
    let table = answer_lines(st);
    let (columns, rows) = match &table {
        Some(t) => (
            t.families
                .iter()
                .map(|(f, tb)| format!("{f} ({tb})"))
                .collect(),
            t.lines
                .iter()
                .map(|l| {
                    let cells = l
                        .answers
                        .iter()
                        .map(|a| {
                            a.as_ref().map(|a| crate::plots::GridCell {
                                parts: answer_parts(a)
                                    .into_iter()
                                    .map(|(lines, fill)| crate::plots::GridPart { lines, fill })
                                    .collect(),
                            })
                        })
                        .collect();
                    (l.name.replace('`', ""), cells)
                })
                .collect(),
        ),
        None => (Vec::new(), Vec::new()),
    };
    crate::plots::Grid {
        title: match &st.reference {
            None => "Does it change the game?".into(),
            Some(r) => format!("Does it change the game? Against {r}"),
        },
        subtitle: "each claim at 5 % per answer; n: shots at the dt shown; the changed rate's \
                   excess over the floor, in points"
            .into(),
        columns,
        rows,
        legend: legend()
            .iter()
            .map(|(_, label, c)| (label.to_string(), *c))
            .collect(),
    }
}

/// The terminal's answer: one line per family and engine, in columns that hold for every
/// family and table.
pub fn console_lines(st: &OutcomeStudy) -> Vec<String> {
    let Some(t) = answer_lines(st) else {
        return vec!["outcome study: no engine besides the reference and the floor".into()];
    };
    let family_width = t
        .families
        .iter()
        .map(|(f, tb)| f.chars().count() + tb.chars().count() + 3)
        .max()
        .unwrap_or(0);
    let name_width = t
        .lines
        .iter()
        .map(|l| l.name.replace('`', "").chars().count())
        .max()
        .unwrap_or(0);
    let headlines: Vec<String> = t
        .lines
        .iter()
        .flat_map(|l| l.answers.iter().flatten().map(AnswerRow::headline))
        .collect();
    let head_width = headlines
        .iter()
        .map(|h| h.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = Vec::new();
    for (k, (family, table)) in t.families.iter().enumerate() {
        for l in &t.lines {
            let Some(a) = &l.answers[k] else { continue };
            let mut line = format!(
                "  {:<family_width$} {:<name_width$}  {:<head_width$}",
                format!("{family} ({table})"),
                l.name.replace('`', ""),
                a.headline()
            );
            if a.claim != AnswerClaim::NotPlayed {
                let _ = write!(line, "  {}", numbers_line(a));
            }
            if let Some(n) = a.shots_to_decide.filter(|_| !complete(a)) {
                let _ = write!(line, "; about {n} would decide");
            }
            out.push(line.trim_end().to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pool_outcome::FloorVerdict;

    fn row(search: Option<SearchEnd>, claim: AnswerClaim, verdict: Verdict) -> AnswerRow {
        AnswerRow {
            family: "cut".into(),
            table: "seven_foot".into(),
            engine: "discrete".into(),
            scheme: "end_of_step".into(),
            search,
            keeps_dt_s: Some(2e-6),
            changes_dt_s: Some(5e-6),
            open_dt_s: None,
            claim,
            dt_s: Some(2e-6),
            verdict,
            shot_by_shot: Some(FloorVerdict::Within),
            alpha: 0.05 / 13.0,
            n: 3200,
            rate: 0.001,
            ci_low: 0.0,
            ci_high: 0.003,
            floor_rate: 0.0,
            excess_low: -0.002,
            excess_high: 0.004,
            margin: 0.005,
            ops_per_shot: None,
            shots_to_decide: Some(9000),
            detail: "x".into(),
        }
    }

    #[test]
    fn cells_say_what_was_decided() {
        let a = row(
            Some(SearchEnd::Converged),
            AnswerClaim::Keeps,
            Verdict::Keeps,
        );
        assert!(complete(&a));
        assert_eq!(
            answer_cell(&a, "1 ms"),
            "**≤ 2e-6 s** · 3200 shots at 2e-6 s · +0.1 [-0.2, +0.4] pt over the floor's 0 % · 1 ms"
        );
        let mut b = row(
            Some(SearchEnd::Partial),
            AnswerClaim::KeepsAndChanges,
            Verdict::Keeps,
        );
        b.changes_dt_s = Some(1e-4);
        b.open_dt_s = Some(5e-5);
        assert!(!complete(&b));
        assert!(answer_cell(&b, "1 ms").starts_with(
            "**changes at ≥ 1e-4 s; keeps at ≤ 2e-6 s** (search stopped: 5e-5 s undecided)"
        ));
        assert_eq!(answer_parts(&b).len(), 2, "two halves");
        let c = row(
            Some(SearchEnd::Undecided),
            AnswerClaim::Undecided,
            Verdict::Undecided,
        );
        assert!(answer_cell(&c, "1 ms").contains("about 9000 would decide"));
        assert!(decide_command(&c, None, (100, 3200), &[], "cargo xtask")
            .ends_with("--outcome-budget 12800"));
        // A budget larger than the one that ran.
        assert!(decide_command(&c, None, (100, 12800), &[], "cargo xtask")
            .ends_with("--outcome-budget 25600"));
        // A peer at one dt: its cell's verdict at that dt.
        let mut d = row(None, AnswerClaim::Changes, Verdict::ChangesShots);
        d.engine = "mujoco".into();
        d.dt_s = Some(1e-3);
        assert_eq!(d.headline(), "changes shots at 1e-3 s");
        assert!(complete(&d));
        assert_eq!(claim_rgb(d.claim, d.verdict), CHANGES_RGB);
    }

    #[test]
    fn an_undecided_series_says_whether_its_next_rung_was_played() {
        // Decided to change at 1e-2 s on 100 shots; its open rung 5e-3 s.
        let mut a = row(
            Some(SearchEnd::Partial),
            AnswerClaim::Changes,
            Verdict::ChangesShots,
        );
        (a.changes_dt_s, a.keeps_dt_s, a.open_dt_s, a.dt_s, a.n) =
            (Some(1e-2), None, Some(5e-3), Some(1e-2), 100);
        let outcome_row = |dt: f64, n: u64| -> pool_outcome::OutcomeRow {
            let text = format!(
                "family,table,engine,scheme,dt_s,field,n,disagree,rate,ci_low,ci_high,\
                 floor_disagree,floor_rate,floor_ci_low,floor_ci_high,p_value,diff_low,\
                 diff_high,margin,alpha,floor_verdict,failed,ops_per_shot\n\
                 cut,seven_foot,discrete,end_of_step,{dt},outcome,{n},9,0.03,0.01,0.05,0,0,0,\
                 0.01,1,0,0.05,0.005,0.05,,0,100\n"
            );
            csv::Reader::from_reader(text.as_bytes())
                .deserialize()
                .next()
                .unwrap()
                .unwrap()
        };
        let text = |rows: Vec<pool_outcome::OutcomeRow>| {
            let st = OutcomeStudy::from_rows(rows, vec![a.clone()], &[]);
            undecided(&st).remove(0).text
        };
        let unplayed = text(vec![outcome_row(1e-2, 100)]);
        assert!(
            unplayed.ends_with("its next rung, 5e-3 s, not played yet, about 9000 would decide"),
            "{unplayed}"
        );
        let played = text(vec![outcome_row(1e-2, 100), outcome_row(5e-3, 300)]);
        assert!(
            played.contains("; undecided at 5e-3 s at 300 shots"),
            "{played}"
        );
    }
}
