//! The writer on small books: notes in every placement, roles, links
//! across chapters, and the two flavours.

use super::*;
use stoa_doc::{
    Block, BookMeta, Chapter, Inline, Labels, NoteNumbering, NotePlacement, NoteStyle, Print,
};

fn book(chapters: Vec<Chapter>) -> Book {
    Book {
        version: stoa_doc::TREE_VERSION,
        id: "b".into(),
        lang: "en".into(),
        meta: BookMeta::default(),
        labels: Labels {
            notes: "Notes".into(),
            back_to_text: "Back".into(),
            ..Labels::default()
        },
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: Print::default(),
    }
}

fn chapter(slug: &str, blocks: Vec<Block>) -> Chapter {
    Chapter {
        slug: slug.into(),
        title: slug.to_uppercase(),
        blocks,
        ..Chapter::default()
    }
}

fn styled(slug: &str, placement: NotePlacement, numbering: NoteNumbering) -> Chapter {
    let mut c = chapter(
        slug,
        vec![
            par(vec![
                Inline::text("a"),
                note("x"),
                note("x"),
                note("missing"),
            ]),
            Block::List {
                start: None,
                tight: true,
                items: vec![stoa_doc::ListItem {
                    checked: None,
                    blocks: vec![par(vec![Inline::text("item"), note("y")])],
                }],
            },
            par(vec![Inline::text("after")]),
            def("x", vec![Inline::text("NOTE-X")]),
            def("y", vec![Inline::text("NOTE-Y, see"), note("z")]),
            def("z", vec![Inline::text("NOTE-Z")]),
            def("unused", vec![Inline::text("NOTE-UNUSED")]),
        ],
    );
    c.notes = Some(NoteStyle {
        placement,
        numbering,
    });
    c
}

fn par(content: Vec<Inline>) -> Block {
    Block::Paragraph { content }
}

fn note(label: &str) -> Inline {
    Inline::FootnoteRef {
        label: label.into(),
    }
}

fn def(label: &str, content: Vec<Inline>) -> Block {
    Block::FootnoteDef {
        label: label.into(),
        blocks: vec![par(content)],
    }
}

fn div(role: Option<Role>, class: &str, attrs: &[(&str, &str)], blocks: Vec<Block>) -> Block {
    Block::Div {
        role,
        class: class.into(),
        attrs: attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        blocks,
    }
}

/// Every chapter of `book`, written as `flavor`.
fn render(book: &Book, flavor: Flavor) -> Vec<String> {
    let notes = NotesPlan::of(book);
    let ids = IdIndex::of(book);
    let m = Markup::new(book, &notes, &ids, flavor);
    (0..book.chapters.len()).map(|i| m.chapter(i)).collect()
}

