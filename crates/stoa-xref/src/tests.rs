use super::*;
use stoa_doc::xref::{EQUATION_NUMBER_ROLE, FIGURE_ROLE, XREF_ROLE};
use stoa_doc::{Block, Chapter, ChapterKind, Inline, Labels, Role, inlines_text};

/// A book in `lang` of one post per Markdown text.
fn book(lang: &str, posts: &[&str]) -> Book {
    let chapters = posts
        .iter()
        .enumerate()
        .map(|(i, md)| Chapter {
            slug: format!("p{i}"),
            title: format!("Post {i}"),
            blocks: stoa_markdown::parse(md, 1).blocks,
            ..Chapter::default()
        })
        .collect();
    Book {
        version: stoa_doc::TREE_VERSION,
        id: "b".into(),
        lang: lang.into(),
        meta: stoa_doc::BookMeta::default(),
        labels: Labels::for_language(lang),
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: stoa_doc::Print::default(),
    }
}

/// The figures of a chapter: (id, kind, number, caption's text).
fn figures(chapter: &Chapter) -> Vec<(String, String, String, String)> {
    let mut out = Vec::new();
    stoa_doc::for_each_block(&chapter.blocks, &mut |b| {
        if let Block::Div {
            role: Some(Role::Other(role)),
            attrs,
            blocks,
            ..
        } = b
            && role == FIGURE_ROLE
        {
            let caption = blocks
                .iter()
                .find_map(|b| match b {
                    Block::Div { class, blocks, .. } if class == "caption" => {
                        Some(blocks_text(blocks))
                    }
                    _ => None,
                })
                .unwrap_or_default();
            out.push((
                attrs["id"].clone(),
                attrs["kind"].clone(),
                attrs["number"].clone(),
                caption,
            ));
        }
    });
    out
}

