//! The C ABI between stoa and a plugin, mirrored from `include/stoa_plugin.h`.
//!
//! The header is the reference; these types have the same layout. Rust
//! plugins never touch them: [`crate::export_plugin!`] fills them in.

use crate::hook::{Hook, Slot};
use std::ffi::c_char;

/// The ABI version this SDK and host speak. A new version gets a new entry
/// symbol, so an old host never misreads a new descriptor.
pub const ABI_VERSION: u32 = 1;

/// The name of the symbol a plugin exports: `const StoaPluginV1 *stoa_plugin_v1(void)`.
pub const ENTRY_SYMBOL: &str = "stoa_plugin_v1";

/// Entry symbols of ABI versions this host does not speak, tried only to say
/// so clearly when [`ENTRY_SYMBOL`] is missing.
pub const OTHER_ENTRY_SYMBOLS: &[&str] = &["stoa_plugin_v2", "stoa_plugin_v3", "stoa_plugin_v4"];

/// The hook succeeded; the output buffer holds its result.
pub const STATUS_OK: i32 = 0;
/// The hook failed in a way the plugin understood (bad configuration, bad
/// content); the output holds `{"diagnostics": [...]}` saying why.
pub const STATUS_ERROR: i32 = 1;
/// The plugin panicked or crashed internally; the output may hold
/// `{"diagnostics": [...]}` with the panic message.
pub const STATUS_PANIC: i32 = 2;
/// The plugin could not read its input (malformed JSON, another tree
/// version); the output may hold `{"diagnostics": [...]}`.
pub const STATUS_BAD_INPUT: i32 = 3;

/// A byte buffer that crosses the boundary. Whoever allocated it frees it:
/// the host its inputs, the plugin (through `free_buffer`) its outputs.
#[repr(C)]
#[derive(Debug)]
pub struct StoaBuffer {
    /// First byte; null when `len` is 0.
    pub ptr: *mut u8,
    /// Number of bytes.
    pub len: usize,
}

impl StoaBuffer {
    /// The empty buffer, which needs no freeing.
    pub const EMPTY: StoaBuffer = StoaBuffer {
        ptr: std::ptr::null_mut(),
        len: 0,
    };
}

/// A hook: reads `input_len` bytes of UTF-8 JSON at `input`, writes a buffer
/// it allocated to `*output` and returns a `STATUS_*` code.
pub type HookFn =
    unsafe extern "C" fn(input: *const u8, input_len: usize, output: *mut StoaBuffer) -> i32;

/// Frees a buffer that one of the plugin's hooks returned.
pub type FreeBufferFn = unsafe extern "C" fn(buffer: StoaBuffer);

/// What `stoa_plugin_v1` returns: a descriptor that lives as long as the
/// library stays loaded. `abi_version` comes first in every version.
#[repr(C)]
#[derive(Debug)]
pub struct StoaPluginV1 {
    /// Must be [`ABI_VERSION`].
    pub abi_version: u32,
    /// The tree version the plugin reads and writes, packed by
    /// [`stoa_doc::tree_version_code`]: the major in the low 16 bits, the
    /// minor above, so that `1` (a plugin built before minors) reads as 1.0.
    pub tree_version: u32,
    /// The plugin's name, NUL-terminated UTF-8: the `<name>` of `[plugins.<name>]`.
    pub name: *const c_char,
    /// The plugin's version, NUL-terminated UTF-8, e.g. `1.2.0`.
    pub version: *const c_char,
    /// Transforms one chapter; null when the plugin has no such hook.
    pub transform: Option<HookFn>,
    /// Finishes one book in one language; null when not provided.
    pub finish: Option<HookFn>,
    /// Contributes styles for one format; null when not provided.
    pub styles: Option<HookFn>,
    /// Frees the plugin's output buffers; never null.
    pub free_buffer: Option<FreeBufferFn>,
}

impl StoaPluginV1 {
    /// The function of `hook` in this descriptor (in the field of its
    /// name); `None` when it is null, and for a hook of [`StoaHooksV1`].
    pub fn hook(&self, hook: Hook) -> Option<HookFn> {
        match hook {
            Hook::Transform => self.transform,
            Hook::Finish => self.finish,
            Hook::Styles => self.styles,
            Hook::Configure | Hook::Source => None,
        }
    }
}

