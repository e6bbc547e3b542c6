//! The types of the tree. Every type serializes to JSON with a `type` tag, so
//! a plugin in any language can read and write it.

use crate::{Labels, NoteStyle, Role};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Attributes of a generic container, sorted so that output is deterministic.
pub type Attrs = BTreeMap<String, String>;

/// One anthology in one language, ready to render.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Book {
    /// Version of the tree this value follows ([`crate::TREE_VERSION`]).
    pub version: u32,
    /// The book's folder name, e.g. `dialogues`.
    pub id: String,
    /// BCP 47 language tag of this edition, e.g. `pt-BR`.
    pub lang: String,
    /// Title, author and the other facts about the book.
    pub meta: BookMeta,
    /// Words the renderers print around the content, in the book's language.
    pub labels: Labels,
    /// The chapters in reading order: posts, then back matter.
    pub chapters: Vec<Chapter>,
    /// Files the chapters refer to (images), by the name the tree uses.
    #[serde(default)]
    pub assets: Vec<Asset>,
    /// Style sheets and templates contributed by plugins, per format.
    #[serde(default)]
    pub styles: Vec<Style>,
    /// Page size, margins and PDF standard for the print edition.
    #[serde(default)]
    pub print: Print,
}

/// How the print edition is laid out. Lengths are in millimetres.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Print {
    /// Trim width.
    pub width_mm: f64,
    /// Trim height.
    pub height_mm: f64,
    /// Margin on the binding side (mirrored on facing pages).
    pub inner_mm: f64,
    /// Margin on the outside edge.
    pub outer_mm: f64,
    /// Top margin.
    pub top_mm: f64,
    /// Bottom margin.
    pub bottom_mm: f64,
    /// Base font size in points.
    pub font_size_pt: f64,
    /// A PDF standard to conform to: `pdf/a-2b` or `pdf/ua-1`.
    #[serde(default)]
    pub standard: Option<String>,
    /// The cover the theme draws (the same for every language of a book).
    #[serde(default)]
    pub cover: Cover,
    /// This edition's ISBN, checked and as ISBN-13 in the author's
    /// grouping (`978-0-306-40615-7`), from book.toml's `[isbn]`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isbn: Option<String>,
    /// The print-on-demand job, from `[print] profile`: present only then,
    /// and only then are the print interior and the cover wrap made.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub press: Option<Press>,
    /// Whether a paragraph that is nothing but a web address is printed
    /// with a QR code of it (`[print] qr-codes`, on unless set to false):
    /// paper cannot follow a link.
    #[serde(default = "yes")]
    pub qr_codes: bool,
    /// Whether the PDF may also use the fonts installed on the machine
    /// that builds it (`[fonts] system = true`), for the characters no
    /// embedded or theme face has.
    #[serde(default, skip_serializing_if = "is_false")]
    pub system_fonts: bool,
    /// The project's own fonts folder (`fonts/` beside `books/`), when it
    /// has one: its faces come after the theme's, before the embedded ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fonts_folder: Option<String>,
}

fn yes() -> bool {
    true
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// A print-on-demand job: the printer's profile and what the cover wrap
/// shows. Values are validated by stoa-book (names from stoa-press).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Press {
    /// The printer: `kdp`, `ingramspark`, `lulu` or `generic`.
    pub profile: String,
    /// The interior paper: `white`, `cream` or `colour`.
    pub paper: String,
    /// The binding: `paperback`.
    pub binding: String,
    /// The spine's width as the printer's template gives it, in mm, in
    /// place of the one computed from the page count and the paper.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spine_mm: Option<f64>,
    /// The back cover's text in this language (`[cover.back]`), else the
    /// book's description is used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back: Option<String>,
    /// The author's short biography for the back cover (`[cover.bio]`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bio: Option<String>,
    /// Where `profile` is written: book.toml as the user would type it,
    /// its line and column, for the preflight's findings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile_at: Option<(String, usize, usize)>,
    /// Run the whole preflight (`stoa check --print`): set by the check,
    /// never by book.toml, so it is not part of the tree's JSON.
    #[serde(skip)]
    pub preflight: bool,
}

/// The cover the theme draws, as data: from book.toml's `[cover]`, or
/// derived from the book's identifier so that two books differ unasked.
/// Values are validated by stoa-book; the theme reads them as strings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cover {
    /// The layout, by name: `frame`, `band` or `column` in the classic theme.
    pub design: String,
    /// The cover's colour, `#rrggbb`.
    pub colour: String,
    /// The ornament by the title: `rule`, `diamond`, `dots` or `none`.
    pub ornament: String,
    /// The author's own cover, drawn as is instead of a design: the
    /// absolute path of an image checked to lie in the book's folder.
    #[serde(default)]
    pub image: Option<String>,
}

