//! The author's loop, measured (issue 14): a warm `stoa_build::Session` over
//! a copy of books/, one paragraph of one post edited again and again, as
//! `stoa watch` does. Prints, as medians over the cycles: the time until
//! the affected EPUB and web edition are written, until the affected PDFs
//! are, a whole cycle, a session build with nothing changed, the cold first
//! build for comparison, and the resident memory after the first cycles and
//! after the last.
//!
//! `cargo bench -p stoa-tests --bench incremental -- [CYCLES]` (default 50);
//! scripts/bench-incremental runs it with the rest.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use stoa_build::{BuildOptions, Event, Session};
use stoa_tests::{copy_dir, repo_root};

fn main() {
    let cycles: usize = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or(50);
    let dir = tempfile::tempdir().expect("temp dir");
    let books = dir.path().join("books");
    copy_dir(&repo_root().join("books"), &books);
    copy_dir(&repo_root().join("themes"), &dir.path().join("themes"));
    let exe = std::env::current_exe().expect("bench path");
    let options = BuildOptions {
        site: true,
        exe_dir: exe.parent().and_then(Path::parent).map(Path::to_path_buf),
        ..BuildOptions::new(
            books.clone(),
            dir.path().join("themes"),
            dir.path().join("dist"),
        )
    };
    let mut session = Session::new(options);
    let started = Instant::now();
    let first = run(&mut session);
    let cold = started.elapsed();
    assert!(first.ok, "the first build failed");
    let noop = {
        let t = Instant::now();
        let r = run(&mut session);
        assert!(r.written.is_empty(), "nothing changed: {:?}", r.written);
        t.elapsed()
    };
    let post = edited_post(&books);
    let original = std::fs::read_to_string(&post).expect("post");
    let mut light = Vec::new();
    let mut pdf = Vec::new();
    let mut whole = Vec::new();
    let mut rss_early = 0;
    for cycle in 0..cycles {
        let text = edit(&original, cycle);
        let tmp = post.with_extension("md.tmp");
        std::fs::write(&tmp, text).expect("write");
        std::fs::rename(&tmp, &post).expect("rename");
        let t = Instant::now();
        let r = run(&mut session);
        whole.push(t.elapsed());
        assert!(r.ok, "cycle {cycle} failed");
        let at = |f: &dyn Fn(&str) -> bool| {
            r.written
                .iter()
                .filter(|(format, _)| f(format))
                .map(|(_, d)| *d)
                .max()
        };
        if let Some(d) = at(&|f| f != "pdf") {
            light.push(d + r.began.duration_since(t));
        }
        if let Some(d) = at(&|f| f == "pdf") {
            pdf.push(d + r.began.duration_since(t));
        }
        if cycle == 9.min(cycles - 1) {
            rss_early = rss_kib();
        }
    }
    let rss_end = rss_kib();
    println!("post edited: {}", post.display());
    println!("cold first build (session)        {:>9.1} ms", ms(cold));
    println!("no-op build (session)             {:>9.1} ms", ms(noop));
    println!(
        "edit -> EPUB/HTML written (median) {:>8.1} ms  (target: at most 100 ms)",
        ms(median(&mut light))
    );
    println!(
        "edit -> PDFs written (median)      {:>8.1} ms  ({:.0} % of the cold build; target: at most 40 %)",
        ms(median(&mut pdf)),
        100.0 * median(&mut pdf).as_secs_f64() / cold.as_secs_f64()
    );
    println!(
        "edit cycle, whole (median)         {:>8.1} ms",
        ms(median(&mut whole))
    );
    println!(
        "resident memory after cycle 10: {} MiB, after cycle {cycles}: {} MiB (growth {} MiB; target: under 50 MiB over 1,000)",
        rss_early / 1024,
        rss_end / 1024,
        (rss_end.saturating_sub(rss_early)) / 1024
    );
}

/// What one session build did: when each written artifact was told, after
/// `began`.
struct Run {
    ok: bool,
    began: Instant,
    written: Vec<(&'static str, Duration)>,
}

fn run(session: &mut Session) -> Run {
    let began = Instant::now();
    let written = Mutex::new(Vec::new());
    let report = session.build(&|event| {
        if let Event::Built(a) = event
            && a.written
        {
            written.lock().unwrap().push((a.format, began.elapsed()));
        }
    });
    Run {
        ok: report.ok(),
        began,
        written: written.into_inner().unwrap(),
    }
}

/// A post of books/ that a book includes: the first English one of the
/// first book, in its listing order.
fn edited_post(books: &Path) -> PathBuf {
    let mut dirs = stoa_book::discover(books).expect("books");
    dirs.sort();
    for dir in dirs {
        let config = stoa_book::load_config(&dir).expect("book.toml");
        for (slug, _) in &config.posts {
            let path = config.posts_dir.join(slug).join("en.md");
            if path.is_file() {
                return path;
            }
        }
    }
    panic!("no English post in books/");
}

/// The post with one paragraph changed: a word added to the last line that
/// ends a sentence, different in each cycle.
fn edit(original: &str, cycle: usize) -> String {
    let mut lines: Vec<String> = original.lines().map(str::to_string).collect();
    if let Some(line) = lines
        .iter_mut()
        .rev()
        .find(|l| l.trim_end().ends_with('.') && !l.starts_with(['#', '>', '|', '-', '*', ' ']))
    {
        line.push_str(&format!(" Edit {cycle}."));
    }
    lines.join("\n") + "\n"
}

fn median(v: &mut [Duration]) -> Duration {
    if v.is_empty() {
        return Duration::ZERO;
    }
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// This process's resident memory in KiB (Linux), 0 elsewhere.
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse().ok())
        })
        .unwrap_or(0)
}
