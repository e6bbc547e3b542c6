//! Shared by the integration tests: builds the C fixtures with the system C
//! compiler and the Rust example plugin with cargo, once per test process,
//! and makes sample books.
#![allow(dead_code)] // each test binary uses a different part

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use stoa_plugin_host::SearchPath;
use stoa_sdk::{Block, Book, Chapter, Inline, Labels, ListItem, TREE_VERSION};

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");
const TARGET_TMP: &str = env!("CARGO_TARGET_TMPDIR");

/// The C fixtures, by plugin name, folder under `tests/fixtures` and
/// source file. `v1` holds plugins built against today's header;
/// `tree-1.0` one built against a copy of the header of tree version 1.0,
/// `tree-1.1` one against the header of 1.1 (tests/compat_1_1.rs).
const C_FIXTURES: &[(&str, &str, &str)] = &[
    ("c_upper", "v1", "c_plugin.c"),
    ("c_faulty", "v1", "c_faulty.c"),
    ("c_no_entry", "v1", "c_no_entry.c"),
    ("c_abi999", "v1", "c_abi999.c"),
    ("c_tree2", "v1", "c_tree2.c"),
    ("c_tree_newer", "v1", "c_tree_newer.c"),
    ("c_tree10", "tree-1.0", "c_tree10.c"),
    ("c_hooks", "v1", "c_hooks.c"),
    ("c_tree11", "tree-1.1", "c_tree11.c"),
];

/// A folder holding every C fixture, compiled (once per process) into
/// `libstoa_plugin_<name>.so`.
pub fn c_plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(TARGET_TMP).join("stoa-plugin-host-c");
        std::fs::create_dir_all(&dir).unwrap();
        for (name, folder, source) in C_FIXTURES {
            compile_c(folder, source, &dir.join(library_file(name)));
        }
        dir
    })
}

/// The file name of plugin `name` on this platform.
pub fn library_file(name: &str) -> String {
    use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
    format!("{DLL_PREFIX}stoa_plugin_{name}{DLL_SUFFIX}")
}

/// Compiles one fixture against a stoa_plugin.h alone: the copy in its own
/// folder when it has one (an older header), else the SDK's `include/`.
/// Written beside its final name and renamed, so that test processes
/// running at once (nextest) never load a half-written file.
fn compile_c(folder: &str, source: &str, out: &Path) {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let folder = Path::new(MANIFEST_DIR).join("tests/fixtures").join(folder);
    let include = if folder.join("stoa_plugin.h").is_file() {
        folder.clone()
    } else {
        Path::new(MANIFEST_DIR).join("../stoa-sdk/include")
    };
    let source = folder.join(source);
    let tmp = out.with_extension(format!("{}.tmp", std::process::id()));
    let result = Command::new(&cc)
        .args([
            "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O1",
        ])
        .arg("-I")
        .arg(&include)
        .arg("-o")
        .arg(&tmp)
        .arg(&source)
        .output();
    let output = result.unwrap_or_else(|e| {
        panic!(
            "these tests need a C compiler, and `{cc}` could not be run: {e}. \
             Install one (apt-get install gcc) or point CC at it."
        )
    });
    assert!(
        output.status.success(),
        "{cc} failed on {}:\n{}",
        source.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::rename(&tmp, out).unwrap();
}

/// A search path of the C fixtures' folder.
pub fn c_search() -> SearchPath {
    SearchPath::new([c_plugin_dir().to_path_buf()])
}

/// The folder holding the example plugin. `scripts/test` builds the whole
/// workspace before the tests, the example plugin's library included, so the
/// tests use that library when it is newer than every source Cargo's
/// dep-info file says it was built from. Otherwise (`cargo test -p
/// stoa-plugin-host` alone, or sources edited since) it is built once per
/// process into a folder of its own, `target/plugin-tests`: Cargo holds the
/// lock on the tests' own target folder while they run.
pub fn example_plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let workspace = Path::new(MANIFEST_DIR).join("../..");
        let release = !cfg!(debug_assertions);
        let profile = if release { "release" } else { "debug" };
        let built = Path::new(TARGET_TMP).join("..").join(profile);
        if is_fresh(&built.join(library_file("example"))) {
            return built;
        }
        let target = Path::new(TARGET_TMP).join("../plugin-tests");
        let mut cargo = Command::new(env!("CARGO"));
        cargo
            .current_dir(&workspace)
            .args(["build", "--quiet", "-p", "stoa-plugin-example"]);
        cargo.arg("--target-dir").arg(&target);
        if release {
            cargo.arg("--release");
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "building stoa-plugin-example failed");
        target.join(profile)
    })
}

