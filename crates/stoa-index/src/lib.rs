//! The back-of-book index, made once per edition: the terms file's
//! phrases found in the text and marked, every mark (the author's
//! `[words]{.index}` and those) given an id and collected, the entries
//! collated in the book's language (the glossary's collation,
//! [`stoa_doc::words::collate`]) and written as the index chapter (see
//! [`stoa_doc::index`] for its shape), which every format renders: the
//! same entries in the same order everywhere, each locator a link to its
//! place, its print page from the PDF's layout.
//!
//! A book with no mark and no terms file gets no index and is unchanged.

mod mark;
pub mod terms;

use std::collections::HashMap;
use stoa_doc::words::{collate, fold};
use stoa_doc::{Attrs, Block, Book, Chapter, ChapterKind, Diagnostic, Inline, Role, Style, index};

pub use terms::{FILE_NAME, Term};

/// One entry of the index, with its sub-entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Entry {
    /// The words, as first written.
    pub term: String,
    /// Where it is, in reading order.
    pub locators: Vec<Locator>,
    /// Entries to look under instead.
    pub see: Vec<String>,
    /// Related entries.
    pub see_also: Vec<String>,
    /// Sub-entries, collated.
    pub subs: Vec<Entry>,
}

/// A place an entry leads to.
#[derive(Clone, Debug, PartialEq)]
pub struct Locator {
    /// The chapter's index in the book.
    pub chapter: usize,
    /// The id of the mark.
    pub id: String,
    /// For a range, the id of its end.
    pub end: Option<String>,
}

/// Marks the terms' phrases in `book`, collects every mark and, when there
/// is one, adds the index chapter after the last chapter. Returns the
/// warnings (a term of the file never found, a cross-reference to an entry
/// the index does not have); `file` names the terms file in them.
pub fn apply(book: &mut Book, terms: &[Term], file: &str) -> Vec<Diagnostic> {
    let mut warnings = Vec::new();
    let found = mark::mark_phrases(book, terms);
    for (term, n) in terms.iter().zip(found) {
        if n == 0 && !term.phrases.is_empty() {
            warnings.push(
                Diagnostic::warning(format!(
                    // The place is the diagnostic's own (file:line:col
                    // before the message), not repeated in it.
                    "index term `{}` is never found in the {} edition: \
                     check its spelling or remove it",
                    term.entry.join("!"),
                    book.lang
                ))
                .in_file(file)
                .at(term.at.0, term.at.1),
            );
        }
    }
    let (marks, _) = mark::collect(book);
    if marks.is_empty()
        && terms
            .iter()
            .all(|t| t.see.is_none() && t.see_also.is_empty())
    {
        return warnings;
    }
    let mut entries = entries(&marks, terms);
    warnings.extend(check_references(&entries, terms, &marks, book, file));
    sort(&mut entries, &book.lang);
    let chapter = chapter(book, &entries);
    book.chapters.push(chapter);
    add_styles(book);
    warnings
}

/// The entries of the marks and of the terms file's cross-references,
/// merged by their words (case aside), not yet sorted.
fn entries(marks: &[mark::Mark], terms: &[Term]) -> Vec<Entry> {
    let mut root = Entry::default();
    for m in marks {
        let e = path(&mut root, &m.entry);
        e.locators.push(Locator {
            chapter: m.chapter,
            id: m.id.clone(),
            end: m.end.clone(),
        });
        add_refs(e, m.see.iter(), m.see_also.iter());
    }
    for t in terms {
        if t.see.is_some() || !t.see_also.is_empty() {
            let e = path(&mut root, &t.entry);
            add_refs(e, t.see.iter(), t.see_also.iter());
        }
    }
    root.subs
}

fn add_refs<'a>(
    e: &mut Entry,
    see: impl Iterator<Item = &'a String>,
    also: impl Iterator<Item = &'a String>,
) {
    for s in see {
        if !e.see.contains(s) {
            e.see.push(s.clone());
        }
    }
    for s in also {
        if !e.see_also.contains(s) {
            e.see_also.push(s.clone());
        }
    }
}

/// The entry at `levels` under `root`, made when missing.
fn path<'e>(root: &'e mut Entry, levels: &[String]) -> &'e mut Entry {
    let mut e = root;
    for level in levels {
        let key = level.to_lowercase();
        let i = match e.subs.iter().position(|s| s.term.to_lowercase() == key) {
            Some(i) => i,
            None => {
                e.subs.push(Entry {
                    term: level.clone(),
                    ..Entry::default()
                });
                e.subs.len() - 1
            }
        };
        e = &mut e.subs[i];
    }
    e
}

/// The index's look, per format: contributed only to a book with an
/// index, so that every other book is set exactly as before.
fn add_styles(book: &mut Book) {
    book.styles
        .extend(Style::for_every_format("index", CSS, TYPST));
}

/// The style sheet of the index, for EPUB and the web edition.
pub const CSS: &str = include_str!("index.css");
/// The Typst styles of the index: two columns, pages as locators.
pub const TYPST: &str = include_str!("index.typ");

