//! The outcome study's part of a report: "Does it change the game?" (what ran, the answer per
//! engine and family, the plot, the rates per dt, how to read them).

use std::fmt::Write;

use pool_engines::EngineSpec;
use pool_harness::{
    answers, AnswerRow, ChaosRow, DistributionRow, DistributionVerdict, Margins, OutcomeRow,
    OutcomeTally, WallRow, FLOOR,
};

/// What an outcome study produced, as a report reads it.
pub struct OutcomeStudy {
    /// `outcomes.csv`'s rows.
    pub rows: Vec<OutcomeRow>,
    /// `outcome_answer.csv`'s rows.
    pub answers: Vec<AnswerRow>,
    /// Timing of each answer's run at its dt (`outcomes/wall.csv`'s row), in answer order
    /// (`None` when it was not timed).
    pub answer_wall: Vec<Option<WallRow>>,
    /// Wall time per shot (s) of the reference on each family, in the order of `rows`'
    /// families.
    pub reference_wall_s: Vec<(String, String, f64)>,
    /// How the study was set up, one sentence each (shots, seed, perturbation, tolerance).
    pub setup: Vec<String>,
    /// Engine runs that failed (not counted in any rate), and the first few messages.
    pub failed: u64,
    /// The first few failures.
    pub failures: Vec<String>,
    /// Engines that declined runs as outside their model, in first-decline order.
    pub declined: Vec<Decline>,
    /// `distributions.csv`'s rows: the game's statistics against the reference's.
    pub distributions: Vec<DistributionRow>,
    /// `distribution_answer.csv`'s rows: a verdict per family and run.
    pub verdicts: Vec<DistributionVerdict>,
    /// The margins the verdicts used.
    pub margins: Margins,
    /// `chaos.csv`'s rows: the reference's changed-outcome rate against perturbation size.
    pub chaos: Vec<ChaosRow>,
    /// The chaos floor's position perturbation (m), marked on the chaos curve.
    pub floor_m: f64,
}

pub use pool_harness::Decline;

impl OutcomeStudy {
    /// The study's tables from its `tally`, timed by `wall`, described by `setup`, judged with
    /// `margins` (`seed`: the energy test's permutations; the tally's looks are its last).
    pub fn new(
        tally: &OutcomeTally,
        wall: &[WallRow],
        setup: Vec<String>,
        margins: &Margins,
        seed: u64,
    ) -> Self {
        let rows = tally.rows(margins.floor);
        let (distributions, verdicts) = tally.distribution().evaluate(margins, true, seed);
        let answers = answers(&rows);
        OutcomeStudy {
            setup,
            distributions,
            verdicts,
            margins: *margins,
            ..OutcomeStudy::from_rows(rows, answers, wall)
        }
    }

    /// A study's tables from its files' rows (`outcomes.csv`, `outcome_answer.csv`,
    /// `outcomes/wall.csv`): no setup lines, failures, distributions or chaos rows (the caller
    /// adds those it has), default margins.
    pub fn from_rows(rows: Vec<OutcomeRow>, answers: Vec<AnswerRow>, wall: &[WallRow]) -> Self {
        let answer_wall = answers
            .iter()
            .map(|a| answer_wall(wall, a).cloned())
            .collect();
        let reference_wall_s = wall
            .iter()
            .filter(|w| w.run == pool_harness::REFERENCE)
            .map(|w| (w.family.clone(), w.table.clone(), w.wall_per_shot_s()))
            .collect();
        OutcomeStudy {
            rows,
            answers,
            answer_wall,
            reference_wall_s,
            setup: Vec::new(),
            failed: 0,
            failures: Vec::new(),
            declined: Vec::new(),
            distributions: Vec::new(),
            verdicts: Vec::new(),
            margins: Margins::default(),
            chaos: Vec::new(),
            floor_m: f64::NAN,
        }
    }

    /// The families (kind, table) in first-appearance order.
    /// The reference's wall time per shot (s) on `family` and `table`; NaN when not timed.
    fn reference_s(&self, family: &str, table: &str) -> f64 {
        self.reference_wall_s
            .iter()
            .find(|(f, t, _)| f == family && t == table)
            .map_or(f64::NAN, |w| w.2)
    }