#[test]
fn footnotes_are_asides_after_their_block_out_of_lists() {
    let b = book(vec![styled(
        "one",
        NotePlacement::Footnotes,
        NoteNumbering::PerChapter,
    )]);
    let html = &render(&b, Flavor::Epub)[0];
    assert!(
        html.contains(
            r##"<a id="noteref-1-2" href="#note-1" epub:type="noteref" role="doc-noteref">1</a>"##
        ),
        "{html}"
    );
    assert!(html.contains("[^missing]") && !html.contains("NOTE-UNUSED"));
    assert_eq!(html.matches("<aside").count(), 3, "{html}");
    let list_end = html.find("</ul>").unwrap();
    let aside_y = html.find(r#"<aside id="note-2""#).unwrap();
    assert!(list_end < aside_y, "the list's note waits for the list");
    assert!(
        aside_y < html.find("NOTE-Z").unwrap(),
        "a note's note follows it"
    );
    assert!(html.find("NOTE-Z").unwrap() < html.find("after").unwrap());
    assert!(html.contains(
        r##"<aside id="note-1" class="footnote" epub:type="footnote" role="doc-footnote"><p><a class="note-number" href="#noteref-1" role="doc-backlink" title="Back">1.</a> NOTE-X</p>"##
    ));
    assert!(!html.contains("endnotes"));
}

#[test]
fn endnotes_follow_the_chapter_numbered_through_the_book() {
    let b = book(vec![
        styled("one", NotePlacement::Endnotes, NoteNumbering::Continuous),
        styled("two", NotePlacement::Endnotes, NoteNumbering::Continuous),
    ]);
    let pages = render(&b, Flavor::Epub);
    assert!(pages[0].contains("<ol><li id=\"note-1\" epub:type=\"endnote\">"));
    let two = &pages[1];
    assert!(two.contains(r#"<ol start="4">"#), "{two}");
    assert!(two.contains(r##"<a id="noteref-4" href="#note-4""##));
    assert!(two.contains(
        "<li id=\"note-4\" epub:type=\"endnote\"><p>NOTE-X\u{a0}<a href=\"#noteref-4\" role=\"doc-backlink\""
    ));
    assert!(two.contains(
        r#"<section class="endnotes" epub:type="endnotes" role="doc-endnotes"><h2>Notes</h2>"#
    ));
    assert!(
        two.find("</p>\n<ul>").unwrap() < two.find("endnotes").unwrap(),
        "after the text"
    );
}

#[test]
fn collected_notes_sit_in_the_notes_chapter_with_ways_back() {
    let mut notes = chapter("notes", vec![]);
    notes.kind = ChapterKind::Notes;
    notes.title = "Notes".into();
    let b = book(vec![
        styled(
            "one",
            NotePlacement::NotesChapter,
            NoteNumbering::PerChapter,
        ),
        styled(
            "two",
            NotePlacement::NotesChapter,
            NoteNumbering::PerChapter,
        ),
        notes,
    ]);
    let pages = render(&b, Flavor::Html);
    assert!(
        pages[0].contains(
            r##"<a id="noteref-1" href="notes.html#one-note-1" role="doc-noteref">1</a>"##
        )
    );
    assert!(!pages[0].contains("NOTE-X"), "not in the chapter");
    let notes = &pages[2];
    assert!(notes.contains(
        r#"<section class="collected-notes" aria-labelledby="two-notes"><h2 id="two-notes"><a href="two.html">TWO</a></h2>"#
    ));
    assert!(notes.contains(r#"<li id="two-note-1">"#), "{notes}");
    assert!(notes.contains(r##"href="one.html#noteref-1""##));
    // Note z is referred to only from note y: it leads back to that
    // reference, here, which has an id unique in the notes chapter.
    assert!(
        notes.contains(r##"<a id="one-noteref-3" href="#one-note-3" role="doc-noteref">3</a>"##)
    );
    assert!(notes.contains(r##"<a href="#one-noteref-3" role="doc-backlink""##));
    assert!(notes.find("one-note-1").unwrap() < notes.find("two-note-1").unwrap());
}

#[test]
fn a_definition_list_role_makes_dl_dt_dd() {
    let term = div(
        Some(Role::Term),
        "my-term",
        &[("id", "t1"), ("epub:type", "glossterm")],
        vec![par(vec![Inline::text("Agora")])],
    );
    let definition = div(
        Some(Role::Definition),
        "my-def",
        &[("id", "t1-def")],
        vec![par(vec![Inline::text("a square")])],
    );
    let glossary = div(
        Some(Role::Glossary),
        "my-list",
        &[],
        vec![term.clone(), definition.clone()],
    );
    let plain = div(
        Some(Role::DefinitionList),
        "plain",
        &[],
        vec![term.clone(), definition],
    );
    let lonely = div(Some(Role::DefinitionList), "odd", &[], vec![term]);
    let b = book(vec![chapter("one", vec![glossary, plain, lonely])]);
    let epub = &render(&b, Flavor::Epub)[0];
    // The dl carries no `epub:type="glossary"`: it could not carry the
    // matching role (`doc-glossary` is not allowed on dl), which Ace
    // reports; the chapter or section is the glossary.
    assert!(epub.contains(
        "<dl class=\"my-list\">\n<dt class=\"my-term\" epub:type=\"glossterm\" id=\"t1\"><dfn>Agora</dfn></dt>\n\
         <dd class=\"my-def\" epub:type=\"glossdef\" id=\"t1-def\"><p>a square</p>\n</dd>\n</dl>"
    ), "{epub}");
    assert!(
        epub.contains(
            "<dl class=\"plain\">\n<dt class=\"my-term\" epub:type=\"glossterm\" id=\"t1\">"
        ),
        "outside a glossary the plugin's own epub:type stays"
    );
    assert!(
        epub.contains("<div class=\"odd\">"),
        "a term without definition is no dl"
    );
    let html = &render(&b, Flavor::Html)[0];
    assert!(
        html.contains(
            "<dl class=\"my-list\">\n<dt class=\"my-term\" id=\"t1\"><dfn>Agora</dfn></dt>"
        ),
        "{html}"
    );
}

#[test]
fn a_glossary_reference_is_its_link_with_the_span_semantics() {
    let span = Inline::Span {
        role: Some(Role::GlossaryRef),
        class: "my-ref".into(),
        attrs: [("id".to_string(), "use-1".to_string())].into(),
        content: vec![Inline::Link {
            url: "#t1".into(),
            title: "a square".into(),
            content: vec![Inline::text("agora")],
        }],
    };
    let term = div(Some(Role::Other("x".into())), "c", &[("id", "t1")], vec![]);
    let b = book(vec![
        chapter("one", vec![par(vec![span])]),
        chapter("words", vec![term]),
    ]);
    let epub = &render(&b, Flavor::Epub)[0];
    assert!(epub.contains(
        r#"<a class="my-ref" epub:type="glossref" role="doc-glossref" id="use-1" href="words.xhtml#t1" title="a square">agora</a>"#
    ), "{epub}");
    let html = &render(&b, Flavor::Html)[0];
    assert!(html.contains(
        r#"<a class="my-ref" role="doc-glossref" id="use-1" href="words.html#t1" title="a square">agora</a>"#
    ), "{html}");
}

#[test]
fn links_resolve_across_chapters_and_missing_ones_are_text() {
    let link = |url: &str, text: &str| Inline::Link {
        url: url.into(),
        title: String::new(),
        content: vec![Inline::text(text)],
    };
    let b = book(vec![
        chapter(
            "one",
            vec![
                Block::Heading {
                    level: 2,
                    id: "here".into(),
                    content: vec![Inline::text("Here")],
                },
                par(vec![
                    link("#here", "H"),
                    link("#there", "T"),
                    link("#two", "C"),
                    link("#nowhere", "N"),
                    link("https://example.org/?a=1&b=2", "E"),
                ]),
            ],
        ),
        chapter(
            "two",
            vec![Block::Heading {
                level: 3,
                id: "there".into(),
                content: vec![],
            }],
        ),
    ]);
    let html = &render(&b, Flavor::Html)[0];
    assert!(html.contains(r##"<a href="#here">H</a>"##));
    assert!(html.contains(r##"<a href="two.html#there">T</a>"##));
    assert!(html.contains(r##"<a href="two.html#two">C</a>"##));
    assert!(html.contains("N<a") && !html.contains("nowhere"));
    assert!(html.contains(r#"<a href="https://example.org/?a=1&amp;b=2">E</a>"#));
    let epub = &render(&b, Flavor::Epub)[0];
    assert!(epub.contains(r##"<a href="two.xhtml#there">T</a>"##));
}

#[test]
fn html_has_no_epub_semantics_nor_namespaced_attributes() {
    let mut notes_chapter = chapter("notes", vec![]);
    notes_chapter.kind = ChapterKind::Notes;
    let mut c = styled("one", NotePlacement::Footnotes, NoteNumbering::PerChapter);
    c.blocks.push(div(
        Some(Role::Glossary),
        "g",
        &[("lang", "la"), ("epub:type", "glossary"), ("role", "x")],
        vec![],
    ));
    c.blocks.push(par(vec![Inline::LineBreak]));
    let mut e = styled("two", NotePlacement::Endnotes, NoteNumbering::PerChapter);
    e.date = Some("2024-05-31".into());
    let b = book(vec![c, e, notes_chapter]);
    for html in render(&b, Flavor::Html) {
        assert!(!html.contains("epub:") && !html.contains("xml:"), "{html}");
        assert!(!html.contains("/>"), "{html}");
    }
    let html = &render(&b, Flavor::Html)[0];
    assert!(
        html.contains(r#"<div class="g" role="doc-glossary" lang="la">"#),
        "{html}"
    );
    let epub = &render(&b, Flavor::Epub)[0];
    assert!(epub.contains(
        r#"<div class="g" epub:type="glossary" role="doc-glossary" lang="la" xml:lang="la">"#
    ));
    assert!(epub.contains("<br/>"));
}

#[test]
fn chapters_carry_title_date_and_landmark() {
    let mut c = chapter("one", vec![par(vec![Inline::text("x")])]);
    c.date = Some("2024-05-31".into());
    let mut about = chapter("me", vec![]);
    about.kind = ChapterKind::About;
    about.date = Some("2024-02-30".into());
    let mut b = book(vec![c, about]);
    b.lang = "pt-BR".into();
    let pages = render(&b, Flavor::Epub);
    assert!(pages[0].starts_with(
        "<section id=\"one\" class=\"chapter\" epub:type=\"chapter\" role=\"doc-chapter\" aria-labelledby=\"chapter-title\"><header><h1 id=\"chapter-title\">ONE</h1><p class=\"date\"><time datetime=\"2024-05-31\">31 de maio de 2024</time></p></header>"
    ), "{}", pages[0]);
    assert!(
        pages[1].contains("<p class=\"date\">2024-02-30</p>"),
        "no such day"
    );
    assert_eq!(body_type(ChapterKind::About), "backmatter");
}

#[test]
fn plugin_attributes_are_safe() {
    let b = book(vec![chapter(
        "one",
        vec![div(
            None,
            "c",
            &[
                ("role", "note"),
                ("on click\"", "x"),
                ("onclick", "y"),
                ("aria-x\" y", "z"),
            ],
            vec![],
        )],
    )]);
    let html = &render(&b, Flavor::Html)[0];
    assert!(
        html.contains(r#"<div class="c" aria-xy="z" data-onclick="x" role="note">"#),
        "{html}"
    );
}

#[test]
fn a_note_inside_a_link_does_not_nest_links() {
    let mut c = styled("one", NotePlacement::Endnotes, NoteNumbering::PerChapter);
    c.blocks.insert(
        0,
        par(vec![Inline::Link {
            url: "https://example.org".into(),
            title: String::new(),
            content: vec![Inline::text("site"), note("x")],
        }]),
    );
    let html = &render(&book(vec![c]), Flavor::Html)[0];
    assert!(
        html.contains(r#"<a href="https://example.org">site<sup id="noteref-1">1</sup></a>"#),
        "{html}"
    );
}

#[test]
fn right_to_left_paragraphs_get_auto_direction() {
    let b = book(vec![chapter(
        "one",
        vec![
            par(vec![Inline::text("שלום")]),
            par(vec![Inline::text("olá")]),
        ],
    )]);
    let html = &render(&b, Flavor::Html)[0];
    assert_eq!(html.matches("dir=\"auto\"").count(), 1);
}

#[test]
fn calendar_dates_are_real_days() {
    assert!(is_calendar_date("2024-02-29"));
    assert!(!is_calendar_date("2023-02-29"));
    assert!(!is_calendar_date("2024-4-1"));
    assert!(!is_calendar_date("soon"));
}

#[test]
fn page_breaks_mark_where_the_print_pages_begin() {
    use stoa_render::{BlockKey, PageMap};
    let term = div(
        Some(Role::Term),
        "t",
        &[],
        vec![par(vec![Inline::text("Agora")])],
    );
    let definition = div(
        Some(Role::Definition),
        "d",
        &[],
        vec![par(vec![Inline::text("a square")])],
    );
    let glossary = div(Some(Role::Glossary), "g", &[], vec![term, definition]);
    let turns = div(
        Some(Role::Dialogue),
        "talk",
        &[],
        vec![
            par(vec![Inline::text("one")]),
            par(vec![Inline::text("two")]),
        ],
    );
    let b = book(vec![chapter(
        "one",
        vec![par(vec![Inline::text("first")]), glossary, turns],
    )]);
    let mut pages = PageMap::default();
    pages.insert(BlockKey::new(0, &[]), "7".into());
    pages.insert(BlockKey::new(0, &[1, 1]), "8".into());
    pages.insert(BlockKey::new(0, &[2, 1]), "9".into());
    let notes = NotesPlan::of(&b);
    let ids = IdIndex::of(&b);
    let epub = Markup::new(&b, &notes, &ids, Flavor::Epub)
        .with_pages(Some(&pages))
        .chapter(0);
    let marker = |n: &str| {
        format!(
            "<span id=\"page-{n}\" epub:type=\"pagebreak\" role=\"doc-pagebreak\" aria-label=\"{n}\"></span>"
        )
    };
    assert!(epub.contains(&format!("{}<header>", marker("7"))), "{epub}");
    assert!(
        epub.contains(&format!(
            "<dd class=\"d\" epub:type=\"glossdef\">{}",
            marker("8")
        )),
        "inside the dd, never directly in the dl: {epub}"
    );
    assert!(
        epub.contains(&format!("{}<p>two</p>", marker("9"))),
        "{epub}"
    );
    let html = Markup::new(&b, &notes, &ids, Flavor::Html)
        .with_pages(Some(&pages))
        .chapter(0);
    assert!(
        html.contains(
            "<span id=\"page-9\" role=\"doc-pagebreak\" aria-label=\"9\"></span><p>two</p>"
        ),
        "{html}"
    );
    let plain = Markup::new(&b, &notes, &ids, Flavor::Epub).chapter(0);
    assert!(!plain.contains("pagebreak"), "no map, no markers");
    // A heading of the author's with the id a marker would take.
    let b = book(vec![chapter(
        "one",
        vec![Block::Heading {
            level: 2,
            id: "page-7".into(),
            content: vec![Inline::text("Page seven")],
        }],
    )]);
    let ids = IdIndex::of(&b);
    let epub = Markup::new(&b, &notes, &ids, Flavor::Epub)
        .with_pages(Some(&pages))
        .chapter(0);
    assert!(
        epub.contains(r#"<span id="page-7-print" epub:type="pagebreak""#),
        "{epub}"
    );
    assert_eq!(epub.matches(r#"id="page-7""#).count(), 1, "{epub}");
}

#[test]
fn pages_that_begin_inside_a_paragraph_are_marked_at_their_word() {
    use stoa_render::{BlockKey, PageMap};
    // "One two " (8) + "three" emphasised (5) + soft break (1) + code (0)
    // + " four five": positions as `stoa_render::text_len` counts them.
    let long = par(vec![
        Inline::text("One two "),
        Inline::Emph {
            content: vec![Inline::text("three")],
        },
        Inline::SoftBreak,
        Inline::Code { text: "x()".into() },
        Inline::text(" four five"),
    ]);
    let b = book(vec![chapter(
        "one",
        vec![par(vec![Inline::text("a")]), long],
    )]);
    let mut pages = PageMap::default();
    pages.insert_inline(BlockKey::new(0, &[1]), 4, "2".into());
    pages.insert_inline(BlockKey::new(0, &[1]), 8, "3".into());
    pages.insert_inline(BlockKey::new(0, &[1]), 20, "4".into());
    let notes = NotesPlan::of(&b);
    let ids = IdIndex::of(&b);
    let marker = |n: &str| {
        format!("<span id=\"page-{n}\" role=\"doc-pagebreak\" aria-label=\"{n}\"></span>")
    };
    let html = Markup::new(&b, &notes, &ids, Flavor::Html)
        .with_pages(Some(&pages))
        .chapter(0);
    let expected = format!(
        "<p>One {}two <em>{}three</em>\n<code>x()</code> four {}five</p>",
        marker("2"),
        marker("3"),
        marker("4")
    );
    assert!(html.contains(&expected), "{html}");
    // A position past the block's text is marked at its end, never lost.
    let mut pages = PageMap::default();
    pages.insert_inline(BlockKey::new(0, &[1]), 99, "9".into());
    let html = Markup::new(&b, &notes, &ids, Flavor::Html)
        .with_pages(Some(&pages))
        .chapter(0);
    assert_eq!(html.matches(&marker("9")).count(), 1, "{html}");
}

#[test]
fn a_page_reference_prints_the_print_page_of_its_target() {
    use stoa_render::PageMap;
    let use_span = Inline::Span {
        role: None,
        class: String::new(),
        attrs: [("id".to_owned(), "use-1".to_owned())]
            .into_iter()
            .collect(),
        content: vec![Inline::text("agora")],
    };
    let page_ref = |url: &str| Inline::Span {
        role: Some(Role::Other(stoa_doc::PAGE_REF_ROLE.into())),
        class: "backref".into(),
        attrs: Default::default(),
        content: vec![Inline::Link {
            url: url.into(),
            title: String::new(),
            content: vec![Inline::text("ONE")],
        }],
    };
    let b = book(vec![
        chapter("one", vec![par(vec![use_span])]),
        chapter(
            "words",
            vec![par(vec![page_ref("#use-1"), page_ref("#nowhere")])],
        ),
    ]);
    let mut pages = PageMap::default();
    pages.insert_element(0, "use-1".into(), "41".into());
    let notes = NotesPlan::of(&b);
    let ids = IdIndex::of(&b);
    let epub = Markup::new(&b, &notes, &ids, Flavor::Epub)
        .with_pages(Some(&pages))
        .chapter(1);
    assert!(
        epub.contains(
            "<a href=\"one.xhtml#use-1\">ONE</a>, p.\u{a0}<a href=\"one.xhtml#use-1\">41</a></span>"
        ),
        "{epub}"
    );
    assert_eq!(
        epub.matches(", p.").count(),
        1,
        "no page, no number: {epub}"
    );
    let plain = Markup::new(&b, &notes, &ids, Flavor::Epub).chapter(1);
    assert!(!plain.contains(", p."), "no map, no numbers: {plain}");
}

#[test]
fn formulas_drawn_as_images_are_img_sized_in_ems_and_the_others_mathml() {
    let b = book(vec![chapter(
        "c",
        vec![par(vec![
            stoa_math::span("x_i", false),
            Inline::text(" and "),
            stoa_math::span("y", false),
            stoa_math::span(r"\sum i", true),
        ])],
    )]);
    let mut images = FormulaImages::new();
    images.insert(
        ("x_i".into(), false),
        FormulaImage::new("<svg/>".into(), 0.9, 0.8, 0.2504),
    );
    images.insert(
        (r"\sum i".into(), true),
        FormulaImage::new("<svg/>".into(), 2.0, 1.5, 0.0),
    );
    let notes = NotesPlan::of(&b);
    let ids = IdIndex::of(&b);
    let epub = Markup::new(&b, &notes, &ids, Flavor::Epub)
        .with_formula_images(Some(&images))
        .chapter(0);
    // The files are numbered in the order of the map: (LaTeX, display).
    assert!(
        epub.contains(
            r#"<img class="math display" src="math/1.svg" alt="\sum i" style="display: block; margin: 0.6em auto; width: 2em; height: 1.5em"/>"#
        ),
        "{epub}"
    );
    assert!(
        epub.contains(
            r#"<img class="math" src="math/2.svg" alt="x_i" style="width: 0.9em; height: 0.8em; vertical-align: -0.25em"/>"#
        ),
        "{epub}"
    );
    // A formula with no image stays MathML.
    assert!(epub.contains(r#"alttext="y""#), "{epub}");
    assert_eq!(crate::formula_file(2), "math/2.svg");
}