/// Collates the entries and their sub-entries in the book's language.
pub fn sort(entries: &mut [Entry], lang: &str) {
    entries.sort_by(|a, b| collate(&a.term, &b.term, lang));
    for e in entries {
        sort(&mut e.subs, lang);
    }
}

/// Warnings for cross-references to entries the index lacks, at the line
/// that writes the reference (the terms file's, or the post's for a mark),
/// with the closest entry as "did you mean".
fn check_references(
    entries: &[Entry],
    terms: &[Term],
    marks: &[mark::Mark],
    book: &Book,
    file: &str,
) -> Vec<Diagnostic> {
    let names: Vec<&str> = entries.iter().map(|e| e.term.as_str()).collect();
    let known = |name: &str| {
        let first = name.split('!').next().unwrap_or(name).to_lowercase();
        names.iter().any(|n| n.to_lowercase() == first)
    };
    let mut out = Vec::new();
    let mut visit = |e: &Entry, levels: &[&str]| {
        for (kind, target) in e
            .see
            .iter()
            .map(|t| ("see", t))
            .chain(e.see_also.iter().map(|t| ("see also", t)))
        {
            if known(target) {
                continue;
            }
            let hint = match stoa_book::suggest::did_you_mean(target, &names) {
                Some(near) => format!("{near} Otherwise mark `{target}` somewhere"),
                None => format!("mark `{target}` somewhere, or correct the reference"),
            };
            let d = Diagnostic::warning(format!(
                "the index entry `{}` says “{kind} {target}”, but the index has no entry `{target}`",
                levels.join("!")
            ))
            .with_hint(hint);
            out.push(place_reference(d, levels, target, terms, marks, book, file));
        }
    };
    for e in entries {
        visit(e, &[&e.term]);
        for s in &e.subs {
            visit(s, &[&e.term, &s.term]);
        }
    }
    out
}

/// Puts the warning `d` about entry `levels` referring to `target` where
/// the reference is written: its line in the terms file, else the post of
/// the first mark that writes it (at the line, when the post can be read).
fn place_reference(
    d: Diagnostic,
    levels: &[&str],
    target: &str,
    terms: &[Term],
    marks: &[mark::Mark],
    book: &Book,
    file: &str,
) -> Diagnostic {
    let same = |entry: &[String]| {
        entry.len() == levels.len()
            && entry
                .iter()
                .zip(levels)
                .all(|(a, b)| a.to_lowercase() == b.to_lowercase())
    };
    let refers = |see: &Option<String>, also: &[String]| {
        see.as_deref() == Some(target) || also.iter().any(|a| a == target)
    };
    if let Some(t) = terms
        .iter()
        .find(|t| same(&t.entry) && refers(&t.see, &t.see_also))
    {
        return d.in_file(file).at(t.at.0, t.at.1);
    }
    let Some(source) = marks
        .iter()
        .find(|m| same(&m.entry) && refers(&m.see, &m.see_also))
        .and_then(|m| book.chapters.get(m.chapter)?.source.as_deref())
    else {
        return d.in_file(file);
    };
    let d = d.in_file(source);
    match std::fs::read_to_string(source) {
        Ok(text) => match written_at(&text, target) {
            Some((line, col)) => d.at(line, col),
            None => d,
        },
        Err(_) => d,
    }
}

/// The line and column (from 1) of the first `{.index …}` block of `text`
/// that names `target` as its `see` or `see-also`, pointing at that name.
fn written_at(text: &str, target: &str) -> Option<(usize, usize)> {
    for (n, line) in text.lines().enumerate() {
        let mut from = 0;
        while let Some(open) = line[from..].find("{.index").map(|i| from + i) {
            let close = line[open..].find('}').map_or(line.len(), |c| open + c);
            let block = &line[open..close];
            for name in [index::SEE_ALSO, index::SEE] {
                let Some(at) = block.find(&format!("{name}=")) else {
                    continue;
                };
                let value = block[at + name.len() + 1..].trim_start_matches('"');
                let value = value.split('"').next().unwrap_or_default();
                let value = if block[at + name.len() + 1..].starts_with('"') {
                    value
                } else {
                    value.split_whitespace().next().unwrap_or_default()
                };
                if value.split(';').any(|v| terms::normalize(v) == target) {
                    let col = line[..open + at].chars().count() + 1;
                    return Some((n + 1, col));
                }
            }
            from = close.max(open + 1);
        }
    }
    None
}

/// The letter an entry is grouped under: its first letter or digit,
/// without accent, in capitals; `#` for none.
pub fn letter(term: &str) -> String {
    fold(term)
        .chars()
        .find(|c| c.is_alphanumeric())
        .map_or_else(|| "#".into(), |c| c.to_uppercase().collect())
}