    pub(crate) fn families(&self) -> Vec<(String, String)> {
        let mut out: Vec<(String, String)> = Vec::new();
        for r in &self.rows {
            let k = (r.family.clone(), r.table.clone());
            if !out.contains(&k) {
                out.push(k);
            }
        }
        out
    }

    /// One line per family whose chaos floor is not neutral (its distribution differs from the
    /// reference's): which statistic and by how much.
    pub fn floor_warnings(&self) -> Vec<String> {
        self.verdicts
            .iter()
            .filter(|v| v.engine == FLOOR && v.verdict == "not neutral")
            .map(|v| {
                format!(
                    "the chaos floor is not neutral on {} ({}): {}; its engines' verdicts say \
                     \"floor not neutral\"",
                    v.family, v.table, v.detail
                )
            })
            .collect()
    }

    /// One line for the console: the families, shots, and every engine's answer on the first
    /// family (the others are in the report).
    pub fn console_line(&self) -> String {
        let families = self.families();
        let shots = self
            .rows
            .iter()
            .find(|r| r.engine == FLOOR)
            .map_or(0, |r| r.n);
        let Some((family, table)) = families.first() else {
            return "outcome study: no shots".into();
        };
        let answers: Vec<String> = self
            .answers
            .iter()
            .filter(|a| &a.family == family && &a.table == table)
            .map(|a| format!("{} {}: {}", a.engine, a.scheme, short_verdict(a)))
            .collect();
        let floors: Vec<&DistributionVerdict> =
            self.verdicts.iter().filter(|v| v.engine == FLOOR).collect();
        let neutral = floors.iter().filter(|v| v.verdict == "neutral").count();
        format!(
            "outcome study: {} families x {shots} shots; the chaos floor neutral on {neutral} of \
             {}; largest dt within the chaos floor on {family} ({table}): {}{}",
            families.len(),
            floors.len(),
            if answers.is_empty() {
                "no engine besides the reference and the floor".to_string()
            } else {
                answers.join("; ")
            },
            if families.len() > 1 {
                "; every family in the report"
            } else {
                ""
            }
        )
    }
}

/// Percent with no decimals below 10 %, else whole: `3 %`, `0.4 %`.
fn pct(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x * 100.0 < 10.0 && x > 0.0 {
        format!("{:.1} %", 100.0 * x)
    } else {
        format!("{:.0} %", 100.0 * x)
    }
}

/// A rate with its interval: `12 % [7–19 %]`.
fn rate_ci(rate: f64, lo: f64, hi: f64) -> String {
    format!(
        "{} [{}–{}]",
        pct(rate),
        pct(lo).trim_end_matches(" %"),
        pct(hi)
    )
}

/// The timing row of answer `a`'s run (its engine, scheme and dt on its family and table) in
/// `wall` (`outcomes/wall.csv`'s rows); `None` when it was not timed.
pub fn answer_wall<'a>(wall: &'a [WallRow], a: &AnswerRow) -> Option<&'a WallRow> {
    wall.iter().find(|w| {
        w.family == a.family
            && w.table == a.table
            && w.run.parse::<EngineSpec>().is_ok_and(|s| {
                s.family() == a.engine && s.variant() == a.scheme && s.dt() == a.dt_s
            })
    })
}

