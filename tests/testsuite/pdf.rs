//! PDF end to end: the real books make print-ready PDFs (metadata, page
//! size, embedded fonts, chapters on odd pages), builds are reproducible,
//! and text full of Typst syntax prints literally.

use crate::prelude::*;
use std::path::{Path, PathBuf};

fn build_pdfs(project: &Path, out: &str) -> Vec<PathBuf> {
    let result = stoa(project, &["build", "--format", "pdf", "--out", out]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "stoa build failed:\n{stderr}");
    let dist = project.join(out);
    files_below(&dist)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pdf"))
        .map(|p| dist.join(p))
        .collect()
}

fn chapter_titles(book: &str, lang: &str) -> Vec<String> {
    let books = repo_root().join("books");
    let config: toml::Table =
        toml::from_str(&std::fs::read_to_string(books.join(book).join("book.toml")).unwrap())
            .unwrap();
    let slugs: Vec<&str> = config["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let about = if lang == "en" {
        "About the Author"
    } else {
        "Sobre o Autor"
    };
    slugs
        .into_iter()
        .filter_map(|slug| post_title(&books, slug, lang))
        .chain(std::iter::once(about.to_string()))
        .collect()
}

/// The titles of the posts that a part of `book` lets open on any page
/// or run on (`opening` other than "right"): they need not open on a recto.
fn loose_openings(book: &str, lang: &str) -> Vec<String> {
    let books = repo_root().join("books");
    let config: toml::Table =
        toml::from_str(&std::fs::read_to_string(books.join(book).join("book.toml")).unwrap())
            .unwrap();
    let parts = config.get("parts").and_then(|p| p.as_array());
    parts
        .into_iter()
        .flatten()
        .filter(|part| {
            part.get("opening")
                .and_then(|o| o.as_str())
                .is_some_and(|o| o != "right")
        })
        .flat_map(|part| part["posts"].as_array().unwrap().iter())
        .filter_map(|slug| post_title(&books, slug.as_str().unwrap(), lang))
        .collect()
}

#[test]
fn real_books_make_print_ready_pdfs() {
    let pdfs = books().files("pdf");
    assert_eq!(pdfs.len(), 4);
    for pdf in &pdfs {
        let name = pdf.file_stem().unwrap().to_string_lossy().into_owned();
        let (book, lang) = name.split_once('-').unwrap();
        let info = tool("pdfinfo", &[], pdf);
        let config: toml::Table = toml::from_str(
            &std::fs::read_to_string(repo_root().join("books").join(book).join("book.toml"))
                .unwrap(),
        )
        .unwrap();
        let title = config["title"][lang].as_str().unwrap();
        assert!(
            info.contains(&format!("Title:           {title}\n")),
            "{name}: {info}"
        );
        assert!(
            info.contains("Author:          Vinícius Gomes Batista\n"),
            "{name}: {info}"
        );
        assert!(
            info.contains("Page size:       396.85 x 595.276 pts"),
            "{name}: 14 × 21 cm\n{info}"
        );
        assert!(info.contains("Tagged:          yes"), "{name}: tagged PDF");

        let fonts = tool("pdffonts", &[], pdf);
        let rows: Vec<&str> = fonts.lines().skip(2).collect();
        assert!(!rows.is_empty());
        for row in rows {
            let cols: Vec<&str> = row.split_whitespace().collect();
            let emb = cols[cols.len() - 5];
            assert_eq!(emb, "yes", "{name}: font not embedded: {row}");
        }

        let entries = pdf_outline(pdf);
        let expected = chapter_titles(book, lang);
        let chapters: Vec<&OutlineEntry> = entries
            .iter()
            .filter(|e| expected.contains(&e.title))
            .collect();
        let order: Vec<&String> = chapters.iter().map(|e| &e.title).collect();
        assert_eq!(
            order,
            expected.iter().collect::<Vec<_>>(),
            "{name}: every chapter, in order, in the outline"
        );
        let anywhere = loose_openings(book, lang);
        for OutlineEntry { title, page, .. } in chapters {
            if anywhere.contains(title) {
                continue;
            }
            assert!(
                page % 2 == 1,
                "{name}: `{title}` opens on page {page}, a left-hand page"
            );
        }
    }
}

#[test]
fn typst_syntax_prints_literally_and_builds_are_identical() {
    let project = torture_project();
    let first = build_pdfs(project.path(), "one");
    let second = build_pdfs(project.path(), "two");
    assert!(
        std::fs::read(&first[0]).unwrap() == std::fs::read(&second[0]).unwrap(),
        "two builds differ"
    );
    let text = pdftotext(&first[0], &["-raw"]);
    assert!(text.contains('↪'), "the long code line wraps, marked");
    // The wrap marker is decoration; the code reads on across it.
    let flat = text
        .replace('↪', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for payload in [
        "# hash",
        "@Override",
        "<String>",
        "#read(“/etc/passwd”)",
        "\\ backslash",
        "] bracket",
        "* star",
        "_ underscore",
        "// slashes",
        "/* comment",
        "= equals at line start",
        "- dash at line start",
        "+ plus at line start",
        "1. number at line start",
        "\"]]>\" + '\\'' + \"\\\\\";",
        "List<String>",
        "Torture <Book> & “Friends”",
    ] {
        assert!(
            flat.contains(payload),
            "`{payload}` is not printed literally"
        );
    }
    assert!(!flat.contains("root:x:0:0"), "a file was read");
    // `$math$` is Markdown's math: a formula set in math italic, its
    // letters printed, nothing of it run.
    assert!(flat.contains("𝑚𝑎𝑡ℎ"), "`$math$` is not set as a formula");
}
