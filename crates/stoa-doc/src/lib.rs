//! The stoa document tree: books, chapters, blocks and inlines.
//! Parsers build it, plugins transform it, renderers read it; it carries no host concerns.

mod diag;
mod notes;
mod tree;
mod walk;

pub use diag::{Diagnostic, Severity};
pub use notes::{FOOTNOTES_KEY, collects_notes, note_mode};
pub use serde_json;
pub use tree::*;
pub use walk::{inline_text, inlines_text, walk_blocks_mut, walk_inlines_mut};

/// Version of the tree's serialized form. Bumped on every incompatible change,
/// so that a plugin built against another version is refused, not misread.
pub const TREE_VERSION: u32 = 1;
