//! The answer: one cell per engine and family, its reading guide (before the table), the
//! cells still undecided with the command that decides each, and the terminal's lines.

use std::fmt::Write;

use pool_harness::{fmt_dt, AnswerRow, SearchEnd, Verdict};

use super::cost::{cost_cell, duration};
use super::{pct, OutcomeStudy};

/// What colour an answer is drawn in: its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerClass {
    /// Same shot by shot (at a dt found, or an engine without one).
    Keeps,
    /// Same in distribution.
    SameInDistribution,
    /// Changes shots, the statistics undecided.
    ChangesShots,
    /// A statistic differs (an engine without a dt).
    Differs,
    /// Changes the game at every dt down to the search's limit.
    BelowLimit,
    /// Not decided.
    Undecided,
    /// Declined or failed every shot.
    NotPlayed,
    /// The family's floor is not neutral.
    FloorNotNeutral,
}

impl AnswerClass {
    /// The class of answer `a`.
    pub fn of(a: &AnswerRow) -> Self {
        match (a.search, a.keeps_dt_s, a.verdict) {
            (_, _, Verdict::NotPlayed) => AnswerClass::NotPlayed,
            (_, _, Verdict::FloorNotNeutral) => AnswerClass::FloorNotNeutral,
            (Some(_), Some(_), _) => AnswerClass::Keeps,
            (Some(SearchEnd::BelowLimit), None, _) => AnswerClass::BelowLimit,
            (Some(_), None, _) => AnswerClass::Undecided,
            (None, _, Verdict::SameShotByShot) => AnswerClass::Keeps,
            (None, _, Verdict::SameInDistribution) => AnswerClass::SameInDistribution,
            (None, _, Verdict::ChangesShots) => AnswerClass::ChangesShots,
            (None, _, Verdict::Differs) => AnswerClass::Differs,
            (None, _, _) => AnswerClass::Undecided,
        }
    }

