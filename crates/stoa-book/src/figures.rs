//! `[figures]` in book.toml: how the labelled figures, tables, listings and
//! equations are numbered, and whether the book lists them.

use serde::Deserialize;

/// The `[figures]` table, as written and as the build reads it.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Figures {
    /// `numbering = "book" | "chapter"`: Figure 3, or Figure 2.3 (the
    /// third of the second post); serde names both in its error for any
    /// other value, at its line.
    #[serde(default)]
    pub numbering: Numbering,
    /// `list-of-figures = true`: a list of the figures, after the posts.
    #[serde(default)]
    pub list_of_figures: bool,
    /// `list-of-tables = true`: a list of the tables.
    #[serde(default)]
    pub list_of_tables: bool,
}

/// How elements are numbered.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Numbering {
    /// Through the book: Figure 1, 2, 3.
    #[default]
    Book,
    /// Per post: Figure 2.1 is the first of the second post.
    Chapter,
}

#[cfg(test)]
mod tests {
    use crate::load_english_with as load;

    #[test]
    fn figures_are_numbered_through_the_book_unless_it_says() {
        use super::{Figures, Numbering};
        assert_eq!(load("").unwrap().figures, Figures::default());
        let config = load("[figures]\nnumbering = \"chapter\"\nlist-of-tables = true\n").unwrap();
        assert_eq!(config.figures.numbering, Numbering::Chapter);
        assert!(config.figures.list_of_tables && !config.figures.list_of_figures);
    }

    #[test]
    fn a_wrong_value_names_the_right_ones_at_its_line() {
        let errors = load("[figures]\nnumbering = \"post\"\n").unwrap_err();
        let text = errors[0].to_string();
        assert!(text.contains("chapter"), "{text}");
        assert_eq!(errors[0].line, Some(7), "{text}");
        let errors = load("[figures]\nlist-of-figure = true\n").unwrap_err();
        let text = errors[0].to_string();
        assert!(text.contains("list-of-figures"), "{text}");
    }
}
