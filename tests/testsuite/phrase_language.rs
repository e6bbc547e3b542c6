//! A phrase in another language than the book's, marked in Markdown as
//! `<span lang="la">…</span>`, is tagged with its language in every format,
//! so that screen readers switch voice and hyphenation follows the phrase.

use crate::prelude::*;

#[test]
fn a_phrase_in_another_language_is_tagged_in_every_format() {
    let project = torture_project();
    let post = project.path().join("books/posts/unicode/en.md");
    let mut text = std::fs::read_to_string(&post).expect("the post");
    text.push_str(
        "\nAs the Romans said, <span lang=\"la\">*carpe* diem</span>; the Greeks, \
         <span lang=\"grc\">λόγος</span>; and in Lisbon, <span lang=\"pt-PT\">saudade</span>.\n",
    );
    std::fs::write(&post, text).expect("write the post");
    let result = stoa(
        project.path(),
        &[
            "build",
            "--no-site",
            "--out",
            "dist",
            "-f",
            "epub",
            "-f",
            "pdf",
            "-f",
            "html",
        ],
    );
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "stoa build failed:\n{stderr}");
    let dist = project.path().join("dist/torture");
    let xhtml = zip_entry(&dist.join("torture-en.epub"), "OEBPS/unicode.xhtml");
    for tagged in [
        r#"<span lang="la" xml:lang="la"><em>carpe</em> diem</span>"#,
        r#"<span lang="grc" xml:lang="grc">λόγος</span>"#,
        r#"<span lang="pt-PT" xml:lang="pt-PT">saudade</span>"#,
    ] {
        assert!(xhtml.contains(tagged), "`{tagged}` in {xhtml}");
    }
    let web = std::fs::read_to_string(dist.join("en/unicode.html")).expect("web page");
    assert!(
        web.contains(r#"<span lang="la"><em>carpe</em> diem</span>"#),
        "{web}"
    );
    let pdf = pdftotext(&dist.join("torture-en.pdf"), &[]);
    assert!(
        pdf.contains("carpe diem") && pdf.contains("saudade"),
        "{pdf}"
    );
    let failures = epubcheck(&[dist.join("torture-en.epub")]);
    assert!(failures.is_empty(), "{failures:?}");
}
