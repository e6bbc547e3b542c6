//! The JSON messages that cross the ABI, one input and one output per hook.
//!
//! The host serializes the inputs with borrowed parts and the plugin reads
//! them owned, hence the `Cow`s. Unknown fields are ignored both ways, so a
//! field can be added without a new ABI version; and in Rust each type is
//! `#[non_exhaustive]`, made with its `new` (and `with_` for the fields
//! that have a default), so that a new field breaks no code that makes one.
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
#[non_exhaustive]
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

impl<'a> TransformInput<'a> {
    /// The input for `chapter` of book `book_id` in `lang`, with this SDK's
    /// tree version; no labels until [`Self::with_labels`].
    pub fn new(
        config: Cow<'a, Value>,
        lang: impl Into<Cow<'a, str>>,
        book_id: impl Into<Cow<'a, str>>,
        chapter: Cow<'a, Chapter>,
    ) -> Self {
        TransformInput {
            tree_version: crate::TREE_VERSION,
            tree_minor: crate::TREE_MINOR,
            config,
            lang: lang.into(),
            book_id: book_id.into(),
            labels: Cow::Owned(Labels::default()),
            chapter,
        }
    }

    /// The words of the edition.
    pub fn with_labels(mut self, labels: Cow<'a, Labels>) -> Self {
        self.labels = labels;
        self
    }
}

/// Output of `transform`.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct TransformOutput<'a> {
    /// The chapter, changed or not.
    pub chapter: Cow<'a, Chapter>,
    /// Warnings and errors about this chapter.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

impl<'a> TransformOutput<'a> {
    /// The chapter as the hook left it, and what it reported.
    pub fn new(chapter: Cow<'a, Chapter>, diagnostics: Vec<PluginDiagnostic>) -> Self {
        TransformOutput {
            chapter,
            diagnostics,
        }
    }
}

/// Input of `finish`.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
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

impl<'a> FinishInput<'a> {
    /// The input for `book` in `lang`, with this SDK's tree version.
    pub fn new(config: Cow<'a, Value>, lang: impl Into<Cow<'a, str>>, book: Cow<'a, Book>) -> Self {
        FinishInput {
            tree_version: crate::TREE_VERSION,
            tree_minor: crate::TREE_MINOR,
            config,
            lang: lang.into(),
            book,
        }
    }
}

/// Output of `finish`.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FinishOutput<'a> {
    /// The book, changed or not; chapters may be added.
    pub book: Cow<'a, Book>,
    /// Warnings and errors, each naming a chapter by slug or none.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

impl<'a> FinishOutput<'a> {
    /// The book as the hook left it, and what it reported.
    pub fn new(book: Cow<'a, Book>, diagnostics: Vec<PluginDiagnostic>) -> Self {
        FinishOutput { book, diagnostics }
    }
}

/// Input of `styles`.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
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

impl<'a> StylesInput<'a> {
    /// The input asking for the styles of the format named `format`, for
    /// book `book_id` in `lang`, with this SDK's tree version; no labels
    /// until [`Self::with_labels`].
    pub fn new(
        config: Cow<'a, Value>,
        lang: impl Into<Cow<'a, str>>,
        book_id: impl Into<Cow<'a, str>>,
        format: impl Into<Cow<'a, str>>,
    ) -> Self {
        StylesInput {
            tree_version: crate::TREE_VERSION,
            tree_minor: crate::TREE_MINOR,
            config,
            lang: lang.into(),
            book_id: book_id.into(),
            labels: Cow::Owned(Labels::default()),
            format: format.into(),
        }
    }

    /// The words of the edition.
    pub fn with_labels(mut self, labels: Cow<'a, Labels>) -> Self {
        self.labels = labels;
        self
    }
}

