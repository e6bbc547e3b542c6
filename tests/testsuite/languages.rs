//! Every language stoa claims, end to end (issue 13), on the fixture
//! tests/fixtures/v1/languages: a Spanish, a French and a German edition
//! (with regions, every bundled plugin on, no labels given) say no English
//! word in any output; a Finnish edition (a language stoa has no words
//! for, two labels given in book.toml) builds with one warning naming the
//! others; a Hebrew edition (labels given) runs right to left in the EPUB,
//! the web edition, the download page and the PDF.
//!
//! The fixture is built once for the whole file (one `stoa build` of its
//! three books); each test reads the output.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

fn built() -> &'static Built {
    static BUILT: OnceLock<Built> = OnceLock::new();
    BUILT.get_or_init(|| build_fixture("languages/books", &[]))
}

/// The editions the "no English" tests read, with the words that are the
/// same in English and in that language (and so prove nothing).
const EDITIONS: [(&str, &[&str]); 3] = [
    ("es-MX", &[]),
    (
        "fr-CA",
        &["Notes", "Colophon", "Participants", "Messages", "image"],
    ),
    ("de-AT", &["April", "August", "September", "November"]),
];

/// Words stoa prints in English around the text: labels, headings, the
/// web edition's and the download page's words, months, the EPUB's
/// accessibility summary. Written out here, not read from stoa's table, so
/// that a word missing from the table is caught.
const ENGLISH: &[&str] = &[
    "Contents",
    "About the Author",
    "Notes",
    "Back to text",
    "Typeset with",
    "Title Page",
    "Cover",
    "Colophon",
    "Glossary",
    "Characters",
    "Previous",
    "Next",
    "Skip to",
    "Chapters",
    "All books",
    "Published",
    "Start reading",
    "Languages",
    "Books",
    "Download",
    "Read online",
    "Files to download",
    "No books yet",
    "posts",
    "post",
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
    "This publication",
    "image",
    "Page breaks",
];

/// The English words of `ENGLISH` found in `text` as whole words, but for
/// those `same` says the language shares.
fn english_in(text: &str, same: &[&str]) -> Vec<&'static str> {
    ENGLISH
        .iter()
        .copied()
        .filter(|word| !same.contains(word))
        .filter(|word| {
            text.match_indices(word).any(|(i, _)| {
                let before = text[..i].chars().next_back();
                let after = text[i + word.len()..].chars().next();
                !before.is_some_and(char::is_alphanumeric)
                    && !after.is_some_and(char::is_alphanumeric)
            })
        })
        .collect()
}

/// What a reader sees or hears of an XML or HTML page: its text and the
/// attributes read aloud or shown (alt, title, aria-label), without
/// scripts and style sheets.
fn readable(markup: &str) -> String {
    let stripped = without(&without(markup, "script"), "style");
    let rest = stripped.as_str();
    let mut out = String::new();
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c != '<' {
            out.push(c);
            continue;
        }
        let end = rest[i..].find('>').map_or(rest.len(), |e| i + e);
        let tag = &rest[i..end];
        for attr in ["alt", "title", "aria-label"] {
            let key = format!(" {attr}=\"");
            if let Some(at) = tag.find(&key) {
                let value = &tag[at + key.len()..];
                out.push(' ');
                out.push_str(&value[..value.find('"').unwrap_or(value.len())]);
            }
        }
        out.push(' ');
        while chars.peek().is_some_and(|&(j, _)| j <= end) {
            chars.next();
        }
    }
    out
}

/// `markup` without its `element`s, content and all.
fn without(markup: &str, element: &str) -> String {
    let mut kept = String::new();
    let mut from = markup;
    while let Some(start) = from.find(&format!("<{element}")) {
        kept.push_str(&from[..start]);
        let end = from[start..]
            .find(&format!("</{element}>"))
            .map_or(from.len(), |e| start + e + element.len() + 3);
        from = &from[end..];
    }
    kept.push_str(from);
    kept
}

