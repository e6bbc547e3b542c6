//! Covers (issue 17): each book gets its own, derived from its identifier
//! unless book.toml's `[cover]` chooses; every language of a book gets the
//! same one; rebuilds draw the same bytes. One EPUB build of the real books
//! plus the fixture books in tests/fixtures/v1/covers (and a rebuild of
//! three of them) serves every test.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The output folders of two identical builds and of the PDF.
struct Built {
    dist: PathBuf,
    again: PathBuf,
    own: PathBuf,
}

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| {
        let project = kept_until_exit(project_from(&repo_root().join("books")));
        copy_dir(&fixture("covers/books"), &project.join("books"));
        // The rebuild skips the collection, the largest book: the other
        // three draw the three designs.
        let again = ["-b", "dialogues", "-b", "plain", "-b", "set"];
        // The PDF of the book with the author's image, to see it there.
        let own = ["-b", "own", "-l", "en", "-f", "pdf", "--no-site"];
        for (out, only) in [("dist", &[][..]), ("again", &again[..]), ("own", &own[..])] {
            let mut args = vec!["build", "-q", "-o", out];
            if out != "own" {
                args.extend(["-f", "epub"]);
            }
            args.extend(only);
            let result = stoa(&project, &args);
            assert!(
                result.status.success(),
                "stoa build failed:\n{}",
                String::from_utf8_lossy(&result.stderr)
            );
        }
        Built {
            dist: project.join("dist"),
            again: project.join("again"),
            own: project.join("own"),
        }
    })
}

/// The cover the download page shows for `book` in `lang`, as drawn.
fn cover(dist: &Path, book: &str, lang: &str) -> Vec<u8> {
    let path = dist.join(book).join(format!("{book}-{lang}-cover.png"));
    let png = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(png.starts_with(b"\x89PNG"), "{}", path.display());
    png
}

#[test]
fn two_books_without_settings_have_different_covers() {
    // `plain` and `other` differ only in their identifiers: same words on
    // the cover, so equal pictures would mean one cover for every book.
    let dist = &built().dist;
    for lang in ["en", "pt-BR"] {
        assert_ne!(
            cover(dist, "plain", lang),
            cover(dist, "other", lang),
            "{lang}"
        );
        assert_ne!(
            cover(dist, "collection", lang),
            cover(dist, "dialogues", lang),
            "{lang}"
        );
    }
    // The real books, which set nothing, differ in design and colour too,
    // not only in their titles.
    let [collection, dialogues] = ["collection", "dialogues"].map(|b| {
        let config = stoa_book::load_config(&repo_root().join("books").join(b)).unwrap();
        config.print.cover
    });
    assert_ne!(collection.design, dialogues.design);
    assert_ne!(collection.colour, dialogues.colour);
}

#[test]
fn every_language_of_a_book_gets_the_same_cover() {
    // `plain` has the same title in both languages: the pictures are equal.
    let dist = &built().dist;
    assert_eq!(cover(dist, "plain", "en"), cover(dist, "plain", "pt-BR"));
    assert_eq!(cover(dist, "set", "en"), cover(dist, "set", "pt-BR"));
}

#[test]
fn a_cover_table_changes_the_cover() {
    let fixture_books = fixture("covers/books");
    let plain = stoa_book::load_config(&fixture_books.join("plain")).unwrap();
    let set = stoa_book::load_config(&fixture_books.join("set")).unwrap();
    assert_eq!(plain.identifier, set.identifier, "only [cover] differs");
    let (p, s) = (&plain.print.cover, &set.print.cover);
    assert!(
        p.design != s.design && p.colour != s.colour && p.ornament != s.ornament,
        "{p:?} {s:?}"
    );
    let dist = &built().dist;
    assert_ne!(cover(dist, "plain", "en"), cover(dist, "set", "en"));
}

#[test]
fn covers_are_byte_identical_across_builds() {
    let b = built();
    for book in ["dialogues", "plain", "set"] {
        for lang in ["en", "pt-BR"] {
            assert!(
                cover(&b.dist, book, lang) == cover(&b.again, book, lang),
                "{book} {lang}"
            );
            let epub = format!("{book}/{book}-{lang}.epub");
            assert!(
                std::fs::read(b.dist.join(&epub)).unwrap()
                    == std::fs::read(b.again.join(&epub)).unwrap(),
                "{epub}"
            );
        }
    }
}

#[test]
fn the_authors_image_is_the_cover_as_is() {
    let b = built();
    assert_ne!(cover(&b.dist, "own", "en"), cover(&b.dist, "plain", "en"));
    assert_eq!(cover(&b.dist, "own", "en"), cover(&b.dist, "own", "pt-BR"));
    // The PDF's first page holds the very image, at its own 140 × 210
    // pixels, and nothing drawn from the design.
    let pdf = b.own.join("own/own-en.pdf");
    let list = tool("pdfimages", &["-list", "-f", "1", "-l", "1"], &pdf);
    let images: Vec<Vec<&str>> = list
        .lines()
        .skip(2)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(images.len(), 1, "{list}");
    assert_eq!((images[0][3], images[0][4]), ("140", "210"), "{list}");
    assert_eq!(
        pdftotext(&pdf, &["-f", "1", "-l", "1"]).trim(),
        "",
        "no title drawn over it"
    );
}
