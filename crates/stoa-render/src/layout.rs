//! How an edition's posts are grouped into parts and where each one opens
//! on the printed page: decided once by the book loader (book.toml's
//! `[[parts]]` and `opening`, a post's front matter) and read by every
//! renderer. It travels beside the document tree, not in it, so that the
//! plugins' wire format stays as it is: a part is a reader's way through
//! the book, not content a plugin transforms.

use std::collections::{BTreeMap, HashMap};
use stoa_doc::Chapter;

/// Where a post begins in the print edition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Opening {
    /// On a right-hand page (a recto), leaving the verso before it blank
    /// when the previous chapter ends on a recto: the classic book's rule.
    #[default]
    Right,
    /// On the next page, whichever side it is.
    Any,
    /// On the same page as the end of the previous post, after a section
    /// break: for short pieces that would waste a page each.
    RunOn,
}

impl Opening {
    /// The names book.toml and the front matter use, in this order.
    pub const NAMES: [&'static str; 3] = ["right", "any", "run-on"];

    /// Reads a name of [`Opening::NAMES`]; `None` for anything else.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "right" => Some(Opening::Right),
            "any" => Some(Opening::Any),
            "run-on" => Some(Opening::RunOn),
            _ => None,
        }
    }

    /// The name as book.toml writes it.
    pub fn name(self) -> &'static str {
        match self {
            Opening::Right => "right",
            Opening::Any => "any",
            Opening::RunOn => "run-on",
        }
    }
}

/// A part of the book: a title in the edition's language and its posts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Part {
    /// The part's title as printed (already smartened).
    pub title: String,
    /// The slugs of its posts, in reading order. A post the edition lacks
    /// (not translated) is simply not found among the chapters.
    pub slugs: Vec<String>,
}

/// The parts of an edition and the opening of each post.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// The parts, in reading order; empty when the book has none.
    pub parts: Vec<Part>,
    /// Each post's opening by slug; a chapter not listed opens on a recto.
    pub openings: BTreeMap<String, Opening>,
    /// Each post's `short-title` (front matter) by slug, for the PDF's
    /// running heads; a post not listed has none.
    pub short_titles: BTreeMap<String, String>,
}

/// A run of consecutive chapters that share a part (or share having none).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The part's index in [`Layout::parts`], or `None` for chapters
    /// outside any part (back matter, or every chapter of a book without
    /// parts).
    pub part: Option<usize>,
    /// The chapters' indices in the book, in order.
    pub chapters: Vec<usize>,
}

static EMPTY: Layout = Layout {
    parts: Vec::new(),
    openings: BTreeMap::new(),
    short_titles: BTreeMap::new(),
};

impl Layout {
    /// A layout with no parts, every post opening on a recto: the book as
    /// it was before parts existed, for renderers called without a loader.
    pub fn empty() -> &'static Layout {
        &EMPTY
    }

    /// The chapter `slug`'s short title, if its front matter gave one.
    pub fn short_title(&self, slug: &str) -> Option<&str> {
        self.short_titles.get(slug).map(String::as_str)
    }

    /// Where the chapter `slug` opens.
    pub fn opening(&self, slug: &str) -> Opening {
        self.openings.get(slug).copied().unwrap_or_default()
    }

    /// The part of each chapter of the book (its index in
    /// [`Layout::parts`]), by chapter index: computed once per edition,
    /// so that a page per chapter needs no search.
    pub fn part_of_chapters(&self, chapters: &[Chapter]) -> Vec<Option<usize>> {
        let mut out = vec![None; chapters.len()];
        for group in self.groups(chapters) {
            for &i in &group.chapters {
                out[i] = group.part;
            }
        }
        out
    }

    /// The chapters of the book grouped by part, in reading order: what a
    /// table of contents nests. A part none of whose posts is in this
    /// edition has no group.
    pub fn groups(&self, chapters: &[Chapter]) -> Vec<Group> {
        let part_of: HashMap<&str, usize> = self
            .parts
            .iter()
            .enumerate()
            .flat_map(|(i, p)| p.slugs.iter().map(move |s| (s.as_str(), i)))
            .collect();
        let mut groups: Vec<Group> = Vec::new();
        for (index, chapter) in chapters.iter().enumerate() {
            let part = part_of.get(chapter.slug.as_str()).copied();
            match groups.last_mut() {
                Some(last) if last.part == part => last.chapters.push(index),
                _ => groups.push(Group {
                    part,
                    chapters: vec![index],
                }),
            }
        }
        groups
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chapter(slug: &str) -> Chapter {
        Chapter {
            slug: slug.into(),
            title: slug.into(),
            ..Chapter::default()
        }
    }

    #[test]
    fn names_read_back() {
        for name in Opening::NAMES {
            assert_eq!(Opening::parse(name).map(Opening::name), Some(name));
        }
        assert_eq!(Opening::parse("left"), None);
        assert_eq!(Opening::default(), Opening::Right);
    }

    #[test]
    fn chapters_group_by_part_and_back_matter_stays_outside() {
        let layout = Layout {
            parts: vec![
                Part {
                    title: "One".into(),
                    slugs: vec!["a".into(), "b".into()],
                },
                Part {
                    title: "Empty here".into(),
                    slugs: vec!["untranslated".into()],
                },
                Part {
                    title: "Two".into(),
                    slugs: vec!["c".into()],
                },
            ],
            openings: [("c".to_string(), Opening::RunOn)].into(),
            short_titles: BTreeMap::new(),
        };
        let chapters: Vec<Chapter> = ["a", "b", "c", "about", "glossary"]
            .into_iter()
            .map(chapter)
            .collect();
        let groups = layout.groups(&chapters);
        assert_eq!(
            groups,
            [
                Group {
                    part: Some(0),
                    chapters: vec![0, 1]
                },
                Group {
                    part: Some(2),
                    chapters: vec![2]
                },
                Group {
                    part: None,
                    chapters: vec![3, 4]
                },
            ]
        );
        assert_eq!(
            layout.part_of_chapters(&chapters),
            [Some(0), Some(0), Some(2), None, None]
        );
        assert_eq!(layout.opening("c"), Opening::RunOn);
        assert_eq!(layout.opening("a"), Opening::Right);
        assert!(Layout::empty().groups(&chapters).len() == 1);
    }
}
