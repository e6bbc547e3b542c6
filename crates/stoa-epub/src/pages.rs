//! The XHTML documents of the book: cover, title page, contents, chapters, colophon.

use crate::content::Renderer;
use crate::xml::{Xml, page};
use stoa_doc::{Book, Chapter, ChapterKind};

/// The cover: the rendered cover image, full page.
pub fn cover(book: &Book) -> String {
    let mut x = Xml::new();
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
    page(&book.lang, &book.meta.title, "frontmatter", &x.finish())
}

/// Title, subtitle and author.
pub fn title_page(book: &Book) -> String {
    let mut x = Xml::new();
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
    page(&book.lang, &book.meta.title, "frontmatter", &x.finish())
}

/// The printed table of contents, with each post's summary.
pub fn contents(book: &Book) -> String {
    let mut x = Xml::new();
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
        let href = crate::chapter_file(&chapter.slug);
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
    page(
        &book.lang,
        &book.labels.contents,
        "frontmatter",
        &x.finish(),
    )
}

/// One chapter: its title, date and content.
pub fn chapter(book: &Book, chapter: &Chapter) -> String {
    let (body_type, section_type, role) = match chapter.kind {
        ChapterKind::Post => ("bodymatter", "chapter", "doc-chapter"),
        ChapterKind::About => ("backmatter", "appendix", "doc-appendix"),
        ChapterKind::Appendix => ("backmatter", "appendix", "doc-appendix"),
        ChapterKind::Notes => ("backmatter", "endnotes", "doc-endnotes"),
    };
    let mut x = Xml::new();
    x.open(
        "section",
        &[
            ("id", &chapter.slug),
            ("class", section_type),
            ("epub:type", section_type),
            ("role", role),
            ("aria-labelledby", "chapter-title"),
        ],
    );
    x.open("header", &[]);
    x.element("h1", &[("id", "chapter-title")], &chapter.title);
    if let Some(date) = &chapter.date {
        x.open("p", &[("class", "date")])
            .element("time", &[("datetime", date)], &long_date(date, &book.lang))
            .close();
    }
    x.close().newline();
    let targets = crate::targets::Targets::of(book);
    Renderer::new(&book.labels, &chapter.blocks)
        .with_notes(crate::content::note_setup(book, chapter))
        .with_targets(&targets, crate::chapter_file(&chapter.slug))
        .chapter(&chapter.blocks, &mut x);
    if stoa_doc::collects_notes(chapter) {
        crate::content::collected_notes(book, &mut x);
    }
    x.close();
    page(&book.lang, &chapter.title, body_type, &x.finish())
}

/// Author, date, identifier and the typesetter.
pub fn colophon(book: &Book) -> String {
    let mut x = Xml::new();
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
            &book.meta.date[..4.min(book.meta.date.len())],
            book.meta.author
        ),
    );
    x.element("p", &[], &long_date(&book.meta.date, &book.lang));
    x.element("p", &[("class", "identifier")], &book.meta.identifier);
    x.element("p", &[], &book.labels.typeset_with);
    x.close();
    page(&book.lang, &book.labels.colophon, "backmatter", &x.finish())
}

/// `2024-05-31` as `31 May 2024` or `31 de maio de 2024`.
pub fn long_date(date: &str, lang: &str) -> String {
    let parts: Vec<&str> = date.split('-').collect();
    let [year, month, day] = parts.as_slice() else {
        return date.to_string();
    };
    let (Ok(m), Ok(d)) = (month.parse::<usize>(), day.parse::<u32>()) else {
        return date.to_string();
    };
    const EN: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    const PT: [&str; 12] = [
        "janeiro",
        "fevereiro",
        "março",
        "abril",
        "maio",
        "junho",
        "julho",
        "agosto",
        "setembro",
        "outubro",
        "novembro",
        "dezembro",
    ];
    let Some(index) = m.checked_sub(1).filter(|i| *i < 12) else {
        return date.to_string();
    };
    if lang.starts_with("pt") {
        format!("{d} de {} de {year}", PT[index])
    } else {
        format!("{d} {} {year}", EN[index])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_naturally() {
        assert_eq!(long_date("2024-05-31", "pt-BR"), "31 de maio de 2024");
        assert_eq!(long_date("2024-01-02", "en"), "2 January 2024");
        assert_eq!(long_date("garbage", "en"), "garbage");
    }
}
