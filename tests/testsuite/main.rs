//! stoa's end-to-end tests, in one binary (the shape of mdBook's
//! tests/testsuite): one module per subject, and [`prelude`] for what they
//! share, the real books built once among it. One binary is compiled and
//! linked once: a binary per file linked the same dependencies 41 times.
//!
//! The tests run in threads of this one process: none may change its
//! current folder or its environment (pass them to the `Command` instead).
//! One subject alone: `cargo test -p stoa-tests --test testsuite epub::`.

mod prelude;

mod accessibility;
mod c_example;
mod check;
mod cite;
mod corpus;
mod covers;
mod diagnostics;
mod dialogue;
mod epub;
mod errors;
mod faults;
mod footnotes;
mod fuzz;
mod glossary;
mod hostile;
mod html;
mod images;
mod import_exports;
mod import_folders;
mod incremental;
mod index;
mod install;
mod languages;
mod links;
mod locale_agree;
mod math;
mod no_plugin_names;
mod note_calls;
mod notes_agree;
mod page_list;
mod partial_build;
mod parts;
mod pdf;
mod pdf_dates_and_notes;
mod phrase_language;
mod plugin_compat;
mod plugin_hooks;
mod plugin_new;
mod plugins;
mod printing;
mod raw_html;
mod raw_output;
mod real_blogs;
mod ref_pages;
mod robust;
mod scale;
mod scripts;
mod serve;
mod technical;
mod text_format;
mod titles;
mod tokens;
mod translations;
mod trust;
mod wasm_plugins;
mod watch;
mod xref;
