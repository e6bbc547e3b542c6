//! Marks in the text: the terms file's phrases found and wrapped as index
//! marks, then every mark given its id and collected, in reading order.

use crate::terms::Term;
use std::collections::HashMap;
use stoa_doc::words::{Accents, Matching, Prepared, fold_char, words};
use stoa_doc::{Attrs, Block, Book, ChapterKind, Inline, Role, index};

/// One mark, collected: where it is and what it indexes.
#[derive(Clone, Debug)]
pub(crate) struct Mark {
    pub(crate) chapter: usize,
    pub(crate) id: String,
    /// The entry's levels.
    pub(crate) entry: Vec<String>,
    pub(crate) see: Option<String>,
    pub(crate) see_also: Vec<String>,
    /// For a range, the id of its end.
    pub(crate) end: Option<String>,
}

/// Wraps every occurrence of the terms' phrases in the posts' text (not
/// in headings, code, links, notes, glossaries or marks) in an index
/// mark; returns how many each term found.
pub(crate) fn mark_phrases(book: &mut Book, terms: &[Term]) -> Vec<usize> {
    let mut found = vec![0; terms.len()];
    // Longer phrases first: `keyed state` before `state`.
    let mut phrases: Vec<(usize, &[String])> = terms
        .iter()
        .enumerate()
        .flat_map(|(i, t)| t.phrases.iter().map(move |p| (i, p.as_slice())))
        .collect();
    phrases.sort_by_key(|(_, p)| std::cmp::Reverse(p.len()));
    if phrases.is_empty() {
        return found;
    }
    let matching = Matching {
        lang: &book.lang,
        inflection: true,
        accents: Accents::Term,
    };
    // Inflection changes a word's ending only: a phrase can start only at
    // a word with its first two letters, so each word is compared with the
    // phrases of its letter alone (linear in the text, whatever the file's
    // length).
    let mut by_letter: ByLetter = HashMap::new();
    for (term, phrase) in phrases {
        if let Some(c) = phrase.first().and_then(|w| first_letter(w)) {
            let prepared = phrase.iter().map(|w| matching.prepare(w)).collect();
            by_letter.entry(c).or_default().push((term, prepared));
        }
    }
    let finder = Finder {
        terms,
        by_letter,
        matching,
    };
    for chapter in &mut book.chapters {
        if matches!(chapter.kind, ChapterKind::Post | ChapterKind::About) {
            finder.blocks(&mut chapter.blocks, &mut found);
        }
    }
    found
}

/// Phrases (term index, words prepared for matching) by the first two
/// letters of their first word.
type ByLetter = HashMap<(char, Option<char>), Vec<(usize, Vec<Prepared>)>>;

struct Finder<'t> {
    terms: &'t [Term],
    /// The phrases by the first letter of their first word, folded,
    /// longest first.
    by_letter: ByLetter,
    matching: Matching<'t>,
}

/// The first two letters of `word` (one for a word of one), lowercase
/// and without accent: inflection never changes them.
fn first_letter(word: &str) -> Option<(char, Option<char>)> {
    let mut chars = word.chars().map(fold_char);
    Some((chars.next()?, chars.next()))
}

