//! The stoa plugin SDK: the document tree, the [`Plugin`] trait, one trait
//! per hook, and the [`export_plugin!`] macro that turns an implementation
//! into a shared library stoa loads.
//!
//! A plugin is a `cdylib` crate with no unsafe code. It implements
//! [`Plugin`] (its name and version) and the hook traits it needs:
//! [`Configure`] (check the settings once), [`Source`] (rewrite a post's
//! Markdown), [`Transform`] (change each chapter's tree), [`Finish`]
//! (change the whole book), [`Styles`] (CSS and Typst for its classes).
//! stoa calls exactly the hooks implemented; there is no list to keep.
//!
//! ```no_run
//! #![forbid(unsafe_code)]
//! use stoa_sdk::{Chapter, Context, Plugin, PluginError, Transform};
//!
//! #[derive(Default)]
//! struct Shout;
//!
//! impl Plugin for Shout {
//!     const NAME: &'static str = "shout";
//!     const VERSION: &'static str = env!("CARGO_PKG_VERSION");
//! }
//!
//! impl Transform for Shout {
//!     fn transform(&self, chapter: &mut Chapter, _ctx: &Context) -> Result<(), PluginError> {
//!         chapter.title = chapter.title.to_uppercase();
//!         Ok(())
//!     }
//! }
//!
//! stoa_sdk::export_plugin!(Shout);
//! ```
//!
//! To read the tree without changing it, [`visit`] with a [`Visitor`] (or
//! [`for_each_block`] and [`for_each_inline`]); to change it,
//! [`walk_blocks_mut`], [`walk_inlines_mut`] and [`rewrite_text`].
//!
//! The ABI underneath is described in `include/stoa_plugin.h` and in
//! `docs/plugins.md`; [`abi`] and [`wire`] mirror it for the host.
#![warn(missing_docs)]

pub mod abi;
pub mod builtin;
mod context;
mod edit;
// The hook table, for the host and the SDK's own macros: plugins never
// name a hook, they implement its trait.
#[doc(hidden)]
pub mod hook;
// All the unsafe code of the SDK: the `extern "C"` shims the macro points the
// descriptor at. Plugins reach it only through `export_plugin!`.
#[doc(hidden)]
#[allow(unsafe_code)]
pub mod __private;
mod hooks;
mod source;
// A plugin with every hook, for the SDK's and the host's tests.
#[cfg(any(test, feature = "testing"))]
#[doc(hidden)]
pub mod testing;
pub mod wire;

pub use context::{Context, PluginDiagnostic};
pub use edit::{div, div_with_role, rewrite_text, span, span_with_role};
pub use hook::Hooks;
pub use source::{Markdown, guess_line_map};
// The one `Format` (epub, pdf, html), `Role`, `NoteStyle` and the rest of
// the tree: a plugin names them as `stoa_sdk::...`.
pub use stoa_doc;
pub use stoa_doc::*;

use std::fmt;

/// Why a hook failed. The host reports it as an error naming the plugin and
/// the chapter, and the book is not built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginError {
    message: String,
    hint: Option<String>,
}

impl PluginError {
    /// An error with a message.
    pub fn new(message: impl fmt::Display) -> Self {
        PluginError {
            message: message.to_string(),
            hint: None,
        }
    }

    /// Says what the author should do about it.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// What went wrong.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// What to do about it, if the plugin said.
    pub fn hint(&self) -> Option<&str> {
        self.hint.as_deref()
    }
}

impl fmt::Display for PluginError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for PluginError {}

impl From<&str> for PluginError {
    fn from(message: &str) -> Self {
        PluginError::new(message)
    }
}

impl From<String> for PluginError {
    fn from(message: String) -> Self {
        PluginError::new(message)
    }
}

impl From<serde_json::Error> for PluginError {
    fn from(e: serde_json::Error) -> Self {
        PluginError::new(e)
    }
}

/// A stoa plugin: its name and version. What it does comes from the hook
/// traits it implements besides ([`Configure`], [`Source`], [`Transform`],
/// [`Finish`], [`Styles`]); [`export_plugin!`] finds them at compile time
/// and stoa calls those hooks only.
///
/// One value serves the whole build: hooks are called from several threads
/// at once, hence `Send + Sync`. Keep per-call state in locals, not in
/// `self`. A panic in a hook is caught by the SDK and reported as an error.
pub trait Plugin: Send + Sync + 'static {
    /// The name the author writes in `[plugins.<name>]`.
    const NAME: &'static str;
    /// The plugin's version, usually `env!("CARGO_PKG_VERSION")`.
    const VERSION: &'static str;
}

