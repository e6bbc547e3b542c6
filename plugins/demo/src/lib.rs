//! The `demo` stoa plugin: a line under each post's title saying how
//! long it takes to read, styled for EPUB, the web edition and PDF.
//!
//! Settings, in the book's book.toml:
//!
//! ```toml
//! [plugins.demo]
//! words-per-minute = 200           # the default
//! label = "{minutes} min read"     # the default; {minutes} is the number
//! ```
#![forbid(unsafe_code)]

use serde::Deserialize;
use stoa_sdk::{
    Block, Chapter, ChapterKind, Configure, Context, Format, Inline, Plugin, PluginError, Styles,
    Transform, div, for_each_block, for_each_inline,
};

/// The class of the line this plugin adds; plugin classes carry its name
/// so that they never meet another plugin's.
const CLASS: &str = "demo-reading-time";
const CSS: &str = ".demo-reading-time { font-style: italic; color: #555; }";
/// Typst: wraps the theme's `div` (and other plugins') rather than replacing it.
const TYPST: &str = r##"#let div = { let base = div; (class, attrs, body) => {
  if class == "demo-reading-time" { text(style: "italic", fill: luma(35%), body) } else { base(class, attrs, body) }
} }"##;

/// The plugin. One value serves every book, from several threads at once.
#[derive(Default)]
pub struct Demo;

/// The `[plugins.demo]` table; a key it does not know is an error.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case", default)]
struct Settings {
    words_per_minute: usize,
    label: String,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            words_per_minute: 200,
            label: "{minutes} min read".to_string(),
        }
    }
}

/// The settings, read and checked.
fn settings(ctx: &Context) -> Result<Settings, PluginError> {
    let settings: Settings = ctx.config_as()?;
    if settings.words_per_minute == 0 {
        return Err(PluginError::new("[plugins.demo] `words-per-minute` is 0")
            .with_hint("set it to how many words a reader reads in a minute, e.g. 200"));
    }
    Ok(settings)
}

impl Plugin for Demo {
    const NAME: &'static str = "demo";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
}

impl Configure for Demo {
    /// Once per book and language, before any post: a typo in the settings
    /// is told once, at its line in book.toml.
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        settings(ctx).map(|_| ())
    }
}

impl Transform for Demo {
    /// Once per chapter, in parallel.
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        if chapter.kind != ChapterKind::Post {
            return Ok(());
        }
        let settings = settings(ctx)?;
        let mut words = 0;
        for_each_block(&chapter.blocks, &mut |block| {
            for_each_inline(block, &mut |inline| {
                if let Inline::Text { text } = inline {
                    words += text.split_whitespace().count();
                }
            });
        });
        let minutes = words.div_ceil(settings.words_per_minute).max(1);
        let line = settings.label.replace("{minutes}", &minutes.to_string());
        let paragraph = Block::Paragraph {
            content: vec![Inline::text(line)],
        };
        chapter.blocks.insert(0, div(CLASS, vec![paragraph]));
        Ok(())
    }
}

impl Styles for Demo {
    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub | Format::Html => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

stoa_sdk::export_plugin!(Demo);
