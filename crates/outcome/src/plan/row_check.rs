//! A shot's rows read back from elsewhere (a shard, a look) are data, not answers: before they
//! count, every value is range-checked against the shot it names, every column derived from
//! other columns is derived again, and every disagreement flag that the row and the
//! reference's row decide is decided again ([`ShotCheck::check`]). What the rows cannot show
//! (a ball lost off the table, every ball's final position) is held to what they do show.

use std::collections::HashSet;

use pool_sim::Setup;

use crate::game::agreement::Field;
use crate::game::family::FamilyKind;
use crate::game::outcome::{cue_ball, GameOutcome};
use crate::tally::rows::{OutcomeShotRow, Run};

/// What the rows of one shot may say: its balls, cue ball, cushions, pockets and game.
#[derive(Clone, Debug)]
pub struct ShotCheck {
    /// The shot's seed: every row's `shot` names it (`cut_<seed>`, `<rack>_<seed>_floor`).
    seed: String,
    balls: Vec<String>,
    cue: Option<String>,
    cushions: HashSet<String>,
    /// The table's pockets, in its order.
    pockets: Vec<String>,
    /// The game's score fields in column order, and whether each decides the outcome.
    score: Vec<(&'static str, bool)>,
    /// Where a ball at rest may lie: the table's extent grown by a metre (m).
    bounds: [f64; 4],
    /// The longest distance on the table (m): no position error exceeds it.
    reach: f64,
}

/// Termination names of runs that can have ended physically (`EndCheck::ended_physically`
/// asks more, which the row does not carry).
const PHYSICAL: [&str; 2] = ["at_rest", "time_limit"];
/// Every termination a row may name.
const TERMINATIONS: [&str; 5] = [
    "at_rest",
    "time_limit",
    "budget",
    "numerical_error",
    "failed",
];

impl ShotCheck {
    /// The check of the rows of `setup`, the shot of seed `seed` of family `kind` (the floor's
    /// rows too, whose perturbed shot has the same balls and table).
    pub fn of(kind: FamilyKind, setup: &Setup, seed: u64) -> Self {
        let t = &setup.table;
        let empty = GameOutcome::of(setup, &pool_sim::Outcome::failed(setup)).scored(kind, setup);
        let grow = 1.0;
        ShotCheck {
            seed: seed.to_string(),
            balls: setup.balls.iter().map(|b| b.id.clone()).collect(),
            cue: cue_ball(setup).map(|c| setup.balls[c].id.clone()),
            cushions: (t.cushions.iter().map(|c| c.id.clone()))
                .chain(t.circular_cushions.iter().map(|c| c.id.clone()))
                .collect(),
            pockets: t.pockets.iter().map(|p| p.id.clone()).collect(),
            score: empty.score.iter().map(|e| (e.name, e.decides)).collect(),
            bounds: [-grow, -grow, t.length + grow, t.width + grow],
            reach: (t.length + 2.0 * grow).hypot(t.width + 2.0 * grow),
        }
    }

    /// Checks the rows of this shot (its reference's row among them, unless the reference's
    /// row is `reference`, given apart), position tolerance `tol` (m).
    ///
    /// # Errors
    /// One line naming the row's run, the field and its value, and what it should be.
    pub fn check(
        &self,
        rows: &[OutcomeShotRow],
        reference: Option<&OutcomeShotRow>,
        tol: f64,
    ) -> Result<(), String> {
        let reference = reference.or_else(|| rows.iter().find(|r| r.run == Run::Reference));
        for r in rows {
            self.row(r)
                .map_err(|e| format!("{} ({}): {e}", r.shot, r.run))?;
        }
        let Some(reference) = reference else {
            return Err(format!("shot of seed {}: no reference row", self.seed));
        };
        self.row(reference)
            .map_err(|e| format!("{} ({}): {e}", reference.shot, reference.run))?;
        if reference.failure.is_some() {
            return Err(format!(
                "{} (reference): failure = {:?}: the reference always runs",
                reference.shot,
                reference
                    .failure
                    .as_ref()
                    .map_or(String::new(), ToString::to_string)
            ));
        }
        let own = [
            reference.d_outcome,
            reference.d_first_contact,
            reference.d_first_cushion,
        ]
        .into_iter()
        .chain([reference.d_pocketed, reference.d_scratch, reference.d_end])
        .chain([reference.d_cue_position, reference.d_positions]);
        if own.into_iter().any(|d| d != 0)
            || reference.cue_position_error_m.is_some()
            || reference.position_error_max_m.is_some()
        {
            return Err(format!(
                "{} (reference): the reference's row has disagreements of its own",
                reference.shot
            ));
        }
        for r in rows.iter().filter(|r| r.run != Run::Reference) {
            self.against(r, reference, tol)
                .map_err(|e| format!("{} ({}): {e}", r.shot, r.run))?;
        }
        Ok(())
    }

