//! `stoa plugin new demo` in a temporary folder makes a crate whose
//! `cargo test` passes at once and whose library a book loads with
//! `--plugin-dir`. Its cargo shares this workspace's target folder and
//! Cargo.lock, and builds the stoa crates it names by path, and the proc
//! macros the workspace's profile names, with this workspace's settings,
//! so that it reuses most of what the workspace build compiled.

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

fn ok(out: &Output, what: &str) -> String {
    let text = output_text(out);
    assert!(out.status.success(), "{what} failed:\n{text}");
    text
}

/// The workspace's target folder: the one the `stoa` binary is in.
fn target_dir() -> PathBuf {
    let bin = stoa_bin();
    let profile = bin.parent().expect("target/<profile>");
    profile.parent().expect("target").to_path_buf()
}

/// `cargo <args>` in `dir`, offline, on this workspace's target folder.
fn cargo(dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    Command::new(cargo)
        .args(args)
        .arg("--offline")
        .current_dir(dir)
        .env("CARGO_TARGET_DIR", target_dir())
        .output()
        .expect("cargo runs")
}

/// The target triple rustc builds for by default (`host:` of `rustc -vV`).
fn host_triple() -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(rustc).arg("-vV").output().expect("rustc runs");
    let text = ok(&out, "rustc -vV");
    let host = text.lines().find_map(|l| l.strip_prefix("host: "));
    host.expect("rustc -vV names the host").trim().to_string()
}

/// The `--config` options that build the stoa crates the plugin depends
/// on (by path, so outside its workspace they would take its
/// `[profile.dev.package."*"]`) with the settings this workspace builds
/// its own members with, so that their artifacts are this build's.
fn as_workspace_members(demo: &Path) -> Vec<String> {
    // Only this machine's platform: offline, a fresh machine has only its
    // packages (not, say, Android's), and the metadata of all platforms
    // would need them all.
    let host = host_triple();
    let args = [
        "metadata",
        "--format-version",
        "1",
        "--filter-platform",
        &host,
    ];
    let out = ok(&cargo(demo, &args), "cargo metadata");
    let json = out
        .lines()
        .find(|l| l.starts_with('{'))
        .expect("metadata JSON");
    let metadata: serde_json::Value = serde_json::from_str(json).expect("metadata JSON");
    let packages = metadata["packages"].as_array().expect("packages");
    let local = packages.iter().filter(|p| p["source"].is_null());
    let names = local
        .filter_map(|p| p["name"].as_str())
        .filter(|n| n.starts_with("stoa-"));
    let names = names.filter(|n| *n != "stoa-plugin-demo");
    let members = names.flat_map(|name| {
        [
            format!("profile.dev.package.{name}.opt-level=0"),
            format!("profile.dev.package.{name}.debug=\"line-tables-only\""),
        ]
    });
    // The dependencies this workspace's profile names (the proc macros,
    // built unoptimised) and the plugin's graph holds, built the same way.
    let all: Vec<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let named = named_in_profile()
        .into_iter()
        .filter(|(name, _)| all.contains(&name.as_str()))
        .map(|(name, setting)| format!("profile.dev.package.{name}.{setting}"));
    members
        .chain(named)
        .flat_map(|setting| ["--config".to_string(), setting])
        .collect()
}

/// Each `[profile.dev.package.<name>]` setting of this workspace's
/// Cargo.toml but `"*"`'s (which the plugin's own Cargo.toml has), as
/// (name, `key=value`).
fn named_in_profile() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(repo_root().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = text.parse().expect("Cargo.toml is TOML");
    let packages = manifest
        .get("profile")
        .and_then(|p| p.get("dev"))
        .and_then(|d| d.get("package"))
        .and_then(|p| p.as_table())
        .cloned()
        .unwrap_or_default();
    packages
        .into_iter()
        .filter(|(name, _)| name != "*")
        .flat_map(|(name, settings)| {
            let settings = settings.as_table().cloned().unwrap_or_default();
            settings
                .into_iter()
                .map(move |(key, value)| (name.clone(), format!("{key}={value}")))
        })
        .collect()
}

#[test]
fn a_new_plugin_passes_its_test_and_a_book_loads_it() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = tmp.path();
    ok(&stoa(root, &["plugin", "new", "demo"]), "stoa plugin new");
    let demo = root.join("demo");
    for file in ["Cargo.toml", "src/lib.rs", "tests/demo.rs", "README.md"] {
        assert!(demo.join(file).is_file(), "{file} is written");
    }

    // The same versions as the workspace, so that its artifacts serve.
    std::fs::copy(repo_root().join("Cargo.lock"), demo.join("Cargo.lock")).expect("Cargo.lock");
    let mut args = vec!["test".to_string()];
    args.extend(as_workspace_members(&demo));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let started = Instant::now();
    let tested = ok(&cargo(&demo, &args), "cargo test in the new plugin");
    eprintln!(
        "cargo test of the new plugin: {:.1} s",
        started.elapsed().as_secs_f64()
    );
    assert!(
        tested.contains("test result: ok. 2 passed"),
        "its two tests ran:\n{tested}"
    );

    // The library, built as `cargo build` builds it, moved out of the
    // workspace's target folder (next to stoa, where it would be found).
    let mut args = args.clone();
    args[0] = "build";
    ok(&cargo(&demo, &args), "cargo build in the new plugin");
    let lib = format!(
        "{}stoa_plugin_demo{}",
        std::env::consts::DLL_PREFIX,
        std::env::consts::DLL_SUFFIX
    );
    let built = target_dir().join("debug").join(&lib);
    let plugins = root.join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::copy(&built, plugins.join(&lib)).expect("cargo build built the library");
    std::fs::remove_file(&built).expect("remove the library from target/");

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