// ---------------------------------------------------------------------------
// The host API (helper C2, tree 1.2): functions stoa lends a plugin so that a
// plugin in C reads and changes a chapter without a JSON parser of its own.
// The v1 descriptor is unchanged: a plugin that wants the table exports the
// optional symbol HOST_API_SYMBOL, which stoa calls once, right after
// loading it, before any hook.
// ---------------------------------------------------------------------------

/// The optional symbol through which a plugin receives the host API:
/// `void stoa_plugin_v1_host_api(const StoaHostApiV1 *api)`.
pub const HOST_API_SYMBOL: &str = "stoa_plugin_v1_host_api";

/// The version of [`StoaHostApiV1`]; later versions only append functions
/// (a plugin checks `size` before calling one it did not know at first).
pub const HOST_API_VERSION: u32 = 1;

/// What [`HOST_API_SYMBOL`] points to.
pub type HostApiEntryFn = unsafe extern "C" fn(api: *const StoaHostApiV1);

/// An open chapter of a `transform` call, owned by the host; a plugin only
/// holds pointers to it, from `chapter_open` to `chapter_finish` or
/// `chapter_close`.
#[repr(C)]
pub struct StoaChapter {
    _opaque: [u8; 0],
}

/// The table of host functions (`StoaHostApiV1` in the header). Every
/// function is thread-safe; a chapter is used by one thread at a time.
/// Strings are UTF-8; those taking a length need no NUL.
#[repr(C)]
#[derive(Debug)]
pub struct StoaHostApiV1 {
    /// `sizeof(StoaHostApiV1)` as the host built it: functions past it are absent.
    pub size: u32,
    /// [`HOST_API_VERSION`].
    pub version: u32,
    /// Reads a `transform` input; null when it is unreadable.
    pub chapter_open: unsafe extern "C" fn(input: *const u8, len: usize) -> *mut StoaChapter,
    /// Writes the `transform` output (the chapter as changed, and the
    /// diagnostics) into `*output`, frees the chapter and returns the
    /// status to return from the hook. `*output` is the host's: the
    /// plugin's `free_buffer` hands it to `free_buffer` below.
    pub chapter_finish:
        unsafe extern "C" fn(chapter: *mut StoaChapter, output: *mut StoaBuffer) -> i32,
    /// Frees a chapter without an answer.
    pub chapter_close: unsafe extern "C" fn(chapter: *mut StoaChapter),
    /// Frees a buffer the host wrote (`chapter_finish`).
    pub free_buffer: unsafe extern "C" fn(buffer: StoaBuffer),
    /// The edition's language, NUL-terminated, valid while the chapter is open.
    pub lang: unsafe extern "C" fn(chapter: *const StoaChapter) -> *const c_char,
    /// A setting of `[plugins.<name>]` as text (strings as they are,
    /// numbers and booleans written out), NUL-terminated, valid while the
    /// chapter is open; null when absent, or an array or table.
    pub config:
        unsafe extern "C" fn(chapter: *mut StoaChapter, key: *const c_char) -> *const c_char,
    /// How many blocks the chapter has at its top level.
    pub block_count: unsafe extern "C" fn(chapter: *const StoaChapter) -> usize,
    /// The kind of top-level block `index` (`paragraph`, `heading`, `list`,
    /// `quote`, `code`, `table`, `rule`, `footnote_def`, `div`, `raw`),
    /// static and NUL-terminated; null past the end.
    pub block_kind:
        unsafe extern "C" fn(chapter: *const StoaChapter, index: usize) -> *const c_char,
    /// The plain text of block `index` and all it holds (words of nested
    /// lists, quotes and containers joined by spaces; code as written; no
    /// raw code), NUL-terminated, its length in `*len` when not null;
    /// valid until the chapter next changes. Null past the end.
    pub block_text: unsafe extern "C" fn(
        chapter: *mut StoaChapter,
        index: usize,
        len: *mut usize,
    ) -> *const c_char,
    /// Puts the blocks of `markdown` before block `index` (`index` equal to
    /// the count appends), read as a post is (raw HTML made safe); 0 when
    /// done, -1 on a bad index, invalid UTF-8 or an image (a plugin adds
    /// no files this way).
    pub insert_markdown: unsafe extern "C" fn(
        chapter: *mut StoaChapter,
        index: usize,
        markdown: *const u8,
        len: usize,
    ) -> i32,
    /// Puts a paragraph of plain `text` (never read as markup) before
    /// block `index`, in a div of class `class` unless `class` is null;
    /// 0 when done, -1 on a bad index or invalid UTF-8.
    pub insert_paragraph: unsafe extern "C" fn(
        chapter: *mut StoaChapter,
        index: usize,
        class: *const c_char,
        text: *const u8,
        len: usize,
    ) -> i32,
    /// Puts a raw block for `format` (`epub`, `pdf`, `html`) before block
    /// `index`; the payload is checked after the hook like any raw output.
    pub insert_raw: unsafe extern "C" fn(
        chapter: *mut StoaChapter,
        index: usize,
        format: *const c_char,
        payload: *const u8,
        len: usize,
    ) -> i32,
    /// Removes block `index`; 0 when done, -1 past the end. Replacing a
    /// block is inserting the new one, then removing the old one.
    pub remove_block: unsafe extern "C" fn(chapter: *mut StoaChapter, index: usize) -> i32,
    /// Reports a diagnostic on this chapter: `severity` 0 a warning, 1 an
    /// error (the book is not built); `message` NUL-terminated.
    pub report:
        unsafe extern "C" fn(chapter: *mut StoaChapter, severity: i32, message: *const c_char),
}

