//! Reading a text file the user wrote, with errors that point into it.

use std::path::{Path, PathBuf};
use stoa_doc::Diagnostic;

/// A UTF-8 text file and the name to show for it.
#[derive(Debug)]
pub struct SourceFile {
    /// Where it is.
    pub path: PathBuf,
    /// How diagnostics name it.
    pub display: String,
    /// Its content.
    pub text: String,
}

impl SourceFile {
    /// Reads `path`; a missing file or invalid UTF-8 is an error that says where.
    pub fn read(path: &Path) -> Result<Self, Diagnostic> {
        let display = path.display().to_string();
        let max = crate::limits::MAX_TEXT_BYTES;
        crate::limits::regular_file(path, max).map_err(|why| {
            Diagnostic::error(format!("the file {why}"))
                .in_file(&display)
                .with_hint("a post or book.toml is a plain text file of at most 4 MiB; split a longer post in two")
        })?;
        let bytes = crate::limits::read_bounded(path, max).map_err(|e| {
            Diagnostic::error(format!("cannot read the file: {e}")).in_file(&display)
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
            let (line, column) = line_col(&String::from_utf8_lossy(valid), valid.len());
            Diagnostic::error("the file is not valid UTF-8")
                .in_file(&display)
                .at(line, column)
                .with_hint(
                    "save the file as UTF-8 (most editors have it under “Save with encoding”)",
                )
        })?;
        Ok(SourceFile {
            path: path.to_path_buf(),
            display,
            text,
        })
    }

    /// An error at a byte offset of this file.
    pub fn error_at(&self, offset: usize, message: impl Into<String>) -> Diagnostic {
        let (line, column) = line_col(&self.text, offset);
        Diagnostic::error(message)
            .in_file(&self.display)
            .at(line, column)
    }

    /// A TOML or schema error, at the place toml points to, in TOML that
    /// starts `base` bytes into the file (0 for book.toml, where the front
    /// matter starts for a post).
    pub(crate) fn toml_error(&self, e: &toml::de::Error, base: usize) -> Diagnostic {
        let offset = base + e.span().map_or(0, |s| s.start);
        let message = e.message().trim().to_string();
        let hint = if message.starts_with("unknown field") {
            "remove the key or fix its spelling; docs/reference.md lists every key"
        } else if message.starts_with("missing field") {
            "add the key; docs/reference.md lists the required keys"
        } else {
            "see docs/reference.md for the format"
        };
        let hint = match crate::suggest::unknown_name(&message) {
            Some((_, Some(near))) => format!("did you mean `{near}`? {hint}"),
            _ => hint.to_string(),
        };
        self.error_at(offset, message).with_hint(hint)
    }

    /// The byte offset of the first occurrence of `needle` after `from`, or `from`.
    pub fn find(&self, needle: &str, from: usize) -> usize {
        self.text
            .get(from..)
            .and_then(|rest| rest.find(needle))
            .map_or(from, |i| from + i)
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_points_at_the_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.md");
        std::fs::write(&path, b"ok\nab\xff").unwrap();
        let err = SourceFile::read(&path).err().unwrap();
        assert_eq!((err.line, err.column), (Some(2), Some(3)));
        assert!(err.message.contains("UTF-8"));
    }

    #[test]
    fn line_col_counts_characters() {
        assert_eq!(line_col("á\nçb", 5), (2, 2));
    }
}