/// Every text file of an EPUB (XHTML, the package, the NCX), by name.
fn epub_texts(epub: &Path) -> Vec<(String, String)> {
    use std::io::Read;
    let file = std::fs::File::open(epub).expect("the EPUB exists");
    let mut zip = zip::ZipArchive::new(file).expect("the EPUB is a zip");
    let mut texts = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).unwrap();
        let name = entry.name().to_string();
        if [".xhtml", ".opf", ".ncx"].iter().any(|e| name.ends_with(e)) {
            let mut text = String::new();
            entry.read_to_string(&mut text).unwrap();
            texts.push((name, text));
        }
    }
    texts
}

/// The parts of the download page in `lang`: each element marked
/// `data-lang="<lang>"`, whole.
fn page_parts(page: &str, lang: &str) -> Vec<String> {
    let mark = format!("data-lang=\"{lang}\"");
    let mut parts = Vec::new();
    let mut from = 0;
    while let Some(at) = page[from..].find(&mark).map(|i| from + i) {
        let open = page[..at].rfind('<').expect("a tag before");
        if page[open..at].contains('>') {
            // Not an attribute: the style sheet's selectors name it too.
            from = at + mark.len();
            continue;
        }
        let name: String = page[open + 1..]
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect();
        // The element ends at the close tag that balances it.
        let (mut depth, mut i) = (0usize, open);
        let end = loop {
            let next_open = page[i + 1..].find(&format!("<{name}")).map(|j| i + 1 + j);
            let next_close = page[i + 1..].find(&format!("</{name}>")).map(|j| i + 1 + j);
            match (next_open, next_close) {
                (Some(o), Some(c)) if o < c => {
                    depth += 1;
                    i = o;
                }
                (_, Some(c)) if depth == 0 => break c + name.len() + 3,
                (_, Some(c)) => {
                    depth -= 1;
                    i = c;
                }
                _ => break page.len(),
            }
        };
        parts.push(page[open..end].to_string());
        from = end.max(at + mark.len());
    }
    parts
}

#[test]
fn spanish_french_and_german_epubs_say_no_english_word() {
    let built = built();
    for (lang, same) in EDITIONS {
        let epub = built.dist.join(format!("trio/trio-{lang}.epub"));
        let texts = epub_texts(&epub);
        assert!(texts.len() > 8, "{lang}: {texts:?}");
        for (name, text) in &texts {
            let found = english_in(&readable(text), same);
            assert!(found.is_empty(), "{lang} EPUB {name} says {found:?}");
        }
        let all: String = texts.iter().map(|(_, t)| t.as_str()).collect();
        // The plugins' headings came from the table: the glossary was found
        // (it has an appendix) and the dialogue's cast is headed in `lang`.
        assert!(
            texts.iter().any(|(n, _)| n.ends_with("glossary.xhtml")),
            "{lang}: the glossary heading was not recognised"
        );
        let words: [(&str, &str, &str); 3] = [
            ("es-MX", "Personajes", "14 de marzo de 2026"),
            ("fr-CA", "Personnages", "14 mars 2026"),
            ("de-AT", "Personen", "14. März 2026"),
        ];
        let (_, characters, date) = words.iter().find(|w| w.0 == lang).unwrap();
        assert!(all.contains(characters), "{lang}: {characters}");
        assert!(all.contains(date), "{lang}: {date}");
    }
}

#[test]
fn spanish_french_and_german_pdfs_say_no_english_word() {
    let built = built();
    for (lang, same) in EDITIONS {
        let text = pdftotext(&built.dist.join(format!("trio/trio-{lang}.pdf")), &[]);
        assert!(text.contains("2026"), "{lang}: {text}");
        let found = english_in(&text, same);
        assert!(found.is_empty(), "{lang} PDF says {found:?}:\n{text}");
    }
}

#[test]
fn spanish_french_and_german_web_editions_say_no_english_word() {
    let built = built();
    for (lang, same) in EDITIONS {
        let folder = built.dist.join(format!("trio/{lang}"));
        let mut pages = 0;
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "html") {
                pages += 1;
                let page = std::fs::read_to_string(&path).unwrap();
                let found = english_in(&readable(&page), same);
                assert!(found.is_empty(), "{} says {found:?}", path.display());
            }
        }
        assert!(pages >= 4, "{lang}: {pages} pages");
    }
}

