//! Markdown to the stoa document tree: CommonMark with tables, footnotes,
//! strikethrough, task lists, smart punctuation and heading ids, via pulldown-cmark.

mod build;
mod html;
mod ids;
mod lines;
mod typography;

pub use ids::slugify;
pub use typography::{bind_punctuation, smarten};

use stoa_doc::{Block, Diagnostic};

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
    build::Builder::new(body, first_line).run()
}

#[cfg(test)]
mod tests;
