//! Every cell's verdict (`distribution_answer.csv`), the floor's neutrality and statistics, and
//! where chaos starts (`chaos.csv`).

use std::fmt::Write;

use pool_outcome::{fmt_dt, ChaosRow, DistributionVerdict, FLOOR};

use super::{pct, OutcomeStudy};

/// A cell's engine as the cells' table names it: `chaos floor`, `` `end_of_step` 1e-3 s ``,
/// `pooltool (0.6.0)`.
pub(crate) fn cell_name(v: &DistributionVerdict) -> String {
    if v.engine == FLOOR {
        return "chaos floor".into();
    }
    let name = super::answer::engine_name(&v.engine, &v.scheme);
    match v.dt_s {
        Some(dt) => format!("{name} {} s", fmt_dt(dt)),
        None => name,
    }
}

/// A cell's shot-by-shot column: `0.3 % vs 0.1 %: +0.20 [-0.10, +0.40] pt, margin 0.52 pt:
/// within the floor margin`.
pub(crate) fn shot_by_shot_cell(st: &OutcomeStudy, v: &DistributionVerdict) -> String {
    let Some(sbs) = v.shot_by_shot else {
        return "–".into();
    };
    let row = st.outcome_row((&v.family, &v.table), (&v.engine, &v.scheme), v.dt_s);
    match row {
        // A run that played no shot has no rate: nothing to show but its label.
        Some(r) if r.n == 0 || !r.rate.is_finite() => format!("no shot played: {}", sbs.label()),
        Some(r) => format!(
            "{} vs {}: {:+.2} [{:+.2}, {:+.2}] pt, margin {:.2} pt: {}",
            pct(r.rate),
            pct(r.floor_rate),
            100.0 * (r.rate - r.floor_rate),
            100.0 * r.diff_low,
            100.0 * r.diff_high,
            100.0 * r.margin,
            sbs.label()
        ),
        None => sbs.label().into(),
    }
}

/// `### Every cell`: each family and run's verdict, its shots, looks, shot by shot and why;
/// then the reference's statistics with the floor's beside them.
pub(crate) fn cells_section(md: &mut String, st: &OutcomeStudy) {
    if st.verdicts.is_empty() {
        return;
    }
    let _ = writeln!(
        md,
        "### Every cell\n\nOne row per family and run (the chaos floor: its neutrality; an \
         engine at one dt: its verdict, as the answer reads it). *Shot by shot*: the engine's \
         rate of changed outcomes against the floor's on the same shots, the confidence \
         sequence of the difference in points at the cell's level, and the floor margin at the \
         floor's rate (the test itself holds rate - (1 + r) floor rate to the margin's absolute \
         part). *Why*: the part furthest beyond its margin with its interval, or the \
         shot-by-shot test and what is still undecided. `distribution_answer.csv` holds these \
         rows, `distributions.csv` every part of every cell.\n"
    );
    let _ = writeln!(
        md,
        "| family | table | run | n | looks | shot by shot | verdict | why |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|");
    for v in &st.verdicts {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} | **{}** | {} |",
            v.family,
            v.table,
            cell_name(v),
            v.n,
            v.looks,
            shot_by_shot_cell(st, v),
            v.verdict.label(),
            v.detail
        );
    }
    let _ = writeln!(md);
    let _ = writeln!(
        md,
        "The reference's statistics per family, with the floor's beside them (the floor is \
         **neutral** when every statistic is shown within its margin of the reference's, **not \
         neutral** when one is shown beyond it: such a floor has played another game, and its \
         family's shot-by-shot claims judge nothing):\n"
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
pub(crate) fn chaos_section(md: &mut String, st: &OutcomeStudy) {
    if st.chaos.is_empty() {
        return;
    }
    let _ = writeln!(md, "### Where chaos starts\n");
    let _ = writeln!(
        md,
        "The reference against itself with every ball moved a given distance (the cue's speed \
         untouched): the share of shots whose outcome changes. A family is chaotic where this \
         rate has reached its plateau; the floor's size ({} m) should sit there, and its \
         distribution must not differ from the reference's. `chaos.csv`.\n",
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