#[test]
fn the_download_page_and_catalogs_speak_each_language() {
    let built = built();
    let page = std::fs::read_to_string(built.dist.join("index.html")).unwrap();
    for (lang, same) in EDITIONS {
        let parts = page_parts(&page, lang);
        assert!(parts.len() >= 3, "{lang}: {} parts", parts.len());
        for part in &parts {
            let found = english_in(&readable(part), same);
            assert!(
                found.is_empty(),
                "{lang} part of the page says {found:?}:\n{part}"
            );
        }
        let opds = std::fs::read_to_string(built.dist.join(format!("opds-{lang}.xml"))).unwrap();
        let found = english_in(&readable(&opds), same);
        assert!(found.is_empty(), "opds-{lang}.xml says {found:?}");
    }
    // The check itself finds English where it is: in the Finnish part.
    let finnish: String = page_parts(&page, "fi").concat();
    assert!(english_in(&readable(&finnish), &[]).contains(&"Download"));
}

#[test]
fn a_finnish_edition_builds_with_one_warning_naming_the_labels_to_give() {
    let built = built();
    let warnings: Vec<&str> = built
        .log
        .lines()
        .filter(|l| l.contains("warning:"))
        .collect();
    let finnish: Vec<&&str> = warnings.iter().filter(|l| l.contains("`fi`")).collect();
    assert_eq!(finnish.len(), 1, "{}", built.log);
    let warning = finnish[0];
    assert!(warning.contains("suomi/book.toml:"), "{warning}");
    for key in ["about-author", "colophon", "glossary", "characters"] {
        assert!(warning.contains(key), "names {key}: {warning}");
    }
    // Those book.toml gives are not asked for, and are used.
    assert!(
        !warning.contains("contents,") && !warning.contains(" notes"),
        "{warning}"
    );
    assert!(
        built.log.contains("[labels.fi]"),
        "says where: {}",
        built.log
    );
    // Nothing else warns: Hebrew has every label in book.toml.
    assert_eq!(warnings.len(), 1, "{}", built.log);
    let epub = epub_texts(&built.dist.join("suomi/suomi-fi.epub"));
    let contents = epub
        .iter()
        .find(|(n, _)| n.ends_with("contents.xhtml"))
        .unwrap();
    assert!(contents.1.contains("Sisällys"), "{}", contents.1);
    assert!(built.dist.join("suomi/suomi-fi.pdf").is_file());
    assert!(built.dist.join("suomi/fi/index.html").is_file());
}

#[test]
fn a_hebrew_edition_runs_right_to_left_everywhere() {
    let built = built();
    let texts = epub_texts(&built.dist.join("hebrew/hebrew-he.epub"));
    let opf = texts.iter().find(|(n, _)| n.ends_with(".opf")).unwrap();
    assert!(
        opf.1.contains("page-progression-direction=\"rtl\""),
        "{}",
        opf.1
    );
    for (name, text) in texts.iter().filter(|(n, _)| n.ends_with(".xhtml")) {
        let html = &text[text.find("<html").unwrap()..];
        let html = &html[..html.find('>').unwrap()];
        assert!(html.contains("dir=\"rtl\""), "{name}: {html}");
    }
    let mut pages = 0;
    for entry in std::fs::read_dir(built.dist.join("hebrew/he")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            pages += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.contains("<html lang=\"he\" dir=\"rtl\">"),
                "{}",
                path.display()
            );
        }
    }
    assert!(pages >= 2, "{pages} pages");
    // The book's own word for its contents reaches the web edition too.
    let chapter = std::fs::read_to_string(built.dist.join("hebrew/he/bridges.html")).unwrap();
    assert!(chapter.contains(">תוכן העניינים</a>"), "{chapter}");
    let download = std::fs::read_to_string(built.dist.join("index.html")).unwrap();
    let parts = page_parts(&download, "he");
    assert!(!parts.is_empty());
    for part in &parts {
        let tag = &part[..part.find('>').unwrap()];
        assert!(tag.contains("dir=\"rtl\""), "{tag}");
    }
    // Spanish and the others stay left to right.
    for part in page_parts(&download, "es-MX") {
        assert!(!part[..part.find('>').unwrap()].contains("dir="));
    }
}

