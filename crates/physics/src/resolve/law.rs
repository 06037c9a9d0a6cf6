//! What every law has, whatever its event type, and the declaration of an event type's models.

use super::spec::{LawError, LawSpec, Param};

/// What every law has: a name, its parameters, the ball parameters it reads.
pub trait Law: std::fmt::Debug + Send + Sync {
    /// Its name in shot files (pooltool's model name where it has one).
    fn name(&self) -> &str;

    /// Its parameters, by pooltool's names, as [`LawSpec`] writes them back.
    fn params(&self) -> Vec<(String, Param)> {
        Vec::new()
    }

    /// The [`crate::BallParams`] fields it reads (as named in shot files), besides `m` and `R`.
    fn ball_params(&self) -> &'static [&'static str] {
        &[]
    }
}

/// A law built into this crate: found by its `NAME` in a [`LawSpec`].
pub trait BuiltIn: Law + Sized {
    /// Its name in shot files and pooltool's `resolver.yaml`.
    const NAME: &'static str;

    /// The law from its spec, parameters checked.
    ///
    /// # Errors
    /// An unknown parameter or a bad value, naming it.
    fn from_spec(spec: &LawSpec) -> Result<Self, LawError>;
}

/// Declares an event type's models: an enum with one variant per built-in law (static
/// dispatch) and `Registered` for laws registered at run time, a local `each_law!` macro that
/// binds the law inside for a trait method call, and the methods every event type shares
/// (`BUILT_IN`, `from_spec`, `names`, `register`, `spec`, `name`, `ball_params`, equality by
/// spec). The first token is `$`, which the generated `each_law!` needs for its own variables.
macro_rules! law_models {
    (
        $d:tt
        $(#[$meta:meta])*
        $model:ident: dyn $law:ident, $event_type:literal {
            $($variant:ident($ty:ty)),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        pub enum $model {
            $(
                #[doc = concat!("[`", stringify!($ty), "`].")]
                $variant($ty),
            )+
            /// A law registered at run time.
            Registered(std::sync::Arc<dyn $law>),
        }

        /// `$e` with `$l` bound to the law inside `$self`, whatever its kind.
        macro_rules! each_law {
            ($d self_:expr, $d l:ident => $d e:expr) => {
                match $d self_ {
                    $($model::$variant($d l) => $d e,)+
                    $model::Registered($d l) => $d e,
                }
            };
        }

        impl $model {
            /// The built-in laws' names.
            pub const BUILT_IN: &'static [&'static str] =
                &[$(<$ty as $crate::resolve::law::BuiltIn>::NAME),+];

            fn registry() -> &'static $crate::resolve::registry::Registry<dyn $law> {
                static REGISTERED: $crate::resolve::registry::Registry<dyn $law> =
                    $crate::resolve::registry::Registry::new();
                &REGISTERED
            }

            /// The law a spec names, with its parameters checked.
            ///
            /// # Errors
            /// An unknown model name, an unknown parameter or a bad value, naming it.
            pub fn from_spec(
                spec: &$crate::resolve::LawSpec,
            ) -> Result<Self, $crate::resolve::LawError> {
                use $crate::resolve::law::BuiltIn as _;
                $(
                    if spec.model == <$ty>::NAME {
                        return <$ty>::from_spec(spec).map(Self::$variant);
                    }
                )+
                match Self::registry().build(spec) {
                    Some(law) => law.map(Self::Registered),
                    None => Err($crate::resolve::spec::unknown_model(
                        $event_type,
                        &spec.model,
                        &Self::names(),
                    )),
                }
            }

            /// Every name [`Self::from_spec`] accepts: built-in, then registered.
            pub fn names() -> Vec<String> {
                $crate::resolve::registry::all_names(Self::BUILT_IN, Self::registry().names())
            }

            /// Registers a law defined outside this crate under `name`, for every later
            /// [`Self::from_spec`] (and so shot file) in this process.
            ///
            /// # Errors
            /// `name` is taken (built in or registered).
            pub fn register(
                name: &'static str,
                build: $crate::resolve::Builder<dyn $law>,
            ) -> Result<(), $crate::resolve::LawError> {
                Self::registry().add($event_type, name, Self::BUILT_IN, build)
            }

            /// The spec that builds this law again.
            pub fn spec(&self) -> $crate::resolve::LawSpec {
                use $crate::resolve::Law as _;
                $crate::resolve::LawSpec {
                    model: self.name().to_string(),
                    params: each_law!(self, l => l.params()),
                }
            }

            /// Its name (see [`crate::resolve::Law::name`]).
            pub fn name(&self) -> &str {
                use $crate::resolve::Law as _;
                each_law!(self, l => l.name())
            }

            /// The ball parameters it reads (see [`crate::resolve::Law::ball_params`]).
            pub fn ball_params(&self) -> &'static [&'static str] {
                use $crate::resolve::Law as _;
                each_law!(self, l => l.ball_params())
            }
        }

        impl PartialEq for $model {
            /// Same name and parameters.
            fn eq(&self, other: &Self) -> bool {
                self.spec() == other.spec()
            }
        }
    };
}

pub(crate) use law_models;

/// [`BuiltIn`] and [`Law`] for a law without parameters of its own: its `NAME` and the ball
/// parameters it reads (none when omitted).
macro_rules! parameterless_law {
    ($ty:ty, $name:literal $(, reads [$($p:literal),* $(,)?])?) => {
        impl $crate::resolve::BuiltIn for $ty {
            const NAME: &'static str = $name;

            fn from_spec(
                spec: &$crate::resolve::LawSpec,
            ) -> Result<Self, $crate::resolve::LawError> {
                spec.only(&[])?;
                Ok(Self)
            }
        }

        impl $crate::resolve::Law for $ty {
            fn name(&self) -> &str {
                $name
            }

            fn ball_params(&self) -> &'static [&'static str] {
                &[$($($p),*)?]
            }
        }
    };
}

pub(crate) use parameterless_law;

/// [`BuiltIn`] and [`Law`] for a law whose only parameter is pooltool's contact spacer: a
/// struct with a `spacer: f64` field (m, default 0; [`crate::resolve::spacer`]).
macro_rules! spacer_only_law {
    ($ty:ident, $name:literal $(, reads [$($p:literal),* $(,)?])?) => {
        impl $crate::resolve::BuiltIn for $ty {
            const NAME: &'static str = $name;

            fn from_spec(
                spec: &$crate::resolve::LawSpec,
            ) -> Result<Self, $crate::resolve::LawError> {
                spec.only(&["spacer"])?;
                Ok($ty {
                    spacer: $crate::resolve::spacer::from_spec(spec, 0.0)?,
                })
            }
        }

        impl $crate::resolve::Law for $ty {
            fn name(&self) -> &str {
                $name
            }

            fn params(&self) -> Vec<(String, $crate::resolve::Param)> {
                $crate::resolve::spacer::param(self.spacer, 0.0).into_iter().collect()
            }

            fn ball_params(&self) -> &'static [&'static str] {
                &[$($($p),*)?]
            }
        }
    };
}

pub(crate) use spacer_only_law;
