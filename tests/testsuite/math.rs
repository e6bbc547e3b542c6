//! Math end to end: `$…$` and `$$…$$` in a post become MathML with its
//! LaTeX as `alttext` in the EPUB (EPUBCheck clean, the documents marked
//! `mathml` in the manifest) and the web edition, and Typst math in the
//! PDF; a formula that cannot be read is an error at its line and column.

use crate::prelude::*;
use std::path::Path;

const POST: &str = "The energy is $E = mc^2$, and the sum\n\n\
$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$\n\n\
closes the proof. Prices stay prices: it costs \\$5, or \\$10 with $x < y$.\n";

/// A project with one English book whose one post is `body`.
fn project(body: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let books = dir.path().join("books");
    std::fs::create_dir_all(books.join("b")).unwrap();
    std::fs::write(
        books.join("b/book.toml"),
        "author = \"A\"\nlanguages = [\"en\"]\nidentifier = \"urn:x:math\"\n\
         posts = [\"sums\"]\n\n[title]\nen = \"Sums\"\n",
    )
    .unwrap();
    let folder = books.join("posts/sums");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(
        folder.join("en.md"),
        format!("+++\ntitle = \"Sums\"\n+++\n\n{body}"),
    )
    .unwrap();
    dir
}

fn chapter_of(epub: &Path) -> String {
    let name = zip_names(epub)
        .into_iter()
        .find(|n| n.ends_with(".xhtml") && zip_entry(epub, n).contains("<math"))
        .expect("a chapter with MathML");
    zip_entry(epub, &name)
}

#[test]
fn formulas_are_mathml_in_the_epub_and_the_web_and_math_in_the_pdf() {
    let dir = project(POST);
    let out = stoa(dir.path(), &["build", "--no-site"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let dist = dir.path().join("dist/b");

    let epub = dist.join("b-en.epub");
    let chapter = chapter_of(&epub);
    assert!(
        chapter.contains(r#"<math xmlns="http://www.w3.org/1998/Math/MathML" alttext="E = mc^2">"#),
        "{chapter}"
    );
    assert!(chapter.contains(r#"display="block""#), "{chapter}");
    assert!(chapter.contains("<mfrac>"), "{chapter}");
    assert!(chapter.contains("<mo>&lt;</mo>"), "{chapter}");
    assert!(chapter.contains("costs $5, or $10"), "{chapter}");
    let opf = zip_entry(&epub, "OEBPS/content.opf");
    assert!(
        opf.contains("mathml"),
        "the chapter is marked in the manifest:\n{opf}"
    );
    assert_eq!(epubcheck(std::slice::from_ref(&epub)), Vec::new());

    let page = std::fs::read_to_string(dist.join("en/sums.html")).unwrap();
    assert!(page.contains(r#"alttext="E = mc^2""#), "{page}");

    let text = pdftotext(&dist.join("b-en.pdf"), &[]);
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(!text.contains("mc^2"), "the LaTeX is not printed:\n{text}");
    assert!(
        !text.contains("\\frac"),
        "the LaTeX is not printed:\n{text}"
    );
    assert!(text.contains("costs $5, or $10"), "{text}");
    // Typst sets the formula's symbols in math italic: 𝐸 = 𝑚𝑐².
    assert!(text.contains("𝐸 = 𝑚𝑐"), "{text}");
    assert!(text.contains('∑'), "{text}");
}

#[test]
fn a_formula_that_cannot_be_read_is_an_error_at_its_line_and_column() {
    let dir = project("First line.\n\nThe fraction $\\left( x$ is broken.\n");
    let out = stoa(dir.path(), &["build", "--no-site", "-f", "epub"]);
    // The front matter is three lines and a blank one: the formula is on
    // line 7, its dollar sign at column 14.
    assert_fails_with(
        &out,
        &[
            "en.md:7:14",
            "the formula `\\left( x` cannot be read",
            "KaTeX",
        ],
    );
    assert!(!dir.path().join("dist/b/b-en.epub").exists());
}
