//! The outcome study's part of a report: "Does it change the game?": how to read it, the
//! answer per engine and family (and as a picture), the cells still undecided with the command
//! that decides each, the rates per dt, every cell's verdict, where chaos starts, and the
//! fields. The words come from the typed verdicts ([`pool_outcome::Verdict`],
//! [`pool_outcome::AnswerRow`]); nothing here parses text.

mod answer;
mod cells;
mod cost;
mod rates;

use std::fmt::Write;

use pool_outcome::{
    answers, AnswerRow, ChaosRow, DistributionRow, DistributionVerdict, Ladder, Margins,
    OutcomeRow, OutcomeTally, SearchOptions, Verdict, WallRow, FLOOR,
};

pub(crate) use answer::answer_lines;
pub use answer::{
    answer_cell, answer_grid, answer_heading, answer_parts, claim_rgb, complete, console_lines,
    decide_command, engine_name, excess_text, filter_name, legend, legend_key, reading_guide,
    undecided, undecided_intro, Undecided,
};
pub(crate) use cells::{cell_name, shot_by_shot_cell};
pub use cost::{answer_wall, cost_cell, duration, reference_wall_s};
pub(crate) use rates::{rate_cell, rate_grid};

pub use pool_outcome::Decline;

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
    /// The dt search's options.
    pub search: SearchOptions,
    /// The rungs of the dt ladder (each rung's cell is at the answer's level over these).
    pub rungs: usize,
    /// The ladder's finest rung (s): the search's limit, or the rung above a stepped
    /// reference's dt.
    pub finest_rung_s: f64,
    /// The sequential budget, as given (`3200`, `3200,30s`), if the study had one.
    pub budget: Option<String>,
    /// Its most shots per cell (0 without one), for the commands that would decide more.
    pub budget_shots: u64,
    /// Shots per family of the first look (`--outcome-shots`), for the commands it suggests.
    pub first_shots: u64,
    /// The study's options that are not `outcomes`' defaults, as command-line words: every
    /// command it suggests carries them, so that it plays the same study.
    pub plan_args: Vec<String>,
    /// `chaos.csv`'s rows: the reference's changed-outcome rate against perturbation size.
    pub chaos: Vec<ChaosRow>,
    /// The chaos floor's position perturbation (m), marked on the chaos curve.
    pub floor_m: f64,
    /// The engine every run was judged against, when it is not the event engine (its spec,
    /// `outcomes --reference`): a stepped engine at a fine dt, the study then answering what
    /// the dt changes, and the event engine's cell what the model changes.
    pub reference: Option<String>,
    /// How the commands it suggests start: `cargo xtask` inside the harness's workspace, else
    /// the binary's path (a run made from the user's own repository).
    pub program: String,
}

impl OutcomeStudy {
    /// The study's tables from its `tally`, timed by `wall`, described by `setup`, judged with
    /// `margins`, its series answered on `ladder` (searched with `search`; `seed`: the energy
    /// test's permutations; the tally's looks are its last).
    pub fn new(
        tally: &OutcomeTally,
        wall: &[WallRow],
        setup: Vec<String>,
        margins: &Margins,
        (search, ladder): (&SearchOptions, &Ladder),
        seed: u64,
    ) -> Self {
        let rows = tally.rows(margins);
        let (distributions, verdicts) = tally.distribution().evaluate(margins, true, seed);
        let answers = answers(&rows, &verdicts, ladder, tally.distribution().levels());
        OutcomeStudy {
            setup,
            distributions,
            verdicts,
            margins: *margins,
            search: *search,
            rungs: ladder.len(),
            finest_rung_s: ladder.finest().unwrap_or(search.limit_s),
            ..OutcomeStudy::from_rows(rows, answers, wall)
        }
    }

