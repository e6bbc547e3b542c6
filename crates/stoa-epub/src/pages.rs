//! The XHTML documents of the book: cover, title page, contents, chapters, colophon.

use stoa_doc::Book;
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

/// The printed table of contents, with each post's summary, the posts of
/// a part under its title.
pub fn contents(book: &Book, layout: &stoa_render::Layout) -> String {
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
    let href = |i: usize| Flavor::Epub.file(&book.chapters[i].slug);
    stoa_xhtml::contents_list(&mut x, book, layout, "h2", &href);
    x.close();
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
