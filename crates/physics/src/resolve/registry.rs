//! Laws registered at run time by name, beside the built-in ones: how a program using this
//! crate (or a test) adds a law without editing it.

use std::sync::{Arc, RwLock};

use super::spec::{LawError, LawSpec};

/// Builds a registered law from its spec (checking its parameters).
pub type Builder<T> = fn(&LawSpec) -> Result<Arc<T>, LawError>;

/// The laws of one event type registered at run time.
pub(crate) struct Registry<T: ?Sized + 'static> {
    entries: RwLock<Vec<(&'static str, Builder<T>)>>,
}

impl<T: ?Sized + 'static> Registry<T> {
    pub const fn new() -> Self {
        Registry {
            entries: RwLock::new(Vec::new()),
        }
    }

    /// Registers `name`; refused when a built-in or registered law has that name.
    pub fn add(
        &self,
        event_type: &str,
        name: &'static str,
        builtin: &[&str],
        build: Builder<T>,
    ) -> Result<(), LawError> {
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        if builtin.contains(&name) || entries.iter().any(|(n, _)| *n == name) {
            return Err(LawError {
                param: "model".into(),
                value: format!("{name:?}"),
                why: format!("a {event_type} model of that name exists already"),
            });
        }
        entries.push((name, build));
        Ok(())
    }

    /// The registered law `spec.model`, built from `spec`; `None` when no law has that name.
    pub fn build(&self, spec: &LawSpec) -> Option<Result<Arc<T>, LawError>> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        let build = entries.iter().find(|(n, _)| *n == spec.model)?.1;
        drop(entries);
        Some(build(spec))
    }

    /// Registered names, in registration order.
    pub fn names(&self) -> Vec<&'static str> {
        let entries = self.entries.read().unwrap_or_else(|e| e.into_inner());
        entries.iter().map(|(n, _)| *n).collect()
    }
}

/// Built-in names then registered ones, for error messages.
pub(crate) fn all_names(builtin: &[&str], registered: Vec<&'static str>) -> Vec<String> {
    builtin
        .iter()
        .copied()
        .chain(registered)
        .map(String::from)
        .collect()
}
