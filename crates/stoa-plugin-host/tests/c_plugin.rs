//! A plugin written in C against stoa_plugin.h alone is loaded and changes
//! the book: the ABI is real and language-neutral.

mod common;

use common::{book, c_search, deep_book, on_threads};
use serde_json::json;
use stoa_plugin_host::{PluginRun, apply, list, load};
use stoa_sdk::{Block, ChapterKind};

fn c_upper() -> Vec<PluginRun> {
    let plugin = load("c_upper", &c_search()).expect("c_upper loads");
    vec![PluginRun::new(plugin, json!({}))]
}

#[test]
fn a_c_plugin_transforms_finishes_and_styles_a_book() {
    let (out, warnings) = apply(&c_upper(), book(3, 4)).expect("c_upper runs");
    assert!(warnings.is_empty(), "{warnings:?}");
    let titles: Vec<_> = out.chapters.iter().map(|c| c.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "POST NUMBER 0",
            "POST NUMBER 1",
            "POST NUMBER 2",
            "Written in C"
        ]
    );
    let appendix = &out.chapters[3];
    assert_eq!(appendix.kind, ChapterKind::Appendix);
    let Block::Div { class, attrs, .. } = &appendix.blocks[0] else {
        panic!("expected a div, got {:?}", appendix.blocks)
    };
    assert_eq!((class.as_str(), attrs["lang"].as_str()), ("c-note", "c"));
    // The rest of the tree came through the C code untouched.
    assert_eq!(out.chapters[1].blocks, book(3, 4).chapters[1].blocks);
    let styles: Vec<_> = out
        .styles
        .iter()
        .map(|s| (s.origin.as_str(), s.format.as_str()))
        .collect();
    assert_eq!(
        styles,
        [("c_upper", "epub"), ("c_upper", "pdf"), ("c_upper", "html")]
    );
    assert!(out.styles[0].code.contains(".c-note"));
    assert!(
        out.styles[2].code.contains(".c-note"),
        "CSS for the web edition"
    );
}

#[test]
fn one_thread_and_four_threads_give_the_same_book() {
    let plugins = c_upper();
    let one = on_threads(1, || apply(&plugins, book(15, 20)).unwrap());
    let four = on_threads(4, || apply(&plugins, book(15, 20)).unwrap());
    assert_eq!(one, four);
    assert_eq!(one.0.chapters.len(), 16);
}

/// `apply` runs on rayon threads of the default 2 MiB stack; the test's own
/// clone, comparison and drop of the tree, recursive, get a big stack.
fn crosses(depth: usize) {
    let test = move || {
        let input = deep_book(depth);
        let copy = input.clone();
        let (out, _) = on_threads(2, || apply(&c_upper(), copy)).expect("deep tree");
        assert_eq!(out.chapters[0].blocks, input.chapters[0].blocks);
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
    // 3000 nested lists are 12,000 levels of JSON: far past serde_json's
    // limit and a 2 MiB thread stack; the host grows its stack for the call.
    crosses(3000);
}

#[test]
fn list_shows_each_library_and_its_hooks() {
    let found = list(&c_search());
    let upper = found
        .iter()
        .flatten()
        .find(|p| p.name == "c_upper")
        .expect("c_upper listed");
    assert_eq!((upper.version.as_str(), upper.abi_version), ("0.1.0", 1));
    assert!(upper.hooks.transform && upper.hooks.finish && upper.hooks.styles);
    let faulty = found
        .iter()
        .flatten()
        .find(|p| p.name == "c_faulty")
        .unwrap();
    assert!(faulty.hooks.transform && !faulty.hooks.finish && !faulty.hooks.styles);
    // The broken fixtures (no entry, ABI 999, tree 2.0, a newer minor) are
    // listed as errors, not skipped.
    let errors: Vec<_> = found.iter().filter_map(|r| r.as_ref().err()).collect();
    assert_eq!(errors.len(), 4, "{errors:?}");
}

#[test]
fn the_hooks_after_the_descriptor_come_through_their_optional_symbol() {
    let plugin = load("c_hooks", &c_search()).expect("c_hooks loads");
    assert_eq!(plugin.hooks().names(), ["configure", "source"]);
    // A plugin built before the symbol existed has neither hook.
    let old = load("c_tree10", &c_search()).expect("c_tree10 loads");
    assert!(!old.hooks().configure && !old.hooks().source);
    let runs = |config| vec![PluginRun::new(plugin.clone(), config)];
    let wrong = runs(json!({"wrod": "x"}));
    let session = stoa_plugin_host::PluginSession::new(&wrong, "en", "b", &Default::default());
    let errors = session.configure().unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].message.contains("unknown key `wrod`"),
        "{errors:?}"
    );
    assert_eq!(errors[0].hint.as_deref(), Some("the keys are `word`"));
    let right = runs(json!({"word": "x"}));
    let session = stoa_plugin_host::PluginSession::new(&right, "en", "b", &Default::default());
    assert_eq!(session.configure(), Ok(Vec::new()));
    let done = session
        .source("a", Some("a/en.md"), "One \"quoted\".\n\nTwo.\n")
        .unwrap();
    assert_eq!(done.markdown, "Added.\n\nOne \"quoted\".\n\nTwo.\n");
    assert_eq!(done.line_map, [None, None, Some(1), Some(2), Some(3)]);
    // Two plugins' maps compose: each line still knows the author's.
    let twice = [right[0].clone(), right[0].clone()];
    let session = stoa_plugin_host::PluginSession::new(&twice, "en", "b", &Default::default());
    let done = session.source("a", None, "One.\n").unwrap();
    assert_eq!(done.markdown, "Added.\n\nAdded.\n\nOne.\n");
    assert_eq!(done.line_map, [None, None, None, None, Some(1)]);
}
