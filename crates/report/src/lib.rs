//! What a run of the harness shows: the plots (PNG + SVG figures, animation frames) and the
//! Markdown reports, drawn from the rows `pool-harness` computes.
//!
//! Everything here is a function of data already computed: nothing runs an engine. Plot
//! functions write their files (`<stem>.png` and `<stem>.svg`, a GIF, a PNG frame) to the path
//! they are given; the Markdown is returned as a string for the caller to write.
#![warn(missing_docs)]

pub mod compare;
pub mod files;
pub mod html;
pub mod md;
pub mod plots;
pub mod roots;
