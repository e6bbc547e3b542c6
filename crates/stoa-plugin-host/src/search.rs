//! Where plugins are looked for, and under which file names.

use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The folders searched for plugins, in order; the first match wins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchPath {
    dirs: Vec<PathBuf>,
}

impl SearchPath {
    /// A search path of exactly these folders, in this order (duplicates
    /// dropped, first kept).
    pub fn new(dirs: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut unique: Vec<PathBuf> = Vec::new();
        for dir in dirs {
            if !dir.as_os_str().is_empty() && !unique.contains(&dir) {
                unique.push(dir);
            }
        }
        SearchPath { dirs: unique }
    }

    /// The standard order for one book: `--plugin-dir` options, then the
    /// folders of `STOA_PLUGIN_PATH` (its value, as [`Self::from_env_var`]
    /// reads it), then the book's `plugin-dir` (already resolved against the
    /// book's folder), then the folder of the stoa executable.
    pub fn standard(
        cli_dirs: &[PathBuf],
        env_value: Option<&OsStr>,
        book_dir: Option<&Path>,
        exe_dir: Option<&Path>,
    ) -> Self {
        let env_dirs = env_value.map(|v| Self::from_env_var(v).dirs);
        let dirs = cli_dirs
            .iter()
            .cloned()
            .chain(env_dirs.into_iter().flatten());
        let rest = book_dir.into_iter().chain(exe_dir).map(Path::to_path_buf);
        SearchPath::new(dirs.chain(rest))
    }

    /// The folders of a `STOA_PLUGIN_PATH` value: separated by `:` (`;` on
    /// Windows), empty entries ignored. The caller reads the variable.
    pub fn from_env_var(value: &OsStr) -> Self {
        SearchPath::new(std::env::split_paths(value))
    }

    /// The folder of the running executable, where bundled plugins sit.
    pub fn current_exe_dir() -> Option<PathBuf> {
        std::env::current_exe()
            .ok()?
            .parent()
            .map(Path::to_path_buf)
    }

    /// The folders, in search order.
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }
}

/// True for a name a plugin may have: ASCII letters, digits, `-` and `_`.
/// Anything else (a `/`, a `..`) could reach outside the search path.
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The file names plugin `name` may have, preferred first: cargo turns the
/// package `stoa-plugin-foo-bar` into `libstoa_plugin_foo_bar.so`.
pub(crate) fn file_names(name: &str) -> Vec<String> {
    let snake = name.replace('-', "_");
    let mut names = vec![format!("{DLL_PREFIX}stoa_plugin_{snake}{DLL_SUFFIX}")];
    names.push(format!("{DLL_PREFIX}stoa_plugin_{name}{DLL_SUFFIX}"));
    names.push(format!("{DLL_PREFIX}{snake}{DLL_SUFFIX}"));
    names.push(format!("{DLL_PREFIX}{name}{DLL_SUFFIX}"));
    names.dedup();
    names
}

/// The plugin name in a file name of the `libstoa_plugin_<name>.so` form.
pub(crate) fn name_of_file(file_name: &str) -> Option<&str> {
    let rest = file_name.strip_prefix(DLL_PREFIX)?;
    let name = rest
        .strip_prefix("stoa_plugin_")?
        .strip_suffix(DLL_SUFFIX)?;
    is_valid_name(name).then_some(name)
}

/// Plugin names are compared with `-` and `_` alike, as cargo does.
pub(crate) fn same_name(a: &str, b: &str) -> bool {
    a.replace('-', "_") == b.replace('-', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_order_is_cli_env_book_exe() {
        let env = std::env::join_paths(["/e1", "", "/e2"]).unwrap();
        let s = SearchPath::standard(
            &["/cli".into(), "/e1".into()],
            Some(&env),
            Some(Path::new("/book/plugins")),
            Some(Path::new("/bin")),
        );
        let dirs: Vec<_> = s.dirs().iter().map(|d| d.to_str().unwrap()).collect();
        assert_eq!(dirs, ["/cli", "/e1", "/e2", "/book/plugins", "/bin"]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn file_names_follow_cargo() {
        assert_eq!(
            file_names("foo-bar"),
            [
                "libstoa_plugin_foo_bar.so",
                "libstoa_plugin_foo-bar.so",
                "libfoo_bar.so",
                "libfoo-bar.so"
            ]
        );
        assert_eq!(name_of_file("libstoa_plugin_glossary.so"), Some("glossary"));
        assert_eq!(name_of_file("libother.so"), None);
    }

    #[test]
    fn names_cannot_leave_the_folder() {
        assert!(is_valid_name("foot-notes_2"));
        for bad in ["", "../x", "a/b", "a.b", "é"] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }
}
