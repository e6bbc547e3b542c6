//! A build never leaves readers worse off: an edition whose build fails
//! keeps every file it had, and every other edition's files are as a good
//! build makes them; on a full disk no EPUB is replaced; killed at any
//! point, the output folder keeps its download page and catalogs.

use crate::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A book of one post in English and Portuguese.
fn project() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    copy_dir(&repo_root().join("themes"), &root.join("themes"));
    std::fs::create_dir_all(root.join("books/b")).unwrap();
    std::fs::write(
        root.join("books/b/book.toml"),
        "author = \"A\"\nlanguages = [\"en\", \"pt-BR\"]\n\
         identifier = \"urn:uuid:5b0d3a52-6f0e-4d47-9d63-00000000fa17\"\n\
         date = 2024-05-31\nposts = [\"hello\"]\n\n\
         [title]\nen = \"Faults\"\npt-BR = \"Falhas\"\n",
    )
    .unwrap();
    write_posts(root, "first");
    dir
}

/// Both posts, saying `word`.
fn write_posts(root: &Path, word: &str) {
    let posts = root.join("books/posts/hello");
    std::fs::create_dir_all(&posts).unwrap();
    std::fs::write(
        posts.join("en.md"),
        format!("+++\ntitle = \"Hello\"\n+++\n\nThe {word} version of a short post.\n"),
    )
    .unwrap();
    std::fs::write(
        posts.join("pt-BR.md"),
        format!("+++\ntitle = \"Olá\"\n+++\n\nA versão {word} de um texto curto.\n"),
    )
    .unwrap();
}

/// `stoa build` of every format, with `env` set; its output.
fn build(root: &Path, env: &[(&str, &str)]) -> std::process::Output {
    let mut command = Command::new(stoa_bin());
    command
        .arg("build")
        .current_dir(root)
        .env("SOURCE_DATE_EPOCH", "1717113600");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().unwrap()
}

fn build_ok(root: &Path) {
    let out = build(root, &[]);
    assert!(out.status.success(), "{}", output_text(&out));
}

/// Every file of the output folder but the cache, with its bytes.
fn snapshot(dist: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files_below(dist)
        .into_iter()
        .map(|rel| {
            let bytes = std::fs::read(dist.join(&rel)).unwrap();
            (rel, bytes)
        })
        .collect()
}

/// The files of `snapshot` of one edition (`en` or `pt-BR`).
fn edition(snapshot: &BTreeMap<PathBuf, Vec<u8>>, lang: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    let stem = format!("b-{lang}");
    snapshot
        .iter()
        .filter(|(p, _)| {
            let s = p.to_string_lossy();
            s.starts_with(&format!("b/{lang}/")) || s.starts_with(&format!("b/{stem}."))
        })
        .map(|(p, b)| (p.clone(), b.clone()))
        .collect()
}

/// The SHA-256 sums the download page lists, each checked against the file
/// it names.
fn check_page_sums(dist: &Path) {
    let page = std::fs::read_to_string(dist.join("index.html")).expect("the download page");
    for (file, sum) in listed_sums(&page) {
        let bytes = std::fs::read(dist.join(&file))
            .unwrap_or_else(|_| panic!("the page lists {file}, which is not there"));
        assert_eq!(sha256_hex(&bytes), sum, "the page's sum of {file}");
    }
}

/// (file, sum) pairs of the download page: each file's link comes before
/// its sum.
fn listed_sums(page: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for chunk in page
        .split("<code class=\"sha256\">")
        .collect::<Vec<_>>()
        .windows(2)
    {
        let href = chunk[0]
            .rsplit("href=\"")
            .next()
            .and_then(|s| s.split('"').next())
            .unwrap_or_default();
        pairs.push((href.to_string(), chunk[1][..64].to_string()));
    }
    pairs
}

