//! What a container or a chapter means, said once in the tree so that no
//! renderer has to recognise a plugin by the names of its classes.
//!
//! A role maps to EPUB structural semantics (`epub:type`), to an ARIA role
//! and, through the Typst theme, to print. A plugin keeps its own look with
//! its class and the styles hook; the role carries the meaning.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// The meaning of a [`crate::Block::Div`], a [`crate::Inline::Span`] or a
/// [`crate::Chapter`]. Serialized as a kebab-case string; a role this
/// version does not know is kept as [`Role::Other`] and rendered as a plain
/// container, so a newer plugin never breaks an older stoa.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A list of terms and their definitions (`dl`), holding only
    /// [`Role::Term`] and [`Role::Definition`] containers.
    DefinitionList,
    /// A glossary: a definition list of the book's terms (`dl`, `glossary`).
    /// As a chapter's role: the glossary appendix (a landmark).
    Glossary,
    /// A term being defined (`dt` with `dfn`).
    Term,
    /// The definition of the term before it (`dd`).
    Definition,
    /// A span around one link that points to a glossary entry (`glossref`).
    GlossaryRef,
    /// A dialogue: a sequence of [`Role::Turn`]s.
    Dialogue,
    /// One speaker's turn in a dialogue.
    Turn,
    /// The name of who speaks, inside a turn.
    Speaker,
    /// A formula: a span holding its LaTeX source as inline code (what a
    /// renderer that does not know math shows), `display="block"` in its
    /// attributes for display math. Older plugins pass it through as a
    /// role they do not know.
    Math,
    /// Raised text: an exponent, an ordinal's letters (`sup`).
    Superscript,
    /// Lowered text: a count in a chemical formula (`sub`).
    Subscript,
    /// Keys to press (`kbd`).
    Keyboard,
    /// Words marked for the reader's attention (`mark`).
    Highlight,
    /// An abbreviation (`abbr`), its expansion in the `title` attribute
    /// when the author gave one.
    Abbreviation,
    /// Underlined or inserted words (`u`, `ins`).
    Underline,
    /// A role named by a newer tree version or by a plugin; rendered as a
    /// plain container.
    Other(String),
}

impl Role {
    /// Every role this version knows, for documentation and tests.
    pub const KNOWN: [Role; 15] = [
        Role::DefinitionList,
        Role::Glossary,
        Role::Term,
        Role::Definition,
        Role::GlossaryRef,
        Role::Dialogue,
        Role::Turn,
        Role::Speaker,
        Role::Math,
        Role::Superscript,
        Role::Subscript,
        Role::Keyboard,
        Role::Highlight,
        Role::Abbreviation,
        Role::Underline,
    ];

    /// The name on the wire and in the Typst theme, e.g. `definition-list`.
    pub fn name(&self) -> &str {
        match self {
            Role::DefinitionList => "definition-list",
            Role::Glossary => "glossary",
            Role::Term => "term",
            Role::Definition => "definition",
            Role::GlossaryRef => "glossref",
            Role::Dialogue => "dialogue",
            Role::Turn => "turn",
            Role::Speaker => "speaker",
            Role::Math => "math",
            Role::Superscript => "superscript",
            Role::Subscript => "subscript",
            Role::Keyboard => "keyboard",
            Role::Highlight => "highlight",
            Role::Abbreviation => "abbreviation",
            Role::Underline => "underline",
            Role::Other(name) => name,
        }
    }

    /// The role called `name`; unknown names are kept as [`Role::Other`].
    pub fn from_name(name: &str) -> Role {
        Role::KNOWN
            .into_iter()
            .find(|r| r.name() == name)
            .unwrap_or_else(|| Role::Other(name.to_string()))
    }

    /// The (X)HTML phrase element of a span with this role (`sup`, `kbd`,
    /// …), when it is one.
    pub fn html_element(&self) -> Option<&'static str> {
        match self {
            Role::Superscript => Some("sup"),
            Role::Subscript => Some("sub"),
            Role::Keyboard => Some("kbd"),
            Role::Highlight => Some("mark"),
            Role::Abbreviation => Some("abbr"),
            Role::Underline => Some("u"),
            _ => None,
        }
    }

    /// Whether the container is a list of terms and definitions.
    pub fn is_definition_list(&self) -> bool {
        matches!(self, Role::DefinitionList | Role::Glossary)
    }

    /// The EPUB structural semantics (`epub:type`) of a container with
    /// this role; `in_glossary` says whether it sits inside a glossary.
    pub fn epub_type(&self, in_glossary: bool) -> Option<&'static str> {
        match self {
            Role::Glossary => Some("glossary"),
            Role::Term if in_glossary => Some("glossterm"),
            Role::Definition if in_glossary => Some("glossdef"),
            Role::GlossaryRef => Some("glossref"),
            Role::Other(name) => {
                crate::index_names::epub_type(name).or_else(|| bibliography_type(name))
            }
            _ => None,
        }
    }

    /// The ARIA role (WAI-ARIA or DPUB-ARIA) that matches
    /// [`Role::epub_type`], as accessibility checkers require.
    pub fn aria_role(&self) -> Option<&'static str> {
        match self {
            Role::Glossary => Some("doc-glossary"),
            Role::GlossaryRef => Some("doc-glossref"),
            _ => None,
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Role {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Role {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(Role::from_name(&name))
    }
}

/// Where a chapter's notes are set.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NotePlacement {
    /// After the chapter, under a "Notes" heading.
    #[default]
    Endnotes,
    /// At the foot of the page in print; after the block that refers to
    /// them, as pop-up notes, on screens.
    Footnotes,
    /// In the book's notes chapter (a chapter of kind
    /// [`crate::ChapterKind::Notes`]), under the chapter's title; endnotes
    /// when the book has no such chapter.
    NotesChapter,
}