    /// A study's tables from its files' rows (`outcomes.csv`, `outcome_answer.csv`,
    /// `outcomes/wall.csv`): no setup lines, failures, distributions or chaos rows (the caller
    /// adds those it has), default margins and search.
    pub fn from_rows(rows: Vec<OutcomeRow>, answers: Vec<AnswerRow>, wall: &[WallRow]) -> Self {
        let answer_wall = answers
            .iter()
            .map(|a| answer_wall(wall, a).cloned())
            .collect();
        let reference_wall_s = wall
            .iter()
            .filter(|w| w.run == pool_outcome::Run::Reference)
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
            search: SearchOptions::default(),
            rungs: Ladder::new(&pool_outcome::DEFAULT_DTS, SearchOptions::default().limit_s).len(),
            finest_rung_s: SearchOptions::default().limit_s,
            budget: None,
            budget_shots: 0,
            first_shots: pool_outcome::DEFAULT_SHOTS,
            plan_args: Vec::new(),
            chaos: Vec::new(),
            floor_m: f64::NAN,
            reference: None,
            program: "cargo xtask".into(),
        }
    }

    /// The reference's spec: the event engine's unless the study names another (one that no
    /// longer parses is taken for the event engine: it names nothing this report runs).
    pub fn reference_spec(&self) -> pool_engines::EngineSpec {
        (self.reference.as_deref())
            .and_then(|r| r.parse::<pool_engines::EngineSpec>().ok())
            .unwrap_or_else(pool_engines::EngineSpec::reference)
    }

    /// The `outcome` row of `engine` and `scheme` at `dt` on `family` and `table`, if played.
    pub fn outcome_row(
        &self,
        (family, table): (&str, &str),
        (engine, scheme): (&str, &str),
        dt: Option<f64>,
    ) -> Option<&OutcomeRow> {
        self.rows.iter().find(|r| {
            r.field == "outcome"
                && r.family == family
                && r.table == table
                && r.engine == engine
                && r.scheme == scheme
                && r.dt_s == dt
        })
    }

    /// The reference in plain words: `event engine`, or its spec.
    pub fn reference_label(&self) -> &str {
        self.reference.as_deref().unwrap_or("event engine")
    }

    /// The reference as the report names it: `the event engine`, or `` `<spec>` ``.
    pub fn reference_name(&self) -> String {
        match &self.reference {
            None => "the event engine".into(),
            Some(r) => format!("`{r}`"),
        }
    }

    /// What a study judged against another reference answers, one paragraph (`None` against
    /// the event engine): each series' change against its own fine dt is the dt's, the event
    /// engine's change against the reference the model's.
    pub fn model_or_dt(&self) -> Option<String> {
        let r = self.reference.as_ref()?;
        Some(format!(
            "Judged against `{r}`, not the event engine. A series' answer here is what its dt \
             changes against the same engine at that fine dt; the line of the event engine \
             (`event`) is what the model changes: the event engine against the reference. Run \
             without --reference for the change against the event engine."
        ))
    }

    /// The reference's wall time per shot (s) on `family` and `table`; NaN when not timed.
    fn reference_s(&self, family: &str, table: &str) -> f64 {
        self.reference_wall_s
            .iter()
            .find(|(f, t, _)| f == family && t == table)
            .map_or(f64::NAN, |w| w.2)
    }

    /// The families (kind, table) in first-appearance order.
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
            .filter(|v| v.engine == FLOOR && v.verdict == Verdict::NotNeutral)
            .map(|v| {
                format!(
                    "the chaos floor is not neutral on {} ({}): {}; it judges no shot there \
                     (its engines' cells rest on their statistics alone)",
                    v.family, v.table, v.detail
                )
            })
            .collect()
    }

    /// The terminal's account: a heading line (families, shots, the floor's neutrality, how
    /// many answers are decided), then one line per family and engine.
    pub fn console_lines(&self) -> Vec<String> {
        let families = self.families();
        let floors: Vec<&DistributionVerdict> =
            self.verdicts.iter().filter(|v| v.engine == FLOOR).collect();
        let neutral = floors
            .iter()
            .filter(|v| v.verdict == Verdict::Neutral)
            .count();
        let shots = floors.iter().map(|v| v.n).max().unwrap_or(0);
        let decided = self.answers.iter().filter(|a| a.decided()).count();
        let whole = self.answers.iter().filter(|a| complete(a)).count();
        let mut out = vec![format!(
            "does it change the game? {} families, up to {shots} shots each; the chaos floor \
             shown neutral on {neutral} of {}; {decided} of {} answers carry a decided claim, \
             {whole} complete{}:",
            families.len(),
            floors.len(),
            self.answers.len(),
            if whole < self.answers.len() {
                " (report.md lists the rest with the command that would complete each)"
            } else {
                ""
            }
        )];
        if let Some(p) = self.model_or_dt() {
            out.push(format!("  {}", p.replace('`', "")));
        }
        out.extend(console_lines(self));
        out
    }
}

