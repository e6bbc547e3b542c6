//! The one index of the book's ids, so that a `#id` link reaches an id in
//! another chapter in every format.

use crate::walk::{FnVisitor, Walk, visit};
use crate::{Block, Book, Inline};
use std::collections::HashMap;

/// Every id a reader can be sent to, with the chapters (by index) that hold
/// it, in reading order: each chapter's slug (the chapter itself), heading
/// ids, and the `id` attributes of containers. Ids inside note definitions
/// are left out: a note is printed where the notes plan puts it, and an
/// unreferenced one not at all.
#[derive(Debug, Default)]
pub struct IdIndex {
    chapters: HashMap<String, Vec<usize>>,
}

/// Where a link goes, in terms every renderer can write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkTarget<'u> {
    /// Not a fragment: a web address, kept as written.
    External(&'u str),
    /// An id in the chapter the link is in.
    Here(&'u str),
    /// An id in another chapter, by index.
    Chapter {
        /// The chapter's index in the book.
        chapter: usize,
        /// The id.
        id: &'u str,
    },
    /// A fragment that no chapter has: renderers print the link's text.
    Missing(&'u str),
}

impl IdIndex {
    /// The ids of every chapter of `book`.
    pub fn of(book: &Book) -> Self {
        let mut index = IdIndex::default();
        for (i, chapter) in book.chapters.iter().enumerate() {
            index.add(&chapter.slug, i);
            let ids = std::cell::RefCell::new(Vec::new());
            visit(
                &chapter.blocks,
                &mut FnVisitor {
                    on_block: |block: &Block| match block {
                        Block::FootnoteDef { .. } => Walk::Skip,
                        Block::Heading { id, .. } => {
                            ids.borrow_mut().push(id.clone());
                            Walk::Continue
                        }
                        Block::Div { attrs, .. } => {
                            ids.borrow_mut().extend(attrs.get("id").cloned());
                            Walk::Continue
                        }
                        _ => Walk::Continue,
                    },
                    on_inline: |inline: &Inline| {
                        if let Inline::Span { attrs, .. } = inline {
                            ids.borrow_mut().extend(attrs.get("id").cloned());
                        }
                        Walk::Continue
                    },
                },
            );
            for id in ids.into_inner() {
                index.add(&id, i);
            }
        }
        index
    }

    fn add(&mut self, id: &str, chapter: usize) {
        if id.is_empty() {
            return;
        }
        // Chapters are added in order: the list stays sorted, and a repeat
        // can only be the last (a full scan made an id that every chapter
        // has, such as a common heading, cost chapters squared).
        let chapters = self.chapters.entry(id.to_string()).or_default();
        if chapters.last() != Some(&chapter) {
            chapters.push(chapter);
        }
    }

    /// Every id of the book, in no order: the candidates of a "did you
    /// mean".
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.chapters.keys().map(String::as_str)
    }

    /// The chapters holding `id`, in reading order.
    pub fn chapters_of(&self, id: &str) -> &[usize] {
        self.chapters.get(id).map_or(&[], Vec::as_slice)
    }

    /// Where `url`, written in chapter `from`, leads: a `#id` in this
    /// chapter stays here, one elsewhere goes to the first chapter that has
    /// it, and one that no chapter has is [`LinkTarget::Missing`].
    pub fn resolve<'u>(&self, url: &'u str, from: usize) -> LinkTarget<'u> {
        let Some(id) = url.strip_prefix('#') else {
            return LinkTarget::External(url);
        };
        let chapters = self.chapters_of(id);
        if chapters.binary_search(&from).is_ok() {
            LinkTarget::Here(id)
        } else if let Some(&chapter) = chapters.first() {
            LinkTarget::Chapter { chapter, id }
        } else {
            LinkTarget::Missing(id)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Attrs, Chapter};

    fn chapter(slug: &str, blocks: Vec<Block>) -> Chapter {
        Chapter {
            slug: slug.into(),
            blocks,
            ..Chapter::default()
        }
    }

    #[test]
    fn links_resolve_here_elsewhere_or_nowhere() {
        let mut attrs = Attrs::new();
        attrs.insert("id".into(), "term".into());
        let book = Book {
            chapters: vec![
                chapter(
                    "a",
                    vec![Block::Heading {
                        level: 2,
                        id: "intro".into(),
                        content: vec![],
                    }],
                ),
                chapter(
                    "b",
                    vec![
                        Block::Div {
                            role: None,
                            class: "x".into(),
                            attrs,
                            blocks: vec![],
                        },
                        Block::FootnoteDef {
                            label: "1".into(),
                            blocks: vec![Block::Heading {
                                level: 2,
                                id: "in-note".into(),
                                content: vec![],
                            }],
                        },
                    ],
                ),
            ],
            ..crate::tests::empty_book()
        };
        let ids = IdIndex::of(&book);
        assert_eq!(ids.resolve("#intro", 0), LinkTarget::Here("intro"));
        assert_eq!(
            ids.resolve("#term", 0),
            LinkTarget::Chapter {
                chapter: 1,
                id: "term"
            }
        );
        assert_eq!(
            ids.resolve("#b", 0),
            LinkTarget::Chapter {
                chapter: 1,
                id: "b"
            }
        );
        assert_eq!(ids.resolve("#in-note", 1), LinkTarget::Missing("in-note"));
        assert_eq!(
            ids.resolve("https://x.org", 0),
            LinkTarget::External("https://x.org")
        );
    }
}