impl Default for Cover {
    /// The classic theme's first cover: a navy frame with a plain rule.
    fn default() -> Self {
        Cover {
            design: "frame".into(),
            colour: "#1f2a33".into(),
            ornament: "rule".into(),
            image: None,
        }
    }
}

impl Default for Print {
    /// A trade paperback: 14 × 21 cm with generous, mirrored margins.
    fn default() -> Self {
        Print {
            width_mm: 140.0,
            height_mm: 210.0,
            inner_mm: 20.0,
            outer_mm: 15.0,
            top_mm: 18.0,
            bottom_mm: 22.0,
            font_size_pt: 10.5,
            standard: None,
            cover: Cover::default(),
            isbn: None,
            press: None,
            qr_codes: true,
            system_fonts: false,
            fonts_folder: None,
        }
    }
}

/// Facts about a book in one language.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct BookMeta {
    /// Title on the cover and in the metadata.
    pub title: String,
    /// Subtitle, if any.
    #[serde(default)]
    pub subtitle: Option<String>,
    /// The author's name as printed.
    pub author: String,
    /// A short description for catalogs and the back of the book.
    #[serde(default)]
    pub description: Option<String>,
    /// A stable identifier of this edition (book and language), e.g. a URN.
    pub identifier: String,
    /// Publication date, `YYYY-MM-DD`.
    pub date: String,
    /// When this edition was last changed, `YYYY-MM-DDTHH:MM:SSZ`; fixed by
    /// the input (SOURCE_DATE_EPOCH or the date), never by the clock.
    pub modified: String,
}

/// What part a chapter plays in the book.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChapterKind {
    /// One of the author's posts.
    #[default]
    Post,
    /// The author's presentation, set as back matter.
    About,
    /// An appendix added by a plugin, such as a glossary.
    Appendix,
    /// A chapter of collected notes.
    Notes,
}

/// One post in one language, or a chapter a plugin added.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Chapter {
    /// Stable name, unique in the book; used for file names and ids.
    pub slug: String,
    /// Front matter or back matter.
    #[serde(default)]
    pub kind: ChapterKind,
    /// Title as printed.
    pub title: String,
    /// Date of the post, `YYYY-MM-DD`.
    #[serde(default)]
    pub date: Option<String>,
    /// Tags from the front matter.
    #[serde(default)]
    pub tags: Vec<String>,
    /// One-sentence summary from the front matter.
    #[serde(default)]
    pub summary: Option<String>,
    /// The file the chapter came from, for diagnostics.
    #[serde(default)]
    pub source: Option<String>,
    /// What the chapter is for a reader's navigation, beyond its kind: a
    /// glossary appendix says [`Role::Glossary`]. Since tree 1.1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub role: Option<Role>,
    /// How the chapter's notes are placed and numbered; `None` sets them
    /// as the chapter's endnotes, numbered from 1. Since tree 1.1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<NoteStyle>,
    /// Plugin settings from the front matter (`[plugins.<name>]`), as JSON.
    #[serde(default)]
    pub plugin_data: BTreeMap<String, serde_json::Value>,
    /// The content.
    pub blocks: Vec<Block>,
}

/// A file a chapter refers to.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Asset {
    /// The name the tree uses in `Image::url`, e.g. `images/a-post/figure.png`.
    pub name: String,
    /// Where the file is on disk, absolute.
    pub path: String,
    /// Media type, e.g. `image/png`.
    pub media_type: String,
}

/// A style that a theme or plugin contributes for one output format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Style {
    /// Who contributed it (a plugin's name).
    pub origin: String,
    /// The format's name ([`crate::Format::name`]): `epub` and `html` take
    /// CSS, `pdf` takes Typst.
    pub format: String,
    /// The CSS or Typst code.
    pub code: String,
}

impl Style {
    /// The styles a stage of stoa contributes to every format: `css` for
    /// the EPUB and the web edition, `typst` for the PDF, each under
    /// `origin`.
    pub fn for_every_format(origin: &str, css: &str, typst: &str) -> [Style; 3] {
        [
            (crate::Format::Epub, css),
            (crate::Format::Html, css),
            (crate::Format::Pdf, typst),
        ]
        .map(|(format, code)| Style {
            origin: origin.into(),
            format: format.name().into(),
            code: code.into(),
        })
    }
}

/// Horizontal alignment of a table column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Align {
    /// No alignment given.
    #[default]
    None,
    /// Left.
    Left,
    /// Centre.
    Center,
    /// Right.
    Right,
}

/// One item of a list.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListItem {
    /// For task lists: whether the box is checked.
    #[serde(default)]
    pub checked: Option<bool>,
    /// The item's content.
    pub blocks: Vec<Block>,
}

