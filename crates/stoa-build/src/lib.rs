//! The build driver: finds the books, loads every edition, renders each
//! format in parallel with rayon and writes the artifacts atomically.

mod builtin;
mod check;
mod diagnostics;
mod guard;
mod note_calls;
mod output;
mod plan;
mod plugins;
mod session;
mod site;
mod translations;

pub use builtin::{builtin_plugin, builtin_plugins};
pub use check::{Depth, check};
pub use guard::{LOCK_FILE, OutputLock, interrupt, is_leftover, remove_leftovers};
pub use output::write_atomically;
pub use plan::{Artifact, BuildOptions, Event, Format, Report, Sink, build};
pub use plugins::plugin_search;
pub use session::Session;
