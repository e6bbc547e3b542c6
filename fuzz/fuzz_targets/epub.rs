//! Markdown to the tree to the EPUB: every XML file well-formed.
#![no_main]

#[path = "../src/case.rs"]
#[allow(dead_code)] // each target uses part of the shared case
mod case;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    case::epub(&case::markdown(&case::text(data)));
});
