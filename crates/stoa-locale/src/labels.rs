//! The label keys, written once: the words a book prints around the
//! author's text (`contents`, `notes`, ...). From this one list come
//! [`BookWords`] (the table's words per language), [`LABEL_KEYS`] (the keys
//! of book.toml's `[labels.<lang>]` and of the Typst theme's `labels`
//! dictionary) and, through [`with_label_keys!`], the tree's
//! `stoa_doc::Labels`, which the renderers and the plugins read.
//!
//! A new label is one line in [`with_label_keys!`], its word in each
//! language of the table (the compiler asks for them) and a row in
//! docs/reference.md (a test compares the rows with the keys).

/// Calls the macro `$then` with every label, in the order the docs list
/// them: its doc comment, its field name and its key (the field in kebab
/// case, as book.toml and the Typst theme write it):
///
/// ```text
/// $then! {
///     /// Heading of the table of contents.
///     contents = "contents",
///     ...
/// }
/// ```
///
/// Every type with one field per label is made by such a macro, so that
/// no second list of the keys can fall out of step.
#[macro_export]
macro_rules! with_label_keys {
    ($then:ident) => {
        $then! {
            /// Heading of the table of contents.
            contents = "contents",
            /// Heading of the about-the-author part.
            about_author = "about-author",
            /// Heading of a notes section or chapter.
            notes = "notes",
            /// Label of the link from a note back to its reference.
            back_to_text = "back-to-text",
            /// Colophon line naming the typesetter.
            typeset_with = "typeset-with",
            /// Name of the title page (its landmark in the EPUB's navigation).
            title_page = "title-page",
            /// Name of the cover (its landmark in the EPUB's navigation).
            cover = "cover",
            /// Heading of the colophon.
            colophon = "colophon",
            /// The heading that opens a post's glossary, and the glossary
            /// appendix's title.
            glossary = "glossary",
            /// The heading of a dialogue's list of speakers.
            characters = "characters",
            /// The title of the back-of-book index.
            index = "index",
            /// Before the entry an index entry sends the reader to.
            see = "see",
            /// Before the entries related to an index entry.
            see_also = "see-also",
            /// The title of the bibliography: the works the book cites.
            references = "references",
            /// Before a figure's number: "Figure 3".
            figure = "figure",
            /// Before a table's number.
            table = "table",
            /// Before a code listing's number.
            listing = "listing",
            /// Before a numbered equation's number, in a reference.
            equation = "equation",
            /// Between a caption's label and its text: `.` makes "Figure 3.
            /// A wall"; a dash is set between spaces ("Figura 3 – Um muro").
            caption_separator = "caption-separator",
            /// The title of the list of figures.
            list_of_figures = "list-of-figures",
            /// The title of the list of tables.
            list_of_tables = "list-of-tables",
        }
    };
}

/// Makes [`BookWords`] and [`LABEL_KEYS`] from the list.
macro_rules! book_words {
    ($($(#[$doc:meta])* $field:ident = $key:literal,)*) => {
        /// Words printed in the books, in every format: one per label key.
        #[derive(Debug)]
        pub struct BookWords {
            $($(#[$doc])* pub $field: &'static str,)*
        }

        /// Every label key, as book.toml's `[labels.<lang>]` and the Typst
        /// theme's `labels` dictionary write it, in the order the docs
        /// list them.
        pub const LABEL_KEYS: &[&str] = &[$($key),*];

        impl BookWords {
            /// The word for the label `key` (one of [`LABEL_KEYS`]).
            pub fn get(&self, key: &str) -> Option<&'static str> {
                match key {
                    $($key => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

with_label_keys!(book_words);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LOCALES;
    use std::path::Path;

    /// A file of the workspace, read from this crate's folder.
    fn workspace_file(path: &str) -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        std::fs::read_to_string(root.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    #[test]
    fn every_key_names_a_word_of_every_language() {
        for locale in LOCALES {
            for key in LABEL_KEYS {
                let word = locale.book.get(key);
                assert!(word.is_some_and(|w| !w.is_empty()), "{} {key}", locale.tag);
            }
        }
        assert_eq!(
            LOCALES[0].book.get("about-author"),
            Some("About the Author")
        );
        assert_eq!(LOCALES[0].book.get("about_author"), None);
        let mut sorted = LABEL_KEYS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), LABEL_KEYS.len());
    }

    /// The rows of the table under `| key | English | where |`.
    fn reference_rows(text: &str) -> Vec<(String, String)> {
        let start = text
            .find("| key | English | where |")
            .expect("docs/reference.md lists the label keys in a table");
        text[start..]
            .lines()
            .skip(2)
            .take_while(|line| line.starts_with('|'))
            .map(|line| {
                let cells: Vec<&str> = line.split('|').map(str::trim).collect();
                (cells[1].trim_matches('`').to_string(), cells[2].to_string())
            })
            .collect()
    }

    #[test]
    fn the_reference_lists_every_key_with_its_english_word() {
        let rows = reference_rows(&workspace_file("docs/reference.md"));
        let keys: Vec<&str> = rows.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, LABEL_KEYS, "docs/reference.md's label keys");
        for (key, english) in &rows {
            assert_eq!(LOCALES[0].book.get(key), Some(english.as_str()), "{key}");
        }
    }

    /// The comma-separated words of `text` after `lead` and before `, or`.
    fn listed_after<'a>(text: &'a str, lead: &str) -> Vec<&'a str> {
        let start = text
            .find(lead)
            .unwrap_or_else(|| panic!("`{lead}` in the docs"))
            + lead.len();
        let end = start
            + text[start..]
                .find(", or")
                .expect("the list ends with `, or`");
        text[start..end]
            .split(',')
            .map(|w| w.trim().trim_start_matches("`## ").trim_end_matches('`'))
            .collect()
    }

    #[test]
    fn the_reference_names_the_glossary_heading_of_every_language() {
        let text = workspace_file("docs/reference.md");
        let mut words: Vec<&str> = LOCALES.iter().map(|l| l.book.glossary).collect();
        words.dedup();
        let plugin = listed_after(&text, "a heading with the edition's word:");
        assert_eq!(plugin, words, "[plugins.glossary] in docs/reference.md");
        let lint = listed_after(&text, "under the glossary heading (");
        assert_eq!(lint, words, "unused-glossary-term in docs/reference.md");
    }

    #[test]
    fn the_classic_theme_reads_only_keys_of_the_list() {
        let theme = workspace_file("themes/classic/book.typ");
        let used: Vec<&str> = theme
            .match_indices("labels.")
            .map(|(at, found)| {
                let rest = &theme[at + found.len()..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_lowercase() || c == '-'))
                    .unwrap_or(rest.len());
                &rest[..end]
            })
            .collect();
        assert!(!used.is_empty(), "the theme prints some labels");
        for key in used {
            assert!(LABEL_KEYS.contains(&key), "book.typ reads `labels.{key}`");
        }
    }
}
