//! Technical writing end to end: Mermaid diagrams drawn as vectors in
//! every format (labels as text, a text alternative, EPUBCheck clean), a
//! diagram that cannot be drawn shown as code with a warning naming file
//! and line, and code highlighted with the same classes in the EPUB and the
//! web edition as the PDF's colours.

use crate::prelude::*;
use std::path::{Path, PathBuf};

/// The collection's output folder in the shared build of the real books,
/// in which no diagram of the corpus failed.
fn collection() -> PathBuf {
    let log = books().log();
    assert!(
        !log.contains("Mermaid"),
        "no diagram of the corpus fails:\n{log}"
    );
    books().dist().join("collection")
}

const LANGS: [&str; 2] = ["en", "pt-BR"];
const DIAGRAM_CHAPTER: &str = "data-engineering-reference-architectures";

/// Node and group labels of the corpus's three flowcharts, the same in
/// both languages.
const LABELS: [&str; 8] = [
    "Debezium + Kafka Connect",
    "Apache Iceberg",
    "Apache Superset",
    "ClickHouse",
    "Great Expectations",
    "MLflow Registry",
    "KServe",
    "Qdrant",
];

#[test]
fn the_flowcharts_are_vector_drawings_in_the_pdf() {
    let dist = collection();
    for lang in LANGS {
        let text = pdftotext(&dist.join(format!("collection-{lang}.pdf")), &["-layout"]);
        assert!(
            !text.contains("flowchart TB"),
            "{lang}: Mermaid code printed"
        );
        assert!(!text.contains("subgraph"), "{lang}: Mermaid code printed");
        for label in LABELS {
            assert!(
                text.contains(label),
                "{lang}: `{label}` is not text in the PDF"
            );
        }
    }
}

#[test]
fn the_flowcharts_are_svg_with_a_text_alternative_in_the_epub_and_the_web() {
    let dist = collection();
    for lang in LANGS {
        let epub = dist.join(format!("collection-{lang}.epub"));
        let xhtml = zip_entry(&epub, &format!("OEBPS/{DIAGRAM_CHAPTER}.xhtml"));
        let web = std::fs::read_to_string(dist.join(format!("{lang}/{DIAGRAM_CHAPTER}.html")))
            .expect("the web edition's chapter");
        for (name, page) in [("epub", &xhtml), ("web", &web)] {
            assert_eq!(
                page.matches("<figure class=\"diagram\">").count(),
                3,
                "{lang} {name}"
            );
            assert_eq!(page.matches("<svg ").count(), 3, "{lang} {name}");
            assert_eq!(page.matches("role=\"img\"").count(), 3, "{lang} {name}");
            assert!(
                !page.contains("flowchart TB"),
                "{lang} {name}: Mermaid code shown"
            );
            for label in LABELS {
                let escaped = label.replace('&', "&amp;");
                assert!(
                    page.contains(&format!(">{escaped}</text>")),
                    "{lang} {name}: `{label}` is not text in the SVG"
                );
            }
        }
        let kind = if lang == "en" {
            "Flowchart."
        } else {
            "Fluxograma."
        };
        let arrow = if lang == "en" {
            "Apache Kafka to Apache Flink"
        } else {
            "Apache Kafka para Apache Flink"
        };
        assert!(
            xhtml.contains(&format!("<desc id=\"dg-{DIAGRAM_CHAPTER}-2-desc\">{kind}")),
            "{lang}"
        );
        assert!(
            xhtml.contains(arrow),
            "{lang}: the text alternative names the arrows"
        );
        let opf = zip_entry(&epub, "OEBPS/content.opf");
        let item = opf
            .lines()
            .find(|l| l.contains(&format!("href=\"{DIAGRAM_CHAPTER}.xhtml\"")))
            .expect("the chapter's manifest item");
        assert!(item.contains("properties=\"svg\""), "{item}");
    }
}

