//! The decision rule keeps its error rate: simulated studies through the study's own cells
//! ([`crate::tally::distribution`]: the same betting tests, batches and verdicts), in worlds where the
//! truth of every claim is known, each cell looking at 100, 200, ... shots up to a cap and
//! never stopping early (the worst case: every look is a chance to err).
//!
//! - **keeps, at the margin**: one part of the cell sits exactly on its margin (the shot-by-shot
//!   rate, or one statistic at +margin or -margin) and every other part is the reference's;
//!   a "keeps" claim there (the cell keeps the game, or the part is shown within) is false. At
//!   most the cell's level.
//! - **changes, no difference**: the engine plays the reference's game exactly as often as the
//!   floor changes outcomes; any "changes" claim, and the floor's "not neutral", is false. At
//!   most the cell's level.
//! - **a ladder walk**: the dt search ([`crate::plan::search`]) over the 13-rung ladder, each rung a
//!   cell at 5 % / 13, the game changed just beyond the floor margin at every rung above a
//!   boundary and just within it below; some false claim at any rung in at most 5 % of
//!   studies. Its **negative control** runs the same walks with every rung at the whole 5 %:
//!   it must exceed 5 %, so that the check can fail.
//!
//! `cargo xtask calibrate` runs the full checks (4000 replications to 12,800 shots, 1000
//! walks) and writes their table into docs/outcomes.md; the test suite runs a reduced one.
//! The simulated rows stand for a cut-like family (the floor 0.3 %) and a break-like one (45 %);
//! a rung's shots are drawn apart from the other rungs' (the real study pairs every rung with
//! the same floor: the union bound over rungs holds either way).

use rayon::prelude::*;
use serde::Serialize;

use crate::game::statistic::ShotStats;
use crate::plan::search::{next_step, CellState, Ladder, SearchOptions, Step};
use crate::stats::interval::wilson;
use crate::stats::levels::{Levels, Margins};
use crate::stats::verdict::{Claim, Verdict};
use crate::tally::distribution::{Judge, Pair};
use pool_sim::SplitMix;

/// How large a calibration run is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Replications of each single-cell check.
    pub replications: u64,
    /// Most shots a cell plays (looks at 100, 200, ... up to it).
    pub max_shots: u64,
    /// Walks of the ladder (and of its negative control).
    pub walks: u64,
    /// Seed of the whole run.
    pub seed: u64,
}

impl Calibration {
    /// The full run `cargo xtask calibrate` makes: 4000 replications to 12,800 shots, 1000
    /// walks.
    pub const FULL: Calibration = Calibration {
        replications: 4000,
        max_shots: 12_800,
        walks: 1000,
        seed: 1,
    };
}

/// One check: how many of its studies made a false claim.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CalibrationCheck {
    /// What the world is and which claim is false in it.
    pub check: String,
    /// The level the claim is held to (a cell's, or a whole answer's for the walks).
    pub level: f64,
    /// Studies run.
    pub studies: u64,
    /// Studies with a false claim at some look (or some rung).
    pub false_claims: u64,
    /// Whether the check passes only when the rate exceeds the level (the negative control).
    pub must_exceed: bool,
}

impl CalibrationCheck {
    /// The share of studies with a false claim.
    pub fn rate(&self) -> f64 {
        self.false_claims as f64 / self.studies.max(1) as f64
    }

    /// Its Wilson 95 % interval.
    pub fn interval(&self) -> (f64, f64) {
        wilson(self.false_claims, self.studies, 0.05)
    }

    /// Whether it holds: at most the level (its rate), or, for the negative control, its
    /// rate beyond it.
    pub fn holds(&self) -> bool {
        if self.must_exceed {
            self.rate() > self.level
        } else {
            self.rate() <= self.level
        }
    }
}

/// A family of simulated shots: object balls and their pocketing chance, the floor's rate of
/// changed outcomes, and the family's name (for the statistics' bounds).
#[derive(Clone, Copy, Debug)]
struct Family {
    name: &'static str,
    objects: u32,
    pocket: f64,
    floor_rate: f64,
}

const CUT: Family = Family {
    name: "cut",
    objects: 1,
    pocket: 0.6,
    floor_rate: 0.003,
};

const BREAK: Family = Family {
    name: "break9",
    objects: 9,
    pocket: 0.1,
    floor_rate: 0.45,
};

const POCKETS: [&str; 6] = ["lb", "cb", "rb", "lt", "ct", "rt"];

