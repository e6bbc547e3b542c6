//! The web edition of a small book: its files, pages and links.

use super::*;
use stoa_doc::{
    Asset, Block, BookMeta, Chapter, ChapterKind, IdIndex, Inline, Labels, NoteNumbering,
    NotePlacement, NoteStyle, NotesPlan, Print, Role, Style,
};

fn chapter(slug: &str, kind: ChapterKind, blocks: Vec<Block>) -> Chapter {
    Chapter {
        slug: slug.into(),
        kind,
        title: format!("Title of {slug}"),
        date: Some("2024-05-31".into()),
        summary: Some(format!("About {slug}.")),
        notes: Some(NoteStyle {
            placement: NotePlacement::NotesChapter,
            numbering: NoteNumbering::Continuous,
        }),
        blocks,
        ..Chapter::default()
    }
}

fn book() -> Book {
    let text = |s: &str| Block::Paragraph {
        content: vec![
            Inline::text(s),
            Inline::FootnoteRef { label: "n".into() },
            Inline::Link {
                url: "#term".into(),
                title: String::new(),
                content: vec![Inline::text("term")],
            },
        ],
    };
    let def = Block::FootnoteDef {
        label: "n".into(),
        blocks: vec![Block::Paragraph {
            content: vec![Inline::text("A note.")],
        }],
    };
    let term = Block::Div {
        role: Some(Role::Glossary),
        class: "words".into(),
        attrs: Default::default(),
        blocks: vec![
            Block::Div {
                role: Some(Role::Term),
                class: "word".into(),
                attrs: [("id".to_string(), "term".to_string())].into(),
                blocks: vec![Block::Paragraph {
                    content: vec![Inline::text("Term")],
                }],
            },
            Block::Div {
                role: Some(Role::Definition),
                class: "meaning".into(),
                attrs: Default::default(),
                blocks: vec![Block::Paragraph {
                    content: vec![Inline::text("What it means.")],
                }],
            },
        ],
    };
    let mut lexicon = chapter("lexicon", ChapterKind::Appendix, vec![term]);
    lexicon.role = Some(Role::Glossary);
    Book {
        version: stoa_doc::TREE_VERSION,
        id: "b".into(),
        lang: "pt-BR".into(),
        meta: BookMeta {
            title: "O Livro".into(),
            subtitle: Some("E o subtítulo".into()),
            author: "Autora".into(),
            description: Some("First part.\n\nSecond <part> & more.".into()),
            identifier: "urn:x".into(),
            date: "2024-05-31".into(),
            modified: "2024-05-31T00:00:00Z".into(),
        },
        labels: Labels {
            contents: "Sumário".into(),
            notes: "Notas".into(),
            back_to_text: "Voltar ao texto".into(),
            typeset_with: "Composto com stoa".into(),
            ..Labels::default()
        },
        chapters: vec![
            chapter("one", ChapterKind::Post, vec![text("One"), def.clone()]),
            chapter("two", ChapterKind::Post, vec![text("Two"), def]),
            lexicon,
            chapter("notes", ChapterKind::Notes, vec![]),
        ],
        assets: Vec::new(),
        styles: vec![
            Style {
                origin: "p".into(),
                format: "html".into(),
                code: ".web {}".into(),
            },
            Style {
                origin: "p".into(),
                format: "epub".into(),
                code: ".ebook {}".into(),
            },
        ],
        print: Print::default(),
    }
}

/// A PNG header of 3 × 2 pixels (enough for the size).
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x03\0\0\0\x02rest";

/// The files of an edition with every body read into memory.
fn in_memory(files: Vec<(String, stoa_render::Body)>) -> Vec<(String, Vec<u8>)> {
    files
        .into_iter()
        .map(|(name, body)| (name, body.to_bytes().expect("readable")))
        .collect()
}

