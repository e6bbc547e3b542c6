//! The `demo` plugin run on Markdown snippets with stoa's test kit: the
//! same parser, host and renderers as `stoa build`, no book folder.

use stoa_plugin_testkit::Kit;

fn kit() -> Kit {
    Kit::new(stoa_sdk::builtin_plugin!(stoa_plugin_demo::Demo))
}

#[test]
fn each_post_says_how_long_it_takes_to_read() {
    let out = kit()
        .settings("words-per-minute = 2")
        .run("One *two* three four five.");
    assert!(out.diagnostics().is_empty(), "{}", out.report());
    let xhtml = out.xhtml();
    assert!(xhtml.contains(r#"class="demo-reading-time""#), "{xhtml}");
    assert!(xhtml.contains("3 min read"), "{xhtml}");
    // With the test kit's `pdf` feature (see Cargo.toml), the PDF too:
    // assert!(out.pdf_text().contains("3 min read"));
}

#[test]
fn a_misspelt_setting_is_an_error_naming_it() {
    let out = kit().settings("words-per-minit = 2").run("Text.");
    assert!(!out.is_ok());
    assert!(out.report().contains("words-per-minit"), "{}", out.report());
}
