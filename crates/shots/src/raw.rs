//! The file's raw structure, as serde reads it (unknown fields denied at every level).

use pool_physics::Table;
use serde::de::{MapAccess, Visitor};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawShot {
    pub description: String,
    pub model: Option<String>,
    pub physics: Option<toml::Value>,
    pub table: TableSpec,
    pub t_end: Option<f64>,
    pub params: Option<RawParams>,
    pub cue: Option<RawCue>,
    pub balls: Vec<RawBall>,
    /// A rack model (`pool_sim::RackModel`) placing the balls after the first.
    pub rack: Option<String>,
    /// The seed of a `jittered` rack (default 0).
    pub rack_seed: Option<u64>,
}

/// `[cue]`: a strike at t = 0 (pooltool's `Cue` state and `CueSpecs`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCue {
    pub ball: String,
    #[serde(rename = "V0")]
    pub v0: f64,
    pub phi: f64,
    pub theta: Option<f64>,
    pub a: Option<f64>,
    pub b: Option<f64>,
    pub specs: Option<RawCueSpecs>,
}

/// `[cue.specs]`: the stick's masses.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawCueSpecs {
    #[serde(rename = "M")]
    pub mass: Option<f64>,
    pub end_mass: Option<f64>,
}

/// A raw struct with the fields `$field`s and one `Option<f64>` per ball parameter
/// (`BallParams::NAMES`, `R` as `radius`), and `given()` listing the parameters in that order
/// (`None` when not given): `[params]` and `[[balls]]` read the same keys.
macro_rules! with_ball_params {
    ($(#[$meta:meta])* $name:ident { $($field:ident: $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        pub(crate) struct $name {
            $(pub $field: $ty,)*
            pub m: Option<f64>,
            #[serde(rename = "R")]
            pub radius: Option<f64>,
            pub mu_s: Option<f64>,
            pub mu_r: Option<f64>,
            pub mu_sp: Option<f64>,
            pub mu_b: Option<f64>,
            pub e_b: Option<f64>,
            pub e_c: Option<f64>,
            pub f_c: Option<f64>,
            pub g: Option<f64>,
        }

        impl $name {
            /// Every ball parameter, in `BallParams::NAMES` order (`None` when not given).
            pub fn given(&self) -> [(&'static str, Option<f64>); 10] {
                [
                    ("m", self.m),
                    ("R", self.radius),
                    ("mu_s", self.mu_s),
                    ("mu_r", self.mu_r),
                    ("mu_sp", self.mu_sp),
                    ("mu_b", self.mu_b),
                    ("e_b", self.e_b),
                    ("e_c", self.e_c),
                    ("f_c", self.f_c),
                    ("g", self.g),
                ]
            }
        }
    };
}

with_ball_params! {
    #[derive(Deserialize, Default)]
    #[serde(deny_unknown_fields)]
    RawParams { preset: Option<String> }
}

// A ball's own parameters (`BallParams::PER_BALL`), and `g` to refuse by name.
with_ball_params! {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    RawBall {
        id: String,
        r: Vec<f64>,
        v: Option<Vec<f64>>,
        w: Option<Vec<f64>>,
        state: Option<String>,
    }
}

/// `table = "name"` or an explicit `[table]` (deserialized as [`Table`], which denies unknown
/// fields at every level).
pub(crate) enum TableSpec {
    Name(String),
    Explicit(Table),
}

impl<'de> Deserialize<'de> for TableSpec {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        pub(crate) struct V;
        impl<'de> Visitor<'de> for V {
            type Value = TableSpec;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a built-in table name (string) or a [table] with name, length, width, cushions, pockets")
            }
            fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<TableSpec, E> {
                Ok(TableSpec::Name(s.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<TableSpec, A::Error> {
                Table::deserialize(serde::de::value::MapAccessDeserializer::new(map))
                    .map(TableSpec::Explicit)
            }
        }
        d.deserialize_any(V)
    }
}
