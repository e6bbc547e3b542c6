//! WebAssembly plugins: a `.wasm` module run with wasmi, sandboxed, through
//! the wire of the C ABI ([`stoa_sdk::abi::wasm`]).
//!
//! The module is compiled once per process (the cache of `load`); every
//! hook call runs in a fresh instance of it, with its own store, discarded
//! afterwards. So a call cannot see what an earlier one left (the output is
//! a function of the input, on any thread, in any order), nothing a plugin
//! allocates need ever be freed, and a trap leaves nothing half-changed.
//!
//! The sandbox: the module's only imports may be the host API's functions
//! (module `stoa`), which read and change the open chapter and nothing
//! else; anything else it imports (WASI, a file, the clock) is refused when
//! it loads. Each call has a budget of fuel (wasmi counts instructions),
//! made from the book's `time-limit`, and a cap on its memory; running out
//! of either, or any trap, ends the call with an error naming the plugin
//! and the post, and the books that use the plugin fail.

use serde_json::Value;
use std::path::Path;
use std::sync::OnceLock;
use std::time::Duration;
use stoa_sdk::Hooks;
use stoa_sdk::abi::wasm::{
    ALLOC_EXPORT, HOST_IMPORTS, IMPORT_MODULE, MEMORY_EXPORT, hook_export, hook_offset,
};
use stoa_sdk::abi::{ABI_VERSION, ENTRY_SYMBOL, HOOKS_SYMBOL, OTHER_ENTRY_SYMBOLS};
use stoa_sdk::hook::{Hook, Slot};
use stoa_sdk::wire::{self, TransformInput, TransformOutput};
use stoa_sdk::{Block, Chapter, Inline, PluginDiagnostic, Severity};
use wasmi::{
    Caller, Config, Engine, Error, ExternType, Instance, Linker, Memory, Module, Store,
    StoreLimits, StoreLimitsBuilder, TrapCode, ValType,
};

/// The largest `.wasm` file read: a plugin, not a disk image.
const MAX_FILE: u64 = 64 << 20;

/// Fuel per second of `time-limit`: about what wasmi burns in a second on
/// a small machine (2 cores; scripts/bench-wasm measures it, 99 million
/// there), so that a budget lasts at least its seconds on a laptop. Fuel is counted, not timed, so the
/// budget is the same on every machine and every run: a plugin that fits
/// it on one machine fits it on all, and a build never depends on load.
pub const FUEL_PER_SECOND: u64 = 100_000_000;

/// The default cap on one call's memory: 4096 pages of 64 KiB.
pub const DEFAULT_MEMORY: usize = 256 << 20;

/// The budget of one hook call of a WebAssembly plugin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct WasmLimits {
    /// Fuel: wasmi's count of instructions (and of bytes the host API
    /// handles for the plugin).
    pub fuel: u64,
    /// Bytes the module's memory may grow to.
    pub memory: usize,
    /// The `time-limit` the fuel was made from, for messages.
    pub time_limit: Duration,
}

impl WasmLimits {
    /// The budget for `time_limit` ([`FUEL_PER_SECOND`] fuel a second) and
    /// the default memory cap.
    pub fn for_time_limit(time_limit: Duration) -> WasmLimits {
        let fuel = (time_limit.as_secs_f64() * FUEL_PER_SECOND as f64) as u64;
        WasmLimits {
            fuel: fuel.max(1),
            memory: DEFAULT_MEMORY,
            time_limit,
        }
    }

    /// The same, with memory capped at `bytes`.
    pub fn with_memory(mut self, bytes: usize) -> WasmLimits {
        self.memory = bytes;
        self
    }
}

impl Default for WasmLimits {
    /// The budget of a plugin whose table has no `time-limit`: 60 s.
    fn default() -> Self {
        WasmLimits::for_time_limit(Duration::from_secs(60))
    }
}

/// A module, compiled and checked: it speaks our ABI, imports nothing but
/// the host API, and exports a function for each hook it declares.
pub(crate) struct WasmPlugin {
    module: Module,
    pub(crate) name: String,
    pub(crate) version: String,
    pub(crate) tree_version: u32,
    hooks: Hooks,
}

