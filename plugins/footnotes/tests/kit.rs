//! The footnotes plugin on Markdown snippets, with stoa's test kit: where
//! the note lands in the EPUB and in the PDF for each `mode`, and the
//! notes chapter `finish` adds.

use stoa_plugin_footnotes::Footnotes;
use stoa_plugin_testkit::Kit;
use stoa_sdk::ChapterKind;

const SNIPPET: &str = "The porch had columns.[^cols]\n\n[^cols]: Forty of them, in the story.\n";

fn kit(settings: &str) -> Kit {
    Kit::new(stoa_sdk::builtin_plugin!(Footnotes)).settings(settings)
}

#[test]
fn a_footnote_is_an_aside_in_the_epub_and_at_the_foot_of_the_page() {
    let out = kit(r#"mode = "footnotes""#).run(SNIPPET);
    assert!(out.diagnostics().is_empty(), "{}", out.report());
    let xhtml = out.xhtml();
    assert!(xhtml.contains(r#"epub:type="footnote""#), "{xhtml}");
    assert!(xhtml.contains("Forty of them, in the story."), "{xhtml}");
    let page = out
        .pdf_pages()
        .iter()
        .find(|p| p.contains("The porch had columns."))
        .expect("a page with the text");
    // On the same page as its call, after it.
    let (text, note) = (page.find("columns.").unwrap(), page.find("Forty of them"));
    assert!(note.is_some_and(|n| n > text), "{page}");
}

#[test]
fn notes_chapter_mode_adds_the_chapter_that_collects_them() {
    let out = kit(r#"mode = "notes-chapter""#).run(SNIPPET);
    assert!(out.diagnostics().is_empty(), "{}", out.report());
    let notes = out
        .book()
        .chapters
        .iter()
        .find(|c| c.kind == ChapterKind::Notes);
    let notes = notes.unwrap_or_else(|| panic!("no notes chapter: {:?}", out.book().chapters));
    assert!(!out.xhtml().contains("Forty of them"), "{}", out.xhtml());
    let collected = out.chapter_xhtml(&notes.slug);
    assert!(
        collected.contains("Forty of them, in the story."),
        "{collected}"
    );
}

#[test]
fn an_unknown_mode_is_an_error_naming_it() {
    let out = kit(r#"mode = "sidenotes""#).run(SNIPPET);
    assert!(!out.is_ok());
    assert!(out.report().contains("sidenotes"), "{}", out.report());
}