/// What a shot of a timed run costs, as the answer tables print it: the engine time per shot
/// (a program's reported `engine_s`; an engine in this process's wall time) with its ratio to
/// `reference_s` (the event engine's time per shot on the family), and for a program that
/// reports its engine time, its whole wall time per shot beside it (`with adapter`: the
/// adapter's own work, JSON and pipes included): `12.3 ms (870x), with adapter 1.58 s`. A
/// program that reports none has no engine time and no ratio: `1.58 s with adapter (no engine
/// time)`. `–` when the run was not timed.
pub fn cost_cell(w: Option<&WallRow>, reference_s: f64) -> String {
    let Some(w) = w else {
        return "–".into();
    };
    let program = w.run.parse::<EngineSpec>().is_ok_and(|s| {
        matches!(
            s,
            EngineSpec::Exec { .. } | EngineSpec::Pooltool | EngineSpec::Peer { .. }
        )
    });
    if program && w.engine_s.is_none() {
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
        .find(|w| w.family == family && w.table == table && w.run == pool_harness::REFERENCE)
        .map_or(f64::NAN, WallRow::wall_per_shot_s)
}

/// The answer's verdict in short: `≤ 2e-3 s`, `none ≥ 1e-4 s` (its smallest step above the
/// floor), `none ≥ 1e-4 s (undecided)`, or (no time step) `within the floor`, `above the
/// floor`, `undecided`; `no shot played` for an engine that played none.
pub fn short_verdict(a: &AnswerRow) -> String {
    if a.n == 0 {
        return "no shot played".into();
    }
    match (a.largest_dt_s, a.dt_s) {
        (Some(dt), _) => format!("≤ {dt:.0e} s"),
        // Why the smallest step is not within: above the floor, or undecided.
        (None, Some(dt)) if a.verdict.ends_with("undecided)") => {
            format!("none ≥ {dt:.0e} s (undecided)")
        }
        (None, Some(dt)) => format!("none ≥ {dt:.0e} s"),
        (None, None) => a.verdict.clone(),
    }
}

/// Operations with three digits: `1.23e4`.
fn ops(x: f64) -> String {
    if x > 0.0 && x.is_finite() {
        format!("{x:.2e}")
    } else {
        "–".into()
    }
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

/// The report section: `## Does it change the game?`.
pub fn outcome_section(md: &mut String, st: &OutcomeStudy) {
    let _ = writeln!(md, "## Does it change the game?\n");
    let _ = writeln!(
        md,
        "Collision-time error is not what a game or a reward sees. Here every engine plays \
         families of random shots, and each shot's **outcome** (the first ball the cue ball \
         touches, the pocketed balls with their pockets, a scratch, a physical end) is compared \
         with the event engine's. Breaks are chaotic: a micrometre changes them. So the event \
         engine also plays each shot perturbed at the scale of physical uncertainty, and how \
         often *that* changes the outcome is the **chaos floor**, which no algorithm can be \
         blamed for. An engine at a dt is **within the floor** when the interval of its rate \
         minus the floor's on the same shots (Tango's paired score interval) lies below the \
         margin ({}), **above** it when the interval lies above 0, and **undecided** \
         otherwise; the answer is the largest dt within the floor with every smaller dt of the \
         sweep within it too.\n",
        pct(st.margins.floor)
    );
    for s in &st.setup {
        let _ = writeln!(md, "- {s}");
    }
    let _ = writeln!(md);
    answer_table(md, st);
    let _ = writeln!(md, "![outcome disagreement vs dt](outcome_vs_dt.png)\n");
    rates_tables(md, st);
    distribution_section(md, st);
    let declined: u64 = st.declined.iter().map(|d| d.runs).sum();
    if st.failed > 0 || declined > 0 {
        let _ = writeln!(
            md,
            "{} engine run(s) failed and {declined} were declined as outside the engine's model; \
             they count in no rate (`failed` in `outcomes.csv`).\n",
            st.failed
        );
        for f in &st.failures {
            let _ = writeln!(md, "- {f}");
        }
        for d in &st.declined {
            let _ = writeln!(md, "- {}", d.line());
        }
        let _ = writeln!(md);
    }
    let _ = writeln!(
        md,
        "Fields (`outcomes.csv`, one row per family x engine x scheme x dt x field): `outcome` \
         (any of the next four except the first cushion), `first_contact` (which ball the cue \
         ball touches first), `first_cushion` (which ball meets which cushion first), \
         `pocketed` (every pocketed ball and its pocket), `scratch` (the cue ball pocketed), \
         `end` (the run ended physically: no budget, no ball lost off the table), \
         `cue_position` and `positions` (final positions within the position tolerance). \
         Each rate comes with its 95 % Wilson interval and the floor's rate on the same shots; \
         `p_value` is the one-sided exact McNemar test of the engine disagreeing more often than \
         the floor (an engine that reproduces the reference more closely than a micrometre does, \
         as `located` does on breaks, is within the floor). The test needs about 5 shots more \
         than the floor's before it puts a rate above it, so a rate within the floor is a \
         bound, as tight as its interval says; and each dt is tested at 5 %, so in a long sweep \
         a dt truly within the floor is sometimes called above it (the answer errs towards \
         smaller steps). \
         `outcomes/shots.csv` holds every run of every shot (its outcome and where it \
         disagrees), `outcome_answer.csv` the answers.\n"
    );
}

/// `## Does it change the game's statistics?`: the floor's neutrality per family, then every
/// engine's verdict per family, then the statistics that decided them.
fn distribution_section(md: &mut String, st: &OutcomeStudy) {
    if st.verdicts.is_empty() {
        return;
    }
    let m = &st.margins;
    chaos_section(md, st);
    let _ = writeln!(md, "## Does it change the game's statistics?\n");
    let _ = writeln!(
        md,
        "A game, a trainer or a tuner reads distributions: how many balls a break pockets, how \
         often the cue ball scratches, which pockets fill, what the cue ball hits first, where \
         it ends. Each is compared with the reference's on the same shots as a paired \
         difference with its interval. **Same in distribution**: every interval inside its \
         margin ({} for rates, {:.2} balls for the mean pocketed, {:.2} m for the mean final \
         cue position) and the energy test of the final cue positions does not reject; **same \
         shot by shot**: that, and within the floor shot by shot; **differs**: an interval \
         clear of 0 (the largest is named); **undecided**: an interval wider than its margin. \
         The intervals are Bonferroni-corrected over the statistics and spent over sequential \
         looks, so all verdicts of an engine together wrongly say *differs* at most 5 % of the \
         time. The chaos floor must itself be **neutral** (no interval clear of 0): a floor that is \
         not neutral has played another game, and its family's verdicts say so.\n",
        pct(m.rate),
        m.balls,
        m.position_m
    );
    let _ = writeln!(
        md,
        "| family | table | engine | n | shot by shot | verdict | why |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    for v in &st.verdicts {
        let engine = if v.engine == FLOOR {
            "chaos floor".to_string()
        } else {
            match v.dt_s {
                Some(dt) => format!("{} {} {dt:.0e} s", v.engine, v.scheme),
                None => format!("{} {}", v.engine, v.scheme),
            }
        };
        let _ = writeln!(
            md,
            "| {} | {} | {engine} | {} | {} | **{}** | {} |",
            v.family,
            v.table,
            v.n,
            if v.shot_by_shot.is_empty() {
                "–"
            } else {
                &v.shot_by_shot
            },
            v.verdict,
            v.detail
        );
    }
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "The reference's statistics per family, with the floor's beside them (`distributions.csv` \
         holds every engine's, with the paired differences, their intervals, levels and \
         decisions):\n"
    );
    let _ = writeln!(
        md,
        "| family | table | statistic | reference | floor | floor - reference |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|");
    for r in st.distributions.iter().filter(|r| {
        r.engine == FLOOR
            && matches!(
                r.statistic.as_str(),
                "balls_pocketed" | "scratch" | "success" | "cue_x" | "cue_y"
            )
    }) {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.3} | {:.3} | {:+.3} [{:+.3}, {:+.3}] |",
            r.family,
            r.table,
            r.statistic,
            r.reference.unwrap_or(f64::NAN),
            r.value,
            r.diff.unwrap_or(f64::NAN),
            r.diff_low.unwrap_or(f64::NAN),
            r.diff_high.unwrap_or(f64::NAN)
        );
    }
    let _ = writeln!(md);
}

