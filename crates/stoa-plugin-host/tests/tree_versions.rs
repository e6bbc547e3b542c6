//! A plugin built against an older minor tree version still loads and
//! works, and loses nothing it cannot read; another major, or a newer minor,
//! is refused with a message saying what to do.

mod common;

use common::{book, c_plugin_dir, c_search, library_file};
use serde_json::json;
use stoa_plugin_host::{PluginRun, apply, load};
use stoa_sdk::{
    Attrs, Block, Book, Inline, NoteNumbering, NotePlacement, NoteStyle, Role, TREE_MINOR,
    TREE_VERSION,
};

fn run(name: &str) -> Vec<PluginRun> {
    let plugin = load(name, &c_search()).unwrap_or_else(|d| panic!("{name} loads: {d}"));
    vec![PluginRun::new(plugin, json!({}))]
}

/// A book whose first chapter carries everything tree 1.1 added: a role
/// on the chapter, a note style, a div and a span with roles.
fn book_with_roles() -> Book {
    let mut b = book(2, 3);
    let chapter = &mut b.chapters[0];
    chapter.role = Some(Role::Glossary);
    chapter.notes = Some(NoteStyle {
        placement: NotePlacement::Footnotes,
        numbering: NoteNumbering::Continuous,
    });
    let speaker = Inline::Span {
        role: Some(Role::Speaker),
        class: "speaker".into(),
        attrs: Attrs::from([("case".to_string(), "upper".to_string())]),
        content: vec![Inline::text("SOCRATES")],
    };
    chapter.blocks.push(Block::Div {
        role: Some(Role::Dialogue),
        class: "dialogue".into(),
        attrs: Attrs::new(),
        blocks: vec![Block::Div {
            role: Some(Role::Turn),
            class: "turn".into(),
            attrs: Attrs::new(),
            blocks: vec![Block::Paragraph {
                content: vec![speaker, Inline::text(": Know thyself.")],
            }],
        }],
    });
    b
}

#[test]
fn a_plugin_built_for_tree_1_0_loads_runs_and_loses_nothing() {
    let plugins = run("c_tree10");
    assert_eq!(plugins[0].plugin.tree_version(), (TREE_VERSION, 0));
    let input = book_with_roles();
    // c_tree10 refuses a tree holding "role" or "notes" and any format but
    // epub and pdf: that it runs at all proves the host lowered the tree
    // and did not ask it for html.
    let (out, warnings) = apply(&plugins, input.clone()).expect("a 1.0 plugin runs");
    assert!(warnings.is_empty(), "{warnings:?}");
    let mut expected = input;
    for chapter in &mut expected.chapters {
        chapter.title = chapter.title.to_uppercase();
    }
    // Its transform worked, and the roles and the note style came back.
    assert_eq!(out.chapters, expected.chapters);
    assert_eq!(out.chapters[0].role, Some(Role::Glossary));
    let styles: Vec<_> = out
        .styles
        .iter()
        .map(|s| (s.origin.as_str(), s.format.as_str()))
        .collect();
    assert_eq!(styles, [("c_tree10", "epub"), ("c_tree10", "pdf")]);
}

#[test]
fn a_current_plugin_gets_the_tree_as_is_and_every_format() {
    let plugins = run("c_upper");
    assert_eq!(plugins[0].plugin.tree_version(), (TREE_VERSION, TREE_MINOR));
    let input = book_with_roles();
    let (out, _) = apply(&plugins, input.clone()).expect("c_upper runs");
    assert_eq!(out.chapters[0].blocks, input.chapters[0].blocks);
    assert_eq!(out.chapters[0].notes, input.chapters[0].notes);
    assert!(out.styles.iter().any(|s| s.format == "html"));
}

#[test]
fn another_major_tree_version_is_refused() {
    let d = load("c_tree2", &c_search()).unwrap_err();
    let path = c_plugin_dir().join(library_file("c_tree2"));
    let path = path.canonicalize().unwrap();
    assert!(
        d.message.contains(&format!(
            "plugin `c_tree2` at {} reads document tree version 2; this stoa writes version {TREE_VERSION}",
            path.display()
        )),
        "{d}"
    );
    assert!(
        d.hint.as_deref().unwrap().contains("rebuild the plugin"),
        "{d}"
    );
}

#[test]
fn a_newer_minor_tree_version_is_refused_with_advice_to_upgrade() {
    let d = load("c_tree_newer", &c_search()).unwrap_err();
    let newer = format!("{TREE_VERSION}.{}", TREE_MINOR + 1);
    assert!(
        d.message.contains("plugin `c_tree_newer`")
            && d.message
                .contains(&format!("reads document tree version {newer}, newer than")),
        "{d}"
    );
    assert!(
        d.hint.as_deref().unwrap().starts_with("upgrade stoa"),
        "{d}"
    );
}
