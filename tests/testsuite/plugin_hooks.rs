//! The `configure` and `source` hooks in real builds: a plugin-setting typo
//! is one error at its book.toml line with "did you mean", for a plugin
//! built into stoa and for a library (the example plugin, found next to the
//! stoa executable); a plugin that rewrites a post's Markdown leaves every
//! later error at the author's own line.

use crate::prelude::*;
use std::path::Path;
use std::process::Output;

const BOOK: &str = "books/mini/book.toml";

/// A two-language book of two posts, with `table` appended to its
/// book.toml, and `extra` appended to the English text of post `one`.
fn project(table: &str, extra: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let book = dir.path().join("books/mini");
    std::fs::create_dir_all(&book).unwrap();
    std::fs::write(
        book.join("book.toml"),
        format!(
            "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\nidentifier = \"urn:x:mini\"\n\
             posts = [\"one\", \"two\"]\n\n[title]\nen = \"Mini\"\npt-BR = \"Mini\"\n{table}"
        ),
    )
    .unwrap();
    for slug in ["one", "two"] {
        let folder = dir.path().join("books/posts").join(slug);
        std::fs::create_dir_all(&folder).unwrap();
        for lang in ["en", "pt-BR"] {
            let mut text = format!(
                "+++\ntitle = \"Post {slug}\"\ndate = 2024-01-01\n+++\n\nSome Text here.\n"
            );
            if slug == "one" && lang == "en" {
                text.push_str(extra);
            }
            std::fs::write(folder.join(format!("{lang}.md")), text).unwrap();
        }
    }
    dir
}

fn build(project: &Path) -> (Output, String) {
    let out = stoa(project, &["build", "--no-site", "-f", "epub"]);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out, stderr)
}

/// One error for the typo, at its line, with the suggestion, never at a post.
fn assert_one_error_at_the_setting(project: &Path, typo: &str, unknown: &str, meant: &str) {
    let line = line_of(project, BOOK, typo);
    let (out, stderr) = build(project);
    assert_fails_with(&out, &[&format!("{BOOK}:{line}:1: error:")]);
    // Two editions of two posts each ran into it; it is said once.
    assert_eq!(stderr.matches(unknown).count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("did you mean `{meant}`?")),
        "{stderr}"
    );
    assert!(
        !stderr.contains("books/posts/"),
        "pinned to a post:\n{stderr}"
    );
}

#[test]
fn a_setting_typo_of_a_builtin_plugin_is_one_error_at_its_line() {
    let project = project("\n[plugins.dialogue]\nnmaes = \"title-case\"\n", "");
    assert_one_error_at_the_setting(project.path(), "nmaes", "unknown key `nmaes`", "names");
}

#[test]
fn a_setting_typo_of_a_library_plugin_is_one_error_at_its_line() {
    // The example plugin checks its settings in `configure`: before that
    // hook, `wrod` was never looked at and the book was built without it.
    let project = project("\n[plugins.example]\nword = \"Text\"\nwrod = \"x\"\n", "");
    assert_one_error_at_the_setting(project.path(), "wrod", "unknown field `wrod`", "word");
}

#[test]
fn errors_after_a_source_rewrite_name_the_authors_lines() {
    // The example's `source` hook puts the notice (here an image that does
    // not exist) and a blank line above every post's first line.
    let project = project(
        "\n[plugins.example]\nword = \"Text\"\nnotice = \"![gone](gone.png)\"\n",
        "\nA broken image: ![nope](nope.png)\n",
    );
    let post = "books/posts/one/en.md";
    let image = line_of(project.path(), post, "nope.png");
    let first = line_of(project.path(), post, "Some Text here.") - 1;
    let (out, stderr) = build(project.path());
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    // Two lines lower in what was parsed; the author's line in the message.
    assert!(
        stderr.contains(&format!("{post}:{image}:"))
            && stderr.contains("`nope.png` does not exist"),
        "{stderr}"
    );
    // The plugin's own line: at the author's line it was put before, saying so.
    let added = stderr
        .lines()
        .find(|l| l.contains("`gone.png` does not exist") && l.contains(post))
        .unwrap_or_else(|| panic!("{stderr}"));
    assert!(
        added.contains(&format!("{post}:{first}:1:")) && added.contains("`source` hook added"),
        "{added}"
    );
}

#[test]
fn a_setting_typo_of_an_isolated_plugin_is_one_error_at_its_line() {
    let project = project(
        "\n[plugins.example]\nisolate = true\nword = \"Text\"\nwrod = \"x\"\n",
        "",
    );
    assert_one_error_at_the_setting(project.path(), "wrod", "unknown field `wrod`", "word");
}

#[test]
fn a_source_rewrite_reaches_every_edition_in_process_and_isolated() {
    for isolate in ["", "isolate = true\n"] {
        source_rewrite_reaches_every_edition(isolate);
    }
}

fn source_rewrite_reaches_every_edition(isolate: &str) {
    let project = project(
        &format!("\n[plugins.example]\n{isolate}word = \"Text\"\nnotice = \"A draft.\"\n"),
        "",
    );
    let (out, stderr) = build(project.path());
    assert!(out.status.success(), "{isolate}: {stderr}");
    for lang in ["en", "pt-BR"] {
        let epub = project.path().join(format!("dist/mini/mini-{lang}.epub"));
        let page = zip_entry(&epub, "OEBPS/two.xhtml");
        assert!(
            page.contains("<blockquote>") && page.contains("A draft."),
            "{lang}: {page}"
        );
        // Parsed like the author's text, then transformed: the word is marked.
        assert!(
            page.contains("<span class=\"highlight\">Text</span>"),
            "{lang}"
        );
    }
}
