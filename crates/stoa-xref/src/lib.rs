//! Numbered figures, tables, listings and equations, and the references to
//! them: labels found in the posts, numbered once per edition, every
//! `@fig:name` made a link that prints the target's number.
//!
//! # Steps
//! 1. [`find`]: in each post, an image alone in its paragraph followed by
//!    `{#fig:name}`, a display formula followed by `{#eq:name}`, and a
//!    caption paragraph (`: The caption {#tbl:name}`) next to a table, a
//!    code block or a diagram become numbered elements of the tree
//!    ([`stoa_doc::xref`] says their shape), in reading order, through the
//!    book or per chapter.
//! 2. [`refs`]: each `@fig:name`, `[@fig:name]` or `-@fig:name` (the
//!    number alone) becomes a link to its element reading "Figure 3", or
//!    "Figure 2.3" numbered per chapter; in print the page follows when
//!    the element is on another page.
//! 3. The lists of figures and of tables, when book.toml asks for them,
//!    as appendices after the posts.
//!
//! The labels are pandoc-crossref's, so that a post reads the same in
//! both. An unknown or repeated label is an error at its line.

mod find;
mod lists;
mod refs;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use stoa_doc::xref::Kind;
use stoa_doc::{Book, Diagnostic, Style};

/// How the book numbers its elements, from book.toml's `[figures]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// `numbering = "chapter"`: Figure 2.3 is the third of the second post;
    /// otherwise figures are numbered through the book.
    pub per_chapter: bool,
    /// `list-of-figures = true`.
    pub list_of_figures: bool,
    /// `list-of-tables = true`.
    pub list_of_tables: bool,
}

/// A numbered element: what it is, where, and its number as printed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Target {
    pub(crate) kind: Kind,
    pub(crate) chapter: usize,
    pub(crate) number: String,
    /// The caption's text, for the lists (none for an equation).
    pub(crate) caption: Vec<stoa_doc::Inline>,
    /// Its place in reading order among all the targets.
    pub(crate) order: usize,
}

/// The labels of an edition, by name (`fig:wall`).
pub(crate) type Targets = HashMap<String, Target>;

/// Numbers the labelled elements of `book`, makes its references links and
/// adds the lists book.toml asks for; returns the warnings (a label no
/// reference uses). The errors (a label used twice, a reference to no
/// label, a caption next to nothing it can caption) are at their post's
/// line and column.
pub fn apply(book: &mut Book, settings: &Settings) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let mut problems = Vec::new();
    let targets = find::number(book, settings, &mut problems);
    let referenced = refs::link(book, &targets, &mut problems);
    if !problems.is_empty() {
        return Err(problems.iter().map(|p| p.locate(book, false)).collect());
    }
    if targets.is_empty() && referenced.is_empty() {
        return Ok(Vec::new());
    }
    let mut unused: Vec<(&String, &Target)> = targets
        .iter()
        // A `\tag` without a `\label` (MathJax's way): a number the
        // author wanted shown, which nothing can refer to.
        .filter(|(label, _)| !referenced.contains(label.as_str()) && !label.starts_with("eq:tag-"))
        .collect();
    unused.sort_by_key(|(_, t)| t.order);
    let warnings = unused
        .into_iter()
        .map(|(label, target)| {
            Problem {
                chapter: target.chapter,
                needle: format!("{{#{label}}}"),
                nth: 0,
                message: format!("the label `{label}` is never referenced"),
                hint: format!(
                    "refer to it as @{label} (the book prints its number), or leave the \
                     {} unnumbered",
                    target.kind.name()
                ),
            }
            .locate(book, true)
        })
        .collect();
    lists::add(book, &targets, settings);
    add_styles(book);
    Ok(warnings)
}

/// A mistake found in a post: the chapter, the text to find in its source
/// (the `nth` time it occurs there, from 0), what is wrong and what to do.
pub(crate) struct Problem {
    pub(crate) chapter: usize,
    pub(crate) needle: String,
    pub(crate) nth: usize,
    pub(crate) message: String,
    pub(crate) hint: String,
}

impl Problem {
    /// The error (or the warning), at the needle's line and column in the
    /// post's file when it can be read.
    fn locate(&self, book: &Book, warning: bool) -> Diagnostic {
        let d = if warning {
            Diagnostic::warning(self.message.clone())
        } else {
            Diagnostic::error(self.message.clone())
        };
        let d = d.with_hint(self.hint.clone());
        let Some(source) = book
            .chapters
            .get(self.chapter)
            .and_then(|c| c.source.as_deref())
        else {
            return d;
        };
        let d = d.in_file(source);
        let Ok(text) = std::fs::read_to_string(source) else {
            return d;
        };
        // `@fig:wal` is not the start of `@fig:wall`.
        let whole = |&(at, _): &(usize, &str)| {
            !text[at + self.needle.len()..]
                .starts_with(|c: char| c.is_alphanumeric() || c == '-' || c == '_')
        };
        let found = text.match_indices(&self.needle).filter(whole).nth(self.nth);
        // An equation labelled or referred to the MathJax way is written
        // `\label{key}` or `\eqref{key}`: found by its key.
        let found = found.or_else(|| {
            let key = self.needle.split_once("eq:")?.1.trim_end_matches('}');
            text.match_indices(&format!("{{{key}}}")).next()
        });
        match found {
            Some((offset, _)) => {
                let (line, column) = stoa_book::line_col(&text, offset);
                d.at(line, column)
            }
            None => d,
        }
    }
}

/// The look of captions, numbered equations and references, per format:
/// contributed only to a book that numbers something, so that every other
/// book is set exactly as before.
fn add_styles(book: &mut Book) {
    book.styles
        .extend(Style::for_every_format("xref", CSS, TYPST));
}

/// The style sheet of figures and equations, for EPUB and the web edition.
pub const CSS: &str = include_str!("xref.css");
/// The Typst styles: captions, equation numbers, pages after references.
pub const TYPST: &str = include_str!("xref.typ");

/// "Figure 3" in the book's words, with a no-break space: the label and
/// its number never part at a line's end.
pub(crate) fn label_text(l: &stoa_doc::Labels, kind: Kind, number: &str) -> String {
    let word = match kind {
        Kind::Figure => &l.figure,
        Kind::Table => &l.table,
        Kind::Listing => &l.listing,
        Kind::Equation => &l.equation,
    };
    match kind {
        Kind::Equation => format!("{word}\u{a0}({number})"),
        _ => format!("{word}\u{a0}{number}"),
    }
}