/// `### Where chaos starts`: the chaos curve's table and plot.
fn chaos_section(md: &mut String, st: &OutcomeStudy) {
    if st.chaos.is_empty() {
        return;
    }
    let _ = writeln!(md, "### Where chaos starts\n");
    let _ = writeln!(
        md,
        "The reference against itself with every ball moved a given distance (the cue's speed \
         untouched): the share of shots whose outcome changes. A family is chaotic where this \
         rate has reached its plateau; the floor's size ({} m) should sit there, and its \
         distribution must not differ from the reference's (next section). `chaos.csv`.\n",
        st.floor_m
    );
    let mut sizes: Vec<f64> = st.chaos.iter().map(|r| r.perturbation_m).collect();
    sizes.sort_by(f64::total_cmp);
    sizes.dedup();
    let heads: Vec<String> = sizes.iter().map(|s| format!("{s:.0e} m")).collect();
    let _ = writeln!(md, "| family | table | n | {} |", heads.join(" | "));
    let _ = writeln!(md, "|---|---|---|{}", "---|".repeat(sizes.len()));
    let mut families: Vec<(String, String)> = Vec::new();
    for r in &st.chaos {
        let k = (r.family.clone(), r.table.clone());
        if !families.contains(&k) {
            families.push(k);
        }
    }
    for (family, table) in families {
        let mine: Vec<&ChaosRow> = st
            .chaos
            .iter()
            .filter(|r| r.family == family && r.table == table)
            .collect();
        let n = mine.first().map_or(0, |r| r.n);
        let cells: Vec<String> = sizes
            .iter()
            .map(|s| {
                mine.iter()
                    .find(|r| r.perturbation_m == *s)
                    .map_or("–".into(), |r| pct(r.rate))
            })
            .collect();
        let _ = writeln!(md, "| {family} | {table} | {n} | {} |", cells.join(" | "));
    }
    let _ = writeln!(md, "\n![chaos curve](chaos.png)\n");
}

