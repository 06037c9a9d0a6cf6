//! One shot of the outcome study: made, played by the reference and by the reference on the
//! perturbed shot (the floor), then by any engine, each run a row of `outcomes/shots.csv`.

use std::time::Instant;

use pool_engines::EngineSpec;
use pool_sim::{Engine, EngineError, Outcome, RackModel, Setup};

use crate::game::agreement::Agreement;
use crate::game::families::{family_shot, floor_shot};
use crate::game::family::FamilyKind;
use crate::game::outcome::GameOutcome;
use crate::game::perturb::{perturb, Perturbation};
use crate::game::ruleset::rules::Racks;
use crate::tally::rows::{OutcomeShotRow, Run, RunLabel, FLOOR, REFERENCE};
use pool_harness::EndCheck;

/// Why a shot of the study could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StudyError {
    /// The perturbation cannot keep the shot playable (an option too large: bad input).
    Perturbation(String),
    /// The family could not make the shot, or the reference (on the shot or the perturbed
    /// shot) did not end physically: a defect, with the shot named.
    Run(String),
    /// An option or engine of the study is unusable (bad input, named).
    Input(String),
    /// A row could not be written where the caller wanted it.
    Output(String),
}

impl std::fmt::Display for StudyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StudyError::Perturbation(m)
            | StudyError::Run(m)
            | StudyError::Input(m)
            | StudyError::Output(m) => f.write_str(m),
        }
    }
}

/// What a study's shots share: how they are perturbed and judged, and the reference engine.
pub struct StudyRules<'a> {
    /// The study's seed.
    pub seed: u64,
    /// The chaos floor's perturbation.
    pub perturbation: Perturbation,
    /// Final positions within this distance (m) agree.
    pub position_tol_m: f64,
    /// How the breaks' racks are placed.
    pub rack: RackModel,
    /// The reference engine and its spec (the event engine).
    pub reference: (&'a dyn Engine, &'a EngineSpec),
}

/// The set-ups of one shot of the study: the shot and the chaos floor's perturbed shot, exactly
/// as [`StudyShot::play`] plays them (replays remake them with this too).
#[derive(Clone, Debug)]
pub struct StudySetups {
    /// The shot's seed ([`FamilyKind::shot_seed`] of the study's seed).
    pub seed: u64,
    /// The shot ([`family_shot`]).
    pub setup: Setup,
    /// The floor's shot: [`floor_shot`] perturbed by the study's perturbation ([`perturb`]).
    pub perturbed: Setup,
}

/// `<kind> on <table>, shot <index> (seed <seed>)`: how messages name a shot of the study.
fn describe(kind: FamilyKind, table: &str, index: u64, seed: u64) -> String {
    format!("{} on {table}, shot {index} (seed {seed})", kind.name())
}

impl StudySetups {
    /// Shot `index` of family (`kind`, `table`), made from `racks` (on that table) with the
    /// seed [`FamilyKind::shot_seed`] of `rules.seed`, and the floor's shot perturbed by
    /// `rules.perturbation` (seeded by the shot's seed). `rules.reference` is not used.
    ///
    /// # Errors
    /// [`StudyError::Run`] when the family cannot make the shot, [`StudyError::Perturbation`]
    /// when no perturbation keeps it playable; both name the shot.
    pub fn of(
        kind: FamilyKind,
        table: &str,
        racks: &Racks,
        index: u64,
        rules: &StudyRules<'_>,
    ) -> Result<Self, StudyError> {
        let seed = kind.shot_seed(table, rules.seed, index);
        let what = describe(kind, table, index, seed);
        let setup = family_shot(kind, racks, &rules.rack, seed)
            .map_err(|e| StudyError::Run(format!("{what}: {e}")))?;
        let floor_base = floor_shot(kind, racks, &rules.rack, seed)
            .map_err(|e| StudyError::Run(format!("{what}: {e}")))?;
        let perturbed = perturb(&floor_base, &rules.perturbation, seed)
            .map_err(|e| StudyError::Perturbation(format!("{what}: {e}")))?;
        Ok(StudySetups {
            seed,
            setup,
            perturbed,
        })
    }
}

