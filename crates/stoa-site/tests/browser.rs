//! The page opened in headless Chromium: screenshots at phone and desktop widths,
//! and the rendered DOM's download links checked against the files.
//!
//! Set `STOA_SCREENSHOT_DIR` to keep the screenshots for a look.

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{fake_dist, kinds, percent_decode, sha256_hex};
use stoa_site::write_site;

/// Longer than Chromium ever takes here (about a second a run); only a hung
/// browser reaches it.
const BROWSER_TIMEOUT: Duration = Duration::from_secs(30);

fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in ["chromium", "chromium-browser"] {
        if let Some(found) = std::env::split_paths(&path)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
        {
            return found;
        }
    }
    panic!(
        "Chromium is not installed (looked for `chromium` and `chromium-browser` on PATH): run scripts/install-test-tools"
    );
}

/// Runs Chromium headless on `url` with `extra` arguments, killing it if it hangs.
fn run_chromium(profile: &Path, extra: &[String], url: &str) -> Output {
    let mut command = Command::new(chromium());
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command.spawn().expect("start chromium");
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(BROWSER_TIMEOUT) {
        Ok(output) => output.expect("wait for chromium"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("chromium did not finish within {BROWSER_TIMEOUT:?}");
        }
    }
}

fn png_dimensions(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    (be(16), be(20))
}

fn screenshot(dir: &Path, url: &str, name: &str, width: u32, height: u32) -> PathBuf {
    let shot = dir.join(format!("{name}.png"));
    let output = run_chromium(
        &dir.join(format!("profile-{name}")),
        &[
            format!("--screenshot={}", shot.display()),
            format!("--window-size={width},{height}"),
        ],
        url,
    );
    let png = fs::read(&shot).unwrap_or_else(|e| {
        panic!(
            "no screenshot {} ({e}); chromium said:\n{}",
            shot.display(),
            String::from_utf8_lossy(&output.stderr)
        )
    });
    assert_eq!(
        png_dimensions(&png),
        (width, height),
        "{name}: screenshot size"
    );
    // A blank page compresses to a few hundred bytes; text, covers and buttons don't.
    assert!(
        png.len() > 10_000,
        "{name}: the screenshot looks empty ({} bytes)",
        png.len()
    );
    if let Some(keep) = std::env::var_os("STOA_SCREENSHOT_DIR") {
        fs::create_dir_all(&keep).unwrap();
        fs::copy(&shot, Path::new(&keep).join(format!("{name}.png"))).unwrap();
    }
    shot
}

/// The download links of the rendered DOM with the checksum its edition's
/// list of sums gives for each, by a plain scan: Chromium serialises the
/// DOM as HTML, not XML.
fn rendered_downloads(dom: &str) -> Vec<(String, String)> {
    let mut found = Vec::new();
    for article in dom.split("<article ").skip(1) {
        let article = article.split("</article>").next().unwrap();
        for item in article.split("<li class=\"file\">").skip(1) {
            let item = item.split("</li>").next().unwrap();
            let href = between(item, "class=\"download\" href=\"", "\"").expect("a download link");
            let sum_item = format!("<li class=\"sum\" data-href=\"{href}\">");
            let sum = between(article, &sum_item, "</li>")
                .and_then(|li| between(li, "<code class=\"sha256\">", "</code>"))
                .expect("a checksum");
            found.push((percent_decode(href), sum.to_string()));
        }
    }
    found
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = text.find(start)? + start.len();
    let len = text[from..].find(end)?;
    Some(&text[from..from + len])
}

#[test]
fn page_renders_in_chromium_and_its_links_match_the_files() {
    chromium();
    let dist = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let entries = fake_dist(dist.path());
    write_site(dist.path(), &entries, &kinds()).unwrap();
    let url = format!("file://{}", dist.path().join("index.html").display());

    // Both languages explicitly: without a fragment the script follows the browser's language.
    screenshot(work.path(), &format!("{url}#pt-BR"), "phone-pt", 390, 844);
    screenshot(work.path(), &format!("{url}#en"), "phone-en", 390, 844);
    screenshot(
        work.path(),
        &format!("{url}#pt-BR"),
        "desktop-pt",
        1280,
        900,
    );

    let output = run_chromium(
        &work.path().join("profile-dom"),
        &["--dump-dom".to_string()],
        &url,
    );
    let dom = String::from_utf8(output.stdout).expect("the DOM is UTF-8");
    assert!(
        dom.contains("<main"),
        "chromium rendered no page:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let downloads = rendered_downloads(&dom);
    for (href, sum) in &downloads {
        let path = dist.path().join(href);
        assert!(path.is_file(), "{href} does not exist");
        assert_eq!(&sha256_hex(&path), sum, "checksum of {href}");
    }
    let linked: BTreeSet<String> = downloads.into_iter().map(|(h, _)| h).collect();
    let files: BTreeSet<String> = entries
        .iter()
        .flat_map(|e| &e.files)
        .map(|f| f.to_string_lossy().into_owned())
        .collect();
    assert_eq!(linked, files, "every file has a link in the rendered page");
}