impl std::fmt::Debug for WasmPlugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WasmPlugin")
            .field("name", &self.name)
            .field("version", &self.version)
            .finish_non_exhaustive()
    }
}

/// Why a `.wasm` file could not be used as a plugin.
#[derive(Debug)]
pub(crate) enum WasmOpenError {
    /// Not readable, or not a module wasmi accepts.
    NotAModule(String),
    /// It imports what stoa does not give: (module, name, why).
    Import(String, String, &'static str),
    /// An export stoa needs is missing or of the wrong kind.
    Export(String),
    /// No `stoa_plugin_v1`; `newer` is the entry of another ABI it has.
    NoEntry { newer: Option<&'static str> },
    /// The descriptor's `abi_version` is not ours.
    AbiVersion(u32),
    /// Reading the descriptor failed: a field, or a trap.
    Descriptor(String),
}

impl std::fmt::Display for WasmOpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WasmOpenError::NotAModule(why) => write!(f, "{why}"),
            WasmOpenError::Import(module, name, why) => {
                write!(f, "imports `{module}.{name}`, {why}")
            }
            WasmOpenError::Export(why) | WasmOpenError::Descriptor(why) => write!(f, "{why}"),
            WasmOpenError::NoEntry { newer } => match newer {
                Some(symbol) => write!(f, "exports no `{ENTRY_SYMBOL}`, only `{symbol}`"),
                None => write!(f, "exports no `{ENTRY_SYMBOL}`"),
            },
            WasmOpenError::AbiVersion(v) => write!(f, "speaks plugin ABI version {v}"),
        }
    }
}

/// How a call failed, beyond what the plugin itself answered.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum WasmFailure {
    /// The fuel ran out: it loops, or needs a longer `time-limit`.
    OutOfFuel(WasmLimits),
    /// It wanted more memory than the cap.
    OutOfMemory(WasmLimits),
    /// It trapped (a panic in Rust built for wasm, a bad access, ...).
    Trap(String),
    /// It broke the wire: no room for the input, an output outside its memory.
    Wire(String),
}

impl std::fmt::Display for WasmFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WasmFailure::OutOfFuel(_) => write!(f, "ran out of its budget"),
            WasmFailure::OutOfMemory(limits) => write!(
                f,
                "used more than its {} MiB of memory",
                limits.memory >> 20
            ),
            WasmFailure::Trap(why) => write!(f, "crashed (a WebAssembly trap: {why})"),
            WasmFailure::Wire(why) => write!(f, "{why}"),
        }
    }
}

impl WasmFailure {
    /// What the budget was, for a message: `60 s of `time-limit`, … instructions`.
    pub(crate) fn budget(&self) -> Option<String> {
        match self {
            WasmFailure::OutOfFuel(limits) => Some(format!(
                "{} s of `time-limit`, {} instructions",
                limits.time_limit.as_secs_f64(),
                limits.fuel
            )),
            _ => None,
        }
    }
}

/// The one engine of the process: fuel metering on, so that every call
/// can be given a budget. Compiled code is shared by every instance.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut config = Config::default();
        config.consume_fuel(true);
        Engine::new(&config)
    })
}

/// The host functions, defined once: the host API, and nothing else.
fn linker() -> &'static Linker<State> {
    static LINKER: OnceLock<Linker<State>> = OnceLock::new();
    LINKER.get_or_init(|| {
        let mut linker = Linker::new(engine());
        host::define(&mut linker);
        linker
    })
}

/// A call's store: its limits and the chapters the host API opened.
struct State {
    limits: StoreLimits,
    chapters: Vec<Option<host::Open>>,
}

