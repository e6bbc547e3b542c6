//! Support for [`crate::export_plugin!`]; not a public API.
//!
//! This module holds every unsafe line of the SDK: the `extern "C"` shims
//! whose addresses go into the descriptor, and the static descriptor itself.
//! They are generic over the plugin type, so the macro's expansion in the
//! plugin crate contains no `unsafe` block at all.
//!
//! [`Exported`] is implemented on a marker type the macro declares, not on
//! the plugin type: so a thin `cdylib` crate can export a plugin defined in
//! another crate (the bundled plugins, which stoa also links in as built-ins,
//! where a second `stoa_plugin_v1` symbol per plugin would clash).

use crate::abi::{self, ABI_VERSION, STATUS_BAD_INPUT, StoaBuffer, StoaHooksV1, StoaPluginV1};
use crate::hook::Hook;
use crate::hooks;
use crate::{Hooks, Plugin, TREE_MINOR, TREE_VERSION, tree_version_code};
use std::ffi::CString;
use std::panic::catch_unwind;

/// Implemented by `export_plugin!` on a marker type of the exporting
/// crate: which plugin it exports, where its single value and its
/// descriptor live (statics in that crate).
pub trait Exported: 'static {
    /// The plugin exported.
    type Plugin: Plugin;
    /// The plugin value, made on first use.
    fn instance() -> &'static Self::Plugin;
    /// The hooks the plugin implements, found by `__hooks_of!`.
    fn hooks() -> &'static HookFns<Self::Plugin>;
    /// The descriptor, made on first use.
    fn entry() -> &'static Entry;
}

/// One hook of plugin `P`: JSON in, status and JSON out.
pub type HookFn<P> = fn(&P, &[u8]) -> (i32, Vec<u8>);

/// A hook of plugin `P` that changes a tree (`T`: a chapter or the book),
/// called on the tree itself: what a built-in plugin runs in stoa's
/// process, where turning the tree into JSON and back is all the cost.
pub type TreeFn<P, T> = fn(&P, &mut T, &crate::Context) -> Result<(), crate::PluginError>;

/// The hooks plugin `P` implements (`None`: not implemented), as
/// `__hooks_of!` finds them at compile time.
pub struct HookFns<P> {
    /// [`crate::Configure::configure`].
    pub configure: Option<HookFn<P>>,
    /// [`crate::Source::source`].
    pub source: Option<HookFn<P>>,
    /// [`crate::Transform::transform`].
    pub transform: Option<HookFn<P>>,
    /// [`crate::Finish::finish`].
    pub finish: Option<HookFn<P>>,
    /// [`crate::Styles::styles`].
    pub styles: Option<HookFn<P>>,
    /// [`crate::Transform::transform`] itself, for a built-in plugin.
    pub transform_tree: Option<TreeFn<P, crate::Chapter>>,
    /// [`crate::Finish::finish`] itself, for a built-in plugin.
    pub finish_tree: Option<TreeFn<P, crate::Book>>,
}

impl<P> HookFns<P> {
    /// The function of `hook`, when `P` implements it.
    pub fn get(&self, hook: Hook) -> Option<HookFn<P>> {
        match hook {
            Hook::Configure => self.configure,
            Hook::Source => self.source,
            Hook::Transform => self.transform,
            Hook::Finish => self.finish,
            Hook::Styles => self.styles,
        }
    }

    /// Which hooks there are.
    pub fn hooks(&self) -> Hooks {
        Hooks::from_fn(|hook| self.get(hook).is_some())
    }
}

/// Compile-time detection of the hook traits a type implements, by
/// auto-reference specialisation: `(&Probe::<P>::new()).transform_hook()`
/// finds `YesTransform` (implemented on `Probe<P>` when `P: Transform`)
/// before `NoTransform` (implemented on `&Probe<P>`, one reference
/// further), and only the first needs the bound. It works where the type is
/// known, which is why `export_plugin!` and `builtin_plugin!` are macros.
pub mod probe {
    use super::{HookFn, TreeFn};
    use crate::hooks;
    use crate::{Configure, Finish, Plugin, Source, Styles, Transform};
    use std::marker::PhantomData;

    /// Asks about plugin type `P`.
    pub struct Probe<P>(PhantomData<P>);

