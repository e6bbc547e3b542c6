//! The words of the text alternatives, per language: stoa-locale's table,
//! the one every format reads, so that a language is complete everywhere.

/// Words that describe a diagram.
pub(crate) use stoa_locale::DiagramWords as Words;

/// The words for the BCP 47 tag `lang`, English when there are none.
pub(crate) fn for_lang(lang: &str) -> &'static Words {
    &stoa_locale::locale_or_english(lang).diagram
}
