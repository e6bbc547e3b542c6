//! The XHTML documents of the book: cover, title page, contents, chapters, colophon.

use stoa_doc::{Book, ChapterKind};
use stoa_xhtml::{Flavor, Markup, Page, Xml, body_type, document};

/// The style sheet every document links to.
const STYLESHEET: &str = "stylesheet.css";

/// A whole XHTML document titled `title` around `body`.
fn page(book: &Book, title: &str, body_type: &str, body: &str) -> String {
    let page = Page {
        lang: &book.lang,
        title,
        stylesheet: STYLESHEET,
        head: "",
        body_attrs: &[("epub:type", body_type)],
    };
    document(Flavor::Epub, &page, body)
}

/// The cover: the rendered cover image, full page.
pub fn cover(book: &Book) -> String {
    let mut x = Xml::new(Flavor::Epub);
    let alt = format!("{} — {}", book.meta.title, book.meta.author);
    x.open("section", &[("class", "cover"), ("epub:type", "cover")])
        .empty(
            "img",
            &[
                ("src", "images/cover.png"),
                ("alt", &alt),
                ("role", "doc-cover"),
            ],
        )
        .close();
    page(book, &book.meta.title, "frontmatter", &x.finish())
}

/// Title, subtitle and author.
pub fn title_page(book: &Book) -> String {
    let mut x = Xml::new(Flavor::Epub);
    x.open(
        "section",
        &[("class", "titlepage"), ("epub:type", "titlepage")],
    );
    x.element("h1", &[("class", "title")], &book.meta.title);
    if let Some(subtitle) = &book.meta.subtitle {
        x.element("p", &[("class", "subtitle")], subtitle);
    }
    x.element("p", &[("class", "author")], &book.meta.author);
    x.close();
    page(book, &book.meta.title, "frontmatter", &x.finish())
}

/// The printed table of contents, with each post's summary.
pub fn contents(book: &Book) -> String {
    let mut x = Xml::new(Flavor::Epub);
    x.open(
        "nav",
        &[
            ("class", "contents"),
            ("epub:type", "toc"),
            ("role", "doc-toc"),
            ("aria-labelledby", "contents-title"),
        ],
    );
    x.element("h1", &[("id", "contents-title")], &book.labels.contents);
    x.open("ol", &[]);
    for chapter in &book.chapters {
        let href = Flavor::Epub.file(&chapter.slug);
        let class = if chapter.kind == ChapterKind::Post {
            "post"
        } else {
            "back"
        };
        x.open("li", &[("class", class)])
            .element("a", &[("href", &href)], &chapter.title);
        if let Some(summary) = &chapter.summary {
            x.element("p", &[("class", "summary")], summary);
        }
        x.close().newline();
    }
    x.close().close();
    page(book, &book.labels.contents, "frontmatter", &x.finish())
}

/// Chapter `index`: its title, date, content and notes.
pub fn chapter(markup: &Markup, index: usize) -> String {
    let chapter = &markup.book.chapters[index];
    page(
        markup.book,
        &chapter.title,
        body_type(chapter.kind),
        &markup.chapter(index),
    )
}

/// Author, date, identifier and the typesetter.
pub fn colophon(markup: &Markup) -> String {
    let book = markup.book;
    let mut x = Xml::new(Flavor::Epub);
    x.open(
        "section",
        &[
            ("class", "colophon"),
            ("epub:type", "colophon"),
            ("role", "doc-colophon"),
            ("aria-label", &book.labels.colophon),
        ],
    );
    x.element("p", &[("class", "title")], &book.meta.title);
    x.element(
        "p",
        &[],
        &format!(
            "© {} {}",
            book.meta.date.get(..4).unwrap_or(&book.meta.date),
            book.meta.author
        ),
    );
    x.open("p", &[]);
    markup.date(&book.meta.date, &mut x);
    x.close();
    x.element("p", &[("class", "identifier")], &book.meta.identifier);
    x.element("p", &[], &book.labels.typeset_with);
    x.close();
    page(book, &book.labels.colophon, "backmatter", &x.finish())
}
