//! The languages stoa can set a book in, and the words it prints in each:
//! the tag is checked here (any well-formed BCP 47 language tag), the words
//! come from the one locale table, `stoa_locale`, which every renderer and
//! the download page read too. A language the table has no words for gets
//! English ones, which the book's `[labels.<lang>]` may replace (see
//! [`crate::labels`]); the build warns about those still in English.

use icu_locale_core::LanguageIdentifier;
use stoa_doc::Labels;
use stoa_locale::LABEL_KEYS;

/// A language of a book: its tag and its labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Language {
    /// The BCP 47 tag as the author wrote it, e.g. `pt-BR`.
    pub tag: String,
    /// The words around the content.
    pub labels: Labels,
    /// The `[labels.<lang>]` keys still in English because stoa has no
    /// words for the language and the book gave none; empty for a language
    /// stoa knows.
    pub missing_labels: Vec<&'static str>,
    /// Line and column of the tag in `languages`, for the warning about
    /// `missing_labels`.
    pub position: (usize, usize),
    /// Where note calls go beside punctuation: the language's usage, or
    /// book.toml's `[notes] call`; as written for a language stoa does not know.
    pub note_call: stoa_locale::NoteCall,
}

impl Language {
    /// Looks a tag up. `Err` says why the tag is not usable: it is not a
    /// BCP 47 language tag, or not written in the canonical case.
    pub fn parse(tag: &str) -> Result<Self, String> {
        let id = LanguageIdentifier::try_from_str(tag).map_err(|_| {
            // `pt_BR` is the usual slip: POSIX locales join with `_`.
            match LanguageIdentifier::try_from_str(&tag.replace('_', "-")) {
                Ok(id) if tag.contains('_') => format!(
                    "`{tag}` is not a language tag: BCP 47 joins its parts with `-`: write `{id}`"
                ),
                _ => format!(
                    "`{tag}` is not a language tag (BCP 47), such as `it`, `pt-BR` or `zh-Hant-TW`"
                ),
            }
        })?;
        if id.language.is_unknown() {
            return Err(format!(
                "`{tag}` names no language: write the book's language, such as `en` or `pt-BR`"
            ));
        }
        let canonical = id.to_string();
        if canonical != tag {
            return Err(format!(
                "`{tag}` is not a language tag as BCP 47 writes it: write `{canonical}`"
            ));
        }
        let (labels, missing_labels) = match stoa_locale::locale(tag) {
            Some(locale) => (Labels::from(&locale.book), Vec::new()),
            None => (
                Labels::from(&stoa_locale::LOCALES[0].book),
                LABEL_KEYS.to_vec(),
            ),
        };
        Ok(Language {
            tag: tag.to_string(),
            labels,
            missing_labels,
            position: (1, 1),
            note_call: stoa_locale::locale(tag)
                .map_or(stoa_locale::NoteCall::AsWritten, |l| l.note_call),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_portuguese_and_english() {
        assert_eq!(Language::parse("pt-BR").unwrap().labels.contents, "Sumário");
        assert_eq!(Language::parse("en").unwrap().labels.contents, "Contents");
    }

    #[test]
    fn the_words_are_those_of_the_locale_table() {
        for tag in ["en", "pt-BR", "es", "es-MX", "fr-CA", "de-AT"] {
            let language = Language::parse(tag).unwrap();
            let words = &stoa_locale::locale(tag).unwrap().book;
            assert_eq!(language.labels, Labels::from(words), "{tag}");
            assert!(language.missing_labels.is_empty(), "{tag}");
        }
        assert_eq!(Language::parse("de-AT").unwrap().labels.glossary, "Glossar");
    }

    #[test]
    fn other_languages_get_english_words_and_say_which() {
        for tag in ["sw", "fi", "eo", "cy", "sr-Latn-RS"] {
            let language = Language::parse(tag).unwrap_or_else(|e| panic!("{tag}: {e}"));
            assert_eq!(language.labels.contents, "Contents", "{tag}");
            assert_eq!(language.missing_labels, LABEL_KEYS, "{tag}");
        }
        // es-419 (Latin American Spanish) is Spanish: nothing is missing.
        assert!(Language::parse("es-419").unwrap().missing_labels.is_empty());
    }

    #[test]
    fn refuses_malformed_tags_with_the_fix() {
        let snake = Language::parse("pt_BR").unwrap_err();
        assert!(
            snake.contains("write `pt-BR`") || snake.contains("not a BCP 47"),
            "{snake}"
        );
        let upper = Language::parse("PT").unwrap_err();
        assert!(upper.contains("write `pt`"), "{upper}");
        assert!(
            Language::parse("pt-br")
                .unwrap_err()
                .contains("write `pt-BR`")
        );
        for bad in ["", "x", "pt-BRA-", "12", "und", "en-"] {
            assert!(Language::parse(bad).is_err(), "{bad}");
        }
    }
}
