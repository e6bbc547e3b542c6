//! A plugin linked into the host instead of loaded from a library: the
//! bundled plugins built into the `stoa` binary.
//!
//! A built-in plugin is called through the hooks an exported one is, with
//! the same guard against panics and the same deep stack. Only the C
//! boundary is left out and, for the hooks that change the tree
//! (`transform`, `finish`), the JSON: they are called on the tree itself,
//! which is what the JSON would have carried there and back (turning
//! every chapter into JSON and back cost a build more than the plugins'
//! own work). A book built with the built-in plugin and with its library
//! is the same, byte for byte.

use crate::__private::HookFns;
use crate::abi::{STATUS_ERROR, STATUS_OK, STATUS_PANIC};
use crate::hook::Hook;
use crate::hooks::{self, Answer};
use crate::{
    Book, Chapter, Context, Hooks, Labels, Plugin, PluginDiagnostic, PluginError, TREE_MINOR,
    TREE_VERSION, tree_version_code,
};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A tree hook's answer when called in place: its status, as the C ABI's,
/// and what it reported, its error or its panic last.
pub type InPlace = (i32, Vec<PluginDiagnostic>);

/// A [`Plugin`] value the host calls in its own process. Made by
/// [`crate::builtin_plugin!`], which finds the hooks the type implements.
pub struct BuiltinPlugin {
    plugin: Box<dyn Erased>,
    name: &'static str,
    version: &'static str,
    hooks: Hooks,
    /// Tree hooks called on the tree itself, not through JSON.
    in_place: bool,
}

impl std::fmt::Debug for BuiltinPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BuiltinPlugin")
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

impl BuiltinPlugin {
    /// Wraps `plugin` with its hooks; [`crate::builtin_plugin!`] calls it
    /// with the hooks the type implements. Its name and version come from
    /// its [`Plugin`] constants, as `export_plugin!` puts them in the
    /// descriptor.
    pub fn from_parts<P: Plugin>(plugin: P, hooks: HookFns<P>) -> BuiltinPlugin {
        BuiltinPlugin {
            name: P::NAME,
            version: P::VERSION,
            hooks: hooks.hooks(),
            plugin: Box::new(Holder { plugin, hooks }),
            in_place: true,
        }
    }

    /// Has every hook called through JSON, as the plugin's library is: for
    /// a test kit, which must see what the library's users will (a value
    /// JSON cannot carry, say).
    pub fn through_json(mut self) -> BuiltinPlugin {
        self.in_place = false;
        self
    }

    /// The name the author writes in `[plugins.<name>]`.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The plugin's version.
    pub fn version(&self) -> &'static str {
        self.version
    }

    /// The hooks it provides.
    pub fn hooks(&self) -> Hooks {
        self.hooks
    }

    /// The tree version it reads, packed as in the C descriptor: this SDK's.
    pub fn tree_version(&self) -> u32 {
        tree_version_code(TREE_VERSION, TREE_MINOR)
    }

    /// Calls `hook` with the JSON input of the C ABI; the status and the
    /// JSON output, exactly as the exported hook would return them.
    #[doc(hidden)]
    pub fn call(&self, hook: Hook, input: &[u8]) -> (i32, Vec<u8>) {
        run(hook, || self.plugin.call(hook, input))
    }

    /// Calls `transform` on `chapter` itself, with the settings and words
    /// its JSON input would carry; `None` when the plugin has no such hook.
    /// After an error or a panic the chapter may be half changed: the host
    /// drops the edition then, as it does when the JSON says so.
    #[doc(hidden)]
    pub fn transform_in_place(
        &self,
        chapter: &mut Chapter,
        config: &serde_json::Value,
        (lang, book_id): (&str, &str),
        labels: &Labels,
    ) -> Option<InPlace> {
        if !self.in_place {
            return None;
        }
        let labels = labels.clone();
        let ctx =
            hooks::chapter_context(self.name, config.clone(), (lang, book_id), labels, chapter);
        in_place(Hook::Transform, ctx, |ctx| {
            self.plugin.transform(chapter, ctx)
        })
    }

    /// Calls `finish` on `book` itself, as [`Self::transform_in_place`]
    /// does `transform`.
    #[doc(hidden)]
    pub fn finish_in_place(
        &self,
        book: &mut Book,
        config: &serde_json::Value,
        lang: &str,
    ) -> Option<InPlace> {
        if !self.in_place {
            return None;
        }
        let ctx = hooks::book_context(self.name, config.clone(), lang, book);
        in_place(Hook::Finish, ctx, |ctx| self.plugin.finish(book, ctx))
    }
}

