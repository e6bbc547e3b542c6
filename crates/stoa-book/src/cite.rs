//! Citations: `[bibliography]` in book.toml, and every `[@key]` of an
//! edition's posts formatted by stoa-cite, in reading order, with the works
//! cited at the end of the book (or of each post).
//!
//! The pass runs on the tree before plugins and renderers, so that every
//! format prints the same words: a citation becomes a link to its entry,
//! and each entry links back to where it was first cited.

use crate::source::{SourceFile, line_col};
use serde::Deserialize;
use std::path::Path;
use std::sync::Arc;
use stoa_cite::{Cite, Library, Style};
use stoa_doc::{Attrs, Block, Chapter, ChapterKind, Diagnostic, Inline, walk_inlines_mut};

/// The `[bibliography]` table, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawBibliography {
    file: Option<String>,
    style: Option<String>,
    placement: Option<String>,
}

/// Where the works cited are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// One "References" chapter at the end of the book.
    Book,
    /// After each post, the works it cites.
    Chapter,
}

/// A book's bibliography, read and checked once for all its editions.
#[derive(Clone, Debug)]
pub struct Bibliography {
    library: Arc<Library>,
    /// The file as read, to say where an entry is.
    source: Arc<SourceFile>,
    style: Arc<Style>,
    placement: Placement,
}

/// Reads the `[bibliography]` table: the file (relative to the book's
/// folder) and the style, each error at its line of book.toml.
pub(crate) fn settings(
    file: &SourceFile,
    raw: Option<&RawBibliography>,
    dir: &Path,
    errors: &mut Vec<Diagnostic>,
) -> Option<Bibliography> {
    let raw = raw?;
    let table = file.find("[bibliography]", 0);
    let Some(name) = raw.file.as_deref() else {
        errors.push(
            file.error_at(table, "`[bibliography]` has no `file`")
                .with_hint("name the BibTeX or hayagriva YAML file: file = \"references.bib\""),
        );
        return None;
    };
    let at = file.find("file", table);
    let library = read_library(&dir.join(name), name, errors, file, at);
    let library = library.map(|(library, source)| (Arc::new(library), Arc::new(source)));
    let style = raw.style.as_deref().unwrap_or("chicago-author-date");
    let style_at = file.find("style", table);
    let style = match read_style(dir, style) {
        Ok(style) => Some(style),
        Err(why) => {
            errors.push(file.error_at(style_at, why));
            None
        }
    };
    let placement = match raw.placement.as_deref() {
        None | Some("book") => Some(Placement::Book),
        Some("chapter") => Some(Placement::Chapter),
        Some(other) => {
            errors.push(
                file.error_at(
                    file.find("placement", table),
                    format!("`placement = \"{other}\"` is not a placement"),
                )
                .with_hint("write \"book\" (one list at the end) or \"chapter\" (after each post)"),
            );
            None
        }
    };
    let (library, source) = library?;
    Some(Bibliography {
        library,
        source,
        style: Arc::new(style?),
        placement: placement?,
    })
}

/// The bibliography file, its errors at their own line, or, when it cannot
/// be read at all, at the `file` key (`at`).
fn read_library(
    path: &Path,
    name: &str,
    errors: &mut Vec<Diagnostic>,
    book: &SourceFile,
    at: usize,
) -> Option<(Library, SourceFile)> {
    let source = match SourceFile::read(path) {
        Ok(source) => source,
        Err(e) => {
            errors.push(
                book.error_at(
                    at,
                    format!("the bibliography `{name}` cannot be read: {}", e.message),
                )
                .with_hint("the path is relative to the book's folder, next to book.toml"),
            );
            return None;
        }
    };
    match Library::parse(name, &source.text) {
        Ok(library) => Some((library, source)),
        Err(e) => {
            errors.push(
                Diagnostic::error(e.message)
                    .in_file(&source.display)
                    .at(e.line, e.column)
                    .with_hint("fix the entry; BibTeX entries look like @book{key, author = {…}, title = {…}, year = {…}}"),
            );
            None
        }
    }
}

/// An archived style by name, or a `.csl` file relative to the book.
fn read_style(dir: &Path, style: &str) -> Result<Style, String> {
    if !style.ends_with(".csl") {
        return Style::named(style);
    }
    let source = SourceFile::read(&dir.join(style)).map_err(|e| e.message)?;
    Style::from_csl(&source.text).map_err(|why| format!("`{style}`: {why}"))
}

