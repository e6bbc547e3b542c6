//! The build driver: finds the books, loads every edition, renders each
//! format in parallel with rayon and writes the artifacts atomically.

mod guard;
mod output;
mod plan;
mod plugins;
mod translations;

pub use guard::{LOCK_FILE, OutputLock, interrupt, is_leftover, remove_leftovers};
pub use output::write_atomically;
pub use plan::{Artifact, BuildOptions, Event, Format, Report, build};
