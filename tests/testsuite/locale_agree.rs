//! One locale table: every format and the download page of a language print
//! the same date and the same labels, as that language writes them.

use crate::prelude::*;

/// (language, the book's date in words, the contents label).
const EXPECTED: [(&str, &str, &str); 2] = [
    ("en", "May 31, 2024", "Contents"),
    ("pt-BR", "31 de maio de 2024", "Sumário"),
];

fn pdf_text(pdf: &std::path::Path) -> String {
    // Lines break anywhere in a PDF: compare with single spaces.
    pdftotext(pdf, &[])
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn dates_and_labels_agree_across_formats_and_the_download_page() {
    // The footnotes fixture is dated 2024-05-31 and written in both languages.
    let project = project_from(&fixture("footnotes/books"));
    let out = stoa(project.path(), &["build", "-b", "endnotes"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dist = project.path().join("dist");
    let page = std::fs::read_to_string(dist.join("index.html")).expect("download page");
    for (lang, date, contents) in EXPECTED {
        let epub = dist.join(format!("endnotes/endnotes-{lang}.epub"));
        let colophon = zip_entry(&epub, "OEBPS/colophon.xhtml");
        assert!(colophon.contains(date), "{lang} EPUB colophon: {colophon}");
        let toc = zip_entry(&epub, "OEBPS/contents.xhtml");
        assert!(toc.contains(contents), "{lang} EPUB contents");

        let pdf = pdf_text(&dist.join(format!("endnotes/endnotes-{lang}.pdf")));
        assert!(pdf.contains(date), "{lang} PDF lacks {date}");
        assert!(pdf.contains(contents), "{lang} PDF lacks {contents}");

        let web = std::fs::read_to_string(dist.join(format!("endnotes/{lang}/index.html")))
            .expect("web edition");
        assert!(web.contains(date), "{lang} web edition lacks {date}");
        assert!(
            web.contains(contents),
            "{lang} web edition lacks {contents}"
        );

        assert!(page.contains(date), "the download page lacks {date}");
    }
    // The old disagreement: the English EPUB said "31 May 2024" while the PDF said "May 31, 2024".
    let epub = dist.join("endnotes/endnotes-en.epub");
    assert!(!zip_entry(&epub, "OEBPS/colophon.xhtml").contains("31 May 2024"));
}
