//! Where each printed page begins. The generated source puts a
//! [`PAGE_MARK`] metadata before every block the other formats can mark
//! (see `source.rs`); after layout, one query finds them all, in document
//! order, with their pages. The first mark on a page is where that page
//! begins, at block granularity.
//!
//! A page that begins inside a long paragraph has no mark of its own, and
//! none is added (a metadata between words could change how Typst shapes
//! and breaks the line). Instead the page's first word is traced back: each
//! glyph knows the span of the string literal it came from and its byte
//! offset in it; the generator recorded, for every literal of a marked
//! block's text, which block and which text position
//! ([`stoa_render::text_len`]) it starts at. So the page begins at that
//! block's position, exactly, at the start of the word.

use std::collections::HashMap;

use stoa_render::{BlockKey, PageMap, PageStart};
use typst::foundations::{Label, Selector, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::layout::{Frame, FrameItem, Point};
use typst::model::Numbering;
use typst::syntax::{Source, Span, ast};
use typst::text::TextItem;
use typst::utils::PicoStr;
use typst_layout::PagedDocument;

/// The label of the metadata that marks where a block begins; its value is
/// the block's [`stoa_render::BlockKey`] as text. After layout, the PDF
/// renderer reads on which page each landed (one query, linear).
pub(crate) const PAGE_MARK: &str = "stoa-page";

/// What the page map traces back from the layout: the string literals of
/// the generated source that hold the text of a marked block (so that a
/// glyph leads to a block and a text position), and the anchors of
/// elements with an id (whose pages the other formats' page references
/// print).
#[derive(Debug, Default)]
pub(crate) struct PageTraces {
    /// (Typst label, chapter index, id) of each anchor.
    anchors: Vec<(String, usize, String)>,
    /// The marked blocks, by index.
    blocks: Vec<BlockKey>,
    /// By byte offset of the literal's opening quote in the source
    /// (ascending, as the source is written front to back): the block's
    /// index and the text position of the literal's first character.
    runs: Vec<(usize, usize, usize)>,
}

impl PageTraces {
    /// Registers a marked block; its index, for [`PageTraces::push`].
    pub(crate) fn block(&mut self, key: BlockKey) -> usize {
        self.blocks.push(key);
        self.blocks.len() - 1
    }

    /// Records that the literal whose quote is at byte `at` of the source
    /// holds text of block `block` from text position `pos` on.
    pub(crate) fn push(&mut self, at: usize, block: usize, pos: usize) {
        self.runs.push((at, block, pos));
    }

    /// Records that the anchor labelled `label` marks the element `id` of
    /// chapter `chapter`.
    pub(crate) fn anchor(&mut self, label: String, chapter: usize, id: &str) {
        self.anchors.push((label, chapter, id.to_owned()));
    }

    /// The (block, text position) of the literal at byte `at`.
    fn at(&self, at: usize) -> Option<(usize, usize)> {
        let i = self.runs.binary_search_by_key(&at, |r| r.0).ok()?;
        let (_, block, pos) = self.runs[i];
        Some((block, pos))
    }
}

/// The page map of a laid-out book: for each page, where it begins (see
/// [`PageMap`]), with the page's label. `source` is the generated main
/// file, whose literals `runs` describes.
pub(crate) fn page_map(document: &PagedDocument, source: Source, runs: &PageTraces) -> PageMap {
    let mut map = PageMap::default();
    let first_blocks = first_blocks(document);
    let mut tracer = Tracer {
        source,
        runs,
        cache: HashMap::new(),
    };
    // Starts only move forward: text a page repeats (a table's header on
    // each page it runs over) or shows again (a running head) is passed over.
    let mut last: Option<PageStart> = None;
    for (i, page) in document.pages().iter().enumerate() {
        let number = i + 1;
        let first_word = tracer.first_word(&page.frame, last.as_ref());
        let block = first_blocks
            .get(&number)
            .filter(|b| last.as_ref().is_none_or(|l| l.block < **b));
        // The page's first words belong to a block that began on an
        // earlier page (no block, or a later one, begins on it): the page
        // begins inside that block.
        let inside = first_word.filter(|(index, _)| block.is_none_or(|b| runs.blocks[*index] < *b));
        if let Some((index, pos)) = inside {
            let label = page_label(document, number);
            map.insert_inline(runs.blocks[index].clone(), pos, label);
            last = Some(PageStart {
                block: runs.blocks[index].clone(),
                offset: Some(pos),
            });
        } else if let Some(block) = block {
            map.insert(block.clone(), page_label(document, number));
            last = Some(PageStart {
                block: block.clone(),
                offset: None,
            });
        }
    }
    anchor_pages(document, runs, &mut map);
    map.set_page_count(document.pages().len());
    map
}

/// The page of every anchor, as the theme's `locate` finds it (a page
/// reference in the PDF prints the same).
fn anchor_pages(document: &PagedDocument, runs: &PageTraces, map: &mut PageMap) {
    let introspector = document.introspector();
    for (label, chapter, id) in &runs.anchors {
        let Some(label) = Label::new(PicoStr::intern(label)) else {
            continue;
        };
        let page = introspector
            .query_label(label)
            .ok()
            .and_then(|content| content.location())
            .and_then(|location| introspector.page(location));
        if let Some(page) = page {
            map.insert_element(*chapter, id.clone(), page_label(document, page.get()));
        }
    }
}

/// By page number (from 1): the first marked block that begins on it.
fn first_blocks(document: &PagedDocument) -> HashMap<usize, BlockKey> {
    let mut found = HashMap::new();
    let Some(label) = Label::new(PicoStr::intern(PAGE_MARK)) else {
        return found;
    };
    let introspector = document.introspector();
    for content in introspector.query(&Selector::Label(label)) {
        let (Some(location), Some(meta)) =
            (content.location(), content.to_packed::<MetadataElem>())
        else {
            continue;
        };
        let Value::Str(text) = &meta.value else {
            continue;
        };
        let (Some(key), Some(page)) = (BlockKey::parse(text), introspector.page(location)) else {
            continue;
        };
        // The query is in document order: the first mark found is the first.
        found.entry(page.get()).or_insert(key);
    }
    found
}

/// Traces glyphs back to the marked blocks' text.
struct Tracer<'r> {
    source: Source,
    runs: &'r PageTraces,
    /// By span: the literal's (block, text position) and value, or `None`
    /// for a span that is not the text of a marked block.
    cache: HashMap<Span, Option<(usize, usize, String)>>,
}

