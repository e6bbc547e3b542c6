//! The CSL style: one of hayagriva's archived styles by name, or a `.csl`
//! file of the author's.

use hayagriva::archive::ArchivedStyle;
use hayagriva::citationberg::{self, IndependentStyle, StyleClass};

/// A CSL style, ready to format with.
#[derive(Debug)]
pub struct Style {
    pub(crate) csl: IndependentStyle,
}

impl Style {
    /// The archived style called `name` (`apa`, `chicago-author-date`,
    /// `ieee`, `mla`…), or an error that names the closest ones.
    pub fn named(name: &str) -> Result<Self, String> {
        let Some(archived) = ArchivedStyle::by_name(name) else {
            return Err(unknown_style(name));
        };
        match archived.get() {
            citationberg::Style::Independent(csl) => Ok(Style { csl }),
            citationberg::Style::Dependent(_) => Err(format!(
                "the style `{name}` only points to another one: name that one instead"
            )),
        }
    }

    /// A style from the text of a `.csl` file.
    pub fn from_csl(xml: &str) -> Result<Self, String> {
        match citationberg::Style::from_xml(xml) {
            Ok(citationberg::Style::Independent(csl)) => Ok(Style { csl }),
            Ok(citationberg::Style::Dependent(dependent)) => Err(format!(
                "this CSL file only points to its parent style ({}): use the parent's file",
                dependent.parent_link.href
            )),
            Err(e) => Err(format!("not a CSL style: {e}")),
        }
    }

    /// Whether the style cites in footnotes (Chicago notes) rather than in
    /// the text.
    pub fn is_note(&self) -> bool {
        self.csl.settings.class == StyleClass::Note
    }
}

/// "no such style", with up to three names that are close, or a few
/// common ones.
fn unknown_style(name: &str) -> String {
    let mut close: Vec<(f64, &str)> = ArchivedStyle::all()
        .iter()
        .flat_map(|style| style.names().iter().copied())
        .map(|known| (strsim::normalized_damerau_levenshtein(name, known), known))
        .filter(|(score, known)| *score >= 0.5 || known.starts_with(name))
        .collect();
    close.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    let names: Vec<&str> = close.iter().take(3).map(|(_, n)| *n).collect();
    let names = if names.is_empty() {
        "apa, chicago-author-date, ieee, mla".to_string()
    } else {
        names.join(", ")
    };
    format!("no citation style is called `{name}`: try {names}, or the path of a .csl file")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_archived_styles_and_suggests_for_typos() {
        assert!(Style::named("apa").is_ok());
        assert!(Style::named("chicago-notes").unwrap().is_note());
        assert!(!Style::named("ieee").unwrap().is_note());
        let error = Style::named("chicago-autor-date").unwrap_err();
        assert!(error.contains("chicago-author-date"), "{error}");
    }

    #[test]
    fn a_broken_csl_file_is_an_error() {
        assert!(Style::from_csl("<style>").is_err());
    }
}