/// Which part of a cell sits on its margin, and on which side.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Part {
    /// The shot-by-shot rate: E[d_run - (1 + r) d_floor] = a (`offset` added).
    ShotByShot(f64),
    Balls(f64),
    Scratch(f64),
    Pocket(f64),
    FirstContact,
    CueX(f64),
    CueY(f64),
}

/// A world: which part is moved, if any (`None`: no difference at all).
#[derive(Clone, Copy, Debug)]
struct World {
    family: Family,
    moved: Option<Part>,
}

/// One simulated game.
fn game(rng: &mut SplitMix, f: Family) -> ShotStats {
    let mut pockets = Vec::new();
    let mut objects = 0;
    for _ in 0..f.objects {
        if rng.unit() < f.pocket {
            objects += 1;
            pockets.push(POCKETS[rng.index(POCKETS.len())].to_string());
        }
    }
    pockets.sort_unstable();
    pockets.dedup();
    let scratch = rng.unit() < 0.05;
    ShotStats {
        objects,
        scratch,
        success: objects > 0 && !scratch,
        pockets,
        first_contact: if rng.unit() < 0.97 { "1" } else { "none" }.into(),
        cue: Some([rng.range(0.2, 1.8), rng.range(0.1, 0.9)]),
        disagree: false,
        score: Vec::new(),
    }
}

/// One shot of `world`: (engine, reference, floor).
fn shot(rng: &mut SplitMix, w: &World, m: &Margins) -> [ShotStats; 3] {
    let f = w.family;
    let reference = game(rng, f);
    // The floor: the reference's game again or another draw (its marginals are the
    // reference's). The engine: the reference's game, moved where the world says.
    let floor = if rng.unit() < 0.5 {
        reference.clone()
    } else {
        game(rng, f)
    };
    let mut engine = match w.moved {
        None => {
            if rng.unit() < 0.5 {
                reference.clone()
            } else {
                game(rng, f)
            }
        }
        Some(_) => reference.clone(),
    };
    let p = f.floor_rate;
    let run_rate = match w.moved {
        Some(Part::ShotByShot(offset)) => m.floor + (1.0 + m.floor_relative) * p + offset,
        _ => p,
    };
    // A shot's difficulty h (mean 1) scales both runs' rates: they are correlated, as on real
    // shots.
    let h = if rng.unit() < 0.5 { 0.5 } else { 1.5 };
    let mut floor = floor;
    floor.disagree = rng.unit() < (p * h).min(1.0);
    engine.disagree = rng.unit() < (run_rate * h).min(1.0);
    // One statistic moved exactly to its margin (its mean difference = +-margin).
    let flip = |rng: &mut SplitMix, share: f64| rng.unit() < share;
    match w.moved {
        Some(Part::Balls(sign)) => {
            let max = f64::from(f.objects);
            // P(room to move) x q = margin.
            let room = if sign > 0.0 {
                1.0 - f.pocket.powi(f.objects as i32)
            } else {
                1.0 - (1.0 - f.pocket).powi(f.objects as i32)
            };
            let moves = if sign > 0.0 {
                f64::from(engine.objects) < max
            } else {
                engine.objects > 0
            };
            if moves && flip(rng, m.balls / room) {
                engine.objects = if sign > 0.0 {
                    engine.objects + 1
                } else {
                    engine.objects - 1
                };
            }
        }
        Some(Part::Scratch(sign)) => {
            let base = 0.05;
            let room = if sign > 0.0 { 1.0 - base } else { base };
            if engine.scratch != (sign > 0.0) && flip(rng, m.rate / room) {
                engine.scratch = sign > 0.0;
            }
        }
        Some(Part::Pocket(sign)) => {
            let has = engine.pockets.iter().any(|q| q == "cb");
            let p_cb = 1.0 - (1.0 - f.pocket / 6.0).powi(f.objects as i32);
            let room = if sign > 0.0 { 1.0 - p_cb } else { p_cb };
            if has != (sign > 0.0) && flip(rng, m.rate / room) {
                if sign > 0.0 {
                    engine.pockets.push("cb".into());
                    engine.pockets.sort_unstable();
                } else {
                    engine.pockets.retain(|q| q != "cb");
                }
            }
        }
        // Another ball first on `margin` of shots: first_contact:2 at +margin and
        // first_contact:1 at about -margin.
        Some(Part::FirstContact) if flip(rng, m.rate) => {
            engine.first_contact = "2".into();
        }
        Some(Part::CueX(sign)) | Some(Part::CueY(sign)) => {
            if let Some(c) = engine.cue.as_mut() {
                let k = usize::from(matches!(w.moved, Some(Part::CueY(_))));
                // The margin plus symmetric noise: every shot differs, the mean by the margin.
                c[k] += sign * m.position_m + rng.range(-0.2, 0.2);
            }
        }
        _ => {}
    }
    [engine, reference, floor]
}

