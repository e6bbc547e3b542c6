//! The `stoa` command, with the formats stoa writes (see `stoa-renderers`).

use std::process::ExitCode;

fn main() -> ExitCode {
    hand_memory_back();
    stoa_cli::run(stoa_renderers::builtin(), std::env::args_os())
}

/// Asks glibc's allocator to give each allocation of 128 KiB or more its
/// own mapping, returned when freed, for the whole run. By default glibc
/// raises that threshold as large blocks are freed (up to 32 MiB), and a
/// build's many medium blocks (Typst's layout, images read and decoded)
/// then came from a heap they left full of holes: the 1,000-post benchmark
/// of scripts/bench-images peaked at 1,326 MiB, 608 MiB with this, for
/// about a tenth more time (pages mapped afresh). Other systems' allocators
/// are left as they are.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn hand_memory_back() {
    const THRESHOLD: libc::c_int = 128 * 1024;
    // SAFETY: mallopt only sets a parameter of the allocator; it is called
    // before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, THRESHOLD);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn hand_memory_back() {}