    /// A row on its own: ranges, names, and the columns derived from its `pocketed`.
    fn row(&self, r: &OutcomeShotRow) -> Result<(), String> {
        let bad = |field: &str, value: String, why: &str| Err(format!("{field} = {value}: {why}"));
        if !r.shot.split('_').any(|part| part == self.seed) {
            return bad(
                "shot",
                format!("{:?}", r.shot),
                &format!("not a name of the shot of seed {}", self.seed),
            );
        }
        if !TERMINATIONS.contains(&r.termination.as_str()) {
            return bad(
                "termination",
                format!("{:?}", r.termination),
                "not a termination",
            );
        }
        if let Some(dt) = r.dt_s {
            if !(1e-7..=1.0).contains(&dt) {
                return bad("dt_s", format!("{dt:?}"), "a time step is in [1e-7, 1] s");
            }
        }
        if let Some(t) = r.first_contact_t_s {
            if !(t.is_finite() && t >= 0.0) {
                return bad("first_contact_t_s", format!("{t:?}"), "a time >= 0 (s)");
            }
        }
        if r.first_contact.is_empty() != r.first_contact_t_s.is_none() {
            return bad(
                "first_contact_t_s",
                format!("{:?}", r.first_contact_t_s),
                "given exactly when first_contact is",
            );
        }
        if !r.first_contact.is_empty()
            && (!self.balls.contains(&r.first_contact)
                || Some(&r.first_contact) == self.cue.as_ref())
        {
            return bad(
                "first_contact",
                format!("{:?}", r.first_contact),
                "not an object ball of the shot",
            );
        }
        if !r.first_cushion.is_empty() {
            let ok = r.first_cushion.split_once('|').is_some_and(|(b, c)| {
                self.balls.iter().any(|x| x == b) && self.cushions.contains(c)
            });
            if !ok {
                return bad(
                    "first_cushion",
                    format!("{:?}", r.first_cushion),
                    "not ball|cushion of the shot",
                );
            }
        }
        let pocketed = self.pocketed(r)?;
        let cue_pocketed = pocketed
            .iter()
            .any(|(b, _)| Some(*b) == self.cue.as_deref());
        let flags = [
            ("scratch", r.scratch),
            ("d_outcome", r.d_outcome),
            ("d_first_contact", r.d_first_contact),
            ("d_first_cushion", r.d_first_cushion),
            ("d_pocketed", r.d_pocketed),
            ("d_scratch", r.d_scratch),
            ("d_end", r.d_end),
            ("d_cue_position", r.d_cue_position),
            ("d_positions", r.d_positions),
        ];
        for (field, v) in flags {
            if v > 1 {
                return bad(field, v.to_string(), "a flag is 0 or 1");
            }
        }
        if r.scratch != u8::from(cue_pocketed) {
            return bad(
                "scratch",
                r.scratch.to_string(),
                &format!(
                    "pocketed = {:?} says {}",
                    r.pocketed,
                    u8::from(cue_pocketed)
                ),
            );
        }
        let objects: Vec<&str> = (pocketed.iter())
            .filter(|(b, _)| Some(*b) != self.cue.as_deref())
            .map(|(_, p)| *p)
            .collect();
        if r.objects_pocketed as usize != objects.len() {
            return bad(
                "objects_pocketed",
                r.objects_pocketed.to_string(),
                &format!("pocketed = {:?} says {}", r.pocketed, objects.len()),
            );
        }
        let object_pockets = (self.pockets.iter())
            .filter(|p| objects.contains(&p.as_str()))
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(";");
        if r.object_pockets != object_pockets {
            return bad(
                "object_pockets",
                format!("{:?}", r.object_pockets),
                &format!("pocketed = {:?} says {object_pockets:?}", r.pocketed),
            );
        }
        match (r.cue_x_m, r.cue_y_m) {
            (None, None) => {}
            (Some(x), Some(y)) => {
                let [x0, y0, x1, y1] = self.bounds;
                if !(x0..=x1).contains(&x) || !(y0..=y1).contains(&y) || cue_pocketed {
                    return bad(
                        "cue_x_m, cue_y_m",
                        format!("{x:?}, {y:?}"),
                        "not a place on the table a cue ball rests at",
                    );
                }
            }
            (x, y) => {
                return bad(
                    "cue_x_m, cue_y_m",
                    format!("{x:?}, {y:?}"),
                    "both or neither",
                )
            }
        }
        for (field, v) in [
            ("cue_position_error_m", r.cue_position_error_m),
            ("position_error_max_m", r.position_error_max_m),
        ] {
            if let Some(v) = v.filter(|v| !(0.0..=self.reach).contains(v)) {
                return bad(field, format!("{v:?}"), "a distance on the table (m)");
            }
        }
        let score: Vec<&str> = match r.score.as_str() {
            "" => Vec::new(),
            s => s.split(';').collect(),
        };
        let names: Vec<&str> = score
            .iter()
            .map(|e| e.split('=').next().unwrap_or(""))
            .collect();
        let expected: Vec<&str> = self.score.iter().map(|(n, _)| *n).collect();
        let failed_unscored = r.failure.is_some() && score.is_empty();
        if !failed_unscored && (names != expected || score.iter().any(|e| !e.contains('='))) {
            return bad(
                "score",
                format!("{:?}", r.score),
                &format!("the game's fields are {:?}", expected.join(";")),
            );
        }
        if r.failure.is_some() {
            let run = [
                r.d_outcome,
                r.d_first_contact,
                r.d_pocketed,
                r.d_end,
                r.d_positions,
            ];
            if run.iter().any(|&d| d != 0) || r.termination != "failed" {
                return bad(
                    "failure",
                    format!(
                        "{:?}",
                        r.failure
                            .as_ref()
                            .map_or(String::new(), ToString::to_string)
                    ),
                    "a run that failed has termination failed and no disagreement",
                );
            }
        }
        Ok(())
    }

