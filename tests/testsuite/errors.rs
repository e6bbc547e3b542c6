//! Bad input gets a clear error naming the file, the line and the column,
//! a non-zero exit status, no panic, and no artifact.

use crate::prelude::*;
use std::path::Path;

/// Breaks the torture project with `mutate`, builds, and checks that the
/// build fails with every `expected` fragment in its error output.
fn fails_with(mutate: impl FnOnce(&Path), expected: &[&str]) {
    let project = torture_project();
    mutate(project.path());
    let out = stoa(project.path(), &["build", "--format", "epub"]);
    crate::prelude::assert_fails_with(&out, expected);
}

fn write(project: &Path, file: &str, text: &[u8]) {
    std::fs::write(project.join(file), text).unwrap();
}

#[test]
fn malformed_front_matter() {
    fails_with(
        |p| {
            write(
                p,
                "books/posts/empty/en.md",
                b"+++\ntitle = \"unclosed\n+++\n",
            )
        },
        &["books/posts/empty/en.md:2:", "error:"],
    );
}

#[test]
fn front_matter_never_closed() {
    fails_with(
        |p| write(p, "books/posts/empty/en.md", b"+++\ntitle = \"x\"\n"),
        &["books/posts/empty/en.md:1:1: error: the front matter is never closed"],
    );
}

#[test]
fn missing_title() {
    fails_with(
        |p| write(p, "books/posts/empty/en.md", b"+++\ntags = [\"a\"]\n+++\n"),
        &["books/posts/empty/en.md:", "missing field `title`"],
    );
}

#[test]
fn unknown_front_matter_key() {
    fails_with(
        |p| {
            write(
                p,
                "books/posts/empty/en.md",
                b"+++\ntitle = \"t\"\nauthr = \"me\"\n+++\n",
            )
        },
        &["books/posts/empty/en.md:3:1: error: unknown field `authr`"],
    );
}

#[test]
fn unknown_book_key() {
    fails_with(
        |p| {
            edit(
                p,
                "books/torture/book.toml",
                "posts = [",
                "colour = \"red\"\nposts = [",
            )
        },
        &["books/torture/book.toml:7:1: error: unknown field `colour`"],
    );
}

#[test]
fn language_tag_in_the_wrong_case() {
    // A language stoa has no words for builds (tests/testsuite/languages.rs);
    // a tag not written as BCP 47 writes it is an error that gives the fix.
    fails_with(
        |p| {
            edit(
                p,
                "books/torture/book.toml",
                "languages = [\"en\"]",
                "languages = [\"en\", \"en-gb\"]",
            );
            edit(
                p,
                "books/torture/book.toml",
                "[title]\n",
                "[title]\nen-gb = \"Title\"\n",
            );
        },
        &[
            "books/torture/book.toml:4:20: error: `en-gb` is not a language tag as BCP 47 writes it: write `en-GB`",
        ],
    );
}

#[test]
fn malformed_language_tag() {
    fails_with(
        |p| {
            edit(
                p,
                "books/torture/book.toml",
                "languages = [\"en\"]",
                "languages = [\"en_US\"]",
            )
        },
        &["book.toml:4:", "`en_US` is not a language tag"],
    );
}

#[test]
fn a_listed_post_that_does_not_exist() {
    fails_with(
        |p| {
            edit(
                p,
                "books/torture/book.toml",
                "  \"image\",\n",
                "  \"image\",\n  \"no-such-post\",\n",
            )
        },
        &["books/torture/book.toml:17:1: error: the book lists post `no-such-post`"],
    );
}

/// A post folder that is there but cannot be read is not reported as
/// missing: the error gives the system's reason. (A link to itself: a
/// permission error cannot be made when the tests run as root.)
#[cfg(unix)]
#[test]
fn a_post_folder_that_cannot_be_read_says_why() {
    fails_with(
        |p| {
            edit(
                p,
                "books/torture/book.toml",
                "  \"image\",\n",
                "  \"image\",\n  \"looped\",\n",
            );
            let looped = p.join("books/posts/looped");
            std::os::unix::fs::symlink(&looped, &looped).unwrap();
        },
        &[
            "books/torture/book.toml:17:1: error: cannot read",
            "(post `looped`): Too many levels of symbolic links",
        ],
    );
}

#[test]
fn two_posts_with_the_same_slug() {
    fails_with(
        |p| {
            edit(
                p,
                "books/torture/book.toml",
                "  \"image\",\n",
                "  \"image\",\n  \"empty\",\n",
            )
        },
        &["books/torture/book.toml:17:3: error: post `empty` is listed twice (first on line 12)"],
    );
}

#[test]
fn invalid_utf8() {
    fails_with(
        |p| {
            write(
                p,
                "books/posts/empty/en.md",
                b"+++\ntitle = \"caf\xe9\"\n+++\n",
            )
        },
        &["books/posts/empty/en.md:2:13: error: the file is not valid UTF-8"],
    );
}

#[test]
fn an_image_that_does_not_exist() {
    fails_with(
        |p| {
            edit(
                p,
                "books/posts/image/en.md",
                "square.png \"Orange\"",
                "missing.png \"Orange\"",
            )
        },
        &["books/posts/image/en.md:7:1: error: the image `missing.png` does not exist"],
    );
}

#[test]
fn an_image_outside_the_book() {
    fails_with(
        |p| {
            std::fs::write(p.join("outside.png"), b"png").unwrap();
            edit(
                p,
                "books/posts/image/en.md",
                "square.png \"Orange\"",
                "../../../outside.png \"Orange\"",
            );
        },
        &[
            "books/posts/image/en.md:7:1: error: the image `../../../outside.png` is outside the book's folders",
        ],
    );
}

#[test]
fn an_unknown_book_on_the_command_line() {
    let project = torture_project();
    let out = stoa(project.path(), &["build", "--book", "nope"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("there is no book `nope`") && stderr.contains("the books are: torture"),
        "{stderr}"
    );
}

#[test]
fn errors_leave_no_artifact() {
    let project = torture_project();
    write(
        project.path(),
        "books/posts/empty/en.md",
        b"no front matter\n",
    );
    let out = stoa(project.path(), &["build"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        files_below(&project.path().join("dist")).is_empty(),
        "nothing written for a failed edition"
    );
}