    impl<P> Probe<P> {
        /// A probe; it holds nothing.
        pub fn new() -> Self {
            Probe(PhantomData)
        }
    }

    impl<P> Default for Probe<P> {
        fn default() -> Self {
            Self::new()
        }
    }

    macro_rules! probe {
        ($trait:ident, $yes:ident, $no:ident, $method:ident, $hook:path) => {
            probe!($trait, $yes, $no, $method, HookFn<P>, $hook);
        };
        ($trait:ident, $yes:ident, $no:ident, $method:ident, $fn:ty, $hook:expr) => {
            /// The hook, for a type that implements its trait.
            pub trait $yes<P> {
                /// `Some(hook)`.
                fn $method(&self) -> Option<$fn>;
            }
            impl<P: $trait> $yes<P> for Probe<P> {
                fn $method(&self) -> Option<$fn> {
                    Some($hook)
                }
            }
            /// No hook, for a type that does not implement its trait.
            pub trait $no<P> {
                /// `None`.
                fn $method(&self) -> Option<$fn> {
                    None
                }
            }
            impl<P: Plugin> $no<P> for &Probe<P> {}
        };
    }

    probe!(
        Configure,
        YesConfigure,
        NoConfigure,
        configure_hook,
        hooks::configure::<P>
    );
    probe!(Source, YesSource, NoSource, source_hook, hooks::source::<P>);
    probe!(
        Transform,
        YesTransform,
        NoTransform,
        transform_hook,
        hooks::transform::<P>
    );
    probe!(Finish, YesFinish, NoFinish, finish_hook, hooks::finish::<P>);
    probe!(Styles, YesStyles, NoStyles, styles_hook, hooks::styles::<P>);
    probe!(
        Transform,
        YesTransformTree,
        NoTransformTree,
        transform_tree,
        TreeFn<P, crate::Chapter>,
        <P as Transform>::transform
    );
    probe!(
        Finish,
        YesFinishTree,
        NoFinishTree,
        finish_tree,
        TreeFn<P, crate::Book>,
        <P as Finish>::finish
    );
}

/// The descriptor and the C strings it points into.
pub struct Entry {
    descriptor: StoaPluginV1,
    more: StoaHooksV1,
    // Owned here so that the descriptor's `name` and `version` stay valid;
    // a CString's bytes do not move when the CString does.
    _name: CString,
    _version: CString,
}

// SAFETY: the raw pointers in `descriptor` point into `_name` and `_version`
// of the same value, which are never mutated; function pointers are plain
// code addresses. Sharing an `&Entry` between threads only reads them.
unsafe impl Sync for Entry {}
// SAFETY: as above; moving the value moves no pointee (the CStrings' bytes
// are on the heap).
unsafe impl Send for Entry {}

impl Entry {
    /// The descriptor for plugin `P`. Panics if its name or version holds a
    /// NUL byte; [`descriptor`] turns that into a null return.
    pub fn new<P: Exported>() -> Entry {
        let name = CString::new(P::Plugin::NAME).expect("Plugin::NAME holds a NUL byte");
        let version = CString::new(P::Plugin::VERSION).expect("Plugin::VERSION holds a NUL byte");
        let descriptor = StoaPluginV1 {
            abi_version: ABI_VERSION,
            // Major and minor packed, so that the `1` of a plugin built
            // before minors existed reads as 1.0.
            tree_version: tree_version_code(TREE_VERSION, TREE_MINOR),
            name: name.as_ptr(),
            version: version.as_ptr(),
            transform: c_hook::<P>(Hook::Transform),
            finish: c_hook::<P>(Hook::Finish),
            styles: c_hook::<P>(Hook::Styles),
            free_buffer: Some(free_buffer),
        };
        let more = StoaHooksV1 {
            size: std::mem::size_of::<StoaHooksV1>() as u32,
            reserved: 0,
            configure: c_hook::<P>(Hook::Configure),
            source: c_hook::<P>(Hook::Source),
        };
        Entry {
            descriptor,
            more,
            _name: name,
            _version: version,
        }
    }
}

/// What `stoa_plugin_v1` returns: the descriptor, or null if making it
/// panicked (the host then reports a broken plugin).
pub fn descriptor<P: Exported>() -> *const StoaPluginV1 {
    match catch_unwind(P::entry) {
        Ok(entry) => &entry.descriptor,
        Err(_) => std::ptr::null(),
    }
}

