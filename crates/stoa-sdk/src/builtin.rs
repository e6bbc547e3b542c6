//! A plugin linked into the host instead of loaded from a library: the
//! bundled plugins built into the `stoa` binary.
//!
//! A built-in plugin is called through exactly the hooks an exported one
//! is: the same JSON in, the same JSON out, the same guard against panics
//! and the same deep stack. Only the C boundary (and its buffers) is left
//! out, so a book built with the built-in plugin and with its library is
//! the same, byte for byte.

use crate::__private::HookFns;
use crate::hook::Hook;
use crate::hooks::{self, Answer};
use crate::{Hooks, Plugin, TREE_MINOR, TREE_VERSION, tree_version_code};

/// A [`Plugin`] value the host calls in its own process. Made by
/// [`crate::builtin_plugin!`], which finds the hooks the type implements.
pub struct BuiltinPlugin {
    plugin: Box<dyn Erased>,
    name: &'static str,
    version: &'static str,
    hooks: Hooks,
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
        }
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
}

/// What the exported shims do around a hook, minus the C buffer: a deep
/// stack for deep trees, and a panic turned into a status.
fn run(hook: Hook, call: impl FnOnce() -> Answer) -> Answer {
    crate::wire::with_deep_stack(|| hooks::guarded(hook.name(), call))
}

/// A plugin of any type and its hooks, behind one vtable.
trait Erased: Send + Sync {
    fn call(&self, hook: Hook, input: &[u8]) -> Answer;
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::{STATUS_OK, STATUS_PANIC};
    use crate::wire::{FailureOutput, TransformOutput};
    use crate::{Chapter, Context, PluginError};
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
