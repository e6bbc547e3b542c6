//! The dialogue plugin exported through the C ABI, for a build that loads it from
//! a plugin folder (`--plugin-dir`), for `isolate = true` tests of the
//! library path, and to check that it makes the same books as the built-in.
#![forbid(unsafe_code)]

stoa_sdk::export_plugin!(plugin::Dialogue);