/// A block-level element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Block {
    /// A heading; level 2 is the highest inside a chapter (the title is level 1).
    Heading {
        /// 1 to 6.
        level: u8,
        /// Unique in the chapter, usable as an anchor.
        id: String,
        /// The heading's text.
        content: Vec<Inline>,
    },
    /// A paragraph.
    Paragraph {
        /// The paragraph's text.
        content: Vec<Inline>,
    },
    /// A bulleted or numbered list.
    List {
        /// Numbered from `start` when some.
        start: Option<u64>,
        /// A tight list has no space between its items.
        tight: bool,
        /// The items.
        items: Vec<ListItem>,
    },
    /// A block quotation.
    Quote {
        /// The quoted blocks.
        blocks: Vec<Block>,
    },
    /// Preformatted code.
    Code {
        /// The language from the fence, e.g. `java`.
        lang: Option<String>,
        /// The code, verbatim, ending in a newline.
        text: String,
    },
    /// A table; every row has as many cells as `align` has columns.
    Table {
        /// Alignment of each column.
        align: Vec<Align>,
        /// Header cells.
        head: Vec<Vec<Inline>>,
        /// Body rows.
        rows: Vec<Vec<Vec<Inline>>>,
    },
    /// A thematic break.
    Rule,
    /// The definition of a footnote, where the author wrote it.
    FootnoteDef {
        /// The label as written (`1` for `[^1]`).
        label: String,
        /// The note.
        blocks: Vec<Block>,
    },
    /// A generic container that plugins introduce, rendered through styles.
    Div {
        /// What the container means, for every format (since tree 1.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
        /// The plugin's name for it, for styling, e.g. `dialogue`.
        class: String,
        /// Extra facts for the renderers.
        #[serde(default)]
        attrs: Attrs,
        /// The content.
        blocks: Vec<Block>,
    },
    /// Output written by a plugin for one format only, emitted as is by
    /// that format's renderer after it checked the payload (well-formed
    /// XHTML without script for `epub`, the same for `html`, Typst that
    /// parses and stays in its slot for `pdf`), and dropped by every other
    /// renderer. Post text must never be put here unescaped: see the SDK's
    /// `escape` helpers. Since tree 1.2.
    Raw {
        /// The format's name ([`crate::Format::name`]): `epub`, `pdf` or
        /// `html`; a name no renderer has is dropped everywhere.
        format: String,
        /// The code: an XHTML fragment, Typst markup or an HTML fragment.
        payload: String,
    },
}

/// An inline element.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Inline {
    /// Plain text, already with typographic quotes and dashes.
    Text {
        /// The characters.
        text: String,
    },
    /// Emphasis (italic).
    Emph {
        /// The emphasized text.
        content: Vec<Inline>,
    },
    /// Strong emphasis (bold).
    Strong {
        /// The text.
        content: Vec<Inline>,
    },
    /// Struck-through text.
    Strike {
        /// The text.
        content: Vec<Inline>,
    },
    /// Code inside a sentence.
    Code {
        /// The code, verbatim.
        text: String,
    },
    /// A hyperlink; `url` is a safe scheme or a fragment.
    Link {
        /// The target.
        url: String,
        /// Advisory title.
        #[serde(default)]
        title: String,
        /// The link text.
        content: Vec<Inline>,
    },
    /// An image; `url` names an [`Asset`] of the book.
    Image {
        /// The asset name.
        url: String,
        /// Alternative text.
        alt: String,
        /// Advisory title.
        #[serde(default)]
        title: String,
    },
    /// A reference to a footnote.
    FootnoteRef {
        /// The label as written.
        label: String,
    },
    /// A forced line break.
    LineBreak,
    /// A line break in the source; a space in the output.
    SoftBreak,
    /// A generic inline container that plugins introduce.
    Span {
        /// What the span means, for every format (since tree 1.1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<Role>,
        /// The plugin's name for it, for styling, e.g. `speaker`.
        class: String,
        /// Extra facts for the renderers.
        #[serde(default)]
        attrs: Attrs,
        /// The content.
        content: Vec<Inline>,
    },
    /// Inline output written by a plugin for one format only; see
    /// [`Block::Raw`]. Since tree 1.2.
    Raw {
        /// The format's name: `epub`, `pdf` or `html`.
        format: String,
        /// The code: an XHTML fragment, Typst markup or an HTML fragment.
        payload: String,
    },
}

impl Block {
    /// A raw block of `payload` for the format named `format` (`epub`,
    /// `pdf`, `html`).
    pub fn raw(format: impl Into<String>, payload: impl Into<String>) -> Self {
        Block::Raw {
            format: format.into(),
            payload: payload.into(),
        }
    }
}

impl Inline {
    /// A raw inline of `payload` for the format named `format`.
    pub fn raw(format: impl Into<String>, payload: impl Into<String>) -> Self {
        Inline::Raw {
            format: format.into(),
            payload: payload.into(),
        }
    }

    /// Plain text.
    pub fn text(text: impl Into<String>) -> Self {
        Inline::Text { text: text.into() }
    }
}
