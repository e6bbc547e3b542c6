//! Every way a plugin can be wrong ends in an error that names the plugin,
//! its path and what to do; none panics the host.

mod common;

use common::{book, c_plugin_dir, c_search, library_file};
use serde_json::json;
use std::path::Path;
use stoa_plugin_host::{PluginRun, SearchPath, apply, load};
use stoa_sdk::Diagnostic;

/// Asserts that `d` is an error naming `name` and `path`, with a hint.
fn names_plugin_and_path(d: &Diagnostic, name: &str, path: &Path) {
    assert!(d.is_error(), "{d}");
    assert!(
        d.message.contains(&format!("`{name}`")),
        "no plugin name in: {d}"
    );
    let path = path.canonicalize().unwrap_or(path.to_path_buf());
    assert!(
        d.message.contains(&path.display().to_string()),
        "no path in: {d}"
    );
    assert!(d.hint.is_some(), "no hint in: {d}");
}

/// Runs c_faulty in `mode` on a two-chapter book; the diagnostics of the failure.
fn faulty(mode: &str) -> Vec<Diagnostic> {
    let plugin = load("c_faulty", &c_search()).unwrap();
    let runs = [PluginRun::new(plugin, json!({"fail": mode}))];
    apply(&runs, book(2, 1)).expect_err(mode)
}

fn faulty_path() -> std::path::PathBuf {
    c_plugin_dir().join(library_file("c_faulty"))
}

#[test]
fn not_found_lists_every_folder_looked_in() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let search = SearchPath::new([a.path().to_path_buf(), b.path().to_path_buf()]);
    let d = load("glossary", &search).unwrap_err();
    assert!(d.message.contains("plugin `glossary` not found"), "{d}");
    assert!(d.message.contains("libstoa_plugin_glossary.so"), "{d}");
    for dir in [&a, &b] {
        assert!(d.message.contains(&dir.path().display().to_string()), "{d}");
    }
    assert!(d.hint.as_deref().unwrap().contains("--plugin-dir"), "{d}");
}

#[test]
fn a_file_that_is_not_a_library_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(library_file("bad"));
    std::fs::write(&path, b"this is not an ELF file, just garbage").unwrap();
    let d = load("bad", &SearchPath::new([dir.path().to_path_buf()])).unwrap_err();
    names_plugin_and_path(&d, "bad", &path);
    assert!(d.message.contains("not a shared library"), "{d}");
}

#[test]
fn a_library_without_the_entry_symbol_is_refused() {
    let d = load("c_no_entry", &c_search()).unwrap_err();
    names_plugin_and_path(
        &d,
        "c_no_entry",
        &c_plugin_dir().join(library_file("c_no_entry")),
    );
    assert!(
        d.message.contains("no `stoa_plugin_v1` entry symbol"),
        "{d}"
    );
}

#[test]
fn an_abi_version_the_host_does_not_speak_is_refused() {
    let d = load("c_abi999", &c_search()).unwrap_err();
    names_plugin_and_path(
        &d,
        "c_abi999",
        &c_plugin_dir().join(library_file("c_abi999")),
    );
    assert!(
        d.message
            .contains("ABI version 999; this stoa speaks version 1"),
        "{d}"
    );
}

#[test]
fn a_file_holding_another_plugin_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(library_file("glossary"));
    std::fs::copy(c_plugin_dir().join(library_file("c_upper")), &path).unwrap();
    let d = load("glossary", &SearchPath::new([dir.path().to_path_buf()])).unwrap_err();
    assert!(d.message.contains("holds plugin `c_upper`"), "{d}");
}

#[test]
fn malformed_json_is_an_error() {
    let errors = faulty("malformed");
    names_plugin_and_path(&errors[0], "c_faulty", &faulty_path());
    assert!(
        errors[0]
            .message
            .contains("malformed JSON from `transform`"),
        "{}",
        errors[0]
    );
    assert_eq!(errors[0].file.as_deref(), Some("books/posts/post-00/en.md"));
}

#[test]
fn a_tree_that_does_not_deserialize_is_an_error() {
    let errors = faulty("tree");
    names_plugin_and_path(&errors[0], "c_faulty", &faulty_path());
    assert!(
        errors[0].message.contains("a tree stoa cannot read"),
        "{}",
        errors[0]
    );
}

#[test]
fn an_error_diagnostic_fails_the_book_and_keeps_its_hint() {
    let errors = faulty("error");
    assert_eq!(errors.len(), 2, "one per chapter: {errors:?}");
    names_plugin_and_path(&errors[1], "c_faulty", &faulty_path());
    assert!(
        errors[1].message.ends_with("the word `foo` is banned"),
        "{}",
        errors[1]
    );
    assert_eq!(
        errors[1].hint.as_deref(),
        Some("remove `foo` from the post")
    );
    assert_eq!(errors[1].file.as_deref(), Some("books/posts/post-01/en.md"));
}

#[test]
fn an_error_status_is_an_error() {
    let errors = faulty("status");
    names_plugin_and_path(&errors[0], "c_faulty", &faulty_path());
    assert!(
        errors[0].message.ends_with("cannot work today"),
        "{}",
        errors[0]
    );
}

#[test]
fn a_panic_status_is_an_error_that_blames_the_plugin() {
    let errors = faulty("panic");
    names_plugin_and_path(&errors[0], "c_faulty", &faulty_path());
    assert!(
        errors[0].message.contains("crashed in `transform`"),
        "{}",
        errors[0]
    );
    assert!(
        errors[0]
            .hint
            .as_deref()
            .unwrap()
            .contains("bug in the plugin")
    );
}

#[test]
fn a_null_buffer_and_an_unknown_status_are_errors() {
    let null = faulty("null");
    names_plugin_and_path(&null[0], "c_faulty", &faulty_path());
    assert!(null[0].message.contains("null buffer"), "{}", null[0]);
    let unknown = faulty("unknown");
    assert!(
        unknown[0].message.contains("unknown status 77"),
        "{}",
        unknown[0]
    );
}

#[test]
fn warnings_do_not_fail_the_book_and_name_the_post() {
    let plugin = load("c_faulty", &c_search()).unwrap();
    let runs = [PluginRun::new(plugin, json!({"fail": "warn"}))];
    let (_, warnings) = apply(&runs, book(2, 1)).unwrap();
    let shown: Vec<_> = warnings.iter().map(Diagnostic::to_string).collect();
    assert_eq!(
        shown,
        [
            "books/posts/post-00/en.md: warning: plugin `c_faulty`: this post is short",
            "books/posts/post-01/en.md: warning: plugin `c_faulty`: this post is short",
        ]
    );
}

// A panic in a Rust plugin is caught by the SDK and comes back as
// STOA_STATUS_PANIC: stoa-sdk/tests/export.rs panics through the real
// exported entry point; the host's side is `a_panic_status_...` above.

#[test]
fn plugins_after_a_failed_one_do_not_run() {
    let faulty = load("c_faulty", &c_search()).unwrap();
    let upper = load("c_upper", &c_search()).unwrap();
    let runs = [
        PluginRun::new(faulty, json!({"fail": "status"})),
        PluginRun::new(upper, json!({})),
    ];
    let errors = apply(&runs, book(1, 1)).unwrap_err();
    assert!(
        errors.iter().all(|e| !e.message.contains("c_upper")),
        "{errors:?}"
    );
}
