//! Checking plugins' raw output right after each plugin ran, so that a
//! payload a renderer would refuse is an error naming the plugin and the
//! post, not a broken page or a Typst error in generated source.
//!
//! Every raw node of the book is checked after each plugin; those of
//! earlier plugins passed already, so a failure is the latest plugin's.

use stoa_doc::{Block, Book, Diagnostic, FnVisitor, Format, Inline, Walk, visit};

/// The diagnostics for the raw output in `book` after plugin `plugin` ran:
/// an error for a payload its format's renderer refuses, a warning for a
/// format no renderer has (it is dropped everywhere).
pub(crate) fn check(book: &Book, plugin: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for chapter in &book.chapters {
        let file = chapter
            .source
            .clone()
            .unwrap_or_else(|| format!("chapter `{}`", chapter.slug));
        let mut one = |format: &str, payload: &str, inline: bool| {
            let kind = if inline { "inline" } else { "block" };
            let Some(f) = Format::from_name(format) else {
                out.push(
                    Diagnostic::warning(format!(
                        "plugin `{plugin}`: a raw {kind} for the format `{format}`, which stoa \
                         does not write, is left out"
                    ))
                    .in_file(&file)
                    .with_hint("the formats are `epub`, `pdf` and `html`"),
                );
                return;
            };
            if let Err(why) = crate::plan::renderer(f).check_raw(payload, inline) {
                out.push(
                    Diagnostic::error(format!("plugin `{plugin}`: {why} (in a raw {kind})"))
                        .in_file(&file)
                        .with_hint(
                            "this is a bug in the plugin: it must write valid raw code, with \
                             the post's text escaped (stoa_sdk::escape)",
                        ),
                );
            }
        };
        let found = std::cell::RefCell::new(&mut one);
        visit(
            &chapter.blocks,
            &mut FnVisitor {
                on_block: |block: &Block| {
                    if let Block::Raw { format, payload } = block {
                        (found.borrow_mut())(format, payload, false);
                    }
                    Walk::Continue
                },
                on_inline: |inline: &Inline| {
                    if let Inline::Raw { format, payload } = inline {
                        (found.borrow_mut())(format, payload, true);
                    }
                    Walk::Continue
                },
            },
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use stoa_doc::{BookMeta, Chapter, Labels, Print, TREE_VERSION};

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
        let found = check(&bad, "ornament");
        assert_eq!(found.len(), 1, "{found:?}");
        let text = found[0].to_string();
        assert!(found[0].is_error());
        assert!(text.contains("plugin `ornament`"), "{text}");
        assert!(text.contains("posts/a/en.md"), "{text}");
        assert!(text.contains("`read`"), "{text}");
        let xhtml = book(vec![Block::raw("epub", "<p>open")]);
        assert!(check(&xhtml, "x")[0].to_string().contains("well-formed"));
    }

    #[test]
    fn good_payloads_pass_and_unknown_formats_warn() {
        let good = book(vec![
            Block::raw("epub", "<p class=\"end\">❦</p>"),
            Block::raw("html", "<p class=\"end\">❦</p>"),
            Block::raw("pdf", "#align(center)[❦]"),
        ]);
        assert!(check(&good, "x").is_empty());
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
        assert!(check(&guide, "x").is_empty());
        let odd = book(vec![Block::raw("docx", "<w:p/>")]);
        let found = check(&odd, "x");
        assert!(!found[0].is_error() && found[0].to_string().contains("`docx`"));
    }
}
