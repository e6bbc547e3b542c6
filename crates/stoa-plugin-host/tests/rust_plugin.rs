//! The example plugin of docs/plugins.md, built with cargo and applied.

mod common;

use common::{book, deep_book, example_search, on_threads};
use serde_json::json;
use std::time::{Duration, Instant};
use stoa_plugin_host::{PluginRun, apply, load};
use stoa_sdk::{Block, Inline, inlines_text};

fn example(config: serde_json::Value) -> Vec<PluginRun> {
    let plugin = load("example", &example_search()).expect("the example plugin loads");
    vec![PluginRun::new(plugin, config)]
}

/// The highlight spans of a paragraph or heading.
fn highlights(block: &Block) -> Vec<String> {
    let (Block::Paragraph { content } | Block::Heading { content, .. }) = block else {
        return Vec::new();
    };
    let spans = content.iter().filter_map(|i| match i {
        Inline::Span { class, content, .. } if class == "highlight" => Some(inlines_text(content)),
        _ => None,
    });
    spans.collect()
}

#[test]
fn the_example_highlights_the_configured_word_and_styles_it() {
    let input = book(2, 3);
    let (out, warnings) = apply(&example(json!({"word": "stoa"})), input.clone()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    let first = &out.chapters[0].blocks;
    assert_eq!(highlights(&first[0]), ["stoa"], "the heading");
    assert_eq!(highlights(&first[1]), ["stoa", "stoa"], "the paragraph");
    // Same text as before: only wrapped, nothing lost.
    let (Block::Paragraph { content: before }, Block::Paragraph { content: after }) =
        (&input.chapters[0].blocks[1], &first[1])
    else {
        panic!("paragraphs expected")
    };
    assert_eq!(inlines_text(before), inlines_text(after));
    let formats: Vec<_> = out
        .styles
        .iter()
        .map(|s| (s.origin.as_str(), s.format.as_str()))
        .collect();
    assert_eq!(
        formats,
        [("example", "epub"), ("example", "pdf"), ("example", "html")]
    );
    assert!(out.styles[0].code.contains(".highlight"));
    assert!(out.styles[1].code.contains("highlight("));
    assert_eq!(
        out.styles[2].code, out.styles[0].code,
        "the same CSS online"
    );
}

#[test]
fn the_example_checks_its_settings_once_in_configure() {
    // Before any chapter: one error for the book, not one per chapter.
    let errors = apply(&example(json!({"wrod": "stoa"})), book(2, 1)).unwrap_err();
    assert_eq!(errors.len(), 1, "once: {errors:?}");
    let e = &errors[0];
    assert_eq!(
        e.file, None,
        "about book.toml, whose lines the driver knows"
    );
    assert!(e.message.starts_with("plugin `example` ("), "{e}");
    assert!(
        e.message.contains("libstoa_plugin_example") && e.message.contains("unknown field `wrod`"),
        "{e}"
    );
}

#[test]
fn the_example_rewrites_markdown_and_maps_its_lines() {
    let search = example_search();
    let plugin = load("example", &search).unwrap();
    let runs = [PluginRun::new(
        plugin,
        json!({"word": "stoa", "notice": "Draft."}),
    )];
    let session = stoa_plugin_host::PluginSession::new(&runs, "en", "b", &Default::default());
    assert!(session.configure().unwrap().is_empty());
    assert!(session.has_source_hooks());
    let done = session
        .source("a", Some("a/en.md"), "One.\n\nTwo.\n")
        .unwrap();
    assert_eq!(done.markdown, "> Draft.\n\nOne.\n\nTwo.\n");
    assert_eq!(done.line_map, [None, None, Some(1), Some(2), Some(3)]);
}

#[test]
fn one_thread_and_four_threads_give_the_same_book() {
    let plugins = example(json!({"word": "stoa"}));
    let one = on_threads(1, || apply(&plugins, book(15, 30)).unwrap());
    let four = on_threads(4, || apply(&plugins, book(15, 30)).unwrap());
    assert_eq!(one, four);
}

/// `apply` runs on rayon threads of the default 2 MiB stack; the test's own
/// recursive drop of the tree gets a big stack.
fn crosses(depth: usize) {
    let test = move || {
        let plugins = example(json!({"word": "stoa"}));
        let (out, _) = on_threads(2, || apply(&plugins, deep_book(depth))).unwrap();
        let mut blocks = &out.chapters[0].blocks;
        for _ in 0..depth {
            let Block::List { items, .. } = &blocks[0] else {
                panic!("a list expected")
            };
            blocks = &items[0].blocks;
        }
        assert_eq!(
            highlights(&blocks[0]),
            ["stoa"],
            "the bottom paragraph was transformed"
        );
    };
    let thread = std::thread::Builder::new().stack_size(256 << 20);
    thread.spawn(test).unwrap().join().unwrap();
}

#[test]
fn a_200_deep_chapter_crosses_the_boundary_and_back() {
    crosses(200);
}

#[test]
fn a_3000_deep_chapter_crosses_too() {
    crosses(3000);
}

#[test]
fn loading_twice_gives_the_same_library() {
    let a = load("example", &example_search()).unwrap();
    let b = load("example", &example_search()).unwrap();
    assert!(std::sync::Arc::ptr_eq(&a, &b));
    assert_eq!(a.version(), env!("CARGO_PKG_VERSION"));
}

/// The cost of the plugin boundary: `apply` on a book of 15 post-sized
/// chapters (~1,600 words each) with the example plugin, against no plugin.
/// `cargo test -p stoa-plugin-host --release --test rust_plugin -- --ignored --nocapture`
#[test]
#[ignore = "a measurement, not a check"]
fn overhead_of_the_example_plugin() {
    let plugins = example(json!({"word": "stoa"}));
    let median = |plugins: &[PluginRun]| {
        let mut runs: Vec<Duration> = (0..5)
            .map(|_| {
                let input = book(15, 60);
                let start = Instant::now();
                let out = apply(plugins, input).unwrap();
                let took = start.elapsed();
                drop(out);
                took
            })
            .collect();
        runs.sort();
        runs[2]
    };
    let none = median(&[]);
    let with = median(&plugins);
    // The C plugin barely works on the text: its time is the boundary's.
    let c_upper = load("c_upper", &common::c_search()).unwrap();
    let c = median(&[PluginRun::new(c_upper, json!({}))]);
    println!(
        "apply, 15 chapters: no plugin {none:?}, example plugin {with:?}, \
         C plugin c_upper {c:?} (median of 5)"
    );
}

#[test]
fn the_guide_shows_the_example_as_it_is_and_on_one_screen() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
    let source = std::fs::read_to_string(format!("{root}/plugins/example/src/lib.rs")).unwrap();
    let guide = std::fs::read_to_string(format!("{root}/docs/plugins.md")).unwrap();
    assert!(
        guide.contains(&format!("```rust\n{source}```")),
        "docs/plugins.md differs from plugins/example"
    );
    // Every hook a typical plugin needs, read in one sitting.
    assert!(source.lines().count() < 80);
}