/// Reads, compiles and checks the module at `path`, and reads its
/// descriptor in an instance of its own.
pub(crate) fn open(path: &Path) -> Result<WasmPlugin, WasmOpenError> {
    let not_a_module = |why: String| WasmOpenError::NotAModule(why);
    let size = std::fs::metadata(path)
        .map_err(|e| not_a_module(format!("cannot be read: {e}")))?
        .len();
    if size > MAX_FILE {
        return Err(not_a_module(format!(
            "is {size} bytes, more than the {} MiB a WebAssembly plugin may have",
            MAX_FILE >> 20
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| not_a_module(format!("cannot be read: {e}")))?;
    let module = Module::new(engine(), &bytes)
        .map_err(|e| not_a_module(format!("is not a WebAssembly module stoa can run: {e}")))?;
    check_imports(&module)?;
    check_exports(&module)?;
    // Reading a descriptor takes a few instructions: a module whose start
    // function loops is refused after a second's budget, not a minute's.
    let limits = WasmLimits::for_time_limit(Duration::from_secs(1));
    let mut store = new_store(&limits);
    let instance = linker()
        .instantiate_and_start(&mut store, &module)
        .map_err(|e| {
            let why = failure(e, &limits);
            let budget = why.budget().map(|b| format!(" ({b})")).unwrap_or_default();
            WasmOpenError::Descriptor(format!("could not be started: it {why}{budget}"))
        })?;
    let memory = memory(&store, &instance).map_err(WasmOpenError::Export)?;
    let entry = instance
        .get_typed_func::<(), i32>(&store, ENTRY_SYMBOL)
        .map_err(|e| WasmOpenError::Export(format!("`{ENTRY_SYMBOL}`: {e}")))?;
    let at = entry
        .call(&mut store, ())
        .map_err(|e| WasmOpenError::Descriptor(format!("trapped in `{ENTRY_SYMBOL}`: {e}")))?;
    let read = Reader {
        memory,
        store: &store,
    };
    let descriptor = read.pointer(at).ok_or_else(|| {
        WasmOpenError::Descriptor(format!("returned no descriptor from `{ENTRY_SYMBOL}`"))
    })?;
    // `abi_version` is the first field in every ABI version: read alone first.
    let abi_version = read
        .u32(descriptor)
        .ok_or_else(|| bad_field("abi_version"))?;
    if abi_version != ABI_VERSION {
        return Err(WasmOpenError::AbiVersion(abi_version));
    }
    let tree_version = read
        .field(descriptor, 4)
        .ok_or_else(|| bad_field("tree_version"))?;
    let string = |offset: u32, field: &'static str| {
        read.field(descriptor, offset)
            .and_then(|p| read.c_string(p))
            .ok_or_else(|| bad_field(field))
    };
    let name = string(8, "name")?;
    let version = string(12, "version")?;
    let more = match instance.get_typed_func::<(), i32>(&store, HOOKS_SYMBOL) {
        Ok(function) => function
            .call(&mut store, ())
            .map_err(|e| WasmOpenError::Descriptor(format!("trapped in `{HOOKS_SYMBOL}`: {e}")))?,
        Err(_) => 0,
    };
    let read = Reader {
        memory,
        store: &store,
    };
    let more_size = read.pointer(more).and_then(|p| read.u32(p)).unwrap_or(0);
    // Which hooks: a non-zero field of the struct of the hook's slot, as
    // the hook table places it; a field past a `StoaHooksV1`'s `size` is
    // one the plugin was built before.
    let has = |hook: Hook| {
        let offset = hook_offset(hook);
        let field = match hook.slot() {
            Slot::Descriptor => read.field(descriptor, offset),
            Slot::MoreHooks if more != 0 && more_size >= offset + 4 => {
                read.field(more as u32, offset)
            }
            Slot::MoreHooks => None,
        };
        field.is_some_and(|f| f != 0)
    };
    let hooks = Hooks::from_fn(has);
    for hook in Hook::ALL.into_iter().filter(|&h| hooks.has(h)) {
        let export = hook_export(hook);
        if !is_func(&module, &export, 3, 1) {
            return Err(WasmOpenError::Export(format!(
                "declares `{hook}` in its descriptor but exports no function \
                 `{export}(input, input_len, output) -> status` (all i32)"
            )));
        }
    }
    Ok(WasmPlugin {
        module,
        name,
        version,
        tree_version,
        hooks,
    })
}

fn bad_field(field: &str) -> WasmOpenError {
    WasmOpenError::Descriptor(format!(
        "has a descriptor whose `{field}` is outside its memory or not NUL-terminated UTF-8"
    ))
}

/// Every import must be a function of the host API, of its type.
fn check_imports(module: &Module) -> Result<(), WasmOpenError> {
    for import in module.imports() {
        let refuse = |why| {
            Err(WasmOpenError::Import(
                import.module().to_string(),
                import.name().to_string(),
                why,
            ))
        };
        if import.module() != IMPORT_MODULE {
            return refuse(
                "which stoa does not provide: a WebAssembly plugin gets no WASI and no \
                 functions but the host API (module `stoa`)",
            );
        }
        let Some(&(_, params, results)) = HOST_IMPORTS
            .iter()
            .find(|(name, _, _)| *name == import.name())
        else {
            return refuse("which is not a function of stoa's host API");
        };
        let ExternType::Func(ty) = import.ty() else {
            return refuse("as something other than a function");
        };
        if !all_i32(ty.params(), params) || !all_i32(ty.results(), results) {
            return refuse("with a type other than the host API's");
        }
    }
    Ok(())
}

fn all_i32(types: &[ValType], count: usize) -> bool {
    types.len() == count && types.iter().all(|t| *t == ValType::I32)
}

/// Whether the module exports `name` as a function of `params` i32s to
/// `results` i32s.
fn is_func(module: &Module, name: &str, params: usize, results: usize) -> bool {
    match module.get_export(name) {
        Some(ExternType::Func(ty)) => {
            all_i32(ty.params(), params) && all_i32(ty.results(), results)
        }
        _ => false,
    }
}

/// The exports every plugin has: its memory, its entry and its allocator.
fn check_exports(module: &Module) -> Result<(), WasmOpenError> {
    if module.get_export(ENTRY_SYMBOL).is_none() {
        let newer = OTHER_ENTRY_SYMBOLS
            .iter()
            .copied()
            .find(|s| module.get_export(s).is_some());
        return Err(WasmOpenError::NoEntry { newer });
    }
    if !is_func(module, ENTRY_SYMBOL, 0, 1) {
        return Err(WasmOpenError::Export(format!(
            "exports `{ENTRY_SYMBOL}` but not as a function `() -> i32`"
        )));
    }
    if !matches!(
        module.get_export(MEMORY_EXPORT),
        Some(ExternType::Memory(_))
    ) {
        return Err(WasmOpenError::Export(format!(
            "exports no memory named `{MEMORY_EXPORT}`, which stoa writes the inputs into"
        )));
    }
    if !is_func(module, ALLOC_EXPORT, 1, 1) {
        return Err(WasmOpenError::Export(format!(
            "exports no function `{ALLOC_EXPORT}(len) -> address` (i32), which gives stoa \
             room for each input"
        )));
    }
    Ok(())
}

fn new_store(limits: &WasmLimits) -> Store<State> {
    let state = State {
        limits: StoreLimitsBuilder::new()
            .memory_size(limits.memory)
            .table_elements(1 << 20)
            // One instance, one memory: a second memory would have a cap
            // of its own (the limit is per memory).
            .instances(1)
            .memories(1)
            .tables(4)
            // Growing past the cap stops the plugin with a clear message,
            // rather than a NULL from malloc that it may not check.
            .trap_on_grow_failure(true)
            .build(),
        chapters: Vec::new(),
    };
    let mut store = Store::new(engine(), state);
    store.limiter(|state| &mut state.limits);
    // Fuel is on in this engine: setting it cannot fail.
    let _ = store.set_fuel(limits.fuel);
    store
}

fn memory(store: &Store<State>, instance: &Instance) -> Result<Memory, String> {
    instance
        .get_memory(store, MEMORY_EXPORT)
        .ok_or_else(|| format!("exports no memory named `{MEMORY_EXPORT}`"))
}

/// Reads the module's memory, every access bounds-checked.
struct Reader<'a> {
    memory: Memory,
    store: &'a Store<State>,
}

impl Reader<'_> {
    fn data(&self) -> &[u8] {
        self.memory.data(self.store)
    }

    /// A non-null address.
    fn pointer(&self, at: i32) -> Option<u32> {
        (at != 0).then_some(at as u32)
    }

    /// The `u32` at `offset` bytes past `base` (None past the memory's end).
    fn field(&self, base: u32, offset: u32) -> Option<u32> {
        self.u32(base.checked_add(offset)?)
    }

    fn u32(&self, at: u32) -> Option<u32> {
        let at = at as usize;
        let bytes = self.data().get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(bytes.try_into().ok()?))
    }

    fn bytes(&self, at: u32, len: u32) -> Option<&[u8]> {
        let at = at as usize;
        self.data().get(at..at.checked_add(len as usize)?)
    }

    fn c_string(&self, at: u32) -> Option<String> {
        let rest = self.data().get(at as usize..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        String::from_utf8(rest[..end].to_vec()).ok()
    }
}

