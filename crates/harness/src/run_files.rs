//! Where the outcome study's files sit in a run directory (paths relative to it): every
//! writer and reader names them from here.

/// Every run of every shot, one row each ([`crate::OutcomeShotRow`]).
pub const SHOTS_CSV: &str = "outcomes/shots.csv";
/// Wall times per family and run ([`crate::WallRow`]).
pub const WALL_CSV: &str = "outcomes/wall.csv";
