//! Blocks and inlines to (X)HTML, shared by the EPUB and the web edition.
//!
//! One writer, two [`Flavor`]s: XHTML for EPUB (with `epub:type` and
//! `xml:lang`, chapter files `<slug>.xhtml`) and HTML5 for the web (no
//! namespaced attributes, `<slug>.html`). Everything a renderer should not
//! decide for itself comes from the edition: notes from the
//! [`NotesPlan`], links from the [`IdIndex`], the meaning of containers
//! from their [`Role`], dates and labels from `stoa-locale`.

mod content;
mod contents;
mod diagram;
mod highlight;
mod page;
pub mod raw;
mod token;
pub mod xml;

pub use contents::{contents_list, part_id};
pub use page::{Page, direction, document};
pub use xml::Xml;

use stoa_doc::{Attrs, Book, Chapter, ChapterKind, IdIndex, NotesPlan, Role};
use stoa_locale::Locale;
use stoa_render::{FormulaImage, FormulaImages, PageMap};

/// The dialect written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flavor {
    /// XHTML for EPUB 3.3: `epub:type`, `xml:lang`, `<slug>.xhtml`.
    Epub,
    /// HTML5 for the web edition: no namespaced attributes, `<slug>.html`.
    Html,
}

impl Flavor {
    /// The extension of a chapter's file: `xhtml` or `html`.
    pub fn extension(self) -> &'static str {
        match self {
            Flavor::Epub => "xhtml",
            Flavor::Html => "html",
        }
    }

    /// The file of the chapter called `slug`.
    pub fn file(self, slug: &str) -> String {
        format!("{slug}.{}", self.extension())
    }

    /// Whether this is the EPUB's XHTML.
    pub fn is_epub(self) -> bool {
        self == Flavor::Epub
    }
}

/// One edition, ready to be written as (X)HTML: the book and what was
/// computed once for every format.
pub struct Markup<'a> {
    /// The book, plugins applied.
    pub book: &'a Book,
    /// Every note numbered and placed.
    pub notes: &'a NotesPlan,
    /// Every id of the book.
    pub ids: &'a IdIndex,
    /// The dialect.
    pub flavor: Flavor,
    /// Where the print edition's pages begin: page-break markers are
    /// written there ([`Markup::with_pages`]).
    pub pages: Option<&'a PageMap>,
    /// The formulas drawn as images, written as `<img>` in place of
    /// MathML ([`Markup::with_formula_images`]).
    pub formula_images: Option<&'a FormulaImages>,
    /// The images as the web edition gives them (their size, a smaller
    /// copy): `<img>` then says its size, offers the copy in `srcset` and
    /// loads lazily ([`Markup::with_images`]).
    pub images: Option<&'a stoa_render::MadeImages>,
}

impl<'a> Markup<'a> {
    /// The edition `book`, written as `flavor`.
    pub fn new(book: &'a Book, notes: &'a NotesPlan, ids: &'a IdIndex, flavor: Flavor) -> Self {
        Markup {
            book,
            notes,
            ids,
            flavor,
            pages: None,
            formula_images: None,
            images: None,
        }
    }

    /// The same edition, its images written with their sizes and smaller
    /// copies (the web edition).
    pub fn with_images(mut self, images: Option<&'a stoa_render::MadeImages>) -> Self {
        self.images = images;
        self
    }

    /// The same edition, its formulas written as the images `images`
    /// holds (those it lacks stay MathML).
    pub fn with_formula_images(mut self, images: Option<&'a FormulaImages>) -> Self {
        self.formula_images = images;
        self
    }

    /// The file (relative to the chapters) and the image of the formula
    /// `tex`, when it is drawn as one: `math/<n>.svg`, `n` its place among
    /// the edition's drawn formulas, so the same book names them the same.
    pub fn formula_image(&self, tex: &str, display: bool) -> Option<(String, &'a FormulaImage)> {
        let images = self.formula_images?;
        let key = (tex.to_owned(), display);
        let image = images.get(&key)?;
        let n = images.range(..key).count() + 1;
        Some((formula_file(n), image))
    }
}

/// The file of the `n`th drawn formula (from 1), relative to the chapters.
pub fn formula_file(n: usize) -> String {
    format!("math/{n}.svg")
}

impl<'a> Markup<'a> {
    /// The same edition, marking where the print edition's pages begin.
    pub fn with_pages(mut self, pages: Option<&'a PageMap>) -> Self {
        self.pages = pages;
        self
    }

