//! The build cache, end to end (issue 14): a second `stoa build` writes
//! nothing; an edit rebuilds exactly the artifacts it affects, and they equal
//! a cold build's; `--force` makes everything again; a corrupt cache is a
//! cold build, never an error. Small books, EPUB and web edition; the PDF in
//! one test only.

use crate::prelude::{copy_dir, repo_root, stoa};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Two books sharing a post, one of them in two languages:
/// `alpha` (en, pt-BR: `shared`, `only-alpha`) and `beta` (en: `shared`,
/// `only-beta`).
fn project(with_theme: bool) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    if with_theme {
        copy_dir(&repo_root().join("themes"), &root.join("themes"));
    }
    let post = |slug: &str, lang: &str, title: &str, text: &str| {
        let folder = root.join("books/posts").join(slug);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(
            folder.join(format!("{lang}.md")),
            format!("+++\ntitle = \"{title}\"\ndate = 2024-05-01\n+++\n\n{text}\n"),
        )
        .unwrap();
    };
    post(
        "shared",
        "en",
        "Shared",
        "A post in two books.\n\nIts second paragraph.",
    );
    post("shared", "pt-BR", "Comum", "Um texto em dois livros.");
    post("only-alpha", "en", "Alpha", "Only in the first book.");
    post("only-beta", "en", "Beta", "Only in the second book.");
    let book = |id: &str, langs: &str, posts: &str, n: u32, titles: &str| {
        std::fs::create_dir_all(root.join("books").join(id)).unwrap();
        std::fs::write(
            root.join("books").join(id).join("book.toml"),
            format!(
                "author = \"A. Author\"\nlanguages = [{langs}]\n\
                 identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-00000000010{n}\"\n\
                 date = 2024-05-31\nposts = [{posts}]\n\n[title]\n{titles}\n"
            ),
        )
        .unwrap();
    };
    book(
        "alpha",
        "\"en\", \"pt-BR\"",
        "\"shared\", \"only-alpha\"",
        1,
        "en = \"Alpha\"\npt-BR = \"Alfa\"",
    );
    book(
        "beta",
        "\"en\"",
        "\"shared\", \"only-beta\"",
        2,
        "en = \"Beta\"",
    );
    dir
}

/// Every file below `dir` but the cache: its bytes and modification time.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, SystemTime)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            let rel = path.strip_prefix(dir).unwrap().to_path_buf();
            if rel.starts_with(".cache") {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let meta = entry.metadata().unwrap();
                out.insert(
                    rel,
                    (std::fs::read(&path).unwrap(), meta.modified().unwrap()),
                );
            }
        }
    }
    out
}

/// The files whose bytes or time differ between two snapshots (or that
/// only one has).
fn changed(
    a: &BTreeMap<PathBuf, (Vec<u8>, SystemTime)>,
    b: &BTreeMap<PathBuf, (Vec<u8>, SystemTime)>,
) -> Vec<String> {
    let mut names: Vec<String> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .map(|k| k.to_string_lossy().replace('\\', "/"))
        .collect();
    names.sort();
    names.dedup();
    names
}

fn bytes_only(s: &BTreeMap<PathBuf, (Vec<u8>, SystemTime)>) -> BTreeMap<PathBuf, &Vec<u8>> {
    s.iter().map(|(k, (b, _))| (k.clone(), b)).collect()
}

type Snapshot = BTreeMap<PathBuf, (Vec<u8>, SystemTime)>;

/// A project built (EPUB and web edition), then `text` saved to the post
/// file `post` (below books/posts/) as editors save, and built again: the
/// project and its output folder before and after.
fn edited(post: &str, text: &str) -> (tempfile::TempDir, Snapshot, Snapshot) {
    let project = project(false);
    let root = project.path();
    build(root, LIGHT);
    let before = snapshot(&root.join("dist"));
    save(&root.join("books/posts").join(post), text);
    build(root, LIGHT);
    let after = snapshot(&root.join("dist"));
    (project, before, after)
}

/// Asserts that `after` holds what a cold build of the project's books
/// into a fresh folder writes, byte for byte.
fn assert_as_cold(root: &Path, after: &Snapshot) {
    build(
        root,
        &["--format", "epub", "--format", "html", "--out", "cold"],
    );
    assert_same_bytes(after, &snapshot(&root.join("cold")));
}

/// Asserts that two output folders hold the same files with the same bytes,
/// naming those that differ and showing the first text file's difference.
fn assert_same_bytes(a: &Snapshot, b: &Snapshot) {
    let (a, b) = (bytes_only(a), bytes_only(b));
    let differ: Vec<&PathBuf> = a
        .keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .collect();
    if let Some(first) = differ.first() {
        let text = |m: &BTreeMap<PathBuf, &Vec<u8>>| {
            m.get(*first)
                .map(|v| String::from_utf8_lossy(v).into_owned())
                .unwrap_or_default()
        };
        panic!(
            "files differ: {differ:?}\n--- {}:\n{}\n--- cold:\n{}",
            first.display(),
            text(&a),
            text(&b)
        );
    }
}

