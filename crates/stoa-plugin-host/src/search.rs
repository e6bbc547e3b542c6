//! Where plugins are looked for, and under which file names.

use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use stoa_sdk::Diagnostic;
use stoa_sdk::builtin::BuiltinPlugin;

use crate::trust::Trust;

/// The folders searched for plugins, in order, and the plugins built into
/// stoa, searched before the folder of the executable; the first match wins.
#[derive(Clone, Debug, Default)]
pub struct SearchPath {
    dirs: Vec<PathBuf>,
    /// The plugins built in, by name.
    builtins: Vec<Arc<BuiltinPlugin>>,
    /// How many of `dirs` come before the built-ins: the folders an author
    /// names (`--plugin-dir`, `STOA_PLUGIN_PATH`, `plugin-dir`) override a
    /// built-in plugin; the executable's folder, where cargo leaves the
    /// bundled plugins' libraries of a development build, does not.
    builtins_at: usize,
    /// The folders the project chose (a book's `plugin-dir`) and the user
    /// did not name as well: a native library found there is loaded only
    /// when `trust` trusts it.
    project_dirs: Vec<PathBuf>,
    /// What the user trusts of the libraries in `project_dirs`.
    trust: Arc<Trust>,
}

impl PartialEq for SearchPath {
    fn eq(&self, other: &Self) -> bool {
        self.dirs == other.dirs
            && self.builtins_at == other.builtins_at
            && self.project_dirs == other.project_dirs
            && self.trust == other.trust
            && self.builtin_names().eq(other.builtin_names())
    }
}

impl Eq for SearchPath {}

