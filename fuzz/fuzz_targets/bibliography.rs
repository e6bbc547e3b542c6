//! Bibliography files (BibTeX, CSL-JSON, hayagriva): no panic, no overflow.
#![no_main]

#[path = "../src/case.rs"]
#[allow(dead_code)] // each target uses part of the shared case
mod case;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    case::bibliography(data);
});
