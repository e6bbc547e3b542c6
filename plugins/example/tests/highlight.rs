//! The example plugin run on Markdown snippets with stoa's test kit
//! (`stoa-plugin-testkit`): the parser, the host and the renderers of
//! `stoa build`, no book folder. The guide's "Testing a plugin" shows this file.

use stoa_plugin_example::Highlight;
use stoa_plugin_testkit::Kit;
use stoa_sdk::Format;

fn kit(settings: &str) -> Kit {
    Kit::new(stoa_sdk::builtin_plugin!(Highlight)).settings(settings)
}

#[test]
fn the_word_is_highlighted_in_the_epub_and_printed_in_the_pdf() {
    let out = kit(r#"word = "stoa""#).run("The stoa was a porch; a *stoa* had columns.\n");
    assert!(out.diagnostics().is_empty(), "{}", out.report());
    let xhtml = out.xhtml();
    let mark = r#"<span class="highlight">stoa</span>"#;
    assert_eq!(xhtml.matches(mark).count(), 2, "{xhtml}");
    assert!(out.styles(Format::Epub).contains(".highlight"));
    assert!(out.styles(Format::Pdf).contains("highlight("));
    // The PDF lays the text out with the plugin's Typst style compiled in.
    let text = out.pdf_text();
    assert!(
        text.contains("The stoa was a porch; a stoa had columns."),
        "{text}"
    );
}

#[test]
fn a_misspelt_setting_is_one_error_naming_it() {
    let out = kit(r#"wrod = "stoa""#).run("The stoa.\n");
    assert!(!out.is_ok());
    let errors = out.errors();
    assert_eq!(errors.len(), 1, "{}", out.report());
    assert!(errors[0].message.contains("wrod"), "{}", out.report());
}

#[test]
fn the_notice_opens_the_post_and_lines_stay_the_authors() {
    let snippet = "First.\n\nSecond\u{1}.\n";
    let out = kit("word = \"Second\"\nnotice = \"A draft.\"").run(snippet);
    let xhtml = out.xhtml();
    let notice = xhtml
        .find("A draft.")
        .expect("the notice is in the chapter");
    assert!(notice < xhtml.find("First.").unwrap_or(0), "{xhtml}");
    assert!(xhtml.contains("<blockquote"), "{xhtml}");
    // The source hook added two lines before the author's; the parser's
    // warning about line 3 of the snippet still says line 3.
    let warning = out
        .diagnostics()
        .iter()
        .find(|d| d.message.contains("U+0001"));
    let warning = warning.unwrap_or_else(|| panic!("{}", out.report()));
    assert_eq!(warning.line, Some(3), "{warning}");
}
