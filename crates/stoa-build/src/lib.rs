//! The build driver: finds the books, loads every edition, renders each
//! format in parallel with rayon and writes the artifacts atomically.

mod output;
mod plan;
mod translations;

pub use output::write_atomically;
pub use plan::{Artifact, BuildOptions, Event, Format, Report, build};
