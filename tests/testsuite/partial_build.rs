//! A partial build (`stoa build -b one-book`) keeps the download page and the
//! OPDS catalogs whole: they list every edition whose files are in the output
//! folder, and drop an edition whose book is gone.

use crate::prelude::*;
use std::path::Path;

fn build(project: &Path, extra: &[&str]) {
    let mut args = vec!["build", "-f", "epub"];
    args.extend_from_slice(extra);
    let out = stoa(project, &args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(project: &Path, file: &str) -> String {
    std::fs::read_to_string(project.join("dist").join(file)).unwrap()
}

#[test]
fn a_partial_build_lists_every_edition_and_forgets_gone_books() {
    let project = torture_project();
    let books = project.path().join("books");
    // A second book: the same posts, another folder and identifier.
    copy_dir(&books.join("torture"), &books.join("second"));
    let toml = books.join("second/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("000000000001", "000000000002")).unwrap();

    build(project.path(), &[]);
    build(project.path(), &["-b", "second"]);
    for file in ["index.html", "opds.xml", "opds-en.xml"] {
        let text = read(project.path(), file);
        for epub in ["torture/torture-en.epub", "second/second-en.epub"] {
            assert!(text.contains(epub), "{epub} not in {file} after -b second");
        }
    }

    // The book is gone: its edition leaves the page at the next build,
    // although its files are still in dist/.
    std::fs::remove_dir_all(books.join("second")).unwrap();
    build(project.path(), &["-b", "torture"]);
    for file in ["index.html", "opds.xml", "opds-en.xml"] {
        let text = read(project.path(), file);
        assert!(text.contains("torture/torture-en.epub"), "{file}");
        assert!(
            !text.contains("second/second-en.epub"),
            "{file} lists a gone book"
        );
    }
}

/// The download page shows the PDF's page count and the contents, and
/// keeps the count when a later build makes only the other formats.
#[test]
fn the_page_count_and_contents_survive_a_partial_build() {
    let project = torture_project();
    let out = stoa(project.path(), &["build", "-f", "pdf", "-f", "epub"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let pdf = project.path().join("dist/torture/torture-en.pdf");
    let pages = format!("{} pages", pdf_page_count(&pdf));
    let page = read(project.path(), "index.html");
    assert!(page.contains(&pages), "{pages} not on the page");
    assert!(page.contains("<details class=\"contents\">"));
    assert!(
        page.contains("<li>Raw HTML: List&lt;String&gt; &amp; &lt;br&gt;</li>"),
        "the contents, escaped"
    );
    assert!(page.contains("<details class=\"sums\">"));
    // The sharper cover is written and offered to high-density screens.
    assert!(
        project
            .path()
            .join("dist/torture/torture-en-cover-2x.png")
            .is_file()
    );
    assert!(page.contains("torture/torture-en-cover-2x.png 2x\""));

    // Only the EPUB again: the PDF on disk and its count stay listed.
    build(project.path(), &[]);
    let page = read(project.path(), "index.html");
    assert!(page.contains(&pages), "{pages} lost after -f epub");

    // No PDF any more: no page count either.
    std::fs::remove_file(&pdf).unwrap();
    build(project.path(), &[]);
    let page = read(project.path(), "index.html");
    assert!(!page.contains(" pages</span>"), "a count without a PDF");
}