/// Output of `styles`.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
pub struct StylesOutput {
    /// CSS or Typst code; empty for none.
    #[serde(default)]
    pub code: String,
    /// Warnings and errors.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

impl StylesOutput {
    /// The hook's code (empty for none), and what it reported.
    pub fn new(code: String, diagnostics: Vec<PluginDiagnostic>) -> Self {
        StylesOutput { code, diagnostics }
    }
}

/// Input of `configure`: the settings and the edition they are for, before
/// any post is read.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
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

impl<'a> ConfigureInput<'a> {
    /// The input for the settings of book `book_id` in `lang`, with this
    /// SDK's tree version; no labels until [`Self::with_labels`].
    pub fn new(
        config: Cow<'a, Value>,
        lang: impl Into<Cow<'a, str>>,
        book_id: impl Into<Cow<'a, str>>,
    ) -> Self {
        ConfigureInput {
            tree_version: crate::TREE_VERSION,
            tree_minor: crate::TREE_MINOR,
            config,
            lang: lang.into(),
            book_id: book_id.into(),
            labels: Cow::Owned(Labels::default()),
        }
    }

    /// The words of the edition.
    pub fn with_labels(mut self, labels: Cow<'a, Labels>) -> Self {
        self.labels = labels;
        self
    }
}

/// Output of `configure`: what is wrong with the settings, if anything.
#[derive(Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ConfigureOutput {
    /// Warnings and errors about the settings.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

impl ConfigureOutput {
    /// What the hook found wrong with the settings, if anything.
    pub fn new(diagnostics: Vec<PluginDiagnostic>) -> Self {
        ConfigureOutput { diagnostics }
    }
}

/// Input of `source`: one post's Markdown, after its front matter.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
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

impl<'a> SourceInput<'a> {
    /// The input for the Markdown of post `slug` of book `book_id` in
    /// `lang`, with this SDK's tree version; no labels and no file until
    /// [`Self::with_labels`] and [`Self::with_file`].
    pub fn new(
        config: Cow<'a, Value>,
        lang: impl Into<Cow<'a, str>>,
        book_id: impl Into<Cow<'a, str>>,
        slug: impl Into<Cow<'a, str>>,
        markdown: impl Into<Cow<'a, str>>,
    ) -> Self {
        SourceInput {
            tree_version: crate::TREE_VERSION,
            tree_minor: crate::TREE_MINOR,
            config,
            lang: lang.into(),
            book_id: book_id.into(),
            labels: Cow::Owned(Labels::default()),
            slug: slug.into(),
            file: None,
            markdown: markdown.into(),
        }
    }

    /// The words of the edition.
    pub fn with_labels(mut self, labels: Cow<'a, Labels>) -> Self {
        self.labels = labels;
        self
    }

    /// The post's file, as stoa names it in messages.
    pub fn with_file(mut self, file: Option<Cow<'a, str>>) -> Self {
        self.file = file;
        self
    }
}

/// Output of `source`.
#[derive(Debug, Serialize, Deserialize)]
#[non_exhaustive]
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

impl<'a> SourceOutput<'a> {
    /// The Markdown as the hook left it, the line each of its lines comes
    /// from (`None`: let stoa guess), and what the hook reported.
    pub fn new(
        markdown: impl Into<Cow<'a, str>>,
        line_map: Option<Vec<Option<usize>>>,
        diagnostics: Vec<PluginDiagnostic>,
    ) -> Self {
        SourceOutput {
            markdown: markdown.into(),
            line_map,
            diagnostics,
        }
    }
}

/// Output of any hook that returns a status other than OK.
#[derive(Debug, Default, Serialize, Deserialize)]
#[non_exhaustive]
pub struct FailureOutput {
    /// Why the hook failed.
    #[serde(default)]
    pub diagnostics: Vec<PluginDiagnostic>,
}

impl FailureOutput {
    /// Why the hook failed.
    pub fn new(diagnostics: Vec<PluginDiagnostic>) -> Self {
        FailureOutput { diagnostics }
    }
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
