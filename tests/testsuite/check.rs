//! `stoa check`: what a build validates, without writing anything, and the
//! content lints, with file:line, silences with reasons, a sorted output and
//! an exit status that fails on findings unless `--warn`.

use crate::prelude::*;
use std::path::Path;
use std::process::Output;

/// A project with one book of one English post whose body is `body` and
/// whose front matter ends with `front`.
fn project(front: &str, body: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let books = dir.path().join("books");
    std::fs::create_dir_all(books.join("mini")).unwrap();
    std::fs::create_dir_all(books.join("posts/first")).unwrap();
    std::fs::write(
        books.join("mini/book.toml"),
        "author = \"A. Author\"\nlanguages = [\"en\"]\n\
         identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-0000000000c1\"\n\
         date = 2024-05-31\nposts = [\"first\"]\n\n[title]\nen = \"Mini\"\n",
    )
    .unwrap();
    std::fs::write(
        books.join("posts/first/en.md"),
        format!("+++\ntitle = \"First\"\n{front}+++\n\n{body}"),
    )
    .unwrap();
    copy_dir(&repo_root().join("themes"), &dir.path().join("themes"));
    dir
}

fn check(project: &Path, extra: &[&str]) -> (Output, String) {
    let mut args = vec!["check"];
    args.extend_from_slice(extra);
    let out = stoa(project, &args);
    let text = output_text(&out);
    assert!(!text.contains("panicked"), "{text}");
    (out, text)
}

const CLEAN: &str = "A paragraph of the book.\n\n## A section\n\nIts text.\n";
const FLAWED: &str =
    "Use the PT | EN switch at the top of the page.\n\nRead these:\n\n## Next\n\nText.\n";

#[test]
fn a_clean_book_passes_and_nothing_is_written() {
    let project = project("", CLEAN);
    // Without --quick: every format is rendered in memory too.
    let (out, text) = check(project.path(), &[]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("0 errors, 0 lint findings"), "{text}");
    assert!(!project.path().join("dist").exists(), "check wrote dist/");
}

#[test]
fn findings_have_file_line_and_lint_and_fail_unless_warn() {
    let project = project("", FLAWED);
    let (out, text) = check(project.path(), &["--quick"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = stdout
        .lines()
        .filter(|l| !l.starts_with("  help:"))
        .collect();
    assert_eq!(
        lines,
        [
            "books/posts/first/en.md:5:9: warning[web-only]: a language switch (`XX | YY`) speaks of a web page, which a book's reader does not have",
            "books/posts/first/en.md:5:24: warning[web-only]: “at the top of the page” speaks of a web page, which a book's reader does not have",
            "books/posts/first/en.md:7:11: warning[dangling-lead-in]: this paragraph ends in `:` but introduces nothing: a heading follows",
        ],
        "{text}"
    );
    // The same books, the same output.
    let (again, _) = check(project.path(), &["--quick"]);
    assert_eq!(out.stdout, again.stdout);
    let (out, text) = check(project.path(), &["--quick", "--warn"]);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("3 lint findings"), "{text}");
}

#[test]
fn a_silence_needs_a_reason_and_a_finding() {
    let reasoned = "[lint.allow]\nweb-only = \"the author speaks to the blog's readers\"\n\
                    dangling-lead-in = \"kept as written\"\n";
    let (out, text) = check(project(reasoned, FLAWED).path(), &["--quick"]);
    assert!(out.status.success(), "{text}");

    let bare = "[lint.allow]\nweb-only = \"\"\n";
    let (out, text) = check(project(bare, CLEAN).path(), &["--quick"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("warning[silence]: `web-only` is silenced without a reason"),
        "{text}"
    );

    let stale = "[lint.allow]\nweb-only = \"a reason\"\n";
    let (out, text) = check(project(stale, CLEAN).path(), &["--quick"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("finds nothing"), "{text}");
}

#[test]
fn what_a_build_refuses_check_refuses_once() {
    let project = project("", CLEAN);
    let toml = project.path().join("books/mini/book.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str("\n[plugins.footnotes]\nmdoe = \"endnotes\"\n");
    std::fs::write(&toml, text).unwrap();
    let (out, text) = check(project.path(), &["--quick"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("books/mini/book.toml:11:1: error:"), "{text}");
    assert_eq!(text.matches("unknown key `mdoe`").count(), 1, "{text}");
    assert!(text.contains("did you mean `mode`?"), "{text}");
    assert!(text.contains("1 error"), "{text}");
    assert!(!project.path().join("dist").exists(), "check wrote dist/");
}
