//! The example stoa plugin: wraps each occurrence of a configured word in a `highlight`
//! span, styled for EPUB, the web edition and PDF. It is the listing in docs/plugins.md.
#![forbid(unsafe_code)]
use stoa_sdk::{Chapter, Context, Format, Inline, Plugin, PluginError, rewrite_text, span};

const CSS: &str = ".highlight { background-color: #fff3a0; }";
/// Typst: wraps the theme's `span` (and other plugins') rather than replacing it.
const TYPST: &str = r##"#let span = { let base = span; (class, attrs, body) => {
  if class == "highlight" { highlight(fill: rgb("#fff3a0"), body) } else { base(class, attrs, body) }
} }"##;

#[derive(Default)]
struct Highlight;

impl Plugin for Highlight {
    const NAME: &'static str = "example";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        let word = ctx.config()["word"].as_str().filter(|w| !w.is_empty());
        let word = word.ok_or("set `word = \"...\"` in [plugins.example] of book.toml")?;
        rewrite_text(&mut chapter.blocks, &mut |text| {
            let mark = || span("highlight", vec![Inline::text(word)]);
            let parts = text.split(word).flat_map(|p| [mark(), Inline::text(p)]);
            Some(parts.skip(1).filter(|i| *i != Inline::text("")).collect())
        });
        Ok(())
    }

    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub | Format::Html => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

stoa_sdk::export_plugin!(Highlight);
