//! The words of an edition that are not the author's, one field per label
//! key of stoa's locale table: the struct is made from the table's one
//! list of keys ([`stoa_locale::with_label_keys!`]), so that adding a key
//! there adds it here, to book.toml's `[labels.<lang>]` and to the Typst
//! theme's data.

use serde::{Deserialize, Serialize};

/// Makes [`Labels`] from the list of label keys.
macro_rules! labels {
    ($($(#[$doc:meta])* $field:ident = $key:literal,)*) => {
        /// Words a renderer or a plugin prints that are not the author's:
        /// headings of generated pages and the like, already in the book's
        /// language (from stoa's locale table, or the book's
        /// `[labels.<lang>]`). A field missing from a tree written by an
        /// older stoa reads as empty.
        #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
        #[serde(default)]
        pub struct Labels {
            $($(#[$doc])* pub $field: String,)*
        }

        impl Labels {
            /// The word for the label `key` (one of
            /// [`stoa_locale::LABEL_KEYS`], e.g. `about-author`).
            pub fn get(&self, key: &str) -> Option<&str> {
                match key {
                    $($key => Some(&self.$field),)*
                    _ => None,
                }
            }

            /// The word for the label `key`, to replace it.
            pub fn get_mut(&mut self, key: &str) -> Option<&mut String> {
                match key {
                    $($key => Some(&mut self.$field),)*
                    _ => None,
                }
            }

            /// Every label's key and word, in the order of
            /// [`stoa_locale::LABEL_KEYS`].
            pub fn entries(&self) -> impl Iterator<Item = (&'static str, &str)> {
                [$(($key, self.$field.as_str())),*].into_iter()
            }
        }

        impl From<&stoa_locale::BookWords> for Labels {
            fn from(words: &stoa_locale::BookWords) -> Self {
                Labels {
                    $($field: words.$field.to_string(),)*
                }
            }
        }
    };
}

stoa_locale::with_label_keys!(labels);

impl Labels {
    /// The locale table's words for the language `tag`, English when the
    /// table has none (as the book loader gives such an edition before its
    /// `[labels.<lang>]`).
    pub fn for_language(tag: &str) -> Labels {
        Labels::from(&stoa_locale::locale_or_english(tag).book)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_of_the_table_is_a_field() {
        let mut labels = Labels::for_language("pt-BR");
        let keys: Vec<&str> = labels.entries().map(|(k, _)| k).collect();
        assert_eq!(keys, stoa_locale::LABEL_KEYS);
        let words = &stoa_locale::locale("pt").unwrap().book;
        for key in stoa_locale::LABEL_KEYS {
            assert_eq!(labels.get(key), words.get(key), "{key}");
        }
        assert_eq!(labels.about_author, "Sobre o Autor");
        *labels.get_mut("typeset-with").unwrap() = "x".into();
        assert_eq!(labels.typeset_with, "x");
        assert!(labels.get("typeset_with").is_none());
        assert!(labels.get_mut("nope").is_none());
        assert_eq!(Labels::for_language("sw").contents, "Contents");
    }

    #[test]
    fn the_wire_names_stay_the_fields() {
        let json = serde_json::to_value(Labels::for_language("en")).unwrap();
        assert_eq!(json["about_author"], "About the Author");
        let old: Labels = serde_json::from_str(r#"{"contents": "C"}"#).unwrap();
        assert_eq!((old.contents.as_str(), old.glossary.as_str()), ("C", ""));
    }
}
