//! The process around a build: SIGINT and SIGTERM stop it at a safe point,
//! remove the temporary files and the lock from the output folder, and exit
//! with the shell's code for the signal (130, 143; a second signal exits at
//! once); and a plugin that calls `exit` in the middle of a build never
//! turns it into a success.

use std::sync::atomic::{AtomicBool, Ordering};

/// True while a build runs: an `exit` then comes from a plugin.
static BUILDING: AtomicBool = AtomicBool::new(false);

/// The exit status when a plugin ended the process during a build.
const ENDED_BY_PLUGIN: i32 = 70;

/// Marks the build as running until the guard is dropped.
pub struct Building(());

impl Drop for Building {
    fn drop(&mut self) {
        BUILDING.store(false, Ordering::SeqCst);
    }
}

/// Starts guarding a build: installs the signal handlers and the `exit`
/// check. Drop the value when the build is over.
pub fn guard_build() -> Building {
    clean_up_on_interrupt();
    on_exit_during_build();
    BUILDING.store(true, Ordering::SeqCst);
    Building(())
}

/// Listens for SIGINT and SIGTERM on a thread of its own for the rest of the
/// process. Without it the default action would end the process in the
/// middle of a write and leave `.stoa-*.tmp` files behind.
#[cfg(unix)]
fn clean_up_on_interrupt() {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        // No handler: the next build removes what this one leaves.
        return;
    };
    let _ = std::thread::Builder::new()
        .name("stoa-signals".into())
        .spawn(move || {
            let mut pending = signals.forever();
            let Some(signal) = pending.next() else {
                return;
            };
            let code = 128 + signal;
            // Cleaning waits for the write under way; a second signal means
            // "now", as a shell user expects.
            let _ = std::thread::Builder::new()
                .name("stoa-cleanup".into())
                .spawn(move || {
                    eprintln!("\ninterrupted: removing temporary files");
                    stoa_build::interrupt();
                    BUILDING.store(false, Ordering::SeqCst);
                    std::process::exit(code);
                });
            if let Some(again) = pending.next() {
                BUILDING.store(false, Ordering::SeqCst);
                std::process::exit(128 + again);
            }
        });
}

/// Elsewhere the default action stands; the next build removes leftovers.
#[cfg(not(unix))]
fn clean_up_on_interrupt() {}

/// A plugin running inside stoa that calls `exit(0)` would end the build
/// with success and half the books missing: an `atexit` handler catches an
/// exit while a build runs, says so and exits with 70 (EX_SOFTWARE).
#[cfg(unix)]
#[allow(unsafe_code)]
fn on_exit_during_build() {
    extern "C" fn check() {
        if BUILDING.load(Ordering::SeqCst) {
            stoa_build::interrupt();
            eprintln!(
                "\nerror: a plugin ended stoa in the middle of the build (it called `exit`)\n  \
                 help: set `isolate = true` in the [plugins.<name>] tables of book.toml: \
                 the plugin then fails only its books, with its name"
            );
            // SAFETY: `_exit` ends the process at once, which is what is
            // wanted from inside `exit`; it takes a plain integer.
            unsafe { libc::_exit(ENDED_BY_PLUGIN) };
        }
    }
    // SAFETY: registers a plain `extern "C" fn()` that lives as long as the
    // program, as `atexit` requires.
    unsafe {
        libc::atexit(check);
    }
}

#[cfg(not(unix))]
fn on_exit_during_build() {}
