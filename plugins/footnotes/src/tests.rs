use super::*;
use serde_json::{Value, json};
use stoa_sdk::{Block, Inline, Labels, NoteNumbering, NotePlacement, NoteStyle};

fn par(content: Vec<Inline>) -> Block {
    Block::Paragraph { content }
}

fn fref(label: &str) -> Inline {
    Inline::FootnoteRef {
        label: label.into(),
    }
}

fn def(label: &str, text: &str) -> Block {
    Block::FootnoteDef {
        label: label.into(),
        blocks: vec![par(vec![Inline::text(text)])],
    }
}

fn chapter(slug: &str, blocks: Vec<Block>) -> Chapter {
    Chapter {
        slug: slug.into(),
        title: slug.into(),
        blocks,
        ..Chapter::default()
    }
}

fn book(chapters: Vec<Chapter>) -> Book {
    Book {
        version: stoa_sdk::TREE_VERSION,
        id: "b".into(),
        lang: "pt-BR".into(),
        meta: Default::default(),
        labels: Labels {
            notes: "Notas".into(),
            ..Labels::default()
        },
        chapters,
        assets: vec![],
        styles: vec![],
        print: Default::default(),
    }
}

fn ctx(config: Value) -> Context {
    Context::new(config, "pt-BR", "b")
}

#[test]
fn settings_default_and_parse() {
    assert_eq!(
        Settings::from_config(&json!({})).unwrap(),
        Settings::default()
    );
    let s = Settings::from_config(&json!({"mode": "notes-chapter", "numbering": "continuous"}))
        .unwrap();
    assert_eq!(
        (s.mode, s.numbering),
        (Mode::NotesChapter, Numbering::Continuous)
    );
    assert_eq!(
        s.note_style(),
        NoteStyle {
            placement: NotePlacement::NotesChapter,
            numbering: NoteNumbering::Continuous
        }
    );
}

#[test]
fn bad_settings_are_clear_errors() {
    let e = Settings::from_config(&json!({"style": "x"})).unwrap_err();
    assert!(
        e.message().contains("unknown key `style`"),
        "{}",
        e.message()
    );
    let e = Settings::from_config(&json!({"mode": "sidenotes"})).unwrap_err();
    assert!(
        e.message().contains("`mode`") && e.message().contains("\"sidenotes\""),
        "{}",
        e.message()
    );
    let e = Settings::from_config(&json!({"numbering": 3})).unwrap_err();
    assert!(e.message().contains("`numbering`"), "{}", e.message());
    assert!(Settings::from_config(&json!("footnotes")).is_err());
    let mut c = chapter("a", vec![]);
    assert!(
        Footnotes
            .transform(&mut c, &ctx(json!({"mode": 1})))
            .is_err()
    );
}

#[test]
fn front_matter_settings_are_refused() {
    let mut c = chapter("a", vec![]);
    c.plugin_data
        .insert("footnotes".into(), json!({"mode": "endnotes"}));
    let e = Footnotes.transform(&mut c, &ctx(json!({}))).unwrap_err();
    assert!(e.message().contains("front matter"), "{}", e.message());
}

#[test]
fn undefined_and_unused_notes_are_warnings_with_lines() {
    let blocks = vec![
        par(vec![Inline::text("a"), fref("1"), fref("gone"), fref("1")]),
        def("1", "one"),
        def("spare", "never used"),
        def("1", "again"),
    ];
    assert_eq!(
        check(&blocks),
        vec![
            Problem::Undefined("gone".into()),
            Problem::Unused("spare".into()),
            Problem::Duplicate("1".into()),
        ]
    );
    let source = "---\ntitle: x\n---\n\nText[^1] and [^gone].\n\n[^1]: one\n[^spare]: never used\n[^1]: again\n";
    let msgs: Vec<String> = check(&blocks)
        .iter()
        .map(|p| p.message(Some(source)))
        .collect();
    assert_eq!(
        msgs[0],
        "line 5: footnote reference `[^gone]` has no definition; it is printed as written"
    );
    assert!(
        msgs[1].starts_with("line 8: footnote `[^spare]` is defined but never referenced"),
        "{}",
        msgs[1]
    );
    assert!(msgs[2].starts_with("line 9:"), "{}", msgs[2]);
    assert!(
        !Problem::Undefined("x".into())
            .message(None)
            .contains("line")
    );
}

#[test]
fn notes_referenced_inside_notes_lists_quotes_and_tables_count_as_used() {
    let blocks = vec![
        Block::Quote {
            blocks: vec![par(vec![fref("q")])],
        },
        Block::List {
            start: None,
            tight: true,
            items: vec![stoa_sdk::ListItem {
                checked: None,
                blocks: vec![par(vec![fref("l")])],
            }],
        },
        Block::Table {
            align: vec![Default::default()],
            head: vec![vec![fref("t")]],
            rows: vec![],
        },
        Block::FootnoteDef {
            label: "q".into(),
            blocks: vec![par(vec![fref("inner")])],
        },
        def("l", "l"),
        def("t", "t"),
        def("inner", "inner"),
    ];
    assert!(check(&blocks).is_empty(), "{:?}", check(&blocks));
}

