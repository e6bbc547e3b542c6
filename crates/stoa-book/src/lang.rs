//! The languages stoa can set a book in, and the words it prints in each:
//! the tag is checked here, the words come from the one locale table,
//! `stoa_locale`, which every renderer and the download page read too.

use stoa_doc::Labels;

/// A language stoa knows: its tag and its labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Language {
    /// The BCP 47 tag as the author wrote it, e.g. `pt-BR`.
    pub tag: String,
    /// The words around the content.
    pub labels: Labels,
}

impl Language {
    /// Looks a tag up. `Err` says why the tag is not usable.
    pub fn parse(tag: &str) -> Result<Self, String> {
        let mut parts = tag.split('-');
        let primary = parts.next().unwrap_or_default();
        let region = parts.next();
        let well_formed = (2..=3).contains(&primary.len())
            && primary.chars().all(|c| c.is_ascii_lowercase())
            && region.is_none_or(|r| {
                (r.len() == 2 && r.chars().all(|c| c.is_ascii_uppercase()))
                    || (r.len() == 3 && r.chars().all(|c| c.is_ascii_digit()))
            })
            && parts.next().is_none();
        if !well_formed {
            return Err(format!(
                "`{tag}` is not a language tag of the form `pt` or `pt-BR`"
            ));
        }
        let locale = stoa_locale::locale(tag).ok_or_else(|| {
            format!(
                "stoa does not know the language `{tag}`; it knows {}",
                stoa_locale::known_languages().join(", ")
            )
        })?;
        Ok(Language {
            tag: tag.to_string(),
            labels: labels(&locale.book),
        })
    }
}

/// The words of the book's pages, owned by the tree.
fn labels(words: &stoa_locale::BookWords) -> Labels {
    Labels {
        contents: words.contents.to_string(),
        about_author: words.about_author.to_string(),
        notes: words.notes.to_string(),
        back_to_text: words.back_to_text.to_string(),
        typeset_with: words.typeset_with.to_string(),
        title_page: words.title_page.to_string(),
        cover: words.cover.to_string(),
        colophon: words.colophon.to_string(),
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
        for tag in ["en", "pt-BR", "es", "fr", "de"] {
            let labels = Language::parse(tag).unwrap().labels;
            let words = &stoa_locale::locale(tag).unwrap().book;
            assert_eq!(labels, super::labels(words), "{tag}");
        }
    }

    #[test]
    fn refuses_malformed_and_unknown_tags() {
        assert!(
            Language::parse("pt_BR")
                .unwrap_err()
                .contains("not a language tag")
        );
        assert!(Language::parse("PT").is_err());
        let unknown = Language::parse("xx").unwrap_err();
        assert!(unknown.contains("does not know"), "{unknown}");
        assert!(
            unknown.contains("en, pt"),
            "lists the known ones: {unknown}"
        );
        assert!(Language::parse("").is_err());
    }
}