fn site(book: &Book, cover: Option<&[u8]>) -> Vec<(String, Vec<u8>)> {
    let notes = NotesPlan::of(book);
    let ids = IdIndex::of(book);
    let theme = stoa_render::Theme::folder("none", "/no/theme");
    let ctx = RenderContext::new(
        book,
        &notes,
        &ids,
        &theme,
        &[],
        stoa_render::Layout::empty(),
    )
    .with_cover(cover);
    in_memory(render_site(&ctx, "body {}").unwrap())
}

fn page<'f>(files: &'f [(String, Vec<u8>)], name: &str) -> &'f str {
    let (_, bytes) = files
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name}"));
    std::str::from_utf8(bytes).unwrap()
}

#[test]
fn one_folder_of_pages_the_same_every_time() {
    let book = book();
    let files = site(&book, Some(PNG));
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "cover.png",
            "index.html",
            "lexicon.html",
            "notes.html",
            "one.html",
            "style.css",
            "two.html"
        ]
    );
    assert_eq!(files, site(&book, Some(PNG)), "byte-identical");
    let css = page(&files, "style.css");
    assert!(css.starts_with("body {}") && css.contains(".web {}") && !css.contains(".ebook"));
    for (name, bytes) in files.iter().filter(|(n, _)| n.ends_with(".html")) {
        let html = std::str::from_utf8(bytes).unwrap();
        assert!(!html.contains("epub:") && !html.contains("xml:"), "{name}");
        assert!(html.starts_with("<!DOCTYPE html>\n<html lang=\"pt-BR\" dir=\"ltr\">"));
        assert!(html.contains(r##"<a class="skip-link" href="#text">Pular para o texto</a>"##));
        assert!(html.contains("<main id=\"text\""), "{name}");
        assert!(
            html.contains(r#"href="../../index.html""#),
            "{name}: all books"
        );
    }
}

#[test]
fn the_start_page_presents_the_book_and_its_contents() {
    let files = site(&book(), Some(PNG));
    let index = page(&files, "index.html");
    assert!(
        index.contains(r#"<img class="cover" src="cover.png" alt=""#),
        "{index}"
    );
    assert!(index.contains(r#"width="3" height="2">"#));
    assert!(index.contains(r#"<h1 class="book-title">O Livro</h1>"#));
    assert!(index.contains(r#"<p class="subtitle">E o subtítulo</p>"#));
    assert!(index.contains("<time datetime=\"2024-05-31\">31 de maio de 2024</time>"));
    assert!(index.contains("<p>First part.</p><p>Second &lt;part&gt; &amp; more.</p>"));
    assert!(index.contains(r#"<a class="start-reading" href="one.html">"#));
    assert!(index.contains(
        "<li class=\"post\"><a href=\"two.html\">Title of\u{a0}two</a><p class=\"summary\">About two.</p></li>"
    ));
    assert!(index.contains("<li class=\"back\"><a href=\"lexicon.html\">"));
    let without = site(&book(), None);
    assert!(!page(&without, "index.html").contains("<img"));
}

#[test]
fn chapters_lead_to_each_other_their_notes_and_the_glossary() {
    let files = site(&book(), None);
    let one = page(&files, "one.html");
    assert!(one.contains("<title>Title of one — O Livro</title>"));
    assert!(one.contains(r#"<a class="book-home" href="index.html">O Livro</a>"#));
    assert!(
        !one.contains("rel=\"prev\""),
        "the first chapter has no previous"
    );
    assert!(one.contains(r#"<a class="pager-next" rel="next" href="two.html">"#));
    assert!(one.contains(r##"href="notes.html#one-note-1""##));
    assert!(one.contains(r##"<a href="lexicon.html#term">term</a>"##));
    let two = page(&files, "two.html");
    assert!(two.contains(r#"<a class="pager-prev" rel="prev" href="one.html">"#));
    assert!(
        two.contains(r##"href="notes.html#two-note-2""##),
        "continuous"
    );
    let notes = page(&files, "notes.html");
    assert!(notes.contains(r##"<a href="two.html#noteref-2" role="doc-backlink""##));
    assert!(
        !notes.contains("rel=\"next\""),
        "the last chapter has no next"
    );
    let lexicon = page(&files, "lexicon.html");
    assert!(
        lexicon.contains("<dl class=\"words\">\n<dt class=\"word\" id=\"term\"><dfn>Term</dfn>")
    );
}

#[test]
fn every_internal_link_reaches_its_target() {
    let files = site(&book(), Some(PNG));
    let pages: Vec<(&str, &str)> = files
        .iter()
        .filter(|(n, _)| n.ends_with(".html"))
        .map(|(n, b)| (n.as_str(), std::str::from_utf8(b).unwrap()))
        .collect();
    let values = |html: &str, attr: &str| -> Vec<String> {
        let needle = format!(" {attr}=\"");
        html.match_indices(&needle)
            .map(|(i, _)| {
                let rest = &html[i + needle.len()..];
                rest[..rest.find('"').unwrap()].to_string()
            })
            .collect()
    };
    for (name, html) in &pages {
        for href in values(html, "href").into_iter().chain(values(html, "src")) {
            if href.starts_with("../../") || href.contains("://") {
                continue;
            }
            let (file, fragment) = href.split_once('#').unwrap_or((&href, ""));
            let file = if file.is_empty() { *name } else { file };
            assert!(files.iter().any(|(n, _)| n == file), "{name}: {href}");
            if !fragment.is_empty() {
                let target = pages.iter().find(|(n, _)| *n == file).unwrap().1;
                assert!(
                    values(target, "id").iter().any(|id| id == fragment),
                    "{name}: {href}"
                );
            }
        }
    }
}

#[test]
fn names_that_would_clash_or_escape_are_refused() {
    let mut clash = book();
    clash.chapters[0].slug = "index".into();
    clash.chapters[0].source = Some("books/posts/index/en.md".into());
    clash.assets.push(Asset {
        name: "../secret.png".into(),
        path: "/etc/secret.png".into(),
        media_type: "image/png".into(),
    });
    let errors = check_names(&clash).unwrap_err();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].message.contains("index.html"));
    assert_eq!(
        errors[0].file.as_deref(),
        Some("books/posts/index/en.md"),
        "the error names the post"
    );
    assert!(errors[1].message.contains("../secret.png"));
}

#[test]
fn cover_sizes_come_from_the_png_header() {
    assert_eq!(png_size(PNG), Some((3, 2)));
    assert_eq!(png_size(b"GIF89a"), None);
}

#[test]
fn chapters_link_to_the_same_chapter_in_the_other_languages() {
    let book = book();
    let first = book.chapters[0].slug.clone();
    let notes = NotesPlan::of(&book);
    let ids = IdIndex::of(&book);
    // The Portuguese edition has only the first chapter.
    let alternates = [stoa_render::Alternate {
        lang: "pt-BR".into(),
        slugs: vec![first.clone()],
    }];
    let theme = stoa_render::Theme::folder("none", "/no/theme");
    let ctx = RenderContext::new(
        &book,
        &notes,
        &ids,
        &theme,
        &[],
        stoa_render::Layout::empty(),
    )
    .with_alternates(&alternates);
    let files = in_memory(render_site(&ctx, "body {}").unwrap());
    let href = format!("../pt-BR/{first}.html");
    let linked = page(&files, &format!("{first}.html"));
    assert!(
        linked.contains(&format!(
            "<link rel=\"alternate\" hreflang=\"pt-BR\" href=\"{href}\">"
        )),
        "{linked}"
    );
    assert!(linked.contains(&format!(
        "href=\"{href}\" hreflang=\"pt-BR\" lang=\"pt-BR\""
    )));
    assert!(linked.contains(">Português</a>"));
    let second = &book.chapters[1].slug;
    let alone = page(&files, &format!("{second}.html"));
    assert!(!alone.contains("hreflang"), "no page to link to: {alone}");
    assert!(page(&files, "index.html").contains("href=\"../pt-BR/index.html\""));
}
