//! The notes plan is made once per edition; this proves that the EPUB, the
//! web edition and the PDF print it alike: for every note, the same number
//! and the same place (the chapter's foot or end, or the notes chapter), in
//! every placement and numbering (tests/fixtures/v1/notes-agree), notes
//! referred to from notes included.

use crate::prelude::*;
use std::collections::BTreeMap;
use std::path::Path;

/// Where a note was found: the file (chapter) that prints it, and how.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    /// An aside after the block that refers to it, or a page's foot.
    Foot(String),
    /// The chapter's endnotes.
    End(String),
    /// The notes chapter.
    NotesChapter,
}

/// marker (`NOTE-PLAIN`) → (number printed, where).
type Seen = BTreeMap<String, (usize, Place)>;

const CHAPTERS: [(&str, &str); 3] = [
    ("cases", "Every case"),
    ("nested", "Notes in notes"),
    ("second", "A second post"),
];

const MARKERS: [&str; 11] = [
    "NOTE-PLAIN",
    "NOTE-LONG",
    "NOTE-INLIST",
    "NOTE-INQUOTE",
    "NOTE-INTABLE",
    "NOTE-OUTER",
    "NOTE-INNER",
    "NOTE-AFTER",
    "NOTE-LAST",
    "NOTE-SECOND-A",
    "NOTE-SECOND-B",
];