/// `stoa build` with `args`, which must succeed; its standard error.
fn build(root: &Path, args: &[&str]) -> String {
    let mut all = vec!["build"];
    all.extend_from_slice(args);
    let out = stoa(root, &all);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "stoa {all:?} failed:\n{stderr}");
    stderr
}

/// Replaces a file the way editors save: a temporary file renamed over it.
fn save(path: &Path, text: &str) {
    let tmp = path.with_extension("md.swp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

const LIGHT: &[&str] = &["--format", "epub", "--format", "html"];

#[test]
fn a_second_build_writes_nothing_and_a_removed_file_is_made_again() {
    let project = project(false);
    let root = project.path();
    let dist = root.join("dist");
    build(root, LIGHT);
    assert!(
        dist.join(stoa_build::CACHE_DIR).is_dir(),
        "the cache is kept"
    );
    let first = snapshot(&dist);
    assert!(first.contains_key(Path::new("alpha/alpha-en.epub")));
    assert!(first.contains_key(Path::new("index.html")));
    let said = build(root, LIGHT);
    assert_eq!(changed(&first, &snapshot(&dist)), Vec::<String>::new());
    assert!(
        said.contains("(6 unchanged, left as they were)"),
        "the summary says nothing changed:\n{said}"
    );
    // No name a leftover sweep would take for a half-written file.
    let names: Vec<_> = walk_names(&dist);
    assert!(names.iter().all(|n| !n.starts_with(".stoa")), "{names:?}");
    // A file removed (or changed) by hand is made again, the same, alone
    // (the download page, which listed it, is written again too).
    std::fs::remove_file(dist.join("beta/beta-en.epub")).unwrap();
    build(root, LIGHT);
    let after = snapshot(&dist);
    let site = |n: &str| n == "index.html" || n == ".editions.json" || n.starts_with("opds");
    let touched: Vec<String> = changed(&first, &after)
        .into_iter()
        .filter(|n| !site(n))
        .collect();
    assert_eq!(touched, ["beta/beta-en.epub"]);
    assert_eq!(bytes_only(&first), bytes_only(&after));
}

fn walk_names(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            out.push(entry.file_name().to_string_lossy().into_owned());
            if entry.path().is_dir() {
                stack.push(entry.path());
            }
        }
    }
    out
}

#[test]
fn an_edit_rebuilds_exactly_what_it_affects_as_a_cold_build_would() {
    // One paragraph of a post that only the English edition of alpha has.
    let (project, before, after) = edited(
        "only-alpha/en.md",
        "+++\ntitle = \"Alpha\"\ndate = 2024-05-01\n+++\n\nOnly in the first book, edited.\n",
    );
    // The download page and the catalogs list the new sums; of the
    // artifacts, only the English EPUB and web edition of alpha move.
    let site = |n: &str| n == "index.html" || n == ".editions.json" || n.starts_with("opds");
    let touched: Vec<String> = changed(&before, &after)
        .into_iter()
        .filter(|n| !n.starts_with("alpha/en/") && !site(n))
        .collect();
    assert_eq!(touched, ["alpha/alpha-en.epub"]);
    assert!(
        changed(&before, &after)
            .iter()
            .any(|n| n.starts_with("alpha/en/")),
        "the web edition of alpha in English is made again"
    );
    assert_as_cold(project.path(), &after);
}

#[test]
fn a_translation_added_relinks_the_other_web_edition_only() {
    // alpha's Portuguese edition gains the chapter only its English one had:
    // the English web edition now links to it; its EPUB does not move.
    let (project, before, after) = edited(
        "only-alpha/pt-BR.md",
        "+++\ntitle = \"Alfa\"\ndate = 2024-05-01\n+++\n\nSó no primeiro livro.\n",
    );
    let moved = changed(&before, &after);
    assert!(
        moved.iter().any(|n| n == "alpha/alpha-pt-BR.epub"),
        "{moved:?}"
    );
    assert!(
        moved.iter().any(|n| n.starts_with("alpha/en/")),
        "{moved:?}"
    );
    assert!(
        !moved.iter().any(|n| n == "alpha/alpha-en.epub"),
        "{moved:?}"
    );
    assert!(!moved.iter().any(|n| n.starts_with("beta/")), "{moved:?}");
    assert_as_cold(project.path(), &after);
}

#[test]
fn force_makes_and_writes_everything_again() {
    let project = project(false);
    let root = project.path();
    let dist = root.join("dist");
    build(root, LIGHT);
    let before = snapshot(&dist);
    let said = build(root, &["--format", "epub", "--format", "html", "--force"]);
    assert!(!said.contains("unchanged"), "{said}");
    let after = snapshot(&dist);
    for artifact in [
        "alpha/alpha-en.epub",
        "alpha/alpha-pt-BR.epub",
        "beta/beta-en.epub",
    ] {
        assert!(
            changed(&before, &after).iter().any(|n| n == artifact),
            "{artifact} is written again"
        );
    }
    assert_eq!(bytes_only(&before), bytes_only(&after));
}