/// Where a plugin was found.
#[derive(Clone, Debug)]
pub(crate) enum Place {
    /// A library file.
    File(PathBuf),
    /// Built into stoa.
    Builtin(Arc<BuiltinPlugin>),
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
        let builtins_at = unique.len();
        SearchPath {
            dirs: unique,
            builtins: Vec::new(),
            builtins_at,
            project_dirs: Vec::new(),
            trust: Arc::default(),
        }
    }

    /// A search path of one folder that a project chose (a book's
    /// `plugin-dir`): its native libraries need the user's trust (see
    /// [`Self::with_trust`]); trusted by nobody until then.
    pub fn project(dir: PathBuf) -> Self {
        let mut search = SearchPath::new([dir.clone()]);
        search.project_dirs.push(dir);
        search
    }

    /// The standard order for one book: `--plugin-dir` options, then the
    /// folders of `STOA_PLUGIN_PATH` (its value, as [`Self::from_env_var`]
    /// reads it), then the book's `plugin-dir` (already resolved against the
    /// book's folder), then the folder of the stoa executable. The book's
    /// folder is the project's choice: its native libraries need the
    /// user's trust ([`Self::with_trust`]) unless the user names the same
    /// folder too.
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
            .chain(env_dirs.into_iter().flatten())
            .chain(book_dir.map(Path::to_path_buf));
        let mut search = SearchPath::new(dirs);
        let named = search.dirs.len();
        search = SearchPath::new(
            search
                .dirs
                .into_iter()
                .chain(exe_dir.map(Path::to_path_buf)),
        );
        search.builtins_at = named;
        let user_named = |dir: &Path| {
            cli_dirs.iter().any(|d| same_dir(d, dir))
                || env_value.is_some_and(|v| std::env::split_paths(v).any(|d| same_dir(&d, dir)))
        };
        search.project_dirs = book_dir
            .filter(|dir| !user_named(dir))
            .map(Path::to_path_buf)
            .into_iter()
            .collect();
        search
    }

    /// The same search path with what the user trusts of the libraries a
    /// project brings.
    pub fn with_trust(mut self, trust: Arc<Trust>) -> Self {
        self.trust = trust;
        self
    }

    /// Ok when the file at `path`, found for plugin `name`, may be loaded:
    /// a WebAssembly module always (it runs sandboxed), a native library
    /// when it is not in a folder the project chose or the user trusts it.
    pub(crate) fn check_trust(&self, name: &str, path: &Path) -> Result<(), Diagnostic> {
        if is_wasm(path) || !self.is_from_project(path) {
            return Ok(());
        }
        self.trust.check(name, path)
    }

    /// True when `path` lies in a folder the project chose (a book's
    /// `plugin-dir` that the user did not name too).
    /// The path as found or as canonical: either way, a library the
    /// project brings is the project's.
    pub fn is_from_project(&self, path: &Path) -> bool {
        let canonical = |p: &Path| p.canonicalize().ok();
        self.project_dirs.iter().any(|dir| {
            path.starts_with(dir)
                || canonical(dir)
                    .zip(canonical(path))
                    .is_some_and(|(dir, path)| path.starts_with(dir))
        })
    }

    /// The same search path with `builtins` (plugins linked into stoa)
    /// searched after the folders an author names and before the folder of
    /// the executable (see [`Self::standard`]).
    pub fn with_builtins(mut self, builtins: impl IntoIterator<Item = Arc<BuiltinPlugin>>) -> Self {
        self.builtins = builtins.into_iter().collect();
        self
    }

    /// The names of the built-in plugins.
    pub fn builtin_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.builtins.iter().map(|b| b.name())
    }

    /// Every place, in search order: each folder, with the built-ins as a
    /// whole at their turn.
    pub(crate) fn places(&self) -> Vec<Option<&Path>> {
        let mut out: Vec<Option<&Path>> = Vec::new();
        for (i, dir) in self.dirs.iter().enumerate() {
            if i == self.builtins_at {
                out.push(None);
            }
            out.push(Some(dir));
        }
        if self.builtins_at >= self.dirs.len() {
            out.push(None);
        }
        out
    }

    /// The first place that has plugin `name`, among `candidates` file names.
    pub(crate) fn find(&self, name: &str, candidates: &[String]) -> Option<Place> {
        self.places().into_iter().find_map(|place| match place {
            Some(dir) => candidates
                .iter()
                .map(|file| dir.join(file))
                .find(|path| path.is_file())
                .map(Place::File),
            None => self
                .builtins
                .iter()
                .find(|b| same_name(b.name(), name))
                .cloned()
                .map(Place::Builtin),
        })
    }

    /// The built-in plugins, in their order.
    pub(crate) fn builtins(&self) -> &[Arc<BuiltinPlugin>] {
        &self.builtins
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

/// True when `a` and `b` name one folder: as written, or once canonical.
fn same_dir(a: &Path, b: &Path) -> bool {
    a == b
        || a.canonicalize()
            .ok()
            .zip(b.canonicalize().ok())
            .is_some_and(|(a, b)| a == b)
}

/// True for a name a plugin may have: ASCII letters, digits, `-` and `_`.
/// Anything else (a `/`, a `..`) could reach outside the search path.
pub(crate) fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The file names plugin `name` may have in a folder, preferred first:
/// cargo turns the package `stoa-plugin-foo-bar` into
/// `libstoa_plugin_foo_bar.so`; then a WebAssembly module
/// (`stoa_plugin_foo_bar.wasm`, `foo-bar.wasm`), also in a folder of the
/// plugin's name (`foo-bar/foo-bar.wasm`), as a plugin that ships files
/// beside it is laid out.
pub(crate) fn file_names(name: &str) -> Vec<String> {
    let snake = name.replace('-', "_");
    let mut names = vec![format!("{DLL_PREFIX}stoa_plugin_{snake}{DLL_SUFFIX}")];
    names.push(format!("{DLL_PREFIX}stoa_plugin_{name}{DLL_SUFFIX}"));
    names.push(format!("{DLL_PREFIX}{snake}{DLL_SUFFIX}"));
    names.push(format!("{DLL_PREFIX}{name}{DLL_SUFFIX}"));
    for file in [
        format!("stoa_plugin_{snake}.{WASM}"),
        format!("{name}.{WASM}"),
    ] {
        names.push(file.clone());
        names.push(format!("{name}/{file}"));
    }
    let mut seen = Vec::new();
    names.retain(|n| {
        let new = !seen.contains(n);
        seen.push(n.clone());
        new
    });
    names
}

/// The extension of a WebAssembly plugin.
const WASM: &str = "wasm";

/// True for a file the host runs as a WebAssembly module.
pub(crate) fn is_wasm(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == WASM)
}

