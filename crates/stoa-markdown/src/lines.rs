//! Byte offsets to line and column.

use crate::Pos;

/// The start offset of every line of a text.
pub struct LineIndex<'a> {
    text: &'a str,
    starts: Vec<usize>,
    first_line: usize,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text`, whose first line is line `first_line` of its file.
    pub fn new(text: &'a str, first_line: usize) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex {
            text,
            starts,
            first_line,
        }
    }

    /// The position of a byte offset.
    pub fn pos(&self, offset: usize) -> Pos {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let column = self.text[start..offset].chars().count() + 1;
        Pos {
            line: line + self.first_line,
            column,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_and_characters() {
        let idx = LineIndex::new("ab\nçd\n", 5);
        assert_eq!(idx.pos(0), Pos { line: 5, column: 1 });
        assert_eq!(idx.pos(3), Pos { line: 6, column: 1 });
        assert_eq!(idx.pos(5), Pos { line: 6, column: 2 });
    }
}
