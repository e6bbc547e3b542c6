//! The footnotes plugin: notes at the foot of the page in print, pop-up
//! notes in EPUB, or endnotes after each post, or a notes chapter at the end
//! of the book.
//!
//! The plugin does not move or renumber the notes: it checks them, and
//! leaves in the tree how the book wants them set, so that notes that other
//! plugins create before or after it (the glossary's first-use definitions)
//! are set exactly like authored ones. Each chapter gets
//! `plugin_data["footnotes"] = {"mode": ..., "numbering": ...}`, and in
//! notes-chapter mode `finish` adds an empty `notes` chapter marked
//! `"collect": true`; the renderers number the `footnote_ref`s and
//! `footnote_def`s and place them when they write the book (see
//! docs/footnotes.md).
//!
//! Settings, `[plugins.footnotes]` in book.toml:
//! - `mode = "footnotes"` (default), `"endnotes"` or `"notes-chapter"`;
//! - `numbering = "per-post"` (default) or `"continuous"`.
#![forbid(unsafe_code)]

mod check;
mod config;

pub use check::{Problem, check};
pub use config::{Mode, Numbering, Settings};

use serde_json::json;
use stoa_sdk::{
    Book, Chapter, ChapterKind, Context, Format, Plugin, PluginDiagnostic, PluginError,
};

/// The EPUB style sheet for footnote asides and the notes chapter.
pub const CSS: &str = include_str!("footnotes.css");
/// The Typst rules for the foot of the page.
pub const TYPST: &str = include_str!("footnotes.typ");

/// The plugin.
#[derive(Default)]
pub struct Footnotes;

impl Plugin for Footnotes {
    const NAME: &'static str = "footnotes";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");

    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        let settings = Settings::from_config(ctx.config())?;
        if let Some(table) = chapter.plugin_data.get(Self::NAME)
            && !table.as_object().is_some_and(|t| t.is_empty())
        {
            let file = chapter.source.as_deref().unwrap_or(&chapter.slug);
            return Err(PluginError::new(format!(
                "[plugins.footnotes] in the front matter of {file}: the notes are set the same way in the whole book"
            ))
            .with_hint("move `mode` and `numbering` to [plugins.footnotes] in book.toml"));
        }
        // The Markdown parser already reports, with line and column, the
        // authored notes that are unused, and turns an authored reference
        // without a definition into text. What is left here is a reference
        // that another plugin made without its definition.
        for problem in check(&chapter.blocks) {
            if let Problem::Undefined(_) = problem {
                ctx.warn(problem.message(None));
            }
        }
        stamp(chapter, settings);
        Ok(())
    }

    fn finish(&self, book: &mut Book, ctx: &Context) -> Result<(), PluginError> {
        let settings = Settings::from_config(ctx.config())?;
        for chapter in &mut book.chapters {
            stamp(chapter, settings);
        }
        if settings.mode == Mode::NotesChapter && !book.chapters.iter().any(is_collector) {
            let mut slug = "notes".to_string();
            let mut n = 1;
            while book.chapters.iter().any(|c| c.slug == slug) {
                n += 1;
                slug = format!("notes-{n}");
            }
            let mut data = settings.to_json();
            data["collect"] = json!(true);
            let title = match book.labels.notes.trim() {
                "" => "Notes".to_string(),
                t => t.to_string(),
            };
            let chapter = Chapter {
                slug,
                kind: ChapterKind::Notes,
                title,
                plugin_data: [(Self::NAME.to_string(), data)].into_iter().collect(),
                blocks: Vec::new(),
                ..Chapter::default()
            };
            book.chapters.push(chapter);
        }
        if settings.mode != Mode::NotesChapter {
            let before = book.chapters.len();
            book.chapters.retain(|c| !is_collector(c));
            if before != book.chapters.len() {
                ctx.report(PluginDiagnostic::warning(
                    "removed a notes chapter: the notes are not collected in this mode",
                ));
            }
        }
        Ok(())
    }

    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub => CSS.into(),
            Format::Pdf => TYPST.into(),
        }
    }
}

stoa_sdk::export_plugin!(Footnotes);

/// Whether `chapter` is the notes chapter this plugin adds.
pub fn is_collector(chapter: &Chapter) -> bool {
    chapter.kind == ChapterKind::Notes
        && chapter
            .plugin_data
            .get(Footnotes::NAME)
            .is_some_and(|d| d["collect"] == json!(true))
}

/// Records the book's settings in `chapter`, keeping the notes chapter's mark.
fn stamp(chapter: &mut Chapter, settings: Settings) {
    let collect = is_collector(chapter);
    let mut data = settings.to_json();
    if collect {
        data["collect"] = json!(true);
    }
    chapter
        .plugin_data
        .insert(Footnotes::NAME.to_string(), data);
}

#[cfg(test)]
mod tests;
