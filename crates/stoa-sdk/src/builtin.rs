//! A plugin linked into the host instead of loaded from a library: the
//! bundled plugins built into the `stoa` binary.
//!
//! A built-in plugin is called through exactly the hooks an exported one
//! is: the same JSON in, the same JSON out, the same guard against panics
//! and the same deep stack. Only the C boundary (and its buffers) is left
//! out, so a book built with the built-in plugin and with its library is
//! the same, byte for byte.

use crate::hooks::{self, Answer};
use crate::{Hooks, Plugin, TREE_MINOR, TREE_VERSION, tree_version_code};

/// A [`Plugin`] value the host calls in its own process.
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
    /// Wraps `plugin`; its name, version and hooks come from its [`Plugin`]
    /// constants, as `export_plugin!` puts them in the descriptor.
    pub fn new<P: Plugin>(plugin: P) -> BuiltinPlugin {
        BuiltinPlugin {
            plugin: Box::new(plugin),
            name: P::NAME,
            version: P::VERSION,
            hooks: P::HOOKS,
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

    /// Calls `transform` with the JSON input of the C ABI; the status and
    /// the JSON output, exactly as the exported hook would return them.
    pub fn transform(&self, input: &[u8]) -> (i32, Vec<u8>) {
        run("transform", || self.plugin.transform(input))
    }

    /// Calls `finish`, as [`Self::transform`] does.
    pub fn finish(&self, input: &[u8]) -> (i32, Vec<u8>) {
        run("finish", || self.plugin.finish(input))
    }

    /// Calls `styles`, as [`Self::transform`] does.
    pub fn styles(&self, input: &[u8]) -> (i32, Vec<u8>) {
        run("styles", || self.plugin.styles(input))
    }
}

/// What the exported shims do around a hook, minus the C buffer: a deep
/// stack for deep trees, and a panic turned into a status.
fn run(hook_name: &str, hook: impl FnOnce() -> Answer) -> Answer {
    crate::wire::with_deep_stack(|| hooks::guarded(hook_name, hook))
}

/// A plugin of any type, behind one vtable.
trait Erased: Send + Sync {
    fn transform(&self, input: &[u8]) -> Answer;
    fn finish(&self, input: &[u8]) -> Answer;
    fn styles(&self, input: &[u8]) -> Answer;
}

impl<P: Plugin> Erased for P {
    fn transform(&self, input: &[u8]) -> Answer {
        hooks::transform(self, input)
    }
    fn finish(&self, input: &[u8]) -> Answer {
        hooks::finish(self, input)
    }
    fn styles(&self, input: &[u8]) -> Answer {
        hooks::styles(self, input)
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
        let plugin = BuiltinPlugin::new(Loud);
        assert_eq!((plugin.name(), plugin.version()), ("loud", "1.2.3"));
        let (status, body) = plugin.transform(&input(json!({})));
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
        let (status, body) = BuiltinPlugin::new(Loud).transform(&input(json!({"panic": true})));
        assert_eq!(status, STATUS_PANIC);
        let failure: FailureOutput = crate::wire::from_slice(&body).unwrap();
        assert!(failure.diagnostics[0].message.contains("too loud"));
    }
}
