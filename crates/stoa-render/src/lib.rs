//! The renderer interface, in the spirit of mdBook's `Renderer`: the driver
//! knows output formats only through [`Renderer`]; each format is one crate.
//!
//! What every renderer needs and no renderer should compute for itself is
//! in the [`RenderContext`]: the notes plan, the id index, the cover.

use std::path::{Path, PathBuf};
pub use stoa_doc::Format;
use stoa_doc::{Book, Diagnostic, IdIndex, NotesPlan};

/// One edition (a book in one language), ready to render.
pub struct RenderContext<'a> {
    /// The book, plugins already applied.
    pub book: &'a Book,
    /// Every note numbered and placed, once for all formats.
    pub notes: &'a NotesPlan,
    /// Every id of the book, for links across chapters.
    pub ids: &'a IdIndex,
    /// The theme's folder (`themes/<name>/`): style sheets, Typst template, fonts.
    pub theme: &'a Path,
    /// The folders the book may read files from (its folder, the posts
    /// folder); an image outside them is refused.
    pub roots: &'a [PathBuf],
    /// The cover, drawn once per edition, as PNG; `None` when no renderer
    /// could draw one (or none was asked for).
    pub cover_png: Option<&'a [u8]>,
    /// Also return the intermediate sources (e.g. the generated Typst) for
    /// debugging a theme.
    pub emit_sources: bool,
    /// Where the print edition's pages begin, when the driver rendered the
    /// PDF of this edition first; the EPUB and the web edition mark those
    /// pages (page-list, page anchors). `None`: no page markers.
    pub pages: Option<&'a PageMap>,
    /// The same book in its other languages, rendered by the same build:
    /// the web edition links each chapter to the same chapter in them.
    pub alternates: &'a [Alternate],
}

/// Another language's edition of the same book, and the chapters it has.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Alternate {
    /// Its language tag, e.g. `pt-BR`.
    pub lang: String,
    /// The slugs of its chapters, sorted: a chapter links only to the
    /// editions that have it (a post may be untranslated).
    pub slugs: Vec<String>,
}

impl Alternate {
    /// Whether this edition has the chapter `slug`.
    pub fn has(&self, slug: &str) -> bool {
        self.slugs
            .binary_search_by(|s| s.as_str().cmp(slug))
            .is_ok()
    }
}

/// What a renderer made of one edition.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The artifact.
    pub output: Output,
    /// Intermediate sources asked for with [`RenderContext::emit_sources`],
    /// as (extension, bytes), written beside the artifact.
    pub sources: Vec<(String, Vec<u8>)>,
    /// What deserves a look but did not stop the rendering.
    pub warnings: Vec<Diagnostic>,
    /// For a paged format (the PDF): where each page begins, for the
    /// other formats' page markers.
    pub pages: Option<PageMap>,
}

/// A block of a chapter, by position: the chapter's index in the book and
/// the path of block indices inside it (`[]` is the chapter's opening,
/// `[4]` its fifth top-level block, `[4, 2]` the third block inside that
/// one). Every renderer walks the same tree, so positions agree.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct BlockKey {
    /// The chapter's index in [`Book::chapters`](stoa_doc::Book).
    pub chapter: usize,
    /// Indices of the blocks, outermost first.
    pub path: Vec<usize>,
}

impl BlockKey {
    /// The key of `path` in chapter `chapter`.
    pub fn new(chapter: usize, path: &[usize]) -> Self {
        BlockKey {
            chapter,
            path: path.to_vec(),
        }
    }

    /// The key as text (`3/4/2`), which a paged renderer can carry through
    /// its layout engine and [`BlockKey::parse`] reads back.
    pub fn to_text(&self) -> String {
        std::iter::once(self.chapter)
            .chain(self.path.iter().copied())
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join("/")
    }

    /// Reads [`BlockKey::to_text`]'s form; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let mut numbers = text.split('/').map(|n| n.parse::<usize>().ok());
        let chapter = numbers.next()??;
        let path = numbers.collect::<Option<Vec<_>>>()?;
        Some(BlockKey { chapter, path })
    }
}