fn blocks_text(blocks: &[Block]) -> String {
    blocks
        .iter()
        .filter_map(|b| match b {
            Block::Paragraph { content } => Some(inlines_text(content)),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join(" / ")
}

/// Every reference of a chapter: (link, text).
fn references(chapter: &Chapter) -> Vec<(String, String)> {
    let mut out = Vec::new();
    stoa_doc::for_each_block(&chapter.blocks, &mut |b| {
        stoa_doc::for_each_inline(b, &mut |i| {
            if let Inline::Span {
                role: Some(Role::Other(role)),
                content,
                ..
            } = i
                && role == XREF_ROLE
                && let [Inline::Link { url, content, .. }] = content.as_slice()
            {
                out.push((url.clone(), inlines_text(content)));
            }
        });
    });
    out
}

const POSTS: [&str; 2] = [
    "A wall:\n\n![A grey wall](wall.png){#fig:wall}\n\n\
     | a | b |\n|---|---|\n| 1 | 2 |\n\n: The sizes, *measured* {#tbl:sizes}\n\n\
     $$E = mc^2$$ {#eq:energy}\n",
    ": The main loop {#lst:main}\n\n```rust\nloop {}\n```\n\n\
     See @fig:wall, [@tbl:sizes], -@eq:energy and [@lst:main; @fig:chart].\n\n\
     ```mermaid\ngraph TD\nA-->B\n```\n\n: A chart {#fig:chart}\n",
];

#[test]
fn labelled_elements_are_numbered_through_the_book() {
    let mut b = book("en", &POSTS);
    stoa_diagram::draw_book(&mut b, &|_| None);
    assert_eq!(apply(&mut b, &Settings::default()).unwrap(), []);
    let nb = "\u{a0}";
    assert_eq!(
        figures(&b.chapters[0]),
        [
            (
                "fig-wall".into(),
                "figure".into(),
                "1".into(),
                format!("Figure{nb}1. A grey wall")
            ),
            (
                "tbl-sizes".into(),
                "table".into(),
                "1".into(),
                format!("Table{nb}1. The sizes, measured")
            ),
        ]
    );
    assert_eq!(
        figures(&b.chapters[1]),
        [
            (
                "lst-main".into(),
                "listing".into(),
                "1".into(),
                format!("Listing{nb}1. The main loop")
            ),
            (
                "fig-chart".into(),
                "figure".into(),
                "2".into(),
                format!("Figure{nb}2. A chart")
            ),
        ]
    );
    assert_eq!(
        references(&b.chapters[1]),
        [
            ("#fig-wall".into(), format!("Figure{nb}1")),
            ("#tbl-sizes".into(), format!("Table{nb}1")),
            ("#eq-energy".into(), "1".into()),
            ("#lst-main".into(), format!("Listing{nb}1")),
            ("#fig-chart".into(), format!("Figure{nb}2")),
        ]
    );
    // The reference's text is gone from the paragraph; the rest stays.
    let Block::Paragraph { content } = &b.chapters[1].blocks[1] else {
        panic!("{:?}", b.chapters[1].blocks[1]);
    };
    assert_eq!(
        inlines_text(content),
        format!("See Figure{nb}1, Table{nb}1, 1 and Listing{nb}1, Figure{nb}2.")
    );
    // The table's caption above it, the figure's below.
    let Block::Div { blocks, .. } = &b.chapters[0].blocks[2] else {
        panic!()
    };
    assert!(matches!(blocks[1], Block::Table { .. }), "{blocks:?}");
    assert_eq!(b.styles.len(), 3);
}

#[test]
fn a_numbered_equation_carries_its_number() {
    let mut b = book("pt-BR", &[POSTS[0]]);
    // Nothing refers to them here: each is told once, in reading order.
    let warnings = apply(&mut b, &Settings::default()).unwrap();
    let told: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        told,
        [
            "the label `fig:wall` is never referenced",
            "the label `tbl:sizes` is never referenced",
            "the label `eq:energy` is never referenced",
        ]
    );
    let eq = &b.chapters[0].blocks[3];
    let Block::Div { attrs, blocks, .. } = eq else {
        panic!("{eq:?}")
    };
    assert_eq!(attrs["id"], "eq-energy");
    let Block::Paragraph { content } = &blocks[0] else {
        panic!()
    };
    assert!(matches!(
        &content[0],
        Inline::Span {
            role: Some(Role::Math),
            ..
        }
    ));
    assert!(matches!(
        content.last(),
        Some(Inline::Span { class, content, .. })
            if class == EQUATION_NUMBER_ROLE && inlines_text(content) == "(1)"
    ));
    // Portuguese words, the dash between spaces.
    let caption = &figures(&b.chapters[0])[1].3;
    assert_eq!(caption, "Tabela\u{a0}1\u{a0}– The sizes, measured");
}

#[test]
fn numbering_per_chapter_starts_again_in_each_post() {
    let mut b = book("en", &POSTS);
    stoa_diagram::draw_book(&mut b, &|_| None);
    let settings = Settings {
        per_chapter: true,
        list_of_figures: true,
        list_of_tables: true,
    };
    apply(&mut b, &settings).unwrap();
    let numbers: Vec<String> = b.chapters[..2]
        .iter()
        .flat_map(|c| figures(c).into_iter().map(|f| f.2))
        .collect();
    assert_eq!(numbers, ["1.1", "1.1", "2.1", "2.1"]);
    // The lists: figures then tables, each item a page reference.
    let titles: Vec<&str> = b.chapters[2..].iter().map(|c| c.title.as_str()).collect();
    assert_eq!(titles, ["List of Figures", "List of Tables"]);
    assert_eq!(
        blocks_text(&b.chapters[2].blocks),
        "Figure\u{a0}1.1. A grey wall / Figure\u{a0}2.1. A chart"
    );
    assert_eq!(b.chapters[3].kind, ChapterKind::Appendix);
}

#[test]
fn a_book_without_labels_is_unchanged() {
    let md = "An address: me@fig.example and @someone, [@smith2020].\n";
    let mut b = book("en", &[md]);
    let before = b.clone();
    apply(&mut b, &Settings::default()).unwrap();
    assert_eq!(b, before);
}

/// The errors of `apply` on `posts`, each as `line:col: message (hint)`,
/// with the posts written as files.
fn errors(posts: &[&str]) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let mut b = book("en", posts);
    for (i, (chapter, md)) in b.chapters.iter_mut().zip(posts).enumerate() {
        let path = dir.path().join(format!("p{i}.md"));
        std::fs::write(&path, md).unwrap();
        chapter.source = Some(path.display().to_string());
    }
    let Err(errors) = apply(&mut b, &Settings::default()) else {
        panic!("no error");
    };
    errors
        .iter()
        .map(|e| {
            format!(
                "{}:{}: {} ({})",
                e.line.unwrap_or(0),
                e.column.unwrap_or(0),
                e.message,
                e.hint.clone().unwrap_or_default()
            )
        })
        .collect()
}

#[test]
fn an_unknown_label_is_an_error_at_its_place_with_the_nearest() {
    let md = "![Wall](w.png){#fig:wall}\n\nAs @fig:wall shows, and\n@fig:wal too.\n";
    assert_eq!(
        errors(&[md]),
        ["4:1: `@fig:wal` refers to no label of the book (did you mean `@fig:wall`?)"]
    );
}

#[test]
fn a_repeated_label_is_an_error_at_the_second() {
    let md = "![A](a.png){#fig:a}\n\n![B](b.png){#fig:a}\n";
    let e = errors(&[md]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("3:12: the label `fig:a` is given twice"),
        "{e:?}"
    );
    assert!(e[0].contains("figure 1"), "{e:?}");
}

#[test]
fn a_caption_beside_nothing_is_an_error() {
    let md = "Text.\n\n: Sizes {#tbl:sizes}\n\nMore text.\n";
    let e = errors(&[md]);
    assert_eq!(e.len(), 1, "{e:?}");
    assert!(
        e[0].starts_with("3:9: the caption labelled `tbl:sizes` is next to no table"),
        "{e:?}"
    );
}

#[test]
fn caption_separators_follow_each_language() {
    use crate::find::caption_separator;
    assert_eq!(caption_separator(&Labels::for_language("en")), ". ");
    assert_eq!(
        caption_separator(&Labels::for_language("pt-BR")),
        "\u{a0}– "
    );
    // A full-width space is the separator itself, never trimmed away.
    assert_eq!(
        caption_separator(&Labels::for_language("zh-Hans")),
        "\u{3000}"
    );
    assert_eq!(caption_separator(&Labels::for_language("ja")), "\u{3000}");
}
