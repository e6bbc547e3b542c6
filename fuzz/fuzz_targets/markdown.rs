//! The Markdown parser alone: no panic, no overflow, a bounded tree.
#![no_main]

#[path = "../src/case.rs"]
#[allow(dead_code)] // each target uses part of the shared case
mod case;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    case::markdown(&case::text(data));
});