fn build() -> tempfile::TempDir {
    let project = project_from(&fixture("notes-agree/books"));
    let out = stoa(project.path(), &["build", "--no-site"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    project
}

/// The notes of a chapter's markup (XHTML or HTML): for each marker, the
/// note element around it (the last `id="…note-N"` before it), its kind
/// (`aside` or `li`) and its number; each reference's printed number must
/// match the id it points to.
fn notes_in_markup(text: &str, chapter: &str, notes_file: bool, seen: &mut Seen) {
    for marker in MARKERS {
        let Some(at) = text
            .find(&format!(">{marker}"))
            .or_else(|| text.find(marker))
        else {
            continue;
        };
        let before = &text[..at];
        // The nearest id before the marker that names a note: `note-N`
        // or `<slug>-note-N`.
        let (id_at, number) = before
            .match_indices("id=\"")
            .filter_map(|(i, _)| {
                let value = before[i + 4..].split('"').next()?;
                let digits = value.rsplit_once("note-")?.1;
                let number = digits.parse::<usize>().ok()?;
                (value == format!("note-{digits}") || value.ends_with(&format!("-note-{digits}")))
                    .then_some((i, number))
            })
            .last()
            .unwrap_or_else(|| panic!("{marker} in {chapter} has no note id"));
        let tag_at = before[..id_at].rfind('<').expect("an element");
        let place = if notes_file {
            Place::NotesChapter
        } else if before[tag_at..].starts_with("<aside") {
            Place::Foot(chapter.to_string())
        } else {
            Place::End(chapter.to_string())
        };
        let previous = seen.insert(marker.to_string(), (number, place));
        assert!(previous.is_none(), "{marker} printed twice");
    }
    for (href_at, _) in text.match_indices("role=\"doc-noteref\"") {
        let open = text[..href_at].rfind("<a").expect("noteref anchor");
        let anchor = &text[open..];
        let href = anchor
            .split("href=\"")
            .nth(1)
            .and_then(|h| h.split('"').next())
            .expect("href");
        let target: String = href
            .rsplit("note-")
            .next()
            .unwrap_or_default()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let shown: String = anchor[anchor.find('>').expect("tag end") + 1..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        assert_eq!(
            shown, target,
            "reference {href} in {chapter} prints {shown}"
        );
    }
}

fn epub_notes(epub: &Path) -> Seen {
    let mut seen = Seen::new();
    for name in zip_names(epub) {
        let Some(stem) = name
            .strip_prefix("OEBPS/")
            .and_then(|n| n.strip_suffix(".xhtml"))
        else {
            continue;
        };
        let text = zip_entry(epub, &name);
        let chapter = CHAPTERS.iter().find(|(slug, _)| *slug == stem);
        let notes_file = text.contains("epub:type=\"endnotes\"") && chapter.is_none();
        if chapter.is_some() || notes_file {
            notes_in_markup(&text, stem, notes_file, &mut seen);
        }
    }
    seen
}

fn html_notes(folder: &Path) -> Seen {
    let mut seen = Seen::new();
    let mut pages: Vec<_> = std::fs::read_dir(folder)
        .expect("web edition folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    for page in pages {
        let stem = page.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&page).expect("page");
        let chapter = CHAPTERS.iter().any(|(slug, _)| *slug == stem);
        let notes_file = !chapter && stem != "index" && text.contains("NOTE-");
        if chapter || notes_file {
            notes_in_markup(&text, &stem, notes_file, &mut seen);
        }
    }
    seen
}

/// The PDF: the number printed just before each marker, and the chapter
/// (from the outline) of the page it is on.
fn pdf_notes(pdf: &Path) -> Seen {
    let pages = pdf_pages(pdf);
    let starts = outline_starts(pdf);
    let mut seen = Seen::new();
    for marker in MARKERS {
        let Some((page, text)) = pages
            .iter()
            .enumerate()
            .find(|(_, text)| text.contains(marker))
        else {
            continue;
        };
        let at = text.find(marker).unwrap();
        let digits: String = text[..at]
            .trim_end_matches([' ', '.', '\u{a0}'])
            .chars()
            .rev()
            .take_while(char::is_ascii_digit)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let number = digits
            .parse()
            .unwrap_or_else(|_| panic!("no number before {marker}: {text}"));
        let chapter = starts
            .iter()
            .rfind(|(start, _)| *start <= page + 1)
            .map(|(_, title)| title.clone())
            .unwrap_or_default();
        let slug = CHAPTERS
            .iter()
            .find(|(_, t)| *t == chapter)
            .map(|(s, _)| *s);
        let place = match slug {
            Some(slug) if text.contains("Notes\n") && !is_foot(text, marker) => {
                Place::End(slug.to_string())
            }
            Some(slug) => Place::Foot(slug.to_string()),
            None => Place::NotesChapter,
        };
        seen.insert(marker.to_string(), (number, place));
    }
    seen
}

/// Whether the marker sits in the page's foot: nothing of the text below it.
fn is_foot(text: &str, marker: &str) -> bool {
    let notes_heading = text.find("Notes\n");
    notes_heading.is_none_or(|h| text.find(marker).is_some_and(|m| m < h))
}

/// (first page, title) of every top-level outline entry, in order.
fn outline_starts(pdf: &Path) -> Vec<(usize, String)> {
    let json = tool("qpdf", &["--json", "--json-key=outlines"], pdf);
    let json: serde_json::Value = serde_json::from_str(&json).expect("qpdf json");
    json["outlines"]
        .as_array()
        .expect("outlines")
        .iter()
        .filter_map(|o| {
            let page = o["destpageposfrom1"].as_u64()? as usize;
            Some((page, o["title"].as_str()?.to_string()))
        })
        .collect()
}

#[test]
fn every_renderer_numbers_and_places_notes_alike() {
    let project = build();
    let dist = project.path().join("dist");
    let books = [
        "plain",
        "endnotes-per-post",
        "endnotes-continuous",
        "footnotes-per-post",
        "footnotes-continuous",
        "notes-chapter-per-post",
        "notes-chapter-continuous",
    ];
    for book in books {
        let epub = epub_notes(&dist.join(format!("{book}/{book}-en.epub")));
        let html = html_notes(&dist.join(format!("{book}/en")));
        let pdf = pdf_notes(&dist.join(format!("{book}/{book}-en.pdf")));
        assert_eq!(
            epub.len(),
            MARKERS.len(),
            "{book}: every note in the EPUB: {epub:#?}"
        );
        assert_eq!(html, epub, "{book}: the web edition and the EPUB differ");
        let numbers = |seen: &Seen| -> Vec<(String, usize)> {
            seen.iter().map(|(m, (n, _))| (m.clone(), *n)).collect()
        };
        assert_eq!(
            numbers(&pdf),
            numbers(&epub),
            "{book}: the PDF's numbers differ"
        );
        let chapter_of = |place: &Place| match place {
            Place::Foot(c) | Place::End(c) => c.clone(),
            Place::NotesChapter => "notes chapter".to_string(),
        };
        for (marker, (_, place)) in &epub {
            assert_eq!(
                chapter_of(&pdf[marker].1),
                chapter_of(place),
                "{book}: {marker} is not in the same chapter in the PDF"
            );
        }
        check_the_rules(book, &epub);
    }
}

/// The plan's rules, seen from outside: numbering by first reference,
/// notes in notes after the block's own, per-post restarts or continues.
fn check_the_rules(book: &str, seen: &Seen) {
    let n = |m: &str| seen[m].0;
    assert_eq!((n("NOTE-PLAIN"), n("NOTE-LONG")), (1, 2), "{book}");
    let nested_start = if book.ends_with("continuous") { 6 } else { 1 };
    assert_eq!(
        [
            n("NOTE-OUTER"),
            n("NOTE-AFTER"),
            n("NOTE-INNER"),
            n("NOTE-LAST")
        ],
        [0, 1, 2, 3].map(|i| nested_start + i),
        "{book}: the outer note, the one after it in the text, the inner note, the last"
    );
    let place = &seen["NOTE-SECOND-A"].1;
    let expected = if book.starts_with("footnotes") {
        Place::Foot("second".into())
    } else if book.starts_with("notes-chapter") {
        Place::NotesChapter
    } else {
        Place::End("second".into())
    };
    assert_eq!(place, &expected, "{book}");
}
