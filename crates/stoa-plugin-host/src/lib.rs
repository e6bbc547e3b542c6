//! The stoa plugin host: finds plugin libraries on a search path, loads them
//! with libloading once per process, and calls their hooks through the C ABI;
//! and runs the plugins built into stoa the same way, minus the C boundary.
//!
//! # The API the build driver calls
//!
//! ```no_run
//! use std::path::PathBuf;
//! use stoa_plugin_host::{PluginRun, SearchPath, apply, load};
//! # fn run(book: stoa_sdk::Book, cli_dirs: Vec<PathBuf>) -> Result<(), Vec<stoa_sdk::Diagnostic>> {
//! let env = std::env::var_os("STOA_PLUGIN_PATH");
//! let exe_dir = SearchPath::current_exe_dir();
//! let book_dir = Some(PathBuf::from("books/essays/plugins")); // `plugin-dir`, resolved
//! let search = SearchPath::standard(&cli_dirs, env.as_deref(), book_dir.as_deref(), exe_dir.as_deref());
//! // One PluginRun per [plugins.<name>] table, in the order of book.toml.
//! let config = serde_json::json!({"word": "stoa"});
//! let plugin = load("example", &search).map_err(|d| vec![d])?;
//! let (book, warnings) = apply(&[PluginRun::new(plugin, config)], book)?;
//! # let _ = (book, warnings); Ok(()) }
//! ```
//!
//! - [`SearchPath`]: the folders searched, in order: `--plugin-dir`
//!   options, `STOA_PLUGIN_PATH`, the book's `plugin-dir`, then the plugins
//!   built into stoa ([`SearchPath::with_builtins`]), then the folder of the
//!   executable. Library code never reads the environment; the caller passes
//!   the variable's value.
//! - [`load`]: finds `libstoa_plugin_<name>.so` (`.dylib`,
//!   `stoa_plugin_<name>.dll`; also `lib<name>.so`) and checks its ABI and
//!   tree versions: the tree's major must be ours, its minor ours or older.
//!   Each file is loaded once per process and never unloaded.
//!   Errors name the plugin, the path or every folder looked in, and what to do.
//! - [`list`]: every plugin library on the search path, for `stoa plugins`.
//! - [`apply`]: runs plugins on one book in one language: `transform` on
//!   every chapter in parallel (on the caller's rayon pool), `finish`, then
//!   `styles` for each format the plugin knows into `book.styles`. A plugin
//!   of an older minor tree version is sent the tree lowered to its minor
//!   and never asked for a format newer than it. Plugin diagnostics carry
//!   the chapter's `source` as their file; any failure is an `Err` of
//!   diagnostics naming the plugin and its path, never a panic.
//!
//! - A `.wasm` file found where a library is looked for is a WebAssembly
//!   plugin: the same descriptor, hooks and JSON, run by wasmi in a fresh
//!   instance per call, with no access to anything but the host API, a
//!   budget of fuel per call ([`WasmLimits`], from `time-limit`) and a cap
//!   on its memory. A trap, or running out of either, fails the books that
//!   use it, with an error naming the plugin and the post.
//! - [`load_isolated`]: the same plugin, run in a child process instead
//!   (an [`Isolation`] says which program: `stoa plugin-host <library>`,
//!   which calls [`serve_isolated`]). [`apply`] then starts one child per
//!   call and sends it the same JSON as the C ABI over a pipe, each hook
//!   call under a time limit; a crash, an `exit` or a hang becomes an error
//!   naming the plugin, for that book only.
//!
//! # Trust
//!
//! A plugin is native code running inside stoa: loading it runs it. The host
//! defends against plugins that are *wrong* (not a library, another ABI,
//! bad JSON, panics caught by the SDK; crashes and hangs when isolated), not
//! against malicious ones: an isolated plugin still runs as the user. So a
//! native library found in a folder the *project* chose (a book's
//! `plugin-dir`) is loaded, isolated or not, only when the user trusts it
//! ([`Trust`]: by path and SHA-256 in a list outside the project, or every
//! library for one run); the folders the user names, the built-in plugins
//! and the executable's folder need no trust, nor does a WebAssembly
//! module, which runs sandboxed.

mod apply;
// A signal handler for native plugins that crash in process: unsafe by nature.
#[allow(unsafe_code)]
mod crash;
// The only unsafe code of the host: dlopen, the descriptor and hook calls.
#[allow(unsafe_code)]
mod ffi;
// The host API's C functions (and lending them): unsafe by nature.
#[allow(unsafe_code)]
mod host_api;
mod isolate;
mod load;
mod search;
mod trust;
// WebAssembly plugins, sandboxed by wasmi: safe code only.
mod wasm;
mod worker;

pub use apply::{PluginRun, PluginSession, Rewritten, apply};
pub use isolate::Isolation;
pub use load::{LoadedPlugin, PluginInfo, list, load, load_isolated, load_wasm};
pub use search::SearchPath;
pub use stoa_sdk::Hooks;
pub use stoa_sdk::abi::ABI_VERSION;
pub use trust::{Trust, sha256_file};
pub use wasm::{DEFAULT_MEMORY, FUEL_PER_SECOND, WasmLimits};
pub use worker::{serve_builtin, serve_isolated};
