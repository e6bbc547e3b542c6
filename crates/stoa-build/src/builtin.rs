//! The plugins built into stoa: the bundled glossary, footnotes and
//! dialogue plugins, linked in so that one binary is the whole tool.
//!
//! They run in stoa's process through the same interface as a library's
//! hooks (the JSON of the C ABI, panics caught, see `stoa_sdk::builtin`),
//! and a library of the same name in a folder the author names
//! (`--plugin-dir`, `STOA_PLUGIN_PATH`, `plugin-dir`) overrides them.

use std::sync::{Arc, OnceLock};
use stoa_sdk::builtin::BuiltinPlugin;

/// Every built-in plugin, in name order; made once per process.
pub fn builtin_plugins() -> &'static [Arc<BuiltinPlugin>] {
    static PLUGINS: OnceLock<Vec<Arc<BuiltinPlugin>>> = OnceLock::new();
    PLUGINS.get_or_init(|| {
        vec![
            // `builtin_plugin!` finds the hooks each type implements.
            Arc::new(stoa_sdk::builtin_plugin!(stoa_plugin_dialogue::Dialogue)),
            Arc::new(stoa_sdk::builtin_plugin!(stoa_plugin_footnotes::Footnotes)),
            Arc::new(stoa_sdk::builtin_plugin!(stoa_plugin_glossary::Glossary)),
        ]
    })
}

/// The built-in plugin `name`, if there is one.
pub fn builtin_plugin(name: &str) -> Option<&'static BuiltinPlugin> {
    builtin_plugins()
        .iter()
        .find(|p| p.name() == name)
        .map(|p| p.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_plugins_are_built_in_under_their_names() {
        let names: Vec<&str> = builtin_plugins().iter().map(|p| p.name()).collect();
        assert_eq!(names, ["dialogue", "footnotes", "glossary"]);
        assert!(builtin_plugin("glossary").is_some());
        assert!(builtin_plugin("example").is_none());
    }
}
