//! The same shot under another physics preset: for `compare --physics` and `stress --physics`.

use pool_physics::{Model, Physics};
use pool_sim::Setup;

/// `setup` with the physics preset `preset` ([`Model::PRESETS`]) in place of its own: the same
/// table, balls and ball parameters, the shot's and each ball's own (those the new model reads;
/// [`Model::new`] and [`Model::add_ball_params`] reset the rest), each ball's motion state
/// inferred again under the new model's equations of motion.
/// The name is kept.
///
/// # Errors
/// An unknown preset (naming the valid ones), or a set-up the new model cannot run (e.g. a
/// frictionless model without `t_end`, a cushion height its laws cannot resolve).
pub fn with_physics(setup: &Setup, preset: &str) -> Result<Setup, String> {
    let mut model = Model::preset(preset, *setup.physics.params()).ok_or_else(|| {
        format!(
            "unknown physics preset {preset:?}; valid: {}",
            Model::PRESETS.join(", ")
        )
    })?;
    if !model.motion().has_friction() && setup.t_end.is_none() {
        return Err(format!(
            "{}: physics {preset} is frictionless and the shot has no t_end",
            setup.name
        ));
    }
    let mut out = setup.clone();
    for b in &mut out.balls {
        // The ball's own parameters, as the new model reads them (balls that differ only in
        // what it does not read share a set there).
        let own = *setup.physics.params_of(&b.state);
        b.state.set = (model.add_ball_params(&own))
            .map_err(|e| format!("{} under {preset}: {e}", setup.name))?;
        if b.state.motion != pool_physics::MotionState::Pocketed {
            b.state.motion = model.infer_motion(&b.state);
        }
    }
    out.physics = model;
    out.validate()
        .map_err(|e| format!("{} under {preset}: {e}", setup.name))?;
    Ok(out)
}
