//! Building a book you did not write runs none of its native code unless
//! you trusted it: a library in a book's own `plugin-dir` whose initialiser
//! writes a marker file is refused before it is loaded (the marker never
//! appears) by `stoa build`, `stoa check` and `stoa plugins`; `stoa plugins
//! trust` lets it load; a changed library is refused again; the folders the
//! user names and `--trust-plugins` stay the user's choice.

use crate::prelude::{compile_c_plugin, output_text, reading_time_project, stoa_bin, zip_entry};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A project whose book `reading` brings the marker plugin in its own
/// `plugin-dir`; the library's path.
fn project(root: &Path) -> PathBuf {
    let plugins = reading_time_project(root, 300);
    let library = compile_c_plugin(
        "tests/fixtures/v1/trust/marker.c",
        "crates/stoa-sdk/include",
        &plugins,
        "reading_time_c",
    );
    library.canonicalize().unwrap()
}

/// Runs stoa in `root` as a user whose trust list is `root/../trusted.toml`
/// (outside the project), with the marker's path given to the library.
fn stoa(root: &Path, args: &[&str]) -> Output {
    Command::new(stoa_bin())
        .args(args)
        .current_dir(root)
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("STOA_PLUGIN_PATH")
        .env_remove("STOA_TRUST_PLUGINS")
        .env("STOA_TRUST_FILE", trust_list(root))
        .env("STOA_TEST_MARKER", marker(root))
        .output()
        .expect("stoa runs")
}

fn trust_list(root: &Path) -> PathBuf {
    root.parent().unwrap().join("trusted.toml")
}

fn marker(root: &Path) -> PathBuf {
    root.parent().unwrap().join("marker")
}

/// Asserts that `out` failed as an untrusted library fails, naming the
/// library and how to trust it, and that none of the library ran.
fn refused(out: &Output, root: &Path, library: &Path, why: &str) {
    let text = output_text(out);
    assert!(!out.status.success(), "{text}");
    for words in [
        why,
        &library.display().to_string(),
        "sha256 ",
        &format!("stoa plugins trust {}", library.display()),
        "--trust-plugins",
    ] {
        assert!(text.contains(words), "`{words}` in:\n{text}");
    }
    assert!(!marker(root).exists(), "the library ran:\n{text}");
}

#[test]
fn a_books_own_native_library_runs_only_once_trusted() {
    let tmp = tempfile::tempdir().unwrap();
    let root = &tmp.path().join("project");
    let library = project(root);
    let epub = root.join("dist/reading/reading-en.epub");
    let build = ["build", "--no-site", "-f", "epub"];

    let untrusted = "you have not trusted it";
    refused(&stoa(root, &build), root, &library, untrusted);
    assert!(!epub.exists(), "nothing is built");
    refused(
        &stoa(root, &["check", "--quick"]),
        root,
        &library,
        untrusted,
    );
    let listed = stoa(root, &["plugins"]);
    refused(&listed, root, &library, untrusted);
    assert!(output_text(&listed).contains("NOT LOADED"));

    let trusted = stoa(root, &["plugins", "trust", &library.display().to_string()]);
    assert!(trusted.status.success(), "{}", output_text(&trusted));
    let list = std::fs::read_to_string(trust_list(root)).unwrap();
    assert!(list.contains(&library.display().to_string()), "{list}");
    let built = stoa(root, &build);
    assert!(built.status.success(), "{}", output_text(&built));
    assert!(marker(root).exists(), "the trusted library was loaded");
    let page = zip_entry(&epub, "OEBPS/long.xhtml");
    assert!(page.contains("2 min read"), "{page}");
    let listed = stoa(root, &["plugins"]);
    assert!(
        output_text(&listed).contains("the book's own library, trusted"),
        "{}",
        output_text(&listed)
    );

    // Another library under the same name: its bytes differ.
    std::fs::remove_file(marker(root)).unwrap();
    let mut bytes = std::fs::read(&library).unwrap();
    bytes.extend_from_slice(b"changed");
    std::fs::write(&library, bytes).unwrap();
    let changed = "has changed since you trusted it";
    refused(&stoa(root, &build), root, &library, changed);
}

#[test]
fn the_users_own_choices_need_no_trust_list() {
    let tmp = tempfile::tempdir().unwrap();
    let root = &tmp.path().join("project");
    let library = project(root);
    let build = ["build", "--no-site", "-f", "epub"];

    // For one run: the flag, or the variable CI sets.
    let flag: Vec<&str> = build.iter().copied().chain(["--trust-plugins"]).collect();
    let out = stoa(root, &flag);
    assert!(out.status.success(), "{}", output_text(&out));
    std::fs::remove_file(marker(root)).unwrap();
    let out = Command::new(stoa_bin())
        .args(build)
        .arg("--force")
        .current_dir(root)
        .env("STOA_TRUST_PLUGINS", "1")
        .env("STOA_TRUST_FILE", trust_list(root))
        .env("STOA_TEST_MARKER", marker(root))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", output_text(&out));
    assert!(marker(root).exists());

    // The same folder named by the user on the command line.
    std::fs::remove_file(marker(root)).unwrap();
    let dir = library.parent().unwrap().display().to_string();
    let named: Vec<&str> = build
        .iter()
        .copied()
        .chain(["--force", "--plugin-dir", &dir])
        .collect();
    let out = stoa(root, &named);
    assert!(out.status.success(), "{}", output_text(&out));
    assert!(marker(root).exists());
    assert!(!trust_list(root).exists(), "no list was needed or written");

    // A variable that says neither yes nor no is an error, not a guess.
    let out = Command::new(stoa_bin())
        .args(build)
        .current_dir(root)
        .env("STOA_TRUST_PLUGINS", "maybe")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", output_text(&out));
    assert!(output_text(&out).contains("STOA_TRUST_PLUGINS is `maybe`"));
}
