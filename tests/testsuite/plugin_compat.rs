//! The compatibility suite in a real build: the plugin built against the
//! header of tree 1.1 (crates/stoa-plugin-host/tests/fixtures/tree-1.1/,
//! compiled here with the system C compiler) runs in a `stoa build` after
//! the dialogue plugin, which writes raw output (tree 1.2) into the post,
//! and the post comes out of the build exactly as it does without it.

use crate::prelude::*;
use std::path::{Path, PathBuf};

/// `libstoa_plugin_c_tree11.so` in `dir`, compiled against the 1.1 header
/// beside its source.
fn compile_tree11(dir: &Path) {
    let fixtures = "crates/stoa-plugin-host/tests/fixtures/tree-1.1";
    compile_c_plugin(&format!("{fixtures}/c_tree11.c"), fixtures, dir, "c_tree11");
}

/// Builds the book of `project` as EPUB with the plugins in `plugins`;
/// stoa's output and the post's XHTML.
fn build(project: &Path, plugins: &Path) -> (String, String) {
    let dir = plugins.to_string_lossy().into_owned();
    let out = stoa(
        project,
        &["build", "--format", "epub", "--plugin-dir", &dir, "-v"],
    );
    let text = output_text(&out);
    assert!(out.status.success(), "{text}");
    let epub = project.join("dist/book/book-en.epub");
    (text, zip_entry(&epub, "OEBPS/welcome.xhtml"))
}

/// A project from `stoa new` with a book `book` whose sample post's
/// dialogue has a closing line.
fn project(root: &Path) -> PathBuf {
    let out = stoa(root, &["new", "book"]);
    assert!(out.status.success(), "{out:?}");
    let project = root.join("book");
    // A closing line after the sample's dialogue: the dialogue plugin sets
    // it apart with an ornament written as raw output (tree 1.2).
    let post = project.join("books/posts/welcome/en.md");
    let text = std::fs::read_to_string(&post).unwrap();
    let last_turn = "BRUNO: They stay notes, in every format.\n";
    assert!(text.contains(last_turn), "the sample post changed:\n{text}");
    let text = text.replace(last_turn, &format!("{last_turn}\n.. And they walked on.\n"));
    std::fs::write(&post, text).unwrap();
    project
}

/// A copy of `project` whose book also runs the 1.1 plugin, last, so that
/// it is sent the raw output of the bundled plugins before it.
fn with_tree11(project: &Path, to: &Path) -> PathBuf {
    copy_dir(project, to);
    let toml = to.join("books/book/book.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str("\n[plugins.c_tree11]\n");
    std::fs::write(&toml, text).unwrap();
    to.to_path_buf()
}

#[test]
fn a_1_1_plugin_in_a_build_passes_raw_output_through_unchanged() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let plugins = tmp.path().join("plugins");
    std::fs::create_dir(&plugins).unwrap();
    compile_tree11(&plugins);

    let plain = project(tmp.path());
    let old = with_tree11(&plain, &tmp.path().join("old"));
    let (_, without) = build(&plain, &plugins);
    let (log, with) = build(&old, &plugins);
    assert!(
        log.contains("c_tree11 read a chapter"),
        "the 1.1 plugin ran:\n{log}"
    );
    assert!(
        without.contains("dialogue-ornament"),
        "the dialogue's raw ornament is in the post:\n{without}"
    );
    assert_eq!(with, without, "the post is the same with the 1.1 plugin");
}
