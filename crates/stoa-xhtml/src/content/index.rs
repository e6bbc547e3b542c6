//! The index chapter ([`stoa_doc::index`]) as EPUB Indexes 1.0 writes
//! one: a section per letter (`index-group`), lists of entries
//! (`index-entry-list`, `index-entry`), each with its term
//! (`index-term`), its locators (`index-locator`: the print page, from the
//! PDF's page map, each page once; the chapter's title without a map) and
//! its cross-references (`index-xref-preferred`, `index-xref-related`).
//! On the web the same elements, with classes and no `epub:type`.

use super::Writer;
use crate::xml::Xml;
use stoa_doc::{Attrs, Block, Inline, LinkTarget, Role, index};

impl Writer<'_, '_> {
    /// Writes `block` if it is a part of the index; false otherwise.
    pub(super) fn index_block(&mut self, block: &Block, x: &mut Xml) -> bool {
        let Block::Div {
            role,
            attrs,
            blocks,
            ..
        } = block
        else {
            return false;
        };
        match index::role_name(role.as_ref()) {
            Some(index::GROUP_ROLE) => {
                let letter = attrs.get("letter").map_or("", String::as_str);
                let id = format!(
                    "index-letter-{}",
                    crate::page_id(letter).trim_start_matches("page-")
                );
                x.open(
                    "section",
                    &self.index_attrs(index::GROUP_ROLE, &[("aria-labelledby", &id)]),
                );
                x.element("h2", &[("id", &id)], letter).newline();
                for b in blocks {
                    self.index_block(b, x);
                }
                x.close().newline();
            }
            Some(index::LIST_ROLE) => {
                x.open("ul", &self.index_attrs(index::LIST_ROLE, &[]))
                    .newline();
                for b in blocks {
                    self.index_block(b, x);
                }
                x.close().newline();
            }
            Some(index::ENTRY_ROLE) => {
                let id = attrs.get("id").map_or("", String::as_str);
                let id_name = if id.is_empty() { "" } else { "id" };
                x.open("li", &self.index_attrs(index::ENTRY_ROLE, &[(id_name, id)]));
                for b in blocks {
                    match b {
                        Block::Paragraph { content } => self.index_line(content, x),
                        other => {
                            self.index_block(other, x);
                        }
                    }
                }
                x.close().newline();
            }
            _ => return false,
        }
        true
    }

    /// `class` and, in EPUB, `epub:type` for an index element, then `more`.
    fn index_attrs<'s>(
        &self,
        role: &'s str,
        more: &[(&'s str, &'s str)],
    ) -> Vec<(&'s str, &'s str)> {
        let epub = if self.m.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        let mut out = vec![("class", role), (epub, role)];
        out.extend_from_slice(more);
        out
    }

    /// An entry's line: the term, the locators, the cross-references.
    fn index_line(&mut self, content: &[Inline], x: &mut Xml) {
        for inline in content {
            let Inline::Span {
                role,
                content: inner,
                ..
            } = inline
            else {
                self.inline(inline, x);
                continue;
            };
            match index::role_name(role.as_ref()) {
                Some(index::LOCATORS_ROLE) => self.locators(inner, x),
                Some(r @ (index::TERM_ROLE | index::SEE_ROLE | index::SEE_ALSO_ROLE)) => {
                    x.open("span", &self.index_attrs(r, &[]));
                    self.inlines(inner, x);
                    x.close();
                }
                _ => self.inline(inline, x),
            }
        }
    }

    /// The locators: each page once (each chapter once without pages).
    fn locators(&mut self, content: &[Inline], x: &mut Xml) {
        let mut last: Option<String> = None;
        for inline in content {
            let Some((href, shown)) = self.locator(inline) else {
                continue;
            };
            if last.as_ref() == Some(&shown) {
                continue;
            }
            x.text(", ");
            let mut attrs = self.index_attrs(index::LOCATOR_ROLE, &[]);
            attrs.push(("href", &href));
            x.element("a", &attrs, &shown);
            last = Some(shown);
        }
    }

    /// Where a locator leads from this file, and what it shows: the print
    /// page (a range's first and last, `41–43`), or the chapter's title
    /// without the PDF's page map.
    fn locator(&self, inline: &Inline) -> Option<(String, String)> {
        let Inline::Span { role, content, .. } = inline else {
            return None;
        };
        if index::role_name(role.as_ref()) != Some(index::LOCATOR_ROLE) {
            return None;
        }
        let (start, end) = match content.as_slice() {
            [start] => (start, None),
            [start, end] => (start, Some(end)),
            _ => return None,
        };
        let (chapter, id, title) = self.place(start)?;
        let page = |chapter, id| self.m.pages.and_then(|p| p.page_of(chapter, id));
        let shown = match page(chapter, id) {
            Some(first) => {
                let last = end
                    .and_then(|e| self.place(e))
                    .and_then(|(c, id, _)| page(c, id))
                    .filter(|last| *last != first);
                match last {
                    Some(last) => format!("{first}\u{2013}{last}"),
                    None => first.to_string(),
                }
            }
            None => title,
        };
        Some((self.href_to(chapter, id), shown))
    }

    /// The chapter and id a locator's link leads to, and its text.
    fn place<'i>(&self, link: &'i Inline) -> Option<(usize, &'i str, String)> {
        let Inline::Link { url, content, .. } = link else {
            return None;
        };
        let (chapter, id) = match self.m.ids.resolve(url, self.source) {
            LinkTarget::Here(id) => (self.source, id),
            LinkTarget::Chapter { chapter, id } => (chapter, id),
            LinkTarget::External(_) | LinkTarget::Missing(_) => return None,
        };
        Some((chapter, id, stoa_doc::inlines_text(content)))
    }
}

/// An index mark in a post (or a range's end): a span with its id (where locators lead),
/// none of its attributes (they are for the index, not the reader).
pub(super) fn mark_attrs(role: Option<&Role>, attrs: &Attrs) -> Option<Vec<(String, String)>> {
    if !matches!(
        index::role_name(role),
        Some(index::MARK_ROLE | index::RANGE_END_ROLE)
    ) {
        return None;
    }
    Some(
        attrs
            .get("id")
            .map(|id| vec![("id".to_string(), id.clone())])
            .unwrap_or_default(),
    )
}
