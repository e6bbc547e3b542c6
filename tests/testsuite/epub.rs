//! EPUB end to end: the real books and the torture set pass EPUBCheck with
//! no error and no warning, hold their posts in order, and build reproducibly.

use crate::prelude::*;
use std::path::{Path, PathBuf};

fn build_epubs(project: &Path, out: &str) -> Vec<PathBuf> {
    let result = stoa(project, &["build", "--format", "epub", "--out", out]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "stoa build failed:\n{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let dist = project.join(out);
    files_below(&dist)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "epub"))
        .map(|p| dist.join(p))
        .collect()
}

#[test]
fn real_books_pass_epubcheck_and_hold_every_post_in_order() {
    let epubs = books().files("epub");
    let names: Vec<String> = epubs
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "collection-en.epub",
            "collection-pt-BR.epub",
            "dialogues-en.epub",
            "dialogues-pt-BR.epub"
        ]
    );
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "EPUBCheck:\n{failures:#?}");
    for epub in &epubs {
        let name = epub.file_stem().unwrap().to_string_lossy().into_owned();
        let (book, lang) = name.split_once('-').unwrap();
        let expected = expected_chapters(book, lang);
        let spine: Vec<String> = spine(epub)
            .into_iter()
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
        assert_eq!(spine, expected, "{name}: chapters in the spine");
    }
}

/// The chapter files a book should hold in `lang`: its posts that have that
/// translation, in the order of book.toml, then the glossary appendix when
/// the book enables the glossary plugin, then the about page, then the
/// index when the book has one.
fn expected_chapters(book: &str, lang: &str) -> Vec<String> {
    let books = repo_root().join("books");
    let text = std::fs::read_to_string(books.join(book).join("book.toml")).unwrap();
    let config: toml::Table = toml::from_str(&text).unwrap();
    let mut slugs: Vec<String> = config["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    if let Some(about) = config.get("about") {
        slugs.push(about.as_str().unwrap().to_string());
    }
    let mut files: Vec<String> = slugs
        .into_iter()
        .filter(|s| {
            books
                .join("posts")
                .join(s)
                .join(format!("{lang}.md"))
                .exists()
        })
        .map(|s| format!("{s}.xhtml"))
        .collect();
    let glossary = config.get("plugins").and_then(|p| p.get("glossary"));
    if glossary.is_some() {
        let at = files.len() - usize::from(config.contains_key("about"));
        files.insert(at, "glossary.xhtml".into());
    }
    // The back-of-book index, when the book has a terms file, closes it.
    if books.join(book).join("index.toml").exists() {
        files.push("book-index.xhtml".into());
    }
    files
}

#[test]
fn torture_posts_pass_epubcheck() {
    let project = torture_project();
    let epubs = build_epubs(project.path(), "dist");
    assert_eq!(epubs.len(), 1);
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "EPUBCheck:\n{failures:#?}");
    let epub = &epubs[0];
    let html = zip_entry(epub, "OEBPS/raw-html.xhtml");
    assert!(
        html.contains("List&lt;String&gt;"),
        "raw HTML is shown as text"
    );
    assert!(
        !html.contains("<script") && !html.contains("xss"),
        "a script is left out, neither markup nor text"
    );
    let links = zip_entry(epub, "OEBPS/links-and-notes.xhtml");
    assert!(
        !links.contains("javascript:")
            && !links.contains("vbscript:")
            && !links.contains("data:text")
    );
    assert!(
        links.contains("javascript link"),
        "the words of a dropped link stay"
    );
    assert!(links.contains("href=\"https://example.com/?a=1&amp;b=2\""));
    let code = zip_entry(epub, "OEBPS/markup-characters.xhtml");
    assert!(code.contains("]]&gt;"));
    let image = zip_entry(epub, "OEBPS/image.xhtml");
    assert!(image.contains("src=\"images/image/1-square.png\""));
    assert!(zip_names(epub).contains(&"OEBPS/images/image/1-square.png".to_string()));
    for name in zip_names(epub).iter().filter(|n| n.ends_with(".xhtml")) {
        let doc = zip_entry(epub, name);
        assert!(
            doc.contains("lang=\"en\" xml:lang=\"en\""),
            "{name} declares its language"
        );
    }
}

#[test]
fn epub_metadata_is_complete_and_true() {
    let project = torture_project();
    let epub = &build_epubs(project.path(), "dist")[0];
    let opf = zip_entry(epub, "OEBPS/content.opf");
    for needle in [
        "<dc:language",
        ">en</dc:language>",
        "<dc:identifier id=\"epub-id-1\">urn:uuid:",
        "property=\"dcterms:modified\">2024-05-31T00:00:00Z<",
        "property=\"schema:accessMode\">textual<",
        "property=\"schema:accessMode\">visual<",
        "property=\"schema:accessModeSufficient\">textual<",
        "property=\"schema:accessibilityFeature\">alternativeText<",
        "property=\"schema:accessibilityHazard\">none<",
        "property=\"schema:accessibilitySummary\">",
        "property=\"dcterms:conformsTo\">EPUB Accessibility 1.1 - WCAG 2.1 Level AA<",
        "Torture &lt;Book&gt; &amp; “Friends”",
    ] {
        assert!(opf.contains(needle), "content.opf lacks {needle}:\n{opf}");
    }
    let nav = zip_entry(epub, "OEBPS/nav.xhtml");
    assert!(nav.contains("epub:type = \"landmarks\"") || nav.contains("epub:type=\"landmarks\""));
    assert!(nav.contains("epub:type=\"bodymatter\""));
    assert!(zip_names(epub).contains(&"OEBPS/toc.ncx".to_string()));
    assert_eq!(zip_names(epub)[0], "mimetype");
}

#[test]
fn two_builds_are_byte_identical() {
    let project = torture_project();
    let first = build_epubs(project.path(), "one");
    let second = build_epubs(project.path(), "two");
    assert_eq!(first.len(), second.len());
    for (a, b) in first.iter().zip(&second) {
        assert!(
            std::fs::read(a).unwrap() == std::fs::read(b).unwrap(),
            "{} differs from {}",
            a.display(),
            b.display()
        );
    }
}

#[test]
fn a_failed_build_keeps_the_previous_artifact() {
    let project = torture_project();
    let epubs = build_epubs(project.path(), "dist");
    let before = std::fs::read(&epubs[0]).unwrap();
    let listing = files_below(&project.path().join("dist"));
    // Break one post: the whole edition fails.
    let post = project.path().join("books/posts/unicode/en.md");
    std::fs::write(&post, "+++\ntitle = 1\n+++\n").unwrap();
    let result = stoa(project.path(), &["build", "--format", "epub"]);
    assert!(!result.status.success());
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(stderr.contains("unicode/en.md:2:9"), "{stderr}");
    assert_eq!(
        std::fs::read(&epubs[0]).unwrap(),
        before,
        "the previous EPUB is untouched"
    );
    assert_eq!(
        files_below(&project.path().join("dist")),
        listing,
        "no temporary files are left"
    );
}
