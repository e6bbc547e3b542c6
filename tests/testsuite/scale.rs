//! A book of many posts builds in memory in proportion to the book, and its
//! pages still say what they are: running heads on text pages, the folio
//! alone at the foot of chapter openings, a contents entry per post.
//!
//! Timing is left to `scripts/bench-scale` (a test must not depend on the
//! machine's speed); peak memory is a property of the program, and it is
//! what grew with pages times chapters when the theme queried every chapter
//! on every page (250 one-paragraph posts took about 2 GiB).

use std::path::Path;
use std::process::{Command, ExitStatus, Output};

use crate::prelude::{pdf_pages, stoa_bin};

/// How many posts: enough for a quadratic cost to show, few enough for a
/// debug build to lay them out in seconds.
const POSTS: usize = 250;
/// Every `LONG`-th post runs over three pages or more, which get running heads.
const LONG: usize = 25;

/// books/ with one English book of `POSTS` posts, in `dir`.
fn many_posts(dir: &Path) {
    let books = dir.join("books");
    std::fs::create_dir_all(books.join("many")).unwrap();
    let mut toml = String::from(
        "author = \"A. Writer\"\nlanguages = [\"en\"]\n\
         identifier = \"urn:uuid:2f0c8a36-1c55-4c7e-8d8e-5b1f2a9c0d01\"\n\
         date = 2024-06-01\nposts = [\n",
    );
    for i in 1..=POSTS {
        toml.push_str(&format!("  \"post-{i}\",\n"));
        let folder = books.join("posts").join(format!("post-{i}"));
        std::fs::create_dir_all(&folder).unwrap();
        let paragraph = format!(
            "Post {i} says one thing: a thought noted on the way and kept because \
             someone who reads the whole blog as a book might find it useful."
        );
        let body = if i % LONG == 0 {
            vec![paragraph; 60].join("\n\n")
        } else {
            paragraph
        };
        std::fs::write(
            folder.join("en.md"),
            format!("+++\ntitle = \"Heading {i}\"\ndate = 2024-01-01\n+++\n\n{body}\n"),
        )
        .unwrap();
    }
    toml.push_str("]\n\n[title]\nen = \"Many posts\"\n");
    std::fs::write(books.join("many/book.toml"), toml).unwrap();
    crate::prelude::copy_dir(
        &crate::prelude::repo_root().join("themes"),
        &dir.join("themes"),
    );
}

/// Runs `command` to its end; its output and its peak resident set in MiB.
///
/// The peak is `wait4`'s account of that one child: `getrusage` of all
/// children would give the largest of every child this process has waited
/// for, and the other tests of this binary run JVMs and whole builds. The
/// output goes to files, so that no pipe fills while nobody reads it; std
/// has no wrapper for `wait4`.
#[allow(unsafe_code)]
fn output_and_peak_mib(command: &mut Command) -> (Output, u64) {
    use std::os::unix::process::ExitStatusExt;
    let (mut stdout, mut stderr) = (temporary_file(), temporary_file());
    // `wait4` below reaps it, not `Child::wait`, which would lose its usage.
    #[allow(clippy::zombie_processes)]
    let child = command
        .stdout(stdout.try_clone().expect("stdout file"))
        .stderr(stderr.try_clone().expect("stderr file"))
        .spawn()
        .expect("stoa runs");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    let mut status = 0;
    // SAFETY: waits for our own child, which nothing else waits for, and
    // writes only into the zeroed struct and the integer it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        while libc::wait4(pid, &mut status, 0, &mut usage) != pid {
            let error = std::io::Error::last_os_error();
            assert_eq!(error.kind(), std::io::ErrorKind::Interrupted, "{error}");
        }
        usage
    };
    let output = Output {
        status: ExitStatus::from_raw(status),
        stdout: read_from_start(&mut stdout),
        stderr: read_from_start(&mut stderr),
    };
    // Linux reports ru_maxrss in KiB.
    (output, u64::try_from(usage.ru_maxrss).unwrap_or(0) / 1024)
}

/// An anonymous temporary file, removed when closed.
fn temporary_file() -> std::fs::File {
    tempfile::tempfile().expect("temp file")
}

/// All that was written to `file`, from its start.
fn read_from_start(file: &mut std::fs::File) -> Vec<u8> {
    use std::io::{Read, Seek};
    let mut bytes = Vec::new();
    file.rewind().expect("rewind");
    file.read_to_end(&mut bytes).expect("read the output");
    bytes
}

#[test]
fn many_posts_build_in_bounded_memory_with_their_pages_marked() {
    let dir = tempfile::tempdir().unwrap();
    many_posts(dir.path());
    let (out, peak) = output_and_peak_mib(
        Command::new(stoa_bin())
            .args([
                "build",
                "-q",
                "--no-site",
                "-j",
                "1",
                "-f",
                "pdf",
                "-f",
                "epub",
            ])
            .args(["-o", "dist"])
            .current_dir(dir.path())
            .env_remove("SOURCE_DATE_EPOCH"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        peak < 1024,
        "{POSTS} posts took {peak} MiB; the cost must grow with the book, not with pages times chapters"
    );

    let pdf = dir.path().join("dist/many/many-en.pdf");
    let pages = pdf_pages(&pdf);
    let first_line = |page: &str| {
        page.lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .to_owned()
    };
    let last_line = |page: &str| {
        page.lines()
            .map(str::trim)
            .rfind(|l| !l.is_empty())
            .unwrap_or("")
            .to_owned()
    };
    for i in (LONG..=POSTS).step_by(LONG) {
        let title = format!("Heading {i}");
        // The opening: the title, no running head, the folio alone at the foot.
        let opening = pages
            .iter()
            .position(|p| first_line(p) == title)
            .unwrap_or_else(|| panic!("no page opens with `{title}`"));
        let folio = last_line(&pages[opening]);
        assert!(
            !folio.is_empty() && folio.chars().all(|c| c.is_ascii_digit()),
            "the opening of `{title}` ends with its folio, not `{folio}`"
        );
        // Then a left-hand page headed by the book's title, and a
        // right-hand one by the chapter's, each with its folio.
        for (page, head) in [(opening + 1, "Many posts"), (opening + 2, title.as_str())] {
            let first = first_line(&pages[page]);
            assert!(
                first.to_lowercase().contains(&head.to_lowercase())
                    && first.chars().any(|c| c.is_ascii_digit()),
                "page {} of `{title}` has the running head `{first}`, not `{head}`",
                page - opening + 1
            );
        }
        // The page before an opening is blank or ends the previous post,
        // and never has the next chapter's head.
        assert!(!first_line(&pages[opening - 1]).contains(&title));
    }
    // The contents list every post; a page with no head is blank or an opening.
    let text = pages.join("\n");
    assert!(text.contains(&format!("Heading {POSTS}")));
    let epub = dir.path().join("dist/many/many-en.epub");
    let spine = crate::prelude::spine(&epub);
    assert_eq!(
        spine.iter().filter(|s| s.starts_with("post-")).count(),
        POSTS,
        "{spine:?}"
    );
}
