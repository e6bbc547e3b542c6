//! Two defects of the PDF (and the EPUB) found by issue 19: the PDF's
//! creation date ignored SOURCE_DATE_EPOCH, and in notes-chapter mode a
//! note that cites another note could link to nothing
//! (tests/fixtures/v1/notes-cite).

use crate::prelude::*;
use std::path::Path;
use std::process::Command;

/// `pdfinfo -isodates` of `pdf`, as text.
fn pdfinfo(pdf: &Path) -> String {
    tool("pdfinfo", &["-isodates"], pdf)
}

fn creation_date(info: &str) -> String {
    info.lines()
        .find_map(|l| l.strip_prefix("CreationDate:"))
        .unwrap_or("")
        .trim()
        .to_owned()
}

#[test]
fn the_pdf_is_dated_by_source_date_epoch_else_by_the_book() {
    let project = project_from(&fixture("notes-cite/books"));
    let build = |epoch: Option<&str>, out: &str| {
        let mut command = Command::new(stoa_bin());
        command
            .args(["build", "-q", "--no-site", "-f", "pdf", "-o", out])
            .current_dir(project.path())
            .env_remove("SOURCE_DATE_EPOCH");
        if let Some(epoch) = epoch {
            command.env("SOURCE_DATE_EPOCH", epoch);
        }
        let output = command.output().expect("stoa runs");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        project
            .path()
            .join(out)
            .join("notes-cite/notes-cite-en.pdf")
    };
    // 2024-06-01T12:34:56Z; the book's date is 2024-05-31.
    let dated = build(Some("1717245296"), "with-epoch");
    let date = creation_date(&pdfinfo(&dated));
    assert!(
        date.starts_with("2024-06-01T12:34:56"),
        "CreationDate `{date}` is not SOURCE_DATE_EPOCH"
    );
    let plain = build(None, "without");
    let date = creation_date(&pdfinfo(&plain));
    assert!(
        date.starts_with("2024-05-31"),
        "CreationDate `{date}` is not the book's date"
    );
    // The same input gives the same bytes.
    let again = build(Some("1717245296"), "again");
    assert_eq!(
        std::fs::read(&dated).unwrap(),
        std::fs::read(&again).unwrap()
    );
}

/// Every `href` with a fragment in the EPUB's documents names an id that
/// the file it points to has.
fn epub_links_resolve(epub: &Path) {
    let docs: Vec<String> = zip_names(epub)
        .into_iter()
        .filter(|n| n.ends_with(".xhtml"))
        .collect();
    let ids = |name: &str| attr_values(&zip_entry(epub, name), " id=\"");
    for doc in &docs {
        let text = zip_entry(epub, doc);
        for href in attr_values(&text, "href=\"") {
            let Some((file, id)) = href.split_once('#') else {
                continue;
            };
            let target = if file.is_empty() {
                doc.clone()
            } else {
                format!("OEBPS/{file}")
            };
            assert!(
                ids(&target).iter().any(|i| i == id),
                "{doc}: `{href}` leads nowhere"
            );
        }
    }
}

#[test]
fn notes_citing_notes_resolve_in_the_notes_chapter() {
    let project = project_from(&fixture("notes-cite/books"));
    // A link to an unknown label is a Typst error: the PDF would not build.
    let out = stoa(project.path(), &["build", "-q", "--no-site", "-o", "dist"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dist = project.path().join("dist/notes-cite");
    let epub = dist.join("notes-cite-en.epub");
    epub_links_resolve(&epub);
    let failures = epubcheck(std::slice::from_ref(&epub));
    assert!(failures.is_empty(), "{failures:?}");
    // Every note is printed in the notes chapter of the PDF, after the
    // text of the last post.
    let text = pdftotext(&dist.join("notes-cite-en.pdf"), &[]);
    let notes_at = text
        .find("A quote with a note")
        .expect("the last post's text");
    for note in [
        "NOTE-A",
        "NOTE-B",
        "NOTE-C",
        "NOTE-X",
        "NOTE-Y",
        "NOTE-H",
        "NOTE-N",
        "NOTE-INNER",
        "NOTE-Q",
        "NOTE-Z",
    ] {
        assert!(
            text[notes_at..].contains(note),
            "{note} is missing from the notes chapter"
        );
    }
}