/// The class of the span a citation becomes, and of the bibliography.
const CITATION: &str = "citation";

/// Formats every citation of `chapters` (an edition, in reading order) and
/// adds the works cited, titled `title`, each with a link back to its first
/// citation titled `back`; the style sheets they need, for a book that
/// cites (a book that does not is left as it was). An unknown key, or a bracket that
/// is almost a citation, is an error at its post's line and column.
pub(crate) fn apply(
    bibliography: &Bibliography,
    lang: &str,
    title: &str,
    back: &str,
    chapters: &mut Vec<Chapter>,
) -> Result<(Vec<stoa_doc::Style>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut cites: Vec<Cite> = Vec::new();
    let mut owners: Vec<usize> = Vec::new();
    let mut errors = Vec::new();
    for (index, chapter) in chapters.iter_mut().enumerate() {
        let found = mark(&mut chapter.blocks, &bibliography.library, cites.len());
        for problem in &found.problems {
            errors.push(locate(chapter, problem));
        }
        owners.extend(std::iter::repeat_n(index, found.cites.len()));
        cites.extend(found.cites);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let warnings = uncited(bibliography, &cites, lang);
    if cites.is_empty() {
        return Ok((Vec::new(), warnings));
    }
    let url = |key: &str| format!("#{}", entry_id(key));
    let mut formatted = stoa_cite::format(
        &bibliography.library,
        &bibliography.style,
        lang,
        &cites,
        &url,
    )
    .map_err(|why| vec![Diagnostic::error(why)])?;
    // The data's straight quotes and apostrophes (O'Reilly) set as the
    // posts' are.
    for inlines in formatted.citations.iter_mut() {
        smarten(inlines);
    }
    for entry in formatted.bibliography.iter_mut() {
        smarten(&mut entry.content);
    }
    // The way back from an entry is to where the work is first cited in
    // the text; a note style's notes have their own way back, to their
    // call, and only the authors named in sentences stay in the text.
    let note_style = bibliography.style.is_note();
    let mut first_cite: std::collections::HashMap<&str, usize> = Default::default();
    for (n, cite) in cites.iter().enumerate() {
        if note_style && !cite.narrative {
            continue;
        }
        for item in &cite.items {
            first_cite.entry(item.key.as_str()).or_insert(n);
        }
    }
    for chapter in chapters.iter_mut() {
        fill(
            &mut chapter.blocks,
            &formatted.citations,
            &cites,
            note_style,
        );
    }
    let entry =
        |e: &stoa_cite::Entry| entry_block(e, first_cite.get(e.key.as_str()).copied(), back);
    match bibliography.placement {
        Placement::Book => {
            let chapter = references_chapter(
                title,
                formatted.bibliography.iter().map(entry).collect(),
                chapters,
            );
            // Before the back matter (the author's presentation).
            let at = chapters
                .iter()
                .position(|c| c.kind != ChapterKind::Post)
                .unwrap_or(chapters.len());
            chapters.insert(at, chapter);
        }
        Placement::Chapter => {
            for (index, chapter) in chapters.iter_mut().enumerate() {
                let keys: Vec<&str> = cites
                    .iter()
                    .zip(&owners)
                    .filter(|(_, owner)| **owner == index)
                    .flat_map(|(cite, _)| cite.items.iter().map(|i| i.key.as_str()))
                    .collect();
                let blocks: Vec<Block> = formatted
                    .bibliography
                    .iter()
                    .filter(|e| keys.contains(&e.key.as_str()))
                    .map(entry)
                    .collect();
                if !blocks.is_empty() {
                    chapter
                        .blocks
                        .push(heading(title, &format!("references-{}", chapter.slug)));
                    chapter.blocks.push(list(blocks));
                }
            }
        }
    }
    let styles = ["epub", "html"]
        .into_iter()
        .map(|format| stoa_doc::Style {
            origin: "stoa".into(),
            format: format.into(),
            code: CSS.into(),
        })
        .collect();
    Ok((styles, warnings))
}

/// A warning for each work of the bibliography that no post of the edition
/// cites, at its entry in the file (`@book{key,`).
fn uncited(bibliography: &Bibliography, cites: &[Cite], lang: &str) -> Vec<Diagnostic> {
    let cited: std::collections::HashSet<&str> = cites
        .iter()
        .flat_map(|c| c.items.iter().map(|i| i.key.as_str()))
        .collect();
    let source = &bibliography.source;
    bibliography
        .library
        .keys()
        .filter(|key| !cited.contains(key))
        .map(|key| {
            let message = format!(
                "the work `{key}` of the bibliography is cited in no post of the {lang} edition"
            );
            let hint = format!("cite it as [@{key}] where it is used, or remove it from the file");
            let at = source.text.find(&format!("{{{key},"));
            match at {
                Some(at) => {
                    let (line, column) = line_col(&source.text, at);
                    Diagnostic::warning(message)
                        .in_file(&source.display)
                        .at(line, column)
                }
                None => Diagnostic::warning(message).in_file(&source.display),
            }
            .with_hint(hint)
        })
        .collect()
}

/// The works cited in EPUB and on the web: hanging entries, a quiet way
/// back.
const CSS: &str = "div.bibliography p { text-indent: -1.5em; margin: 0 0 0.6em 1.5em; text-align: left; }\n\
span.back-link a { text-decoration: none; }\n";

/// What one chapter's text holds: its citations, numbered from `first`
/// in the book, and the brackets that are not quite citations.
struct Found {
    cites: Vec<Cite>,
    problems: Vec<Problem>,
}

/// A mistake in a citation: the text to find in the post, and what is
/// wrong.
struct Problem {
    needle: String,
    message: String,
    hint: String,
}

/// Replaces each citation in the text of `blocks` by an empty placeholder
/// span numbered from `first`.
fn mark(blocks: &mut [Block], library: &Library, first: usize) -> Found {
    let mut found = Found {
        cites: Vec::new(),
        problems: Vec::new(),
    };
    walk_inlines_mut(blocks, &mut |inlines| {
        if inlines.iter().any(holds_at) {
            *inlines = split_run(std::mem::take(inlines), library, first, &mut found);
        }
    });
    found
}

/// Whether an inline's own text has an `@`: text, or a technical token
/// (stoa-markdown marks `@name` as one, in case it is a handle).
fn holds_at(inline: &Inline) -> bool {
    match inline {
        Inline::Text { text } => text.contains('@'),
        _ => stoa_doc::at_token(inline).is_some(),
    }
}

/// `inlines` with the citations in its texts taken out into placeholders;
/// as they were when they hold none.
fn split_run(
    inlines: Vec<Inline>,
    library: &Library,
    first: usize,
    found: &mut Found,
) -> Vec<Inline> {
    let before = (found.cites.len(), found.problems.len());
    let mut out = Vec::with_capacity(inlines.len());
    let mut run = String::new();
    for inline in &inlines {
        match inline {
            Inline::Text { text } => run.push_str(text),
            // A line break in the source may fall inside a bracket.
            Inline::SoftBreak => run.push('\n'),
            other => match stoa_doc::at_token(other) {
                Some(text) => run.push_str(&text),
                None => {
                    flush(&mut run, library, first, found, &mut out);
                    out.push(other.clone());
                }
            },
        }
    }
    flush(&mut run, library, first, found, &mut out);
    if (found.cites.len(), found.problems.len()) == before {
        return inlines;
    }
    out
}

/// Scans the text `run` for citations, pushing its pieces to `out`.
fn flush(
    run: &mut String,
    library: &Library,
    first: usize,
    found: &mut Found,
    out: &mut Vec<Inline>,
) {
    let text = std::mem::take(run);
    let mut plain_from = 0;
    let mut at = 0;
    while at < text.len() {
        let rest = &text[at..];
        let next = rest.find(['[', '@']).map(|i| at + i);
        let Some(i) = next else { break };
        let (len, cite) = if text[i..].starts_with('[') {
            bracket(&text[i..], library, found)
        } else {
            narrative(&text, i, library)
        };
        match cite {
            Some(cite) => {
                stoa_doc::push_text_lines(&text[plain_from..i], out);
                out.push(placeholder(first + found.cites.len()));
                found.cites.push(cite);
                at = i + len;
                plain_from = at;
            }
            None => at = i + 1,
        }
    }
    stoa_doc::push_text_lines(&text[plain_from..], out);
}

/// A `[…]` citation at the start of `text`: its length and the citation,
/// or `(0, None)` when the bracket is not one (a problem is recorded when
/// it is almost one).
fn bracket(text: &str, library: &Library, found: &mut Found) -> (usize, Option<Cite>) {
    let Some(end) = text[1..].find([']', '[']).map(|i| i + 1) else {
        return (0, None);
    };
    if !text[end..].starts_with(']') {
        return (0, None);
    }
    let inner = &text[1..end];
    let cite = match stoa_cite::parse(inner) {
        None => return (0, None),
        Some(Err(e)) => {
            found.problems.push(Problem {
                needle: text[..=end].to_string(),
                message: format!("`{}` is not a citation: {}", &text[..=end], e.message),
                hint: "cite as [@key], [@key, p. 12] or [see @a; @b]".into(),
            });
            return (0, None);
        }
        Some(Ok(cite)) => cite,
    };
    // `[@fig:wall]` is a cross-reference, which stoa-xref makes later.
    if cite
        .items
        .iter()
        .all(|i| stoa_doc::xref::Kind::of_label(&i.key).is_some())
    {
        return (0, None);
    }
    for item in &cite.items {
        if !library.contains(&item.key) {
            let hint = match library.suggest(&item.key) {
                Some(close) => format!("did you mean @{close}?"),
                None => "add the work to the bibliography file, or correct the key".into(),
            };
            found.problems.push(Problem {
                needle: format!("@{}", item.key),
                message: format!("no work in the bibliography has the key `{}`", item.key),
                hint,
            });
            return (0, None);
        }
    }
    (end + 1, Some(cite))
}

/// `@key` in running text, when the key is the bibliography's (otherwise
/// it is an address or a handle, and stays text).
fn narrative(text: &str, at: usize, library: &Library) -> (usize, Option<Cite>) {
    let starts_word = text[..at]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || "([{\u{201c}\u{2018}".contains(c));
    if !starts_word {
        return (0, None);
    }
    let key = &text[at + 1..at + 1 + stoa_cite::key_len(&text[at + 1..])];
    if key.is_empty() || !library.contains(key) {
        return (0, None);
    }
    let cite = Cite {
        items: vec![stoa_cite::CiteItem {
            key: key.to_string(),
            offset: 0,
            prefix: String::new(),
            locator: None,
            suppress_author: false,
        }],
        narrative: true,
    };
    (key.len() + 1, Some(cite))
}