#[test]
fn the_epubs_with_diagrams_pass_epubcheck() {
    let dist = collection();
    let epubs: Vec<PathBuf> = LANGS
        .iter()
        .map(|l| dist.join(format!("collection-{l}.epub")))
        .collect();
    let failures = epubcheck(&epubs);
    assert!(failures.is_empty(), "EPUBCheck:\n{failures:#?}");
}

#[test]
fn code_of_every_language_is_highlighted_in_the_epub_and_the_web() {
    let dist = collection();
    for lang in LANGS {
        let epub = dist.join(format!("collection-{lang}.epub"));
        let xhtml = zip_entry(&epub, "OEBPS/studying-apache-flink.xhtml");
        let web = std::fs::read_to_string(dist.join(format!("{lang}/studying-apache-flink.html")))
            .expect("the web edition's chapter");
        for (name, page) in [("epub", &xhtml), ("web", &web)] {
            for (code, class) in [
                ("java", "hl-keyword"),
                ("sql", "hl-keyword"),
                ("yaml", "hl-tag"),
                ("sh", "hl-function"),
            ] {
                let blocks: Vec<&str> = page
                    .split(&format!("<code class=\"language-{code}\">"))
                    .skip(1)
                    .map(|rest| rest.split("</code>").next().unwrap_or(""))
                    .collect();
                assert!(!blocks.is_empty(), "{lang} {name}: no {code} block");
                for block in blocks {
                    assert!(block.contains("<span class=\"line"), "{lang} {name} {code}");
                    assert!(
                        block.contains("class=\"hl-"),
                        "{lang} {name}: {code} not highlighted"
                    );
                }
                assert!(
                    page.contains(&format!("class=\"{class}\"")),
                    "{lang} {name} {code}"
                );
            }
        }
    }
    let css = std::fs::read_to_string(repo_root().join("themes/classic/epub.css")).unwrap();
    assert!(css.contains(".hl-keyword {"));
}

/// A one-post book in `dir`, with `post` as its English text.
fn one_post_book(dir: &Path, post: &str) {
    let books = dir.join("books");
    std::fs::create_dir_all(books.join("tech")).unwrap();
    std::fs::create_dir_all(books.join("posts/diagrams")).unwrap();
    std::fs::write(
        books.join("tech/book.toml"),
        "author = \"A. Author\"\nlanguages = [\"en\"]\nidentifier = \"urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427\"\ndate = 2024-05-01\nposts = [\"diagrams\"]\n\n[title]\nen = \"Diagrams\"\n",
    )
    .unwrap();
    std::fs::write(books.join("posts/diagrams/en.md"), post).unwrap();
    copy_dir(&repo_root().join("themes"), &dir.join("themes"));
}

const POST: &str = "+++\ntitle = \"Diagrams\"\ndate = 2024-05-01\n+++\n\nA drawing with a caption.\n\n```mermaid\n---\ntitle: How a record flows\n---\nsequenceDiagram\n  participant S as Source\n  participant K as Sink\n  S->>K: record\n```\n\nA broken one.\n\n```mermaid\nnotadiagram\n  oops --> here\n```\n\nAnd code on purpose.\n\n```mermaid-source\nflowchart LR\n  shown --> as_code\n```\n";

