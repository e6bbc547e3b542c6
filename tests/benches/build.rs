//! Timings of the build of books/, phase by phase, as medians of several
//! runs: loading and parsing, EPUB (and its last gate alone), Typst
//! compile and PDF export, and the whole build. Run with `cargo bench -p stoa-tests --bench build`.

use std::path::PathBuf;
use std::time::Instant;
use stoa_build::BuildOptions;
use stoa_doc::{IdIndex, NotesPlan};
use stoa_render::{RenderContext, Renderer};
use stoa_tests::repo_root;

const RUNS: usize = 5;

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn time(label: &str, mut f: impl FnMut()) {
    f(); // warm up: fonts, caches, page cache
    let samples: Vec<f64> = (0..RUNS)
        .map(|_| {
            let start = Instant::now();
            f();
            start.elapsed().as_secs_f64()
        })
        .collect();
    let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
    println!(
        "{label:<44} median {:>8.3} s   min {min:>8.3} s   ({RUNS} runs)",
        median(samples)
    );
}

fn editions() -> Vec<stoa_book::Edition> {
    let books = repo_root().join("books");
    stoa_book::discover(&books)
        .expect("books/")
        .iter()
        .flat_map(|dir| {
            let config = stoa_book::load_config(dir).expect("valid book");
            stoa_book::load_editions(&config, None, None)
        })
        .map(|(_, edition)| edition.expect("valid edition"))
        .collect()
}

fn build(formats: Vec<&'static str>, out: PathBuf) {
    build_books(repo_root().join("books"), formats, out);
}

/// A copy of books/ with every `[plugins.*]` table removed, to measure
/// what the plugins cost.
fn books_without_plugins(dir: &std::path::Path) -> PathBuf {
    let books = dir.join("books");
    stoa_tests::copy_dir(&repo_root().join("books"), &books);
    for book in stoa_book::discover(&books).expect("books") {
        let path = book.join("book.toml");
        let text = std::fs::read_to_string(&path).expect("book.toml");
        let kept = text.split("\n[plugins.").next().unwrap_or_default();
        std::fs::write(path, kept).expect("write book.toml");
    }
    books
}

/// A copy of books/ with no index: the collection's terms file removed and
/// the places marked in the posts (`[]{.index …}` lines) taken out, to
/// measure what the index costs (issue 29 asks under 5 % of a full build).
fn books_without_index(dir: &std::path::Path) -> PathBuf {
    let books = dir.join("books-no-index");
    stoa_tests::copy_dir(&repo_root().join("books"), &books);
    for book in stoa_book::discover(&books).expect("books") {
        let _ = std::fs::remove_file(book.join(stoa_index::FILE_NAME));
    }
    let posts = books.join("posts");
    for post in std::fs::read_dir(&posts).expect("posts").flatten() {
        for file in std::fs::read_dir(post.path()).expect("post").flatten() {
            let path = file.path();
            if path.extension().is_some_and(|e| e == "md") {
                let text = std::fs::read_to_string(&path).expect("post");
                let kept: String = text
                    .split_inclusive('\n')
                    .filter(|line| !line.starts_with("[]{.index"))
                    .collect();
                std::fs::write(&path, kept).expect("write post");
            }
        }
    }
    books
}

fn build_books(books_dir: PathBuf, formats: Vec<&'static str>, out: PathBuf) {
    let exe = std::env::current_exe().expect("bench path");
    let profile_dir = exe
        .parent()
        .and_then(std::path::Path::parent)
        .map(std::path::Path::to_path_buf);
    let options = BuildOptions {
        formats,
        exe_dir: profile_dir,
        ..BuildOptions::new(books_dir, repo_root().join("themes"), out)
    };
    // Forced: every iteration a whole build, whatever the cache in `out` says.
    let report = stoa_build::build_forced(&options, &|_| {});
    assert!(report.ok(), "{:?}", report.errors);
}