impl WasmPlugin {
    /// The hooks it declares.
    pub(crate) fn provides(&self) -> Hooks {
        self.hooks
    }

    /// Calls `hook` with `input` in a fresh instance under `limits`: the
    /// status and the output's bytes, or why there are none.
    pub(crate) fn call(
        &self,
        hook: Hook,
        input: &[u8],
        limits: &WasmLimits,
    ) -> Result<(i32, Vec<u8>), WasmFailure> {
        let mut store = new_store(limits);
        let failure = |e: Error| failure(e, limits);
        let instance = linker()
            .instantiate_and_start(&mut store, &self.module)
            .map_err(failure)?;
        let memory = memory(&store, &instance).map_err(WasmFailure::Wire)?;
        let alloc = instance
            .get_typed_func::<i32, i32>(&store, ALLOC_EXPORT)
            .map_err(|e| WasmFailure::Wire(e.to_string()))?;
        let function = instance
            .get_typed_func::<(i32, i32, i32), i32>(&store, &hook_export(hook))
            .map_err(|e| WasmFailure::Wire(format!("has no `{}`: {e}", hook_export(hook))))?;
        let len = i32::try_from(input.len()).map_err(|_| {
            WasmFailure::Wire(format!("cannot be sent an input of {} bytes", input.len()))
        })?;
        let no_room = || {
            WasmFailure::Wire(format!(
                "gave no room for the {} bytes of its input (`{ALLOC_EXPORT}` returned 0 or \
                 an address outside its memory)",
                input.len()
            ))
        };
        let at = alloc.call(&mut store, len).map_err(failure)?;
        let slot = alloc.call(&mut store, 8).map_err(failure)?;
        if at == 0 || slot == 0 {
            return Err(no_room());
        }
        memory
            .write(&mut store, at as u32 as usize, input)
            .map_err(|_| no_room())?;
        memory
            .write(&mut store, slot as u32 as usize, &[0; 8])
            .map_err(|_| no_room())?;
        let status = function
            .call(&mut store, (at, len, slot))
            .map_err(failure)?;
        let read = Reader {
            memory,
            store: &store,
        };
        let (ptr, out_len) = (read.u32(slot as u32), read.field(slot as u32, 4));
        let bytes = match (ptr, out_len) {
            (Some(_), Some(0)) => Some(&[][..]),
            (Some(ptr), Some(n)) => read.bytes(ptr, n),
            _ => None,
        };
        let bytes = bytes.ok_or_else(|| {
            WasmFailure::Wire(format!(
                "returned an output outside its memory from `{hook}`"
            ))
        })?;
        Ok((status, bytes.to_vec()))
    }
}