/// One shot of the study with its rows so far (the reference's, the floor's, then one per
/// engine added).
#[derive(Clone, Debug)]
pub struct StudyShot {
    /// The family's kind.
    pub kind: FamilyKind,
    /// The family's table.
    pub table: String,
    /// The shot's index in its family.
    pub index: u64,
    /// The shot.
    pub setup: Setup,
    /// The reference's outcome.
    pub reference: GameOutcome,
    /// The rows: reference, floor, then the engines in the order added.
    pub rows: Vec<OutcomeShotRow>,
    /// Wall time (s) of the reference's run and of the floor's.
    pub wall_s: [f64; 2],
    position_tol_m: f64,
}

/// The label of a run of shot `index` of (`kind`, `table`) by `spec`, named `run`.
fn label<'a>(
    kind: FamilyKind,
    table: &'a str,
    index: u64,
    run: Run,
    spec: &EngineSpec,
) -> RunLabel<'a> {
    RunLabel {
        family: kind.name(),
        table,
        index,
        run,
        engine: spec.family().to_string(),
        scheme: spec.variant(),
        dt_s: spec.dt(),
    }
}

impl StudyShot {
    /// Shot `index` of family (`kind`, `table`), made from `racks` (on that table) with the
    /// seed [`FamilyKind::shot_seed`] of `rules.seed`, played by the reference and by the
    /// reference on the shot perturbed by `rules.perturbation` (seeded by the shot's seed).
    ///
    /// # Errors
    /// See [`StudyError`].
    pub fn play(
        kind: FamilyKind,
        table: &str,
        racks: &Racks,
        index: u64,
        rules: &StudyRules<'_>,
    ) -> Result<Self, StudyError> {
        let StudySetups {
            seed,
            setup,
            perturbed,
        } = StudySetups::of(kind, table, racks, index, rules)?;
        let what = describe(kind, table, index, seed);
        let (engine, spec) = rules.reference;
        let timed = |s: &Setup| {
            let t = Instant::now();
            let o = engine.run(s);
            (o, t.elapsed().as_secs_f64())
        };
        let (reference, t_ref) = timed(&setup);
        let (floor, t_floor) = timed(&perturbed);
        for (run, s, o) in [(REFERENCE, &setup, &reference), (FLOOR, &perturbed, &floor)] {
            let failures = EndCheck::of(s, o).failures(s);
            if !failures.is_empty() {
                return Err(StudyError::Run(format!(
                    "{what}: the {run} run ({spec}) did not end physically: {}",
                    failures.join("; ")
                )));
            }
        }
        let ref_game = GameOutcome::of_family(kind, &setup, &reference);
        let floor_game = GameOutcome::of_family(kind, &perturbed, &floor);
        let vs = Agreement::between(&ref_game, &floor_game, rules.position_tol_m);
        let rows = vec![
            OutcomeShotRow::new(
                label(kind, table, index, Run::Reference, spec),
                &setup,
                &ref_game,
                reference.ops.total(),
                None,
            ),
            OutcomeShotRow::new(
                label(kind, table, index, Run::Floor, spec),
                &perturbed,
                &floor_game,
                floor.ops.total(),
                Some(&vs),
            ),
        ];
        Ok(StudyShot {
            kind,
            table: table.to_string(),
            index,
            setup,
            reference: ref_game,
            rows,
            wall_s: [t_ref, t_floor],
            position_tol_m: rules.position_tol_m,
        })
    }

    /// Adds the run of `spec` (or why it could not run the shot) as a row.
    pub fn add(&mut self, spec: &EngineSpec, run: &Result<Outcome, EngineError>) {
        let label = label(self.kind, &self.table, self.index, Run::engine(spec), spec);
        let row = match run {
            Ok(o) => {
                let game = GameOutcome::of_family(self.kind, &self.setup, o);
                let vs = Agreement::between(&self.reference, &game, self.position_tol_m);
                OutcomeShotRow::new(label, &self.setup, &game, o.ops.total(), Some(&vs))
            }
            Err(e) => OutcomeShotRow::failed(label, &self.setup, e),
        };
        self.rows.push(row);
    }
}
