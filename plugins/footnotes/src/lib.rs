//! The footnotes plugin: notes at the foot of the page in print, pop-up
//! notes in EPUB, or endnotes after each post, or a notes chapter at the end
//! of the book.
//!
//! The plugin does not move or renumber the notes: it checks them, and
//! leaves in the tree how the book wants them set, so that notes that other
//! plugins create before or after it (the glossary's first-use definitions)
//! are set exactly like authored ones. Each chapter gets a note style
//! ([`Chapter::notes`]: placement and numbering), and in notes-chapter mode
//! `finish` adds an empty chapter of kind [`ChapterKind::Notes`], the
//! book's notes chapter; the notes plan of stoa numbers the
//! `footnote_ref`s and `footnote_def`s and places them, once for every
//! renderer (see docs/footnotes.md).
//!
//! Settings, `[plugins.footnotes]` in book.toml:
//! - `mode = "footnotes"` (default), `"endnotes"` or `"notes-chapter"`;
//! - `numbering = "per-post"` (default) or `"continuous"`.
#![forbid(unsafe_code)]

mod check;
mod config;

pub use check::{Problem, check};
pub use config::{Mode, Numbering, Settings};

use stoa_sdk::{
    Book, Chapter, ChapterKind, Configure, Context, Finish, Format, Plugin, PluginDiagnostic,
    PluginError, Styles, Transform,
};

/// The style sheet for footnote asides and the notes chapter, for EPUB and
/// the web edition.
pub const CSS: &str = include_str!("footnotes.css");
/// What the web edition adds: the rule takes the theme's colour, which
/// follows light and dark mode (EPUB readers get the fixed grey alone).
pub const WEB_CSS: &str = "aside.footnote { border-top-color: var(--rule, #bbb); }\n";
/// The Typst rules for the foot of the page.
pub const TYPST: &str = include_str!("footnotes.typ");

/// The plugin.
#[derive(Default)]
pub struct Footnotes;

impl Plugin for Footnotes {
    const NAME: &'static str = "footnotes";
    const VERSION: &'static str = env!("CARGO_PKG_VERSION");
}

impl Configure for Footnotes {
    /// The settings are checked here, once per edition, not per chapter.
    fn configure(&self, ctx: &Context) -> Result<(), PluginError> {
        Settings::from_config(ctx.config()).map(drop)
    }
}

impl Transform for Footnotes {
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
}

impl Finish for Footnotes {
    fn finish(&self, book: &mut Book, ctx: &Context) -> Result<(), PluginError> {
        let settings = Settings::from_config(ctx.config())?;
        // Again here, for the chapters other plugins added since `transform`.
        for chapter in &mut book.chapters {
            stamp(chapter, settings);
        }
        if settings.mode == Mode::NotesChapter {
            add_notes_chapter(book);
        } else if remove_empty_notes_chapters(book) {
            ctx.report(PluginDiagnostic::warning(
                "removed a notes chapter: the notes are not collected in this mode",
            ));
        }
        Ok(())
    }
}

impl Styles for Footnotes {
    fn styles(&self, format: Format, _ctx: &Context) -> String {
        match format {
            Format::Epub => CSS.into(),
            Format::Html => format!("{CSS}{WEB_CSS}"),
            Format::Pdf => TYPST.into(),
        }
    }
}

// Exported as a library by the `cdylib/` crate beside this one; stoa links
// this crate in as a built-in (a second `stoa_plugin_v1` in stoa would clash).

/// Whether `chapter` is a notes chapter: the one that collects the notes
/// of the chapters placed in it (the first such chapter of the book).
pub fn is_notes_chapter(chapter: &Chapter) -> bool {
    chapter.kind == ChapterKind::Notes
}

/// Records the book's note style in `chapter`; the notes chapter itself
/// has none, it only receives the notes of the others.
fn stamp(chapter: &mut Chapter, settings: Settings) {
    if !is_notes_chapter(chapter) {
        chapter.notes = Some(settings.note_style());
    }
}

/// Adds an empty notes chapter at the end of the book, unless it has one.
fn add_notes_chapter(book: &mut Book) {
    if book.chapters.iter().any(is_notes_chapter) {
        return;
    }
    let mut slug = "notes".to_string();
    let mut n = 1;
    while book.chapters.iter().any(|c| c.slug == slug) {
        n += 1;
        slug = format!("notes-{n}");
    }
    let title = match book.labels.notes.trim() {
        "" => "Notes".to_string(),
        t => t.to_string(),
    };
    book.chapters.push(Chapter {
        slug,
        kind: ChapterKind::Notes,
        title,
        ..Chapter::default()
    });
}

/// Removes the empty notes chapters (such as this plugin adds in
/// notes-chapter mode), which would stay empty in another mode; true when
/// there was one. A notes chapter with content of its own is kept.
fn remove_empty_notes_chapters(book: &mut Book) -> bool {
    let before = book.chapters.len();
    book.chapters
        .retain(|c| !(is_notes_chapter(c) && c.blocks.is_empty()));
    before != book.chapters.len()
}

#[cfg(test)]
mod tests;