    /// A page-break marker for the print page labelled `label`: an empty
    /// span, `doc-pagebreak`, named by the label, with the id
    /// [`page_id`] gives (EPUB's page list and the web's anchors link to it).
    pub fn page_break(&self, label: &str, x: &mut Xml) {
        self.page_break_with_id(label, &page_id(label), x);
    }

    fn page_break_with_id(&self, label: &str, id: &str, x: &mut Xml) {
        let epub_type = if self.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        x.open(
            "span",
            &[
                ("id", id),
                (epub_type, "pagebreak"),
                ("role", "doc-pagebreak"),
                ("aria-label", label),
            ],
        )
        .close();
    }

    /// The marker of the page that begins at block `path` of chapter
    /// `chapter`, if one does.
    pub(crate) fn page_break_at(&self, chapter: usize, path: &[usize], x: &mut Xml) {
        if let Some(label) = self.pages.and_then(|p| p.page_at(chapter, path)) {
            self.page_break_in(chapter, label, x);
        }
    }

    /// The marker of the print page labelled `label`, in chapter `chapter`
    /// (between blocks, or inside a paragraph where the page begins).
    pub(crate) fn page_break_in(&self, chapter: usize, label: &str, x: &mut Xml) {
        // An author's own `page-41` in this chapter keeps its id.
        let mut id = page_id(label);
        if self.ids.chapters_of(&id).contains(&chapter) {
            id.push_str("-print");
        }
        self.page_break_with_id(label, &id, x);
    }

    /// The file of chapter `index`.
    pub fn chapter_file(&self, index: usize) -> String {
        self.flavor.file(&self.book.chapters[index].slug)
    }

    /// The words and date format of the book's language.
    pub fn locale(&self) -> &'static Locale {
        stoa_locale::locale_or_english(&self.book.lang)
    }

    /// `2024-05-31` in words, as the book's language writes it.
    pub fn long_date(&self, date: &str) -> String {
        stoa_locale::long_date(&self.book.lang, date)
    }

    /// A date: `<time datetime>` in words when it is a real `YYYY-MM-DD`
    /// date, else the text as written.
    pub fn date(&self, date: &str, x: &mut Xml) {
        if is_calendar_date(date) {
            x.element("time", &[("datetime", date)], &self.long_date(date));
        } else {
            x.text(date);
        }
    }

    /// Chapter `index` as a `section`: its title, date and content, its
    /// notes where the plan puts them, and, in the notes chapter, the
    /// notes it collects.
    pub fn chapter(&self, index: usize) -> String {
        let chapter = &self.book.chapters[index];
        let (section_type, role) = section_semantics(chapter);
        let epub_type = if self.flavor.is_epub() {
            "epub:type"
        } else {
            ""
        };
        let mut x = Xml::new(self.flavor);
        x.open(
            "section",
            &[
                ("id", &chapter.slug),
                ("class", section_type),
                (epub_type, section_type),
                ("role", role),
                ("aria-labelledby", "chapter-title"),
            ],
        );
        self.page_break_at(index, &[], &mut x);
        x.open("header", &[]);
        // Short words bound to the next (no line ends on "de" or "the");
        // the style sheet balances the lines.
        let printed = stoa_locale::bind_title(&chapter.title, &self.book.lang);
        x.element("h1", &[("id", "chapter-title")], &printed);
        if let Some(date) = &chapter.date {
            x.open("p", &[("class", "date")]);
            self.date(date, &mut x);
            x.close();
        }
        x.close().newline();
        content::Writer::new(self, index, index).chapter(&chapter.blocks, &mut x);
        if self.notes.collector() == Some(index) {
            self.collected_notes(index, &mut x);
        }
        x.close();
        x.finish()
    }

    /// The notes chapter's content: under a heading per chapter that sends
    /// its notes here, that chapter's notes, each leading back to its
    /// reference.
    fn collected_notes(&self, page: usize, x: &mut Xml) {
        for source in self.notes.collected() {
            let chapter = &self.book.chapters[source];
            let heading = format!("{}-notes", chapter.slug);
            x.open(
                "section",
                &[("class", "collected-notes"), ("aria-labelledby", &heading)],
            );
            let href = self.chapter_file(source);
            x.open("h2", &[("id", &heading)])
                .element("a", &[("href", &href)], &chapter.title)
                .close()
                .newline();
            content::Writer::new(self, source, page).collected(x);
            x.close().newline();
        }
    }

    /// A container's class, the semantics of its role and its attributes,
    /// as (X)HTML attributes. Ids, languages, titles and ARIA pass
    /// through; anything else becomes `data-*`; `epub:type` only in EPUB.
    /// `aria` says whether the element may carry the role's ARIA role.
    fn container_attrs(
        &self,
        class: &str,
        role: Option<&Role>,
        attrs: &Attrs,
        in_glossary: bool,
        aria: bool,
    ) -> Vec<(String, String)> {
        let epub = self.flavor.is_epub();
        let mut out: Vec<(String, String)> = Vec::new();
        let mut push = |name: String, value: &str| {
            if !name.is_empty() && !out.iter().any(|(n, _)| *n == name) {
                out.push((name, value.to_string()));
            }
        };
        if !class.is_empty() {
            push("class".into(), class);
        }
        if let Some(role) = role {
            if let Some(t) = role.epub_type(in_glossary).filter(|_| epub) {
                push("epub:type".into(), t);
            }
            if let Some(r) = role.aria_role().filter(|_| aria) {
                push("role".into(), r);
            }
        }
        for (key, value) in attrs {
            let name = match key.as_str() {
                "id" | "lang" | "title" => key.clone(),
                "role" if aria => key.clone(),
                "epub:type" if epub => key.clone(),
                "epub:type" | "role" => continue,
                k => match (k.strip_prefix("aria-"), clean_name(k)) {
                    (Some(_), clean) => clean,
                    (None, clean) if clean.is_empty() => continue,
                    (None, clean) => format!("data-{clean}"),
                },
            };
            push(name, value);
            if key == "lang" && epub {
                push("xml:lang".into(), value);
            }
        }
        out
    }
}

