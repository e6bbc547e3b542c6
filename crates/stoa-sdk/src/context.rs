//! What a hook knows besides the tree: its configuration, the language, and
//! a place to report warnings and errors.

use crate::{Labels, PluginError, Severity};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::sync::Mutex;

/// A warning or error from a plugin, as it crosses the boundary. The host
/// turns it into a [`crate::Diagnostic`] naming the plugin and the file of
/// the chapter concerned. Made with [`Self::warning`] or [`Self::error`]:
/// a field may be added (`#[non_exhaustive]`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct PluginDiagnostic {
    /// Warning or error. An error stops the build of the book.
    pub severity: Severity,
    /// What is wrong, in a sentence.
    pub message: String,
    /// What the author should do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// The slug of the chapter concerned; in `transform` the host fills in
    /// the chapter being transformed when this is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chapter: Option<String>,
}

impl PluginDiagnostic {
    /// A warning: the book is still built.
    pub fn warning(message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, message)
    }

    /// An error: the book is not built.
    pub fn error(message: impl Into<String>) -> Self {
        Self::new(Severity::Error, message)
    }

    fn new(severity: Severity, message: impl Into<String>) -> Self {
        PluginDiagnostic {
            severity,
            message: message.into(),
            hint: None,
            chapter: None,
        }
    }

    /// Says what to do about it.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// Names the chapter concerned, by slug (useful in `finish`).
    pub fn in_chapter(mut self, slug: impl Into<String>) -> Self {
        self.chapter = Some(slug.into());
        self
    }
}

/// What a hook is given besides the tree. One per call; `Sync`, so a hook may
/// share it with threads of its own.
#[derive(Debug)]
pub struct Context {
    config: Value,
    lang: String,
    book_id: String,
    labels: Labels,
    chapter: Option<String>,
    /// The plugin's name, for messages about its table.
    plugin: Option<&'static str>,
    diagnostics: Mutex<Vec<PluginDiagnostic>>,
}

impl Context {
    /// A context, as the SDK makes one for each call; public so that a plugin
    /// can unit-test its hooks without loading anything.
    pub fn new(config: Value, lang: impl Into<String>, book_id: impl Into<String>) -> Self {
        Context {
            config,
            lang: lang.into(),
            book_id: book_id.into(),
            labels: Labels::default(),
            chapter: None,
            plugin: None,
            diagnostics: Mutex::new(Vec::new()),
        }
    }

    /// Names the chapter being transformed, so that reports name it.
    pub fn for_chapter(mut self, slug: impl Into<String>) -> Self {
        self.chapter = Some(slug.into());
        self
    }

    /// Names the plugin, so that [`Self::config_as`] names its table; the
    /// SDK does it for each call.
    pub fn for_plugin(mut self, name: &'static str) -> Self {
        self.plugin = Some(name);
        self
    }

    /// Gives the edition's words, as the host does for each call.
    pub fn with_labels(mut self, labels: Labels) -> Self {
        self.labels = labels;
        self
    }

    /// The words stoa prints around the text in the edition's language
    /// (its locale table's, or the book's `[labels.<lang>]`): a plugin
    /// takes its headings from here, e.g. `labels().glossary`, so that
    /// every language stoa knows, and every one a book gives words for,
    /// needs no setting. A field is empty when the host predates it: fall
    /// back to a word of the plugin's own.
    pub fn labels(&self) -> &Labels {
        &self.labels
    }

    /// The plugin's `[plugins.<name>]` table from book.toml, as JSON; an
    /// empty object when the table is empty.
    pub fn config(&self) -> &Value {
        &self.config
    }

    /// The configuration read into a type of the plugin's, with an error that
    /// says which table is wrong.
    pub fn config_as<T: DeserializeOwned>(&self) -> Result<T, PluginError> {
        T::deserialize(&self.config).map_err(|e| {
            let table = self.plugin.unwrap_or("<name>");
            PluginError::new(format!("bad plugin settings: {e}")).with_hint(format!(
                "fix the plugin's [plugins.{table}] table in book.toml"
            ))
        })
    }

    /// BCP 47 tag of the edition being built, e.g. `pt-BR`.
    pub fn lang(&self) -> &str {
        &self.lang
    }

    /// The book's folder name, e.g. `dialogues`.
    pub fn book_id(&self) -> &str {
        &self.book_id
    }

    /// The slug of the chapter being transformed; `None` in `finish` and `styles`.
    pub fn chapter(&self) -> Option<&str> {
        self.chapter.as_deref()
    }

    /// Reports a warning about the current chapter (or the book).
    pub fn warn(&self, message: impl Into<String>) {
        self.report(PluginDiagnostic::warning(message));
    }

    /// Reports an error about the current chapter (or the book). The hook
    /// runs on, so that one run reports every problem; the book is not built.
    pub fn error(&self, message: impl Into<String>) {
        self.report(PluginDiagnostic::error(message));
    }

    /// Reports a diagnostic built by hand, e.g. with a hint or a chapter.
    pub fn report(&self, mut diagnostic: PluginDiagnostic) {
        if diagnostic.chapter.is_none() {
            diagnostic.chapter.clone_from(&self.chapter);
        }
        self.lock().push(diagnostic);
    }

    /// Everything reported so far.
    pub fn diagnostics(&self) -> Vec<PluginDiagnostic> {
        self.lock().clone()
    }

    /// Everything reported, consuming the context.
    pub fn into_diagnostics(self) -> Vec<PluginDiagnostic> {
        // A hook that panicked while holding the lock poisoned it; what was
        // reported before is still worth showing.
        self.diagnostics
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<PluginDiagnostic>> {
        self.diagnostics.lock().unwrap_or_else(|e| e.into_inner())
    }
}