/// What a wasmi error means for the author.
fn failure(e: Error, limits: &WasmLimits) -> WasmFailure {
    match e.as_trap_code() {
        Some(TrapCode::OutOfFuel) => WasmFailure::OutOfFuel(*limits),
        Some(TrapCode::GrowthOperationLimited) => WasmFailure::OutOfMemory(*limits),
        Some(code) => WasmFailure::Trap(code.trap_message().to_string()),
        None => match e.to_string() {
            // The limiter refused the memory the module starts with.
            why if why.contains("resource limiter") => WasmFailure::OutOfMemory(*limits),
            why => WasmFailure::Trap(why),
        },
    }
}

/// The host API as imports: the functions of `StoaHostApiV1` on a chapter
/// the host keeps in the call's store, their strings written into the
/// module's memory through its `stoa_alloc`. Every argument is checked:
/// a bad handle, address or index gives NULL or -1, as in the C API.
mod host {
    use super::*;

    /// A chapter open in one call.
    pub(super) struct Open {
        chapter: Chapter,
        lang: String,
        config: Value,
        diagnostics: Vec<PluginDiagnostic>,
    }

    type C<'a> = Caller<'a, State>;

    /// Fuel for work the host does on the plugin's behalf: a byte handled
    /// costs what an instruction does, so the budget covers it too.
    fn charge(caller: &mut C<'_>, bytes: usize) -> Result<(), Error> {
        let left = caller.get_fuel()?;
        match left.checked_sub(bytes as u64) {
            Some(left) => caller.set_fuel(left),
            None => Err(Error::from(TrapCode::OutOfFuel)),
        }
    }

