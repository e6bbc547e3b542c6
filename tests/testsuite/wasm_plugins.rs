//! WebAssembly plugins in a real `stoa build`: the committed .wasm of the C
//! example gives the same books, byte for byte, as its native build; and
//! modules that loop, allocate without end, trap, answer malformed JSON or
//! speak another ABI each fail their own book only, with a message naming
//! the plugin and the post, while the book beside them is built.

use crate::prelude::{compile_c_plugin, copy_dir, files_below, repo_root, stoa_bin};
use std::path::Path;
use std::process::{Command, Output};

/// Writes a post `slug` (en and pt-BR) of `words` words.
fn post(root: &Path, slug: &str, words: usize) {
    std::fs::create_dir_all(root.join(format!("books/posts/{slug}"))).unwrap();
    let text = "word ".repeat(words);
    for (lang, title) in [("en", "Long"), ("pt-BR", "Longo")] {
        std::fs::write(
            root.join(format!("books/posts/{slug}/{lang}.md")),
            format!("+++\ntitle = \"{title}\"\ndate = 2024-05-01\n+++\n\n{text}\n"),
        )
        .unwrap();
    }
}

/// Writes book `id` (en and pt-BR, one post) using plugin `plugin` with
/// the settings `settings`, its plugins in `plugins/` beside book.toml.
fn book(root: &Path, id: &str, plugin: &str, settings: &str) {
    let dir = root.join("books").join(id);
    std::fs::create_dir_all(dir.join("plugins")).unwrap();
    std::fs::write(
        dir.join("book.toml"),
        format!(
            "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\n\
             identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-00000000c2c4\"\n\
             date = 2024-05-31\nposts = [\"long\"]\nplugin-dir = \"plugins\"\n\n\
             [title]\nen = \"Reading {id}\"\npt-BR = \"Leitura {id}\"\n\n\
             [plugins.{plugin}]\n{settings}\n"
        ),
    )
    .unwrap();
}

/// Builds `formats`; a WebAssembly plugin the book brings needs no trust,
/// so the user's trust list is an empty file's.
fn build(root: &Path, formats: &[&str]) -> Output {
    build_trusting(root, formats, false)
}

/// Builds `formats`, with `--trust-plugins` when `trust` (a native library
/// the book brings).
fn build_trusting(root: &Path, formats: &[&str], trust: bool) -> Output {
    let mut args = vec!["build", "--no-site"];
    for format in formats {
        args.extend(["-f", format]);
    }
    if trust {
        args.push("--trust-plugins");
    }
    Command::new(stoa_bin())
        .args(&args)
        .current_dir(root)
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("STOA_PLUGIN_PATH")
        .env_remove("STOA_TRUST_PLUGINS")
        .env("STOA_TRUST_FILE", root.join("no-trust-list.toml"))
        .output()
        .unwrap()
}

/// Every file of `dist/`, with its bytes.
fn outputs(root: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let dist = root.join("dist");
    files_below(&dist)
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(dist.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}

#[test]
fn a_book_built_with_the_wasm_plugin_is_the_book_built_with_the_native_one() {
    let mut built = Vec::new();
    for wasm in [false, true] {
        let project = tempfile::tempdir().unwrap();
        let root = project.path();
        copy_dir(&repo_root().join("themes"), &root.join("themes"));
        post(root, "long", 450);
        book(root, "reading", "reading-time-c", "words-per-minute = 150");
        let plugins = root.join("books/reading/plugins");
        if wasm {
            std::fs::copy(
                repo_root().join("plugins/reading-time-c/stoa_plugin_reading_time_c.wasm"),
                plugins.join("stoa_plugin_reading_time_c.wasm"),
            )
            .unwrap();
        } else {
            compile_c_plugin(
                "plugins/reading-time-c/reading_time.c",
                "crates/stoa-sdk/include",
                &plugins,
                "reading_time_c",
            );
        }
        let out = build_trusting(root, &["epub", "pdf", "html"], !wasm);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        built.push(outputs(root));
    }
    let (native, wasm) = (&built[0], &built[1]);
    let names = |files: &[(std::path::PathBuf, Vec<u8>)]| {
        files.iter().map(|(f, _)| f.clone()).collect::<Vec<_>>()
    };
    assert_eq!(names(native), names(wasm));
    assert!(
        names(native).iter().any(|f| f.ends_with("reading-en.pdf")),
        "{:?}",
        names(native)
    );
    for ((file, a), (_, b)) in native.iter().zip(wasm) {
        assert!(
            a == b,
            "{} differs between the native and the wasm plugin",
            file.display()
        );
    }
    let epub = native
        .iter()
        .find(|(f, _)| f.ends_with("reading-en.epub"))
        .unwrap();
    assert!(!epub.1.is_empty());
}

/// A module named `w` whose `transform` is `body`, its descriptor saying
/// ABI `abi`.
fn module(abi: u32, body: &str) -> Vec<u8> {
    let abi = abi.to_le_bytes().map(|b| format!("\\{b:02x}")).concat();
    let wat = format!(
        r#"(module
  (memory (export "memory") 2)
  (global $top (mut i32) (i32.const 65536))
  (data (i32.const 1024) "{abi}" "\01\00\02\00" "\00\05\00\00" "\10\05\00\00"
        "\01\00\00\00" "\00\00\00\00" "\00\00\00\00" "\00\00\00\00")
  (data (i32.const 1280) "w\00")
  (data (i32.const 1296) "1.0.0\00")
  (data (i32.const 2048) "{{\"chapter\": not json")
  (func (export "stoa_plugin_v1") (result i32) (i32.const 1024))
  (func (export "stoa_alloc") (param $n i32) (result i32) (local $at i32)
    (local.set $at (global.get $top))
    (global.set $top (i32.and (i32.add (i32.add (global.get $top) (local.get $n)) (i32.const 7))
                              (i32.const -8)))
    (block $enough
      (br_if $enough (i32.le_u (global.get $top) (i32.mul (memory.size) (i32.const 65536))))
      (drop (memory.grow (i32.add (i32.div_u (global.get $top) (i32.const 65536)) (i32.const 1)))))
    (local.get $at))
  (func (export "stoa_transform") (param $in i32) (param $len i32) (param $out i32) (result i32)
    {body}))"#
    );
    wat::parse_str(&wat).unwrap_or_else(|e| panic!("{e}\n{wat}"))
}

