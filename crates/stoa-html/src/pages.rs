//! The pages of the web edition: the start page and one page per chapter,
//! each with a skip link, a header, the text as the landmark `main`, the
//! way between chapters, and a footer.

use crate::{INDEX, STYLESHEET};
use stoa_render::{Alternate, Layout};
use stoa_xhtml::{Flavor, Markup, Page, Xml, document};

/// Where the download page is, from an edition's folder
/// (`dist/<book>/<lang>/`).
const ALL_BOOKS: &str = "../../index.html";
/// The id of `main`, where the skip link goes.
const TEXT: &str = "text";

/// The cover on the start page.
pub(crate) struct Cover {
    /// Its file in the edition's folder.
    pub file: &'static str,
    /// Its size in pixels, when known.
    pub size: Option<(u32, u32)>,
}

/// The start page: cover, title, subtitle, author, date, description, a
/// link to start reading, and the contents with each chapter's summary.
pub(crate) fn index(
    m: &Markup,
    cover: Option<&Cover>,
    alternates: &[Alternate],
    layout: &Layout,
) -> String {
    let book = m.book;
    let words = &m.locale().web;
    let mut x = Xml::new(Flavor::Html);
    skip_link(m, &mut x);
    x.open("header", &[("class", "masthead")]);
    x.open(
        "nav",
        &[("class", "book-nav"), ("aria-label", words.all_books)],
    );
    x.element(
        "a",
        &[("class", "all-books"), ("href", ALL_BOOKS)],
        words.all_books,
    );
    x.close();
    crate::languages::switch(m, alternates, None, &mut x);
    x.close().newline();
    x.open("main", &[("id", TEXT), ("class", "home")]).newline();
    titling(m, cover, &mut x);
    if let Some(description) = &book.meta.description {
        x.open("div", &[("class", "description")]);
        for paragraph in paragraphs(description) {
            x.element("p", &[], paragraph);
        }
        x.close().newline();
    }
    if !book.chapters.is_empty() {
        let first = m.chapter_file(0);
        x.open("p", &[("class", "start")])
            .element(
                "a",
                &[("class", "start-reading"), ("href", &first)],
                words.start_reading,
            )
            .close()
            .newline();
    }
    contents(m, layout, &mut x);
    x.close().newline();
    footer(m, &mut x);
    let description = book.meta.description.as_deref().unwrap_or("");
    let links = crate::languages::head_links(alternates, None);
    wrap(
        m,
        &book.meta.title,
        description,
        "home-page",
        &links,
        &x.finish(),
    )
}

/// Cover, title, subtitle, author and date.
fn titling(m: &Markup, cover: Option<&Cover>, x: &mut Xml) {
    let book = m.book;
    let locale = m.locale();
    x.open("header", &[("class", "titling")]).newline();
    if let Some(cover) = cover {
        let alt = format!("{} {}", locale.site.cover_of, book.meta.title);
        let (width, height) = cover
            .size
            .map(|(w, h)| (w.to_string(), h.to_string()))
            .unwrap_or_default();
        let w = if width.is_empty() { "" } else { "width" };
        let h = if height.is_empty() { "" } else { "height" };
        x.empty(
            "img",
            &[
                ("class", "cover"),
                ("src", cover.file),
                ("alt", &alt),
                (w, &width),
                (h, &height),
            ],
        )
        .newline();
    }
    x.element("h1", &[("class", "book-title")], &book.meta.title);
    if let Some(subtitle) = &book.meta.subtitle {
        x.element("p", &[("class", "subtitle")], subtitle);
    }
    x.element("p", &[("class", "author")], &book.meta.author);
    if !book.meta.date.is_empty() {
        x.open("p", &[("class", "published")])
            .text(locale.web.published)
            .text(" ");
        m.date(&book.meta.date, x);
        x.close();
    }
    x.close().newline();
}

/// The contents: every chapter, with its summary, the posts of a part
/// under its title.
fn contents(m: &Markup, layout: &Layout, x: &mut Xml) {
    let book = m.book;
    x.open(
        "nav",
        &[
            ("id", "contents"),
            ("class", "contents"),
            ("role", "doc-toc"),
            ("aria-labelledby", "contents-title"),
        ],
    );
    x.element("h2", &[("id", "contents-title")], &book.labels.contents)
        .newline();
    stoa_xhtml::contents_list(x, book, layout, "h3", &|i| m.chapter_file(i));
    x.close().newline();
}

