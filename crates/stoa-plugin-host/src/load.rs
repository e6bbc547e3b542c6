//! Finding a plugin by name, loading it once per process, and listing what
//! a search path holds.

use crate::ffi::{self, OpenError, RawPlugin};
use crate::isolate::{self, Isolation};
use crate::search::{self, Place, SearchPath};
use crate::wasm::{self, WasmOpenError, WasmPlugin};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use stoa_sdk::abi::{ABI_VERSION, ENTRY_SYMBOL};
use stoa_sdk::builtin::BuiltinPlugin;
use stoa_sdk::{Diagnostic, Hooks, TREE_MINOR, TREE_VERSION, split_tree_version};

/// A plugin library, loaded and checked: it speaks our ABI and reads our
/// tree's major version, at our minor or an older one. Shared between
/// threads; stays loaded until the process ends.
#[derive(Debug)]
pub struct LoadedPlugin {
    backend: Backend,
    path: PathBuf,
    name: String,
    version: String,
    tree_version: u32,
    hooks: Hooks,
    /// True for a plugin built into stoa (its `path` is then its name).
    builtin: bool,
}

/// Where a plugin's hooks run.
#[derive(Debug)]
pub(crate) enum Backend {
    /// In this process, through the C ABI.
    Native(RawPlugin),
    /// In this process, built into stoa: the same JSON, no C boundary.
    Builtin(Arc<BuiltinPlugin>),
    /// In a child process per book, started as this says.
    Isolated(Isolation),
    /// A WebAssembly module, in a fresh sandboxed instance per call.
    Wasm(WasmPlugin),
}

impl LoadedPlugin {
    /// The name the plugin gives itself (the `<name>` of `[plugins.<name>]`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The plugin's own version.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// True when its hooks run in a child process (see [`load_isolated`]).
    pub fn is_isolated(&self) -> bool {
        matches!(self.backend, Backend::Isolated(_))
    }

    /// True for a WebAssembly plugin (a `.wasm` file), run sandboxed.
    pub fn is_wasm(&self) -> bool {
        matches!(self.backend, Backend::Wasm(_))
    }

    /// The ABI version it speaks (always [`ABI_VERSION`] once loaded).
    pub fn abi_version(&self) -> u32 {
        ABI_VERSION
    }

    /// The tree version it reads, as (major, minor): the major is always
    /// [`TREE_VERSION`] once loaded, the minor at most [`TREE_MINOR`].
    pub fn tree_version(&self) -> (u32, u32) {
        split_tree_version(self.tree_version)
    }

    /// The minor tree version it reads; the host lowers the tree to it.
    pub fn tree_minor(&self) -> u32 {
        self.tree_version().1
    }

    /// The library file, canonical; for a built-in plugin, its name.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// True when the plugin is built into stoa rather than loaded from a file.
    pub fn is_builtin(&self) -> bool {
        self.builtin
    }

    /// Where the plugin comes from, for messages: its file, or "built in".
    pub fn origin(&self) -> String {
        if self.builtin {
            "built into stoa".to_string()
        } else {
            self.path.display().to_string()
        }
    }

    /// The hooks it provides.
    pub fn hooks(&self) -> Hooks {
        self.hooks
    }

    pub(crate) fn backend(&self) -> &Backend {
        &self.backend
    }

    /// A plugin value of the caller's, run in this process exactly as a
    /// built-in one is, never cached by name as [`load`] caches: for
    /// `stoa-plugin-testkit`, whose tests may run several values of one
    /// plugin (other settings of its constructor) in one process.
    pub fn in_process(plugin: BuiltinPlugin) -> Arc<LoadedPlugin> {
        Arc::new(LoadedPlugin::builtin(Arc::new(plugin)))
    }

    fn native(raw: RawPlugin, path: PathBuf) -> LoadedPlugin {
        LoadedPlugin {
            path,
            name: raw.name.clone(),
            version: raw.version.clone(),
            tree_version: raw.tree_version,
            hooks: raw.provides(),
            backend: Backend::Native(raw),
            builtin: false,
        }
    }