/// The answer: one row per engine and scheme, one column per family.
fn answer_table(md: &mut String, st: &OutcomeStudy) {
    let Some(t) = answer_lines(st) else {
        return;
    };
    let _ = writeln!(
        md,
        "**The answer.** The largest dt whose outcomes no test puts above the chaos floor's (with \
         every smaller dt of the sweep), its rate of changed outcomes against the floor's, and \
         what a shot costs there: operations, and the engine time per shot on one core with its \
         ratio to the event engine's on the family (a program that reports `engine_s`: the \
         seconds inside its engine's own calls, then its whole wall time per shot *with \
         adapter*, JSON and pipes included; any other engine: its wall time). The event \
         engine's own cost is the last row; every ratio is of engine times.\n"
    );
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
        "| event engine (reference) | {} |\n",
        t.reference.join(" | ")
    );
}

/// The answer table's content: one line per engine (family and scheme) of the answers, and the
/// event engine's own cost per family.
pub(crate) struct AnswerTable {
    /// The columns: (family, table) in first-appearance order.
    pub families: Vec<(String, String)>,
    /// One line per engine, in first-answer order.
    pub lines: Vec<AnswerLine>,
    /// The reference's cells (operations and wall time per shot), one per family.
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
    /// One cell per family ("–" where it has no answer): verdict in bold, rate vs floor, cost.
    pub cells: Vec<String>,
    /// The answers behind the cells (`None` where "–").
    pub answers: Vec<Option<AnswerRow>>,
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
            let found: Vec<Option<(&AnswerRow, &Option<WallRow>)>> = families
                .iter()
                .map(|(f, t)| {
                    st.answers.iter().zip(&st.answer_wall).find(|(a, _)| {
                        &a.family == f && &a.table == t && a.engine == engine && a.scheme == scheme
                    })
                })
                .collect();
            let cells = found
                .iter()
                .zip(&families)
                .map(|(x, (f, t))| {
                    x.map_or("–".into(), |(a, wall)| {
                        format!(
                            "**{}**: {} vs {}; {} ops, {}",
                            short_verdict(a),
                            pct(a.rate),
                            pct(a.floor_rate),
                            ops(a.ops_per_shot),
                            cost_cell(wall.as_ref(), st.reference_s(f, t))
                        )
                    })
                })
                .collect();
            let name = if engine == pool_engines::DISCRETE {
                format!("`{scheme}`")
            } else {
                format!("{engine} {scheme}")
            };
            AnswerLine {
                answers: found.iter().map(|x| x.map(|(a, _)| a.clone())).collect(),
                engine,
                scheme,
                name,
                cells,
            }
        })
        .collect();
    let reference = families
        .iter()
        .map(|(f, t)| {
            let ops_per_shot = st
                .rows
                .iter()
                .find(|r| &r.family == f && &r.table == t && r.engine == FLOOR)
                .map_or(f64::NAN, |r| r.ops_per_shot);
            format!(
                "{} ops, {}",
                ops(ops_per_shot),
                duration(st.reference_s(f, t))
            )
        })
        .collect();
    Some(AnswerTable {
        families,
        lines,
        reference,
    })
}

