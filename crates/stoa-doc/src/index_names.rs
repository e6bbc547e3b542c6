//! The names of the back-of-book index's roles and attributes, as
//! [`crate::index`] describes them: plain words, in a module of their own
//! below [`crate::Role`], which reads them for EPUB's structural semantics
//! (the index's module itself builds on the tree and its roles).

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
