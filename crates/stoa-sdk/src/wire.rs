//! The JSON messages that cross the ABI, one input and one output per hook.
//!
//! The host serializes the inputs with borrowed parts and the plugin reads
//! them owned, hence the `Cow`s. Unknown fields are ignored both ways, so a
//! field can be added without a new ABI version.
//!
//! Every input carries the host's tree version in two numbers:
//! `tree_version`, the major (the one number a plugin built before minors
//! existed compares), and `tree_minor`, absent (0) from such a host. The
//! format of `styles` travels as its name, so that a format newer than the
//! plugin reads as "no style", never as malformed input.

use crate::{Book, Chapter, Labels, PluginDiagnostic};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::borrow::Cow;

/// Input of `transform`.
#[derive(Debug, Serialize, Deserialize)]
pub struct TransformInput<'a> {
    /// [`stoa_doc::TREE_VERSION`] of the host: the tree's major version.
    pub tree_version: u32,
    /// [`stoa_doc::TREE_MINOR`] of the host; 0 from a host that predates it.
    #[serde(default)]
    pub tree_minor: u32,
    /// The plugin's `[plugins.<name>]` table of book.toml, `{}` when empty.
    pub config: Cow<'a, Value>,
    /// BCP 47 tag of the edition, e.g. `pt-BR`.
    pub lang: Cow<'a, str>,
    /// The book's folder name.
    pub book_id: Cow<'a, str>,
    /// The words of the edition (the book's `labels`); empty from a host
    /// that predates them.
    #[serde(default)]
    pub labels: Cow<'a, Labels>,
    /// The chapter to transform.
    pub chapter: Cow<'a, Chapter>,
}

/// Output of `transform`.
#[derive(Debug, Serialize, Deserialize)]
pub struct TransformOutput<'a> {
    /// The chapter, changed or not.
    pub chapter: Cow<'a, Chapter>,
    /// Warnings and errors about this chapter.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

/// Input of `finish`.
#[derive(Debug, Serialize, Deserialize)]
pub struct FinishInput<'a> {
    /// [`stoa_doc::TREE_VERSION`] of the host: the tree's major version.
    pub tree_version: u32,
    /// [`stoa_doc::TREE_MINOR`] of the host; 0 from a host that predates it.
    #[serde(default)]
    pub tree_minor: u32,
    /// The plugin's `[plugins.<name>]` table.
    pub config: Cow<'a, Value>,
    /// BCP 47 tag of the edition.
    pub lang: Cow<'a, str>,
    /// The whole book in one language, every chapter already transformed.
    pub book: Cow<'a, Book>,
}

/// Output of `finish`.
#[derive(Debug, Serialize, Deserialize)]
pub struct FinishOutput<'a> {
    /// The book, changed or not; chapters may be added.
    pub book: Cow<'a, Book>,
    /// Warnings and errors, each naming a chapter by slug or none.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

/// Input of `styles`.
#[derive(Debug, Serialize, Deserialize)]
pub struct StylesInput<'a> {
    /// [`stoa_doc::TREE_VERSION`] of the host: the tree's major version.
    pub tree_version: u32,
    /// [`stoa_doc::TREE_MINOR`] of the host; 0 from a host that predates it.
    #[serde(default)]
    pub tree_minor: u32,
    /// The plugin's `[plugins.<name>]` table.
    pub config: Cow<'a, Value>,
    /// BCP 47 tag of the edition.
    pub lang: Cow<'a, str>,
    /// The book's folder name.
    pub book_id: Cow<'a, str>,
    /// The words of the edition (the book's `labels`); empty from a host
    /// that predates them.
    #[serde(default)]
    pub labels: Cow<'a, Labels>,
    /// The format's name ([`crate::Format::name`]): `epub` or `html` (want
    /// CSS), `pdf` (wants Typst), or one newer than the plugin.
    pub format: Cow<'a, str>,
}

