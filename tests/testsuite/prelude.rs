//! What every module of the test suite uses: the helpers of `stoa_tests`
//! (tests/src/lib.rs), folders that last as long as the test process, and
//! the real books built once for all the tests that only read them.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once, OnceLock};

pub use stoa_tests::*;

/// Keeps `dir` until the test process exits, then removes it; its path.
///
/// For a build that several tests read, made once in a `OnceLock`: a
/// `TempDir` kept in a static is never dropped, so its folder would stay
/// behind in the temporary folder after every run.
pub fn kept_until_exit(dir: tempfile::TempDir) -> PathBuf {
    static KEPT: Mutex<Vec<tempfile::TempDir>> = Mutex::new(Vec::new());
    static REMOVAL: Once = Once::new();
    /// Drops every kept folder, which removes it. Errors are ignored: a
    /// panic must not leave a function called from C.
    extern "C" fn remove_kept() {
        if let Ok(mut kept) = KEPT.lock() {
            kept.clear();
        }
    }
    REMOVAL.call_once(|| {
        // SAFETY: `remove_kept` is an `extern "C"` function that takes no
        // argument, as `atexit` requires, and it cannot unwind.
        #[allow(unsafe_code)]
        let registered = unsafe { libc::atexit(remove_kept) };
        assert_eq!(registered, 0, "atexit registers the removal");
    });
    let path = dir.path().to_path_buf();
    KEPT.lock().expect("the kept folders").push(dir);
    path
}

/// The repository's books/ built once per test process as an author builds
/// them: `stoa build`, every format, the download page.
///
/// Tests that only read a full build of the real books share it; a test
/// that changes a build, or needs other options, makes its own.
pub struct BooksBuild {
    project: PathBuf,
    log: String,
}

impl BooksBuild {
    /// The project folder: copies of books/ and themes/, and `dist/`. Read
    /// it, never write to it: other tests read it at the same time.
    pub fn project(&self) -> &Path {
        &self.project
    }

    /// The output folder, `<project>/dist`.
    pub fn dist(&self) -> PathBuf {
        self.project.join("dist")
    }

    /// What the build printed: its progress and its warnings.
    pub fn log(&self) -> &str {
        &self.log
    }

    /// Every file of the output whose extension is `ext`, sorted.
    pub fn files(&self, ext: &str) -> Vec<PathBuf> {
        let dist = self.dist();
        files_below(&dist)
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == ext))
            .map(|f| dist.join(f))
            .collect()
    }
}

/// The shared build of the real books, made by the first test that asks.
///
/// A failed build is remembered: every test that reads it fails with the
/// build's message at once, not after a build of its own.
pub fn books() -> &'static BooksBuild {
    static BUILT: OnceLock<Result<BooksBuild, String>> = OnceLock::new();
    match BUILT.get_or_init(build_books) {
        Ok(built) => built,
        Err(why) => panic!("{why}"),
    }
}

fn build_books() -> Result<BooksBuild, String> {
    let project = kept_until_exit(project_from(&repo_root().join("books")));
    let out = stoa(&project, &["build"]);
    let log = output_text(&out);
    if !out.status.success() || log.contains("panicked") {
        return Err(format!("stoa build of books/ failed:\n{log}"));
    }
    Ok(BooksBuild { project, log })
}

/// A fixture's books, built once for the tests of one file.
pub struct Built {
    /// The output folder.
    pub dist: PathBuf,
    /// What `stoa build` printed, stdout and stderr.
    pub log: String,
}

/// Builds the books of fixture folder `books` (e.g. `"languages/books"`)
/// in a project of their own with `stoa build` and `args`; it must succeed.
pub fn build_fixture(books: &str, args: &[&str]) -> Built {
    let project = kept_until_exit(project_from(&fixture(books)));
    let mut all = vec!["build"];
    all.extend_from_slice(args);
    let result = stoa(&project, &all);
    let log = output_text(&result);
    assert!(result.status.success(), "stoa build failed:\n{log}");
    assert!(!log.contains("panicked"), "{log}");
    Built {
        dist: project.join("dist"),
        log,
    }
}

/// A blog of the real-blog corpus (tests/fixtures/corpus/<name>/): its
/// folder and the importer its SOURCE.toml names (`kind`), which also
/// records its address, commit and licence.
pub struct CorpusBlog {
    pub dir: PathBuf,
    pub kind: String,
}

impl CorpusBlog {
    /// The blog `name`; its SOURCE.toml must say where it comes from.
    pub fn named(name: &str) -> CorpusBlog {
        let dir = repo_root().join("tests/fixtures/corpus").join(name);
        let source = std::fs::read_to_string(dir.join("SOURCE.toml")).unwrap();
        let table: toml::Table = toml::from_str(&source).unwrap();
        for key in ["address", "licence", "kind"] {
            assert!(
                table.contains_key(key),
                "{name}: SOURCE.toml has no `{key}`"
            );
        }
        // One commit for the whole blog, or one per file.
        assert!(
            table.contains_key("commit") || table.contains_key("commits"),
            "{name}: SOURCE.toml has no `commit`"
        );
        let kind = table["kind"].as_str().unwrap().to_string();
        CorpusBlog { dir, kind }
    }

    /// Every blog of the corpus, by name.
    pub fn all() -> Vec<CorpusBlog> {
        let corpus = repo_root().join("tests/fixtures/corpus");
        let mut names: Vec<String> = std::fs::read_dir(corpus)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names.iter().map(|n| CorpusBlog::named(n)).collect()
    }
}