/// Whether `library` exists and is newer than every file its dep-info
/// (`<library stem>.d`, written by Cargo beside it) lists.
fn is_fresh(library: &Path) -> bool {
    let Ok(built) = library.metadata().and_then(|m| m.modified()) else {
        return false;
    };
    let Ok(info) = std::fs::read_to_string(library.with_extension("d")) else {
        return false;
    };
    let Some((_, sources)) = info.lines().next().and_then(|l| l.split_once(": ")) else {
        return false;
    };
    // Dep-info escapes a space in a path as `\ `.
    let sources = sources.replace("\\ ", "\u{0}");
    sources.split(' ').filter(|s| !s.is_empty()).all(|source| {
        Path::new(&source.replace('\u{0}', " "))
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|m| m <= built)
    })
}

/// A search path of the example plugin's folder.
pub fn example_search() -> SearchPath {
    SearchPath::new([example_plugin_dir().to_path_buf()])
}

fn paragraph(text: &str) -> Block {
    Block::Paragraph {
        content: vec![Inline::text(text)],
    }
}

/// A chapter the size of a blog post: `paragraphs` paragraphs of ~27
/// words, a heading and a list now and then.
pub fn chapter(index: usize, paragraphs: usize) -> Chapter {
    let text = "The stoa was a covered walk where Zeno taught; the word stoa \
                names his school, and stoics still read what was said there about virtue.";
    let mut blocks = Vec::new();
    for p in 0..paragraphs {
        if p % 10 == 0 {
            blocks.push(Block::Heading {
                level: 2,
                id: format!("part-{p}"),
                content: vec![Inline::text(format!("Part {p} of the stoa"))],
            });
        }
        blocks.push(paragraph(text));
        if p % 15 == 7 {
            let items = (0..3)
                .map(|_| ListItem {
                    checked: None,
                    blocks: vec![paragraph("a stoa item")],
                })
                .collect();
            blocks.push(Block::List {
                start: None,
                tight: true,
                items,
            });
        }
    }
    Chapter {
        slug: format!("post-{index:02}"),
        title: format!("post number {index}"),
        source: Some(format!("books/posts/post-{index:02}/en.md")),
        blocks,
        ..Chapter::default()
    }
}

/// A book of `chapters` chapters of `paragraphs` paragraphs each.
pub fn book(chapters: usize, paragraphs: usize) -> Book {
    Book {
        version: TREE_VERSION,
        id: "sample".into(),
        lang: "en".into(),
        meta: serde_json::from_value(serde_json::json!({
            "title": "Sample", "author": "A. Author", "identifier": "urn:x",
            "date": "2024-01-01", "modified": "2024-01-01T00:00:00Z"
        }))
        .unwrap(),
        labels: Labels::default(),
        chapters: (0..chapters).map(|i| chapter(i, paragraphs)).collect(),
        assets: Vec::new(),
        styles: Vec::new(),
        print: Default::default(),
    }
}

/// Blocks of lists nested `depth` deep, a paragraph at the bottom.
pub fn deep_blocks(depth: usize) -> Vec<Block> {
    let mut blocks = vec![paragraph("bottom of the stoa")];
    for _ in 0..depth {
        let items = vec![ListItem {
            checked: None,
            blocks,
        }];
        blocks = vec![Block::List {
            start: Some(1),
            tight: false,
            items,
        }];
    }
    blocks
}

/// A one-chapter book whose chapter nests lists `depth` deep.
pub fn deep_book(depth: usize) -> Book {
    let mut b = book(1, 0);
    b.chapters[0].blocks = deep_blocks(depth);
    b
}

/// Runs `f` on a rayon pool of `threads` threads.
pub fn on_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(f)
}