/// What `stoa_plugin_hooks_v1` returns: the hooks added to ABI version 1,
/// or null if making the descriptor panicked.
pub fn more_hooks<P: Exported>() -> *const StoaHooksV1 {
    match catch_unwind(P::entry) {
        Ok(entry) => &entry.more,
        Err(_) => std::ptr::null(),
    }
}

/// The C function of `hook` for plugin `P`, put in the descriptor's field
/// of its name; `None` (null) when `P` does not implement it.
fn c_hook<P: Exported>(hook: Hook) -> Option<abi::HookFn> {
    P::hooks().get(hook)?;
    let function: abi::HookFn = match hook {
        Hook::Configure => c_shim::<P, { Hook::Configure.tag() }>,
        Hook::Source => c_shim::<P, { Hook::Source.tag() }>,
        Hook::Transform => c_shim::<P, { Hook::Transform.tag() }>,
        Hook::Finish => c_shim::<P, { Hook::Finish.tag() }>,
        Hook::Styles => c_shim::<P, { Hook::Styles.tag() }>,
    };
    Some(function)
}

/// The hook of plugin `P` whose tag ([`Hook::tag`]) is `TAG`, as the C ABI
/// calls it: one function per hook, chosen by `c_hook`.
///
/// # Safety
/// `input` points to `input_len` readable bytes (or is null with length 0)
/// and `output` to a writable [`StoaBuffer`], as `stoa_plugin.h` requires.
pub unsafe extern "C" fn c_shim<P: Exported, const TAG: u32>(
    input: *const u8,
    input_len: usize,
    output: *mut StoaBuffer,
) -> i32 {
    match Hook::from_tag(TAG) {
        // SAFETY: forwarded from this function's contract.
        Some(hook) => unsafe { shim::<P>(input, input_len, output, hook) },
        None => STATUS_BAD_INPUT,
    }
}

/// Frees a buffer a hook of this plugin returned.
///
/// # Safety
/// `buffer` was written by one of this library's hooks and not freed yet.
pub unsafe extern "C" fn free_buffer(buffer: StoaBuffer) {
    if buffer.ptr.is_null() {
        return;
    }
    let slice = std::ptr::slice_from_raw_parts_mut(buffer.ptr, buffer.len);
    // SAFETY: `write_output` made this pointer and length from a
    // `Box<[u8]>` with `Box::into_raw`; the contract says it is freed once.
    drop(unsafe { Box::from_raw(slice) });
}

/// Reads the input, runs the hook on the plugin's value with panics caught,
/// and writes the answer.
///
/// # Safety
/// As for [`c_shim`].
unsafe fn shim<P: Exported>(
    input: *const u8,
    input_len: usize,
    output: *mut StoaBuffer,
    hook: Hook,
) -> i32 {
    if output.is_null() {
        return STATUS_BAD_INPUT;
    }
    let input: &[u8] = if input.is_null() || input_len == 0 {
        &[]
    } else {
        // SAFETY: the caller guarantees `input_len` readable bytes at
        // `input`, unchanged for the duration of the call.
        unsafe { std::slice::from_raw_parts(input, input_len) }
    };
    // Making the plugin value runs its constructor: guard it too.
    let run = || {
        hooks::guarded(hook.name(), || match P::hooks().get(hook) {
            Some(function) => function(P::instance(), input),
            // Not in the descriptor, so never called by stoa.
            None => (STATUS_BAD_INPUT, Vec::new()),
        })
    };
    let (status, body) = crate::wire::with_deep_stack(run);
    // SAFETY: `output` is non-null and writable per the caller's contract.
    unsafe { write_output(output, body) };
    status
}

/// Hands `body` to the host; [`free_buffer`] takes it back.
///
/// # Safety
/// `output` is non-null and writable.
unsafe fn write_output(output: *mut StoaBuffer, body: Vec<u8>) {
    let buffer = if body.is_empty() {
        StoaBuffer::EMPTY
    } else {
        let len = body.len();
        let ptr = Box::into_raw(body.into_boxed_slice()).cast::<u8>();
        StoaBuffer { ptr, len }
    };
    // SAFETY: per this function's contract. `write` because the host's
    // value there need not be dropped (it is plain data).
    unsafe { output.write(buffer) };
}

