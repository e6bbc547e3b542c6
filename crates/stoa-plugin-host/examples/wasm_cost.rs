//! The cost of a call of a WebAssembly plugin against the same plugin built
//! natively: the C example (plugins/reading-time-c), its `transform` on the
//! posts of books/ and on a synthetic blog of 1,000 posts, through the
//! host's own `apply`, on one thread (the cost of a call) and on every core.
//! Also measures how much fuel wasmi burns in a second on this machine,
//! against which `FUEL_PER_SECOND` turns `time-limit` into a budget.
//!
//!     scripts/bench-wasm          # = cargo run --release -p stoa-plugin-host --example wasm_cost
//!
//! Needs a C compiler (`cc`, or `CC`) for the native build.

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use stoa_plugin_host::{FUEL_PER_SECOND, PluginRun, SearchPath, WasmLimits, apply, load};
use stoa_sdk::{Block, Book, Chapter, Inline};

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

fn main() {
    let dir = std::env::temp_dir().join(format!("stoa-wasm-cost-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("native")).unwrap();
    std::fs::create_dir_all(dir.join("wasm")).unwrap();
    let native = compile_native(&dir.join("native"));
    std::fs::copy(
        Path::new(ROOT).join("plugins/reading-time-c/stoa_plugin_reading_time_c.wasm"),
        dir.join("wasm/stoa_plugin_reading_time_c.wasm"),
    )
    .unwrap();
    let run = |folder: &Path| {
        let plugin = load("reading-time-c", &SearchPath::new([folder.to_path_buf()])).unwrap();
        vec![PluginRun::new(plugin, json!({}))]
    };
    let (native_runs, wasm_runs) = (run(&native), run(&dir.join("wasm")));

    let books = books_posts();
    let blog = synthetic_blog(1000);
    println!(
        "reading-time-c `transform`, per call (median of 5 runs; {} cores)",
        rayon::current_num_threads()
    );
    println!(
        "{:<28} {:>7} {:>12} {:>12} {:>7}",
        "book", "posts", "native", "wasm", "ratio"
    );
    for (label, book) in [
        ("books/ (every post, en)", &books),
        ("synthetic blog", &blog),
    ] {
        for threads in [1, rayon::current_num_threads()] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let time = |runs: &[PluginRun]| {
                pool.install(|| median(5, || apply(runs, book.clone()).map(drop).unwrap()))
            };
            let (n, w) = (time(&native_runs), time(&wasm_runs));
            let per_call = |d: Duration| d.as_secs_f64() * 1e6 / book.chapters.len() as f64;
            println!(
                "{:<28} {:>7} {:>9.1} µs {:>9.1} µs {:>6.1}x",
                format!(
                    "{label}, {threads} thread{}",
                    if threads == 1 { "" } else { "s" }
                ),
                book.chapters.len(),
                per_call(n),
                per_call(w),
                w.as_secs_f64() / n.as_secs_f64()
            );
        }
    }
    // Both builds give the same book.
    let a = apply(&native_runs, blog.clone()).unwrap().0;
    let b = apply(&wasm_runs, blog.clone()).unwrap().0;
    assert_eq!(a, b, "the native and the wasm build disagree");
    echo_cost(&dir, &blog);
    fuel_per_second(&dir);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The median wall time of `runs` calls of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    f(); // warm: the module compiled, the library loaded, the caches filled
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed()
        })
        .collect();
    times.sort();
    times[runs / 2]
}

fn compile_native(dir: &Path) -> PathBuf {
    use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
    let out = dir.join(format!(
        "{DLL_PREFIX}stoa_plugin_reading_time_c{DLL_SUFFIX}"
    ));
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-shared", "-fPIC", "-std=c11", "-O2", "-I"])
        .arg(Path::new(ROOT).join("crates/stoa-sdk/include"))
        .arg("-o")
        .arg(&out)
        .arg(Path::new(ROOT).join("plugins/reading-time-c/reading_time.c"))
        .status()
        .unwrap_or_else(|e| panic!("a C compiler (`{cc}`) is needed: {e}"));
    assert!(status.success());
    dir.to_path_buf()
}

/// Every post of books/posts in English, parsed as a build parses it.
fn books_posts() -> Book {
    let mut posts: Vec<PathBuf> = std::fs::read_dir(Path::new(ROOT).join("books/posts"))
        .unwrap()
        .flatten()
        .map(|e| e.path().join("en.md"))
        .filter(|p| p.is_file())
        .collect();
    posts.sort();
    let chapters = posts
        .iter()
        .enumerate()
        .map(|(i, path)| {
            let text = std::fs::read_to_string(path).unwrap();
            // The body after the `+++` front matter.
            let body = text.splitn(3, "+++").nth(2).unwrap_or(&text);
            Chapter {
                slug: format!("post-{i}"),
                source: Some(path.display().to_string()),
                blocks: stoa_markdown::parse(body, 1).blocks,
                ..Chapter::default()
            }
        })
        .collect();
    book(chapters)
}