/// The id of the marker of the print page labelled `label`: `page-41`
/// (anything but ASCII letters and digits becomes `-`).
pub fn page_id(label: &str) -> String {
    let clean: String = label
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect();
    format!("page-{clean}")
}

/// How a chapter is marked: its class and `epub:type`, and its ARIA role.
/// A chapter's role says more than its kind: a glossary appendix is a
/// glossary.
fn section_semantics(chapter: &Chapter) -> (&'static str, &'static str) {
    if chapter.role == Some(Role::Glossary) {
        return ("glossary", "doc-glossary");
    }
    if chapter.role == Some(Role::Other(stoa_doc::BIBLIOGRAPHY_ROLE.into())) {
        return ("bibliography", "doc-bibliography");
    }
    if stoa_doc::index::is_index(chapter) {
        return ("index", "doc-index");
    }
    match chapter.kind {
        ChapterKind::Post => ("chapter", "doc-chapter"),
        ChapterKind::About | ChapterKind::Appendix => ("appendix", "doc-appendix"),
        ChapterKind::Notes => ("endnotes", "doc-endnotes"),
    }
}

/// Whether a chapter of `kind` is the book's text or its back matter
/// (EPUB's `bodymatter` / `backmatter`).
pub fn body_type(kind: ChapterKind) -> &'static str {
    match kind {
        ChapterKind::Post => "bodymatter",
        ChapterKind::About | ChapterKind::Appendix | ChapterKind::Notes => "backmatter",
    }
}

/// An attribute name a plugin gave, reduced to what both XML and HTML
/// accept: lowercase ASCII letters, digits and hyphens.
fn clean_name(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Whether `date` is a `YYYY-MM-DD` day that exists (HTML's `datetime`
/// refuses 31 April).
pub fn is_calendar_date(date: &str) -> bool {
    let Some((year, month, day)) = stoa_locale::parse_date(date) else {
        return false;
    };
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    let days = match month {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    date.len() == 10 && year >= 1 && day <= days
}

#[cfg(test)]
mod tests;

/// A formula drawn as an image: `<img>` of `file`, the LaTeX `tex` as its
/// alternative text (what MathML's `alttext` says), sized in ems so that
/// it follows the reader's font size, its baseline on the text's; a
/// display formula a centred block of its own.
pub(crate) fn formula_img(file: &str, tex: &str, display: bool, image: &FormulaImage, x: &mut Xml) {
    // Three decimals, without trailing zeros: `0.25em`, `-0.006em`, `0em`.
    let em = |v: f64| {
        if v.abs() < 0.0005 {
            return "0em".to_owned();
        }
        let text = format!("{v:.3}");
        format!("{}em", text.trim_end_matches('0').trim_end_matches('.'))
    };
    let style = if display {
        format!(
            "display: block; margin: 0.6em auto; width: {}; height: {}",
            em(image.width_em),
            em(image.height_em)
        )
    } else {
        format!(
            "width: {}; height: {}; vertical-align: {}",
            em(image.width_em),
            em(image.height_em),
            em(-image.depth_em)
        )
    };
    let class = if display { "math display" } else { "math" };
    x.empty(
        "img",
        &[
            ("class", class),
            ("src", file),
            ("alt", tex),
            ("style", &style),
        ],
    );
}