/// A rate table's cell: the rate of changed outcomes with its interval, a dagger when above
/// the floor, an open circle when undecided ("–" for a run that played none of the shots).
pub(crate) fn rate_cell(r: &OutcomeRow) -> String {
    // An engine that played none of these shots has no rate to mark.
    if r.n == 0 || !r.rate.is_finite() {
        return "–".into();
    }
    format!(
        "{}{}",
        rate_ci(r.rate, r.ci_low, r.ci_high),
        match r.floor_verdict.as_str() {
            "within" => "",
            "above" => " †",
            _ => " ○",
        }
    )
}

/// One family's rates of changed outcomes: the floor's row, and each engine's rows.
pub(crate) struct RateFamily<'a> {
    /// The family's kind and table.
    pub family: String,
    /// Its table.
    pub table: String,
    /// The floor's `outcome` row.
    pub floor: &'a OutcomeRow,
    /// The engines (family, scheme) in first-row order.
    pub engines: Vec<(&'a str, &'a str)>,
    rows: Vec<&'a OutcomeRow>,
}

impl<'a> RateFamily<'a> {
    /// The `outcome` row of `engine` and `scheme` at `dt` (None: no dt).
    pub fn at(&self, engine: &str, scheme: &str, dt: Option<f64>) -> Option<&'a OutcomeRow> {
        self.rows
            .iter()
            .find(|r| r.engine == engine && r.scheme == scheme && r.dt_s == dt)
            .copied()
    }
}

/// The rate tables' grid: the dt values of every run (largest first) and, per family with a
/// floor, its rows.
pub(crate) fn rate_grid(st: &OutcomeStudy) -> (Vec<f64>, Vec<RateFamily<'_>>) {
    let outcome: Vec<&OutcomeRow> = st.rows.iter().filter(|r| r.field == "outcome").collect();
    let mut dts: Vec<f64> = outcome.iter().filter_map(|r| r.dt_s).collect();
    dts.sort_by(|a, b| b.total_cmp(a));
    dts.dedup();
    let families = st
        .families()
        .into_iter()
        .filter_map(|(family, table)| {
            let rows: Vec<&OutcomeRow> = outcome
                .iter()
                .filter(|r| r.family == family && r.table == table)
                .copied()
                .collect();
            let floor = *rows.iter().find(|r| r.engine == FLOOR)?;
            let mut engines: Vec<(&str, &str)> = Vec::new();
            for r in rows.iter().filter(|r| r.engine != FLOOR) {
                if !engines.contains(&(r.engine.as_str(), r.scheme.as_str())) {
                    engines.push((&r.engine, &r.scheme));
                }
            }
            Some(RateFamily {
                family,
                table,
                floor,
                engines,
                rows,
            })
        })
        .collect();
    (dts, families)
}

/// Per family: the rate of changed outcomes at every dt of every engine, and the floor's.
fn rates_tables(md: &mut String, st: &OutcomeStudy) {
    let (dts, families) = rate_grid(st);
    let _ = writeln!(
        md,
        "Rates of changed outcomes with their 95 % intervals, per family (a dagger marks a rate \
         above the floor's, an open circle one whose equivalence with the floor is undecided; \
         unmarked rates are within the floor):\n"
    );
    for f in &families {
        let _ = writeln!(
            md,
            "**{} on {}** ({} shots; chaos floor {}):\n",
            f.family,
            f.table,
            f.floor.n,
            rate_ci(f.floor.rate, f.floor.ci_low, f.floor.ci_high)
        );
        let heads: Vec<String> = dts.iter().map(|d| format!("dt = {d:.0e} s")).collect();
        let _ = writeln!(md, "| engine | {} | no dt |", heads.join(" | "));
        let _ = writeln!(md, "|---|{}---|", "---|".repeat(dts.len()));
        for &(engine, scheme) in &f.engines {
            let cell = |dt: Option<f64>| f.at(engine, scheme, dt).map_or("".into(), rate_cell);
            let cells: Vec<String> = dts.iter().map(|&d| cell(Some(d))).collect();
            let _ = writeln!(
                md,
                "| {engine} {scheme} | {} | {} |",
                cells.join(" | "),
                cell(None)
            );
        }
        let _ = writeln!(md);
    }
}

#[cfg(test)]
mod tests {
    use super::{cost_cell, duration};
    use pool_harness::WallRow;

    fn timed(run: &str, wall_s: f64, engine_s: Option<f64>) -> WallRow {
        WallRow {
            family: "cut".into(),
            table: "seven_foot".into(),
            run: run.into(),
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