/// How a chapter's notes are numbered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoteNumbering {
    /// From 1 in every chapter.
    #[default]
    PerChapter,
    /// On from the previous chapter that numbers its notes continuously.
    Continuous,
}

/// How a chapter's notes are placed and numbered ([`crate::Chapter::notes`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NoteStyle {
    /// Where the notes go.
    #[serde(default)]
    pub placement: NotePlacement,
    /// How they are numbered.
    #[serde(default)]
    pub numbering: NoteNumbering,
}

/// An output format as plugins know it: the formats a plugin can style and
/// write raw output for. On the plugin wire and in [`crate::Style::format`]
/// a format travels as its [`Format::name`]; a name a reader does not know
/// is not an error (a plugin simply contributes no style for it).
///
/// This is the wire's list, versioned with the tree: a format joins it (one
/// row in [`Format::ALL`] and in each method below) when plugins may style
/// it. The formats a build writes are the renderers of its registry
/// (`stoa-renderers`), which may have more, unstyled by plugins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Format {
    /// EPUB 3.3; styles are CSS.
    Epub,
    /// Print-ready PDF through Typst; styles are Typst code.
    Pdf,
    /// The web edition: a folder of HTML pages; styles are CSS.
    Html,
}

impl Format {
    /// Every format, in build order.
    pub const ALL: [Format; 3] = [Format::Epub, Format::Pdf, Format::Html];

    /// `epub`, `pdf` or `html`: the name on the command line and the wire.
    pub fn name(self) -> &'static str {
        match self {
            Format::Epub => "epub",
            Format::Pdf => "pdf",
            Format::Html => "html",
        }
    }

    /// The format called `name`, if this version knows it.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The language of the format's styles: `css` or `typst`.
    pub fn style_language(self) -> &'static str {
        match self {
            Format::Epub | Format::Html => "css",
            Format::Pdf => "typst",
        }
    }

    /// The minor tree version that introduced the format: a plugin is asked
    /// for styles only for the formats its minor knows.
    pub fn since_minor(self) -> u32 {
        match self {
            Format::Epub | Format::Pdf => 0,
            Format::Html => 1,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Serialize for Format {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl<'de> Deserialize<'de> for Format {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Format::from_name(&name).ok_or_else(|| {
            serde::de::Error::custom(format!("unknown format `{name}` (known: epub, pdf, html)"))
        })
    }
}

/// The role of the chapter of works cited (stoa-book's citations):
/// `epub:type="bibliography"`, `doc-bibliography`.
pub const BIBLIOGRAPHY_ROLE: &str = "bibliography";

/// The role of one work in it: `epub:type="biblioentry"` (DPUB-ARIA's
/// `doc-biblioentry` is deprecated: no ARIA role).
pub const BIBLIOENTRY_ROLE: &str = "biblioentry";

/// The `epub:type` of the bibliography's roles.
fn bibliography_type(role: &str) -> Option<&'static str> {
    [BIBLIOGRAPHY_ROLE, BIBLIOENTRY_ROLE]
        .into_iter()
        .find(|r| *r == role)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_round_trip_and_keep_unknown_names() {
        for role in Role::KNOWN {
            let json = serde_json::to_string(&role).unwrap();
            assert_eq!(serde_json::from_str::<Role>(&json).unwrap(), role);
        }
        let other: Role = serde_json::from_str("\"epigraph\"").unwrap();
        assert_eq!(other, Role::Other("epigraph".into()));
        assert_eq!(serde_json::to_string(&other).unwrap(), "\"epigraph\"");
    }

    #[test]
    fn glossary_semantics_match_their_aria_roles() {
        assert_eq!(Role::Glossary.epub_type(false), Some("glossary"));
        assert_eq!(Role::Glossary.aria_role(), Some("doc-glossary"));
        assert_eq!(Role::Term.epub_type(true), Some("glossterm"));
        assert_eq!(Role::Term.epub_type(false), None);
        assert_eq!(Role::GlossaryRef.aria_role(), Some("doc-glossref"));
    }

    #[test]
    fn formats_have_one_name_each() {
        for format in Format::ALL {
            assert_eq!(Format::from_name(format.name()), Some(format));
        }
        assert_eq!(Format::from_name("docx"), None);
        assert!(serde_json::from_str::<Format>("\"docx\"").is_err());
    }
}
