//! WebAssembly plugins: the C example built for wasm32 gives what its
//! native build gives, byte for byte; a module that loops, allocates
//! without end, traps, answers malformed JSON or speaks another ABI fails
//! only its own run, within its limits, with a message naming the plugin
//! and the post; and a module has no way to reach a file or the
//! environment: it may import nothing but the host API, and every host
//! function refuses what it does not own.

mod common;

use common::{book, library_file, on_threads};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::Duration;
use stoa_plugin_host::{PluginRun, SearchPath, WasmLimits, apply, load};
use stoa_sdk::abi::wasm::{HOST_IMPORTS, hook_export};
use stoa_sdk::hook::Hook;
use stoa_sdk::{Book, Diagnostic};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");
const TARGET_TMP: &str = env!("CARGO_TARGET_TMPDIR");

/// The committed WebAssembly build of plugins/reading-time-c.
fn committed_wasm() -> PathBuf {
    Path::new(ROOT).join("plugins/reading-time-c/stoa_plugin_reading_time_c.wasm")
}

/// A folder holding the native build of plugins/reading-time-c, compiled
/// once per process with `cc` as its README says.
fn native_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(TARGET_TMP).join("stoa-plugin-host-wasm-native");
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join(library_file("reading_time_c"));
        let tmp = out.with_extension(format!("{}.tmp", std::process::id()));
        let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
        let output = Command::new(&cc)
            .args([
                "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2", "-I",
            ])
            .arg(Path::new(ROOT).join("crates/stoa-sdk/include"))
            .arg("-o")
            .arg(&tmp)
            .arg(Path::new(ROOT).join("plugins/reading-time-c/reading_time.c"))
            .output()
            .unwrap_or_else(|e| panic!("these tests need a C compiler (`{cc}`): {e}"));
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        std::fs::rename(&tmp, &out).unwrap();
        dir
    })
}

