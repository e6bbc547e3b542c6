//! The terms file, `index.toml` beside book.toml: per language, the
//! entries whose every occurrence is indexed, the words that find them,
//! and their cross-references.
//!
//! ```toml
//! [en]
//! Flink = "Flink"                                  # one phrase
//! "state!keyed" = ["keyed state", "keyed states"]  # a sub-entry, two phrases
//! checkpoint = { find = ["checkpoint"], see-also = ["state"] }
//! "Apache Flink" = { see = "Flink" }               # a cross-reference only
//! ```

use serde::Deserialize;
use std::collections::BTreeMap;
use stoa_doc::Diagnostic;
use toml::Spanned;

/// The name of the terms file in a book's folder.
pub const FILE_NAME: &str = "index.toml";

/// One entry of the terms file, for one language.
#[derive(Clone, Debug, PartialEq)]
pub struct Term {
    /// The entry's levels: `["state", "keyed"]` for `state!keyed`.
    pub entry: Vec<String>,
    /// The phrases that find it in the text, each as its words.
    pub phrases: Vec<Vec<String>>,
    /// The entry to look under instead.
    pub see: Option<String>,
    /// Related entries.
    pub see_also: Vec<String>,
    /// Where the entry is written in the file (line, column, from 1).
    pub at: (usize, usize),
}

/// What a key of the file may hold.
#[derive(Deserialize)]
#[serde(untagged)]
enum Value {
    One(String),
    Many(Vec<String>),
    Full(Full),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
struct Full {
    #[serde(default)]
    find: Vec<String>,
    see: Option<String>,
    #[serde(default)]
    see_also: Vec<String>,
}

type File = BTreeMap<Spanned<String>, BTreeMap<Spanned<String>, Spanned<Value>>>;

/// The terms of the file `text` (named `file` in messages) for the
/// language `lang` (its exact tag, else its primary subtag), checked;
/// `languages` are the book's, for the file's tables.
pub fn parse(
    text: &str,
    file: &str,
    lang: &str,
    languages: &[&str],
) -> Result<Vec<Term>, Vec<Diagnostic>> {
    let at = |offset: usize| line_col(text, offset);
    let parsed: File = toml::from_str(text).map_err(|e| {
        let mut d = Diagnostic::error(format!("{file} is not a valid terms file: {}", e.message()))
            .in_file(file)
            .with_hint(
                "each language is a table (`[en]`) of entries: `Flink = \"Flink\"`, \
                 `\"state!keyed\" = [\"keyed state\"]`, or `x = { find = [...], see = \"...\", see-also = [...] }`",
            );
        if let Some(span) = e.span() {
            let (l, c) = at(span.start);
            d = d.at(l, c);
        }
        vec![d]
    })?;
    let mut errors = Vec::new();
    let primary = lang.split(['-', '_']).next().unwrap_or(lang);
    for tag in parsed.keys() {
        if !languages.contains(&tag.get_ref().as_str()) {
            let (l, c) = at(tag.span().start);
            errors.push(
                Diagnostic::error(format!(
                    "`[{}]`: the book is not written in this language",
                    tag.get_ref()
                ))
                .in_file(file)
                .at(l, c)
                .with_hint(format!(
                    "the book's languages are: {}",
                    languages.join(", ")
                )),
            );
        }
    }
    let table = parsed
        .iter()
        .find(|(tag, _)| tag.get_ref() == lang)
        .or_else(|| parsed.iter().find(|(tag, _)| tag.get_ref() == primary));
    let mut terms = Vec::new();
    for (key, value) in table.map(|(_, t)| t.iter()).into_iter().flatten() {
        let (l, c) = at(key.span().start);
        let entry: Vec<String> = key.get_ref().split('!').map(normalize).collect();
        if entry.iter().any(String::is_empty) {
            errors.push(
                Diagnostic::error(format!(
                    "the entry `{}` is empty or has an empty level",
                    key.get_ref()
                ))
                .in_file(file)
                .at(l, c)
                .with_hint("write the entry's words, sub-entries after `!`: `\"state!keyed\"`"),
            );
            continue;
        }
        let (find, see, see_also) = match value.get_ref() {
            Value::One(p) => (vec![p.clone()], None, Vec::new()),
            Value::Many(p) => (p.clone(), None, Vec::new()),
            Value::Full(f) => (f.find.clone(), f.see.clone(), f.see_also.clone()),
        };
        let phrases: Vec<Vec<String>> = find
            .iter()
            .map(|p| stoa_doc::words::term_words(p))
            .collect();
        if phrases.iter().any(Vec::is_empty) {
            errors.push(
                Diagnostic::error(format!(
                    "the entry `{}` looks for a phrase without words",
                    key.get_ref()
                ))
                .in_file(file)
                .at(l, c)
                .with_hint("each phrase needs a letter or a digit"),
            );
            continue;
        }
        terms.push(Term {
            entry,
            phrases,
            see: see.map(|s| normalize(&s)),
            see_also: see_also.iter().map(|s| normalize(s)).collect(),
            at: (l, c),
        });
    }
    if errors.is_empty() {
        Ok(terms)
    } else {
        Err(errors)
    }
}

/// Whitespace collapsed, ends trimmed.
pub(crate) fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Line and column (from 1, in characters) of byte `offset` of `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LANGS: &[&str] = &["en", "pt-BR"];

    #[test]
    fn the_three_forms_are_read() {
        let text = "[en]\nFlink = \"Flink\"\n\"state!keyed\" = [\"keyed state\"]\n\
                    checkpoint = { find = [\"checkpoint\"], see-also = [\"state\"] }\n\
                    \"Apache Flink\" = { see = \"Flink\" }\n[pt-BR]\nFlink = \"Flink\"\n";
        let terms = parse(text, "index.toml", "en", LANGS).unwrap();
        assert_eq!(terms.len(), 4);
        let keyed = terms.iter().find(|t| t.entry.len() == 2).unwrap();
        assert_eq!(keyed.entry, ["state", "keyed"]);
        assert_eq!(
            keyed.phrases,
            [vec!["keyed".to_string(), "state".to_string()]]
        );
        assert_eq!(keyed.at, (3, 1));
        let see = terms.iter().find(|t| t.see.is_some()).unwrap();
        assert!(see.phrases.is_empty());
        assert_eq!(parse(text, "index.toml", "pt-BR", LANGS).unwrap().len(), 1);
    }

    #[test]
    fn mistakes_name_the_line() {
        let err = parse("[en]\nx = { fnd = [\"a\"] }\n", "index.toml", "en", LANGS).unwrap_err();
        assert_eq!(
            (err[0].line, err[0].file.as_deref()),
            (Some(2), Some("index.toml"))
        );
        let err = parse("[fr]\nx = \"a\"\n", "index.toml", "en", LANGS).unwrap_err();
        assert!(
            err[0].message.contains("not written in this language"),
            "{}",
            err[0].message
        );
        assert_eq!(err[0].line, Some(1));
        let err = parse("[en]\n\"a!!b\" = \"a\"\n", "index.toml", "en", LANGS).unwrap_err();
        assert_eq!(err[0].line, Some(2));
        let err = parse("[en]\na = \"--\"\n", "index.toml", "en", LANGS).unwrap_err();
        assert!(err[0].message.contains("without words"));
    }
}
