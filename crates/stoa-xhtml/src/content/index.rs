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

    /// The locators: each page once (each chapter once without pages),
    /// and no page a range already covers.
    fn locators(&mut self, content: &[Inline], x: &mut Xml) {
        let found: Vec<(String, String)> = content.iter().filter_map(|i| self.locator(i)).collect();
        let spans: Vec<Option<(u32, u32)>> = found.iter().map(|(_, s)| numbers(s)).collect();
        let mut last: Option<&String> = None;
        for (i, (href, shown)) in found.iter().enumerate() {
            if last == Some(shown) || covered(&spans, i) {
                continue;
            }
            x.text(", ");
            let mut attrs = self.index_attrs(index::LOCATOR_ROLE, &[]);
            attrs.push(("href", href));
            x.element("a", &attrs, shown);
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

/// The first and last page of a locator's arabic page label (`41` or
/// `41–43`); `None` for another label (a roman page, a chapter's title).
fn numbers(shown: &str) -> Option<(u32, u32)> {
    let (first, last) = shown.split_once('\u{2013}').unwrap_or((shown, shown));
    Some((first.parse().ok()?, last.parse().ok()?))
}

/// Whether locator `i` lies within another locator that is a range: a
/// longer one, or the same one earlier (as the PDF decides).
fn covered(spans: &[Option<(u32, u32)>], i: usize) -> bool {
    let Some((first, until)) = spans[i] else {
        return false;
    };
    spans.iter().enumerate().any(|(j, s)| {
        s.is_some_and(|(f, u)| {
            j != i && u > f && f <= first && until <= u && (u - f > until - first || j < i)
        })
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_range_covers_the_pages_inside_it() {
        let spans: Vec<_> = ["50", "51", "51–53", "52", "51–53", "54", "xii"]
            .iter()
            .map(|s| numbers(s))
            .collect();
        let kept: Vec<usize> = (0..spans.len()).filter(|i| !covered(&spans, *i)).collect();
        assert_eq!(kept, [0, 2, 5, 6]);
    }
}
