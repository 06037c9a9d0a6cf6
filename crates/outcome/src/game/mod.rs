//! What a run decided and what the games make of it: the outcome of one run ([`outcome`]),
//! whether two runs decided alike ([`agreement`]), the families of shots by name ([`family`])
//! and as set-ups ([`families`]), the chaos floor's perturbation ([`perturb`]), the games'
//! rules ([`ruleset`]) and the statistics their distributions are judged by ([`statistic`]).

pub mod agreement;
pub mod families;
pub mod family;
pub mod outcome;
pub mod perturb;
pub mod ruleset;
pub mod statistic;
