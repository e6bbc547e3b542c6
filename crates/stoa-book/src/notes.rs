//! `[notes]` in book.toml: where note calls go beside punctuation, for
//! every language of the book, instead of each language's usage.

use serde::Deserialize;
use stoa_locale::NoteCall;

use crate::lang::Language;

/// The `[notes]` table as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NotesConfig {
    /// `call = "after-punctuation" | "before-punctuation" | "as-written"`;
    /// serde names the three in its error for any other value, at its line.
    call: Option<Call>,
}

#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "kebab-case")]
enum Call {
    AfterPunctuation,
    BeforePunctuation,
    AsWritten,
}

impl NotesConfig {
    /// Gives every language the book's choice, when it made one.
    pub(crate) fn apply(&self, languages: &mut [Language]) {
        let Some(call) = self.call else {
            return;
        };
        let call = match call {
            Call::AfterPunctuation => NoteCall::AfterPunctuation,
            Call::BeforePunctuation => NoteCall::BeforePunctuation,
            Call::AsWritten => NoteCall::AsWritten,
        };
        for language in languages {
            language.note_call = call;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(extra: &str) -> Result<crate::BookConfig, Vec<stoa_doc::Diagnostic>> {
        let dir = tempfile::tempdir().unwrap();
        let toml = format!(
            "title = {{ en = \"T\", pt-BR = \"T\" }}\nauthor = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\nidentifier = \"urn:x\"\nposts = []\n{extra}"
        );
        std::fs::write(dir.path().join(crate::BOOK_FILE), toml).unwrap();
        crate::load_config(dir.path())
    }

    fn calls(config: &crate::BookConfig) -> Vec<NoteCall> {
        config.languages.iter().map(|l| l.note_call).collect()
    }

    #[test]
    fn each_language_has_its_usage_unless_the_book_says() {
        let config = load("").unwrap();
        assert_eq!(
            calls(&config),
            [NoteCall::AfterPunctuation, NoteCall::BeforePunctuation]
        );
        let config = load("\n[notes]\ncall = \"as-written\"\n").unwrap();
        assert_eq!(calls(&config), [NoteCall::AsWritten, NoteCall::AsWritten]);
    }

    #[test]
    fn a_wrong_value_names_the_right_ones_at_its_line() {
        let errors = load("\n[notes]\ncall = \"after\"\n").unwrap_err();
        let text = errors[0].to_string();
        assert!(text.contains("after-punctuation"), "{text}");
        assert_eq!(errors[0].line, Some(8), "{text}");
    }
}
