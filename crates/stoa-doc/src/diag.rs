//! Diagnostics: what went wrong or looks wrong, and where.

use serde::{Deserialize, Serialize};
use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The output is made, but something deserves a look.
    Warning,
    /// The output cannot be made.
    Error,
}

/// A message about the input, with the place it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// Warning or error.
    pub severity: Severity,
    /// The file concerned, as the user would type it.
    #[serde(default)]
    pub file: Option<String>,
    /// 1-based line.
    #[serde(default)]
    pub line: Option<usize>,
    /// 1-based column, in characters.
    #[serde(default)]
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    #[serde(default)]
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error with a message and nothing else.
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }

    /// A warning with a message and nothing else.
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }

    fn new(severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            file: None,
            line: None,
            column: None,
            message: message.into(),
            hint: None,
        }
    }

    /// Names the file concerned.
    pub fn in_file(mut self, file: impl Into<String>) -> Self {
        self.file = Some(file.into());
        self
    }

    /// Names the line and column (both 1-based).
    pub fn at(mut self, line: usize, column: usize) -> Self {
        self.line = Some(line);
        self.column = Some(column);
        self
    }

    /// Says what to do.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// True for errors.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:column: error: message` then the hint, like a compiler.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{file}")?;
            if let Some(line) = self.line {
                write!(f, ":{line}")?;
                if let Some(column) = self.column {
                    write!(f, ":{column}")?;
                }
            }
            write!(f, ": ")?;
        }
        let level = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(f, "{level}: {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  help: {hint}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_like_a_compiler() {
        let d = Diagnostic::error("missing `title`")
            .in_file("books/posts/a/en.md")
            .at(2, 1)
            .with_hint("add `title = \"...\"` to the front matter");
        assert_eq!(
            d.to_string(),
            "books/posts/a/en.md:2:1: error: missing `title`\n  help: add `title = \"...\"` to the front matter"
        );
    }

    #[test]
    fn omits_what_is_unknown() {
        assert_eq!(Diagnostic::warning("w").to_string(), "warning: w");
        assert_eq!(
            Diagnostic::warning("w").in_file("f").to_string(),
            "f: warning: w"
        );
    }
}
