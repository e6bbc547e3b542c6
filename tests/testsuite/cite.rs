//! Citations end to end: `[@key, p. 12]` and `@key` in posts, a BibTeX file
//! and a CSL style named in book.toml become the same words in the EPUB,
//! the web edition and the PDF, each linking to its entry in a References
//! chapter that links back; the terms follow each edition's language; an
//! unknown key is an error at its line and column with a did-you-mean.

use crate::prelude::*;
use std::path::Path;

const BIB: &str = "@book{plato,\n  author = {Plato},\n  title = {The Republic},\n  translator = {Grube, G. M. A.},\n  year = {1992},\n  publisher = {Hackett},\n  address = {Indianapolis},\n}\n\n@book{kleppmann,\n  author = {Kleppmann, Martin},\n  title = {Designing Data-Intensive Applications},\n  year = {2017},\n  publisher = {O'Reilly},\n  address = {Sebastopol},\n}\n\n@article{carbone,\n  author = {Carbone, Paris and Katsifodimos, Asterios and Ewen, Stephan},\n  title = {Apache Flink: Stream and Batch Processing in a Single Engine},\n  journal = {IEEE Data Engineering Bulletin},\n  volume = {38},\n  number = {4},\n  year = {2015},\n  url = {https://example.org/flink.pdf},\n}\n\n@book{unused,\n  author = {Nobody},\n  title = {Never Cited},\n  year = {2000},\n}\n";

const EN: &str = "+++\ntitle = \"Streams\"\n+++\n\nState is hard [@kleppmann, p. 12]; see also\n[see @carbone; @plato, ch. 7]. As @plato argues, mail me at a@b.org.\n";
const PT: &str = "+++\ntitle = \"Fluxos\"\n+++\n\nO estado é difícil [@kleppmann, p. 12]; veja\n[@carbone; @plato, cap. 7]. Como @plato argumenta, escreva a a@b.org.\n";

/// A project with one book in English and Portuguese citing `BIB` in
/// `style`.
fn project(style: &str, en: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let books = dir.path().join("books");
    std::fs::create_dir_all(books.join("b")).unwrap();
    std::fs::write(
        books.join("b/book.toml"),
        format!(
            "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\nidentifier = \"urn:x:cite\"\n\
             posts = [\"streams\"]\n\n[title]\nen = \"Streams\"\npt-BR = \"Fluxos\"\n\n\
             [bibliography]\nfile = \"references.bib\"\nstyle = \"{style}\"\n"
        ),
    )
    .unwrap();
    std::fs::write(books.join("b/references.bib"), BIB).unwrap();
    let folder = books.join("posts/streams");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("en.md"), en).unwrap();
    std::fs::write(folder.join("pt-BR.md"), PT).unwrap();
    dir
}

