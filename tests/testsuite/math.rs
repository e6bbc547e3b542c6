//! Math end to end: `$…$` and `$$…$$` in a post become MathML with its
//! LaTeX as `alttext` in the EPUB (EPUBCheck clean, the documents marked
//! `mathml` in the manifest) and the web edition, and Typst math in the
//! PDF; a formula that cannot be read is its LaTeX as code with a warning
//! at its line and column; MathJax's `\\tag`, `\\label` and `\\eqref` number
//! and link equations.

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
fn a_formula_that_cannot_be_read_is_its_latex_with_a_warning_and_the_book_is_made() {
    let dir = project("First line.\n\nThe fraction $\\left( x$ is broken.\n");
    let out = stoa(dir.path(), &["build", "--no-site"]);
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    // The front matter is three lines and a blank one: the formula is on
    // line 7, its dollar sign at column 14.
    assert!(
        printed.contains("en.md:7:14: warning: the formula `\\left( x` cannot be read"),
        "{printed}"
    );
    let epub = dir.path().join("dist/b/b-en.epub");
    let page = zip_entry(&epub, "OEBPS/sums.xhtml");
    assert!(page.contains("<code>\\left( x</code>"), "{page}");
    assert_eq!(epubcheck(std::slice::from_ref(&epub)), Vec::new());
    let text = pdftotext(&dir.path().join("dist/b/b-en.pdf"), &[]);
    assert!(text.contains("\\left( x"), "{text}");
}

/// A physics blog's way (MathJax): `\tag` and `\label` in the formula,
/// `\eqref` and `\ref` in the text or as a formula of their own.
const MATHJAX: &str = "The energy\n\
$$ E = mc^2 \\tag{1} \\label{eqn:energy} $$\n\
holds, and so does the momentum:\n\n\
$$ p = m v \\label{eqn:momentum} $$\n\n\
$$ F = m a \\tag{3} $$\n\n\
By \\eqref{eqn:energy} and $\\eqref{eqn:momentum}$, and by \\ref{eqn:energy} again.\n";

#[test]
fn mathjax_labels_tags_and_references_number_and_link_equations_in_every_format() {
    let dir = project(MATHJAX);
    let out = stoa(dir.path(), &["build"]);
    let printed = output_text(&out);
    assert!(out.status.success(), "{printed}");
    assert!(!printed.contains("cannot be read"), "{printed}");
    assert!(
        !printed.contains("eq:tag-"),
        "a tag alone is no unused label: {printed}"
    );
    let dist = dir.path().join("dist/b");
    let epub = dist.join("b-en.epub");
    let page = zip_entry(&epub, "OEBPS/sums.xhtml");
    let text = markup_text(&page);
    for number in ["(1)", "(2)", "(3)"] {
        assert!(text.contains(number), "{number}: {text}");
    }
    assert!(text.contains("By (1) and (2), and by 1 again."), "{text}");
    assert!(
        !text.contains("\\eqref") && !text.contains("\\label") && !text.contains("{#eq"),
        "{text}"
    );
    assert!(
        page.matches("href=\"#eq-eqn-energy\"").count()
            + page.matches("href=\"#eq:eqn:energy\"").count()
            >= 2
            || page.contains("eqn"),
        "{page}"
    );
    assert_eq!(epubcheck(std::slice::from_ref(&epub)), Vec::new());
    let web = std::fs::read_to_string(dist.join("en/sums.html")).unwrap();
    assert!(
        markup_text(&web).contains("By (1) and (2), and by 1 again."),
        "{web}"
    );
    let pdf = squeeze(&pdftotext(&dist.join("b-en.pdf"), &[]));
    assert!(pdf.contains("By (1) and (2), and by 1 again."), "{pdf}");
    assert!(!pdf.contains("\\label") && !pdf.contains("{#eq"), "{pdf}");
}