/// Runs a tree hook as [`run`] runs a JSON one, and answers as the JSON
/// would have: the diagnostics the hook reported, then its error, or only
/// its panic.
fn in_place(
    hook: Hook,
    ctx: Context,
    call: impl FnOnce(&Context) -> Option<Result<(), PluginError>>,
) -> Option<InPlace> {
    let result = crate::wire::with_deep_stack(|| catch_unwind(AssertUnwindSafe(|| call(&ctx))));
    match result {
        Ok(None) => None,
        Ok(Some(Ok(()))) => Some((STATUS_OK, ctx.into_diagnostics())),
        Ok(Some(Err(e))) => {
            let mut diagnostics = ctx.into_diagnostics();
            hooks::push_error(&mut diagnostics, &e);
            Some((STATUS_ERROR, diagnostics))
        }
        Err(payload) => Some((
            STATUS_PANIC,
            vec![hooks::panicked(hook.name(), payload.as_ref())],
        )),
    }
}

/// What the exported shims do around a hook, minus the C buffer: a deep
/// stack for deep trees, and a panic turned into a status.
fn run(hook: Hook, call: impl FnOnce() -> Answer) -> Answer {
    crate::wire::with_deep_stack(|| hooks::guarded(hook.name(), call))
}

/// A plugin of any type and its hooks, behind one vtable.
trait Erased: Send + Sync {
    fn call(&self, hook: Hook, input: &[u8]) -> Answer;
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Option<Result<(), PluginError>>;
    fn finish(&self, book: &mut Book, ctx: &Context) -> Option<Result<(), PluginError>>;
}

struct Holder<P> {
    plugin: P,
    hooks: HookFns<P>,
}

impl<P: Plugin> Erased for Holder<P> {
    fn call(&self, hook: Hook, input: &[u8]) -> Answer {
        match self.hooks.get(hook) {
            Some(function) => function(&self.plugin, input),
            // The host asks only for the hooks `hooks()` lists.
            None => (crate::abi::STATUS_BAD_INPUT, Vec::new()),
        }
    }

    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Option<Result<(), PluginError>> {
        Some((self.hooks.transform_tree?)(&self.plugin, chapter, ctx))
    }

    fn finish(&self, book: &mut Book, ctx: &Context) -> Option<Result<(), PluginError>> {
        Some((self.hooks.finish_tree?)(&self.plugin, book, ctx))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{FailureOutput, TransformOutput};
    use serde_json::json;

    #[derive(Default)]
    struct Loud;

    impl Plugin for Loud {
        const NAME: &'static str = "loud";
        const VERSION: &'static str = "1.2.3";
    }

    impl crate::Transform for Loud {
        fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
            if ctx.config()["panic"] == json!(true) {
                panic!("too loud");
            }
            chapter.title = chapter.title.to_uppercase();
            Ok(())
        }
    }

    fn input(config: serde_json::Value) -> Vec<u8> {
        let chapter = Chapter {
            slug: "a".into(),
            title: "quiet".into(),
            ..Chapter::default()
        };
        serde_json::to_vec(&json!({"tree_version": TREE_VERSION, "config": config,
            "lang": "en", "book_id": "b", "chapter": chapter}))
        .unwrap()
    }