/// Checks the plugin's settings once per book and language, before any
/// other hook: an error here is reported once, at the setting's line in
/// book.toml (with "did you mean" for a misspelt key), and no post is read.
///
/// `ctx.config()` is the `[plugins.<name>]` table; `ctx.config_as::<T>()`
/// reads it into a type of yours (use `#[serde(deny_unknown_fields)]` so
/// that a typo is an error). `ctx.lang()`, `ctx.book_id()` and
/// `ctx.labels()` say which edition is coming.
pub trait Configure: Plugin {
    /// Returns an error (or reports with `ctx.error`) when the settings are wrong.
    fn configure(&self, ctx: &Context) -> Result<(), PluginError>;
}

/// Rewrites each post's Markdown before stoa parses it. Edit the
/// [`Markdown`] with its line operations, so that stoa still reports every
/// later error (a broken image, a bad footnote) at the author's own line.
///
/// Called once per post and language, in parallel, after [`Configure`];
/// `ctx.chapter()` is the post's slug.
pub trait Source: Plugin {
    /// Changes `markdown` (the post after its front matter).
    fn source(&self, markdown: &mut Markdown, ctx: &Context) -> Result<(), PluginError>;
}

/// Changes each chapter's tree. Called once per chapter, in parallel.
pub trait Transform: Plugin {
    /// Changes one chapter; reports concern it.
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError>;
}

/// Changes one book in one language after every chapter is transformed;
/// may add chapters (an appendix, a notes chapter).
pub trait Finish: Plugin {
    /// Changes the book; name a chapter in reports with
    /// [`PluginDiagnostic::in_chapter`].
    fn finish(&self, book: &mut Book, ctx: &Context) -> Result<(), PluginError>;
}

/// Styles for the classes this plugin introduces.
pub trait Styles: Plugin {
    /// CSS for [`Format::Epub`] and [`Format::Html`] (the web edition),
    /// Typst for [`Format::Pdf`] ([`Format::style_language`] says which).
    /// Empty for none. A format this SDK does not know never reaches the
    /// plugin: the SDK answers it with no style.
    fn styles(&self, format: Format, ctx: &Context) -> String;
}

/// Exports a [`Plugin`] through the C ABI: generates the `stoa_plugin_v1`
/// entry symbol that stoa looks for. Use it once per plugin crate.
///
/// `export_plugin!(MyPlugin)` builds the plugin with `Default`;
/// `export_plugin!(MyPlugin, MyPlugin::new())` with an expression, evaluated
/// once, on first use. The crate may be `#![forbid(unsafe_code)]`: the unsafe
/// code lives in the SDK.
///
/// The plugin type may come from another crate (`export_plugin!(other::Plugin)`):
/// stoa's bundled plugins are libraries without the entry symbol, linked into
/// `stoa` as built-ins ([`builtin`]), and each has a small `cdylib` crate
/// that exports it for loading like any other plugin.
#[macro_export]
macro_rules! export_plugin {
    ($plugin:ty) => {
        $crate::export_plugin!($plugin, <$plugin as ::core::default::Default>::default());
    };
    ($plugin:ty, $make:expr) => {
        /// Which plugin this library exports (see `stoa_sdk::export_plugin!`).
        struct __StoaExported;

        impl $crate::__private::Exported for __StoaExported {
            type Plugin = $plugin;

            fn instance() -> &'static $plugin {
                static INSTANCE: ::std::sync::OnceLock<$plugin> = ::std::sync::OnceLock::new();
                INSTANCE.get_or_init(|| $make)
            }

            fn hooks() -> &'static $crate::__private::HookFns<$plugin> {
                static HOOKS: ::std::sync::OnceLock<$crate::__private::HookFns<$plugin>> =
                    ::std::sync::OnceLock::new();
                HOOKS.get_or_init(|| $crate::__hooks_of!($plugin))
            }

            fn entry() -> &'static $crate::__private::Entry {
                static ENTRY: ::std::sync::OnceLock<$crate::__private::Entry> =
                    ::std::sync::OnceLock::new();
                ENTRY.get_or_init($crate::__private::Entry::new::<__StoaExported>)
            }
        }

        /// The entry point stoa looks up; see `stoa_plugin.h`.
        #[unsafe(no_mangle)]
        pub extern "C" fn stoa_plugin_v1() -> *const $crate::abi::StoaPluginV1 {
            $crate::__private::descriptor::<__StoaExported>()
        }

        /// The hooks added to ABI version 1 (`configure`, `source`); see
        /// `stoa_plugin.h`.
        #[unsafe(no_mangle)]
        pub extern "C" fn stoa_plugin_hooks_v1() -> *const $crate::abi::StoaHooksV1 {
            $crate::__private::more_hooks::<__StoaExported>()
        }

        // Built for WebAssembly (`--target wasm32-unknown-unknown`): the
        // exports stoa's WebAssembly host calls, beside the two above.
        #[cfg(target_arch = "wasm32")]
        $crate::__wasm_exports!(__StoaExported);
    };
}

