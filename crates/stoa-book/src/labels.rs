//! `[labels.<lang>]` in book.toml: the words stoa prints around the text,
//! given or replaced per language. For a language stoa's table has no words
//! for, these are how the book gets out of English; each key left out stays
//! English and the edition warns once, naming the keys to write.

use crate::lang::Language;
use crate::source::SourceFile;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use std::collections::BTreeMap;
use stoa_doc::Diagnostic;
use stoa_locale::LABEL_KEYS;

/// One `[labels.<lang>]` table as written: the words given, by key, in the
/// order of [`LABEL_KEYS`] (stoa's locale table says which keys there are).
#[derive(Debug, Default, Deserialize)]
#[serde(transparent)]
pub struct LabelsConfig(BTreeMap<Key, String>);

impl LabelsConfig {
    /// The keys given, with their values.
    fn given(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.0
            .iter()
            .map(|(key, value)| (LABEL_KEYS[key.0], value.as_str()))
    }
}

/// A key of `[labels.<lang>]`, as its place in [`LABEL_KEYS`]. An unknown
/// key is an error at its line, as for any other table of book.toml, and
/// the message lists the keys (whence the hint with the key meant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Key(usize);

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        match LABEL_KEYS.iter().position(|key| *key == name) {
            Some(at) => Ok(Key(at)),
            None => Err(D::Error::unknown_field(&name, LABEL_KEYS)),
        }
    }
}

/// Applies the `[labels.<lang>]` tables to `languages`, and records where
/// each tag is written for the warning about labels still in English.
/// Errors: a table for a language the book is not in, an empty or
/// multi-line label.
pub(crate) fn apply(
    file: &SourceFile,
    tables: &BTreeMap<String, LabelsConfig>,
    languages: &mut [Language],
    errors: &mut Vec<Diagnostic>,
) {
    let list = file.find("languages", 0);
    for language in languages.iter_mut() {
        let at = file.find(&format!("\"{}\"", language.tag), list);
        language.position = crate::source::line_col(&file.text, at);
    }
    for (tag, table) in tables {
        let header = table_offset(file, tag);
        let listed: Vec<String> = languages.iter().map(|l| l.tag.clone()).collect();
        let Some(language) = languages.iter_mut().find(|l| l.tag == *tag) else {
            errors.push(unlisted(file, header, tag, &listed));
            continue;
        };
        for (key, value) in table.given() {
            let at = file.find(key, header);
            if value.trim().is_empty() {
                errors.push(
                    file.error_at(at, format!("`labels.{tag}.{key}` is empty"))
                        .with_hint("write the word, or remove the key to keep stoa's"),
                );
                continue;
            }
            if let Some(c) = crate::text::forbidden(value) {
                let (message, hint) = crate::text::message(&format!("labels.{tag}.{key}"), c);
                errors.push(file.error_at(at, message).with_hint(hint));
                continue;
            }
            if let Some(word) = language.labels.get_mut(key) {
                *word = crate::text::one_line(value);
            }
            language.missing_labels.retain(|k| k != &key);
        }
    }
}

/// The byte offset of the `[labels.<tag>]` header (or of `labels` when the
/// tables are written inline).
fn table_offset(file: &SourceFile, tag: &str) -> usize {
    for header in [format!("[labels.{tag}]"), format!("[labels.\"{tag}\"]")] {
        if let Some(i) = file.text.find(&header) {
            return i;
        }
    }
    file.find("labels", 0)
}

/// A `[labels.<tag>]` for a language the book is not in: most likely a
/// typo of one it is in.
fn unlisted(file: &SourceFile, at: usize, tag: &str, listed: &[String]) -> Diagnostic {
    let hint = match crate::suggest::did_you_mean(tag, listed) {
        Some(near) => format!("{near} The tag must be one of `languages`"),
        None => "write the tag as it is in `languages`, or add the language there".to_string(),
    };
    file.error_at(
        at,
        format!("`[labels.{tag}]` is for `{tag}`, which is not in `languages`"),
    )
    .with_hint(hint)
}

