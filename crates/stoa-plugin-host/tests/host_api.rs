//! The C example plugin of the repository (plugins/reading-time-c), built
//! here with the system C compiler as a plugin author would build it, reads
//! and changes chapters through the host API alone: no JSON in its code.

mod common;

use common::{book, library_file, on_threads};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stoa_plugin_host::{PluginRun, SearchPath, apply, load};
use stoa_sdk::{Block, Inline};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

/// The folder holding `libstoa_plugin_reading_time_c.so`, compiled once per
/// process from plugins/reading-time-c/ with the command its README gives.
fn plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let root = Path::new(MANIFEST_DIR).join("../..");
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("stoa-plugin-host-example-c");
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join(library_file("reading_time_c"));
        let tmp = out.with_extension(format!("{}.tmp", std::process::id()));
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let output = Command::new(&cc)
            .args([
                "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-I",
            ])
            .arg(root.join("crates/stoa-sdk/include"))
            .arg("-o")
            .arg(&tmp)
            .arg(root.join("plugins/reading-time-c/reading_time.c"))
            .output()
            .unwrap_or_else(|e| panic!("these tests need a C compiler (`{cc}`): {e}"));
        assert!(
            output.status.success(),
            "{cc} failed on reading_time.c:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::rename(&tmp, &out).unwrap();
        dir
    })
}

fn run(config: serde_json::Value) -> Vec<PluginRun> {
    let search = SearchPath::new([plugin_dir().to_path_buf()]);
    let plugin = load("reading-time-c", &search).expect("the C example loads");
    vec![PluginRun::new(plugin, config)]
}

/// The line the plugin put at the top of a chapter.
fn reading_line(blocks: &[Block]) -> String {
    let Block::Div { class, blocks, .. } = &blocks[0] else {
        panic!("a div first: {:?}", blocks[0]);
    };
    assert_eq!(class, "reading-time");
    let [Block::Paragraph { content }] = blocks.as_slice() else {
        panic!("one paragraph: {blocks:?}");
    };
    stoa_sdk::inlines_text(content)
}

#[test]
fn the_c_example_counts_words_and_adds_a_line_and_raw_typst() {
    // 20 paragraphs of 25 words, two headings of 5, a list of 9: 519 words.
    let source = book(2, 20);
    let (out, warnings) = apply(&run(json!({})), source.clone()).expect("it runs");
    assert!(warnings.is_empty(), "{warnings:?}");
    for (chapter, before) in out.chapters.iter().zip(&source.chapters) {
        assert_eq!(reading_line(&chapter.blocks), "3 min read");
        assert_eq!(
            chapter.blocks[1],
            Block::raw("pdf", "#line(length: 3em, stroke: 0.4pt + luma(60%))")
        );
        // Everything else came back as it was.
        assert_eq!(chapter.blocks[2..], before.blocks[..]);
        assert_eq!(chapter.title, before.title);
    }
    let (out, _) = apply(&run(json!({"words-per-minute": 100})), source).unwrap();
    assert_eq!(reading_line(&out.chapters[0].blocks), "6 min read");
}

#[test]
fn the_c_example_speaks_the_edition_language_and_reports_bad_settings() {
    let mut pt = book(1, 20);
    pt.lang = "pt-BR".into();
    let (out, _) = apply(&run(json!({})), pt).unwrap();
    assert_eq!(reading_line(&out.chapters[0].blocks), "3 min de leitura");

    let errors = apply(&run(json!({"words-per-minute": "fast"})), book(1, 3)).unwrap_err();
    let text = errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("`words-per-minute` must be"), "{text}");
    assert!(text.contains("reading-time-c"), "names the plugin: {text}");
}

#[test]
fn text_from_the_plugin_stays_text() {
    // A chapter with no words gets nothing; one whose only word looks like
    // markup is counted as a word, and the plugin's paragraph is plain text.
    let mut b = book(2, 0);
    b.chapters[0].blocks.clear();
    b.chapters[1].blocks = vec![Block::Paragraph {
        content: vec![Inline::text("#read(\"/etc/passwd\")")],
    }];
    let (out, _) = apply(&run(json!({})), b).unwrap();
    assert!(out.chapters[0].blocks.is_empty());
    assert_eq!(reading_line(&out.chapters[1].blocks), "1 min read");
}

#[test]
fn the_c_example_is_thread_safe() {
    let plugins = run(json!({}));
    let one = on_threads(1, || apply(&plugins, book(12, 15)).unwrap());
    let four = on_threads(4, || apply(&plugins, book(12, 15)).unwrap());
    assert_eq!(one, four);
}