/// The exports of a WebAssembly build of a plugin ([`abi::wasm`]): the
/// allocator stoa writes inputs with, and one function per hook of the
/// hook table, named `stoa_<hook>`, each the hook's C shim. `export_plugin!`
/// calls it when the target is wasm32; the SDK's tests call it on the
/// host's target to check it against the hook table.
#[doc(hidden)]
#[macro_export]
macro_rules! __wasm_exports {
    ($exported:ty) => {
        /// stoa writes each hook's input here; see `stoa_sdk::abi::wasm`.
        #[unsafe(export_name = "stoa_alloc")]
        pub extern "C" fn __stoa_alloc(len: usize) -> *mut u8 {
            $crate::__private::wasm_alloc(len)
        }
        $crate::__wasm_hook!($exported, "stoa_configure", __stoa_configure, Configure);
        $crate::__wasm_hook!($exported, "stoa_source", __stoa_source, Source);
        $crate::__wasm_hook!($exported, "stoa_transform", __stoa_transform, Transform);
        $crate::__wasm_hook!($exported, "stoa_finish", __stoa_finish, Finish);
        $crate::__wasm_hook!($exported, "stoa_styles", __stoa_styles, Styles);
        /// The hooks above, by export name, in the hook table's order (a
        /// test holds them to it).
        #[allow(dead_code)]
        const __STOA_WASM_EXPORTS: [(&str, $crate::abi::HookFn); 5] = [
            ("stoa_configure", __stoa_configure),
            ("stoa_source", __stoa_source),
            ("stoa_transform", __stoa_transform),
            ("stoa_finish", __stoa_finish),
            ("stoa_styles", __stoa_styles),
        ];
    };
}

/// One hook's export of [`__wasm_exports!`].
#[doc(hidden)]
#[macro_export]
macro_rules! __wasm_hook {
    ($exported:ty, $export:literal, $function:ident, $hook:ident) => {
        /// A hook of this plugin, as stoa's WebAssembly host calls it.
        ///
        /// # Safety
        /// As `stoa_sdk::__private::c_shim`.
        #[unsafe(export_name = $export)]
        pub unsafe extern "C" fn $function(
            input: *const u8,
            input_len: usize,
            output: *mut $crate::abi::StoaBuffer,
        ) -> i32 {
            const TAG: u32 = $crate::hook::Hook::$hook.tag();
            // SAFETY: forwarded from this function's contract.
            unsafe { $crate::__private::c_shim::<$exported, TAG>(input, input_len, output) }
        }
    };
}

/// A plugin built into the host rather than loaded from a library: a
/// [`builtin::BuiltinPlugin`] for the plugin type, with the hooks it
/// implements. `builtin_plugin!(MyPlugin)` makes it with `Default`,
/// `builtin_plugin!(MyPlugin, MyPlugin::new())` with an expression.
#[macro_export]
macro_rules! builtin_plugin {
    ($plugin:ty) => {
        $crate::builtin_plugin!($plugin, <$plugin as ::core::default::Default>::default())
    };
    ($plugin:ty, $make:expr) => {
        $crate::builtin::BuiltinPlugin::from_parts::<$plugin>($make, $crate::__hooks_of!($plugin))
    };
}

/// The hooks `$plugin` implements, found at compile time: for each hook
/// trait, a method call that resolves to the probe's "yes" when the type
/// implements it and falls back (one auto-reference further) to "no".
#[doc(hidden)]
#[macro_export]
macro_rules! __hooks_of {
    ($plugin:ty) => {{
        #[allow(unused_imports)]
        use $crate::__private::probe::{
            NoConfigure as _, NoFinish as _, NoFinishTree as _, NoSource as _, NoStyles as _,
            NoTransform as _, NoTransformTree as _, YesConfigure as _, YesFinish as _,
            YesFinishTree as _, YesSource as _, YesStyles as _, YesTransform as _,
            YesTransformTree as _,
        };
        let probe = $crate::__private::probe::Probe::<$plugin>::new();
        $crate::__private::HookFns::<$plugin> {
            configure: (&probe).configure_hook(),
            source: (&probe).source_hook(),
            transform: (&probe).transform_hook(),
            finish: (&probe).finish_hook(),
            styles: (&probe).styles_hook(),
            transform_tree: (&probe).transform_tree(),
            finish_tree: (&probe).finish_tree(),
        }
    }};
}