fn placeholder(n: usize) -> Inline {
    let mut attrs = Attrs::new();
    attrs.insert("id".into(), cite_id(n));
    Inline::Span {
        role: None,
        class: CITATION.into(),
        attrs,
        content: Vec::new(),
    }
}

fn cite_id(n: usize) -> String {
    format!("cite-{}", n + 1)
}

fn entry_id(key: &str) -> String {
    // Keys may hold `:` and `/`, which ids may not start with but may
    // hold; other characters are kept out by the key syntax.
    format!("ref-{}", key.replace('/', "-"))
}

/// Puts each citation's words into its placeholder (each work's part a
/// link to its entry); for a note style (Chicago notes), a call to a note
/// holding the words, the notes added at the end of `blocks` for the
/// book's notes plan to place and number.
fn fill(blocks: &mut Vec<Block>, citations: &[Vec<Inline>], cites: &[Cite], note_style: bool) {
    let mut notes = Vec::new();
    walk_inlines_mut(blocks, &mut |inlines| {
        for i in 0..inlines.len() {
            let Some((n, id)) = placeholder_of(&inlines[i]) else {
                continue;
            };
            let Some(words) = citations.get(n) else {
                continue;
            };
            // "As @plato argues" names the author in the sentence, in
            // every style; a note style notes only bracketed citations.
            let in_note = note_style && cites.get(n).is_some_and(|c| !c.narrative);
            let content = if in_note {
                // The call hugs the word before it, so that the notes plan
                // can set it after the punctuation that follows.
                if let Some(Inline::Text { text }) = i.checked_sub(1).map(|p| &mut inlines[p]) {
                    text.truncate(text.trim_end().len());
                }
                let label = format!("stoa-{id}");
                notes.push(Block::FootnoteDef {
                    label: label.clone(),
                    blocks: vec![Block::Paragraph {
                        content: words.clone(),
                    }],
                });
                // The call alone, not in a span: the notes plan moves it
                // past punctuation only when it sees it.
                inlines[i] = Inline::FootnoteRef { label };
                continue;
            } else {
                words.clone()
            };
            if let Inline::Span { content: slot, .. } = &mut inlines[i] {
                *slot = content;
            }
        }
    });
    blocks.extend(notes);
}

