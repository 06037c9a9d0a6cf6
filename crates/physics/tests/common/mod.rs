//! What several test files of the laws share.

use pool_physics::resolve::{LawSpec, Param};

/// Every built-in ball-ball law, with each friction model and each friction impulse; Mathavan
/// 2014 with the cloth's friction opposing the slip (`cloth_slip = "opposed"`): pooltool's sign
/// can add energy (`tests/laws.rs`), so every law here keeps the invariants.
pub fn ball_ball_laws() -> Vec<LawSpec> {
    let inelastic = |friction: LawSpec| {
        LawSpec::named("frictional_inelastic").with("friction", Param::Law(friction))
    };
    vec![
        LawSpec::named("frictionless_elastic"),
        inelastic(LawSpec::named("alciatore")),
        inelastic(LawSpec::named("average")),
        inelastic(LawSpec::named("alciatore"))
            .with("friction_impulse", Param::Text("coulomb".into())),
        LawSpec::named("frictional_mathavan").with("cloth_slip", Param::Text("opposed".into())),
    ]
}
