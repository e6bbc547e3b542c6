//! The back-of-book index in the tree: the roles of its marks in the
//! posts and of the index chapter that stoa-index makes from them, which
//! every renderer reads (no renderer knows how the index was made).
//!
//! - In a post, an index term is a span of role [`MARK_ROLE`] around the
//!   words it marks (none for a mere place), with the entry in [`KEY`]
//!   (levels joined by `!`; the words themselves when absent), and
//!   [`SEE`] / [`SEE_ALSO`] for cross-references, and [`RANGE`] for a
//!   place that runs to the end of its section. stoa-index gives each an
//!   `id`, where its locators lead, and a range's end an empty span of
//!   role [`RANGE_END_ROLE`] with the id `<id>-end`.
//! - The index chapter (role [`INDEX_ROLE`]) holds a div per letter
//!   ([`GROUP_ROLE`], its letter in the `letter` attribute), each holding
//!   a list ([`LIST_ROLE`]) of entries ([`ENTRY_ROLE`]): a paragraph with
//!   the term ([`TERM_ROLE`]), its locators (in a [`LOCATORS_ROLE`] span,
//!   each a [`LOCATOR_ROLE`] span around one link after `, `, or two for
//!   a range: to the place and to its end) and cross-references
//!   ([`SEE_ROLE`], [`SEE_ALSO_ROLE`]), then the sub-entries' list.
//!
//! A locator's link text is the chapter's title: what a format without
//! print pages shows. The PDF prints the page it lays the place on; the
//! EPUB and the web edition the same page, from the PDF's page map.

// The names live below the tree's `Role`, which reads them for EPUB's
// structural semantics; they are the index's all the same.
pub use crate::index_names::*;
use crate::{Chapter, Role};

/// The index role of a container, if it has one.
pub fn role_name(role: Option<&Role>) -> Option<&str> {
    match role {
        Some(Role::Other(name)) if name.starts_with("index") => Some(name),
        _ => None,
    }
}

/// Whether `chapter` is the index.
pub fn is_index(chapter: &Chapter) -> bool {
    role_name(chapter.role.as_ref()) == Some(INDEX_ROLE)
}
