//! `stoa watch` end to end, through the real command on a copy of books/:
//! a post saved the way editors save (a temporary file renamed onto it)
//! rewrites exactly the editions that include it, byte-identical to a cold
//! build; a broken save keeps the last good files and says where the error
//! is; the next good save recovers; a browser connected to the live
//! preview's event stream hears which pages changed; Ctrl-C stops cleanly.
//!
//! Nothing sleeps: the test waits for the `--events` lines the command
//! prints after each build. The timeouts only bound a broken build.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::prelude::{project_from, repo_root, stoa, stoa_bin};
use serde_json::Value;

/// The longest a build may take before the test fails (a bound, not a wait).
const BUILD_BOUND: Duration = Duration::from_secs(180);

/// The post edited: in one book (collection) and one language (en).
const POST: &str = "books/posts/market-value/en.md";

/// `stoa watch` running; killed when dropped.
struct Watching {
    child: Child,
    lines: Receiver<String>,
    stderr: Arc<Mutex<String>>,
}

impl Drop for Watching {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Watching {
    fn start(dir: &Path) -> Watching {
        let mut child = Command::new(stoa_bin())
            .args([
                "watch", "-f", "epub", "-f", "html", "--events", "--serve", "--port", "0",
            ])
            .current_dir(dir)
            .env_remove("SOURCE_DATE_EPOCH")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("stoa watch starts");
        let (tx, lines) = channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // Standard error is drained, or the command would block on it.
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        let mut err = child.stderr.take().unwrap();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        Watching {
            child,
            lines,
            stderr,
        }
    }

