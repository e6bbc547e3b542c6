//! The stoa document tree: books, chapters, blocks and inlines, with what
//! every renderer reads once: roles, the notes plan, the id index, one traversal.

pub mod compat;
mod depth;
mod diag;
pub mod escape;
mod ids;
pub mod index;
mod index_names;
mod labels;
mod notes;
mod page_ref;
mod role;
mod token;
mod tree;
mod walk;
pub mod words;
pub mod xref;

pub use depth::{MAX_TREE_DEPTH, check_depth, tree_depth};
pub use diag::{Diagnostic, Severity};
pub use ids::{IdIndex, LinkTarget};
pub use labels::Labels;
pub use notes::{ChapterNotes, Note, NotesPlan, Placement};
pub use page_ref::{PAGE_REF_ROLE, page_ref_url};
pub use role::{
    BIBLIOENTRY_ROLE, BIBLIOGRAPHY_ROLE, Format, NoteNumbering, NotePlacement, NoteStyle, Role,
};
pub use serde_json;
pub use token::{TOKEN_CLASS, TOKEN_ROLE, at_token, is_token, push_text_lines, token_pieces};
pub use tree::*;
pub use walk::{
    FnVisitor, Visitor, Walk, for_each_block, for_each_inline, inline_text, inlines_text, visit,
    visit_inlines, walk_blocks_mut, walk_inlines_mut,
};

/// The breaking part of the tree's version (its major). A plugin built
/// against another major is refused, not misread. The number on the wire
/// (`tree_version` of every hook input) is this major.
pub const TREE_VERSION: u32 = 1;

/// The compatible part of the tree's version (its minor): bumped when the
/// tree gains a field, a role, a block kind or a format. A plugin built
/// against an older minor of the same major keeps working: the host lowers
/// what it would not understand ([`compat`]).
pub const TREE_MINOR: u32 = 2;

/// The tree version as a plugin descriptor's `tree_version` field holds it:
/// the major in the low 16 bits and the minor above, so that a plugin built
/// before minors existed (which says `1`) reads as 1.0.
pub const fn tree_version_code(major: u32, minor: u32) -> u32 {
    (minor << 16) | (major & 0xffff)
}

/// The major and minor packed in a descriptor's `tree_version`.
pub const fn split_tree_version(code: u32) -> (u32, u32) {
    (code & 0xffff, code >> 16)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A book with nothing in it, for tests to fill.
    pub(crate) fn empty_book() -> Book {
        Book {
            version: TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: BookMeta::default(),
            labels: Labels::default(),
            chapters: Vec::new(),
            assets: Vec::new(),
            styles: Vec::new(),
            print: Print::default(),
        }
    }

    #[test]
    fn a_version_one_plugin_reads_as_one_point_zero() {
        assert_eq!(split_tree_version(1), (1, 0));
        assert_eq!(split_tree_version(tree_version_code(1, 1)), (1, 1));
        assert_eq!(tree_version_code(1, 0), 1);
    }
}