/// The number (from 0) and id of an unfilled citation placeholder.
fn placeholder_of(inline: &Inline) -> Option<(usize, String)> {
    let Inline::Span {
        class,
        attrs,
        content,
        ..
    } = inline
    else {
        return None;
    };
    if class != CITATION || !content.is_empty() {
        return None;
    }
    let id = attrs.get("id")?;
    let n = id
        .strip_prefix("cite-")?
        .parse::<usize>()
        .ok()?
        .checked_sub(1)?;
    Some((n, id.clone()))
}

fn entry_block(entry: &stoa_cite::Entry, first_cite: Option<usize>, back: &str) -> Block {
    let mut content = Vec::new();
    if let Some(label) = &entry.label {
        content.extend(label.iter().cloned());
        content.push(Inline::text(" "));
    }
    content.extend(entry.content.iter().cloned());
    if let Some(n) = first_cite {
        // A screen's way back, which print leaves out (the theme's
        // `back-link`).
        content.push(Inline::Span {
            role: None,
            class: "back-link".into(),
            attrs: Attrs::new(),
            content: vec![
                Inline::text(" "),
                Inline::Link {
                    url: format!("#{}", cite_id(n)),
                    title: back.into(),
                    content: vec![Inline::text("\u{21a9}\u{fe0e}")],
                },
            ],
        });
    }
    let mut attrs = Attrs::new();
    attrs.insert("id".into(), entry_id(&entry.key));
    Block::Div {
        role: Some(stoa_doc::Role::Other(stoa_doc::BIBLIOENTRY_ROLE.into())),
        class: "bibliography-entry".into(),
        attrs,
        blocks: vec![Block::Paragraph { content }],
    }
}