impl Finder<'_> {
    fn blocks(&self, blocks: &mut [Block], found: &mut [usize]) {
        for block in blocks {
            match block {
                Block::Paragraph { content } => self.inlines(content, found),
                Block::List { items, .. } => {
                    for item in items {
                        self.blocks(&mut item.blocks, found);
                    }
                }
                Block::Quote { blocks } => self.blocks(blocks, found),
                Block::Table { rows, .. } => {
                    for cell in rows.iter_mut().flatten() {
                        self.inlines(cell, found);
                    }
                }
                // A glossary defines its terms; a plugin's other containers
                // (a dialogue's turns) hold the author's text.
                Block::Div { role, blocks, .. } => {
                    if !role.as_ref().is_some_and(Role::is_definition_list) {
                        self.blocks(blocks, found);
                    }
                }
                Block::Heading { .. }
                | Block::Code { .. }
                | Block::Rule
                | Block::FootnoteDef { .. }
                | Block::Raw { .. } => {}
            }
        }
    }

    fn inlines(&self, inlines: &mut Vec<Inline>, found: &mut [usize]) {
        let mut out = Vec::with_capacity(inlines.len());
        for inline in inlines.drain(..) {
            match inline {
                Inline::Text { text } => self.text(text, &mut out, found),
                Inline::Emph { mut content } => {
                    self.inlines(&mut content, found);
                    out.push(Inline::Emph { content });
                }
                Inline::Strong { mut content } => {
                    self.inlines(&mut content, found);
                    out.push(Inline::Strong { content });
                }
                // A speaker's name, a phrase in another language: the
                // author's words. A token, a formula, a mark, a glossary
                // reference: not.
                Inline::Span {
                    role: None,
                    class,
                    attrs,
                    mut content,
                } => {
                    self.inlines(&mut content, found);
                    out.push(Inline::Span {
                        role: None,
                        class,
                        attrs,
                        content,
                    });
                }
                other => out.push(other),
            }
        }
        *inlines = out;
    }

    /// `text`, its phrases wrapped in marks, onto `out`.
    fn text(&self, text: String, out: &mut Vec<Inline>, found: &mut [usize]) {
        let spans = words(&text);
        // Each word lowercased and stemmed once, when a phrase first asks.
        let mut prepared: Vec<Option<Prepared>> = vec![None; spans.len()];
        let mut hits = Vec::new();
        let mut i = 0;
        while i < spans.len() {
            let (s, e) = spans[i];
            let hit = first_letter(&text[s..e])
                .and_then(|c| self.by_letter.get(&c))
                .and_then(|list| {
                    list.iter()
                        .find(|(_, p)| self.matches(&text, &spans, &mut prepared, i, p))
                });
            match hit {
                Some((term, phrase)) => {
                    hits.push((spans[i].0, spans[i + phrase.len() - 1].1, *term));
                    i += phrase.len();
                }
                None => i += 1,
            }
        }
        if hits.is_empty() {
            out.push(Inline::Text { text });
            return;
        }
        let mut at = 0;
        for (start, end, term) in hits {
            found[term] += 1;
            if start > at {
                out.push(Inline::text(&text[at..start]));
            }
            let mut attrs = Attrs::new();
            attrs.insert(index::KEY.into(), self.terms[term].entry.join("!"));
            out.push(Inline::Span {
                role: Some(Role::Other(index::MARK_ROLE.into())),
                class: index::MARK_ROLE.into(),
                attrs,
                content: vec![Inline::text(&text[start..end])],
            });
            at = end;
        }
        if at < text.len() {
            out.push(Inline::text(&text[at..]));
        }
    }

    /// Whether `phrase` occurs at word `i` of `text` (words separated by
    /// spaces only).
    fn matches(
        &self,
        text: &str,
        spans: &[(usize, usize)],
        prepared: &mut [Option<Prepared>],
        i: usize,
        phrase: &[Prepared],
    ) -> bool {
        if i + phrase.len() > spans.len() {
            return false;
        }
        phrase.iter().enumerate().all(|(j, want)| {
            let (s, e) = spans[i + j];
            let spaced = j == 0 || text[spans[i + j - 1].1..s].chars().all(char::is_whitespace);
            spaced && {
                let word =
                    prepared[i + j].get_or_insert_with(|| self.matching.prepare(&text[s..e]));
                self.matching.same_prepared(word, want)
            }
        })
    }
}

/// Gives every mark of the book an id (`ix-1`, `ix-2`, … in reading
/// order, unless it has one) and collects them. Marks inside notes are
/// not link targets: they are left out, and counted in the second value.
pub(crate) fn collect(book: &mut Book) -> (Vec<Mark>, usize) {
    let mut marks = Vec::new();
    let mut in_notes = 0;
    for (index, chapter) in book.chapters.iter_mut().enumerate() {
        let mut ranges = Vec::new();
        for (top, block) in chapter.blocks.iter_mut().enumerate() {
            let mut c = Collector {
                chapter: index,
                top,
                marks: &mut marks,
                ranges: &mut ranges,
                in_notes: &mut in_notes,
            };
            c.blocks(std::slice::from_mut(block), false);
        }
        for (top, mark) in ranges {
            let m = &mut marks[mark];
            let end = format!("{}{}", m.id, index::RANGE_END_SUFFIX);
            if end_range(&mut chapter.blocks, top, &end) {
                m.end = Some(end);
            }
        }
    }
    (marks, in_notes)
}