#[test]
fn a_hebrew_pdf_is_set_right_to_left_in_a_font_with_hebrew_letters() {
    let pdf = built().dist.join("hebrew/hebrew-he.pdf");
    // The letters are there (a font without them would give none, or
    // replacement glyphs), in the fonts embedded.
    let text = pdftotext(&pdf, &[]);
    assert!(text.contains("הערות"), "the notes heading:\n{text}");
    assert!(text.contains("תוכן"), "the contents heading:\n{text}");
    assert!(!text.contains('\u{FFFD}'), "{text}");
    // Right to left: the contents heading's first word stands to the right
    // of its second (the heading is centred, so its place on the page
    // says nothing of the direction; the order of its words does).
    let boxes = pdftotext(&pdf, &["-bbox"]);
    let x_min = |logical: &str, visual: &str| -> f64 {
        let word = boxes
            .lines()
            // pdftotext writes right-to-left words in visual order.
            .find(|l| l.contains(&format!(">{logical}<")) || l.contains(&format!(">{visual}<")))
            .unwrap_or_else(|| panic!("the contents heading's word {logical}:\n{boxes}"));
        word.split("xMin=\"")
            .nth(1)
            .and_then(|s| s.split('"').next())
            .and_then(|x| x.parse().ok())
            .unwrap()
    };
    let (first, second) = (x_min("תוכן", "ןכות"), x_min("העניינים", "םיניינעה"));
    assert!(
        first > second,
        "the heading runs left to right: its first word at {first}, its second at {second}"
    );
}

#[test]
fn every_epub_of_the_languages_passes_epubcheck() {
    let dist = &built().dist;
    let epubs: Vec<PathBuf> = [
        "trio/trio-es-MX.epub",
        "trio/trio-fr-CA.epub",
        "trio/trio-de-AT.epub",
        "suomi/suomi-fi.epub",
        "hebrew/hebrew-he.epub",
    ]
    .iter()
    .map(|f| dist.join(f))
    .collect();
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_web_pages_of_every_language_pass_the_nu_checker() {
    let dist = &built().dist;
    let mut pages = vec![dist.join("index.html")];
    for folder in [
        "trio/es-MX",
        "trio/fr-CA",
        "trio/de-AT",
        "suomi/fi",
        "hebrew/he",
    ] {
        for entry in std::fs::read_dir(dist.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "html") {
                pages.push(path);
            }
        }
    }
    let errors = nu_errors(&pages);
    assert!(errors.is_empty(), "the Nu HTML checker: {errors:#?}");
}

/// Quotation marks are set as each language sets them (CLDR's): the
/// Markdown's straight quotes print `„…“` in German and `« … »` (with
/// narrow no-break spaces) in French, in the EPUB and the PDF alike.
#[test]
fn quotation_marks_are_each_languages_own() {
    let built = built();
    for (lang, quoted) in [
        ("de-AT", "„eine lange Brücke“"),
        ("fr-CA", "«\u{202f}un long pont\u{202f}»"),
    ] {
        let epub = built.dist.join(format!("trio/trio-{lang}.epub"));
        let raw: String = zip_names(&epub)
            .iter()
            .filter(|n| n.ends_with(".xhtml"))
            .map(|n| zip_entry(&epub, n))
            .collect();
        assert!(raw.contains(quoted), "{lang}: {quoted} in the EPUB");
        let pdf = pdf_text(&built.dist.join(format!("trio/trio-{lang}.pdf")));
        let words: String = quoted.chars().filter(|c| c.is_alphabetic()).collect();
        let printed: String = pdf
            .chars()
            .filter(|c| c.is_alphabetic() || "„“«»".contains(*c))
            .collect();
        let marks: String = quoted.chars().filter(|c| "„“«»".contains(*c)).collect();
        let first = marks.chars().next().unwrap();
        let last = marks.chars().last().unwrap();
        assert!(
            printed.contains(&format!("{first}{words}{last}")),
            "{lang}: {printed}"
        );
    }
}