/// Output of `styles`.
#[derive(Debug, Serialize, Deserialize)]
pub struct StylesOutput {
    /// CSS or Typst code; empty for none.
    #[serde(default)]
    pub code: String,
    /// Warnings and errors.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

/// Input of `configure`: the settings and the edition they are for, before
/// any post is read.
#[derive(Debug, Serialize, Deserialize)]
pub struct ConfigureInput<'a> {
    /// [`stoa_doc::TREE_VERSION`] of the host: the tree's major version.
    pub tree_version: u32,
    /// [`stoa_doc::TREE_MINOR`] of the host.
    #[serde(default)]
    pub tree_minor: u32,
    /// The plugin's `[plugins.<name>]` table of book.toml, `{}` when empty.
    pub config: Cow<'a, Value>,
    /// BCP 47 tag of the edition.
    pub lang: Cow<'a, str>,
    /// The book's folder name.
    pub book_id: Cow<'a, str>,
    /// The words of the edition.
    #[serde(default)]
    pub labels: Cow<'a, Labels>,
}

/// Output of `configure`: what is wrong with the settings, if anything.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct ConfigureOutput {
    /// Warnings and errors about the settings.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

/// Input of `source`: one post's Markdown, after its front matter.
#[derive(Debug, Serialize, Deserialize)]
pub struct SourceInput<'a> {
    /// [`stoa_doc::TREE_VERSION`] of the host: the tree's major version.
    pub tree_version: u32,
    /// [`stoa_doc::TREE_MINOR`] of the host.
    #[serde(default)]
    pub tree_minor: u32,
    /// The plugin's `[plugins.<name>]` table of book.toml, `{}` when empty.
    pub config: Cow<'a, Value>,
    /// BCP 47 tag of the edition.
    pub lang: Cow<'a, str>,
    /// The book's folder name.
    pub book_id: Cow<'a, str>,
    /// The words of the edition.
    #[serde(default)]
    pub labels: Cow<'a, Labels>,
    /// The post's slug.
    pub slug: Cow<'a, str>,
    /// The post's file, as stoa names it in messages, e.g. `posts/a/en.md`.
    #[serde(default)]
    pub file: Option<Cow<'a, str>>,
    /// The Markdown, as the author wrote it or as the plugins before this
    /// one left it.
    pub markdown: Cow<'a, str>,
}

/// Output of `source`.
#[derive(Debug, Serialize, Deserialize)]
pub struct SourceOutput<'a> {
    /// The new Markdown.
    pub markdown: Cow<'a, str>,
    /// For each line of `markdown`, the 1-based line of the input it comes
    /// from, or `null` for a line the plugin added. Absent: stoa guesses it
    /// from the lines input and output share ([`crate::guess_line_map`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_map: Option<Vec<Option<usize>>>,
    /// Warnings and errors about this post.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

/// Output of any hook that returns a status other than OK.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct FailureOutput {
    /// Why the hook failed.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

/// A stack this large holds a tree some ten thousand levels deep in a debug
/// build; mapped lazily, so its cost is one mmap per call, about 13 µs.
const DEEP_STACK: usize = 64 << 20;
/// Less than this left means "not running on a deep stack yet".
const RED_ZONE: usize = 32 << 20;

/// Runs `f` (a hook call: JSON in, work on the tree, JSON out) on a stack
/// big enough for deep trees. serde's internally tagged enums replay nested
/// values recursively without growing the stack themselves, so a list
/// nested 600 deep overflows a 2 MiB thread stack in a debug build. Calls
/// already on a deep stack (the host's, then the plugin's) do not grow again.
pub fn with_deep_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, DEEP_STACK, f)
}

/// Reads JSON of any depth the stack allows. serde_json stops at 128 levels;
/// a tree of lists nested 200 deep is legitimate, so the limit is lifted and
/// `serde_stacker` grows the stack while parsing. Call it inside
/// [`with_deep_stack`] for the parts serde_stacker does not cover.
pub fn from_slice<T: DeserializeOwned>(bytes: &[u8]) -> serde_json::Result<T> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let value = T::deserialize(serde_stacker::Deserializer::new(&mut de))?;
    de.end()?;
    Ok(value)
}

/// Writes JSON; the counterpart of [`from_slice`].
pub fn to_vec<T: Serialize>(value: &T) -> serde_json::Result<Vec<u8>> {
    serde_json::to_vec(value)
}