/// The ids of the top entries in the index chapter, for cross-references:
/// `index-<slug>`, by lowercase term, unique.
fn entry_ids(entries: &[Entry]) -> HashMap<String, String> {
    let mut ids = HashMap::new();
    let mut used = std::collections::HashSet::new();
    for e in entries {
        let slug: String = fold(&e.term)
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
            .collect();
        let base = format!("index-{}", slug.trim_matches('-'));
        let mut id = base.clone();
        let mut n = 1;
        while !used.insert(id.clone()) {
            n += 1;
            id = format!("{base}-{n}");
        }
        ids.insert(e.term.to_lowercase(), id);
    }
    ids
}

fn div(role: &str, attrs: Attrs, blocks: Vec<Block>) -> Block {
    Block::Div {
        role: Some(Role::Other(role.into())),
        class: role.into(),
        attrs,
        blocks,
    }
}

fn span(role: &str, content: Vec<Inline>) -> Inline {
    Inline::Span {
        role: Some(Role::Other(role.into())),
        class: role.into(),
        attrs: Attrs::new(),
        content,
    }
}

/// The index chapter of `entries` (collated), after the book's chapters.
fn chapter(book: &Book, entries: &[Entry]) -> Chapter {
    let ids = entry_ids(entries);
    let mut groups: Vec<(String, Vec<&Entry>)> = Vec::new();
    for e in entries {
        let l = letter(&e.term);
        match groups.last_mut() {
            Some((last, list)) if *last == l => list.push(e),
            _ => groups.push((l, vec![e])),
        }
    }
    let blocks = groups
        .into_iter()
        .map(|(l, list)| {
            let attrs = Attrs::from([("letter".to_string(), l)]);
            let items = list
                .iter()
                .map(|e| entry_block(book, &ids, e, true))
                .collect();
            div(
                index::GROUP_ROLE,
                attrs,
                vec![div(index::LIST_ROLE, Attrs::new(), items)],
            )
        })
        .collect();
    // Not `index`: the web edition's first page is `index.html`.
    let mut slug = "book-index".to_string();
    let mut n = 1;
    while book.chapters.iter().any(|c| c.slug == slug) {
        n += 1;
        slug = format!("book-index-{n}");
    }
    Chapter {
        slug,
        kind: ChapterKind::Appendix,
        role: Some(Role::Other(index::INDEX_ROLE.into())),
        title: book.labels.index.clone(),
        blocks,
        ..Chapter::default()
    }
}

/// One entry: its term, locators and cross-references, then its
/// sub-entries.
fn entry_block(book: &Book, ids: &HashMap<String, String>, e: &Entry, top: bool) -> Block {
    let mut line = vec![span(index::TERM_ROLE, vec![Inline::text(&e.term)])];
    let mut locators = Vec::new();
    for l in &e.locators {
        locators.push(Inline::text(", "));
        let title = book
            .chapters
            .get(l.chapter)
            .map_or("", |c| c.title.as_str());
        let link = |id: &str| Inline::Link {
            url: format!("#{id}"),
            title: String::new(),
            content: vec![Inline::text(title)],
        };
        let links = std::iter::once(&l.id).chain(&l.end).map(|id| link(id));
        locators.push(span(index::LOCATOR_ROLE, links.collect()));
    }
    if !locators.is_empty() {
        line.push(span(index::LOCATORS_ROLE, locators));
    }
    for (role, word, targets) in [
        (index::SEE_ROLE, &book.labels.see, &e.see),
        (index::SEE_ALSO_ROLE, &book.labels.see_also, &e.see_also),
    ] {
        if targets.is_empty() {
            continue;
        }
        // After the locators' full stop the word opens a sentence: `See also`.
        let word = match e.locators.is_empty() {
            true => word.clone(),
            false => capitalized(word),
        };
        let mut content = vec![Inline::Emph {
            content: vec![Inline::text(&word)],
        }];
        for (i, t) in targets.iter().enumerate() {
            content.push(Inline::text(if i == 0 { " " } else { "; " }));
            let first = t.split('!').next().unwrap_or(t).to_lowercase();
            let id = ids.get(&first).map_or("index", String::as_str);
            content.push(Inline::Link {
                url: format!("#{id}"),
                title: String::new(),
                content: vec![span(index::TERM_ROLE, vec![Inline::text(t)])],
            });
        }
        line.push(Inline::text(if e.locators.is_empty() {
            ", "
        } else {
            ". "
        }));
        line.push(span(role, content));
    }
    let mut attrs = Attrs::new();
    if let Some(id) = ids.get(&e.term.to_lowercase()).filter(|_| top) {
        attrs.insert("id".into(), id.clone());
    }
    let mut blocks = vec![Block::Paragraph { content: line }];
    if !e.subs.is_empty() {
        let subs = e
            .subs
            .iter()
            .map(|s| entry_block(book, ids, s, false))
            .collect();
        let level = Attrs::from([("level".to_string(), "2".to_string())]);
        blocks.push(div(index::LIST_ROLE, level, subs));
    }
    div(index::ENTRY_ROLE, attrs, blocks)
}

/// `word` with its first letter in capitals.
fn capitalized(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
