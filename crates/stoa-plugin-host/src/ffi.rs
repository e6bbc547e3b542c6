//! Every unsafe line of the host: opening a library, reading its descriptor,
//! calling a hook and handing its buffer back.
//!
//! Loading a plugin runs its code, so a plugin is trusted like stoa itself;
//! what this module guards against is a plugin that is merely *wrong* (not a
//! library, no entry symbol, another ABI version, bad buffers).

use std::ffi::{CStr, c_char};
use std::path::Path;
use stoa_sdk::Hooks;
use stoa_sdk::abi::{
    ABI_VERSION, ENTRY_SYMBOL, FreeBufferFn, HOOKS_SYMBOL, HookFn, OTHER_ENTRY_SYMBOLS, StoaBuffer,
    StoaHooksV1, StoaPluginV1,
};
use stoa_sdk::hook::{Hook, Slot};

/// Why a file could not be used as a plugin.
#[derive(Debug)]
pub(crate) enum OpenError {
    /// The dynamic loader refused it.
    NotALibrary(String),
    /// No `stoa_plugin_v1`; `newer` is the entry symbol of another ABI it has.
    NoEntry { newer: Option<&'static str> },
    /// The entry returned null.
    NullDescriptor,
    /// The descriptor's `abi_version` is not ours.
    AbiVersion(u32),
    /// A descriptor field is null or not UTF-8.
    BadField(&'static str),
}

/// A plugin library, open, with its descriptor copied out.
pub(crate) struct RawPlugin {
    pub(crate) tree_version: u32,
    pub(crate) name: String,
    pub(crate) version: String,
    /// Each hook's function by [`Hook::index`], from the descriptor or the
    /// optional `stoa_plugin_hooks_v1` as the hook table says; null when absent.
    hooks: [Option<HookFn>; Hook::COUNT],
    free_buffer: FreeBufferFn,
    /// What a crash during one of its hooks writes before stoa ends.
    last_words: Box<[u8]>,
    // Declared last: the function pointers above point into this library,
    // which must outlive every call. The host never drops a loaded plugin
    // during a build (see `load::cache`).
    _library: libloading::Library,
}

impl std::fmt::Debug for RawPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RawPlugin")
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// Opens the library at `path` and reads its descriptor.
pub(crate) fn open(path: &Path) -> Result<RawPlugin, OpenError> {
    // SAFETY: loading runs the library's initialisers. Plugins are code the
    // author chose to run, as trusted as stoa itself (see the crate docs).
    let library = unsafe { libloading::Library::new(path) }
        .map_err(|e| OpenError::NotALibrary(e.to_string()))?;
    let descriptor = entry(&library)?;
    // SAFETY: the descriptor is valid for the library's lifetime (header
    // contract) and `abi_version` is its first field in every ABI version,
    // so reading that one u32 is sound before knowing the version.
    let abi_version = unsafe { descriptor.cast::<u32>().read() };
    if abi_version != ABI_VERSION {
        return Err(OpenError::AbiVersion(abi_version));
    }
    // SAFETY: the version is ours, so the layout is `StoaPluginV1`.
    let d = unsafe { &*descriptor };
    // A plugin that asks for the host API gets it before any hook.
    crate::host_api::offer(&library);
    let more = more_hooks(&library);
    let hooks = Hook::ALL.map(|hook| match hook.slot() {
        Slot::Descriptor => d.hook(hook),
        Slot::MoreHooks => more.hook(hook),
    });
    let name = c_string(d.name, "name")?;
    Ok(RawPlugin {
        hooks,
        tree_version: d.tree_version,
        last_words: crate::crash::last_words(&name, path),
        name,
        version: c_string(d.version, "version")?,
        free_buffer: d.free_buffer.ok_or(OpenError::BadField("free_buffer"))?,
        _library: library,
    })
}

/// Calls the entry symbol, naming a newer ABI's symbol when ours is missing.
fn entry(library: &libloading::Library) -> Result<*const StoaPluginV1, OpenError> {
    type Entry = unsafe extern "C" fn() -> *const StoaPluginV1;
    // SAFETY: the header declares the symbol with exactly this type.
    let Ok(symbol) = (unsafe { library.get::<Entry>(ENTRY_SYMBOL.as_bytes()) }) else {
        // SAFETY: only looked up, never called: the type does not matter.
        let has = |s: &str| unsafe { library.get::<Entry>(s.as_bytes()) }.is_ok();
        let newer = OTHER_ENTRY_SYMBOLS.iter().copied().find(|s| has(s));
        return Err(OpenError::NoEntry { newer });
    };
    // SAFETY: the entry takes nothing and returns a pointer (header contract).
    let descriptor = unsafe { symbol() };
    match descriptor.is_null() {
        true => Err(OpenError::NullDescriptor),
        false => Ok(descriptor),
    }
}

/// The struct of the optional `stoa_plugin_hooks_v1`, as far as the plugin
/// knows it.
struct MoreHooks {
    /// Null when the library lacks the symbol (it was built before it) or
    /// returns null.
    hooks: *const StoaHooksV1,
    /// The struct's `size` as the plugin was built.
    size: usize,
}

/// Finds the library's `stoa_plugin_hooks_v1` struct.
fn more_hooks(library: &libloading::Library) -> MoreHooks {
    type Entry = unsafe extern "C" fn() -> *const StoaHooksV1;
    let none = MoreHooks {
        hooks: std::ptr::null(),
        size: 0,
    };
    // SAFETY: the header declares the symbol with exactly this type.
    let Ok(symbol) = (unsafe { library.get::<Entry>(HOOKS_SYMBOL.as_bytes()) }) else {
        return none;
    };
    // SAFETY: the function takes nothing and returns a pointer (header contract).
    let hooks = unsafe { symbol() };
    if hooks.is_null() {
        return none;
    }
    // SAFETY: non-null and valid for the library's lifetime (header
    // contract); `size` is its first field in every version of the struct.
    let size = unsafe { hooks.cast::<u32>().read() } as usize;
    MoreHooks { hooks, size }
}

impl MoreHooks {
    /// The function of `hook`: none for a hook of the descriptor, or one
    /// past the `size` the plugin declares (it was built before that hook).
    fn hook(&self, hook: Hook) -> Option<HookFn> {
        let offset = StoaHooksV1::offset_of(hook)?;
        let inside = self.size >= offset + std::mem::size_of::<Option<HookFn>>();
        if self.hooks.is_null() || !inside {
            return None;
        }
        // SAFETY: the plugin's struct, `size` bytes long and valid while
        // the library is loaded, holds this field of type `Option<HookFn>`.
        unsafe {
            self.hooks
                .cast::<u8>()
                .add(offset)
                .cast::<Option<HookFn>>()
                .read()
        }
    }
}

fn c_string(ptr: *const c_char, field: &'static str) -> Result<String, OpenError> {
    if ptr.is_null() {
        return Err(OpenError::BadField(field));
    }
    // SAFETY: non-null, and the header requires a NUL-terminated string
    // that lives as long as the library.
    let s = unsafe { CStr::from_ptr(ptr) };
    s.to_str()
        .map(str::to_string)
        .map_err(|_| OpenError::BadField(field))
}

impl RawPlugin {
    /// The function of `hook`, when the plugin has it.
    pub(crate) fn hook(&self, hook: Hook) -> Option<HookFn> {
        self.hooks[hook.index()]
    }

    /// The hooks it has.
    pub(crate) fn provides(&self) -> Hooks {
        Hooks::from_fn(|hook| self.hook(hook).is_some())
    }

    /// Calls `hook` with `input`; the status and the plugin's output buffer,
    /// freed when the returned value is dropped.
    pub(crate) fn call(&self, hook: HookFn, input: &[u8]) -> (i32, Output<'_>) {
        let mut buffer = StoaBuffer::EMPTY;
        // SAFETY: `input` is a live slice for the whole call and `buffer` a
        // writable StoaBuffer, as the header requires; the hook comes from
        // this library's descriptor, which stays loaded while `self` lives.
        let status = crate::crash::running(&self.last_words, || unsafe {
            hook(input.as_ptr(), input.len(), &mut buffer)
        });
        (
            status,
            Output {
                buffer,
                plugin: self,
            },
        )
    }
}

/// A buffer a hook returned; given back to the plugin on drop.
pub(crate) struct Output<'a> {
    buffer: StoaBuffer,
    plugin: &'a RawPlugin,
}

impl Output<'_> {
    /// The bytes, or why they cannot be read.
    pub(crate) fn bytes(&self) -> Result<&[u8], &'static str> {
        match (self.buffer.ptr.is_null(), self.buffer.len) {
            (_, 0) => Ok(&[]),
            (true, _) => Err("a null buffer with a non-zero length"),
            // SAFETY: the hook handed us `len` initialised bytes at `ptr`,
            // ours until `free_buffer`, which only `drop` calls.
            (false, len) => Ok(unsafe { std::slice::from_raw_parts(self.buffer.ptr, len) }),
        }
    }
}

