//! The web edition end to end: every page of every book and language (the
//! real books, the torture set, the notes in every mode) passes the W3C Nu
//! HTML checker with no error, every internal link reaches its file and
//! its fragment, the chapters say what the EPUB says, and a rebuild writes
//! the same bytes.

use crate::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Builds `formats` of every book of `project` into `out` (a path from
/// `project`, or absolute); that folder.
fn build(project: &Path, out: &str, formats: &[&str]) -> PathBuf {
    let mut args = vec!["build", "--no-site", "--out", out];
    for format in formats {
        args.extend(["--format", format]);
    }
    let result = stoa(project, &args);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "stoa build failed:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    project.join(out)
}

/// The web editions below `dist`: `<book>/<lang>` folders, with their files.
fn editions(dist: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    for file in files_below(dist) {
        let parts: Vec<_> = file
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts.len() >= 3 {
            let edition = format!("{}/{}", parts[0], parts[1]);
            out.entry(edition)
                .or_default()
                .push(file.iter().skip(2).collect());
        }
    }
    out
}

/// Every value of attribute `attr` in `html`.
fn values(html: &str, attr: &str) -> Vec<String> {
    attr_values(html, &format!(" {attr}=\""))
}

/// Checks one edition's links: every `href` and `src` inside it names a
/// file of the edition and, after `#`, an id of that page; the only way
/// out is the download page.
fn check_links(root: &Path, files: &[PathBuf], problems: &mut Vec<String>) {
    let names: BTreeSet<String> = files
        .iter()
        .map(|f| f.to_string_lossy().replace('\\', "/"))
        .collect();
    let mut ids: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let pages: BTreeMap<&str, String> = names
        .iter()
        .filter(|n| n.ends_with(".html"))
        .map(|n| (n.as_str(), std::fs::read_to_string(root.join(n)).unwrap()))
        .collect();
    for (name, html) in &pages {
        ids.insert(name, values(html, "id").into_iter().collect());
    }
    for (name, html) in &pages {
        for link in values(html, "href").into_iter().chain(values(html, "src")) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            if link.starts_with("../") {
                // The way out is the download page, or the same page in
                // another language's edition of the book (`../<lang>/…`),
                // which must exist.
                let other_language = link.matches("../").count() == 1 && root.join(&link).is_file();
                if link != "../../index.html" && !other_language {
                    problems.push(format!("{name}: {link} leaves the edition"));
                }
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let file = if file.is_empty() { *name } else { file };
            if !names.contains(file) {
                problems.push(format!("{name}: {link}: no file {file}"));
            } else if !fragment.is_empty() && !ids.get(file).is_some_and(|i| i.contains(fragment)) {
                problems.push(format!("{name}: {link}: no id {fragment} in {file}"));
            }
        }
    }
}

/// Checks every web edition below `dist`: the Nu checker, links, language,
/// no script; returns the editions found.
fn check_editions(dist: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let editions = editions(dist);
    assert!(!editions.is_empty(), "no web edition in {}", dist.display());
    let mut pages = Vec::new();
    let mut problems = Vec::new();
    for (edition, files) in &editions {
        let root = dist.join(edition);
        assert!(
            files.iter().any(|f| f == Path::new("index.html")),
            "{edition}"
        );
        assert!(
            files.iter().any(|f| f == Path::new("style.css")),
            "{edition}"
        );
        check_links(&root, files, &mut problems);
        let lang = edition.split_once('/').unwrap().1;
        for file in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "html"))
        {
            let html = std::fs::read_to_string(root.join(file)).unwrap();
            let start = format!("<!DOCTYPE html>\n<html lang=\"{lang}\" dir=\"ltr\">");
            if !html.starts_with(&start) {
                problems.push(format!("{edition}/{}: not {start}", file.display()));
            }
            if html.contains("<script") || html.contains("epub:") {
                problems.push(format!("{edition}/{}: script or epub:", file.display()));
            }
            pages.push(root.join(file));
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
    let errors = nu_errors(&pages);
    assert!(errors.is_empty(), "the Nu HTML checker: {errors:#?}");
    editions
}

#[test]
fn real_books_pass_the_nu_checker_link_everywhere_and_match_the_epub() {
    // Built with the PDF: the web pages carry the print edition's page anchors.
    let dist = books().dist();
    let editions = check_editions(&dist);
    assert_eq!(
        editions.keys().collect::<Vec<_>>(),
        [
            "collection/en",
            "collection/pt-BR",
            "dialogues/en",
            "dialogues/pt-BR"
        ]
    );
    for (edition, files) in &editions {
        let (book, lang) = edition.split_once('/').unwrap();
        let epub = dist.join(book).join(format!("{book}-{lang}.epub"));
        let spine = spine(&epub);
        let chapters: Vec<&String> = spine
            .iter()
            .filter(|h| {
                ![
                    "cover.xhtml",
                    "title.xhtml",
                    "contents.xhtml",
                    "colophon.xhtml",
                ]
                .contains(&h.as_str())
            })
            .collect();
        assert!(!chapters.is_empty());
        for xhtml in chapters {
            let page = xhtml.replace(".xhtml", ".html");
            assert!(
                files.iter().any(|f| f == Path::new(&page)),
                "{edition}: {page}"
            );
            let web = std::fs::read_to_string(dist.join(edition).join(&page)).unwrap();
            let ebook = zip_entry(&epub, &format!("OEBPS/{xhtml}"));
            // Blank lines between block elements are not content: a raw
            // block's payload is framed by newlines that differ per format.
            assert_eq!(
                collapse_newlines(&section(&web)),
                collapse_newlines(&as_html(&section(&ebook))),
                "{edition}/{page}: the same text as the EPUB"
            );
        }
    }
    // Rebuilt from the same project into a folder of its own: the shared
    // build is read by other tests at the same time.
    let again_dir = tempfile::tempdir().expect("temp dir");
    let again_out = again_dir.path().to_string_lossy().into_owned();
    let again = build(books().project(), &again_out, &["pdf", "html"]);
    for (edition, files) in &editions {
        for file in files {
            let a = std::fs::read(dist.join(edition).join(file)).unwrap();
            let b = std::fs::read(again.join(edition).join(file)).unwrap();
            assert!(a == b, "{edition}/{}: rebuilt differently", file.display());
        }
    }
}

#[test]
fn the_torture_set_and_every_note_mode_pass_too() {
    let project = torture_project();
    check_editions(&build(project.path(), "dist", &["html"]));
    let project = project_from(&fixture("footnotes/books"));
    let dist = build(project.path(), "dist", &["html"]);
    let editions = check_editions(&dist);
    assert_eq!(editions.len(), 6, "{:?}", editions.keys());
    let read = |p: &str| std::fs::read_to_string(dist.join(p)).unwrap();
    let cases = read("footnotes/en/cases.html");
    assert_eq!(cases.matches("<aside id=\"note-").count(), 5, "{cases}");
    let second = read("endnotes/en/second.html");
    assert!(second.contains("<ol start=\"6\">"), "{second}");
    let notes = read("notes-chapter/en/notes.html");
    assert!(notes.contains(r#"<h2 id="cases-notes"><a href="cases.html">Every case</a></h2>"#));
    assert!(notes.contains(r##"href="cases.html#noteref-1""##));
}

/// The chapter's `section`, as both editions write it.
fn section(page: &str) -> String {
    let start = page.find("<section id=").expect("a chapter section");
    let end = page.rfind("</section>").expect("its end") + "</section>".len();
    page[start..end].to_string()
}

/// EPUB's XHTML as the web edition writes it: no `epub:type` nor
/// `xml:lang`, void elements without the slash, links to `.html` pages.
fn as_html(xhtml: &str) -> String {
    let mut out = String::with_capacity(xhtml.len());
    let mut rest = xhtml;
    while let Some(at) = [" epub:type=\"", " xml:lang=\""]
        .iter()
        .filter_map(|a| rest.find(a).map(|i| (i, a.len())))
        .min()
    {
        out.push_str(&rest[..at.0]);
        let value = &rest[at.0 + at.1..];
        rest = &value[value.find('"').expect("closing quote") + 1..];
    }
    out.push_str(rest);
    // Void elements lose their slash; inline SVG (a diagram) is foreign
    // content, where HTML keeps self-closing tags as XHTML writes them.
    let mut html = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..]
            .find("</svg>")
            .map_or(rest.len(), |e| start + e + "</svg>".len());
        html.push_str(&rest[..start].replace("/>", ">"));
        html.push_str(&rest[start..end]);
        rest = &rest[end..];
    }
    html.push_str(&rest.replace("/>", ">"));
    html.replace(".xhtml", ".html")
}

/// `text` with every run of newlines made one.
fn collapse_newlines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if !(c == '\n' && out.ends_with('\n')) {
            out.push(c);
        }
    }
    out
}