#[test]
fn citations_read_the_same_in_every_format_and_link_to_their_entries() {
    let dir = project("chicago-author-date", EN);
    let out = stoa(dir.path(), &["build", "--no-site"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let dist = dir.path().join("dist/b");
    let epub = dist.join("b-en.epub");
    let documents = |epub: &Path| -> Vec<String> {
        zip_names(epub)
            .into_iter()
            .filter(|n| n.ends_with(".xhtml"))
            .map(|n| zip_entry(epub, &n))
            .collect()
    };
    let chapter = documents(&epub)
        .into_iter()
        .find(|doc| doc.contains("State is hard"))
        .expect("the post's chapter");
    // Each citation links to the entry of its first work.
    assert!(chapter.contains(r##"id="cite-1""##), "{chapter}");
    assert!(chapter.contains("ref-kleppmann"), "{chapter}");
    let text = epub_text(&epub);
    let pdf = pdf_text(&dist.join("b-en.pdf"));
    // Chicago's 18th edition: "et al." from three authors on, no place of
    // publication; the data's apostrophe set as the posts' are.
    for words in [
        "State is hard (Kleppmann 2017, 12)",
        "(see Carbone et al. 2015; Plato 1992, chap. 7)",
        "As Plato (1992) argues, mail me at a@b.org.",
        "Kleppmann, Martin. 2017. Designing Data-Intensive Applications. O\u{2019}Reilly.",
        "Plato. 1992. The Republic. Translated by G. M. A. Grube. Hackett.",
    ] {
        assert!(text.contains(words), "EPUB lacks {words:?}:\n{text}");
        assert!(pdf.contains(words), "PDF lacks {words:?}:\n{pdf}");
    }
    // Each work of a citation links to its own entry; print has no way
    // back (the arrow is the screen's).
    assert!(chapter.contains(r#"(see <a href="references.xhtml#ref-carbone">Carbone et al. 2015</a>; <a href="references.xhtml#ref-plato">"#), "{chapter}");
    assert!(!pdf.contains('\u{21a9}'), "{pdf}");
    // Only the works cited are listed.
    assert!(!text.contains("Never Cited"), "{text}");
    let references = documents(&epub)
        .into_iter()
        .find(|doc| doc.contains(r#"id="ref-plato""#))
        .expect("a References chapter");
    assert!(references.contains("References"), "{references}");
    assert!(
        references.contains(r#"epub:type="bibliography" role="doc-bibliography""#),
        "{references}"
    );
    assert!(
        references.contains(r#"epub:type="biblioentry""#),
        "{references}"
    );
    assert!(
        references.contains("href=\"streams.xhtml#cite-"),
        "the entries link back:\n{references}"
    );
    assert!(
        references.contains(r#"href="https://example.org/flink.pdf""#),
        "{references}"
    );

    let pt = epub_text(&dist.join("b-pt-BR.epub"));
    assert!(pt.contains("Referências"), "{pt}");
    assert!(pt.contains("Como Plato (1992) argumenta"), "{pt}");
    // The style's terms in Portuguese.
    assert!(pt.contains("Traduzido por G. M. A. Grube"), "{pt}");
    assert!(
        pt.contains("Carbone, Paris, Asterios Katsifodimos, e Stephan Ewen"),
        "{pt}"
    );

    let page = std::fs::read_to_string(dist.join("en/streams.html")).unwrap();
    assert!(page.contains("Kleppmann 2017, 12"), "{page}");
    let epubs = [epub, dist.join("b-pt-BR.epub")];
    assert_eq!(epubcheck(&epubs), Vec::new());
}

#[test]
fn numbered_styles_number_in_the_order_of_first_citation() {
    let dir = project("ieee", EN);
    let out = stoa(dir.path(), &["build", "--no-site", "-f", "epub"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let text = epub_text(&dir.path().join("dist/b/b-en.epub"));
    assert!(text.contains("State is hard [1, p. 12]"), "{text}");
    assert!(text.contains("[1] M. Kleppmann"), "{text}");
}

#[test]
fn an_unknown_key_is_an_error_at_its_line_with_a_suggestion() {
    let post = "+++\ntitle = \"Streams\"\n+++\n\nFirst line.\nAs [@klepmann, p. 3] says.\n";
    let dir = project("apa", post);
    let out = stoa(dir.path(), &["build", "--no-site", "-f", "epub"]);
    assert!(!out.status.success());
    let text = output_text(&out);
    assert!(text.contains("en.md:6:5"), "{text}");
    assert!(text.contains("`klepmann`"), "{text}");
    assert!(text.contains("did you mean @kleppmann?"), "{text}");
    assert!(
        !dir.path().join("dist/b/b-en.epub").exists(),
        "no partial output"
    );
}

#[test]
fn an_unknown_style_is_an_error_at_its_line_of_book_toml() {
    let dir = project("chicago-autor-date", EN);
    let out = stoa(dir.path(), &["build", "--no-site", "-f", "epub"]);
    assert!(!out.status.success());
    let text = output_text(&out);
    assert!(text.contains("book.toml:12"), "{text}");
    assert!(text.contains("chicago-author-date"), "{text}");
}

#[test]
fn a_note_style_puts_each_citation_in_a_numbered_note() {
    let dir = project("chicago-notes", EN);
    let out = stoa(dir.path(), &["build", "--no-site", "-f", "epub"]);
    assert!(out.status.success(), "{}", output_text(&out));
    let epub = dir.path().join("dist/b/b-en.epub");
    let text = epub_text(&epub);
    // The call after the semicolon, the reference in the note; the author
    // named in the sentence stays in it.
    assert!(text.contains("State is hard;1 see also"), "{text}");
    assert!(text.contains("As Plato argues"), "{text}");
    assert!(
        text.contains("Martin Kleppmann, Designing Data-Intensive Applications"),
        "{text}"
    );
    assert_eq!(epubcheck(std::slice::from_ref(&epub)), Vec::new());
}