    #[test]
    fn a_builtin_answers_as_the_exported_hook_does() {
        let plugin = crate::builtin_plugin!(Loud);
        assert_eq!((plugin.name(), plugin.version()), ("loud", "1.2.3"));
        // Only the hook it implements.
        assert_eq!(plugin.hooks().names(), ["transform"]);
        let (status, body) = plugin.call(Hook::Transform, &input(json!({})));
        assert_eq!(status, STATUS_OK);
        let out: TransformOutput = crate::wire::from_slice(&body).unwrap();
        assert_eq!(out.chapter.title, "QUIET");
        // The same bytes as the hook the C shim calls.
        assert_eq!(
            (status, body),
            hooks::guarded("transform", || hooks::transform(&Loud, &input(json!({}))))
        );
    }

    /// Changes the tree, says something, and fails or panics when its
    /// settings say so.
    #[derive(Default)]
    struct Busy;

    impl Plugin for Busy {
        const NAME: &'static str = "busy";
        const VERSION: &'static str = "0.1.0";
    }

    impl Busy {
        fn act(ctx: &Context) -> Result<(), PluginError> {
            ctx.warn(format!("seen in {}", ctx.lang()));
            match ctx.config()["then"].as_str() {
                Some("fail") => Err(PluginError::new("it failed").with_hint("do not")),
                Some("panic") => panic!("it panicked"),
                _ => Ok(()),
            }
        }
    }