    /// Every class, in legend order, with its legend words.
    pub const LEGEND: [(AnswerClass, &'static str); 8] = [
        (AnswerClass::Keeps, "keeps the game (same shot by shot)"),
        (AnswerClass::SameInDistribution, "same in distribution"),
        (AnswerClass::ChangesShots, "changes shots"),
        (AnswerClass::Differs, "differs"),
        (AnswerClass::BelowLimit, "changes it at every dt tried"),
        (AnswerClass::Undecided, "undecided"),
        (AnswerClass::NotPlayed, "not played"),
        (AnswerClass::FloorNotNeutral, "floor not neutral"),
    ];

    /// Its fill colour (RGB), shared by the PNG grid and the page.
    pub fn rgb(self) -> (u8, u8, u8) {
        match self {
            AnswerClass::Keeps => (120, 190, 120),
            AnswerClass::SameInDistribution => (180, 220, 160),
            AnswerClass::ChangesShots => (245, 190, 110),
            AnswerClass::Differs => (225, 110, 100),
            AnswerClass::BelowLimit => (175, 65, 60),
            AnswerClass::Undecided => (205, 205, 205),
            AnswerClass::NotPlayed => (245, 245, 245),
            AnswerClass::FloorNotNeutral => (190, 160, 220),
        }
    }
}

/// The reading guide, before the answer table: what each word of a cell means.
pub fn reading_guide(md: &mut String, st: &OutcomeStudy) {
    let m = &st.margins;
    let s = &st.search;
    let _ = writeln!(
        md,
        "**How to read it.** Each cell is one engine on one family of random shots, against the \
         event engine (the reference) on the same shots. A shot's **outcome** is the first ball \
         the cue ball touches, the pocketed balls with their pockets, a scratch and a physical \
         end. The **chaos floor** is the reference itself on each shot moved by its physical \
         uncertainty (every ball 1 µm, the cue's speed 1e-4, a break racked again): how often \
         that changes the outcome is what no algorithm can be blamed for. The words:\n"
    );
    let words = [
        (
            Verdict::SameShotByShot,
            format!(
                "it changes outcomes at most {} + {:.0} % of the floor's rate more often than the \
                 floor does (the interval of the difference says so), and every statistic of the \
                 game is within its margin: balls pocketed ±{} per shot, scratch, success, each \
                 pocket's and first contact's rate ±{}, the final cue-ball position ±{} m and its \
                 2-D distribution",
                pct(m.floor),
                100.0 * m.floor_relative,
                m.balls,
                pct(m.rate),
                m.position_m
            ),
        ),
        (
            Verdict::SameInDistribution,
            "every statistic within its margin, but single shots change more often than the \
             floor's (or that is not yet decided)"
                .into(),
        ),
        (
            Verdict::ChangesShots,
            "single shots change more often than the floor's; the statistics are not yet decided"
                .into(),
        ),
        (
            Verdict::Differs,
            "a statistic of the game differs from the reference's beyond its margin (named in the \
             cells' table)"
                .into(),
        ),
        (
            Verdict::Undecided,
            "the shots played do not decide; the list below the table says how many would, and \
             the command that plays them"
                .into(),
        ),
    ];
    for (v, text) in words {
        let _ = writeln!(md, "- **{}**: {text};", v.label());
    }
    let _ = writeln!(
        md,
        "- **≤ X s** (an engine with a time step): the largest dt that keeps the game (same shot \
         by shot there, and no smaller dt played changing it), found by searching below the \
         grid to within a factor {} of the smallest dt that changes it, down to {} s; **below \
         {} s**: it changes the game at every dt down to that limit.\n",
        s.tolerance,
        fmt_dt(s.limit_s),
        fmt_dt(s.limit_s)
    );
    let _ = writeln!(
        md,
        "Beside each answer: the shots it rests on, its rate of changed outcomes against the \
         floor's on the same shots, and what a shot costs there (engine time on one core, its \
         ratio to the event engine's; a program that reports its engine time has its whole wall \
         time *with adapter* beside it). Every claim of a cell together, at every dt its search \
         played, is wrong at most 5 % of the time, whenever the study stops.\n"
    );
}

/// The answer's cell text (Markdown): `**≤ 3.2e-6 s** · 3200 shots · 0.1 % vs 0 % · cost`.
pub fn answer_cell(a: &AnswerRow, cost: &str) -> String {
    let mut out = format!("**{}**", a.headline());
    let detail = match (a.search, a.keeps_dt_s, a.verdict) {
        (_, _, Verdict::NotPlayed) => Some("every shot declined or failed".to_string()),
        (Some(SearchEnd::Stopped), Some(_), _) => a
            .open_dt_s
            .map(|o| format!("search stopped: {} s undecided", fmt_dt(o))),
        (Some(SearchEnd::BelowLimit), None, _) => {
            a.dt_s.map(|d| format!("changes it at {} s", fmt_dt(d)))
        }
        (Some(SearchEnd::Undecided), None, _) => a.dt_s.map(|d| format!("at {} s", fmt_dt(d))),
        (None, _, Verdict::Differs) => Some(a.detail.clone()),
        _ => None,
    };
    if let Some(d) = detail {
        let _ = write!(out, " ({})", d.trim());
    }
    if a.verdict != Verdict::NotPlayed {
        let _ = write!(
            out,
            " · {} shots · {} vs {}",
            a.n,
            pct(a.rate),
            pct(a.floor_rate)
        );
        if let Some(need) = a.shots_to_decide.filter(|_| !a.decided()) {
            let _ = write!(out, " · about {need} would decide");
        }
        let _ = write!(out, " · {cost}");
    }
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

/// An engine's name in the page's filters: a discrete scheme's (`exact`) and a program's
/// (`exec:<command>`) as the answer table names them, else the engine alone (`rapier`,
/// `pooltool`: their variant is a version, which tells no two engines of one run apart).
pub fn filter_name(engine: &str, scheme: &str) -> String {
    if engine == pool_engines::DISCRETE || engine == pool_engines::EXEC {
        engine_name(engine, scheme).replace('`', "")
    } else {
        engine.to_string()
    }
}

/// The line above the answer table (Markdown): how many answers are decided, and the budget.
pub fn answer_heading(st: &OutcomeStudy) -> String {
    let decided = st.answers.iter().filter(|a| a.decided()).count();
    format!(
        "**The answer** ({decided} of {} decided{}):",
        st.answers.len(),
        st.budget
            .as_ref()
            .map_or(String::new(), |b| format!("; sequential budget {b}"))
    )
}

/// An undecided answer, with about how many shots would decide it and the command that plays
/// them.
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
    /// What the list says before the command (Markdown): `` `exact` on cut (seven_foot):
    /// undecided at 400 shots, about 9000 would decide ``.
    pub text: String,
    /// The `cargo xtask outcomes ...` command that decides it.
    pub command: String,
}

/// The undecided answers (played, not decided), in answer order.
pub fn undecided(st: &OutcomeStudy) -> Vec<Undecided> {
    st.answers
        .iter()
        .enumerate()
        .filter(|(_, a)| !a.decided() && a.verdict != Verdict::NotPlayed)
        .map(|(k, a)| {
            let spec = st.answer_wall[k].as_ref().map(|w| w.run.as_str());
            let name = engine_name(&a.engine, &a.scheme);
            Undecided {
                text: format!(
                    "{name} on {} ({}): {} at {} shots{}",
                    a.family,
                    a.table,
                    a.verdict.label(),
                    a.n,
                    a.shots_to_decide
                        .map_or(String::new(), |n| format!(", about {n} would decide"))
                ),
                filter: filter_name(&a.engine, &a.scheme),
                name,
                family: a.family.clone(),
                table: a.table.clone(),
                command: decide_command(a, spec, st.first_shots),
            }
        })
        .collect()
}

/// What the list of undecided answers says before its items (Markdown), `None` when every
/// answer played is decided.
pub fn undecided_intro(open: usize) -> Option<String> {
    (open > 0).then(|| {
        format!(
            "Undecided ({open}): each with about how many shots would decide it (its intervals' \
             widths scaled as 1/sqrt(n): a planning hint) and the command that plays them:"
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

/// The answer table (Markdown), after its reading guide, with the picture and the cells still
/// undecided.
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
        "| event engine (the reference) | {} |\n",
        t.reference.join(" | ")
    );
    let _ = writeln!(md, "![the answer as a grid](answer_grid.png)\n");
    undecided_hints(md, st);
}

/// The smallest look size of the study's schedule (`first` doubled) at or above `need`.
fn budget_for(need: u64, first: u64) -> u64 {
    let mut n = first.max(1);
    while n < need && n < pool_harness::MAX_SHOTS {
        n = n.saturating_mul(2);
    }
    n.min(pool_harness::MAX_SHOTS)
}

/// The `outcomes` command that plays answer `a`'s engine on its family until decided.
pub fn decide_command(a: &AnswerRow, spec: Option<&str>, first_shots: u64) -> String {
    let need = a
        .shots_to_decide
        .unwrap_or(a.n.saturating_mul(4))
        .max(a.n + 1);
    let engines = if a.engine == pool_engines::DISCRETE {
        format!("--schemes {}", a.scheme)
    } else {
        format!(
            "--schemes none --engines '{}'",
            spec.unwrap_or(&format!("{}:{}", a.engine, a.scheme))
        )
    };
    format!(
        "cargo xtask outcomes {engines} --outcome-families {} --outcome-tables {} \
         --outcome-budget {}",
        a.family,
        a.table,
        budget_for(need, first_shots)
    )
}

/// The undecided answers, each with about how many shots would decide it and the command.
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
/// cell its headline and shots, filled by its [`AnswerClass`].
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
                                lines: vec![a.headline(), format!("n = {}", a.n)],
                                fill: AnswerClass::of(a).rgb(),
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
        title: "Does it change the game?".into(),
        subtitle: "largest dt that keeps the game, or the verdict; n: shots it rests on".into(),
        columns,
        rows,
        legend: AnswerClass::LEGEND
            .iter()
            .map(|(c, label)| (label.to_string(), c.rgb()))
            .collect(),
    }
}

/// The terminal's answer: one line per family and engine.
pub fn console_lines(st: &OutcomeStudy) -> Vec<String> {
    let Some(t) = answer_lines(st) else {
        return vec!["outcome study: no engine besides the reference and the floor".into()];
    };
    let name_width = t.lines.iter().map(|l| l.name.len()).max().unwrap_or(0);
    let mut out = Vec::new();
    for (k, (family, table)) in t.families.iter().enumerate() {
        for l in &t.lines {
            let Some(a) = &l.answers[k] else { continue };
            let mut line = format!(
                "  {:<24} {:<name_width$}  {}",
                format!("{family} ({table})"),
                l.name.replace('`', ""),
                a.headline()
            );
            if a.search.is_some() && a.keeps_dt_s.is_some() {
                let _ = write!(line, " ({} at {} shots)", a.verdict.label(), a.n);
            } else if a.decided() {
                let _ = write!(line, " ({} shots)", a.n);
            } else {
                let _ = write!(
                    line,
                    " at {} shots{}",
                    a.n,
                    a.shots_to_decide
                        .map_or(String::new(), |n| format!("; about {n} would decide"))
                );
            }
            out.push(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pool_harness::FloorVerdict;

    fn row(search: Option<SearchEnd>, keeps: Option<f64>, verdict: Verdict) -> AnswerRow {
        AnswerRow {
            family: "cut".into(),
            table: "seven_foot".into(),
            engine: "discrete".into(),
            scheme: "end_of_step".into(),
            search,
            keeps_dt_s: keeps,
            changes_dt_s: Some(1e-5),
            open_dt_s: None,
            dt_s: keeps.or(Some(1e-5)),
            verdict,
            shot_by_shot: Some(FloorVerdict::Within),
            n: 3200,
            rate: 0.001,
            ci_low: 0.0,
            ci_high: 0.003,
            floor_rate: 0.0,
            ops_per_shot: None,
            shots_to_decide: Some(9000),
            detail: "x".into(),
        }
    }

    #[test]
    fn cells_say_what_was_decided() {
        let a = row(
            Some(SearchEnd::Converged),
            Some(3.2e-6),
            Verdict::SameShotByShot,
        );
        assert_eq!(AnswerClass::of(&a), AnswerClass::Keeps);
        assert_eq!(
            answer_cell(&a, "1 ms"),
            "**≤ 3.2e-6 s** · 3200 shots · 0.1 % vs 0 % · 1 ms"
        );
        let b = row(Some(SearchEnd::BelowLimit), None, Verdict::Differs);
        assert_eq!(AnswerClass::of(&b), AnswerClass::BelowLimit);
        assert!(answer_cell(&b, "1 ms").starts_with("**below 1e-5 s**"));
        let c = row(Some(SearchEnd::Undecided), None, Verdict::Undecided);
        assert_eq!(AnswerClass::of(&c), AnswerClass::Undecided);
        assert!(answer_cell(&c, "1 ms").contains("about 9000 would decide"));
        assert!(decide_command(&c, None, 100).ends_with("--outcome-budget 12800"));
    }
}
