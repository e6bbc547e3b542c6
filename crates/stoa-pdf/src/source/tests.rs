use super::*;
use stoa_doc::{
    Attrs, BookMeta, Labels, NoteNumbering, NotePlacement, NoteStyle, Print, Style, TREE_VERSION,
};

fn chapter(slug: &str, blocks: Vec<Block>) -> Chapter {
    Chapter {
        slug: slug.into(),
        title: slug.to_uppercase(),
        blocks,
        ..Chapter::default()
    }
}

fn book_of(chapters: Vec<Chapter>) -> Book {
    Book {
        version: TREE_VERSION,
        id: "b".into(),
        lang: "pt-BR".into(),
        meta: BookMeta {
            title: "T".into(),
            date: "2024-01-02".into(),
            ..BookMeta::default()
        },
        labels: Labels::default(),
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: Print::default(),
    }
}

fn book(blocks: Vec<Block>) -> Book {
    book_of(vec![chapter("c", blocks)])
}

/// Generates the book's source with its own plan and index, as the driver does.
fn gen_of(book: &Book) -> Generated {
    generate(book, &NotesPlan::of(book), &IdIndex::of(book), Parts::Book)
}

fn source_of(book: &Book) -> String {
    gen_of(book).source
}

fn par(inlines: Vec<Inline>) -> Block {
    Block::Paragraph { content: inlines }
}

fn note(label: &str, text: &str) -> Block {
    Block::FootnoteDef {
        label: label.into(),
        blocks: vec![par(vec![Inline::text(text)])],
    }
}

fn reference(label: &str) -> Inline {
    Inline::FootnoteRef {
        label: label.into(),
    }
}

fn link(url: &str) -> Inline {
    Inline::Link {
        url: url.into(),
        title: String::new(),
        content: vec![Inline::text("here")],
    }
}

/// A chapter with one note, referenced once, in the given style.
fn noted(slug: &str, style: Option<NoteStyle>) -> Chapter {
    Chapter {
        notes: style,
        ..chapter(
            slug,
            vec![
                par(vec![Inline::text("text"), reference("n")]),
                note("n", &format!("note of {slug}")),
            ],
        )
    }
}

fn style(placement: NotePlacement, numbering: NoteNumbering) -> Option<NoteStyle> {
    Some(NoteStyle {
        placement,
        numbering,
    })
}

#[test]
fn splits_language_tags() {
    assert_eq!(lang_region("pt-BR"), ("pt".into(), Some("BR".into())));
    assert_eq!(lang_region("en"), ("en".into(), None));
    assert_eq!(lang_region("zh-Hant-TW"), ("zh".into(), Some("TW".into())));
    assert_eq!(lang_region("#bad"), ("en".into(), None));
}

