//! Markdown to the stoa document tree: CommonMark with tables, footnotes,
//! strikethrough, task lists, smart punctuation and heading ids, via pulldown-cmark.

mod build;
mod html;
mod ids;
mod index_marks;
pub use index_marks::strip_index_marks;
mod lines;
mod mathjax;
mod options;
mod raw_block;
mod raw_inline;
mod tag_node;
mod tokens;
mod typography;
mod url;

pub use ids::{free_id, name_slug, slugify};
pub use options::{PARSER_OPTIONS, VERBATIM_OPTIONS};
pub use stoa_doc::{TOKEN_CLASS, TOKEN_ROLE, is_token};
pub use typography::{bind_punctuation, smarten};
/// Link targets: percent-encoding what a URL forbids, and decoding it.
pub use url::decode as percent_decode;

use stoa_doc::{Block, Diagnostic};

/// Levels of nesting a post may use: block quotes, list items, notes and
/// inlines that hold inlines (emphasis, links, language spans) each count one.
/// Deeper input is an error at the line where it goes too deep (its excess
/// levels are folded into the deepest one allowed meanwhile), so that no
/// later walk over the tree can exhaust the stack. A list nested 200 deep
/// is still accepted; real prose rarely goes past five.
pub const MAX_NESTING: usize = 256;

/// Of those, levels of inlines that hold inlines (emphasis, strong,
/// strikethrough, links, language spans): each is a call nested in the
/// PDF's Typst source, whose parser stops at 256 levels, and no reader
/// can follow more than a few.
pub const MAX_INLINE_NESTING: usize = 32;

// A list level is two levels of the tree (the list, the item's blocks), and
// a paragraph and its text two more: what Markdown may produce must fit
// what the renderers are given.
const _: () = assert!(2 * MAX_NESTING + 2 <= stoa_doc::MAX_TREE_DEPTH);

/// Where a construct starts in the source file (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    /// Line in the file.
    pub line: usize,
    /// Column in characters.
    pub column: usize,
}

/// An image the post refers to, with where the reference stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImageRef {
    /// The path as written.
    pub url: String,
    /// Where it is written.
    pub pos: Pos,
}

/// The result of parsing one post's body.
#[derive(Clone, Debug, Default)]
pub struct Parsed {
    /// The content.
    pub blocks: Vec<Block>,
    /// Every image, in order, so the caller can check and copy the files.
    pub images: Vec<ImageRef>,
    /// Warnings and errors, without a file name (the caller adds it).
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses a post's Markdown body.
///
/// `first_line` is the line of the file on which `body` starts (after the
/// front matter), so that positions in diagnostics match the file.
pub fn parse(body: &str, first_line: usize) -> Parsed {
    let Some(first) = body.find(forbidden) else {
        return build::Builder::new(body, first_line).run();
    };
    // Characters XML forbids would reach every format (an EPUB's toc.ncx
    // is then unreadable): each becomes as many spaces as it has bytes, so
    // every offset, hence every line, stays true.
    let clean: String = body
        .chars()
        .flat_map(|c| {
            let n = if forbidden(c) { c.len_utf8() } else { 0 };
            (n == 0)
                .then_some(c)
                .into_iter()
                .chain(std::iter::repeat_n(' ', n))
        })
        .collect();
    let mut parsed = build::Builder::new(&clean, first_line).run();
    let pos = lines::LineIndex::new(body, first_line).pos(first);
    let c = body[first..].chars().next().unwrap_or(' ');
    parsed.diagnostics.push(
        Diagnostic::warning(format!(
            "the control character U+{:04X} (and any other) is removed",
            c as u32
        ))
        .at(pos.line, pos.column)
        .with_hint("no book format can hold it; retype the text around it"),
    );
    parsed
}

/// Controls but tab and line breaks, and noncharacters: what XML 1.0 forbids.
fn forbidden(c: char) -> bool {
    let n = c as u32;
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || (0xfdd0..=0xfdef).contains(&n)
        || n & 0xfffe == 0xfffe
}

#[cfg(test)]
mod tests;
