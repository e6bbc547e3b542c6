//! Content lints for `stoa check`: what builds but reads wrong in a book, such
//! as web-only phrases, lead-ins that introduce nothing or a "table above" with no table.

mod allow;
mod glossary;
mod links;
mod scan;
mod structure;
mod syntax;
mod words;

use std::path::Path;

pub use allow::ALLOW_KEY;

/// A lint: one kind of finding, silenced by its id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lint {
    /// A paragraph ending in `:` followed by a heading, a rule or nothing.
    DanglingLeadIn,
    /// "the table above", "a figura abaixo" with no such table or figure there.
    MissingReferent,
    /// Words that only make sense on a web page: "click", "at the top of the page".
    WebOnly,
    /// A sentence in another language than the post's.
    ForeignSentence,
    /// A glossary term the post never uses.
    UnusedGlossaryTerm,
    /// A link to an anchor or a file that does not exist.
    BrokenLink,
    /// A heading with nothing under it.
    EmptySection,
    /// A silence that is malformed, has no reason, or silences nothing.
    Silence,
    /// A Hugo or Zola shortcode, a Liquid tag, or what `stoa import` could
    /// not convert, left in a post.
    ToolSyntax,
}

impl Lint {
    /// Every lint, in the order they are documented.
    pub const ALL: [Lint; 9] = [
        Lint::DanglingLeadIn,
        Lint::MissingReferent,
        Lint::WebOnly,
        Lint::ForeignSentence,
        Lint::UnusedGlossaryTerm,
        Lint::BrokenLink,
        Lint::EmptySection,
        Lint::Silence,
        Lint::ToolSyntax,
    ];

    /// The id an author writes to silence it.
    pub fn id(self) -> &'static str {
        match self {
            Lint::DanglingLeadIn => "dangling-lead-in",
            Lint::MissingReferent => "missing-referent",
            Lint::WebOnly => "web-only",
            Lint::ForeignSentence => "foreign-sentence",
            Lint::UnusedGlossaryTerm => "unused-glossary-term",
            Lint::BrokenLink => "broken-link",
            Lint::EmptySection => "empty-section",
            Lint::Silence => "silence",
            Lint::ToolSyntax => "tool-syntax",
        }
    }

    /// The lint of an id.
    pub fn from_id(id: &str) -> Option<Lint> {
        Lint::ALL.into_iter().find(|l| l.id() == id)
    }
}

/// One thing a lint found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// Which lint.
    pub lint: Lint,
    /// 1-based line in the file.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub hint: String,
}

/// A post to lint.
pub struct Post<'a> {
    /// The whole file, front matter included, so that lines are the file's.
    pub text: &'a str,
    /// Where the Markdown body starts (after the front matter).
    pub body_start: usize,
    /// The byte range of the front matter's TOML, if any.
    pub front: std::ops::Range<usize>,
    /// The front matter's keys when it is not TOML (YAML between `---`
    /// lines, read by stoa-book); `None`: `front` is read as TOML.
    pub front_table: Option<toml::Table>,
    /// The post's language tag, e.g. `pt-BR`.
    pub lang: &'a str,
    /// The post's folder, against which relative links are checked.
    pub dir: Option<&'a Path>,
    /// Headings that introduce a glossary besides the words of stoa's
    /// locale table (`[plugins.glossary] headings` of the book).
    pub glossary_headings: &'a [String],
}

/// Where a lint found something, as a byte offset in the file.
pub(crate) struct Hit {
    pub lint: Lint,
    pub offset: usize,
    pub message: String,
    pub hint: String,
}

/// Runs every lint on `post`, drops what its silences allow, and returns
/// the findings sorted by line, column and lint.
pub fn lint_post(post: &Post) -> Vec<Finding> {
    let body = post.text.get(post.body_start..).unwrap_or("");
    let blocks = scan::blocks(body, post.body_start);
    let mut hits = Vec::new();
    structure::dangling_lead_ins(&blocks, &mut hits);
    structure::empty_sections(&blocks, &mut hits);
    structure::missing_referents(&blocks, &mut hits);
    words::web_only(&blocks, &mut hits);
    words::foreign_sentences(&blocks, post.lang, &mut hits);
    glossary::unused_terms(&blocks, post.glossary_headings, &mut hits);
    links::broken_links(&blocks, post.dir, &mut hits);
    syntax::leftover_syntax(&blocks, post.text, &mut hits);
    let hits = allow::apply(post, &blocks, hits);
    let lines = LineIndex::new(post.text);
    let mut findings: Vec<Finding> = hits
        .into_iter()
        .map(|h| {
            let (line, column) = lines.at(h.offset);
            Finding {
                lint: h.lint,
                line,
                column,
                message: h.message,
                hint: h.hint,
            }
        })
        .collect();
    findings.sort_by_key(|f| (f.line, f.column, f.lint));
    findings.dedup();
    findings
}

/// Byte offsets to 1-based lines and columns.
struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    fn new(text: &'a str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { text, starts }
    }

    fn at(&self, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(self.text.len());
        while !self.text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let column = self.text[self.starts[line]..offset].chars().count() + 1;
        (line + 1, column)
    }
}

/// The post with a front matter of `front` lines and `body`, for tests.
#[cfg(test)]
pub(crate) fn test_post(front: &str, body: &str, lang: &str) -> Vec<Finding> {
    let text = format!("+++\ntitle = \"t\"\n{front}+++\n{body}");
    let front_end = text.rfind("+++\n").unwrap_or(0);
    let post = Post {
        text: &text,
        body_start: front_end + 4,
        front: 4..front_end,
        front_table: None,
        lang,
        dir: None,
        glossary_headings: &[],
    };
    lint_post(&post)
}

#[cfg(test)]
pub(crate) fn ids(findings: &[Finding]) -> Vec<&'static str> {
    findings.iter().map(|f| f.lint.id()).collect()
}
