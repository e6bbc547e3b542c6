//! Checking plugins' raw output right after each plugin ran
//! ([`stoa_render::check_raw_output`] with the build's renderers), so that
//! a payload a renderer would refuse is an error naming the plugin and the
//! post, not a broken page or a Typst error in generated source.

use stoa_doc::{Book, Diagnostic};
use stoa_render::Renderers;

/// The diagnostics for the raw output in `book` after plugin `plugin` ran,
/// checked by the build's renderers.
pub(crate) fn check(renderers: &Renderers, book: &Book, plugin: &str) -> Vec<Diagnostic> {
    stoa_render::check_raw_output(book, plugin, |f| renderers.get(f.name()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_doc::{Block, BookMeta, Chapter, Inline, Labels, Print, TREE_VERSION};

    fn book(blocks: Vec<Block>) -> Book {
        Book {
            version: TREE_VERSION,
            id: "b".into(),
            lang: "en".into(),
            meta: BookMeta::default(),
            labels: Labels::default(),
            chapters: vec![Chapter {
                slug: "a".into(),
                source: Some("posts/a/en.md".into()),
                blocks,
                ..Chapter::default()
            }],
            assets: vec![],
            styles: vec![],
            print: Print::default(),
        }
    }

    #[test]
    fn a_bad_payload_is_an_error_naming_the_plugin_and_the_post() {
        let bad = book(vec![Block::Paragraph {
            content: vec![Inline::raw("pdf", "#read(\"/etc/passwd\")")],
        }]);
        let found = check(&stoa_renderers::builtin(), &bad, "ornament");
        assert_eq!(found.len(), 1, "{found:?}");
        let text = found[0].to_string();
        assert!(found[0].is_error());
        assert!(text.contains("plugin `ornament`"), "{text}");
        assert!(text.contains("posts/a/en.md"), "{text}");
        assert!(text.contains("`read`"), "{text}");
        let xhtml = book(vec![Block::raw("epub", "<p>open")]);
        assert!(
            check(&stoa_renderers::builtin(), &xhtml, "x")[0]
                .to_string()
                .contains("well-formed")
        );
    }

    #[test]
    fn good_payloads_pass_and_unknown_formats_warn() {
        let good = book(vec![
            Block::raw("epub", "<p class=\"end\">❦</p>"),
            Block::raw("html", "<p class=\"end\">❦</p>"),
            Block::raw("pdf", "#align(center)[❦]"),
        ]);
        assert!(check(&stoa_renderers::builtin(), &good, "x").is_empty());
        // The payloads of docs/plugins.md, "Raw output for one format".
        let who = stoa_doc::escape::typst_string("Tom & <Jerry>");
        let guide = book(vec![
            Block::raw("epub", r#"<p class="end" aria-hidden="true">⁂</p>"#),
            Block::raw("html", r#"<p class="end" aria-hidden="true">⁂</p>"#),
            Block::raw("pdf", "#align(center)[#sym.ast.op #sym.ast.op]"),
            Block::Paragraph {
                content: vec![Inline::raw("pdf", format!("#smallcaps({who})"))],
            },
        ]);
        assert!(check(&stoa_renderers::builtin(), &guide, "x").is_empty());
        let odd = book(vec![Block::raw("docx", "<w:p/>")]);
        let found = check(&stoa_renderers::builtin(), &odd, "x");
        assert!(!found[0].is_error() && found[0].to_string().contains("`docx`"));
    }
}