/// Whether a verdict of the engine's cell claims what the world makes false.
fn false_claim(w: &World, v: Verdict, shot_by_shot_within: bool) -> bool {
    match w.moved {
        // No difference: any "changes" claim is false.
        None => v.claim() == Some(Claim::Changes),
        // The rate on its margin: "within the floor margin" (alone or in "keeps") is false.
        Some(Part::ShotByShot(_)) => shot_by_shot_within,
        // A statistic on its margin: "keeps" and "same in distribution" are false.
        Some(_) => matches!(
            v,
            Verdict::Keeps | Verdict::SameInDistribution | Verdict::ChangesShotsSameInDistribution
        ),
    }
}

/// A judge of verdicts alone (no rows, no intervals to print).
fn verdicts_only(m: &Margins) -> Judge<'_> {
    Judge {
        margins: m,
        last: false,
        seed: 1,
        rows_too: false,
    }
}

/// The looks of a cell capped at `max`: 100, 200, ... , `max`.
fn looks(max: u64) -> Vec<u64> {
    let mut out = Vec::new();
    let mut n = 100.min(max);
    while n < max {
        out.push(n);
        n *= 2;
    }
    out.push(max);
    out
}

/// A cell of `world` at level `alpha` (its floor beside it), played look by look to `max`
/// shots; whether it made a false claim at some look (`until_decided`: stop once its main
/// claim is decided, as the study does; else play every look).
fn cell(
    rng: &mut SplitMix,
    w: &World,
    alpha: f64,
    max: u64,
    until_decided: bool,
) -> (bool, Verdict) {
    let m = Margins::default();
    let levels = Levels::default();
    let run = ("engine".to_string(), "x".to_string(), None);
    let mut pair = Pair::new((w.family.name, "seven_foot"), run, alpha, &levels);
    let floor_run = (crate::tally::rows::FLOOR.to_string(), String::new(), None);
    let mut floor = Pair::new(
        (w.family.name, "seven_foot"),
        floor_run,
        levels.alpha,
        &levels,
    );
    let judge = verdicts_only(&m);
    let key = (String::new(), String::new(), String::new());
    let mut n = 0;
    let mut wrong = false;
    let mut last = Verdict::Undecided;
    for target in looks(max) {
        while n < target {
            let [engine, reference, fl] = shot(rng, w, &m);
            pair.add(&engine, &reference, &fl);
            floor.add(&fl, &reference, &fl);
            n += 1;
        }
        pair.close();
        floor.close();
        let (_, v) = judge.pair(&key, &pair, None);
        let (_, f) = judge.pair(&key, &floor, None);
        let within = v.shot_by_shot == Some(crate::stats::verdict::FloorVerdict::Within);
        wrong |= false_claim(w, v.verdict, within);
        // The floor plays the reference's game in every world.
        wrong |= f.verdict == Verdict::NotNeutral;
        last = v.verdict;
        if until_decided && v.verdict.claim().is_some() {
            break;
        }
    }
    (wrong, last)
}