    /// The row's `pocketed` as (ball, pocket) pairs: balls of the shot in its order, each
    /// once, pockets of the table or `?`.
    fn pocketed<'r>(&self, r: &'r OutcomeShotRow) -> Result<Vec<(&'r str, &'r str)>, String> {
        if r.pocketed.is_empty() {
            return Ok(Vec::new());
        }
        let mut out: Vec<(&str, &str)> = Vec::new();
        let mut last = None;
        for entry in r.pocketed.split(';') {
            let pair = entry.split_once(':').filter(|(b, p)| {
                *p == "?"
                    || self.pockets.iter().any(|x| x == p) && self.balls.iter().any(|x| x == b)
            });
            let at = pair.and_then(|(b, _)| self.balls.iter().position(|x| x == b));
            match (pair, at) {
                (Some(pair), Some(i)) if last.is_none_or(|l| i > l) => {
                    last = Some(i);
                    out.push(pair);
                }
                _ => {
                    return Err(format!(
                        "pocketed = {:?}: {entry:?} is not ball:pocket of the shot, in ball order",
                        r.pocketed
                    ))
                }
            }
        }
        Ok(out)
    }

    /// A run's flags and errors decided again against the reference's row.
    fn against(
        &self,
        r: &OutcomeShotRow,
        reference: &OutcomeShotRow,
        tol: f64,
    ) -> Result<(), String> {
        let expect = |field: Field, stored: u8, value: bool| {
            if r.failure.is_none() && stored != u8::from(value) {
                Err(format!(
                    "d_{} = {stored}: its fields and the reference's say {}",
                    field.name(),
                    u8::from(value)
                ))
            } else {
                Ok(())
            }
        };
        expect(
            Field::FirstContact,
            r.d_first_contact,
            r.first_contact != reference.first_contact,
        )?;
        expect(
            Field::FirstCushion,
            r.d_first_cushion,
            r.first_cushion != reference.first_cushion,
        )?;
        expect(
            Field::Pocketed,
            r.d_pocketed,
            r.pocketed != reference.pocketed,
        )?;
        expect(Field::Scratch, r.d_scratch, r.scratch != reference.scratch)?;
        let physical = |x: &OutcomeShotRow| PHYSICAL.contains(&x.termination.as_str());
        // An end is physical only with a physical termination; two such runs may still differ
        // on a ball lost off the table, which the rows do not carry.
        if !(physical(r) && physical(reference)) {
            expect(Field::End, r.d_end, physical(r) != physical(reference))?;
        }
        let deciding = |x: &OutcomeShotRow| -> Vec<String> {
            (x.score.split(';').zip(&self.score))
                .filter(|(_, (_, decides))| *decides)
                .map(|(e, _)| e.to_string())
                .collect()
        };
        let outcome = r.first_contact != reference.first_contact
            || r.pocketed != reference.pocketed
            || r.scratch != reference.scratch
            || r.d_end == 1
            || deciding(r) != deciding(reference);
        expect(Field::Outcome, r.d_outcome, outcome)?;
        // The cue ball: on the table (a position), pocketed (a scratch) or lost (neither).
        let place = |x: &OutcomeShotRow| x.cue_x_m.zip(x.cue_y_m);
        let kind = |x: &OutcomeShotRow| (place(x).is_some(), x.scratch == 1);
        let error = place(r)
            .zip(place(reference))
            .map(|((ax, ay), (bx, by))| (bx - ax).hypot(by - ay));
        if r.failure.is_none()
            && r.cue_position_error_m.map(f64::to_bits) != error.map(f64::to_bits)
        {
            return Err(format!(
                "cue_position_error_m = {:?}: its cue position and the reference's give {error:?}",
                r.cue_position_error_m
            ));
        }
        let cue_differs = match error {
            Some(e) => e.is_nan() || e > tol,
            None => kind(r) != kind(reference),
        };
        if self.cue.is_some() {
            expect(Field::CuePosition, r.d_cue_position, cue_differs)?;
        }
        // Every ball's position: what the rows show must agree with it.
        let balls_of = |x: &OutcomeShotRow| -> Vec<String> {
            (x.pocketed.split(';'))
                .filter(|e| !e.is_empty())
                .map(|e| e.split(':').next().unwrap_or("").to_string())
                .collect()
        };
        // A run that did not end physically beside one that did lost a ball or stopped early.
        let must_differ = r.d_cue_position == 1
            || (r.d_end == 1 && physical(r) && physical(reference))
            || r.position_error_max_m.is_some_and(|e| e > tol)
            || balls_of(r) != balls_of(reference);
        if r.failure.is_none() && must_differ && r.d_positions == 0 {
            return Err("d_positions = 0: its other fields say the balls' positions differ".into());
        }
        if let (Some(cue), Some(max)) = (r.cue_position_error_m, r.position_error_max_m) {
            if cue > max {
                return Err(format!(
                    "position_error_max_m = {max:?}: less than the cue ball's {cue:?}"
                ));
            }
        }
        Ok(())
    }
}

