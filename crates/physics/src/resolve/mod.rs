//! What happens at an event: one law per event type, chosen by name (pooltool's
//! `physics/resolve/` and its `resolver.yaml`), one module per event type, one file per law.
//!
//! A law returns the balls' new velocities; the equations of motion ([`crate::Motion`]) then
//! settle their motion states, so no ball is ever left in a state its velocities contradict.
//! Every collision law has a *sustained* partner for contacts that close slowly (the event
//! engine's cluster solver): by default the limit of damped rebounds under cloth friction, or
//! the law itself without friction ([`sustained`]).

pub mod ball_ball;
pub mod ball_cushion;
pub mod ball_pocket;
pub mod law;
mod registry;
pub mod spacer;
mod spec;
pub mod stick_ball;
pub mod sustained;
pub mod transition;

pub use ball_ball::{BallBallLaw, BallBallModel};
pub use ball_cushion::{BallCushionLaw, BallCushionModel};
pub use ball_pocket::{BallPocketLaw, BallPocketModel};
pub use law::{BuiltIn, Law};
pub use registry::Builder;
pub use spec::{LawError, LawSpec, Param};
pub use stick_ball::{Cue, CueSpecs, StickBallLaw, StickBallModel};
pub use transition::{TransitionLaw, TransitionModel};

/// Our corrections to pooltool 0.6.0's laws: (model, parameter) pairs that pooltool does not
/// have. Each parameter's default is pooltool's behaviour, and a law's spec writes it only
/// when it is set otherwise (`docs/pooltool.md`).
pub const CORRECTIONS: [(&str, &str); 6] = [
    ("frictional_inelastic", "friction_impulse"),
    ("frictional_mathavan", "cloth_slip"),
    ("stronge_compliant", "circular_normal"),
    ("impulse_frictional_inelastic", "circular_normal"),
    ("stronge_compliant", "spacer"),
    ("impulse_frictional_inelastic", "spacer"),
];

/// The law of every event type (pooltool's `Resolver`).
#[derive(Clone, Debug, PartialEq)]
pub struct Resolver {
    /// Two balls collide.
    pub ball_ball: BallBallModel,
    /// A ball hits a straight cushion segment (its face or an end point).
    pub ball_linear_cushion: BallCushionModel,
    /// A ball hits a circular cushion segment (a rounded jaw, e.g. of `pooltool_pocket`).
    pub ball_circular_cushion: BallCushionModel,
    /// A ball's center enters a pocket.
    pub ball_pocket: BallPocketModel,
    /// A natural transition (sliding -> rolling, ...).
    pub transition: TransitionModel,
    /// The cue strikes a ball (a shot's `[cue]`).
    pub stick_ball: StickBallModel,
}

impl Resolver {
    /// The event types, as keys of a shot file's `[physics]` table and of pooltool's
    /// `resolver.yaml`.
    pub const EVENT_TYPES: [&'static str; 6] = [
        "ball_ball",
        "ball_linear_cushion",
        "ball_circular_cushion",
        "ball_pocket",
        "transition",
        "stick_ball",
    ];

    /// Seed 004's laws (the `pool` preset): `frictionless_elastic` ball–ball, `han_2005`
    /// cushions, `canonical` pockets and transitions.
    pub fn seed() -> Self {
        Resolver {
            ball_ball: BallBallModel::FrictionlessElastic(ball_ball::FrictionlessElastic::default()),
            ball_linear_cushion: BallCushionModel::Han2005(ball_cushion::Han2005::default()),
            ball_circular_cushion: BallCushionModel::Han2005(ball_cushion::Han2005::default()),
            ball_pocket: BallPocketModel::Canonical(ball_pocket::Canonical),
            transition: TransitionModel::Canonical(transition::Canonical),
            stick_ball: StickBallModel::InstantaneousPoint(
                stick_ball::InstantaneousPoint::default(),
            ),
        }
    }

    /// pooltool 0.6.0's default resolver (the `pooltool_default` preset), its behaviour to
    /// rounding: `frictional_inelastic` ball–ball with Alciatore's friction (a = 9.951e-3,
    /// b = 0.108, c = 1.088) and pooltool's friction impulse, `stronge_compliant` cushions with
    /// omega_ratio = 1.8 (pooltool's normal at circular ones), `canonical` pockets and
    /// transitions. Both collision laws read the contact's geometry 1e-6 m off it
    /// ([`spacer::POOLTOOL_SPACER`]), as pooltool's `make_kiss` leaves the bodies.
    pub fn pooltool_default() -> Self {
        let stronge = ball_cushion::StrongeCompliant::with_omega_ratio(1.8);
        let stronge = BallCushionModel::StrongeCompliant(stronge);
        let inelastic = ball_ball::FrictionalInelastic {
            spacer: spacer::POOLTOOL_SPACER,
            ..Default::default()
        };
        Resolver {
            ball_ball: BallBallModel::FrictionalInelastic(inelastic),
            ball_linear_cushion: stronge.clone(),
            ball_circular_cushion: stronge,
            ..Self::seed()
        }
    }