/// One chapter's page: the book's header, the chapter (title, date,
/// content, notes), then the way to the chapters around it.
pub(crate) fn chapter(
    m: &Markup,
    index: usize,
    alternates: &[Alternate],
    part: Option<(usize, &str)>,
) -> String {
    let book = m.book;
    let chapter = &book.chapters[index];
    let words = &m.locale().web;
    let mut x = Xml::new(Flavor::Html);
    skip_link(m, &mut x);
    x.open("header", &[("class", "masthead")]);
    x.open(
        "nav",
        &[("class", "book-nav"), ("aria-label", &book.meta.title)],
    );
    x.element(
        "a",
        &[("class", "book-home"), ("href", INDEX)],
        &book.meta.title,
    );
    part_link(part, &mut x);
    x.element(
        "a",
        &[("class", "all-books"), ("href", ALL_BOOKS)],
        words.all_books,
    );
    x.close();
    crate::languages::switch(m, alternates, Some(&chapter.slug), &mut x);
    x.close().newline();
    let mut body = x.finish();
    body.push_str(&format!("<main id=\"{TEXT}\">\n"));
    body.push_str(&m.chapter(index));
    body.push_str("\n</main>\n");
    let mut x = Xml::new(Flavor::Html);
    pager(m, index, &mut x);
    footer(m, &mut x);
    body.push_str(&x.finish());
    let title = format!("{} — {}", chapter.title, book.meta.title);
    let summary = chapter.summary.as_deref().unwrap_or("");
    let links = crate::languages::head_links(alternates, Some(&chapter.slug));
    wrap(m, &title, summary, "chapter-page", &links, &body)
}

/// In a chapter of a part (its index and title), the way back to the part
/// in the contents, named by the part's title: where the reader is.
fn part_link(part: Option<(usize, &str)>, x: &mut Xml) {
    if let Some((index, title)) = part {
        let href = format!("{INDEX}#{}", stoa_xhtml::part_id(index));
        x.element("a", &[("class", "book-part"), ("href", &href)], title);
    }
}

/// Previous, the contents and next, each named by where it leads.
fn pager(m: &Markup, index: usize, x: &mut Xml) {
    let words = &m.locale().web;
    let chapters = &m.book.chapters;
    x.open(
        "nav",
        &[("class", "pager"), ("aria-label", words.chapter_navigation)],
    )
    .newline();
    if let Some(prev) = index.checked_sub(1) {
        step(m, prev, "prev", words.previous, x);
    }
    x.element(
        "a",
        &[
            ("class", "pager-home"),
            ("href", &format!("{INDEX}#contents")),
        ],
        // The book's word for its contents: the table's, or the one its
        // `[labels.<lang>]` gives for a language the table lacks.
        &m.book.labels.contents,
    )
    .newline();
    if index + 1 < chapters.len() {
        step(m, index + 1, "next", words.next, x);
    }
    x.close().newline();
}

/// A link to chapter `to`: which way, then its title.
fn step(m: &Markup, to: usize, rel: &str, label: &str, x: &mut Xml) {
    let href = m.chapter_file(to);
    x.open(
        "a",
        &[
            ("class", &format!("pager-{rel}")),
            ("rel", rel),
            ("href", &href),
        ],
    )
    .element("span", &[("class", "pager-way")], label)
    .text(" ")
    .element(
        "span",
        &[("class", "pager-title")],
        &m.book.chapters[to].title,
    )
    .close()
    .newline();
}

/// The skip link, first on every page, for keyboards and screen readers.
fn skip_link(m: &Markup, x: &mut Xml) {
    x.element(
        "a",
        &[("class", "skip-link"), ("href", &format!("#{TEXT}"))],
        m.locale().web.skip_to_text,
    )
    .newline();
}

/// Copyright, author and the typesetter, as on the colophon.
fn footer(m: &Markup, x: &mut Xml) {
    let book = m.book;
    x.open("footer", &[("class", "colophon")]);
    let year = book.meta.date.get(..4).unwrap_or(&book.meta.date);
    x.element("p", &[], &format!("© {year} {}", book.meta.author));
    if !book.labels.typeset_with.is_empty() {
        x.element("p", &[], &book.labels.typeset_with);
    }
    x.close().newline();
}

/// A whole page titled `title`, described by `description` for search
/// engines and link previews.
fn wrap(
    m: &Markup,
    title: &str,
    description: &str,
    class: &str,
    links: &str,
    body: &str,
) -> String {
    let mut head = Xml::new(Flavor::Html);
    if !description.trim().is_empty() {
        head.empty(
            "meta",
            &[("name", "description"), ("content", description.trim())],
        )
        .newline();
    }
    let mut head = head.finish();
    head.push_str(links);
    let page = Page {
        lang: &m.book.lang,
        title,
        stylesheet: STYLESHEET,
        head: &head,
        body_attrs: &[("class", class)],
    };
    document(Flavor::Html, &page, body)
}

/// The paragraphs of a text: its blank-line-separated parts.
fn paragraphs(text: &str) -> impl Iterator<Item = &str> {
    text.split("\n\n").map(str::trim).filter(|p| !p.is_empty())
}
