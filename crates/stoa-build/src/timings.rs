//! Where a build's time goes, for whoever tunes it: with `STOA_TIMINGS` set
//! in the environment, each phase prints its wall time on stderr when it
//! ends. Off (one relaxed load per phase) otherwise.

use std::sync::OnceLock;
use std::time::Instant;

/// True when `STOA_TIMINGS` is set (read once per process).
fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("STOA_TIMINGS").is_some())
}

/// A phase being timed; prints `stoa timings: <name> <ms> ms` when dropped.
pub(crate) struct Phase {
    name: Option<(String, Instant)>,
}

/// Starts timing the phase `name` (made only when timings are on).
pub(crate) fn phase(name: impl FnOnce() -> String) -> Phase {
    Phase {
        name: enabled().then(|| (name(), Instant::now())),
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        if let Some((name, started)) = &self.name {
            let ms = started.elapsed().as_secs_f64() * 1000.0;
            eprintln!("stoa timings: {name} {ms:.1} ms");
        }
    }
}
