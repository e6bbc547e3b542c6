//! Plugins in a real build: the example plugin, found next to the stoa
//! executable, changes both formats; a plugin that cannot be loaded fails
//! its book with a clear error while the other books are still built.

use crate::prelude::*;
use std::path::Path;

fn enable(project: &Path, book: &str, table: &str) {
    let path = project.join("books").join(book).join("book.toml");
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str(table);
    std::fs::write(path, text).unwrap();
}

#[test]
fn the_example_plugin_changes_both_formats() {
    let project = torture_project();
    enable(
        project.path(),
        "torture",
        "\n[plugins.example]\nword = \"lorem\"\n",
    );
    let out = stoa(project.path(), &["build", "--emit-typst"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let epub = project.path().join("dist/torture/torture-en.epub");
    let page = zip_entry(&epub, "OEBPS/long-paragraph.xhtml");
    assert!(
        page.contains("<span class=\"highlight\">lorem</span>"),
        "the plugin's span is in the EPUB"
    );
    assert!(
        zip_entry(&epub, "OEBPS/stylesheet.css").contains(".highlight"),
        "the plugin's CSS is applied"
    );
    let typst =
        std::fs::read_to_string(project.path().join("dist/torture/torture-en.typ")).unwrap();
    assert!(
        typst.contains("if class == \"highlight\""),
        "the plugin's Typst style is applied"
    );
    assert!(
        typst.contains("span(\"highlight\""),
        "the span reaches the PDF"
    );
    assert!(epubcheck(&[epub]).is_empty(), "still valid EPUB");
}

#[test]
fn a_missing_plugin_fails_only_its_book() {
    let project = torture_project();
    let other = project.path().join("books/other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(
        other.join("book.toml"),
        "author = \"A\"\nlanguages = [\"en\"]\nidentifier = \"urn:x:other\"\nposts = [\"empty\"]\n\n[title]\nen = \"Other\"\n",
    )
    .unwrap();
    enable(project.path(), "torture", "\n[plugins.no-such-plugin]\n");
    let out = stoa(project.path(), &["build", "--format", "epub"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        stderr.contains("books/torture/book.toml:"),
        "names the book.toml line:\n{stderr}"
    );
    assert!(stderr.contains("no-such-plugin"), "{stderr}");
    assert!(stderr.contains("help:"), "{stderr}");
    assert!(
        project.path().join("dist/other/other-en.epub").is_file(),
        "the other book is built"
    );
    assert!(
        !project.path().join("dist/torture").exists(),
        "no artifact for the failed book"
    );
}

#[test]
fn stoa_plugins_lists_the_bundled_plugins() {
    let project = torture_project();
    let out = stoa(project.path(), &["plugins"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("example")
            && stdout.contains("abi 1")
            && stdout.contains("libstoa_plugin_example"),
        "{stdout}"
    );
}
