//! A plugin built into the host runs through the same steps as a library:
//! the same answers, a panic turned into an error naming the plugin, and a
//! library in a folder the author names takes its place.

mod common;

use common::{book, example_search};
use serde_json::json;
use std::sync::Arc;
use stoa_plugin_host::{PluginRun, SearchPath, apply, list, load};
use stoa_sdk::builtin::BuiltinPlugin;
use stoa_sdk::{Chapter, Context, Format, Plugin, PluginError, Styles, Transform};

/// Titles in capitals; panics when told to; says `example` so that the
/// example library can stand in for it.
#[derive(Default)]
struct Example;

impl Plugin for Example {
    const NAME: &'static str = "example";
    const VERSION: &'static str = "0.0.7";
}

impl Transform for Example {
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        if ctx.config()["panic"] == json!(true) {
            panic!("built-in boom");
        }
        chapter.title = chapter.title.to_uppercase();
        Ok(())
    }
}

impl Styles for Example {
    fn styles(&self, format: Format, _: &Context) -> String {
        format!("/* built-in {format} */")
    }
}

fn builtins() -> Vec<Arc<BuiltinPlugin>> {
    vec![Arc::new(stoa_sdk::builtin_plugin!(Example))]
}

#[test]
fn a_builtin_plugin_is_found_and_applied_in_process() {
    let search = SearchPath::new([]).with_builtins(builtins());
    let plugin = load("example", &search).expect("built in");
    assert!(plugin.is_builtin() && !plugin.is_isolated());
    assert_eq!(plugin.version(), "0.0.7");
    assert_eq!(plugin.origin(), "built into stoa");
    let run = PluginRun::new(plugin, json!({}));
    let input = book(2, 1);
    let (out, warnings) = apply(&[run], input.clone()).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        out.chapters[0].title,
        input.chapters[0].title.to_uppercase()
    );
    assert!(out.styles.iter().any(|s| s.code.contains("built-in")));
    let listed = list(&search);
    let info = listed[0].as_ref().unwrap();
    assert!(info.builtin && !info.shadowed && info.name == "example");
}

#[test]
fn a_panic_in_a_builtin_plugin_is_an_error_naming_it() {
    let search = SearchPath::new([]).with_builtins(builtins());
    let run = PluginRun::new(load("example", &search).unwrap(), json!({"panic": true}));
    let errors = apply(&[run], book(1, 1)).unwrap_err();
    let error = errors.iter().find(|e| e.is_error()).expect("an error");
    assert!(
        error.message.contains("plugin `example` (built into stoa)")
            && error.message.contains("built-in boom"),
        "{error}"
    );
}

#[test]
fn a_library_in_a_named_folder_overrides_the_builtin() {
    let folders = example_search();
    let search = SearchPath::standard(folders.dirs(), None, None, None).with_builtins(builtins());
    let plugin = load("example", &search).expect("the example library");
    assert!(!plugin.is_builtin(), "{}", plugin.origin());
    let listed = list(&search);
    let builtin = listed
        .iter()
        .flatten()
        .find(|i| i.builtin)
        .expect("the built-in is still listed");
    assert!(builtin.shadowed, "and marked as hidden");
}
