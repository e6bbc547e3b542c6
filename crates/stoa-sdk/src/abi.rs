//! The C ABI between stoa and a plugin, mirrored from `include/stoa_plugin.h`.
//!
//! The header is the reference; these types have the same layout. Rust
//! plugins never touch them: [`crate::export_plugin!`] fills them in.

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