impl Tracer<'_> {
    /// The first word of the page's text that comes from a marked block,
    /// top to bottom and left to right, and comes after `last` in the
    /// book: (block index, text position).
    fn first_word(&mut self, frame: &Frame, last: Option<&PageStart>) -> Option<(usize, usize)> {
        let mut items = Vec::new();
        text_items(frame, Point::zero(), &mut items);
        items.sort_by(|a, b| {
            (a.0.y.to_raw(), a.0.x.to_raw())
                .partial_cmp(&(b.0.y.to_raw(), b.0.x.to_raw()))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        for (_, item) in items {
            for glyph in &item.glyphs {
                let (span, offset) = glyph.span;
                let Some((block, pos)) = self.word_start(span, usize::from(offset)) else {
                    continue;
                };
                let later = last.is_none_or(|last| {
                    let block = &self.runs.blocks[block];
                    (block, Some(pos)) > (&last.block, last.offset)
                });
                if later {
                    return Some((block, pos));
                }
            }
        }
        None
    }

    /// (block index, text position) of the glyph at byte `offset` of the
    /// literal `span`, if that is the start of a word of a marked block.
    fn word_start(&mut self, span: Span, offset: usize) -> Option<(usize, usize)> {
        if span.is_detached() || span.id() != Some(self.source.id()) {
            return None;
        }
        let (source, runs) = (&self.source, self.runs);
        let entry = self.cache.entry(span).or_insert_with(|| {
            let node = source.find(span)?;
            let (block, pos) = runs.at(node.range().start)?;
            let value = node.cast::<ast::Str>()?.get();
            // Offsets are 16 bits: past that, they cannot be trusted.
            (value.len() <= usize::from(u16::MAX)).then(|| (block, pos, value.to_string()))
        });
        let (block, pos, value) = entry.as_ref()?;
        let before = value.get(..offset)?;
        // The glyph must begin a word: a page that begins with the end of
        // a hyphenated word is marked at the next word, on its first line.
        let starts_word = before.is_empty() || before.ends_with(char::is_whitespace);
        let at_char = value[offset..]
            .chars()
            .next()
            .is_some_and(|c| !c.is_whitespace());
        (starts_word && at_char).then(|| (*block, pos + before.chars().count()))
    }
}

/// Every text item of `frame` and its subframes, with its position on the
/// page (group transforms are translations in the text flow; others are
/// rare and only blur the order).
fn text_items<'f>(frame: &'f Frame, origin: Point, out: &mut Vec<(Point, &'f TextItem)>) {
    for (pos, item) in frame.items() {
        let at = origin + *pos;
        match item {
            FrameItem::Group(group) => {
                let shift = Point::new(group.transform.tx, group.transform.ty);
                text_items(&group.frame, at + shift, out);
            }
            FrameItem::Text(text) => out.push((at, text)),
            _ => {}
        }
    }
}

/// The label of the `page`-th page (from 1) as the PDF's page labels give
/// it: the page's numbering applied to its logical number, or the physical
/// number when the theme numbers it some other way.
pub(crate) fn page_label(document: &PagedDocument, page: usize) -> String {
    let Some(p) = document.pages().get(page - 1) else {
        return page.to_string();
    };
    match &p.numbering {
        Some(Numbering::Pattern(pattern)) => pattern
            .apply(None, &[p.number])
            .map(|s| s.to_string())
            .unwrap_or_else(|_| page.to_string()),
        _ => page.to_string(),
    }
}
