//! The statistics of the outcome study, which know nothing of its rows or games: intervals
//! ([`interval`], [`rates`]), the betting confidence sequences ([`betting`]) and the energy
//! test ([`energy`]) they rest on, the levels and margins a claim is held to ([`levels`]), the
//! shot-by-shot comparison with the floor ([`shot_by_shot`]) and the verdicts ([`verdict`]).

pub mod betting;
pub mod energy;
pub mod interval;
pub mod levels;
pub mod rates;
pub mod shot_by_shot;
pub mod verdict;
