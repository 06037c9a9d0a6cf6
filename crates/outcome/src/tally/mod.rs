//! The study's rows, one per shot and run (`outcomes/shots.csv`, [`rows`]), and their tallies:
//! the changed-outcome rates ([`changes`]) and the games' distributions ([`distribution`]).

pub mod changes;
pub mod distribution;
pub mod rows;
