//! How a law is written: its model name and parameters, as in pooltool 0.6.0's
//! `resolver.yaml` (`model: han_2005`, `restitution: true`, ...).

/// A law parameter's value as written.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    /// `true` / `false`.
    Bool(bool),
    /// A number (integers are read as numbers).
    Number(f64),
    /// A name.
    Text(String),
    /// A nested model with parameters of its own (pooltool's `friction = {model = ..., ...}`).
    Law(LawSpec),
}

impl std::fmt::Display for Param {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Param::Bool(b) => write!(f, "{b}"),
            Param::Number(x) => write!(f, "{x:?}"),
            Param::Text(s) => write!(f, "{s:?}"),
            Param::Law(l) => write!(f, "{{model = {:?}, ...}}", l.model),
        }
    }
}

/// One law chosen for one event type: the model's name and its parameters by pooltool's names,
/// in the order written.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LawSpec {
    /// The model's name, e.g. `han_2005`.
    pub model: String,
    /// Its parameters, e.g. `[("restitution", Bool(true))]`.
    pub params: Vec<(String, Param)>,
}

/// Why a [`LawSpec`] cannot be used: the parameter (`model` for the name itself), the value as
/// written and what is wrong. Displays as `<param> = <value>: <why>`.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{param} = {value}: {why}")]
pub struct LawError {
    /// `model`, or the parameter's name.
    pub param: String,
    /// The value as written.
    pub value: String,
    /// What is wrong, with the valid choices where there are some.
    pub why: String,
}

impl LawSpec {
    /// A model with no parameters given.
    pub fn named(model: &str) -> Self {
        LawSpec {
            model: model.to_string(),
            params: Vec::new(),
        }
    }

    /// Builder: one more parameter.
    pub fn with(mut self, key: &str, value: Param) -> Self {
        self.params.push((key.to_string(), value));
        self
    }

    /// The value given for `key`, if any.
    pub fn get(&self, key: &str) -> Option<&Param> {
        self.params.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Fails on the first parameter not in `known` (the model's parameter names).
    pub fn only(&self, known: &[&str]) -> Result<(), LawError> {
        match self
            .params
            .iter()
            .find(|(k, _)| !known.contains(&k.as_str()))
        {
            None => Ok(()),
            Some((k, v)) => Err(LawError {
                param: k.clone(),
                value: v.to_string(),
                why: if known.is_empty() {
                    format!("model {} takes no parameters", self.model)
                } else {
                    format!(
                        "unknown parameter of model {}; its parameters: {}",
                        self.model,
                        known.join(", ")
                    )
                },
            }),
        }
    }

    /// The boolean parameter `key`, or `default` when it is not given.
    pub fn bool_or(&self, key: &str, default: bool) -> Result<bool, LawError> {
        match self.get(key) {
            None => Ok(default),
            Some(Param::Bool(b)) => Ok(*b),
            Some(other) => Err(LawError {
                param: key.to_string(),
                value: other.to_string(),
                why: "must be true or false".into(),
            }),
        }
    }

    /// The finite number `key`, or `default` when it is not given.
    pub fn number_or(&self, key: &str, default: f64) -> Result<f64, LawError> {
        match self.get(key) {
            None => Ok(default),
            Some(Param::Number(x)) if x.is_finite() => Ok(*x),
            Some(other) => Err(LawError {
                param: key.to_string(),
                value: other.to_string(),
                why: "must be a finite number".into(),
            }),
        }
    }
}

impl LawSpec {
    /// The whole number `key` in [1, `max`], or `default` when it is not given.
    pub fn count_or(&self, key: &str, default: u32, max: u32) -> Result<u32, LawError> {
        let x = self.number_or(key, f64::from(default))?;
        if (1.0..=f64::from(max)).contains(&x) && x.fract() == 0.0 {
            Ok(x as u32)
        } else {
            Err(LawError {
                param: key.to_string(),
                value: x.to_string(),
                why: format!("must be a whole number from 1 to {max}"),
            })
        }
    }

    /// The named value `key` as its index in `names`, or 0 (the first name, the default) when
    /// it is not given.
    pub fn choice_or(&self, key: &str, names: &[&str]) -> Result<usize, LawError> {
        match self.get(key) {
            None => Ok(0),
            Some(Param::Text(t)) if names.contains(&t.as_str()) => {
                Ok(names.iter().position(|n| n == t).unwrap_or(0))
            }
            Some(other) => Err(LawError {
                param: key.to_string(),
                value: other.to_string(),
                why: format!("valid: {}", names.join(", ")),
            }),
        }
    }

    /// The positive finite number `key`, or `default` when it is not given.
    pub fn positive_or(&self, key: &str, default: f64) -> Result<f64, LawError> {
        let x = self.number_or(key, default)?;
        if x > 0.0 {
            Ok(x)
        } else {
            Err(LawError {
                param: key.to_string(),
                value: x.to_string(),
                why: "must be positive".into(),
            })
        }
    }
}

/// The error for a model name that is neither built in nor registered.
pub(crate) fn unknown_model(event_type: &str, model: &str, names: &[String]) -> LawError {
    LawError {
        param: "model".into(),
        value: format!("{model:?}"),
        why: format!(
            "unknown {event_type} model; valid models: {}",
            names.join(", ")
        ),
    }
}

/// Declares a law parameter whose value is one of a few names, pooltool 0.6.0's behaviour first
/// (the default): the enum (`Clone, Copy, Debug, Default, PartialEq, Eq`) and its `NAMES`,
/// `name`, `from_spec` (the parameter `key` of a spec, the default when not given, an error
/// naming the valid values otherwise) and `param` (the parameter as a spec writes it: nothing
/// for the default, so that pooltool's resolver file reads a default law's spec).
macro_rules! choice_param {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident ($key:literal) {
            $(#[$first_meta:meta])* $first:ident = $first_text:literal,
            $($(#[$var_meta:meta])* $var:ident = $text:literal),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        $vis enum $name {
            $(#[$first_meta])*
            #[default]
            $first,
            $($(#[$var_meta])* $var,)+
        }

        impl $name {
            /// The values a shot file writes, in declaration order (pooltool's first).
            pub const NAMES: &'static [&'static str] = &[$first_text, $($text),+];
            const ALL: &'static [$name] = &[$name::$first, $($name::$var),+];

            /// Its value in a shot file.
            pub fn name(self) -> &'static str {
                Self::NAMES[self as usize]
            }

            /// The parameter of `spec` (the default when not given).
            pub(crate) fn from_spec(
                spec: &$crate::resolve::LawSpec,
            ) -> Result<Self, $crate::resolve::LawError> {
                Ok(Self::ALL[spec.choice_or($key, Self::NAMES)?])
            }

            /// The parameter as a spec writes it: nothing when it is the default.
            pub(crate) fn param(self) -> Option<(String, $crate::resolve::Param)> {
                (self != Self::default()).then(|| {
                    (
                        $key.to_string(),
                        $crate::resolve::Param::Text(self.name().into()),
                    )
                })
            }
        }
    };
}

pub(crate) use choice_param;
