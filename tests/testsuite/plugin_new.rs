//! `stoa plugin new demo` makes a crate whose `cargo test` passes at once
//! and whose library a book loads with `--plugin-dir`.
//!
//! The crate it makes is kept in the workspace as plugins/demo: the
//! workspace's build compiles its library and `cargo test --workspace` runs
//! its tests, on the workspace's artifacts (a cargo of its own, in a
//! folder of its own, would resolve some shared crates with other features
//! and compile them and everything above them again: minutes of CI). These
//! tests prove that plugins/demo is what the command writes, and load the
//! library the workspace's build made of it.

use crate::prelude::*;
use std::path::Path;
use std::process::{Command, Output};

fn ok(out: &Output, what: &str) -> String {
    let text = output_text(out);
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

/// Where the manifest's part that only a crate of its own can have
/// begins: the dependencies' profile and the `[workspace]` table (a member
/// takes both from the workspace).
const STANDALONE_ONLY: &str = "\n# Optimise the dependencies";

/// The platform cargo builds for here (`host:` in `cargo -vV`).
fn host_platform(cargo: &std::ffi::OsStr) -> String {
    let version = ok(
        &Command::new(cargo).arg("-vV").output().expect("cargo runs"),
        "cargo -vV",
    );
    version
        .lines()
        .find_map(|l| l.strip_prefix("host: "))
        .expect("cargo -vV names the host")
        .trim()
        .to_owned()
}

#[test]
fn plugins_demo_is_what_stoa_plugin_new_writes() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    let sdk = repo_root().canonicalize().expect("the repository");
    let sdk_arg = sdk.to_string_lossy().into_owned();
    ok(
        &stoa(root, &["plugin", "new", "demo", "--sdk", &sdk_arg]),
        "stoa plugin new",
    );
    let made = root.join("demo");
    let kept = repo_root().join("plugins/demo");
    assert_eq!(
        files_below(&made),
        files_below(&kept),
        "plugins/demo holds the files `stoa plugin new demo` writes, no others \
         (to refresh it: stoa plugin new demo --dir plugins/demo --sdk ., then \
         cut its Cargo.toml as this test does)"
    );
    for file in files_below(&made) {
        let written = std::fs::read_to_string(made.join(&file)).expect("UTF-8");
        let ours = std::fs::read_to_string(kept.join(&file)).expect("UTF-8");
        let expected = if file == Path::new("Cargo.toml") {
            let at = written
                .find(STANDALONE_ONLY)
                .expect("the profile's comment");
            let (member, standalone) = written.split_at(at + 1);
            let table: toml::Table = standalone.parse().expect("TOML");
            let keys: Vec<&str> = table.keys().map(String::as_str).collect();
            assert_eq!(keys, ["profile", "workspace"], "{standalone}");
            // The paths to the SDK, from plugins/demo.
            let absolute = format!("{}/crates/", sdk.display());
            format!("{}\n", member.trim_end()).replace(&absolute, "../../crates/")
        } else {
            written
        };
        assert_eq!(
            ours,
            expected,
            "plugins/demo/{} is as written",
            file.display()
        );
    }

    // The crate as written, a workspace of its own, is one cargo reads and
    // resolves against stoa's Cargo.lock (offline: nothing to download).
    // Only for this machine's platform: the packages the workspace's build
    // downloaded are those of this platform, and a resolve for every
    // platform would need others (android_system_properties, …) that only
    // a machine which fetched them by chance has in its cargo cache.
    std::fs::copy(repo_root().join("Cargo.lock"), made.join("Cargo.lock")).expect("Cargo.lock");
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let host = host_platform(&cargo);
    let metadata = Command::new(&cargo)
        .args(["metadata", "--offline", "--format-version", "1"])
        .args(["--filter-platform", &host])
        .current_dir(&made)
        .output()
        .expect("cargo runs");
    let json = ok(&metadata, "cargo metadata of the new plugin");
    assert!(json.contains("\"stoa-plugin-demo\""), "{json}");
}

#[test]
fn a_new_plugins_library_loads_into_a_book() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    // The library the workspace's build made of plugins/demo, where cargo
    // leaves it (next to stoa), in a folder of its own.
    let lib = format!(
        "{}stoa_plugin_demo{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let built = stoa_bin().parent().expect("target/<profile>").join(&lib);
    let plugins = root.join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::copy(&built, plugins.join(&lib)).expect("cargo build --workspace built plugins/demo");

    // stoa finds it, and it declares the hooks it implements, no others.
    let plugin_dir = plugins.to_string_lossy().into_owned();
    let listed = ok(
        &stoa(root, &["plugins", "--plugin-dir", &plugin_dir]),
        "stoa plugins",
    );
    let line = listed
        .lines()
        .find(|l| l.starts_with("demo "))
        .unwrap_or_default();
    assert!(
        line.contains("hooks: configure, transform, styles "),
        "{listed}"
    );

    ok(&stoa(root, &["new", "book"]), "stoa new");
    let book = root.join("book");
    let toml = book.join("books/book/book.toml");
    let mut text = std::fs::read_to_string(&toml).unwrap();
    text.push_str("\n[plugins.demo]\nlabel = \"{minutes} minute read\"\n");
    std::fs::write(&toml, text).unwrap();
    let built = ok(
        &stoa(
            &book,
            &["build", "--format", "epub", "--plugin-dir", &plugin_dir],
        ),
        "stoa build with the plugin",
    );
    assert!(built.contains(", 0 warnings"), "{built}");
    let post = zip_entry(&book.join("dist/book/book-en.epub"), "OEBPS/welcome.xhtml");
    assert!(
        post.contains(r#"class="demo-reading-time""#) && post.contains(" minute read"),
        "the plugin's line is in the post:\n{post}"
    );
}

#[test]
fn bad_names_and_taken_folders_are_refused_with_what_to_do() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    let out = stoa(root, &["plugin", "new", "My Plugin"]);
    assert_fails_with(&out, &["`My Plugin` is not a plugin name", "help:"]);
    std::fs::create_dir(root.join("taken")).unwrap();
    std::fs::write(root.join("taken/notes.txt"), "mine").unwrap();
    let out = stoa(root, &["plugin", "new", "taken"]);
    assert_fails_with(&out, &["taken already exists and is not empty"]);
    let out = stoa(root, &["plugin", "new", "demo", "--sdk", "/nowhere"]);
    assert_fails_with(&out, &["/nowhere holds no stoa sources", "--sdk"]);
    assert_eq!(
        std::fs::read_dir(root).unwrap().count(),
        1,
        "nothing written"
    );
}

#[test]
fn a_reader_gone_before_the_message_is_no_panic() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // The reading end is closed before stoa starts, so that its message
    // meets a broken pipe every time (`stoa plugin new x | head -0`).
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(stoa_bin())
        .args(["plugin", "new", "demo"])
        .current_dir(tmp.path())
        .stdout(writer)
        .stderr(std::process::Stdio::piped())
        .output()
        .expect("stoa runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(tmp.path().join("demo/Cargo.toml").is_file());
}