    fn mem(caller: &C<'_>) -> Option<Memory> {
        caller.get_export(MEMORY_EXPORT)?.into_memory()
    }

    fn bytes(caller: &C<'_>, at: i32, len: i32) -> Option<Vec<u8>> {
        let memory = mem(caller)?;
        let data = memory.data(caller);
        let start = at as u32 as usize;
        let end = start.checked_add(len as u32 as usize)?;
        if at == 0 && len != 0 {
            return None;
        }
        data.get(start..end).map(<[u8]>::to_vec)
    }

    fn utf8(caller: &C<'_>, at: i32, len: i32) -> Option<String> {
        String::from_utf8(bytes(caller, at, len)?).ok()
    }

    fn c_string(caller: &C<'_>, at: i32) -> Option<String> {
        if at == 0 {
            return None;
        }
        let memory = mem(caller)?;
        let rest = memory.data(caller).get(at as u32 as usize..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        String::from_utf8(rest[..end].to_vec()).ok()
    }

    fn write(caller: &mut C<'_>, at: i32, bytes: &[u8]) -> Option<()> {
        if at == 0 {
            return None;
        }
        let memory = mem(caller)?;
        memory.write(caller, at as u32 as usize, bytes).ok()
    }

    /// Copies `bytes` into the module's memory, through its allocator;
    /// the address, or 0 when it gave no room.
    fn give(caller: &mut C<'_>, bytes: &[u8]) -> Result<i32, Error> {
        charge(caller, bytes.len())?;
        let Some(alloc) = caller
            .get_export(ALLOC_EXPORT)
            .and_then(|e| e.into_func())
            .and_then(|f| f.typed::<i32, i32>(&*caller).ok())
        else {
            return Ok(0);
        };
        let Ok(len) = i32::try_from(bytes.len()) else {
            return Ok(0);
        };
        let at = alloc.call(&mut *caller, len)?;
        Ok(write(caller, at, bytes).map_or(0, |()| at))
    }

    /// `text` and a NUL, in the module's memory (an inner NUL becomes a
    /// space, as in the C API); its address and length.
    fn give_c_string(caller: &mut C<'_>, text: &str) -> Result<(i32, usize), Error> {
        let mut bytes = text.replace('\0', " ").into_bytes();
        let len = bytes.len();
        bytes.push(0);
        Ok((give(caller, &bytes)?, len))
    }

    fn open<'a>(caller: &'a mut C<'_>, handle: i32) -> Option<&'a mut Open> {
        let index = usize::try_from(handle).ok()?.checked_sub(1)?;
        caller.data_mut().chapters.get_mut(index)?.as_mut()
    }

    fn take(caller: &mut C<'_>, handle: i32) -> Option<Open> {
        let index = usize::try_from(handle).ok()?.checked_sub(1)?;
        caller.data_mut().chapters.get_mut(index)?.take()
    }

    fn chapter_open(mut caller: C<'_>, at: i32, len: i32) -> Result<i32, Error> {
        let Some(input) = bytes(&caller, at, len) else {
            return Ok(0);
        };
        charge(&mut caller, input.len())?;
        let read = wire::with_deep_stack(|| wire::from_slice::<TransformInput>(&input));
        let Ok(input) = read else {
            return Ok(0);
        };
        let open = Open {
            lang: input.lang.to_string(),
            config: input.config.into_owned(),
            chapter: input.chapter.into_owned(),
            diagnostics: Vec::new(),
        };
        let chapters = &mut caller.data_mut().chapters;
        chapters.push(Some(open));
        Ok(chapters.len() as i32)
    }

    fn chapter_finish(mut caller: C<'_>, handle: i32, output: i32) -> Result<i32, Error> {
        use stoa_sdk::abi::{STATUS_BAD_INPUT, STATUS_ERROR, STATUS_OK, STATUS_PANIC};
        if output == 0 {
            return Ok(STATUS_BAD_INPUT);
        }
        let Some(open) = take(&mut caller, handle) else {
            return Ok(STATUS_BAD_INPUT);
        };
        let failed = open
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error);
        let answer = TransformOutput::new(
            std::borrow::Cow::Borrowed(&open.chapter),
            open.diagnostics.clone(),
        );
        let Ok(json) = wire::with_deep_stack(|| wire::to_vec(&answer)) else {
            return Ok(STATUS_PANIC);
        };
        let at = give(&mut caller, &json)?;
        if at == 0 {
            return Ok(STATUS_PANIC);
        }
        let mut buffer = [0u8; 8];
        buffer[..4].copy_from_slice(&(at as u32).to_le_bytes());
        buffer[4..].copy_from_slice(&(json.len() as u32).to_le_bytes());
        match write(&mut caller, output, &buffer) {
            Some(()) => Ok(if failed { STATUS_ERROR } else { STATUS_OK }),
            None => Ok(STATUS_BAD_INPUT),
        }
    }