#[test]
fn notes_are_numbered_by_first_reference_and_end_the_chapter() {
    let g = gen_of(&book(vec![
        note("a", "note a"),
        par(vec![
            reference("b"),
            reference("a"),
            reference("b"),
            reference("x"),
        ]),
        note("b", "note b"),
    ]));
    let src = &g.source;
    assert!(
        src.contains(r##"#note-ref(1, "ch:c:note-1", "ch:c:noteref-1")#note-ref(2, "ch:c:note-2", "ch:c:noteref-2")#note-ref(1, "ch:c:note-1", none)#"[^x]""##),
        "{src}"
    );
    let notes = src.find("#endnotes").expect("endnotes");
    assert!(
        src[notes..].find("note b") < src[notes..].find("note a"),
        "{src}"
    );
    assert!(
        src[notes..].contains(r#"(number: 1, id: "ch:c:note-1", back: "ch:c:noteref-1""#),
        "{src}"
    );
    assert!(
        !src[..notes].contains("note a"),
        "a definition stays in the text: {src}"
    );
    assert_eq!(g.warnings.len(), 1, "the undefined `x` is reported");
}

#[test]
fn a_styled_chapter_does_not_report_undefined_notes_again() {
    let mut c = chapter("c", vec![par(vec![reference("x")])]);
    c.notes = style(NotePlacement::Endnotes, NoteNumbering::PerChapter);
    let g = gen_of(&book_of(vec![c]));
    assert!(g.warnings.is_empty(), "{:?}", g.warnings);
    assert!(g.source.contains(r##"#"[^x]""##));
}

#[test]
fn footnotes_print_the_plan_numbers_per_chapter_and_continuous() {
    for (numbering, second) in [
        (NoteNumbering::PerChapter, 1),
        (NoteNumbering::Continuous, 2),
    ] {
        let s = style(NotePlacement::Footnotes, numbering);
        let mut two = noted("two", s);
        // A second reference repeats the note's number, not a new one.
        if let Block::Paragraph { content } = &mut two.blocks[0] {
            content.push(reference("n"));
        }
        let src = source_of(&book_of(vec![noted("one", s), two]));
        assert!(
            src.contains(r##"#note-foot(1, "ch:one:note-1", [#"note of one"])"##),
            "{src}"
        );
        let foot = format!(r##"#note-foot({second}, "ch:two:note-{second}", [#"note of two"])"##);
        let again = format!(r##"#note-foot-again({second}, "ch:two:note-{second}")"##);
        assert!(src.contains(&foot) && src.contains(&again), "{src}");
        assert!(
            !src.contains("#endnotes") && !src.contains("counter(footnote)"),
            "{src}"
        );
    }
}

#[test]
fn endnotes_print_the_plan_numbers_per_chapter_and_continuous() {
    for (numbering, second) in [
        (NoteNumbering::PerChapter, 1),
        (NoteNumbering::Continuous, 2),
    ] {
        let s = style(NotePlacement::Endnotes, numbering);
        let src = source_of(&book_of(vec![noted("one", s), noted("two", s)]));
        let r =
            format!(r##"#note-ref({second}, "ch:two:note-{second}", "ch:two:noteref-{second}")"##);
        let n = format!(r##"(number: {second}, id: "ch:two:note-{second}""##);
        assert!(src.contains(&r) && src.contains(&n), "{src}");
        assert_eq!(src.matches("#endnotes(title: ").count(), 2, "{src}");
    }
}

#[test]
fn the_notes_chapter_collects_notes_under_chapter_titles() {
    for (numbering, second) in [
        (NoteNumbering::PerChapter, 1),
        (NoteNumbering::Continuous, 2),
    ] {
        let s = style(NotePlacement::NotesChapter, numbering);
        let notes = Chapter {
            kind: ChapterKind::Notes,
            notes: s,
            ..chapter("notes", vec![])
        };
        let src = source_of(&book_of(vec![noted("one", s), noted("two", s), notes]));
        let opening = src
            .find(r#"#chapter(kind: "notes""#)
            .expect("the notes chapter");
        let (text, collected) = src.split_at(opening);
        let r = format!(
            r##"#note-ref({second}, "ch:two:two-note-{second}", "ch:two:noteref-{second}")"##
        );
        assert!(text.contains(&r) && !text.contains("#endnotes"), "{src}");
        let one = collected
            .find(r#"#notes-heading("ONE", "ch:one")"#)
            .expect("one");
        let two = collected
            .find(r#"#notes-heading("TWO", "ch:two")"#)
            .expect("two");
        assert!(one < two, "{src}");
        let n = format!(
            r##"(number: {second}, id: "ch:two:two-note-{second}", back: "ch:two:noteref-{second}", body: [#"note of two"])"##
        );
        assert!(collected[two..].contains(&n), "{src}");
        assert_eq!(
            collected.matches("#endnotes(title: none").count(),
            2,
            "{src}"
        );
    }
}

#[test]
fn links_go_to_elements_chapters_or_nowhere() {
    let mut attrs = Attrs::new();
    attrs.insert("id".into(), "box".into());
    let first = chapter(
        "c",
        vec![
            Block::Heading {
                level: 2,
                id: "h".into(),
                content: vec![Inline::text("H")],
            },
            par(vec![
                link("#h"),
                link("#nowhere"),
                link("https://x.org"),
                link("#other"),
                link("#box"),
            ]),
        ],
    );
    let second = chapter(
        "other",
        vec![Block::Div {
            role: None,
            class: "x".into(),
            attrs,
            blocks: vec![par(vec![link("#c")])],
        }],
    );
    let src = source_of(&book_of(vec![first, second]));
    assert!(
        src.contains(
            r##"#link(label("ch:c:h:h"))[#"here"]#"here"#link("https://x.org")[#"here"]#link(label("ch:other"))[#"here"]#context { let at = locate(label("ch:other")); if at.page() != here().page() [, p.#sym.space.nobreak"##
        ),
        "{src}"
    );
    // A link to another chapter is followed by its page in print; one in
    // its own chapter is not.
    let page_after = |label: &str| format!("#context {{ let at = locate(label(\"{label}\"));");
    assert!(src.contains(&page_after("ch:other:h:box")), "{src}");
    assert!(!src.contains(&page_after("ch:c:h:h")), "{src}");
    assert!(src.contains(r##"#label("ch:c:h:h")"##), "{src}");
    assert!(
        src.contains(r##"#metadata(none)#label("ch:other:h:box")"##),
        "{src}"
    );
    assert!(
        src.contains(r##"#link(label("ch:c"))[#"here"]"##),
        "a chapter by its slug: {src}"
    );
}

#[test]
fn a_slug_that_is_also_an_element_id_goes_to_the_element() {
    let c = chapter(
        "c",
        vec![
            Block::Heading {
                level: 2,
                id: "c".into(),
                content: vec![Inline::text("H")],
            },
            par(vec![link("#c")]),
        ],
    );
    let src = source_of(&book_of(vec![c]));
    assert!(src.contains(r##"#link(label("ch:c:h:c"))"##), "{src}");
}

#[test]
fn roles_reach_the_theme_in_attrs_and_calls_keep_their_signature() {
    let role_div = |role: Option<Role>, class: &str, blocks| Block::Div {
        role,
        class: class.into(),
        attrs: Attrs::new(),
        blocks,
    };
    let span = Inline::Span {
        role: Some(Role::Speaker),
        class: "who".into(),
        attrs: Attrs::new(),
        content: vec![Inline::text("A")],
    };
    let mut c = chapter(
        "c",
        vec![
            role_div(
                Some(Role::DefinitionList),
                "terms",
                vec![
                    role_div(Some(Role::Term), "t", vec![par(vec![Inline::text("word")])]),
                    role_div(Some(Role::Definition), "d", vec![par(vec![span])]),
                ],
            ),
            role_div(Some(Role::Other("epigraph".into())), "e", vec![]),
            role_div(None, "plain", vec![]),
        ],
    );
    c.role = Some(Role::Glossary);
    let src = source_of(&book_of(vec![c]));
    for call in [
        // Each top-level block and each block of a top-level container is
        // marked, so that the PDF knows where the print pages begin.
        r##"#metadata("0/0")#label("stoa-page")#div("terms", ("stoa:role": "definition-list", ), [#metadata("0/0/0")#label("stoa-page")#div("t", ("stoa:role": "term", ), [#"word"])"##,
        r##"#metadata("0/0/1")#label("stoa-page")#div("d", "##,
        r##"#metadata("0/1")#label("stoa-page")#div("e", "##,
        r##"#div("d", ("stoa:role": "definition", ), [#span("who", ("stoa:role": "speaker", ), [#"A"])])"##,
        r##"#div("e", ("stoa:role": "epigraph", ), [])"##,
        r##"#div("plain", (:), [])"##,
        r##", role: "glossary")["##,
    ] {
        assert!(src.contains(call), "`{call}` not in {src}");
    }
}

#[test]
fn dates_are_written_as_the_language_writes_them() {
    for (lang, text) in [("en", "May 31, 2024"), ("pt-BR", "31 de maio de 2024")] {
        let mut c = chapter("c", vec![]);
        c.date = Some("2024-05-31".into());
        let mut b = book_of(vec![c]);
        b.lang = lang.into();
        b.meta.date = "2024-05-31".into();
        let src = source_of(&b);
        assert!(
            src.contains(&format!("  date-text: \"{text}\",\n"))
                && src.contains("  date: datetime(year: 2024, month: 5, day: 31),"),
            "{src}"
        );
        assert!(
            src.contains(&format!(
                "date: datetime(year: 2024, month: 5, day: 31), date-text: \"{text}\", role: none)["
            )),
            "{src}"
        );
    }
    let mut b = book(vec![]);
    b.meta.date = "soon".into();
    let g = gen_of(&b);
    assert!(
        g.source
            .contains("  date: \"soon\",\n  date-text: \"soon\","),
        "{}",
        g.source
    );
    assert_eq!(g.warnings.len(), 1, "an unusable date is reported");
}

#[test]
fn the_cover_source_has_no_chapters_or_styles() {
    let mut b = book(vec![par(vec![Inline::text("body text")])]);
    b.styles.push(Style {
        origin: "p".into(),
        format: "pdf".into(),
        code: "#let x = 1".into(),
    });
    let cover = generate(&b, &NotesPlan::of(&b), &IdIndex::of(&b), Parts::Cover).source;
    assert!(
        cover.contains("cover-only: true")
            && !cover.contains("body text")
            && !cover.contains("#let x")
    );
    let full = gen_of(&b);
    assert_eq!(full.styles.len(), 1);
    let line = full.source.lines().nth(full.styles[0].0.start - 1);
    assert_eq!(line, Some("#let x = 1"));
}

#[test]
fn the_cover_and_the_year_reach_the_theme_as_strings() {
    let mut b = book(vec![par(vec![Inline::text("x")])]);
    b.meta.date = "2026-11-30".into();
    b.print.cover = stoa_doc::Cover {
        design: "band".into(),
        colour: "#5e1f2b".into(),
        // Not a value stoa-book lets through, but even so it stays a string.
        ornament: "\"); #read(\"/etc/passwd\")".into(),
        image: None,
    };
    for parts in [Parts::Book, Parts::Cover] {
        let source = generate(&b, &NotesPlan::of(&b), &IdIndex::of(&b), parts).source;
        assert!(
            source.contains(
                "  cover: (design: \"band\", colour: \"#5e1f2b\", ornament: \"\\\"); #read(\\\"/etc/passwd\\\")\", image: none),\n  year: \"2026\","
            ),
            "{source}"
        );
    }
}

#[test]
fn the_authors_cover_image_reaches_the_theme_as_a_virtual_path() {
    let mut b = book(vec![par(vec![Inline::text("x")])]);
    b.print.cover.image = Some("/home/a/My Book/Cover \"1\".JPG".into());
    let source = generate(&b, &NotesPlan::of(&b), &IdIndex::of(&b), Parts::Cover).source;
    assert!(
        source.contains("ornament: \"rule\", image: \"/assets/cover\")"),
        "{source}"
    );
    assert!(
        !source.contains("My Book"),
        "the disk path stays out of the source"
    );
}

/// A post of a part has its title at level 2 and its sections one level
/// down, marked `offset: 1` (the theme sets them by depth), so that the
/// PDF bookmarks nest it under the part's level-1 page; back matter and
/// a book without parts keep their levels and the source they had.
#[test]
fn a_part_s_posts_nest_one_level_down() {
    let section = |id: &str| Block::Heading {
        level: 2,
        id: id.into(),
        content: vec![Inline::text("Section")],
    };
    let mut about = chapter("about", vec![section("s3")]);
    about.kind = ChapterKind::About;
    let book = book_of(vec![
        chapter("a", vec![section("s1")]),
        chapter("b", vec![section("s2")]),
        about,
    ]);
    let layout = stoa_render::Layout {
        parts: vec![stoa_render::Part {
            title: "Part".into(),
            slugs: vec!["a".into(), "b".into()],
        }],
        openings: Default::default(),
        short_titles: Default::default(),
    };
    let source = generate_with(
        &book,
        &NotesPlan::of(&book),
        &IdIndex::of(&book),
        Parts::Book,
        &layout,
    )
    .source;
    let chapters: Vec<&str> = source.split("\n#chapter(").skip(1).collect();
    assert_eq!(chapters.len(), 3, "{source}");
    for post in &chapters[..2] {
        assert!(post.contains(", level: 2, role:"), "{post}");
        assert!(
            post.contains("#heading(level: 3, offset: 1, outlined: false, bookmarked: true)"),
            "{post}"
        );
    }
    assert!(!chapters[2].contains("level: 2, role:"), "{}", chapters[2]);
    assert!(
        chapters[2].contains("#heading(level: 2, outlined: false, bookmarked: true)"),
        "{}",
        chapters[2]
    );
    // Without parts, the source is as it was.
    let plain = source_of(&book);
    assert!(!plain.contains("offset:") && !plain.contains(", level: 2"));
}

#[test]
fn the_theme_gets_every_label_of_the_locale_table() {
    let mut book = book(vec![par(vec![Inline::text("x")])]);
    book.labels = Labels::for_language("pt-BR");
    book.labels.typeset_with = "a \"b\" #c".into();
    let source = source_of(&book);
    let start = source.find("labels: (").expect("the labels") + "labels: ".len();
    let dict = &source[start..start + source[start..].find(")").unwrap() + 1];
    let keys: Vec<&str> = dict
        .trim_matches(['(', ')'])
        .split("\", ")
        .map(|pair| pair.split(':').next().unwrap().trim())
        .collect();
    assert_eq!(keys, stoa_locale::LABEL_KEYS, "{dict}");
    assert!(dict.contains(r#"typeset-with: "a \"b\" #c""#), "{dict}");
    assert!(dict.contains(r#"glossary: "Glossário""#), "{dict}");
}

#[test]
fn a_span_with_an_id_is_an_anchor_links_from_other_chapters_reach() {
    let mut attrs = Attrs::new();
    attrs.insert("id".into(), "cite-1".into());
    let cited = Inline::Span {
        role: None,
        class: "citation".into(),
        attrs,
        content: vec![Inline::Link {
            url: "#ref-a".into(),
            title: String::new(),
            content: vec![Inline::text("(A 2000)")],
        }],
    };
    let mut entry = Attrs::new();
    entry.insert("id".into(), "ref-a".into());
    let back = Inline::Link {
        url: "#cite-1".into(),
        title: String::new(),
        content: vec![Inline::text("back")],
    };
    let book = book_of(vec![
        chapter("c", vec![par(vec![Inline::text("As said "), cited])]),
        chapter(
            "refs",
            vec![Block::Div {
                role: None,
                class: "bibliography-entry".into(),
                attrs: entry,
                blocks: vec![par(vec![Inline::text("A. 2000. "), back])],
            }],
        ),
    ]);
    let src = source_of(&book);
    assert!(src.contains(r##"#link(label("ch:c:h:cite-1"))"##), "{src}");
    assert!(
        src.contains(r##"#metadata(none)#label("ch:c:h:cite-1")"##),
        "{src}"
    );
}

/// A link whose text is its own address.
fn address(url: &str, text: &str) -> Inline {
    Inline::Link {
        url: url.into(),
        title: String::new(),
        content: vec![Inline::text(text)],
    }
}

#[test]
fn a_web_address_alone_in_its_paragraph_prints_a_qr_code() {
    let url = "https://www.youtube.com/watch?v=dQw4w9WgXcQ";
    let qr = stoa_barcode::Qr::of(url).unwrap();
    let qr = qr.svg(qr.printed_side_mm(QR_SIDE_MM));
    let src = source_of(&book(vec![par(vec![address(url, url)])]));
    let call = format!(
        "#web-address({})[#link(",
        stoa_doc::escape::typst_string(&qr)
    );
    assert!(src.contains(&call), "{src}");
    // Without its scheme or with a final slash, the text is still the address.
    let src = source_of(&book(vec![par(vec![
        Inline::SoftBreak,
        address("https://example.org/", "example.org"),
    ])]));
    assert!(src.contains("#web-address("), "{src}");
    // The address as a technical token, as stoa-markdown makes it.
    let token = Inline::Span {
        role: Some(Role::Other(stoa_doc::TOKEN_ROLE.into())),
        class: "tok".into(),
        attrs: Attrs::new(),
        content: vec![Inline::text(url)],
    };
    let tokened = Inline::Link {
        url: url.into(),
        title: String::new(),
        content: vec![token],
    };
    assert!(source_of(&book(vec![par(vec![tokened])])).contains("#web-address("));
}

#[test]
fn other_links_and_a_book_without_qr_codes_print_none() {
    let url = "https://example.org/a";
    for content in [
        // Words around the address.
        vec![Inline::text("See "), address(url, url)],
        // A link whose text is not its address.
        vec![link(url)],
        // Not the web.
        vec![address("mailto:a@example.org", "mailto:a@example.org")],
        // A link to a place in the book.
        vec![address("#c", "#c")],
    ] {
        let src = source_of(&book(vec![par(content.clone())]));
        assert!(!src.contains("#web-address("), "{content:?}\n{src}");
    }
    let mut off = book(vec![par(vec![address(url, url)])]);
    off.print.qr_codes = false;
    assert!(!source_of(&off).contains("#web-address("));
}

#[test]
fn index_locators_reach_the_theme_as_the_labels_of_their_places() {
    let span = |role: &str, content| Inline::Span {
        role: Some(Role::Other(role.into())),
        class: role.into(),
        attrs: Attrs::new(),
        content,
    };
    let locator = |url: &str| {
        span(
            stoa_doc::index::LOCATOR_ROLE,
            vec![Inline::Link {
                url: url.into(),
                title: String::new(),
                content: vec![Inline::text("Chapter title")],
            }],
        )
    };
    let mut mark = Attrs::new();
    mark.insert("id".into(), "ix-1".into());
    let text = chapter(
        "c",
        vec![par(vec![Inline::Span {
            role: Some(Role::Other(stoa_doc::index::MARK_ROLE.into())),
            class: String::new(),
            attrs: mark,
            content: vec![Inline::text("term")],
        }])],
    );
    let places = vec![
        Inline::text(", "),
        locator("#ix-1"),
        Inline::text(", "),
        locator("#nowhere"),
        locator("https://example.org/"),
    ];
    let index = chapter(
        "book-index",
        vec![par(vec![span(stoa_doc::index::LOCATORS_ROLE, places)])],
    );
    let src = source_of(&book_of(vec![text, index]));
    // A list of labels, the places missing left out: the chapter's title,
    // which the EPUB shows, is not written for print.
    assert!(
        src.contains(
            r##"#span("index-locators", ("stoa:role": "index-locators", ), (label("ch:c:h:ix-1"),))"##
        ),
        "{src}"
    );
    assert!(!src.contains("Chapter title"), "{src}");
}