impl crate::plan::study::StudyPlan {
    /// Checks `rows` (a shard's or a look's, read back) against this plan: each names a
    /// family and shot of it, and passes [`ShotCheck::check`] against its shot's reference row,
    /// found among `rows` or `earlier` (the looks before).
    ///
    /// # Errors
    /// The first row that fails, naming its shot, run, field and value.
    pub fn check_rows(
        &self,
        rows: &[OutcomeShotRow],
        earlier: &[OutcomeShotRow],
    ) -> Result<(), String> {
        let mut references = std::collections::HashMap::new();
        for r in earlier
            .iter()
            .chain(rows)
            .filter(|r| r.run == Run::Reference)
        {
            references.insert((r.family.as_str(), r.table.as_str(), r.index), r);
        }
        let mut last: Option<((usize, u64), ShotCheck)> = None;
        for r in rows {
            let f = (self.families.iter())
                .position(|(k, t)| k.name() == r.family && *t == r.table)
                .ok_or_else(|| {
                    format!(
                        "{} on {} shot {} ({}): not a family of the study",
                        r.family, r.table, r.index, r.run
                    )
                })?;
            // A sequential study's looks play past its first look's shots, up to its budget
            // (which shots a shard holds, its coverage check says).
            if r.index >= crate::tally::rows::MAX_SHOTS {
                return Err(format!(
                    "{} on {} shot {} ({}): index = {}: a family has at most {} shots",
                    r.family,
                    r.table,
                    r.index,
                    r.run,
                    r.index,
                    crate::tally::rows::MAX_SHOTS
                ));
            }
            let check = match &last {
                Some((key, check)) if *key == (f, r.index) => check,
                _ => {
                    let (kind, table) = &self.families[f];
                    let seed = kind.shot_seed(table, self.seed, r.index);
                    let setup = crate::game::families::family_shot(
                        *kind,
                        &self.racks[f],
                        &self.rack,
                        seed,
                    )?;
                    &last
                        .insert(((f, r.index), ShotCheck::of(*kind, &setup, seed)))
                        .1
                }
            };
            let reference = references.get(&(r.family.as_str(), r.table.as_str(), r.index));
            let reference = reference.ok_or_else(|| {
                format!(
                    "{} on {} shot {} ({}): the shot has no reference row",
                    r.family, r.table, r.index, r.run
                )
            })?;
            check.check(
                std::slice::from_ref(r),
                Some(reference),
                self.position_tol_m,
            )?;
        }
        Ok(())
    }
}