/// A folder of its own holding `files`, for one test.
fn folder(test: &str, files: &[(&str, &[u8])]) -> PathBuf {
    let dir = Path::new(TARGET_TMP).join("stoa-wasm").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in files {
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    dir
}

fn runs(dir: &Path, name: &str, config: serde_json::Value) -> Vec<PluginRun> {
    let plugin = load(name, &SearchPath::new([dir.to_path_buf()])).expect("the plugin loads");
    vec![PluginRun::new(plugin, config)]
}

fn text(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_wasm_build_of_the_c_example_gives_what_its_native_build_gives() {
    let wasm = std::fs::read(committed_wasm()).unwrap();
    let dir = folder("example", &[("stoa_plugin_reading_time_c.wasm", &wasm)]);
    let plugin = load("reading-time-c", &SearchPath::new([dir.clone()])).unwrap();
    assert!(plugin.is_wasm());
    assert_eq!(
        (plugin.name(), plugin.version()),
        ("reading-time-c", "1.0.0")
    );
    assert_eq!(plugin.hooks().names(), ["transform"]);
    for (lang, config) in [
        ("en", json!({})),
        ("pt-BR", json!({"words-per-minute": 100})),
    ] {
        let mut source = book(3, 20);
        source.lang = lang.into();
        let native = apply(
            &runs(native_dir(), "reading-time-c", config.clone()),
            source.clone(),
        );
        let wasm = apply(&runs(&dir, "reading-time-c", config), source);
        let (native, wasm) = (native.unwrap().0, wasm.unwrap().0);
        assert_eq!(
            serde_json::to_vec(&native).unwrap(),
            serde_json::to_vec(&wasm).unwrap()
        );
        assert_ne!(
            native.chapters[0].blocks.len(),
            book(1, 20).chapters[0].blocks.len()
        );
    }
    // The settings error is the same one, naming the plugin.
    let bad = json!({"words-per-minute": "fast"});
    let native = apply(
        &runs(native_dir(), "reading-time-c", bad.clone()),
        book(1, 2),
    );
    let wasm = apply(&runs(&dir, "reading-time-c", bad), book(1, 2));
    let (native, wasm) = (text(&native.unwrap_err()), text(&wasm.unwrap_err()));
    assert!(
        wasm.contains("plugin `reading-time-c`") && wasm.contains("`words-per-minute` must be"),
        "{wasm}"
    );
    assert_eq!(
        native.replace(&native_path(), "P"),
        wasm.replace(&dir_path(&dir), "P")
    );
}

fn native_path() -> String {
    let path = native_dir().join(library_file("reading_time_c"));
    path.canonicalize().unwrap().display().to_string()
}

fn dir_path(dir: &Path) -> String {
    dir.join("stoa_plugin_reading_time_c.wasm")
        .canonicalize()
        .unwrap()
        .display()
        .to_string()
}

#[test]
fn the_wasm_plugin_is_thread_safe_and_deterministic() {
    let wasm = std::fs::read(committed_wasm()).unwrap();
    let dir = folder("threads", &[("reading-time-c/reading-time-c.wasm", &wasm)]);
    let plugins = runs(&dir, "reading-time-c", json!({}));
    let one = on_threads(1, || apply(&plugins, book(12, 15)).unwrap());
    let four = on_threads(4, || apply(&plugins, book(12, 15)).unwrap());
    assert_eq!(one, four);
}

#[test]
fn the_committed_wasm_is_built_from_its_source() {
    let clang = std::env::var("CLANG").unwrap_or_else(|_| "clang".into());
    let out = Path::new(TARGET_TMP).join(format!("reading_time_c.{}.wasm", std::process::id()));
    // The flags of scripts/build-wasm-plugins, which a change must follow.
    let script =
        std::fs::read_to_string(Path::new(ROOT).join("scripts/build-wasm-plugins")).unwrap();
    let flags = [
        "--target=wasm32-unknown-unknown",
        "-nostdlib",
        "-std=c11",
        "-O2",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-Wl,--no-entry",
        "-Wl,--strip-all",
    ];
    for flag in flags {
        assert!(
            script.contains(flag),
            "scripts/build-wasm-plugins lost {flag}"
        );
    }
    let built = Command::new(&clang)
        .args(flags)
        .arg("-I")
        .arg(Path::new(ROOT).join("crates/stoa-sdk/include"))
        .arg("-o")
        .arg(&out)
        .arg(Path::new(ROOT).join("plugins/reading-time-c/reading_time.c"))
        .output();
    let built = match built {
        Ok(built) => built,
        Err(e) => {
            // No clang on this machine: scripts/install-test-tools installs it.
            eprintln!("skipped: `{clang}` cannot be run ({e})");
            return;
        }
    };
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let fresh = std::fs::read(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    assert!(
        fresh == std::fs::read(committed_wasm()).unwrap(),
        "plugins/reading-time-c/stoa_plugin_reading_time_c.wasm is stale: run \
         scripts/build-wasm-plugins and commit the result"
    );
}

// ---------------------------------------------------------------------------
// Modules written in WebAssembly text: a plugin named `w` with a
// `transform` whose body the test gives.
// ---------------------------------------------------------------------------

/// A plugin module: the descriptor at 1024 (ABI `abi`, tree 1.2, name `w`,
/// version 1.0.0, a transform), a bump allocator from 65536, the hook
/// `stoa_transform` made of `body`, and `extra` module fields.
fn module(abi: u32, body: &str, extra: &str) -> Vec<u8> {
    let abi = abi.to_le_bytes().map(|b| format!("\\{b:02x}")).concat();
    let wat = format!(
        r#"(module
  {extra}
  (memory (export "memory") 2)
  (global $top (mut i32) (i32.const 65536))
  (data (i32.const 1024) "{abi}" "\01\00\02\00" "\00\05\00\00" "\10\05\00\00"
        "\01\00\00\00" "\00\00\00\00" "\00\00\00\00" "\00\00\00\00")
  (data (i32.const 1280) "w\00")
  (data (i32.const 1296) "1.0.0\00")
  (data (i32.const 2048) "{{\"chapter\": not json")
  (func (export "stoa_plugin_v1") (result i32) (i32.const 1024))
  (func $alloc (export "stoa_alloc") (param $n i32) (result i32) (local $at i32)
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

/// Answers the input itself: a transform input reads as its output.
const ECHO: &str = "(i32.store (local.get $out) (local.get $in))
    (i32.store offset=4 (local.get $out) (local.get $len))
    (i32.const 0)";

/// Runs module `bytes` as plugin `w` on a book of two chapters, with
/// `limits`: the book, or the errors.
fn run_module(test: &str, bytes: &[u8], limits: WasmLimits) -> Result<Book, Vec<Diagnostic>> {
    let dir = folder(test, &[("stoa_plugin_w.wasm", bytes)]);
    let plugin = load("w", &SearchPath::new([dir])).map_err(|d| vec![d])?;
    let runs = vec![PluginRun::new(plugin, json!({})).with_wasm_limits(limits)];
    apply(&runs, book(2, 2)).map(|(book, _)| book)
}

fn fails_with(test: &str, body: &str, limits: WasmLimits, words: &[&str]) {
    let started = std::time::Instant::now();
    let errors = run_module(test, &module(1, body, ""), limits).unwrap_err();
    let text = text(&errors);
    for word in words {
        assert!(text.contains(word), "`{word}` not in: {text}");
    }
    assert!(text.contains("plugin `w` ("), "names the plugin: {text}");
    // The diagnostic names the post's file, and the message the post.
    assert!(errors.iter().all(|e| e.file.is_some()), "{errors:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "took {:?}",
        started.elapsed()
    );
}

#[test]
fn an_echo_module_runs_and_gives_the_chapters_back() {
    let source = book(2, 2);
    let dir = folder("echo", &[("stoa_plugin_w.wasm", &module(1, ECHO, ""))]);
    let (out, _) = apply(&runs(&dir, "w", json!({})), source.clone()).unwrap();
    assert_eq!(out, source);
}

#[test]
fn a_looping_module_runs_out_of_its_budget() {
    let limits = WasmLimits::for_time_limit(Duration::from_millis(20));
    fails_with(
        "loop",
        "(loop $again (br $again)) (i32.const 0)",
        limits,
        &[
            "ran out of its budget",
            "in post `post-00` (`transform`)",
            "time-limit",
        ],
    );
}

#[test]
fn a_module_that_allocates_without_end_hits_its_memory_cap() {
    let limits = WasmLimits::default().with_memory(8 << 20);
    fails_with(
        "grow",
        "(loop $again (drop (memory.grow (i32.const 1))) (br $again)) (i32.const 0)",
        limits,
        &["used more than its 8 MiB of memory", "in post `post-0"],
    );
}

#[test]
fn a_trapping_module_fails_its_book() {
    fails_with(
        "trap",
        "unreachable",
        WasmLimits::default(),
        &[
            "crashed (a WebAssembly trap",
            "unreachable",
            "in post `post-0",
        ],
    );
    // Out of its memory: a trap as well.
    fails_with(
        "oob",
        "(i32.load (i32.const -4))",
        WasmLimits::default(),
        &["out of bounds", "in post `post-0"],
    );
}

#[test]
fn a_module_answering_malformed_json_fails_its_book() {
    let body = "(i32.store (local.get $out) (i32.const 2048))
        (i32.store offset=4 (local.get $out) (i32.const 20))
        (i32.const 0)";
    fails_with(
        "json",
        body,
        WasmLimits::default(),
        &["malformed JSON from `transform`"],
    );
    // An output outside its memory.
    let body = "(i32.store (local.get $out) (i32.const -16))
        (i32.store offset=4 (local.get $out) (i32.const 100))
        (i32.const 0)";
    fails_with(
        "outside",
        body,
        WasmLimits::default(),
        &["an output outside its memory"],
    );
}

#[test]
fn a_module_of_another_abi_version_is_refused_when_it_loads() {
    let dir = folder("abi", &[("stoa_plugin_w.wasm", &module(2, ECHO, ""))]);
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(error.contains("WebAssembly plugin `w`"), "{error}");
    assert!(
        error.contains("speaks plugin ABI version 2; this stoa speaks version 1"),
        "{error}"
    );
    // Only `stoa_plugin_v2`: built for a newer stoa.
    let wat = r#"(module (memory (export "memory") 1)
        (func (export "stoa_plugin_v2") (result i32) (i32.const 0))
        (func (export "stoa_alloc") (param i32) (result i32) (i32.const 0)))"#;
    let dir = folder(
        "v2",
        &[("stoa_plugin_w.wasm", &wat::parse_str(wat).unwrap())],
    );
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(
        error.contains("only `stoa_plugin_v2`: it was built for a newer stoa"),
        "{error}"
    );
    // A descriptor at the very end of the address space.
    let wat = r#"(module (memory (export "memory") 1)
        (func (export "stoa_plugin_v1") (result i32) (i32.const -2))
        (func (export "stoa_alloc") (param i32) (result i32) (i32.const 0)))"#;
    let dir = folder(
        "far",
        &[("stoa_plugin_w.wasm", &wat::parse_str(wat).unwrap())],
    );
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(
        error.contains("`abi_version` is outside its memory"),
        "{error}"
    );
    // Not a module at all.
    let dir = folder("junk", &[("stoa_plugin_w.wasm", b"\0asm junk")]);
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(
        error.contains("is not a WebAssembly module stoa can run"),
        "{error}"
    );
}

#[test]
fn a_module_may_import_nothing_but_the_host_api() {
    // WASI's files (read, write, remove), sockets, environment and clock;
    // another module's function; a host function stoa does not have; a
    // host function of another type; a memory or a table of the host's.
    // A module a project brings needs no trust because of this: it can
    // reach nothing but what the host API lends it (a project's `.wasm`
    // loads untrusted, tests/testsuite/wasm_plugins.rs).
    let imports = [
        r#"(import "wasi_snapshot_preview1" "path_open" (func (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "fd_read" (func (param i32 i32 i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "path_unlink_file" (func (param i32 i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "sock_accept" (func (param i32 i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "sock_send" (func (param i32 i32 i32 i32 i32) (result i32)))"#,
        r#"(import "wasi:sockets/tcp" "connect" (func (param i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))"#,
        r#"(import "wasi_snapshot_preview1" "environ_get" (func (param i32 i32) (result i32)))"#,
        r#"(import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32)))"#,
        r#"(import "env" "getenv" (func (param i32) (result i32)))"#,
        r#"(import "stoa" "read_file" (func (param i32 i32) (result i32)))"#,
        r#"(import "stoa" "chapter_open" (func (param i64) (result i32)))"#,
        r#"(import "stoa" "memory" (memory 1))"#,
        r#"(import "stoa" "table" (table 1 funcref))"#,
    ];
    for import in imports {
        let dir = folder(
            "imports",
            &[("stoa_plugin_w.wasm", &module(1, ECHO, import))],
        );
        let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
        assert!(
            error.contains("WebAssembly plugin `w`") && error.contains("imports `"),
            "{error}"
        );
        assert!(error.contains("host API"), "{import}: {error}");
    }
}

/// The host API's functions of `StoaHostApiV1` in stoa_plugin.h, in order.
fn header_host_api() -> Vec<String> {
    let header =
        std::fs::read_to_string(Path::new(ROOT).join("crates/stoa-sdk/include/stoa_plugin.h"))
            .unwrap();
    let body = header
        .split_once("typedef struct StoaHostApiV1 {")
        .and_then(|(_, rest)| rest.split_once("} StoaHostApiV1;"))
        .unwrap()
        .0;
    body.split("(*")
        .skip(1)
        .filter_map(|part| part.split_once(')').map(|(name, _)| name.to_string()))
        .collect()
}

#[test]
fn the_imports_are_the_host_api_of_the_header_and_nothing_more() {
    let imports: Vec<&str> = HOST_IMPORTS.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(
        imports,
        header_host_api(),
        "HOST_IMPORTS, then StoaHostApiV1's functions"
    );
    let header =
        std::fs::read_to_string(Path::new(ROOT).join("crates/stoa-sdk/include/stoa_plugin.h"))
            .unwrap();
    for (name, _, _) in HOST_IMPORTS {
        assert!(
            header.contains(&format!("STOA_WASM_IMPORT({name})")),
            "stoa_plugin.h's WebAssembly imports lack `{name}`"
        );
    }
    // The header's STOA_WASM_PLUGIN exports a function for every hook of the table.
    for hook in Hook::ALL {
        assert!(
            header.contains(&format!("STOA_WASM_HOOK({hook},")),
            "STOA_WASM_PLUGIN in stoa_plugin.h does not export `{}`",
            hook_export(hook)
        );
    }
}

/// Every host function, called with what a hostile module would pass:
/// null and dangling addresses, lengths past its memory, handles it never
/// got, indexes past the end, then a chapter it did open, read through
/// every reader. None of it reaches beyond the chapter: the module still
/// answers its input unchanged.
#[test]
fn every_host_function_refuses_what_the_module_does_not_own() {
    let mut imports = String::new();
    for (name, params, results) in HOST_IMPORTS {
        let params = " i32".repeat(params);
        let results = if results == 1 { "(result i32)" } else { "" };
        imports.push_str(&format!(
            "(import \"stoa\" \"{name}\" (func ${name} (param{params}) {results}))\n"
        ));
    }
    let mut calls = String::new();
    let hostile = ["0", "-1", "0x7fffffff", "65535", "1"];
    for (name, params, results) in HOST_IMPORTS {
        for value in hostile {
            let args = format!(" (i32.const {value})").repeat(params);
            let call = format!("(call ${name}{args})");
            calls.push_str(&if results == 1 {
                format!("(drop {call})\n")
            } else {
                format!("{call}\n")
            });
        }
    }
    // Then a real chapter, read through every reader, the key a path.
    let read = r#"
    (local.set $ch (call $chapter_open (local.get $in) (local.get $len)))
    (drop (call $lang (local.get $ch)))
    (drop (call $config (local.get $ch) (i32.const 1280)))
    (drop (call $block_count (local.get $ch)))
    (drop (call $block_kind (local.get $ch) (i32.const 0)))
    (drop (call $block_text (local.get $ch) (i32.const 0) (i32.const 3000)))
    (drop (call $block_text (local.get $ch) (i32.const 99) (i32.const -2)))
    (drop (call $insert_markdown (local.get $ch) (i32.const 0) (i32.const 2900) (i32.const 17)))
    (call $chapter_close (local.get $ch))
    (call $chapter_close (local.get $ch))"#;
    let body = format!("(local $ch i32)\n{calls}{read}\n{ECHO}");
    let extra = format!("{imports}(data (i32.const 2900) \"![x](/etc/passwd)\")");
    let source = book(2, 2);
    let dir = folder(
        "hostile",
        &[("stoa_plugin_w.wasm", &module(1, &body, &extra))],
    );
    let (out, _) = apply(
        &runs(&dir, "w", json!({"w": "/etc/passwd"})),
        source.clone(),
    )
    .unwrap();
    assert_eq!(out, source);
}

#[test]
fn a_module_declaring_a_hook_it_does_not_export_is_refused() {
    // Descriptor says `finish` (the field at 20) but there is no `stoa_finish`.
    let bytes = wat::parse_str(
        r#"(module (memory (export "memory") 1)
        (data (i32.const 64) "\01\00\00\00" "\01\00\02\00" "\00\01\00\00" "\00\01\00\00"
              "\00\00\00\00" "\01\00\00\00" "\00\00\00\00" "\00\00\00\00")
        (data (i32.const 256) "w\00")
        (func (export "stoa_plugin_v1") (result i32) (i32.const 64))
        (func (export "stoa_alloc") (param i32) (result i32) (i32.const 1024)))"#,
    )
    .unwrap();
    let dir = folder("no-export", &[("stoa_plugin_w.wasm", &bytes)]);
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(
        error.contains("declares `finish`") && error.contains("stoa_finish"),
        "{error}"
    );
}

#[test]
fn a_module_with_a_second_memory_or_a_looping_start_is_refused_when_it_loads() {
    let started = std::time::Instant::now();
    let start = "(func $spin (loop $l (br $l))) (start $spin)";
    let dir = folder("start", &[("stoa_plugin_w.wasm", &module(1, ECHO, start))]);
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(error.contains("could not be started"), "{error}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    let memory = "(memory $more 1)";
    let dir = folder(
        "two-memories",
        &[("stoa_plugin_w.wasm", &module(1, ECHO, memory))],
    );
    let error = load("w", &SearchPath::new([dir])).unwrap_err().to_string();
    assert!(error.contains("could not be started"), "{error}");
}