#[test]
fn captions_broken_diagrams_and_code_on_purpose() {
    let dir = tempfile::tempdir().unwrap();
    one_post_book(dir.path(), POST);
    let result = stoa(dir.path(), &["build"]);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "{stderr}");
    // The broken diagram is a warning at its fence (line 19), once per
    // edition: not an error.
    assert!(
        stderr.contains(
            "books/posts/diagrams/en.md:20:1: warning: this Mermaid diagram cannot be drawn"
        ),
        "{stderr}"
    );
    assert_eq!(stderr.matches("cannot be drawn").count(), 1, "{stderr}");
    let dist = dir.path().join("dist/tech");
    let xhtml = zip_entry(&dist.join("tech-en.epub"), "OEBPS/diagrams.xhtml");
    let web = std::fs::read_to_string(dist.join("en/diagrams.html")).unwrap();
    for page in [&xhtml, &web] {
        assert_eq!(page.matches("<svg ").count(), 1);
        assert!(page.contains("<figcaption>How a record flows</figcaption>"));
        assert!(page.contains(">record</text>"));
        assert!(page.contains("Sequence diagram. Participants: Source, Sink."));
        assert!(page.contains("<code class=\"language-mermaid\">"));
        assert!(page.contains("notadiagram"));
        assert!(page.contains("<code class=\"language-mermaid-source\">"));
        assert!(page.contains("shown --&gt; as_code"));
    }
    let text = pdftotext(&dist.join("tech-en.pdf"), &["-layout"]);
    assert!(text.contains("How a record flows"), "the caption in print");
    assert!(text.contains("record"));
    assert!(
        text.contains("notadiagram"),
        "the broken diagram's code in print"
    );
    assert!(
        text.contains("shown --> as_code"),
        "code on purpose in print"
    );
    let failures = epubcheck(&[dist.join("tech-en.epub")]);
    assert!(failures.is_empty(), "EPUBCheck:\n{failures:#?}");
}

#[test]
fn builds_with_diagrams_and_highlighting_are_byte_identical() {
    let dir = tempfile::tempdir().unwrap();
    one_post_book(
        dir.path(),
        &POST.replace(
            "A broken one.",
            "Code.\n\n```java\nclass A { int x = 1; }\n```\n\nA broken one.",
        ),
    );
    for out in ["one", "two"] {
        let result = stoa(dir.path(), &["build", "--out", out]);
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
    }
    let one = files_below(&dir.path().join("one"));
    assert!(!one.is_empty());
    assert_eq!(one, files_below(&dir.path().join("two")));
    for file in one {
        let a = std::fs::read(dir.path().join("one").join(&file)).unwrap();
        let b = std::fs::read(dir.path().join("two").join(&file)).unwrap();
        assert!(a == b, "{} differs between two builds", file.display());
    }
}

/// The code of every fenced block of the posts in `lang` (diagrams aside),
/// one block after another.
fn corpus_code(lang: &str) -> String {
    let mut code = String::new();
    let posts = std::fs::read_dir(repo_root().join("books/posts")).unwrap();
    let mut paths: Vec<PathBuf> = posts
        .map(|e| e.unwrap().path().join(format!("{lang}.md")))
        .filter(|p| p.exists())
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(path).unwrap();
        let mut inside = false;
        for line in text.lines() {
            let fence = line.trim_start().starts_with("```");
            if fence {
                inside = !inside && !line.contains("mermaid");
                continue;
            }
            if inside {
                code.push_str(line);
                code.push('\n');
            }
        }
    }
    code
}

#[test]
fn long_code_lines_in_the_pdf_break_between_words_not_inside_names() {
    let dist = collection();
    for lang in LANGS {
        let code = corpus_code(lang);
        let text = pdftotext(&dist.join(format!("collection-{lang}.pdf")), &["-layout"]);
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let mut continuations = 0;
        for (i, line) in lines.iter().enumerate() {
            let Some(next) = line.strip_prefix('↪') else {
                continue;
            };
            continuations += 1;
            let Some(prev) = lines[..i].iter().rev().find(|l| !l.is_empty()) else {
                continue;
            };
            let last = prev.split_whitespace().last().unwrap_or("");
            let first = next.split_whitespace().next().unwrap_or("");
            // Two word characters either side of the break, which the
            // code writes together: the line broke inside a name.
            let inside = last.ends_with(|c: char| c.is_alphanumeric())
                && first.starts_with(|c: char| c.is_alphanumeric())
                && code.contains(&format!("{last}{first}"));
            assert!(
                !inside,
                "{lang}: code broken inside a name: `{last}` / `{first}`"
            );
        }
        assert!(
            continuations >= 5,
            "{lang}: only {continuations} wrapped code lines"
        );
    }
}