/// The plugin name in a file name of the `libstoa_plugin_<name>.so` or
/// `stoa_plugin_<name>.wasm` form.
pub(crate) fn name_of_file(file_name: &str) -> Option<&str> {
    let name = match file_name.strip_suffix(".wasm") {
        Some(module) => module.strip_prefix("stoa_plugin_")?,
        None => file_name
            .strip_prefix(DLL_PREFIX)?
            .strip_prefix("stoa_plugin_")?
            .strip_suffix(DLL_SUFFIX)?,
    };
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
                "libfoo-bar.so",
                "stoa_plugin_foo_bar.wasm",
                "foo-bar/stoa_plugin_foo_bar.wasm",
                "foo-bar.wasm",
                "foo-bar/foo-bar.wasm",
            ]
        );
        assert_eq!(name_of_file("libstoa_plugin_glossary.so"), Some("glossary"));
        assert_eq!(
            name_of_file("stoa_plugin_reading_time_c.wasm"),
            Some("reading_time_c")
        );
        assert_eq!(name_of_file("other.wasm"), None);
        assert_eq!(name_of_file("libother.so"), None);
    }

    #[derive(Default)]
    struct Glossary;

    impl stoa_sdk::Plugin for Glossary {
        const NAME: &'static str = "glossary";
        const VERSION: &'static str = "9.9.9";
    }

    #[test]
    fn a_named_folder_overrides_a_builtin_and_the_exe_folder_does_not() {
        let tmp = std::env::temp_dir().join(format!("stoa-search-{}", std::process::id()));
        let (named, exe) = (tmp.join("named"), tmp.join("exe"));
        std::fs::create_dir_all(&named).unwrap();
        std::fs::create_dir_all(&exe).unwrap();
        let file = file_names("glossary").remove(0);
        std::fs::write(exe.join(&file), b"").unwrap();
        let search = SearchPath::standard(std::slice::from_ref(&named), None, None, Some(&exe))
            .with_builtins([Arc::new(stoa_sdk::builtin_plugin!(Glossary))]);
        let names = file_names("glossary");
        assert!(matches!(
            search.find("glossary", &names),
            Some(Place::Builtin(_))
        ));
        std::fs::write(named.join(&file), b"").unwrap();
        assert!(
            matches!(search.find("glossary", &names), Some(Place::File(p)) if p == named.join(&file))
        );
        assert!(search.find("other", &file_names("other")).is_none());
        assert_eq!(search.places().len(), 3, "named, built-ins, exe");
        std::fs::remove_dir_all(&tmp).unwrap();
    }

    #[test]
    fn the_books_folder_is_the_projects_unless_the_user_names_it_too() {
        let book = Path::new("/book/plugins");
        let lib = book.join("libstoa_plugin_x.so");
        let s = SearchPath::standard(&[], None, Some(book), Some(Path::new("/bin")));
        assert!(s.is_from_project(&lib));
        assert!(!s.is_from_project(Path::new("/bin/libstoa_plugin_x.so")));
        assert!(s.check_trust("x", &book.join("stoa_plugin_x.wasm")).is_ok());
        let error = s.check_trust("x", &lib).unwrap_err().to_string();
        assert!(
            error.contains("cannot be read"),
            "hashed before any load: {error}"
        );
        let named = SearchPath::standard(&[book.to_path_buf()], None, Some(book), None);
        assert!(!named.is_from_project(&lib));
        let env = std::env::join_paths(["/e", "/book/plugins"]).unwrap();
        let in_env = SearchPath::standard(&[], Some(&env), Some(book), None);
        assert!(!in_env.is_from_project(&lib));
    }

    #[test]
    fn names_cannot_leave_the_folder() {
        assert!(is_valid_name("foot-notes_2"));
        for bad in ["", "../x", "a/b", "a.b", "é"] {
            assert!(!is_valid_name(bad), "{bad}");
        }
    }
}