    fn lang(mut caller: C<'_>, handle: i32) -> Result<i32, Error> {
        let Some(lang) = open(&mut caller, handle).map(|o| o.lang.clone()) else {
            return Ok(0);
        };
        Ok(give_c_string(&mut caller, &lang)?.0)
    }

    fn config(mut caller: C<'_>, handle: i32, key: i32) -> Result<i32, Error> {
        let Some(key) = c_string(&caller, key) else {
            return Ok(0);
        };
        let text = match open(&mut caller, handle).and_then(|o| o.config.get(&key).cloned()) {
            Some(Value::String(s)) => s,
            Some(v @ (Value::Number(_) | Value::Bool(_))) => v.to_string(),
            _ => return Ok(0),
        };
        Ok(give_c_string(&mut caller, &text)?.0)
    }

    fn block_count(mut caller: C<'_>, handle: i32) -> i32 {
        open(&mut caller, handle).map_or(0, |o| o.chapter.blocks.len() as i32)
    }

    fn block_kind(mut caller: C<'_>, handle: i32, index: i32) -> Result<i32, Error> {
        let kind = open(&mut caller, handle)
            .and_then(|o| o.chapter.blocks.get(index as u32 as usize))
            .map(crate::host_api::kind_of);
        match kind {
            Some(kind) => Ok(give_c_string(&mut caller, kind.to_str().unwrap_or(""))?.0),
            None => Ok(0),
        }
    }

    fn block_text(mut caller: C<'_>, handle: i32, index: i32, len: i32) -> Result<i32, Error> {
        let text = open(&mut caller, handle)
            .and_then(|o| o.chapter.blocks.get(index as u32 as usize))
            .map(crate::host_api::text_of);
        let Some(text) = text else {
            return Ok(0);
        };
        let (at, n) = give_c_string(&mut caller, &text)?;
        if at != 0 && len != 0 {
            write(&mut caller, len, &(n as u32).to_le_bytes());
        }
        Ok(at)
    }

    /// Puts `blocks` before block `index`; -1 when past the end.
    fn insert(caller: &mut C<'_>, handle: i32, index: i32, blocks: Vec<Block>) -> i32 {
        let Some(open) = open(caller, handle) else {
            return -1;
        };
        let index = index as u32 as usize;
        if index > open.chapter.blocks.len() {
            return -1;
        }
        open.chapter.blocks.splice(index..index, blocks);
        0
    }

