//! Accessibility end to end: Ace by DAISY (installed by
//! scripts/install-test-tools, run with the system Chromium) finds no
//! violation of any severity in any EPUB of books/ or of the fixtures, the
//! page list included (the books are built with their PDF, so that the
//! EPUBs carry the print edition's page breaks).

use crate::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The `node_modules` folder Ace is installed in: `STOA_ACE_MODULES`, or
/// the one scripts/install-test-tools makes in `$STOA_TEST_TOOLS/ace`
/// (default `~/.cache/stoa-test-tools`).
fn ace_modules() -> PathBuf {
    if let Some(modules) = std::env::var_os("STOA_ACE_MODULES") {
        return PathBuf::from(modules);
    }
    let modules = test_tools_dir().join("ace/node_modules");
    assert!(
        modules.join("@daisy/ace-core").is_dir(),
        "Ace by DAISY is not installed: run scripts/install-test-tools (or set STOA_ACE_MODULES)"
    );
    modules
}

/// The browser Ace drives: `PUPPETEER_EXECUTABLE_PATH`, else the system
/// Chromium (puppeteer's own download is skipped at install).
fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("PUPPETEER_EXECUTABLE_PATH") {
        return PathBuf::from(path);
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
        .expect("Chromium is not installed: run scripts/install-test-tools")
}

/// Runs Ace on every EPUB and returns every violation, as `file:
/// document: impact rule (where) why`. One Node process and one browser
/// check the whole list (tests/tools/ace-batch.js; `ace-cli` would start
/// both for each book), and one such batch runs at a time in the test
/// binary: each already checks two books at once, and more on two cores
/// starve the browser.
fn ace(epubs: &[PathBuf]) -> Vec<String> {
    let reports = tempfile::tempdir().expect("temp dir");
    let mut problems = Vec::new();
    for (n, report) in ace_reports(epubs, reports.path()).iter().enumerate() {
        problems.extend(violations(report, &epubs[n]));
    }
    problems.sort();
    problems
}