/// What a declined shot is and what to do about it (report.md and the page say it alike).
pub const DECLINED_HINT: &str = "A declined shot is one the program answered `unsupported` \
     (docs/engine-protocol.md): give it shots of its model, or make it play these.";

/// Percent with one decimal below 10 %, else whole: `3.0 %`, `0.4 %`, `12 %`.
pub(crate) fn pct(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x * 100.0 < 10.0 && x > 0.0 {
        format!("{:.1} %", 100.0 * x)
    } else {
        format!("{:.0} %", 100.0 * x)
    }
}

/// The report section: `## Does it change the game?`.
pub fn outcome_section(md: &mut String, st: &OutcomeStudy) {
    let _ = writeln!(md, "## Does it change the game?\n");
    answer::answer_section(md, st);
    let _ = writeln!(md, "How the study was set up:\n");
    for s in &st.setup {
        let _ = writeln!(md, "- {s}");
    }
    let _ = writeln!(md);
    let declined: u64 = st.declined.iter().map(|d| d.runs).sum();
    if st.failed > 0 || declined > 0 {
        let _ = writeln!(
            md,
            "{} engine run(s) failed and {declined} were declined as outside the engine's model; \
             they count in no rate (`failed` in `outcomes.csv`). {DECLINED_HINT}\n",
            st.failed
        );
        for f in &st.failures {
            let _ = writeln!(md, "- {}", crate::md::code(f));
        }
        for d in &st.declined {
            let _ = writeln!(
                md,
                "- {} declined {} run(s) as outside its model: {}",
                crate::md::code(&d.engine),
                d.runs,
                crate::md::code(&d.reason)
            );
        }
        let _ = writeln!(md);
    }
    let _ = writeln!(md, "![outcome disagreement vs dt](outcome_vs_dt.png)\n");
    rates::rates_tables(md, st);
    cells::cells_section(md, st);
    cells::chaos_section(md, st);
    fields(md);
}

/// What the files hold and what each field means.
fn fields(md: &mut String) {
    let _ = writeln!(
        md,
        "Fields (`outcomes.csv`, one row per family x engine x scheme x dt x field): `outcome` \
         (any of `first_contact`, `pocketed`, `scratch`, `end`), `first_contact` (which ball the \
         cue ball touches first), `first_cushion` (which ball meets which cushion first), \
         `pocketed` (every pocketed ball and its pocket), `scratch` (the cue ball pocketed), \
         `end` (the run ended physically: no budget, no ball lost off the table), \
         `cue_position` and `positions` (final positions within the position tolerance). Each \
         rate comes with its 95 % Wilson interval and the floor's rate on the same shots; \
         `diff_low`, `diff_high` are the confidence sequence of the rate minus the floor's, each \
         end at the cell's level `alpha` (5 %, or 5 % over the ladder's rungs), `margin` the \
         floor margin at the floor's observed rate, `floor_verdict` the shot-by-shot test \
         (within or beyond that margin; the `outcome` field's is the cell's claim, the others \
         describe); `p_value` is the one-sided exact McNemar test of the engine disagreeing \
         more often than the floor, for information only. `outcomes/shots.csv` holds every run of \
         every shot (its outcome and where it disagrees), `outcome_answer.csv` the answers.\n"
    );
}