    fn wasm(plugin: WasmPlugin, path: PathBuf) -> LoadedPlugin {
        LoadedPlugin {
            path,
            name: plugin.name.clone(),
            version: plugin.version.clone(),
            tree_version: plugin.tree_version,
            hooks: plugin.provides(),
            backend: Backend::Wasm(plugin),
            builtin: false,
        }
    }

    fn builtin(plugin: Arc<BuiltinPlugin>) -> LoadedPlugin {
        LoadedPlugin {
            path: PathBuf::from(plugin.name()),
            name: plugin.name().to_string(),
            version: plugin.version().to_string(),
            tree_version: plugin.tree_version(),
            hooks: plugin.hooks(),
            builtin: true,
            backend: Backend::Builtin(plugin),
        }
    }
}

/// What `stoa plugins` shows about one library found on the search path.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PluginInfo {
    /// The plugin's name.
    pub name: String,
    /// The plugin's version.
    pub version: String,
    /// The ABI version it speaks.
    pub abi_version: u32,
    /// The hooks it provides.
    pub hooks: Hooks,
    /// The library file; for a built-in plugin, its name.
    pub path: PathBuf,
    /// True for a plugin built into stoa.
    pub builtin: bool,
    /// True when a plugin of the same name comes earlier on the search
    /// path, so that this one is never used.
    pub shadowed: bool,
}

/// Loads plugin `name` from the first folder of `search` that has it.
///
/// The error names the plugin, the path (or every folder looked in) and
/// what to do. Each library is loaded once per process; later calls return
/// the same value.
pub fn load(name: &str, search: &SearchPath) -> Result<Arc<LoadedPlugin>, Diagnostic> {
    if !search::is_valid_name(name) {
        return Err(
            Diagnostic::error(format!("`{name}` is not a valid plugin name"))
                .with_hint("a plugin name has only letters, digits, `-` and `_`"),
        );
    }
    match find(name, search)? {
        Place::File(path) => {
            search.check_trust(name, &path)?;
            load_path(name, &path)
        }
        Place::Builtin(plugin) => Ok(builtin(plugin)),
    }
}

/// The one [`LoadedPlugin`] of a built-in plugin, made once per process.
fn builtin(plugin: Arc<BuiltinPlugin>) -> Arc<LoadedPlugin> {
    static CACHE: OnceLock<Mutex<HashMap<&'static str, Arc<LoadedPlugin>>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    Arc::clone(
        cache
            .entry(plugin.name())
            .or_insert_with(|| Arc::new(LoadedPlugin::builtin(plugin))),
    )
}

/// Like [`load`], but the plugin's code never runs in this process: a child
/// process (`isolation`'s command with the library's path) loads it, says
/// what it holds, and serves the hooks of each book over its standard input
/// and output, in the JSON of the C ABI (see [`crate::serve_isolated`]). A
/// crash, an `exit` or a hook that overruns the time limit then fails only
/// the books that use the plugin, with an error naming it.
pub fn load_isolated(
    name: &str,
    search: &SearchPath,
    isolation: &Isolation,
) -> Result<Arc<LoadedPlugin>, Diagnostic> {
    let (path, isolation, builtin) = match find(name, search)? {
        // A process of its own is no sandbox: the library still runs as
        // the user, so it needs the same trust.
        Place::File(path) => {
            search.check_trust(name, &path)?;
            (
                path.canonicalize().unwrap_or(path),
                isolation.clone(),
                false,
            )
        }
        // The child serves the plugin built into it: `stoa plugin-host --builtin <name>`.
        Place::Builtin(plugin) => {
            let mut isolation = isolation.clone();
            isolation.args.push("--builtin".into());
            (PathBuf::from(plugin.name()), isolation, true)
        }
    };
    let isolation = &isolation;
    let key = (path.clone(), isolation.clone());
    static CACHE: OnceLock<Mutex<IsolatedCache>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(plugin) = cache.get(&key) {
        return check_name(name, plugin).map(|()| Arc::clone(plugin));
    }
    let hello = isolate::handshake(isolation, &path).map_err(|why| {
        Diagnostic::error(format!(
            "plugin `{name}` at {} could not be started in a process of its own: {why}",
            path.display()
        ))
        .with_hint(format!(
            "the plugin fails while loading: report it to its author, or remove              [plugins.{name}] from book.toml"
        ))
    })?;
    let plugin = Arc::new(LoadedPlugin {
        backend: Backend::Isolated(isolation.clone()),
        path: path.clone(),
        hooks: hello.hooks(),
        name: hello.name,
        version: hello.version,
        tree_version: hello.tree_version,
        builtin,
    });
    check_tree_version(&plugin)?;
    cache.insert(key, Arc::clone(&plugin));
    check_name(name, &plugin).map(|()| plugin)
}

