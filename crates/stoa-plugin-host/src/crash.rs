//! Last words for a native plugin that crashes in stoa's own process. Such a
//! crash cannot be survived (the plugin may have broken any memory of the
//! process), but it must not end stoa without a word: while a native hook
//! runs, its thread holds a line prepared in advance, naming the plugin and
//! the way out (`isolate = true`), and a handler for the crash signals
//! writes that line to standard error (write(2) only: nothing else is safe
//! there), then lets the signal take its course as before (Rust's own
//! handler for stack overflows, or the default: the process ends by it).

use std::cell::Cell;
use std::sync::OnceLock;

/// The signals a crashing library raises.
const SIGNALS: [libc::c_int; 5] = [
    libc::SIGSEGV,
    libc::SIGBUS,
    libc::SIGILL,
    libc::SIGFPE,
    libc::SIGABRT,
];

thread_local! {
    /// The line to write if this thread crashes now: set only while a
    /// native hook runs. Constant-initialised and without a destructor, so
    /// the handler reads it without running any code of the thread-local
    /// machinery.
    static RUNNING: Cell<(*const u8, usize)> = const { Cell::new((std::ptr::null(), 0)) };
}

/// The actions the signals had before [`arm`], restored by the handler.
static PREVIOUS: OnceLock<[libc::sigaction; SIGNALS.len()]> = OnceLock::new();

/// The line for a crash of the plugin `name` loaded from `path`.
pub(crate) fn last_words(name: &str, path: &std::path::Path) -> Box<[u8]> {
    format!(
        "\nstoa: the plugin `{name}` ({}) crashed while it ran inside stoa, which ends the \
         build here. Set `isolate = true` in its [plugins.{name}] table of book.toml to run it in \
         a process of its own, where a crash fails only the books that use it, with an error; \
         then report the crash to the plugin's author.\n",
        path.display()
    )
    .into_bytes()
    .into_boxed_slice()
}

/// Installs the handler, once per process (only the process that runs
/// native plugins inside itself: an isolated plugin's child is watched by
/// its parent, which says what happened).
pub(crate) fn arm() {
    PREVIOUS.get_or_init(|| {
        // SAFETY: plain sigaction calls with zeroed, then filled, structs;
        // `handler` is async-signal-safe (see its comment).
        unsafe {
            let mut previous: [libc::sigaction; SIGNALS.len()] = std::mem::zeroed();
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = handler as *const () as usize;
            // On the alternate stack Rust gives each thread, so that a
            // plugin that overflows its stack is still named.
            action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut action.sa_mask);
            for (signal, slot) in SIGNALS.iter().zip(previous.iter_mut()) {
                libc::sigaction(*signal, &action, slot);
            }
            previous
        }
    });
}

/// Runs `call` (a native hook) with `words` as this thread's last words.
pub(crate) fn running<T>(words: &[u8], call: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            RUNNING.with(|r| r.set((std::ptr::null(), 0)));
        }
    }
    RUNNING.with(|r| r.set((words.as_ptr(), words.len())));
    let _reset = Reset;
    call()
}

/// Writes the running plugin's line, if any, puts back the signal's
/// previous action and raises it again: it is delivered when the handler
/// returns (a fault would also recur when its instruction runs again).
/// Only async-signal-safe calls: write, sigaction, raise.
extern "C" fn handler(signal: libc::c_int, _: *mut libc::siginfo_t, _: *mut libc::c_void) {
    let (ptr, len) = RUNNING.with(Cell::get);
    // SAFETY: `ptr`/`len` describe a live slice while set (`running`
    // clears it before the slice can go); the previous actions were stored
    // before the handler was installed.
    unsafe {
        if !ptr.is_null() {
            libc::write(2, ptr.cast(), len);
        }
        if let Some(previous) = PREVIOUS.get()
            && let Some(i) = SIGNALS.iter().position(|s| *s == signal)
        {
            libc::sigaction(signal, &previous[i], std::ptr::null_mut());
        }
        libc::raise(signal);
    }
}
