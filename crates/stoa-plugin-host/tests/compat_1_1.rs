//! The compatibility suite for tree 1.1, the version before this one: a
//! plugin built against the 1.1 header (`fixtures/tree-1.1/`, a C plugin
//! that passes back the bytes it was sent and refuses any node it cannot
//! read) keeps loading and working, and a book holding every node of the
//! newer minor comes back from it unchanged, whether the nodes were in the
//! posts or a newer plugin put them there just before.
//!
//! `tests/testsuite/plugin_compat.rs` (the workspace's end-to-end tests) runs
//! the same fixture in a real `stoa build`.
//!
//! When the tree's minor moves on again, copy the header of the version it
//! leaves into `fixtures/tree-1.<n>/` with a plugin like this one, and
//! keep these tests: plugins built against every older minor of the major
//! must keep working (docs/plugins.md, "Versions and compatibility").

mod common;

use common::{book, c_search};
use serde_json::json;
use stoa_plugin_host::{LoadedPlugin, PluginRun, apply, load};
use stoa_sdk::{
    Attrs, Block, Book, Chapter, Context, Inline, ListItem, NoteNumbering, NotePlacement,
    NoteStyle, Plugin, PluginError, Role, TREE_MINOR, TREE_VERSION, Transform,
};

/// The 1.1 fixture, loaded from its compiled library.
fn tree11() -> PluginRun {
    let plugin = load("c_tree11", &c_search()).unwrap_or_else(|d| panic!("c_tree11 loads: {d}"));
    PluginRun::new(plugin, json!({}))
}

/// Raw output for EPUB and for PDF, as a block and as an inline.
fn raw_block(format: &str) -> Block {
    let payload = match format {
        "pdf" => "#align(center)[\u{2042}]",
        _ => "<p class=\"end\">\u{2042}</p>",
    };
    Block::raw(format, payload)
}

fn raw_inline(format: &str) -> Inline {
    match format {
        "pdf" => Inline::raw("pdf", "#h(1em)"),
        _ => Inline::raw(format, "<b>!</b>"),
    }
}

/// Everything tree 1.2 added (raw blocks and inlines, for each format, at
/// the top, nested in every container), with what 1.1 added around them
/// (roles, a note style), in one chapter.
fn with_every_new_node(mut chapter: Chapter) -> Chapter {
    let paragraph = |inlines: Vec<Inline>| Block::Paragraph { content: inlines };
    chapter.role = Some(Role::Glossary);
    chapter.notes = Some(NoteStyle {
        placement: NotePlacement::Footnotes,
        numbering: NoteNumbering::Continuous,
    });
    chapter.blocks.extend([
        raw_block("epub"),
        raw_block("pdf"),
        raw_block("html"),
        Block::Heading {
            level: 2,
            id: "raw-heading".into(),
            content: vec![Inline::text("A heading "), raw_inline("epub")],
        },
        paragraph(vec![
            Inline::text("Text "),
            raw_inline("pdf"),
            Inline::Emph {
                content: vec![raw_inline("html"), Inline::text("emphasis")],
            },
            Inline::Span {
                role: Some(Role::Speaker),
                class: "speaker".into(),
                attrs: Attrs::from([("case".to_string(), "upper".to_string())]),
                content: vec![Inline::text("SOCRATES"), raw_inline("epub")],
            },
        ]),
        Block::Quote {
            blocks: vec![raw_block("epub"), paragraph(vec![raw_inline("pdf")])],
        },
        Block::List {
            start: Some(3),
            tight: false,
            items: vec![ListItem {
                checked: Some(true),
                blocks: vec![raw_block("pdf")],
            }],
        },
        Block::Div {
            role: Some(Role::Dialogue),
            class: "dialogue".into(),
            attrs: Attrs::new(),
            blocks: vec![raw_block("html"), paragraph(vec![raw_inline("epub")])],
        },
        Block::FootnoteDef {
            label: "1".into(),
            blocks: vec![paragraph(vec![raw_inline("pdf")])],
        },
    ]);
    chapter
}

fn book_with_every_new_node() -> Book {
    let mut b = book(2, 2);
    b.chapters = b.chapters.into_iter().map(with_every_new_node).collect();
    b
}

#[test]
fn the_fixture_is_a_plugin_of_the_previous_minor() {
    let run = tree11();
    assert_eq!(
        TREE_MINOR, 2,
        "a new minor: add a tree-1.2 fixture, keep this one"
    );
    assert_eq!(run.plugin.tree_version(), (TREE_VERSION, 1));
    // Built before the optional hooks symbol existed: it has none of them.
    let hooks = run.plugin.hooks();
    assert!(hooks.transform && hooks.finish && hooks.styles);
    assert!(!hooks.configure && !hooks.source);
}

#[test]
fn a_1_1_plugin_returns_a_book_with_every_new_node_unchanged() {
    let input = book_with_every_new_node();
    // The fixture refuses a tree with a raw node in it: that it runs at
    // all proves the host lowered the tree for it.
    let json = serde_json::to_string(&input).unwrap();
    assert!(json.matches("\"type\":\"raw\"").count() >= 2 * 12, "{json}");
    let (out, warnings) = apply(&[tree11()], input.clone()).unwrap_or_else(|d| {
        panic!("a 1.1 plugin runs: {d:#?}");
    });
    assert_eq!(out.chapters, input.chapters, "the tree came back unchanged");
    let read: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        read, ["plugin `c_tree11`: c_tree11 read a chapter"; 2],
        "transform ran on each chapter"
    );
    let formats: Vec<&str> = out.styles.iter().map(|s| s.format.as_str()).collect();
    assert_eq!(formats, ["epub", "pdf", "html"], "1.1 knows html");
}

/// A plugin of this SDK (tree 1.2) that ends every chapter with raw output
/// for each format.
#[derive(Default)]
struct Ornament;

impl Plugin for Ornament {
    const NAME: &'static str = "ornament";
    const VERSION: &'static str = "1.2.0";
}

impl Transform for Ornament {
    fn transform(&self, chapter: &mut Chapter, _: &Context) -> Result<(), PluginError> {
        chapter
            .blocks
            .extend(["epub", "pdf", "html"].map(raw_block));
        Ok(())
    }
}

#[test]
fn raw_output_of_a_newer_plugin_survives_an_older_one_after_it() {
    let ornament = PluginRun::new(
        LoadedPlugin::in_process(stoa_sdk::builtin_plugin!(Ornament)),
        json!({}),
    );
    let input = book(2, 1);
    let (out, _) = apply(&[ornament, tree11()], input.clone()).unwrap_or_else(|d| {
        panic!("both run: {d:#?}");
    });
    for (before, after) in input.chapters.iter().zip(&out.chapters) {
        let mut expected = before.blocks.clone();
        expected.extend(["epub", "pdf", "html"].map(raw_block));
        assert_eq!(after.blocks, expected, "{}", after.slug);
    }
}
