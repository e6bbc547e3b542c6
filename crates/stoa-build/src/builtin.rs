//! The plugins built into stoa: the bundled glossary, footnotes and
//! dialogue plugins, linked in so that one binary is the whole tool; and
//! the search path that finds them after the author's folders.
//!
//! They run in stoa's process through the same interface as a library's
//! hooks (the JSON of the C ABI, panics caught, see `stoa_sdk::builtin`),
//! and a library of the same name in a folder the author names
//! (`--plugin-dir`, `STOA_PLUGIN_PATH`, `plugin-dir`) overrides them.

use crate::options::BuildOptions;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use stoa_plugin_host::SearchPath;
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

/// Where a build with `options` looks for plugins: `--plugin-dir`,
/// `STOA_PLUGIN_PATH`, the book's `plugin-dir` (when `book_dir` is given),
/// then the plugins built into stoa, then the folder of the executable.
pub(crate) fn search_path(options: &BuildOptions, book_dir: Option<&Path>) -> SearchPath {
    plugin_search(
        &options.plugin_dirs,
        options.plugin_path.as_deref(),
        book_dir,
        options.exe_dir.as_deref(),
    )
    .with_trust(Arc::clone(&options.trust))
}

/// The plugin search path of a build: the folders `--plugin-dir` gives,
/// those of `STOA_PLUGIN_PATH` (`env_value`), a book's `plugin-dir`, then
/// the plugins built into stoa, then `exe_dir`. A library in a folder
/// before the built-ins overrides the built-in plugin of its name. A
/// native library in the book's `plugin-dir` loads only when trusted
/// (give the user's [`stoa_plugin_host::Trust`] with `with_trust`).
pub fn plugin_search(
    cli_dirs: &[PathBuf],
    env_value: Option<&OsStr>,
    book_dir: Option<&Path>,
    exe_dir: Option<&Path>,
) -> SearchPath {
    SearchPath::standard(cli_dirs, env_value, book_dir, exe_dir)
        .with_builtins(builtin_plugins().iter().cloned())
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