/// Renders every edition with `renderer`, one thread, the notes plan and
/// the id index computed as the driver does.
fn rendered(
    renderer: &dyn Renderer,
    all: &[stoa_book::Edition],
    cover: Option<&[u8]>,
) -> Vec<stoa_render::Rendered> {
    let theme = stoa_render::Theme::folder("classic", repo_root().join("themes/classic"));
    all.iter()
        .map(|e| {
            let notes = NotesPlan::of(&e.book);
            let ids = IdIndex::of(&e.book);
            let ctx = RenderContext::new(
                &e.book,
                &notes,
                &ids,
                &theme,
                &e.roots,
                stoa_render::Layout::empty(),
            )
            .with_cover(cover);
            renderer.render(&ctx).expect("rendered")
        })
        .collect()
}

fn render_all(renderer: &dyn Renderer, all: &[stoa_book::Edition], cover: Option<&[u8]>) {
    std::hint::black_box(rendered(renderer, all, cover));
}

/// Every edition's EPUB, as the EPUB writer makes it.
fn epub_bytes(all: &[stoa_book::Edition]) -> Vec<Vec<u8>> {
    rendered(&stoa_epub::EpubRenderer, all, None)
        .into_iter()
        .filter_map(|r| match r.output {
            stoa_render::Output::File(body) => Some(body.to_bytes().expect("written")),
            _ => None,
        })
        .collect()
}

fn main() {
    let out = tempfile::tempdir().expect("temp dir");
    let all = editions();
    println!(
        "books/: {} editions, {} chapters",
        all.len(),
        all.iter().map(|e| e.book.chapters.len()).sum::<usize>()
    );
    time("load + parse every edition", || {
        std::hint::black_box(editions());
    });
    time("EPUB writer, every edition (one thread)", || {
        render_all(&stoa_epub::EpubRenderer, &all, None)
    });
    // The EPUB writer runs the last gate on each EPUB it makes; timed
    // alone here, on the same EPUBs, its share of the writer's time.
    let epubs = epub_bytes(&all);
    time("EPUB last gate alone, every edition (one thread)", || {
        for bytes in &epubs {
            stoa_gate::epub(bytes).expect("the books' EPUBs pass the gate");
        }
    });
    let sites: Vec<Vec<(String, Vec<u8>)>> = rendered(&stoa_html::HtmlRenderer, &all, None)
        .into_iter()
        .filter_map(|r| match r.output {
            stoa_render::Output::Folder(files) => Some(
                files
                    .into_iter()
                    .map(|(name, body)| (name, body.to_bytes().expect("written")))
                    .collect(),
            ),
            _ => None,
        })
        .collect();
    time("web last gate alone, every edition (one thread)", || {
        for files in &sites {
            stoa_gate::web(files).expect("the books' web editions pass the gate");
        }
    });
    time("web edition writer, every edition (one thread)", || {
        render_all(&stoa_html::HtmlRenderer, &all, None)
    });
    time(
        "Typst compile + PDF export, every edition (one thread)",
        || render_all(&stoa_pdf::PdfRenderer, &all, None),
    );
    let bare = books_without_plugins(out.path());
    time("full build, EPUB only (parallel)", || {
        build(vec!["epub"], out.path().join("epub"))
    });
    time("full build, EPUB + PDF (parallel)", || {
        build(vec!["epub", "pdf"], out.path().join("two"))
    });
    time("full build, EPUB + PDF + HTML (parallel)", || {
        build(stoa_renderers::builtin().names(), out.path().join("all"))
    });
    let no_index = books_without_index(out.path());
    time("full build, every format, index removed", || {
        build_books(
            no_index.clone(),
            stoa_renderers::builtin().names(),
            out.path().join("no-index"),
        )
    });
    time("full build, every format, plugins removed", || {
        build_books(
            bare.clone(),
            stoa_renderers::builtin().names(),
            out.path().join("bare"),
        )
    });
}
