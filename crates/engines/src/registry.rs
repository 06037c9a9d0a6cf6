//! Engines registered at run time, beside the built-in ones: how a program using this crate (or
//! a test) adds an engine to every command without editing it.

use std::sync::RwLock;

use pool_sim::Engine;

use crate::RunOptions;

/// Builds a registered engine from the arguments of its spec (the text after
/// `<family>:`, possibly empty) and the run options; `Err` explains what is wrong with them.
pub type Builder = fn(&str, &RunOptions) -> Result<Box<dyn Engine>, String>;

static REGISTERED: RwLock<Vec<(&'static str, Builder)>> = RwLock::new(Vec::new());

/// Registers an engine family: from now on `<family>[:<args>]` parses as an
/// [`crate::EngineSpec::Registered`] and builds with `build`.
///
/// # Errors
/// `family` is a built-in family (`event`, `discrete`, `exec`, `pooltool`, `rapier`, a
/// peer's), taken already,
/// empty or contains `:`.
pub fn register(family: &'static str, build: Builder) -> Result<(), String> {
    let mut entries = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if family.is_empty()
        || family.contains(':')
        || [
            crate::EVENT,
            crate::DISCRETE,
            crate::EXEC,
            crate::POOLTOOL,
            crate::RAPIER,
        ]
        .contains(&family)
        || crate::Peer::from_name(family).is_some()
        || entries.iter().any(|(f, _)| *f == family)
    {
        return Err(format!(
            "engine family {family:?} is taken or not a name (no ':')"
        ));
    }
    entries.push((family, build));
    Ok(())
}

/// The registered families, in registration order.
pub fn registered() -> Vec<&'static str> {
    let entries = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    entries.iter().map(|(f, _)| *f).collect()
}

/// The builder of a registered family.
pub(crate) fn builder(family: &str) -> Option<Builder> {
    let entries = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    entries.iter().find(|(f, _)| *f == family).map(|(_, b)| *b)
}