/// One walk of the ladder: the game changed by `delta` beyond the floor margin at every rung
/// coarser than `boundary`, by `delta` within it at and below; each rung a cell at
/// `rung_alpha`, sampled while the search asks for it up to `max` shots. Whether any rung made
/// a false claim, and how many rungs it played.
fn walk(
    rng: &mut SplitMix,
    ladder: &Ladder,
    boundary: f64,
    delta: f64,
    rung_alpha: f64,
    max: u64,
) -> (bool, usize) {
    let m = Margins::default();
    let levels = Levels::default();
    let judge = verdicts_only(&m);
    let key = (String::new(), String::new(), String::new());
    let world = |dt: f64| World {
        family: CUT,
        moved: Some(Part::ShotByShot(if dt > boundary { delta } else { -delta })),
    };
    // Per rung played: its cell, shots, and last verdict.
    let mut cells: Vec<(f64, Pair, u64, Verdict)> = Vec::new();
    let mut wrong = false;
    let mut want: Vec<(f64, u64)> = crate::plan::study::DEFAULT_DTS
        .iter()
        .map(|&dt| (dt, 100))
        .collect();
    loop {
        for &(dt, target) in &want {
            let at = match cells.iter().position(|c| c.0 == dt) {
                Some(at) => at,
                None => {
                    let run = ("s".to_string(), "x".to_string(), Some(dt));
                    let pair = Pair::new((CUT.name, "seven_foot"), run, rung_alpha, &levels);
                    cells.push((dt, pair, 0, Verdict::Undecided));
                    cells.len() - 1
                }
            };
            let w = world(dt);
            let cell = &mut cells[at];
            while cell.2 < target {
                let [engine, reference, fl] = shot(rng, &w, &m);
                cell.1.add(&engine, &reference, &fl);
                cell.2 += 1;
            }
            cell.1.close();
            let (_, v) = judge.pair(&key, &cell.1, None);
            let within = v.shot_by_shot == Some(crate::stats::verdict::FloorVerdict::Within);
            let beyond = v.verdict.claim() == Some(Claim::Changes);
            // Above the boundary the game changes: "within" is false; below, "changes" is.
            wrong |= if dt > boundary { within } else { beyond };
            cell.3 = v.verdict;
        }
        let states: Vec<(f64, CellState)> = cells
            .iter()
            .map(|(dt, _, shots, v)| {
                let state = match v.claim() {
                    Some(Claim::Keeps) => CellState::Keeps,
                    Some(Claim::Changes) => CellState::Changes,
                    None if *shots < max => CellState::Open,
                    None => CellState::Stuck,
                };
                (*dt, state)
            })
            .collect();
        want.clear();
        match next_step(ladder, &states, &|_| false) {
            Step::Sample(dts) => {
                for dt in dts {
                    let shots = cells.iter().find(|c| c.0 == dt).map_or(0, |c| c.2);
                    want.push((dt, (shots * 2).min(max)));
                }
            }
            Step::Probe(dt) => want.push((dt, 100.min(max))),
            Step::Done(_) => return (wrong, cells.len()),
        }
    }
}

impl Calibration {
    /// Every check, in the order the table lists them (`progress` is called once per study).
    pub fn run(&self, progress: &(dyn Fn() + Sync)) -> Vec<CalibrationCheck> {
        let alpha = crate::stats::levels::STUDY_ALPHA;
        let m = Margins::default();
        let mut out = Vec::new();
        let single = |name: &str, w: World, until_decided: bool, seed: u64| {
            let wrong: u64 = (0..self.replications)
                .into_par_iter()
                .map(|k| {
                    let mut rng = SplitMix::new(self.seed ^ seed ^ k.wrapping_mul(0x9E37_79B9));
                    let (w, _) = cell(&mut rng, &w, alpha, self.max_shots, until_decided);
                    progress();
                    u64::from(w)
                })
                .sum();
            CalibrationCheck {
                check: name.to_string(),
                level: alpha,
                studies: self.replications,
                false_claims: wrong,
                must_exceed: false,
            }
        };
        let at = |moved| World {
            family: CUT,
            moved: Some(moved),
        };
        for (name, w, seed) in [
            (
                "keeps, cut-like: the shot-by-shot rate on its margin",
                at(Part::ShotByShot(0.0)),
                1,
            ),
            (
                "keeps, break-like: the shot-by-shot rate on its margin",
                World {
                    family: BREAK,
                    moved: Some(Part::ShotByShot(0.0)),
                },
                2,
            ),
            ("keeps: balls pocketed at +margin", at(Part::Balls(1.0)), 3),
            ("keeps: balls pocketed at -margin", at(Part::Balls(-1.0)), 4),
            ("keeps: scratch at +margin", at(Part::Scratch(1.0)), 5),
            ("keeps: scratch at -margin", at(Part::Scratch(-1.0)), 6),
            (
                "keeps: a pocket's share at +margin",
                at(Part::Pocket(1.0)),
                7,
            ),
            (
                "keeps: a pocket's share at -margin",
                at(Part::Pocket(-1.0)),
                8,
            ),
            (
                "keeps: a first contact's share at ±margin",
                at(Part::FirstContact),
                9,
            ),
            ("keeps: cue x at +margin", at(Part::CueX(1.0)), 10),
            ("keeps: cue y at -margin", at(Part::CueY(-1.0)), 11),
        ] {
            out.push(single(name, w, false, seed));
        }
        for (name, family, seed) in [
            ("changes, cut-like: no difference", CUT, 12),
            ("changes, break-like: no difference", BREAK, 13),
        ] {
            let w = World {
                family,
                moved: None,
            };
            out.push(single(name, w, false, seed));
        }
        let _ = m;
        // The ladder walk, the boundary between two rungs in the middle of the ladder.
        let ladder = Ladder::new(
            &crate::plan::study::DEFAULT_DTS,
            SearchOptions::default().limit_s,
        );
        let rungs = ladder.len() as f64;
        let walks = |rung_alpha: f64, seed: u64| -> u64 {
            (0..self.walks)
                .into_par_iter()
                .map(|k| {
                    let mut rng = SplitMix::new(self.seed ^ seed ^ k.wrapping_mul(0x9E37_79B9));
                    let (w, _) = walk(&mut rng, &ladder, 7e-5, 5e-4, rung_alpha, self.max_shots);
                    progress();
                    u64::from(w)
                })
                .sum()
        };
        out.push(CalibrationCheck {
            check: format!(
                "a ladder walk: beyond the floor margin by 0.05 points above 7e-5 s, within it \
                 below; each of the {rungs} rungs at 5 % / {rungs}"
            ),
            level: alpha,
            studies: self.walks,
            false_claims: walks(alpha / rungs, 14),
            must_exceed: false,
        });
        out.push(CalibrationCheck {
            check: "negative control: the same walks, each rung at the whole 5 %".into(),
            level: alpha,
            studies: self.walks,
            false_claims: walks(alpha, 14),
            must_exceed: true,
        });
        out
    }
}