/// Checks that `wall` (a shard's `wall.csv`) times exactly the runs of `rows` (its
/// `shots.csv`): for each family, table and run, `shots` is the number of its rows that ran
/// (no failure), and no run that ran is missing.
///
/// # Errors
/// The first count that disagrees, naming the family, table and run.
pub fn check_wall(
    wall: &[crate::tally::rows::WallRow],
    rows: &[OutcomeShotRow],
) -> Result<(), String> {
    let mut ran: std::collections::BTreeMap<(&str, &str, &Run), u64> = Default::default();
    for r in rows.iter().filter(|r| r.failure.is_none()) {
        *ran.entry((&r.family, &r.table, &r.run)).or_default() += 1;
    }
    for w in wall {
        let n = ran.remove(&(w.family.as_str(), w.table.as_str(), &w.run));
        if n.unwrap_or(0) != w.shots {
            return Err(format!(
                "{}/{}/{}: shots = {}, but shots.csv has {} run(s) of it",
                w.family,
                w.table,
                w.run,
                w.shots,
                n.unwrap_or(0)
            ));
        }
    }
    if let Some(((family, table, run), n)) = ran.into_iter().next() {
        return Err(format!(
            "{family}/{table}/{run}: {n} run(s) in shots.csv, none timed in wall.csv"
        ));
    }
    Ok(())
}
