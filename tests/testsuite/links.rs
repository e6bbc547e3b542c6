//! Links as real posts write them: a link with no address (`[text]()`)
//! is its text with a warning at its place, and the PDF is still made
//! (Typst refuses an empty URL: the whole edition's PDF was lost for one
//! link); a scheme-less web address (`www.site.com/x`) is an https link,
//! not a file the EPUB lacks; a relative link that names no post (`[GitHub](github)`,
//! a typo for `[GitHub][github]`) keeps its words, with a warning that says so.

use crate::prelude::*;
use std::path::PathBuf;

/// A book made by `stoa new` whose post ends with `more`.
fn new_book(more: &str) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let out = stoa(tmp.path(), &["new", "b", "--lang", "en"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let root = tmp.path().join("b");
    let post = root.join("books/posts/welcome/en.md");
    let mut text = std::fs::read_to_string(&post).unwrap();
    text.push_str(more);
    std::fs::write(&post, text).unwrap();
    (tmp, root)
}

#[test]
fn an_empty_link_and_a_bare_www_address_make_good_books() {
    let (_tmp, root) = new_book(
        "\nSee [the docs]() and [the site](www.example.com/x).\n\
         \nOn [GitHub](github), and [slides](talk/slides.pdf).\n\n[github]: https://github.com\n",
    );
    let line = line_of(&root, "books/posts/welcome/en.md", "[the docs]()");

    let out = stoa(&root, &["build", "--no-site", "-f", "epub", "-f", "pdf"]);
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    assert!(
        printed.contains(&format!(
            "books/posts/welcome/en.md:{line}:5: warning: a link with no address"
        )),
        "{printed}"
    );
    let line = line_of(&root, "books/posts/welcome/en.md", "[GitHub](github)");
    for (col, target) in [(4, "github"), (26, "talk/slides.pdf")] {
        assert!(
            printed.contains(&format!(
                "books/posts/welcome/en.md:{line}:{col}: warning: the link to `{target}` leads to no web address and no post"
            )),
            "{printed}"
        );
    }
    let epub = root.join("dist/b/b-en.epub");
    assert!(root.join("dist/b/b-en.pdf").is_file(), "{printed}");
    let page = zip_entry(&epub, "OEBPS/welcome.xhtml");
    assert!(page.contains("See the docs and"), "{page}");
    assert!(
        page.contains(r#"href="https://www.example.com/x""#),
        "{page}"
    );
    assert!(
        markup_text(&page).contains("On GitHub, and slides.")
            && !page.contains("href=\"github\"")
            && !page.contains("slides.pdf"),
        "{page}"
    );
    let found = epubcheck(&[epub]);
    assert!(found.is_empty(), "EPUBCheck: {found:?}");
}

/// A link to an id the edition does not have (`#introdution` for the
/// heading `#introduction`) prints its words, and is a warning at its line
/// that names the id most likely meant.
#[test]
fn a_link_to_no_id_is_a_warning_at_its_line_with_the_nearest_id() {
    let (_tmp, root) = new_book(
        "\n## Introduction\n\nSee [the intro](#introdution), and [back](#introduction).\n",
    );
    let line = line_of(&root, "books/posts/welcome/en.md", "[the intro]");
    let out = stoa(&root, &["build", "--no-site", "-f", "epub", "--verbose"]);
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    assert!(
        printed.contains(&format!(
            "books/posts/welcome/en.md:{line}:17: warning: the link to `#introdution` leads to nothing in this edition"
        )),
        "{printed}"
    );
    assert!(
        printed.contains("did you mean `#introduction`?"),
        "{printed}"
    );
    assert_eq!(printed.matches("leads to nothing").count(), 1, "{printed}");
    let page = zip_entry(&root.join("dist/b/b-en.epub"), "OEBPS/welcome.xhtml");
    assert!(
        markup_text(&page).contains("See the intro, and back."),
        "{page}"
    );
    assert!(page.contains("href=\"#introduction\""), "{page}");
}
