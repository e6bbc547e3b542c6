//! `[math]` in book.toml: how the EPUB shows formulas, as MathML or as
//! images for reading systems that render none.

use serde::Deserialize;

/// The `[math]` table.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Math {
    /// `epub = "mathml" | "svg"`; serde names both in its error for any
    /// other value, at its line.
    #[serde(default)]
    pub epub: MathOutput,
}

/// How a format shows formulas.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum MathOutput {
    /// MathML, the LaTeX as its alternative text.
    #[default]
    Mathml,
    /// An SVG image drawn by the PDF's typesetting, the LaTeX as its
    /// alternative text: for reading systems without MathML (Kindle,
    /// older readers).
    Svg,
}

#[cfg(test)]
mod tests {
    use super::{Math, MathOutput};

    use crate::load_english_with as load;

    #[test]
    fn formulas_are_mathml_unless_the_book_asks_for_images() {
        assert_eq!(load("").unwrap().math, Math::default());
        assert_eq!(load("").unwrap().math.epub, MathOutput::Mathml);
        let config = load("[math]\nepub = \"svg\"\n").unwrap();
        assert_eq!(config.math.epub, MathOutput::Svg);
    }

    #[test]
    fn a_wrong_value_names_the_right_ones_at_its_line() {
        let errors = load("[math]\nepub = \"png\"\n").unwrap_err();
        let text = errors[0].to_string();
        assert!(text.contains("mathml") && text.contains("svg"), "{text}");
        assert_eq!(errors[0].line, Some(7), "{text}");
    }
}
