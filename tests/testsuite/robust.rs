//! Errors and interruptions: every counted error is printed, SIGINT and
//! SIGTERM leave nothing behind, the download page never lists sums that do
//! not match, one build at a time per output folder, and plugins run in a
//! process of their own fail only their books.

use crate::prelude::{
    compile_c_plugin, copy_dir, files_below, repo_root, sha256_hex, stoa, stoa_bin, torture_project,
};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;

/// The C fixture `tests/fixtures/v1/plugins/c_misbehave.c`, compiled once per
/// test process into a folder of its own.
fn plugin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("robust-plugins");
        compile_c_plugin(
            "tests/fixtures/v1/plugins/c_misbehave.c",
            "crates/stoa-sdk/include",
            &dir,
            "c_misbehave",
        );
        dir
    })
}

/// A project of one-post books: `books` lists each book's id and the
/// `[plugins.c_misbehave]` table it has, if any.
fn project(books: &[(&str, Option<&str>)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&repo_root().join("themes"), &root.join("themes"));
    std::fs::create_dir_all(root.join("books/posts/hello")).unwrap();
    std::fs::write(
        root.join("books/posts/hello/en.md"),
        "+++\ntitle = \"Hello\"\n+++\n\nA short post.\n",
    )
    .unwrap();
    for (n, (id, plugin)) in books.iter().enumerate() {
        let mut toml = format!(
            "author = \"A\"\nlanguages = [\"en\"]\n\
             identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-0000000001{n:02}\"\n\
             date = 2024-05-31\nposts = [\"hello\"]\n\n[title]\nen = \"Book {id}\"\n"
        );
        if let Some(table) = plugin {
            toml.push_str(&format!("\n[plugins.c_misbehave]\n{table}\n"));
        }
        std::fs::create_dir_all(root.join("books").join(id)).unwrap();
        std::fs::write(root.join("books").join(id).join("book.toml"), toml).unwrap();
    }
    dir
}

/// `stoa build --format epub` with the fixture plugin's folder, as a child
/// whose standard error is piped.
fn spawn_build(project: &Path, extra: &[&str]) -> Child {
    Command::new(stoa_bin())
        .args(["build", "--format", "epub", "--plugin-dir"])
        .arg(plugin_dir())
        .args(extra)
        .current_dir(project)
        .env_remove("SOURCE_DATE_EPOCH")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Reads the child's standard error until a line contains `needle`; false
/// when it ends first. What was read is appended to `seen`.
fn wait_for_line(child: &mut Child, needle: &str, seen: &mut String) -> bool {
    let stderr = child.stderr.as_mut().expect("piped");
    let mut reader = BufReader::new(stderr);
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => return false,
            Ok(_) => {
                seen.push_str(&line);
                if line.contains(needle) {
                    return true;
                }
            }
        }
    }
}

fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .arg(format!("-{name}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(status.success());
}

fn stoa_files(dir: &Path) -> Vec<PathBuf> {
    files_below(dir)
        .into_iter()
        .filter(|p| {
            p.components()
                .any(|c| c.as_os_str().to_string_lossy().starts_with(".stoa"))
        })
        .collect()
}

/// The regression: an error counted in "build failed: 1 error" but never
/// shown (the download page's cover thumbnail could not be written).
#[test]
fn every_counted_error_is_printed() {
    let project = torture_project();
    let ok = stoa(project.path(), &["build", "--format", "epub"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // A folder where the thumbnail goes: writing it fails.
    let thumbnail = project.path().join("dist/torture/torture-en-cover.png");
    std::fs::remove_file(&thumbnail).unwrap();
    std::fs::create_dir_all(thumbnail.join("in-the-way")).unwrap();
    let out = stoa(project.path(), &["build", "--format", "epub"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let printed = stderr.matches("error: ").count();
    assert!(
        stderr.contains("build failed: 1 error") && printed == 1,
        "one error counted, one printed:\n{stderr}"
    );
    assert!(stderr.contains("torture-en-cover.png"), "{stderr}");
}

/// The regression: a build that replaced an artifact and then stopped
/// before the download page left a page whose SHA-256 no longer matched.
#[test]
fn the_download_page_never_lists_stale_sums() {
    let project = torture_project();
    let ok = stoa(project.path(), &["build", "--format", "epub"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let dist = project.path().join("dist");
    assert!(dist.join("index.html").is_file());
    // The EPUB changes; then the page cannot be written (its only edition's
    // thumbnail is blocked), as if the build had stopped before it.
    let post = project.path().join("books/posts/empty/en.md");
    std::fs::write(&post, "+++\ntitle = \"Not empty any more\"\n+++\n\nText.\n").unwrap();
    let thumbnail = dist.join("torture/torture-en-cover.png");
    std::fs::remove_file(&thumbnail).unwrap();
    std::fs::create_dir_all(thumbnail.join("in-the-way")).unwrap();
    let out = stoa(project.path(), &["build", "--format", "epub"]);
    assert_eq!(out.status.code(), Some(1));
    let Ok(page) = std::fs::read_to_string(dist.join("index.html")) else {
        return; // no page is a true page
    };
    let epub = std::fs::read(dist.join("torture/torture-en.epub")).unwrap();
    let sum = sha256_hex(&epub);
    for listed in page
        .split("<code class=\"sha256\">")
        .skip(1)
        .map(|s| &s[..64])
    {
        assert_eq!(listed, sum, "the page lists a sum no file has");
    }
}

/// The regression: temporary files of an interrupted build stayed forever.
#[test]
fn the_next_build_removes_leftover_temporary_files() {
    let project = project(&[("good", None)]);
    let dist = project.path().join("dist");
    std::fs::create_dir_all(dist.join("good/.stoa-Ab12Cd/en")).unwrap();
    std::fs::write(dist.join("good/.stoa-Ab12Cd/en/index.html"), "x").unwrap();
    std::fs::write(dist.join("good/.stoa-Xy98Zw.tmp"), "half an epub").unwrap();
    std::fs::write(dist.join(".stoa-site-Qw12Er"), "half a page").unwrap();
    std::fs::write(dist.join("notes.txt"), "the author's own").unwrap();
    let out = stoa(project.path(), &["build", "--format", "epub"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(stoa_files(&dist), Vec::<PathBuf>::new());
    assert!(dist.join("notes.txt").is_file(), "nothing else is touched");
    assert!(dist.join("good/good-en.epub").is_file());
}

/// The regressions: two builds into one folder interleaved silently, and a
/// signal left temporary files and ended the process without an exit code.
/// A plugin that never returns holds the first build inside the lock.
#[test]
fn one_build_per_folder_and_signals_clean_up() {
    for (signal_name, code) in [("INT", 130), ("TERM", 143)] {
        let project = project(&[("stuck", Some("do = \"loop\""))]);
        let mut first = spawn_build(project.path(), &[]);
        let mut seen = String::new();
        assert!(
            wait_for_line(&mut first, "c_misbehave: looping", &mut seen),
            "{seen}"
        );
        let second = Command::new(stoa_bin())
            .args(["build", "--format", "epub"])
            .current_dir(project.path())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&second.stderr);
        assert_eq!(second.status.code(), Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("another stoa build (process {})", first.id()))
                && stderr.contains("dist"),
            "{stderr}"
        );
        // A temporary file appears after the build started, as one being written would.
        let dist = project.path().join("dist");
        std::fs::create_dir_all(dist.join("stuck")).unwrap();
        std::fs::write(dist.join("stuck/.stoa-Ab12Cd.tmp"), "half").unwrap();
        signal(&first, signal_name);
        let status = first.wait().unwrap();
        assert_eq!(status.code(), Some(code), "SIG{signal_name}: {status:?}");
        assert_eq!(stoa_files(&dist), Vec::<PathBuf>::new(), "SIG{signal_name}");
    }
}

/// Isolated, a plugin that aborts, segfaults, exits or hangs fails only the
/// books that use it, each with an error naming the plugin; a plugin that
/// prints to standard output does not garble the answers.
#[test]
fn isolated_plugin_failures_fail_only_their_books() {
    let project = project(&[
        ("good", None),
        ("noisy", Some("isolate = true\ndo = \"print\"")),
        ("aborts", Some("isolate = true\ndo = \"abort\"")),
        ("segfaults", Some("isolate = true\ndo = \"segv\"")),
        ("exits", Some("isolate = true\ndo = \"exit\"")),
        (
            "hangs",
            Some("isolate = true\ntime-limit = 1\ndo = \"loop\""),
        ),
    ]);
    let out = spawn_build(project.path(), &[]).wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let dist = project.path().join("dist");
    for built in ["good", "noisy"] {
        assert!(
            dist.join(format!("{built}/{built}-en.epub")).is_file(),
            "{built}: {stderr}"
        );
    }
    for (book, why) in [
        ("aborts", "SIGABRT"),
        ("segfaults", "SIGSEGV"),
        ("exits", "exited with status 3"),
        ("hangs", "did not answer `transform` within 1 s"),
    ] {
        assert!(!dist.join(book).join(format!("{book}-en.epub")).exists());
        let failed = stderr
            .split("failed: ")
            .find(|block| block.starts_with(&format!("{book} (en)")))
            .unwrap_or_else(|| panic!("no failure for {book}:\n{stderr}"));
        assert!(
            failed.contains("plugin `c_misbehave`") && failed.contains(why),
            "{book}:\n{failed}"
        );
    }
    assert!(
        stderr.contains("build failed: 4 errors"),
        "one error per failed book:\n{stderr}"
    );
}

/// Not isolated, a plugin that crashes ends stoa by its signal (nothing
/// can be trusted after it), but never silently: stoa names the plugin and
/// the way out, and a later build is unharmed by what it left.
#[cfg(unix)]
#[test]
fn a_plugin_crashing_in_process_is_named_before_stoa_ends() {
    use std::os::unix::process::ExitStatusExt;
    for (what, signal) in [("segv", 11), ("abort", 6)] {
        let project = project(&[("crashes", Some(&format!("do = \"{what}\"")))]);
        let out = spawn_build(project.path(), &[]).wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.signal(), Some(signal), "{what}: {stderr}");
        assert!(
            stderr.contains("the plugin `c_misbehave` (")
                && stderr.contains("crashed while it ran inside stoa")
                && stderr.contains("`isolate = true` in its [plugins.c_misbehave] table"),
            "{what}: {stderr}"
        );
        assert!(!project.path().join("dist/crashes/crashes-en.epub").exists());
    }
}

/// Isolation changes where a plugin runs, not what it makes: the real books,
/// with every plugin isolated, build byte-identical files.
#[test]
fn isolated_plugins_make_the_same_books() {
    let project = crate::prelude::project_from(&repo_root().join("books"));
    let build = |out: &str| {
        let result = Command::new(stoa_bin())
            .args(["build", "-q", "-f", "epub", "-f", "html", "-o", out])
            .current_dir(project.path())
            .env("SOURCE_DATE_EPOCH", "1717200000")
            .output()
            .unwrap();
        assert!(
            result.status.success(),
            "{}",
            String::from_utf8_lossy(&result.stderr)
        );
    };
    build("in-process");
    let mut isolated = 0;
    for entry in std::fs::read_dir(project.path().join("books")).unwrap() {
        let toml = entry.unwrap().path().join("book.toml");
        let Ok(text) = std::fs::read_to_string(&toml) else {
            continue;
        };
        let mut out = String::new();
        for line in text.lines() {
            out.push_str(line);
            out.push('\n');
            if line.starts_with("[plugins.") {
                out.push_str("isolate = true\n");
                isolated += 1;
            }
        }
        std::fs::write(&toml, out).unwrap();
    }
    assert!(isolated > 0, "the real books use plugins");
    build("isolated");
    let (a, b) = (
        project.path().join("in-process"),
        project.path().join("isolated"),
    );
    let files = files_below(&a);
    assert_eq!(files, files_below(&b));
    for file in files {
        assert!(
            std::fs::read(a.join(&file)).unwrap() == std::fs::read(b.join(&file)).unwrap(),
            "{} differs",
            file.display()
        );
    }
}

/// In stoa's own process, a plugin that calls `exit(0)` ended the build
/// with success and no books; now the build fails, says why, and leaves no
/// temporary file or lock.
#[test]
fn a_plugin_calling_exit_never_passes_for_success() {
    let project = project(&[("good", None), ("quits", Some("do = \"exit0\""))]);
    let out = spawn_build(project.path(), &[]).wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(70), "{stderr}");
    assert!(
        stderr.contains("a plugin ended stoa in the middle of the build"),
        "{stderr}"
    );
    assert_eq!(
        stoa_files(&project.path().join("dist")),
        Vec::<PathBuf>::new()
    );
}