    fn insert_markdown(
        mut caller: C<'_>,
        handle: i32,
        index: i32,
        at: i32,
        len: i32,
    ) -> Result<i32, Error> {
        let Some(markdown) = utf8(&caller, at, len) else {
            return Ok(-1);
        };
        charge(&mut caller, markdown.len())?;
        let parsed = stoa_markdown::parse(&markdown, 1);
        if !parsed.images.is_empty() {
            return Ok(-1);
        }
        Ok(insert(&mut caller, handle, index, parsed.blocks))
    }

    fn insert_paragraph(
        mut caller: C<'_>,
        (handle, index, class, at, len): (i32, i32, i32, i32, i32),
    ) -> Result<i32, Error> {
        let Some(text) = utf8(&caller, at, len) else {
            return Ok(-1);
        };
        charge(&mut caller, text.len())?;
        let paragraph = Block::Paragraph {
            content: vec![Inline::text(text)],
        };
        let block = match (class, c_string(&caller, class)) {
            (0, _) => paragraph,
            (_, Some(class)) => stoa_sdk::div(class, vec![paragraph]),
            (_, None) => return Ok(-1),
        };
        Ok(insert(&mut caller, handle, index, vec![block]))
    }

    fn insert_raw(
        mut caller: C<'_>,
        (handle, index, format, at, len): (i32, i32, i32, i32, i32),
    ) -> Result<i32, Error> {
        let (Some(format), Some(payload)) = (c_string(&caller, format), utf8(&caller, at, len))
        else {
            return Ok(-1);
        };
        charge(&mut caller, payload.len())?;
        Ok(insert(
            &mut caller,
            handle,
            index,
            vec![Block::raw(format, payload)],
        ))
    }

    fn remove_block(mut caller: C<'_>, handle: i32, index: i32) -> i32 {
        let Some(open) = open(&mut caller, handle) else {
            return -1;
        };
        let index = index as u32 as usize;
        if index >= open.chapter.blocks.len() {
            return -1;
        }
        open.chapter.blocks.remove(index);
        0
    }

    fn report(mut caller: C<'_>, handle: i32, severity: i32, message: i32) {
        let Some(message) = c_string(&caller, message) else {
            return;
        };
        if let Some(open) = open(&mut caller, handle) {
            open.diagnostics.push(if severity == 1 {
                PluginDiagnostic::error(message)
            } else {
                PluginDiagnostic::warning(message)
            });
        }
    }

    /// Defines every function of [`HOST_IMPORTS`] in `linker`, under its
    /// name (a test instantiates a module importing them all).
    pub(super) fn define(linker: &mut Linker<State>) {
        let m = IMPORT_MODULE;
        // Each name is defined once in a new linker: these cannot fail.
        let _ = linker.func_wrap(m, "chapter_open", chapter_open);
        let _ = linker.func_wrap(m, "chapter_finish", chapter_finish);
        let _ = linker.func_wrap(m, "chapter_close", |mut c: C<'_>, h: i32| {
            take(&mut c, h);
        });
        // The answers chapter_finish writes live in the instance, which
        // stoa discards after the call: nothing to free.
        let _ = linker.func_wrap(m, "free_buffer", |_: C<'_>, _: i32| {});
        let _ = linker.func_wrap(m, "lang", lang);
        let _ = linker.func_wrap(m, "config", config);
        let _ = linker.func_wrap(m, "block_count", block_count);
        let _ = linker.func_wrap(m, "block_kind", block_kind);
        let _ = linker.func_wrap(m, "block_text", block_text);
        let _ = linker.func_wrap(m, "insert_markdown", insert_markdown);
        let _ = linker.func_wrap(m, "insert_paragraph", |c: C<'_>, a, b, d, e, f| {
            insert_paragraph(c, (a, b, d, e, f))
        });
        let _ = linker.func_wrap(m, "insert_raw", |c: C<'_>, a, b, d, e, f| {
            insert_raw(c, (a, b, d, e, f))
        });
        let _ = linker.func_wrap(m, "remove_block", remove_block);
        let _ = linker.func_wrap(m, "report", report);
    }
}
