//! A build that stays warm: `stoa watch` keeps one [`Session`] and calls
//! [`Session::build`] after every change, so what did not change is reused.
//!
//! The session holds the build cache (see `crate::cache`) in memory: each
//! artifact's key, the page maps of the PDFs and the covers drawn. A build
//! hashes the inputs (fast: no parsing), loads only the editions with a
//! stale artifact and renders only those artifacts; Typst's fonts and
//! library are loaded once per process, and its memoized results are aged
//! after each compilation (both in stoa-pdf), so that memory stays flat over
//! many builds.

use crate::cache::Cache;
use crate::driver::build_cached;
use crate::options::BuildOptions;
use crate::report::{Report, Sink};

/// A build driver kept between builds, so that later builds redo only what
/// their input changed.
pub struct Session {
    options: BuildOptions,
    cache: Cache,
    force_next: bool,
}

impl Session {
    /// A session that builds what `options` asks for. Its first build reads
    /// the cache the output folder holds from earlier runs.
    pub fn new(options: BuildOptions) -> Self {
        // What the renderers computed is kept for the session's next build.
        stoa_render::set_warm();
        Session {
            options,
            cache: Cache::default(),
            force_next: false,
        }
    }

    /// What this session builds.
    pub fn options(&self) -> &BuildOptions {
        &self.options
    }

    /// Makes the next build ignore the cache and make everything again
    /// (`--force`).
    pub fn force_next(&mut self) {
        self.force_next = true;
    }

    /// Builds again, telling `sink` as it goes. Artifacts whose bytes did not
    /// change are reported with `written: false`; those whose inputs did not
    /// change are not even rendered.
    pub fn build(&mut self, sink: Sink) -> Report {
        if std::mem::take(&mut self.force_next) {
            self.cache = Cache::forced(&self.options.out_dir);
        }
        // Another build into the same folder (a `stoa build` by hand) is
        // waited for: the change that started this build is never dropped.
        build_cached(&self.options, sink, &mut self.cache, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Event;
    use std::path::{Path, PathBuf};
    use std::sync::Mutex;

    /// A one-book project with the built-in theme: one post of `paragraphs`
    /// paragraphs, the first one saying `first`.
    fn project(root: &Path, first: &str, paragraphs: usize) {
        std::fs::create_dir_all(root.join("books/b")).unwrap();
        std::fs::create_dir_all(root.join("books/posts/p")).unwrap();
        std::fs::create_dir_all(root.join("themes")).unwrap();
        std::fs::write(
            root.join("books/b/book.toml"),
            "author = \"A\"\nlanguages = [\"en\"]\nidentifier = \"urn:x\"\n\
             date = 2026-01-01\nposts = [\"p\"]\n\n[title]\nen = \"B\"\n",
        )
        .unwrap();
        let body: Vec<String> = (0..paragraphs)
            .map(|i| format!("Paragraph {i} says a few words, and then some more words."))
            .collect();
        let md = format!(
            "+++\ntitle = \"T\"\n+++\n\n{first}\n\n{}\n",
            body.join("\n\n")
        );
        std::fs::write(root.join("books/posts/p/en.md"), md).unwrap();
    }

    fn options(root: &Path, out: &str) -> BuildOptions {
        BuildOptions {
            formats: vec!["pdf", "epub", "html"],
            jobs: Some(2),
            ..BuildOptions::new(root.join("books"), root.join("themes"), root.join(out))
        }
    }

    /// Builds once more; the formats told as built, in the order told.
    fn build(session: &mut Session) -> Vec<&'static str> {
        let told = Mutex::new(Vec::new());
        let report = session.build(&|event| {
            if let Event::Built(a) = event
                && a.written
            {
                told.lock().unwrap().push(a.format);
            }
        });
        assert!(report.ok(), "{:?}", report.errors);
        told.into_inner().unwrap()
    }

    /// Every file below `dir` with its bytes, the cache left out.
    fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out = Vec::new();
        let mut stack = vec![dir.to_path_buf()];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).unwrap().flatten() {
                let path = entry.path();
                if path.ends_with(".cache") {
                    continue;
                }
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let bytes = std::fs::read(&path).unwrap();
                    out.push((path.strip_prefix(dir).unwrap().to_path_buf(), bytes));
                }
            }
        }
        out.sort();
        out
    }

    /// What a cold build of the project as it now is writes.
    fn cold(root: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let options = options(root, "cold");
        let _ = std::fs::remove_dir_all(&options.out_dir);
        let report = crate::driver::build(&options, &|_| {});
        assert!(report.ok(), "{:?}", report.errors);
        files(&options.out_dir)
    }

    #[test]
    fn a_session_build_waits_for_another_build_of_the_folder_then_builds() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        project(root, "First words.", 2);
        let mut options = options(root, "dist");
        options.formats = vec!["epub"];
        let held = crate::guard::OutputLock::acquire(&options.out_dir).unwrap();
        let (told_tx, told_rx) = std::sync::mpsc::channel::<String>();
        let told_tx = Mutex::new(told_tx);
        let mut session = Session::new(options);
        let report = std::thread::scope(|scope| {
            let building = scope.spawn(|| {
                session.build(&|event| {
                    if let Event::Warning(w) = event {
                        let _ = told_tx.lock().unwrap().send(w.to_string());
                    }
                })
            });
            // The build says it waits; only then is the other one done.
            let told = told_rx.recv().unwrap();
            assert!(told.contains("this build starts when it ends"), "{told}");
            drop(held);
            building.join().unwrap()
        });
        assert!(report.ok(), "{:?}", report.errors);
        assert!(root.join("dist/b/b-en.epub").is_file());
        assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    }

    #[test]
    fn after_an_edit_the_epub_comes_before_the_pdf_and_is_remade_when_the_pages_move() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        project(root, "First words.", 40);
        let mut session = Session::new(options(root, "dist"));
        build(&mut session);

        // A word changed: the pages do not move, the EPUB and the web
        // edition are made once, before the PDF, with the last page map.
        project(root, "First word.", 40);
        let told = build(&mut session);
        let mut light = told[..told.len().min(2)].to_vec();
        light.sort();
        assert_eq!(light, ["epub", "html"], "{told:?}");
        assert_eq!(told.last(), Some(&"pdf"), "{told:?}");
        assert_eq!(told.len(), 3, "{told:?}");
        assert_eq!(files(&root.join("dist")), cold(root));

        // Many paragraphs added at the start: every page moves, so the
        // EPUB and the web edition made first are made again with the new
        // map, and end as a cold build makes them.
        let long =
            "A long new paragraph that pushes everything after it down the page. ".repeat(60);
        project(root, &long, 40);
        let told = build(&mut session);
        assert_eq!(told.len(), 5, "made first, then again: {told:?}");
        assert_eq!(files(&root.join("dist")), cold(root));
    }
}