/// Ace's `report.json` for each EPUB, in order. A book left without a
/// report (the browser did not start in time on a loaded machine: Ace
/// says nothing of the book then) is tried again, up to three times in
/// all; a book that makes Ace fail every time fails the test with Ace's
/// own words.
fn ace_reports(epubs: &[PathBuf], out: &Path) -> Vec<String> {
    let (modules, browser) = (ace_modules(), chromium());
    let script = repo_root().join("tests/tools/ace-batch.js");
    let mut reports: Vec<Option<String>> = vec![None; epubs.len()];
    let mut said = String::new();
    for attempt in 1..=3 {
        let missing: Vec<usize> = (0..epubs.len()).filter(|&n| reports[n].is_none()).collect();
        if missing.is_empty() {
            break;
        }
        let batch = out.join(format!("attempt-{attempt}"));
        // Node, Ace, puppeteer and Chromium keep their scratch files (the
        // unpacked book, the browser's profile) under TMPDIR, and do not
        // always remove them: here they go with the reports' folder.
        let scratch = out.join(format!("tmp-{attempt}"));
        std::fs::create_dir_all(&scratch).expect("scratch folder");
        let slot = AceSlot::take();
        let output = Command::new("node")
            .arg(&script)
            .arg(&batch)
            .args(missing.iter().map(|&n| &epubs[n]))
            .env("NODE_PATH", &modules)
            .env("PUPPETEER_EXECUTABLE_PATH", &browser)
            .env("TMPDIR", &scratch)
            .output();
        drop(slot);
        let output = output.expect("node runs (scripts/install-test-tools installs it)");
        for (k, &n) in missing.iter().enumerate() {
            reports[n] =
                std::fs::read_to_string(batch.join(k.to_string()).join("report.json")).ok();
        }
        said = format!(
            "attempt {attempt}: {}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    reports
        .into_iter()
        .zip(epubs)
        .map(|(report, epub)| {
            report.unwrap_or_else(|| panic!("Ace wrote no report for {}:\n{said}", epub.display()))
        })
        .collect()
}

/// The one Ace batch the test binary allows at a time, given back when
/// dropped.
struct AceSlot;

static ACE_RUNNING: std::sync::Mutex<bool> = std::sync::Mutex::new(false);
static ACE_FREED: std::sync::Condvar = std::sync::Condvar::new();

impl AceSlot {
    fn take() -> AceSlot {
        let mut running = ACE_RUNNING.lock().unwrap_or_else(|e| e.into_inner());
        while *running {
            running = ACE_FREED.wait(running).unwrap_or_else(|e| e.into_inner());
        }
        *running = true;
        AceSlot
    }
}

impl Drop for AceSlot {
    fn drop(&mut self) {
        *ACE_RUNNING.lock().unwrap_or_else(|e| e.into_inner()) = false;
        ACE_FREED.notify_one();
    }
}

/// The violations of an Ace report (`report.json`).
fn violations(report: &str, epub: &Path) -> Vec<String> {
    let report: serde_json::Value = serde_json::from_str(report).expect("Ace's report is JSON");
    let mut found = Vec::new();
    for document in report["assertions"].as_array().into_iter().flatten() {
        let url = document["earl:testSubject"]["url"].as_str().unwrap_or("?");
        for assertion in document["assertions"].as_array().into_iter().flatten() {
            if assertion["earl:result"]["earl:outcome"] != "fail" {
                continue;
            }
            let test = &assertion["earl:test"];
            found.push(format!(
                "{}: {url}: {} {} ({}) {}",
                epub.display(),
                test["earl:impact"].as_str().unwrap_or("?"),
                test["dct:title"].as_str().unwrap_or("?"),
                assertion["earl:result"]["earl:pointer"]["css"],
                assertion["earl:result"]["dct:description"]
                    .as_str()
                    .unwrap_or("")
                    .lines()
                    .next()
                    .unwrap_or(""),
            ));
        }
    }
    if found.is_empty() && report["earl:result"]["earl:outcome"] != "pass" {
        found.push(format!("{}: Ace says the book fails", epub.display()));
    }
    found
}

/// Builds `formats` of every book of `project` and returns its EPUBs.
fn build_epubs(project: &Path, formats: &[&str]) -> Vec<PathBuf> {
    let mut args = vec!["build", "--no-site", "--out", "dist"];
    for format in formats {
        args.extend(["--format", format]);
    }
    let result = stoa(project, &args);
    let stderr = String::from_utf8_lossy(&result.stderr);
    assert!(result.status.success(), "stoa build failed:\n{stderr}");
    let dist = project.join("dist");
    files_below(&dist)
        .into_iter()
        .filter(|f| f.extension().is_some_and(|e| e == "epub"))
        .map(|f| dist.join(f))
        .collect()
}

#[test]
fn every_epub_of_the_books_passes_ace_with_its_page_list() {
    let epubs = books().files("epub");
    assert_eq!(epubs.len(), 4, "{epubs:?}");
    for epub in &epubs {
        let nav = zip_entry(epub, "OEBPS/nav.xhtml");
        assert!(
            nav.contains("epub:type=\"page-list\""),
            "{}",
            epub.display()
        );
    }
    let problems = ace(&epubs);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_epub_of_the_fixtures_passes_ace() {
    let mut epubs = Vec::new();
    let mut projects = Vec::new();
    // The torture set also with its PDF: page breaks in odd places.
    let torture = torture_project();
    epubs.extend(build_epubs(torture.path(), &["pdf", "epub"]));
    projects.push(torture);
    for fixture_books in ["footnotes/books", "notes-agree/books", "raw-html/books"] {
        let project = project_from(&fixture(fixture_books));
        epubs.extend(build_epubs(project.path(), &["epub"]));
        projects.push(project);
    }
    // MathML, figures, references and works cited, with the page list
    // their print pages give.
    let scholarly = project_from(&fixture("scholarly/books"));
    epubs.extend(build_epubs(scholarly.path(), &["pdf", "epub"]));
    projects.push(scholarly);
    assert!(epubs.len() >= 16, "{epubs:?}");
    let problems = ace(&epubs);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The books `stoa import` makes of each kind of blog (issue 26): their
/// EPUBs, HTML bodies converted to Markdown included, pass Ace too.
#[test]
fn every_epub_of_an_imported_blog_passes_ace() {
    let imports = [
        ("hugo", "hugo-v1"),
        ("jekyll", "jekyll-v1"),
        ("zola", "zola-v1"),
        ("wordpress", "wordpress-v1/export.xml"),
        ("ghost", "ghost-v1"),
        ("substack", "substack-v1"),
        ("feed", "feed-v1/atom.xml"),
    ];
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut epubs = Vec::new();
    for (n, (kind, source)) in imports.iter().enumerate() {
        let source = repo_root().join("tests/fixtures/import").join(source);
        let name = format!("blog-{n}");
        let out = stoa(
            tmp.path(),
            &["import", kind, source.to_str().expect("path"), &name],
        );
        assert!(out.status.success(), "{kind}: {}", output_text(&out));
        epubs.extend(build_epubs(&tmp.path().join(&name), &["epub"]));
    }
    assert!(epubs.len() >= 10, "{epubs:?}");
    let problems = ace(&epubs);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The real blogs of tests/fixtures/corpus (issue 50), each imported as its
/// SOURCE.toml says: every EPUB of every language passes Ace.
#[test]
fn every_epub_of_the_real_blogs_passes_ace() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut epubs = Vec::new();
    for (n, blog) in CorpusBlog::all().iter().enumerate() {
        let name = format!("blog-{n}");
        let site = blog.dir.join("site");
        let args = ["import", &blog.kind, site.to_str().expect("path"), &name];
        let out = stoa(tmp.path(), &args);
        assert!(
            out.status.success(),
            "{}: {}",
            blog.dir.display(),
            output_text(&out)
        );
        epubs.extend(build_epubs(&tmp.path().join(&name), &["epub"]));
    }
    assert!(epubs.len() >= 20, "{epubs:?}");
    let problems = ace(&epubs);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