/// `stoa_alloc` of a WebAssembly build: `len` zeroed bytes for stoa to
/// write a hook's input into. Never freed, like the hook's output: stoa
/// runs each call in a fresh instance and discards it afterwards.
pub fn wasm_alloc(len: usize) -> *mut u8 {
    Box::leak(vec![0u8; len.max(1)].into_boxed_slice()).as_mut_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abi::STATUS_PANIC;
    use crate::hook::Slot;
    use crate::testing::{Everything, any_input, panic_message};
    use std::sync::OnceLock;

    /// What `export_plugin!(Everything)` declares, without the symbols.
    struct Exports;

    impl Exported for Exports {
        type Plugin = Everything;

        fn instance() -> &'static Everything {
            &Everything
        }

        fn hooks() -> &'static HookFns<Everything> {
            static HOOKS: OnceLock<HookFns<Everything>> = OnceLock::new();
            HOOKS.get_or_init(|| crate::__hooks_of!(Everything))
        }

        fn entry() -> &'static Entry {
            static ENTRY: OnceLock<Entry> = OnceLock::new();
            ENTRY.get_or_init(Entry::new::<Exports>)
        }
    }

    // The exports of a wasm32 build, compiled here on the host's target so
    // that they are type-checked and run by `cargo test` (the wasm32
    // target is not needed for that).
    crate::__wasm_exports!(Exports);

    #[test]
    fn the_wasm_exports_are_the_hook_tables_and_reach_each_hook() {
        let names: Vec<&str> = __STOA_WASM_EXPORTS.iter().map(|(name, _)| *name).collect();
        let expected: Vec<String> = Hook::ALL.map(abi::wasm::hook_export).into();
        assert_eq!(
            names, expected,
            "the exports of __wasm_exports!, then of the hook table"
        );
        for (hook, (_, function)) in Hook::ALL.into_iter().zip(__STOA_WASM_EXPORTS) {
            let input = any_input();
            let mut output = StoaBuffer::EMPTY;
            // SAFETY: a live input slice and a writable buffer.
            let status = unsafe { function(input.as_ptr(), input.len(), &mut output) };
            assert_eq!(status, STATUS_PANIC, "{hook}");
            // SAFETY: the hook wrote `len` bytes at `ptr`.
            let body = unsafe { std::slice::from_raw_parts(output.ptr, output.len) }.to_vec();
            // SAFETY: freed once, by the code that allocated it.
            unsafe { free_buffer(output) };
            assert_eq!(
                panic_message(&body),
                format!("panicked in `{hook}`: `{hook}` was called")
            );
        }
        let room = __stoa_alloc(8);
        assert!(!room.is_null());
    }

    /// The function in `hook`'s field, found as a host finds it.
    fn exported(hook: Hook) -> Option<abi::HookFn> {
        let entry = Exports::entry();
        match hook.slot() {
            Slot::Descriptor => entry.descriptor.hook(hook),
            Slot::MoreHooks => {
                let offset = StoaHooksV1::offset_of(hook)?;
                let base = std::ptr::from_ref(&entry.more).cast::<u8>();
                // SAFETY: `offset_of` is the offset of a field of type
                // `Option<HookFn>` in this live struct.
                unsafe { base.add(offset).cast::<Option<abi::HookFn>>().read() }
            }
        }
    }

    #[test]
    fn every_hook_is_exported_in_its_field_and_reaches_its_trait_method() {
        for hook in Hook::ALL {
            let function = exported(hook).unwrap_or_else(|| panic!("no `{hook}` exported"));
            let input = any_input();
            let mut output = StoaBuffer::EMPTY;
            // SAFETY: a live input slice and a writable buffer.
            let status = unsafe { function(input.as_ptr(), input.len(), &mut output) };
            assert_eq!(status, STATUS_PANIC, "{hook}");
            // SAFETY: the hook wrote `len` bytes at `ptr`, ours until freed.
            let body = unsafe { std::slice::from_raw_parts(output.ptr, output.len) }.to_vec();
            // SAFETY: freed once, by the code that allocated it.
            unsafe { free_buffer(output) };
            let expected = format!("panicked in `{hook}`: `{hook}` was called");
            assert_eq!(panic_message(&body), expected);
        }
    }
}