/// Puts the end of a range that starts in top-level block `top` after the
/// last text of that block's section: up to the next heading of the same
/// or a higher level (the chapter's end for a mark before any heading).
/// False when the section has no text to end after.
fn end_range(blocks: &mut [Block], top: usize, id: &str) -> bool {
    let level_of = |b: &Block| match b {
        Block::Heading { level, .. } => Some(*level),
        _ => None,
    };
    let level = blocks[..=top].iter().rev().find_map(level_of);
    let end = match level {
        Some(level) => blocks[top + 1..]
            .iter()
            .position(|b| level_of(b).is_some_and(|l| l <= level))
            .map_or(blocks.len(), |i| top + 1 + i),
        None => blocks.len(),
    };
    let anchor = Inline::Span {
        role: Some(Role::Other(index::RANGE_END_ROLE.into())),
        class: index::RANGE_END_ROLE.into(),
        attrs: Attrs::from([("id".to_string(), id.to_string())]),
        content: Vec::new(),
    };
    append_last(&mut blocks[top..end], anchor).is_none()
}

/// Appends `inline` to the last text of `blocks` (a paragraph, a heading,
/// a list's last item, a table's last cell, inside quotes and divs);
/// gives it back when none holds text.
fn append_last(blocks: &mut [Block], inline: Inline) -> Option<Inline> {
    let mut inline = inline;
    for block in blocks.iter_mut().rev() {
        inline = match block {
            Block::Paragraph { content } | Block::Heading { content, .. } => {
                content.push(inline);
                return None;
            }
            Block::List { items, .. } => match items.last_mut() {
                Some(item) => append_last(&mut item.blocks, inline)?,
                None => inline,
            },
            Block::Quote { blocks } | Block::Div { blocks, .. } => append_last(blocks, inline)?,
            Block::Table { head, rows, .. } => {
                match rows.last_mut().or(Some(head)).and_then(|r| r.last_mut()) {
                    Some(cell) => {
                        cell.push(inline);
                        return None;
                    }
                    None => inline,
                }
            }
            Block::Code { .. } | Block::Rule | Block::Raw { .. } | Block::FootnoteDef { .. } => {
                inline
            }
        };
    }
    Some(inline)
}

struct Collector<'m> {
    chapter: usize,
    /// The top-level block being read.
    top: usize,
    marks: &'m mut Vec<Mark>,
    /// The chapter's range marks: (top-level block, index in `marks`).
    ranges: &'m mut Vec<(usize, usize)>,
    in_notes: &'m mut usize,
}

impl Collector<'_> {
    fn blocks(&mut self, blocks: &mut [Block], note: bool) {
        for block in blocks {
            match block {
                Block::Heading { content, .. } | Block::Paragraph { content } => {
                    self.inlines(content, note)
                }
                Block::List { items, .. } => {
                    for item in items {
                        self.blocks(&mut item.blocks, note);
                    }
                }
                Block::Quote { blocks } | Block::Div { blocks, .. } => self.blocks(blocks, note),
                Block::FootnoteDef { blocks, .. } => self.blocks(blocks, true),
                Block::Table { head, rows, .. } => {
                    for cell in head.iter_mut().chain(rows.iter_mut().flatten()) {
                        self.inlines(cell, note);
                    }
                }
                Block::Code { .. } | Block::Rule | Block::Raw { .. } => {}
            }
        }
    }

    fn inlines(&mut self, inlines: &mut [Inline], note: bool) {
        for inline in inlines {
            match inline {
                Inline::Span {
                    role: Some(Role::Other(role)),
                    attrs,
                    content,
                    ..
                } if role == index::MARK_ROLE => {
                    if note {
                        *self.in_notes += 1;
                        continue;
                    }
                    let words = stoa_doc::inlines_text(content);
                    let entry: Vec<String> = match attrs.get(index::KEY) {
                        Some(key) => key.split('!').map(crate::terms::normalize).collect(),
                        None => vec![crate::terms::normalize(&words)],
                    };
                    let id = attrs
                        .entry("id".into())
                        .or_insert_with(|| format!("ix-{}", self.marks.len() + 1))
                        .clone();
                    if attrs.contains_key(index::RANGE) {
                        self.ranges.push((self.top, self.marks.len()));
                    }
                    self.marks.push(Mark {
                        chapter: self.chapter,
                        id,
                        entry,
                        see: attrs.get(index::SEE).map(|s| crate::terms::normalize(s)),
                        see_also: attrs
                            .get(index::SEE_ALSO)
                            .map(|s| s.split(';').map(crate::terms::normalize).collect())
                            .unwrap_or_default(),
                        end: None,
                    });
                }
                Inline::Emph { content }
                | Inline::Strong { content }
                | Inline::Strike { content }
                | Inline::Link { content, .. }
                | Inline::Span { content, .. } => self.inlines(content, note),
                _ => {}
            }
        }
    }
}