    /// The next event line of kind `kind`.
    fn next(&self, kind: &str) -> Value {
        loop {
            let line = self.lines.recv_timeout(BUILD_BOUND).unwrap_or_else(|_| {
                panic!(
                    "no `{kind}` event within {BUILD_BOUND:?}; stderr:\n{}",
                    self.stderr()
                )
            });
            let value: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
            if value["event"] == kind {
                return value;
            }
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

/// Every file under `dir` (the build cache left out) with its bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if rel.starts_with(".cache") || rel.contains("/.stoa") || rel.starts_with(".stoa") {
                continue;
            }
            if entry.file_type().unwrap().is_dir() {
                walk(root, &path, out);
            } else {
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The files whose bytes differ between two snapshots (added or removed too).
fn differing(a: &BTreeMap<String, Vec<u8>>, b: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    names
        .into_iter()
        .filter(|n| a.get(*n) != b.get(*n))
        .cloned()
        .collect()
}

/// Saves `text` into `path` as editors do: a temporary file beside it,
/// written, then renamed onto the real name.
fn save_like_an_editor(path: &Path, text: &str) {
    let tmp = path.with_extension("md.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// A raw client of the live preview's event stream.
struct Stream(BufReader<TcpStream>);

impl Stream {
    fn open(addr: SocketAddr, since: u64) -> Stream {
        let mut tcp = TcpStream::connect(addr).unwrap();
        tcp.set_read_timeout(Some(BUILD_BOUND)).unwrap();
        write!(
            tcp,
            "GET /.stoa/events?since={since} HTTP/1.1\r\nHost: localhost\r\n\r\n"
        )
        .unwrap();
        let mut reader = BufReader::new(tcp);
        let mut status = String::new();
        reader.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).unwrap();
            if line == "\r\n" {
                break;
            }
        }
        Stream(reader)
    }

    /// The data of the next `build` event.
    fn next(&mut self) -> Value {
        let (mut event, mut data) = (String::new(), String::new());
        loop {
            let mut line = String::new();
            assert!(self.0.read_line(&mut line).unwrap() > 0, "stream ended");
            let line = line.trim_end_matches('\n');
            if line.is_empty() {
                if event == "build" {
                    return serde_json::from_str(&data).unwrap();
                }
                data.clear();
                continue;
            }
            if let Some(v) = line.strip_prefix("event: ") {
                event = v.into();
            } else if let Some(v) = line.strip_prefix("data: ") {
                data.push_str(v);
            }
        }
    }
}

fn get(addr: SocketAddr, path: &str) -> String {
    let mut tcp = TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    // Read up to the close: the server keeps HTTP/1.1 connections open otherwise.
    write!(
        tcp,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut text = String::new();
    tcp.read_to_string(&mut text).unwrap();
    text
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap_or_else(|| panic!("not an array: {v}"))
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn an_edit_rewrites_exactly_its_editions_a_broken_one_keeps_them_and_the_browser_hears() {
    let project = project_from(&repo_root().join("books"));
    let dir = project.path();
    let dist = dir.join("dist");
    let watching = Watching::start(dir);
    let serving = watching.next("serving");
    let port = serving["port"].as_u64().unwrap() as u16;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let first = watching.next("build");
    assert_eq!(first["ok"], true, "{first}\n{}", watching.stderr());
    let before = files(&dist);
    assert!(before.contains_key("collection/collection-en.epub"));

    // A browser has a page open and listens.
    let mut browser = Stream::open(addr, 1);
    let greeting = browser.next();
    assert_eq!(greeting["ok"], true, "{greeting}");

    // One paragraph edited, saved through a temporary file.
    let post = dir.join(POST);
    let original = std::fs::read_to_string(&post).unwrap();
    let edited = original.replace(
        "less an absolute truth",
        "less an absolute truth (edited in watch)",
    );
    assert_ne!(edited, original);
    save_like_an_editor(&post, &edited);
    let build = watching.next("build");
    assert_eq!(build["ok"], true, "{build}\n{}", watching.stderr());
    assert!(
        strings(&build["changed"])
            .iter()
            .any(|c| c.ends_with("market-value/en.md")),
        "{build}"
    );
    assert!(
        !strings(&build["changed"])
            .iter()
            .any(|c| c.ends_with(".tmp")),
        "{build}"
    );
    let written: Vec<String> = build["written"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["path"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        written,
        ["dist/collection/collection-en.epub", "dist/collection/en"],
        "{build}"
    );
    let after = files(&dist);
    let changed = differing(&before, &after);
    // Exactly the English collection changed, and the download page that
    // lists its files with their sizes and hashes.
    assert!(
        changed.contains(&"collection/collection-en.epub".to_string()),
        "{changed:?}"
    );
    for file in &changed {
        assert!(
            file == "collection/collection-en.epub"
                || file.starts_with("collection/en/")
                || !file.contains('/'),
            "{file} changed, but the edit is not in it: {changed:?}"
        );
    }
    let pages: Vec<&String> = changed
        .iter()
        .filter(|f| f.ends_with(".html") && f.starts_with("collection/en/"))
        .collect();
    assert!(!pages.is_empty(), "{changed:?}");
    assert!(
        pages
            .iter()
            .any(|p| String::from_utf8_lossy(&after[*p]).contains("(edited in watch)")),
        "{pages:?}"
    );
    // The event names the same files, and so does the browser's stream.
    assert_eq!(strings(&build["files"]), changed, "{build}");
    let heard = browser.next();
    let expected: Vec<String> = changed.iter().map(|f| format!("/{f}")).collect();
    assert_eq!(strings(&heard["changed"]), expected, "{heard}");
    assert_eq!(heard["ok"], true);

    // Equal to a cold build of the same input, byte for byte.
    let cold = dir.join("cold");
    let out = stoa(
        dir,
        &[
            "build",
            "-f",
            "epub",
            "-f",
            "html",
            "--quiet",
            "--out",
            cold.to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cold_files = files(&cold);
    assert_eq!(
        differing(&after, &cold_files),
        Vec::<String>::new(),
        "watch and a cold build differ"
    );

    // The page is served with the live script; the file on disk has none.
    let page = pages[0];
    let served = get(addr, &format!("/{page}"));
    assert!(served.contains("<script id=\"stoa-live\">"), "{served}");
    assert!(!String::from_utf8_lossy(&after[page]).contains("stoa-live"));

    // A broken save: unclosed string in the front matter.
    let broken = edited.replacen("title = \"Market value\"", "title = \"Market value", 1);
    assert_ne!(broken, edited);
    save_like_an_editor(&post, &broken);
    let failed = watching.next("build");
    assert_eq!(failed["ok"], false, "{failed}");
    let error = &failed["errors"][0];
    assert!(
        error["file"]
            .as_str()
            .unwrap_or("")
            .ends_with("market-value/en.md"),
        "{failed}"
    );
    assert!(error["line"].as_u64().is_some(), "{failed}");
    // The failed edition's files stay as they were. (Other editions may
    // change as a cold build of this input would change them: the
    // Portuguese pages lose their link to the English edition that failed.)
    let kept: Vec<String> = differing(&after, &files(&dist))
        .into_iter()
        .filter(|f| f == "collection/collection-en.epub" || f.starts_with("collection/en/"))
        .collect();
    assert_eq!(kept, Vec::<String>::new(), "the last good files stay");
    let heard = browser.next();
    assert_eq!(heard["ok"], false, "{heard}");
    assert!(
        heard["errors"][0]["file"]
            .as_str()
            .unwrap()
            .ends_with("market-value/en.md")
    );
    let line = error["line"].as_u64().unwrap();
    let terminal = watching.stderr();
    assert!(
        terminal.contains(&format!("market-value/en.md:{line}")),
        "the terminal names the file and line:\n{terminal}"
    );

    // The next good save recovers: the files are those of the cold build.
    save_like_an_editor(&post, &edited);
    let fixed = watching.next("build");
    assert_eq!(fixed["ok"], true, "{fixed}");
    assert_eq!(differing(&files(&dist), &cold_files), Vec::<String>::new());
    let heard = browser.next();
    assert_eq!(heard["ok"], true, "{heard}");
    assert_eq!(heard["errors"], serde_json::json!([]));

    // Ctrl-C stops it cleanly: the signal's exit status, nothing left behind.
    stop_with_sigint(watching, &dist);

    // Started again on that output, nothing to rewrite: an edit still names
    // exactly the files it changed (the first build took stock of them all,
    // though it wrote none).
    let again = Watching::start(dir);
    again.next("serving");
    let first = again.next("build");
    assert_eq!(first["written"], serde_json::json!([]), "{first}");
    let before = files(&dist);
    save_like_an_editor(
        &post,
        &edited.replace("(edited in watch)", "(edited again)"),
    );
    let build = again.next("build");
    assert_eq!(build["ok"], true, "{build}");
    assert_eq!(
        strings(&build["files"]),
        differing(&before, &files(&dist)),
        "{build}"
    );
}

#[cfg(unix)]
#[allow(unsafe_code)]
fn stop_with_sigint(mut watching: Watching, dist: &Path) {
    let pid = libc::pid_t::try_from(watching.child.id()).unwrap();
    // SAFETY: sends a signal to our own child process.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = watching.child.wait().unwrap();
    assert_eq!(status.code(), Some(130), "{}", watching.stderr());
    let leftovers: Vec<PathBuf> = std::fs::read_dir(dist)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with(".stoa-")
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[cfg(not(unix))]
fn stop_with_sigint(_watching: Watching, _dist: &Path) {}
