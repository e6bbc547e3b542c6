//! What is wrong in a bibliography file, and where: the error every reader
//! of a format gives (BibTeX, CSL-JSON, YAML), in a module of its own so
//! that the readers and the library that calls them share it without
//! leaning on each other.

use std::fmt;

/// What is wrong in a bibliography file, and where (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceError {
    /// The line of the mistake.
    pub line: usize,
    /// The column (in characters) of the mistake.
    pub column: usize,
    /// What is wrong, in a sentence.
    pub message: String,
}

impl fmt::Display for SourceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// The 1-based line and column of byte `offset` in `text`.
pub(crate) fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset.min(text.len()))];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}