type IsolatedCache = HashMap<(PathBuf, Isolation), Arc<LoadedPlugin>>;

/// The first place on the search path that holds plugin `name`.
fn find(name: &str, search: &SearchPath) -> Result<Place, Diagnostic> {
    let candidates = search::file_names(name);
    search
        .find(name, &candidates)
        .ok_or_else(|| not_found(name, &candidates, search))
}

/// Every plugin on the search path, in search order: the libraries (files
/// named `libstoa_plugin_<name>.so` and the like), each loaded to read its
/// descriptor, and the built-in plugins at their turn. A library that fails
/// to load is an `Err` entry.
pub fn list(search: &SearchPath) -> Vec<Result<PluginInfo, Diagnostic>> {
    let mut seen: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut shadowed = |name: &str| {
        let earlier = seen.iter().any(|s| search::same_name(s, name));
        seen.push(name.to_string());
        earlier
    };
    for place in search.places() {
        match place {
            Some(dir) => {
                for (name, path) in plugin_files(dir) {
                    let shadowed = shadowed(&name);
                    // Listing loads a library: one the project brings is
                    // loaded only when trusted, as a build would.
                    let loaded = search
                        .check_trust(&name, &path)
                        .and_then(|()| load_path(&name, &path));
                    out.push(loaded.map(|p| info(&p, shadowed)));
                }
            }
            None => {
                for plugin in search.builtins() {
                    let shadowed = shadowed(plugin.name());
                    out.push(Ok(info(&builtin(Arc::clone(plugin)), shadowed)));
                }
            }
        }
    }
    out
}

fn info(plugin: &LoadedPlugin, shadowed: bool) -> PluginInfo {
    PluginInfo {
        name: plugin.name().to_string(),
        version: plugin.version().to_string(),
        abi_version: plugin.abi_version(),
        hooks: plugin.hooks(),
        path: plugin.path().to_path_buf(),
        builtin: plugin.is_builtin(),
        shadowed,
    }
}

/// The plugin files in one folder, sorted by file name; a folder that does
/// not exist holds none.
fn plugin_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let file_name = entry.file_name().into_string().ok()?;
            let name = search::name_of_file(&file_name)?.to_string();
            entry.path().is_file().then(|| (name, entry.path()))
        })
        .collect();
    files.sort();
    files
}

/// Every library loaded so far, by canonical path. Never emptied: a plugin's
/// code must stay mapped while any value it made may still be in use, and
/// unloading Rust libraries is unsound besides (thread-local destructors).
fn cache() -> &'static Mutex<HashMap<PathBuf, Arc<LoadedPlugin>>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<LoadedPlugin>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// Loads the library at `path` as plugin `name`, or returns it from the cache.
fn load_path(name: &str, path: &Path) -> Result<Arc<LoadedPlugin>, Diagnostic> {
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    // Held while loading, so that two threads never open the same file twice.
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(plugin) = cache.get(&path) {
        return check_name(name, plugin).map(|()| Arc::clone(plugin));
    }
    let plugin = if search::is_wasm(&path) {
        let module = wasm::open(&path).map_err(|e| wasm_open_error(name, &path, e))?;
        Arc::new(LoadedPlugin::wasm(module, path.clone()))
    } else {
        let raw = ffi::open(&path).map_err(|e| open_error(name, &path, e))?;
        Arc::new(LoadedPlugin::native(raw, path.clone()))
    };
    check_tree_version(&plugin)?;
    cache.insert(path, Arc::clone(&plugin));
    check_name(name, &plugin).map(|()| plugin)
}