    /// [`Resolver::pooltool_default`] with our corrections to pooltool 0.6.0 (the `corrected`
    /// preset): `frictional_inelastic` with `friction_impulse = "coulomb"` (TP A-14) and
    /// `stronge_compliant` with `circular_normal = "contact"` at the circular cushions, and every
    /// contact's geometry read at the contact (`spacer = 0`), the rest pooltool's default.
    pub fn corrected() -> Self {
        let inelastic = ball_ball::FrictionalInelastic {
            friction_impulse: ball_ball::FrictionImpulse::Coulomb,
            ..Default::default()
        };
        let stronge = ball_cushion::StrongeCompliant {
            spacer: 0.0,
            ..ball_cushion::StrongeCompliant::with_omega_ratio(1.8)
        };
        let circular = ball_cushion::StrongeCompliant {
            circular_normal: ball_cushion::CircularNormal::Contact,
            ..stronge
        };
        Resolver {
            ball_ball: BallBallModel::FrictionalInelastic(inelastic),
            ball_linear_cushion: BallCushionModel::StrongeCompliant(stronge),
            ball_circular_cushion: BallCushionModel::StrongeCompliant(circular),
            ..Self::pooltool_default()
        }
    }

    /// Mathavan et al.'s integrated laws (the `mathavan` preset): `frictional_mathavan` ball–ball
    /// (2014) with the cloth's friction opposing each ball's slip (`cloth_slip = "opposed"`,
    /// the paper's eqs. 10-11, not pooltool 0.6.0's sign) and `mathavan_2010` cushions, with
    /// their default steps.
    pub fn mathavan() -> Self {
        let cushion = BallCushionModel::Mathavan2010(ball_cushion::Mathavan2010::default());
        let ball_ball = ball_ball::FrictionalMathavan {
            cloth_slip: ball_ball::ClothSlip::Opposed,
            ..Default::default()
        };
        Resolver {
            ball_ball: BallBallModel::FrictionalMathavan(ball_ball),
            ball_linear_cushion: cushion.clone(),
            ball_circular_cushion: cushion,
            ..Self::seed()
        }
    }

    /// FastFiz's laws (the `fastfiz` preset; docs/fastfiz.md): its ball–ball, rail and cue-strike
    /// laws ([`ball_ball::FastFiz`], [`ball_cushion::FastFiz`] at straight and circular cushions
    /// alike, [`stick_ball::FastFiz`]); pockets and transitions as the seed's.
    pub fn fastfiz() -> Self {
        let rail = BallCushionModel::FastFiz(ball_cushion::FastFiz::default());
        Resolver {
            ball_ball: BallBallModel::FastFiz(ball_ball::FastFiz::default()),
            ball_linear_cushion: rail.clone(),
            ball_circular_cushion: rail,
            stick_ball: StickBallModel::FastFiz(stick_ball::FastFiz::default()),
            ..Self::seed()
        }
    }

    /// Seeds 002/001's laws (the `ideal` preset): `frictionless_elastic` ball–ball, mirror
    /// cushions (`unrealistic` without restitution), `canonical` pockets and transitions.
    pub fn mirror() -> Self {
        let mirror =
            BallCushionModel::Unrealistic(ball_cushion::Unrealistic { restitution: false });
        Resolver {
            ball_linear_cushion: mirror.clone(),
            ball_circular_cushion: mirror,
            ..Self::seed()
        }
    }

    /// Sets the law of `event_type` (one of [`Resolver::EVENT_TYPES`]) from its spec.
    ///
    /// # Errors
    /// An unknown event type (`param` is `event_type`), model, parameter or value.
    pub fn set(&mut self, event_type: &str, spec: &LawSpec) -> Result<(), LawError> {
        match event_type {
            "ball_ball" => self.ball_ball = BallBallModel::from_spec(spec)?,
            "ball_linear_cushion" => self.ball_linear_cushion = BallCushionModel::from_spec(spec)?,
            "ball_circular_cushion" => {
                self.ball_circular_cushion = BallCushionModel::from_spec(spec)?
            }
            "ball_pocket" => self.ball_pocket = BallPocketModel::from_spec(spec)?,
            "transition" => self.transition = TransitionModel::from_spec(spec)?,
            "stick_ball" => self.stick_ball = StickBallModel::from_spec(spec)?,
            other => {
                return Err(LawError {
                    param: "event_type".into(),
                    value: format!("{other:?}"),
                    why: format!(
                        "unknown event type; valid: {}",
                        Self::EVENT_TYPES.join(", ")
                    ),
                })
            }
        }
        Ok(())
    }

    /// Every event type's law as a spec, in [`Resolver::EVENT_TYPES`] order.
    pub fn specs(&self) -> [(&'static str, LawSpec); 6] {
        [
            ("ball_ball", self.ball_ball.spec()),
            ("ball_linear_cushion", self.ball_linear_cushion.spec()),
            ("ball_circular_cushion", self.ball_circular_cushion.spec()),
            ("ball_pocket", self.ball_pocket.spec()),
            ("transition", self.transition.spec()),
            ("stick_ball", self.stick_ball.spec()),
        ]
    }

    /// The laws that carry one of our [`CORRECTIONS`], as `event_type: model parameter =
    /// value`: what pooltool 0.6.0 cannot compute. Empty for pooltool's own laws.
    pub fn corrections(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (event_type, spec) in self.specs() {
            for (model, key) in CORRECTIONS {
                if let (true, Some(v)) = (spec.model == model, spec.get(key)) {
                    out.push(format!("{event_type}: {model} {key} = {v}"));
                }
            }
        }
        out
    }

    /// The [`crate::BallParams`] fields the laws read besides `m` and `R`, each once.
    pub fn ball_params(&self) -> Vec<&'static str> {
        let mut out: Vec<&'static str> = Vec::new();
        for p in [
            self.ball_ball.ball_params(),
            self.ball_linear_cushion.ball_params(),
            self.ball_circular_cushion.ball_params(),
            self.ball_pocket.ball_params(),
            self.transition.ball_params(),
            self.stick_ball.ball_params(),
        ]
        .into_iter()
        .flatten()
        {
            if !out.contains(p) {
                out.push(p);
            }
        }
        out
    }
}
