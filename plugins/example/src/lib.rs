//! The example stoa plugin: wraps each occurrence of a configured word in a `highlight`
//! span, styled for EPUB, the web edition and PDF, and can open every post with a notice.
//! It is the listing in docs/plugins.md.
#![forbid(unsafe_code)]
use stoa_sdk::{Chapter, Configure, Context, Format, Inline, Markdown, Plugin, PluginError};
use stoa_sdk::{Source, Styles, Transform, rewrite_text, span};

const CSS: &str = ".highlight { background-color: #fff3a0; }";
/// Typst: wraps the theme's `span` (and other plugins') rather than replacing it.
const TYPST: &str = r##"#let span = { let base = span; (class, attrs, body) => {
  if class == "highlight" { highlight(fill: rgb("#fff3a0"), body) } else { base(class, attrs, body) }
} }"##;

/// `[plugins.example]`; an unknown key (a typo) is an error.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Settings {
    word: String,           // the word to highlight
    notice: Option<String>, // a line of Markdown to open every post with
}

fn settings(ctx: &Context) -> Result<Settings, PluginError> {
    let settings: Settings = ctx.config_as()?;
    match settings.word.is_empty() {
        true => Err(PluginError::new("[plugins.example]: `word` is empty")),
        false => Ok(settings),
    }
}

/// The plugin; public for its tests (tests/), which run it with stoa's test kit.
#[derive(Default)]
pub struct Highlight;

impl Plugin for Highlight {
    const NAME: &'static str = "example";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
}

impl Configure for Highlight {
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        settings(ctx).map(drop) // once per book and language, before any post
    }
}

impl Source for Highlight {
    fn source(&self, markdown: &mut Markdown, ctx: &Context) -> Result<(), PluginError> {
        if let Some(notice) = settings(ctx)?.notice {
            markdown.insert_lines(0, &format!("> {notice}\n\n")); // errors keep their lines
        }
        Ok(())
    }
}

impl Transform for Highlight {
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        let word = settings(ctx)?.word;
        rewrite_text(&mut chapter.blocks, &mut |text| {
            let mark = || span("highlight", vec![Inline::text(&word)]);
            let parts = text
                .split(word.as_str())
                .flat_map(|p| [mark(), Inline::text(p)]);
            Some(parts.skip(1).filter(|i| *i != Inline::text("")).collect())
        });
        Ok(())
    }
}

impl Styles for Highlight {
    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub | Format::Html => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

stoa_sdk::export_plugin!(Highlight);
