//! Checking plugins' raw output against the renderers, right after each
//! plugin ran, so that a payload a renderer would refuse is an error naming
//! the plugin and the post, not a broken page or a Typst error in
//! generated source.
//!
//! Every raw node of the book is checked after each plugin; those of
//! earlier plugins passed already, so a failure is the latest plugin's.

use crate::Renderer;
use stoa_doc::{Block, Book, Diagnostic, FnVisitor, Format, Inline, Walk, visit};

/// The diagnostics for the raw output in `book` after plugin `plugin` ran:
/// an error for a payload its format's renderer refuses, a warning for a
/// format of the plugin wire stoa does not know (it is dropped
/// everywhere). `renderer` gives the renderer of a format, or `None` where
/// that format is not checked (the plugin test kit without its `pdf`
/// feature). Shared by the build
/// and the plugin test kit, so that a plugin's tests see the very messages
/// a build prints.
pub fn check_raw_output<'r>(
    book: &Book,
    plugin: &str,
    renderer: impl Fn(Format) -> Option<&'r dyn Renderer>,
) -> Vec<Diagnostic> {
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
                    .with_hint(format!("the formats are {}", wire_formats())),
                );
                return;
            };
            let Some(renderer) = renderer(f) else {
                return;
            };
            if let Err(why) = renderer.check_raw(payload, inline) {
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

/// The formats plugins may write raw output for, as the hint names them.
fn wire_formats() -> String {
    let names: Vec<String> = Format::ALL.iter().map(|f| format!("`{f}`")).collect();
    names.join(", ")
}
