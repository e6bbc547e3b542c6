//! Configuration errors as an author should meet them: each once, at its
//! line in book.toml, with a "did you mean" for a name that is nearly right;
//! an edition with no posts is an error, not an empty book.

use crate::prelude::*;
use std::path::Path;
use std::process::Output;

fn append(project: &Path, file: &str, text: &str) {
    let path = project.join(file);
    let mut old = std::fs::read_to_string(&path).unwrap();
    old.push_str(text);
    std::fs::write(path, old).unwrap();
}

const BOOK: &str = "books/torture/book.toml";

fn build(project: &Path, extra: &[&str]) -> (Output, String) {
    let mut args = vec!["build", "--no-site", "-f", "epub"];
    args.extend_from_slice(extra);
    let out = stoa(project, &args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "{stderr}");
    (out, stderr)
}

#[test]
fn a_plugin_setting_typo_is_one_error_at_its_line_with_a_suggestion() {
    let project = torture_project();
    append(
        project.path(),
        BOOK,
        "\n[plugins.glossary]\nfirst-use = \"link\"\nheadng = \"Words\"\n",
    );
    let line = line_of(project.path(), BOOK, "headng");
    let (out, stderr) = build(project.path(), &[]);
    assert_fails_with(
        &out,
        &[&format!("books/torture/book.toml:{line}:1: error:")],
    );
    // Nine posts ran into it; it is said once.
    assert_eq!(
        stderr.matches("unknown field `headng`").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("did you mean `headings`?"), "{stderr}");
    assert!(
        !stderr.contains("books/posts/"),
        "pinned to a post:\n{stderr}"
    );
}

#[test]
fn a_misspelt_post_slug_is_one_error_with_a_suggestion() {
    let project = torture_project();
    // Two languages: the missing post is met by both editions.
    edit(
        project.path(),
        BOOK,
        "languages = [\"en\"]",
        "languages = [\"en\", \"pt-BR\"]",
    );
    edit(
        project.path(),
        BOOK,
        "[title]\n",
        "[title]\npt-BR = \"Tortura\"\n",
    );
    edit(
        project.path(),
        BOOK,
        "\"long-paragraph\"",
        "\"long-paragraf\"",
    );
    let line = line_of(project.path(), BOOK, "long-paragraf");
    let (out, stderr) = build(project.path(), &[]);
    assert_fails_with(
        &out,
        &[
            &format!(
                "books/torture/book.toml:{line}:1: error: the book lists post `long-paragraf`"
            ),
            "did you mean `long-paragraph`?",
        ],
    );
    assert_eq!(
        stderr.matches("lists post `long-paragraf`").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn unknown_names_get_a_suggestion() {
    // An unknown key of book.toml.
    let project = torture_project();
    edit(
        project.path(),
        BOOK,
        "date = ",
        "theem = \"classic\"\ndate = ",
    );
    let (out, _) = build(project.path(), &[]);
    assert_fails_with(&out, &["unknown field `theem`", "did you mean `theme`?"]);

    // A theme.
    let project = torture_project();
    edit(
        project.path(),
        BOOK,
        "date = ",
        "theme = \"clasic\"\ndate = ",
    );
    let (out, _) = build(project.path(), &[]);
    assert_fails_with(&out, &["the theme `clasic`", "did you mean `classic`?"]);

    // A plugin.
    let project = torture_project();
    append(project.path(), BOOK, "\n[plugins.glosary]\n");
    let (out, _) = build(project.path(), &[]);
    assert_fails_with(&out, &["`glosary`", "did you mean `glossary`?"]);

    // A book and a language on the command line.
    let project = torture_project();
    let (out, _) = build(project.path(), &["-b", "tortur"]);
    assert_fails_with(&out, &["no book `tortur`", "did you mean `torture`?"]);
    let (out, _) = build(project.path(), &["-l", "em"]);
    assert_fails_with(&out, &["written in `em`", "did you mean `en`?"]);
}

#[test]
fn names_far_from_any_get_no_suggestion() {
    let project = torture_project();
    let (out, stderr) = build(project.path(), &["-b", "zzzzzz"]);
    assert_fails_with(&out, &["no book `zzzzzz`"]);
    assert!(!stderr.contains("did you mean"), "{stderr}");
}

#[test]
fn an_edition_with_no_posts_is_an_error_at_its_language() {
    let project = torture_project();
    // No post of the torture book is written in German.
    edit(
        project.path(),
        BOOK,
        "languages = [\"en\"]",
        "languages = [\"en\", \"de\"]",
    );
    edit(
        project.path(),
        BOOK,
        "[title]\n",
        "[title]\nde = \"Folter\"\n",
    );
    let line = line_of(project.path(), BOOK, "languages =");
    let column = std::fs::read_to_string(project.path().join(BOOK))
        .unwrap()
        .lines()
        .nth(line - 1)
        .unwrap()
        .find("\"de\"")
        .unwrap()
        + 1;
    let (out, stderr) = build(project.path(), &[]);
    assert_fails_with(
        &out,
        &[&format!(
            "books/torture/book.toml:{line}:{column}: error: the de edition has no posts"
        )],
    );
    // The English edition is still built; no empty German one is.
    let dist = project.path().join("dist/torture");
    assert!(dist.join("torture-en.epub").is_file(), "{stderr}");
    assert!(!dist.join("torture-de.epub").exists());
}