// ---------------------------------------------------------------------------
// More hooks of ABI version 1: `configure` and `source` (issue 20, helper C1).
// They come through a second, optional entry symbol, so that the v1
// descriptor above keeps its layout and plugins built before them load as
// they are (stoa then calls neither).
// ---------------------------------------------------------------------------

/// The optional symbol of the hooks added to ABI version 1:
/// `const StoaHooksV1 *stoa_plugin_hooks_v1(void)`.
pub const HOOKS_SYMBOL: &str = "stoa_plugin_hooks_v1";

/// What `stoa_plugin_hooks_v1` returns: the hooks added to ABI version 1,
/// valid as long as the library stays loaded. `size` says how much of the
/// struct the plugin knows: hooks added at its end later are absent from a
/// plugin whose `size` stops before them, and the host reads them as null.
#[repr(C)]
#[derive(Debug)]
pub struct StoaHooksV1 {
    /// `sizeof(StoaHooksV1)` as the plugin was built.
    pub size: u32,
    /// Zero.
    pub reserved: u32,
    /// Checks the settings once per book and language; null when not provided.
    pub configure: Option<HookFn>,
    /// Rewrites a post's Markdown before it is parsed; null when not provided.
    pub source: Option<HookFn>,
}

// Written here, not in hook.rs beside the rest of `Slot`: the symbols are
// the ABI's, and the ABI is built on the hooks (a method there would make
// the two files lean on each other).
impl Slot {
    /// The symbol that returns the struct.
    pub const fn symbol(self) -> &'static str {
        match self {
            Slot::Descriptor => ENTRY_SYMBOL,
            Slot::MoreHooks => HOOKS_SYMBOL,
        }
    }
}

impl StoaHooksV1 {
    /// Where the field of `hook` (named after it) begins in the struct;
    /// `None` for a hook of the descriptor. A host reads the field only
    /// when the plugin's `size` reaches past its end.
    pub const fn offset_of(hook: Hook) -> Option<usize> {
        match hook {
            Hook::Configure => Some(std::mem::offset_of!(StoaHooksV1, configure)),
            Hook::Source => Some(std::mem::offset_of!(StoaHooksV1, source)),
            Hook::Transform | Hook::Finish | Hook::Styles => None,
        }
    }
}

// ---------------------------------------------------------------------------
// WebAssembly plugins (issue 30): the same descriptor, hooks and JSON, in a
// `.wasm` module that stoa runs sandboxed. See docs/plugins.md, "WebAssembly
// plugins", and `STOA_WASM_PLUGIN` in the header.
// ---------------------------------------------------------------------------

