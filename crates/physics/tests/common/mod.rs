//! What several test files of the laws share.

use pool_physics::resolve::{LawSpec, Param};

/// Every built-in ball-ball law, with each friction model.
pub fn ball_ball_laws() -> Vec<LawSpec> {
    let inelastic = |friction: LawSpec| {
        LawSpec::named("frictional_inelastic").with("friction", Param::Law(friction))
    };
    vec![
        LawSpec::named("frictionless_elastic"),
        inelastic(LawSpec::named("alciatore")),
        inelastic(LawSpec::named("average")),
        LawSpec::named("frictional_mathavan"),
    ]
}