/// The one warning of an edition whose language stoa has no words for and
/// whose book left some labels out: which they are and how to give them.
pub(crate) fn missing_warning(file: &str, language: &Language) -> Option<Diagnostic> {
    if language.missing_labels.is_empty() {
        return None;
    }
    let tag = &language.tag;
    let keys = language.missing_labels.join(", ");
    let example = language.missing_labels[0];
    Some(
        Diagnostic::warning(format!(
            "stoa has no words for `{tag}`: the {tag} edition prints these labels in English: \
             {keys}; give them under [labels.{tag}] in book.toml"
        ))
        .in_file(file)
        .at(language.position.0, language.position.1)
        .with_hint(format!(
            "e.g. [labels.{tag}] {example} = \"…\" (docs/reference.md lists the keys); the web \
             edition's links, the download page and dates stay in English"
        )),
    )
}

#[cfg(test)]
mod tests {
    use crate::config::BookConfig;
    use stoa_doc::Diagnostic;

    const BOOK: &str = r#"author = "A. Author"
languages = ["sw", "es-MX"]
identifier = "urn:uuid:00000000-0000-0000-0000-000000000001"
posts = ["one"]

[title]
sw = "Kichwa"
es-MX = "Título"
"#;

    fn load(extra: &str) -> Result<BookConfig, Vec<Diagnostic>> {
        crate::config::load_text(&format!("{BOOK}{extra}"))
    }

    #[test]
    fn a_language_without_words_gets_english_and_says_which() {
        let config = load("").unwrap();
        let it = &config.languages[0];
        assert_eq!(it.labels.contents, "Contents");
        assert_eq!(it.missing_labels, super::LABEL_KEYS);
        assert_eq!(it.position, (2, 14));
        let warning = super::missing_warning("book.toml", it).unwrap();
        assert!(warning.message.contains("`sw`"), "{warning}");
        assert!(warning.message.contains("about-author, notes"), "{warning}");
        assert_eq!(warning.line, Some(2));
        assert!(warning.hint.unwrap().contains("[labels.sw]"));
        assert!(super::missing_warning("book.toml", &config.languages[1]).is_none());
    }

    #[test]
    fn labels_replace_words_and_leave_the_rest_to_warn_about() {
        let config = load(
            "\n[labels.sw]\ncontents = \"Indice\"\nglossary = \"Glossario\"\n\n[labels.es-MX]\nnotes = \"Notas finales\"\n",
        )
        .unwrap();
        let it = &config.languages[0];
        assert_eq!(it.labels.contents, "Indice");
        assert_eq!(it.labels.glossary, "Glossario");
        assert_eq!(it.labels.notes, "Notes");
        assert!(!it.missing_labels.contains(&"contents"));
        assert_eq!(it.missing_labels.len(), super::LABEL_KEYS.len() - 2);
        let es = &config.languages[1];
        assert_eq!(es.labels.notes, "Notas finales");
        assert_eq!(es.labels.contents, "Índice");
        assert!(es.missing_labels.is_empty());
        // Every key given: no warning.
        let all: String = super::LABEL_KEYS
            .iter()
            .map(|k| format!("{k} = \"x\"\n"))
            .collect();
        let config = load(&format!("\n[labels.sw]\n{all}")).unwrap();
        assert!(super::missing_warning("b", &config.languages[0]).is_none());
    }

    #[test]
    fn unknown_keys_and_languages_are_errors_at_their_line() {
        let errs = load("\n[labels.sw]\ncontnts = \"Indice\"\n").unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(errs[0].message.contains("contnts"), "{}", errs[0]);
        assert_eq!(errs[0].line, Some(11));
        assert!(
            errs[0]
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `contents`?"),
            "{}",
            errs[0]
        );
        let errs = load("\n[labels.es-MZ]\nnotes = \"Notas\"\n").unwrap_err();
        assert_eq!(errs.len(), 1, "{errs:?}");
        assert!(
            errs[0].message.contains("not in `languages`"),
            "{}",
            errs[0]
        );
        assert_eq!(errs[0].line, Some(10));
        assert!(
            errs[0]
                .hint
                .as_deref()
                .unwrap()
                .contains("did you mean `es-MX`?")
        );
        let errs = load("\n[labels.sw]\nnotes = \"  \"\ncover = \"a\\u0007b\"\n").unwrap_err();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert_eq!((errs[0].line, errs[1].line), (Some(11), Some(12)));
    }
}
