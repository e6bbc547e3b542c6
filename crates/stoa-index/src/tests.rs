use super::*;
use stoa_doc::{BookMeta, Labels, Print, TREE_VERSION};

fn book(lang: &str, posts: &[&str]) -> Book {
    let chapters = posts
        .iter()
        .enumerate()
        .map(|(i, text)| Chapter {
            slug: format!("p{i}"),
            title: format!("Post {i}"),
            blocks: vec![
                Block::Heading {
                    level: 2,
                    id: "h".into(),
                    content: vec![Inline::text("Flink in a heading")],
                },
                Block::Paragraph {
                    content: vec![Inline::text(*text)],
                },
            ],
            ..Chapter::default()
        })
        .collect();
    let labels = Labels {
        index: "Index".into(),
        see: "see".into(),
        see_also: "see also".into(),
        ..Labels::default()
    };
    Book {
        version: TREE_VERSION,
        id: "b".into(),
        lang: lang.into(),
        meta: BookMeta::default(),
        labels,
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: Print::default(),
    }
}

fn terms(text: &str, lang: &str) -> Vec<Term> {
    terms::parse(text, "index.toml", lang, &["en", "pt-BR"]).unwrap()
}

/// The index chapter's entries as text: `term: locators` per line,
/// sub-entries indented.
fn outline(chapter: &Chapter) -> Vec<String> {
    fn walk(blocks: &[Block], depth: usize, out: &mut Vec<String>) {
        for b in blocks {
            match b {
                Block::Div { role, blocks, .. }
                    if index::role_name(role.as_ref()) == Some(index::ENTRY_ROLE) =>
                {
                    if let Some(Block::Paragraph { content }) = blocks.first() {
                        out.push(format!(
                            "{}{}",
                            "  ".repeat(depth),
                            stoa_doc::inlines_text(content)
                        ));
                    }
                    walk(&blocks[1..], depth + 1, out);
                }
                Block::Div { blocks, .. } => walk(blocks, depth, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&chapter.blocks, 0, &mut out);
    out
}

#[test]
fn a_book_without_marks_or_terms_is_unchanged() {
    let mut b = book("en", &["Plain [text] here."]);
    let before = b.clone();
    assert!(apply(&mut b, &[], "index.toml").is_empty());
    assert_eq!(b, before);
}

#[test]
fn the_terms_file_indexes_every_occurrence_with_its_inflections() {
    let mut b = book(
        "en",
        &[
            "Flink keeps keyed state; the states of Flink.",
            "Checkpoints save state.",
        ],
    );
    let t = terms(
        "[en]\nFlink = \"Flink\"\nstate = \"state\"\n\"state!keyed\" = \"keyed state\"\n\
         checkpoint = { find = [\"checkpoint\"], see-also = [\"state\"] }\nwatermark = \"watermark\"\n",
        "en",
    );
    let warnings = apply(&mut b, &t, "index.toml");
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert_eq!(
        warnings[0].message,
        "index term `watermark` is never found in the en edition: \
         check its spelling or remove it"
    );
    assert_eq!(warnings[0].line, Some(6));
    let index = b.chapters.last().unwrap();
    assert!(index::is_index(index));
    assert_eq!(
        outline(index),
        [
            "checkpoint, Post 1. See also state",
            "Flink, Post 0, Post 0",
            "state, Post 0, Post 1",
            "  keyed, Post 0",
        ]
    );
    // Headings are not searched; the marks got ids in reading order.
    let Block::Paragraph { content } = &b.chapters[0].blocks[1] else {
        panic!()
    };
    let ids: Vec<&str> = content
        .iter()
        .filter_map(|i| match i {
            Inline::Span { attrs, .. } => attrs.get("id").map(String::as_str),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["ix-1", "ix-2", "ix-3", "ix-4"]);
}

#[test]
fn a_cross_reference_to_a_missing_entry_is_told() {
    let mut b = book("en", &["Flink here."]);
    let t = terms(
        "[en]\nFlink = \"Flink\"\n\"Apache Flink\" = { see = \"Flnk\" }\n",
        "en",
    );
    let w = apply(&mut b, &t, "index.toml");
    assert_eq!(w.len(), 1);
    assert!(w[0].message.contains("no entry `Flnk`"), "{}", w[0].message);
    assert_eq!((w[0].line, w[0].column), (Some(3), Some(1)));
    let hint = w[0].hint.as_deref().unwrap_or_default();
    assert!(hint.starts_with("did you mean `Flink`?"), "{hint}");
}

#[test]
fn collation_sorts_portuguese_and_english_as_their_readers_expect() {
    let mark = |words: &str| Inline::Span {
        role: Some(Role::Other(index::MARK_ROLE.into())),
        class: String::new(),
        attrs: Attrs::new(),
        content: vec![Inline::text(words)],
    };
    let words = [
        "Óbidos",
        "ônibus",
        "estado",
        "Estado",
        "éter",
        "ação",
        "Acre",
        "abacaxi",
        "Zebra",
        "água",
        "Ágora",
        "agora",
        "checkpoint",
        "Checkpoint",
        "Índia",
        "iate",
        "cão",
        "Cabo",
    ];
    let mut b = book("pt-BR", &[]);
    b.chapters.push(Chapter {
        slug: "p".into(),
        title: "P".into(),
        blocks: vec![Block::Paragraph {
            content: words.iter().map(|w| mark(w)).collect(),
        }],
        ..Chapter::default()
    });
    apply(&mut b, &[], "index.toml");
    let got: Vec<String> = outline(b.chapters.last().unwrap())
        .into_iter()
        .map(|l| l.split(',').next().unwrap().to_string())
        .collect();
    // Accents and case second to the letters (`ação` among the a's, not
    // after z); `Estado` and `estado` one entry, as first written;
    // `agora` (now) and `Ágora` (the square) two.
    assert_eq!(
        got,
        [
            "abacaxi",
            "ação",
            "Acre",
            "agora",
            "Ágora",
            "água",
            "Cabo",
            "cão",
            "checkpoint",
            "estado",
            "éter",
            "iate",
            "Índia",
            "Óbidos",
            "ônibus",
            "Zebra"
        ]
    );
    let letters: Vec<String> = b
        .chapters
        .last()
        .unwrap()
        .blocks
        .iter()
        .filter_map(|g| match g {
            Block::Div { attrs, .. } => attrs.get("letter").cloned(),
            _ => None,
        })
        .collect();
    assert_eq!(letters, ["A", "C", "E", "I", "O", "Z"]);
}

#[test]
fn a_range_runs_to_the_end_of_its_section() {
    let mark = |key: &str| Inline::Span {
        role: Some(Role::Other(index::MARK_ROLE.into())),
        class: index::MARK_ROLE.into(),
        attrs: Attrs::from([
            (index::KEY.to_string(), key.to_string()),
            (index::RANGE.to_string(), index::RANGE_SECTION.to_string()),
        ]),
        content: Vec::new(),
    };
    let heading = |level, text: &str| Block::Heading {
        level,
        id: text.into(),
        content: vec![Inline::text(text)],
    };
    let para = |content: Vec<Inline>| Block::Paragraph { content };
    let mut b = book("en", &[]);
    b.chapters.push(Chapter {
        slug: "p".into(),
        title: "Post".into(),
        blocks: vec![
            para(vec![Inline::text("Before any heading."), mark("whole")]),
            heading(2, "Windows"),
            para(vec![mark("windows"), Inline::text("Tumbling windows.")]),
            heading(3, "Sliding"),
            para(vec![Inline::text("Sliding windows.")]),
            Block::Code {
                lang: None,
                text: "code is not text\n".into(),
            },
            heading(2, "State"),
            para(vec![Inline::text("Keyed state.")]),
        ],
        ..Chapter::default()
    });
    apply(&mut b, &[], "index.toml");
    let ends = |block: &Block| -> Vec<String> {
        let Block::Paragraph { content } = block else {
            return Vec::new();
        };
        content
            .iter()
            .filter_map(|i| match i {
                Inline::Span { role, attrs, .. }
                    if index::role_name(role.as_ref()) == Some(index::RANGE_END_ROLE) =>
                {
                    attrs.get("id").cloned()
                }
                _ => None,
            })
            .collect()
    };
    let blocks = &b.chapters[0].blocks;
    // The windows section ends at its sub-section's last paragraph (the
    // code after it is not text); the mark before any heading at the
    // chapter's last.
    assert_eq!(ends(&blocks[4]), ["ix-2-end"]);
    assert_eq!(ends(&blocks[7]), ["ix-1-end"]);
    assert!(
        blocks
            .iter()
            .enumerate()
            .all(|(i, b)| i == 4 || i == 7 || ends(b).is_empty())
    );
    // Each range's locator holds two links: to the place and to its end.
    let index = b.chapters.last().unwrap();
    let mut urls = Vec::new();
    collect_urls(&index.blocks, &mut urls);
    // "whole" collates before "windows".
    assert_eq!(urls, ["#ix-1", "#ix-1-end", "#ix-2", "#ix-2-end"]);
}

/// Every link's address in `blocks`, in order.
fn collect_urls(blocks: &[Block], out: &mut Vec<String>) {
    fn inlines(content: &[Inline], out: &mut Vec<String>) {
        for i in content {
            match i {
                Inline::Link { url, .. } => out.push(url.clone()),
                Inline::Span { content, .. } => inlines(content, out),
                _ => {}
            }
        }
    }
    for b in blocks {
        match b {
            Block::Paragraph { content } => inlines(content, out),
            Block::Div { blocks, .. } => collect_urls(blocks, out),
            _ => {}
        }
    }
}

#[test]
fn a_reference_is_found_where_a_mark_writes_it() {
    let text = "First line.\nA [grey]{.index see-also=\"colour; concrete\"} wall, \
                [x]{.index see=y}.\n";
    assert_eq!(written_at(text, "concrete"), Some((2, 17)));
    assert_eq!(written_at(text, "y"), Some((2, 63)));
    assert_eq!(written_at(text, "wall"), None);
}

#[test]
fn a_sub_entrys_reference_is_told_under_its_whole_entry() {
    let mut b = book("en", &["Flink state here."]);
    let t = terms(
        "[en]\nstate = \"state\"\n\"state!keyed\" = { see-also = [\"Flnk\"] }\n",
        "en",
    );
    let w = apply(&mut b, &t, "index.toml");
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].message.contains("`state!keyed` says"),
        "{}",
        w[0].message
    );
    assert_eq!((w[0].line, w[0].column), (Some(3), Some(1)));
}