/// Where each page of a paged edition begins, at block granularity: for
/// the first block that starts on a page, that page's label as the PDF
/// prints it (`1`, `41`). Pages that hold only the rest of a block that
/// began earlier have no entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageMap {
    starts: std::collections::BTreeMap<BlockKey, String>,
}

impl PageMap {
    /// Records that the page labelled `label` begins at `block`.
    pub fn insert(&mut self, block: BlockKey, label: String) {
        self.starts.insert(block, label);
    }

    /// The label of the page that begins at block `path` of `chapter`.
    pub fn page_at(&self, chapter: usize, path: &[usize]) -> Option<&str> {
        // Keys are small; building one per lookup keeps the API simple.
        self.starts
            .get(&BlockKey::new(chapter, path))
            .map(String::as_str)
    }

    /// Every page start, in book order.
    pub fn iter(&self) -> impl Iterator<Item = (&BlockKey, &str)> {
        self.starts.iter().map(|(k, v)| (k, v.as_str()))
    }

    /// The number of page starts.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Whether no page start is known.
    pub fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }
}

/// A rendered artifact: one file, or a folder of files.
#[derive(Debug)]
pub enum Output {
    /// One file, written as `<book>/<book>-<lang>.<format>`.
    File(Vec<u8>),
    /// A folder of files by relative path (`/`-separated, no `..`), written
    /// as `<book>/<lang>/`.
    Folder(Vec<(String, Vec<u8>)>),
}

impl Default for Output {
    fn default() -> Self {
        Output::File(Vec::new())
    }
}

impl Output {
    /// The artifact's size in bytes, all files counted.
    pub fn bytes(&self) -> u64 {
        match self {
            Output::File(bytes) => bytes.len() as u64,
            Output::Folder(files) => files.iter().map(|(_, b)| b.len() as u64).sum(),
        }
    }
}

/// An output format's writer. Implementations must be safe to call from
/// many threads at once (the driver renders editions in parallel) and must
/// never read outside the theme and the [`RenderContext::roots`].
pub trait Renderer: Sync {
    /// The format this renderer writes.
    fn format(&self) -> Format;

    /// Whether this renderer returns a [`PageMap`] in
    /// [`Rendered::pages`]: the driver then renders it before the others,
    /// which get the map in [`RenderContext::pages`].
    fn maps_pages(&self) -> bool {
        false
    }

    /// Renders one edition.
    fn render(&self, ctx: &RenderContext) -> Result<Rendered, Vec<Diagnostic>>;

    /// Whether this renderer can draw the book's cover ([`Renderer::cover_png`]).
    fn draws_covers(&self) -> bool {
        false
    }

    /// The cover, as PNG at `pixels_per_pt`; only called when
    /// [`Renderer::draws_covers`] says so. The context's `cover_png` is `None`.
    fn cover_png(
        &self,
        _ctx: &RenderContext,
        _pixels_per_pt: f32,
    ) -> Result<Vec<u8>, Vec<Diagnostic>> {
        Err(vec![Diagnostic::error(format!(
            "the {} renderer does not draw covers",
            self.format()
        ))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_keys_read_back_and_sort_in_book_order() {
        let key = BlockKey::new(3, &[4, 2]);
        assert_eq!(key.to_text(), "3/4/2");
        assert_eq!(BlockKey::parse("3/4/2"), Some(key.clone()));
        assert_eq!(BlockKey::parse("3"), Some(BlockKey::new(3, &[])));
        assert_eq!(BlockKey::parse("3/x"), None);
        assert_eq!(BlockKey::parse(""), None);
        let mut map = PageMap::default();
        map.insert(BlockKey::new(3, &[10]), "5".into());
        map.insert(key, "4".into());
        map.insert(BlockKey::new(3, &[]), "3".into());
        let labels: Vec<&str> = map.iter().map(|(_, l)| l).collect();
        assert_eq!(labels, ["3", "4", "5"]);
        assert_eq!(map.page_at(3, &[4, 2]), Some("4"));
        assert_eq!(map.page_at(3, &[4]), None);
    }
}