#[test]
fn transform_warns_and_records_the_settings() {
    let mut c = chapter("a", vec![par(vec![fref("x")])]);
    let cx = ctx(json!({"mode": "endnotes"})).for_chapter("a");
    Footnotes.transform(&mut c, &cx).unwrap();
    let d = cx.diagnostics();
    assert_eq!(d.len(), 1);
    assert!(d[0].message.contains("`[^x]`"));
    assert_eq!(
        c.notes,
        Some(NoteStyle {
            placement: NotePlacement::Endnotes,
            numbering: NoteNumbering::PerChapter
        })
    );
    assert!(c.plugin_data.is_empty(), "the style is said in the tree");
}

#[test]
fn notes_chapter_mode_adds_one_notes_chapter_last() {
    let mut b = book(vec![chapter(
        "notes",
        vec![par(vec![fref("1")]), def("1", "n")],
    )]);
    let config = json!({"mode": "notes-chapter"});
    Footnotes.finish(&mut b, &ctx(config.clone())).unwrap();
    Footnotes.finish(&mut b, &ctx(config)).unwrap();
    assert_eq!(b.chapters.len(), 2, "added once");
    let notes = &b.chapters[1];
    assert_eq!(
        (notes.kind, notes.title.as_str(), notes.slug.as_str()),
        (ChapterKind::Notes, "Notas", "notes-2")
    );
    assert!(is_notes_chapter(notes));
    assert_eq!(notes.notes, None, "the notes chapter only receives notes");
    assert!(notes.plugin_data.is_empty(), "no mark: its kind says it");
    assert_eq!(
        b.chapters[0].notes.map(|n| n.placement),
        Some(NotePlacement::NotesChapter)
    );
    // In another mode the empty notes chapter goes; one with text stays.
    Footnotes
        .finish(&mut b, &ctx(json!({"mode": "footnotes"})))
        .unwrap();
    assert_eq!(b.chapters.len(), 1);
    let mut own = chapter("own-notes", vec![par(vec![Inline::text("mine")])]);
    own.kind = ChapterKind::Notes;
    b.chapters.push(own);
    Footnotes
        .finish(&mut b, &ctx(json!({"mode": "endnotes"})))
        .unwrap();
    assert_eq!(b.chapters.len(), 2);
}

/// A glossary-like plugin adds a note to a chapter; the marks the footnotes
/// plugin leaves do not depend on whether it ran before or after.
#[test]
fn either_plugin_order_gives_the_same_marks() {
    let glossary = |c: &mut Chapter| {
        if let Some(Block::Paragraph { content }) = c.blocks.first_mut() {
            content.push(fref("glossary-stoa"));
        }
        c.blocks.push(def("glossary-stoa", "A porch."));
    };
    let config = json!({"mode": "notes-chapter", "numbering": "continuous"});
    let run = |glossary_first: bool| {
        let mut b = book(vec![chapter(
            "a",
            vec![par(vec![Inline::text("stoa"), fref("1")]), def("1", "one")],
        )]);
        for c in &mut b.chapters {
            if glossary_first {
                glossary(c);
            }
            let cx = ctx(config.clone());
            Footnotes.transform(c, &cx).unwrap();
            assert!(cx.diagnostics().is_empty(), "{:?}", cx.diagnostics());
        }
        Footnotes.finish(&mut b, &ctx(config.clone())).unwrap();
        if !glossary_first {
            for c in b
                .chapters
                .iter_mut()
                .filter(|c| c.kind == ChapterKind::Post)
            {
                glossary(c);
            }
        }
        b
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn the_web_rule_follows_the_theme_and_the_epub_keeps_plain_css() {
    let ctx = Context::new(json!({}), "en", "b");
    let epub = Footnotes.styles(Format::Epub, &ctx);
    let web = Footnotes.styles(Format::Html, &ctx);
    assert!(
        !epub.contains("var("),
        "EPUB readers may not know custom properties"
    );
    assert!(web.starts_with(&epub) && web.contains("var(--rule, #bbb)"));
    assert!(Footnotes.styles(Format::Pdf, &ctx).contains("footnote"));
}

#[test]
fn configure_checks_the_settings_once_before_any_chapter() {
    assert!(
        Footnotes
            .configure(&ctx(json!({"mode": "endnotes"})))
            .is_ok()
    );
    let e = Footnotes
        .configure(&ctx(json!({"mdoe": "endnotes"})))
        .unwrap_err();
    assert!(
        e.message().contains("unknown key `mdoe`"),
        "{}",
        e.message()
    );
    // Only the hooks it implements are offered to the host.
    let hooks = stoa_sdk::builtin_plugin!(Footnotes).hooks();
    assert_eq!(
        hooks.names(),
        ["configure", "transform", "finish", "styles"]
    );
}
