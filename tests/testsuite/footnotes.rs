//! The footnotes plugin on fixture books, one per mode
//! (tests/fixtures/v1/footnotes): EPUB structure and EPUBCheck, and in the
//! PDF each note on the page of its reference (footnotes) or in the notes
//! chapter, with every internal link resolving.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const NOTES: [&str; 7] = [
    "NOTE-PLAIN",
    "NOTE-LONG",
    "NOTE-INLIST",
    "NOTE-INQUOTE",
    "NOTE-INTABLE",
    "NOTE-SECOND-A",
    "NOTE-FILLER-8",
];

fn build() -> tempfile::TempDir {
    let project = project_from(&fixture("footnotes/books"));
    let out = stoa(project.path(), &["build"]);
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("cases/en.md:36:1: warning") && stderr.contains("`[^unused]`"),
        "the unused note is reported with its line: {stderr}"
    );
    project
}

fn page_text(pdf: &Path, page: usize) -> String {
    let page = page.to_string();
    pdftotext(pdf, &["-f", &page, "-l", &page])
}

fn pages(pdf: &Path) -> Vec<String> {
    (1..=pdf_page_count(pdf))
        .map(|p| page_text(pdf, p))
        .collect()
}

/// qpdf finds no damage, and every internal link's destination is a page.
fn links_resolve(pdf: &Path) {
    let check = Command::new("qpdf")
        .arg("--check")
        .arg(pdf)
        .output()
        .expect("qpdf");
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let json = Command::new("qpdf")
        .arg("--json")
        .arg(pdf)
        .output()
        .expect("qpdf --json");
    let json: serde_json::Value = serde_json::from_slice(&json.stdout).expect("qpdf json");
    let objects = &json["qpdf"][1];
    let pages: Vec<String> = json["pages"]
        .as_array()
        .expect("pages")
        .iter()
        .map(|p| p["object"].as_str().unwrap_or_default().to_string())
        .collect();
    // Named destinations: the name trees' `/Names [name dest ...]` arrays.
    let mut named = std::collections::HashMap::new();
    let mut arrays = Vec::new();
    fn name_arrays<'j>(v: &'j serde_json::Value, out: &mut Vec<&'j Vec<serde_json::Value>>) {
        if let Some(map) = v.as_object() {
            for (k, v) in map {
                match v.as_array() {
                    Some(a) if k == "/Names" => out.push(a),
                    _ => name_arrays(v, out),
                }
            }
        }
    }
    name_arrays(objects, &mut arrays);
    for names in arrays {
        for pair in names.chunks(2) {
            let (Some(name), Some(dest)) = (pair[0].as_str(), pair.get(1)) else {
                continue;
            };
            let dest = match dest.as_str() {
                Some(r) => objects[format!("obj:{r}")]["value"].clone(),
                None => dest.clone(),
            };
            let dest = if dest["/D"].is_null() {
                dest
            } else {
                dest["/D"].clone()
            };
            named.insert(name.to_string(), dest);
        }
    }
    let mut internal = 0;
    for (_, object) in objects.as_object().expect("objects") {
        let value = &object["value"];
        if value["/Subtype"] != "/Link" {
            continue;
        }
        let dest = match &value["/Dest"] {
            serde_json::Value::Null => match &value["/A"] {
                serde_json::Value::String(r) => objects[format!("obj:{r}")]["value"]["/D"].clone(),
                a => a["/D"].clone(),
            },
            d => d.clone(),
        };
        if dest.is_null() {
            continue; // an external link
        }
        // qpdf writes a reference as "N 0 R" and a string (a name) as "u:...".
        let dest = match dest.as_str() {
            Some(r) if r.ends_with(" R") => objects[format!("obj:{r}")]["value"].clone(),
            Some(name) => named.get(name).cloned().unwrap_or_default(),
            None => dest,
        };
        let page = dest[0].as_str().unwrap_or_default();
        assert!(
            pages.iter().any(|p| p == page),
            "a link to {dest} in {}",
            pdf.display()
        );
        internal += 1;
    }
    assert!(internal > 0, "no internal links found in {}", pdf.display());
}

fn epubs(project: &Path) -> Vec<PathBuf> {
    ["footnotes", "endnotes", "notes-chapter"]
        .iter()
        .flat_map(|m| ["en", "pt-BR"].map(|l| project.join(format!("dist/{m}/{m}-{l}.epub"))))
        .collect()
}