#[test]
fn a_corrupt_cache_is_a_cold_build_never_an_error() {
    let project = project(false);
    let root = project.path();
    let dist = root.join("dist");
    build(root, LIGHT);
    let before = snapshot(&dist);
    let store = dist.join(stoa_build::CACHE_DIR).join("build.json");
    assert!(store.is_file());
    for junk in [
        &b"{\"version\": 1, \"artifacts\": [truncated"[..],
        &[0xff, 0x00, 0x13],
    ] {
        std::fs::write(&store, junk).unwrap();
        let said = build(root, LIGHT);
        assert!(!said.contains("error"), "{said}");
        assert_eq!(bytes_only(&before), bytes_only(&snapshot(&dist)));
    }
    // The store is written afresh: the next build has nothing to do.
    let settled = snapshot(&dist);
    build(root, LIGHT);
    assert_eq!(changed(&settled, &snapshot(&dist)), Vec::<String>::new());
    // A store that cannot be read at all (a folder in its place) either.
    std::fs::remove_file(&store).unwrap();
    std::fs::create_dir_all(&store).unwrap();
    build(root, LIGHT);
    assert_eq!(bytes_only(&before), bytes_only(&snapshot(&dist)));
}

/// The one test with the PDF: a change to the EPUB's style sheet makes the
/// EPUB again and leaves the PDF alone; the result is a cold build's.
#[test]
fn a_style_sheet_edit_leaves_the_pdf_alone() {
    let project = project(true);
    let root = project.path();
    let dist = root.join("dist");
    let args = ["--book", "beta"];
    build(root, &args);
    let before = snapshot(&dist);
    assert!(before.contains_key(Path::new("beta/beta-en.pdf")));
    let css = root.join("themes/classic/epub.css");
    let mut text = std::fs::read_to_string(&css).unwrap();
    text.push_str("\n/* a change of the author's */\np { orphans: 3; }\n");
    std::fs::write(&css, text).unwrap();
    let said = build(root, &args);
    let after = snapshot(&dist);
    let touched = changed(&before, &after);
    assert!(
        touched.iter().any(|n| n == "beta/beta-en.epub"),
        "{touched:?}"
    );
    assert!(!touched.iter().any(|n| n.ends_with(".pdf")), "{touched:?}");
    assert!(
        !touched.iter().any(|n| n.starts_with("beta/en/")),
        "{touched:?}"
    );
    assert!(said.contains("unchanged"), "{said}");
    build(root, &["--book", "beta", "--out", "cold"]);
    assert_same_bytes(&after, &snapshot(&root.join("cold")));
}

/// The covers kept in the build cache of `dist`, by file name, with their
/// modification times.
fn kept_covers(dist: &Path) -> BTreeMap<String, SystemTime> {
    let dir = dist.join(stoa_build::CACHE_DIR).join("covers");
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let time = entry.metadata().unwrap().modified().unwrap();
        out.insert(entry.file_name().to_string_lossy().into_owned(), time);
    }
    out
}

#[test]
fn a_post_edit_reuses_the_covers_and_a_title_change_draws_them_again() {
    let project = project(false);
    let root = project.path();
    build(root, LIGHT);
    let before = kept_covers(&root.join("dist"));
    // Three editions: the cover and the two thumbnails of each.
    assert_eq!(before.len(), 9, "{before:?}");
    let cover = |root: &Path| std::fs::read(root.join("dist/alpha/en/cover.png")).unwrap();
    let first = cover(root);

    let post = root.join("books/posts/only-alpha/en.md");
    let text = std::fs::read_to_string(&post).unwrap();
    save(&post, &text.replace("Only in", "Now only in"));
    build(root, LIGHT);
    assert_eq!(
        kept_covers(&root.join("dist")),
        before,
        "no cover drawn again"
    );
    assert_eq!(cover(root), first);

    let toml = root.join("books/alpha/book.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, text.replace("en = \"Alpha\"", "en = \"Alpha Two\"")).unwrap();
    build(root, LIGHT);
    let after = kept_covers(&root.join("dist"));
    assert_eq!(
        after.len(),
        9,
        "the old title's covers are removed: {after:?}"
    );
    let redrawn = after.keys().filter(|k| !before.contains_key(*k)).count();
    assert_eq!(redrawn, 3, "the English alpha's cover and thumbnails");
    assert_ne!(cover(root), first, "the new title is on the cover");

    // What the cache gives (after another edit) is what a cold build draws.
    std::fs::write(&post, std::fs::read_to_string(&post).unwrap() + "\nMore.\n").unwrap();
    build(root, LIGHT);
    assert_eq!(
        kept_covers(&root.join("dist")),
        after,
        "taken from the cache"
    );
    let mut cold = vec!["--out", "cold"];
    cold.extend_from_slice(LIGHT);
    build(root, &cold);
    let cold = std::fs::read(root.join("cold/alpha/en/cover.png")).unwrap();
    assert_eq!(cover(root), cold);
}