impl Drop for Output<'_> {
    fn drop(&mut self) {
        let buffer = std::mem::replace(&mut self.buffer, StoaBuffer::EMPTY);
        if !buffer.ptr.is_null() {
            // SAFETY: the buffer came from this plugin's hook and is freed
            // exactly once, here, by the plugin's own allocator.
            unsafe { (self.plugin.free_buffer)(buffer) };
        }
    }
}

/// The child's channel to its parent: a duplicate of standard output, after
/// which standard output itself is pointed at standard error, so that what a
/// plugin prints (C's `printf`, Rust's `println!`) cannot corrupt the answers.
#[cfg(unix)]
pub(crate) fn protocol_output() -> std::io::Result<std::fs::File> {
    use std::os::fd::AsFd;
    let channel = std::io::stdout().as_fd().try_clone_to_owned()?;
    // SAFETY: dup2 on two descriptors this process has open (0..2 are open
    // in any process started by `Command` with piped or inherited stdio);
    // it only replaces descriptor 1, whose owner is the `Stdout` handle that
    // keeps working on the new target.
    if unsafe { libc::dup2(2, 1) } < 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(std::fs::File::from(channel))
}

/// Elsewhere the answers share standard output with the plugin.
#[cfg(not(unix))]
pub(crate) fn protocol_output() -> std::io::Result<std::io::Stdout> {
    Ok(std::io::stdout())
}

/// Ties the child's life to its parent's: Ctrl-C in a terminal reaches the
/// whole process group, and it is for stoa, not for the plugin's process, to
/// decide what it means; and if stoa ends (killed, or exiting after a signal)
/// the child must not live on, above all not a hung one.
pub(crate) fn follow_parent() {
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to "ignore" touches no memory.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
    }
    #[cfg(target_os = "linux")]
    // SAFETY: PR_SET_PDEATHSIG takes a signal number and nothing else.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
    }
}
