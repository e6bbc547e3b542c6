//! Where each printed page begins. The generated source puts a
//! [`PAGE_MARK`](crate::source::PAGE_MARK) metadata before every block the
//! other formats can mark (see `source.rs`); after layout, one query finds
//! them all, in document order, with their pages. The first mark on a page
//! is where that page begins, at block granularity.

use stoa_render::{BlockKey, PageMap};
use typst::foundations::{Label, Selector, Value};
use typst::introspection::{Introspector, MetadataElem};
use typst::model::Numbering;
use typst::utils::PicoStr;
use typst_layout::PagedDocument;

use crate::source::PAGE_MARK;

/// The page map of a laid-out book: for each page on which a marked block
/// begins, the first such block and the page's label.
pub(crate) fn page_map(document: &PagedDocument) -> PageMap {
    let mut map = PageMap::default();
    let Some(label) = Label::new(PicoStr::intern(PAGE_MARK)) else {
        return map;
    };
    let introspector = document.introspector();
    let mut last_page = 0;
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
        if page.get() == last_page {
            continue;
        }
        last_page = page.get();
        map.insert(key, page_label(document, page.get()));
    }
    map
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