#[test]
fn each_misbehaving_wasm_plugin_fails_its_own_book_only() {
    let project = tempfile::tempdir().unwrap();
    let root = project.path();
    copy_dir(&repo_root().join("themes"), &root.join("themes"));
    post(root, "long", 300);
    book(root, "good", "reading-time-c", "");
    std::fs::copy(
        repo_root().join("plugins/reading-time-c/stoa_plugin_reading_time_c.wasm"),
        root.join("books/good/plugins/stoa_plugin_reading_time_c.wasm"),
    )
    .unwrap();
    let cases: [(&str, u32, &str, &str, &str); 5] = [
        (
            "loops",
            1,
            "(loop $l (br $l)) (i32.const 0)",
            "time-limit = 0.05",
            "ran out of its budget",
        ),
        (
            "grows",
            1,
            "(loop $l (drop (memory.grow (i32.const 16))) (br $l)) (i32.const 0)",
            "memory-limit = 16",
            "used more than its 16 MiB of memory",
        ),
        ("traps", 1, "unreachable", "", "crashed (a WebAssembly trap"),
        (
            "garbles",
            1,
            "(i32.store (local.get $out) (i32.const 2048))
             (i32.store offset=4 (local.get $out) (i32.const 20)) (i32.const 0)",
            "",
            "returned malformed JSON from `transform`",
        ),
        ("newer", 2, "unreachable", "", "speaks plugin ABI version 2"),
    ];
    for (id, abi, body, settings, _) in cases {
        book(root, id, "w", settings);
        std::fs::write(
            root.join(format!("books/{id}/plugins/stoa_plugin_w.wasm")),
            module(abi, body),
        )
        .unwrap();
    }
    let started = std::time::Instant::now();
    let out = build(root, &["epub"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
    for (id, _, _, _, message) in cases {
        let line = stderr
            .lines()
            .find(|l| l.contains(message))
            .unwrap_or_else(|| panic!("{id}: no `{message}` in:\n{stderr}"));
        assert!(
            line.contains("plugin `w`") || line.contains("WebAssembly plugin `w`"),
            "{line}"
        );
        assert!(
            line.contains(&format!("books/{id}/")),
            "{id}: names its book: {line}"
        );
        if id != "newer" {
            // The post's file, and for a limit or a trap the post by name.
            assert!(
                line.contains("books/posts/long/"),
                "{id}: names the post: {line}"
            );
            if id != "garbles" {
                assert!(
                    line.contains("in post `long`"),
                    "{id}: names the post: {line}"
                );
            }
        }
        assert!(
            !root
                .join(format!("dist/{id}"))
                .join(format!("{id}-en.epub"))
                .exists()
        );
    }
    // The book beside them is built, in both languages.
    for lang in ["en", "pt-BR"] {
        assert!(
            root.join(format!("dist/good/good-{lang}.epub")).is_file(),
            "{stderr}"
        );
    }
}

#[test]
fn plugin_new_wasm_says_how_to_build_the_wasm() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("demo");
    let out = Command::new(stoa_bin())
        .args(["plugin", "new", "demo-time", "--wasm", "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("cargo build --release --target wasm32-unknown-unknown"),
        "{stdout}"
    );
    assert!(stdout.contains("stoa_plugin_demo_time.wasm"), "{stdout}");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(readme.contains("## As a WebAssembly plugin"), "{readme}");
    // The same crate as without --wasm: export_plugin! makes the exports.
    let lib = std::fs::read_to_string(dir.join("src/lib.rs")).unwrap();
    assert!(lib.contains("export_plugin!"), "{lib}");
}
