//! The stoa plugin SDK: the document tree, the [`Plugin`] trait and the
//! [`export_plugin!`] macro that turns an implementation into a shared library stoa loads.
//!
//! A plugin is a `cdylib` crate with no unsafe code:
//!
//! ```no_run
//! #![forbid(unsafe_code)]
//! use stoa_sdk::{Chapter, Context, Plugin, PluginError};
//!
//! #[derive(Default)]
//! struct Shout;
//!
//! impl Plugin for Shout {
//!     const NAME: &'static str = "shout";
//!     const VERSION: &'static str = env!("CARGO_PKG_VERSION");
//!     fn transform(&self, chapter: &mut Chapter, _ctx: &Context) -> Result<(), PluginError> {
//!         chapter.title = chapter.title.to_uppercase();
//!         Ok(())
//!     }
//! }
//!
//! stoa_sdk::export_plugin!(Shout);
//! ```
//!
//! The ABI underneath is described in `include/stoa_plugin.h` and in
//! `docs/plugins.md`; [`abi`] and [`wire`] mirror it for the host.

pub mod abi;
pub mod builtin;
mod context;
mod edit;
// All the unsafe code of the SDK: the `extern "C"` shims the macro points the
// descriptor at. Plugins reach it only through `export_plugin!`.
#[doc(hidden)]
#[allow(unsafe_code)]
pub mod __private;
mod hooks;
pub mod wire;

pub use context::{Context, PluginDiagnostic};
pub use edit::{div, div_with_role, rewrite_text, span, span_with_role};
// The one `Format` (epub, pdf, html), `Role`, `NoteStyle` and the rest of
// the tree: a plugin names them as `stoa_sdk::...`.
pub use stoa_doc;
pub use stoa_doc::*;

use std::fmt;

/// Which hooks a plugin provides, so the host skips the others (and does not
/// send every chapter across the boundary for nothing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hooks {
    /// [`Plugin::transform`] is called.
    pub transform: bool,
    /// [`Plugin::finish`] is called.
    pub finish: bool,
    /// [`Plugin::styles`] is called.
    pub styles: bool,
}

impl Hooks {
    /// Every hook.
    pub const ALL: Hooks = Hooks {
        transform: true,
        finish: true,
        styles: true,
    };
}

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

/// A stoa plugin. Every hook has a default that does nothing; implement the
/// ones you need and say which in [`Plugin::HOOKS`].
///
/// One value serves the whole build: hooks are called from several threads
/// at once, hence `Send + Sync`. Keep per-call state in locals, not in
/// `self`. A panic in a hook is caught by the SDK and reported as an error.
pub trait Plugin: Send + Sync + 'static {
    /// The name the author writes in `[plugins.<name>]`.
    const NAME: &'static str;
    /// The plugin's version, usually `env!("CARGO_PKG_VERSION")`.
    const VERSION: &'static str;
    /// The hooks this plugin implements; the others are not called.
    const HOOKS: Hooks = Hooks::ALL;

    /// Changes one chapter. Called once per chapter, in parallel.
    fn transform(&self, chapter: &mut Chapter, ctx: &Context) -> Result<(), PluginError> {
        let _ = (chapter, ctx);
        Ok(())
    }

    /// Changes one book in one language after every chapter is transformed;
    /// may add chapters (an appendix, a notes chapter).
    fn finish(&self, book: &mut Book, ctx: &Context) -> Result<(), PluginError> {
        let _ = (book, ctx);
        Ok(())
    }

    /// Styles for the classes this plugin introduces: CSS for
    /// [`Format::Epub`] and [`Format::Html`] (the web edition), Typst for
    /// [`Format::Pdf`] ([`Format::style_language`] says which). Empty for
    /// none. A format this SDK does not know never reaches the plugin: the
    /// SDK answers it with no style.
    fn styles(&self, format: Format, ctx: &Context) -> String {
        let _ = (format, ctx);
        String::new()
    }
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
    };
}
