//! Drill-down replays of the shots whose outcome an engine changed: which shots to replay
//! ([`pick`]) and the replays themselves, tracks and events (`outcomes/replays.json`,
//! [`shot`]).

pub mod pick;
pub mod shot;
