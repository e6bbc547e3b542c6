//! Note calls stand after punctuation in English, and as written when
//! book.toml says `[notes] call = "as-written"`, in the EPUB, the web
//! edition and the PDF alike. One build of two small books.

use crate::prelude::*;
use std::path::Path;

/// Builds the notes fixture's plain book twice: as it is (English usage)
/// and with `[notes] call = "as-written"`.
fn build() -> tempfile::TempDir {
    let project = project_from(&fixture("notes-agree/books"));
    let books = project.path().join("books");
    copy_dir(&books.join("plain"), &books.join("written"));
    let toml = books.join("written/book.toml");
    let text = std::fs::read_to_string(&toml)
        .unwrap()
        .replace("000000000010", "000000000099");
    std::fs::write(&toml, format!("{text}\n[notes]\ncall = \"as-written\"\n")).unwrap();
    let out = stoa(
        project.path(),
        &["build", "--no-site", "-b", "plain", "-b", "written"],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    project
}

fn pdf_text(pdf: &Path) -> String {
    pdftotext(pdf, &[]).replace('\n', " ")
}

#[test]
fn english_calls_follow_the_comma_unless_the_book_says_as_written() {
    let project = build();
    let dist = project.path().join("dist");
    for (book, after) in [("plain", true), ("written", false)] {
        let epub = zip_entry(
            &dist.join(format!("{book}/{book}-en.epub")),
            "OEBPS/cases.xhtml",
        );
        let html = std::fs::read_to_string(dist.join(format!("{book}/en/cases.html"))).unwrap();
        let pdf = pdf_text(&dist.join(format!("{book}/{book}-en.pdf")));
        // "the same note again[^plain], and": the comma moves before the call.
        for (format, text, moved, kept) in [
            ("EPUB", &epub, "again,<sup>", "again<sup>"),
            ("HTML", &html, "again,<sup>", "again<sup>"),
            ("PDF", &pdf, "again,1", "again1,"),
        ] {
            let (want, not) = if after { (moved, kept) } else { (kept, moved) };
            assert!(text.contains(want), "{book} {format}: no `{want}`");
            assert!(!text.contains(not), "{book} {format}: `{not}`");
        }
    }
}