fn heading(title: &str, id: &str) -> Block {
    Block::Heading {
        level: 2,
        id: id.into(),
        content: vec![Inline::text(title)],
    }
}

fn list(entries: Vec<Block>) -> Block {
    Block::Div {
        role: None,
        class: "bibliography".into(),
        attrs: Attrs::new(),
        blocks: entries,
    }
}

/// The "References" appendix, with a slug no post has.
fn references_chapter(title: &str, entries: Vec<Block>, chapters: &[Chapter]) -> Chapter {
    let taken = |slug: &str| chapters.iter().any(|c| c.slug == slug);
    let slug = std::iter::once("references".to_string())
        .chain((2..).map(|n| format!("references-{n}")))
        .find(|slug| !taken(slug))
        .unwrap_or_default();
    Chapter {
        slug,
        kind: ChapterKind::Appendix,
        role: Some(stoa_doc::Role::Other(stoa_doc::BIBLIOGRAPHY_ROLE.into())),
        title: title.into(),
        blocks: vec![list(entries)],
        ..Chapter::default()
    }
}

/// Typographic quotes and dashes in every text of `inlines`.
fn smarten(inlines: &mut [Inline]) {
    for inline in inlines.iter_mut() {
        match inline {
            Inline::Text { text } => *text = stoa_markdown::smarten(text),
            other => {
                if let Some(children) = other.children_mut() {
                    smarten(children);
                }
            }
        }
    }
}

/// A problem at its place in the chapter's post: the first place in the
/// file where its text is.
fn locate(chapter: &Chapter, problem: &Problem) -> Diagnostic {
    let mut diagnostic = Diagnostic::error(problem.message.clone()).with_hint(problem.hint.clone());
    let Some(source) = chapter.source.as_deref() else {
        return diagnostic;
    };
    diagnostic = diagnostic.in_file(source);
    if let Ok(file) = SourceFile::read(Path::new(source))
        && let Some(offset) = file.text.find(&problem.needle)
    {
        let (line, column) = line_col(&file.text, offset);
        diagnostic = diagnostic.at(line, column);
    }
    diagnostic
}