#[test]
fn every_mode_places_every_note() {
    let project = build();
    let dist = project.path().join("dist");

    // EPUB, footnotes: asides after the block that references them.
    let epub = dist.join("footnotes/footnotes-en.epub");
    let cases = zip_entry(&epub, "OEBPS/cases.xhtml");
    assert_eq!(
        cases
            .matches(r#"epub:type="footnote" role="doc-footnote""#)
            .count(),
        5,
        "{cases}"
    );
    assert!(cases.contains(
        r##"<a id="noteref-1-2" href="#note-1" epub:type="noteref" role="doc-noteref">1</a>"##
    ));
    assert_eq!(cases.matches(r#"role="doc-backlink""#).count(), 5);
    assert!(cases.contains("[^missing]") && !cases.contains("NOTE-UNUSED"));
    for note in ["NOTE-INLIST", "NOTE-INQUOTE", "NOTE-INTABLE"] {
        let aside = cases[..cases.find(note).unwrap()].rfind("<aside").unwrap();
        let after = &cases[aside..];
        assert!(
            !after[..after.find("</aside>").unwrap()].contains("<li>item"),
            "{note}"
        );
    }
    let list_end = cases
        .find("</ul>\n<aside")
        .expect("the list's note follows the list");
    assert!(cases[list_end..].find("NOTE-INLIST") < cases[list_end..].find("<blockquote"));
    assert!(cases.find("</table>") < cases.find("NOTE-INTABLE"));
    let second = zip_entry(&epub, "OEBPS/second.xhtml");
    assert!(
        second.contains(r#"id="note-1""#),
        "numbering restarts per post"
    );

    // EPUB, endnotes numbered through the book.
    let epub = dist.join("endnotes/endnotes-en.epub");
    let second = zip_entry(&epub, "OEBPS/second.xhtml");
    assert!(
        second.contains(r#"<ol start="6">"#) && second.contains(r#"id="note-6""#),
        "{second}"
    );
    assert!(second.contains(r#"epub:type="endnotes""#));

    // EPUB, notes chapter: last, in the landmarks, a heading per post.
    let epub = dist.join("notes-chapter/notes-chapter-pt-BR.epub");
    let spine = spine(&epub);
    assert_eq!(spine[spine.len() - 2], "notes.xhtml", "{spine:?}");
    let nav = zip_entry(&epub, "OEBPS/nav.xhtml");
    assert!(
        nav.contains(r#"epub:type="endnotes" href="notes.xhtml""#),
        "{nav}"
    );
    let notes = zip_entry(&epub, "OEBPS/notes.xhtml");
    assert!(
        notes.contains("<h1 id=\"chapter-title\">Notas</h1>"),
        "{notes}"
    );
    assert!(notes.contains(r#"<h2 id="cases-notes"><a href="cases.xhtml">Every case</a></h2>"#));
    assert!(notes.contains(r##"href="cases.xhtml#noteref-1""##));
    for note in NOTES {
        assert!(notes.contains(note), "{note} in the notes chapter");
    }
    let cases = zip_entry(&epub, "OEBPS/cases.xhtml");
    assert!(
        cases.contains(r##"href="notes.xhtml#cases-note-1""##) && !cases.contains("NOTE-PLAIN")
    );

    let failures = epubcheck(&epubs(project.path()));
    assert!(failures.is_empty(), "{failures:#?}");

    // PDF, footnotes: each note on the page of its reference.
    for lang in ["en", "pt-BR"] {
        let pdf = dist.join(format!("footnotes/footnotes-{lang}.pdf"));
        let pages = pages(&pdf);
        for (note, reference) in [
            ("NOTE-PLAIN", "A plain note here"),
            ("NOTE-INTABLE", "A cell with a note"),
            ("NOTE-SECOND-A", "its own note"),
            ("NOTE-FILLER-4", "Paragraph 4 of"),
            ("NOTE-FILLER-12", "Paragraph 12 of"),
        ] {
            let on: Vec<usize> = (0..pages.len())
                .filter(|&p| pages[p].contains(note))
                .collect();
            assert_eq!(on.len(), 1, "{note} printed once: {on:?}");
            // The reference's sentence may start on the page before.
            assert!(
                pages[on[0]].contains(reference)
                    || (pages[on[0]].contains("A referenced note on this page")
                        && pages[on[0] - 1].contains(reference)),
                "{lang}: {note} is not on the page of its reference"
            );
        }
        links_resolve(&pdf);
    }

    // PDF, notes chapter: every note after the "Notes" title, none before.
    let pdf = dist.join("notes-chapter/notes-chapter-en.pdf");
    let pages = pages(&pdf);
    let start = pages
        .iter()
        .rposition(|p| p.trim_start().starts_with("Notes"))
        .expect("Notes chapter");
    for note in NOTES {
        assert!(
            pages[..start].iter().all(|p| !p.contains(note)),
            "{note} before the notes"
        );
        assert!(
            pages[start..].iter().any(|p| p.contains(note)),
            "{note} in the notes"
        );
    }
    links_resolve(&pdf);
    links_resolve(&dist.join("endnotes/endnotes-pt-BR.pdf"));
}

#[test]
fn bad_settings_stop_the_build_with_a_clear_message() {
    let project = project_from(&fixture("footnotes/books"));
    let toml = project.path().join("books/footnotes/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text.replace("mode = \"footnotes\"", "mode = \"sidenotes\""),
    )
    .unwrap();
    let out = stoa(project.path(), &["build", "--book", "footnotes"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("`mode` in [plugins.footnotes] of book.toml must be"),
        "{stderr}"
    );
    std::fs::write(
        &toml,
        text.replace("mode = \"footnotes\"", "place = \"foot\""),
    )
    .unwrap();
    let out = stoa(project.path(), &["build", "--book", "footnotes"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown key `place`"));
}