/// Loads the WebAssembly plugin in the `.wasm` file at `path`, whatever
/// its name (the test kit's `Kit::wasm`; a build finds plugins by name
/// with [`load`]). Cached by path, as [`load`] caches.
pub fn load_wasm(path: &Path) -> Result<Arc<LoadedPlugin>, Diagnostic> {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !search::is_wasm(path) || !path.is_file() {
        return Err(
            Diagnostic::error(format!("{} is not a `.wasm` file", path.display()))
                .with_hint("give the path of a WebAssembly plugin, e.g. stoa_plugin_<name>.wasm"),
        );
    }
    let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
    let mut cache = cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(plugin) = cache.get(&path) {
        return Ok(Arc::clone(plugin));
    }
    let module = wasm::open(&path).map_err(|e| wasm_open_error(&name, &path, e))?;
    let plugin = Arc::new(LoadedPlugin::wasm(module, path.clone()));
    check_tree_version(&plugin)?;
    cache.insert(path, Arc::clone(&plugin));
    Ok(plugin)
}

/// Another major is another tree; a newer minor may hold what this stoa
/// cannot give; an older minor is served a lowered tree (see `apply`).
fn check_tree_version(plugin: &LoadedPlugin) -> Result<(), Diagnostic> {
    let (major, minor) = plugin.tree_version();
    let at = format!("plugin `{}` at {}", plugin.name(), plugin.path().display());
    if major != TREE_VERSION {
        return Err(Diagnostic::error(format!(
            "{at} reads document tree version {major}; this stoa writes version {TREE_VERSION}"
        ))
        .with_hint(
            "rebuild the plugin against the stoa-sdk of this stoa, or get a matching release",
        ));
    }
    if minor > TREE_MINOR {
        return Err(Diagnostic::error(format!(
            "{at} reads document tree version {major}.{minor}, newer than this stoa's \
             {TREE_VERSION}.{TREE_MINOR}"
        ))
        .with_hint("upgrade stoa, or use a version of the plugin built for this one"));
    }
    Ok(())
}

/// A file found under one name must hold the plugin of that name, or its
/// `[plugins.<name>]` settings would go to another plugin.
fn check_name(name: &str, plugin: &LoadedPlugin) -> Result<(), Diagnostic> {
    if search::same_name(name, plugin.name()) {
        return Ok(());
    }
    Err(Diagnostic::error(format!(
        "the file {} found for plugin `{name}` holds plugin `{}`",
        plugin.path().display(),
        plugin.name()
    ))
    .with_hint(format!(
        "rename the file after the plugin it holds, or write [plugins.{}] in book.toml",
        plugin.name()
    )))
}

fn not_found(name: &str, candidates: &[String], search: &SearchPath) -> Diagnostic {
    let mut where_ = String::new();
    // In search order, the built-ins at their turn.
    for place in search.places() {
        match place {
            Some(dir) => where_.push_str(&format!("\n    {}", dir.display())),
            None => {
                let builtins: Vec<&str> = search.builtin_names().collect();
                if !builtins.is_empty() {
                    where_.push_str(&format!("\n    (built into stoa: {})", builtins.join(", ")));
                }
            }
        }
    }
    if where_.is_empty() {
        where_.push_str("\n    (no folder: the search path is empty)");
    }
    Diagnostic::error(format!(
        "plugin `{name}` not found; looked for {} in:{where_}",
        candidates.join(", ")
    ))
    .with_hint(
        "put the plugin's library in one of these folders, or add its folder with \
         --plugin-dir, STOA_PLUGIN_PATH or `plugin-dir` in book.toml",
    )
}