/// The checks as a Markdown table: each check, its level, the studies, the false claims
/// with their rate and Wilson 95 % interval, and whether it holds.
pub fn calibration_table(checks: &[CalibrationCheck], run: &Calibration) -> String {
    let mut md = format!(
        "| check ({} replications to {} shots; {} walks) | level | false claims | rate [95 %] | holds |\n\
         |---|---|---|---|---|\n",
        run.replications, run.max_shots, run.walks
    );
    for c in checks {
        let (lo, hi) = c.interval();
        md.push_str(&format!(
            "| {} | {} % | {} of {} | {:.2} % [{:.2}, {:.2}] | {} |\n",
            c.check,
            100.0 * c.level,
            c.false_claims,
            c.studies,
            100.0 * c.rate(),
            100.0 * lo,
            100.0 * hi,
            match (c.holds(), c.must_exceed) {
                (true, false) => "yes",
                (true, true) => "yes: it exceeds the level, so the check can fail",
                (false, _) => "**no**",
            }
        ));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worlds_put_their_part_on_its_margin() {
        let m = Margins::default();
        let mut rng = SplitMix::new(5);
        let n = 400_000;
        let mean = |w: World, f: &dyn Fn(&[ShotStats; 3]) -> f64, rng: &mut SplitMix| {
            (0..n).map(|_| f(&shot(rng, &w, &m))).sum::<f64>() / n as f64
        };
        let at = |moved| World {
            family: CUT,
            moved: Some(moved),
        };
        let balls = mean(
            at(Part::Balls(1.0)),
            &|s| f64::from(s[0].objects) - f64::from(s[1].objects),
            &mut rng,
        );
        assert!((balls - m.balls).abs() < 0.002, "{balls}");
        let scratch = mean(
            at(Part::Scratch(-1.0)),
            &|s| f64::from(u8::from(s[0].scratch)) - f64::from(u8::from(s[1].scratch)),
            &mut rng,
        );
        assert!((scratch + m.rate).abs() < 0.002, "{scratch}");
        let a = m.floor;
        let z = mean(
            at(Part::ShotByShot(0.0)),
            &|s| {
                f64::from(u8::from(s[0].disagree))
                    - (1.0 + m.floor_relative) * f64::from(u8::from(s[2].disagree))
            },
            &mut rng,
        );
        assert!((z - a).abs() < 0.001, "{z}");
        let x = mean(
            at(Part::CueX(1.0)),
            &|s| s[0].cue.unwrap()[0] - s[1].cue.unwrap()[0],
            &mut rng,
        );
        assert!((x - m.position_m).abs() < 0.002, "{x}");
    }
}
