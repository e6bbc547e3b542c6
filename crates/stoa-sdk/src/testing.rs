//! For the SDK's own tests: a plugin with every hook, each of which panics
//! saying its name, so that a test sees which trait method a hook's
//! function reached; and an input every hook reads.

use crate::{
    Book, BookMeta, Chapter, Configure, Context, Finish, Format, Labels, Markdown, Plugin,
    PluginError, Source, Styles, TREE_MINOR, TREE_VERSION, Transform,
};
use serde_json::json;

/// Implements every hook; each panics with "`<hook>` was called".
#[derive(Default)]
pub struct Everything;

impl Plugin for Everything {
    const NAME: &'static str = "everything";
    const VERSION: &'static str = "0.0.1";
}

impl Configure for Everything {
    fn configure(&self, _: &Context) -> Result<(), PluginError> {
        panic!("`configure` was called")
    }
}

impl Source for Everything {
    fn source(&self, _: &mut Markdown, _: &Context) -> Result<(), PluginError> {
        panic!("`source` was called")
    }
}

impl Transform for Everything {
    fn transform(&self, _: &mut Chapter, _: &Context) -> Result<(), PluginError> {
        panic!("`transform` was called")
    }
}

impl Finish for Everything {
    fn finish(&self, _: &mut Book, _: &Context) -> Result<(), PluginError> {
        panic!("`finish` was called")
    }
}

impl Styles for Everything {
    fn styles(&self, _: Format, _: &Context) -> String {
        panic!("`styles` was called")
    }
}

/// One input with the fields of every hook's (inputs ignore fields they do
/// not know), so that any hook reads it and reaches the plugin.
pub fn any_input() -> Vec<u8> {
    let book = json!({"version": TREE_VERSION, "id": "b", "lang": "en",
        "meta": BookMeta::default(), "labels": Labels::default(), "chapters": []});
    let input = json!({"tree_version": TREE_VERSION, "tree_minor": TREE_MINOR,
        "config": {}, "lang": "en", "book_id": "b", "labels": Labels::default(),
        "chapter": Chapter::default(), "book": book, "format": "epub",
        "slug": "a", "markdown": "Text.\n"});
    serde_json::to_vec(&input).expect("plain JSON")
}

/// The message of a panic answer.
pub fn panic_message(body: &[u8]) -> String {
    let failure: crate::wire::FailureOutput = crate::wire::from_slice(body).expect("a failure");
    failure.diagnostics[0].message.clone()
}
