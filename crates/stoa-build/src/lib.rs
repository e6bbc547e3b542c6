//! The build driver: finds the books, loads every edition, renders each
//! format in parallel with rayon and writes the artifacts atomically.

mod builtin;
mod cache;
mod check;
mod diagnostics;
mod guard;
mod incremental;
mod note_calls;
mod output;
mod plan;
mod plugin_assets;
mod plugins;
mod raw_check;
mod session;
mod site;
mod timings;
mod translations;

pub use builtin::{builtin_plugin, builtin_plugins};
pub use cache::CACHE_DIR;
pub use check::{Depth, check};
pub use guard::{LOCK_FILE, OutputLock, interrupt, is_leftover, remove_leftovers};
pub use output::write_atomically;
pub use plan::{Artifact, BuildOptions, Event, Format, Report, Sink, build, build_forced};
pub use plugins::plugin_search;
pub use session::Session;