    impl crate::Transform for Busy {
        fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
            chapter.title = format!("{} ({})", chapter.title, ctx.labels().glossary);
            Busy::act(ctx)
        }
    }

    impl crate::Finish for Busy {
        fn finish(&self, book: &mut Book, ctx: &Context) -> Result<(), PluginError> {
            book.meta.title = format!("{} of {}", book.meta.title, ctx.book_id());
            Busy::act(ctx)
        }
    }

    /// What a JSON answer carries: the status, the diagnostics, and the
    /// tree when the hook succeeded.
    fn read_answer<T: serde::de::DeserializeOwned>(
        (status, body): (i32, Vec<u8>),
    ) -> (i32, Vec<PluginDiagnostic>, Option<T>) {
        if status != STATUS_OK {
            let failure: FailureOutput = crate::wire::from_slice(&body).unwrap();
            return (status, failure.diagnostics, None);
        }
        let value: serde_json::Value = crate::wire::from_slice(&body).unwrap();
        let diagnostics = serde_json::from_value(value["diagnostics"].clone()).unwrap();
        let tree = value.get("chapter").or(value.get("book")).unwrap().clone();
        (
            status,
            diagnostics,
            Some(serde_json::from_value(tree).unwrap()),
        )
    }

    /// Book `b` in pt-BR, titled `T`.
    fn book(labels: &Labels, chapters: Vec<Chapter>) -> Book {
        Book {
            version: TREE_VERSION,
            id: "b".into(),
            lang: "pt-BR".into(),
            meta: crate::BookMeta {
                title: "T".into(),
                ..crate::BookMeta::default()
            },
            labels: labels.clone(),
            chapters,
            assets: vec![],
            styles: vec![],
            print: crate::Print::default(),
        }
    }

    #[test]
    fn a_tree_hook_called_in_place_answers_as_its_json_does() {
        let plugin = crate::builtin_plugin!(Busy);
        let labels = Labels {
            glossary: "Glossary".into(),
            ..Labels::default()
        };
        for then in ["succeed", "fail", "panic"] {
            let config = json!({ "then": then });
            let chapter = Chapter {
                slug: "a".into(),
                title: "A".into(),
                ..Chapter::default()
            };
            let input = crate::wire::TransformInput::new(
                std::borrow::Cow::Borrowed(&config),
                "pt-BR",
                "b",
                std::borrow::Cow::Borrowed(&chapter),
            )
            .with_labels(std::borrow::Cow::Borrowed(&labels));
            let json = plugin.call(Hook::Transform, &crate::wire::to_vec(&input).unwrap());
            let (status, diagnostics, tree) = read_answer::<Chapter>(json);
            let mut in_place = chapter.clone();
            let answer = plugin.transform_in_place(&mut in_place, &config, ("pt-BR", "b"), &labels);
            assert_eq!(answer, Some((status, diagnostics.clone())), "{then}");
            if let Some(tree) = tree {
                assert_eq!(in_place, tree);
                assert_eq!(tree.title, "A (Glossary)");
            }
            // The JSON way says the same of each outcome.
            let expected = match then {
                "succeed" => (STATUS_OK, vec!["seen in pt-BR"]),
                "fail" => (STATUS_ERROR, vec!["seen in pt-BR", "it failed"]),
                _ => (STATUS_PANIC, vec!["panicked in `transform`: it panicked"]),
            };
            let messages: Vec<&str> = diagnostics.iter().map(|d| d.message.as_str()).collect();
            assert_eq!((status, messages), expected);

            let book = book(&labels, vec![chapter]);
            let input = crate::wire::FinishInput::new(
                std::borrow::Cow::Borrowed(&config),
                "pt-BR",
                std::borrow::Cow::Borrowed(&book),
            );
            let json = plugin.call(Hook::Finish, &crate::wire::to_vec(&input).unwrap());
            let (status, diagnostics, tree) = read_answer::<Book>(json);
            let mut in_place = book.clone();
            let answer = plugin.finish_in_place(&mut in_place, &config, "pt-BR");
            assert_eq!(answer, Some((status, diagnostics)), "{then}");
            if let Some(tree) = tree {
                assert_eq!(in_place, tree);
                assert_eq!(tree.meta.title, "T of b");
            }
        }
    }

    #[test]
    fn a_plugin_asked_to_go_through_json_is_not_called_in_place() {
        let plugin = crate::builtin_plugin!(Busy).through_json();
        let mut chapter = Chapter::default();
        let labels = Labels::default();
        let answer = plugin.transform_in_place(&mut chapter, &json!({}), ("en", "b"), &labels);
        assert_eq!((answer, chapter), (None, Chapter::default()));
        let mut book = book(&labels, Vec::new());
        assert_eq!(plugin.finish_in_place(&mut book, &json!({}), "en"), None);
        assert_eq!(book.meta.title, "T");
    }

    #[test]
    fn a_plugin_without_a_tree_hook_is_not_called_in_place() {
        let plugin = crate::builtin_plugin!(Loud);
        let mut chapter = Chapter::default();
        let labels = Labels::default();
        let answer = plugin.transform_in_place(&mut chapter, &json!({}), ("en", "b"), &labels);
        assert_eq!(answer.map(|(status, _)| status), Some(STATUS_OK));
        let mut book = book(&labels, vec![chapter]);
        let before = book.clone();
        assert_eq!(plugin.finish_in_place(&mut book, &json!({}), "en"), None);
        assert_eq!(book, before);
    }

    #[test]
    fn a_panic_in_a_builtin_is_a_status_not_a_crash() {
        let plugin = crate::builtin_plugin!(Loud);
        let (status, body) = plugin.call(Hook::Transform, &input(json!({"panic": true})));
        assert_eq!(status, STATUS_PANIC);
        let failure: FailureOutput = crate::wire::from_slice(&body).unwrap();
        assert!(failure.diagnostics[0].message.contains("too loud"));
    }

    #[test]
    fn every_hook_of_the_table_reaches_its_trait_method() {
        let plugin = crate::builtin_plugin!(crate::testing::Everything);
        assert_eq!(plugin.hooks(), Hooks::ALL);
        for hook in Hook::ALL {
            let (status, body) = plugin.call(hook, &crate::testing::any_input());
            assert_eq!(status, STATUS_PANIC, "{hook}");
            let message = crate::testing::panic_message(&body);
            let expected = format!("panicked in `{hook}`: `{hook}` was called");
            assert_eq!(message, expected);
        }
    }
}