/// `n` posts of a blog: 8 to 23 paragraphs of 40 words, a heading, a list.
fn synthetic_blog(n: usize) -> Book {
    let words = "the quick brown fox jumps over the lazy dog and ".repeat(4);
    let chapters = (0..n)
        .map(|i| {
            let mut blocks = vec![Block::Heading {
                level: 2,
                id: format!("h-{i}"),
                content: vec![Inline::text(format!("Part {i}"))],
            }];
            for _ in 0..8 + i % 16 {
                blocks.push(Block::Paragraph {
                    content: vec![Inline::text(&words)],
                });
            }
            Chapter {
                slug: format!("post-{i:04}"),
                blocks,
                ..Chapter::default()
            }
        })
        .collect();
    book(chapters)
}

fn book(chapters: Vec<Chapter>) -> Book {
    Book {
        version: stoa_sdk::TREE_VERSION,
        id: "bench".into(),
        lang: "en".into(),
        meta: serde_json::from_value(json!({
            "title": "Bench", "author": "A. Author", "identifier": "urn:x",
            "date": "2024-01-01", "modified": "2024-01-01T00:00:00Z"
        }))
        .unwrap(),
        labels: stoa_sdk::Labels::default(),
        chapters,
        assets: Vec::new(),
        styles: Vec::new(),
        print: Default::default(),
    }
}

/// The fixed cost of a call: a module whose `transform` answers its input
/// as it is (a fresh instance, the input written, the output read), on
/// the synthetic blog, one thread.
fn echo_cost(dir: &Path, blog: &Book) {
    let wat = r#"(module
      (memory (export "memory") 1)
      (global $top (mut i32) (i32.const 4096))
      (data (i32.const 64) "\01\00\00\00" "\01\00\02\00" "\00\01\00\00" "\00\01\00\00"
            "\01\00\00\00" "\00\00\00\00" "\00\00\00\00" "\00\00\00\00")
      (data (i32.const 256) "echo\00")
      (func (export "stoa_plugin_v1") (result i32) (i32.const 64))
      (func (export "stoa_alloc") (param $n i32) (result i32) (local $at i32)
        (local.set $at (global.get $top))
        (global.set $top (i32.and (i32.add (i32.add (global.get $top) (local.get $n)) (i32.const 7))
                                  (i32.const -8)))
        (block $enough
          (br_if $enough (i32.le_u (global.get $top) (i32.mul (memory.size) (i32.const 65536))))
          (drop (memory.grow (i32.add (i32.div_u (global.get $top) (i32.const 65536)) (i32.const 1)))))
        (local.get $at))
      (func (export "stoa_transform") (param $in i32) (param $len i32) (param $out i32) (result i32)
        (i32.store (local.get $out) (local.get $in))
        (i32.store offset=4 (local.get $out) (local.get $len))
        (i32.const 0)))"#;
    std::fs::create_dir_all(dir.join("echo")).unwrap();
    std::fs::write(
        dir.join("echo/stoa_plugin_echo.wasm"),
        wat::parse_str(wat).unwrap(),
    )
    .unwrap();
    let plugin = load("echo", &SearchPath::new([dir.join("echo")])).unwrap();
    let runs = vec![PluginRun::new(plugin, json!({}))];
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let took = pool.install(|| median(5, || apply(&runs, blog.clone()).map(drop).unwrap()));
    println!(
        "a wasm `transform` that answers its input, synthetic blog, 1 thread: {:.1} µs per call",
        took.as_secs_f64() * 1e6 / blog.chapters.len() as f64
    );
}

/// Times a module that loops until its fuel runs out.
fn fuel_per_second(dir: &Path) {
    let wat = r#"(module
      (memory (export "memory") 1)
      (data (i32.const 64) "\01\00\00\00" "\01\00\02\00" "\00\01\00\00" "\00\01\00\00"
            "\01\00\00\00" "\00\00\00\00" "\00\00\00\00" "\00\00\00\00")
      (data (i32.const 256) "loop\00")
      (func (export "stoa_plugin_v1") (result i32) (i32.const 64))
      (func (export "stoa_alloc") (param i32) (result i32) (i32.const 1024))
      (func (export "stoa_transform") (param i32 i32 i32) (result i32) (local $i i32)
        (loop $again
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $again))
        (i32.const 0)))"#;
    std::fs::create_dir_all(dir.join("loop")).unwrap();
    std::fs::write(
        dir.join("loop/stoa_plugin_loop.wasm"),
        wat::parse_str(wat).unwrap(),
    )
    .unwrap();
    let plugin = load("loop", &SearchPath::new([dir.join("loop")])).unwrap();
    let limits = WasmLimits::for_time_limit(Duration::from_secs(1));
    let runs = vec![PluginRun::new(plugin, json!({})).with_wasm_limits(limits)];
    let one = book(vec![Chapter {
        slug: "one".into(),
        ..Chapter::default()
    }]);
    let start = Instant::now();
    let failed = apply(&runs, one).is_err();
    let took = start.elapsed();
    assert!(failed, "the loop ran out of fuel");
    println!(
        "a loop's budget of 1 s of `time-limit` ({} fuel) ran out in {:.2} s: {:.0} million fuel/s here",
        FUEL_PER_SECOND,
        took.as_secs_f64(),
        FUEL_PER_SECOND as f64 / took.as_secs_f64() / 1e6
    );
}
