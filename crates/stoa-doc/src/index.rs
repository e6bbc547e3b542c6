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

use crate::{Chapter, Role};

/// A span in a post marking an index term.
pub const MARK_ROLE: &str = "index-mark";
/// The attribute of a mark naming its entry: `state!keyed`.
pub const KEY: &str = "key";
/// The attribute of a mark sending the reader to another entry.
pub const SEE: &str = "see";
/// The attribute of a mark naming a related entry.
pub const SEE_ALSO: &str = "see-also";
/// The attribute of a mark whose place is a range; its one value is
/// [`RANGE_SECTION`].
pub const RANGE: &str = "range";
/// The range from the mark to the end of the section that holds it.
pub const RANGE_SECTION: &str = "section";
/// The empty span where a range ends, after the section's last text.
pub const RANGE_END_ROLE: &str = "index-range-end";
/// The suffix of the id of a range's end, after the mark's id.
pub const RANGE_END_SUFFIX: &str = "-end";
/// The index chapter.
pub const INDEX_ROLE: &str = "index";
/// The entries under one letter.
pub const GROUP_ROLE: &str = "index-group";
/// A list of entries (or of one entry's sub-entries).
pub const LIST_ROLE: &str = "index-entry-list";
/// One entry.
pub const ENTRY_ROLE: &str = "index-entry";
/// The words of an entry.
pub const TERM_ROLE: &str = "index-term";
/// An entry's locators, each after `, `: the PDF and the EPUB print a
/// page once however many places it holds.
pub const LOCATORS_ROLE: &str = "index-locators";
/// A locator: a span around a link to the place (two for a range).
pub const LOCATOR_ROLE: &str = "index-locator";
/// "See": the entry to look under instead.
pub const SEE_ROLE: &str = "index-xref-preferred";
/// "See also": a related entry.
pub const SEE_ALSO_ROLE: &str = "index-xref-related";

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

/// The EPUB structural semantics of an element of the index: its role's
/// name, which is the EPUB Indexes vocabulary's (the marks have none).
pub fn epub_type(role: &str) -> Option<&'static str> {
    [
        GROUP_ROLE,
        LIST_ROLE,
        ENTRY_ROLE,
        TERM_ROLE,
        LOCATOR_ROLE,
        SEE_ROLE,
        SEE_ALSO_ROLE,
    ]
    .into_iter()
    .find(|r| *r == role)
}