pub(crate) fn open_error(name: &str, path: &Path, e: OpenError) -> Diagnostic {
    let at = format!("plugin `{name}` at {}", path.display());
    let (message, hint) = match e {
        OpenError::NotALibrary(why) => (
            format!("{at} is not a shared library this system can load: {why}"),
            "rebuild the plugin as a `cdylib` for this platform, or remove the file".to_string(),
        ),
        OpenError::NoEntry {
            newer: Some(symbol),
        } => (
            format!(
                "{at} has no `{ENTRY_SYMBOL}` entry symbol, only `{symbol}`: it was built for a newer stoa"
            ),
            "upgrade stoa, or use a version of the plugin built for this one".to_string(),
        ),
        OpenError::NoEntry { newer: None } => (
            format!("{at} has no `{ENTRY_SYMBOL}` entry symbol, so it is not a stoa plugin"),
            "a Rust plugin calls `stoa_sdk::export_plugin!`; a C plugin defines \
             `stoa_plugin_v1` as stoa_plugin.h declares it"
                .to_string(),
        ),
        OpenError::NullDescriptor => (
            format!("{at} returned no descriptor from `{ENTRY_SYMBOL}`"),
            "the plugin failed while starting: report it to its author".to_string(),
        ),
        OpenError::AbiVersion(v) => (
            format!("{at} speaks plugin ABI version {v}; this stoa speaks version {ABI_VERSION}"),
            format!(
                "rebuild the plugin for ABI version {ABI_VERSION}, or use a stoa that speaks version {v}"
            ),
        ),
        OpenError::BadField(field) => (
            format!("{at} has a descriptor whose `{field}` is missing or not UTF-8"),
            "fix the plugin's descriptor (see stoa_plugin.h)".to_string(),
        ),
    };
    Diagnostic::error(message).with_hint(hint)
}

/// Why a `.wasm` file is not a plugin stoa can run, and what to do.
pub(crate) fn wasm_open_error(name: &str, path: &Path, e: WasmOpenError) -> Diagnostic {
    let at = format!("WebAssembly plugin `{name}` at {}", path.display());
    let hint = match &e {
        WasmOpenError::NotAModule(_) => {
            "rebuild it for wasm32-unknown-unknown (see docs/plugins.md, \"WebAssembly plugins\"), \
             or remove the file"
                .to_string()
        }
        WasmOpenError::Import(..) => "build it without WASI or a C library (for C: clang \
             --target=wasm32-unknown-unknown -nostdlib; for Rust: --target \
             wasm32-unknown-unknown); its only imports may be the host API's"
            .to_string(),
        WasmOpenError::Export(_) | WasmOpenError::NoEntry { newer: None } => "a Rust plugin calls \
             `stoa_sdk::export_plugin!`; a C plugin ends with `STOA_WASM_PLUGIN(...)` from \
             stoa_plugin.h"
            .to_string(),
        WasmOpenError::NoEntry { newer: Some(_) } => {
            "upgrade stoa, or use a version of the plugin built for this one".to_string()
        }
        WasmOpenError::AbiVersion(v) => format!(
            "rebuild the plugin for ABI version {ABI_VERSION}, or use a stoa that speaks version {v}"
        ),
        WasmOpenError::Descriptor(_) => {
            "the plugin failed while starting: report it to its author".to_string()
        }
    };
    let tail = match &e {
        WasmOpenError::AbiVersion(_) => format!("; this stoa speaks version {ABI_VERSION}"),
        WasmOpenError::NoEntry { newer: Some(_) } => ": it was built for a newer stoa".to_string(),
        WasmOpenError::NoEntry { newer: None } => ", so it is not a stoa plugin".to_string(),
        _ => String::new(),
    };
    Diagnostic::error(format!("{at} {e}{tail}")).with_hint(hint)
}
