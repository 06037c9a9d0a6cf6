//! The study itself: its options and plan ([`study`]), one shot under its rules ([`shot`]), the
//! runner that plays shots and tallies their rows ([`runner`]), the sequential looks
//! ([`looks`]), the dt ladder's search ([`search`]), the answer per cell ([`answer`]), the
//! checks of rows read back ([`row_check`]) and the decision rule's own calibration
//! ([`calibration`]).

pub mod answer;
pub mod calibration;
pub mod looks;
pub mod row_check;
pub mod runner;
pub mod search;
pub mod shot;
pub mod study;