/// A post that cannot be loaded fails its edition only: that edition keeps
/// every file, and the other language's edition is rebuilt whole, its
/// language switch still pointing at the pages kept.
#[test]
fn an_edition_that_fails_keeps_its_files_and_the_others_keep_their_links() {
    let project = project();
    let (root, dist) = (project.path(), project.path().join("dist"));
    build_ok(root);
    let before = snapshot(&dist);
    assert!(before.contains_key(Path::new("b/pt-BR/hello.html")));

    // The English post breaks (an unclosed front matter); the Portuguese
    // one changes.
    write_posts(root, "second");
    std::fs::write(
        root.join("books/posts/hello/en.md"),
        "+++\ntitle = \"Hello\"\n\nNever closed.\n",
    )
    .unwrap();
    let out = build(root, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", output_text(&out));
    let after = snapshot(&dist);
    assert_eq!(edition(&after, "en"), edition(&before, "en"), "en kept");
    assert_ne!(edition(&after, "pt-BR"), edition(&before, "pt-BR"));
    let page = String::from_utf8(after[Path::new("b/pt-BR/hello.html")].clone()).unwrap();
    assert!(
        page.contains("hreflang=\"en\"") && page.contains("../en/hello.html"),
        "the pt-BR page lost its link to the English one kept:\n{page}"
    );
    check_page_sums(&dist);
}

/// On a full disk the PDF cannot be written: the EPUB and web edition of
/// the same edition, made, are not written either (their page list would
/// name pages of a PDF that is not there), the other edition is, and the
/// download page lists the files in place with their true sums. The next
/// build, with room, writes what a clean build writes.
#[test]
fn on_a_full_disk_no_epub_is_replaced_and_the_page_stays_true() {
    let project = project();
    let (root, dist) = (project.path(), project.path().join("dist"));
    build_ok(root);
    let before = snapshot(&dist);

    write_posts(root, "second");
    let out = build(root, &[("STOA_FAULT_FULL_DISK", "b-en.pdf")]);
    let text = output_text(&out);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("No space left on device"), "{text}");
    assert!(
        text.contains("b-en.epub was made but not written"),
        "the EPUB's fate is told:\n{text}"
    );
    let after = snapshot(&dist);
    assert_eq!(edition(&after, "en"), edition(&before, "en"), "en kept");
    assert_ne!(edition(&after, "pt-BR"), edition(&before, "pt-BR"));
    check_page_sums(&dist);
    assert_eq!(stoa_temporaries(&dist), Vec::<PathBuf>::new());

    // With room again: as a clean build of the same sources.
    build_ok(root);
    let repaired = snapshot(&dist);
    let clean = tempfile::tempdir().unwrap();
    copy_dir(&root.join("books"), &clean.path().join("books"));
    copy_dir(&root.join("themes"), &clean.path().join("themes"));
    build_ok(clean.path());
    assert_eq!(repaired, snapshot(&clean.path().join("dist")));
}

/// stoa's temporary files and folders below `dir` (its lock aside).
fn stoa_temporaries(dir: &Path) -> Vec<PathBuf> {
    files_below(dir)
        .into_iter()
        .filter(|p| {
            p.components().any(|c| {
                let name = c.as_os_str().to_string_lossy();
                name.starts_with(".stoa-") && name != ".stoa-lock"
            })
        })
        .collect()
}

/// Killed (SIGKILL: no handler runs) at several points of a `--force`
/// build, the output folder still has its download page and catalogs, and
/// every file the page lists is there. The next build repairs the rest.
#[test]
fn killed_anywhere_the_download_page_and_catalogs_stay() {
    let project = project();
    let (root, dist) = (project.path(), project.path().join("dist"));
    build_ok(root);
    let site = ["index.html", "opds.xml", "opds-en.xml", "opds-pt-BR.xml"];
    // Killed after the n-th line the build prints (its progress), and once
    // before it prints anything.
    for n in 0..8 {
        let mut child = Command::new(stoa_bin())
            .args(["build", "--force"])
            .current_dir(root)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut reader = std::io::BufReader::new(child.stderr.take().unwrap());
        for _ in 0..n {
            let mut line = String::new();
            if std::io::BufRead::read_line(&mut reader, &mut line).unwrap_or(0) == 0 {
                break;
            }
        }
        let _ = child.kill();
        let _ = child.wait();
        for file in site {
            assert!(
                dist.join(file).is_file(),
                "{file} gone after a kill at line {n}"
            );
        }
        let page = std::fs::read_to_string(dist.join("index.html")).unwrap();
        for (file, _) in listed_sums(&page) {
            assert!(
                dist.join(&file).is_file(),
                "{file} listed but gone (line {n})"
            );
        }
    }
    build_ok(root);
    check_page_sums(&dist);
    assert_eq!(stoa_temporaries(&dist), Vec::<PathBuf>::new());
}

/// `stoa serve` answers `/` with 200 all through a `--force` build of the
/// folder it serves: the download page is replaced, never removed.
#[test]
fn the_served_download_page_answers_throughout_a_build() {
    let project = project();
    let (root, dist) = (project.path(), project.path().join("dist"));
    build_ok(root);
    let (mut server, addr) = spawn_serve(&dist);
    let mut build = Command::new(stoa_bin())
        .args(["build", "--force"])
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut statuses = Vec::new();
    while build.try_wait().unwrap().is_none() {
        statuses.push(status_of_root(addr));
    }
    statuses.push(status_of_root(addr));
    let _ = server.kill();
    let _ = server.wait();
    assert!(statuses.len() > 1, "no request while the build ran");
    let failed: Vec<&String> = statuses.iter().filter(|s| !s.contains(" 200 ")).collect();
    assert!(
        failed.is_empty(),
        "{} of {} answers were not 200: {:?}",
        failed.len(),
        statuses.len(),
        failed.first()
    );
}

/// The status line of a GET of `/`.
fn status_of_root(addr: std::net::SocketAddr) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut bytes = Vec::new();
    let _ = stream.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes);
    text.lines().next().unwrap_or_default().to_string()
}