/// The wire of a WebAssembly plugin: the C ABI compiled for `wasm32`, with
/// hooks reached by export name instead of through function pointers.
///
/// A module exports its `memory`, [`ENTRY_SYMBOL`] (and, with `configure`
/// or `source`, [`HOOKS_SYMBOL`]) returning the address of the very
/// structs of the C ABI as laid out on wasm32 (pointers of 4 bytes), one
/// function per hook named by [`hook_export`] with the signature of a
/// [`HookFn`](super::HookFn) (`(input, input_len, output) -> status`, all
/// `i32`), and [`ALLOC_EXPORT`], which gives stoa room for each input. Its
/// only imports may be the host API's functions, from module
/// [`IMPORT_MODULE`] (see [`HOST_IMPORTS`]). Each call runs in a fresh
/// instance, discarded afterwards: nothing a plugin allocates need be freed.
pub mod wasm {
    use crate::hook::{Hook, Slot};

    /// The module's linear memory, which stoa reads and writes.
    pub const MEMORY_EXPORT: &str = "memory";

    /// `stoa_alloc(len: i32) -> i32`: the address of `len` writable bytes
    /// (0 when there is no room), for stoa to write a hook's input and the
    /// eight bytes of the `StoaBuffer` its output goes into.
    pub const ALLOC_EXPORT: &str = "stoa_alloc";

    /// The import module of the host API's functions.
    pub const IMPORT_MODULE: &str = "stoa";

    /// The size of a pointer (and of `size_t`) on wasm32.
    pub const POINTER: u32 = 4;

    /// The bytes of `StoaPluginV1` and `StoaHooksV1` before their hook
    /// fields: `abi_version`, `tree_version`, `name`, `version`; `size`,
    /// `reserved`.
    const fn head(slot: Slot) -> u32 {
        match slot {
            Slot::Descriptor => 16,
            Slot::MoreHooks => 8,
        }
    }

    /// The size of the struct of `slot` on wasm32 (the descriptor's ends
    /// with `free_buffer`).
    pub fn struct_size(slot: Slot) -> u32 {
        let tail = match slot {
            Slot::Descriptor => POINTER,
            Slot::MoreHooks => 0,
        };
        head(slot) + POINTER * slot.hooks().count() as u32 + tail
    }

    /// The export that runs `hook`: `stoa_<name>`, e.g. `stoa_transform`.
    pub fn hook_export(hook: Hook) -> String {
        format!("stoa_{}", hook.name())
    }

    /// Where the field of `hook` is in the struct of its slot on wasm32: a
    /// non-zero value there says the plugin has the hook.
    pub fn hook_offset(hook: Hook) -> u32 {
        let position = hook.slot().hooks().take_while(|&h| h != hook).count() as u32;
        head(hook.slot()) + POINTER * position
    }

    /// The host API as imports: each function of `StoaHostApiV1` under its
    /// field's name, with its number of `i32` parameters and results on
    /// wasm32 (a `StoaBuffer` passed by value is passed as its address).
    pub const HOST_IMPORTS: [(&str, usize, usize); 14] = [
        ("chapter_open", 2, 1),
        ("chapter_finish", 2, 1),
        ("chapter_close", 1, 0),
        ("free_buffer", 1, 0),
        ("lang", 1, 1),
        ("config", 2, 1),
        ("block_count", 1, 1),
        ("block_kind", 2, 1),
        ("block_text", 3, 1),
        ("insert_markdown", 4, 1),
        ("insert_paragraph", 5, 1),
        ("insert_raw", 5, 1),
        ("remove_block", 2, 1),
        ("report", 3, 0),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hook::Slot;

    extern "C" fn nothing(_: *const u8, _: usize, _: *mut StoaBuffer) -> i32 {
        STATUS_OK
    }

    #[test]
    fn each_hook_is_in_the_struct_the_table_says() {
        let descriptor = StoaPluginV1 {
            abi_version: ABI_VERSION,
            tree_version: 1,
            name: std::ptr::null(),
            version: std::ptr::null(),
            transform: Some(nothing),
            finish: Some(nothing),
            styles: Some(nothing),
            free_buffer: None,
        };
        for hook in Hook::ALL {
            let in_descriptor = hook.slot() == Slot::Descriptor;
            assert_eq!(descriptor.hook(hook).is_some(), in_descriptor, "{hook}");
            assert_eq!(
                StoaHooksV1::offset_of(hook).is_none(),
                in_descriptor,
                "{hook}"
            );
        }
    }
}
