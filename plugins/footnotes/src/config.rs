//! `[plugins.footnotes]` in book.toml.

use serde_json::Value;
use stoa_sdk::{NoteNumbering, NotePlacement, NoteStyle, PluginError};

/// Where the notes go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// At the foot of the page (PDF), as pop-up asides after the paragraph (EPUB).
    #[default]
    Footnotes,
    /// At the end of each post.
    Endnotes,
    /// In a notes chapter at the end of the book, under a heading per post.
    NotesChapter,
}

/// How the notes are numbered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbering {
    /// From 1 in each post.
    #[default]
    PerPost,
    /// Through the whole book.
    Continuous,
}

/// The plugin's settings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// Where the notes go.
    pub mode: Mode,
    /// How they are numbered.
    pub numbering: Numbering,
}

const HINT: &str = "the keys of [plugins.footnotes] are `mode` (\"footnotes\", \"endnotes\" or \
     \"notes-chapter\") and `numbering` (\"per-post\" or \"continuous\")";

impl Settings {
    /// Reads `[plugins.footnotes]`; an unknown key or value is an error.
    pub fn from_config(config: &Value) -> Result<Self, PluginError> {
        let mut settings = Settings::default();
        let table = match config {
            Value::Null => return Ok(settings),
            Value::Object(map) => map,
            _ => {
                return Err(PluginError::new(
                    "[plugins.footnotes] in book.toml must be a table of settings",
                )
                .with_hint(HINT));
            }
        };
        for (key, value) in table {
            match key.as_str() {
                "mode" => {
                    settings.mode = match value.as_str() {
                        Some("footnotes") => Mode::Footnotes,
                        Some("endnotes") => Mode::Endnotes,
                        Some("notes-chapter") => Mode::NotesChapter,
                        _ => {
                            return Err(bad(
                                "mode",
                                value,
                                "\"footnotes\", \"endnotes\" or \"notes-chapter\"",
                            ));
                        }
                    }
                }
                "numbering" => {
                    settings.numbering = match value.as_str() {
                        Some("per-post") => Numbering::PerPost,
                        Some("continuous") => Numbering::Continuous,
                        _ => return Err(bad("numbering", value, "\"per-post\" or \"continuous\"")),
                    }
                }
                other => {
                    return Err(PluginError::new(format!(
                        "unknown key `{other}` in [plugins.footnotes] of book.toml"
                    ))
                    .with_hint(format!("remove or rename `{other}`: {HINT}")));
                }
            }
        }
        Ok(settings)
    }

    /// The settings as the renderers read them: a chapter's
    /// [`stoa_sdk::Chapter::notes`].
    pub fn note_style(self) -> NoteStyle {
        let placement = match self.mode {
            Mode::Footnotes => NotePlacement::Footnotes,
            Mode::Endnotes => NotePlacement::Endnotes,
            Mode::NotesChapter => NotePlacement::NotesChapter,
        };
        let numbering = match self.numbering {
            Numbering::PerPost => NoteNumbering::PerChapter,
            Numbering::Continuous => NoteNumbering::Continuous,
        };
        NoteStyle {
            placement,
            numbering,
        }
    }
}

fn bad(key: &str, value: &Value, allowed: &str) -> PluginError {
    let shown = match value {
        Value::String(s) => format!("{s:?}"),
        other => format!("`{other}`"),
    };
    PluginError::new(format!(
        "`{key}` in [plugins.footnotes] of book.toml must be {allowed}, not {shown}"
    ))
    .with_hint(HINT)
}
